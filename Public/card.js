// A card opened in a dialog: the same details the card's own page shows (fetched from it, so
// the page is the one source of its markup), whose forms forms.js sends like the board's.
// Plain click (or `o`) on a card opens it; Ctrl/⌘/Shift-click only select.

import { BOARD_CHANGED, ROWS_LOADED } from './events.js';
import { CARD_DETAILS, CARD_LINK, CHECK, CHECKS, DUE_DATE, LABELS_MENU, ROW } from './selectors.js';

/** Starts card opening on the board page `root`; returns the cleanup. */
export function initCards(root, view) {
  const board = view.board;
  const boardID = board.dataset.board;
  const dialog = document.createElement('dialog');
  dialog.dataset.dialog = 'card';
  dialog.className = 'card-dialog';
  dialog.setAttribute('aria-label', 'Card');
  board.append(dialog);
  /** The open card's id, or null. */
  let open = null;
  let loading = null;
  /** A form of the dialog was sent: its answer shows even though a field still holds what was typed. */
  let submitted = false;

  const cardURL = (id) => `/boards/${encodeURIComponent(boardID)}/cards/${encodeURIComponent(id)}`;

  async function fetchDetails(id) {
    const response = await fetch(cardURL(id), { credentials: 'same-origin', headers: { Accept: 'text/html' } });
    if (!response.ok) return null;
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    return page.querySelector(CARD_DETAILS);
  }

  async function show(id) {
    open = id;
    const details = await (loading = fetchDetails(id));
    if (open !== id) return;
    if (!details) { close(); view.say('This card is gone; someone may have deleted it.', 'error'); return; }
    fill(details);
    if (!dialog.open) dialog.showModal();
    dialog.querySelector('input[name="title"], button')?.focus();
  }

  /** Puts fetched details in the dialog, keeping focus in the field it was in. */
  function fill(details) {
    const focused = dialog.contains(document.activeElement) ? document.activeElement : null;
    // What is being typed in the field with the focus (not yet sent) is kept in its new copy.
    const where = focused && { form: focused.form?.dataset.form, name: focused.name,
      typed: focused.matches('textarea, input:not([type="hidden"]):not([type="checkbox"])') && focused.value !== focused.defaultValue ? focused.value : null };
    const closer = document.createElement('button');
    Object.assign(closer, { type: 'button', className: 'dialog-close', textContent: '×' });
    closer.dataset.action = 'close-card';
    closer.setAttribute('aria-label', 'Close the card');
    dialog.replaceChildren(closer, document.importNode(details, true));
    dialog.setAttribute('aria-labelledby', dialog.querySelector('h1')?.id ?? '');
    markDueDates(dialog);
    const again = where?.form ? dialog.querySelector(`form[data-form="${where.form}"] [name="${where.name}"]`) : null;
    if (again && where.typed != null && !submittedFrom(where.form)) again.value = where.typed;
    again?.focus();
    sentForm = null;
  }

  function close() {
    open = null;
    if (dialog.open) dialog.close();
  }

  /** Someone (this page or another) changed the board: the open card shows it, unless it is being typed in. */
  async function refresh() {
    markDueDates(board);
    if (!open || !dialog.open || (typing() && !submitted)) return;
    submitted = false;
    const id = open;
    const details = await fetchDetails(id);
    if (open !== id) return;
    if (!details) { close(); view.say('The card you had open was deleted.', 'error'); return; }
    fill(details);
  }

  function typing() {
    const field = dialog.contains(document.activeElement) ? document.activeElement : null;
    return field?.matches('textarea, input:not([type="hidden"]):not([type="checkbox"])') && field.value !== field.defaultValue;
  }

  function opens(event) {
    if (event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return null;
    if (event.target.closest('button, a, input, select, textarea, summary, details, form')) return null;
    return event.target.closest(ROW);
  }

  function onClick(event) {
    if (event.target.closest('[data-action="close-card"]')) { close(); return; }
    const link = event.target.closest(CARD_LINK);
    if (link && !(event.ctrlKey || event.metaKey || event.shiftKey)) {   // a modified click opens the page in a tab, as any link
      event.preventDefault();
      show(link.closest(ROW).dataset.item);
      return;
    }
    if (event.target === dialog) { close(); return; }   // a click on the backdrop
    const row = opens(event);
    if (row && !row.querySelector('input.inline-edit')) show(row.dataset.item);
  }

  function onKeyDown(event) {
    if (event.key !== 'o' || event.ctrlKey || event.metaKey || event.altKey) return;
    const row = event.target.closest?.(ROW);
    if (!row || event.target !== row) return;
    event.preventDefault();
    show(row.dataset.item);
  }

  root.addEventListener('click', onClick);
  root.addEventListener('keydown', onKeyDown);
  dialog.addEventListener('close', () => { open = null; });
  /** The form last sent from the dialog: its fields start empty again when its answer shows. */
  let sentForm = null;
  const submittedFrom = (kind) => sentForm === kind;
  dialog.addEventListener('submit', (event) => { submitted = true; sentForm = event.target.dataset?.form ?? null; });
  board.addEventListener(BOARD_CHANGED, refresh);
  board.addEventListener(BOARD_CHANGED, refreshLabelsMenu);
  board.addEventListener('toggle', onToggle, true);   // `toggle` does not bubble
  board.addEventListener(ROWS_LOADED, () => markDueDates(board));
  const stopChecklistDrags = initChecklistDrags(dialog, view);
  markDueDates(board);

  /**
   * The labels menu, drawn again from the board's page when labels may have changed (a read of
   * the board's lists, a resync, says so): at once when it is open, else when it is next opened,
   * so a resync for a list change costs no page fetch.
   */
  let labelsStale = false;
  function refreshLabelsMenu(event) {
    if (!event.detail?.lists) return;
    labelsStale = true;
    if (board.querySelector(LABELS_MENU)?.open) redrawLabelsMenu();
  }

  function onToggle(event) {
    if (labelsStale && event.target.matches?.(LABELS_MENU) && event.target.open) redrawLabelsMenu();
  }

  async function redrawLabelsMenu() {
    labelsStale = false;
    const menu = board.querySelector(LABELS_MENU);
    if (!menu) return;
    const response = await fetch(`/boards/${encodeURIComponent(boardID)}`, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), 'text/html').querySelector(LABELS_MENU);
    if (!fresh) return;
    fresh.open = menu.open;
    menu.replaceWith(document.importNode(fresh, true));
  }

  return () => {
    root.removeEventListener('click', onClick);
    root.removeEventListener('keydown', onKeyDown);
    board.removeEventListener(BOARD_CHANGED, refresh);
    board.removeEventListener(BOARD_CHANGED, refreshLabelsMenu);
    board.removeEventListener('toggle', onToggle, true);
    stopChecklistDrags();
    dialog.remove();
  };
}

/** Marks each due date under `scope` overdue or due soon, by the viewer's own calendar. */
export function markDueDates(scope) {
  const today = localDay(new Date());
  const tomorrow = localDay(new Date(Date.now() + 86_400_000));
  for (const element of scope.querySelectorAll(DUE_DATE)) {
    const due = element.dataset.due;
    element.dataset.dueState = due < today ? 'overdue' : due <= tomorrow ? 'soon' : 'later';
  }
}

function localDay(date) {
  const pad = (number) => String(number).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * A checklist reordered by dragging its items: the drop posts the item's new index to the
 * item's move form (the same form the ↑ and ↓ buttons send without JavaScript). The drag stays
 * in the dialog: the board's own drag and drop never hears of it.
 */
function initChecklistDrags(dialog, view) {
  let dragged = null;

  function indexAt(list, y) {
    const others = [...list.querySelectorAll(CHECK)].filter((check) => check !== dragged);
    const after = others.findIndex((check) => { const box = check.getBoundingClientRect(); return y < box.top + box.height / 2; });
    return after === -1 ? others.length : after;
  }

  function onDragStart(event) {
    event.stopPropagation();
    dragged = event.target.closest?.(CHECK) ?? null;
    if (!dragged) { event.preventDefault(); return; }
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', dragged.querySelector('.check-title')?.textContent ?? '');
    dragged.classList.add('is-lifted');
  }

  function onDragOver(event) {
    event.stopPropagation();
    const list = event.target.closest?.(CHECKS);
    if (!dragged || !list) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const index = indexAt(list, event.clientY);
    for (const check of list.querySelectorAll(CHECK)) check.classList.remove('drop-before', 'drop-after');
    const others = [...list.querySelectorAll(CHECK)].filter((check) => check !== dragged);
    if (others[index]) others[index].classList.add('drop-before'); else others.at(-1)?.classList.add('drop-after');
  }

  function onDrop(event) {
    event.stopPropagation();
    const list = event.target.closest?.(CHECKS);
    if (!dragged || !list) return;
    event.preventDefault();
    const index = indexAt(list, event.clientY);
    const form = dragged.querySelector('form[data-form="move-check"]');
    const was = [...list.querySelectorAll(CHECK)].indexOf(dragged);
    clear();
    if (!form || index === was) return;
    const button = document.createElement('button');
    Object.assign(button, { type: 'submit', name: 'index', value: String(index), hidden: true });
    form.append(button);
    form.requestSubmit(button);   // forms.js sends it and the dialog shows the answer
    button.remove();
  }

  function clear() {
    dialog.querySelectorAll('.drop-before, .drop-after, .is-lifted').forEach((element) => element.classList.remove('drop-before', 'drop-after', 'is-lifted'));
    dragged = null;
  }

  function onDragEnd(event) {
    event.stopPropagation();
    clear();
  }

  const stop = (event) => event.stopPropagation();
  const listeners = [['dragstart', onDragStart], ['dragover', onDragOver], ['drop', onDrop], ['dragend', onDragEnd], ['dragenter', stop], ['dragleave', stop]];
  listeners.forEach(([type, listener]) => dialog.addEventListener(type, listener));
  return () => listeners.forEach(([type, listener]) => dialog.removeEventListener(type, listener));
}
