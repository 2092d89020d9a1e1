"""`make bench-peer` (issue #27, goal 1): Dragboard's server CPU per move beside two hand-written peers that
move rows the plain way (integer positions, one UPDATE per move, WAL with synchronous=FULL like Dragboard), at 10,
1,000 and 10,000 rows in each of three lists, with 1 and 4 clients:
- the Swift peer (Tests/bench/GRDBPeer: MicroHTTP's router and GRDB, as an app developer writes a handler), the
  stand-in for the Hummingbird + GRDB peer the issue names until Hummingbird is approved: the goal is read
  against it;
- the C peer (Tests/bench/peer.c: libmicrohttpd and SQLite's C API), the floor: what a move costs with no Swift
  at all.
Both run with the server's own libmicrohttpd thread count (as http_bench.py's raw C hello).

    python3 Tests/bench/peer_bench.py [--binary .build/release/dragboard] [--seconds 5] [--repeat 3]

A Dragboard move is a drop cycle (begin → drop → end, three requests, by drops.c's threads through
http_bench.run_clients on the board DragboardBench seeds); a peer move is one `POST /move` of a client's own
row to a random list at a random index (drops.c --moves), where the UPDATE shifts half of each list involved on
average. (Past Dragboard's row window, 100, its clients drag among the first rows of each list, the ones its
board answer holds, and drop before one of them or at the end.) Each client has one keep-alive connection and
runs a closed loop for `--seconds`. The figure is the server's CPU (utime + stime from /proc/PID/stat) over the run
divided by the moves it acknowledged: the rates move with whatever else runs on the 2 shared cores, the CPU a
move costs much less. Each round measures the peers and Dragboard at every size, in turn (the order rotated
every round); the medians of `--repeat` rounds are printed, each ratio taken within a round, beside the
issue's goal: at most 2x the peer's CPU at 10 rows, less than the peer's at 1,000 and 10,000.

Stdlib only; peer.c and drops.c are built here with `cc`, GRDBPeer by `swift build` (the Makefile). After every run
each peer's board is checked (every row still there once, each list's positions 0..n-1) and so is Dragboard's (one
version per acknowledged drop, and the same rows where its board answer holds whole lists: at 10 rows, within its
row window). Nothing is asserted of the figures: they are measurements.
"""
import argparse
import http.client
import json
import pathlib
import sqlite3
import statistics
import subprocess
import shutil
import tempfile
import time

from clients import CATS, CDropClients, Client
from http_bench import ROOT, Server, dragboard, run_clients, server_threads

#: The peers, by name: the one the goal is read against first.
PEERS = ("Swift peer (MicroHTTP + GRDB)", "C peer (libmicrohttpd + SQLite)")
ROWS = (10, 1_000, 10_000)
CLIENTS = (1, 4)
LISTS = tuple(f"list-{k}" for k in (1, 2, 3))  # peer.c seed names them so, as many as Dragboard's cats
#: Issue #27's goal 1 for each size: Dragboard's CPU per move over the peer's.
GOALS = {10: ("≤ 2x", lambda ratio: ratio <= 2), 1_000: ("< 1x", lambda ratio: ratio < 1),
         10_000: ("< 1x", lambda ratio: ratio < 1)}


def swift_peer(binary: pathlib.Path) -> pathlib.Path:
    """GRDBPeer, built beside the dragboard `binary` (same configuration)."""
    executable = binary.parent / "GRDBPeer"
    if not executable.exists():
        raise SystemExit(f"{executable} is missing: swift build -c release --product GRDBPeer")
    # A copy kept beside another build of dragboard (say under .build/x/) can be older than the peer's
    # source: one such copy still logged a line per request.
    source = ROOT / "Tests/bench/GRDBPeer/main.swift"
    if executable.stat().st_mtime < source.stat().st_mtime:
        raise SystemExit(f"{executable} is older than {source.relative_to(ROOT)}: swift build -c release --product GRDBPeer, "
                         "and copy it beside the dragboard binary measured")
    return executable


def build_peer(folder: pathlib.Path) -> pathlib.Path:
    """peer.c, built into `folder`."""
    executable = folder / "peer"
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libmicrohttpd"], check=True, capture_output=True,
                           text=True).stdout.split()
    subprocess.run(["cc", "-O2", str(ROOT / "Tests/bench/peer.c"), *flags, "-lsqlite3", "-pthread", "-o", str(executable)],
                   check=True)
    return executable


def peer(executable: pathlib.Path, database: pathlib.Path, rows: int, threads: int) -> Server:
    """The peer on a new board of three lists of `rows` rows."""
    for stale in database.parent.glob(database.name + "*"):
        stale.unlink()
    subprocess.run([str(executable), "seed", str(database), str(len(LISTS)), str(rows)], check=True)
    return Server([str(executable), "0", str(threads), str(database)])


def peer_board(port: int) -> dict[str, list[str]]:
    """Each list's rows in order, from `GET /list`."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    board = {}
    for name in LISTS:
        connection.request("GET", f"/list?list={name}")
        response = connection.getresponse()
        assert response.status == 200, response.status
        board[name] = json.loads(response.read())["items"]
    connection.close()
    return board


def dense(database: pathlib.Path) -> bool:
    """Whether every list's positions are 0..n-1, each once: read from the file beside the running peer."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        return all(low == 0 and high == count - 1 and distinct == count for low, high, count, distinct in connection.execute(
            "SELECT min(position), max(position), count(*), count(DISTINCT position) FROM item GROUP BY list"))


def run_moves(server: Server, database: pathlib.Path, drops: CDropClients, clients: int, seconds: float) -> dict:
    """`clients` threads of drops.c --moves moving their own rows for `seconds`; the peer's CPU per acknowledged move."""
    before = peer_board(server.port)
    where = {item: name for name in LISTS for item in before[name]}
    every = [item for name in LISTS for item in before[name]]
    owned = [every[k::clients] for k in range(clients)]
    plan = drops.folder / f"moves-{server.port}.plan"
    plan.write_text("".join([f"lists {' '.join(LISTS)}\n", f"sizes {' '.join(str(len(before[name])) for name in LISTS)}\n"] + [
        " ".join([str(seed)] + [f"{item}={where[item]}" for item in own]) + "\n" for seed, own in enumerate(owned)]))
    cpu = server.cpu_seconds()
    start = time.time() + 0.2
    done = subprocess.run([str(drops.executable), "--moves", str(server.port), str(plan), repr(start), repr(start + seconds)],
                          capture_output=True, text=True, timeout=seconds + 120)
    cpu = server.cpu_seconds() - cpu
    if done.returncode != 0:
        raise RuntimeError(f"drops.c --moves failed ({done.returncode}): {done.stderr.strip()}")
    result = json.loads(done.stdout)
    after = peer_board(server.port)
    moved = result["changed"]
    return {"server_cpu_us": cpu * 1e6 / moved if moved else float("nan"), "per_second": moved / result["elapsed"],
            "acknowledged": moved,
            "refused": result["refused_drop"], "p50": statistics.median(result["latencies"] or [float("nan")]),
            "lost": sorted(every) != sorted(item for name in LISTS for item in after[name]) or not dense(database)}


def measure_peer(executable: pathlib.Path, folder: pathlib.Path, drops: CDropClients, rows: int, threads: int,
                 seconds: float) -> dict[int, dict]:
    database = folder / f"peer-{rows}.sqlite"
    server = peer(executable, database, rows, threads)
    try:
        return {clients: run_moves(server, database, drops, clients, seconds) for clients in CLIENTS}
    finally:
        server.stop()


def measure_dragboard(binary: pathlib.Path, folder: pathlib.Path, drops: CDropClients, rows: int, seconds: float) -> dict[int, dict]:
    server = dragboard(binary, folder, rows)
    try:
        results = {}
        for clients in CLIENTS:
            before = Client(server.port).board()
            results[clients] = result = run_clients(server, clients, seconds, drops)
            # Past the server's row window a board answer holds each list's first rows only (the clients drag
            # among those), and run_clients' comparison of the rows before and after is void: rows come and go
            # from the window. The version still counts every acknowledged drop once.
            if any(len(before.lists[name]) < rows for name in CATS):
                result["lost"] = before.version + result["acknowledged"] != Client(server.port).board().version
        return results
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", type=pathlib.Path, default=ROOT / ".build/release/dragboard")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3, help="rounds (peer and Dragboard in turn); medians are printed")
    args = parser.parse_args()
    if not args.binary.exists():
        raise SystemExit(f"{args.binary} is missing: swift build -c release --product dragboard")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-peer-bench-"))
    try:
        executables = dict(zip(PEERS, (swift_peer(args.binary), build_peer(folder))))
        drops = CDropClients(folder)
        threads = server_threads(args.binary)
        sides = ("dragboard", *PEERS)
        # figures[rows][clients][side]: one result per round
        figures = {rows: {clients: {side: [] for side in sides} for clients in CLIENTS} for rows in ROWS}
        for round_ in range(max(1, args.repeat)):
            for rows in ROWS:
                measures = {name: (lambda name=name: measure_peer(executables[name], folder, drops, rows, threads, args.seconds))
                            for name in PEERS}
                measures["dragboard"] = lambda: measure_dragboard(args.binary, folder, drops, rows, args.seconds)
                shift = round_ % len(sides)
                for side in sides[shift:] + sides[:shift]:
                    for clients, result in measures[side]().items():
                        figures[rows][clients][side].append(result)
        report(figures, threads, max(1, args.repeat), args.seconds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def report(figures: dict, threads: int, rounds: int, seconds: int):
    median = statistics.median
    swift, c = PEERS
    print(f"== Server CPU per move: Dragboard (a drop cycle: begin → drop → end) beside two hand-written peers, "
          f"{threads} libmicrohttpd threads each, loopback, 2 shared cores, {seconds} s per run"
          f"{f', medians of {rounds} rounds' if rounds > 1 else ''} ==")
    print(f"(Swift: {swift}, Tests/bench/GRDBPeer, the stand-in for the issue's Hummingbird + GRDB peer; C: {c}, "
          "Tests/bench/peer.c; both: integer positions, one UPDATE per move, WAL + synchronous=FULL; "
          "clients: drops.c threads, one keep-alive connection each, closed loop)")
    print(f"{'':>14}{'CPU µs per move':^30}{'Dragboard over':^22}{'':<15}{'moves/s':^27}")
    print(f"{'rows':>6}{'clients':>8}{'Dragboard':>10}{'Swift':>10}{'C':>10}{'Swift':>11}{'C':>11}  {'goal':<6}{'(Swift)':<9}"
          f"{'Dragboard':>9}{'Swift':>9}{'C':>9}{'peers refused':>15}")
    problems, notes = [], []
    for rows in ROWS:
        goal, met = GOALS[rows]
        for clients in CLIENTS:
            runs = figures[rows][clients]
            ours = runs["dragboard"]
            ratios = {name: median([a["server_cpu_us"] / b["server_cpu_us"] for a, b in zip(ours, runs[name])]) for name in PEERS}
            cpu = {side: median([r["server_cpu_us"] for r in runs[side]]) for side in runs}
            rate = {side: median([r["per_second"] for r in runs[side]]) for side in runs}
            refused = "/".join(f"{median([r['refused'] for r in runs[name]]):.0f}" for name in PEERS)
            print(f"{rows:>6,}{clients:>8}{cpu['dragboard']:>10.0f}{cpu[swift]:>10.0f}{cpu[c]:>10.0f}"
                  f"{ratios[swift]:>10.2f}x{ratios[c]:>10.2f}x  {goal:<6}{'met' if met(ratios[swift]) else 'NOT met':<9}"
                  f"{rate['dragboard']:>9.0f}{rate[swift]:>9.0f}{rate[c]:>9.0f}{refused:>15}")
            for side, results in runs.items():
                if any(result["lost"] for result in results):
                    problems.append(f"{side}, {rows:,} rows, {clients} clients: a row lost or doubled, or a version skipped")
            if most := max(result["refused"] for result in ours):
                notes.append(f"Dragboard, {rows:,} rows, {clients} clients: up to {most} drop cycles refused in a run "
                             "(their CPU counted, as the peers' refusals)")
    print("(Dragboard over: its CPU per move over each peer's, the median of each round's ratio; goal: issue #27 goal 1, "
          "read against the Swift peer; peers refused: moves to an index another client's moves had made stale, "
          "answered 409, their CPU counted, Swift/C)")
    for note in notes:
        print(f"  {note}")
    for problem in problems:
        print(f"*** {problem} ***")


if __name__ == "__main__":
    main()
