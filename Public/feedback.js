// Draws what the server decided while a drag hovers a target: attributes, indicator, badge.

import { rowsIn } from './gaps.js';
import { createLandingGap } from './motion.js';
import { BOARD_LIST } from './selectors.js';

export function createFeedback() {
  const indicator = document.createElement('div');
  indicator.className = 'drop-indicator';
  indicator.hidden = true;
  const badge = document.createElement('div');
  badge.className = 'drop-badge';
  badge.hidden = true;
  document.body.append(indicator, badge);
  const gap = createLandingGap();
  let drawnTarget = null;
  let drawnInto = null;
  let drawnKey = '';

  /** Takes every mark away; the landing gap too, unless the next drawing moves it (`keepGap`). */
  function clear(keepGap = false) {
    if (!keepGap) gap.place(null);
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
    clear(true);
    // Where the card will land a gap opens, first: the line is then drawn where the rows are.
    const landing = target && rows && (decision.op === 'copy' || decision.op === 'move') && !decision.into && decision.intent === 'insert-at';
    gap.place(landing ? rows : null, decision.destination ?? 0);
    if (!target) return;
    drawnTarget = target;
    drawnKey = key;
    target.dataset.dropOperation = decision.op;
    target.dataset.dropIntent = decision.intent === 'automatic' ? 'insert-at' : decision.intent;
    const box = target.getBoundingClientRect();
    if (decision.op === 'forbidden' || decision.op === 'copy' || (decision.op === 'cancel' && decision.reason)) {
      badge.hidden = false;
      badge.className = `drop-badge drop-badge--${decision.op}`;
      badge.textContent = decision.op === 'copy' ? '+' : `⊘ ${decision.reason ?? 'Not allowed here'}`;
      badge.style.left = `${box.left + window.scrollX + 8}px`;
      badge.style.top = `${box.top + window.scrollY - 12}px`;
    }
    if (decision.op !== 'copy' && decision.op !== 'move') return;
    if (target.dataset.lists) {
      const lists = [...target.querySelectorAll(BOARD_LIST)];
      const before = decision.destination == null ? null : lists[decision.destination];
      drawnInto = before ?? lists[lists.length - 1] ?? null;
      drawnInto?.setAttribute(before ? 'data-drop-before' : 'data-drop-after', '');
      return;
    }
    if (decision.into && rows) {
      drawnInto = rowsIn(rows)[decision.destination] ?? null;
      drawnInto?.setAttribute('data-drop-into', '');
    } else if (decision.intent === 'insert-at' && rows) {
      const children = rowsIn(rows);
      const before = children[decision.destination];
      const last = children[children.length - 1];
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
