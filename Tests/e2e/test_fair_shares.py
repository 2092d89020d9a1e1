"""Fair shares (issue #26, items 3 and 8): many addresses, each within its share, cannot take every live
stream or every drag slot, since the last slots are kept for addresses that hold few; and a person
reloading a board (or opening a few tabs) keeps getting its live stream, as a closed page's stream is let
go at once, not at the next heartbeat.

The servers here have small caps so a flood is a few dozen requests. Linux routes all of 127/8 to a server
on 127.0.0.1, so a client socket bound to 127.0.9.N before it connects is another address to the server."""
import contextlib
import http.client
import json
import pathlib
import re
import secrets
import tempfile

from playwright.sync_api import expect

from conftest import Server, discard
from helpers import READY

BANNER = "[data-offline-banner]"
NEWCOMER = "127.0.9.250"

#: Counts what each page's own live stream (EventSource) hears: `opened` at each `hello` (only a stream
#: the server granted says hello), `closed` at each `error` (refused, or dropped).
RECORD_LIVE = """
(() => {
  const Native = window.EventSource;
  window.__live = { opened: 0, closed: 0 };
  window.EventSource = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('hello', () => { window.__live.opened += 1; });
      this.addEventListener('error', () => { window.__live.closed += 1; });
    }
  };
})();
"""
STREAM_OPENED = "() => window.__live.opened >= 1"


@contextlib.contextmanager
def serving(*flags: str):
    running = Server(pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-")) / "board.sqlite", *flags).start()
    try:
        yield running
    finally:
        discard(running)


def address(n: int) -> str:
    return f"127.0.9.{n}"


class Stream:
    """A live-update stream opened from `source`: its status, headers and, once granted, its `hello`."""

    def __init__(self, port: int, source: str):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
        self.connection.request("GET", "/boards/demo/events", headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.error = {}
        if self.status == 200:
            assert self.response.readline() == b"event: hello\n", "a granted stream opens with its hello"
        else:
            self.error = json.loads(self.response.read())["error"]

    def close(self):
        self.connection.close()


def test_addresses_filling_their_stream_shares_leave_a_newcomer_its_stream():
    # 48 streams in all, 8 per address; the last 16 only for addresses holding fewer than 4.
    with serving("--max-event-streams", "48", "--event-stream-reserve", "16", "--event-streams-per-address", "8") as server:
        opened: list[Stream] = []
        refused: list[Stream] = []
        try:
            # Six addresses each ask for their whole share, round by round as a botnet would: without the
            # reserve they would hold all 48. They share the 32 open to anyone, and then hold 4 or more each.
            for _ in range(8):
                for n in range(1, 7):
                    stream = Stream(server.port, address(n))
                    (opened if stream.status == 200 else refused).append(stream)
            assert len(opened) == 48 - 16 and len(refused) == 16
            assert {stream.error["code"] for stream in refused} == {"streams_reserved"}
            heavy = refused[-1]
            assert heavy.status == 429 and heavy.error["code"] == "streams_reserved", heavy.error
            assert "nearly at its limit of live-update streams" in heavy.error["message"]
            assert int(heavy.response.getheader("Retry-After")) >= 1

            newcomer = Stream(server.port, NEWCOMER)
            opened.append(newcomer)
            assert newcomer.status == 200, newcomer.error
            # …and a few tabs more from that address, as a person opens them.
            for _ in range(3):
                opened.append(Stream(server.port, NEWCOMER))
                assert opened[-1].status == 200, opened[-1].error
            fifth = Stream(server.port, NEWCOMER)
            refused.append(fifth)
            assert fifth.status == 429 and fifth.error["code"] == "streams_reserved", fifth.error
        finally:
            for stream in opened + refused:
                stream.close()


class Browser:
    """A browser (its own CSRF cookie) at `source` that begins drags of one card and never ends them."""

    def __init__(self, port: int, source: str):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
        csrf = secrets.token_hex(16)
        self.headers = {"Content-Type": "application/json", "X-CSRF-Token": csrf, "Cookie": f"dragboard_csrf={csrf}",
                        "Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}

    def post(self, path: str, body: dict) -> tuple[http.client.HTTPResponse, dict]:
        self.connection.request("POST", path, json.dumps(body), self.headers)
        response = self.connection.getresponse()
        return response, json.loads(response.read())

    def begin(self, list_id: str, item: str) -> tuple[http.client.HTTPResponse, dict, str]:
        token = secrets.token_hex(16)
        response, answer = self.post("/api/sessions", {"token": token, "list": list_id, "items": [item]})
        return response, answer, token


def first_item(port: int, list_id: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/board")
    board = json.loads(connection.getresponse().read())
    connection.close()
    html = next(entry["html"] for entry in board["lists"] if entry["id"] == list_id)
    return board["version"], re.search(r'data-item="([^"]+)"', html).group(1)


def test_addresses_filling_their_drag_shares_leave_a_newcomer_its_drag():
    # 64 drags in progress in all, 40 per address; the last 24 only for addresses with fewer than 16.
    with serving("--max-drags", "64", "--drag-reserve", "24", "--drags-per-address", "40") as server:
        version, card = first_item(server.port, "places")
        begun = 0
        # One address fills its share (two browsers: a browser keeps at most 32 unfinished drags)…
        for browser, count in ((Browser(server.port, address(1)), 32), (Browser(server.port, address(1)), 8)):
            for _ in range(count):
                response, answer, _ = browser.begin("places", card)
                assert response.status == 201, answer
                begun += 1
        # …which leaves only the reserve; a second address takes what a light user may, and is refused more.
        heavy = Browser(server.port, address(2))
        statuses = [heavy.begin("places", card)[0].status for _ in range(16)]
        assert statuses == [201] * 16
        response, answer, _ = heavy.begin("places", card)
        assert response.status == 429, answer
        assert "nearly at its limit" in answer["error"]["message"], answer
        assert int(response.getheader("Retry-After")) >= 1

        # Without the reserve the two would hold all 64; the newcomer begins a drag and drops it.
        newcomer = Browser(server.port, NEWCOMER)
        _, cat = first_item(server.port, "cat-1")
        response, answer, token = newcomer.begin("cat-1", cat)
        assert response.status == 201, answer
        response, answer = newcomer.post(f"/api/sessions/{token}/drop", {"op": secrets.token_hex(16), "version": version,
                                                                          "target": {"list": "cat-2"}, "location": None})
        assert response.status == 200 and answer["operation"] == "move" and answer["changes"], answer


def test_reloading_a_board_and_opening_a_few_tabs_keeps_every_live_stream(context, console_errors):
    # Four streams per address: before a closed page's stream was let go at once, the fifth load failed.
    with serving("--event-streams-per-address", "4") as server:
        context.add_init_script(RECORD_LIVE)
        tab = console_errors.watch(context.new_page())
        tab.goto(server.demo)
        for load in range(13):   # the first load and twelve reloads
            if load:
                tab.reload()
            tab.wait_for_function(READY)
            tab.wait_for_function(STREAM_OPENED)
            assert tab.evaluate("() => window.__live.closed") == 0, f"load {load + 1}: the stream was refused or dropped"
            expect(tab.locator(BANNER)).to_be_hidden()

        tabs = [tab]
        for _ in range(3):
            tabs.append(console_errors.watch(context.new_page()))
            tabs[-1].goto(server.demo)
            tabs[-1].wait_for_function(READY)
            tabs[-1].wait_for_function(STREAM_OPENED)
        for opened in tabs:
            assert opened.evaluate("() => window.__live") == {"opened": 1, "closed": 0}
            expect(opened.locator(BANNER)).to_be_hidden()

        # The cap is real: a fifth tab is refused and says it is offline, until a tab is closed.
        console_errors.expect(r"429", r"/boards/demo/events$")
        fifth = console_errors.watch(context.new_page())
        fifth.goto(server.demo)
        fifth.wait_for_function(READY)
        fifth.wait_for_function("() => window.__live.closed >= 1")
        expect(fifth.locator(BANNER)).to_be_visible()
        tabs[1].close()
        fifth.wait_for_function(STREAM_OPENED, timeout=10_000)   # its next try, after the backoff's first second
        expect(fifth.locator(BANNER)).to_be_hidden()
        assert console_errors.unexpected() == [], console_errors.unexpected()
