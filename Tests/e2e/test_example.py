"""`dragboard-example`, the one-file board a developer writes on the kit, served by its own
executable and driven with the real mouse: a to-do moves to done; done refuses a copy."""
import pathlib
import re
import shutil
import subprocess
import tempfile
import os

import pytest
from playwright.sync_api import expect

from conftest import ROOT
from helpers import READY, list_of, row, start_drag, titles, version


@pytest.fixture
def example():
    """The example executable in a fresh directory holding copies of `Templates` and `Public`
    (it serves them and keeps `todo.sqlite` relative to where it runs)."""
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-example-"))
    shutil.copytree(ROOT / "Templates", directory / "Templates")
    shutil.copytree(ROOT / "Public", directory / "Public")
    binary = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    process = subprocess.Popen([str(pathlib.Path(binary) / "dragboard-example")], cwd=directory, env={**os.environ, "PORT": "0"},
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        match = re.fullmatch(r"Listening on (http://[\d.]+:\d+)\n", process.stdout.readline())
        assert match, "the example did not say where it listens"
        yield match.group(1)
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def todo_page(context, example, console_errors):
    opened = console_errors.watch(context.new_page())
    opened.goto(example + "/boards/demo")
    opened.wait_for_function(READY)
    yield opened
    assert console_errors.unexpected() == [], f"browser errors: {console_errors.unexpected()}"


def test_a_todo_moves_to_done_and_done_refuses_a_copy_with_the_reason(todo_page):
    page = todo_page
    assert titles(page, "todo") == ["Write a delegate", "Mount the routes"]
    before = version(page)

    page.keyboard.down("Alt")
    session = start_drag(page, row(page, "todo", "Mount the routes"))
    session.hover(list_of(page, "done"))
    expect(list_of(page, "done")).to_have_attribute("data-drop-operation", "forbidden")
    expect(page.locator(".drop-badge--forbidden")).to_contain_text("Done only takes moves")
    assert session.release() is None
    page.keyboard.up("Alt")
    assert version(page) == before and titles(page, "done") == []

    session = start_drag(page, row(page, "todo", "Mount the routes"))
    session.hover(list_of(page, "done"))
    expect(list_of(page, "done")).to_have_attribute("data-drop-operation", "move")
    dropped = session.release()
    assert dropped["operation"] == "move"
    expect(page.locator('[data-list="done"] [data-item]')).to_have_count(1)
    assert titles(page, "todo") == ["Write a delegate"]
    page.reload()
    page.wait_for_function("() => window.__dragboardReady === true")
    assert titles(page, "done") == ["Mount the routes"]
