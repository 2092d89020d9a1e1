// People on a board: who views it (presence), the rows someone else is dragging right now
// (marked `data-dragged-by`, with words saying who moves what), and the activity panel, kept
// live from the board's events (live.js hands them here).

import { BOARD_CHANGED, LIVE_ACTIVITY, LIVE_DRAGGING, LIVE_PRESENCE } from './events.js';
import { ACTIVITY_LIST, DRAGGING_NOTE, PRESENCE, WHO, rowById } from './selectors.js';

/** How many changes the activity panel keeps (as many as the server renders). */
const PANEL_SIZE = 10;

/** Starts the people of `board`; returns the live-event listeners to add and the cleanup. */
export function initPeople(root, board) {
  const me = root.querySelector(WHO)?.dataset.who ?? null;
  /** Drags of others in the air: drag id → { user, items, words }. */
  const drags = new Map();

  function showPresence({ people }) {
    const presence = root.querySelector(PRESENCE);
    if (!presence) return;
    presence.replaceChildren(...people.map((name) => {
      const person = document.createElement('span');
      person.className = 'person';
      person.dataset.user = name;
      person.textContent = name === me ? `${name} (you)` : name;
      person.title = `${name} is viewing this board`;
      return person;
    }));
  }

  function showDrags() {
    for (const row of board.querySelectorAll('[data-dragged-by]')) row.removeAttribute('data-dragged-by');
    const words = [];
    for (const { user, items, words: said } of drags.values()) {
      for (const id of items) rowById(board, id)?.setAttribute('data-dragged-by', user);
      if (said) words.push(said);
    }
    const note = root.querySelector(DRAGGING_NOTE);
    if (note) note.textContent = words.join('; ');
  }

  function onDragging(data) {
    if (data.user === me) return;
    if (data.ended) drags.delete(data.drag); else drags.set(data.drag, data);
    showDrags();
  }

  function onActivity({ version, words, at }) {
    const list = root.querySelector(ACTIVITY_LIST);
    if (!list || list.querySelector(`[data-version="${version}"]`)) return;
    const entry = document.createElement('li');
    entry.dataset.version = String(version);
    const text = document.createElement('span');
    text.className = 'activity-words';
    text.textContent = words;
    const time = document.createElement('time');
    time.dateTime = at;
    time.textContent = `${at.slice(0, 10)} ${at.slice(11, 16)} UTC`;
    entry.append(text, ' ', time);
    list.prepend(entry);
    while (list.children.length > PANEL_SIZE) list.lastElementChild.remove();
  }

  // Rows the page drew again (a change, a resync) get their marks back.
  board.addEventListener(BOARD_CHANGED, showDrags);
  const parse = (handler) => (event) => handler(JSON.parse(event.data));
  return {
    listeners: {
      [LIVE_PRESENCE]: parse(showPresence),
      [LIVE_DRAGGING]: parse(onDragging),
      [LIVE_ACTIVITY]: parse(onActivity),
    },
    cleanup: () => { board.removeEventListener(BOARD_CHANGED, showDrags); drags.clear(); showDrags(); },
  };
}
