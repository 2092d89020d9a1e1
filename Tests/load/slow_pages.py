"""Do page renders starve drops? Starts the real server on a board whose first cat holds
`--rows` extra rows, measures drops (begin + drop of one toy between two small lists, as a
browser does) alone, then while `--loaders` clients loop `GET <page>` on that big board, and
prints p50/p99 of each phase and how many page loads were answered (or refused with 503).

    python3 Tests/load/slow_pages.py --rows 10000 --loaders 8 --seconds 15

Stdlib only; loopback only; bounded in time.
"""
import argparse
import http.client
import json
import pathlib
import re
import secrets
import sqlite3
import statistics
import tempfile
import threading
import time

from server import session_headers, start, stop

def grow(database: pathlib.Path, rows: int) -> str:
    """Appends `rows` toys to the first cat, with order keys after its own; returns the list id."""
    with sqlite3.connect(database) as db:
        list_id = db.execute("SELECT listID FROM item WHERE kind = 'toy' ORDER BY listID LIMIT 1").fetchone()[0]
        db.executemany("INSERT INTO item (id, listID, containerID, pos, kind, title, payload, changedVersion) "
                       "VALUES (?, ?, NULL, ?, 'toy', ?, '{}', 1)",
                       ((f"bulk-{n:05d}", list_id, f"z{n:05d}", f"Toy {n}") for n in range(rows)))
    return list_id


class Client:
    def __init__(self, port: int, page: str):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = session_headers(self.connection, port, page)

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        self.connection.request("POST", path, json.dumps(body), self.headers)
        response = self.connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")



def first_item(database: pathlib.Path, list_id: str) -> str:
    """Read from the file (WAL: readers never wait): asking the server would render the big list."""
    with sqlite3.connect(database) as db:
        return db.execute("SELECT id FROM item WHERE listID = ? AND containerID IS NULL ORDER BY pos, id LIMIT 1",
                          (list_id,)).fetchone()[0]


def drops(client: Client, database: pathlib.Path, seconds: float, lists: tuple[str, str]) -> list[float]:
    """Moves the first toy of one list to the other and back, timing begin + drop together."""
    samples = []
    end = time.monotonic() + seconds
    source, target = lists
    while time.monotonic() < end:
        item = first_item(database, source)
        started = time.monotonic()
        token = secrets.token_hex(16)
        status, begun = client.post("/api/sessions", {"token": token, "list": source, "items": [item]})
        assert status == 201, begun
        status, dropped = client.post(f"/api/sessions/{token}/drop", {"op": secrets.token_hex(16), "version": begun["version"],
                                                                      "target": {"list": target}, "location": None})
        samples.append((time.monotonic() - started) * 1000)
        assert status == 200, dropped
        client.post(f"/api/sessions/{token}/end", {})
        source, target = target, source
    return samples


def summary(name: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{name}: n={len(ordered)} p50={statistics.median(ordered):.1f} ms p99={p99:.1f} ms max={ordered[-1]:.1f} ms"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--loaders", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--page", default="/boards/demo")
    args = parser.parse_args()
    database = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-pages-")) / "board.sqlite"
    server, port = start(database)   # seeds the board
    stop(server)
    big = grow(database, args.rows)
    server, port = start(database)
    try:
        client = Client(port, args.page)
        with sqlite3.connect(database) as db:
            small = tuple(row[0] for row in db.execute(
                "SELECT DISTINCT listID FROM item WHERE kind = 'toy' AND listID != ? ORDER BY listID LIMIT 2", (big,)))
        print(summary("drops alone", drops(client, database, args.seconds, small)))
        finished, loads = threading.Event(), {"answered": 0, "refused": 0, "ms": []}

        def load_pages():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            while not finished.is_set():
                started = time.monotonic()
                connection.request("GET", args.page)
                response = connection.getresponse()
                response.read()
                loads["answered" if response.status == 200 else "refused"] += 1
                if response.status == 200:
                    loads["ms"].append((time.monotonic() - started) * 1000)

        loaders = [threading.Thread(target=load_pages, daemon=True) for _ in range(args.loaders)]
        for loader in loaders:
            loader.start()
        print(summary(f"drops while {args.loaders} clients load the {args.rows}-row page", drops(client, database, args.seconds, small)))
        finished.set()
        for loader in loaders:
            loader.join()
        print(f"page loads: {loads['answered']} answered (p50 {statistics.median(loads['ms']):.0f} ms), {loads['refused']} refused")
    finally:
        stop(server)


if __name__ == "__main__":
    main()
