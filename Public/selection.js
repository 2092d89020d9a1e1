// Row selection with the mouse: click, Ctrl/⌘-click to toggle, Shift-click to extend.

import { ROW, SELECTED_ROW, listOf, rowsOf } from './selectors.js';

export function initSelection(root) {
  let anchor = null;
  const select = setSelected;
  function clearOthers(list) {
    for (const row of root.querySelectorAll(SELECTED_ROW)) {
      if (listOf(row) !== list) select(row, false);
    }
  }
  function onClick(event) {
    if (event.target.closest('summary, a, button')) return;
    const row = event.target.closest(ROW);
    if (!row) return;
    const list = listOf(row);
    const rows = rowsOf(list);
    clearOthers(list);
    if (event.shiftKey && anchor && rows.includes(anchor)) {
      const [from, to] = [rows.indexOf(anchor), rows.indexOf(row)].sort((a, b) => a - b);
      rows.forEach((candidate, index) => select(candidate, index >= from && index <= to));
    } else if (event.ctrlKey || event.metaKey) {
      select(row, !row.classList.contains('is-selected'));
      anchor = row;
    } else {
      rows.forEach((candidate) => select(candidate, candidate === row));
      anchor = row;
    }
  }
  root.addEventListener('click', onClick);
  return () => root.removeEventListener('click', onClick);
}

/** The rows a drag of `row` carries: the selection of its list when it includes the row. */
export function draggedRows(row) {
  if (!row.classList.contains('is-selected')) {
    for (const selected of document.querySelectorAll(SELECTED_ROW)) setSelected(selected, false);
    return [row];
  }
  return rowsOf(listOf(row)).filter((candidate) => candidate.classList.contains('is-selected'));
}

/**
 * Marks a row selected or not. Its description says so (`#row-selected`): `aria-selected` is not
 * allowed on the list items rows are.
 */
export function setSelected(row, on) {
  row.classList.toggle('is-selected', on);
  row.setAttribute('aria-describedby', on ? 'row-selected drag-help' : 'drag-help');
}
