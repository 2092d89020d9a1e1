"""The throw-away PostgreSQL cluster of the tests (cluster.py), against the real server: it answers on its
URL, makes extra databases, runs as an unprivileged user, and leaves neither folder nor listener behind.

    .venv/bin/python -m pytest -q Tests/postgres/test_cluster.py     (needs Debian's `postgresql`)
"""
import json
import os
import pathlib
import socket
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import cluster  # noqa: E402


def test_postgresql_is_installed():
    """`make test` installs Debian's `postgresql`; without it every PostgreSQL suite fails, and this says why."""
    ok, why_not = cluster.available()
    assert ok, f"*** PostgreSQL is needed and missing: {why_not} ***"


def refused(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


def server_user(data: pathlib.Path) -> str:
    """Who the postmaster runs as: its pid is the first line of postmaster.pid."""
    pid = (data / "postmaster.pid").read_text().split()[0]
    return subprocess.run(["ps", "-o", "user=", "-p", pid], capture_output=True, text=True, check=True).stdout.strip()


def test_cluster_serves_its_url_then_leaves_nothing():
    with cluster.Cluster() as running:
        url = running.url
        assert url == f"postgres://dragboard@127.0.0.1:{running.port}/dragboard"
        assert cluster.run_sql(url, "SELECT 1").strip() == "1"
        assert cluster.run_sql(url, "SELECT current_database(), current_user").strip() == "dragboard|dragboard"
        assert cluster.run_sql(url, "SHOW max_connections").strip() == "200"
        assert cluster.run_sql(url, "SHOW fsync").strip() == "on"
        # The tests' cluster counts no statements (that is `statements=True`, for the bench).
        assert cluster.run_sql(url, "SHOW shared_preload_libraries").strip() == ""

        second = cluster.create_database(url, "second_db")
        assert second == f"postgres://dragboard@127.0.0.1:{running.port}/second_db"
        assert cluster.run_sql(second, "SELECT current_database()").strip() == "second_db"
        cluster.drop_database(url, "second_db")
        assert cluster.run_sql(url, "SELECT count(*) FROM pg_database WHERE datname = 'second_db'").strip() == "0"

        assert running.running()
        if os.geteuid() == 0:
            assert running.data.stat().st_uid == cluster.pwd.getpwnam("nobody").pw_uid
            assert server_user(running.data) == "nobody"
        folder, port = running.directory, running.port
    assert not folder.exists()
    assert refused(port)


def test_command_line_start_prints_the_url_and_stop_deletes_everything(tmp_path):
    state = tmp_path / "state"
    script = str(HERE / "cluster.py")
    started = subprocess.run([sys.executable, script, "start", "--dir", str(state)], capture_output=True, text=True)
    assert started.returncode == 0, started.stderr
    url = started.stdout
    assert url.endswith("/dragboard\n") and url.count("\n") == 1, url
    folder = pathlib.Path(json.loads((state / "cluster.json").read_text())["directory"])
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    try:
        assert cluster.run_sql(url.strip(), "SELECT 1").strip() == "1"
    finally:
        stopped = subprocess.run([sys.executable, script, "stop", "--dir", str(state)], capture_output=True, text=True)
    assert stopped.returncode == 0, stopped.stderr
    assert not state.exists() and not folder.exists()
    assert refused(port)


def test_stop_leaves_alone_a_folder_it_did_not_make(tmp_path):
    (tmp_path / "precious").write_text("keep me")
    cluster.Cluster(tmp_path).stop()
    assert (tmp_path / "precious").read_text() == "keep me"


def test_start_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "precious").write_text("keep me")
    with pytest.raises(cluster.ClusterError, match="not empty"):
        cluster.Cluster(tmp_path).start()
    assert (tmp_path / "precious").read_text() == "keep me"


def test_statements_option_counts_what_clients_sent():
    """`statements=True` (pg_bench's count): each statement a client sent, by calls, in that database only;
    `settings` lines reach postgresql.conf."""
    with cluster.Cluster(statements=True, settings="log_statement = 'all'") as running:
        url = running.url
        assert cluster.run_sql(url, "SHOW log_statement").strip() == "all"
        cluster.run_sql(url, "CREATE TABLE t (n int)")
        other = cluster.create_database(url, "other_db")
        cluster.reset_statements(url)
        for n in range(3):
            cluster.run_sql(url, f"INSERT INTO t VALUES ({n})")
        cluster.run_sql(url, "BEGIN; SELECT count(*) FROM t; COMMIT")
        cluster.run_sql(other, "SELECT 42")
        counts = dict((query, calls) for calls, query in cluster.statement_counts(url))
        # Constants are normalized: three INSERTs are one statement called three times.
        assert counts == {"INSERT INTO t VALUES ($1)": 3, "BEGIN": 1, "SELECT count(*) FROM t": 1, "COMMIT": 1}, counts
