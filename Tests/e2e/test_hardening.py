"""The board reached by a name on a LAN over plain HTTP (not a secure context), and a DNS
rebinding page that resolves its own name to this server.

Chromium resolves the test names to 127.0.0.1 itself (`--host-resolver-rules`), so the page's
origin is `http://dragboard.test:<port>`: not loopback, so `window.isSecureContext` is false and
`crypto.randomUUID` does not exist, as for a colleague opening `http://my-laptop:8080`.
"""
import pathlib
import shutil
import tempfile
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from conftest import CHROMIUM, Server
from helpers import READY, row, start_drag, title_cells, version, wait_version

LAN_NAME = "dragboard.test"
ATTACKER = "evil.example"


@pytest.fixture
def lan_server():
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-"))
    running = Server(directory / "board.sqlite", "--allowed-host", LAN_NAME).start()
    yield running
    running.stop()
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def named_browser(playwright):
    rules = f"MAP {LAN_NAME} 127.0.0.1, MAP {ATTACKER} 127.0.0.1"
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", f"--host-resolver-rules={rules}"])
    yield launched
    launched.close()


def test_drops_work_on_a_plain_http_lan_origin(named_browser, lan_server, console_errors):
    context = named_browser.new_context(viewport={"width": 1280, "height": 1000})
    page = console_errors.watch(context.new_page())
    page.goto(f"http://{LAN_NAME}:{lan_server.port}/boards/demo")
    page.wait_for_function(READY)
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("typeof crypto.randomUUID") == "undefined"

    before = version(page)
    session = start_drag(page, row(page, "cat-1", "Feather wand"))
    session.hover(row(page, "cat-2", "Bell ball"), "top")
    dropped = session.release()

    assert dropped is not None and dropped["operation"] == "move"
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Feather wand", "Bell ball"])
    assert console_errors.unexpected() == []
    context.close()


def test_a_rebinding_page_can_neither_read_the_board_nor_write(named_browser, lan_server, console_errors):
    context = named_browser.new_context()
    page = context.new_page()
    response = page.goto(f"http://{ATTACKER}:{lan_server.port}/")
    assert response.status == 421
    assert 'name="csrf-token"' not in page.content()
    context.close()

    # The attacker's script would send its own Host; any token it invents is useless too.
    token = "0123456789abcdef0123456789abcdef"
    request = urllib.request.Request(
        f"http://127.0.0.1:{lan_server.port}/api/sessions", method="POST",
        data=b'{"token":"' + token.encode() + b'","list":"cat-1","items":["x"]}',
        headers={"Host": f"{ATTACKER}:{lan_server.port}", "Origin": f"http://{ATTACKER}:{lan_server.port}",
                 "Content-Type": "application/json", "X-CSRF-Token": token, "Cookie": f"dragboard_csrf={token}"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 421
