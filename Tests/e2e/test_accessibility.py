"""An automated accessibility check (axe-core): no serious or critical violation on the board
page, the index and a row's move page, before and during a keyboard drag and with a row selected."""
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from helpers import row

SEVERE = {"serious", "critical"}


def severe_violations(page) -> list[str]:
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
