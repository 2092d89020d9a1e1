// Undo and redo of this browser's own changes: Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z and Ctrl+Y (not while
// typing), and "Undo"/"Redo" buttons after the status message that follows each change (beside
// the live region, not in it: a screen reader hears the message, and the buttons are focusable).
// The server keeps the history (per browser, by its cookie) and applies the inverse to the board
// as it is now; when that no longer makes sense it refuses with a reason, shown here, and nothing
// changes.

import { STATUS_SAID } from './events.js';
import { BOARD_INDEX, CSRF_TOKEN, STATUS, actionSelector } from './selectors.js';

/** The undo and redo buttons after the status message (which this module makes). */
const STATUS_ACTION = `.status-actions ${actionSelector('undo')}, .status-actions ${actionSelector('redo')}`;

/** Starts undo and redo on the board page `root`; returns the cleanup. */
export function initUndo(root, view, boardID) {
  return startUndo(root, view.board, boardID, view.say, (answer) => {
    if (answer.board === boardID) view.apply(answer);
  });
}

/**
 * Starts undo and redo on the board index `root` (no board: the browser's newest change
 * anywhere, such as a deleted board); an undone change is shown on its board. Returns the cleanup.
 */
export function initIndexUndo(root) {
  const status = root.querySelector(STATUS);
  const say = (message, kind = 'info') => {
    if (!status) return;
    status.textContent = message ?? '';
    status.dataset.kind = kind;
    actionsOf(status).replaceChildren();
  };
  const host = root.querySelector(BOARD_INDEX) ?? root.body;
  const cleanup = startUndo(root, host, null, say, (answer) => {
    if (answer.changes?.some((change) => change.kind === 'gone')) window.location.reload();
    else window.location.assign(`/boards/${encodeURIComponent(answer.board)}`);
  });
  fetch('/api/undo', { credentials: 'same-origin' }).then((response) => response.json()).then((state) => {
    if (!state.undoActionName || status?.textContent) return;
    say(`Your last change: ${state.undoActionName}.`);
    offerIn(status, { undo: true, undoName: state.undoActionName });
  }).catch(() => {});
  return cleanup;
}

/** The buttons' place, right after the status message (made once). */
function actionsOf(status) {
  let actions = status.nextElementSibling;
  if (!actions?.classList.contains('status-actions')) {
    actions = document.createElement('span');
    actions.className = 'status-actions';
    status.after(actions);
  }
  return actions;
}

/** Shows the buttons after the status message: what the server says can be undone or redone. */
function offerIn(status, { undo = false, redo = false, undoName = '', redoName = '' }) {
  if (!status) return;
  const actions = actionsOf(status);
  actions.replaceChildren();
  for (const [action, label, name, shown] of [['undo', 'Undo', undoName, undo], ['redo', 'Redo', redoName, redo]]) {
    if (!shown) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'status-action';
    button.dataset.action = action;
    button.textContent = label;
    if (name) button.title = `${label} “${name}”`;
    actions.append(button);
  }
}

function startUndo(root, host, boardID, say, applied) {
  const status = root.querySelector(STATUS);
  const csrf = root.querySelector(CSRF_TOKEN)?.content ?? '';
  let queue = Promise.resolve(null);
  const view = { say };

  function newOp() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  }

  const offer = (state) => offerIn(status, state);

  /**
   * Asks the server to undo (or redo) this browser's newest change on this board. Requests go one
   * at a time, in the order asked: a key pressed while the previous answer is on its way is kept,
   * so two quick presses undo two changes.
   */
  function run(redo) {
    const next = queue.then(() => send(redo));
    queue = next.catch(() => null);
    return next;
  }

  /** What this browser can undo and redo now (a GET, always 200: nothing to undo is no error). */
  function state() {
    const query = boardID ? `?board=${encodeURIComponent(boardID)}` : '';
    return fetch(`/api/undo${query}`, { credentials: 'same-origin' }).then((response) => response.json());
  }

  /** Asked first, so a key pressed with nothing to undo posts nothing (a refused POST is logged as an error). */
  function send(redo) {
    return state().then((now) => {
      if (redo ? now.redoActionName != null : now.undoActionName != null) return post(redo);
      view.say(redo ? 'There is nothing to redo.' : 'There is nothing to undo.', 'info');
      return null;
    }, () => post(redo));
  }

  function post(redo) {
    return fetch(redo ? '/api/redo' : '/api/undo', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
      body: JSON.stringify(boardID ? { op: newOp(), board: boardID } : { op: newOp() }),
    }).then(async (response) => {
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        view.say(answer?.error?.message ?? `The server refused (${response.status}).`, 'error');
        return null;
      }
      applied(answer);
      view.say(answer.message, 'success');
      offer({ undo: answer.undo?.undoActionName != null, redo: answer.undo?.redoActionName != null,
              undoName: answer.undo?.undoActionName, redoName: answer.undo?.redoActionName });
      return answer;
    }).catch(() => {
      view.say('The server could not be reached; nothing was undone.', 'error');
      return null;
    });
  }

  /** A change this page made (a drop or an edit that changed something) can be undone. */
  function onStatus(event) {
    const { answer, kind } = event.detail ?? {};
    if (status) actionsOf(status).replaceChildren();   // a new message: the old offer is stale
    if (kind !== 'error' && answer?.changes?.length && !answer.undo) offer({ undo: true });
  }

  function onClick(event) {
    const button = event.target.closest?.(STATUS_ACTION);
    if (!button) return;
    event.preventDefault();
    run(button.dataset.action === 'redo');
  }

  function typing(target) {
    return target instanceof Element && (target.isContentEditable || target.closest('input, textarea, select, [contenteditable]') !== null);
  }

  function onKeyDown(event) {
    if (event.altKey || event.defaultPrevented || !(event.ctrlKey || event.metaKey) || typing(event.target)) return;
    const key = event.key.toLowerCase();
    if (key === 'z') {
      event.preventDefault();
      run(event.shiftKey);
    } else if (key === 'y' && event.ctrlKey && !event.shiftKey) {
      event.preventDefault();
      run(true);
    }
  }

  host.addEventListener(STATUS_SAID, onStatus);
  root.addEventListener('click', onClick);
  document.addEventListener('keydown', onKeyDown);
  return () => {
    host.removeEventListener(STATUS_SAID, onStatus);
    root.removeEventListener('click', onClick);
    document.removeEventListener('keydown', onKeyDown);
  };
}
