// Motion: when the board changes (this page's drop, an undo, someone else's change) lists and rows
// slide from where they were to where they are now (FLIP: the rects of what is near the screen are
// read before the change's DOM writes and once after them, then each moved element plays the difference back as a
// transform); rows that arrive fade in. While a drag hovers a list, the landing gap holds the
// place where the card will land. `prefers-reduced-motion: reduce` turns the movement off.

import { LANDING_GAP_CLASS, rowsIn } from './gaps.js';
import { BOARD_LIST, LIST, ROW } from './selectors.js';

/** The slides' id (`Animation.id`): the next change (and tests) find them by it. */
const SLIDE = 'slide';
const DURATION = 200;
const EASING = 'cubic-bezier(.2, .8, .2, 1)';
/** What slides: board lists (reordered columns) and rows, nested ones included. */
const MOVING = `${BOARD_LIST}, ${ROW}`;
/** Where rows sit: a list's (or an open box's) row container. */
const ROW_CONTAINER = `${LIST} > .rows`;
/** A gap no row of the target is as tall as: a drag from another window carries no row here. */
const DEFAULT_GAP = 36;

const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)');
const moving = () => !reduced?.matches;

function keyOf(element) {
  return element.matches(ROW) ? `row:${element.dataset.item}` : `list:${element.dataset.list}`;
}

function onScreen(box) {
  return box.bottom > 0 && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth;
}

/** Whether a box is within a screen of the viewport: what a change may slide into view or out of it. */
function nearby(box) {
  const { innerWidth: width, innerHeight: height } = window;
  return box.bottom >= -height && box.top <= 2 * height && box.right >= -width && box.left <= 2 * width;
}

/**
 * The lists and rows of `scope` within a screen of the viewport, each with its rect, in document
 * order (a list or box before the rows in it). A long list's rows are found by a binary search on
 * their (ordered) tops, so a change costs the same at 10 rows or 10,000: rows far out of view are
 * never measured, and never slide.
 */
function nearScreen(scope) {
  const found = [];
  for (const list of scope.querySelectorAll(BOARD_LIST)) found.push([list, list.getBoundingClientRect()]);
  const top = -window.innerHeight;
  const bottom = 2 * window.innerHeight;
  for (const container of scope.querySelectorAll(ROW_CONTAINER)) {
    if (!nearby(container.getBoundingClientRect())) continue;
    const rows = [...container.children].filter((child) => child.matches(ROW));
    let low = 0;
    let high = rows.length;
    while (low < high) {   // the first row whose bottom is below `top`
      const middle = (low + high) >> 1;
      if (rows[middle].getBoundingClientRect().bottom < top) low = middle + 1; else high = middle;
    }
    for (let index = low; index < rows.length; index += 1) {
      const box = rows[index].getBoundingClientRect();
      if (box.top > bottom) break;
      found.push([rows[index], box]);
    }
  }
  return found;
}

/**
 * Reads where the lists and rows of `scope` near the screen are (as seen, a slide under way
 * included); call `play()` once the change's DOM writes are done. Elements are matched by their
 * ids, so a row the change replaced (a move is a remove and an insert) slides from where its
 * predecessor was.
 */
export function captureMotion(scope) {
  if (!moving()) return { play() {} };
  const before = new Map();
  for (const [element, box] of nearScreen(scope)) before.set(keyOf(element), box);
  return { play: () => play(scope, before) };
}

function play(scope, before) {
  // Writes first (a slide still under way starts again from where it was seen), then the reads.
  for (const animation of document.getAnimations()) if (animation.id === SLIDE) animation.cancel();
  const measured = nearScreen(scope);
  // What was near the screen and went far from it (a row dropped at the end of a long list) slides away.
  const seen = new Set(measured.map(([element]) => keyOf(element)));
  for (const key of before.keys()) {
    if (seen.has(key)) continue;
    const [kind, id] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
    const element = kind === 'row' ? scope.querySelector(`${ROW}[data-item="${CSS.escape(id)}"]`)
      : scope.querySelector(`${BOARD_LIST}[data-list="${CSS.escape(id)}"]`);
    if (element) measured.push([element, element.getBoundingClientRect()]);
  }
  /** What each element plays, so a row inside a sliding list or box plays only its own part. */
  const played = new Map();
  for (const [element, box] of measured) {
    const parent = element.parentElement?.closest(MOVING);
    const old = before.get(keyOf(element));
    if (!old) {
      // New here (a copy, a card someone added): it fades in, unless its list or box does.
      if (played.get(parent)?.entering || !onScreen(box)) continue;
      played.set(element, { entering: true });
      element.animate([{ opacity: 0, transform: 'scale(.96)' }, { opacity: 1, transform: 'none' }],
        { duration: DURATION, easing: EASING, id: SLIDE });
      continue;
    }
    const carried = played.get(parent) ?? { x: 0, y: 0 };
    const x = old.left - box.left - (carried.x ?? 0);
    const y = old.top - box.top - (carried.y ?? 0);
    if ((Math.abs(x) < 0.5 && Math.abs(y) < 0.5) || (!onScreen(old) && !onScreen(box))) continue;
    played.set(element, { x: x + (carried.x ?? 0), y: y + (carried.y ?? 0) });
    // Added to the element's own transform (a lifted row's tilt stays).
    element.animate([{ transform: `translate(${x}px, ${y}px)` }, { transform: 'translate(0, 0)' }],
      { duration: DURATION, easing: EASING, id: SLIDE, composite: 'add' });
  }
}

/**
 * The landing gap of the drags of this page: a placeholder row, as tall as the dragged card, that
 * `place(rows, index)` opens in the row container `rows` before its `index`th row (drop indexes
 * do not count it, and read the pointer against the rows' places without it: gaps.js), and
 * `place(null)` closes. It opens at once (the indicator drawn at the rows must hold still); it
 * only grows in where motion is on.
 */
export function createLandingGap() {
  const gap = document.createElement('li');
  gap.className = LANDING_GAP_CLASS;
  gap.setAttribute('aria-hidden', 'true');

  /** The dragged card's height: the first row this page lifted, else a row of the target. */
  function heightFor(rows) {
    const lifted = document.querySelector(`${ROW}.is-dragging`);
    return lifted?.offsetHeight || rowsIn(rows)[0]?.offsetHeight || DEFAULT_GAP;
  }

  /** Where the card lands next to a lifted row of the same list, that row already holds the place. */
  function besideLifted(rows, index) {
    const children = rowsIn(rows);
    return [children[index - 1], children[index]].some((row) => row?.classList.contains('is-dragging'));
  }

  function place(rows, index = 0) {
    if (!rows || rowsIn(rows).length === 0 || besideLifted(rows, index)) { gap.remove(); return; }
    const next = rowsIn(rows)[index] ?? null;
    if (gap.parentElement === rows && gap.nextElementSibling === next) return;
    // How far the gap pushes the rows after it: gaps.js reads the pointer against their places before.
    gap.remove();
    const top = next?.getBoundingClientRect().top ?? 0;
    gap.style.height = `${heightFor(rows)}px`;
    rows.insertBefore(gap, next);
    // At the end no row follows (rows paging.js loads later would): the gap's own height and margin.
    const end = () => gap.offsetHeight + (parseFloat(getComputedStyle(gap).marginBottom) || 0);
    gap.dataset.shift = String(next ? next.getBoundingClientRect().top - top : end());
  }

  return { place };
}
