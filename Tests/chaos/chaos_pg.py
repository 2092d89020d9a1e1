#!/usr/bin/env python3
"""Chaos test: PostgreSQL stopped and started again under load (hardening issue #26, item 2).

A throw-away PostgreSQL cluster holds one database; two `dragboard` instances share it. Several clients
drag rows over plain HTTP, each drag through the next instance in turn (begin a session, drop it with a
fresh operation id, end it), and one live event stream per instance is read line by line. Meanwhile the
main thread stops PostgreSQL with `pg_ctl stop` (`-m fast`, then `-m immediate`, alternately), keeps it
down a few seconds and starts the SAME cluster again, several times.

A request that gets no HTTP answer, or 503, is sent again unchanged (a drop keeps its operation id, as in
chaos.py), so every drop that was committed is acknowledged in the end. Every attempt is recorded: what it
was, the instance, when it was sent and answered, the status. The goals (the issue's):
  - while PostgreSQL is down every request is answered within 5 s, with 503 and words; never 500, no hang
    (a refusal the server can decide without the database, a stale view's 404 or 409, is shown, not failed on);
  - within 2 s of `pg_ctl start` returning, each instance acknowledges drops again, and its live stream
    delivers board events again, both its own drops' `changes` and the other instance's `version`; every
    acknowledged change reaches both streams within 2 s, and both end at the board's version;
  - no 5xx but 503, ever; no acknowledged drop is lost (the final database, read with psql, is checked
    as chaos.py checks SQLite's); a drop answered 503 ("try again") and sent again is not refused as
    belonging to an ended or unknown session.
A table per outage shows the 503s' latency, the slowest answer, the recovery time of each instance and
when its stream resumed, then the details and what the 503s said; the exit status is 1 when any goal is
missed, and each miss is printed (`--no-strict-latency`: the 5 s and 2 s goals are printed only).
`--dump FILE` writes every request and stream event as JSON lines; `--keep` keeps the servers' logs.

Only the standard library. `python3 Tests/chaos/chaos_pg.py --help`; `make chaos-pg` runs it (~90 s);
`--quick` (or `quick()` from Python) is a ~25 s run with two outages.
"""
from __future__ import annotations

import argparse
import dataclasses
import http.client
import json
import os
import pathlib
import random
import secrets
import shutil
import statistics
import sys
import tempfile
import threading
import time
import uuid

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "postgres"))
import chaos  # noqa: E402  (its server process, HTTP client, random drags and final checks)
import cluster as pg  # noqa: E402  (the throw-away PostgreSQL cluster)

BOARD = "demo"
#: The issue's goals: every answer while PostgreSQL is down within this many seconds (and a 503)…
ANSWER_GOAL = 5.0
#: …and each instance serving again, its live stream delivering again, this soon after it is back.
RECOVERY_GOAL = 2.0
#: How long one attempt waits for its answer: far beyond the goal, so that a hang is measured, not cut short.
REQUEST_TIMEOUT = 45.0
#: How long a client keeps re-sending one request (PostgreSQL is down a few seconds at a time).
RETRY_DEADLINE = 90.0
#: Pauses between attempts: after a 503 (as a page that backs off a little), after no answer.
PAUSE_AFTER_503 = 0.25
PAUSE_AFTER_NOTHING = 0.05
#: Events that carry a board version: proof that a stream delivers the board's changes again.
BOARD_EVENTS = ("changes", "version")


# ---------------------------------------------------------------- what happened, and when

@dataclasses.dataclass
class Attempt:
    """One HTTP attempt as a client saw it."""
    kind: str            # board, begin, target, drop, end, events
    instance: str        # A or B
    sent: float          # time.monotonic()
    done: float          # answered, or given up on
    status: int | None   # None: no HTTP answer (refused, reset, timed out)
    words: str           # the answer's error message, or why there was no answer
    client: int = -1     # the dragging client (-1: a live stream)
    op: str = ""         # a drop's operation id
    version: int | None = None   # the version an acknowledged drop that changed the board made

    @property
    def latency(self) -> float:
        return self.done - self.sent


@dataclasses.dataclass
class Outage:
    number: int
    mode: str                    # pg_ctl stop -m …
    stop_called: float
    stop_returned: float = 0.0
    start_called: float = 0.0
    start_returned: float = 0.0  # 0 while it is down
    next_stop: float = float("inf")


class Record:
    """Every attempt, every stream event and every outage, shared by the threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.attempts: list[Attempt] = []
        self.events: dict[str, list[tuple[float, str, int | None]]] = {"A": [], "B": []}   # (time, type, id)
        self.outages: list[Outage] = []
        self.stats = chaos.Stats()   # acknowledgements and anomalies, as chaos.py keeps them

    def attempt(self, attempt: Attempt) -> None:
        with self.lock:
            self.attempts.append(attempt)

    def event(self, instance: str, kind: str, version: int | None) -> None:
        with self.lock:
            self.events[instance].append((time.monotonic(), kind, version))


class GaveUp(Exception):
    """A request got no answer but 503 (or none) for RETRY_DEADLINE seconds."""


# ---------------------------------------------------------------- clients

class Client(chaos.Client):
    """chaos.py's client (cookie, keep-alive, same-origin headers) with a long timeout, every attempt
    recorded, and a retry that also covers 503."""

    def __init__(self, port: int, instance: str, record: Record, csrf: str, number: int):
        super().__init__(port)
        self.instance, self.record, self.csrf, self.number = instance, record, csrf, number

    def attempt(self, kind: str, method: str, path: str, body: dict | None) -> tuple[int, dict]:
        if self.connection is None:   # chaos.Client.request opens one with a 10 s timeout otherwise
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        sent, op = time.monotonic(), (body or {}).get("op", "")
        try:
            status, answer = self.request(method, path, body)
        except chaos.Unreachable as error:
            self.record.attempt(Attempt(kind, self.instance, sent, time.monotonic(), None, str(error)[:120], self.number, op))
            raise
        made = answer.get("version") if kind == "drop" and status == 200 and answer.get("changes") else None
        self.record.attempt(Attempt(kind, self.instance, sent, time.monotonic(), status, message(answer), self.number, op, made))
        return status, answer

    def until_answered(self, kind: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        """The first answer other than 503: the SAME request is sent again after a 503 or no answer."""
        give_up = time.monotonic() + RETRY_DEADLINE
        self.retried = False
        while True:
            try:
                status, answer = self.attempt(kind, method, path, body)
                if status != 503:
                    return status, answer
                pause = PAUSE_AFTER_503
            except chaos.Unreachable:
                pause = PAUSE_AFTER_NOTHING
            if time.monotonic() > give_up:
                raise GaveUp(f"{method} {path} through {self.instance}: no answer but 503 for {RETRY_DEADLINE:.0f} s")
            self.retried = True
            time.sleep(pause)   # a retry interval, as a page's, not a synchronisation


def message(answer: dict) -> str:
    error = answer.get("error")
    if isinstance(error, dict):
        return str(error.get("message") or "")[:300]
    return str(answer.get("raw", ""))[:160] if "raw" in answer else ""


def drag_once(client: Client, number: int, rng: random.Random, record: Record) -> None:
    """Board → begin → (target) → drop → end through one instance (its sessions live in its memory)."""
    status, board = client.until_answered("board", "GET", "/api/board")
    if status != 200:
        return
    lists = {entry["id"]: chaos.ITEM.findall(entry["html"]) for entry in board["lists"]}
    source, dragged, drop = chaos.random_drop(rng, lists)
    token = secrets.token_hex(16)
    status, _ = client.until_answered("begin", "POST", "/api/sessions", {"token": token, "list": source, "items": dragged})
    if status != 201:
        return
    if rng.random() < 0.3:
        client.until_answered("target", "POST", f"/api/sessions/{token}/target", {"target": drop["target"], "location": drop["location"]})
    body = {"op": str(uuid.uuid4()), "version": board["version"], **drop}
    status, answer = client.until_answered("drop", "POST", f"/api/sessions/{token}/drop", body)
    if status == 200:
        changes = answer.get("changes", [])
        record.stats.add("acknowledged, changed" if changes else "acknowledged, refused")
        if client.retried:
            record.stats.add("acknowledged after a retry")
        record.stats.ack(chaos.Ack(body["op"], answer["version"], answer["operation"], dragged, changes, number))
    elif status < 500:
        record.stats.add(f"drop not applied ({status})")
    client.until_answered("end", "POST", f"/api/sessions/{token}/end", {})


def client_loop(number: int, ports: dict[str, int], seed: int, stop: threading.Event, record: Record) -> None:
    """Drags until told to stop, each drag through the next instance; the drag in progress is finished."""
    rng = random.Random(seed * 1000 + number)
    csrf = secrets.token_hex(16)   # one browser: its cookie goes to both (a cookie is per host, not port)
    clients = [Client(ports[name], name, record, csrf, number) for name in sorted(ports)]
    turn = number
    try:
        while not stop.is_set():
            client = clients[turn % len(clients)]
            turn += 1
            try:
                drag_once(client, number, rng, record)
            except GaveUp as error:
                record.stats.anomaly("gave up", f"client {number}: {error}")
    finally:
        for client in clients:
            client.close()


class Stream:
    """One viewer's live events from one instance, read line by line; reopened a second after it ends or
    is refused (a page reopens its EventSource once the server answers), with Last-Event-ID."""

    def __init__(self, port: int, instance: str, record: Record):
        self.port, self.instance, self.record = port, instance, record
        self.csrf = secrets.token_hex(16)
        self.last_id: int | None = None
        self.stop = threading.Event()
        self.connection: http.client.HTTPConnection | None = None
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.is_set():
            self.follow()
            self.stop.wait(1.0)   # the reconnection delay, as EventSource's

    def follow(self) -> None:
        headers = {"Cookie": f"dragboard_csrf={self.csrf}", "Accept": "text/event-stream"}
        if self.last_id is not None:
            headers["Last-Event-ID"] = str(self.last_id)
        sent, streaming = time.monotonic(), False
        try:
            # The server pings every 15 s: a stream silent for 40 s is dead.
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=40)
            self.connection.request("GET", f"/boards/{BOARD}/events", headers=headers)
            response = self.connection.getresponse()
            if response.status != 200:
                words = message(parse_json(response.read()))
                self.record.attempt(Attempt("events", self.instance, sent, time.monotonic(), response.status, words))
                return
            self.record.attempt(Attempt("events", self.instance, sent, time.monotonic(), 200, ""))
            streaming = True
            kind, event_id = "message", None
            while not self.stop.is_set():
                line = response.readline()
                if not line:
                    self.record.event(self.instance, "ended", None)   # the server ended the stream
                    return
                line = line.decode("utf-8", "replace").rstrip("\r\n")
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("id:"):
                    event_id = int(line[3:].strip()) if line[3:].strip().isdigit() else None
                elif line == "":   # the end of an event (a `: ping` comment makes none)
                    if event_id is not None:
                        self.last_id = event_id
                    if kind != "message" or event_id is not None:
                        self.record.event(self.instance, kind, event_id)
                    kind, event_id = "message", None
        except (OSError, http.client.HTTPException) as error:
            if self.stop.is_set():
                return
            if streaming:
                self.record.event(self.instance, "broken", None)
            else:
                self.record.attempt(Attempt("events", self.instance, sent, time.monotonic(), None, str(error)[:120]))
        finally:
            if self.connection is not None:
                self.connection.close()

    def close(self) -> None:
        self.stop.set()
        connection = self.connection
        if connection is not None and connection.sock is not None:
            try:
                connection.sock.shutdown(2)
            except OSError:
                pass
        self.thread.join(timeout=10)


def parse_json(raw: bytes) -> dict:
    try:
        return json.loads(raw) if raw else {}
    except ValueError:
        return {"raw": raw[:200].decode("utf-8", "replace")}


# ---------------------------------------------------------------- PostgreSQL: the same cluster stopped and started

def pg_ctl(cluster: pg.Cluster, *arguments: str) -> None:
    """pg_ctl on the cluster's folder, as the user the cluster runs as (nobody, when we are root)."""
    done = cluster._run("pg_ctl", "-D", str(cluster.data), *arguments)
    if done.returncode != 0:
        raise pg.ClusterError(f"pg_ctl {' '.join(arguments)} failed (exit {done.returncode})", done.stdout + done.stderr)


def stop_postgres(cluster: pg.Cluster, mode: str) -> None:
    pg_ctl(cluster, "-m", mode, "-w", "-t", "60", "stop")


def start_postgres(cluster: pg.Cluster) -> None:
    """Starts it again on its port, and returns once it accepts connections (`-w`)."""
    pg_ctl(cluster, "-l", str(cluster.log), "-o", f"-p {cluster.port}", "-w", "-t", "60", "start")


def sql(url: str, query: str) -> list[list[str]]:
    return [line.split("|") for line in pg.run_sql(url, query).splitlines() if line]


def read_database(url: str) -> chaos.Database:
    """The demo board as PostgreSQL holds it, in the shape chaos.py's checks read from SQLite."""
    version = int(sql(url, f"SELECT version FROM board WHERE id = '{BOARD}'")[0][0])
    rows = sql(url, "SELECT i.id, i.listid, coalesce(i.containerid, ''), i.changedversion FROM item i "
                    f"JOIN list l ON l.id = i.listid WHERE l.boardid = '{BOARD}'")
    return chaos.Database(
        version=version,
        items={item: (list_id, container or None) for item, list_id, container, _ in rows},
        operations={op: int(stored) for op, stored in sql(url, "SELECT id, version FROM operation")},
        stamped_later=sum(1 for *_, changed in rows if int(changed) > version))


def duplicate_keys(url: str) -> list[list[str]]:
    return sql(url, "SELECT listid, scope, pos, count(*) FROM item GROUP BY listid, scope, pos HAVING count(*) > 1")


# ---------------------------------------------------------------- the run

@dataclasses.dataclass
class Settings:
    outages: int = 5
    down: float = 6.0       # seconds PostgreSQL stays down
    every: float = 15.0     # seconds from one stop to the next (and from the last stop to the end)
    warmup: float = 5.0     # seconds of load before the first stop
    clients: int = 6
    seed: int | None = None
    strict_latency: bool = True   # the 5 s / 2 s goals fail the run
    keep: bool = False
    dump: pathlib.Path | None = None   # every attempt and stream event as a JSON line



def quick(**overrides) -> dict:
    """A ~25 s run with two outages (for a pytest test, later): returns what run() returns."""
    return run(Settings(**{"outages": 2, "down": 4.0, "every": 8.0, "warmup": 3.0, "clients": 4, **overrides}))


def run(settings: Settings, out=sys.stdout) -> dict:
    """Runs the outages under load and the final checks; prints the table; returns
    {"violations": [...], "outages": [rows], "seed": …}."""
    seed = settings.seed if settings.seed is not None else random.randrange(2**32)
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-chaos-pg-"))
    record = Record()
    violations: list[tuple[str, str]] = []   # (goal, what happened)
    cluster = pg.Cluster()
    servers: dict[str, chaos.Server] = {}
    streams: list[Stream] = []
    threads: list[threading.Thread] = []
    stop = threading.Event()
    started = time.monotonic()
    try:
        url = pg.create_database(cluster.start(), "chaos_pg")
        executable = chaos.binary()
        for name in ("A", "B"):
            servers[name] = chaos.Server(executable, url, directory / f"instance-{name}.log")   # type: ignore[arg-type]
            servers[name].start()
        ports = {name: server.port for name, server in servers.items()}
        for name, port in ports.items():
            status, _ = chaos.Client(port).request("GET", "/api/board")
            if status != 200:
                raise RuntimeError(f"instance {name} answered GET /api/board with {status} before any outage")
        initial = read_database(url)
        streams = [Stream(port, name, record) for name, port in ports.items()]
        for stream in streams:
            stream.thread.start()
        threads = [threading.Thread(target=client_loop, args=(n, ports, seed, stop, record), daemon=True)
                   for n in range(settings.clients)]
        for thread in threads:
            thread.start()
        print(f"chaos-pg: PostgreSQL on port {cluster.port}, instances A :{ports['A']} and B :{ports['B']}, "
              f"{settings.clients} clients, {settings.outages} outages of {settings.down:g} s every {settings.every:g} s, "
              f"seed {seed}", file=out, flush=True)
        outages(cluster, settings, record, servers, out)
        stop.set()
        for thread in threads:
            thread.join(timeout=RETRY_DEADLINE + REQUEST_TIMEOUT)
        if any(thread.is_alive() for thread in threads):
            violations.append(("no hang", "a client thread did not finish its drag"))
        with record.lock:
            record.outages[-1].next_stop = time.monotonic()
        caught_up(url, streams, violations)
        for stream in streams:
            stream.close()
        for name, server in servers.items():
            if (status := server.died_on_its_own()) is not None:
                violations.append(("instances keep running", f"instance {name} exited by itself (status {status}); see {server.log}"))
                continue
            try:
                if (status := server.stop()) != 0:
                    violations.append(("clean stop", f"instance {name} exited {status} on SIGTERM"))
            except Exception:   # noqa: BLE001  (a stuck instance: killed, and said so)
                server.kill()
                violations.append(("clean stop", f"instance {name} did not stop within 30 s of SIGTERM"))
        final = read_database(url)
        chaos.verify(initial, final, record.stats)
        for kind, detail in record.stats.anomalies:
            violations.append(("nothing acknowledged is lost" if kind != "gave up" else "no hang", f"{kind}: {detail}"))
        changing = sum(1 for ack in record.stats.acks if ack.changes)
        if final.version - initial.version != changing:
            # More: a drop answered with an error (500) was committed all the same; its author was told it failed.
            violations.append(("every change is acknowledged", f"the board went from version {initial.version} to "
                                                               f"{final.version} for {changing} acknowledged changing drops"))
        if keys := duplicate_keys(url):
            violations.append(("nothing acknowledged is lost", f"order keys shared by several rows (list, scope, pos, count): {keys}"))
        rows = analyse(record, settings, violations)
        if settings.dump:
            dump(record, started, settings.dump)
        report(record, rows, violations, settings, seed, time.monotonic() - started, initial, final, directory, out)
        return {"seed": seed, "violations": violations, "outages": rows, "counts": dict(record.stats.counts)}
    finally:
        stop.set()
        for stream in streams:
            stream.stop.set()
        for server in servers.values():
            if server.process and server.process.poll() is None:
                server.kill()
        if settings.keep:
            if cluster.directory and (cluster.data / "postmaster.pid").exists():
                stop_postgres(cluster, "fast")
            print(f"chaos-pg: instance logs in {directory}, the cluster (stopped) in {cluster.directory}", file=out)
        else:
            cluster.stop()
            shutil.rmtree(directory, ignore_errors=True)


def outages(cluster: pg.Cluster, settings: Settings, record: Record, servers: dict[str, chaos.Server], out) -> None:
    """The schedule: load alone for `warmup` s, then a stop every `every` s, each kept down `down` s;
    `every` s after the last stop the load ends. The sleeps ARE the schedule (the load runs meanwhile)."""
    time.sleep(settings.warmup)
    for number in range(1, settings.outages + 1):
        mode = "fast" if number % 2 else "immediate"
        outage = Outage(number, mode, time.monotonic())
        with record.lock:
            if record.outages:
                record.outages[-1].next_stop = outage.stop_called
            record.outages.append(outage)
        stop_postgres(cluster, mode)
        outage.stop_returned = time.monotonic()
        time.sleep(max(0.0, outage.stop_called + settings.down - time.monotonic()))
        outage.start_called = time.monotonic()
        start_postgres(cluster)
        outage.start_returned = time.monotonic()
        print(f"  outage {number}: pg_ctl stop -m {mode} took {outage.stop_returned - outage.stop_called:.2f} s, "
              f"down {outage.start_returned - outage.stop_called:.1f} s, pg_ctl start took "
              f"{outage.start_returned - outage.start_called:.2f} s", file=out, flush=True)
        for name, server in servers.items():
            if (status := server.died_on_its_own()) is not None:
                raise RuntimeError(f"instance {name} exited (status {status}) during outage {number}; see {server.log}")
        time.sleep(max(0.0, outage.stop_called + settings.every - time.monotonic()))


def caught_up(url: str, streams: list[Stream], violations: list) -> None:
    """Once the load is over, every stream must reach the board's version (its changes all delivered)."""
    version = int(sql(url, f"SELECT version FROM board WHERE id = '{BOARD}'")[0][0])
    deadline = time.monotonic() + 5
    while any((stream.last_id or 0) < version for stream in streams) and time.monotonic() < deadline:
        time.sleep(0.05)   # polling the streams' progress
    for stream in streams:
        if (stream.last_id or 0) < version:
            violations.append(("live streams resume", f"instance {stream.instance}'s stream is at version {stream.last_id} "
                                                      f"5 s after the load, the board at {version}"))


# ---------------------------------------------------------------- the figures

def describe(attempts: list[Attempt]) -> str:
    """`503×40 200×2 none×1` (none: no HTTP answer)."""
    counts: dict[str, int] = {}
    for attempt in attempts:
        key = str(attempt.status) if attempt.status is not None else "none"
        counts[key] = counts.get(key, 0) + 1
    return " ".join(f"{key}×{value}" for key, value in sorted(counts.items())) or "-"


def seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.2f} s" if value < 10 else f"{value:.1f} s"


def analyse(record: Record, settings: Settings, violations: list) -> list[dict]:
    """One row per outage; every missed goal appended to `violations`."""
    attempts = sorted(record.attempts, key=lambda attempt: attempt.sent)
    latency_goal = "latency (5 s / 2 s goals)"
    for attempt in attempts:
        if attempt.status is not None and attempt.status >= 500 and attempt.status != 503:
            violations.append(("no 5xx but 503", f"{attempt.kind} through {attempt.instance} answered {attempt.status} "
                                                 f"after {attempt.latency:.2f} s at {phase(record.outages, attempt)}: {attempt.words!r}"))
        if attempt.status == 503 and not attempt.words:
            violations.append(("503 with words", f"{attempt.kind} through {attempt.instance} answered 503 without a message"))
    # "Try again" must mean it: a drop answered 503 (or nothing) and sent again with its operation id is
    # applied, or answered from its record; its session refused as ended or unknown loses the drop.
    by_op: dict[str, list[Attempt]] = {}
    for attempt in attempts:
        if attempt.kind == "drop" and attempt.op:
            by_op.setdefault(attempt.op, []).append(attempt)
    for op, tries in by_op.items():
        last = tries[-1]
        failed_before = [a for a in tries[:-1] if a.status in (None, 503)]
        if failed_before and last.status in (404, 409, 410) and "session" in last.words.lower():
            first = failed_before[0]
            violations.append(("a retried drop is applied", f"op {op} through {last.instance}: {first.status or 'no answer'} "
                                                            f"{first.words[:70]!r} ({phase(record.outages, first)}), then after "
                                                            f"{len(tries) - 1} attempt(s) {last.status} {last.words!r} "
                                                            f"({phase(record.outages, last)})"))
    rows = []
    for outage in record.outages:
        in_flight = [a for a in attempts if a.sent < outage.stop_called <= a.done]
        down = [a for a in attempts if outage.stop_called <= a.sent < outage.start_returned]
        after = [a for a in attempts if outage.start_returned <= a.sent and a.done < outage.next_stop]
        latencies_503 = [a.latency for a in down if a.status == 503]
        slow = [a for a in in_flight + down if a.latency > ANSWER_GOAL]
        row = {
            "outage": outage.number, "mode": outage.mode, "down": outage.start_returned - outage.stop_called,
            "while down": describe(down), "by kind": {kind: describe([a for a in down if a.kind == kind])
                                                     for kind in sorted({a.kind for a in down})},
            "503 p50": statistics.median(latencies_503) if latencies_503 else None,
            "503 max": max(latencies_503) if latencies_503 else None,
            "slowest": max((a.latency for a in in_flight + down), default=None),
            "in flight": describe(in_flight), "in flight max": max((a.latency for a in in_flight), default=None),
            "recovery": {}, "last failure": {}, "stream": {}, "stream kinds": {}, "stream breaks": {}, "delivery": {},
        }
        for attempt in slow:
            violations.append((latency_goal, f"outage {outage.number}: {attempt.kind} through {attempt.instance} "
                                             f"{'in flight at the stop' if attempt.sent < outage.stop_called else 'sent while down'} "
                                             f"answered {attempt.status if attempt.status is not None else 'nothing'} "
                                             f"after {attempt.latency:.1f} s"))
        # Not failed on: a refusal of a stale view (404, 409) may rightly be decided without the database.
        row["other answers"] = sorted({f"{a.kind} {a.status}: {a.words[:90]}" for a in down
                                       if a.status is not None and 400 <= a.status < 500})
        for name in ("A", "B"):
            served = [a for a in attempts if a.instance == name and a.kind == "drop" and a.status is not None
                      and 200 <= a.status < 300 and a.sent >= outage.stop_called and outage.start_returned <= a.done < outage.next_stop]
            recovery = min(a.done for a in served) - outage.start_returned if served else None
            failed = [a for a in after if a.instance == name and (a.status is None or a.status >= 500)]
            row["recovery"][name] = recovery
            row["last failure"][name] = (max(a.done for a in failed) - outage.start_returned, describe(failed)) if failed else None
            with record.lock:
                events = [(t, kind) for t, kind, _ in record.events[name] if outage.stop_called <= t < outage.next_stop]
            # Resumed: both ways a viewer learns of changes work again, its own instance's drops
            # (`changes`) and the other's (`version`, through the LISTEN connection).
            firsts = {kind: next((t - outage.start_returned for t, seen in events if seen == kind and t >= outage.start_returned), None)
                      for kind in BOARD_EVENTS}
            row["stream kinds"][name] = firsts
            row["stream"][name] = None if None in firsts.values() else max(firsts.values())
            row["stream breaks"][name] = sum(1 for _, kind in events if kind in ("ended", "broken"))
            row["delivery"][name] = delivery(record, name, [a for a in after if a.version is not None])
            late, never = row["delivery"][name]["late"], row["delivery"][name]["never"]
            if never:
                violations.append(("live streams resume", f"outage {outage.number}: instance {name}'s stream never delivered "
                                                          f"versions {never[:8]} (acknowledged after the start)"))
            if late:
                violations.append((latency_goal, f"outage {outage.number}: instance {name}'s stream delivered {len(late)} "
                                                 f"change(s) more than {RECOVERY_GOAL:g} s after their drop was answered "
                                                 f"(the latest {max(late):.1f} s)"))
            if recovery is None or recovery > RECOVERY_GOAL:
                violations.append((latency_goal, f"outage {outage.number}: instance {name} acknowledged its first drop "
                                                 f"{seconds(recovery)} after PostgreSQL was back"
                                                 + (f" (failures after the start: {describe(failed)})" if failed else "")))
            if row["stream"][name] is None or row["stream"][name] > RECOVERY_GOAL:
                violations.append((latency_goal, f"outage {outage.number}: instance {name}'s stream delivered again "
                                                 f"{seconds(row['stream'][name])} after PostgreSQL was back (its own drops' "
                                                 f"'changes' after {seconds(firsts['changes'])}, the other instance's "
                                                 f"'version' after {seconds(firsts['version'])})"))
        rows.append(row)
    if not settings.strict_latency:
        violations[:] = [(goal, detail) for goal, detail in violations if goal != latency_goal]
    return rows


def delivery(record: Record, instance: str, changes: list[Attempt]) -> dict:
    """How soon `instance`'s stream carried each acknowledged change: the first event with its version or a
    later one (a page behind reads the board again, so a later version covers a missed one), counted from
    the drop's answer (an event may come before it: the broadcast precedes the answer)."""
    with record.lock:
        events = [(t, version) for t, kind, version in record.events[instance] if version is not None and kind != "hello"]
    delays, late, never = [], [], []
    for change in changes:
        seen = next((t for t, version in events if version >= change.version and t >= change.sent), None)
        if seen is None:
            never.append(change.version)
            continue
        delays.append(max(0.0, seen - change.done))
        if delays[-1] > RECOVERY_GOAL:
            late.append(delays[-1])
    return {"changes": len(changes), "max": max(delays, default=None), "late": late, "never": sorted(never)}


def phase(outages: list[Outage], attempt: Attempt) -> str:
    """Where an attempt falls: in flight at a stop first (it may have been sent after the previous start)."""
    for outage in outages:
        if attempt.sent < outage.stop_called <= attempt.done:
            return f"outage {outage.number}, in flight at the stop"
    for outage in outages:
        if outage.stop_called <= attempt.sent < (outage.start_returned or float("inf")):
            return f"outage {outage.number}, while down"
        if outage.start_returned <= attempt.sent < outage.next_stop:
            return f"outage {outage.number}, +{attempt.sent - outage.start_returned:.1f} s after the start"
    return "before the first outage"


def dump(record: Record, started: float, path: pathlib.Path) -> None:
    """Every attempt, one JSON object a line: seconds since the run began, latency, status, instance, and
    whether PostgreSQL was up (the phase relative to the outages)."""
    with open(path, "w") as file:
        for attempt in sorted(record.attempts, key=lambda attempt: attempt.sent):
            where = phase(record.outages, attempt)
            file.write(json.dumps({"at": round(attempt.sent - started, 3), "kind": attempt.kind, "instance": attempt.instance,
                                   "status": attempt.status, "latency": round(attempt.latency, 4), "phase": where,
                                   "postgres_up": not where.endswith(("while down", "in flight at the stop")),
                                   "words": attempt.words, "client": attempt.client, "op": attempt.op,
                                   "version": attempt.version}) + "\n")
        for instance, events in record.events.items():
            for t, kind, version in events:
                file.write(json.dumps({"at": round(t - started, 3), "event": kind, "instance": instance, "id": version}) + "\n")


def report(record: Record, rows: list[dict], violations: list, settings: Settings, seed: int, elapsed: float,
           initial: chaos.Database, final: chaos.Database, directory: pathlib.Path, out) -> None:
    print(f"chaos-pg: seed {seed}, {elapsed:.1f} s, {len(record.attempts)} requests, board version "
          f"{initial.version} → {final.version}, {len(final.items)} items", file=out)
    for name, value in sorted(record.stats.counts.items()):
        print(f"  {name}: {value}", file=out)
    header = (f"{'#':>2} {'stop':<9} {'down':>6}  {'answers while down':<30} {'503 p50/max':>15} {'slowest':>8}  "
              f"{'in flight at stop':<22} {'recovery A':>10} {'recovery B':>10} {'stream A':>8} {'stream B':>8}")
    print(header, file=out)
    print("-" * len(header), file=out)
    for row in rows:
        p50_max = f"{row['503 p50']:.2f}/{row['503 max']:.2f} s" if row["503 p50"] is not None else "-"
        print(f"{row['outage']:>2} {row['mode']:<9} {row['down']:>5.1f}s  {row['while down']:<30.30} {p50_max:>15} "
              f"{seconds(row['slowest']):>8}  {row['in flight']:<22.22} {seconds(row['recovery']['A']):>10} "
              f"{seconds(row['recovery']['B']):>10} {seconds(row['stream']['A']):>8} {seconds(row['stream']['B']):>8}", file=out)
    print("per outage, in detail:", file=out)
    for row in rows:
        kinds = ", ".join(f"{kind} {counts}" for kind, counts in row["by kind"].items())
        print(f"  {row['outage']}: while down by request: {kinds or '-'}; in flight at the stop: {row['in flight']} "
              f"(slowest {seconds(row['in flight max'])})", file=out)
        for name in ("A", "B"):
            last = row["last failure"][name]
            print(f"     {name}: first acknowledged drop {seconds(row['recovery'][name])} after the start"
                  + (f", failures after the start {last[1]} (the last at +{last[0]:.1f} s)" if last else ", no failure after the start")
                  + f"; stream: first 'changes' {seconds(row['stream kinds'][name]['changes'])}, first 'version' "
                  f"{seconds(row['stream kinds'][name]['version'])} after the start, {row['stream breaks'][name]} break(s); "
                  f"{row['delivery'][name]['changes'] - len(row['delivery'][name]['never'])}/{row['delivery'][name]['changes']} "
                  f"acknowledged changes delivered (slowest {seconds(row['delivery'][name]['max'])})", file=out)
        for answer in row["other answers"]:
            print(f"     answered while down (a refusal, not failed on): {answer}", file=out)
    words: dict[str, int] = {}
    for attempt in record.attempts:
        if attempt.status == 503:
            words[attempt.words[:100]] = words.get(attempt.words[:100], 0) + 1
    print("what the 503s said:", file=out)
    for said, count in sorted(words.items(), key=lambda item: -item[1])[:6]:
        print(f"  {count:>5} × {said!r}", file=out)
    logs = ", ".join(f"{path.name} {sum(1 for _ in open(path, errors='replace'))} lines"
                     for path in sorted(directory.glob("instance-*.log")))
    print(f"server logs (warnings and errors): {logs}", file=out)
    goals = {}
    for goal, _ in violations:
        goals[goal] = goals.get(goal, 0) + 1
    print(f"chaos-pg: {'PASS' if not violations else 'FAIL'}: {len(violations)} goal(s) missed"
          + (f" — {', '.join(f'{goal} ×{count}' for goal, count in goals.items())}" if goals else ""), file=out)
    shown: dict[str, int] = {}
    for goal, detail in violations:
        shown[goal] = shown.get(goal, 0) + 1
        if shown[goal] <= 12:
            print(f"  [{goal}] {detail}", file=out)
        elif shown[goal] == 13:
            print(f"  [{goal}] … {goals[goal] - 12} more", file=out)


def main() -> int:
    environment = os.environ
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outages", type=int, default=int(environment.get("CHAOS_PG_OUTAGES", 5)), help="how many stops (CHAOS_PG_OUTAGES)")
    parser.add_argument("--down", type=float, default=float(environment.get("CHAOS_PG_DOWN", 6)), help="seconds down each time (CHAOS_PG_DOWN)")
    parser.add_argument("--every", type=float, default=float(environment.get("CHAOS_PG_EVERY", 15)),
                        help="seconds from one stop to the next, and from the last to the end (CHAOS_PG_EVERY)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of load before the first stop")
    parser.add_argument("--clients", type=int, default=int(environment.get("CHAOS_CLIENTS", 6)), help="concurrent dragging clients (CHAOS_CLIENTS)")
    parser.add_argument("--seed", type=int, default=int(environment["CHAOS_SEED"]) if "CHAOS_SEED" in environment else None)
    parser.add_argument("--strict-latency", action=argparse.BooleanOptionalAction, default=True,
                        help="the 5 s answer and 2 s recovery goals fail the run (the default; --no-strict-latency only prints them)")
    parser.add_argument("--quick", action="store_true", help="~25 s: 2 outages of 4 s, 4 clients")
    parser.add_argument("--keep", action="store_true", help="keep the instances' logs and the (stopped) cluster")
    parser.add_argument("--dump", type=pathlib.Path, help="write every request (status, latency, instance, phase) as JSON lines to this file")
    arguments = parser.parse_args()
    ok, why_not = pg.available()
    if not ok:
        print(f"chaos-pg: PostgreSQL is needed: {why_not}", file=sys.stderr)
        return 2
    if arguments.every <= arguments.down:
        parser.error("--every must be longer than --down")
    common = {"seed": arguments.seed, "strict_latency": arguments.strict_latency, "keep": arguments.keep, "dump": arguments.dump}
    if arguments.quick:
        result = quick(**common)
    else:
        result = run(Settings(arguments.outages, arguments.down, arguments.every, arguments.warmup, arguments.clients, **common))
    return 1 if result["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
