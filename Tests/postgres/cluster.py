"""A throw-away PostgreSQL server for the tests: its own cluster (initdb) in a temporary folder, on a free
port of 127.0.0.1, with one trusted superuser `dragboard` and a database `dragboard`; stopping it deletes
the folder. Debian's binaries (package `postgresql`) are used, the newest version under /usr/lib/postgresql.
PostgreSQL refuses to run as root, so as root the cluster belongs to and runs as `nobody`.

    python3 Tests/postgres/cluster.py start --dir D   # prints the URL, leaves the server running (state in D)
    python3 Tests/postgres/cluster.py stop --dir D    # stops it, deletes its cluster and D

Stdlib only: the Makefile runs it with the system Python, before and after the tests.
"""
import argparse
import json
import os
import pathlib
import pwd
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import urllib.parse

DEBIAN_ROOT = pathlib.Path("/usr/lib/postgresql")
USER = "dragboard"
DATABASE = "dragboard"
#: Written into every folder this module creates: stop() deletes only folders that carry it.
MARKER = "dragboard-test-cluster"
#: The unprivileged account that owns and runs the cluster when we are root.
ROOT_RUNNER = "nobody"
#: Appended to postgresql.conf. fsync stays on (the tests check durability); several servers with their own
#: pools share one cluster, hence the connections; TCP only, so no socket path to grant or to keep short.
SETTINGS = """
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
max_connections = 200
"""
#: Appended too by `Cluster(statements=True)`: the statements each database was sent, counted by
#: pg_stat_statements (Debian's server package ships it). `top`: the statements clients sent, not those a
#: function or trigger ran; BEGIN, COMMIT and SAVEPOINT count too (track_utility). Loaded at start, so it is
#: off in the tests' clusters.
STATEMENT_SETTINGS = """
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = top
pg_stat_statements.track_utility = on
"""


class ClusterError(RuntimeError):
    """A step failed; `detail` holds what the tool or the server log said."""

    def __init__(self, message: str, detail: str = ""):
        # The last line of the output is most often the cause: the one-line message carries it too.
        last = next((line.strip() for line in reversed(detail.splitlines()) if line.strip()), "")
        super().__init__(f"{message}: {last}" if last and last not in message else message)
        self.detail = detail


def bin_dir() -> pathlib.Path | None:
    """The newest Debian version's bin folder, else the folder of a `pg_ctl` on PATH (other systems)."""
    def version(path: pathlib.Path) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r"\d+", path.parent.name))
    debian = [path for path in DEBIAN_ROOT.glob("*/bin") if (path / "initdb").is_file()]
    if debian:
        return max(debian, key=version)
    found = shutil.which("pg_ctl")
    return pathlib.Path(found).resolve().parent if found else None


def available() -> tuple[bool, str]:
    """(True, the bin folder) when a cluster can be made here, else (False, why not)."""
    folder = bin_dir()
    if folder is None:
        return False, f"no PostgreSQL server binaries (nothing under {DEBIAN_ROOT}, no pg_ctl on PATH; apt-get install postgresql)"
    missing = [tool for tool in ("initdb", "pg_ctl", "postgres", "psql") if not (folder / tool).is_file()]
    if missing:
        return False, f"{folder} lacks {', '.join(missing)}"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(ROOT_RUNNER)
        except KeyError:
            return False, f"running as root and there is no user {ROOT_RUNNER!r} to run PostgreSQL as"
    return True, str(folder)


def scratch_root() -> str:
    """/dev/shm when it has room (a container's may be 64 MB) and TMPDIR names no place: the server fsyncs
    every commit, a few ms each on a disk. The same rule as the browser tests' scratch files."""
    if not os.environ.get("TMPDIR") and os.access("/dev/shm", os.W_OK):
        stats = os.statvfs("/dev/shm")
        if stats.f_bavail * stats.f_frsize >= 1 << 30:
            return "/dev/shm"
    return tempfile.gettempdir()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _psql(bin_folder: pathlib.Path | None, url: str, sql: str) -> str:
    psql = str(bin_folder / "psql") if bin_folder and (bin_folder / "psql").is_file() else shutil.which("psql") or "psql"
    done = subprocess.run([psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql],
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise ClusterError(f"psql failed on {sql!r}", done.stderr)
    return done.stdout


def with_database(url: str, name: str) -> str:
    """`url` naming database `name` instead (user, host, port and parameters kept)."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + urllib.parse.quote(name)))


def run_sql(url: str, sql: str) -> str:
    """Runs `sql` with psql against `url`; its unaligned, tuples-only output."""
    return _psql(bin_dir(), url, sql)


def create_database(url: str, name: str) -> str:
    """Creates an empty database `name` on the server of `url` (any database of it); returns its URL."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
        raise ValueError(f"database name {name!r}: lower-case letters, digits and _ only")
    run_sql(with_database(url, "postgres"), f'CREATE DATABASE "{name}"')
    return with_database(url, name)


def drop_database(url: str, name: str) -> None:
    """Drops database `name`, closing what is still connected to it (a server a test left running)."""
    run_sql(with_database(url, "postgres"), f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def reset_statements(url: str) -> None:
    """Zeroes pg_stat_statements' counts (a cluster started with `statements=True`)."""
    run_sql(url, "SELECT pg_stat_statements_reset()")


def statement_counts(url: str) -> list[tuple[int, str]]:
    """(calls, normalized query text on one line) of each statement sent to `url`'s database since the last
    reset, most called first; not those that reset or read these counts."""
    out = run_sql(url, r"""
        SELECT calls, regexp_replace(query, '\s+', ' ', 'g') FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND query NOT LIKE '%pg_stat_statements%'
        ORDER BY calls DESC, query""")
    counts = []
    for line in out.splitlines():
        calls, bar, query = line.partition("|")
        if bar:
            counts.append((int(calls), query.strip()))
    return counts


class Cluster:
    """One throw-away server. `Cluster()` picks a new folder in the scratch space; `Cluster(folder)` uses an
    empty or absent folder, or (to stop it) one a previous `start` filled. `statements=True` counts the
    statements sent to it (STATEMENT_SETTINGS, and the extension made in its database: see
    `statement_counts`); `settings` are more lines for postgresql.conf (after ours: they win)."""

    def __init__(self, directory: str | os.PathLike | None = None, *, statements: bool = False, settings: str = ""):
        self.directory = pathlib.Path(directory) if directory else None
        self.statements = statements
        self.settings = settings
        self.port: int | None = None
        self.url: str | None = None
        ok, found = available()
        self.bin = pathlib.Path(found) if ok else None
        self.why_not = None if ok else found
        # As root: setuid to nobody in the children (subprocess's user=), without root's groups.
        self.runner = pwd.getpwnam(ROOT_RUNNER) if os.geteuid() == 0 and ok else None

    @property
    def data(self) -> pathlib.Path:
        return self.directory / "data"

    @property
    def log(self) -> pathlib.Path:
        return self.directory / "server.log"

    def _run(self, *command: str, timeout: float = 120) -> subprocess.CompletedProcess:
        as_runner = {"user": self.runner.pw_uid, "group": self.runner.pw_gid, "extra_groups": []} if self.runner else {}
        return subprocess.run([str(self.bin / command[0]), *command[1:]], cwd=self.directory, capture_output=True,
                              text=True, timeout=timeout, **as_runner)

    def start(self) -> str:
        """Creates the cluster and its database, starts the server; returns its URL."""
        if self.bin is None:
            raise ClusterError(self.why_not)
        if self.directory is None:
            self.directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-postgres-", dir=scratch_root()))
        elif self.directory.exists() and any(self.directory.iterdir()):
            raise ClusterError(f"{self.directory} is not empty")
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        (self.directory / MARKER).touch()
        try:
            if self.runner:
                os.chown(self.directory, self.runner.pw_uid, self.runner.pw_gid)
            made = self._run("initdb", "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8",
                             "--no-locale", "--no-sync")
            if made.returncode != 0:
                raise ClusterError(f"initdb failed (exit {made.returncode}) in {self.directory}",
                                   made.stdout + made.stderr)
            with open(self.data / "postgresql.conf", "a") as conf:
                conf.write(SETTINGS + (STATEMENT_SETTINGS if self.statements else "") + self.settings)
            self._start_server()
            self.url = f"postgres://{USER}@127.0.0.1:{self.port}/{DATABASE}"
            run_sql(with_database(self.url, "postgres"), f'CREATE DATABASE "{DATABASE}"')
            if self.statements:
                run_sql(self.url, "CREATE EXTENSION pg_stat_statements")
            return self.url
        except BaseException:
            self.stop()
            raise

    def _start_server(self) -> None:
        # Another process may take the free port between our probe and the server's bind: one more try.
        for attempt in (1, 2):
            self.port = free_port()
            started = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", f"-p {self.port}",
                                "-w", "-t", "60", "start")
            if started.returncode == 0:
                return
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            if attempt == 1 and "Address already in use" in log:
                continue
            raise ClusterError(f"pg_ctl start failed (exit {started.returncode}) on port {self.port}",
                               started.stdout + started.stderr + "\n--- server log ---\n" + log[-4000:])

    def running(self) -> bool:
        """What `pg_ctl status` says."""
        return self.bin is not None and self.data.is_dir() and self._run("pg_ctl", "-D", str(self.data), "status").returncode == 0

    def stop(self) -> None:
        """Stops the server (immediately: nothing in it is kept) and deletes the folder."""
        if self.directory is None or not (self.directory / MARKER).exists():
            return
        if self.bin is not None and (self.data / "postmaster.pid").exists():
            stopped = self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "-t", "60", "stop")
            if stopped.returncode != 0 and (self.data / "postmaster.pid").exists():
                raise ClusterError(f"pg_ctl stop failed: {stopped.stderr.strip()}", stopped.stdout + stopped.stderr)
        shutil.rmtree(self.directory)

    def __enter__(self) -> "Cluster":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("start", "stop"))
    parser.add_argument("--dir", required=True, type=pathlib.Path,
                        help="state folder: start records the cluster in it, stop deletes it")
    args = parser.parse_args()
    state = args.dir / "cluster.json"
    if args.action == "start":
        cluster = Cluster()
        try:
            if cluster.bin is None:
                raise ClusterError(cluster.why_not)
            # Recorded before anything starts, so that `stop` finds whatever a failure leaves behind.
            cluster.directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-postgres-", dir=scratch_root()))
            args.dir.mkdir(parents=True, exist_ok=True)
            state.write_text(json.dumps({"directory": str(cluster.directory)}))
            url = cluster.start()
        except ClusterError as error:
            # The details first, then one line with the reason (the Makefile quotes the last line).
            if error.detail:
                print(error.detail.rstrip(), file=sys.stderr)
            print(error, file=sys.stderr)
            return 1
        print(url)
        return 0
    if not state.exists():
        print(f"no cluster recorded in {args.dir}; nothing to stop", file=sys.stderr)
        return 0
    Cluster(json.loads(state.read_text())["directory"]).stop()
    shutil.rmtree(args.dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
