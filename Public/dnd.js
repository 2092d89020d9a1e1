// Dragboard's browser half: reports the browser's drag and drop to the server and draws
// what the server decided. The server's session engine decides every proposal; this file
// only looks answers up in the proposal table it received at drag start, so `dragover`
// is answered synchronously and never waits for the network.

import { initForms } from './forms.js';

const SESSION_TYPE = 'application/x-dragboard-session';
const NO_DROP = Object.freeze({ op: 'cancel', intent: 'unspecified', reason: null, destination: null, into: false });

/** Starts everything on `root`; returns the cleanup. */
export function init(root = document) {
  const board = root.querySelector('[data-board]');
  if (!board) return () => {};
  const boardID = board.dataset.board || 'demo';
  const api = createApi(root, boardID);
  const view = createView(root, board, api);
  const cleanups = [
    initSelection(root),
    initDragAndDrop(root, api, view),
    initLiveUpdates(view, boardID),
    initForms(root, view),
  ];
  return () => cleanups.forEach((cleanup) => cleanup());
}

// ---------------------------------------------------------------- server

/** The protocol client of one board: every session it begins names the page's board. */
function createApi(root, boardID) {
  const csrf = root.querySelector('meta[name="csrf-token"]')?.content ?? '';
  async function request(method, path, body) {
    const response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { 'X-CSRF-Token': csrf } : { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw Object.assign(new Error(json?.error?.message ?? `HTTP ${response.status}`), { status: response.status });
    return json;
  }
  return {
    begin: (body) => request('POST', '/api/sessions', { ...body, board: boardID }),
    target: (token, body) => request('POST', `/api/sessions/${token}/target`, body),
    drop: (token, body) => request('POST', `/api/sessions/${token}/drop`, body),
    end: (token) => request('POST', `/api/sessions/${token}/end`, {}),
    external: (body) => request('POST', '/api/sessions/external', { ...body, board: boardID }),
    join: (token) => request('POST', `/api/sessions/${token}/join`, { board: boardID }),
    board: () => request('GET', `/boards/${encodeURIComponent(boardID)}/api/board`),
    upload: (token, file, onProgress) => upload(`/api/sessions/${token}/files`, file, csrf, onProgress),
  };
}

/** Streams one dropped file to the server with XHR, which reports upload progress. */
function upload(path, file, csrf, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('X-CSRF-Token', csrf);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('X-File-Name', encodeURIComponent(file.name).slice(0, 200));
    xhr.responseType = 'json';
    xhr.upload.addEventListener('progress', (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); });
    xhr.addEventListener('load', () => {
      if (xhr.status === 201) resolve(xhr.response);
      else reject(Object.assign(new Error(xhr.response?.error?.message ?? `HTTP ${xhr.status}`), { status: xhr.status }));
    });
    xhr.addEventListener('error', () => reject(new Error('the upload failed')));
    xhr.addEventListener('abort', () => reject(new Error('the upload was aborted')));
    xhr.send(file);
  });
}

/**
 * Session requests run one at a time, in order; a target change that is still waiting is
 * replaced by the newer one, so there is at most one request in flight and no backlog.
 */
function createRequestQueue() {
  let chain = Promise.resolve();
  let waitingTarget = null;
  return {
    run(task) {
      const result = chain.then(task);
      chain = result.catch(() => {});
      return result;
    },
    target(task) {
      if (waitingTarget) { waitingTarget.task = task; return; }
      const slot = { task };
      waitingTarget = slot;
      chain = chain.then(() => { waitingTarget = null; return slot.task(); }).catch(() => {});
    },
  };
}

// ---------------------------------------------------------------- view

function createView(root, board, api) {
  const status = root.querySelector('#status');
  let deferred = [];
  let dragLive = false;

  const version = () => Number(board.dataset.version);

  function say(message, kind = 'info') {
    if (!status) return;
    status.textContent = message ?? '';
    status.dataset.kind = kind;
  }

  function rowsOf(list) {
    return list.querySelector(':scope > .rows');
  }

  function findRow(id) {
    return board.querySelector(`[data-list] > .rows > [data-item="${CSS.escape(id)}"]`);
  }

  function fragment(html) {
    const template = document.createElement('template');
    template.innerHTML = html;
    return template.content.firstElementChild;
  }

  function applyChange(change) {
    if (change.kind === 'resync') return false;   // a list changed: fetch the board's lists
    if (change.kind === 'gone') { window.location.assign('/'); return true; }
    if (change.kind === 'title') {
      const title = board.querySelector('.board-title');
      if (title && !title.querySelector('input')) title.textContent = change.html ?? '';
      document.title = `${change.html ?? ''} · Dragboard`;
      return true;
    }
    if (change.kind === 'zone') {
      const zone = board.querySelector(`[data-zone="${CSS.escape(change.item)}"]`);
      const element = fragment(change.html);
      if (!zone || !element) return false;
      zone.replaceWith(element);
      return true;
    }
    if (change.kind === 'remove') {
      findRow(change.item)?.remove();
      return true;
    }
    const list = board.querySelector(`[data-list="${CSS.escape(change.list)}"]`);
    const element = fragment(change.html);
    if (!list || !element) return false;
    if (change.kind === 'replace') {
      const old = findRow(change.item);
      if (!old) return false;
      old.replaceWith(element);
      return true;
    }
    findRow(change.item)?.remove();
    if (change.after == null) {
      rowsOf(list).prepend(element);
      return true;
    }
    const after = findRow(change.after);
    if (!after) return false;
    after.after(element);
    return true;
  }

  /** Applies a server answer (a drop or a live event) exactly once, in version order. */
  function apply(update) {
    if (dragLive) { deferred.push(update); return; }
    if (!update || update.version <= version()) return;
    if (update.version !== version() + 1) { resync(); return; }
    for (const change of update.changes ?? []) {
      if (!applyChange(change)) { resync(); return; }
    }
    board.dataset.version = String(update.version);
    board.dispatchEvent(new CustomEvent('board:changed', { detail: update }));
  }

  let resyncing = null;
  let again = false;   // asked again while a fetch was in flight: its answer may be too old
  function resync() {
    if (dragLive) { deferred.push({ resync: true }); return resyncing; }
    if (resyncing) { again = true; return resyncing; }
    resyncing = api.board().then((state) => {
      // Lists are replaced, added after the list before them, and removed, in the board's order.
      const kept = new Set(state.lists.map(({ id }) => id));
      for (const list of board.querySelectorAll('.list[data-list]')) {
        if (!kept.has(list.dataset.list)) list.remove();
      }
      const shown = [...board.querySelectorAll('.list[data-list]')].map((list) => list.dataset.list);
      const inOrder = shown.join('\n') === state.lists.map(({ id }) => id).filter((id) => shown.includes(id)).join('\n');
      let previous = null;
      for (const { id, html } of state.lists) {
        const list = board.querySelector(`.list[data-list="${CSS.escape(id)}"]`);
        const element = fragment(html);
        if (!element) continue;
        if (list && (inOrder || !previous)) list.replaceWith(element);
        else {
          list?.remove();
          if (previous) previous.after(element);
          else (board.querySelector('.group:not([aria-label="Drop zones"])') ?? board).prepend(element);
        }
        previous = element;
      }
      board.dataset.version = String(state.version);
      board.dispatchEvent(new CustomEvent('board:changed', { detail: state }));
    }).finally(() => {
      resyncing = null;
      if (again) { again = false; resync(); }
    });
    return resyncing;
  }

  /** While a drag is live the dragged row must stay in the DOM: hold updates until it ends. */
  function holdUpdates(live) {
    dragLive = live;
    if (live) return;
    const pending = deferred;
    deferred = [];
    for (const update of pending) {
      if (update.resync) resync(); else apply(update);
    }
  }

  return { board, say, apply, resync, holdUpdates, version, rowsOf };
}

// ---------------------------------------------------------------- selection

function initSelection(root) {
  let anchor = null;
  function rowsOfList(list) { return [...list.querySelectorAll(':scope > .rows > [data-item]')]; }
  function select(row, on) { row.classList.toggle('is-selected', on); row.setAttribute('aria-selected', String(on)); }
  function clearOthers(list) {
    for (const row of root.querySelectorAll('[data-item].is-selected')) {
      if (row.closest('[data-list]') !== list) select(row, false);
    }
  }
  function onClick(event) {
    if (event.target.closest('summary, a, button')) return;
    const row = event.target.closest('[data-list] > .rows > [data-item]');
    if (!row) return;
    const list = row.closest('[data-list]');
    const rows = rowsOfList(list);
    clearOthers(list);
    if (event.shiftKey && anchor && rows.includes(anchor)) {
      const [from, to] = [rows.indexOf(anchor), rows.indexOf(row)].sort((a, b) => a - b);
      rows.forEach((candidate, index) => select(candidate, index >= from && index <= to));
    } else if (event.ctrlKey || event.metaKey) {
      select(row, !row.classList.contains('is-selected'));
      anchor = row;
    } else {
      rows.forEach((candidate) => select(candidate, candidate === row));
      anchor = row;
    }
  }
  root.addEventListener('click', onClick);
  return () => root.removeEventListener('click', onClick);
}

/** The rows a drag of `row` carries: the selection of its list when it includes the row. */
function draggedRows(row) {
  const list = row.closest('[data-list]');
  if (!row.classList.contains('is-selected')) {
    for (const selected of document.querySelectorAll('[data-item].is-selected')) {
      selected.classList.remove('is-selected');
      selected.setAttribute('aria-selected', 'false');
    }
    return [row];
  }
  return [...list.querySelectorAll(':scope > .rows > [data-item].is-selected')];
}

// ---------------------------------------------------------------- proposals

/** The table entry of a target element. */
function entryFor(table, element) {
  if (!table || !element) return null;
  const list = element.dataset.list ?? element.dataset.lists;
  const zone = element.dataset.zone;
  return table.targets.find((entry) => (list != null && entry.target.list === list) || (zone != null && entry.target.zone === zone)) ?? null;
}

function proposalAt(entry, copy, row) {
  const variant = copy && entry.copy ? entry.copy : entry;
  if (row == null) return variant.noRow;
  return variant.runs.find((run) => row >= run.start && row < run.start + run.count)?.proposal ?? NO_DROP;
}

/**
 * Mirrors the engine's resolution (SessionEngine.resolveRow): the hovered row's own answer
 * decides insert-into and automatic (by the documented zones); otherwise the gap nearest the
 * pointer is the destination.
 */
function resolve(table, entry, location, copy) {
  if (!entry || !entry.handled) return NO_DROP;
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

// ---------------------------------------------------------------- feedback

function createFeedback() {
  const indicator = document.createElement('div');
  indicator.className = 'drop-indicator';
  indicator.hidden = true;
  const badge = document.createElement('div');
  badge.className = 'drop-badge';
  badge.hidden = true;
  document.body.append(indicator, badge);
  let drawnTarget = null;
  let drawnInto = null;
  let drawnKey = '';

  function clear() {
    if (drawnTarget) {
      delete drawnTarget.dataset.dropOperation;
      delete drawnTarget.dataset.dropIntent;
    }
    drawnInto?.removeAttribute('data-drop-into');
    drawnInto?.removeAttribute('data-drop-before');
    drawnInto?.removeAttribute('data-drop-after');
    indicator.hidden = true;
    badge.hidden = true;
    drawnTarget = null;
    drawnInto = null;
    drawnKey = '';
  }

  function draw(target, decision, rows) {
    const key = `${decision.op}|${decision.intent}|${decision.destination}|${decision.into}|${decision.reason}`;
    if (target === drawnTarget && key === drawnKey) return;
    clear();
    if (!target) return;
    drawnTarget = target;
    drawnKey = key;
    target.dataset.dropOperation = decision.op;
    target.dataset.dropIntent = decision.intent === 'automatic' ? 'insert-at' : decision.intent;
    const box = target.getBoundingClientRect();
    if (decision.op === 'forbidden' || decision.op === 'copy') {
      badge.hidden = false;
      badge.className = `drop-badge drop-badge--${decision.op}`;
      badge.textContent = decision.op === 'copy' ? '+' : `⊘ ${decision.reason ?? 'Not allowed here'}`;
      badge.style.left = `${box.left + window.scrollX + 8}px`;
      badge.style.top = `${box.top + window.scrollY - 12}px`;
    }
    if (decision.op !== 'copy' && decision.op !== 'move') return;
    if (target.dataset.lists) {
      const lists = [...target.querySelectorAll('.list[data-list]')];
      const before = decision.destination == null ? null : lists[decision.destination];
      drawnInto = before ?? lists[lists.length - 1] ?? null;
      drawnInto?.setAttribute(before ? 'data-drop-before' : 'data-drop-after', '');
      return;
    }
    if (decision.into && rows) {
      drawnInto = rows.children[decision.destination] ?? null;
      drawnInto?.setAttribute('data-drop-into', '');
    } else if (decision.intent === 'insert-at' && rows) {
      const before = rows.children[decision.destination];
      const last = rows.lastElementChild;
      const rowsBox = rows.getBoundingClientRect();
      const y = before ? before.getBoundingClientRect().top : last ? last.getBoundingClientRect().bottom : rowsBox.top;
      indicator.hidden = false;
      indicator.style.left = `${rowsBox.left + window.scrollX}px`;
      indicator.style.width = `${rowsBox.width}px`;
      indicator.style.top = `${y + window.scrollY - 2}px`;
    }
  }

  return { draw, clear, remove: () => { clear(); indicator.remove(); badge.remove(); } };
}

// ---------------------------------------------------------------- drag and drop

function initDragAndDrop(root, api, view) {
  const feedback = createFeedback();
  /** The one live drag of this page, or null. */
  let drag = null;
  /** Balances dragenter/dragleave to notice the pointer leaving the window. */
  let depth = 0;

  function newToken() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  }

  function targetOf(node) {
    if (!(node instanceof Element)) return null;
    // Lists dragged by their headers have one target: the board, as the collection of lists.
    if (drag?.kind === 'lists') return node.closest('[data-lists]');
    return node.closest('[data-list], [data-zone]');
  }

  /** Where the pointer is over `target`: a row and how far down it, or no row. */
  function locate(target, event) {
    if (target.dataset.lists) return locateList(target, event);
    if (!target.dataset.list) return { row: null };
    const rows = view.rowsOf(target);
    const row = event.target instanceof Element ? event.target.closest('[data-item]') : null;
    if (!rows || !row || row.parentElement !== rows) return { row: null };
    const box = row.getBoundingClientRect();
    const fraction = box.height > 0 ? Math.min(1, Math.max(0, (event.clientY - box.top) / box.height)) : 0.5;
    return { row: Array.prototype.indexOf.call(rows.children, row), fraction, item: row.dataset.item };
  }

  /** Over the board: which list is under the pointer, and how far across it (lists stand in columns). */
  function locateList(target, event) {
    const list = event.target instanceof Element ? event.target.closest('.list[data-list]') : null;
    if (!list) return { row: null };
    const box = list.getBoundingClientRect();
    const fraction = box.width > 0 ? Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)) : 0.5;
    return { row: [...target.querySelectorAll('.list[data-list]')].indexOf(list), fraction, item: list.dataset.list };
  }

  function wireTarget(target) {
    if (!target) return null;
    const list = target.dataset.list ?? target.dataset.lists;
    return list ? { list } : { zone: target.dataset.zone };
  }

  /** `dragstart` on a list's header: the list travels; rows of other lists stay where they are. */
  function startListDrag(event, list) {
    const token = newToken();
    const transfer = event.dataTransfer;
    transfer.setData('text/plain', list.querySelector('.list-title')?.textContent ?? '');
    transfer.setData(`${SESSION_TYPE}-${token}`, token);
    transfer.effectAllowed = 'move';
    list.classList.add('is-dragging');
    view.holdUpdates(true);
    const queue = createRequestQueue();
    drag = {
      token, rows: [list], queue, table: null, failed: false, target: null, decision: NO_DROP, location: null, dropped: null, copy: false,
      version: view.version(), kind: 'lists',
    };
    const current = drag;
    queue.run(() => api.begin({ token, list: '_board', items: [list.dataset.list] }))
      .then((answer) => { current.table = answer.table; current.version = answer.version; })
      .catch((error) => { current.failed = true; view.say(error.message, 'error'); });
  }

  function onDragStart(event) {
    const row = event.target instanceof Element ? event.target.closest('[data-list] > .rows > [data-item]') : null;
    const header = !row && event.target instanceof Element ? event.target.closest('.list[data-list] > .list-header') : null;
    if (header) { startListDrag(event, header.parentElement); return; }
    if (!row) return;
    const list = row.closest('[data-list]');
    const rows = draggedRows(row);
    const token = newToken();
    const transfer = event.dataTransfer;
    writeRepresentations(transfer, rows);
    transfer.setData(`${SESSION_TYPE}-${token}`, token);
    transfer.effectAllowed = 'copyMove';
    if (rows.length > 1) setCountImage(transfer, rows.length);
    rows.forEach((element) => element.classList.add('is-dragging'));
    view.holdUpdates(true);
    const queue = createRequestQueue();
    drag = {
      token, rows, queue, table: null, failed: false, target: null, decision: NO_DROP, location: null, dropped: null, copy: false,
      version: view.version(),
    };
    const current = drag;
    queue.run(() => api.begin({ token, list: list.dataset.list, items: rows.map((element) => element.dataset.item) }))
      .then((answer) => { current.table = answer.table; current.version = answer.version; })
      .catch((error) => { current.failed = true; view.say(error.message, 'error'); });
  }

  /**
   * A drag that did not start in this page: another window of this app (its session type is
   * visible in `types`: join that session, moves allowed) or another app (a new external
   * session from the visible types: copies only). Data is read only at the drop.
   */
  function startForeign(event) {
    const types = [...(event.dataTransfer?.types ?? [])];
    if (types.length === 0) return;
    const sessionType = types.find((type) => type.startsWith(`${SESSION_TYPE}-`));
    const items = [...(event.dataTransfer.items ?? [])];
    const token = sessionType ? sessionType.slice(SESSION_TYPE.length + 1) : newToken();
    const queue = createRequestQueue();
    drag = {
      token, rows: [], queue, table: null, failed: false, target: null, decision: NO_DROP, location: null, dropped: null,
      copy: false, foreign: sessionType ? 'joined' : 'external',
    };
    const current = drag;
    const begin = sessionType
      ? () => api.join(token)
      : () => api.external({
        token,
        types: types.filter((type) => type !== 'Files' && !type.startsWith(SESSION_TYPE)),
        files: items.filter((item) => item.kind === 'file').map((item) => item.type),
      });
    queue.run(begin)
      .then((answer) => { current.table = answer.table; })
      .catch((error) => { current.failed = true; view.say(error.message, 'error'); });
  }

  /** A foreign drag is over once it is dropped or leaves the window; only ours posts its end. */
  function finishForeign(current) {
    if (drag === current) drag = null;
    feedback.clear();
    if (current.foreign === 'external') current.queue.run(() => api.end(current.token)).catch(() => {});
  }

  function onDragEnter(event) {
    depth += 1;
    if (!drag) startForeign(event);
    if (!drag) return;
    // The same decision as dragover: a target becomes the drop target only if dragenter is
    // cancelled too (HTML's rule, which some browsers enforce).
    onDragOver(event);
  }

  function onDragLeave() {
    depth = Math.max(0, depth - 1);
    if (depth !== 0 || !drag) return;
    switchTarget(null, null);
    if (drag.foreign) finishForeign(drag);
  }

  function switchTarget(target, event) {
    if (target === drag.target) return;
    drag.target = target;
    const location = target && event ? locate(target, event) : null;
    const wire = wireTarget(target);
    const current = drag;
    current.queue.target(() => (current.failed ? null : api.target(current.token, { target: wire, location, copy: current.copy })));
    if (!target) feedback.clear();
  }

  function onDragOver(event) {
    if (!drag) return;
    const target = targetOf(event.target);
    if (target !== drag.target) switchTarget(target, event);
    if (!target) {
      // Outside every target a foreign drag is refused here too, rather than left to the
      // browser, whose default for a dropped file is to navigate away to it.
      if (drag.foreign) {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'none';
      }
      return;
    }
    drag.copy = event.altKey;
    drag.location = locate(target, event);
    const decision = drag.failed ? NO_DROP : resolve(drag.table, entryFor(drag.table, target), drag.location, drag.copy);
    drag.decision = decision;
    const accepted = decision.op === 'copy' || decision.op === 'move';
    // A foreign drag is always cancelled, refusals included: Chromium sends neither drop nor
    // dragleave when a file from another app is released over a target that did not cancel,
    // and the session would never end. `dropEffect = 'none'` still shows the refusal.
    if (accepted || drag.foreign) event.preventDefault();
    event.dataTransfer.dropEffect = accepted ? decision.op : 'none';
    feedback.draw(target, decision, target.dataset.list ? view.rowsOf(target) : null);
  }

  function onDrop(event) {
    event.preventDefault();
    if (!drag) return;
    const target = targetOf(event.target);
    feedback.clear();
    depth = 0;
    const current = drag;
    const accepted = current.decision.op === 'copy' || current.decision.op === 'move';
    // A text field takes a drop of text natively even where the server refused: no drop here.
    if (!accepted && !current.foreign && event.target.closest('input, textarea, select')) return;
    if (!target || current.failed || (current.foreign && !accepted)) {
      // A refused foreign drop changes nothing; it only ends this page's part of the session.
      if (current.foreign) finishForeign(current);
      return;
    }
    const location = locate(target, event);
    const body = {
      op: newToken(), version: view.version(), target: wireTarget(target), location,
      shown: current.decision.op, copy: current.copy,
    };
    if (current.foreign === 'external') {
      // Protected data becomes readable now, and only inside this handler.
      const transfer = event.dataTransfer;
      body.data = [...transfer.types]
        .filter((type) => type !== 'Files' && !type.startsWith(SESSION_TYPE))
        .map((type) => [type, transfer.getData(type)]);
      const files = [...transfer.files];
      current.dropped = current.queue.run(async () => {
        body.files = await uploadAll(current, target, files);
        return api.drop(current.token, body);
      }).then(showDropped, dropFailed(target));
    } else {
      current.dropped = current.queue.run(() => api.drop(current.token, body)).then(showDropped, dropFailed(target));
    }
    if (current.foreign) {
      // No dragend reaches this page: apply the answer now and end our part of the session.
      current.dropped.then((answer) => { if (answer) view.apply(answer); });
      finishForeign(current);
    }
  }

  function showDropped(answer) {
    view.say(answer.message, answer.changes.length ? 'success' : 'info');
    return answer;
  }

  function dropFailed(target) {
    return (error) => {
      view.say(error.message, 'error');
      const status = target?.querySelector('.well-status');
      if (status) status.textContent = error.message;
      if (error.status === 409) view.resync();
      return null;
    };
  }

  /** Uploads the dropped files one by one, showing progress in the target when it has a meter. */
  async function uploadAll(current, target, files) {
    const meter = target.querySelector('.well-progress');
    const status = target.querySelector('.well-status');
    if (status) status.textContent = '';
    const ids = [];
    try {
      for (const [index, file] of files.entries()) {
        const answer = await api.upload(current.token, file, (fraction) => {
          if (!meter) return;
          const percent = Math.round(((index + fraction) / files.length) * 100);
          meter.hidden = false;
          meter.querySelector('progress').value = percent;
          meter.querySelector('.well-percent').textContent = `${percent}%`;
        });
        ids.push(answer.file);
      }
    } finally {
      if (meter) meter.hidden = true;
    }
    return ids;
  }

  function onDragEnd() {
    if (!drag) return;
    const current = drag;
    drag = null;
    depth = 0;
    feedback.clear();
    current.rows.forEach((element) => element.classList.remove('is-dragging'));
    const dropped = current.dropped ?? Promise.resolve(null);
    current.queue.run(() => dropped)
      .then((answer) => {
        view.holdUpdates(false);
        if (answer) view.apply(answer);
        return api.end(current.token);
      })
      .then((outcome) => {
        // The server says how the drag ended (never `dropEffect`): a drop taken by another
        // window of this app shows up here, and this page catches up.
        if (outcome.version > view.version()) view.resync();
        if (!current.dropped && outcome.operation === 'cancel') view.say('');
        root.dispatchEvent(new CustomEvent('board:dragend', { detail: outcome }));
      })
      .catch(() => view.holdUpdates(false));
  }

  const listeners = [
    ['dragstart', onDragStart], ['dragenter', onDragEnter], ['dragleave', onDragLeave],
    ['dragover', onDragOver], ['drop', onDrop], ['dragend', onDragEnd],
  ];
  listeners.forEach(([type, listener]) => root.addEventListener(type, listener));
  return () => {
    listeners.forEach(([type, listener]) => root.removeEventListener(type, listener));
    feedback.remove();
  };
}

/** Writes each row's public representations, in fidelity order, as the server pre-rendered them. */
function writeRepresentations(transfer, rows) {
  const perRow = rows.map((row) => JSON.parse(row.dataset.drag || '[]'));
  if (perRow.length === 1) {
    for (const [type, data] of perRow[0]) transfer.setData(type, data);
    return;
  }
  const joined = new Map();
  for (const pairs of perRow) {
    for (const [type, data] of pairs) {
      if (type.startsWith('application/')) continue;
      joined.set(type, joined.has(type) ? `${joined.get(type)}${type === 'text/html' ? '' : '\n'}${data}` : data);
    }
  }
  for (const [type, data] of joined) transfer.setData(type, data);
}

/** A drag image that says how many rows travel. */
function setCountImage(transfer, count) {
  const image = document.createElement('div');
  image.className = 'drag-count';
  image.textContent = `${count} items`;
  document.body.append(image);
  transfer.setDragImage(image, 12, 12);
  requestAnimationFrame(() => image.remove());
}

// ---------------------------------------------------------------- live updates

function initLiveUpdates(view, boardID) {
  if (!('EventSource' in window)) return () => {};
  const source = new EventSource(`/boards/${encodeURIComponent(boardID)}/events`);
  const onChanges = (event) => view.apply(JSON.parse(event.data));
  const onHello = (event) => { if (JSON.parse(event.data).version > view.version()) view.resync(); };
  source.addEventListener('changes', onChanges);
  source.addEventListener('hello', onHello);
  return () => source.close();
}

init();
window.__dragboardReady = true;
