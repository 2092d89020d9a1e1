// Where a pointer over a list would drop: over a row, that row and how far down it; over none of
// its rows (the gap between two rows, the list's padding, its header or its forms), the nearest
// insertion point, never "no row" (which the server reads as "the end of the list").

import { ROW, rowContainer } from './selectors.js';

/** The class of the landing gap a drag opens where the card will land (motion.js): not a row. */
export const LANDING_GAP_CLASS = 'landing-gap';

/** The children of a row container that drop indexes count: all but the landing gap. */
export function rowsIn(rows) {
  return rows ? [...rows.children].filter((child) => !child.classList.contains(LANDING_GAP_CLASS)) : [];
}

/** The landing gap, where it is open in the row container `rows`; `data-shift` says how far it
 *  pushed the rows after it down (motion.js measures it as it opens). */
function gapIn(rows) {
  return rows.querySelector(`:scope > .${LANDING_GAP_CLASS}`);
}

/**
 * A row's box as it was before the landing gap opened: the pointer is read against the rows
 * where they were, so the gap never moves the place it shows (and drops land where they would
 * without it).
 */
function unshifted(rows) {
  const gap = gapIn(rows);
  const shift = Number(gap?.dataset.shift) || 0;
  return (child) => {
    const box = child.getBoundingClientRect();
    const below = gap && (gap.compareDocumentPosition(child) & Node.DOCUMENT_POSITION_FOLLOWING);
    return below ? { top: box.top - shift, height: box.height } : box;
  };
}

/**
 * Where the point at `clientY` is over `list` (a list element; `element` is the element under
 * the point), as the server's engine resolves it: `{ row, fraction, item }`, the row under the
 * point and how far down it, or else the nearest gap's (`nearestGap`). Mouse and touch drags both
 * locate this way.
 */
export function locateInList(list, element, clientY) {
  const rows = rowContainer(list);
  if (!rows) return { row: null };
  const boxOf = unshifted(rows);
  let row = element instanceof Element ? element.closest(ROW) : null;
  // Over the landing gap or a row it pushed down: the row that was there before the gap opened.
  if (gapIn(rows) && (row?.parentElement === rows || element.classList?.contains(LANDING_GAP_CLASS))) {
    row = rowsIn(rows).find((child) => {
      const box = boxOf(child);
      return clientY >= box.top && clientY < box.top + box.height;
    }) ?? null;
  }
  if (!row || row.parentElement !== rows) return nearestGap(rows, clientY, boxOf);
  const box = boxOf(row);
  const fraction = box.height > 0 ? Math.min(1, Math.max(0, (clientY - box.top) / box.height)) : 0.5;
  return { row: rowsIn(rows).indexOf(row), fraction, item: row.dataset.item };
}

/**
 * The location of the insertion point nearest to `clientY` among the rows of `rows` (a list's
 * row container; `boxOf` a row's box): `{ row, fraction, item }` as over a row's top (the gap
 * before it), or over the last row's bottom (the gap after it, to append); `{ row: null }` when
 * the list is empty.
 */
function nearestGap(rows, clientY, boxOf) {
  // Indexes count every child, as the row under the pointer is counted (never the landing gap).
  let last = null;
  for (const [index, child] of rowsIn(rows).entries()) {
    if (child.dataset.item == null) continue;
    const box = boxOf(child);
    if (clientY < box.top + box.height / 2) return { row: index, fraction: 0, item: child.dataset.item };
    last = { row: index, fraction: 1, item: child.dataset.item };
  }
  return last ?? { row: null };
}
