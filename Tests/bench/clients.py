"""The HTTP benchmark's clients: a browser's requests over one keep-alive connection, timed.
A drop client drags only its own rows, so every drop it sends is valid whatever the others do. The
bench's drop clients are threads of drops.c (`CDropClients`), which does what `DropClient.run` does at a
small fraction of its CPU; `DropClient` (one process per client, no GIL between them) stays as the
reference and for `http_bench.py --drop-clients python`."""
import http.client
import json
import pathlib
import re
import secrets
import statistics
import subprocess
import time
import urllib.parse
from dataclasses import dataclass

BOARD = "/boards/demo"
CATS = ("cat-1", "cat-2", "cat-3")
ITEM = re.compile(r'data-item="([^"]+)"')


def percentile(samples: list[float], p: int) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@dataclass
class Snapshot:
    version: int
    lists: dict[str, list[str]]

    @property
    def items(self) -> list[str]:
        return [item for name in CATS for item in self.lists[name]]


def session(connection: http.client.HTTPConnection, port: int) -> dict[str, str]:
    """A browser's CSRF cookie (from the small index page) and the headers of its writes."""
    connection.request("GET", "/")
    response = connection.getresponse()
    response.read()
    csrf = re.search(r"dragboard_csrf=([0-9a-f]{32})", response.getheader("Set-Cookie")).group(1)
    return {"Content-Type": "application/json", "X-CSRF-Token": csrf, "Cookie": f"dragboard_csrf={csrf}",
            "Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}


class Client:
    def __init__(self, port: int):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = session(self.connection, port)

    def request(self, method: str, path: str, body=None) -> tuple[int, bytes]:
        self.connection.request(method, path, None if body is None else json.dumps(body), self.headers)
        response = self.connection.getresponse()
        return response.status, response.read()

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        status, data = self.request("POST", path, body)
        return status, json.loads(data or b"{}")

    def begin(self, item: str, source: str) -> str:
        """Starts dragging `item` out of list `source` (`POST /api/sessions`); the session's token."""
        token = secrets.token_hex(16)
        status, answer = self.post("/api/sessions", {"token": token, "list": source, "items": [item]})
        assert status == 201, f"a drag start answered {status}: {answer}"
        return token

    def drop(self, token: str, target: str, location: dict | None = None, must_change: bool = True) -> dict:
        """Drops the session's rows on list `target` (`location`: before a hovered row; None: at the end);
        the answer (200, with changes unless not `must_change`)."""
        body = {"op": secrets.token_hex(16), "version": 0, "target": {"list": target}, "location": location}
        status, answer = self.post(f"/api/sessions/{token}/drop", body)
        assert status == 200 and (answer.get("changes") or not must_change), f"a drop answered {status}: {answer}"
        return answer

    def end(self, token: str) -> None:
        status, answer = self.post(f"/api/sessions/{token}/end", {})
        assert status == 200, f"a drag end answered {status}: {answer}"

    def board(self) -> Snapshot:
        status, data = self.request("GET", f"{BOARD}/api/board")
        assert status == 200, status
        body = json.loads(data)
        return Snapshot(body["version"], {entry["id"]: ITEM.findall(entry["html"]) for entry in body["lists"]})

    def session_starts(self, count: int) -> float:
        """p50 ms of a drag start (session + proposal table) for a row in the middle of a cat."""
        rows = self.board().lists["cat-1"]
        item = rows[len(rows) // 2]
        samples = []
        for _ in range(count):
            token = secrets.token_hex(16)
            started = time.perf_counter()
            status, _ = self.post("/api/sessions", {"token": token, "list": "cat-1", "items": [item]})
            samples.append((time.perf_counter() - started) * 1000)
            assert status == 201, status
            self.post(f"/api/sessions/{token}/end", {})
        return statistics.median(samples)

    def page_loads(self, count: int) -> tuple[float, int]:
        """p50 ms of loading the board page, and its size in bytes."""
        samples, size = [], 0
        for _ in range(count):
            started = time.perf_counter()
            status, data = self.request("GET", BOARD)
            samples.append((time.perf_counter() - started) * 1000)
            assert status == 200, status
            size = len(data)
        return statistics.median(samples), size

    def fresh_page_loads(self, count: int) -> float:
        """p50 ms of loading the board page right after a change (a row renamed through the form
        route), so every load is a real render and never a cached one."""
        item = self.board().lists["cat-1"][0]
        form = {**self.headers, "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}
        samples = []
        for number in range(count):
            body = urllib.parse.urlencode({"csrf": self.headers["X-CSRF-Token"], "op": secrets.token_hex(16),
                                           "item": item, "title": f"Renamed {number}"})
            self.connection.request("POST", f"{BOARD}/items/rename", body, form)
            response = self.connection.getresponse()
            response.read()
            assert response.status == 200, response.status
            started = time.perf_counter()
            status, _ = self.request("GET", BOARD)
            samples.append((time.perf_counter() - started) * 1000)
            assert status == 200, status
        return statistics.median(samples)

    @staticmethod
    def load_pages(port: int, deadline: float) -> int:
        """Loads the board page in a loop until `deadline`; how many loads were answered 200."""
        client, loaded = Client(port), 0
        while time.time() < deadline:
            status, _ = client.request("GET", BOARD)
            loaded += status == 200
        return loaded


class DropClient:
    @staticmethod
    def choose(turn: int, own: list[str], where: dict[str, str]) -> tuple[str, str, dict | None]:
        """The row a client drags on `turn`, the list it drops it on and where (None: at the end; else
        before another of its own rows already in that list, two turns in three). drops.c chooses the same."""
        item = own[turn % len(own)]
        target = CATS[turn % len(CATS)]
        hovered = next((other for other in own if other != item and where[other] == target), None)
        location = None if hovered is None or turn % 3 == 0 else {"row": 0, "fraction": 0.3, "item": hovered}
        return item, target, location

    @staticmethod
    def run(port: int, own: list[str], before: Snapshot, deadline: float, seed: int) -> dict:
        """Drags its own rows between the cats until `deadline`: begin, drop (timed), end. A drop
        names the row it hovers by id (one of its own, whose list it knows) with version 0, so the
        server finds that row again whatever the others moved meanwhile."""
        client = Client(port)
        cpu, began = time.process_time(), time.time()
        mine = set(own)
        where = {item: name for name in CATS for item in before.lists[name] if item in mine}
        latencies, changed, refused, turn = [], 0, 0, seed
        while time.time() < deadline and own:
            turn += 1
            item, target, location = DropClient.choose(turn, own, where)
            token = secrets.token_hex(16)
            status, _ = client.post("/api/sessions", {"token": token, "list": where[item], "items": [item]})
            if status != 201:
                refused += 1
                continue
            body = {"op": secrets.token_hex(16), "version": 0, "target": {"list": target}, "location": location}
            started = time.perf_counter()
            status, answer = client.post(f"/api/sessions/{token}/drop", body)
            latencies.append((time.perf_counter() - started) * 1000)
            if status == 200 and answer.get("changes"):
                changed += 1
                where[item] = target
            else:
                refused += 1
            client.post(f"/api/sessions/{token}/end", {})
        return {"latencies": latencies, "changed": changed, "refused": refused, "cpu": time.process_time() - cpu,
                "window": (began, time.time())}


class CDropClients:
    """`DropClient.run` for every client at once, as threads of drops.c (built here with `cc`)."""

    def __init__(self, folder: pathlib.Path):
        self.folder = folder
        self.executable = folder / "drops"
        subprocess.run(["cc", "-O2", "-pthread", str(pathlib.Path(__file__).with_name("drops.c")), "-o", str(self.executable)],
                       check=True)

    def run(self, port: int, owned: list[list[str]], before: Snapshot, start: float, stop: float, rate: float = 0) -> dict:
        """Drops from `start` to `stop` (Unix times), each client in a closed loop, or with `rate` starting a
        begin → drop → end every 1/`rate` s on a fixed schedule (see drops.c). Raises on any failure of drops.c (a closed connection,
        a wrong byte count...): a figure is reported only for a run where every answer was read whole."""
        # One plan per port: pg_bench.py runs one drops.c per instance at once.
        plan = self.folder / f"drops-{port}.plan"
        where = {item: name for name in CATS for item in before.lists[name]}
        plan.write_text("".join([f"lists {' '.join(CATS)}\n"] + [
            " ".join([str(seed)] + [f"{item}={where[item]}" for item in own]) + "\n" for seed, own in enumerate(owned)]))
        # Its sockets give up after 60 s without an answer; the timeout is a last guard against a hang.
        done = subprocess.run([str(self.executable), str(port), str(plan), repr(start), repr(stop), repr(rate)], capture_output=True,
                              text=True, timeout=stop - time.time() + 120)
        if done.returncode != 0:
            raise RuntimeError(f"drops.c failed ({done.returncode}): {done.stderr.strip()}")
        result = json.loads(done.stdout)
        assert len(result["latencies"]) == result["changed"] + result["refused_drop"], "a drop neither counted nor refused"
        return result
