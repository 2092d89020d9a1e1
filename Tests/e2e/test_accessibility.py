"""An automated accessibility check (axe-core): no serious or critical violation on the board
page, the index, a row's move page, an open card (its dialog and its page) and the sign-in page, in
the light theme and in the dark one (a browser that prefers dark gets it: the stylesheet follows
`prefers-color-scheme`), before and during a keyboard drag and with a row selected."""
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from helpers import row
from test_accounts import accounts_server  # noqa: F401 (a fixture)

SEVERE = {"serious", "critical"}


@pytest.fixture(params=["light", "dark"])
def context(request, browser):
    """Every test of this file twice: the browser prefers the light theme, then the dark one."""
    created = browser.new_context(viewport={"width": 1800, "height": 1000}, color_scheme=request.param)   # as conftest's
    yield created
    created.close()


def severe_violations(page) -> list[str]:
    """axe's serious and critical violations, once the page shows the theme its context prefers (a dark
    context must get a dark page: axe on a light page in a 'dark' test would check nothing new) and what
    moves has arrived (a dialog fading in is half transparent: its contrast is not the one it ends with)."""
    page.wait_for_function("""() => document.getAnimations()
        .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity)""")
    prefers_dark, dark = page.evaluate("""() => {
        // The colour behind the text: the body's, else the root's (transparent is alpha 0), else the canvas's white.
        const shown = [document.body, document.documentElement]
            .map((element) => getComputedStyle(element).backgroundColor.match(/[\\d.]+/g).map(Number))
            .find(([, , , alpha = 1]) => alpha > 0) || [255, 255, 255];
        const [r, g, b] = shown;
        return [matchMedia('(prefers-color-scheme: dark)').matches, (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 < 0.5];
    }""")
    assert dark == prefers_dark, f"the browser prefers {'dark' if prefers_dark else 'light'}, the page is not"
    results = Axe().run(page)
    return [f"{violation['id']} ({violation['impact']}): {violation['help']} — "
            + "; ".join(node["target"][0] if isinstance(node["target"][0], str) else str(node["target"]) for node in violation["nodes"][:5])
            for violation in results.response["violations"] if violation["impact"] in SEVERE]


def test_the_demo_board_has_no_serious_violation(page):
    assert severe_violations(page) == []


def test_a_selected_row_and_a_keyboard_drag_have_no_serious_violation(page):
    whiskers = row(page, "cat-1", "Ball of yarn")
    whiskers.focus()
    page.keyboard.press("Shift+ArrowDown")
    expect(page.locator(".is-selected")).to_have_count(2)
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#status")).to_have_text("Tom, position 1 of 3: move.")
    assert severe_violations(page) == []
    page.keyboard.press("Escape")


def test_the_index_and_a_move_page_have_no_serious_violation(page, server):
    page.goto(server.url + "/")
    expect(page.locator("[data-board-link]").first).to_be_visible()
    assert severe_violations(page) == []
    item = "box-red"
    page.goto(f"{server.demo}/move?item={item}")
    expect(page.locator('form[data-form="move"]')).to_be_visible()
    assert severe_violations(page) == []


def test_an_open_card_and_its_page_have_no_serious_violation(page, server):
    """The card's dialog on the board (a click on the card opens it), then the card's own page."""
    toy = row(page, "cat-1", "Ball of yarn")
    toy.locator(".title").click()
    dialog = page.locator('dialog[data-dialog="card"][open]')
    expect(dialog.locator('form[data-form="card-details"]')).to_be_visible()
    assert severe_violations(page) == []
    page.goto(f"{server.demo}/cards/{toy.get_attribute('data-item')}")
    expect(page.locator('form[data-form="card-details"]')).to_be_visible()
    assert severe_violations(page) == []


def test_the_sign_in_page_has_no_serious_violation(context, accounts_server):
    page = context.new_page()
    page.goto(accounts_server.url + "/login")
    expect(page.locator('form[data-form="login"]')).to_be_visible()
    assert severe_violations(page) == []
