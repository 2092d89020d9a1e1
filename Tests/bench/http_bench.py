"""`make bench` over real sockets: the release `dragboard` server measured as browsers use it,
beside a raw libmicrohttpd server in C (Tests/bench/hello.c, built here with the same daemon
options and as many threads as the server's pool). With `--baseline <other dragboard binary>` (for
instance one built from main before a change) every phase runs against both, in the same run, and the
ratios are printed.

    python3 Tests/bench/http_bench.py [--binary .build/release/dragboard] [--baseline BIN] [--seconds 5]
                                      [--phases throughput,pages,drops,loaders] [--repeat N] [--drop-clients c|python]

`--phases throughput --repeat 5` measures only static, 404 and `GET /api/undo` (with a browser's cookie and
undo history, and without a cookie) throughput beside the raw C hello, five times (hello, this, baseline in
turn each time), and prints each figure's median.

Stdlib only, plus `wrk` (Debian) as the load client for throughput and Tests/bench/drops.c (built here with
`cc`, one thread per client) for drops: a drop is a begin, the drop and an end on one keep-alive
connection, which wrk cannot send, and one Python process per client spent about 1 ms of CPU per drop
(drops.c: about 0.1 ms) beside the server's 2-3 ms on the same 2 cores. Beside drops/s the server's CPU
per acknowledged drop and the drop clients' own are printed, to show where the cores went. The drop clients
run a closed loop (each starts its next drop when the last ended: the server's throughput, and the latency
of a saturated server) and then, at 16 clients, an offered load of OFFERED drops/s on a fixed schedule (the
latency at a stated load below saturation; issue #27 asks ≤ 5 ms at p99). Beside it, what the disk sets under
that figure: `fdatasync` of 4 KB in the bench's folder (every acknowledged drop waits for one of the log), and
the same paced load on a database in /dev/shm, where it costs nothing; and the SQLite log pages a drop cycle
writes (each a 4 KB frame that the commit's `fdatasync` waits for). Page loaders
are Python processes (their load is meant to be heavy). Loopback only; every loop is
bounded in time. Nothing is asserted: these are measurements, read as medians and ratios.
"""
import argparse
import contextlib
import json
import multiprocessing
import os
import pathlib
import re
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import time

from clients import CDropClients, Client, DropClient, percentile

ROOT = pathlib.Path(__file__).resolve().parents[2]


class Server:
    """One server process on a free loopback port: dragboard (on a seeded board file) or hello."""

    def __init__(self, command: list[str]):
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        self.port = int(re.search(r":(\d+)$", line).group(1))

    def rss(self) -> tuple[int, int]:
        """The process's resident memory now and its peak since the last `reset_peak`, in KiB."""
        status = pathlib.Path(f"/proc/{self.process.pid}/status").read_text()
        field = lambda name: int(re.search(rf"^{name}:\s+(\d+) kB", status, re.M).group(1))
        return field("VmRSS"), field("VmHWM")

    def reset_peak(self):
        # Writing 5 to clear_refs resets VmHWM to the current RSS: a peak per phase, not per lifetime.
        pathlib.Path(f"/proc/{self.process.pid}/clear_refs").write_text("5")

    def cpu_seconds(self) -> float:
        """User and system CPU time the process has used so far."""
        fields = pathlib.Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)


def checkout(binary: pathlib.Path) -> pathlib.Path:
    """The checkout a dragboard binary was built in (its Public/ and Templates/ go with it)."""
    for folder in binary.absolute().parents:
        if (folder / "Package.swift").exists():
            return folder
    raise SystemExit(f"{binary} is not inside a checkout with a Package.swift")


def dragboard(binary: pathlib.Path, folder: pathlib.Path, rows: int) -> Server:
    """The release server on a showcase board whose three cats hold `rows` toys each, seeded by
    the same checkout's DragboardBench (its schema is the one that binary knows): the one built beside it
    (a debug server's debug seeder), else the checkout's release one."""
    root = checkout(binary)
    database = folder / f"{root.name}-{binary.stat().st_ino}-{rows}.sqlite"
    subprocess.run([str(seeder(binary)), "seed", str(database), str(rows)], check=True)
    server = Server([str(binary), "--port", "0", "--database", str(database), "--public", str(root / "Public"),
                     "--templates", str(root / "Templates"), "--log-level", "error"])
    server.database = database
    return server


def seeder(binary: pathlib.Path) -> pathlib.Path:
    """The DragboardBench that seeds `binary`'s board: the one beside it, else its checkout's release one, else
    this checkout's."""
    for candidate in (binary.parent / "DragboardBench", checkout(binary) / ".build/release/DragboardBench"):
        if candidate.exists():
            return candidate.resolve()
    return ROOT / ".build/release/DragboardBench"


def wrk(port: int, path: str, seconds: int) -> float:
    """Requests per second from `wrk` with 2 threads and 16 keep-alive connections."""
    return wrk_with_cost(None, port, path, seconds)[0]


def wrk_with_cost(server: "Server | None", port: int, path: str, seconds: int,
                  headers: dict[str, str] | None = None) -> tuple[float, float]:
    """Requests per second from `wrk` (every request with `headers`), and the server's CPU microseconds per
    request meanwhile: on a shared machine the rate moves with everyone else's load, the CPU a request costs
    the server much less."""
    before = server.cpu_seconds() if server else 0.0
    sent = [argument for name, value in (headers or {}).items() for argument in ("-H", f"{name}: {value}")]
    out = subprocess.run(["wrk", "-t2", "-c16", f"-d{seconds}s", *sent, f"http://127.0.0.1:{port}{path}"],
                         check=True, capture_output=True, text=True).stdout
    # A rate of error answers would be labelled as the route's: only the 404 is meant to be one.
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    if errors and path != "/no-such-page":
        raise RuntimeError(f"{path}: {errors.group(1)} answers were not 2xx or 3xx under wrk")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    return rate, ((server.cpu_seconds() - before) * 1e6 / total if server and total else 0.0)


def run_clients(server: Server, clients: int, seconds: float, drops: "CDropClients | None", loaders: int = 0,
                rate: float = 0) -> dict:
    """`clients` dropping their own rows for `seconds` (threads of drops.c, or with `drops` None one Python
    process each) and `loaders` processes loading the board page meanwhile; latencies of the drops, whether
    every acknowledged change is there, and the CPU the server and the drop clients spent per acknowledged drop."""
    port = server.port
    before = Client(port).board()
    owned = [[item for index, item in enumerate(before.items) if index % clients == k] for k in range(clients)]
    server_cpu = server.cpu_seconds()
    processes = clients * (drops is None) + loaders
    with multiprocessing.Pool(processes) if processes else contextlib.nullcontext() as pool:
        # A second for the pool's processes to start and connect; drops.c's threads need far less.
        start = time.time() + (1 if drops is None or loaders else 0.2)
        deadline = start + seconds
        pages = [pool.apply_async(Client.load_pages, (port, deadline)) for _ in range(loaders)]
        if drops is None:
            results = [drop.get() for drop in [pool.apply_async(DropClient.run, (port, own, before, deadline, k))
                                               for k, own in enumerate(owned)]]
            latencies = [latency for result in results for latency in result["latencies"]]
            acknowledged = sum(result["changed"] for result in results)
            # From the first client's first drop to the last one's end: the processes start dropping within the
            # second before `start` as soon as each is up (the rate was once divided by `seconds`, up to 1.3x high).
            elapsed = max(result["window"][1] for result in results) - min(result["window"][0] for result in results)
            refused, client_cpu = sum(result["refused"] for result in results), sum(result["cpu"] for result in results)
            late = 0  # Python clients only run the closed loop
        else:
            result = drops.run(port, owned, before, start, deadline, rate)
            late = result["late"]
            latencies, acknowledged, elapsed, client_cpu = result["latencies"], result["changed"], result["elapsed"], result["cpu_seconds"]
            refused = result["refused_begin"] + result["refused_drop"] + result["failed_end"]
        loads = [page.get() for page in pages]
    server_cpu = server.cpu_seconds() - server_cpu
    after = Client(port).board()
    latencies.sort()
    per_drop = lambda cpu: cpu * 1e6 / acknowledged if acknowledged else float("nan")
    return {
        "p50": percentile(latencies, 50), "p99": percentile(latencies, 99), "per_second": acknowledged / elapsed,
        "mean": statistics.fmean(latencies) if latencies else float("nan"), "elapsed": elapsed,
        "acknowledged": acknowledged, "refused": refused, "late": late,
        # Every acknowledged change advanced the board's version by one, and no row was lost or doubled.
        "lost": (before.version + acknowledged != after.version) or sorted(before.items) != sorted(after.items),
        "page_loads": sum(loads),
        # Includes the clients' connecting (one small index page each) and, with loaders, the page loads.
        "server_cpu_us": per_drop(server_cpu), "client_cpu_us": per_drop(client_cpu),
    }


PHASES = ("throughput", "pages", "drops", "loaders")

#: The drops per second the paced phase offers (16 clients, each starting a cycle every 16/OFFERED s): about
#: 40 % of what this server's closed loop reaches at 16 clients on this machine, more than main before #12 could
#: serve at all (280-350 drops/s).
OFFERED = 400

#: What `wrk` asks for in the throughput phase: a static file, an unknown path (no route: no sign-in gate), and
#: the undo state the board index asks for on every load (`GET /api/undo`, Public/undo.js) twice. As a browser
#: asks it, with the cookie of a browser that has dropped once: the sign-in gate's account read, then the
#: history's (undo and redo entries). Without a cookie there is no history to read, but the gate's read is
#: still made (SignInGate.visitor: `SELECT 1 FROM account LIMIT 1`); the answer is `{}`.
STATIC = "static file GET /static/app.css (req/s)"
NOT_FOUND = "a 404: GET /no-such-page (req/s)"
UNDO = "GET /api/undo, cookie with 1 drop of history: gate + history reads (req/s)"
UNDO_NO_COOKIE = "GET /api/undo, no history (no cookie): gate's account read (req/s)"
THROUGHPUT = {STATIC: "/static/app.css", NOT_FOUND: "/no-such-page", UNDO: "/api/undo", UNDO_NO_COOKIE: "/api/undo"}
#: Its per-request CPU figure, beside each rate.
cost = lambda name: name.replace("(req/s)", "(server CPU µs/req)")


def server_threads(binary: pathlib.Path) -> int:
    """libmicrohttpd's thread pool of the server `binary` was built from (DragboardApp.threadPoolSize in its
    checkout): the raw C hello runs with as many."""
    source = checkout(binary) / "Sources/DragboardHTTP/DragboardApp.swift"
    found = re.search(r"static let threadPoolSize = (\d+)", source.read_text())
    if not found:
        raise SystemExit(f"no `static let threadPoolSize = N` in {source}: the raw C hello's thread count is unknown")
    return int(found.group(1))


def browser_with_history(port: int) -> dict[str, str]:
    """The cookie of a browser that has dropped once (so its undo history holds that drop), checked to be
    what `GET /api/undo` then offers to undo."""
    client = Client(port)
    board = client.board()
    item = board.lists["cat-1"][0]
    token = client.begin(item, "cat-1")
    client.drop(token, "cat-2")
    client.end(token)
    status, state = client.request("GET", "/api/undo")
    assert status == 200 and json.loads(state).get("undoActionName"), f"GET /api/undo with the cookie: {status} {state!r}"
    return {"Cookie": client.headers["Cookie"]}


#: The board sizes (rows per cat) each phase needs.
ROWS = {"throughput": (10,), "pages": (10, 100, 1_000, 10_000), "drops": (10, 10_000), "loaders": (10_000,)}


#: The floor the disk sets under a drop's latency, and the paced p99 without it (issue #27's p99 goal).
SYNC_P50 = "fdatasync of 4 KB on the database's disk, p50 (ms)"
SYNC_P99 = "fdatasync of 4 KB on the database's disk, p99 (ms)"
IN_MEMORY_P99 = f"drop p99, offered {OFFERED}/s, database in memory (ms)"


LOG_PAGES = "SQLite log pages written per drop cycle"


def log_pages_per_drop(server: Server, cycles: int = 10) -> float:
    """The pages a drop cycle writes to the SQLite log, each a 4 KB frame synced before the drop is acknowledged:
    the log emptied while the server is idle (a TRUNCATE checkpoint), `cycles` drops of one client (begin, drop,
    end, as drops.c chooses them; fewer pages than start a checkpoint, 250: one would start the log again and
    hide what came before), then the log's frames counted."""
    with sqlite3.connect(server.database, timeout=10) as connection:
        while connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]:  # busy: the server's checkpoint
            pass
    client = Client(server.port)
    board = client.board()
    where = {item: name for name in board.lists for item in board.lists[name]}
    for turn in range(1, cycles + 1):
        item, target, location = DropClient.choose(turn, board.items, where)
        token = client.begin(item, where[item])
        if client.drop(token, target, location, must_change=False).get("changes"):
            where[item] = target
        client.end(token)
    log = pathlib.Path(f"{server.database}-wal").read_bytes()
    page_size, salt = int.from_bytes(log[8:12], "big"), log[16:24]
    frames, offset = 0, 32
    while offset + 24 + page_size <= len(log) and log[offset + 8:offset + 16] == salt:  # this log's frames only
        frames, offset = frames + 1, offset + 24 + page_size
    return frames / cycles


def disk_sync(folder: pathlib.Path, samples: int = 300) -> tuple[float, float]:
    """p50 and p99 of writing 4 KB and `fdatasync`ing it in `folder`, in ms: what one commit waits for at least."""
    path = folder / "sync-probe"
    latencies = []
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        for index in range(samples):
            os.pwrite(descriptor, os.urandom(4096), (index % 64) * 4096)
            started = time.perf_counter()
            os.fdatasync(descriptor)
            latencies.append((time.perf_counter() - started) * 1e3)
    finally:
        os.close(descriptor)
        path.unlink()
    latencies.sort()
    return percentile(latencies, 50), percentile(latencies, 99)


def paced_in_memory(binary: pathlib.Path, drops: CDropClients, seconds: float) -> float:
    """The paced phase's p99 on a server whose database is in /dev/shm (tmpfs: `fdatasync` costs nothing), after
    a second of warm-up; NaN where /dev/shm is missing."""
    if not os.path.isdir("/dev/shm"):
        return float("nan")
    memory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-http-bench-", dir="/dev/shm"))
    try:
        server = dragboard(binary, memory, 10)
        try:
            run_clients(server, 16, 1, drops)
            return run_clients(server, 16, seconds, drops, rate=OFFERED / 16)["p99"]
        finally:
            server.stop()
    finally:
        shutil.rmtree(memory, ignore_errors=True)


def measure(binary: pathlib.Path, folder: pathlib.Path, seconds: int, phases=PHASES, drops: CDropClients | None = None) -> dict:
    """Every figure of `phases` for one dragboard binary; the drop clients are drops.c's threads, or with
    `drops` None one Python process each."""
    figures = {}
    for rows in sorted({rows for phase in phases for rows in ROWS[phase]}):
        server = dragboard(binary, folder, rows)
        try:
            client = Client(server.port)
            server.reset_peak()
            if "pages" in phases:
                figures[f"session start, {rows} rows (p50 ms)"] = client.session_starts(60)
                figures[f"page load, repeated, {rows} rows (p50 ms)"], size = client.page_loads(5 if rows >= 10_000 else 20)
                figures[f"page size, {rows} rows (KB)"] = size / 1000
                figures[f"page load after a change, {rows} rows (p50 ms)"] = client.fresh_page_loads(5 if rows >= 10_000 else 20)
                figures[f"peak RSS, pages of {rows} rows (MB)"] = server.rss()[1] / 1024
            if "throughput" in phases and rows == 10:
                history = browser_with_history(server.port)
                for name, path in THROUGHPUT.items():
                    figures[name], figures[cost(name)] = wrk_with_cost(server, server.port, path, seconds,
                                                                       history if name == UNDO else None)
            if "drops" in phases and rows in (10, 10_000):
                single = run_clients(server, 1, seconds, drops)
                figures[f"drop p50, 1 client, {rows} rows (ms)"] = single["p50"]
                figures[f"drop p99, 1 client, {rows} rows (ms)"] = single["p99"]
            if "drops" in phases and rows == 10:
                figures[LOG_PAGES] = log_pages_per_drop(server)
                for clients in (1, 4, 16):
                    server.reset_peak()
                    result = run_clients(server, clients, seconds, drops)
                    figures[f"drops/s, {clients} clients"] = result["per_second"]
                    figures[f"drop p50, {clients} clients (ms)"] = result["p50"]
                    figures[f"drop p99, {clients} clients (ms)"] = result["p99"]
                    figures[f"server CPU per drop, {clients} clients (µs)"] = result["server_cpu_us"]
                    figures[f"drop clients' CPU per drop, {clients} clients (µs)"] = result["client_cpu_us"]
                    figures[f"drops refused, {clients} clients"] = result["refused"]
                    figures[f"drops lost or doubled, {clients} clients"] = int(result["lost"])
                    figures[f"peak RSS, drops with {clients} clients (MB)"] = server.rss()[1] / 1024
                # Closed-loop clients wait for nothing but the server, so at 16 the server is saturated and by
                # Little's law a cycle (begin, drop, end) lasts clients / cycles per second, queueing included:
                # that is what the closed loop's p99 measures. At an offered load below saturation the latency
                # says how the server serves that load.
                cycles = result["acknowledged"] + result["refused"]
                figures["mean cycle, 16 clients closed loop (ms)"] = 16 / cycles * result["elapsed"] * 1e3 if cycles else float("nan")
                figures["mean drop, 16 clients closed loop (ms)"] = result["mean"]
                if drops is not None:  # only drops.c paces its clients
                    paced = run_clients(server, 16, seconds, drops, rate=OFFERED / 16)
                    figures[f"drops/s, 16 clients offered {OFFERED}/s"] = paced["per_second"]
                    figures[f"drop p50, 16 clients offered {OFFERED}/s (ms)"] = paced["p50"]
                    figures[f"drop p99, 16 clients offered {OFFERED}/s (ms)"] = paced["p99"]
                    figures[f"late cycles, 16 clients offered {OFFERED}/s"] = paced["late"]
                    figures[f"drops lost or doubled, 16 clients offered {OFFERED}/s"] = int(paced["lost"])
                    # What the disk adds to that p99: each acknowledged drop waits for one fdatasync of the log.
                    figures[SYNC_P50], figures[SYNC_P99] = disk_sync(folder)
                    figures[IN_MEMORY_P99] = paced_in_memory(binary, drops, seconds)
            if "loaders" in phases and rows == 10_000:
                server.reset_peak()
                loaded = run_clients(server, 1, seconds, drops, loaders=8)
                figures["drop p99 while 8 clients load the 10,000-row page (ms)"] = loaded["p99"]
                figures["pages loaded by those 8 clients (per s)"] = loaded["page_loads"] / seconds
                figures["peak RSS, 8 page loaders (MB)"] = server.rss()[1] / 1024
        finally:
            server.stop()
    return figures


def build_hello(folder: pathlib.Path) -> pathlib.Path:
    executable = folder / "hello"
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libmicrohttpd"], check=True, capture_output=True, text=True).stdout.split()
    subprocess.run(["cc", "-O2", str(ROOT / "Tests/bench/hello.c"), *flags, "-o", str(executable)], check=True)
    return executable


def raw_labels(threads: int) -> dict[str, str]:
    """The raw C figures' labels, which say its thread count."""
    hello = f"raw C hello, {threads} threads as the server: 17-byte JSON"
    same_bytes = f"raw C, {threads} threads as the server: app.css's bytes"
    return {"hello": f"{hello} (req/s)", "hello cpu": f"{hello} (server CPU µs/req)",
            "file": f"{same_bytes} (req/s)", "file cpu": f"{same_bytes} (server CPU µs/req)"}


def hello(executable: pathlib.Path, threads: int, seconds: int, *serving: str) -> tuple[float, float]:
    server = Server([str(executable), "0", str(threads), *serving])
    try:
        return wrk_with_cost(server, server.port, "/", seconds)
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", type=pathlib.Path, default=ROOT / ".build/release/dragboard")
    parser.add_argument("--baseline", type=pathlib.Path, help="another dragboard binary, measured in the same run")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--phases", default=",".join(PHASES),
                        help=f"comma-separated, among {', '.join(PHASES)} (default: all)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds (hello, this, baseline each); medians are printed")
    parser.add_argument("--drop-clients", choices=("c", "python"), default="c",
                        help="drops.c's threads (default), or one Python process per client as before (for comparison)")
    args = parser.parse_args()
    phases = [phase for phase in args.phases.split(",") if phase]
    if unknown := set(phases) - set(PHASES):
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")
    if not shutil.which("wrk"):
        raise SystemExit("wrk is missing: `make bench` installs it (Debian package wrk)")
    if args.baseline and args.baseline.resolve() != args.binary.resolve() and seeder(args.baseline) == seeder(args.binary):
        # A board seeded by this checkout has this checkout's schema (its indexes too), not the baseline's.
        raise SystemExit(f"{args.baseline} would run on a board seeded by {seeder(args.binary)}, this checkout's schema: "
                         "build the baseline in a checkout of its own (git worktree add), or put its DragboardBench beside it")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-http-bench-"))
    try:
        executable = build_hello(folder)
        drops = CDropClients(folder) if args.drop_clients == "c" else None
        # The raw C hello runs with this binary's libmicrohttpd threads; a baseline with another count is
        # compared with the same hello, and the report says so.
        threads = server_threads(args.binary)
        labels = raw_labels(threads)
        rounds = []
        for _ in range(max(1, args.repeat)):
            raw, raw_cost = hello(executable, threads, args.seconds)
            # The same bytes as /static/app.css from C: what the static file costs apart from its size.
            raw_file = hello(executable, threads, args.seconds, str(ROOT / "Public/app.css")) if "throughput" in phases else None
            runs = {"this": measure(args.binary, folder, args.seconds, phases, drops)}
            if args.baseline:
                runs["baseline"] = measure(args.baseline, folder, args.seconds, phases, drops)
            if raw_file:
                for figures in runs.values():
                    figures[labels["file"]], figures[labels["file cpu"]] = raw_file
                    figures[labels["hello cpu"]] = raw_cost
            rounds.append((runs, raw))
        report(rounds, threads, server_threads(args.baseline) if args.baseline else threads)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def report(rounds: list, threads: int, baseline_threads: int):
    """Medians over the rounds; every ratio is taken within a round (same conditions), then its median."""
    median = lambda values: statistics.median(values)
    names = list(rounds[0][0])
    keys = list(rounds[0][0]["this"])
    labels = raw_labels(threads)
    print(f"== Over real sockets: release server, loopback, 2 shared cores"
          f"{f' (medians of {len(rounds)} rounds)' if len(rounds) > 1 else ''} ==")
    print("(req/s: wrk, 2 threads, 16 keep-alive connections; raw C: Tests/bench/hello.c on libmicrohttpd with "
          f"{threads} threads, as the server's pool{'' if baseline_threads == threads else f'; the baseline has {baseline_threads}'})")
    width = max(58, *(len(key) + 1 for key in keys), len(labels["hello"]) + 1)
    print(f"{'measure':<{width}}" + "".join(f"{name:>12}" for name in names) + ("   this/baseline" if len(names) > 1 else ""))
    for key in keys:
        values = [median([runs[name][key] for runs, _ in rounds]) for name in names]
        line = f"{key:<{width}}" + "".join(f"{value:>12.2f}" for value in values)
        if len(values) > 1 and values[1]:
            line += f"   {median([runs['this'][key] / runs['baseline'][key] for runs, _ in rounds if runs['baseline'][key]]):.2f}x"
        print(line)
    print(f"{labels['hello']:<{width}}{median([raw for _, raw in rounds]):>12.0f}")
    print(f"-- ratios (raw C: {threads} libmicrohttpd threads, as the server) --")

    def ratio(label: str, numerator: str, denominator: str | None = None, name: str = "this", suffix: str = ""):
        if numerator not in keys or (denominator and denominator not in keys):
            return
        values = [runs[name][numerator] / (runs[name][denominator] if denominator else raw) for runs, raw in rounds]
        print(f"{label:<48}{median(values):.2f}x{suffix}"
              + (f"  (rounds: {', '.join(f'{value:.2f}' for value in values)})" if len(values) > 1 else ""))

    for name in names:
        tag = "" if name == "this" else f" [{name}]"
        ratio(f"static file vs raw C hello{tag}:", STATIC, name=name)
        ratio(f"  vs raw C, same bytes{tag}:", STATIC, labels["file"], name=name)
        ratio(f"404 vs raw C hello{tag}:", NOT_FOUND, name=name)
        ratio(f"/api/undo, with history vs raw C{tag}:", UNDO, name=name)
        ratio(f"/api/undo, no cookie vs raw C{tag}:", UNDO_NO_COOKIE, name=name)
        # The same comparison by the server's CPU per request (C's cost / ours): steadier on a shared machine.
        ratio(f"static, CPU: raw C same bytes/ours{tag}:", labels["file cpu"], cost(STATIC), name=name)
        ratio(f"404, CPU: raw C hello/ours{tag}:", labels["hello cpu"], cost(NOT_FOUND), name=name)
        ratio(f"/api/undo with history, CPU: C/ours{tag}:", labels["hello cpu"], cost(UNDO), name=name)
        ratio(f"/api/undo no cookie, CPU: C/ours{tag}:", labels["hello cpu"], cost(UNDO_NO_COOKIE), name=name)
    ratio("drop at 10,000 rows vs 10 (p50):", "drop p50, 1 client, 10000 rows (ms)", "drop p50, 1 client, 10 rows (ms)")
    ratio("session start 10,000 vs 10:", "session start, 10000 rows (p50 ms)", "session start, 10 rows (p50 ms)")
    ratio("page 10,000 rows vs 10 rows:", "page load, repeated, 10000 rows (p50 ms)", "page load, repeated, 10 rows (p50 ms)",
          suffix=" (repeated loads)")
    ratio("  after a change, 10,000 vs 100:", "page load after a change, 10000 rows (p50 ms)",
          "page load after a change, 100 rows (p50 ms)")
    ratio("drop p99 under page loads vs idle:", "drop p99 while 8 clients load the 10,000-row page (ms)",
          "drop p99, 1 client, 10000 rows (ms)")
    if "baseline" in names and "drops/s, 16 clients" in keys:
        values = [runs["this"]["drops/s, 16 clients"] / runs["baseline"]["drops/s, 16 clients"] for runs, _ in rounds]
        print(f"{'drops/s at 16 clients vs baseline:':<34}{median(values):.2f}x")
    goals(rounds, keys, threads)
    goals_27(rounds, keys)


def goals(rounds: list, keys: list, threads: int):
    """Issue #12's goals, each with the median figure of this build and whether it is met."""
    def figure(numerator: str, denominator: str | None = None, over: str = "this"):
        if numerator not in keys or (denominator and denominator not in keys):
            return None
        return statistics.median([
            runs["this"][numerator] / (runs[over][denominator] if denominator else 1) for runs, _ in rounds])

    def raw_ratio(key: str):
        return statistics.median([runs["this"][key] / raw for runs, raw in rounds]) if key in keys else None

    has_baseline = "baseline" in rounds[0][0]
    rows = [
        ("drops/s at 16 clients vs baseline", "≥ 3x",
         figure("drops/s, 16 clients", "drops/s, 16 clients", over="baseline") if has_baseline else None, lambda v: v >= 3),
        ("drop p99 at 16 clients (ms)", "≤ 5", figure("drop p99, 16 clients (ms)"), lambda v: v <= 5),
        ("drop at 10,000 rows vs 10 (p50)", "≤ 1.2x",
         figure("drop p50, 1 client, 10000 rows (ms)", "drop p50, 1 client, 10 rows (ms)"), lambda v: v <= 1.2),
        ("session start at 10,000 rows vs 10", "≤ 1.2x",
         figure("session start, 10000 rows (p50 ms)", "session start, 10 rows (p50 ms)"), lambda v: v <= 1.2),
        ("page after a change, 10,000 vs 100 rows", "≤ 2x",
         figure("page load after a change, 10000 rows (p50 ms)", "page load after a change, 100 rows (p50 ms)"), lambda v: v <= 2),
        ("page after a change, 10,000 rows (ms)", "< 50", figure("page load after a change, 10000 rows (p50 ms)"), lambda v: v < 50),
        (f"static file vs raw C ({threads} thr.)", "≥ 0.5x", raw_ratio(STATIC), lambda v: v >= 0.5),
        (f"a 404 vs raw C ({threads} thr.)", "≥ 0.5x", raw_ratio(NOT_FOUND), lambda v: v >= 0.5),
        ("/api/undo, history cookie vs raw C", "≥ 0.5x", raw_ratio(UNDO), lambda v: v >= 0.5),
        ("/api/undo, no cookie vs raw C", "≥ 0.5x", raw_ratio(UNDO_NO_COOKIE), lambda v: v >= 0.5),
        ("drop p99 under 8 page loaders vs idle", "≤ 2x",
         figure("drop p99 while 8 clients load the 10,000-row page (ms)", "drop p99, 1 client, 10000 rows (ms)"), lambda v: v <= 2),
    ]
    print("-- issue #12 goals (medians) --")
    for label, goal, value, met in rows:
        verdict = "not measured (needs BASELINE= or that phase)" if value is None else ("met" if met(value) else "NOT met")
        shown = "" if value is None else f"{value:.2f}"
        print(f"{label:<42}{shown:>10}  goal {goal:<8}{verdict}")
    cycle, drop = figure("mean cycle, 16 clients closed loop (ms)"), figure("mean drop, 16 clients closed loop (ms)")
    if cycle and drop:
        print(f"  16 closed-loop clients: a cycle lasts {cycle:.1f} ms on average (Little's law: 16 / cycles per s), "
              f"the drop {drop:.1f} ms of it")
    paced = figure(f"drop p99, 16 clients offered {OFFERED}/s (ms)")
    if paced is not None:
        late = figure(f"late cycles, 16 clients offered {OFFERED}/s")
        print(f"{f'drop p99 at {OFFERED} drops/s offered (ms)':<42}{paced:>10.2f}  not the issue's goal: the p99 at a "
              f"stated load below saturation ({late:.0f} cycles started late)")


def goals_27(rounds: list, keys: list):
    """Issue #27's goal 1 (server CPU per drop cycle against BASELINE=, the commit before that issue) and the
    drop p99 at 400 drops/s offered it restates; medians of each round's figure, the ratio taken within a round."""
    def figure(key: str, over_baseline: bool = False):
        if key not in keys or (over_baseline and "baseline" not in rounds[0][0]):
            return None
        return statistics.median([runs["this"][key] / (runs["baseline"][key] if over_baseline else 1) for runs, _ in rounds])

    rows = [(f"server CPU per drop, {clients} client{'s' * (clients > 1)} vs baseline", "≤ 0.5x",
             figure(f"server CPU per drop, {clients} clients (µs)", over_baseline=True), lambda v: v <= 0.5)
            for clients in (1, 4, 16)]
    rows.append((f"drop p99 at {OFFERED} drops/s offered (ms)", "≤ 5",
                 figure(f"drop p99, 16 clients offered {OFFERED}/s (ms)"), lambda v: v <= 5))
    print("-- issue #27 goals (medians; BASELINE= should be a build of the commit before #27) --")
    for label, goal, value, met in rows:
        verdict = "not measured (needs BASELINE= or that phase)" if value is None else ("met" if met(value) else "NOT met")
        shown = "" if value is None else f"{value:.2f}"
        print(f"{label:<42}{shown:>10}  goal {goal:<8}{verdict}")
    sync50, sync99, memory = figure(SYNC_P50), figure(SYNC_P99), figure(IN_MEMORY_P99)
    if memory is not None:
        print(f"  the disk under it: fdatasync of 4 KB {sync50:.2f} ms p50, {sync99:.2f} ms p99 (one per acknowledged "
              f"drop); the same load on a database in memory: p99 {memory:.2f} ms")


if __name__ == "__main__":
    main()
