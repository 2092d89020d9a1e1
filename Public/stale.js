// Drags whose end the browser never reports. A drag from another app can end without a
// dragleave (cancelled in the other app, or as DevTools' `dragCancel` does): the page would keep
// its outline and its old session, and the next drag would be answered from a stale table.

/** What a drag from elsewhere carries, as visible before the drop: string types and file types. */
export function signatureOf(transfer) {
  const types = [...(transfer?.types ?? [])].join('\n');
  const files = [...(transfer?.items ?? [])].filter((item) => item.kind === 'file').map((item) => item.type).join('\n');
  return `${types}|${files}`;
}

/**
 * Calls `onOver` when the pointer moves or a key goes down in the page: the browser sends no
 * mouse or key events while a drag is live, so any drag this page still holds has ended.
 * Returns the cleanup.
 */
export function watchForEndedDrags(onOver) {
  const events = ['pointermove', 'pointerdown', 'keydown'];
  events.forEach((type) => window.addEventListener(type, onOver, true));
  return () => events.forEach((type) => window.removeEventListener(type, onOver, true));
}
