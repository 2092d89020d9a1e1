"""Touch and pen: a long-press picks a row up through the pointer-events fallback, driven by the
DevTools protocol's `Input.dispatchTouchEvent` (what Chromium gets from a touchscreen). The drag
uses the same session protocol, proposal table and feedback as the mouse. The long-press is
waited for through the page's state (`html[data-dragging]` and the session's begin), never a sleep."""
import pytest
from playwright.sync_api import expect

from helpers import is_begin, is_session_call, list_of, point_in, row, title_cells, version, wait_version
from data_helpers import READY


@pytest.fixture
def touch(browser, server, console_errors):
    """A touchscreen page of the demo board and a way to touch it."""
    # Wide enough for the demo's lists side by side (a finger reaches only what is on the screen).
    context = browser.new_context(viewport={"width": 2200, "height": 700}, has_touch=True)
    page = console_errors.watch(context.new_page())
    page.goto(server.demo)
    page.wait_for_function(READY)
    yield Finger(page, context.new_cdp_session(page))
    assert console_errors.unexpected() == [], f"browser errors: {console_errors.unexpected()}"
    context.close()


class Finger:
    def __init__(self, page, cdp):
        self.page, self.cdp = page, cdp
        self.x = self.y = None

    def send(self, kind, points):
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def down(self, x, y):
        self.x, self.y = x, y
        self.send("touchStart", [{"x": x, "y": y}])

    def move(self, x, y, steps=8):
        for step in range(1, steps + 1):
            self.send("touchMove", [{"x": self.x + (x - self.x) * step / steps, "y": self.y + (y - self.y) * step / steps}])
        self.x, self.y = x, y

    def up(self):
        self.send("touchEnd", [])

    def cancel(self):
        self.send("touchCancel", [])

    def long_press(self, target, position="middle") -> dict:
        """Presses `target` and holds until the page picked the row up (its session began)."""
        with self.page.expect_response(is_begin) as begun:
            self.down(*point_in(target, position))
            expect(self.page.locator("html")).to_have_attribute("data-dragging", "touch")
        assert begun.value.status == 201, begun.value.text()
        return begun.value.json()

    def lift(self, token) -> dict:
        """Lifts the finger and waits for the end of the session; returns the end's answer."""
        with self.page.expect_response(lambda response: is_session_call(response.url, "end") and token in response.url) as ended:
            self.up()
        return ended.value.json()


def test_a_long_press_drags_a_row_to_another_list(touch):
    page = touch.page
    before = version(page)
    began = touch.long_press(row(page, "cat-2", "Bell ball"))
    expect(row(page, "cat-2", "Bell ball")).to_have_class("row row--toy is-dragging")
    drops = []
    page.on("response", lambda response: drops.append(response) if is_session_call(response.url, "drop") else None)

    # Up first: were the page panning under the finger, it would scroll down now.
    touch.move(touch.x, touch.y - 150)
    expect(page.locator(".touch-ghost")).to_be_visible()
    assert page.evaluate("window.scrollY") == 0, "the page does not scroll while dragging"
    x, y = point_in(row(page, "cat-1", "Feather wand"), "top")
    touch.move(x, y)
    cat = list_of(page, "cat-1")
    expect(cat).to_have_attribute("data-drop-operation", "move")
    expect(cat).to_have_attribute("data-drop-intent", "insert-at")
    expect(page.locator(".drop-indicator")).to_be_visible()
    ghost = page.locator(".touch-ghost")
    expect(ghost.locator(".title")).to_have_text("Bell ball")
    box = ghost.bounding_box()
    assert box["x"] <= x <= box["x"] + box["width"] and box["y"] <= y <= box["y"] + box["height"], "the copy follows the finger"
    assert page.evaluate("window.scrollY") == 0
    ended = touch.lift(began["token"])

    assert ended["operation"] == "move"
    assert len(drops) == 1 and drops[0].json()["operation"] == "move"
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Bell ball", "Feather wand", "Catnip mouse"])
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer"])
    expect(page.locator(".touch-ghost")).to_have_count(0)
    expect(page.locator("html")).not_to_have_attribute("data-dragging", "touch")
    expect(page.locator("[data-drop-operation]")).to_have_count(0)


def test_a_tap_opens_the_card_and_starts_no_drag(touch):
    page = touch.page
    begins = []
    page.on("request", lambda request: begins.append(request) if request.method == "POST" and request.url.endswith("/api/sessions") else None)
    laser = row(page, "cat-2", "Laser pointer")
    touch.down(*point_in(laser))
    touch.up()
    # A tap is a click: the card opens (as Trello's and Planka's do), and no drag began.
    dialog = page.locator('dialog[data-dialog="card"][open]')
    expect(dialog.locator("h1")).to_have_text("Laser pointer")
    dialog.locator('[data-action="close-card"]').click()
    expect(dialog).to_have_count(0)
    # A long-press elsewhere afterwards takes its 400 ms; the tap's own timer, had it run, would
    # have fired by then and begun a session of its own.
    began = touch.long_press(row(page, "cat-1", "Feather wand"))
    touch.lift(began["token"])
    assert [request.post_data_json["items"] for request in begins] == [[row(page, "cat-1", "Feather wand").get_attribute("data-item")]]


def test_a_cancelled_touch_or_a_lift_outside_every_target_cancels(touch):
    page = touch.page
    before = version(page)
    began = touch.long_press(row(page, "cat-2", "Bell ball"))
    touch.move(*point_in(row(page, "cat-1", "Feather wand"), "top"))
    expect(list_of(page, "cat-1")).to_have_attribute("data-drop-operation", "move")
    with page.expect_response(lambda response: is_session_call(response.url, "end") and began["token"] in response.url) as ended:
        touch.cancel()
    assert ended.value.json()["operation"] == "cancel"
    expect(page.locator("[data-drop-operation]")).to_have_count(0)
    expect(page.locator(".drop-indicator")).to_be_hidden()
    expect(page.locator(".touch-ghost")).to_have_count(0)
    expect(row(page, "cat-2", "Bell ball")).not_to_have_class("row row--toy is-dragging")

    # Lifted over the masthead, which is no target: nothing drops.
    began = touch.long_press(row(page, "cat-2", "Bell ball"))
    touch.move(*point_in(page.locator(".masthead h1")))
    ended = touch.lift(began["token"])
    assert ended["operation"] == "cancel"
    assert version(page) == before
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Bell ball"])


def test_moving_before_the_long_press_scrolls_the_page_and_drags_nothing(touch):
    page = touch.page
    begins = []
    page.on("request", lambda request: begins.append(request) if request.method == "POST" and request.url.endswith("/api/sessions") else None)
    # The board's lists stand in one row: a short window leaves the page room to scroll.
    page.set_viewport_size({"width": 2200, "height": 540})
    x, y = point_in(row(page, "cat-2", "Laser pointer"))
    touch.down(x, y)
    touch.move(x, y - 250, steps=10)
    touch.up()
    page.wait_for_function("() => window.scrollY > 100")
    row(page, "people", "Ada Lovelace").scroll_into_view_if_needed()   # the swipe may have scrolled it away
    began = touch.long_press(row(page, "people", "Ada Lovelace"))
    touch.lift(began["token"])
    assert len(begins) == 1, "only the long-press began a drag"


def test_a_touch_drag_held_over_a_closed_box_opens_it_and_drops_inside(touch):
    page = touch.page
    before = version(page)
    blue = page.locator('[data-item="box-blue"]')
    began = touch.long_press(row(page, "cat-2", "Bell ball"))
    touch.move(*point_in(blue.locator(":scope > .title"), "middle"))
    expect(blue).to_have_attribute("data-spring-loading", "")
    expect(blue.locator(":scope > details")).to_have_attribute("open", "")
    touch.move(*point_in(list_of(page, "box-blue"), "middle"), steps=3)
    expect(list_of(page, "box-blue")).to_have_attribute("data-drop-operation", "move")
    assert touch.lift(began["token"])["operation"] == "move"
    wait_version(page, before + 1)
    expect(title_cells(page, "box-blue")).to_have_text(["Bell ball"])


def test_a_touch_drag_held_near_the_bottom_of_the_window_scrolls_it(touch):
    page = touch.page
    began = touch.long_press(row(page, "cat-2", "Bell ball"))
    height = page.evaluate("() => window.innerHeight")
    touch.move(touch.x, height - 12)
    # The finger stays still; the page scrolls on its own, to its end.
    page.wait_for_function("() => window.scrollY > 0 && window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1")
    with page.expect_response(lambda response: is_session_call(response.url, "end") and began["token"] in response.url) as ended:
        touch.cancel()
    assert ended.value.json()["operation"] == "cancel"
