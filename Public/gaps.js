// Where a pointer that is over a list but over none of its rows would drop: the gap between
// two rows, the list's padding, its header or its forms. Each maps to the nearest insertion
// point, never to "no row" (which the server reads as "the end of the list").

/**
 * The location of the insertion point nearest to `clientY` among the rows of `rows` (a list's
 * `.rows` element): `{ row, fraction, item }` as over a row's top (the gap before it), or over
 * the last row's bottom (the gap after it, to append); `{ row: null }` when the list is empty.
 */
export function nearestGap(rows, clientY) {
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
