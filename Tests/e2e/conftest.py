"""Browser tests: a real dragboard server (built by `make test`) on a free port with a fresh
database, and Debian's Chromium driven by Playwright with the real mouse."""
import functools
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import uuid

import pytest
from playwright.sync_api import Page, sync_playwright

from helpers import READY

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "postgres"))
import cluster as postgres_cluster  # noqa: E402
# Debian's Chromium built as a headless shell (package chromium-headless-shell, the same engine and version
# as `chromium`, and what Playwright itself runs headless): the browser tests take about half the CPU of the
# full browser's headless mode. test_engines.py drives the full Chromium with a real X mouse.
CHROMIUM = shutil.which("chromium-headless-shell") or "/usr/bin/chromium-headless-shell"


def _ram_scratch() -> str | None:
    """A RAM disk for the scratch files of the tests (each server's database, each engine's profile), unless
    TMPDIR names a place: the server commits every change with fsync (synchronous=FULL), a few ms each on a
    disk, and the tests make thousands of commits. Nothing here survives a machine crash and nothing needs to:
    restarts and kill -9 keep the files all the same. Only with room to spare (a container's /dev/shm may be 64 MB)."""
    if os.environ.get("TMPDIR") or not os.access("/dev/shm", os.W_OK):
        return None
    stats = os.statvfs("/dev/shm")
    return "/dev/shm" if stats.f_bavail * stats.f_frsize >= 1 << 30 else None


tempfile.tempdir = _ram_scratch() or tempfile.gettempdir()

_FUNCTION = re.compile(r"\s*(async\s+)?(function\b|\(|[A-Za-z_$][\w$]*\s*=>)")
_wait_for_function = Page.wait_for_function


def _wait_for_a_function(self, expression, *args, **kwargs):
    """A predicate given as an expression passes whenever it is true at the first look (evaluated under
    DevTools) and fails under the page's CSP whenever it is not (Playwright `eval`s it on each later poll):
    refused here at once, whatever the timing, so such a wait cannot slip in as a flake."""
    if not _FUNCTION.match(expression):
        raise AssertionError(f"wait_for_function needs a function, not an expression: {expression!r}")
    return _wait_for_function(self, expression, *args, **kwargs)


Page.wait_for_function = _wait_for_a_function


@functools.cache
def _binary() -> pathlib.Path:
    """The debug server SwiftPM built (asked once per process: each `swift build --show-bin-path` costs a
    quarter of a second and waits on SwiftPM's lock while another process asks)."""
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True)
    return pathlib.Path(out.stdout.strip()) / "dragboard"


class Server:
    """A dragboard process; `restart()` keeps its database."""

    def __init__(self, database: pathlib.Path, *arguments: str):
        self.database = database
        self.arguments = list(arguments)
        self.process = None
        self.url = None

    def start(self, port: int = 0):
        return self.launch(port).ready()

    def launch(self, port: int = 0):
        """Starts the process and returns at once; `ready()` waits for it to listen."""
        self.process = subprocess.Popen(
            [str(_binary()), "--port", str(port), "--database", str(self.database),
             "--public", str(ROOT / "Public"), "--templates", str(ROOT / "Templates"), "--log-level", "warning",
             *self.arguments],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return self

    def ready(self):
        line = self.process.stdout.readline()
        match = re.fullmatch(r"Listening on (http://[\d.]+:(\d+))\n", line)
        assert match, f"unexpected first line: {line!r}"
        self.url, self.port = match.group(1), int(match.group(2))
        self.demo = self.url + "/boards/demo"   # the showcase board
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            assert self.process.wait(timeout=10) == 0, "dragboard did not stop cleanly on SIGTERM"

    def restart(self):
        self.stop()
        return self.start(self.port)

    def users(self, *arguments: str, password: str | None = None, check: bool = True) -> subprocess.CompletedProcess:
        """Runs `dragboard users …` on this server's database (also while it runs); `password` is
        the first line of standard input. With `check`, a failure fails the test with what it said."""
        done = subprocess.run([str(_binary()), "users", *arguments, "--database", str(self.database)],
                              cwd=ROOT, input="" if password is None else password + "\n", capture_output=True, text=True, timeout=30)
        assert not check or done.returncode == 0, f"dragboard users {' '.join(arguments)}: {done.returncode} {done.stderr}"
        return done


class SpareServer:
    """The next test's server, started while this test runs: nearly every test needs a fresh one, and a
    start (the debug build's, with its demo board) waits ~0.15 s on an idle machine and ~0.5 s on a busy
    one, which the test would otherwise wait through before its browser could load a page."""

    def __init__(self):
        self.waiting: Server | None = None

    @staticmethod
    def launch() -> Server:
        return Server(pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-")) / "board.sqlite").launch()

    def take(self) -> Server:
        taken = self.waiting or self.launch()
        try:
            self.waiting = self.launch()
        except OSError:   # the binary is being relinked ("Text file busy"): the next test launches its own
            self.waiting = None
        return taken.ready()

    def close(self):
        if self.waiting:   # listening first: stop() expects the clean exit of a server that has started
            discard(self.waiting.ready())


def discard(running: Server):
    running.stop()
    shutil.rmtree(running.database.parent, ignore_errors=True)


@pytest.fixture(scope="session")
def spare_server():
    spare = SpareServer()
    yield spare
    spare.close()


@pytest.fixture
def server(spare_server):
    running = spare_server.take()
    yield running
    discard(running)


@pytest.fixture(scope="session")
def postgres_url():
    """A real PostgreSQL server for the session: `make test`'s (DRAGBOARD_TEST_POSTGRES_URL), else a throw-away
    cluster of our own. Where PostgreSQL is missing (`make test` installs it) or does not start, the tests fail
    and say why."""
    shared = os.environ.get("DRAGBOARD_TEST_POSTGRES_URL")
    if shared:
        yield shared
        return
    ok, why_not = postgres_cluster.available()
    if not ok:
        pytest.fail(f"*** PostgreSQL is needed and missing: {why_not} (`make test` installs it) ***")
    with postgres_cluster.Cluster() as running:
        yield running.url


@pytest.fixture
def fresh_postgres_database(postgres_url):
    """The URL of a new, empty database of its own for one test (the three browser-test processes share
    `make test`'s server, hence a random name), dropped afterwards."""
    name = f"test_{uuid.uuid4().hex[:16]}"
    url = postgres_cluster.create_database(postgres_url, name)
    yield url
    postgres_cluster.drop_database(postgres_url, name)


@pytest.fixture(scope="session")
def playwright():
    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="session")
def browser(playwright):
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    yield launched
    launched.close()


@pytest.fixture
def context(browser):
    # Wide enough for the demo's six lists side by side (the board's lists stand in one row; a
    # real-mouse drag reaches only what is on the screen).
    created = browser.new_context(viewport={"width": 1800, "height": 1000})
    yield created
    created.close()


class ConsoleErrors:
    """What the pages of a test logged as errors (and their uncaught exceptions).

    A test may declare an error it provokes on purpose, by its text and the URL it is about:
    Chromium itself logs "Failed to load resource: the server responded with a status of 415"
    when a request of the page is refused, whatever the page does with the answer."""

    def __init__(self):
        self.seen: list[tuple[str, str]] = []
        self.expected: list[tuple[re.Pattern, re.Pattern]] = []

    def watch(self, page):
        page.on("pageerror", lambda error: self.seen.append((str(error), "")))
        page.on("console", lambda message: self.seen.append((message.text, message.location.get("url", "")))
                if message.type == "error" else None)
        return page

    def expect(self, text: str, url: str):
        """Tolerates errors whose text and URL match these regular expressions."""
        self.expected.append((re.compile(text), re.compile(url)))

    def expect_outage(self):
        """Tolerates what Chromium logs of each request a stopped or restarting server refused (the
        page's live connection and its catch-up fetch notice the outage, as they should)."""
        self.expect(r"ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE|Failed to load resource", r".*")

    def unexpected(self) -> list[str]:
        return [f"{text} ({url})" if url else text for text, url in self.seen
                if not any(text_re.search(text) and url_re.search(url) for text_re, url_re in self.expected)]


@pytest.fixture
def console_errors():
    return ConsoleErrors()


@pytest.fixture
def page(context, server, console_errors):
    opened = console_errors.watch(context.new_page())
    opened.goto(server.demo)
    opened.wait_for_function(READY)
    yield opened
    assert console_errors.unexpected() == [], f"browser errors: {console_errors.unexpected()}"


@pytest.fixture
def api(page, server):
    """The session API called directly with `page`'s cookie and CSRF token."""
    from data_helpers import Api
    return Api(page, server.url)


@pytest.fixture
def intruder(browser, server):
    """The session API as another browser (its own cookies and CSRF token) calls it."""
    from data_helpers import Api
    other = browser.new_context()
    try:
        opened = other.new_page()
        opened.goto(server.demo)
        yield Api(opened, server.url)
    finally:
        other.close()
