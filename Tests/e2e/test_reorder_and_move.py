"""Toys reordered within a cat, moved between cats, and a multi-row selection dragged at once."""
from playwright.sync_api import expect

from helpers import (bottom_of, expect_indicator_at, list_of, row, start_drag, title_cells, top_of, version,
                     wait_version)


def test_toy_dropped_on_lower_half_of_last_row_becomes_last_of_its_cat(page, server):
    before = version(page)
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Feather wand", "Catnip mouse"])

    session = start_drag(page, row(page, "cat-1", "Ball of yarn"))
    session.hover(row(page, "cat-1", "Catnip mouse"), "bottom")
    expect(list_of(page, "cat-1")).to_have_attribute("data-drop-operation", "move")
    expect(list_of(page, "cat-1")).to_have_attribute("data-drop-intent", "insert-at")
    expect_indicator_at(page, bottom_of(row(page, "cat-1", "Catnip mouse")))
    session.release()

    wait_version(page, before + 1)
    expect(title_cells(page, "cat-1")).to_have_text(["Feather wand", "Catnip mouse", "Ball of yarn"])
    expect(page.locator("#status")).to_have_text("Moved Ball of yarn to Whiskers.")


def test_toy_moved_to_another_cat_leaves_the_first_and_lands_at_the_hovered_index(page, server):
    before = version(page)
    session = start_drag(page, row(page, "cat-1", "Feather wand"))
    session.hover(row(page, "cat-2", "Bell ball"), "top")
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-operation", "move")
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-intent", "insert-at")
    expect_indicator_at(page, top_of(row(page, "cat-2", "Bell ball")))
    dropped = session.release()

    assert dropped is not None and dropped["operation"] == "move"
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Catnip mouse"])
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Feather wand", "Bell ball"])
    expect(page.locator("#status")).to_have_text("Moved Feather wand from Whiskers to Tom.")


def test_dragging_one_of_two_selected_toys_moves_both_in_list_order(page, server):
    before = version(page)
    # Select the last and the first toy (not adjacent), in reverse order on purpose.
    row(page, "cat-1", "Catnip mouse").click(modifiers=["Control"])
    row(page, "cat-1", "Ball of yarn").click(modifiers=["Control"])
    expect(page.locator("[data-list='cat-1'] > .rows > .is-selected > .title")).to_have_text(["Ball of yarn", "Catnip mouse"])
    expect(row(page, "cat-1", "Feather wand")).not_to_have_class("is-selected")

    session = start_drag(page, row(page, "cat-1", "Catnip mouse"))
    assert session.begun["count"] == 2, "the drag must carry the whole selection"
    session.hover(row(page, "cat-3", "Scratching post"), "top")
    expect(list_of(page, "cat-3")).to_have_attribute("data-drop-operation", "move")
    session.release()

    wait_version(page, before + 1)
    expect(title_cells(page, "cat-1")).to_have_text(["Feather wand"])
    expect(title_cells(page, "cat-3")).to_have_text(["Crinkle tunnel", "Ball of yarn", "Catnip mouse", "Scratching post"])
    expect(page.locator("#status")).to_have_text("Moved Ball of yarn and Catnip mouse from Whiskers to Luna.")
