"""drops.c, the bench's drop clients, checked before its figures are trusted: against the real server its
counts agree with the board (every acknowledged drop advanced the version by one; a refused begin is
counted), paced clients keep to their schedule, and against a peer that breaks HTTP on purpose (a closed connection, a body longer or shorter
than its Content-Length, a chunked or closing answer) it fails loudly instead of printing a figure.

    .venv/bin/pytest -q Tests/bench/test_drops.py     (after `swift build`; needs `cc`)
"""
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from clients import CATS, CDropClients, Client  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
INDEX = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n"
         b"Set-Cookie: dragboard_csrf=0123456789abcdef0123456789abcdef; Path=/\r\n\r\nok")


@pytest.fixture(scope="module")
def drops():
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-drops-"))
    yield CDropClients(folder)
    shutil.rmtree(folder, ignore_errors=True)


class Peer:
    """A loopback HTTP peer that answers `GET /` like dragboard, then every other request with `answer(path)`:
    the bytes to send, and whether to close the connection after them."""

    def __init__(self, answer):
        self.answer = answer
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            connection, _ = self.listener.accept()
            threading.Thread(target=self.talk, args=(connection,), daemon=True).start()

    def talk(self, connection: socket.socket):
        data = b""
        with connection:
            while True:
                while b"\r\n\r\n" not in data:
                    chunk = connection.recv(65536)
                    if not chunk:
                        return
                    data += chunk
                head, data = data.split(b"\r\n\r\n", 1)
                length = int((re.search(rb"Content-Length: (\d+)", head) or [0, b"0"])[1])
                while len(data) < length:
                    data += connection.recv(65536)
                data = data[length:]
                path = head.split(b" ")[1].decode()
                reply, close = (INDEX, False) if path == "/" else self.answer(path)
                connection.sendall(reply)
                if close:
                    return


def json_answer(status: str, body: bytes, extra: bytes = b"", length: int | None = None) -> bytes:
    size = len(body) if length is None else length
    return (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {size}\r\n".encode()
            + extra + b"\r\n" + body)


def run_against(drops: CDropClients, port: int, rows: dict[str, list[str]], clients: int = 1, seconds: float = 0.5,
                rate: float = 0):
    before = type("Board", (), {"lists": rows})
    owned = [[row for index, row in enumerate(row for name in CATS for row in rows[name]) if index % clients == k]
             for k in range(clients)]
    start = time.time() + 0.2
    return drops.run(port, owned, before, start, start + seconds, rate)


ROWS = {"cat-1": ["a", "b"], "cat-2": ["c"], "cat-3": []}


def sessions(drop: bytes, close: bool = False):
    """Begins answered 201, ends 200, drops with `drop` (then the connection closed if `close`)."""
    def answer(path: str):
        if path.endswith("/drop"):
            return drop, close
        return (json_answer("200 OK", b"{}") if path.endswith("/end") else json_answer("201 Created", b"{}")), False
    return answer


@pytest.mark.parametrize("answer, message", [
    (sessions(b"", close=True), r"closed the connection \(0 bytes"),
    (sessions(json_answer("200 OK", b'{"changes":[]}xyz', length=14)), "3 bytes after the body"),
    (sessions(json_answer("200 OK", b'{"changes":[]}', length=40), close=True), r"closed the connection \([1-9]\d* bytes"),
    (sessions(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"), "only Content-Length"),
    (sessions(json_answer("200 OK", b"{}", extra=b"Connection: close\r\n"), close=True), "Connection: close"),
    (sessions(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{}", close=True), "no Content-Length"),
])
def test_a_broken_answer_fails_the_run_loudly(drops, answer, message):
    peer = Peer(answer)
    with pytest.raises(RuntimeError, match=message):
        run_against(drops, peer.port, ROWS)


def test_refusals_are_counted_and_acknowledged_drops_are_changes(drops):
    begun = 0

    def answer(path: str):
        nonlocal begun
        if path == "/api/sessions":
            begun += 1   # every other begin refused, like a row another client took
            return (json_answer("201 Created", b"{}") if begun % 2 else
                    json_answer("409 Conflict", b'{"error":{"code":"conflict","message":"moved"}}')), False
        if path.endswith("/drop"):   # alternately a change, nothing changed, a refusal
            body = [b'{"changes":[{"kind":"remove","item":"a"}],"version":9}', b'{"changes": [ ]}',
                    b'{"error":{"code":"conflict","message":"no"}}'][begun // 2 % 3]
            return json_answer("409 Conflict" if b"error" in body else "200 OK", body), False
        return json_answer("404 Not Found", b'{"error":{}}'), False   # every end fails

    result = run_against(drops, Peer(answer).port, ROWS)
    drops_sent = len(result["latencies"])
    assert drops_sent > 6 and result["refused_begin"] >= drops_sent - 1
    assert result["changed"] + result["refused_drop"] == drops_sent
    assert abs(result["changed"] - drops_sent / 3) <= 1 and result["failed_end"] == drops_sent


def test_paced_clients_keep_their_schedule_instead_of_running_as_fast_as_answers_come(drops):
    answers = sessions(json_answer("200 OK", b'{"changes":[{"kind":"remove","item":"a"}],"version":1}'))
    closed = run_against(drops, Peer(answers).port, ROWS, clients=2)
    # 8 cycles a second each for half a second: due at 0, 1/8, 2/8 and 3/8 s (the second client 1/16 s later),
    # and none after the end; answered at once, the closed loop runs far more.
    paced = run_against(drops, Peer(answers).port, ROWS, clients=2, rate=8)
    assert 1 <= len(paced["latencies"]) <= 8 < len(closed["latencies"])
    assert paced["changed"] == len(paced["latencies"]) and closed["late"] == 0


@pytest.fixture
def dragboard():
    binary = pathlib.Path(subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                                         capture_output=True, text=True).stdout.strip()) / "dragboard"
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-drops-"))
    process = subprocess.Popen([str(binary), "--port", "0", "--database", str(folder / "board.sqlite"),
                                "--public", str(ROOT / "Public"), "--templates", str(ROOT / "Templates"),
                                "--log-level", "error"], stdout=subprocess.PIPE, text=True)
    yield int(re.search(r":(\d+)$", process.stdout.readline().strip()).group(1))
    process.terminate()
    process.wait(timeout=10)
    shutil.rmtree(folder, ignore_errors=True)


def test_against_the_server_every_acknowledged_drop_is_one_version(drops, dragboard):
    before = Client(dragboard).board()
    rows = {name: list(before.lists[name]) for name in CATS}
    rows["cat-1"].append("no-such-row")   # its begins are refused (404), and counted
    result = run_against(drops, dragboard, rows, clients=3)
    after = Client(dragboard).board()
    assert result["changed"] > 0 and result["refused_begin"] > 0
    assert after.version - before.version == result["changed"]
    assert sorted(after.items) == sorted(before.items)
