"""Keyboard dragging: rows picked up, moved and dropped with keys alone, through the same
proposal table and server decisions as the mouse; the server's words in the polite live region."""
from playwright.sync_api import expect

from helpers import expect_no_drop_feedback, list_of, row, rows, title_cells, version, wait_version

STATUS = "#status"


def pick_up(page, row_locator):
    """Focuses a row and presses Space; waits for the server's pick-up words."""
    row_locator.focus()
    page.keyboard.press("Space")
    expect(page.locator(STATUS)).to_contain_text("Picked up")


def test_each_list_is_one_tab_stop_and_arrows_move_the_focus_within_it(page):
    whiskers = rows(page, "cat-1")
    expect(whiskers.nth(0)).to_have_attribute("tabindex", "0")
    expect(whiskers.nth(1)).to_have_attribute("tabindex", "-1")
    expect(whiskers.nth(0)).to_have_attribute("aria-describedby", "drag-help")
    assert "Space or Enter to pick up" in page.locator("#drag-help").text_content()
    # What a screen reader says on focus: the title (not its buttons), then how to drag it.
    expect(whiskers.nth(0)).to_have_accessible_name("Ball of yarn")
    expect(whiskers.nth(0)).to_have_accessible_description(
        "Press Space or Enter to pick up. Then Up and Down arrows choose the place, Left and Right arrows the list, "
        "Space or Enter drops, Escape cancels. F2 renames, Delete deletes.")
    whiskers.nth(0).focus()
    page.keyboard.press("ArrowDown")
    expect(whiskers.nth(1)).to_be_focused()
    expect(whiskers.nth(1)).to_have_attribute("tabindex", "0")
    expect(whiskers.nth(0)).to_have_attribute("tabindex", "-1")
    page.keyboard.press("End")
    expect(whiskers.nth(2)).to_be_focused()
    # Shift+arrows extend the selection; Ctrl+Space toggles a row.
    page.keyboard.press("Shift+ArrowUp")
    expect(page.locator(".is-selected")).to_have_count(2)
    expect(whiskers.nth(1)).to_have_attribute("aria-describedby", "row-selected drag-help")
    page.keyboard.press("Control+Space")
    expect(page.locator(".is-selected")).to_have_count(1)
    expect(page.locator(STATUS)).to_have_text("")   # nothing was picked up


def test_a_row_moves_to_another_list_with_the_keyboard_and_keeps_the_focus(page):
    before = version(page)
    mouse = row(page, "cat-1", "Catnip mouse")
    pick_up(page, mouse)
    expect(page.locator(STATUS)).to_have_text("Picked up Catnip mouse, 3 of 3 in Whiskers.")
    expect(list_of(page, "cat-1")).to_have_attribute("data-drop-operation", "move")
    page.keyboard.press("ArrowRight")
    tom = list_of(page, "cat-2")
    expect(tom).to_have_attribute("data-drop-operation", "move")
    expect(tom).to_have_attribute("data-drop-intent", "insert-at")
    expect(list_of(page, "cat-1")).not_to_have_attribute("data-drop-operation", "move")
    expect(page.locator(".drop-indicator")).to_be_visible()
    expect(page.locator(STATUS)).to_have_text("Tom, position 1 of 3: move.")
    page.keyboard.press("ArrowDown")
    expect(page.locator(STATUS)).to_have_text("Tom, position 2 of 3: move.")
    page.keyboard.press("Space")
    wait_version(page, before + 1)
    expect(page.locator(STATUS)).to_have_text("Moved Catnip mouse from Whiskers to Tom.")
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Catnip mouse", "Bell ball"])
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Feather wand"])
    expect(row(page, "cat-2", "Catnip mouse")).to_be_focused()
    expect_no_drop_feedback(page)
    page.reload()
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Catnip mouse", "Bell ball"])


def test_a_toy_goes_into_a_box_with_the_keyboard(page):
    before = version(page)
    pick_up(page, row(page, "cat-2", "Bell ball"))
    for _ in range(3):   # Tom → Luna → Places → People → Toy boxes; refusals are passed through
        page.keyboard.press("ArrowRight")
    expect(page.locator(STATUS)).to_have_text("People: cannot drop here.")
    page.keyboard.press("ArrowRight")
    expect(page.locator(STATUS)).to_have_text("Toy boxes, position 1 of 4: move.")
    page.keyboard.press("ArrowDown")
    boxes = list_of(page, "toy-boxes")
    expect(boxes).to_have_attribute("data-drop-intent", "insert-into")
    expect(row(page, "toy-boxes", "Red box")).to_have_attribute("data-drop-into", "")
    expect(page.locator(STATUS)).to_have_text("Toy boxes, into Red box: move.")
    page.keyboard.press("Enter")
    wait_version(page, before + 1)
    expect(page.locator(STATUS)).to_have_text("Put Bell ball into Red box.")
    red = row(page, "toy-boxes", "Red box")
    expect(red.locator(".count")).to_have_text("2")
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer"])
    expect(red).to_be_focused()


def test_escape_cancels_and_the_focus_stays_on_the_row(page):
    before = version(page)
    feather = row(page, "cat-1", "Feather wand")
    pick_up(page, feather)
    page.keyboard.press("ArrowRight")
    expect(page.locator(STATUS)).to_have_text("Tom, position 1 of 3: move.")
    page.keyboard.press("Escape")
    expect(page.locator(STATUS)).to_have_text("Cancelled. Feather wand stays in Whiskers.")
    expect(feather).to_be_focused()
    expect_no_drop_feedback(page)
    expect(page.locator(".is-dragging")).to_have_count(0)
    assert version(page) == before
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Feather wand", "Catnip mouse"])


def test_a_forbidden_target_is_announced_with_its_reason_and_nothing_drops(page):
    before = version(page)
    ada = row(page, "people", "Ada Lovelace")
    pick_up(page, ada)
    for _ in range(3):   # People → Places → Luna → Tom
        page.keyboard.press("ArrowLeft")
    tom = list_of(page, "cat-2")
    expect(tom).to_have_attribute("data-drop-operation", "forbidden")
    expect(page.locator(".drop-badge")).to_contain_text("Tom only plays with toys, not with people")
    expect(page.locator(STATUS)).to_have_text("Tom: not allowed, Tom only plays with toys, not with people.")
    page.keyboard.press("Enter")   # refused: said again, still carried
    expect(page.locator(STATUS)).to_have_text("Tom: not allowed, Tom only plays with toys, not with people.")
    expect(ada).to_have_class("row row--person is-dragging")
    page.keyboard.press("Escape")
    expect(page.locator(STATUS)).to_have_text("Cancelled. Ada Lovelace stays in People.")
    assert version(page) == before
    expect(title_cells(page, "people")).to_have_text(["Ada Lovelace", "Alan Turing", "Grace Hopper"])


def test_a_selection_travels_together_and_f2_still_renames(page):
    before = version(page)
    whiskers = rows(page, "cat-1")
    whiskers.nth(0).focus()
    page.keyboard.press("Shift+ArrowDown")
    expect(page.locator(".is-selected")).to_have_count(2)
    page.keyboard.press("Space")
    expect(page.locator(STATUS)).to_have_text("Picked up 2 items, Ball of yarn and Feather wand, from Whiskers.")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator(STATUS)).to_have_text("Luna, position 1 of 3: move.")
    page.keyboard.press("Enter")
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-3")).to_have_text(["Ball of yarn", "Feather wand", "Crinkle tunnel", "Scratching post"])
    row(page, "cat-1", "Catnip mouse").focus()
    page.keyboard.press("F2")
    expect(page.locator(".inline-edit")).to_be_focused()
    page.keyboard.press("Escape")


def test_keys_typed_ahead_of_the_servers_answer_act_in_order(page):
    before = version(page)
    row(page, "cat-1", "Ball of yarn").focus()
    for key in ["Space", "ArrowRight", "ArrowDown", "ArrowDown", "Enter"]:   # no wait for the pick-up answer
        page.keyboard.press(key)
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Bell ball", "Ball of yarn"])
    expect(row(page, "cat-2", "Ball of yarn")).to_be_focused()


def test_a_toy_comes_out_of_a_box_with_the_keyboard(page):
    """A box's contents are a list of their own: one tab stop, arrows within it, and a toy picked
    up there leaves the box for a cat."""
    before = version(page)
    green = page.locator('[data-item="box-green"]')
    green.locator(":scope > details > summary").focus()
    page.keyboard.press("Enter")   # the summary opens the box, as a click would
    expect(green.locator(":scope > details")).to_have_attribute("open", "")
    toys = rows(page, "box-green")
    expect(toys).to_have_count(2)
    expect(toys.nth(0)).to_have_attribute("tabindex", "0")
    expect(toys.nth(1)).to_have_attribute("tabindex", "-1")
    toys.nth(0).focus()
    page.keyboard.press("ArrowDown")
    marble = row(page, "box-green", "Marble")
    expect(marble).to_be_focused()
    pick_up(page, marble)
    expect(page.locator(STATUS)).to_have_text("Picked up Marble, 2 of 2 in Green box.")
    said = page.locator(STATUS).inner_text()
    for _ in range(12):   # target by target, back through the page, until Tom: each one is said
        page.keyboard.press("ArrowLeft")
        expect(page.locator(STATUS)).not_to_have_text(said)
        said = page.locator(STATUS).inner_text()
        if said.startswith("Tom,"):
            break
    expect(page.locator(STATUS)).to_have_text("Tom, position 1 of 3: move.")
    page.keyboard.press("Space")
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Marble", "Laser pointer", "Bell ball"])
    expect(green.locator(":scope > details .count")).to_have_text("1")
    expect(row(page, "cat-2", "Marble")).to_be_focused()
