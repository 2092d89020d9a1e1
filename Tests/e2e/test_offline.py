"""Server unreachable (issue 11, item 5): an offline banner instead of a raw "Failed to fetch",
the page stays usable, the server is asked again with backoff, the board catches up when it is
back, and a drop the server never acknowledged is never shown as done.

The server is really stopped (SIGTERM) mid-session and started again on the same port."""
from playwright.sync_api import expect

from data_helpers import Api
from helpers import board_state, is_begin, list_of, point_in, row, start_drag, title_cells, version, wait_version

BANNER = "[data-offline-banner]"


def test_a_drop_while_the_server_is_down_is_not_shown_as_done_and_the_page_catches_up(page, server, console_errors):
    console_errors.expect_outage()
    state = board_state(page)
    before = version(page)
    drag = start_drag(page, row(page, "cat-1", "Feather wand"))     # the session began: the server was up
    server.stop()
    drag.hover(row(page, "cat-2", "Bell ball"), "top")
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-operation", "move")   # the table is in hand
    page.mouse.up()                                                  # the drop cannot reach the server

    banner = page.locator(BANNER)
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Offline: the server can’t be reached")
    status = page.locator("#status")
    expect(status).to_have_text("Not dropped: the server can’t be reached. The board catches up when it is back.")
    assert "Failed to fetch" not in page.locator("body").inner_text()
    assert board_state(page) == state and version(page) == before    # nothing shown as done
    expect(page.locator("[data-drop-operation]")).to_have_count(0)

    # Still usable while offline: a new drag is refused with the reason, not left hanging.
    x, y = point_in(row(page, "cat-1", "Ball of yarn"))
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y, steps=2)
    tx, ty = point_in(row(page, "cat-2", "Bell ball"), "top")
    page.mouse.move(tx, ty, steps=6)
    page.mouse.move(tx + 1, ty, steps=1)
    expect(page.locator(".drop-badge")).to_contain_text("The server can’t be reached")
    page.mouse.up()
    expect(page.locator(".drop-badge")).to_be_hidden()
    assert board_state(page) == state

    # Back on the same port; someone else changes the board before this page notices.
    server.start(server.port)
    other = Api(page, server.url)
    token, _ = other.begin("cat-3", [page.locator('[data-list="cat-3"] [data-item]').first.get_attribute("data-item")])
    answer = other.drop(token, {"list": "cat-2"}, location={"row": 0, "fraction": 0.2})
    assert answer.status == 200, answer.text()
    # The banner goes by itself (retried with backoff) and the board shows the server's state.
    expect(banner).to_be_hidden(timeout=30_000)
    wait_version(page, before + 1)
    expect(status).to_have_text("Connected again; the board is up to date.")   # no longer "can’t be reached"
    expect(title_cells(page, "cat-2")).to_have_text(["Crinkle tunnel", "Laser pointer", "Bell ball"])

    # And drags work again.
    dropped = start_drag(page, row(page, "cat-1", "Feather wand"))
    dropped.hover(row(page, "cat-2", "Bell ball"), "top")
    dropped.release()
    wait_version(page, before + 2)
    expect(title_cells(page, "cat-2")).to_have_text(["Crinkle tunnel", "Laser pointer", "Feather wand", "Bell ball"])


def test_coming_back_online_keeps_a_refusal_that_is_still_true(page, server, tmp_path, console_errors):
    """Only a status that says the server can't be reached gives way to "Connected again": a refusal
    said before the outage (a fake PNG, 415) stays, since it is as true after it."""
    from data_helpers import REFUSED_UPLOAD, ExternalDrag, is_upload, write, zone
    console_errors.expect_outage()
    console_errors.expect(*REFUSED_UPLOAD)
    refusal = ("photo.png was not added: its contents are not a PNG, JPEG, GIF or WebP image, whatever its name says "
               "(a file’s contents can only be checked once it is dropped).")
    drag = ExternalDrag(page, files=[write(tmp_path, "photo.png", b"this is text, not a picture\n" * 4)])
    drag.enter(zone(page, "image-well"))
    with page.expect_response(is_upload) as uploaded:
        drag.drop()
    assert uploaded.value.status == 415
    status = page.locator("#status")
    expect(status).to_have_text(refusal)

    server.stop()                                   # the live updates drop: the banner goes up
    banner = page.locator(BANNER)
    expect(banner).to_be_visible()
    server.start(server.port)
    expect(banner).to_be_hidden(timeout=30_000)     # back: the board caught up
    expect(status).to_have_text(refusal)
    expect(status).to_have_attribute("data-kind", "error")
