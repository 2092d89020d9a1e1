// Live updates: every change committed to this board, pushed over Server-Sent Events. The
// browser reconnects by itself while it can; a stream it gave up on is opened again once the
// server answers (connection.js), and the `hello` of every connection lets the page catch up.

import { reportOffline } from './connection.js';
import { LIVE_CHANGES, LIVE_HELLO, LIVE_VERSION, ONLINE_EVENT } from './events.js';

/** Follows the board's events; `listeners` (event name → handler) hears the events beyond its changes. */
export function initLiveUpdates(view, boardID, listeners = {}) {
  if (!('EventSource' in window)) return () => {};
  let source = null;
  const onChanges = (event) => view.apply(JSON.parse(event.data));
  // `hello` opens every stream; `version` says another server instance changed the board.
  const onVersion = (event) => {
    const { version } = JSON.parse(event.data);
    if (version > view.version()) view.resync(version);
  };
  function open() {
    source = new EventSource(`/boards/${encodeURIComponent(boardID)}/events`);
    source.addEventListener(LIVE_CHANGES, onChanges);
    source.addEventListener(LIVE_HELLO, onVersion);
    source.addEventListener(LIVE_VERSION, onVersion);
    source.addEventListener('error', reportOffline);
    for (const [name, listener] of Object.entries(listeners)) source.addEventListener(name, listener);
  }
  const reopen = () => { if (source.readyState === EventSource.CLOSED) { source.close(); open(); } };
  open();
  window.addEventListener(ONLINE_EVENT, reopen);
  return () => { window.removeEventListener(ONLINE_EVENT, reopen); source.close(); };
}
