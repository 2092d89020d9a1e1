"""Import and export in the browser: the index's Import form takes a Trello export and opens the new
board, which says what was imported and skipped; the Board menu's export links download the board.
And on the command line: `dragboard import [trello] FILE` and `dragboard export BOARD [--csv]`."""
import csv as _csv
import io
import json
import pathlib
import sqlite3
import subprocess

from playwright.sync_api import expect

from conftest import _binary
from helpers import READY

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "trello-board.json"


def test_the_index_imports_a_trello_export_and_the_board_exports_it_again(context, server, console_errors):
    page = console_errors.watch(context.new_page())
    page.goto(server.url + "/")
    page.set_input_files('form[data-form="import-board"] input[name="file"]', str(FIXTURE))
    with page.expect_navigation():
        page.click('form[data-form="import-board"] button[type="submit"]')
    page.wait_for_function(READY)
    expect(page.locator(".board-title")).to_have_text("Garden — spring")
    expect(page.get_by_text("Imported 3 lists and 4 cards into “Garden — spring”; skipped 1 archived card").first).to_be_visible()
    expect(page.locator(".list-title")).to_have_text(["To do", "Doing", "Done"])
    expect(page.locator('.list[data-list]').first.locator("[data-item] > .title")).to_have_text(["Fix the shed roof", "Buy seeds"])

    page.click(".board-settings summary")
    with page.expect_download() as download:
        page.click('a[data-action="export-json"]')
    exported = json.loads(pathlib.Path(download.value.path()).read_text())
    assert exported["format"] == "dragboard-board" and exported["version"] == 1
    assert [card["title"] for card in exported["lists"][0]["cards"]] == ["Fix the shed roof", "Buy seeds"]
    assert download.value.suggested_filename == "garden-spring.json"


def test_an_export_follows_its_documented_json_schema(context, server):
    """docs/export-schema.json describes what export.json writes (checked on the demo board and a
    Trello import with labels, due dates and checklists)."""
    import jsonschema

    schema = json.loads((pathlib.Path(__file__).resolve().parents[2] / "docs" / "export-schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    page = context.new_page()
    page.goto(server.url + "/")
    answer = page.request.post(server.url + "/boards/import", data=FIXTURE.read_bytes(), headers={
        "Content-Type": "application/json", "X-CSRF-Token": next(c["value"] for c in page.context.cookies() if c["name"] == "dragboard_csrf")})
    assert answer.status == 201, answer.text()
    for location in ["/boards/demo", answer.json()["location"]]:
        exported = page.request.get(server.url + location + "/export.json").json()
        jsonschema.validate(exported, schema, cls=jsonschema.Draft202012Validator)


def _dragboard(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(_binary()), *arguments], capture_output=True, text=True, timeout=60)


def _boards(database: pathlib.Path) -> list[tuple[str, str]]:
    with sqlite3.connect(database) as connection:
        return sorted(connection.execute("SELECT id, title FROM board").fetchall())


def test_the_command_line_imports_a_trello_export_and_exports_the_same_board_again(tmp_path):
    """`dragboard import trello FILE` makes the board the form makes; `dragboard export BOARD` writes it in
    the documented format, and importing that export (`dragboard import FILE`) gives the same board."""
    import jsonschema

    database = tmp_path / "board.sqlite"
    made = _dragboard("import", "trello", str(FIXTURE), "--database", str(database))
    assert made.returncode == 0, made.stderr
    assert "Imported 3 lists and 4 cards into “Garden — spring”; skipped 1 archived card, 1 archived list" in made.stdout
    board = made.stdout.strip().rsplit("/boards/", 1)[1]

    exported = _dragboard("export", board, "--database", str(database))
    assert exported.returncode == 0, exported.stderr
    first = json.loads(exported.stdout)
    schema = json.loads((pathlib.Path(__file__).resolve().parents[2] / "docs" / "export-schema.json").read_text())
    jsonschema.validate(first, schema, cls=jsonschema.Draft202012Validator)
    assert [card["title"] for card in first["lists"][0]["cards"]] == ["Fix the shed roof", "Buy seeds"]

    again = tmp_path / "again.json"
    again.write_text(exported.stdout)
    copied = _dragboard("import", str(again), "--database", str(database))
    assert copied.returncode == 0, copied.stderr
    copy = copied.stdout.strip().rsplit("/boards/", 1)[1]
    second = json.loads(_dragboard("export", copy, "--database", str(database)).stdout)

    def without_ids(value):
        """Lists and rows get new ids; everything else (labels' ids too) is the same."""
        if isinstance(value, list):
            return [without_ids(item) for item in value]
        if isinstance(value, dict):
            return {key: without_ids(item) for key, item in value.items() if key != "id"}
        return value
    assert {key: value for key, value in second["board"].items() if key != "id"} == {
        key: value for key, value in first["board"].items() if key != "id"}
    assert without_ids(second["lists"]) == without_ids(first["lists"])

    csv = _dragboard("export", board, "--csv", "--database", str(database))
    assert csv.returncode == 0, csv.stderr
    rows = list(_csv.reader(io.StringIO(csv.stdout)))
    assert rows[0][:2] == ["list", "title"] and [row[1] for row in rows[1:]] == [
        "Fix the shed roof", "Buy seeds", "Dig the beds", "Turn the compost"], rows


def test_the_command_line_refuses_a_file_that_is_not_what_it_says_and_makes_nothing(tmp_path):
    database = tmp_path / "board.sqlite"
    assert _dragboard("import", "trello", str(FIXTURE), "--database", str(database)).returncode == 0
    before = _boards(database)
    hostile = tmp_path / "hostile.json"
    for text, words in [
        ('{"lists": 7}', "unexpected shape at .lists"),
        ("[" * 100_000, "nests deeper than 64 levels"),
        ("not json", "not valid JSON"),
    ]:
        hostile.write_text(text)
        refused = _dragboard("import", "trello", str(hostile), "--database", str(database))
        assert refused.returncode != 0 and words in refused.stderr, refused.stderr
    # A Trello export is not a Dragboard export, and a format the command does not know is refused.
    refused = _dragboard("import", "dragboard", str(FIXTURE), "--database", str(database))
    assert refused.returncode != 0 and refused.stderr.strip(), refused.stderr
    refused = _dragboard("import", "wekan", str(FIXTURE), "--database", str(database))
    assert refused.returncode != 0 and "trello or dragboard" in refused.stderr, refused.stderr
    big = tmp_path / "big.json"
    with big.open("wb") as file:
        file.truncate(50 * 1024 * 1024 + 1)
    refused = _dragboard("import", "trello", str(big), "--database", str(database))
    assert refused.returncode != 0 and "at most 50 MB" in refused.stderr, refused.stderr
    assert _boards(database) == before
