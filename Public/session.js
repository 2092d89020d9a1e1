// The drag controller: one drag session of this page, whatever input drives it (the native
// mouse drag, the keyboard, a touch long-press, a menu). It talks the session protocol, looks
// decisions up in the server's proposal table and draws them; the input only says which rows
// travel, which target and location are current, and when to drop or give up.
//
// API (every input uses these and nothing else):
//
//   const drags = createDragController({ api, view, feedback });
//
//   const session = drags.begin({ rows, list, items?, kind?, token? })
//     Begins a session for `rows` (elements) of list id `list` (`'_board'` for lists dragged
//     by their headers: pass kind 'lists'). Posts `begin`; `session.ready` resolves to the
//     answer ({ table, version, announcement, … }) or null when it was refused (the reason is
//     said in the status line). The rows get `.is-dragging`; live updates are held until end.
//   drags.join(token) / drags.external({ token, types, files })
//     A drag from another window of this app, or from another app (`session.foreign` is
//     'joined' or 'external').
//
//   session.setTarget(target, location?)
//     The current drop target element (`[data-list]`, `[data-zone]`, `[data-lists]`) or null.
//     Posted asynchronously (at most one request in flight; a waiting one is replaced by a
//     newer one). `session.onTarget(answer, target, location)`, when set, hears each server answer.
//   session.decide(target, location, copy) → decision
//     Synchronously looks the decision up in the table ({ op, intent, reason, destination,
//     into }), remembers it and draws it (data-drop-* attributes, indicator, badge).
//   session.drop(target, location, extra?) → Promise<answer|null>
//     Posts the drop (the decision shown, the board version seen, `extra` fields such as
//     external data). The answer's message goes to the status line. A drag from elsewhere
//     dropped before its begin answered is decided by the table once it is here (refused: no post).
//   session.end() → Promise<outcome|null>
//     After a drop or a cancel: waits for the drop, releases live updates, applies the drop's
//     changes, posts `end` and catches up when another window took the drop. Dispatches
//     DRAG_ENDED (events.js) on the root with the server's outcome.
//   session.finishForeign()
//     A foreign drag is over in this page (dropped or left the window).
//   session.sayRefusal()
//     Keeps the reason of the refusal the drag ended on in the status line (a refused release
//     arrives as a dragleave first: the refusal is remembered in `session.refused`).
//
// `location` is `{ row, fraction, item }` (a row of the target and how far down it) or
// `{ row: null }` (over the target but no row), exactly what the server's engine resolves.

import { createRequestQueue } from './api.js';
import { DRAG_ENDED } from './events.js';
import { NO_DROP, entryFor, resolve } from './proposals.js';
import { WELL_STATUS, rowContainer } from './selectors.js';

export const SESSION_TYPE = 'application/x-dragboard-session';

export function newToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The wire form of a target element. */
export function wireTarget(target) {
  if (!target) return null;
  const list = target.dataset.list ?? target.dataset.lists;
  return list ? { list } : { zone: target.dataset.zone };
}

export function isAccepted(decision) {
  return decision?.op === 'copy' || decision?.op === 'move';
}

/** Creates the controller of `root`'s board; see the API above. */
export function createDragController({ root = document, api, view, feedback }) {
  let current = null;

  function open(fields, begin) {
    const queue = createRequestQueue();
    const session = {
      token: fields.token ?? newToken(), rows: fields.rows ?? [], kind: fields.kind ?? 'rows', foreign: fields.foreign ?? null,
      queue, table: null, failed: false, target: null, decision: NO_DROP, location: null, dropped: null, copy: false,
      version: view.version(), answer: null, onTarget: null, ended: false,
    };
    session.ready = queue.run(() => begin(session))
      .then((answer) => {
        session.answer = answer;
        session.table = answer.table;
        if (answer.version != null) session.version = answer.version;
        return answer;
      })
      .catch((error) => {
        session.failed = true;
        session.failedReason = error.message;   // shown while hovering: why nothing can be dropped
        view.say(error.message, 'error');
        return null;
      });

    session.setTarget = (target, location = null) => {
      session.target = target;
      const wire = wireTarget(target);
      queue.target(() => (session.failed ? null
        : api.target(session.token, { target: wire, location, copy: session.copy })
          .then((answer) => { session.onTarget?.(answer, target, location); return answer; })));
      if (!target) {
        feedback.clear();
        session.refused = session.decision.reason ? session.decision : null;
        session.decision = NO_DROP;
      }
    };

    const lookUp = (target, location, copy) => (session.failed ? { ...NO_DROP, reason: session.failedReason ?? null }
      : resolve(session.table, entryFor(session.table, target), location, copy));

    session.decide = (target, location, copy = false) => {
      session.copy = copy;
      session.location = location;
      const decision = lookUp(target, location, copy);
      session.decision = decision;
      feedback.draw(target, decision, target?.dataset.list ? rowContainer(target) : null);
      return decision;
    };

    session.drop = (target, location, extra = {}, before = null) => {
      feedback.clear();
      const body = {
        op: newToken(), version: view.version(), target: wireTarget(target), location,
        shown: session.decision.op, copy: session.copy, ...extra,
      };
      // A drag from elsewhere first seen at its last moves can drop before its begin answered:
      // nothing was decided then. The queue runs this after the begin; the table decides now.
      const late = session.foreign && !session.table && !session.failed;
      const post = async () => {
        if (late) {
          if (!(await session.ready)) return null;   // the begin was refused, and said why
          session.decision = lookUp(target, location, session.copy);
          body.shown = session.decision.op;
          if (!isAccepted(session.decision)) { session.sayRefusal(); return null; }
        }
        if (before) Object.assign(body, await before());
        return api.drop(session.token, body);
      };
      session.dropped = queue.run(post).then((answer) => answer && showDropped(answer, session.refusedFiles), dropFailed(target));
      return session.dropped;
    };

    session.end = () => {
      if (session.ended) return Promise.resolve(null);
      session.ended = true;
      if (current === session) current = null;
      feedback.clear();
      session.rows.forEach((element) => element.classList.remove('is-dragging'));
      const dropped = session.dropped ?? Promise.resolve(null);
      return queue.run(() => dropped)
        .then((answer) => {
          view.holdUpdates(false);
          if (answer) view.apply(answer);
          return api.end(session.token);
        })
        .then((outcome) => {
          // The server says how the drag ended (never `dropEffect`): a drop taken by another
          // window of this app shows up here, and this page catches up.
          if (outcome.version > view.version()) view.resync(outcome.version);
          if (!session.dropped && outcome.operation === 'cancel') session.sayRefusal();
          root.dispatchEvent(new CustomEvent(DRAG_ENDED, { detail: outcome }));
          return outcome;
        })
        .catch(() => { view.holdUpdates(false); return null; });
    };

    session.sayRefusal = () => {
      const refusal = session.decision.reason ? session.decision : session.refused;
      view.say(refusal?.reason ?? '', refusal?.reason ? 'forbidden' : 'info');
    };

    session.finishForeign = () => {
      if (current === session) current = null;
      feedback.clear();
      if (session.foreign === 'external') queue.run(() => api.end(session.token)).catch(() => {});
    };

    current = session;
    return session;
  }

  /** The drop's answer, and which dropped files were left out and why. */
  function showDropped(answer, refusedFiles = []) {
    view.say([answer.message, ...refusedFiles].join(' '), answer.changes.length ? 'success' : 'info', answer);
    return answer;
  }

  function dropFailed(target) {
    return (error) => {
      // Unacknowledged is not done: nothing moves on the page until the server answers.
      view.say(error.offline ? 'Not dropped: the server can’t be reached. The board catches up when it is back.' : error.message, 'error');
      const status = target?.querySelector(WELL_STATUS);
      if (status) status.textContent = error.message;
      if (error.status === 409) view.resync();
      return null;
    };
  }

  function begin({ rows, list, items, kind = 'rows', token }) {
    rows.forEach((element) => element.classList.add('is-dragging'));
    view.holdUpdates(true);
    const ids = items ?? rows.map((element) => (kind === 'lists' ? element.dataset.list : element.dataset.item));
    return open({ rows, kind, token }, (session) => api.begin({ token: session.token, list, items: ids }));
  }

  return {
    begin,
    join: (token) => open({ token, foreign: 'joined' }, () => api.join(token)),
    external: ({ token, types, files }) => open({ token, foreign: 'external' }, (session) => api.external({ token: session.token, types, files })),
    /** The live session of this page, or null. */
    current: () => current,
  };
}
