// The board's lists as people work in them: each list's "⋯" menu (rename, move left or right,
// rename a card, delete), its card count, the "+ Add a card" composer at its foot and the
// "+ Add another list" column. Without JavaScript the same forms are plain: the menu is a
// <details>, the composers are open forms; this module only makes them open, close and keep
// their place. The forms themselves are sent by forms.js.

import { BOARD_CHANGED, ROWS_LOADED } from './events.js';
import { placeInViewport } from './popover.js';
import {
  BOARD_LIST, COMPOSE, COMPOSE_CANCEL, COMPOSER, LIST_COUNT as COUNT, LIST_DROP_TARGET,
  LIST_MENU as MENU, LIST_MENU_BUTTON as MENU_BUTTON, LIST_MENU_PANEL as MENU_PANEL,
} from './selectors.js';

/** What a menu's keyboard focus moves between. */
const FOCUSABLE = 'input:not([type="hidden"]), select, textarea, button:not([hidden])';

/** Starts the lists' menus, counts and composers on the board page `root`; returns the cleanup. */
export function initLists(root, view, drags) {
  const board = view.board;
  /** The open menu: its details element and the button that opened it, or null. */
  let open = null;

  // ---- the "⋯" menu

  function buttonOf(details) {
    return board.querySelector(`${MENU_BUTTON}[aria-controls="${CSS.escape(details.id)}"]`);
  }

  function openMenu(details, button) {
    if (open) closeMenu(false);
    open = { details, button };
    details.open = true;
    button.setAttribute('aria-expanded', 'true');
    const panel = details.querySelector(MENU_PANEL);
    placeInViewport(panel, button.getBoundingClientRect());
    panel.querySelector(FOCUSABLE)?.focus();
  }

  function closeMenu(refocus = true) {
    if (!open) return;
    const { details, button } = open;
    open = null;
    details.open = false;
    button.setAttribute('aria-expanded', 'false');
    if (refocus && button.isConnected) button.focus();
  }

  /** Moves the list one place left or right, as a drag of its header would (the same session). */
  function moveList(list, step) {
    const lists = [...board.querySelectorAll(BOARD_LIST)];
    const index = lists.indexOf(list);
    const neighbour = lists[index + step];
    const target = board.closest(LIST_DROP_TARGET) ?? board;
    if (!neighbour) { view.say(step < 0 ? 'This is already the first list.' : 'This is already the last list.'); return; }
    const session = drags.begin({ rows: [list], list: '_board', kind: 'lists' });
    session.ready.then((answer) => {
      if (!answer) { session.end(); return; }
      // Before the list on the left, or after the one on the right: where a drag over its near half drops.
      const location = { row: index + step, fraction: step < 0 ? 0 : 1, item: neighbour.dataset.list };
      session.setTarget(target, location);
      session.decide(target, location, false);
      session.drop(target, location);
      return session.end();
    }).then(() => {
      board.querySelector(`${BOARD_LIST}[data-list="${CSS.escape(list.dataset.list)}"] ${MENU_BUTTON}`)?.focus();
    });
  }

  // ---- composers

  function fieldOf(composer) {
    return composer.querySelector('textarea[name="title"], input[name="title"]');
  }

  function openComposer(composer) {
    composer.classList.add('is-open');
    composer.querySelector(COMPOSE)?.setAttribute('aria-expanded', 'true');
    const field = fieldOf(composer);
    field?.focus();
    field?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  function closeComposer(composer, refocus = true) {
    composer.classList.remove('is-open');
    const opener = composer.querySelector(COMPOSE);
    opener?.setAttribute('aria-expanded', 'false');
    const field = fieldOf(composer);
    if (field) field.value = '';
    if (refocus) opener?.focus();
  }

  // ---- events

  function onClick(event) {
    if (!(event.target instanceof Element)) return;
    const target = event.target;
    const menuButton = target.closest(MENU_BUTTON);
    if (menuButton && board.contains(menuButton)) {
      const details = board.querySelector(`#${CSS.escape(menuButton.getAttribute('aria-controls'))}`);
      if (!details) return;
      if (open?.details === details) closeMenu(); else openMenu(details, menuButton);
      return;
    }
    const move = target.closest('button[data-action="list-left"], button[data-action="list-right"]');
    if (move && open) {
      const list = move.closest(BOARD_LIST);
      closeMenu(false);
      moveList(list, move.dataset.action === 'list-left' ? -1 : 1);
      return;
    }
    if (open && !open.details.contains(target)) closeMenu(false);
    const compose = target.closest(COMPOSE);
    if (compose) { openComposer(compose.closest(COMPOSER)); return; }
    const cancel = target.closest(COMPOSE_CANCEL);
    if (cancel) closeComposer(cancel.closest(COMPOSER));
  }

  function onKeyDown(event) {
    if (!(event.target instanceof Element)) return;
    if (open && open.details.contains(event.target)) {
      if (event.key === 'Escape') { event.preventDefault(); closeMenu(); return; }
      if (event.key === 'Tab') {
        // Focus stays in the open menu (it is modal to the keyboard until Escape).
        const items = [...open.details.querySelectorAll(`${MENU_PANEL} ${FOCUSABLE}`)].filter((item) => item.offsetParent !== null);
        const index = items.indexOf(event.target);
        const next = event.shiftKey ? items[index - 1] ?? items[items.length - 1] : items[index + 1] ?? items[0];
        if (next) { event.preventDefault(); next.focus(); }
      }
      return;
    }
    const composer = event.target.closest(COMPOSER);
    if (!composer || !composer.classList.contains('is-open')) return;
    if (event.key === 'Escape') { event.preventDefault(); closeComposer(composer); return; }
    // Titles are one line: Enter adds the card, and the composer stays open for the next one.
    if (event.key === 'Enter' && event.target.matches('textarea') && !event.isComposing) {
      event.preventDefault();
      event.target.form?.requestSubmit();
    }
  }

  /** A menu opened without the button (its <summary>, where scripts are off) is one menu too. */
  function onToggle(event) {
    const details = event.target;
    if (!(details instanceof HTMLDetailsElement) || !details.matches(MENU)) return;
    if (details.open && open?.details !== details) {
      const button = buttonOf(details);
      if (button) openMenu(details, button);
    } else if (!details.open && open?.details === details) {
      closeMenu(false);
    }
  }

  function onScroll(event) {
    // The menu stands in the viewport (no scrolling box clips it): it follows its button.
    if (!open || open.details.contains(event.target)) return;
    placeInViewport(open.details.querySelector(MENU_PANEL), open.button.getBoundingClientRect());
  }

  // ---- the header counts follow `data-row-count`, whoever changes it (view.js, paging.js, a re-render)

  function showCount(list) {
    const count = list.querySelector(`:scope > .list-header ${COUNT}`);
    const total = list.dataset.rowCount ?? '0';
    if (count?.firstChild && count.firstChild.nodeValue !== total) count.firstChild.nodeValue = total;
  }
  const counts = new MutationObserver((records) => {
    for (const record of records) if (record.target.matches?.(BOARD_LIST)) showCount(record.target);
  });
  counts.observe(board, { subtree: true, attributes: true, attributeFilter: ['data-row-count'] });
  const recount = () => board.querySelectorAll(BOARD_LIST).forEach(showCount);

  const listeners = [['click', onClick], ['keydown', onKeyDown]];
  listeners.forEach(([type, listener]) => root.addEventListener(type, listener));
  board.addEventListener('toggle', onToggle, true);
  board.addEventListener(BOARD_CHANGED, recount);
  board.addEventListener(ROWS_LOADED, recount);
  document.addEventListener('scroll', onScroll, true);
  return () => {
    listeners.forEach(([type, listener]) => root.removeEventListener(type, listener));
    board.removeEventListener('toggle', onToggle, true);
    board.removeEventListener(BOARD_CHANGED, recount);
    board.removeEventListener(ROWS_LOADED, recount);
    document.removeEventListener('scroll', onScroll, true);
    counts.disconnect();
  };
}

// ---- drafts: what someone is typing in a list survives the list being drawn again

/** The typed text, open composers and focus inside `list`, to put back with `restoreDrafts`. */
export function draftsOf(list) {
  const fields = [];
  for (const field of list.querySelectorAll('form[data-form] textarea, form[data-form] input:not([type="hidden"])')) {
    const focused = document.activeElement === field;
    if (field.value === field.defaultValue && !focused) continue;
    fields.push({
      form: field.form?.dataset.form, name: field.name, value: field.value, focused,
      start: focused ? field.selectionStart : null, end: focused ? field.selectionEnd : null,
    });
  }
  const composers = [...list.querySelectorAll(`${COMPOSER}.is-open`)].length > 0;
  return fields.length || composers ? { fields, composers } : null;
}

/** Puts `drafts` (from `draftsOf`) back into the list element that replaced the old one. */
export function restoreDrafts(list, drafts) {
  if (!drafts || !list) return;
  if (drafts.composers) {
    list.querySelectorAll(COMPOSER).forEach((composer) => {
      composer.classList.add('is-open');
      composer.querySelector(COMPOSE)?.setAttribute('aria-expanded', 'true');
    });
  }
  for (const draft of drafts.fields) {
    const field = list.querySelector(`form[data-form="${CSS.escape(draft.form ?? '')}"] [name="${CSS.escape(draft.name)}"]`);
    if (!field) continue;
    field.value = draft.value;
    if (draft.focused) {
      field.focus();
      if (draft.start != null) field.setSelectionRange(draft.start, draft.end);
    }
  }
}

