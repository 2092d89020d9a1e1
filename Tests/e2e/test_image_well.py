"""The image well takes only images, dropped as files from another app: a real PNG is uploaded
(with visible progress when it is large), stored and served back from `/images/<id>`; a file
that only pretends to be a PNG is refused by the server (415) and nothing is stored; other
files and plain text are refused while hovering.

Test files are written at test time: a valid PNG is built with zlib and struct."""
import json
import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from data_helpers import (REFUSED_UPLOAD, ExternalDrag, drop_and_wait, is_image, is_upload, large_png_bytes, png_bytes,
                          well_images, write, zone)
from helpers import version, wait_version

PROGRESS = '[data-zone="image-well"] .well-progress'
STATUS = '[data-zone="image-well"] .well-status'


@pytest.fixture
def files(tmp_path):
    small = png_bytes(4, 3)
    return SimpleNamespace(
        png=write(tmp_path, "orange.png", small), png_bytes=small,
        fake=write(tmp_path, "photo.png", b"I am only text pretending to be a picture.\n" * 20),
        text=write(tmp_path, "notes.txt", b"Buy more yarn.\n"),
    )


def api_version(page, server) -> int:
    response = page.request.get(server.url + "/api/board")
    assert response.status == 200
    return response.json()["version"]


def uploads_of(page) -> list:
    """Collects the page's upload requests from now on."""
    seen = []
    page.on("request", lambda request: seen.append(request.url) if re.search(r"/api/sessions/\w+/files$", request.url) else None)
    return seen


def image_path(image) -> str:
    return image.evaluate("(img) => new URL(img.src, document.baseURI).pathname")


def test_a_png_file_is_copied_into_the_well_stored_and_served(page, server, files):
    before, count = version(page), well_images(page).count()
    well = zone(page, "image-well")
    drag = ExternalDrag(page, files=[files.png])
    drag.enter(well)
    assert drag.begun["token"]
    expect(well).to_have_attribute("data-drop-operation", "copy")
    expect(page.locator("[data-drop-operation]")).to_have_count(1)

    with page.expect_response(is_image) as served:
        with page.expect_request(lambda request: request.url.endswith("/drop")) as drop_request:
            with page.expect_response(is_upload) as uploaded:
                answer = drop_and_wait(page, drag)
    assert answer["operation"] == "copy", answer
    # (DevTools does not keep the upload's answer body: the drop request shows what it said.)
    assert uploaded.value.status == 201
    sent = json.loads(drop_request.value.post_data)
    assert len(sent["files"]) == 1 and isinstance(sent["files"][0], str) and sent["files"][0], sent
    assert sent["target"] == {"zone": "image-well"}, sent
    assert uploaded.value.request.headers["content-type"] == "image/png"
    assert uploaded.value.request.headers["x-file-name"] == "orange.png"

    wait_version(page, before + 1)
    expect(well_images(page)).to_have_count(count + 1)
    image = well_images(page).last
    path = image_path(image)
    assert re.fullmatch(r"/images/[^/]+", path), path
    assert served.value.url.endswith(path)
    assert served.value.status == 200
    assert served.value.headers["content-type"].startswith("image/png")
    page.wait_for_function("(img) => img.complete && img.naturalWidth === 4 && img.naturalHeight === 3", arg=image.element_handle())

    # The bytes served back are the bytes dropped.
    fetched = page.request.get(server.url + path)
    assert fetched.status == 200 and fetched.headers["content-type"].startswith("image/png")
    assert fetched.body() == files.png_bytes
    expect(page.locator("[data-drop-operation]")).to_have_count(0)

    # Stored: the image is still there after a reload.
    page.reload()
    expect(well_images(page)).to_have_count(count + 1)
    assert image_path(well_images(page).last) == path
    assert version(page) == before + 1


def test_a_fake_png_is_refused_by_the_server_and_nothing_is_stored(page, server, files, console_errors):
    console_errors.expect(*REFUSED_UPLOAD)  # Chromium's own line for the refused request
    before, count = version(page), well_images(page).count()
    well = zone(page, "image-well")
    drag = ExternalDrag(page, files=[files.fake])
    drag.enter(well)
    expect(well).to_have_attribute("data-drop-operation", "copy")  # its type looks fine

    with page.expect_response(is_upload) as uploaded:
        drag.drop()
    assert uploaded.value.status == 415, uploaded.value.text()
    expect(page.locator(STATUS)).to_contain_text(re.compile("image", re.IGNORECASE))
    expect(page.locator(STATUS)).to_be_visible()
    expect(well_images(page)).to_have_count(count)
    expect(page.locator("[data-drop-operation]")).to_have_count(0)
    assert api_version(page, server) == before
    assert version(page) == before

    page.reload()
    expect(well_images(page)).to_have_count(count)
    assert version(page) == before


def test_a_png_over_the_size_limit_is_refused_before_the_upload_starts(page, server, tmp_path):
    """The browser knows the file's size at the drop: it says so in words and sends nothing
    (issue 11: "This image is 30 MB; the limit is 20 MB" before the upload starts)."""
    uploads = uploads_of(page)
    content, _, _ = large_png_bytes(21)
    assert len(content) > 20 * 1024 * 1024
    huge = write(tmp_path, "huge.png", content)
    before, count = version(page), well_images(page).count()
    well = zone(page, "image-well")
    drag = ExternalDrag(page, files=[huge])
    drag.enter(well)
    expect(well).to_have_attribute("data-drop-operation", "copy")  # its type is fine, its size is not

    with page.expect_request(lambda request: request.url.endswith(f"/api/sessions/{drag.begun['token']}/end")):
        drag.drop()
    expect(page.locator(STATUS)).to_have_text("This image is 21 MB; the limit is 20 MB.")
    assert uploads == [], "the file was sent although the browser knew it was too large"
    expect(page.locator(STATUS)).to_be_visible()
    expect(page.locator(PROGRESS)).to_be_hidden()
    expect(well_images(page)).to_have_count(count)
    assert api_version(page, server) == before
    page.reload()
    expect(well_images(page)).to_have_count(count)
    assert version(page) == before


def test_a_text_file_is_refused_while_hovering(page, server, files):
    uploads = uploads_of(page)
    before, count = version(page), well_images(page).count()
    well = zone(page, "image-well")
    drag = ExternalDrag(page, files=[files.text])
    drag.enter(well)
    # Forbidden with the well's reason (issue 11: a refusal says why).
    expect(well).to_have_attribute("data-drop-operation", "forbidden")
    expect(page.locator(".drop-badge--forbidden")).to_have_text("⊘ Only images go here: PNG, JPEG, GIF or WebP")
    expect(page.locator(".drop-badge--copy")).to_be_hidden()
    drag.leave_window()

    expect(page.locator("[data-drop-operation]")).to_have_count(0)
    assert api_version(page, server) == before
    page.reload()
    expect(well_images(page)).to_have_count(count)
    assert uploads == []


def test_a_refused_file_released_over_the_well_stores_nothing_and_the_next_drag_is_answered_afresh(page, server, files):
    """Releasing a refused file is not the end of the page's drag handling: the next drag (a real
    PNG) begins its own session and is accepted."""
    uploads = uploads_of(page)
    before, count = version(page), well_images(page).count()
    well = zone(page, "image-well")
    refused = ExternalDrag(page, files=[files.text])
    refused.enter(well)
    expect(well).to_have_attribute("data-drop-operation", "forbidden")
    refused.drop()
    expect(page.locator("#status")).to_have_text("Only images go here: PNG, JPEG, GIF or WebP")
    assert api_version(page, server) == before
    assert uploads == []

    accepted = ExternalDrag(page, files=[files.png])
    accepted.enter(well)
    assert accepted.begun["token"] != refused.begun["token"]
    expect(well).to_have_attribute("data-drop-operation", "copy")
    drop_and_wait(page, accepted)
    wait_version(page, before + 1)
    expect(well_images(page)).to_have_count(count + 1)


def test_a_file_released_outside_every_target_keeps_the_page_and_stores_nothing(page, server, files):
    """Left to itself the browser opens a file dropped on a page; over no target the board
    refuses it instead, stays where it is, and answers the next drag afresh."""
    uploads = uploads_of(page)
    before, url = version(page), page.url
    stray = ExternalDrag(page, files=[files.png])
    stray.enter(page.locator(".masthead h1"))
    stray.drop()
    well = zone(page, "image-well")
    accepted = ExternalDrag(page, files=[files.png])
    accepted.enter(well)
    assert accepted.begun["token"] != stray.begun["token"]
    assert page.url == url
    assert api_version(page, server) == before
    assert uploads == []
    expect(well).to_have_attribute("data-drop-operation", "copy")


def test_plain_text_over_the_well_is_refused_while_hovering(page, server):
    uploads = uploads_of(page)
    before, count = version(page), well_images(page).count()
    well = zone(page, "image-well")
    drag = ExternalDrag(page, items=[("text/plain", "https://example.com/cat.png")])
    drag.enter(well)
    # Its reason, not a generic refusal.
    expect(well).to_have_attribute("data-drop-operation", "forbidden")
    expect(page.locator(".drop-badge--forbidden")).to_have_text("⊘ Only images go here: PNG, JPEG, GIF or WebP")
    drag.drop()

    expect(page.locator("[data-drop-operation]")).to_have_count(0)
    assert api_version(page, server) == before
    page.reload()
    expect(well_images(page)).to_have_count(count)
    assert uploads == []


#: Notes every state of the well's progress (visible or not, bar value, text) and image count.
WATCH_WELL = """() => {
    const log = window.__wellLog = [];
    const check = () => {
        const progress = document.querySelector('[data-zone="image-well"] .well-progress');
        const bar = progress && (progress.matches('progress') ? progress : progress.querySelector('progress'));
        const entry = {
            visible: Boolean(progress && progress.checkVisibility()),
            text: progress ? progress.textContent.trim() : '',
            bar: Boolean(bar),
            value: bar ? bar.value : null,
            images: document.querySelectorAll('[data-zone="image-well"] .well-images img').length,
        };
        const last = log[log.length - 1];
        if (!last || JSON.stringify(last) !== JSON.stringify(entry)) log.push(entry);
    };
    check();
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
}"""


def test_a_large_png_shows_upload_progress_until_the_image_appears(page, server, tmp_path):
    content, width, height = large_png_bytes(8)
    assert len(content) > 8 * 1024 * 1024
    big = write(tmp_path, "large.png", content)
    before, count = version(page), well_images(page).count()
    progress = page.locator(PROGRESS)
    expect(progress).to_be_hidden()
    page.evaluate(WATCH_WELL)

    well = zone(page, "image-well")
    drag = ExternalDrag(page, files=[big])
    drag.enter(well)
    expect(well).to_have_attribute("data-drop-operation", "copy")
    with page.expect_response(is_upload) as uploaded:
        drag.drop()
    assert uploaded.value.status == 201

    wait_version(page, before + 1)
    expect(well_images(page)).to_have_count(count + 1)
    expect(progress).to_be_hidden()
    image = well_images(page).last
    page.wait_for_function(f"(img) => img.complete && img.naturalWidth === {width} && img.naturalHeight === {height}",
                           arg=image.element_handle())
    served = page.request.get(server.url + image_path(image))
    assert served.status == 200 and served.body() == content

    # The observer noted every state, however brief: the progress was visible before the image.
    log = page.evaluate("window.__wellLog")
    shown = [index for index, entry in enumerate(log) if entry["visible"]]
    appeared = [index for index, entry in enumerate(log) if entry["images"] > count]
    assert shown, f"the progress never became visible: {log}"
    assert appeared, f"the image never appeared: {log}"
    assert shown[0] < appeared[0], f"the progress showed only after the image appeared: {log}"
    assert any(entry["bar"] or re.search(r"\d+\s*%", entry["text"]) for entry in log if entry["visible"]), log
    assert not log[-1]["visible"], log
