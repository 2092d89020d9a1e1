// The names of the events the browser half makes up, named once. Native events ('dragstart',
// 'keydown', 'toggle', …) are written by their names where they are used.

// ---- DOM events the page dispatches (pages and tests may listen for them too)

// On the board after the page applied a server update or read the board again (does not bubble); detail: that update or board state ({ version, changes?, counts?, lists? }).
export const BOARD_CHANGED = 'board:changed';
// On a list (bubbles) once paging.js added its next rows; detail: { list: its id, count: how many rows came }.
export const ROWS_LOADED = 'board:rows';
// On the board whenever the status line says something (does not bubble); detail: { message, kind, answer: the server's answer to this page's own change, or null }.
export const STATUS_SAID = 'board:status';
// On the drag controller's root once a drag session ended (does not bubble); detail: the server's outcome of the session (`end` answer: { operation, version, announcement, … }).
export const DRAG_ENDED = 'board:dragend';
// On a container row (bubbles) when a drag that held over it opened it (spring-loading); no detail.
export const SPRING_LOADED = 'board:springloaded';
// On `window` when a request or the live updates could not reach the server; no detail.
export const OFFLINE_EVENT = 'dragboard:offline';
// On `window` once the server answers again after OFFLINE_EVENT; no detail.
export const ONLINE_EVENT = 'dragboard:online';

// ---- Server-Sent Events of /boards/<id>/events (listened for on its EventSource)

// Opens every stream; data: { version } of the board now, so a page that missed changes catches up.
export const LIVE_HELLO = 'hello';
// A change committed to the board; data: { version, changes, counts }, applied as a drop's answer is.
export const LIVE_CHANGES = 'changes';
// Another server instance changed the board; data: { version }, read again from the server.
export const LIVE_VERSION = 'version';
// Who views the board now (signed-in people); data: { people: [name, …] }.
export const LIVE_PRESENCE = 'presence';
// Someone's drag in the air: at its start, at each change of target, at its end; data: { drag, user, items, words, ended }.
export const LIVE_DRAGGING = 'dragging';
// A change as the board's activity tells it; data: { version, author, words, at }.
export const LIVE_ACTIVITY = 'activity';
