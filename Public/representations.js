/**
 * A row's public representations, in fidelity order, as `[[type, data], …]` for `dragstart`
 * (which must write them synchronously). Most rows carry none: the page's `data-drag-recipes`
 * says, per item kind, how each representation is made from the row's title (cut where the title
 * goes, and how the title is escaped there); a row the server could not describe that way still
 * carries its own, pre-rendered, in `data-drag`.
 */
import { DRAG_RECIPES, titleOf } from './selectors.js';

const HTML = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const ESCAPES = {
  raw: (text) => text,
  html: (text) => text.replace(/[&<>"']/g, (c) => HTML[c]),
  json: (text) => JSON.stringify(text).slice(1, -1),
  'json/': (text) => JSON.stringify(text).slice(1, -1).replaceAll('/', '\\/'),
};

export function representationsOf(row) {
  if (row.dataset.drag) return JSON.parse(row.dataset.drag);
  const recipes = JSON.parse(row.closest(DRAG_RECIPES)?.dataset.dragRecipes || '{}');
  const title = titleOf(row)?.textContent ?? '';
  return (recipes[row.dataset.kind] || []).map(([type, escape, parts]) => [type, parts.join(ESCAPES[escape](title))]);
}
