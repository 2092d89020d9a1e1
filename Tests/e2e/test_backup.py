"""`dragboard backup FILE` while the server serves drops from several clients: each copy is whole (SQLite's
integrity check) and one consistent snapshot (every item once, in a list that exists, with unique order keys,
the board's version that of its newest change), the images come with it, and `dragboard restore` puts it back
so a server serves exactly that board."""
from __future__ import annotations

import http.client
import json
import secrets
import sqlite3
import subprocess
import threading
import uuid

from conftest import ROOT, Server, _binary


class Dragger(threading.Thread):
    """Moves toys between the cats, over and over, until told to stop."""

    def __init__(self, port: int, items: list[str], lists: list[str], stop: threading.Event):
        super().__init__(daemon=True)
        self.port, self.items, self.lists, self.stop_event = port, items, lists, stop
        self.csrf = secrets.token_hex(16)
        self.acknowledged = 0

    def post(self, connection, path: str, body: dict) -> tuple[int, dict]:
        connection.request("POST", path, json.dumps(body), {
            "Content-Type": "application/json", "Cookie": f"dragboard_csrf={self.csrf}", "X-CSRF-Token": self.csrf,
            "Origin": f"http://127.0.0.1:{self.port}"})
        response = connection.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data else {})

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        turn = 0
        while not self.stop_event.is_set():
            turn += 1
            item, target = self.items[turn % len(self.items)], self.lists[turn % len(self.lists)]
            status, begun = self.post(connection, "/api/sessions", {"token": secrets.token_hex(16), "list": self.where(item), "items": [item]})
            if status != 201:
                continue
            status, dropped = self.post(connection, f"/api/sessions/{begun['token']}/drop",
                                        {"op": str(uuid.uuid4()), "version": begun["version"], "target": {"list": target}, "location": {"row": 0, "fraction": 0.3}})
            if status == 200 and dropped.get("changes"):
                self.acknowledged += 1
            self.post(connection, f"/api/sessions/{begun['token']}/end", {})

    def where(self, item: str) -> str:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request("GET", "/api/board")
        board = json.loads(connection.getresponse().read())
        for listed in board["lists"]:
            if f'data-item="{item}"' in listed["html"]:
                return listed["id"]
        return self.lists[0]


def snapshot_problems(path) -> tuple[list[str], int]:
    database = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    problems = []
    if database.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
        problems.append("integrity check failed")
    version = database.execute("SELECT version FROM board WHERE id = 'demo'").fetchone()[0]
    newest = database.execute("SELECT MAX(item.changedVersion) FROM item JOIN list ON list.id = item.listID WHERE list.boardID = 'demo'").fetchone()[0]
    if newest is not None and newest > version:
        problems.append(f"an item changed at version {newest}, after the board's {version}")
    orphans = database.execute("SELECT COUNT(*) FROM item WHERE listID NOT IN (SELECT id FROM list)").fetchone()[0]
    if orphans:
        problems.append(f"{orphans} items in lists that do not exist")
    twins = database.execute("SELECT COUNT(*) FROM (SELECT listID, containerID, pos FROM item GROUP BY 1, 2, 3 HAVING COUNT(*) > 1)").fetchone()[0]
    if twins:
        problems.append(f"{twins} order keys used twice")
    database.close()
    return problems, version


def test_a_backup_taken_under_drops_is_whole_and_consistent_and_restores(tmp_path):
    server = Server(tmp_path / "board.sqlite").start()
    try:
        database = sqlite3.connect(f"file:{tmp_path / 'board.sqlite'}?mode=ro", uri=True)
        lists = ["cat-1", "cat-2", "cat-3"]
        items = [row[0] for row in database.execute("SELECT id FROM item WHERE listID IN ('cat-1', 'cat-2', 'cat-3') AND containerID IS NULL")]
        count = database.execute("SELECT COUNT(*) FROM item").fetchone()[0]
        database.close()
        (tmp_path / "board.sqlite-images").mkdir(exist_ok=True)
        (tmp_path / "board.sqlite-images" / "an-image").write_bytes(b"\x89PNG\r\n\x1a\nimage")
        stop = threading.Event()
        draggers = [Dragger(server.port, items[index::3] or items, lists, stop) for index in range(3)]
        for dragger in draggers:
            dragger.start()
        backups = []
        try:
            for index in range(3):
                while sum(dragger.acknowledged for dragger in draggers) < 5 * (index + 1):
                    stop.wait(0.01)
                target = tmp_path / f"copy-{index}.sqlite"
                done = subprocess.run([str(_binary()), "backup", str(target), "--database", str(tmp_path / "board.sqlite")],
                                      cwd=ROOT, capture_output=True, text=True, timeout=60)
                assert done.returncode == 0, done.stderr
                backups.append(target)
        finally:
            stop.set()
            for dragger in draggers:
                dragger.join(timeout=30)
        assert sum(dragger.acknowledged for dragger in draggers) >= 15
        versions = []
        for backup in backups:
            problems, version = snapshot_problems(backup)
            assert not problems, f"{backup.name}: {problems}"
            copy = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
            assert copy.execute("SELECT COUNT(*) FROM item").fetchone()[0] == count, "moves never add or remove items"
            copy.close()
            assert (backup.parent / (backup.name + "-images") / "an-image").read_bytes() == b"\x89PNG\r\n\x1a\nimage"
            versions.append(version)
        assert versions == sorted(versions) and versions[0] > 1, versions
    finally:
        server.stop()

    # Restore the first copy over the live database, then serve it: the board is that snapshot.
    restored = subprocess.run([str(_binary()), "restore", str(backups[0]), "--database", str(tmp_path / "board.sqlite")],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert restored.returncode == 0, restored.stderr
    again = Server(tmp_path / "board.sqlite").start()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", again.port, timeout=30)
        connection.request("GET", "/api/board")
        assert json.loads(connection.getresponse().read())["version"] == versions[0]
    finally:
        again.stop()


def test_a_backup_refuses_to_overwrite_and_a_damaged_file_is_not_restored(tmp_path):
    server = Server(tmp_path / "board.sqlite").start()
    server.stop()
    existing = tmp_path / "taken.sqlite"
    existing.write_text("already here")
    refused = subprocess.run([str(_binary()), "backup", str(existing), "--database", str(tmp_path / "board.sqlite")],
                             cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "already exists" in refused.stderr
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"SQLite format 3\x00" + bytes(4096))
    before = (tmp_path / "board.sqlite").read_bytes()
    refused = subprocess.run([str(_binary()), "restore", str(damaged), "--database", str(tmp_path / "board.sqlite")],
                             cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "nothing was restored" in refused.stderr
    assert (tmp_path / "board.sqlite").read_bytes() == before
