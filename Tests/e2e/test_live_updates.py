"""Two tabs of one browser: a drop in one appears in the other without a reload, pushed over
Server-Sent Events."""
import pytest
from playwright.sync_api import expect

from helpers import READY, RECORD_SSE, board_state, drag, row, title_cells, version, wait_version


@pytest.fixture
def other_page(context, server):
    """A second tab on the same board, failing the test on any browser error, like `page`."""
    opened = context.new_page()
    errors = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    opened.add_init_script(RECORD_SSE)
    opened.goto(server.demo)
    opened.wait_for_function(READY)
    yield opened
    assert errors == [], f"browser errors in the second tab: {errors}"


def test_a_drop_in_one_tab_appears_in_the_other_without_reload(page, other_page, server):
    before = version(page)
    assert version(other_page) == before
    # The second tab listens before the drop happens.
    other_page.wait_for_function("() => window.__sse.some(([type]) => type === 'hello')")
    other_page.evaluate("""() => {
        window.__sameDocument = true;  // a reload would lose it
        window.__changes = [];
        document.querySelector('[data-board]').addEventListener('board:changed', (event) => window.__changes.push(event.detail));
    }""")
    board_fetches = []
    other_page.on("request", lambda request: board_fetches.append(request.url) if request.url.endswith("/api/board") else None)

    page.bring_to_front()
    drag(page, row(page, "cat-1", "Ball of yarn"), row(page, "cat-2", "Laser pointer"), position="top")
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Ball of yarn", "Laser pointer", "Bell ball"])

    wait_version(other_page, before + 1)
    expect(title_cells(other_page, "cat-1")).to_have_text(["Feather wand", "Catnip mouse"])
    expect(title_cells(other_page, "cat-2")).to_have_text(["Ball of yarn", "Laser pointer", "Bell ball"])
    assert other_page.evaluate("window.__sameDocument") is True
    pushed = other_page.evaluate("window.__sse.filter(([type]) => type === 'changes').length")
    assert pushed == 1, f"{pushed} 'changes' events reached the second tab"
    applied = other_page.evaluate("window.__changes")
    assert len(applied) == 1 and applied[0]["version"] == before + 1 and applied[0].get("changes"), \
        "the second tab must apply the pushed changes, not refetch the board"
    assert board_fetches == []
    assert other_page.get_attribute("[data-board]", "data-version") == page.get_attribute("[data-board]", "data-version")
    assert board_state(other_page) == board_state(page)
    # The moved row is the same item in both tabs.
    assert (row(other_page, "cat-2", "Ball of yarn").get_attribute("data-item")
            == row(page, "cat-2", "Ball of yarn").get_attribute("data-item"))


#: Holds the 'changes' events the page's EventSource receives while `window.__held` is an array, so
#: a test can hand them to the app in another order, as two threads pushing one group commit may.
HOLD_SSE = """
(() => {
  const Native = window.EventSource;
  window.__held = null;
  window.EventSource = class extends Native {
    addEventListener(type, listener, options) {
      if (type !== 'changes') return super.addEventListener(type, listener, options);
      return super.addEventListener(type, (event) => {
        if (window.__held) window.__held.push(() => listener(event)); else listener(event);
      }, options);
    }
  };
  window.__release = (order) => { const held = window.__held; window.__held = null; for (const i of order) held[i](); };
})();
"""


def test_changes_pushed_out_of_order_are_applied_in_order_without_reading_the_board(page, context, server):
    other = context.new_page()
    other.add_init_script(HOLD_SSE)
    other.goto(server.demo)
    other.wait_for_function(READY)
    before = version(other)
    board_fetches = []
    other.on("request", lambda request: board_fetches.append(request.url) if request.url.endswith("/api/board") else None)
    other.evaluate("window.__held = []")

    page.bring_to_front()
    drag(page, row(page, "cat-1", "Ball of yarn"), row(page, "cat-2", "Laser pointer"), position="top")
    wait_version(page, before + 1)
    drag(page, row(page, "cat-1", "Feather wand"), row(page, "cat-3", "Scratching post"), position="top")
    wait_version(page, before + 2)
    other.wait_for_function("() => window.__held.length === 2")

    other.evaluate("window.__release([1, 0])")   # version before + 2 first, then before + 1
    wait_version(other, before + 2)
    assert board_state(other) == board_state(page)
    assert board_fetches == [], "the page read the whole board again instead of waiting for the earlier change"
