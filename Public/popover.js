// Places a menu or popover next to the control that opened it, always inside the viewport (a
// phone is 390 px wide: a menu under a button at the right edge would open off-screen).

/** The gap kept between a popover and the viewport's edges, and between it and its anchor. */
const MARGIN = 8;
const GAP = 4;

/**
 * Places `element` under `anchor` (a DOMRect), its right edge on the anchor's right edge with
 * `align: 'end'` or its left edge on the anchor's left with 'start'; moved left or right to stay
 * in the viewport, and above the anchor when there is no room below. With `fixed` (the default)
 * the element is `position: fixed` (no scrolling box clips it); otherwise it is placed in page
 * coordinates (an element of <body> with `position: absolute`).
 */
export function placeInViewport(element, anchor, { align = 'end', fixed = true } = {}) {
  if (!element) return;
  if (fixed) element.style.position = 'fixed';
  element.style.maxWidth = `${window.innerWidth - 2 * MARGIN}px`;
  const { width, height } = element.getBoundingClientRect();
  const wanted = align === 'end' ? anchor.right - width : anchor.left;
  const left = Math.max(MARGIN, Math.min(wanted, window.innerWidth - width - MARGIN));
  let top = anchor.bottom + GAP;
  if (top + height > window.innerHeight - MARGIN) {
    top = anchor.top - GAP - height >= MARGIN ? anchor.top - GAP - height : Math.max(MARGIN, window.innerHeight - height - MARGIN);
  }
  element.style.left = `${left + (fixed ? 0 : window.scrollX)}px`;
  element.style.top = `${top + (fixed ? 0 : window.scrollY)}px`;
}
