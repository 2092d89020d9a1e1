// Open containers stay open: a container row swapped in after a drop, a live update or a
// resync shows its contents again when the page had it open (the server renders it closed).

import { BOARD_CHANGED } from './events.js';
import { LIST, listSelector } from './selectors.js';

/** Tracks which containers are open on `root`; returns the cleanup. */
export function initContainers(root) {
  const open = new Set();

  /** The container id of a `details` whose content is a container's list. */
  function idOf(details) {
    return details.querySelector(`:scope > ${LIST}`)?.dataset.list ?? null;
  }

  function onToggle(event) {
    if (!(event.target instanceof HTMLDetailsElement)) return;
    const id = idOf(event.target);
    if (!id) return;
    if (event.target.open) open.add(id); else open.delete(id);
  }

  function reopen() {
    for (const id of open) {
      const details = root.querySelector(listSelector(id))?.parentElement;
      if (details instanceof HTMLDetailsElement) details.open = true;
    }
  }

  // `toggle` and BOARD_CHANGED do not bubble: listen while they travel down (capture).
  root.addEventListener('toggle', onToggle, true);
  root.addEventListener(BOARD_CHANGED, reopen, true);
  return () => {
    root.removeEventListener('toggle', onToggle, true);
    root.removeEventListener(BOARD_CHANGED, reopen, true);
  };
}

/** The closed `details` of a container row whose contents are a list, or null. */
export function closedContainerOf(row) {
  if (!(row instanceof Element) || !row.dataset.item) return null;
  const list = row.querySelector(listSelector(row.dataset.item));
  const details = list?.parentElement;
  return details instanceof HTMLDetailsElement && !details.open ? details : null;
}

/** Opens the container whose contents are `target` (a keyboard move onto a closed box's list). */
export function revealContainer(target) {
  const details = target?.parentElement;
  if (target?.dataset.list && details instanceof HTMLDetailsElement && !details.open) details.open = true;
}
