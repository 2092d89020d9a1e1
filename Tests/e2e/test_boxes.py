"""Open toy boxes are lists of their own: toys dragged into one at an index and out again (to a
cat, to another box) with the real mouse, and a closed box opened by holding a drag over it
(spring-loading). Every wait is for the page's state, never a sleep."""
from playwright.sync_api import expect

from helpers import list_of, row, start_drag, title_cells, version, wait_version


def box(page, box_id):
    return page.locator(f'[data-item="{box_id}"]')


def open_box(page, box_id):
    box(page, box_id).locator(":scope > details > summary").click()
    expect(box(page, box_id).locator(":scope > details")).to_have_attribute("open", "")


def count_of(page, box_id):
    return box(page, box_id).locator(":scope > details .count")


def test_a_toy_dragged_into_an_open_box_lands_at_the_index_shown(page, server):
    before = version(page)
    open_box(page, "box-green")
    expect(title_cells(page, "box-green")).to_have_text(["Spinning top", "Marble"])

    session = start_drag(page, row(page, "cat-2", "Bell ball"))
    session.hover(row(page, "box-green", "Marble"), "top")
    contents = list_of(page, "box-green")
    expect(contents).to_have_attribute("data-drop-operation", "move")
    expect(contents).to_have_attribute("data-drop-intent", "insert-at")
    expect(list_of(page, "toy-boxes")).not_to_have_attribute("data-drop-operation", "move")
    dropped = session.release()

    assert dropped["operation"] == "move" and dropped["intent"] == "insert-at"
    wait_version(page, before + 1)
    expect(page.locator("#status")).to_have_text("Put Bell ball into Green box.")
    expect(title_cells(page, "box-green")).to_have_text(["Spinning top", "Bell ball", "Marble"])
    expect(count_of(page, "box-green")).to_have_text("3")
    # The box the server sent again is still open on this page.
    expect(box(page, "box-green").locator(":scope > details")).to_have_attribute("open", "")
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer"])
    page.reload()
    open_box(page, "box-green")
    expect(title_cells(page, "box-green")).to_have_text(["Spinning top", "Bell ball", "Marble"])


def test_a_toy_dragged_out_of_a_box_goes_to_a_cat(page, server):
    before = version(page)
    open_box(page, "box-red")
    session = start_drag(page, row(page, "box-red", "Rubber duck"))
    assert session.begun["table"], "a drag inside a box begins like any drag"
    session.hover(row(page, "cat-1", "Feather wand"), "top")
    expect(list_of(page, "cat-1")).to_have_attribute("data-drop-operation", "move")
    dropped = session.release()

    assert dropped["operation"] == "move"
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Rubber duck", "Feather wand", "Catnip mouse"])
    expect(title_cells(page, "box-red")).to_have_count(0)
    expect(count_of(page, "box-red")).to_have_text("0")
    page.reload()
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Rubber duck", "Feather wand", "Catnip mouse"])
    expect(count_of(page, "box-red")).to_have_text("0")


def test_a_toy_dragged_from_one_open_box_to_another(page, server):
    before = version(page)
    open_box(page, "box-red")
    open_box(page, "box-green")
    session = start_drag(page, row(page, "box-red", "Rubber duck"))
    session.hover(row(page, "box-green", "Marble"), "bottom")
    expect(list_of(page, "box-green")).to_have_attribute("data-drop-operation", "move")
    session.release()

    wait_version(page, before + 1)
    expect(title_cells(page, "box-green")).to_have_text(["Spinning top", "Marble", "Rubber duck"])
    expect(count_of(page, "box-green")).to_have_text("3")
    expect(count_of(page, "box-red")).to_have_text("0")
    expect(title_cells(page, "box-red")).to_have_count(0)


def test_a_box_never_goes_into_a_box(page, server):
    before = version(page)
    open_box(page, "box-green")
    session = start_drag(page, row(page, "toy-boxes", "Red box"), 0.15)
    session.hover(row(page, "box-green", "Marble"), "middle")
    contents = list_of(page, "box-green")
    expect(contents).to_have_attribute("data-drop-operation", "forbidden")
    expect(page.locator(".drop-badge")).to_have_text("⊘ a box never goes into a box")
    dropped = session.release()

    assert dropped is None or dropped["operation"] == "forbidden"
    assert version(page) == before
    expect(title_cells(page, "toy-boxes")).to_have_text(["Red box", "Blue box", "Green box"])


def test_holding_a_drag_over_a_closed_box_opens_it(page, server):
    before = version(page)
    red, blue = box(page, "box-red"), box(page, "box-blue")
    session = start_drag(page, row(page, "cat-2", "Bell ball"))
    # The page's timers wait for the test's clock while the pointer goes over the boxes: how long a step of
    # the mouse takes on a busy machine then decides nothing (a box opens 700 ms after the pointer came).
    page.clock.install()
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    # Over the red box first, then off it before it opens: leaving cancels its timer.
    session.hover(red, "middle")
    expect(red).to_have_attribute("data-spring-loading", "")
    session.hover(row(page, "cat-1", "Feather wand"), "middle", steps=1)
    expect(red).not_to_have_attribute("data-spring-loading", "")
    page.clock.run_for(2000)
    expect(red.locator(":scope > details")).not_to_have_attribute("open", "")
    # Held over the blue box, it opens (the cue shows while its timer runs) once its delay has passed.
    session.hover(blue, "middle")
    expect(blue).to_have_attribute("data-spring-loading", "")
    page.clock.run_for(600)
    expect(blue.locator(":scope > details")).not_to_have_attribute("open", "")
    page.clock.run_for(200)
    expect(blue.locator(":scope > details")).to_have_attribute("open", "")
    expect(blue).not_to_have_attribute("data-spring-loading", "")
    # Red's timer was cancelled by leaving: it never fired.
    expect(red.locator(":scope > details")).not_to_have_attribute("open", "")
    page.clock.resume()
    session.hover(list_of(page, "box-blue"), "middle")
    expect(list_of(page, "box-blue")).to_have_attribute("data-drop-operation", "move")
    session.release()

    wait_version(page, before + 1)
    expect(title_cells(page, "box-blue")).to_have_text(["Bell ball"])
    expect(count_of(page, "box-blue")).to_have_text("1")


def test_the_keyboard_reaches_a_closed_box_and_opens_it(page, server):
    before = version(page)
    bell = row(page, "cat-2", "Bell ball")
    bell.focus()
    page.keyboard.press("Space")
    expect(page.locator("#status")).to_contain_text("Picked up Bell ball")
    red_contents = list_of(page, "box-red")
    for _ in range(12):   # target by target, in page order, until the red box's contents
        page.keyboard.press("ArrowRight")
        if red_contents.get_attribute("data-drop-operation"):
            break
    expect(red_contents).to_have_attribute("data-drop-operation", "move")
    expect(box(page, "box-red").locator(":scope > details")).to_have_attribute("open", "")
    expect(page.locator("#status")).to_have_text("Red box, position 1 of 2: move.")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#status")).to_have_text("Red box, position 2 of 2: move.")
    page.keyboard.press("Space")
    wait_version(page, before + 1)
    expect(title_cells(page, "box-red")).to_have_text(["Rubber duck", "Bell ball"])
    expect(box(page, "box-red").locator(":scope > details")).to_have_attribute("open", "")
