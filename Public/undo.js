// Undo and redo of this browser's own changes: Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z and Ctrl+Y (not while
// typing), and "Undo"/"Redo" buttons in the status after each change. The server keeps the
// history (per browser, by its cookie) and applies the inverse to the board as it is now; when
// that no longer makes sense it refuses with a reason, shown here, and nothing changes.

/** Starts undo and redo on the board page `root`; returns the cleanup. */
export function initUndo(root, view, boardID) {
  const status = root.querySelector('#status');
  const csrf = root.querySelector('meta[name="csrf-token"]')?.content ?? '';
  let pending = null;

  function newOp() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  }

  /** Adds the buttons after the status message: what the server says can be undone or redone. */
  function offer({ undo = false, redo = false, undoName = '', redoName = '' }) {
    if (!status) return;
    for (const [action, label, name, shown] of [['undo', 'Undo', undoName, undo], ['redo', 'Redo', redoName, redo]]) {
      if (!shown) continue;
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'status-action';
      button.dataset.action = action;
      button.textContent = label;
      if (name) button.title = `${label} “${name}”`;
      status.append(' ', button);
    }
  }

  /** Asks the server to undo (or redo) this browser's newest change on this board, once at a time. */
  function run(redo) {
    if (pending) return pending;
    pending = fetch(redo ? '/api/redo' : '/api/undo', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
      body: JSON.stringify({ op: newOp(), board: boardID }),
    }).then(async (response) => {
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        view.say(answer?.error?.message ?? `The server refused (${response.status}).`, 'error');
        return null;
      }
      if (answer.board === boardID) view.apply(answer);
      view.say(answer.message, 'success');
      offer({ undo: answer.undo?.undoActionName != null, redo: answer.undo?.redoActionName != null,
              undoName: answer.undo?.undoActionName, redoName: answer.undo?.redoActionName });
      return answer;
    }).catch(() => {
      view.say('The server could not be reached; nothing was undone.', 'error');
      return null;
    }).finally(() => { pending = null; });
    return pending;
  }

  /** A change this page made (a drop or an edit that changed something) can be undone. */
  function onStatus(event) {
    const { answer, kind } = event.detail ?? {};
    if (kind !== 'error' && answer?.changes?.length && !answer.undo) offer({ undo: true });
  }

  function onClick(event) {
    const button = event.target.closest?.('#status button[data-action="undo"], #status button[data-action="redo"]');
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

  view.board.addEventListener('board:status', onStatus);
  root.addEventListener('click', onClick);
  document.addEventListener('keydown', onKeyDown);
  return () => {
    view.board.removeEventListener('board:status', onStatus);
    root.removeEventListener('click', onClick);
    document.removeEventListener('keydown', onKeyDown);
  };
}
