// The page's structure as the browser half relies on it, named once: the selectors of what the
// server renders (Templates/*.mustache) and a few helpers over them. Other modules import these
// instead of writing selectors of their own.
//
//   main[data-board][data-lists]               the board: BOARD, and LIST_DROP_TARGET for dragged lists
//     .group                                   a group of board lists (LIST_GROUP), or the drop zones
//       section.list[data-list]                a board list (BOARD_LIST): a column of the board
//         header.list-header > .list-title     its header (BOARD_LIST_HEADER), which drags the list
//         ul.rows                              its row container: rowContainer(list)
//           li[data-item]                      a row (ROW); rowsOf(list) are the list's own rows
//             details > .contents[data-list]   a container row's contents (a box's): a list too (LIST),
//               ul.rows > li[data-item]          with its own row container and rows; not a board list
//       section[data-zone]                     a drop zone (ZONE)
//
// LIST is any list, a board list or a container's contents: both hold rows, load more rows, and
// take drops. ROW is any row of any list, a row inside an open container included.

// ---- the board

/** The board page's root (`main`), with its id, version and drag recipes. */
export const BOARD = '[data-board]';

/** The board index page's root (the list of boards). */
export const BOARD_INDEX = '[data-boards]';

/** The page's polite status line, where messages and the server's words are said. */
export const STATUS = '#status';

/** The page's CSRF token, sent with every request that changes something. */
export const CSRF_TOKEN = 'meta[name="csrf-token"]';

/** The board's title in the masthead. */
export const BOARD_TITLE = '.board-title';

/** Where the page's `data-drag-recipes` are (the board): how a row's representations are made. */
export const DRAG_RECIPES = '[data-drag-recipes]';

/** A group of board lists (not the group of drop zones); a board's first list goes into the last one. */
export const LIST_GROUP = '.group:not([aria-label="Drop zones"])';

// ---- lists

/** Any list: a board list or a container's contents. */
export const LIST = '[data-list]';

/** A list of the board itself (a column, draggable by its header); never a container's contents. */
export const BOARD_LIST = '.list[data-list]';

/** A board list's header, which drags the list. */
export const BOARD_LIST_HEADER = `${BOARD_LIST} > .list-header`;

/** The title of a board list (or of a zone), in its header. */
export const LIST_TITLE = '.list-title';

/** A list's "Show more" link, there while the page shows only the list's first rows. */
export const SHOW_MORE = '[data-show-more]';

/** Inside the "Show more" link: how many of the list's rows are shown. */
export const SHOWN_COUNT = '[data-shown]';

/** The selector of the list (either kind) with id `id`; a container's contents have the container row's id. */
export function listSelector(id) {
  return `[data-list="${CSS.escape(id)}"]`;
}

/** The selector of the board list with id `id`. */
export function boardListSelector(id) {
  return `${BOARD_LIST}[data-list="${CSS.escape(id)}"]`;
}

/** The list `element` is in (or is), either kind, or null. */
export function listOf(element) {
  return element.closest(LIST);
}

// ---- rows

/** From a list: its row container. */
const ROWS = ':scope > .rows';

/** A row: an item of a list, in its row container. */
export const ROW = `${LIST} > .rows > [data-item]`;

/** A selected row. */
export const SELECTED_ROW = `${ROW}.is-selected`;

/** The selector of the row of item `id`. */
export function rowSelector(id) {
  return `${ROW}[data-item="${CSS.escape(id)}"]`;
}

/** The row of item `id` under `scope`, or null. */
export function rowById(scope, id) {
  return scope.querySelector(rowSelector(id));
}

/** The element that holds `list`'s rows (its `ul.rows`, whose children drop indexes count). */
export function rowContainer(list) {
  return list.querySelector(ROWS);
}

/** `list`'s own rows, in order (not the rows inside its containers). */
export function rowsOf(list) {
  return [...list.querySelectorAll(`${ROWS} > [data-item]`)];
}

/** A row's title element. */
export function titleOf(row) {
  return row.querySelector(':scope > .title');
}

// ---- drop targets

/** A drop zone (the image well, the label). */
export const ZONE = '[data-zone]';

/** What rows are dropped on: a list (either kind) or a drop zone. */
export const ROW_DROP_TARGET = `${LIST}, ${ZONE}`;

/** What a list dragged by its header is dropped on: the board, as the collection of its lists. */
export const LIST_DROP_TARGET = '[data-lists]';

/** The selector of the drop zone with id `id`. */
export function zoneSelector(id) {
  return `[data-zone="${CSS.escape(id)}"]`;
}

/** Inside the image well: the upload's progress, its percentage, and what the upload said. */
export const WELL_PROGRESS = '.well-progress';
export const WELL_PERCENT = '.well-percent';
export const WELL_STATUS = '.well-status';

// ---- forms and actions

/** A form of the board that JavaScript sends by fetch (each also works as a plain POST); forms
 *  marked `data-navigates` (signing out) are left to the browser: their answer is another page. */
export const FORM = 'form[data-form]:not([data-navigates])';

/** The selector of the board's form of kind `kind` (`delete-item`, `rename-list`, …). */
export function formSelector(kind) {
  return `form[data-form="${kind}"]`;
}

/** The selector of a button that does `action` (`delete`, `move-to`, `undo`, `redo`). */
export function actionSelector(action) {
  return `button[data-action="${action}"]`;
}

/** A title edited in place: a board list's, and the board's. */
export const EDITABLE_LIST_TITLE = '[data-edit="list"]';
export const EDITABLE_BOARD_TITLE = '[data-edit="board"]';

// ---- people (signed-in servers)

/** The signed-in person's bar; its `data-who` is their name. */
export const WHO = '[data-who]';
/** Who views the board: one `[data-user]` per person, kept by people.js. */
export const PRESENCE = '[data-presence]';
/** The words of other people's drags in the air ("alice is moving “Card 7”"). */
export const DRAGGING_NOTE = '[data-dragging-note]';
/** The activity panel's list, newest first. */
export const ACTIVITY_LIST = '[data-activity-list]';

// ---- cards' details (card.js)

/** The dialog that shows an open card, made by card.js inside the board. */
export const CARD_DIALOG = 'dialog[data-dialog="card"]';
/** A tile's link to its card's page (what opens it without JavaScript). */
export const CARD_LINK = 'a.row-open';
/** A card's details as its page renders them (`data-card` is the card's id). */
export const CARD_DETAILS = 'article[data-card]';
/** A card's checklist, and one item of it (`data-check` is its id). */
export const CHECKS = '[data-checks]';
export const CHECK = '[data-check]';
/** A due date shown on a tile or a card; `data-due` is its day (YYYY-MM-DD). */
export const DUE_DATE = '[data-due]';
/** The board's labels menu (its labels, a new label, the board's colour). */
export const LABELS_MENU = 'details.board-labels';

// ---- the board's look: list menus, composers, the filter (lists.js, filter.js)

/** A board list's "⋯" button (scripted), the <details> menu it opens (`aria-controls`), and its panel. */
export const LIST_MENU_BUTTON = 'button[data-action="list-menu"]';
export const LIST_MENU = 'details.list-menu';
export const LIST_MENU_PANEL = '.menu-panel';
/** The card count in a list's header, kept equal to the list's `data-row-count`. */
export const LIST_COUNT = '[data-list-count]';
/** A composer ("+ Add a card", "+ Add another list"): its opening button and its cancel button. */
export const COMPOSER = '[data-composer]';
export const COMPOSE = 'button[data-action="compose"]';
export const COMPOSE_CANCEL = 'button[data-action="compose-cancel"]';
/** The masthead's filter box; a card it dims carries `data-filtered-out`. */
export const FILTER = 'input[data-filter]';
