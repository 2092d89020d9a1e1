// The page's theme, loaded in <head> on every page: a choice remembered in localStorage is set on
// <html> as the first thing this module does (before the first paint where the browser allows it);
// without one, the stylesheet follows `prefers-color-scheme`. It also marks the page as scripted
// (`data-js`), which the stylesheet uses to show controls that need JavaScript and fold the ones
// that work without it. The toggle, `button[data-action="theme"]`, sets light or dark.

const KEY = 'dragboard-theme';
/** The toggle; named here, not imported from selectors.js: this module runs first and fetches nothing more. */
const TOGGLE = 'button[data-action="theme"]';
const root = document.documentElement;

function stored() {
  try { return localStorage.getItem(KEY); } catch { return null; }   // storage may be refused
}

root.dataset.js = '';
const remembered = stored();
if (remembered === 'light' || remembered === 'dark') root.dataset.theme = remembered;

/** The theme shown now: the one chosen, else the system's. */
export function currentTheme() {
  if (root.dataset.theme) return root.dataset.theme;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function label(button) {
  const dark = currentTheme() === 'dark';
  button.setAttribute('aria-pressed', String(dark));
  button.title = dark ? 'Switch to the light theme' : 'Switch to the dark theme';
}

function setTheme(theme) {
  root.dataset.theme = theme;
  try { localStorage.setItem(KEY, theme); } catch { /* remembered for this page only */ }
  document.querySelectorAll(TOGGLE).forEach(label);
}

/** Wires the theme toggles of the page; returns the cleanup. */
export function initTheme(scope = document) {
  const onClick = (event) => {
    if (!(event.target instanceof Element) || !event.target.closest(TOGGLE)) return;
    setTheme(currentTheme() === 'dark' ? 'light' : 'dark');
  };
  const system = window.matchMedia('(prefers-color-scheme: dark)');
  const relabel = () => scope.querySelectorAll(TOGGLE).forEach(label);
  relabel();
  scope.addEventListener('click', onClick);
  system.addEventListener('change', relabel);
  return () => { scope.removeEventListener('click', onClick); system.removeEventListener('change', relabel); };
}

// The toggle works on every page that has one, without another module to start it.
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => initTheme(), { once: true });
else initTheme();
