"""Apple's table-view sample, played by the places list: from places one row moves and several
cancel; rows from anywhere else are copied; a drop below the last row appends."""
from playwright.sync_api import expect

from helpers import (board_state, expect_indicator_at, list_of, row, start_drag, title_cells, top_of, version,
                     wait_version)

PLACES = ["Paris", "Lisbon", "Oslo", "Kyoto", "Reykjavík"]


def test_one_place_dragged_within_places_moves(page, server):
    before = version(page)
    session = start_drag(page, row(page, "places", "Paris"))
    session.hover(row(page, "places", "Oslo"), "bottom")
    expect(list_of(page, "places")).to_have_attribute("data-drop-operation", "move")
    expect(list_of(page, "places")).to_have_attribute("data-drop-intent", "insert-at")
    expect_indicator_at(page, top_of(row(page, "places", "Kyoto")))  # the gap after Oslo
    dropped = session.release()

    assert dropped["operation"] == "move"
    wait_version(page, before + 1)
    expect(title_cells(page, "places")).to_have_text(["Lisbon", "Oslo", "Paris", "Kyoto", "Reykjavík"])


def test_two_selected_places_dragged_within_places_cancel_and_change_nothing(page, server):
    before, state = version(page), board_state(page)
    row(page, "places", "Lisbon").click(modifiers=["Control"])
    row(page, "places", "Kyoto").click(modifiers=["Control"])
    expect(page.locator("[data-list='places'] > .rows > .is-selected")).to_have_count(2)

    session = start_drag(page, row(page, "places", "Lisbon"))
    assert session.begun["count"] == 2
    session.hover(row(page, "places", "Reykjavík"), "bottom")
    expect(list_of(page, "places")).to_have_attribute("data-drop-operation", "cancel")
    expect(page.locator(".drop-indicator")).to_be_hidden()
    dropped = session.release()

    assert dropped is None, "a cancelled proposal must not reach the server as a drop"
    assert session.ended["operation"] == "cancel"
    assert version(page) == before
    assert board_state(page) == state


def test_toy_dragged_to_places_is_copied_with_a_plus_badge(page, server):
    before = version(page)
    session = start_drag(page, row(page, "cat-2", "Laser pointer"))
    session.hover(row(page, "places", "Lisbon"), "top")
    expect(list_of(page, "places")).to_have_attribute("data-drop-operation", "copy")
    expect(page.locator(".drop-badge--copy")).to_be_visible()
    expect(page.locator(".drop-badge--copy")).to_have_text("+")
    dropped = session.release()

    assert dropped["operation"] == "copy"
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Bell ball"])
    expect(title_cells(page, "places")).to_have_text(["Paris", "Laser pointer", "Lisbon", "Oslo", "Kyoto", "Reykjavík"])
    # The copy is a new item, not the toy's own row.
    copy_id = page.locator("[data-list='places'] > .rows > [data-item]").nth(1).get_attribute("data-item")
    original_id = row(page, "cat-2", "Laser pointer").get_attribute("data-item")
    assert copy_id != original_id
    expect(page.locator(".drop-badge")).to_be_hidden()


def test_toy_dropped_below_the_last_place_is_appended(page, server):
    before = version(page)
    places = list_of(page, "places")
    last = row(page, "places", "Reykjavík").bounding_box()
    box = places.bounding_box()
    assert box["y"] + box["height"] - (last["y"] + last["height"]) > 12, "the list needs empty space below its rows"

    session = start_drag(page, row(page, "cat-3", "Crinkle tunnel"))
    session.hover(places, (box["height"] - 6) / box["height"])
    expect(places).to_have_attribute("data-drop-operation", "copy")
    # The padding under the rows is the gap after the last row: the append line shows (issue 11).
    expect(places).to_have_attribute("data-drop-intent", "insert-at")
    expect_indicator_at(page, last["y"] + last["height"])
    session.release()

    wait_version(page, before + 1)
    expect(title_cells(page, "places")).to_have_text(PLACES + ["Crinkle tunnel"])
    expect(title_cells(page, "cat-3")).to_have_text(["Crinkle tunnel", "Scratching post"])
