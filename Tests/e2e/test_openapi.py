"""docs/openapi.yaml holds: it is a valid OpenAPI document, every operation it describes is a route of
the real server, and real answers (a drag's begin, target, drop and end, the board, a form's JSON
answer, errors) validate against the schemas it gives them. `make fuzz` runs schemathesis on it.
"""
import json
import pathlib
import re
import secrets
import urllib.error
import urllib.parse
import urllib.request

import yaml
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

DOCUMENT_PATH = pathlib.Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"
DOCUMENT = yaml.safe_load(DOCUMENT_PATH.read_text())
BASE_URI = "urn:dragboard:openapi"
REGISTRY = Registry().with_resource(BASE_URI, Resource.from_contents(DOCUMENT, default_specification=DRAFT202012))
#: What the router says for a path no route matches (MicroHTTP's HTTPError.notFound).
NO_ROUTE = {"error": {"code": "not_found", "message": "No resource matches this path."}}
METHODS = ("get", "post", "put", "patch", "delete")
#: The smallest PNG (1×1).
PIXEL = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                      "1f15c4890000000d49444154789c63f80f00000101000518d84e0000000049454e44ae426082")


class _Unredirected(urllib.request.HTTPRedirectHandler):
    """A 303 is an answer to look at, not to follow."""

    def redirect_request(self, *arguments, **keywords):
        return None


OPENER = urllib.request.build_opener(_Unredirected)


class Answer:
    def __init__(self, status: int, headers, body: bytes):
        self.status, self.headers, self.body = status, headers, body

    @property
    def json(self):
        return json.loads(self.body)


class Browser:
    """One browser of the server: its CSRF cookie, echoed in the header of its JSON writes."""

    def __init__(self, url: str):
        self.url, self.csrf = url, secrets.token_hex(16)

    def request(self, method: str, path: str, body: bytes | None = None, content_type: str | None = None,
                csrf: bool = True, accept: str = "application/json") -> Answer:
        headers = {"Accept": accept}
        if csrf:
            headers.update({"Cookie": f"dragboard_csrf={self.csrf}", "X-CSRF-Token": self.csrf})
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(self.url + path, data=body, method=method.upper(), headers=headers)
        try:
            with OPENER.open(request, timeout=10) as answer:
                return Answer(answer.status, answer.headers, answer.read())
        except urllib.error.HTTPError as refusal:
            return Answer(refusal.code, refusal.headers, refusal.read())

    def post_json(self, path: str, value) -> Answer:
        return self.request("POST", path, json.dumps(value).encode(), "application/json")

    def post_form(self, path: str, accept: str = "application/json", **fields: str) -> Answer:
        return self.request("POST", path, urllib.parse.urlencode({"csrf": self.csrf, **fields}).encode(),
                            "application/x-www-form-urlencoded", accept=accept)


def documented(path: str, method: str, status: int) -> tuple[str, dict]:
    """The JSON pointer and the object of an operation's documented answer (a shared one followed)."""
    response = DOCUMENT["paths"][path][method]["responses"][str(status)]
    if "$ref" in response:
        return response["$ref"], DOCUMENT["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    escaped = path.replace("~", "~0").replace("/", "~1")
    return f"#/paths/{escaped}/{method}/responses/{status}", response


def assert_conforms(answer: Answer, path: str, method: str):
    """The answer's status and type are documented for the operation, and a JSON body matches the schema."""
    statuses = DOCUMENT["paths"][path][method]["responses"]
    assert str(answer.status) in statuses, f"{method.upper()} {path} answered {answer.status}, not documented: {answer.body[:300]!r}"
    where, response = documented(path, method, answer.status)
    media = (answer.headers["Content-Type"] or "").split(";")[0]
    if answer.status == 303:
        assert answer.headers["Location"] and "content" not in response
        return None
    assert media in response["content"], f"{method.upper()} {path} {answer.status}: {media} not documented"
    if media != "application/json":
        return answer.body
    assert answer.headers["Content-Type"] == "application/json; charset=utf-8"
    validator = Draft202012Validator({"$ref": f"{BASE_URI}{where}/content/application~1json/schema"}, registry=REGISTRY)
    problems = [f"{'/'.join(map(str, error.absolute_path))}: {error.message}" for error in validator.iter_errors(answer.json)]
    assert problems == [], f"{method.upper()} {path} {answer.status} breaks the document: {problems}"
    return answer.json


def test_the_document_is_valid_openapi():
    validate(DOCUMENT)
    assert DOCUMENT["openapi"].startswith("3.1")
    schemes = DOCUMENT["components"]["securitySchemes"]
    assert (schemes["csrfCookie"]["in"], schemes["csrfCookie"]["name"]) == ("cookie", "dragboard_csrf")
    assert (schemes["csrfHeader"]["in"], schemes["csrfHeader"]["name"]) == ("header", "X-CSRF-Token")


def test_every_documented_operation_is_a_route(server):
    """Each path and method of the document reaches a route: never the router's 404 or a 405. Writes go
    without a CSRF token, so they are refused (403) and change nothing."""
    browser = Browser(server.url)
    board = browser.request("GET", "/boards/demo/api/board").json
    item = re.search(r'data-item="([^"]+)"', board["lists"][0]["html"]).group(1)
    values = {"board": "demo", "list": "cat-1", "item": item, "token": "0" * 32, "check": "some-check",
              "label": "some-label", "image": "some-image"}
    operations = [(path, method) for path, entry in DOCUMENT["paths"].items() for method in METHODS if method in entry]
    assert len(operations) >= 40
    for path, method in operations:
        concrete = re.sub(r"\{(\w+)\}", lambda match: values[match.group(1)], path)
        answer = browser.request(method, concrete, csrf=False)
        assert answer.status != 405, f"{method.upper()} {path}: 405, the server has no such route"
        assert not (answer.status == 404 and answer.json == NO_ROUTE), f"{method.upper()} {path}: no route"
        assert str(answer.status) in DOCUMENT["paths"][path][method]["responses"], \
            f"{method.upper()} {path} answered {answer.status}, not documented: {answer.body[:300]!r}"


def test_a_drag_and_its_errors_answer_as_documented(server):
    browser = Browser(server.url)
    board = assert_conforms(browser.request("GET", "/api/board"), "/api/board", "get")
    assert_conforms(browser.request("GET", "/boards/demo/api/board"), "/boards/{board}/api/board", "get")
    toys = next(entry["html"] for entry in board["lists"] if entry["id"] == "cat-1")
    toy = re.search(r'data-item="([^"]+)"', toys).group(1)

    token = secrets.token_hex(16)
    begun = assert_conforms(browser.post_json("/api/sessions", {"token": token, "list": "cat-1", "items": [toy]}),
                            "/api/sessions", "post")
    assert begun["token"] == token and begun["table"]["targets"]
    hover = {"target": {"list": "cat-2"}, "location": {"row": 0, "fraction": 0.3}}
    target = assert_conforms(browser.post_json(f"/api/sessions/{token}/target", hover), "/api/sessions/{token}/target", "post")
    assert target["handled"] is True
    dropped = assert_conforms(browser.post_json(f"/api/sessions/{token}/drop", {"op": secrets.token_hex(8), "version": begun["version"], **hover}),
                              "/api/sessions/{token}/drop", "post")
    assert dropped["operation"] == "move" and dropped["version"] == begun["version"] + 1 and dropped["counts"]["cat-2"] == 3
    ended = assert_conforms(browser.request("POST", f"/api/sessions/{token}/end"), "/api/sessions/{token}/end", "post")
    assert ended["operation"] == "move"

    # An error of each kind a drag meets, in the document's shape.
    gone = assert_conforms(browser.request("POST", f"/api/sessions/{token}/end"), "/api/sessions/{token}/end", "post")
    assert gone["error"]["code"] == "not_found"
    stranger = assert_conforms(browser.request("POST", "/api/sessions", b"{}", "application/json", csrf=False), "/api/sessions", "post")
    assert stranger["error"]["code"] == "forbidden"
    malformed = assert_conforms(browser.post_json("/api/sessions", {"token": token, "list": "cat-1"}), "/api/sessions", "post")
    assert malformed["error"]["code"] == "invalid_body"
    assert_conforms(browser.request("POST", "/api/sessions", b"{}", "text/plain"), "/api/sessions", "post")
    assert_conforms(browser.request("GET", "/boards/no-such-board/api/board"), "/boards/{board}/api/board", "get")


def test_a_drop_from_another_app_answers_as_documented(server):
    browser = Browser(server.url)
    token = secrets.token_hex(16)
    begun = assert_conforms(browser.post_json("/api/sessions/external", {"token": token, "types": ["Files"], "files": ["image/png"]}),
                            "/api/sessions/external", "post")
    assert begun["uploads"]["types"] == ["image/png", "image/jpeg", "image/gif", "image/webp"]
    refused = assert_conforms(browser.request("POST", f"/api/sessions/{token}/files", b"not an image", "image/png"),
                              "/api/sessions/{token}/files", "post")
    assert refused["error"]["code"] == "unsupported_type"
    stored = assert_conforms(browser.request("POST", f"/api/sessions/{token}/files", PIXEL, "image/png"), "/api/sessions/{token}/files", "post")
    assert stored["size"] == len(PIXEL) and stored["type"] == "image/png"
    drop = {"op": secrets.token_hex(8), "version": begun["version"], "target": {"zone": "image-well"}, "files": [stored["file"]]}
    dropped = assert_conforms(browser.post_json(f"/api/sessions/{token}/drop", drop), "/api/sessions/{token}/drop", "post")
    assert dropped["operation"] == "copy" and dropped["changes"][0]["kind"] == "zone"
    image = re.search(r'data-image="([^"]+)"', dropped["changes"][0]["html"]).group(1)
    assert assert_conforms(browser.request("GET", f"/images/{image}", accept="image/*"), "/images/{image}", "get") == PIXEL


def test_too_many_drags_answer_429_with_retry_after(server):
    """A browser holds at most 32 unfinished drags: the next begin is a 429 that says when to retry."""
    browser = Browser(server.url)
    begin = {"types": ["text/plain"], "files": []}
    for _ in range(32):
        assert_conforms(browser.post_json("/api/sessions/external", {"token": secrets.token_hex(16), **begin}), "/api/sessions/external", "post")
    refused = browser.post_json("/api/sessions/external", {"token": secrets.token_hex(16), **begin})
    assert refused.status == 429 and assert_conforms(refused, "/api/sessions/external", "post")["error"]["code"] == "too_many"
    header = DOCUMENT["components"]["responses"]["TooMany"]["headers"]["Retry-After"]
    assert DOCUMENT["components"]["headers"][header["$ref"].rsplit("/", 1)[1]]["required"] is True
    assert re.fullmatch(r"[0-9]+", refused.headers["Retry-After"]) and int(refused.headers["Retry-After"]) > 0


def test_undo_forms_and_reads_answer_as_documented(server):
    browser = Browser(server.url)
    edited = assert_conforms(browser.post_form("/boards/demo/lists/cat-1/items", title="Yarn", op=secrets.token_hex(8)),
                             "/boards/{board}/lists/{list}/items", "post")
    assert edited["location"] == "/boards/demo" and edited["changes"][0]["kind"] == "insert"
    refused = assert_conforms(browser.post_form("/boards/demo/delete"), "/boards/{board}/delete", "post")
    assert refused["error"]["code"] == "conflict"
    # Without `Accept: application/json`, a plain form's success is a 303 and its error a page.
    op = secrets.token_hex(8)
    plain = browser.post_form("/boards/demo/lists/cat-2/items", accept="text/html", title="Bell", op=op)
    assert_conforms(plain, "/boards/{board}/lists/{list}/items", "post")
    assert plain.status == 303 and plain.headers["Location"] == f"/boards/demo?done={op}"
    page = assert_conforms(browser.post_form("/boards/demo/lists/cat-2/items", accept="text/html", title=""),
                           "/boards/{board}/lists/{list}/items", "post")
    assert b'data-error="bad_request"' in page
    state = assert_conforms(browser.request("GET", "/api/undo?board=demo"), "/api/undo", "get")
    assert state == {"undoActionName": "Add Bell to Tom"}
    undone = assert_conforms(browser.post_json("/api/undo", {"op": secrets.token_hex(8), "board": "demo"}), "/api/undo", "post")
    assert undone["undo"] == {"undoActionName": "Add Yarn to Whiskers", "redoActionName": "Add Bell to Tom"}
    rows = assert_conforms(browser.request("GET", "/boards/demo/api/lists/cat-1/rows?count=2"), "/boards/{board}/api/lists/{list}/rows", "get")
    assert rows["count"] == 2
    too_few = assert_conforms(browser.request("GET", "/boards/demo/api/lists/cat-1/rows?count=0"), "/boards/{board}/api/lists/{list}/rows", "get")
    assert too_few["error"]["code"] == "bad_request"
    assert_conforms(browser.request("GET", "/boards/demo/api/search?q=mouse"), "/boards/{board}/api/search", "get")
    activity = assert_conforms(browser.request("GET", "/boards/demo/activity"), "/boards/{board}/activity", "get")
    assert len(activity["entries"]) == 3
