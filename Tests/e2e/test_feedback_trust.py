"""Feedback you can trust (issue 11): what a hover promises is what the drop does, and every
refusal says why — in the badge while hovering and in the status line after the release.

Drags of this app use the real mouse; drags from other apps are trusted drag events sent
through the DevTools protocol (`ExternalDrag`). Nothing sleeps: every wait is for a condition."""
import re

from playwright.sync_api import expect

from data_helpers import ExternalDrag, write
from helpers import bottom_of, expect_indicator_at, list_of, open_composer, row, start_drag, title_cells, top_of, version, wait_version

STATUS = "#status"


def test_a_drop_in_the_gap_between_two_rows_lands_between_them(page, server):
    """The issue's case: Scratching post from Luna over Tom, in the 4 px gap between Tom's rows."""
    first, second = row(page, "cat-2", "Laser pointer"), row(page, "cat-2", "Bell ball")
    gap_top, gap_bottom = bottom_of(first), top_of(second)
    assert gap_bottom - gap_top >= 2, f"no gap between the rows: {gap_top}..{gap_bottom}"
    x = first.bounding_box()["x"] + first.bounding_box()["width"] / 2
    gap = (gap_top + gap_bottom) / 2
    before = version(page)
    drag = start_drag(page, row(page, "cat-3", "Scratching post"))
    drag.move_to(x, gap, steps=10).move_to(x + 1, gap, steps=1)
    tom = list_of(page, "cat-2")
    expect(tom).to_have_attribute("data-drop-operation", "move")
    expect(tom).to_have_attribute("data-drop-intent", "insert-at")
    # The line is at the top of the row the card lands before (the landing gap opened above it: motion.js).
    expect_indicator_at(page, top_of(second), tolerance=5)
    answer = drag.release()
    assert answer and answer["operation"] == "move", answer
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Scratching post", "Bell ball"])


def test_below_the_last_row_shows_the_append_line_and_appends(page, server):
    last = row(page, "cat-2", "Bell ball")
    box = last.bounding_box()
    below = bottom_of(last) + 6          # the list's padding under its rows
    before = version(page)
    drag = start_drag(page, row(page, "cat-3", "Crinkle tunnel"))
    drag.move_to(box["x"] + box["width"] / 2, below, steps=10).move_to(box["x"] + box["width"] / 2 + 1, below, steps=1)
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-intent", "insert-at")
    expect_indicator_at(page, bottom_of(last), tolerance=5)
    drag.release()
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Bell ball", "Crinkle tunnel"])


def test_a_cancel_says_why_while_hovering_and_after_the_release(page, server):
    """Two places dragged within Places: the engine's delegate cancels, with its reason."""
    page.locator('[data-list="places"] [data-item]').nth(0).click(modifiers=["Control"])   # a plain click opens the card
    page.locator('[data-list="places"] [data-item]').nth(1).click(modifiers=["Control"])
    before = version(page)
    drag = start_drag(page, row(page, "places", "Paris"))
    drag.hover(row(page, "places", "Kyoto"), "top")
    places = list_of(page, "places")
    expect(places).to_have_attribute("data-drop-operation", "cancel")
    badge = page.locator(".drop-badge")
    expect(badge).to_be_visible()
    expect(badge).to_contain_text("Only one place can be moved at a time")
    drag.release()
    expect(page.locator(STATUS)).to_contain_text("Only one place can be moved at a time")
    expect(page.locator(".drop-badge")).to_be_hidden()
    assert version(page) == before


def test_a_box_over_a_cat_is_cancelled_with_its_reason(page, server):
    drag = start_drag(page, row(page, "toy-boxes", "Blue box"))
    drag.hover(row(page, "cat-1", "Feather wand"), "top")
    expect(list_of(page, "cat-1")).to_have_attribute("data-drop-operation", "cancel")
    expect(page.locator(".drop-badge")).to_contain_text("Whiskers only plays with toys, not with boxes")
    drag.release()
    expect(page.locator(STATUS)).to_contain_text("Whiskers only plays with toys, not with boxes")


def test_a_forbidden_drop_keeps_its_reason_in_the_status_line(page, server):
    drag = start_drag(page, row(page, "people", "Ada Lovelace"))
    drag.hover(row(page, "cat-2", "Bell ball"), "top")
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-operation", "forbidden")
    drag.release()
    expect(page.locator(STATUS)).to_have_text("Tom only plays with toys, not with people")
    expect(page.locator(STATUS)).to_have_attribute("data-kind", "forbidden")


def external_refusal(page, items=(), files=(), over=None, reason=""):
    """An external drag over `over`: refused at the hover with `reason`, and its drop posts nothing."""
    drops = []
    page.on("request", lambda request: drops.append(request.url) if re.search(r"/api/sessions/\w+/(drop|files)$", request.url) else None)
    before = version(page)
    drag = ExternalDrag(page, items=items, files=files)
    drag.enter(over, "top")
    target = over.locator("xpath=ancestor-or-self::*[@data-list or @data-zone][1]")
    expect(target).to_have_attribute("data-drop-operation", re.compile("^(cancel|forbidden)$"))
    expect(page.locator(".drop-badge")).to_contain_text(reason)
    drag.drop()
    expect(page.locator(STATUS)).to_contain_text(reason)
    expect(page.locator("[data-drop-operation]")).to_have_count(0)
    assert drops == [], f"a refused drop was still sent: {drops}"
    assert version(page) == before


def test_a_text_file_over_a_cat_is_refused_at_the_hover(page, server, tmp_path):
    notes = write(tmp_path, "notes.txt", b"a ball of string\n")
    external_refusal(page, files=[notes], over=row(page, "cat-3", "Crinkle tunnel"),
                     reason="Luna makes toys from text, not from a file")


def test_only_a_uri_list_over_a_cat_is_refused_at_the_hover(page, server):
    external_refusal(page, items=[("text/uri-list", "https://example.com/toy")], over=row(page, "cat-2", "Bell ball"),
                     reason="Tom makes toys from text, not from a link")


def test_a_png_over_a_cat_says_why(page, server, tmp_path):
    from data_helpers import png_bytes
    picture = write(tmp_path, "picture.png", png_bytes())
    external_refusal(page, files=[picture], over=row(page, "cat-1", "Ball of yarn"),
                     reason="Whiskers makes toys from text, not from an image")


def test_a_drop_mixing_an_image_and_a_text_file_takes_the_image_and_names_the_refused_file(page, server, tmp_path):
    from data_helpers import drop_and_wait, png_bytes, well_images, zone
    picture = write(tmp_path, "kitten.png", png_bytes())
    notes = write(tmp_path, "notes.txt", b"not a picture\n")
    before, count = version(page), well_images(page).count()
    well = zone(page, "image-well")
    drag = ExternalDrag(page, files=[notes, picture])
    drag.enter(well)
    expect(well).to_have_attribute("data-drop-operation", "copy")
    answer = drop_and_wait(page, drag)
    assert answer["operation"] == "copy", answer
    wait_version(page, before + 1)
    expect(well_images(page)).to_have_count(count + 1)
    expect(page.locator(STATUS)).to_contain_text("notes.txt was not added: it is not a PNG, JPEG, GIF or WebP image.")


def test_a_fake_png_is_caught_at_the_drop_and_says_so_in_words(page, server, tmp_path, console_errors):
    from data_helpers import REFUSED_UPLOAD, is_upload, well_images, zone
    console_errors.expect(*REFUSED_UPLOAD)   # Chromium's own line for the refused request
    fake = write(tmp_path, "photo.png", b"this is text, not a picture\n" * 4)
    before, count = version(page), well_images(page).count()
    well = zone(page, "image-well")
    drag = ExternalDrag(page, files=[fake])
    drag.enter(well)
    expect(well).to_have_attribute("data-drop-operation", "copy")   # its type looks fine at the hover
    with page.expect_response(is_upload) as uploaded:
        drag.drop()
    assert uploaded.value.status == 415
    expect(page.locator(STATUS)).to_have_text(
        "photo.png was not added: its contents are not a PNG, JPEG, GIF or WebP image, whatever its name says "
        "(a file’s contents can only be checked once it is dropped).")
    expect(page.locator(STATUS)).to_have_attribute("data-kind", "error")
    expect(well_images(page)).to_have_count(count)
    assert version(page) == before


def test_a_text_file_over_a_cards_list_is_refused_at_the_hover(page, server, tmp_path):
    """The kit's own list kind refuses at the hover what its drop would refuse."""
    open_composer(page, "new-list").fill("Inbox")
    page.locator('form[data-form="new-list"] select[name="kind"]').select_option("cards")
    before = version(page)
    page.locator('form[data-form="new-list"] button[type="submit"]').click()
    wait_version(page, before + 1)
    inbox = page.locator(".list[data-list]", has=page.locator(".list-title", has_text="Inbox"))
    notes = write(tmp_path, "notes.txt", b"groceries\n")
    external_refusal(page, files=[notes], over=inbox.locator(":scope > .rows"),
                     reason="Cards are made from text, links or images, not from a file")
