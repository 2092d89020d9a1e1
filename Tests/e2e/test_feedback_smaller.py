"""The smaller fixes of issue 11 (item 6): empty lists show a place to drop on; image-well
thumbnails are named by their file; a link row shows its address once; the source window of a
move into another window posts nothing stale (no 409)."""
import re

from playwright.sync_api import expect

from data_helpers import (COPY, MOVE, RECORD_SET_DATA, SESSION_TYPE, ExternalDrag, drop_and_wait, is_join, item_ids, new_row,
                          open_board, png_bytes, wait_ready, well_images, write, zone)
from helpers import list_of, row, rows, start_drag, title_cells, version, wait_version


def test_an_empty_list_shows_a_placeholder_to_drop_on(page, server):
    before = version(page)
    for title in ("Laser pointer", "Bell ball"):                        # Tom gives his toys to Luna
        drag = start_drag(page, row(page, "cat-2", title))
        drag.hover(row(page, "cat-3", "Scratching post"), "bottom")
        drag.release()
    wait_version(page, before + 2)
    expect(rows(page, "cat-2")).to_have_count(0)
    empty = page.locator('[data-list="cat-2"] > .rows')
    assert empty.evaluate("(rows) => getComputedStyle(rows, '::after').content") == '"Empty: drop cards here"'
    box = empty.bounding_box()
    assert box["height"] >= 40, f"the empty list's drop area is {box['height']} px high"
    page.screenshot(path="/tmp/fbnotes/empty-list.png")

    drag = start_drag(page, row(page, "cat-3", "Crinkle tunnel"))
    drag.hover(empty, "middle")
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-operation", "move")
    drag.release()
    wait_version(page, before + 3)
    expect(title_cells(page, "cat-2")).to_have_text(["Crinkle tunnel"])


def test_image_well_thumbnails_are_named_by_their_file(page, server, tmp_path):
    picture = write(tmp_path, "kitten.png", png_bytes())
    before, count = version(page), well_images(page).count()
    drag = ExternalDrag(page, files=[picture])
    drag.enter(zone(page, "image-well"))
    drop_and_wait(page, drag)
    wait_version(page, before + 1)
    expect(well_images(page)).to_have_count(count + 1)
    expect(well_images(page).last).to_have_attribute("alt", "kitten.png")
    page.reload()
    expect(well_images(page).last).to_have_attribute("alt", "kitten.png")


def test_a_link_row_shows_its_address_once(page, server):
    before, ids = version(page), item_ids(page, "places")
    drag = ExternalDrag(page, items=[("text/uri-list", "https://example.com/only-once")])
    drag.enter(row(page, "places", "Oslo"), "top")
    drop_and_wait(page, drag)
    wait_version(page, before + 1)
    link = new_row(page, "places", ids)
    expect(link).to_have_attribute("data-kind", "link")
    assert link.inner_text().count("https://example.com/only-once") == 1, link.inner_text()
    page.reload()
    assert new_row(page, "places", ids).inner_text().count("https://example.com/only-once") == 1


def test_the_source_window_of_a_move_into_another_window_posts_nothing_stale(page, context, server, console_errors):
    """Window A hovers one of its own lists (People, which refuses), the toy is dropped in
    window B, then A's drag ends over People: A's leave must not be refused as a conflict."""
    context.add_init_script(RECORD_SET_DATA)
    page.reload()
    wait_ready(page)
    other = open_board(context, server, console_errors)
    refused = []
    page.on("response", lambda response: refused.append(f"{response.status} {response.url}") if response.status >= 400 else None)
    before = version(page)

    session = start_drag(page, row(page, "cat-1", "Feather wand"))
    session.hover(row(page, "people", "Alan Turing"), "top")
    expect(list_of(page, "people")).to_have_attribute("data-drop-operation", "cancel")
    written = page.evaluate("window.__setData")
    assert any(SESSION_TYPE.fullmatch(kind) for kind, _ in written)

    drag = ExternalDrag(other, items=written, mask=COPY | MOVE)
    drag.enter(row(other, "cat-2", "Laser pointer"), "top", begins=is_join(session.token))
    expect(list_of(other, "cat-2")).to_have_attribute("data-drop-operation", "move")
    assert drop_and_wait(other, drag)["operation"] == "move"

    assert session.release() is None
    assert session.ended["operation"] == "move", session.ended
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Feather wand", "Laser pointer", "Bell ball"])
    expect(page.locator("#status")).not_to_have_attribute("data-kind", "error")
    assert refused == [], f"window A sent stale requests: {refused}"
