// Touch and pen: a long-press on a row starts a drag through pointer events, because the native
// HTML5 drag does not start on touch. The drag goes through the same drag controller, proposal
// table and feedback as the mouse; a copy of the row follows the finger.
//
//   press a row ~400 ms without moving   the drag begins (`html[data-dragging="touch"]`)
//   move                                 hover feedback, spring-loading, auto-scroll; the page does not scroll
//   lift over a target that accepts      drop; anywhere else, or a cancelled touch, cancels
//   move before the press fires          scrolls as usual; a short tap selects (selection.js)

import { createAutoScroll } from './autoscroll.js';
import { locateInList } from './gaps.js';
import { LIST, ROW, ROW_DROP_TARGET, listOf } from './selectors.js';
import { draggedRows } from './selection.js';
import { isAccepted } from './session.js';
import { createSpringLoader } from './springload.js';

/** How long a press must hold still before it picks the row up, and how far it may wander. */
export const LONG_PRESS = 400;
const SLOP = 10;

/** Starts touch and pen dragging on `root`; returns the cleanup. */
export function initTouch(root, drags) {
  const spring = createSpringLoader();
  const autoScroll = createAutoScroll();
  /** A press that may become a drag: pointer, row, where it began, its timer. */
  let press = null;
  /** The touch drag in progress: its session, pointer, ghost and last point. */
  let drag = null;
  /** A click after a drag (before the next press) is the end of that drag, not a tap. */
  let swallowClick = false;

  function targetAt(element) {
    return element instanceof Element ? element.closest(ROW_DROP_TARGET) : null;
  }

  /** Where the point is over `target`: a row of it and how far down, or no row (as dnd.js). */
  function locate(target, element, y) {
    return target.dataset.list ? locateInList(target, element, y) : { row: null };
  }

  function cancelPress() {
    if (press) clearTimeout(press.timer);
    press = null;
  }

  function onPointerDown(event) {
    swallowClick = false;
    if (event.pointerType === 'mouse' || !event.isPrimary || press || drag) return;
    const row = event.target instanceof Element ? event.target.closest(ROW) : null;
    if (!row || event.target.closest('button, a, input, select, textarea, summary')) return;
    const { pointerId, clientX: x, clientY: y } = event;
    press = { pointerId, row, x, y, timer: setTimeout(() => begin(row, x, y, pointerId), LONG_PRESS) };
  }

  /** The long-press fired: the row (with its list's selection) is picked up. */
  function begin(row, x, y, pointerId) {
    press = null;
    const list = listOf(row);
    const rows = draggedRows(row);
    const session = drags.begin({ rows, list: list.dataset.list });
    const ghost = row.cloneNode(true);
    ghost.removeAttribute('data-item');
    ghost.querySelectorAll(`${ROW}, ${LIST}`).forEach((node) => { delete node.dataset.item; delete node.dataset.list; });
    ghost.className = `${row.className} touch-ghost`;
    ghost.classList.remove('is-dragging', 'is-selected');
    ghost.setAttribute('aria-hidden', 'true');
    if (rows.length > 1) ghost.dataset.count = String(rows.length);
    const box = row.getBoundingClientRect();
    ghost.style.width = `${box.width}px`;
    document.body.append(ghost);
    drag = { session, pointerId, ghost, dx: x - box.left, dy: y - box.top, x, y };
    document.documentElement.dataset.dragging = 'touch';
    navigator.vibrate?.(10);
    // A move made before the table arrived is decided again once it is here.
    session.ready.then(() => { if (drag?.session === session) update(drag.x, drag.y); });
    update(x, y);
  }

  /** The finger is at (x, y): the ghost follows; target, decision and feedback as the mouse's. */
  function update(x, y) {
    drag.x = x;
    drag.y = y;
    drag.ghost.style.transform = `translate(${x - drag.dx}px, ${y - drag.dy}px)`;
    autoScroll.update(x, y);
    const element = document.elementFromPoint(x, y);
    spring.hover(element);
    const target = targetAt(element);
    const { session } = drag;
    const location = target ? locate(target, element, y) : null;
    if (target !== session.target) session.setTarget(target, location);
    if (target) session.decide(target, location, false);
  }

  function onPointerMove(event) {
    if (press && event.pointerId === press.pointerId) {
      // Moving before the press fires is a scroll (or a swipe): no drag.
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) > SLOP) cancelPress();
      return;
    }
    if (drag && event.pointerId === drag.pointerId) update(event.clientX, event.clientY);
  }

  /** Ends the touch drag: drops where the decision accepts, otherwise cancels. */
  function finish(dropping) {
    const { session, ghost } = drag;
    drag = null;
    ghost.remove();
    delete document.documentElement.dataset.dragging;
    autoScroll.stop();
    spring.cancel();
    swallowClick = true;
    const target = session.target;
    if (dropping && target && !session.failed && isAccepted(session.decision)) {
      session.drop(target, session.location);
    } else if (target) {
      session.setTarget(null);
    }
    session.end();
  }

  function onPointerUp(event) {
    if (press && event.pointerId === press.pointerId) { cancelPress(); return; }   // a tap: the click selects
    if (drag && event.pointerId === drag.pointerId) finish(true);
  }

  function onPointerCancel(event) {
    if (press && event.pointerId === press.pointerId) cancelPress();
    if (drag && event.pointerId === drag.pointerId) finish(false);
  }

  /** While a touch drag is live the page must not scroll under the finger. */
  function onTouchMove(event) {
    if (drag) event.preventDefault();
  }

  /** A long-press would open the context menu (or select text) instead of dragging. */
  function onContextMenu(event) {
    if (press || drag) event.preventDefault();
  }

  function onClick(event) {
    if (!swallowClick) return;
    swallowClick = false;
    event.stopPropagation();
    event.preventDefault();
  }

  const listeners = [
    ['pointerdown', onPointerDown], ['pointermove', onPointerMove], ['pointerup', onPointerUp],
    ['pointercancel', onPointerCancel], ['contextmenu', onContextMenu],
  ];
  listeners.forEach(([type, listener]) => root.addEventListener(type, listener));
  root.addEventListener('touchmove', onTouchMove, { passive: false });
  root.addEventListener('click', onClick, true);
  return () => {
    listeners.forEach(([type, listener]) => root.removeEventListener(type, listener));
    root.removeEventListener('touchmove', onTouchMove, { passive: false });
    root.removeEventListener('click', onClick, true);
    cancelPress();
    if (drag) finish(false);
  };
}
