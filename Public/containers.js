// Open containers stay open: a container row swapped in after a drop, a live update or a
// resync shows its contents again when the page had it open (the server renders it closed).

/** Tracks which containers are open on `root`; returns the cleanup. */
export function initContainers(root) {
  const open = new Set();

  /** The container id of a `details` whose content is a container's list. */
  function idOf(details) {
    return details.querySelector(':scope > [data-list]')?.dataset.list ?? null;
  }

  function onToggle(event) {
    if (!(event.target instanceof HTMLDetailsElement)) return;
    const id = idOf(event.target);
    if (!id) return;
    if (event.target.open) open.add(id); else open.delete(id);
  }

  function reopen() {
    for (const id of open) {
      const details = root.querySelector(`[data-list="${CSS.escape(id)}"]`)?.parentElement;
      if (details instanceof HTMLDetailsElement) details.open = true;
    }
  }

  // `toggle` and `board:changed` do not bubble: listen while they travel down (capture).
  root.addEventListener('toggle', onToggle, true);
  root.addEventListener('board:changed', reopen, true);
  return () => {
    root.removeEventListener('toggle', onToggle, true);
    root.removeEventListener('board:changed', reopen, true);
  };
}

/** The closed `details` of a container row whose contents are a list, or null. */
export function closedContainerOf(row) {
  if (!(row instanceof Element) || !row.dataset.item) return null;
  const list = row.querySelector(`[data-list="${CSS.escape(row.dataset.item)}"]`);
  const details = list?.parentElement;
  return details instanceof HTMLDetailsElement && !details.open ? details : null;
}

/** Opens the container whose contents are `target` (a keyboard move onto a closed box's list). */
export function revealContainer(target) {
  const details = target?.parentElement;
  if (target?.dataset.list && details instanceof HTMLDetailsElement && !details.open) details.open = true;
}
