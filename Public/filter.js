// The board's filter: the masthead's search box dims the cards that do not match what is typed
// (`data-filtered-out`), `/` anywhere outside a text field focuses it, Escape clears it. Rows that
// arrive later (live updates, "Show more", a list drawn again) are filtered as they come.

import { FILTER, ROW } from './selectors.js';

/** Starts the filter of the board page `root`; returns the cleanup. */
export function initFilter(root, view) {
  const board = view.board;
  const input = root.querySelector(FILTER);
  if (!input) return () => {};
  let query = '';
  let asked = 0;   // the newest question: an older answer arriving late is dropped

  /** The visible text of a row: its title and its badges, not its buttons' symbols. */
  function textOf(row) {
    const copy = row.cloneNode(true);
    copy.querySelectorAll('button, .contents, [aria-hidden="true"]').forEach((node) => node.remove());
    return copy.textContent.replace(/\s+/g, ' ').toLowerCase();
  }

  /** The ids of the page's cards whose visible text holds `q` (when the server cannot be asked). */
  function matchesHere(q) {
    const needle = q.toLowerCase();
    const found = new Set();
    for (const row of board.querySelectorAll(ROW)) if (textOf(row).includes(needle)) found.add(row.dataset.item);
    return found;
  }

  /**
   * The ids of the cards that match `q`: the server's answer (titles, descriptions and label
   * names, on every row of the board, shown or not yet loaded), or the page's own text when it
   * cannot be asked.
   */
  function matches(q) {
    const url = `/boards/${encodeURIComponent(board.dataset.board)}/api/search?q=${encodeURIComponent(q)}`;
    return fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((answer) => new Set(answer.items))
      .catch(() => matchesHere(q));
  }

  function mark(found) {
    for (const row of board.querySelectorAll(ROW)) {
      const out = found !== null && !found.has(row.dataset.item);
      if (out !== row.hasAttribute('data-filtered-out')) row.toggleAttribute('data-filtered-out', out);
    }
    board.toggleAttribute('data-filtering', found !== null);
  }

  function apply() {
    const question = ++asked;
    const q = input.value.trim();
    query = q;
    if (!q) { mark(null); return Promise.resolve(); }
    return matches(q).then((found) => { if (question === asked) mark(found); }).catch(() => mark(null));
  }

  function typing(target) {
    return target instanceof Element && (target.isContentEditable || target.closest('input, textarea, select, [contenteditable]') !== null);
  }

  function onKeyDown(event) {
    if (event.target === input && event.key === 'Escape') {
      if (input.value) { event.preventDefault(); input.value = ''; apply(); }
      return;
    }
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    event.preventDefault();
    input.focus();
    input.select();
  }

  // New or redrawn rows: filtered by the same question (only when one is asked).
  const arrivals = new MutationObserver((records) => {
    if (!query) return;
    const rowsCame = (node) => node instanceof Element && (node.matches(ROW) || node.querySelector(ROW) !== null);
    if (records.some((record) => [...record.addedNodes].some(rowsCame))) apply();
  });
  arrivals.observe(board, { childList: true, subtree: true });

  input.addEventListener('input', apply);
  document.addEventListener('keydown', onKeyDown);
  return () => {
    arrivals.disconnect();
    input.removeEventListener('input', apply);
    document.removeEventListener('keydown', onKeyDown);
  };
}
