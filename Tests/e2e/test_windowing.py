"""Windowed long lists: the page renders the first rows of each list (a window of 10 here, with
three 60-row cats seeded by `DragboardBench seed`), the rest load as the list scrolls, while a
drag auto-scrolls it, and as a keyboard move or the focus reaches the last loaded row; live
changes beyond the loaded rows only change the count; a window read at an older version is
never joined; without JavaScript, "Show more" renders a wider window. Every wait is for the
page's state, never a sleep."""
import json
import pathlib
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from conftest import Server, _binary
from data_helpers import POST_FORM, READY
from helpers import list_of, row, start_drag, title_cells, version, wait_version
from test_accessibility import severe_violations

ROWS = 60
WINDOW = 10
LOADED = "([list, n]) => document.querySelectorAll(`[data-list=\"${list}\"] > .rows > [data-item]`).length > n"
AT_END = "rows => rows.scrollTop > 0 && rows.scrollTop + rows.clientHeight >= rows.scrollHeight - 1"


@pytest.fixture
def server():
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-window-"))
    database = directory / "board.sqlite"
    subprocess.run([str(_binary().parent / "DragboardBench"), "seed", str(database), str(ROWS)], check=True, capture_output=True)
    running = Server(database, "--row-window", str(WINDOW)).start()
    yield running
    running.stop()
    shutil.rmtree(directory, ignore_errors=True)


# Resolves once no list is loading rows and none starts to in the next two frames: a list
# observed by paging.js hears whether its last row is in view within a frame of being watched.
SETTLED = """async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  for (;;) {
    while (document.querySelector('[data-list][aria-busy="true"]')) await frame();
    await frame();
    await frame();
    if (!document.querySelector('[data-list][aria-busy="true"]')) return;
  }
}"""


@pytest.fixture(autouse=True)
def settled(page):
    """Every test starts from a page whose windows have stopped loading (rows load as soon as a
    list's end is in view, which the first window of a tall viewport may be)."""
    page.bring_to_front()
    page.evaluate(SETTLED)


def loaded_ids(page, list_id: str) -> list[str]:
    return page.eval_on_selector_all(f'[data-list="{list_id}"] > .rows > [data-item]', "rows => rows.map((row) => row.dataset.item)")


def server_ids(server, list_id: str) -> list[str]:
    """The list's rows in the server's order, through the rows route, window after window."""
    ids: list[str] = []
    while True:
        query = f"?after={ids[-1]}&count=1000" if ids else "?count=1000"
        with urllib.request.urlopen(f"{server.demo}/api/lists/{list_id}/rows{query}") as response:
            answer = json.load(response)
        more = re.findall(r'<li class="row[^"]*" data-item="([^"]+)"', answer["html"])
        if not more:
            return ids
        ids += more


def scroll_to_the_end(page, list_id: str) -> None:
    """Scrolls the list with the mouse wheel until every row is loaded (in the front tab: a
    background tab gets no animation frames and its timers run once a second)."""
    page.bring_to_front()
    rows = list_of(page, list_id).locator(":scope > .rows")
    total = int(list_of(page, list_id).get_attribute("data-row-count"))
    while (count := len(loaded_ids(page, list_id))) < total:
        rows.hover()
        page.mouse.wheel(0, 4000)
        page.wait_for_function(LOADED, arg=[list_id, count])


def test_the_first_rows_render_and_the_rest_load_in_order_as_the_list_scrolls(page, server):
    with urllib.request.urlopen(server.demo) as response:
        markup = response.read().decode()
    whiskers = markup[markup.index('data-list="cat-1"'):]
    whiskers = whiskers[:whiskers.index("</section>")]
    assert len(re.findall(r'<li class="row', whiskers)) == WINDOW, "the server renders only the first rows"
    assert f"(10 of {ROWS} shown)" in whiskers

    cats = list_of(page, "cat-1")
    expect(cats).to_have_attribute("data-row-count", str(ROWS))
    first = loaded_ids(page, "cat-1")
    assert WINDOW <= len(first) < ROWS, "rows load only while the list's end is in view"
    expect(cats.locator("[data-show-more] [data-shown]")).to_have_text(f"({len(first)} of {ROWS} shown)")
    scroll_to_the_end(page, "cat-1")
    assert loaded_ids(page, "cat-1") == server_ids(server, "cat-1"), "every row once, in the server's order"
    expect(cats.locator("[data-show-more]")).to_have_count(0)
    expect(title_cells(page, "cat-1").last).to_have_text(f"Toy cat-1 {ROWS - 4}")
    page.screenshot(path=str(pathlib.Path(tempfile.gettempdir()) / "windowing-scrolled.png"))


def test_a_real_drag_drops_on_a_row_that_loaded_during_its_auto_scroll(page, server):
    rows = list_of(page, "cat-1").locator(":scope > .rows")
    before = version(page)
    last_title = f"Toy cat-1 {ROWS - 4}"
    expect(row(page, "cat-1", last_title)).to_have_count(0)
    traveller = title_cells(page, "cat-2").first.text_content()
    session = start_drag(page, title_cells(page, "cat-2").first)
    box = rows.bounding_box()
    session.move_to(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(list_of(page, "cat-1")).to_have_attribute("data-drop-operation", "move")
    # Held near the bottom edge: the list scrolls, its next rows load, and it scrolls on to the end.
    session.move_to(box["x"] + box["width"] / 2, box["y"] + box["height"] - 30)
    page.wait_for_function(f"rows => rows.querySelectorAll(':scope > [data-item]').length === {ROWS} && ({AT_END})(rows)",
                           arg=rows.element_handle(), timeout=40000)
    session.hover(row(page, "cat-1", last_title), 0.85, steps=2)
    dropped = session.release()

    assert dropped and dropped["operation"] == "move", dropped
    assert dropped["counts"]["cat-1"] == ROWS + 1 and dropped["counts"]["cat-2"] == ROWS - 1
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-1")).to_have_count(ROWS + 1)
    expect(title_cells(page, "cat-1").last).to_have_text(traveller)
    assert loaded_ids(page, "cat-1") == server_ids(server, "cat-1")


def test_a_keyboard_move_goes_past_the_first_window_and_says_the_true_total(page, server):
    first = title_cells(page, "cat-1").first.text_content()
    start = len(loaded_ids(page, "cat-1"))
    # The next rows are held back until a key has already asked to go past the loaded ones.
    held = []
    page.route(re.compile(r"/api/lists/cat-1/rows"), lambda route: held.append(route) if not held else route.continue_())
    row(page, "cat-1", first).focus()
    page.keyboard.press("Space")
    expect(page.locator("#status")).to_contain_text(f"1 of {ROWS} in Whiskers")
    position = 1
    while position < start:
        said = page.locator("#status").text_content()
        page.keyboard.press("ArrowDown")
        expect(page.locator("#status")).not_to_have_text(said)
        moved = re.search(r"position (\d+) of (\d+)", page.locator("#status").text_content())
        assert moved and int(moved.group(1)) >= position, page.locator("#status").text_content()
        assert int(moved.group(2)) == ROWS, "the positions count every row, not the loaded ones"
        position = int(moved.group(1))
    deadline = time.monotonic() + 10   # a time, not a number of round trips: a busy machine is slower
    while not held and time.monotonic() < deadline:
        page.evaluate("0")   # the page's request reaches the route handler as Playwright takes in events
    assert held, "the carried row reached the last loaded row: the next rows are asked for"
    page.keyboard.press("ArrowDown")   # past the loaded rows, before the next ones are there
    held[0].continue_()
    expect(page.locator("#status")).to_have_text(f"Whiskers, position {start + 1} of {ROWS}: move.")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#status")).to_have_text(f"Whiskers, position {start + 2} of {ROWS}: move.")
    before = version(page)
    page.keyboard.press("Space")
    wait_version(page, before + 1)
    order = server_ids(server, "cat-1")
    assert order.index(row(page, "cat-1", first).get_attribute("data-item")) == start + 1, "the row went beyond the first loaded rows"
    assert loaded_ids(page, "cat-1") == order[:len(loaded_ids(page, "cat-1"))]


def test_end_focuses_the_last_loaded_row_and_the_next_rows_load_from_there(page, server):
    title_cells(page, "cat-1").first.evaluate("cell => cell.closest('[data-item]').focus()")
    loaded = len(loaded_ids(page, "cat-1"))
    page.keyboard.press("End")
    page.wait_for_function(LOADED, arg=["cat-1", loaded])
    focused = page.evaluate("document.activeElement.dataset.item")
    assert loaded_ids(page, "cat-1").index(focused) == loaded - 1
    page.keyboard.press("End")
    assert loaded_ids(page, "cat-1").index(page.evaluate("document.activeElement.dataset.item")) > loaded - 1


def test_live_changes_beyond_the_loaded_rows_change_the_count_and_nothing_is_lost_or_doubled(page, server, context, console_errors):
    other = console_errors.watch(context.new_page())
    other.goto(server.demo + "?list=cat-1&rows=60")
    other.wait_for_function(READY)
    loaded = len(loaded_ids(page, "cat-1"))
    everything = server_ids(server, "cat-1")
    before = version(page)
    catch_ups = []
    page.on("request", lambda request: catch_ups.append(request.url) if "/api/board" in request.url else None)
    # Another viewer deletes two rows the page has not loaded, and adds a card at the end.
    other.evaluate(POST_FORM, ["/boards/demo/items/delete", {"item": everything[50]}])
    other.evaluate(POST_FORM, ["/boards/demo/items/delete", {"item": everything[40]}])
    other.evaluate(POST_FORM, ["/boards/demo/lists/cat-1/items", {"title": "Latecomer"}])
    wait_version(page, before + 3)
    cats = list_of(page, "cat-1")
    expect(cats).to_have_attribute("data-row-count", str(ROWS - 1))
    assert loaded_ids(page, "cat-1") == everything[:loaded], "nothing beyond the loaded rows is put in out of place"
    expect(cats.locator("[data-show-more] [data-shown]")).to_have_text(f"({loaded} of {ROWS - 1} shown)")
    assert catch_ups == [], "changes beyond the loaded rows are applied, not caught up with a fetch of the board"
    scroll_to_the_end(page, "cat-1")
    assert loaded_ids(page, "cat-1") == server_ids(server, "cat-1")
    expect(title_cells(page, "cat-1").last).to_have_text("Latecomer")


def test_a_window_read_before_a_change_the_page_already_shows_is_read_again(page, server, context, console_errors):
    """The next rows are read at version v, someone deletes one of them, the page shows v+1, and
    only then does the window (of v, with the deleted row) arrive: it must not be joined."""
    held = []
    page.route(re.compile(r"/api/lists/cat-1/rows"), lambda route: held.append((route, route.fetch())) if not held else route.continue_())
    page.reload()
    page.wait_for_function(READY)
    while not held:   # the page asks for its next rows at once: its last row is in view
        page.evaluate("0")
    route, stale = held[0]
    window = re.findall(r'data-item="([^"]+)"', stale.json()["html"])
    assert stale.json()["version"] == version(page) and len(window) == WINDOW

    other = console_errors.watch(context.new_page())
    other.goto(server.demo)
    other.wait_for_function(READY)
    before = version(page)
    other.evaluate(POST_FORM, ["/boards/demo/items/delete", {"item": window[3]}])
    wait_version(page, before + 1)
    route.fulfill(response=stale)
    page.wait_for_function(LOADED, arg=["cat-1", WINDOW])
    assert window[3] not in loaded_ids(page, "cat-1")
    scroll_to_the_end(page, "cat-1")
    assert loaded_ids(page, "cat-1") == server_ids(server, "cat-1")
    assert len(set(loaded_ids(page, "cat-1"))) == ROWS - 1


def test_without_javascript_show_more_renders_a_wider_window_and_forms_still_work(browser, server):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 1000})
    try:
        plain = context.new_page()
        plain.goto(server.demo)
        expect(title_cells(plain, "cat-1")).to_have_count(WINDOW)
        plain.get_by_role("link", name=re.compile(r"^Show more of Whiskers")).click()
        expect(plain).to_have_url(re.compile(r"\?list=cat-1&rows=20#list-cat-1$"))
        expect(title_cells(plain, "cat-1")).to_have_count(2 * WINDOW)
        expect(title_cells(plain, "cat-2")).to_have_count(WINDOW)
        expect(list_of(plain, "cat-1").locator("[data-shown]")).to_have_text(f"(20 of {ROWS} shown)")
        # A plain form still works on the wider page, and the page after it says the new count.
        form = list_of(plain, "cat-2").locator('form[data-form="new-item"]')
        form.locator('textarea[name="title"]').fill("Posted without script")   # open without script
        form.locator('button[type="submit"]').click()
        expect(list_of(plain, "cat-2")).to_have_attribute("data-row-count", str(ROWS + 1))
        expect(list_of(plain, "cat-2").locator("[data-shown]")).to_have_text(f"({WINDOW} of {ROWS + 1} shown)")
    finally:
        context.close()


def test_a_windowed_board_has_no_serious_accessibility_violation(page):
    expect(list_of(page, "cat-1").locator("[data-show-more]")).to_have_count(1)
    assert severe_violations(page) == []
