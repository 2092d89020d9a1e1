"""How much storage refused drops cost: starts the real server on a fresh database, sends
`--drops` drops of `--size` bytes of text from "another app" onto a list that refuses text
(People), and prints the database's size before and after (main file + WAL).

    python3 Tests/load/refused_drops.py --drops 10000 --size 200000

Stdlib only; loopback only; bounded by the count given.
"""
import argparse
import http.client
import json
import pathlib
import secrets
import tempfile
import time

from server import session_headers, start, stop


def database_bytes(path: pathlib.Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--drops", type=int, default=10_000)
    parser.add_argument("--size", type=int, default=200_000)
    args = parser.parse_args()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-refused-"))
    database = folder / "board.sqlite"
    server, port = start(database)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = session_headers(connection, port)

        def post(path, body):
            connection.request("POST", path, json.dumps(body), headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read() or b"{}")

        token = secrets.token_hex(16)
        status, begun = post("/api/sessions/external", {"token": token, "types": ["text/plain"], "files": []})
        assert status == 201, begun
        before = database_bytes(database)
        text = "x" * args.size
        statuses = {}
        started = time.monotonic()
        for _ in range(args.drops):
            status, _ = post(f"/api/sessions/{token}/drop", {"op": secrets.token_hex(16), "version": begun["version"],
                                                             "target": {"list": "people"}, "location": None,
                                                             "data": [["text/plain", text]]})
            statuses[status] = statuses.get(status, 0) + 1
        elapsed = time.monotonic() - started
        after = database_bytes(database)
        print(f"{args.drops} refused drops of {args.size} bytes in {elapsed:.1f} s; answers {statuses}")
        print(f"database before {before} bytes, after {after} bytes, growth {after - before} bytes")
    finally:
        stop(server)


if __name__ == "__main__":
    main()
