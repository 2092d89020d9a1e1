"""`make bench` in Chromium: what a board page weighs over the wire, and the DOM's work when its lists
hold 1,000 rows each (issue #27, goals 5 and 4), for the release server and, with `--baseline <other
dragboard binary>`, for that one too in the same run, side by side.

    .venv/bin/python Tests/bench/browser_bench.py [--binary .build/release/dragboard] [--baseline BIN] [--runs 3]

Each binary serves a showcase board whose three cats hold 1,000 toys each (seeded by DragboardBench, as
http_bench.py's `dragboard` does; the server renders a window of each list's first rows). Each run opens a
fresh browser context (an empty cache) per binary, in Debian's Chromium, headless:

1. Page weight. A first visit of the board page, then a repeat one in the same context (`page.goto` to the
   same URL: a normal navigation, not a reload, which would revalidate everything). The bytes come from the
   DevTools protocol: `Network.loadingFinished.encodedDataLength` per request (headers and body as they came
   over the wire; 0 for what came from the browser's cache), the HTML apart from CSS+JS and the rest. The
   page's long-lived event stream (`/events`) never finishes loading and is left out. The time is
   `performance.now()` (from navigation start) when the page says its scripts are set up (the setter of
   `window.__dragboardReady`, which READY in Tests/e2e/helpers.py waits for).
2. A drop's DOM update, 30 keyboard drops (focus a list's first row, Space, the pick-up answered, ArrowDown
   twice, Space; the next drop once the drag's session ended): an init script wraps `window.fetch` and
   notes `performance.now()` when the answer to a `…/drop` resolves, and when the page dispatches
   BOARD_CHANGED (Public/events.js, from view.js once the change is in the DOM).
   The DOM update is changed − answer (the answer's body is read and parsed in between). "…its listeners
   done" adds the page's own BOARD_CHANGED listeners (a microtask queued from a capturing listener runs once
   the dispatch and the rest of that task's script returned). Once on the page as it loads (the server
   renders a window of each list's first rows), once with every row of cat-1 loaded (`?list=cat-1&rows=N`).
3. Long tasks while a real mouse drag (Playwright's page.mouse: down on a row, a small move every few ms,
   up) goes up and down over the middle of the 1,000-row list for 3 s: a buffered `PerformanceObserver` for
   `longtask` in the init script, counted from the mouse down to the end of the drag's session. A long task
   is wall time: on a busy machine a renderer waiting for a core has longer ones. The count of moves says
   how many the page took in those 3 s (each is a round trip of Playwright's).

Medians of the runs' figures are printed (a p50 or p95 is taken within a run). Nothing is asserted on time;
the exit status is non-zero only when something is broken (a page never ready, a request refused, a drop
that changed nothing, an error in the page or its console). Every wait is for a condition.
"""
import argparse
import json
import pathlib
import re
import shutil
import statistics
import sys
import tempfile
import time
from urllib.parse import urlsplit

from clients import BOARD, percentile
from http_bench import ROOT, checkout, dragboard

sys.path.insert(0, str(ROOT / "Tests/e2e"))
from helpers import READY, list_of, rows, start_drag, version  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

#: Rows in each of the three cats.
ROWS = 1_000
#: Keyboard drops per run and page.
DROPS = 30
#: How long the mouse drags over the list, and how far each move goes (CSS pixels).
DRAG_SECONDS, DRAG_STEP = 3.0, 3
#: The list the drops and the drag happen in.
LIST = "cat-1"
#: CSS and JS as Chromium's resource types name them; what is not a file of the app (the page, its fetches).
CODE = ("Stylesheet", "Script")
NOT_FILES = ("Document", "Fetch", "XHR", "EventSource", "WebSocket", "Ping", "Preflight")
#: The status line (Public/selectors.js's STATUS): the server's words on a pick-up.
STATUS = "#status"

#: Notes in `window.__bench`: when the page was ready, when each drop's answer resolved, each BOARD_CHANGED
#: (dispatched, and its listeners done), how many drags ended, and every long task. NAMES is replaced by the
#: checkout's event names ([BOARD_CHANGED, DRAG_ENDED]).
INIT = """(([changed, ended]) => {
  const marks = { ready: null, answers: [], changes: [], ended: 0, longTasks: [] };
  Object.defineProperty(window, '__bench', { value: marks });
  let ready;
  Object.defineProperty(window, '__dragboardReady', {
    configurable: true,
    get: () => ready,
    set: (value) => { ready = value; if (value === true && marks.ready === null) marks.ready = performance.now(); },
  });
  const nativeFetch = window.fetch;
  window.fetch = function (resource, ...rest) {
    const answer = nativeFetch.call(this, resource, ...rest);
    const url = resource instanceof Request ? resource.url : String(resource);
    // Registered before the caller's own reaction: it runs first, when the answer resolves.
    if (url.endsWith('/drop')) answer.then(() => marks.answers.push(performance.now()), () => {});
    return answer;
  };
  window.addEventListener(changed, (event) => {
    const change = { version: event.detail?.version, applied: performance.now(), settled: null };
    marks.changes.push(change);
    queueMicrotask(() => { change.settled = performance.now(); });
  }, true);
  window.addEventListener(ended, () => { marks.ended += 1; }, true);
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) marks.longTasks.push([task.startTime, task.duration]);
  }).observe({ type: 'longtask', buffered: true });
})(NAMES);"""

#: The page's rows in the DOM: the list's, and every list's.
DOM_ROWS = """(list) => [document.querySelectorAll(`[data-list="${list}"] > .rows > [data-item]`).length,
                     document.querySelectorAll('[data-list] > .rows > [data-item]').length]"""

NEXT_FRAME = "() => new Promise((resolve) => requestAnimationFrame(() => resolve()))"


class Broken(Exception):
    """Something the bench relies on did not work: no figure would mean anything."""


def event_names(binary: pathlib.Path) -> list[str]:
    """BOARD_CHANGED and DRAG_ENDED as the binary's own checkout names them."""
    text = (checkout(binary) / "Public/events.js").read_text()
    return [re.search(rf"export const {name} = '([^']+)'", text).group(1) for name in ("BOARD_CHANGED", "DRAG_ENDED")]


class Wire:
    """Every request of one page as the DevTools protocol saw it, since the last `clear()`."""

    def __init__(self, context, page):
        self.requests: dict[str, dict] = {}
        self.cdp = context.new_cdp_session(page)
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.requestServedFromCache", self._cached)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.loadingFailed", self._failed)
        self.cdp.send("Network.enable")

    def clear(self):
        self.requests = {}

    def _sent(self, event):
        self.requests[event["requestId"]] = {"url": event["request"]["url"], "type": event.get("type"), "status": None,
                                             "headers": {}, "cached": False, "bytes": None, "failed": False}

    def _cached(self, event):
        if request := self.requests.get(event["requestId"]):
            request["cached"] = True

    def _response(self, event):
        if request := self.requests.get(event["requestId"]):
            response = event["response"]
            request.update(type=event.get("type", request["type"]), status=response["status"],
                           headers={key.lower(): value for key, value in response["headers"].items()})
            request["cached"] |= bool(response.get("fromDiskCache") or response.get("fromMemoryCache"))

    def _finished(self, event):
        if request := self.requests.get(event["requestId"]):
            request["bytes"] = event["encodedDataLength"]

    def _failed(self, event):
        if request := self.requests.get(event["requestId"]):
            request["failed"] = True

    @staticmethod
    def is_stream(request: dict) -> bool:
        return request["type"] == "EventSource" or urlsplit(request["url"]).path.endswith("/events")

    def settle(self, page):
        """Waits until every request but the event stream has finished (the favicon comes after `load`)."""
        deadline = time.monotonic() + 30
        page.evaluate(NEXT_FRAME)   # a request the browser makes after `load` (the favicon) has been sent
        while pending := [request["url"] for request in self.requests.values()
                          if request["bytes"] is None and not request["failed"] and not self.is_stream(request)]:
            if time.monotonic() > deadline:
                raise Broken(f"requests never finished: {pending}")
            page.evaluate(NEXT_FRAME)

    def visit(self) -> dict:
        """What the requests since `clear()` weigh: the HTML, CSS+JS and the rest, without the event stream."""
        kept = [request for request in self.requests.values() if not self.is_stream(request) and not request["failed"]]
        if refused := [f"{request['status']} {request['url']}" for request in kept if request["status"] >= 400]:
            raise Broken(f"the page's requests were refused: {refused}")
        html = [request for request in kept if request["type"] == "Document"]
        code = [request for request in kept if request["type"] in CODE]
        other = [request for request in kept if request["type"] != "Document" and request["type"] not in CODE]
        over_wire = lambda requests: [request for request in requests if request["bytes"] and not request["cached"]]
        kb = lambda requests: sum(request["bytes"] for request in requests) / 1000
        return {
            "html_kb": kb(html), "code_files": len(code), "code_kb": kb(code), "code_fetched": len(over_wire(code)),
            "code_cached": sum(request["cached"] for request in code),
            "code_revalidated": sum(request["status"] == 304 for request in code),
            "other_files": len(other), "other_kb": kb(other), "besides_html_kb": kb(code + other),
            "streams": sorted({urlsplit(request["url"]).path for request in self.requests.values() if self.is_stream(request)}),
            "cache_control": sorted({(request["headers"].get("cache-control", "(none)"), urlsplit(request["url"]).path)
                                     for request in kept if request["type"] not in NOT_FILES}),
            "encodings": sorted(request["headers"]["content-encoding"] for request in kept if "content-encoding" in request["headers"]),
            "responses": len(kept),
        }


def goto_ready(page, url: str, errors: list) -> float:
    """Navigates and waits until the page's scripts are set up; ms from navigation start to then."""
    page.goto(url)
    page.wait_for_function(READY)
    if errors:
        raise Broken(f"errors in the page at {url}: {errors}")
    return page.evaluate("() => window.__bench.ready")


def keyboard_drops(page, count: int, errors: list) -> tuple[list[float], list[float]]:
    """`count` drops with the keyboard, each a list's first row below the next one; per drop the ms from its
    answer to BOARD_CHANGED, and to that event's listeners done."""
    applied, settled = [], []
    for _ in range(count):
        before, ended = version(page), page.evaluate("() => window.__bench.ended")
        rows(page, LIST).first.focus()
        page.keyboard.press("Space")
        # The begin answered (its proposal table is in hand); polled each frame (`expect` waits 100 ms and more).
        page.wait_for_function("(status) => document.querySelector(status)?.textContent.startsWith('Picked up')", arg=STATUS)
        page.keyboard.press("ArrowDown")   # the place after the row itself: nothing would change
        page.keyboard.press("ArrowDown")   # after the next row
        page.keyboard.press("Space")
        # The drag's session ends after the answer was applied (session.js): the change is in, or never will be.
        page.wait_for_function("(ended) => window.__bench.ended > ended", arg=ended)
        if errors:
            raise Broken(f"errors in the page: {errors}")
        if version(page) != before + 1:
            raise Broken(f"a keyboard drop did not change the board (version {before} → {version(page)}): "
                         f"{page.locator(STATUS).text_content()!r}")
        marks = page.evaluate("(version) => ({ answer: window.__bench.answers.at(-1), "
                              "change: window.__bench.changes.find((change) => change.version === version) })", before + 1)
        if marks["answer"] is None or marks["change"] is None:
            raise Broken(f"a drop's answer or its BOARD_CHANGED was not noted: {marks}")
        applied.append(marks["change"]["applied"] - marks["answer"])
        settled.append(marks["change"]["settled"] - marks["answer"])
    return applied, settled


def drag_long_tasks(page) -> tuple[int, float, int]:
    """A real mouse drag over the middle of the list for DRAG_SECONDS; the long tasks from the mouse down to
    the end of the drag's session (how many, the longest in ms) and how many moves were made."""
    box = list_of(page, LIST).locator(":scope > .rows").bounding_box()
    height = page.viewport_size["height"]
    top, bottom = max(box["y"], 0) + box["height"] * 0.25, min(box["y"] + box["height"] * 0.75, height - 20)
    if bottom - top < 50:
        raise Broken(f"the list {LIST} is not in view: {box}")
    x = box["x"] + box["width"] / 2
    started = page.evaluate("() => performance.now()")
    drag = start_drag(page, rows(page, LIST).nth(2))
    y, step, moves = top, DRAG_STEP, 0
    deadline = time.monotonic() + DRAG_SECONDS
    while time.monotonic() < deadline:   # a bounded loop of moves, each answered by the browser
        if not top <= y + step <= bottom:
            step = -step
        y += step
        page.mouse.move(x, y)
        moves += 1
    drag.release()
    tasks = page.evaluate("(since) => window.__bench.longTasks.filter(([start]) => start >= since).map(([, duration]) => duration)",
                          started)
    return len(tasks), max(tasks, default=0.0), moves


def measure(browser, binary: pathlib.Path, url: str) -> dict:
    """One run's figures for one server, in a fresh browser context."""
    context = browser.new_context()
    try:
        context.add_init_script(INIT.replace("NAMES", json.dumps(event_names(binary))))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        wire = Wire(context, page)
        figures = {}

        first_ms = goto_ready(page, url, errors)
        wire.settle(page)
        first = wire.visit()
        wire.clear()
        repeat_ms = goto_ready(page, url, errors)
        wire.settle(page)
        repeat = wire.visit()
        figures.update({
            "first visit: HTML (KB)": first["html_kb"],
            "first visit: CSS+JS files": first["code_files"],
            "first visit: CSS+JS (KB)": first["code_kb"],
            "first visit: other files (favicon, fetches)": first["other_files"],
            "first visit: other (KB)": first["other_kb"],
            "first visit: ready after navigation start (ms)": first_ms,
            "repeat visit: HTML (KB)": repeat["html_kb"],
            "repeat visit: CSS+JS files over the wire": repeat["code_fetched"],
            "repeat visit: CSS+JS files from the cache": repeat["code_cached"],
            "repeat visit: CSS+JS revalidated (304)": repeat["code_revalidated"],
            "repeat visit: CSS+JS (KB)": repeat["code_kb"],
            "repeat visit: other (KB)": repeat["other_kb"],
            "repeat visit: all but the HTML (KB)": repeat["besides_html_kb"],
            "repeat visit: ready after navigation start (ms)": repeat_ms,
        })
        notes = {"first": first, "repeat": repeat}

        figures[f"DOM rows of {LIST}, page as loaded"], figures["DOM rows of all lists, page as loaded"] = page.evaluate(DOM_ROWS, LIST)
        applied, settled = keyboard_drops(page, DROPS, errors)
        figures["drop → DOM updated, page as loaded (p50 ms)"] = percentile(applied, 50)
        figures["drop → DOM updated, page as loaded (p95 ms)"] = percentile(applied, 95)
        figures["  …its listeners done, page as loaded (p50 ms)"] = percentile(settled, 50)
        figures["  …its listeners done, page as loaded (p95 ms)"] = percentile(settled, 95)

        goto_ready(page, f"{url}?list={LIST}&rows={ROWS}", errors)
        loaded = page.evaluate(DOM_ROWS, LIST)
        if loaded[0] < ROWS:
            raise Broken(f"?list={LIST}&rows={ROWS} rendered {loaded[0]} rows of {LIST}")
        figures[f"DOM rows of {LIST}, every row loaded"], figures["DOM rows of all lists, every row loaded"] = loaded
        applied, settled = keyboard_drops(page, DROPS, errors)
        figures["drop → DOM updated, every row loaded (p50 ms)"] = percentile(applied, 50)
        figures["drop → DOM updated, every row loaded (p95 ms)"] = percentile(applied, 95)
        figures["  …its listeners done, every row loaded (p50 ms)"] = percentile(settled, 50)
        figures["  …its listeners done, every row loaded (p95 ms)"] = percentile(settled, 95)

        count, longest, moves = drag_long_tasks(page)
        if errors:
            raise Broken(f"errors in the page: {errors}")
        figures[f"mouse drag {DRAG_SECONDS:.0f} s over {ROWS:,} rows: long tasks over 50 ms"] = count
        figures[f"mouse drag {DRAG_SECONDS:.0f} s over {ROWS:,} rows: longest task (ms)"] = longest
        figures[f"mouse drag {DRAG_SECONDS:.0f} s over {ROWS:,} rows: mouse moves made"] = moves
        return {"figures": figures, "notes": notes}
    finally:
        context.close()


#: Issue #27's goals beside their figures: the words, and whether a figure meets it.
GOALS = {
    "repeat visit: all but the HTML (KB)": ("≤ 10 (#5)", lambda value: value <= 10),
    "drop → DOM updated, page as loaded (p50 ms)": ("≤ 16 (#4)", lambda value: value <= 16),
    "drop → DOM updated, every row loaded (p50 ms)": ("≤ 16 (#4)", lambda value: value <= 16),
    f"mouse drag {DRAG_SECONDS:.0f} s over {ROWS:,} rows: long tasks over 50 ms": ("none over 50 ms (#4)", lambda value: value == 0),
}


def report(runs: list[dict], names: list[str], browser_version: str, binaries: dict):
    median = statistics.median
    keys = list(runs[0][names[0]]["figures"])
    print(f"== In Chromium {browser_version}: a board page's weight, and the DOM's work at {ROWS:,} rows per list "
          f"(medians of {len(runs)} run{'s' if len(runs) > 1 else ''}, a fresh browser context each) ==")
    for name in names:
        print(f"   {name}: {binaries[name]}")
    print(f"{'measure':<58}" + "".join(f"{name:>12}" for name in names) + "   goal")
    for key in keys:
        values = [median([run[name]["figures"][key] for run in runs]) for name in names]
        goal, met = GOALS.get(key, ("", None))
        verdicts = "" if met is None else "  " + " / ".join("met" if met(value) else "NOT met" for value in values)
        # Times and sizes with two decimals, counts as they are (a median of an even number of runs may end in .5).
        shown = ".2f" if re.search(r"(ms|KB)\)$", key) else "g"
        print(f"{key:<58}" + "".join(f"{value:>12{shown}}" for value in values)
              + (f"   {goal}{verdicts}" if goal else ""))
    for name in names:
        first, repeat = runs[0][name]["notes"]["first"], runs[0][name]["notes"]["repeat"]
        tag = f" [{name}]" if len(names) > 1 else ""
        controls: dict[str, list[str]] = {}
        for control, path in first["cache_control"]:
            controls.setdefault(control, []).append(path)
        for control, paths in controls.items():
            print(f"static files{tag}: Cache-Control: {control}  ({len(paths)} files, e.g. {paths[0]})")
        for label, visit in (("first", first), ("repeat", repeat)):
            encodings = visit["encodings"]
            said = (", ".join(f"{encoding}: {encodings.count(encoding)}" for encoding in sorted(set(encodings)))
                    + f" of {visit['responses']} responses") if encodings else f"none of {visit['responses']} responses"
            print(f"compressed (content-encoding), {label} visit{tag}: {said}")
        print(f"left out of the bytes{tag}: the event stream {', '.join(first['streams']) or '(none seen)'}")
    print("bytes: Network.loadingFinished.encodedDataLength (headers and body over the wire; 0 from the cache); "
          "KB = 1,000 bytes; the repeat visit is a normal navigation to the same URL in the same context")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", type=pathlib.Path, default=ROOT / ".build/release/dragboard")
    parser.add_argument("--baseline", type=pathlib.Path, help="another dragboard binary, measured in the same runs")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    binaries = {"this": args.binary, **({"baseline": args.baseline} if args.baseline else {})}
    for name, binary in binaries.items():
        if not binary.exists():
            raise SystemExit(f"{binary} is missing: build it with `swift build -c release --product dragboard` and "
                             f"`swift build -c release --product DragboardBench` in its checkout (`make bench` does)")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-browser-bench-"))
    servers = {}
    try:
        for name, binary in binaries.items():
            servers[name] = dragboard(binary, folder, ROWS)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"], headless=True)
            runs = [{name: measure(browser, binaries[name], f"http://127.0.0.1:{servers[name].port}{BOARD}") for name in binaries}
                    for _ in range(max(1, args.runs))]
            report(runs, list(binaries), browser.version, binaries)
            browser.close()
    except Broken as broken:
        raise SystemExit(f"broken: {broken}")
    finally:
        for server in servers.values():
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
