"""Floods from many addresses, each within its share (issue #26, item 3), against the real server with its
default limits: one after the other, on a fresh server each,
  streams  `--stream-addresses` × `--streams-per-address` live-update streams, held open;
  drags    `--drag-addresses` × `--drags-per-address` drag sessions begun and never ended;
  idle     `--idle-addresses` × `--idle-per-address` connections that send nothing, reopened as the server
           closes them (its request-head deadline), as an attacker would.
Each flood comes from loopback addresses of its own (127.10.x.y and up; Linux routes all of 127/8 to a
server on 127.0.0.1), opened round by round so every address fills its share evenly. While it is held,
a legitimate client from 127.0.0.250 opens its live stream, drags (begin, drop, end) and loads the board
page for `--seconds`; the same client is measured on the quiet server first. Prints p50/p99 of its page
loads and drop cycles, whether its stream was granted (and heard its own drops), and what the flood was
refused, with the server's words.

    python3 Tests/load/flood.py                  # the full floods (~3 minutes on two cores)
    python3 Tests/load/flood.py --quick          # small limits and floods (~1 minute)

Exits 1 when the legitimate client was refused anything or a p99 reached `--budget` ms: a measurement,
printed as such, not a test assertion (the machine's other load shows in it). Stdlib only; loopback only.
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import http.client
import json
import math
import pathlib
import re
import resource
import secrets
import selectors
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from server import start, stop
from slowloris import server_sockets

LEGITIMATE = "127.0.0.250"
EVENTS = "/boards/demo/events"


def flood_address(flood: int, index: int) -> str:
    """The `index`th address of flood number `flood`: apart from 127.0.0.x and from the other floods."""
    return f"127.{10 + flood}.{index // 250}.{1 + index % 250}"


def browser_headers(port: int, csrf: str) -> dict[str, str]:
    """A same-origin write of a browser whose CSRF cookie is `csrf` (any 32 hex digits: double submit)."""
    return {"Content-Type": "application/json", "X-CSRF-Token": csrf, "Cookie": f"dragboard_csrf={csrf}",
            "Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}


def words(status: int, body: bytes) -> str:
    """A refusal as `429 streams_reserved: The server is …` (numbers that change from one answer to the
    next, such as seconds, written as N so equal refusals count together)."""
    try:
        error = json.loads(body)["error"]
        said = f"{error.get('code')}: {error.get('message')}"
    except (ValueError, KeyError, TypeError):
        said = body[:160].decode("utf-8", "replace").strip() or "(no body)"
    return f"{status} " + re.sub(r"within \d+ (seconds|minutes)", r"within N \1", said)


class Refusals:
    """What a flood was answered other than yes, counted by status and words (thread-safe)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts: collections.Counter[str] = collections.Counter()

    def add(self, what: str):
        with self.lock:
            self.counts[what] += 1

    def by_status(self) -> str:
        statuses = collections.Counter()
        for what, count in self.counts.items():
            statuses[what.split(" ", 1)[0]] += count
        return ", ".join(f"{count} × {status}" for status, count in sorted(statuses.items())) or "none"


# ---------------------------------------------------------------- floods of held connections

@dataclasses.dataclass
class Held:
    address: str
    buffer: bytes = b""
    status: int | None = None      # once the head arrived (streams)
    connected: bool = False


class Holder(threading.Thread):
    """Connections from many addresses in one selector thread. Each sends `request` (or nothing, when it is
    None) and is kept while the server keeps it. They are opened in rounds, one per address each: a round
    is waited for (every connection answered, connected or closed) before the next, so the addresses fill
    their shares evenly, as a botnet's would. A refusal is counted with its words and not retried; a
    connection the server closes while it was held is opened again at the next tick."""

    def __init__(self, port: int, addresses: list[str], per_address: int, request: bytes | None, refusals: Refusals):
        super().__init__(daemon=True)
        self.port, self.addresses, self.per_address, self.request = port, addresses, per_address, request
        self.refusals = refusals
        self.selector = selectors.DefaultSelector()
        self.ready = threading.Event()
        self.stop = threading.Event()
        self.held = 0
        self.closed_while_held = 0
        self.failed_to_open = 0
        self.waiting = 0
        self.build_seconds = 0.0

    def open(self, address: str):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((address, 0))
            sock.connect_ex(("127.0.0.1", self.port))
        except OSError:
            sock.close()
            self.failed_to_open += 1
            return
        self.selector.register(sock, selectors.EVENT_WRITE, Held(address))
        self.waiting += 1

    def settle(self, key, held_before: bool, reopen: list[str]):
        """Forgets a connection that is done: refused, closed by the server, or never connected."""
        held: Held = key.data
        self.selector.unregister(key.fileobj)
        key.fileobj.close()
        if held_before:
            self.held -= 1
            self.closed_while_held += 1
            reopen.append(held.address)
        elif held.status is not None and held.status != 200:
            self.refusals.add(words(held.status, held.buffer.split(b"\r\n\r\n", 1)[1]))
        else:
            self.refusals.add("closed before any answer" if held.connected else "connection refused or reset")
        if not held_before:
            self.waiting -= 1

    def holding(self, held: Held) -> bool:
        return held.connected if self.request is None else held.status == 200

    def step(self, timeout: float, reopen: list[str]):
        for key, events in self.selector.select(timeout=timeout):
            held: Held = key.data
            was_held = self.holding(held)
            if events & selectors.EVENT_WRITE:
                if key.fileobj.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                    self.settle(key, False, reopen)
                    continue
                held.connected = True
                try:
                    if self.request is not None:
                        key.fileobj.send(self.request)
                except OSError:
                    self.settle(key, False, reopen)
                    continue
                self.selector.modify(key.fileobj, selectors.EVENT_READ, held)
                if self.request is None:   # an idle connection is held once it is open
                    self.held += 1
                    self.waiting -= 1
                continue
            try:
                chunk = key.fileobj.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                self.settle(key, was_held, reopen)
                continue
            if was_held:
                continue   # heartbeats and events of a held stream: read and forgotten
            held.buffer += chunk
            head, separator, body = held.buffer.partition(b"\r\n\r\n")
            if not separator:
                continue
            held.status = int(head.split(b" ", 2)[1])
            if held.status == 200:
                held.buffer = b""
                self.held += 1
                self.waiting -= 1
                continue
            length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
            if length and len(body) >= int(length.group(1)):
                self.settle(key, False, reopen)

    def run(self):
        started = time.monotonic()
        reopen: list[str] = []
        for _ in range(self.per_address):
            for address in self.addresses:
                self.open(address)
            round_ends = time.monotonic() + 15
            while self.waiting and time.monotonic() < round_ends:
                self.step(0.2, reopen)
        self.build_seconds = time.monotonic() - started
        self.ready.set()
        while not self.stop.is_set():
            self.step(0.2, reopen)
            for address in reopen:
                self.open(address)
            reopen = []
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


def stream_request(port: int) -> bytes:
    return (f"GET {EVENTS} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n"
            "Cache-Control: no-cache\r\n\r\n").encode()


# ---------------------------------------------------------------- the flood of drags

def first_item(port: int, list_id: str) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/api/board")
    board = json.loads(connection.getresponse().read())
    connection.close()
    html = next(entry["html"] for entry in board["lists"] if entry["id"] == list_id)
    return re.search(r'data-item="([^"]+)"', html).group(1)


def flood_drags(port: int, addresses: list[str], per_address: int, refusals: Refusals, workers: int = 6) -> tuple[int, float]:
    """Begins `per_address` drags from each address and never ends them: each browser (a CSRF cookie of
    its own, 32 drags at most, the per-browser cap) over one kept-alive connection; browsers taken in
    rounds across the addresses so they fill their shares evenly. Returns the drags begun and the time."""
    item = first_item(port, "places")
    browsers_per_address = math.ceil(per_address / 32)
    tasks = [(address, min(32, per_address - 32 * round_)) for round_ in range(browsers_per_address) for address in addresses]
    begun = 0
    lock = threading.Lock()

    def browser(task):
        nonlocal begun
        address, count = task
        headers = browser_headers(port, secrets.token_hex(16))
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(address, 0))
        mine = 0
        for _ in range(count):
            body = json.dumps({"token": secrets.token_hex(16), "list": "places", "items": [item]})
            try:
                connection.request("POST", "/api/sessions", body, headers)
                response = connection.getresponse()
                answer = response.read()
            except (OSError, http.client.HTTPException):
                connection.close()
                refusals.add("no answer (connection closed)")
                continue
            if response.status == 201:
                mine += 1
            else:
                refusals.add(words(response.status, answer))
        connection.close()
        with lock:
            begun += mine

    started = time.monotonic()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(browser, tasks))
    return begun, time.monotonic() - started


# ---------------------------------------------------------------- the legitimate client

class LiveStream(threading.Thread):
    """The legitimate client's own board tab: its stream's status, and the `changes` events it hears."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.status, self.refusal, self.rest, self.changes = 0, "", b"", 0
        try:
            self.sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(LEGITIMATE, 0))
            self.sock.sendall(stream_request(port))
            buffer = b""
            while b"\r\n\r\n" not in buffer and (chunk := self.sock.recv(65536)):
                buffer += chunk
            head, _, self.rest = buffer.partition(b"\r\n\r\n")
            self.status = int(head.split(b" ", 2)[1]) if head else 0
            length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
            while self.status != 200 and length and len(self.rest) < int(length.group(1)) and (chunk := self.sock.recv(65536)):
                self.rest += chunk
            self.refusal = "" if self.status == 200 else words(self.status, self.rest)
            self.sock.settimeout(None)
        except OSError as error:
            self.sock = None
            self.refusal = f"no answer: {error}"

    def run(self):
        data = self.rest
        while self.status == 200:
            self.changes += data.count(b"event: changes\n")
            try:
                data = self.sock.recv(65536)
            except OSError:
                return
            if not data:
                return

    def close(self):
        if self.sock:
            self.sock.close()


@dataclasses.dataclass
class Measured:
    stream: str = ""
    heard: int = 0
    pages: list[float] = dataclasses.field(default_factory=list)
    drops: list[float] = dataclasses.field(default_factory=list)
    #: Each step of the drop cycles (begin, drop, end), to tell which one is slow.
    steps: dict[str, list[float]] = dataclasses.field(default_factory=lambda: {"begin": [], "drop": [], "end": []})
    refused: collections.Counter = dataclasses.field(default_factory=collections.Counter)


def legitimate_client(port: int, seconds: float) -> Measured:
    """A person's tab from another address: its stream (held throughout), then alternately a page load (a
    new connection, as a navigation makes) and a drop cycle (begin, drop, end over a kept-alive connection),
    one card moved back and forth between two lists."""
    measured = Measured()
    stream = LiveStream(port)
    measured.stream = "200" if stream.status == 200 else stream.refusal
    stream.start()
    headers = browser_headers(port, secrets.token_hex(16))
    drags = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(LEGITIMATE, 0))

    def call(step: str, path: str, body: dict) -> tuple[int, dict]:
        nonlocal drags
        started = time.monotonic()
        try:
            drags.request("POST", path, json.dumps(body), headers)
            response = drags.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException) as error:
            drags.close()
            drags = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(LEGITIMATE, 0))
            return 0, {"error": {"message": str(error)}}
        measured.steps[step].append((time.monotonic() - started) * 1000)
        return response.status, json.loads(raw) if raw else {}

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(LEGITIMATE, 0))
    connection.request("GET", "/api/board")
    board = json.loads(connection.getresponse().read())
    connection.close()
    version = board["version"]
    card = re.search(r'data-item="([^"]+)"', next(entry["html"] for entry in board["lists"] if entry["id"] == "cat-1")).group(1)
    here, there = "cat-1", "cat-2"
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        try:
            page = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(LEGITIMATE, 0))
            page.request("GET", "/boards/demo", headers={"Connection": "close", "Accept": "text/html"})
            response = page.getresponse()
            response.read()
            page.close()
            if response.status == 200:
                measured.pages.append((time.monotonic() - started) * 1000)
            else:
                measured.refused[f"page {response.status}"] += 1
        except (OSError, http.client.HTTPException) as error:
            measured.refused[f"page: {type(error).__name__}"] += 1

        started = time.monotonic()
        token = secrets.token_hex(16)
        status, answer = call("begin", "/api/sessions", {"token": token, "list": here, "items": [card]})
        if status != 201:
            measured.refused[words(status, json.dumps(answer).encode()) if status else f"begin: {answer}"] += 1
            continue
        status, answer = call("drop", f"/api/sessions/{token}/drop", {"op": str(uuid.uuid4()), "version": version,
                                                              "target": {"list": there}, "location": None})
        ended, _ = call("end", f"/api/sessions/{token}/end", {})
        if status == 200 and answer.get("changes") and ended == 200:
            measured.drops.append((time.monotonic() - started) * 1000)
            version = answer["version"]
            here, there = there, here
        else:
            measured.refused[f"drop {status} / end {ended}: {str(answer)[:120]}"] += 1
    drags.close()
    # The stream heard the client's own drops (each is a `changes` event); a moment for the last to arrive.
    give_up = time.monotonic() + 2
    while stream.changes < len(measured.drops) and time.monotonic() < give_up:
        time.sleep(0.05)
    measured.heard = stream.changes
    stream.close()
    return measured


# ---------------------------------------------------------------- the runs and the table

def percentiles(samples: list[float]) -> tuple[float, float] | None:
    if not samples:
        return None
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[math.ceil(len(ordered) * 0.99) - 1]


def shown(samples: list[float]) -> str:
    found = percentiles(samples)
    return "—" if found is None else f"{found[0]:6.1f} / {found[1]:6.1f}  (n={len(samples)})"


@dataclasses.dataclass
class Row:
    name: str
    flood: str
    held: str
    refusals: Refusals
    measured: Measured


def run_flood(name: str, args, server_arguments: list[str], flood) -> list[Row]:
    """A fresh server: the legitimate client on it quiet, then under `flood(port)`."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-flood-"))
    server, port = start(folder / "board.sqlite", *server_arguments, executable=args.binary)
    try:
        quiet = legitimate_client(port, args.quiet_seconds)
        refusals = Refusals()
        print(f"{name}: flooding…", flush=True)
        described, held, release = flood(port, refusals)
        print(f"{name}: {held}; server holds {server_sockets(port)} sockets; measuring {args.seconds:g} s", flush=True)
        try:
            during = legitimate_client(port, args.seconds)
        finally:
            held = release()
        return [Row(f"{name} (quiet)", "—", "—", Refusals(), quiet), Row(name, described, held, refusals, during)]
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)


def held_connections(addresses: list[str], per_address: int, request_of, kind: str):
    """A flood of held connections: returns what it is, what it holds, and how to let it go (which says
    what it held in the end)."""
    def flood(port: int, refusals: Refusals):
        holder = Holder(port, addresses, per_address, request_of(port), refusals)
        holder.start()
        holder.ready.wait()
        held = f"{holder.held} {kind} held (opened in {holder.build_seconds:.1f} s)"

        def release() -> str:
            holder.stop.set()
            holder.join()
            if holder.failed_to_open:
                refusals.add(f"(not an answer) {holder.failed_to_open} could not be opened")
            again = f"; {holder.closed_while_held} closed by the server while held, reopened" if holder.closed_while_held else ""
            return held + again
        return f"{len(addresses)} × {per_address}", held, release
    return flood


def drag_flood(addresses: list[str], per_address: int):
    def flood(port: int, refusals: Refusals):
        begun, seconds = flood_drags(port, addresses, per_address, refusals)
        held = f"{begun} drags in progress (begun in {seconds:.1f} s)"
        return f"{len(addresses)} × {per_address}", held, lambda: held
    return flood


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", type=pathlib.Path, help="the dragboard executable (default: the debug build)")
    parser.add_argument("--quick", action="store_true", help="small server limits and floods to match (~1 minute)")
    parser.add_argument("--seconds", type=float, default=10, help="the legitimate client's time under each flood")
    parser.add_argument("--quiet-seconds", type=float, default=3, help="its time on each quiet server first")
    parser.add_argument("--budget", type=float, default=100, help="the p99 (ms) the legitimate client must stay under")
    parser.add_argument("--stream-addresses", type=int, default=160)
    parser.add_argument("--streams-per-address", type=int, default=32)
    parser.add_argument("--drag-addresses", type=int, default=70)
    parser.add_argument("--drags-per-address", type=int, default=256)
    parser.add_argument("--idle-addresses", type=int, default=120)
    parser.add_argument("--idle-per-address", type=int, default=25)
    parser.add_argument("--floods", default="streams,drags,idle", help="which floods, comma-separated")
    parser.add_argument("server_arguments", nargs="*", help="after --: extra flags for `dragboard serve`")
    args = parser.parse_args()
    server_arguments = list(args.server_arguments)
    if args.quick:
        # The same shapes at an eighth of the sizes: the floods still fill the totals to their reserves.
        server_arguments += ["--max-event-streams", "512", "--event-stream-reserve", "64",
                             "--max-drags", "2048", "--drag-reserve", "256"]
        args.stream_addresses, args.drag_addresses, args.idle_addresses = 20, 9, 15
        args.seconds = min(args.seconds, 5)
        args.quiet_seconds = min(args.quiet_seconds, 2)

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    needed = max(args.stream_addresses * args.streams_per_address, args.idle_addresses * args.idle_per_address) + 100
    if hard < needed:
        print(f"warning: the open-file limit is {hard}, the floods need about {needed}", file=sys.stderr)

    floods = {
        "streams": lambda: held_connections([flood_address(0, n) for n in range(args.stream_addresses)],
                                            args.streams_per_address, stream_request, "streams"),
        "drags": lambda: drag_flood([flood_address(1, n) for n in range(args.drag_addresses)], args.drags_per_address),
        "idle": lambda: held_connections([flood_address(2, n) for n in range(args.idle_addresses)],
                                         args.idle_per_address, lambda port: None, "idle connections"),
    }
    rows: list[Row] = []
    for name in args.floods.split(","):
        rows += run_flood(name, args, server_arguments, floods[name]())
    report(rows, args.budget)


def report(rows: list[Row], budget: float) -> None:
    failures = []
    print()
    print(f"{'':18} {'flood':>10}  {'legit stream':<13} {'heard':>11}  {'pages p50 / p99 ms':<30} {'drop cycles p50 / p99 ms':<30} flood refused")
    for row in rows:
        m = row.measured
        heard = f"{m.heard}/{len(m.drops)}"
        print(f"{row.name:18} {row.flood:>10}  {m.stream[:13]:<13} {heard:>11}  {shown(m.pages):<30} {shown(m.drops):<30} "
              f"{row.refusals.by_status() if row.flood != '—' else ''}")
        if m.stream != "200":
            failures.append(f"{row.name}: the legitimate stream was refused: {m.stream}")
        if m.heard < len(m.drops):
            failures.append(f"{row.name}: the legitimate stream heard {m.heard} of its {len(m.drops)} drops")
        for what, count in m.refused.items():
            failures.append(f"{row.name}: the legitimate client was refused {count} × {what}")
        for kind, samples in (("page loads", m.pages), ("drop cycles", m.drops)):
            found = percentiles(samples)
            if found is None:
                failures.append(f"{row.name}: no {kind} succeeded")
            elif found[1] >= budget:
                failures.append(f"{row.name}: p99 of {kind} {found[1]:.1f} ms ≥ {budget:g} ms")
    print()
    for row in rows:
        if row.flood != "—":
            print(f"{row.name}: {row.held}")
            print("    the legitimate drop cycles' steps, p50 / p99 ms: "
                  + ", ".join(f"{step} {' / '.join(f'{value:.1f}' for value in percentiles(samples) or ())}"
                              for step, samples in row.measured.steps.items()))
            for what, count in row.refusals.counts.most_common():
                print(f"    {count:6} × {what}")
    print()
    if failures:
        print("LEGITIMATE CLIENT NOT SERVED AS IT SHOULD BE (measurements on this machine, not test assertions):")
        for failure in failures:
            print(f"  - {failure}")
        sys.exit(1)
    print(f"The legitimate client was served under every flood, p99 < {budget:g} ms.")


if __name__ == "__main__":
    main()
