"""A board file written before boards existed (schema v1 + v2-zones, one board row `main`)
opens migrated: every row where it was, as the demo board at /boards/demo, and it keeps working."""
import pathlib
import shutil
import sqlite3
import tempfile

import pytest
from playwright.sync_api import expect

from conftest import Server
from helpers import open_composer, title_cells, version

OLD_SCHEMA = """
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES ('v1'), ('v2-zones');
CREATE TABLE board (id TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL);
INSERT INTO board (id, version) VALUES ('main', 12);
CREATE TABLE list (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, kind TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE item (
    id TEXT PRIMARY KEY NOT NULL,
    listID TEXT NOT NULL REFERENCES list(id) ON DELETE CASCADE,
    containerID TEXT REFERENCES item(id) ON DELETE CASCADE,
    pos TEXT NOT NULL, kind TEXT NOT NULL, title TEXT NOT NULL,
    payload TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    changedVersion INTEGER NOT NULL);
CREATE INDEX item_order ON item(listID, containerID, pos, id);
CREATE INDEX item_container ON item(containerID);
CREATE INDEX item_changed ON item(changedVersion);
CREATE TABLE operation (id TEXT PRIMARY KEY NOT NULL, fingerprint TEXT NOT NULL, response TEXT NOT NULL,
    version INTEGER NOT NULL, createdAt DATETIME NOT NULL);
CREATE INDEX operation_createdAt ON operation(createdAt);
CREATE TABLE zoneImage (id TEXT PRIMARY KEY NOT NULL, zoneID TEXT NOT NULL, name TEXT NOT NULL, mimeType TEXT NOT NULL,
    size INTEGER NOT NULL, createdVersion INTEGER NOT NULL);
CREATE INDEX zoneImage_zone ON zoneImage(zoneID, createdVersion, id);
CREATE TABLE zoneLabel (zoneID TEXT PRIMARY KEY NOT NULL, text TEXT NOT NULL);
INSERT INTO list VALUES ('cat-1', 'Whiskers', 'cat', 0), ('cat-2', 'Mittens', 'cat', 1);
INSERT INTO item VALUES ('yarn', 'cat-1', NULL, 'm', 'toy', 'Old yarn', '{}', 3),
                        ('mouse', 'cat-1', NULL, 'c', 'toy', 'Old mouse', '{}', 7),
                        ('bell', 'cat-2', NULL, 'm', 'toy', 'Old bell', '{}', 12);
INSERT INTO zoneLabel VALUES ('label', 'Written long ago');
"""


@pytest.fixture
def old_server():
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-old-"))
    database = directory / "board.sqlite"
    with sqlite3.connect(database) as connection:
        connection.executescript(OLD_SCHEMA)
    running = Server(database).start()
    yield running
    running.stop()
    shutil.rmtree(directory, ignore_errors=True)


def test_an_old_board_file_opens_as_the_demo_board_with_every_row_where_it_was(context, old_server):
    page = context.new_page()
    page.goto(old_server.url + "/")
    expect(page.locator('a[data-board-link="demo"]')).to_have_count(1)
    page.goto(old_server.demo)
    page.wait_for_function("() => window.__dragboardReady === true")
    assert version(page) == 12
    expect(title_cells(page, "cat-1")).to_have_text(["Old mouse", "Old yarn"])
    expect(title_cells(page, "cat-2")).to_have_text(["Old bell"])
    expect(page.locator(".label-text")).to_have_text("Written long ago")
    # Still a working board: a new card lands and the version goes on from 12.
    cat = page.locator('[data-list="cat-2"]')
    open_composer(cat, "new-item").fill("New toy")
    cat.locator('form[data-form="new-item"] textarea[name="title"]').press("Enter")
    expect(title_cells(page, "cat-2")).to_have_text(["Old bell", "New toy"])
    assert version(page) == 13
