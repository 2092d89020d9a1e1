"""Every engine users have: a row moves between two lists in WebKitGTK (Safari's engine, in
MiniBrowser), Firefox ESR and Chromium, dragged with a real X mouse in a virtual display (see
`engines.py` for why a real pointer) and moved with real keys (Space, ArrowRight, ArrowDown,
Space); a forbidden drop says why and changes nothing. The server's board and the page confirm
each outcome, with no JavaScript error. The group starts a display and a browser per engine,
and stops them."""
import json
import urllib.request
from html.parser import HTMLParser

import pytest

from engines import ENGINES, Browser, Display

READY = "document.querySelector('[data-board]') && window.__dragboardReady === true"

#: How each drag ended, as the server told the page (`board:dragend` on the document).
RECORD_ENDS = """window.__dragEnds = [];
document.addEventListener('board:dragend', (event) => window.__dragEnds.push(event.detail));"""


@pytest.fixture(scope="module", params=ENGINES)
def engine(request):
    """One window of the engine, in a display of its own, for the tests of this file (a browser's
    start is the slowest part of a test); each test gets it on a fresh server, without the last
    test's cookies. Its own display: nothing one engine leaves on the X server (a grab, a
    selection, the pointer's state) reaches the next."""
    display = Display().start()
    try:
        opened = Browser(request.param, display)
        try:
            yield opened
        finally:
            opened.close()
    finally:
        display.stop()


@pytest.fixture
def window(engine):
    yield engine
    engine.forget()


VOID = ("input", "img", "br", "hr", "meta", "link", "source", "wbr")


class _Lists(HTMLParser):
    """The titles of each list's own rows in the server's rendered fragments (a box's contents
    belong to the box's own list)."""

    def __init__(self):
        super().__init__()
        self.lists: dict[str, list[str]] = {}
        self.stack: list[str | None] = []   # per open element: the list it opens, if any
        self.in_title = False

    def handle_starttag(self, tag, attributes):
        attributes = dict(attributes)
        self.stack.append(attributes.get("data-list"))
        if attributes.get("data-list"):
            self.lists.setdefault(attributes["data-list"], [])
        self.in_title = tag == "span" and attributes.get("class") == "title"
        if tag in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()
        self.in_title = False

    def handle_data(self, data):
        owner = next((list_id for list_id in reversed(self.stack) if list_id), None)
        if self.in_title and owner:
            self.lists[owner].append(data)


def server_lists(board_url: str) -> tuple[int, dict[str, list[str]]]:
    """The board's version and every list's titles, as the server renders them (`/api/board`)."""
    with urllib.request.urlopen(board_url + "/api/board", timeout=10) as response:
        board = json.load(response)
    parser = _Lists()
    for entry in board["lists"]:
        parser.feed(entry["html"])
    return board["version"], parser.lists


def page_titles(window: Browser, list_id: str) -> list[str]:
    return window.value("[...document.querySelectorAll(`[data-list='${arguments[0]}'] > .rows > [data-item] > .title`)]"
                        ".map((cell) => cell.textContent)", list_id)


def open_board(window: Browser, server) -> None:
    window.open(server.demo, READY)
    window.execute(RECORD_ENDS)


def wait_drag_end(window: Browser) -> dict:
    """The server's outcome of the one drag made so far, once the page has it."""
    ends = window.wait("window.__dragEnds.length > 0 && window.__dragEnds", "the drag's session ended")
    assert len(ends) == 1, f"one drag, several ends: {ends}"
    return ends[0]


def row_selector(window: Browser, list_id: str, title: str) -> str:
    item = window.value("""[...document.querySelectorAll(`[data-list='${arguments[0]}'] > .rows > [data-item]`)]
        .find((row) => row.querySelector(':scope > .title').textContent === arguments[1])?.dataset.item""", list_id, title)
    assert item, f"no row {title!r} in {list_id}"
    return f'[data-list="{list_id}"] > .rows > [data-item="{item}"]'


def test_a_row_moves_between_lists_with_the_real_mouse(window, server):
    open_board(window, server)
    before, lists = server_lists(server.demo)
    assert lists["cat-1"] == ["Ball of yarn", "Feather wand", "Catnip mouse"]
    assert lists["cat-2"] == ["Laser pointer", "Bell ball"]
    assert page_titles(window, "cat-2") == lists["cat-2"]

    window.drag(row_selector(window, "cat-1", "Feather wand"), row_selector(window, "cat-2", "Bell ball"), fraction=0.2,
                over="document.querySelector('[data-list=\"cat-2\"]').dataset.dropOperation === 'move'"
                     " && document.querySelector('[data-list=\"cat-2\"]').dataset.dropIntent === 'insert-at'")

    assert wait_drag_end(window)["operation"] == "move"
    window.wait(f"document.querySelector('[data-board]').dataset.version === '{before + 1}'", "the page shows the drop's version")
    window.wait("document.querySelector('#status').textContent === 'Moved Feather wand from Whiskers to Tom.'",
                "the status says what moved")
    assert page_titles(window, "cat-1") == ["Ball of yarn", "Catnip mouse"]
    assert page_titles(window, "cat-2") == ["Laser pointer", "Feather wand", "Bell ball"]
    after, lists = server_lists(server.demo)
    assert after == before + 1
    assert lists["cat-1"] == ["Ball of yarn", "Catnip mouse"]
    assert lists["cat-2"] == ["Laser pointer", "Feather wand", "Bell ball"]
    window.wait("!document.querySelector('[data-drop-operation], .is-dragging')", "the drag's marks are gone")
    assert window.errors() == []


def test_a_forbidden_drop_shows_the_reason_and_changes_nothing(window, server):
    open_board(window, server)
    before, lists = server_lists(server.demo)

    cat = "document.querySelector('[data-list=\"cat-2\"]')"
    window.drag(row_selector(window, "people", "Ada Lovelace"), row_selector(window, "cat-2", "Laser pointer"),
                over=f"{cat}.dataset.dropOperation === 'forbidden'"
                     " && document.querySelector('.drop-badge--forbidden')?.textContent.includes('Tom only plays with toys')")

    assert wait_drag_end(window)["operation"] == "cancel"
    window.wait("!document.querySelector('[data-drop-operation], .is-dragging')", "the drag's marks are gone")
    assert window.value("document.querySelector('[data-board]').dataset.version") == str(before)
    assert server_lists(server.demo) == (before, lists)
    assert page_titles(window, "people") == lists["people"]
    assert window.errors() == []


def test_a_row_moves_between_lists_with_the_real_keyboard(window, server):
    open_board(window, server)
    before, lists = server_lists(server.demo)
    status = "document.querySelector('#status').textContent"
    tom = "document.querySelector('[data-list=\"cat-2\"]')"

    window.focus(row_selector(window, "cat-1", "Catnip mouse"))
    window.keys("space")
    window.wait(f"{status} === 'Picked up Catnip mouse, 3 of 3 in Whiskers.'", "the row is picked up")
    window.keys("Right")
    window.wait(f"{status} === 'Tom, position 1 of 3: move.' && {tom}.dataset.dropOperation === 'move'"
                f" && {tom}.dataset.dropIntent === 'insert-at'", "Tom is the target")
    window.keys("Down")
    window.wait(f"{status} === 'Tom, position 2 of 3: move.'", "the second place in Tom is chosen")
    window.keys("space")

    assert wait_drag_end(window)["operation"] == "move"
    window.wait(f"document.querySelector('[data-board]').dataset.version === '{before + 1}'", "the page shows the drop's version")
    window.wait(f"{status} === 'Moved Catnip mouse from Whiskers to Tom.'", "the status says what moved")
    assert page_titles(window, "cat-1") == ["Ball of yarn", "Feather wand"]
    assert page_titles(window, "cat-2") == ["Laser pointer", "Catnip mouse", "Bell ball"]
    window.wait("document.activeElement.matches('[data-list=\"cat-2\"] > .rows > [data-item]')"
                " && document.activeElement.querySelector(':scope > .title').textContent === 'Catnip mouse'",
                "the focus stays on the moved row, where it now is")
    after, lists = server_lists(server.demo)
    assert after == before + 1
    assert lists["cat-1"] == ["Ball of yarn", "Feather wand"]
    assert lists["cat-2"] == ["Laser pointer", "Catnip mouse", "Bell ball"]
    assert window.value("!document.querySelector('[data-drop-operation], .is-dragging')")
    assert window.errors() == []
