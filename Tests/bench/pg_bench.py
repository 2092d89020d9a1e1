"""`make bench` on PostgreSQL: the release server on a throw-away PostgreSQL cluster (Tests/postgres/cluster.py),
through one instance and through two sharing one database, beside SQLite, in the same run.

    python3 Tests/bench/pg_bench.py [--binary .build/release/dragboard] [--seconds 5] [--samples 200]

1. Drops/s, p50 and p99 with 8 and 16 drop clients (threads of drops.c, one process per instance; with two
   instances the clients split evenly between A and B), each dragging its own rows; afterwards every instance
   must show the database's version, which must be the version before plus the acknowledged changing drops,
   with the same rows (none lost, none doubled). Each phase (SQLite, one instance, two) first runs its clients
   for a second not counted (connections, prepared statements, what each instance remembers of the board), and
   each PostgreSQL phase has the cluster to itself: the previous phase's database is dropped and a CHECKPOINT
   written first, so that no phase's figures pay for the previous one's vacuum or checkpoint. The PostgreSQL
   phases run in the order one instance, two, two, one, and each figure is the mean of its configuration's two runs.
2. Live updates across instances: an SSE viewer on B (`GET /boards/demo/events`), drops one at a time through
   A; the latency is when B's `version` event for that drop's version arrives, minus when A's drop answer
   arrived (and minus when the drop request started). It can be below zero: the NOTIFY is delivered at
   commit, while A still renders its answer.
3. The same drops on SQLite (one instance), for comparison.
4. The PostgreSQL statements of a drop cycle (issue #27: ≤ 15), on a cluster of its own that counts them
   (pg_stat_statements) and logs them: one instance, one Python client, cycles one after the other, counts
   reset and read between the begin, the drop and the end; and how many of the drop's ran while its board
   row was locked (from the statement log). Counted twice on one server: with no accounts yet, then signed
   in as an admin (`dragboard users add`, `POST /login`): every request of a team's server finds its sign-in.

    python3 Tests/bench/pg_bench.py --count-only [--cycles 50]     # only 4: a few seconds

Where no PostgreSQL server can be made here, it prints one loud line and exits 0 (the rest of `make bench`
ran). Stdlib only; nothing is asserted: these are measurements, read as medians and ratios.
"""
import argparse
import collections
import json
import re
import os
import pathlib
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from clients import BOARD, CATS, CDropClients, Client, DropClient, Snapshot, percentile
from http_bench import ROOT, Server

sys.path.insert(0, str(ROOT / "Tests/postgres"))
import cluster as postgres  # noqa: E402

#: Rows per cat before the drops: 16 clients own 3 each (a drop hovers another of its own rows).
ROWS_PER_CAT = 16
CLIENTS = (8, 16)
#: The run of each phase not counted, before its figures.
WARM_UP_SECONDS = 1
#: The PostgreSQL phases, by instances, in turn: each configuration's figures are the mean of its runs, and
#: whatever drifts on the shared machine during the bench weighs on both alike.
PG_ORDER = (1, 2, 2, 1)


def merged(runs: list[dict]) -> dict:
    """One phase's figures from several runs of it: the mean of each (a loss in any run shows as one)."""
    return {key: max(run[key] for run in runs) if "lost" in key else statistics.fmean(run[key] for run in runs)
            for key in runs[0]}
SETTLE_SECONDS = 15


def start(binary: pathlib.Path, database: str, images: pathlib.Path) -> Server:
    return Server([str(binary), "--port", "0", "--database", database, "--images", str(images),
                   "--public", str(ROOT / "Public"), "--templates", str(ROOT / "Templates"), "--log-level", "error"])


def seed(client: Client, rows: int) -> None:
    """Drops text from outside onto each cat until it holds `rows` toys (a cat makes a toy of text; a row
    the list form adds is not a toy, and cats refuse it)."""
    board = client.board()
    for cat in CATS:
        for number in range(rows - len(board.lists[cat])):
            token = secrets.token_hex(16)
            status, _ = client.post("/api/sessions/external", {"token": token, "types": ["text/plain"], "files": []})
            assert status == 201, f"an external drag answered {status}"
            status, answer = client.post(f"/api/sessions/{token}/drop", {
                "op": secrets.token_hex(16), "version": 0, "target": {"list": cat}, "location": None,
                "data": [["text/plain", f"Bench toy {cat} {number}"]]})
            assert status == 200 and answer.get("changes"), f"adding a toy to {cat}: {status} {answer}"
            client.post(f"/api/sessions/{token}/end", {})


def database_version(url: str | None, servers: list[Server]) -> int:
    """The board's version in the database: PostgreSQL's row, or (SQLite, one instance) the instance's."""
    if url is None:
        return Client(servers[0].port).board().version
    return int(postgres.run_sql(url, "SELECT version FROM board WHERE id = 'demo'").strip())


def settled(servers: list[Server], url: str | None) -> list[Snapshot]:
    """Every instance's board once it shows the database's version (another instance's changes reach it by
    NOTIFY); raises when one is still behind after SETTLE_SECONDS."""
    target = database_version(url, servers)
    deadline = time.monotonic() + SETTLE_SECONDS
    snapshots = []
    for server in servers:
        client = Client(server.port)
        while (snapshot := client.board()).version != target:
            if time.monotonic() > deadline:
                raise RuntimeError(f"instance on port {server.port} shows version {snapshot.version}, the database {target}")
        snapshots.append(snapshot)
    return snapshots


class PostgresCPU:
    """The CPU seconds the cluster's processes have used: the postmaster and its live children, plus the
    children it has reaped (cutime, cstime)."""

    def __init__(self, cluster: "postgres.Cluster | None"):
        self.postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0]) if cluster else None

    def seconds(self) -> float:
        if self.postmaster is None:
            return 0.0
        ticks = 0
        for entry in pathlib.Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # a backend that just left
            if int(entry.name) == self.postmaster:
                ticks += sum(int(field) for field in fields[11:15])
            elif int(fields[1]) == self.postmaster:
                ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")


def drops(servers: list[Server], url: str | None, clients: int, seconds: int, runner: CDropClients, cpu: PostgresCPU) -> dict:
    """`clients` drop clients, split evenly between the instances, for `seconds`."""
    before = settled(servers, url)[0]
    owned = [[item for index, item in enumerate(before.items) if index % clients == k] for k in range(clients)]
    started_cpu = [server.cpu_seconds() for server in servers], cpu.seconds()
    begin = time.time() + 0.3
    results: list[dict | BaseException] = [None] * len(servers)

    def run(index: int):
        try:
            results[index] = runner.run(servers[index].port, owned[index::len(servers)], before, begin, begin + seconds)
        except BaseException as error:  # noqa: BLE001 — raised below, in the main thread
            results[index] = error

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(servers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for result in results:
        if isinstance(result, BaseException):
            raise result
    server_cpu = sum(server.cpu_seconds() for server in servers) - sum(started_cpu[0])
    database_cpu = cpu.seconds() - started_cpu[1]
    latencies = sorted(latency for result in results for latency in result["latencies"])
    acknowledged = sum(result["changed"] for result in results)
    after = settled(servers, url)
    lost = any(snapshot.version != before.version + acknowledged or sorted(snapshot.items) != sorted(before.items)
               for snapshot in after)
    per_drop = lambda seconds_used: seconds_used * 1e6 / acknowledged if acknowledged else float("nan")
    return {"drops/s, {n} clients": acknowledged / max(result["elapsed"] for result in results),
            "drop p50, {n} clients (ms)": percentile(latencies, 50), "drop p99, {n} clients (ms)": percentile(latencies, 99),
            # drops.c's counts: a begin not 201, a drop not 200 with changes, an end not 200.
            "drag starts refused, {n} clients": sum(result["refused_begin"] for result in results),
            "drops refused or unchanged, {n} clients": sum(result["refused_drop"] for result in results),
            "drag ends refused, {n} clients": sum(result["failed_end"] for result in results),
            "drops lost or doubled, {n} clients": int(lost),
            "servers' CPU per drop, {n} clients (µs)": per_drop(server_cpu),
            "PostgreSQL's CPU per drop, {n} clients (µs)": per_drop(database_cpu) if cpu.postmaster else None,
            "drops.c's CPU per drop, {n} clients (µs)": per_drop(sum(result["cpu_seconds"] for result in results))}


class VersionListener(threading.Thread):
    """A viewer of the demo board on one instance: records when each `version` event arrives
    (time.perf_counter, the clock the drops are timed with)."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.socket.sendall(f"GET {BOARD}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.stream = self.socket.makefile("rb")
        head = []
        while (line := self.stream.readline()) not in (b"\r\n", b"\n", b""):
            head.append(line.decode("latin-1").strip())
        assert head and " 200 " in head[0], f"events answered {head[:1]}"
        self.chunked = any(line.lower() == "transfer-encoding: chunked" for line in head)
        self.arrivals: dict[int, float] = {}
        self.changed = threading.Condition()
        self.closed = False

    def lines(self):
        """The stream's lines, with the chunked framing taken off; each with when its bytes were read."""
        pending = b""
        while True:
            if self.chunked:
                size = self.stream.readline()
                if not size or int(size.split(b";")[0], 16) == 0:
                    return
                data = self.stream.read(int(size.split(b";")[0], 16))
                self.stream.readline()
            else:
                data = self.stream.readline()
                if not data:
                    return
            arrived = time.perf_counter()
            pending += data
            *complete, pending = pending.split(b"\n")
            for line in complete:
                yield line.rstrip(b"\r").decode(), arrived

    def run(self):
        event = None
        try:
            for line, arrived in self.lines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:") and event == "version":
                    with self.changed:
                        self.arrivals.setdefault(json.loads(line[5:])["version"], arrived)
                        self.changed.notify_all()
                elif not line:
                    event = None
        except OSError:
            pass
        finally:
            with self.changed:
                self.closed = True
                self.changed.notify_all()

    def arrival(self, version: int, timeout: float) -> float | None:
        """When the first `version` event at or beyond `version` arrived; None if none within `timeout`."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                times = [at for seen, at in self.arrivals.items() if seen >= version]
                if times:
                    return min(times)
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    return None
                self.changed.wait(left)

    def close(self):
        self.socket.shutdown(socket.SHUT_RDWR)
        self.socket.close()


def live_latency(a: Server, b: Server, samples: int) -> dict:
    """One drop at a time through A, each timed until B's viewer hears of its version."""
    listener = VersionListener(b.port)
    listener.start()
    client = Client(a.port)
    row = client.board().lists["cat-1"][0]
    where, after_answer, after_start, missed = "cat-1", [], [], 0
    try:
        for turn in range(samples):
            target = "cat-2" if where == "cat-1" else "cat-1"
            token = secrets.token_hex(16)
            status, _ = client.post("/api/sessions", {"token": token, "list": where, "items": [row]})
            assert status == 201, f"drag start answered {status}"
            body = {"op": secrets.token_hex(16), "version": 0, "target": {"list": target}, "location": None}
            started = time.perf_counter()
            status, answer = client.post(f"/api/sessions/{token}/drop", body)
            answered = time.perf_counter()
            assert status == 200 and answer.get("changes"), f"drop {turn} answered {status}: {answer}"
            where = target
            heard = listener.arrival(answer["version"], timeout=10)
            if heard is None:
                missed += 1
            else:
                after_answer.append((heard - answered) * 1000)
                after_start.append((heard - started) * 1000)
            client.post(f"/api/sessions/{token}/end", {})
    finally:
        listener.close()
    figures = {"live drops heard on B": len(after_answer), "live drops not heard on B within 10 s": missed}
    for name, values in (("after A's answer", after_answer), ("after A's drop request", after_start)):
        for label, value in (("p50", percentile(values, 50)), ("p99", percentile(values, 99)),
                             ("max", max(values, default=float("nan")))):
            figures[f"B hears a drop, {name}, {label} (ms)"] = value
    return figures


def phase(binary: pathlib.Path, database: str, url: str | None, instances: int, folder: pathlib.Path, seconds: int,
          runner: CDropClients, cpu: PostgresCPU, samples: int) -> dict:
    """Fresh instances on `database` (seeded through the first), the drop runs, and with two the live latency."""
    images = folder / f"images-{secrets.token_hex(4)}"
    servers: list[Server] = []
    try:
        for _ in range(instances):
            servers.append(start(binary, database, images))
        seed(Client(servers[0].port), ROWS_PER_CAT)
        drops(servers, url, CLIENTS[0], WARM_UP_SECONDS, runner, cpu)
        figures = {}
        for clients in CLIENTS:
            for name, value in drops(servers, url, clients, seconds, runner, cpu).items():
                if value is not None:
                    figures[name.replace("{n}", str(clients))] = value
        if instances == 2:
            figures.update(live_latency(servers[0], servers[1], samples))
        return figures
    finally:
        for server in servers:
            server.stop()


#: The counting cluster's statement log: each entry begins with this marker (no statement does), then its
#: backend's pid (%p) and its transaction (%v: the virtual transaction id, the same from BEGIN to COMMIT).
LOG_SETTINGS = "log_statement = 'all'\nlog_line_prefix = '@@ %p %v @@ '\n"
LOG_ENTRY = re.compile(r"^@@ (\d+) (\S*) @@ (\w+):  (.*)")
#: A statement's entry: `statement: SQL` (simple protocol) or `execute <name>: SQL` (extended protocol).
LOGGED_STATEMENT = re.compile(r"^(?:statement|execute [^:]+): (.*)", re.S)
#: PostgresSQLConnection.lock(board:), the first statement of every write transaction.
BOARD_LOCK = re.compile(r"^SELECT (1|version|version, incarnation, xmin::text) FROM board WHERE id = \S+ FOR UPDATE"
                        r"|^SELECT board\.version, .* FOR UPDATE OF board", re.S)
#: Rows per cat of the counting board (one client owns them all, like http_bench's single drop client).
COUNT_ROWS = 4
#: Cycles run before counting: the pool's connections and prepared statements are made by then.
WARM_UP_CYCLES = 3
GOAL_STATEMENTS = 15


def logged_statements(text: str) -> list[tuple[str, str, str]]:
    """(pid, transaction, SQL) of each statement in a piece of the statement log (a statement's text may
    run over several lines; parameters and other entries are left out)."""
    entries: list[list[str]] = []
    for line in text.splitlines():
        if found := LOG_ENTRY.match(line):
            entries.append(list(found.groups()))
        elif entries:
            entries[-1][3] += "\n" + line
    return [(pid, transaction, statement.group(1).strip()) for pid, transaction, level, message in entries
            if level == "LOG" and (statement := LOGGED_STATEMENT.match(message)) and "pg_stat_statements" not in message]


def under_lock(statements: list[tuple[str, str, str]]) -> tuple[int, int, int]:
    """In one drop's statements: (board-row locks taken, statements run after a lock and before its
    transaction's COMMIT or ROLLBACK, locks whose end is not in the piece)."""
    locks = inside = open_locks = 0
    holding: dict[str, str] = {}  # pid → the transaction that holds a lock
    for pid, transaction, sql in statements:
        if pid in holding:
            if transaction != holding[pid]:
                open_locks += 1  # the transaction ended unseen: not counted as under the lock
                del holding[pid]
            elif sql.upper().startswith(("COMMIT", "ROLLBACK", "END")):
                del holding[pid]
                continue
            else:
                inside += 1
                continue
        if BOARD_LOCK.match(sql):
            locks += 1
            holding[pid] = transaction
    return locks, inside, open_locks + len(holding)


def count_statements(binary: pathlib.Path, folder: pathlib.Path, cycles: int) -> dict:
    """The statements PostgreSQL is sent per drop cycle, as pg_stat_statements counts them (see the module's
    point 4); the drops go as drops.c's clients choose them (DropClient.choose). Counted twice on one server:
    with no accounts yet (anyone may drag), then signed in as an admin (the path of a team's server: every
    request finds its sign-in)."""
    with postgres.Cluster(statements=True, settings=LOG_SETTINGS) as cluster:
        url = cluster.url
        server = start(binary, url, folder / "images-count")
        try:
            client = Client(server.port)
            seed(client, COUNT_ROWS)
            board = client.board()
            where = {item: name for name in CATS for item in board.lists[name]}
            counted = count_cycles(client, board.items, where, cluster, cycles)
            sign_in(client, binary, url)
            counted["signed in"] = count_cycles(client, board.items, where, cluster, cycles)
            return counted
        finally:
            server.stop()


def sign_in(client: Client, binary: pathlib.Path, url: str) -> None:
    """Adds an admin with `dragboard users add`, signs `client` in through `POST /login` and takes up the
    sign-in's cookie and CSRF token (the board page's `csrf-token`), as a browser does."""
    password = secrets.token_hex(16)
    subprocess.run([str(binary), "users", "add", "bench", "--admin", "--database", url], input=password + "\n",
                   text=True, check=True, capture_output=True)
    form = urllib.parse.urlencode({"username": "bench", "password": password, "next": "/",
                                   "csrf": client.headers["X-CSRF-Token"]})
    client.connection.request("POST", "/login", form, {**client.headers, "Content-Type": "application/x-www-form-urlencoded"})
    response = client.connection.getresponse()
    response.read()
    cookie = re.search(r"dragboard_session=([^;]+)", response.getheader("Set-Cookie") or "")
    assert response.status == 303 and cookie, f"signing in answered {response.status}"
    client.headers["Cookie"] = f"dragboard_session={cookie.group(1)}"
    status, page = client.request("GET", BOARD)
    csrf = re.search(rb'<meta name="csrf-token" content="([^"]+)"', page)
    assert status == 200 and csrf, f"the board page, signed in: {status}"
    client.headers["X-CSRF-Token"] = csrf.group(1).decode()


def count_cycles(client: Client, own: list[str], where: dict[str, str], cluster: "postgres.Cluster", cycles: int) -> dict:
    """``count_statements``'s cycles, through `client` (`where` is kept up to date)."""
    url = cluster.url
    calls = {phase: collections.Counter() for phase in ("begin", "drop", "end")}
    per_drop, kinds = [], collections.defaultdict(list)
    locks = locked = unclosed = logged = 0

    def measured(phase: str, request):
        postgres.reset_statements(url)
        answer = request()
        for number, query in postgres.statement_counts(url):
            calls[phase][query] += number
        return answer

    for turn in range(1, WARM_UP_CYCLES + cycles + 1):
        item, target, location = DropClient.choose(turn, own, where)
        if turn <= WARM_UP_CYCLES:
            token = client.begin(item, where[item])
            answer = client.drop(token, target, location, must_change=False)
            client.end(token)
        else:
            token = measured("begin", lambda: client.begin(item, where[item]))
            before, log_start = sum(calls["drop"].values()), cluster.log.stat().st_size
            answer = measured("drop", lambda: client.drop(token, target, location, must_change=False))
            with open(cluster.log, "rb") as log:
                log.seek(log_start)
                statements = logged_statements(log.read().decode(errors="replace"))
            counts = under_lock(statements)
            locks, locked, unclosed, logged = locks + counts[0], locked + counts[1], unclosed + counts[2], logged + len(statements)
            per_drop.append(sum(calls["drop"].values()) - before)
            kind = (("another list" if where[item] != target else "its own list")
                    + (", at the end" if location is None else ", before a row")
                    + ("" if answer.get("changes") else ", nothing changed"))
            kinds[kind].append(per_drop[-1])
            measured("end", lambda: client.end(token))
        if answer.get("changes"):
            where[item] = target
    per_cycle = {phase: sum(counter.values()) / cycles for phase, counter in calls.items()}
    return {"cycles": cycles, "per cycle": per_cycle, "total": sum(per_cycle.values()),
            "drop top": [(number / cycles, query) for query, number in calls["drop"].most_common(5)],
            "every": {phase: [(number / cycles, query) for query, number in counter.most_common()] for phase, counter in calls.items()},
            "drop min": min(per_drop), "drop max": max(per_drop),
            "kinds": {kind: (len(values), statistics.fmean(values)) for kind, values in sorted(kinds.items())},
            "locks per drop": locks / cycles, "under lock per drop": locked / cycles, "unclosed locks": unclosed,
            "logged per drop": logged / cycles}


def report_statements(counted: dict | str, every: bool = False) -> None:
    print(f"== PostgreSQL statements per drop cycle: what the server sent (pg_stat_statements, track = top), one "
          f"instance, no other load ==")
    if isinstance(counted, str):
        print(f"not measured: {counted}")
        return
    cycles = counted["cycles"]
    print(f"({cycles} cycles one after the other after {WARM_UP_CYCLES} not counted; counts reset and read between "
          f"the three requests; the drops chosen as drops.c's clients choose them)")
    requests = {"begin": "POST /api/sessions", "drop": "POST /api/sessions/<token>/drop", "end": "POST /api/sessions/<token>/end"}
    for phase, path in requests.items():
        print(f"{phase + ', ' + path:<52}{counted['per cycle'][phase]:>8.2f}")
    total = counted["total"]
    print(f"{'a cycle: begin + drop + end (no accounts yet)':<52}{total:>8.2f}  goal ≤ {GOAL_STATEMENTS}  "
          f"{'met' if total <= GOAL_STATEMENTS else 'NOT met'}")
    signed = counted.get("signed in")
    if signed:
        print("signed in as an admin (a team's server: each request finds its sign-in):")
        for phase in requests:
            print(f"{'    ' + phase:<52}{signed['per cycle'][phase]:>8.2f}")
        print(f"{'a cycle, signed in':<52}{signed['total']:>8.2f}  goal ≤ {GOAL_STATEMENTS}  "
              f"{'met' if signed['total'] <= GOAL_STATEMENTS else 'NOT met'}")
    print(f"the drop: {counted['drop min']}-{counted['drop max']} statements; by kind of drop (drops, statements per drop):")
    for kind, (number, mean) in counted["kinds"].items():
        print(f"    {kind:<44}{number:>4} {mean:>8.2f}")
    if every:
        for phase, statements in counted["every"].items():
            print(f"every statement of the {phase} (calls per cycle):")
            for number, query in statements:
                print(f"    {number:>6.2f}  {query[:160]}")
    else:
        print("the drop's 5 most frequent statements (calls per drop; --list-statements: all of each request):")
        for number, query in counted["drop top"]:
            print(f"    {number:>6.2f}  {query[:110]}")
    if counted["unclosed locks"] or abs(counted["logged per drop"] - counted["per cycle"]["drop"]) > 1e-9:
        print(f"drop statements while its board row was locked: n/a (the statement log shows {counted['logged per drop']:.2f} "
              f"statements per drop, pg_stat_statements {counted['per cycle']['drop']:.2f}; {counted['unclosed locks']} locks "
              f"without their COMMIT in the log)")
    else:
        print(f"drop statements while its board row was locked, after `SELECT version FROM board … FOR UPDATE` and before its "
              f"COMMIT (neither counted), from the statement log: {counted['under lock per drop']:.2f} per drop "
              f"({counted['locks per drop']:.2f} locks per drop)")


def report(columns: dict[str, dict], counted: dict | str | None, every_statement: bool = False) -> None:
    if columns:
        table(columns)
    if counted is not None:
        report_statements(counted, every_statement)
    goals(columns, counted)


def table(columns: dict[str, dict]) -> None:
    names = list(columns)
    keys = list(dict.fromkeys(key for figures in reversed(columns.values()) for key in figures))  # PG 2 has every row
    print("== PostgreSQL: release server, loopback, one throw-away cluster, 2 shared cores ==")
    print(f"{'measure':<52}" + "".join(f"{name:>14}" for name in names) + f"{'PG 2 / PG 1':>14}")
    for key in keys:
        values = [columns[name].get(key) for name in names]
        line = f"{key:<52}" + "".join(f"{'':>14}" if value is None else f"{value:>14.2f}" for value in values)
        one, two = columns.get("PG 1 inst", {}).get(key), columns.get("PG 2 inst", {}).get(key)
        if one and two is not None and not any(word in key for word in ("lost", "refused", "heard")):
            line += f"{two / one:>13.2f}x"
        print(line)


def goals(columns: dict[str, dict], counted: dict | str | None) -> None:
    """Issue #27's goals, each with this run's figure and whether it is met."""
    signed = counted.get("signed in") if isinstance(counted, dict) else None
    rows = [("PostgreSQL statements per drop cycle, no accounts", f"≤ {GOAL_STATEMENTS}",
             counted["total"] if isinstance(counted, dict) else None, lambda v: v <= GOAL_STATEMENTS),
            ("PostgreSQL statements per drop cycle, signed in", f"≤ {GOAL_STATEMENTS}",
             signed["total"] if signed else None, lambda v: v <= GOAL_STATEMENTS),
            # The statements between the lock and the COMMIT, each a round trip while the board is held.
            ("round trips while a drop holds its board", "≤ 3",
             counted["under lock per drop"] if isinstance(counted, dict) and not counted["unclosed locks"] else None,
             lambda v: v <= 3)]
    sqlite, one, two = (columns.get(name, {}) for name in ("SQLite 1 inst", "PG 1 inst", "PG 2 inst"))
    ratio = lambda a, b, key: a[key] / b[key] if a.get(key) is not None and b.get(key) else None
    for clients in CLIENTS:
        key = f"drops/s, {clients} clients"
        rows.append((f"PG 1 instance / SQLite, drops/s, {clients} clients", "≥ 0.5x", ratio(one, sqlite, key), lambda v: v >= 0.5))
    for clients in CLIENTS:
        key = f"drops/s, {clients} clients"
        rows.append((f"PG 2 instances / 1, drops/s, {clients} clients", "≥ 1.0x", ratio(two, one, key), lambda v: v >= 1.0))
    print("-- issue #27 goals (drops/s: acknowledged drops, one per begin → drop → end cycle, closed loop, this run) --")
    for label, goal, value, met in rows:
        verdict = "not measured" if value is None else ("met" if met(value) else "NOT met")
        shown = "" if value is None else f"{value:.2f}"
        print(f"{label:<52}{shown:>8}  goal {goal:<7}{verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", type=pathlib.Path, default=ROOT / ".build/release/dragboard")
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("BENCH_SECONDS", 5)))
    parser.add_argument("--samples", type=int, default=200, help="drops timed until B hears of them")
    parser.add_argument("--cycles", type=int, default=50, help="drop cycles whose statements are counted (0: none)")
    parser.add_argument("--count-only", action="store_true", help="only count the statements of a drop cycle")
    parser.add_argument("--list-statements", action="store_true", help="print every statement of each request, not the drop's top 5")
    args = parser.parse_args()
    ok, why = postgres.available()
    if not ok:
        print(f"*** PostgreSQL bench NOT run: {why} ***", file=sys.stderr)
        return 0
    if not args.binary.exists():
        raise SystemExit(f"{args.binary} is missing: swift build -c release --product dragboard")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-pg-bench-"))
    try:
        columns = {}
        if not args.count_only:
            runner = CDropClients(folder)
            columns["SQLite 1 inst"] = phase(args.binary, str(folder / "bench.sqlite"), None, 1, folder, args.seconds,
                                             runner, PostgresCPU(None), args.samples)
            with postgres.Cluster() as cluster:
                cpu = PostgresCPU(cluster)
                runs: dict[str, list[dict]] = {}
                for turn, instances in enumerate(PG_ORDER):
                    name = f"bench_{instances}_instances_{turn}"
                    url = postgres.create_database(cluster.url, name)
                    postgres.run_sql(cluster.url, "CHECKPOINT")
                    runs.setdefault(f"PG {instances} inst", []).append(
                        phase(args.binary, url, url, instances, folder, args.seconds, runner, cpu, args.samples))
                    postgres.drop_database(cluster.url, name)
                columns.update({column: merged(figures) for column, figures in runs.items()})
        counted = None
        if args.cycles > 0:
            # Its own cluster, after the load: the counting and the log cost nothing to the figures above.
            try:
                counted = count_statements(args.binary, folder, args.cycles)
            except postgres.ClusterError as error:
                counted = str(error)
        report(columns, counted, args.list_statements)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
