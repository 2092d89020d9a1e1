"""`make bench`: what live viewers cost. The release server on a seeded showcase board, its live-update
streams (`GET /boards/demo/events`) held open by raw sockets that one thread reads with `selectors`
(epoll), and drop cycles (begin, drop, end) from one Python client on another address.

    python3 Tests/bench/viewers_bench.py [--binary .build/release/dragboard] [--drops 200] [--idle 4096]

1. Server CPU per drop cycle with 1 viewer and with 256 (the server's CPU time over the drops, divided by
   them); goal: 256 viewers cost at most 3x one.
2. 4,096 idle viewers: the server's resident memory before and after they connect (goal: at most 64 MB
   more), then one drop at a time: when each viewer has read the drop's `changes` event (its `id:` line is
   the board version), measured from when the drop's answer arrived; goal: p99 within 1 s.

The viewers come from 127.0.0.2 and up, 32 per address (the server's per-address share), so the caps that
hold in production hold here too. Stdlib only; nothing is asserted: these are measurements.
"""
import argparse
import re
import resource
import secrets
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
import pathlib

from clients import CATS, Client, percentile
from http_bench import ROOT, Server, checkout

PER_ADDRESS = 32
VERSION = re.compile(rb"\nid: (\d+)\n")


def start(binary: pathlib.Path, folder: pathlib.Path) -> Server:
    root = checkout(binary)
    return Server([str(binary), "--port", "0", "--host", "127.0.0.1", "--database", str(folder / "viewers.sqlite"),
                   "--public", str(root / "Public"), "--templates", str(root / "Templates"), "--log-level", "error",
                   "--max-event-streams", "8192", "--event-stream-reserve", "0"])


class Viewers(threading.Thread):
    """Live-update streams, all read by this thread: notes when each one first shows each board version."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.arrivals: dict[int, list[float]] = {}
        self.tails: dict[socket.socket, bytes] = {}
        self.greeted: set[socket.socket] = set()
        self.ready = 0
        self.stopped = False
        self.start()

    def open(self, count: int) -> None:
        """`count` more viewers; returns once every one has had its stream's `hello`."""
        target = self.ready + count
        for index in range(count):
            number = len(self.tails) + index
            source = f"127.0.0.{2 + number // PER_ADDRESS}"
            connection = socket.create_connection(("127.0.0.1", self.port), timeout=10, source_address=(source, 0))
            connection.sendall(f"GET /boards/demo/events HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                               "Accept: text/event-stream\r\n\r\n".encode())
            connection.setblocking(False)
            with self.lock:
                self.tails[connection] = b""
            self.selector.register(connection, selectors.EVENT_READ)
        deadline = time.monotonic() + 60
        while self.ready < target:
            if time.monotonic() > deadline:
                raise SystemExit(f"only {self.ready} of {target} viewers got their stream")
            time.sleep(0.01)

    def run(self) -> None:
        while not self.stopped:
            for key, _ in self.selector.select(timeout=0.1):
                connection = key.fileobj
                try:
                    data = connection.recv(65536)
                except BlockingIOError:
                    continue
                now = time.perf_counter()
                if not data:
                    self.selector.unregister(connection)
                    continue
                text = self.tails[connection] + data
                if connection not in self.greeted and b"event: hello" in text:
                    self.greeted.add(connection)
                    self.ready += 1
                for match in VERSION.finditer(text):
                    with self.lock:
                        self.arrivals.setdefault(int(match.group(1)), []).append(now)
                # Keep a tail long enough to hold an event's head split across reads, never the whole stream.
                self.tails[connection] = text[-64:]

    def close(self) -> None:
        self.stopped = True
        self.join()   # the reader leaves its select (0.1 s at most) before the sockets close under it
        for connection in list(self.tails):
            connection.close()


def drop_cycle(client: Client, turn: int, board) -> tuple[int, float]:
    """Moves a row from the fullest cat to another: the board version it made and when its answer arrived."""
    source = max(CATS, key=lambda cat: len(board.lists[cat]))
    target = [cat for cat in CATS if cat != source][turn % 2]
    item = board.lists[source][0]
    token = secrets.token_hex(16)
    status, _ = client.post("/api/sessions", {"token": token, "list": source, "items": [item]})
    assert status == 201, f"drag start answered {status}"
    status, answer = client.post(f"/api/sessions/{token}/drop", {"op": secrets.token_hex(16), "version": 0,
                                                                 "target": {"list": target}, "location": None})
    arrived = time.perf_counter()
    assert status == 200 and answer.get("changes"), f"drop answered {status}: {answer}"
    client.post(f"/api/sessions/{token}/end", {})
    board.lists[source].remove(item)
    board.lists[target].append(item)
    return answer["version"], arrived


def cpu_per_drop(server: Server, client: Client, drops: int) -> float:
    board = client.board()
    before = server.cpu_seconds()
    for turn in range(drops):
        drop_cycle(client, turn, board)
    return (server.cpu_seconds() - before) / drops * 1e6


def rss_mb(server: Server) -> float:
    return server.rss()[0] / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", type=pathlib.Path, default=ROOT / ".build/release/dragboard")
    parser.add_argument("--drops", type=int, default=200)
    parser.add_argument("--idle", type=int, default=4096)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not args.binary.exists():
        raise SystemExit(f"{args.binary} is missing: swift build -c release --product dragboard")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < args.idle + 256:
        raise SystemExit(f"the open-file limit ({hard}) is too low for {args.idle} viewers")

    print(f"== Live viewers ({args.binary}) ==")
    one, many, memory, reach = [], [], [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="dragboard-viewers-") as folder:
            server = start(args.binary, pathlib.Path(folder))
            viewers = Viewers(server.port)
            try:
                client = Client(server.port)
                viewers.open(1)
                cpu_per_drop(server, client, 20)   # warm up
                one.append(cpu_per_drop(server, client, args.drops))
                viewers.open(255)
                many.append(cpu_per_drop(server, client, args.drops))
                before = rss_mb(server)
                viewers.open(args.idle - 256)
                memory.append(rss_mb(server) - before)
                latencies = []
                board = client.board()
                for turn in range(20):
                    version, answered = drop_cycle(client, turn, board)
                    deadline = time.monotonic() + 10
                    while True:
                        with viewers.lock:
                            arrived = list(viewers.arrivals.get(version, []))
                        if len(arrived) >= args.idle or time.monotonic() > deadline:
                            break
                        time.sleep(0.005)
                    if len(arrived) < args.idle:
                        raise SystemExit(f"drop {version} reached {len(arrived)} of {args.idle} viewers within 10 s")
                    latencies += [(at - answered) * 1000 for at in arrived]
                reach.append((percentile(sorted(latencies), 50), percentile(sorted(latencies), 99)))
            finally:
                viewers.close()
                server.stop()
    median = statistics.median
    print(f"{'server CPU per drop cycle, 1 viewer (µs)':<58}{median(one):>10.0f}")
    print(f"{'server CPU per drop cycle, 256 viewers (µs)':<58}{median(many):>10.0f}")
    ratio = median(many) / median(one)
    print(f"{'256 viewers vs 1 (CPU per drop)':<58}{ratio:>9.2f}x   goal ≤ 3x: {'met' if ratio <= 3 else 'NOT met'}")
    print(f"{'  per viewer per drop (µs)':<58}{(median(many) - median(one)) / 255:>10.1f}")
    print(f"{f'memory of {args.idle - 256} more idle viewers (MB)':<58}{median(memory):>10.1f}   goal ≤ 64 MB: "
          f"{'met' if median(memory) <= 64 else 'NOT met'}")
    p50, p99 = median([r[0] for r in reach]), median([r[1] for r in reach])
    print(f"{f'a drop reaches all {args.idle} viewers, p50 / p99 (ms)':<58}{p50:>7.0f} / {p99:.0f}   goal p99 ≤ 1000 ms: "
          f"{'met' if p99 <= 1000 else 'NOT met'}")
    print(f"(medians of {args.runs} runs; {args.drops} drop cycles per CPU figure; 20 drops for the reach)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
