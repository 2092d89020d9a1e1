// Spring-loading (UIKit's UISpringLoadedInteraction): during any drag, holding over a closed
// container for a moment opens it, so its contents become a target. The row shows a cue
// (`data-spring-loading`) while the timer runs; moving off the row cancels it.

import { closedContainerOf } from './containers.js';
import { SPRING_LOADED } from './events.js';
import { ROW } from './selectors.js';

/** How long a drag must hold over a closed container before it opens. */
export const SPRING_LOAD_DELAY = 700;

/** One spring loader per page; every input (mouse, keyboard, touch) reports the row it is over. */
export function createSpringLoader(delay = SPRING_LOAD_DELAY) {
  let row = null;
  let timer = 0;

  function cancel() {
    clearTimeout(timer);
    timer = 0;
    row?.removeAttribute('data-spring-loading');
    row = null;
  }

  /** The row a drag is over now (any element inside it will do), or null. */
  function hover(node) {
    const candidate = node instanceof Element ? node.closest(ROW) : null;
    if (candidate === row) return;
    cancel();
    const details = closedContainerOf(candidate);
    if (!details || candidate.classList.contains('is-dragging')) return;
    row = candidate;
    row.setAttribute('data-spring-loading', '');
    timer = setTimeout(() => {
      const opened = row;
      cancel();
      details.open = true;
      opened.dispatchEvent(new CustomEvent(SPRING_LOADED, { bubbles: true }));
    }, delay);
  }

  return { hover, cancel };
}
