// Where a pointer over a list would drop: over a row, that row and how far down it; over none of
// its rows (the gap between two rows, the list's padding, its header or its forms), the nearest
// insertion point, never "no row" (which the server reads as "the end of the list").

import { ROW, rowContainer } from './selectors.js';

/**
 * Where the point at `clientY` is over `list` (a list element; `element` is the element under
 * the point), as the server's engine resolves it: `{ row, fraction, item }`, the row under the
 * point and how far down it, or else the nearest gap's (`nearestGap`). Mouse and touch drags both
 * locate this way.
 */
export function locateInList(list, element, clientY) {
  const rows = rowContainer(list);
  const row = element instanceof Element ? element.closest(ROW) : null;
  if (!rows) return { row: null };
  if (!row || row.parentElement !== rows) return nearestGap(rows, clientY);
  const box = row.getBoundingClientRect();
  const fraction = box.height > 0 ? Math.min(1, Math.max(0, (clientY - box.top) / box.height)) : 0.5;
  return { row: Array.prototype.indexOf.call(rows.children, row), fraction, item: row.dataset.item };
}

/**
 * The location of the insertion point nearest to `clientY` among the rows of `rows` (a list's
 * row container): `{ row, fraction, item }` as over a row's top (the gap before it), or over
 * the last row's bottom (the gap after it, to append); `{ row: null }` when the list is empty.
 */
function nearestGap(rows, clientY) {
  // Indexes count every child, as the row under the pointer is counted.
  const children = rows ? [...rows.children] : [];
  let last = null;
  for (const [index, child] of children.entries()) {
    if (child.dataset.item == null) continue;
    const box = child.getBoundingClientRect();
    if (clientY < box.top + box.height / 2) return { row: index, fraction: 0, item: child.dataset.item };
    last = { row: index, fraction: 1, item: child.dataset.item };
  }
  return last ?? { row: null };
}
