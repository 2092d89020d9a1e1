"""Runs the browser tests in three pytest processes at once, the test files split between them.

The tests wait on Chromium and on the server far more than they compute: one process keeps this
2-core machine about a third busy (user + system time ~3.4 min for ~5.2 min of wall time), so
three processes keep it about busy (on an idle machine: one process 5 min 11 s, two 3 min 53 s,
three 3 min 37 s). Every test already has its own server,
database, browser context and (for the cross-engine group) its own X display, so the files are
independent. Each process's output is printed whole once it ends, then one closing line for both.

    python3 Tests/e2e/parallel.py [--processes N] [pytest arguments…]
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
#: What pytest's closing line counts, in the order the combined line says it.
OUTCOMES = ("passed", "failed", "errors", "skipped")


def weight(path: pathlib.Path) -> int:
    """A file's share of the work: its number of tests, each test of the cross-engine group once per
    engine (the group's module fixture is parametrised by engine; other parametrised tests count once)
    plus about two tests' time for starting each engine (Firefox under Xvfb alone takes ~10 s)."""
    text = path.read_text()
    tests = max(1, len(re.findall(r"^def test_", text, flags=re.M)))
    return tests * 3 + 3 * 2 if "params=ENGINES" in text else tests


def split(files: list[pathlib.Path], processes: int) -> list[list[pathlib.Path]]:
    """The heaviest files first, each to the lightest group so far."""
    groups: list[list[pathlib.Path]] = [[] for _ in range(processes)]
    loads = [0] * processes
    for path in sorted(files, key=weight, reverse=True):
        lightest = loads.index(min(loads))
        groups[lightest].append(path)
        loads[lightest] += weight(path)
    return [sorted(group) for group in groups if group]


def counts(output: str) -> dict[str, int]:
    """The numbers of pytest's closing line ("3 failed, 160 passed in 1.2s")."""
    closing = next((line for line in reversed(output.splitlines()) if re.search(r"\d+ (passed|failed|error)", line)), "")
    found = {outcome: 0 for outcome in OUTCOMES}
    for number, outcome in re.findall(r"(\d+) (passed|failed|errors?|skipped)", closing):
        found["errors" if outcome.startswith("error") else outcome] += int(number)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=3)
    args, pytest_args = parser.parse_known_args()
    files = sorted(HERE.glob("test_*.py"))
    with tempfile.TemporaryDirectory(prefix="dragboard-e2e-logs-") as logs:
        running = []
        for number, group in enumerate(split(files, args.processes)):
            log = open(pathlib.Path(logs) / f"{number}.log", "w+")
            command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *pytest_args, *map(str, group)]
            running.append((group, log, subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=HERE.parents[1])))
        totals = {outcome: 0 for outcome in OUTCOMES}
        status = 0
        for number, (group, log, process) in enumerate(running):
            code = process.wait()
            log.seek(0)
            output = log.read()
            print(f"== browser tests, process {number + 1} of {len(running)}: {', '.join(path.stem for path in group)}")
            print(output, end="" if output.endswith("\n") else "\n")
            found = counts(output)
            for outcome in OUTCOMES:
                totals[outcome] += found[outcome]
            # A process that failed without saying so in its counts (a crash, a collection error) fails the run.
            if code != 0:
                status = code
                totals["errors"] += 0 if found["failed"] or found["errors"] else 1
    print(f"e2e: {totals['passed']} passed, {totals['failed'] + totals['errors']} failed"
          + (f", {totals['skipped']} skipped" if totals["skipped"] else ""))
    return status


if __name__ == "__main__":
    sys.exit(main())
