"""Cats forbid people with a reason; people cannot handle toys at all (no copy, no move)."""
import re

from playwright.sync_api import expect

from helpers import board_state, expect_no_drop_feedback, list_of, row, start_drag, version


def test_person_over_a_cat_is_forbidden_with_the_servers_reason_and_changes_nothing(page, server):
    before, state = version(page), board_state(page)
    session = start_drag(page, row(page, "people", "Ada Lovelace"))
    session.hover(row(page, "cat-2", "Laser pointer"), "middle")
    cat = list_of(page, "cat-2")
    expect(cat).to_have_attribute("data-drop-operation", "forbidden")
    badge = page.locator(".drop-badge--forbidden")
    expect(badge).to_be_visible()
    expect(badge).to_contain_text(re.compile(r"\bpeople\b"))
    expect(badge).to_contain_text("Tom only plays with toys")
    expect(page.locator(".drop-indicator")).to_be_hidden()
    dropped = session.release()

    assert dropped is None, "a forbidden proposal must not be dropped"
    assert session.ended["operation"] == "cancel", "the server must say the session ended without a drop"
    expect_no_drop_feedback(page)
    assert version(page) == before
    assert board_state(page) == state


def test_toy_over_people_is_not_handled_so_nothing_is_offered_or_changed(page, server):
    before, state = version(page), board_state(page)
    session = start_drag(page, row(page, "cat-1", "Ball of yarn"))
    session.hover(row(page, "people", "Alan Turing"), "top")
    people = list_of(page, "people")
    expect(people).to_have_attribute("data-drop-operation", "cancel")
    expect(people).to_have_attribute("data-drop-intent", "unspecified")
    expect(page.locator(".drop-indicator")).to_be_hidden()
    # Not handled, and the engine's rule says so (issue 11: every cancel says why).
    expect(page.locator(".drop-badge--cancel")).to_have_text("⊘ This target does not take these items")
    dropped = session.release()
    expect(page.locator(".drop-badge")).to_be_hidden()

    assert dropped is None
    assert session.ended["operation"] == "cancel"
    assert version(page) == before
    assert board_state(page) == state
