"""The label shows the text of the last thing dropped on it, escaped: text from another app, or a
row of the board (copied: the row stays where it was). It keeps its text across reloads."""
from playwright.sync_api import expect

from data_helpers import ExternalDrag, drop_and_wait, label_text, zone
from helpers import board_state, row, start_drag, title_cells, version


def fit_in_viewport(page, *locators):
    """Makes the viewport tall enough to hold every locator without scrolling (a real-mouse drag
    cannot scroll the page)."""
    bottom = max(box["y"] + box["height"] for box in (locator.bounding_box() for locator in locators))
    size = page.viewport_size
    if bottom + 20 > size["height"]:
        page.set_viewport_size({"width": size["width"], "height": int(bottom) + 40})


def drop_text_on_label(page, text):
    label = zone(page, "label")
    drag = ExternalDrag(page, items=[("text/plain", text)])
    drag.enter(label)
    expect(label).to_have_attribute("data-drop-operation", "copy")
    answer = drop_and_wait(page, drag)
    assert answer["operation"] == "copy", answer
    return answer


def test_external_text_dropped_on_the_label_is_shown_and_kept(page, server):
    state = board_state(page)
    drop_text_on_label(page, "Hello World")
    expect(label_text(page)).to_have_text("Hello World")
    expect(page.locator("[data-drop-operation]")).to_have_count(0)
    assert board_state(page) == state, "a drop on the label changes no list"

    page.reload()
    expect(label_text(page)).to_have_text("Hello World")
    assert board_state(page) == state


def test_the_label_shows_the_last_text_dropped(page, server):
    drop_text_on_label(page, "First")
    expect(label_text(page)).to_have_text("First")
    drop_text_on_label(page, "Second")
    expect(label_text(page)).to_have_text("Second")
    page.reload()
    expect(label_text(page)).to_have_text("Second")


def test_markup_dropped_on_the_label_is_shown_literally(page, server):
    drop_text_on_label(page, "<b>x</b>")
    expect(label_text(page)).to_have_text("<b>x</b>")
    expect(page.locator('[data-zone="label"] b')).to_have_count(0)
    page.reload()
    expect(label_text(page)).to_have_text("<b>x</b>")
    expect(page.locator('[data-zone="label"] b')).to_have_count(0)


def test_a_row_of_the_board_dropped_on_the_label_is_copied_there(page, server):
    label = zone(page, "label")
    toy = row(page, "cat-1", "Ball of yarn")
    fit_in_viewport(page, toy, label)
    before = version(page)

    session = start_drag(page, toy)
    session.hover(label)
    expect(label).to_have_attribute("data-drop-operation", "copy")
    expect(page.locator(".drop-badge--copy")).to_be_visible()
    dropped = session.release()

    assert dropped is not None and dropped["operation"] == "copy", dropped
    expect(label_text(page)).to_have_text("Ball of yarn")
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Feather wand", "Catnip mouse"])
    expect(page.locator("[data-drop-operation]")).to_have_count(0)
    expect(page.locator(".is-dragging")).to_have_count(0)
    assert version(page) >= before

    page.reload()
    expect(label_text(page)).to_have_text("Ball of yarn")
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Feather wand", "Catnip mouse"])
