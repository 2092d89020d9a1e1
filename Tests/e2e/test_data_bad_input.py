"""The data API refuses bad input with a clear JSON error and stores nothing: unknown types are
handled by no target, empty or oversized data is refused, uploads that are too large or are not
images are refused, and a session token that is forged or belongs to another browser is unknown.

Requests go through `page.request`: the page's cookie, and its CSRF token in `X-CSRF-Token`."""
import secrets

from data_helpers import (assert_json_error, every_operation, item_ids, png_bytes, upload_cut_off, upload_expecting_continue,
                          wait_until)
from helpers import board_state

MB = 1024 * 1024


def places_location(page):
    return {"row": 0, "fraction": 0.2, "item": item_ids(page, "places")[0]}


def assert_unchanged(api, page, before, state):
    assert api.version() == before
    page.reload()
    assert board_state(page) == state
    assert page.locator('[data-zone="image-well"] .well-images img').count() == 0


def test_an_external_session_of_unknown_types_is_handled_by_no_target(api, page):
    before = api.version()
    token = secrets.token_hex(16)
    response = api.post("/api/sessions/external", {"token": token, "types": ["application/x-unknown"], "files": []})
    assert response.status == 201, response.text()
    body = response.json()
    assert body["token"] == token and body["version"] == before
    offered = every_operation(body["table"])
    assert offered, "the table names no target"
    # (The image well hears of every drag, to say what it takes instead: it forbids with a reason.)
    handled = [(target, op) for target, is_handled, op in offered if is_handled and op not in ("cancel", "forbidden")]
    assert handled == [], f"targets offered to take an unknown type: {handled}"
    assert api.version() == before


def test_an_external_drop_without_data_is_a_422_and_changes_nothing(api, page):
    before, state = api.version(), board_state(page)
    token, _ = api.external(["text/plain"])
    response = api.drop(token, {"list": "places"}, data=[], files=[], location=places_location(page))
    assert_json_error(response, 422)
    assert_unchanged(api, page, before, state)


def test_an_external_text_of_more_than_500_characters_is_refused(api, page):
    before, state = api.version(), board_state(page)
    token, _ = api.external(["text/plain"])
    response = api.drop(token, {"list": "places"}, data=[["text/plain", "x" * 501]], location=places_location(page))
    assert_json_error(response, (413, 422))
    other, _ = api.external(["text/plain"])
    label = api.drop(other, {"zone": "label"}, data=[["text/plain", "y" * 501]])
    assert_json_error(label, (413, 422))
    assert_unchanged(api, page, before, state)


def test_an_upload_over_the_size_limit_is_a_413_and_stores_nothing(api, page):
    before, state = api.version(), board_state(page)
    token, _ = api.external([], files=["image/png"])
    too_large = b"\x89PNG\r\n\x1a\n" + png_bytes()[8:] + b"\0" * (21 * MB)
    # (Sent with `Expect: 100-continue`: the server answers 413 from the headers and closes the
    # connection without reading the body, so a client that writes the whole body first may
    # only see EPIPE; see test_image_well for the browser's own upload of a too large file.)
    response = upload_expecting_continue(api, token, too_large, "image/png", "huge.png")
    assert_json_error(response, 413)
    assert api.version() == before
    # Nothing was kept for the session: a drop naming no uploaded file stores nothing.
    refused = api.drop(token, {"zone": "image-well"}, files=[])
    assert refused.status >= 400, refused.text()
    assert_unchanged(api, page, before, state)


def test_an_upload_cut_off_halfway_leaves_no_file_behind(api, page, server):
    before, state = api.version(), board_state(page)
    token, _ = api.external([], files=["image/png"])
    uploads = server.database.parent / f"{server.database.name}-images" / "uploads" / token

    def stored() -> list:
        return list(uploads.iterdir()) if uploads.exists() else []

    sent = png_bytes() + b"\0" * (2 * MB)

    def half_written() -> None:
        # The server streams to disk as bytes arrive: the partial file exists while the client is
        # there. (All of it, before the client leaves: a close that arrives while libmicrohttpd's
        # epoll mode is still reading is sometimes noticed only at the inactivity timeout; a unit
        # test of MicroHTTP covers that bound.)
        wait_until(lambda: stored() and stored()[0].stat().st_size == len(sent), "the partial upload is on disk")

    upload_cut_off(api, token, announced=8 * MB, sent=sent, while_open=half_written)
    wait_until(lambda: not stored(), "the aborted upload is removed")
    # The session is still usable: a whole upload after the aborted one is taken.
    assert api.upload(token, png_bytes()).status == 201
    assert len(stored()) == 1
    assert_unchanged(api, page, before, state)


def test_an_upload_that_is_not_an_image_is_a_415(api, page):
    before, state = api.version(), board_state(page)
    token, _ = api.external([], files=["image/png"])
    response = api.upload(token, b"just some text, not a picture\n" * 10, "image/png", "photo.png")
    assert_json_error(response, 415)
    text = api.upload(token, b"Buy more yarn.\n", "text/plain", "notes.txt")
    assert_json_error(text, 415)
    assert_unchanged(api, page, before, state)


def test_a_valid_png_upload_is_accepted_and_only_stored_by_the_drop(api, page):
    """The control of the refusals above: the same requests with a real PNG succeed."""
    before = api.version()
    token, _ = api.external([], files=["image/png"])
    content = png_bytes()
    uploaded = api.upload(token, content, "image/png", "orange.png")
    assert uploaded.status == 201, uploaded.text()
    body = uploaded.json()
    assert body["size"] == len(content) and body["type"] == "image/png" and body["file"]
    assert api.version() == before, "an upload alone stores nothing on the board"
    dropped = api.drop(token, {"zone": "image-well"}, files=[body["file"]])
    assert dropped.status == 200, dropped.text()
    assert api.version() == before + 1


def test_a_forged_session_token_is_a_404(api, page):
    before, state = api.version(), board_state(page)
    forged = secrets.token_hex(16)
    assert_json_error(api.upload(forged, png_bytes()), 404, "not_found")
    assert_json_error(api.drop(forged, {"list": "places"}, data=[["text/plain", "Berlin"]], location=places_location(page)),
                      404, "not_found")
    assert_json_error(api.post(f"/api/sessions/{forged}/join", {}), 404, "not_found")
    assert_unchanged(api, page, before, state)


def test_a_session_of_another_browser_is_a_404(api, page, intruder):
    before, state = api.version(), board_state(page)
    token, _ = api.external(["text/plain"], files=["image/png"])
    assert intruder.csrf != api.csrf
    assert_json_error(intruder.upload(token, png_bytes()), 404, "not_found")
    assert_json_error(intruder.drop(token, {"list": "places"}, data=[["text/plain", "Berlin"]],
                                    location=places_location(page)), 404, "not_found")
    assert_json_error(intruder.post(f"/api/sessions/{token}/join", {}), 404, "not_found")
    assert api.version() == before
    # The owner's session is intact.
    assert api.upload(token, png_bytes()).status == 201
    assert_unchanged(api, page, before, state)


def test_data_requests_without_the_csrf_header_are_a_403(api, page):
    before, state = api.version(), board_state(page)
    body = {"token": secrets.token_hex(16), "types": ["text/plain"], "files": []}
    assert_json_error(api.post("/api/sessions/external", body, csrf=False), 403, "forbidden")
    token, _ = api.external(["text/plain"], files=["image/png"])
    assert_json_error(api.upload(token, png_bytes(), csrf=False), 403, "forbidden")
    assert_json_error(api.post(f"/api/sessions/{token}/join", {}, csrf=False), 403, "forbidden")
    assert_unchanged(api, page, before, state)


def test_unknown_images_are_a_404(api, page, server):
    for path in ("/images/" + secrets.token_hex(16), "/images/..%2Fboard.sqlite", "/images/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd"):
        response = page.request.get(server.url + path)
        assert response.status == 404, f"{path}: {response.status}"
