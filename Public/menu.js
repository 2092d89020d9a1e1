// "Move to…": each row's `button[data-action="move-to"]` opens a menu of the destinations the
// server would take the row on (the proposal table's targets with a `menu` entry, operation
// named by the server: "Move to Tom", "Copy to Label"); choosing one drops the row at that
// target's end through the same drag controller and API as the mouse. Without JavaScript the
// same button submits a GET form to the server's move page (`/boards/<id>/move?item=<id>`).

import { placeInViewport } from './popover.js';
import { ROW, actionSelector, listOf, listSelector, rowById, rowContainer, titleOf, zoneSelector } from './selectors.js';
import { draggedRows } from './selection.js';

/** An entry of the menu (which this module makes). */
const MENU_ITEM = '[role="menuitem"]';

/** Starts the move-to menus of `root`'s rows; returns the cleanup. */
export function initMoveMenu(root, view, drags) {
  const board = view.board;
  const menu = document.createElement('div');
  menu.className = 'move-menu';
  menu.setAttribute('role', 'menu');
  menu.hidden = true;
  document.body.append(menu);
  /** The open menu: its session, row and button, or null. */
  let open = null;

  /** Where a menu drop lands: after a list's last row (over nothing in an empty list), or on a zone. */
  function endOf(target) {
    const rows = target.dataset.list ? [...rowContainer(target).children] : [];
    const last = rows[rows.length - 1];
    return last ? { row: rows.length - 1, fraction: 1, item: last.dataset.item } : { row: null };
  }

  function show(row, button) {
    const session = drags.begin({ rows: draggedRows(row), list: listOf(row).dataset.list });
    open = { session, row, button };
    const current = open;
    // Under the button, kept inside the viewport (on a phone the button is near the right edge).
    const place = () => placeInViewport(menu, button.getBoundingClientRect(), { align: 'end', fixed: false });
    menu.replaceChildren();
    menu.setAttribute('aria-label', `Move ${titleOf(row)?.textContent ?? ''} to`);
    menu.hidden = false;
    place();
    button.setAttribute('aria-expanded', 'true');
    session.ready.then((answer) => {
      if (open !== current) return;
      if (!answer) { close(false); return; }
      const entries = answer.table.targets.filter((entry) => entry.menu);
      for (const entry of entries) {
        const selector = entry.target.list != null ? listSelector(entry.target.list) : zoneSelector(entry.target.zone);
        if (!board.querySelector(selector)) continue;
        const item = document.createElement('button');
        item.type = 'button';
        item.setAttribute('role', 'menuitem');
        item.dataset.destination = entry.target.list != null ? `list:${entry.target.list}` : `zone:${entry.target.zone}`;
        item.dataset.selector = selector;
        item.textContent = entry.menu;
        menu.append(item);
      }
      // Another board, or a place other than a list's end: the move page, where both are chosen.
      const elsewhere = document.createElement('a');
      elsewhere.setAttribute('role', 'menuitem');
      elsewhere.dataset.action = 'move-elsewhere';
      elsewhere.href = `/boards/${encodeURIComponent(board.dataset.board)}/move?item=${encodeURIComponent(row.dataset.item)}`;
      elsewhere.textContent = 'Another board or place…';
      if (!menu.children.length) {
        const none = document.createElement('p');
        none.textContent = answer.nowhere ?? '';
        // Focusable, so Escape (heard only inside the menu) closes a menu with nowhere to go too.
        none.tabIndex = -1;
        menu.append(none);
      }
      if (!board.hasAttribute('data-read-only')) menu.append(elsewhere);
      place();
      (menu.querySelector(MENU_ITEM) ?? menu.firstElementChild)?.focus();
    });
  }

  /** Closes the menu; without a choice the session ends as a cancel. Focus returns to the button. */
  function close(refocus = true) {
    if (!open) return;
    const { session, button } = open;
    open = null;
    menu.hidden = true;
    menu.replaceChildren();
    button.setAttribute('aria-expanded', 'false');
    if (refocus && button.isConnected) button.focus();
    session.end().then((outcome) => { if (outcome?.announcement) view.say(outcome.announcement); });
  }

  function choose(item) {
    const { session, row } = open;
    const target = board.querySelector(item.dataset.selector);
    open = null;
    menu.hidden = true;
    menu.replaceChildren();
    if (!target) { session.end(); return; }
    const location = endOf(target);
    session.decide(target, location, false);
    session.drop(target, location);
    session.end().then(() => session.dropped).then((answer) => {
      const id = answer?.changes?.find((change) => change.kind === 'insert')?.item ?? row.dataset.item;
      const moved = rowById(board, id) ?? (row.isConnected ? row : null);
      moved?.focus();
    });
  }

  function onClick(event) {
    if (!(event.target instanceof Element)) return;
    const item = event.target.closest(`.move-menu ${MENU_ITEM}`);
    if (item?.matches('a') && open) { close(false); return; }   // a link: the browser goes to the move page
    if (item && open) { choose(item); return; }
    const button = event.target.closest(actionSelector('move-to'));
    if (button && board.contains(button)) {
      event.preventDefault();   // with JavaScript the menu replaces the server's move page
      const wasOpen = open?.button === button;
      close(false);
      if (!wasOpen) show(button.closest(ROW), button);
      return;
    }
    if (open && !menu.contains(event.target)) close(false);
  }

  function onKeyDown(event) {
    if (!open || !menu.contains(event.target)) return;
    const items = [...menu.querySelectorAll(MENU_ITEM)];
    const index = items.indexOf(event.target);
    const next = { ArrowDown: items[index + 1] ?? items[0], ArrowUp: items[index - 1] ?? items[items.length - 1], Home: items[0], End: items[items.length - 1] }[event.key];
    if (next) { event.preventDefault(); next.focus(); return; }
    if (event.key === 'Escape' || event.key === 'Tab') { event.preventDefault(); close(); }
  }

  document.addEventListener('click', onClick);
  document.addEventListener('keydown', onKeyDown);
  return () => {
    document.removeEventListener('click', onClick);
    document.removeEventListener('keydown', onKeyDown);
    menu.remove();
  };
}
