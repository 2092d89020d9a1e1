// The connection to the server, as the person sees it: when a request cannot reach the server
// (or the live updates drop), an offline banner says so; the page stays usable; the server is
// asked again with backoff; once it answers, the banner goes and the board catches up.

import { OFFLINE_EVENT, ONLINE_EVENT } from './events.js';

/** What the person reads when a request could not reach the server. */
export const OFFLINE_MESSAGE = 'The server can’t be reached.';

/** Reports that the server could not be reached (from the protocol client or live updates). */
export function reportOffline() {
  window.dispatchEvent(new CustomEvent(OFFLINE_EVENT));
}

const BACKOFF = [1000, 2000, 4000, 8000, 15000];

/**
 * Shows the offline banner at the top of `board` while the server is unreachable, probes it
 * with `probe()` (a GET that resolves when it answers) with backoff, and calls `onBack()` when
 * it answers again. Returns the cleanup.
 */
export function initConnection(board, { probe, onBack }) {
  const banner = document.createElement('div');
  banner.className = 'offline-banner';
  banner.dataset.offlineBanner = '';
  banner.setAttribute('role', 'alert');
  banner.hidden = true;
  const text = document.createElement('span');
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.dataset.action = 'retry';
  retry.textContent = 'Try again now';
  banner.append(text, retry);
  board.prepend(banner);

  let offline = false;
  let attempt = 0;
  let timer = null;
  let probing = false;

  function schedule() {
    clearTimeout(timer);
    const delay = BACKOFF[Math.min(attempt, BACKOFF.length - 1)];
    text.textContent = `Offline: the server can’t be reached. The board is shown as last seen; nothing can be saved until it is back. Trying again in ${Math.round(delay / 1000)} s.`;
    timer = setTimeout(check, delay);
  }

  async function check() {
    if (probing) return;
    probing = true;
    clearTimeout(timer);
    text.textContent = 'Offline: trying to reach the server…';
    try {
      await probe();
      back();
    } catch {
      attempt += 1;
      schedule();
    } finally {
      probing = false;
    }
  }

  function back() {
    if (!offline) return;
    offline = false;
    attempt = 0;
    banner.hidden = true;
    window.dispatchEvent(new CustomEvent(ONLINE_EVENT));
    onBack();
  }

  function onOffline() {
    if (offline) return;
    offline = true;
    banner.hidden = false;
    schedule();
  }

  retry.addEventListener('click', check);
  window.addEventListener(OFFLINE_EVENT, onOffline);
  return () => {
    clearTimeout(timer);
    window.removeEventListener(OFFLINE_EVENT, onOffline);
    banner.remove();
  };
}
