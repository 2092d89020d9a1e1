"""Every path that ends a drag resets the page's drag state (issue 11, item 4): a drag from
another app that ends without a dragleave (DevTools' `dragCancel`, like a drag cancelled in the
other app), a refused drop, a drop, a release over nothing. A new drag always starts clean:
its own session, its own table, and no outline, line, "+" or badge left on screen."""
from playwright.sync_api import expect

from data_helpers import ExternalDrag, drop_and_wait, png_bytes, well_images, write, zone
from helpers import expect_no_drop_feedback, list_of, row, start_drag, title_cells, version, wait_version


def is_end_of(token):
    return lambda request: request.method == "POST" and request.url.endswith(f"/api/sessions/{token}/end")


def test_a_cancelled_drag_from_another_app_leaves_nothing_on_screen(page, server):
    drag = ExternalDrag(page, items=[("text/plain", "Berlin")])
    drag.enter(row(page, "places", "Oslo"), "top")
    expect(list_of(page, "places")).to_have_attribute("data-drop-operation", "copy")
    expect(page.locator(".drop-badge--copy")).to_be_visible()
    expect(page.locator(".drop-indicator")).to_be_visible()
    drag.send("dragCancel", drag.x, drag.y)      # no event reaches the page
    # The person moves the mouse on: no drag is live any more, so the page ends the session.
    with page.expect_request(is_end_of(drag.begun["token"])):
        page.mouse.move(20, 20)
    expect_no_drop_feedback(page)


def test_after_a_cancelled_drag_the_next_drag_from_another_app_gets_its_own_proposal(page, server, tmp_path):
    """The issue's case: right after the cancel (no mouse move), a drag carrying a picture."""
    text = ExternalDrag(page, items=[("text/plain", "Berlin")])
    text.enter(row(page, "places", "Oslo"), "top")
    expect(list_of(page, "places")).to_have_attribute("data-drop-operation", "copy")
    text.send("dragCancel", text.x, text.y)

    before, count = version(page), well_images(page).count()
    picture = write(tmp_path, "picture.png", png_bytes())
    image = ExternalDrag(page, files=[picture])
    image.enter(zone(page, "image-well"))         # fails when the page asks the server nothing
    assert image.begun["token"] != text.begun["token"]
    expect(zone(page, "image-well")).to_have_attribute("data-drop-operation", "copy")
    expect(page.locator("[data-drop-operation]")).to_have_count(1)    # Places' outline is gone
    drop_and_wait(page, image)
    wait_version(page, before + 1)
    expect(well_images(page)).to_have_count(count + 1)
    expect_no_drop_feedback(page)


def test_a_release_over_nothing_and_a_drop_both_leave_a_clean_page(page, server):
    released = start_drag(page, row(page, "cat-1", "Feather wand"))
    released.hover(row(page, "cat-2", "Bell ball"), "top")
    expect(page.locator(".drop-indicator")).to_be_visible()
    released.move_to(640, 5)                      # above the board, over no target
    released.release()
    expect_no_drop_feedback(page)
    expect(page.locator(".is-dragging")).to_have_count(0)

    before = version(page)
    dropped = start_drag(page, row(page, "cat-1", "Feather wand"))
    dropped.hover(row(page, "cat-2", "Bell ball"), "top")
    assert dropped.begun["token"] != released.begun["token"]
    dropped.release()
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Feather wand", "Bell ball"])
    expect_no_drop_feedback(page)
    expect(page.locator(".is-dragging")).to_have_count(0)
