"""Browser tests: a real dragboard server (built by `make test`) on a free port with a fresh
database, and Debian's Chromium driven by Playwright with the real mouse."""
import functools
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@functools.cache
def _binary() -> pathlib.Path:
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True)
    return pathlib.Path(out.stdout.strip()) / "dragboard"


class Server:
    """A dragboard process; `restart()` keeps its database."""

    def __init__(self, database: pathlib.Path):
        self.database = database
        self.process = None
        self.url = None

    def start(self, port: int = 0):
        self.process = subprocess.Popen(
            [str(_binary()), "--port", str(port), "--database", str(self.database),
             "--public", str(ROOT / "Public"), "--templates", str(ROOT / "Templates"), "--log-level", "warning"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.fullmatch(r"Listening on (http://[\d.]+:(\d+))\n", line)
        assert match, f"unexpected first line: {line!r}"
        self.url, self.port = match.group(1), int(match.group(2))
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            assert self.process.wait(timeout=10) == 0, "dragboard did not stop cleanly on SIGTERM"

    def restart(self):
        self.stop()
        return self.start(self.port)


@pytest.fixture
def server():
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-"))
    running = Server(directory / "board.sqlite").start()
    yield running
    running.stop()
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def context(browser):
    created = browser.new_context(viewport={"width": 1280, "height": 1000})
    yield created
    created.close()


@pytest.fixture
def page(context, server):
    opened = context.new_page()
    errors = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    opened.goto(server.url)
    opened.wait_for_function("document.querySelector('[data-board]') && window.__dragboardReady === true")
    yield opened
    assert errors == [], f"browser errors: {errors}"
