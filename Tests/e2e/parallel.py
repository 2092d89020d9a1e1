"""Runs the browser tests in four pytest processes at once, the test files split between them.

The tests wait on Chromium and on the server far more than they compute: one process keeps this
2-core machine about a third busy (user + system time ~3.4 min for ~5.2 min of wall time), so
three processes keep it about busy (on an idle machine: one process 5 min 11 s, two 3 min 53 s,
three 3 min 37 s); a fourth still helps where the machine is shared (3: 6 min 11 s, 4: 5 min 34 s, one
run each, on a busy machine). Every test already has its own server,
database, browser context and (for the cross-engine group) its own X display, so the files are
independent. Each process's output is printed whole once it ends, then one closing line for both.

The run lasts as long as its slowest process, so the files are split by how long their tests took
(durations.json: seconds per test function, setup and teardown included, as pytest's JUnit report
counts them; `--record` rewrites it from the run). A test the table does not know yet counts as
the median test. Other test files named on the command line (`make test` adds the layout, bench and
PostgreSQL-cluster tests) are split with the others, so their waits overlap the browsers'.

    python3 Tests/e2e/parallel.py [--processes N] [--record] [more test files…] [pytest arguments…]
"""
import argparse
import json
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from concurrent.futures import ThreadPoolExecutor

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DURATIONS = HERE / "durations.json"
#: What pytest's closing line counts, in the order the combined line says it.
OUTCOMES = ("passed", "failed", "errors", "skipped")


def known_durations() -> dict[str, float]:
    """Seconds per test function, keyed "<path from the root>::<function>" (all its parameters together)."""
    try:
        return json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}


def weight(path: pathlib.Path, durations: dict[str, float]) -> float:
    """A file's expected seconds: its test functions' recorded times, the median test's for one unrecorded
    (the cross-engine group's, once per engine: its module fixture is parametrised by engine)."""
    name = path.resolve().relative_to(ROOT).as_posix()
    functions = re.findall(r"^def (test_\w+)", path.read_text(), flags=re.M) or ["?"]
    typical = statistics.median(durations.values()) if durations else 1.0
    times = 3 if "params=ENGINES" in path.read_text() else 1
    return sum(durations.get(f"{name}::{function}", typical * times) for function in functions)


def split(files: list[pathlib.Path], processes: int, durations: dict[str, float]) -> list[list[pathlib.Path]]:
    """The longest files first, each to the group with the least expected time so far."""
    groups: list[list[pathlib.Path]] = [[] for _ in range(processes)]
    loads = [0.0] * processes
    for path in sorted(files, key=lambda path: weight(path, durations), reverse=True):
        lightest = loads.index(min(loads))
        groups[lightest].append(path)
        loads[lightest] += weight(path, durations)
    return [sorted(group) for group in groups if group]


def counts(output: str) -> dict[str, int]:
    """The numbers of pytest's closing line ("3 failed, 160 passed in 1.2s")."""
    closing = next((line for line in reversed(output.splitlines()) if re.search(r"\d+ (passed|failed|error)", line)), "")
    found = {outcome: 0 for outcome in OUTCOMES}
    for number, outcome in re.findall(r"(\d+) (passed|failed|errors?|skipped)", closing):
        found["errors" if outcome.startswith("error") else outcome] += int(number)
    return found


def measured(report: pathlib.Path) -> dict[str, float]:
    """Seconds per test function from a JUnit report (a test's time there is its setup, call and teardown)."""
    found: dict[str, float] = {}
    if not report.exists():
        return found
    for case in ElementTree.parse(report).iter("testcase"):
        if any(child.tag in ("failure", "error", "skipped") for child in case):
            continue   # a failure's time is mostly the wait that timed out, not the test's
        module = case.get("classname", "").replace(".", "/")
        key = f"{module}.py::{case.get('name', '').split('[')[0]}"
        found[key] = round(found.get(key, 0.0) + float(case.get("time", 0)), 2)
    return found


def current(durations: dict[str, float]) -> dict[str, float]:
    """The entries whose test function still exists."""
    def exists(key: str) -> bool:
        path, function = key.split("::", 1)
        return (ROOT / path).is_file() and re.search(rf"^def {function}\(", (ROOT / path).read_text(), flags=re.M) is not None
    return {key: seconds for key, seconds in durations.items() if exists(key)}


def wall_time(process: subprocess.Popen, started: float) -> float:
    process.wait()
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--record", action="store_true", help=f"rewrite {DURATIONS.name} with this run's times")
    args, rest = parser.parse_known_args()
    extra = [pathlib.Path(arg).resolve() for arg in rest if arg.endswith(".py") and pathlib.Path(arg).is_file()]
    pytest_args = [arg for arg in rest if not (arg.endswith(".py") and pathlib.Path(arg).is_file())]
    files = sorted(HERE.glob("test_*.py")) + extra
    durations = known_durations()
    with tempfile.TemporaryDirectory(prefix="dragboard-e2e-logs-") as logs:
        running = []
        for number, group in enumerate(split(files, args.processes, durations)):
            log = open(pathlib.Path(logs) / f"{number}.log", "w+")
            report = pathlib.Path(logs) / f"{number}.xml"
            command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
                       *pytest_args, *map(str, group)]
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
            running.append((group, log, report, process, time.monotonic()))
        totals = {outcome: 0 for outcome in OUTCOMES}
        status = 0
        recorded: dict[str, float] = {}
        with ThreadPoolExecutor(len(running)) as waiting:   # each process's wall time, as it ends
            took = list(waiting.map(lambda each: wall_time(each[3], each[4]), running))
        for number, (group, log, report, process, _) in enumerate(running):
            code = process.returncode
            log.seek(0)
            output = log.read()
            print(f"== browser tests, process {number + 1} of {len(running)} ({took[number]:.0f} s):"
                  f" {', '.join(path.stem for path in group)}")
            print(output, end="" if output.endswith("\n") else "\n")
            found = counts(output)
            for outcome in OUTCOMES:
                totals[outcome] += found[outcome]
            recorded |= measured(report)
            # A process that failed without saying so in its counts (a crash, a collection error) fails the run;
            # one whose tests were all deselected (`-k`, exit status 5) did not fail.
            if code != 0 and not (code == 5 and "deselected" in output):
                status = code
                totals["errors"] += 0 if found["failed"] or found["errors"] else 1
    if args.record:
        DURATIONS.write_text(json.dumps(dict(sorted(current(durations | recorded).items())), indent=0) + "\n")
    print(f"e2e: {totals['passed']} passed, {totals['failed'] + totals['errors']} failed"
          + (f", {totals['skipped']} skipped" if totals["skipped"] else "")
          + f"; the processes took {', '.join(f'{seconds:.0f}' for seconds in took)} s")
    return status


if __name__ == "__main__":
    sys.exit(main())
