// Looks decisions up in the proposal table the server sent at drag start, so `dragover` is
// answered synchronously.

export const NO_DROP = Object.freeze({ op: 'cancel', intent: 'unspecified', reason: null, destination: null, into: false });

/** The table entry of a target element. */
export function entryFor(table, element) {
  if (!table || !element) return null;
  const list = element.dataset.list ?? element.dataset.lists;
  const zone = element.dataset.zone;
  return table.targets.find((entry) => (list != null && entry.target.list === list) || (zone != null && entry.target.zone === zone)) ?? null;
}

export function proposalAt(entry, copy, row) {
  const variant = copy && entry.copy ? entry.copy : entry;
  if (row == null) return variant.noRow;
  return variant.runs.find((run) => row >= run.start && row < run.start + run.count)?.proposal ?? NO_DROP;
}

/**
 * Mirrors the engine's resolution (SessionEngine.resolveRow): the hovered row's own answer
 * decides insert-into and automatic (by the documented zones); otherwise the gap nearest the
 * pointer is the destination.
 */
export function resolve(table, entry, location, copy) {
  if (!entry) return NO_DROP;
  // A target that does not handle the session still says why (the engine's rule or the delegate's).
  if (!entry.handled) return { ...NO_DROP, reason: entry.noRow?.reason ?? null };
  const done = (proposal, destination, into = false) => ({ ...proposal, destination, into });
  if (location.row == null) return done({ ...proposalAt(entry, copy, null), intent: 'unspecified' }, null);
  const { row, fraction } = location;
  const own = proposalAt(entry, copy, row);
  if (own.intent === 'insert-into') return done(own, row, true);
  if (own.intent === 'automatic') {
    if (fraction < table.zones.top) return done({ ...own, intent: 'insert-at' }, row);
    if (fraction <= table.zones.bottom) return done({ ...own, intent: 'insert-into' }, row, true);
  } else if (fraction < 0.5) {
    return done(own, row);
  }
  const after = proposalAt(entry, copy, row + 1);
  const intent = after.intent === 'automatic' || after.intent === 'insert-into' ? 'insert-at' : after.intent;
  return done({ ...after, intent }, row + 1);
}
