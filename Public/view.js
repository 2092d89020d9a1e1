// The board as shown: applies the server's changes exactly once, in version order, and catches
// up (fetching the board's lists) when it missed one.

import { BOARD_CHANGED, STATUS_SAID } from './events.js';
import { captureMotion } from './motion.js';
import { draftsOf, restoreDrafts } from './lists.js';
import { isWindowed } from './paging.js';
import {
  BOARD_LIST, BOARD_TITLE, LIST_GROUP, LIST_TITLE, STATUS,
  boardListSelector, listSelector, rowById, rowContainer, rowSelector, zoneSelector,
} from './selectors.js';

/** How long an answer that came early waits for the one before it (see `apply`). */
const GAP_WAIT_MS = 250;

export function createView(root, board, api) {
  const status = root.querySelector(STATUS);
  let deferred = [];
  let dragLive = false;

  const version = () => Number(board.dataset.version);

  /** Shows a message; `answer` is the server's answer to this page's own change, if it was one. */
  function say(message, kind = 'info', answer = null) {
    if (!status) return;
    // The server's words may start lower-case (they are parts of sentences in its JSON); a status is a sentence.
    // (Only a lower-case word: "photo.png was not added" names a file, which keeps its case.)
    if (/^[a-z]+[\s,;]/.test(message ?? '')) message = message[0].toUpperCase() + message.slice(1);
    status.textContent = message ?? '';
    status.dataset.kind = kind;
    board.dispatchEvent(new CustomEvent(STATUS_SAID, { detail: { message, kind, answer } }));
  }

  function fragment(html) {
    const template = document.createElement('template');
    template.innerHTML = html;
    return template.content.firstElementChild;
  }

  let leaving = false;
  /** Leaves the board (it was deleted) once: the answer and the live event both say so. */
  function leave(to) {
    if (leaving) return;
    leaving = true;
    window.location.assign(to);
  }

  function applyChange(change) {
    if (change.kind === 'resync') return false;   // a list changed: fetch the board's lists
    if (change.kind === 'gone') { leave('/'); return true; }
    if (change.kind === 'title') {
      const title = board.querySelector(BOARD_TITLE);
      if (title && !title.querySelector('input')) title.textContent = change.html ?? '';
      document.title = `${change.html ?? ''} · Dragboard`;
      return true;
    }
    if (change.kind === 'zone') {
      const zone = board.querySelector(zoneSelector(change.item));
      const element = fragment(change.html);
      if (!zone || !element) return false;
      zone.replaceWith(element);
      return true;
    }
    if (change.kind === 'remove') {
      rowById(board, change.item)?.remove();
      return true;
    }
    const list = board.querySelector(listSelector(change.list));
    const element = fragment(change.html);
    if (!list || !element) return false;
    if (change.kind === 'replace') {
      const old = rowById(board, change.item);
      if (!old) return isWindowed(list);   // a row beyond the rows this page loaded
      old.replaceWith(element);
      return true;
    }
    rowById(board, change.item)?.remove();
    if (change.after == null) {
      rowContainer(list).prepend(element);
      return true;
    }
    const after = rowById(board, change.after);
    // After a row this page has not loaded: the row lands beyond the loaded rows, which stay
    // the list's first rows (paging.js loads the rest in order).
    if (!after) return isWindowed(list);
    after.after(element);
    return true;
  }

  // Answers that came before the one they follow. Operations committed together (one group
  // commit) are pushed by as many threads, so the next version may arrive a moment later: it is
  // waited for briefly, and only then is the board read again.
  const ahead = new Map();
  let gapTimer = null;

  /** Applies a server answer (a drop or a live event) exactly once, in version order. */
  function apply(update) {
    if (dragLive) { deferred.push(update); return; }
    if (!update || update.version <= version()) return;
    ahead.set(update.version, update);
    for (let next = ahead.get(version() + 1); next; next = ahead.get(version() + 1)) {
      ahead.delete(next.version);
      if (!applyOne(next)) { closeGap(); return; }
    }
    for (const waiting of ahead.keys()) if (waiting <= version()) ahead.delete(waiting);
    if (ahead.size === 0) { clearTimeout(gapTimer); gapTimer = null; return; }
    gapTimer ??= setTimeout(closeGap, GAP_WAIT_MS);
  }

  /** The missing version did not come: the board is read again, up to the newest one seen. */
  function closeGap() {
    clearTimeout(gapTimer);
    gapTimer = null;
    if (ahead.size === 0) return;
    const newest = Math.max(...ahead.keys());
    ahead.clear();
    resync(newest);
  }

  /** Applies the update that follows the page's version; false when the page had to be read again. */
  function applyOne(update) {
    // Every write of the change between one reading of the rows' places and one after (motion.js).
    const motion = captureMotion(board);
    for (const change of update.changes ?? []) {
      if (!applyChange(change)) { motion.play(); resync(update.version); return false; }
    }
    motion.play();
    // Totals after the change: a list whose later rows are not loaded counts what moved there.
    for (const [id, count] of Object.entries(update.counts ?? {})) {
      const list = board.querySelector(listSelector(id));
      if (list) list.dataset.rowCount = String(count);
    }
    board.dataset.version = String(update.version);
    board.dispatchEvent(new CustomEvent(BOARD_CHANGED, { detail: update }));
    return true;
  }

  /** Where a board's first list goes: the last group of lists (kits end with the catch-all one). */
  function lastListGroup() {
    const groups = [...board.querySelectorAll(LIST_GROUP)];
    return groups[groups.length - 1] ?? null;
  }

  /** What has the keyboard focus inside a list (its title or a row), to find again once swapped. */
  function focusedPlace() {
    const active = document.activeElement;
    const list = active?.closest?.(BOARD_LIST);
    if (!list || !board.contains(list)) return null;
    if (active.matches(LIST_TITLE)) return { list: list.dataset.list, selector: LIST_TITLE };
    if (active.dataset.item) return { list: list.dataset.list, selector: rowSelector(active.dataset.item) };
    return null;
  }

  function restoreFocus(place) {
    if (!place || (document.activeElement && document.activeElement !== document.body)) return;
    board.querySelector(boardListSelector(place.list))?.querySelector(place.selector)?.focus();
  }

  let resyncing = null;
  let known = 0;       // the newest version the server announced: a fetch must reach it
  let again = false;   // asked, without a version, while a fetch was in flight: its answer may be too old
  /** Fetches the board's lists, once at a time, until the page shows `atLeast` (when given). */
  function resync(atLeast) {
    if (atLeast != null) known = Math.max(known, atLeast);
    if (dragLive) { deferred.push({ resync: true }); return resyncing; }
    if (resyncing) { again ||= atLeast == null; return resyncing; }
    resyncing = api.board().then((state) => {
      if (state.version < version()) return;   // older than what the page already shows
      const focus = focusedPlace();
      const motion = captureMotion(board);
      // Lists are replaced, added after the list before them, and removed, in the board's order.
      const kept = new Set(state.lists.map(({ id }) => id));
      for (const list of board.querySelectorAll(BOARD_LIST)) {
        if (!kept.has(list.dataset.list)) list.remove();
      }
      const shown = [...board.querySelectorAll(BOARD_LIST)].map((list) => list.dataset.list);
      const inOrder = shown.join('\n') === state.lists.map(({ id }) => id).filter((id) => shown.includes(id)).join('\n');
      let previous = null;
      for (const { id, html } of state.lists) {
        const list = board.querySelector(boardListSelector(id));
        const element = fragment(html);
        if (!element) continue;
        // What someone was typing in the list (a card composer, a rename) survives its redraw.
        const drafts = list ? draftsOf(list) : null;
        if (list && (inOrder || !previous)) list.replaceWith(element);
        else {
          list?.remove();
          if (previous) previous.after(element);
          else (lastListGroup() ?? board).prepend(element);
        }
        restoreDrafts(element, drafts);
        previous = element;
      }
      restoreFocus(focus);
      motion.play();
      board.dataset.version = String(state.version);
      board.dispatchEvent(new CustomEvent(BOARD_CHANGED, { detail: state }));
    }).finally(() => {
      resyncing = null;
      if (again || version() < known) { again = false; resync(); }
    });
    return resyncing;
  }

  /** While a drag is live the dragged row must stay in the DOM: hold updates until it ends. */
  function holdUpdates(live) {
    dragLive = live;
    if (live) return;
    const pending = deferred;
    deferred = [];
    for (const update of pending) {
      if (update.resync) resync(); else apply(update);
    }
  }

  /** The server answers again: a status that still says it cannot be reached says it is back. Any other
   *  error stays: a refusal ("You can view this board but not change it.") is still true once back. */
  function backOnline() {
    if (/can’t be reached|could not be reached/.test(status?.textContent ?? '')) {
      say('Connected again; the board is up to date.', 'info');
    }
  }

  return { board, say, apply, resync, holdUpdates, version, backOnline };
}
