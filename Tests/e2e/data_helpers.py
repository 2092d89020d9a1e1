"""Helpers of the "data that travels" tests: drags that come from another application (trusted
drag events sent through the DevTools protocol), test images built at test time, the session API
called directly, and a recorder of what a drag writes into its DataTransfer.

A drag from another app is what Chromium itself receives from the operating system:
`Input.dispatchDragEvent` with `dragEnter`, several `dragOver` and `drop`; its files are real files
on disk. Nothing here sleeps; every wait is for a condition or a response.
"""
import json
import os
import re
import secrets
import struct
import uuid
import zlib
from pathlib import Path

from playwright.sync_api import Locator, Page, TimeoutError as PlaywrightTimeoutError, expect

from helpers import READY, point_in

#: `dragOperationsMask` bits (Chromium's DragOperation).
COPY, MOVE = 1, 16

SESSION_TYPE = re.compile(r"^application/x-dragboard-session-([0-9a-f]{32})$")

#: Records every `DataTransfer.setData(type, data)` into `window.__setData`, in call order.
RECORD_SET_DATA = """(() => {
    window.__setData = [];
    const original = DataTransfer.prototype.setData;
    DataTransfer.prototype.setData = function (type, data) {
        window.__setData.push([String(type), String(data)]);
        return original.call(this, type, data);
    };
})();"""


#: Posts one of the board's forms as the page's fetches do (the page's CSRF token, JSON answer).
POST_FORM = """async ([path, fields]) => {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const response = await fetch(path, {
    method: 'POST', credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, op: crypto.randomUUID(), ...fields }),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}"""


# ---------------------------------------------------------------- requests of the page

def is_external_begin(response) -> bool:
    return response.request.method == "POST" and response.url.endswith("/api/sessions/external")


def is_join(token: str | None = None):
    def predicate(response) -> bool:
        match = re.search(r"/api/sessions/([0-9a-f]{32})/join$", response.url)
        return response.request.method == "POST" and bool(match) and token in (None, match.group(1))
    return predicate


def is_upload(response) -> bool:
    return response.request.method == "POST" and bool(re.search(r"/api/sessions/[0-9a-f]{32}/files$", response.url))


def is_drop(response) -> bool:
    return response.request.method == "POST" and bool(re.search(r"/api/sessions/[0-9a-f]{32}/drop$", response.url))


def is_image(response) -> bool:
    return response.request.method == "GET" and bool(re.search(r"/images/[^/?#]+$", response.url))


#: The console line Chromium itself writes when the server refuses an upload of the page.
REFUSED_UPLOAD = (r"status of 415", r"/api/sessions/[0-9a-f]{32}/files$")


# ---------------------------------------------------------------- pages

def wait_ready(page: Page) -> Page:
    page.wait_for_function(READY)
    return page


def open_board(context, server, console_errors) -> Page:
    """Another window of the app in `context` (same cookies), watched for errors like `page`."""
    opened = console_errors.watch(context.new_page())
    opened.goto(server.demo)
    return wait_ready(opened)


def zone(page: Page, name: str) -> Locator:
    return page.locator(f'[data-zone="{name}"]')


def well_images(page: Page) -> Locator:
    return page.locator('[data-zone="image-well"] .well-images img')


def label_text(page: Page) -> Locator:
    return page.locator('[data-zone="label"] .label-text')


def item_ids(page: Page, list_id: str) -> list[str]:
    return page.eval_on_selector_all(f'[data-list="{list_id}"] > .rows > [data-item]', "rows => rows.map((row) => row.dataset.item)")


def new_row(page: Page, list_id: str, before: list[str]) -> Locator:
    """The one row of `list_id` whose id was not among `before`."""
    added = [item for item in item_ids(page, list_id) if item not in before]
    assert len(added) == 1, f"expected one new row in {list_id}, found {added}"
    return page.locator(f'[data-list="{list_id}"] > .rows > [data-item="{added[0]}"]')


def board_markup(page: Page, url: str) -> str:
    """Every piece of markup `GET /api/board` serves (lists, zones), joined."""
    response = page.request.get(url + "/api/board")
    assert response.status == 200

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for nested in value.values():
                yield from strings(nested)
        elif isinstance(value, list):
            for nested in value:
                yield from strings(nested)
    return "\n".join(strings(response.json()))


def count_title(markup: str, title: str) -> int:
    """How many rows titled exactly `title` the markup shows."""
    return len(re.findall(r'class="title">' + re.escape(title) + "<", markup))


# ---------------------------------------------------------------- test files

def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(width: int = 4, height: int = 3, pixels: bytes | None = None, level: int = 9) -> bytes:
    """A valid RGB PNG; by default a solid orange picture."""
    row_size = width * 3
    pixels = pixels if pixels is not None else bytes((240, 140, 20)) * (width * height)
    assert len(pixels) == row_size * height
    raw = b"".join(b"\x00" + pixels[y * row_size:(y + 1) * row_size] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"tEXt", b"Comment\x00dragboard e2e")
            + _chunk(b"IDAT", zlib.compress(raw, level)) + _chunk(b"IEND", b""))


def large_png_bytes(megabytes: float = 8) -> tuple[bytes, int, int]:
    """A valid PNG of about `megabytes` MB: random pixels stored without compression (a real,
    decodable picture, so its upload takes visible time). Returns the bytes and its size."""
    width = 1600
    height = int(megabytes * 1024 * 1024 / (width * 3)) + 1
    return png_bytes(width, height, os.urandom(width * height * 3), level=0), width, height


def write(directory: Path, name: str, content: bytes) -> Path:
    path = directory / name
    path.write_bytes(content)
    return path


# ---------------------------------------------------------------- drags from another application

class ExternalDrag:
    """A drag that another application (or another window) brings into `page`.

    `items` are `(mime type, string)` pairs, `files` paths of real files; `mask` the operations
    the source allows (COPY for another app). The page learns the drag at its first dragenter and
    asks the server for a proposal table (`/api/sessions/external`, or `/join` when it recognises
    a session of this app); `enter` waits for that answer, then moves once more over the target,
    so the last dragover was answered with the table in hand."""

    def __init__(self, page: Page, items=(), files=(), mask: int = COPY):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.data = {"items": [{"mimeType": kind, "data": data} for kind, data in items],
                     "files": [str(Path(path).resolve()) for path in files], "dragOperationsMask": mask}
        self.begun: dict | None = None
        self.x: float | None = None
        self.y: float | None = None

    def send(self, kind: str, x: float, y: float) -> None:
        self.cdp.send("Input.dispatchDragEvent", {"type": kind, "x": x, "y": y, "data": self.data})
        self.x, self.y = x, y

    def _settle(self) -> None:
        """Lets the page take in the answer that just arrived (one animation frame)."""
        self.page.evaluate("() => new Promise((resolve) => requestAnimationFrame(() => resolve()))")

    def enter(self, target: Locator, position: str | float = "middle", begins=is_external_begin, steps: int = 6) -> "ExternalDrag":
        """Enters the window over `target` and moves over it in `steps`, waiting for the table."""
        target.scroll_into_view_if_needed()
        x, y = point_in(target, position)
        box = target.bounding_box()
        start = x - min(40.0, box["width"] / 3)
        try:
            with self.page.expect_response(begins, timeout=10_000) as begun:
                self.send("dragEnter", start, y)
                for step in range(1, steps + 1):
                    self.send("dragOver", start + (x - start) * step / steps, y)
            response = begun.value
        except PlaywrightTimeoutError:
            raise AssertionError("the page asked the server nothing for this new drag (no /api/sessions/external "
                                 "or /join): does it still hold an earlier drag?") from None
        response.finished()
        assert response.status in (200, 201), f"the page could not begin the session: {response.status} {response.text()}"
        self.begun = response.json()
        self._settle()
        self.send("dragOver", x + 1, y)
        return self

    def hover(self, target: Locator, position: str | float = "middle", steps: int = 6) -> "ExternalDrag":
        """Moves (after `enter`) to `position` within `target`, then once more over it."""
        x, y = point_in(target, position)
        start_x, start_y = self.x, self.y
        for step in range(1, steps + 1):
            self.send("dragOver", start_x + (x - start_x) * step / steps, start_y + (y - start_y) * step / steps)
        self.send("dragOver", x + 1, y)
        return self

    def drop(self) -> None:
        """Releases over the last point. Chromium turns it into `dragleave` when the page did not
        accept the last dragover. Nothing follows (no dragend in the target page)."""
        self.send("drop", self.x, self.y)

    def leave_window(self) -> None:
        """Moves out of the window (the page gets a dragleave), as a drag going back to its app.
        (CDP's `dragCancel` fires no event in the page.)"""
        self.send("dragOver", -20, -20)

    def close(self) -> None:
        self.cdp.detach()


def drop_and_wait(page: Page, drag: ExternalDrag) -> dict:
    """Drops and returns the answer of the page's `/drop` (which must succeed)."""
    with page.expect_response(is_drop) as dropped:
        drag.drop()
    response = dropped.value
    assert response.status == 200, f"the drop failed: {response.status} {response.text()}"
    return response.json()


def every_operation(table: dict) -> list[tuple[dict, bool, str]]:
    """Every (target, handled, operation) a proposal table offers, in every variant and run."""
    found = []
    for entry in table["targets"]:
        for variant in (entry, entry.get("copy") or {}):
            if "noRow" in variant:
                found.append((entry["target"], entry["handled"], variant["noRow"]["op"]))
            for run in variant.get("runs", []):
                found.append((entry["target"], entry["handled"], run["proposal"]["op"]))
    return found


# ---------------------------------------------------------------- the session API, directly

class Api:
    """The session API called with a page's cookie and its CSRF token in `X-CSRF-Token`."""

    def __init__(self, page: Page, url: str):
        self.page = page
        self.url = url
        self.csrf = page.get_attribute('meta[name="csrf-token"]', "content")
        assert self.csrf and len(self.csrf) == 32

    def post(self, path: str, body, csrf: bool = True):
        headers = {"Content-Type": "application/json"}
        if csrf:
            headers["X-CSRF-Token"] = self.csrf
        return self.page.request.post(self.url + path, data=body if isinstance(body, str) else json.dumps(body), headers=headers)

    def upload(self, token: str, content: bytes, content_type: str = "image/png", name: str = "picture.png", csrf: bool = True):
        headers = {"Content-Type": content_type, "X-File-Name": name}
        if csrf:
            headers["X-CSRF-Token"] = self.csrf
        return self.page.request.post(f"{self.url}/api/sessions/{token}/files", data=content, headers=headers)

    def board(self) -> dict:
        response = self.page.request.get(self.url + "/api/board")
        assert response.status == 200
        return response.json()

    def version(self) -> int:
        return self.board()["version"]

    def begin(self, list_id: str, items: list[str], token: str | None = None) -> tuple[str, dict]:
        """A drag of `items` from `list_id`, as the page's `dragstart` begins it."""
        token = token or secrets.token_hex(16)
        response = self.post("/api/sessions", {"token": token, "list": list_id, "items": items})
        assert response.status == 201, f"{response.status} {response.text()}"
        return token, response.json()

    def external(self, types, files=(), token: str | None = None) -> tuple[str, dict]:
        token = token or secrets.token_hex(16)
        response = self.post("/api/sessions/external", {"token": token, "types": list(types), "files": list(files)})
        assert response.status == 201, f"{response.status} {response.text()}"
        return token, response.json()

    def drop(self, token: str, target: dict, data=(), files=(), location=None, version: int | None = None):
        return self.post(f"/api/sessions/{token}/drop", {
            "op": str(uuid.uuid4()), "version": self.version() if version is None else version, "target": target,
            "location": location, "data": [list(pair) for pair in data], "files": list(files)})


class RawResponse:
    """The parts of an HTTP answer the tests read, shaped like Playwright's APIResponse."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes):
        self.status, self.headers, self._body = status, headers, body

    def body(self) -> bytes:
        return self._body

    def text(self) -> str:
        return self._body.decode("utf-8", "replace")

    def json(self):
        return json.loads(self._body)


def _upload_head(api: Api, token: str, length: int, content_type: str, name: str, expect_continue: bool) -> tuple[str, int, bytes]:
    """Host, port and request head of `POST /files` with the page's cookies and CSRF token."""
    from urllib.parse import urlsplit

    parts = urlsplit(api.url)
    cookies = "; ".join(f"{cookie['name']}={cookie['value']}" for cookie in api.page.context.cookies(api.url))
    head = (f"POST /api/sessions/{token}/files HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: {content_type}\r\n"
            f"X-File-Name: {name}\r\nX-CSRF-Token: {api.csrf}\r\nCookie: {cookies}\r\nContent-Length: {length}\r\n"
            + ("Expect: 100-continue\r\n" if expect_continue else "") + "Connection: close\r\n\r\n")
    return parts.hostname, parts.port, head.encode("latin-1")


def upload_expecting_continue(api: Api, token: str, content: bytes, content_type: str = "image/png",
                              name: str = "picture.png") -> RawResponse:
    """`POST /files` over a plain socket with `Expect: 100-continue`: the body is sent only after
    the server's "100 Continue", so a server that refuses from the headers (413) is heard
    whatever it does with the connection afterwards. Uses the page's cookies and CSRF token."""
    import socket

    host, port, head = _upload_head(api, token, len(content), content_type, name, expect_continue=True)
    with socket.create_connection((host, port), timeout=30) as connection:
        connection.sendall(head)
        reader = connection.makefile("rb")

        def read_head() -> tuple[int, dict[str, str]]:
            status = int(reader.readline().split()[1])
            headers = {}
            while (line := reader.readline().decode("latin-1").strip()):
                key, _, value = line.partition(":")
                headers[key.strip().lower()] = value.strip()
            return status, headers

        status, headers = read_head()
        if status == 100:
            connection.sendall(content)
            status, headers = read_head()
        length = int(headers.get("content-length", "-1"))
        body = reader.read(length) if length >= 0 else reader.read()
    return RawResponse(status, headers, body)


def upload_cut_off(api: Api, token: str, announced: int, sent: bytes, while_open) -> None:
    """`POST /files` announcing `announced` bytes that sends only `sent`, calls `while_open()`
    with the connection still open, then closes it: an upload aborted halfway."""
    import socket

    host, port, head = _upload_head(api, token, announced, "image/png", "cut.png", expect_continue=False)
    with socket.create_connection((host, port), timeout=30) as connection:
        connection.sendall(head + sent)
        while_open()


def wait_until(condition, what: str, timeout: float = 10.0) -> None:
    """Polls `condition` until it holds: for state outside the browser (files on disk)."""
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.02)


def assert_json_error(response, statuses, code: str | None = None) -> None:
    statuses = (statuses,) if isinstance(statuses, int) else tuple(statuses)
    assert response.status in statuses, f"expected {statuses}, got {response.status}: {response.text()}"
    assert response.headers["content-type"].startswith("application/json"), response.headers["content-type"]
    body = response.json()
    assert set(body) == {"error"}, body
    if code is None:
        assert isinstance(body["error"]["code"], str) and body["error"]["code"] not in ("", "internal_error"), body
    else:
        assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"], body


def expect_no_feedback(page: Page) -> None:
    expect(page.locator("[data-drop-operation]")).to_have_count(0)
    expect(page.locator(".drop-badge")).to_be_hidden()
