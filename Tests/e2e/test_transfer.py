"""Import and export in the browser: the index's Import form takes a Trello export and opens the new
board, which says what was imported and skipped; the Board menu's export links download the board."""
import json
import pathlib

from playwright.sync_api import expect

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
