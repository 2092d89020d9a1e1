// Auto-scroll during a drag: held near the top or bottom edge of a scrolling list, or of the
// window, or near the left or right edge of the board's row of lists, the drag scrolls it, faster
// closer to the edge. A requestAnimationFrame loop runs
// from the last pointer position, because a still pointer gets `dragover` only every ~350 ms
// (and a synthetic drag none at all).

/** How near an edge (px) scrolling starts, and the fastest step (px per frame) at the edge. */
const EDGE = 56;
const FASTEST = 40;

/** Pixels per frame at `distance` from an edge: 0 outside the band, growing to FASTEST at it. */
function step(distance) {
  if (distance >= EDGE) return 0;
  const closeness = 1 - Math.max(0, distance) / EDGE;
  return Math.max(1, Math.round(FASTEST * closeness));
}

function scrollsVertically(element) {
  if (element.scrollHeight <= element.clientHeight + 1) return false;
  return /(auto|scroll)/.test(getComputedStyle(element).overflowY);
}

/** The innermost scrolling element under the point, or null. */
function scrollerAt(x, y) {
  for (let node = document.elementFromPoint(x, y); node && node !== document.body; node = node.parentElement) {
    if (scrollsVertically(node)) return node;
  }
  return null;
}

function scrollsSideways(element) {
  if (element.scrollWidth <= element.clientWidth + 1) return false;
  return /(auto|scroll)/.test(getComputedStyle(element).overflowX);
}

/** The innermost element under the point that scrolls sideways (the board's row of lists), or null. */
function sideScrollerAt(x, y) {
  for (let node = document.elementFromPoint(x, y); node && node !== document.body; node = node.parentElement) {
    if (scrollsSideways(node)) return node;
  }
  return null;
}

/** Scrolls `element` sideways by the step its edge nearest `x` asks for. */
function nudgeSideways(element, x) {
  const box = element.getBoundingClientRect();
  const right = step(box.right - x);
  const left = step(x - box.left);
  if (right > 0) element.scrollBy(right, 0);
  else if (left > 0) element.scrollBy(-left, 0);
}

/** Scrolls `element` by the step its edge nearest `y` asks for; whether it moved. */
function nudge(element, top, bottom, y) {
  const down = step(bottom - y);
  const up = step(y - top);
  const before = element === window ? window.scrollY : element.scrollTop;
  if (down > 0) element.scrollBy(0, down);
  else if (up > 0) element.scrollBy(0, -up);
  return (element === window ? window.scrollY : element.scrollTop) !== before;
}

/** The auto-scroller of one drag at a time: `update` with each pointer position, `stop` at the end. */
export function createAutoScroll() {
  let point = null;
  let frame = 0;

  function tick() {
    frame = 0;
    if (!point) return;
    const { x, y } = point;
    const scroller = scrollerAt(x, y);
    const box = scroller?.getBoundingClientRect();
    if (!(scroller && nudge(scroller, box.top, box.bottom, y))) nudge(window, 0, window.innerHeight, y);
    // The lists stand in one row that scrolls sideways: near its left or right edge, it scrolls too.
    const side = sideScrollerAt(x, y);
    if (side) nudgeSideways(side, x);
    frame = requestAnimationFrame(tick);
  }

  return {
    update(x, y) {
      point = { x, y };
      if (!frame) frame = requestAnimationFrame(tick);
    },
    stop() {
      point = null;
      cancelAnimationFrame(frame);
      frame = 0;
    },
  };
}

/** Keeps a keyboard move's insertion point (a row, or the indicator) in view. */
export function keepInView(element) {
  element?.scrollIntoView({ block: 'nearest' });
}
