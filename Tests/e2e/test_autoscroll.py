"""Auto-scroll: a long list scrolls inside itself, and a drag held near its bottom edge scrolls it
to its end (a requestAnimationFrame loop from the last pointer position: Playwright's drag sends
no dragover while the mouse is still), loading the rows beyond the first window on the way,
then drops there. The rows (enough to pass the first window of 100 and to scroll a while) are made
through the board's own form routes. Every wait is for the page's state, never a sleep."""
from playwright.sync_api import expect

from helpers import list_of, row, start_drag, title_cells
from data_helpers import POST_FORM, READY

MAKE_BOARD = """async ({ count }) => {
  const post = (path, fields) => (""" + POST_FORM + """)([path, fields]);
  const board = await post('/boards', { title: 'Long lists' });
  const id = board.location.split('/').pop();
  await post(`/boards/${id}/lists`, { title: 'Short', kind: 'cards' });
  await post(`/boards/${id}/lists`, { title: 'Long', kind: 'cards' });
  const page = await (await fetch(`/boards/${id}`)).text();
  const lists = [...new DOMParser().parseFromString(page, 'text/html').querySelectorAll('.list[data-list]')];
  const listID = (title) => lists.find((list) => list.getAttribute('aria-label') === title).dataset.list;
  await post(`/boards/${id}/lists/${listID('Short')}/items`, { title: 'Traveller' });
  for (let index = 1; index <= count; index += 1) {
    await post(`/boards/${id}/lists/${listID('Long')}/items`, { title: `Card ${String(index).padStart(3, '0')}` });
  }
  return { board: id, short: listID('Short'), long: listID('Long') };
}"""

#: Rows in the long list: past the kit's first window of 100, few enough to scroll through in seconds.
COUNT = 130
AT_END = "rows => rows.scrollTop > 0 && rows.scrollTop + rows.clientHeight >= rows.scrollHeight - 1"


def test_a_drag_held_at_the_bottom_of_a_long_list_scrolls_it_to_its_end_and_drops_there(page, server):
    made = page.evaluate(MAKE_BOARD, {"count": COUNT})
    page.goto(f"{server.url}/boards/{made['board']}")
    page.wait_for_function(READY)
    long_rows = list_of(page, made["long"]).locator(":scope > .rows")
    # The page renders the first 100 rows (the kit's window); the rest load as the list scrolls.
    expect(list_of(page, made["long"])).to_have_attribute("data-row-count", str(COUNT))
    expect(title_cells(page, made["long"])).to_have_count(100)
    metrics = long_rows.evaluate("rows => [rows.scrollTop, rows.clientHeight, rows.scrollHeight]")
    assert metrics[0] == 0 and metrics[2] > 4 * metrics[1], f"the long list scrolls inside itself: {metrics}"
    version = int(page.locator("[data-board]").get_attribute("data-version"))

    session = start_drag(page, row(page, made["short"], "Traveller"))
    box = long_rows.bounding_box()
    session.move_to(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(list_of(page, made["long"])).to_have_attribute("data-drop-operation", "move")
    assert long_rows.evaluate("rows => rows.scrollTop") == 0, "the middle of the list is no place to scroll"
    # Held still 30 px above the bottom edge (nearer, Chromium's own drag autoscroll would take
    # over): the list scrolls on its own, to its end.
    session.move_to(box["x"] + box["width"] / 2, box["y"] + box["height"] - 30)
    page.wait_for_function(f"rows => rows.querySelectorAll(':scope > [data-item]').length === {COUNT} && ({AT_END})(rows)",
                           arg=long_rows.element_handle(), timeout=40000)
    last = title_cells(page, made["long"]).last
    expect(last).to_be_in_viewport()
    expect(last).to_have_text(f"Card {COUNT}")
    session.hover(row(page, made["long"], f"Card {COUNT}"), 0.85, steps=2)
    dropped = session.release()

    assert dropped and dropped["operation"] == "move", dropped
    expect(page.locator("[data-board]")).to_have_attribute("data-version", str(version + 1))
    expect(title_cells(page, made["long"])).to_have_count(COUNT + 1)
    expect(title_cells(page, made["long"]).last).to_have_text("Traveller")
    expect(title_cells(page, made["short"])).to_have_count(0)
