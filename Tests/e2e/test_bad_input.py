"""The session API refuses bad input with a clear JSON error and changes nothing; a drop that is
retried with the same operation id is applied once and answered identically.

Requests go through `page.request`: the page's cookies, and its CSRF token in `X-CSRF-Token`."""
import secrets
import uuid

from data_helpers import assert_json_error, item_ids
from helpers import board_state, rows


def test_malformed_json_is_a_400_json_error_and_changes_nothing(api, page):
    before = api.version()
    token, _ = api.begin("cat-1", item_ids(page, "cat-1")[:1])
    for path in ("/api/sessions", f"/api/sessions/{token}/target", f"/api/sessions/{token}/drop"):
        assert_json_error(api.post(path, '{"token": "abc", "list": '), 400)  # truncated JSON
        assert_json_error(api.post(path, '{"token": 5, "op": [], "target": 7}'), 400)  # JSON of the wrong shape
    assert api.version() == before


def test_unknown_session_token_is_a_404(api, page):
    before = api.version()
    unknown = secrets.token_hex(16)
    assert_json_error(api.post(f"/api/sessions/{unknown}/target", {"target": {"list": "cat-2"}, "location": {"row": 0, "fraction": 0.3}}), 404, "not_found")
    assert_json_error(api.post(f"/api/sessions/{unknown}/drop", {
        "op": str(uuid.uuid4()), "version": before, "target": {"list": "cat-2"}, "location": None}), 404, "not_found")
    assert_json_error(api.post(f"/api/sessions/{unknown}/end", {}), 404, "not_found")
    assert api.version() == before


def test_a_write_without_the_csrf_header_is_a_403(api, page):
    before, state = api.version(), board_state(page)
    body = {"token": secrets.token_hex(16), "list": "cat-1", "items": item_ids(page, "cat-1")[:1]}
    assert_json_error(api.post("/api/sessions", body, csrf=False), 403, "forbidden")
    token, _ = api.begin("cat-1", item_ids(page, "cat-1")[:1])
    drop = {"op": str(uuid.uuid4()), "version": before, "target": {"list": "cat-2"}, "location": {"row": 0, "fraction": 0.2}}
    assert_json_error(api.post(f"/api/sessions/{token}/drop", drop, csrf=False), 403, "forbidden")
    assert api.version() == before
    page.reload()
    assert board_state(page) == state


def test_a_session_token_presented_by_another_browser_context_is_a_404(api, page, intruder):
    before = api.version()
    token, _ = api.begin("cat-1", item_ids(page, "cat-1")[:1])
    assert intruder.csrf != api.csrf
    assert_json_error(intruder.post(f"/api/sessions/{token}/target", {"target": {"list": "cat-2"}, "location": None}), 404, "not_found")
    assert_json_error(intruder.post(f"/api/sessions/{token}/drop", {
        "op": str(uuid.uuid4()), "version": before, "target": {"list": "cat-2"}, "location": {"row": 0, "fraction": 0.2}}),
        404, "not_found")
    assert_json_error(intruder.post(f"/api/sessions/{token}/end", {}), 404, "not_found")
    assert api.version() == before
    # The owner's session was not ended by the intruder.
    assert api.post(f"/api/sessions/{token}/end", {}).status == 200


def test_a_drop_on_an_out_of_range_row_is_a_422(api, page):
    before, state = api.version(), board_state(page)
    token, begun = api.begin("cat-1", item_ids(page, "cat-1")[:1])
    assert begun["version"] == before
    response = api.post(f"/api/sessions/{token}/drop", {
        "op": str(uuid.uuid4()), "version": before, "target": {"list": "cat-2"}, "location": {"row": 99, "fraction": 0.5}})
    assert_json_error(response, 422, "unprocessable")
    assert api.version() == before
    page.reload()
    assert board_state(page) == state


def test_beginning_a_session_in_an_unknown_list_is_a_404(api, page):
    before = api.version()
    response = api.post("/api/sessions", {"token": secrets.token_hex(16), "list": "cat-99", "items": item_ids(page, "cat-1")[:1]})
    assert_json_error(response, 404, "not_found")
    assert api.version() == before


def test_a_replayed_drop_answers_the_same_body_and_is_applied_once(api, page):
    before = api.version()
    moved = item_ids(page, "cat-1")[1]
    target_ids = item_ids(page, "cat-2")
    token, _ = api.begin("cat-1", [moved])
    targeted = api.post(f"/api/sessions/{token}/target", {"target": {"list": "cat-2"}, "location": {"row": 0, "fraction": 0.3, "item": target_ids[0]}})
    assert targeted.status == 200, targeted.text()
    assert targeted.json()["proposal"]["op"] == "move"

    drop = {"op": str(uuid.uuid4()), "version": before, "target": {"list": "cat-2"},
            "location": {"row": 0, "fraction": 0.3, "item": target_ids[0]}}
    first = api.post(f"/api/sessions/{token}/drop", drop)
    assert first.status == 200, first.text()
    answer = first.json()
    assert answer["operation"] == "move" and answer["version"] == before + 1 and answer["changes"]
    assert answer["message"] == "Moved Feather wand from Whiskers to Tom."
    assert api.version() == before + 1

    replay = api.post(f"/api/sessions/{token}/drop", drop)
    assert replay.status == 200
    assert replay.body() == first.body()
    assert api.version() == before + 1
    assert api.post(f"/api/sessions/{token}/end", {}).status == 200

    # The same op with a different drop is refused, not applied.
    reused = dict(drop, location={"row": 1, "fraction": 0.3, "item": target_ids[1]})
    token2, _ = api.begin("cat-2", [moved])
    assert_json_error(api.post(f"/api/sessions/{token2}/drop", reused), 422, "unprocessable")
    assert api.version() == before + 1

    page.reload()
    assert [rows(page, "cat-2").nth(index).get_attribute("data-item") for index in range(3)] == [moved] + target_ids
    assert moved not in item_ids(page, "cat-1")
