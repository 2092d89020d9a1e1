// Dragboard's browser half: reports the browser's drag and drop to the server and draws
// what the server decided. The server's session engine decides every proposal; this file
// only looks answers up in the proposal table it received at drag start, so `dragover`
// is answered synchronously and never waits for the network.

import { createApi } from './api.js';
import { createAutoScroll } from './autoscroll.js';
import { initCards } from './card.js';
import { initContainers } from './containers.js';
import { initConnection } from './connection.js';
import { createFeedback } from './feedback.js';
import { locateInList } from './gaps.js';
import { initFilter } from './filter.js';
import { initForms } from './forms.js';
import { initKeyboard } from './keyboard.js';
import { initLists } from './lists.js';
import { initLiveUpdates } from './live.js';
import { initMoveMenu } from './menu.js';
import { initPaging } from './paging.js';
import { initPeople } from './people.js';
import { representationsOf } from './representations.js';
import { BOARD, BOARD_LIST, BOARD_LIST_HEADER, LIST_DROP_TARGET, LIST_TITLE, ROW, ROW_DROP_TARGET, listOf } from './selectors.js';
import { draggedRows, initSelection } from './selection.js';
import { SESSION_TYPE, createDragController, isAccepted, newToken } from './session.js';
import { createSpringLoader } from './springload.js';
import { initTouch } from './touch.js';
import { signatureOf, watchForEndedDrags } from './stale.js';
import { initUndo } from './undo.js';
import { createView } from './view.js';
import { uploadFiles } from './uploads.js';

/** Starts everything on `root`; returns the cleanup. */
export function init(root = document) {
  const board = root.querySelector(BOARD);
  if (!board) return () => {};
  const boardID = board.dataset.board || 'demo';
  const api = createApi(root, boardID);
  const view = createView(root, board, api);
  const feedback = createFeedback();
  const drags = createDragController({ root, api, view, feedback });
  const people = initPeople(root, board);
  const cleanups = [
    initSelection(root),
    initDragAndDrop(root, api, view, drags, feedback),
    initLiveUpdates(view, boardID, people.listeners),
    people.cleanup,
    initForms(root, view),
    initCards(root, view),
    initLists(root, view, drags),
    initFilter(root, view),
    initKeyboard(root, view, drags),
    initMoveMenu(root, view, drags),
    initContainers(root),
    initPaging(root, view, boardID),
    initTouch(root, drags),
    () => feedback.remove(),
    initUndo(root, view, boardID),
    initConnection(board, { probe: api.board, onBack: () => Promise.resolve(view.resync()).then(() => view.backOnline(), () => {}) }),
  ];
  return () => cleanups.forEach((cleanup) => cleanup());
}

// ---------------------------------------------------------------- the native (mouse) drag

function initDragAndDrop(root, api, view, drags, feedback) {
  /** The one live drag of this page (a session of the drag controller), or null. */
  let drag = null;
  /** Balances dragenter/dragleave to notice the pointer leaving the window. */
  let depth = 0;
  const spring = createSpringLoader();
  const autoScroll = createAutoScroll();

  /** Spring-loading and auto-scroll follow the pointer while a drag is over this page. */
  function follow(event) {
    autoScroll.update(event.clientX, event.clientY);
    spring.hover(event.target);
  }

  function stopFollowing() {
    autoScroll.stop();
    spring.cancel();
  }

  function targetOf(node) {
    if (!(node instanceof Element)) return null;
    // Lists dragged by their headers have one target: the board, as the collection of lists.
    if (drag?.kind === 'lists') return node.closest(LIST_DROP_TARGET);
    return node.closest(ROW_DROP_TARGET);
  }

  /** Where the pointer is over `target`: a row and how far down it, or no row. */
  function locate(target, event) {
    if (target.dataset.lists) return locateList(target, event);
    if (!target.dataset.list) return { row: null };
    return locateInList(target, event.target, event.clientY);
  }

  /** Over the board: which list is under the pointer, and how far across it (lists stand in columns). */
  function locateList(target, event) {
    const list = event.target instanceof Element ? event.target.closest(BOARD_LIST) : null;
    if (!list) return { row: null };
    const box = list.getBoundingClientRect();
    const fraction = box.width > 0 ? Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)) : 0.5;
    return { row: [...target.querySelectorAll(BOARD_LIST)].indexOf(list), fraction, item: list.dataset.list };
  }

  /** `dragstart` on a list's header: the list travels; rows of other lists stay where they are. */
  function startListDrag(event, list) {
    const session = drags.begin({ rows: [list], list: '_board', kind: 'lists' });
    const transfer = event.dataTransfer;
    transfer.setData('text/plain', list.querySelector(LIST_TITLE)?.textContent ?? '');
    transfer.setData(`${SESSION_TYPE}-${session.token}`, session.token);
    transfer.effectAllowed = 'move';
    drag = session;
  }

  /** A drag of this page whose end never came, or a foreign one that ended unseen: reset now. */
  function abandon() {
    if (!drag) return;
    const current = drag;
    drag = null;
    depth = 0;
    stopFollowing();
    if (current.foreign) current.finishForeign(); else current.end();
  }

  function onDragStart(event) {
    abandon();   // a new drag always starts clean
    const row = event.target instanceof Element ? event.target.closest(ROW) : null;
    const header = !row && event.target instanceof Element ? event.target.closest(BOARD_LIST_HEADER) : null;
    if (header) { startListDrag(event, header.parentElement); return; }
    if (!row) return;
    const list = listOf(row);
    const rows = draggedRows(row);
    const transfer = event.dataTransfer;
    writeRepresentations(transfer, rows);
    const session = drags.begin({ rows, list: list.dataset.list });
    transfer.setData(`${SESSION_TYPE}-${session.token}`, session.token);
    transfer.effectAllowed = 'copyMove';
    if (rows.length > 1) setCountImage(transfer, rows.length);
    drag = session;
  }

  /**
   * A drag that did not start in this page: another window of this app (its session type is
   * visible in `types`: join that session, moves allowed) or another app (a new external
   * session from the visible types: copies only). Data is read only at the drop.
   */
  function startForeign(event) {
    const types = [...(event.dataTransfer?.types ?? [])];
    if (types.length === 0) return;
    const sessionType = types.find((type) => type.startsWith(`${SESSION_TYPE}-`));
    const items = [...(event.dataTransfer.items ?? [])];
    drag = sessionType
      ? drags.join(sessionType.slice(SESSION_TYPE.length + 1))
      : drags.external({
        token: newToken(),
        types: types.filter((type) => type !== 'Files' && !type.startsWith(SESSION_TYPE)),
        files: items.filter((item) => item.kind === 'file').map((item) => item.type),
      });
    drag.signature = signatureOf(event.dataTransfer);
  }

  /** A foreign drag is over once it is dropped or leaves the window; only ours posts its end. */
  function finishForeign(current) {
    if (drag === current) drag = null;
    stopFollowing();
    current.finishForeign();
  }

  /**
   * A drag from elsewhere this page holds no session for gets one; other things dragged in than
   * the drag this page holds mean that one ended unseen: it is replaced. Returns whether a
   * session began (the drag has entered the page once, as far as dragenter/dragleave go).
   */
  function takeIn(event) {
    if (drag?.foreign && signatureOf(event.dataTransfer) !== drag.signature) finishForeign(drag);
    if (drag) return false;
    startForeign(event);
    return drag !== null;
  }

  function onDragEnter(event) {
    depth += 1;
    if (takeIn(event)) depth = 1;
    if (!drag) return;
    // The same decision as dragover: a target becomes the drop target only if dragenter is
    // cancelled too (HTML's rule, which some browsers enforce).
    onDragOver(event);
  }

  function onDragLeave(event) {
    depth = Math.max(0, depth - 1);
    // Where the browser names the element entered next, it decides: counting alone is fooled by
    // a drag that ended unseen (its last element still gets a dragleave when the next one enters).
    const next = event.relatedTarget;
    if (next instanceof Node && document.documentElement.contains(next)) return;
    if ((next == null && depth !== 0) || !drag) return;
    stopFollowing();
    if (drag.target !== null) drag.setTarget(null);
    // Chromium turns a refused drop from another app into this dragleave: say why it was refused.
    if (drag.foreign) { if (drag.refused) drag.sayRefusal(); finishForeign(drag); }
  }

  function onDragOver(event) {
    // Chromium sends no dragenter to a drag whose first element is the one a cancelled drag last
    // entered (it still counts it as entered): that drag is taken in at its first dragover. The
    // session is set at once, so the next dragovers, every ~50 ms, find it and begin nothing.
    if (takeIn(event)) depth = 1;
    if (!drag) return;
    follow(event);
    const target = targetOf(event.target);
    if (target !== drag.target) drag.setTarget(target, target ? locate(target, event) : null);
    if (!target) {
      drag.refused = null;
      // Outside every target a foreign drag is refused here too, rather than left to the
      // browser, whose default for a dropped file is to navigate away to it.
      if (drag.foreign) {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'none';
      }
      return;
    }
    const decision = drag.decide(target, locate(target, event), event.altKey);
    const accepted = isAccepted(decision);
    // A foreign drag is always cancelled, refusals included: Chromium sends neither drop nor
    // dragleave when a file from another app is released over a target that did not cancel,
    // and the session would never end. `dropEffect = 'none'` still shows the refusal.
    if (accepted || drag.foreign) event.preventDefault();
    event.dataTransfer.dropEffect = accepted ? decision.op : 'none';
  }

  function onDrop(event) {
    event.preventDefault();
    if (!drag) return;
    const target = targetOf(event.target);
    feedback.clear();
    stopFollowing();
    depth = 0;
    const current = drag;
    const accepted = isAccepted(current.decision);
    // Dropped before its begin answered (a drag first seen at its last dragover): the session
    // decides once the table is here, and posts the drop only if the table takes it.
    const undecided = current.foreign && !current.table && !current.failed;
    // A text field takes a drop of text natively even where the server refused: no drop here.
    if (!accepted && !current.foreign && event.target.closest('input, textarea, select')) return;
    if (!target || current.failed || (current.foreign && !accepted && !undecided)) {
      // A refused foreign drop changes nothing; it only ends this page's part of the session.
      if (current.foreign) { current.sayRefusal(); finishForeign(current); }
      return;
    }
    const location = locate(target, event);
    if (current.foreign === 'external') {
      // Protected data becomes readable now, and only inside this handler.
      const transfer = event.dataTransfer;
      const data = [...transfer.types]
        .filter((type) => type !== 'Files' && !type.startsWith(SESSION_TYPE))
        .map((type) => [type, transfer.getData(type)]);
      const files = [...transfer.files];
      current.drop(target, location, { data }, async () => {
        const { ids, refused } = await uploadFiles(api, current.token, files, current.answer?.uploads, target);
        current.refusedFiles = refused;
        // Every file refused and nothing else carried: no drop to make, only the reasons to say.
        if (files.length > 0 && !ids.some(Boolean) && data.length === 0) throw new Error(refused.join(' '));
        return { files: ids };
      });
    } else {
      current.drop(target, location);
    }
    if (current.foreign) {
      // No dragend reaches this page: apply the answer now and end our part of the session.
      current.dropped.then((answer) => { if (answer) view.apply(answer); });
      finishForeign(current);
    }
  }

  function onDragEnd() {
    if (!drag) return;
    const current = drag;
    drag = null;
    depth = 0;
    stopFollowing();
    current.end();
  }

  // Only a foreign drag can end unseen: this page's own drags always get their dragend.
  const stopWatching = watchForEndedDrags(() => { if (drag?.foreign) abandon(); });
  const listeners = [
    ['dragstart', onDragStart], ['dragenter', onDragEnter], ['dragleave', onDragLeave],
    ['dragover', onDragOver], ['drop', onDrop], ['dragend', onDragEnd],
  ];
  listeners.forEach(([type, listener]) => root.addEventListener(type, listener));
  return () => {
    listeners.forEach(([type, listener]) => root.removeEventListener(type, listener));
    stopWatching();
  };
}

/** Writes each row's public representations, in fidelity order (see representations.js). */
function writeRepresentations(transfer, rows) {
  const perRow = rows.map(representationsOf);
  if (perRow.length === 1) {
    for (const [type, data] of perRow[0]) transfer.setData(type, data);
    return;
  }
  const joined = new Map();
  for (const pairs of perRow) {
    for (const [type, data] of pairs) {
      if (type.startsWith('application/')) continue;
      joined.set(type, joined.has(type) ? `${joined.get(type)}${type === 'text/html' ? '' : '\n'}${data}` : data);
    }
  }
  for (const [type, data] of joined) transfer.setData(type, data);
}

/** A drag image that says how many rows travel. */
function setCountImage(transfer, count) {
  const image = document.createElement('div');
  image.className = 'drag-count';
  image.textContent = `${count} items`;
  document.body.append(image);
  transfer.setDragImage(image, 12, 12);
  requestAnimationFrame(() => image.remove());
}

init();
window.__dragboardReady = true;
