// Windowed long lists. The server renders the first rows of each list and of each container's
// contents; `data-row-count` says how many the list holds. The next rows load when the last
// loaded row comes into view: as the list scrolls, while a drag (mouse or touch) auto-scrolls it,
// when a keyboard move or the focus (ArrowDown, End) reaches it — or from the list's "Show more"
// link, which without JavaScript loads the page with more rows instead.
//
// The loaded rows are always the list's first rows, so every index the protocol sends (a DOM
// index) is the list's own index. A window read at version v joins the page only when the page
// shows v and still ends with the row the window follows; otherwise the page catches up (live
// updates, in version order) and asks again. No row is lost or doubled: live changes beyond the
// loaded rows are left to these windows (view.js), and the server says every list's count.
//
// End on a 10,000-row list focuses the last loaded row; reaching it loads the next window, so a
// second End goes further. Nothing ever loads the whole list at once.

import { BOARD_CHANGED, ROWS_LOADED } from './events.js';
import { LIST, SHOWN_COUNT, SHOW_MORE, rowContainer, rowsOf } from './selectors.js';

/** Whether the page shows only the first rows of `list` (its `data-row-count` says it holds more). */
export function isWindowed(list) {
  return Number(list.dataset.rowCount) > rowsOf(list).length;
}

export function initPaging(root, view, boardID) {
  const { board } = view;
  const loading = new Set();
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const list = entry.target.closest(LIST);
      if (entry.isIntersecting && list) load(list);
    }
  }, { rootMargin: '0px 0px 160px 0px' });

  /** Observes the last loaded row of every list that holds more, and updates its link. */
  function watch() {
    observer.disconnect();
    for (const list of board.querySelectorAll(LIST)) {
      showCount(list);
      const rows = rowsOf(list);
      if (isWindowed(list) && rows.length) observer.observe(rows[rows.length - 1]);
    }
  }

  /** The "Show more" link says how many rows are shown; it goes once every row is. */
  function showCount(list) {
    const link = list.querySelector(`:scope > ${SHOW_MORE}`);
    if (!link) return;
    if (!isWindowed(list)) { link.remove(); return; }
    const shown = rowsOf(list).length;
    const total = Number(list.dataset.rowCount);
    const count = link.querySelector(SHOWN_COUNT);
    if (count) count.textContent = `(${shown} of ${total} shown)`;
  }

  /** Resolves once the page shows `version` or a newer one (live updates bring it). */
  function reaching(version) {
    return new Promise((resolve) => {
      const check = () => {
        if (view.version() < version) return;
        board.removeEventListener(BOARD_CHANGED, check);
        resolve();
      };
      board.addEventListener(BOARD_CHANGED, check);
      check();
    });
  }

  /** The page's next change, whatever it is. */
  function nextChange() {
    return new Promise((resolve) => board.addEventListener(BOARD_CHANGED, resolve, { once: true }));
  }

  async function fetchRows(list, after) {
    const query = new URLSearchParams();
    if (after) query.set('after', after);
    const response = await fetch(`/boards/${encodeURIComponent(boardID)}/api/lists/${encodeURIComponent(list)}/rows?${query}`,
      { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    return { status: response.status, answer: response.ok ? await response.json() : null };
  }

  /** Loads the rows after the last loaded one of `list` (once at a time per list); whether it did. */
  async function load(list) {
    if (loading.has(list)) return false;
    loading.add(list);
    list.setAttribute('aria-busy', 'true');
    try {
      for (let attempt = 0; attempt < 8; attempt += 1) {
        if (!board.contains(list) || !isWindowed(list)) return false;
        const last = rowsOf(list).pop()?.dataset.item ?? null;
        const { status, answer } = await fetchRows(list.dataset.list, last);
        if (!answer) {
          // The row the window follows moved or went since: the page learns it, then asks again.
          if (status === 404 || status === 409) { await nextChange(); continue; }
          return false;
        }
        await reaching(answer.version);
        if (!board.contains(list)) return false;
        if (view.version() !== answer.version || (rowsOf(list).pop()?.dataset.item ?? null) !== (answer.after ?? null)) continue;
        const template = document.createElement('template');
        template.innerHTML = answer.html;
        const known = new Set(rowsOf(list).map((row) => row.dataset.item));
        for (const row of [...template.content.children]) if (known.has(row.dataset.item)) row.remove();
        rowContainer(list).append(template.content);
        list.dataset.rowCount = String(answer.total);
        list.dispatchEvent(new CustomEvent(ROWS_LOADED, { bubbles: true, detail: { list: list.dataset.list, count: answer.count } }));
        return true;
      }
      return false;
    } finally {
      loading.delete(list);
      list.removeAttribute('aria-busy');
      watch();
    }
  }

  /** "Show more" with JavaScript: the next rows in place, the focus on the first of them. */
  async function onClick(event) {
    const link = event.target instanceof Element ? event.target.closest(SHOW_MORE) : null;
    const list = link?.closest(LIST);
    if (!list) return;
    event.preventDefault();
    const before = rowsOf(list).length;
    if (await load(list)) rowsOf(list)[before]?.focus();
  }

  root.addEventListener('click', onClick);
  board.addEventListener(BOARD_CHANGED, watch);
  watch();
  return () => {
    observer.disconnect();
    root.removeEventListener('click', onClick);
    board.removeEventListener(BOARD_CHANGED, watch);
  };
}
