// The board's forms, sent by fetch so the page updates in place (each form also works as a
// plain POST without JavaScript), and in-place title editing. The server decides and answers
// with the same changes it pushes to every other viewer.

import { reportOffline } from './connection.js';
import {
  BOARD_TITLE, EDITABLE_BOARD_TITLE, EDITABLE_LIST_TITLE, FORM, LIST_TITLE, ROW,
  actionSelector, formSelector, listOf, rowsOf, titleOf,
} from './selectors.js';

/** Starts the forms and title editing of the board page `root`; returns the cleanup. */
export function initForms(root, view) {
  const board = view.board;

  async function send(form, submitter, extra = {}) {
    const fields = new URLSearchParams(new FormData(form, submitter));
    fields.set('op', newOp());
    for (const [name, value] of Object.entries(extra)) fields.set(name, value);
    // A button with its own `formaction` (delete beside save) posts there, as without JavaScript.
    const action = submitter?.hasAttribute('formaction') ? submitter.formAction : form.action;
    const response = await fetch(action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: fields,
    }).catch((error) => { reportOffline(); throw error; });   // the offline banner goes up
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      view.say(answer?.error?.message ?? `The server refused (${response.status}).`, 'error');
      return null;
    }
    view.say(answer.message ?? '', 'info', answer);
    applyAnswer(answer);
    return answer;
  }

  function applyAnswer(answer) {
    view.apply(answer);   // a deleted board sends the view to the index (once, whoever says it first)
  }

  function confirmed(form, submitter) {
    const kind = form.dataset.form;
    if (kind === 'delete-board') {
      return window.confirm(`Delete the board “${board.querySelector(BOARD_TITLE)?.textContent ?? ''}” and everything on it?`);
    }
    if (kind === 'delete-list') {
      const list = listOf(form);
      const count = list ? rowsOf(list).length : 0;
      return count === 0 || window.confirm(`Delete the list “${list.querySelector(LIST_TITLE)?.textContent ?? ''}” and its ${count} card${count === 1 ? '' : 's'}?`);
    }
    return true;
  }

  function onSubmit(event) {
    const form = event.target.closest(FORM);
    if (!form || !board.contains(form)) return;
    event.preventDefault();
    if (!confirmed(form, event.submitter)) return;
    send(form, event.submitter).then((answer) => {
      // The composer stays open for the next card (or list), emptied (a textarea for cards, an input for lists).
      if (answer && (form.dataset.form === 'new-item' || form.dataset.form === 'new-list')) form.querySelector('[name="title"]').value = '';
    }).catch(() => view.say('The server could not be reached; nothing was changed.', 'error'));
  }

  // ---- in-place editing of a row's, a list's or the board's title

  let editing = null;

  function editableTitle(target) {
    const row = target.closest(ROW);
    if (row) return { element: titleOf(row), form: listOf(row).querySelector(`:scope > ${formSelector('delete-item')}`), item: row.dataset.item, focus: row };
    const heading = target.closest(EDITABLE_LIST_TITLE);
    if (heading) {
      const list = listOf(heading);
      return { element: heading, form: list.querySelector(formSelector('rename-list')), focus: heading };
    }
    const title = target.closest(EDITABLE_BOARD_TITLE);
    if (title) return { element: title, form: board.querySelector(formSelector('rename-board')), focus: title };
    return null;
  }

  function startEditing(target) {
    const edit = editableTitle(target);
    if (!edit?.element || !edit.form || editing) return;
    const original = edit.element.textContent;
    const input = document.createElement('input');
    input.name = 'title';
    input.className = 'inline-edit';
    input.value = original;
    input.maxLength = 500;
    input.setAttribute('aria-label', 'Title');
    edit.element.replaceChildren(input);
    edit.focus.setAttribute('draggable', 'false');
    editing = { ...edit, original, input };
    input.focus();
    input.select();
  }

  function finishEditing(save) {
    if (!editing) return;
    const { element, form, item, original, input, focus } = editing;
    editing = null;
    const title = input.value;
    element.textContent = save ? title : original;
    if (focus.dataset.item) focus.setAttribute('draggable', 'true');
    focus.focus();
    if (!save || title === original) return;
    // A row is renamed through its list's item form's endpoint; lists and the board through theirs.
    const target = item ? renameItemForm(form) : form;
    send(target, null, item ? { item, title } : { title }).then((answer) => {
      if (!answer) element.textContent = original;
    }).catch(() => { element.textContent = original; view.say('The server could not be reached; nothing was changed.', 'error'); });
  }

  /** A detached form posting to the board's rename-row endpoint with the list form's token. */
  function renameItemForm(deleteForm) {
    const form = document.createElement('form');
    form.action = deleteForm.action.replace(/\/items\/delete$/, '/items/rename');
    form.append(...[...deleteForm.querySelectorAll('input[type="hidden"]')].map((input) => input.cloneNode()));
    return form;
  }

  function onDoubleClick(event) {
    if (event.target.closest('button, input, select, summary, form')) return;
    startEditing(event.target);
  }

  function onKeyDown(event) {
    if (editing && event.target === editing.input) {
      if (event.key === 'Enter') { event.preventDefault(); finishEditing(true); }
      if (event.key === 'Escape') { event.preventDefault(); finishEditing(false); }
      return;
    }
    if (event.target.closest('input, select, textarea, button, summary')) return;
    if (event.key === 'Enter' || event.key === 'F2') {
      if (!editableTitle(event.target)) return;
      event.preventDefault();
      startEditing(event.target);
      return;
    }
    if (event.key === 'Delete') {
      const row = event.target.closest(ROW);
      const button = row?.querySelector(`:scope > ${actionSelector('delete')}`);
      if (!button) return;
      event.preventDefault();
      button.click();
    }
  }

  function onFocusOut(event) {
    if (editing && event.target === editing.input) finishEditing(false);
  }

  const listeners = [['submit', onSubmit], ['dblclick', onDoubleClick], ['keydown', onKeyDown], ['focusout', onFocusOut]];
  listeners.forEach(([type, listener]) => root.addEventListener(type, listener));
  return () => listeners.forEach(([type, listener]) => root.removeEventListener(type, listener));
}

function newOp() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
