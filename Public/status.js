// The status line under the board's title: one message at a time, for people to read, with
// optional buttons. A message stays until the next one replaces it, so a refusal's reason is
// still there after the mouse is released.

/**
 * The status line in `element` (a polite live region).
 *
 * `show(text, { kind, actions })` replaces the message; `kind` is `info`, `success`, `error`
 * or `forbidden` (the colour); `actions` are buttons after the text:
 * `[{ label: 'Undo', action: 'undo', run: () => … }]` renders `button[data-action="undo"]`,
 * and a click runs `run`. `clear()` empties the line; `text()` reads it.
 */
export function createStatus(element) {
  function show(text, { kind = 'info', actions = [] } = {}) {
    if (!element) return;
    element.replaceChildren();
    const message = document.createElement('span');
    message.className = 'status-text';
    message.textContent = text ?? '';
    element.append(message);
    for (const { label, action, run } of actions) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'status-action';
      button.dataset.action = action;
      button.textContent = label;
      button.addEventListener('click', () => run?.());
      element.append(' ', button);
    }
    element.dataset.kind = kind;
  }

  return {
    show,
    clear: () => show(''),
    text: () => element?.querySelector('.status-text')?.textContent ?? '',
  };
}
