"""Shared helpers of the browser tests: real-mouse drags, reading lists, waiting for versions.

A drag is genuine: the mouse goes down on a row, moves in several steps (Playwright's Chromium
turns that into a native HTML5 drag: dragstart, dragenter, dragover, drop, dragend) and goes up.
Nothing here sleeps; every wait is for a condition or a response.
"""
import re

from playwright.sync_api import Locator, Page, expect

#: The page has rendered its board and its scripts are wired. A function, like every predicate given to
#: `wait_for_function`: Playwright evaluates a string once under DevTools, then `eval`s it again on each
#: polling frame, which the page's CSP (no 'unsafe-eval') refuses whenever the first look was not true yet;
#: the function a string evaluates to is kept and called instead.
READY = "() => document.querySelector('[data-board]') && window.__dragboardReady === true"

#: No row or list is sliding to its place after a change (Public/motion.js's animations, id 'slide').
SETTLED = "() => document.getAnimations().every((animation) => animation.id !== 'slide' || animation.playState !== 'running')"

#: Where in a row (or list) the pointer goes, as a fraction of its height.
POSITIONS = {"top": 0.2, "middle": 0.5, "bottom": 0.8}


def is_begin(response) -> bool:
    return response.request.method == "POST" and response.url.endswith("/api/sessions")


def is_session_call(url: str, action: str | None = None) -> bool:
    match = re.search(r"/api/sessions/([0-9a-f]{32})/(target|drop|end)$", url)
    return bool(match) and (action is None or match.group(2) == action)


# ---------------------------------------------------------------- reading the board

def list_of(page: Page, list_id: str) -> Locator:
    return page.locator(f'[data-list="{list_id}"]')


def rows(page: Page, list_id: str) -> Locator:
    return page.locator(f'[data-list="{list_id}"] > .rows > [data-item]')


def title_cells(page: Page, list_id: str) -> Locator:
    """The `.title` of every row of a list, in order: `expect(...).to_have_text([...])` waits."""
    return page.locator(f'[data-list="{list_id}"] > .rows > [data-item] > .title')


def row(page: Page, list_id: str, title: str) -> Locator:
    """The row of `list_id` whose title is exactly `title` (a box's contents do not count)."""
    exact = re.compile(f"^{re.escape(title)}$")
    return rows(page, list_id).filter(has=page.locator(":scope > .title", has_text=exact))


def titles(page: Page, list_id: str) -> list[str]:
    return page.eval_on_selector_all(
        f'[data-list="{list_id}"] > .rows > [data-item] > .title', "cells => cells.map((cell) => cell.textContent)")


def board_state(page: Page) -> dict[str, list[str]]:
    """Every list's titles, keyed by list id."""
    return page.eval_on_selector_all("[data-list]", """lists => Object.fromEntries(lists.map((list) => [
        list.dataset.list,
        [...list.querySelectorAll(':scope > .rows > [data-item] > .title')].map((cell) => cell.textContent)]))""")


def version(page: Page) -> int:
    return int(page.locator("[data-board]").get_attribute("data-version"))


def wait_version(page: Page, expected: int) -> None:
    expect(page.locator("[data-board]")).to_have_attribute("data-version", str(expected))


def expect_no_drop_feedback(page: Page) -> None:
    """No target carries drop attributes, no row is marked, indicator and badge are hidden."""
    expect(page.locator("[data-drop-operation]")).to_have_count(0)
    expect(page.locator("[data-drop-intent]")).to_have_count(0)
    expect(page.locator("[data-drop-into]")).to_have_count(0)
    expect(page.locator(".drop-indicator")).to_be_hidden()
    expect(page.locator(".drop-badge")).to_be_hidden()


def expect_indicator_at(page: Page, edge_y: float, tolerance: float = 6) -> None:
    """The insertion indicator is visible and drawn at `edge_y` (a row's top or bottom edge)."""
    indicator = page.locator(".drop-indicator")
    expect(indicator).to_be_visible()
    box = indicator.bounding_box()
    middle = box["y"] + box["height"] / 2
    assert abs(middle - edge_y) <= tolerance, f"indicator at y={middle:.0f}, expected near y={edge_y:.0f}"


def top_of(locator: Locator) -> float:
    return locator.bounding_box()["y"]


def bottom_of(locator: Locator) -> float:
    box = locator.bounding_box()
    return box["y"] + box["height"]


# ---------------------------------------------------------------- dragging with the mouse

def point_in(locator: Locator, position: str | float = "middle") -> tuple[float, float]:
    """A point horizontally centred in `locator`, at `position` of its height (once rows that slide
    to their places after a change, Public/motion.js, have come to rest: aimed where they stay)."""
    locator.page.wait_for_function(SETTLED)
    box = locator.bounding_box()
    assert box, f"{locator} is not visible"
    fraction = POSITIONS[position] if isinstance(position, str) else float(position)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] * fraction


class Drag:
    """A native drag in progress: the mouse button is down and the session has begun."""

    def __init__(self, page: Page, begun: dict):
        self.page = page
        self.begun = begun
        self.token = begun["token"]
        self.responses: list = []
        self._listener = lambda response: self.responses.append(response) if self.token in response.url else None
        page.on("response", self._listener)
        self.x, self.y = None, None
        #: The drop's answer (None when nothing was dropped) and the end's answer, after release.
        self.dropped: dict | None = None
        self.ended: dict | None = None

    def hover(self, target: Locator, position: str | float = "middle", steps: int = 8) -> "Drag":
        """Moves in `steps` to `position` within `target`, then once more over it, so the last
        dragover surely happened over the target (with the proposal table in hand)."""
        x, y = point_in(target, position)
        self.page.mouse.move(x, y, steps=steps)
        self.page.mouse.move(x + 1, y, steps=1)
        self.x, self.y = x + 1, y
        return self

    def move_to(self, x: float, y: float, steps: int = 8) -> "Drag":
        self.page.mouse.move(x, y, steps=steps)
        self.x, self.y = x, y
        return self

    def release(self) -> dict | None:
        """Releases the button and waits for the end of the session (which comes after the drop
        was answered and applied); returns the drop's answer, or None when no drop happened."""
        with self.page.expect_response(lambda response: is_session_call(response.url, "end") and self.token in response.url) as ended:
            self.page.mouse.up()
        assert ended.value.ok, f"end of the drag failed: {ended.value.status}"
        self.page.remove_listener("response", self._listener)
        drops = [response for response in self.responses if is_session_call(response.url, "drop")]
        assert len(drops) <= 1, "one drag posted several drops"
        self.ended = ended.value.json()
        self.dropped = drops[0].json() if drops else None
        return self.dropped


def start_drag(page: Page, source: Locator, position: str | float = "middle") -> Drag:
    """Mouse down on `source`, a first small move (dragstart), and the session's table arrived."""
    x, y = point_in(source, position)
    page.mouse.move(x, y)
    page.mouse.down()
    with page.expect_response(is_begin) as begun:
        page.mouse.move(x + 12, y, steps=2)
    assert begun.value.status == 201, f"the session did not begin: {begun.value.status} {begun.value.text()}"
    return Drag(page, begun.value.json())


def drag(page: Page, source: Locator, target: Locator, position: str | float = "middle",
         release: bool = True, steps: int = 8) -> Drag:
    """Drags `source` to `position` within `target` with the real mouse; with `release`, drops
    and waits for the session to end (`Drag.dropped` holds the drop's answer)."""
    session = start_drag(page, source)
    session.hover(target, position, steps)
    if release:
        session.release()
    return session


#: Records the live events the page's own EventSource receives, as [type, data] in `window.__sse` (the app's
#: code is unchanged): `hello` when a stream opens, `changes` for this instance's changes, `version` for
#: another instance's.
RECORD_SSE = """
(() => {
  const Native = window.EventSource;
  window.__sse = [];
  window.EventSource = class extends Native {
    constructor(...args) {
      super(...args);
      for (const type of ['hello', 'changes', 'version']) this.addEventListener(type, (event) => window.__sse.push([type, event.data]));
    }
  };
})();
"""


# ---------------------------------------------------------------- the board's composers and list menus

def open_composer(scope, form: str) -> Locator:
    """Opens the composer that holds `form[data-form=<form>]` ("+ Add a card" in a list, "+ Add another
    list" on the board) where it is folded, and returns its title field (a textarea for cards)."""
    opener = scope.locator(f'[data-composer]:has(form[data-form="{form}"]) > button[data-action="compose"]')
    if opener.is_visible():
        opener.click()
    field = scope.locator(f'form[data-form="{form}"] [name="title"]')
    expect(field).to_be_visible()
    return field


def open_list_menu(list_section: Locator) -> Locator:
    """Opens a list's "⋯" menu with its button and returns the menu's panel."""
    list_section.locator('button[data-action="list-menu"]').click()
    panel = list_section.locator("details.list-menu .menu-panel")
    expect(panel).to_be_visible()
    return panel
