// Dragging with the keyboard, through the same drag controller, proposal table and server
// decisions as the mouse; the words a screen reader hears are the server's (begin, target and
// end answers, the drop's message), said in the page's polite status region.
//
// Rows are the list items of their list (`ul`/`li`, whose roles axe accepts on focusable rows
// holding buttons; `listbox`/`option` would forbid those buttons). One tab stop per list (a
// roving tabindex); a selected row says so through its description (`aria-describedby`).
//
// Keys on a focused row:
//   ArrowUp/ArrowDown, Home/End   focus the previous/next (first/last) row of the list
//   Shift+ArrowUp/ArrowDown       extend the selection
//   Ctrl/⌘+Space                  toggle the row's selection
//   Space or Enter                pick the row up (with the rest of the selection, if selected)
//   F2 renames, Delete deletes (forms.js); Enter no longer renames a row: it picks it up.
// While picked up:
//   ArrowUp/ArrowDown             previous/next place in the current target (between rows, or into a row)
//   ArrowLeft/ArrowRight          previous/next drop target (lists and zones, in page order)
//   Space or Enter                drop (a refusal is said again, with its reason, and nothing drops)
//   Escape (or leaving the row)   cancel; the focus stays on the row

import { revealContainer } from './containers.js';
import { BOARD_CHANGED, ROWS_LOADED } from './events.js';
import { rowsIn } from './gaps.js';
import { isWindowed } from './paging.js';
import { resolve, entryFor } from './proposals.js';
import { LIST, ROW, ROW_DROP_TARGET, SELECTED_ROW, listOf, rowById, rowContainer, rowsOf } from './selectors.js';
import { draggedRows, setSelected } from './selection.js';
import { isAccepted } from './session.js';

/** Starts keyboard dragging and the roving tabindex on `root`; returns the cleanup. */
export function initKeyboard(root, view, drags) {
  const board = view.board;
  /** The keyboard drag in progress: its session, picked row, targets and places, or null. */
  let carry = null;
  let anchor = null;

  // ---- roving tabindex: one tab stop per list (a container's contents are a list of their own)

  function rove() {
    for (const list of board.querySelectorAll(LIST)) {
      const rows = rowsOf(list);
      const current = rows.find((row) => row === document.activeElement) ?? rows.find((row) => row.dataset.stop === '') ?? rows[0];
      for (const row of rows) row.tabIndex = row === current ? 0 : -1;
    }
  }

  /** Makes `row` its list's one tab stop. */
  function markStop(row) {
    for (const other of rowsOf(listOf(row))) {
      other.tabIndex = other === row ? 0 : -1;
      if (other !== row) delete other.dataset.stop;
    }
    row.dataset.stop = '';
  }

  function focusRow(row) {
    if (!row) return;
    markStop(row);
    row.focus();
  }

  // ---- places of a target, as locations the engine resolves (exactly what a mouse could point at)

  function placesOf(target) {
    if (!target.dataset.list) return [{ location: { row: null } }];
    const rows = rowsIn(rowContainer(target));   // never the landing gap
    if (rows.length === 0) return [{ location: { row: null } }];
    const candidates = rows.flatMap((row, index) => [
      { row: index, fraction: 0, item: row.dataset.item },
      { row: index, fraction: 0.5, item: row.dataset.item },
    ]);
    candidates.push({ row: rows.length - 1, fraction: 1, item: rows[rows.length - 1].dataset.item });
    const table = carry.session.table;
    const entry = entryFor(table, target);
    const places = [];
    for (const location of candidates) {
      const decision = resolve(table, entry, location, false);
      const key = `${decision.destination}|${decision.into}`;
      if (places.length && places[places.length - 1].key === key) continue;
      places.push({ location, key, destination: decision.destination });
    }
    return places;
  }

  function show(targetIndex, placeIndex) {
    const target = carry.targets[targetIndex];
    if (!target) return;
    if (targetIndex !== carry.targetIndex) carry.places = placesOf(target);
    carry.targetIndex = targetIndex;
    carry.placeIndex = Math.max(0, Math.min(placeIndex, carry.places.length - 1));
    const { location } = carry.places[carry.placeIndex];
    carry.location = location;
    revealContainer(target);   // a box's contents, chosen from the keyboard, open at once
    carry.session.decide(target, location, false);
    carry.session.setTarget(target, location);
    const marker = location.row == null ? target : rowsIn(rowContainer(target))[location.row];
    marker?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  // ---- picking up, moving, dropping, cancelling

  function pickUp(row) {
    const list = listOf(row);
    const rows = draggedRows(row);
    const session = drags.begin({ rows, list: list.dataset.list });
    carry = { session, row, targets: [], targetIndex: -1, places: [], placeIndex: 0, location: null, said: '', quiet: null, pending: [] };
    const current = carry;
    session.onTarget = (answer, target, location) => {
      if (carry !== current || !answer?.announcement) return;
      current.said = answer.announcement;
      if (location === current.quiet) return;   // the starting place: the pick-up words stand
      if (target === current.targets[current.targetIndex] && location === current.location) view.say(answer.announcement);
    };
    session.ready.then((answer) => {
      if (carry !== current) return;
      if (!answer) { finish(); return; }
      view.say(answer.announcement ?? '');
      current.targets = [...board.querySelectorAll(ROW_DROP_TARGET)].filter((target) => entryFor(answer.table, target));
      // The drag starts where the row is: the gap before it in its own list, said by the pick-up words.
      const start = current.targets.indexOf(list);
      current.places = placesOf(list);
      current.targetIndex = start;
      const index = rowsOf(list).indexOf(rows[0]);
      const here = current.places.findIndex((place) => place.destination === index && !place.key.endsWith('true'));
      current.quiet = current.places[Math.max(0, here)].location;
      show(start, Math.max(0, here));
      // Keys pressed before the table arrived act now, in order.
      for (const action of current.pending.splice(0)) if (carry === current) action();
    });
  }

  function move(delta) {
    if (!carry?.session.table || carry.targetIndex < 0) return;
    const target = carry.targets[carry.targetIndex];
    // Past the last loaded row of a list that holds more: the move goes on once paging.js has
    // loaded the next rows (showing that last row brings them).
    const next = carry.placeIndex + delta;
    carry.beyond = next >= carry.places.length && isWindowed(target) ? delta : 0;
    show(carry.targetIndex, next);
  }

  function switchTarget(delta) {
    if (!carry?.session.table || carry.targetIndex < 0) return;
    const next = carry.targetIndex + delta;
    if (next < 0 || next >= carry.targets.length) return;
    show(next, 0);
  }

  function drop() {
    const current = carry;
    if (!current?.session.table || current.targetIndex < 0) return;
    const { session } = current;
    if (!isAccepted(session.decision)) {
      // Nothing drops where the server refused: its words (and reason) are said again.
      view.say('');
      requestAnimationFrame(() => view.say(current.said || session.decision.reason || ''));
      return;
    }
    const target = current.targets[current.targetIndex];
    session.drop(target, current.location);
    finish().then((answer) => focusAfterDrop(answer, current.row));
  }

  function cancel() {
    if (!carry) return;
    const row = carry.row;
    finish(true).then(() => { if (row.isConnected) focusRow(row); });
  }

  /** Ends the session; resolves to the drop's answer (after it is applied), or null. */
  function finish(cancelled = false) {
    const { session } = carry;
    carry = null;
    return session.end().then((outcome) => {
      if (cancelled && outcome?.announcement) view.say(outcome.announcement);
      return session.dropped ?? null;
    });
  }

  function focusAfterDrop(answer, row) {
    const changes = answer?.changes ?? [];
    const id = changes.find((change) => change.kind === 'insert')?.item
      ?? changes.find((change) => change.kind === 'replace')?.item ?? row.dataset.item;
    const moved = rowById(board, id) ?? (row.isConnected ? row : null);
    focusRow(moved);
  }

  // ---- selection from the keyboard

  function extend(row, to) {
    const rows = rowsOf(listOf(row));
    if (!anchor || !rows.includes(anchor)) anchor = row;
    const [from, until] = [rows.indexOf(anchor), rows.indexOf(to)].sort((a, b) => a - b);
    for (const selected of board.querySelectorAll(SELECTED_ROW)) setSelected(selected, false);
    rows.forEach((candidate, index) => setSelected(candidate, index >= from && index <= until));
  }

  function onKeyDown(event) {
    const row = event.target instanceof Element && event.target.matches(ROW) ? event.target : null;
    if (!row) return;
    const key = event.key;
    if (carry) {
      const handled = {
        ArrowUp: () => move(-1), ArrowDown: () => move(1), ArrowLeft: () => switchTarget(-1), ArrowRight: () => switchTarget(1),
        ' ': drop, Enter: drop, Escape: cancel,
      }[key];
      // Every other key waits while a row is carried (no renaming, deleting or tabbing away).
      event.preventDefault();
      event.stopImmediatePropagation();
      if (!handled) return;
      if (carry.targetIndex < 0 && key !== 'Escape') carry.pending.push(handled);
      else handled();
      return;
    }
    if (event.altKey) return;
    const rows = rowsOf(listOf(row));
    const index = rows.indexOf(row);
    const next = { ArrowUp: rows[index - 1], ArrowDown: rows[index + 1], Home: rows[0], End: rows[rows.length - 1] }[key];
    if (next !== undefined) {
      event.preventDefault();
      if (!next) return;
      if (event.shiftKey) extend(row, next);
      else anchor = next;
      focusRow(next);
      return;
    }
    if (key === ' ' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      setSelected(row, !row.classList.contains('is-selected'));
      anchor = row;
      return;
    }
    if ((key === ' ' || key === 'Enter') && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault();
      event.stopImmediatePropagation();
      pickUp(row);
    }
  }

  function onFocusIn(event) {
    const row = event.target instanceof Element && event.target.matches(ROW) ? event.target : null;
    if (row) markStop(row);
  }

  function onFocusOut(event) {
    // Leaving the picked-up row (a click elsewhere, the window losing focus) cancels the drag.
    if (carry && event.target === carry.row && event.relatedTarget !== carry.row) cancel();
  }

  function onDragStart() { if (carry) cancel(); }

  /** Rows loaded into a list (paging.js): one tab stop still, and a carried row's places include them. */
  function onRowsLoaded(event) {
    rove();
    const target = carry?.targets[carry.targetIndex];
    if (!target || target !== event.target) return;
    carry.places = placesOf(target);
    const delta = carry.beyond;
    carry.beyond = 0;
    if (delta) show(carry.targetIndex, carry.placeIndex + delta);
  }

  rove();
  board.addEventListener(ROWS_LOADED, onRowsLoaded);
  const listeners = [['keydown', onKeyDown, true], ['focusin', onFocusIn, false], ['focusout', onFocusOut, false], ['dragstart', onDragStart, false]];
  listeners.forEach(([type, listener, capture]) => root.addEventListener(type, listener, capture));
  board.addEventListener(BOARD_CHANGED, rove);
  return () => {
    listeners.forEach(([type, listener, capture]) => root.removeEventListener(type, listener, capture));
    board.removeEventListener(BOARD_CHANGED, rove);
    board.removeEventListener(ROWS_LOADED, onRowsLoaded);
  };
}
