// The protocol client of one board: JSON requests with the page's CSRF token, file uploads with
// progress, and a queue that keeps at most one request of a drag in flight.

import { OFFLINE_MESSAGE, reportOffline } from './connection.js';
import { CSRF_TOKEN } from './selectors.js';

/** A request that never reached the server: a message for people, and the banner goes up. */
function unreachable() {
  reportOffline();
  return Object.assign(new Error(OFFLINE_MESSAGE), { offline: true });
}

/** The sign-in this page was made for has ended (signed out elsewhere, a new password, the
 *  account removed): the sign-in page, which comes back here after. */
function signInAgain() {
  window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
}

/** The protocol client of one board: every session it begins names the page's board. */
export function createApi(root, boardID) {
  const csrf = root.querySelector(CSRF_TOKEN)?.content ?? '';
  // Set once the page is on its way to the sign-in page: the drag's next requests are refused too,
  // and each navigation started again would abort the one before.
  let leaving = false;
  async function request(method, path, body) {
    const response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { 'X-CSRF-Token': csrf } : { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch(() => { throw unreachable(); });
    const json = await response.json().catch(() => ({}));
    if (response.status === 401 && json?.error?.code === 'sign_in_required' && !leaving) {
      leaving = true;
      signInAgain();
    }
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
    xhr.addEventListener('error', () => reject(unreachable()));
    xhr.addEventListener('abort', () => reject(new Error('the upload was aborted')));
    xhr.send(file);
  });
}

/**
 * Session requests run one at a time, in order; a target change that is still waiting is
 * replaced by the newer one, so there is at most one request in flight and no backlog.
 */
export function createRequestQueue() {
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
