"""The two hand-written peers of `make bench-peer` (peer.c: libmicrohttpd + SQLite; GRDBPeer: MicroHTTP + GRDB),
checked before their figures are trusted, each against the same contract: its moves put rows where they were asked
(within a list, across lists, to the end), a bad index or row is refused and changes nothing, every list's
positions stay 0..n-1, and drops.c --moves against it counts what it acknowledged.

    .venv/bin/pytest -q Tests/bench/test_peer.py     (needs `cc`, libmicrohttpd, libsqlite3-dev and `swift build`)
"""
import http.client
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from clients import CDropClients  # noqa: E402
from peer_bench import LISTS, ROOT, build_peer, dense, peer, peer_board, run_moves  # noqa: E402


@pytest.fixture(scope="module")
def folder():
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-peer-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module", params=("c", "swift"))
def executable(request, folder):
    if request.param == "c":
        return build_peer(folder)
    # The debug build `make test` made (`swift build --build-tests` builds every product).
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True)
    return pathlib.Path(out.stdout.strip()) / "GRDBPeer"


@pytest.fixture
def server(executable, folder):
    """The peer on three lists of 5 rows, item-k-0..item-k-4 in list-k."""
    database = folder / "board.sqlite"
    server = peer(executable, database, 5, 4)
    server.database = database
    yield server
    server.stop()


def move(port: int, item: str, target: str, index) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("POST", "/move", urllib.parse.urlencode({"item": item, "list": target, "index": index}),
                       {"Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    answer = response.status, json.loads(response.read())
    connection.close()
    return answer


def rows(k: int, *numbers: int) -> list[str]:
    return [f"item-{k}-{n}" for n in numbers]


def test_moves_put_rows_where_asked_and_refusals_change_nothing(server):
    port = server.port
    assert peer_board(port) == {f"list-{k}": rows(k, 0, 1, 2, 3, 4) for k in (1, 2, 3)}
    # Within a list, down then up.
    assert move(port, "item-1-0", "list-1", 3) == (200, {"version": 1, "rows": 5})
    assert peer_board(port)["list-1"] == rows(1, 1, 2, 3, 0, 4)
    assert move(port, "item-1-4", "list-1", 0)[0] == 200
    assert peer_board(port)["list-1"] == rows(1, 4, 1, 2, 3, 0)
    # Across lists, to the top of one and the end of another (index = the rows already there).
    assert move(port, "item-1-2", "list-2", 0) == (200, {"version": 3, "rows": 6})
    assert move(port, "item-2-4", "list-3", 5) == (200, {"version": 4, "rows": 6})
    board = peer_board(port)
    assert board == {"list-1": rows(1, 4, 1, 3, 0), "list-2": ["item-1-2", *rows(2, 0, 1, 2, 3)],
                     "list-3": [*rows(3, 0, 1, 2, 3, 4), "item-2-4"]}
    # Past the end (within its own list the last index is one less), negative, an unknown row, a bad body.
    assert move(port, "item-3-0", "list-2", 5) == (200, {"version": 5, "rows": 6})
    assert move(port, "item-3-1", "list-2", 7) == (409, {"error": "index out of range", "rows": 6})
    assert move(port, "item-1-1", "list-1", 4) == (409, {"error": "index out of range", "rows": 3})
    assert move(port, "item-1-1", "list-1", -1)[0] == 409
    assert move(port, "no-such-row", "list-1", 0)[0] == 404
    assert move(port, "item-1-1", "list-1", "two")[0] == 400
    board["list-2"].append("item-3-0")
    board["list-3"].remove("item-3-0")
    assert peer_board(port) == board
    assert dense(server.database)
    # The version counts acknowledged moves only.
    assert move(port, "item-1-1", "list-1", 3) == (200, {"version": 6, "rows": 4})
    assert peer_board(port)["list-1"] == rows(1, 4, 3, 0, 1)


def test_the_move_clients_count_what_the_peer_acknowledged(server, folder):
    result = run_moves(server, server.database, CDropClients(folder), 3, 0.5)
    assert result["per_second"] > 0 and not result["lost"]
    board = peer_board(server.port)
    assert sorted(item for name in LISTS for item in board[name]) == sorted(item for k in (1, 2, 3) for item in rows(k, *range(5)))
    # The next move's version is one more than every move acknowledged so far.
    item = board["list-1"][0] if board["list-1"] else board["list-2"][0]
    status, answer = move(server.port, item, "list-3", 0)
    assert status == 200 and answer["version"] == result["acknowledged"] + 1
