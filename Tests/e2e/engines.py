"""Real browsers of every engine in a virtual X display, driven by the real X pointer and keyboard.

WebDriver's simulated drags never complete in WebKitGTK (dragstart, then nothing) nor in Firefox
(no drop, no dragend), so a drag here is made the way a person makes it: the X server's pointer
(`xdotool` under `Xvfb`) goes down on a row, moves and comes up, and the engine runs its own
native drag and drop. The automation protocols only open pages, run scripts and read the DOM:

- W3C WebDriver classic, plain JSON over HTTP (`urllib`), for WebKitWebDriver driving WebKitGTK's
  MiniBrowser and for chromedriver driving Chromium;
- Marionette, Firefox's own protocol under WebDriver (length-prefixed JSON over one TCP socket,
  the same command names as WebDriver classic), for Firefox ESR — no geckodriver, no websocket.

Only the Python standard library and Debian packages (`xvfb`, `xdotool`, `webkit2gtk-driver`,
`firefox-esr`, `chromium`, `chromium-driver`); binaries are named by path, nothing is downloaded.
Waits poll a condition in the page; nothing sleeps to synchronise.
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

#: The virtual screen; every browser window opens at (0, 0) (there is no window manager).
SCREEN = (1400, 1000)
WINDOW = (1280, 900)

MINIBROWSER = next((str(path) for path in Path("/usr/lib").glob("*/webkit2gtk-4.1/MiniBrowser")),
                   "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
WEBKIT_DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
FIREFOX = shutil.which("firefox-esr") or "/usr/bin/firefox-esr"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

ENGINES = ("webkit", "firefox", "chromium")

#: A scratch profile that asks Marionette for any free port and skips first-run pages and
#: background traffic (a quicker start, and nothing fetched from the network).
FIREFOX_PREFS = {
    "marionette.port": 0,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "extensions.update.enabled": False,
    "browser.safebrowsing.update.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
}

#: Installed in every page after it loads (the protocols offer no script before load): uncaught
#: errors, rejected promises and `console.error` end up in `window.__engineErrors`.
RECORD_ERRORS = """
window.__engineErrors = [];
addEventListener('error', (event) => window.__engineErrors.push(`${event.message} (${event.filename}:${event.lineno})`));
addEventListener('unhandledrejection', (event) => window.__engineErrors.push(`unhandled rejection: ${event.reason}`));
const consoleError = console.error;
console.error = (...parts) => { window.__engineErrors.push(parts.map(String).join(' ')); consoleError.apply(console, parts); };
return true;
"""


def wait_until(condition, what: str, timeout: float = 15.0, interval: float = 0.02):
    """Polls `condition` until it returns something truthy, and returns that."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting until {what}")
        time.sleep(interval)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _descendants(pid: int) -> list[int]:
    """The processes `pid` started, and theirs (from /proc), children first."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(parent, []).append(int(entry.name))
    found, pending = [], [pid]
    while pending:
        children = parents.get(pending.pop(), [])
        found += children
        pending += children
    return found


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state == "Z"


def _stop(process: subprocess.Popen | None, timeout: float = 10) -> None:
    """Stops a process this harness started and whatever it started in turn (a driver's
    browser must not outlive the test, holding its display)."""
    if not process:
        return
    started = _descendants(process.pid) if process.poll() is None else []
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for pid in started:
        try:
            wait_until(lambda: _gone(pid), f"process {pid} of {process.args[0]} exits", timeout)
        except AssertionError:
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass


# ---------------------------------------------------------------- the X display and its input

class Display:
    """An `Xvfb` server on the first free display number (it picks it: `-displayfd`)."""

    def __init__(self):
        self.process: subprocess.Popen | None = None
        self.name: str | None = None

    def start(self) -> "Display":
        read, write = os.pipe()
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as announced:
            number = announced.readline().strip()
        assert number.isdigit(), f"Xvfb did not start (exit {self.process.poll()})"
        self.name = f":{number}"
        return self

    def stop(self) -> None:
        _stop(self.process)

    def env(self, **extra: str) -> dict[str, str]:
        return {**os.environ, "DISPLAY": self.name, **extra}


class XInput:
    """The display's real pointer and keyboard: what the browser gets is what a person's mouse
    and keys would give it (X events, not synthetic DOM events)."""

    def __init__(self, display: Display):
        self.display = display
        self.x, self.y = None, None
        self.pressed = False

    def _xdotool(self, *arguments) -> str:
        return subprocess.run(["xdotool", *map(str, arguments)], env=self.display.env(), check=True,
                              capture_output=True, text=True, timeout=10).stdout

    def move(self, x: float, y: float) -> None:
        """Moves the pointer and waits until the X server has it there (`--sync`; xdotool would
        wait forever for a move to where the pointer already is, hence the check)."""
        if (round(x), round(y)) == (self.x, self.y):
            return
        self.x, self.y = round(x), round(y)
        self._xdotool("mousemove", "--sync", self.x, self.y)

    def down(self) -> None:
        self._xdotool("mousedown", 1)
        self.pressed = True

    def up(self) -> None:
        self._xdotool("mouseup", 1)
        self.pressed = False

    def key(self, *names: str) -> None:
        """Presses and releases each key in turn (X key names: space, Right, Escape, Return)."""
        self._xdotool("key", *names)


# ---------------------------------------------------------------- the automation protocols

class WebDriverError(AssertionError):
    pass


class ClassicSession:
    """A W3C WebDriver classic session: JSON over HTTP to a driver process."""

    def __init__(self, driver: list[str], capabilities: dict, display: Display, port: int):
        self.url = f"http://127.0.0.1:{port}"
        self.driver = subprocess.Popen(driver, env=display.env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.id = None
        try:
            wait_until(self._ready, "the WebDriver server answers")
            self.id = self._call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})["sessionId"]
        except BaseException:
            self.close()
            raise

    def _ready(self) -> bool:
        try:
            return bool(self._call("GET", "/status")["ready"])
        except (OSError, WebDriverError):
            return False

    def _call(self, method: str, path: str, body: dict | None = None):
        request = urllib.request.Request(self.url + path, method=method, headers={"Content-Type": "application/json"},
                                         data=None if body is None else json.dumps(body).encode())
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as error:
            raise WebDriverError(f"{method} {path}: {error.code} {error.read().decode(errors='replace')}") from None

    def command(self, method: str, path: str, body: dict | None = None):
        return self._call(method, f"/session/{self.id}{path}", body)

    def navigate(self, url: str) -> None:
        self.command("POST", "/url", {"url": url})

    def execute(self, script: str, *arguments):
        return self.command("POST", "/execute/sync", {"script": script, "args": list(arguments)})

    def screenshot(self) -> bytes:
        return base64.b64decode(self.command("GET", "/screenshot"))

    def delete_cookies(self) -> None:
        self.command("DELETE", "/cookie")

    def close(self) -> None:
        try:
            if self.id and self.driver.poll() is None:
                self._call("DELETE", f"/session/{self.id}")
        finally:
            _stop(self.driver)


class MarionetteSession:
    """Firefox's Marionette: `len:[0, id, "Command", {params}]` out, `len:[1, id, error, result]` back.
    Firefox listens on the port the profile asks for (0: any free one), written to
    `MarionetteActivePort` in the profile once it listens."""

    def __init__(self, profile: Path, display: Display):
        (profile / "user.js").write_text("".join(f'user_pref("{name}", {json.dumps(value)});\n' for name, value in FIREFOX_PREFS.items()))
        self.log = profile / "firefox.log"
        with self.log.open("wb") as log:
            self.browser = subprocess.Popen(
                [FIREFOX, "--marionette", "--no-remote", "--profile", str(profile),
                 "--width", str(WINDOW[0]), "--height", str(WINDOW[1]), "about:blank"],
                env=display.env(HOME=str(profile)), stdout=log, stderr=subprocess.STDOUT)
        active = profile / "MarionetteActivePort"

        def listening():
            assert self.browser.poll() is None, f"Firefox exited ({self.browser.returncode})"
            return active.exists() and active.read_text().strip()
        try:
            port = int(wait_until(listening, "Firefox listens for Marionette", 60))
        except AssertionError as error:
            _stop(self.browser)
            raise AssertionError(f"{error}; Firefox said: {self._log_tail()}") from None
        try:
            self.socket = socket.create_connection(("127.0.0.1", port), timeout=60)
            self.stream = self.socket.makefile("rb")
            self.last = 0
            hello = self._read()
            assert hello.get("marionetteProtocol") == 3, hello
            self._send("WebDriver:NewSession", {})
        except BaseException:
            _stop(self.browser)
            raise

    def _log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:]

    def _read(self):
        length = b""
        while (byte := self.stream.read(1)) != b":":
            assert byte, "Marionette closed the connection"
            length += byte
        return json.loads(self.stream.read(int(length)))

    def _send(self, name: str, parameters: dict):
        self.last += 1
        body = json.dumps([0, self.last, name, parameters]).encode()
        self.socket.sendall(str(len(body)).encode() + b":" + body)
        kind, number, error, result = self._read()
        assert (kind, number) == (1, self.last), f"Marionette answered {kind, number} to {self.last}"
        if error:
            raise WebDriverError(f"{name}: {error}")
        return result

    def navigate(self, url: str) -> None:
        self._send("WebDriver:Navigate", {"url": url})

    def execute(self, script: str, *arguments):
        return self._send("WebDriver:ExecuteScript", {"script": script, "args": list(arguments)})["value"]

    def screenshot(self) -> bytes:
        return base64.b64decode(self._send("WebDriver:TakeScreenshot", {})["value"])

    def delete_cookies(self) -> None:
        self._send("WebDriver:DeleteAllCookies", {})

    def close(self) -> None:
        try:
            if self.browser.poll() is None:
                self._send("Marionette:Quit", {"flags": ["eForceQuit"]})
        except (OSError, AssertionError):
            pass
        finally:
            self.socket.close()
            _stop(self.browser)


# ---------------------------------------------------------------- one browser window

class Browser:
    """One engine's window on the display, the page it shows, and the real input that reaches it."""

    def __init__(self, engine: str, display: Display):
        self.engine = engine
        self.display = display
        self.input = XInput(display)
        self.scratch = Path(tempfile.mkdtemp(prefix=f"dragboard-{engine}-"))
        #: Where the page's (0, 0) is on the screen, learned from the pointer (`calibrate`).
        self.origin: tuple[float, float] | None = None
        try:
            self.session = self._start()
        except BaseException:
            shutil.rmtree(self.scratch, ignore_errors=True)
            raise

    def _start(self):
        engine, display = self.engine, self.display
        if engine == "webkit":
            session = ClassicSession(
                [WEBKIT_DRIVER, f"--port={(port := free_port())}"],
                {"browserName": "MiniBrowser",
                 "webkitgtk:browserOptions": {"binary": MINIBROWSER, "args": ["--automation"]}},
                display, port)
            try:
                # MiniBrowser opens at 1024×768; the same window size as the others, the same layout.
                session.command("POST", "/window/rect", {"x": 0, "y": 0, "width": WINDOW[0], "height": WINDOW[1]})
            except BaseException:
                session.close()
                raise
            return session
        elif engine == "firefox":
            return MarionetteSession(self.scratch, display)
        elif engine == "chromium":
            return ClassicSession(
                [CHROMEDRIVER, f"--port={(port := free_port())}"],
                {"browserName": "chrome",
                 "goog:chromeOptions": {"binary": CHROMIUM, "args": [
                     "--no-sandbox", "--window-position=0,0", f"--window-size={WINDOW[0]},{WINDOW[1]}",
                     f"--user-data-dir={self.scratch}", "--no-first-run", "--disable-gpu"]}},
                display, port)
        raise ValueError(f"unknown engine {engine}")

    def forget(self) -> None:
        """Leaves the window as a next test expects it: the mouse button up (a test that failed
        mid-drag must not leave it down), no cookie of the page's host (servers of other tests
        share the host), and a blank page."""
        if self.input.pressed:
            self.input.up()
        self.session.delete_cookies()
        self.session.navigate("about:blank")

    def close(self) -> None:
        try:
            if self.input.pressed:
                self.input.up()
            self.session.close()
        finally:
            shutil.rmtree(self.scratch, ignore_errors=True)

    # -- the page

    def open(self, url: str, ready: str) -> None:
        """Navigates, waits until `ready` (a JavaScript expression) holds, starts recording errors,
        and learns where the page sits on the screen."""
        self.session.navigate(url)
        self.wait(ready, "the page is ready")
        self.execute(RECORD_ERRORS)
        self.calibrate()

    def execute(self, script: str, *arguments):
        return self.session.execute(script, *arguments)

    def value(self, expression: str, *arguments):
        return self.execute(f"return ({expression});", *arguments)

    def wait(self, expression: str, what: str, timeout: float = 15.0, *arguments):
        return wait_until(lambda: self.value(expression, *arguments), what, timeout)

    def errors(self) -> list[str]:
        return self.value("window.__engineErrors")

    # -- the screen

    def calibrate(self) -> None:
        """Moves the real pointer into the page and reads where the page saw it: the page's origin
        on the screen, whatever the engine's toolbars (MiniBrowser's, Chromium's tab strip)."""
        self.execute("window.__pointerAt = null;"
                     "addEventListener('mousemove', (event) => { window.__pointerAt = [event.clientX, event.clientY]; }, true);")
        # From outside the window, so the move surely reaches the page whatever came before.
        self.input.move(SCREEN[0] - 4, SCREEN[1] - 4)
        x, y = WINDOW[0] // 2, WINDOW[1] // 2
        self.input.move(x, y)
        client_x, client_y = self.wait("window.__pointerAt", "the page sees the pointer")
        self.origin = (x - client_x, y - client_y)

    def point(self, selector: str, fraction: float = 0.5) -> tuple[float, float]:
        """The screen point horizontally centred in the element, at `fraction` of its height
        (scrolled into view first, if need be)."""
        box = self.value("""(() => {
            const element = document.querySelector(arguments[0]);
            if (!element) return null;
            element.scrollIntoView({ block: 'nearest' });
            const rect = element.getBoundingClientRect();
            return [rect.left, rect.top, rect.width, rect.height];
        })()""", selector)
        assert box, f"no element matches {selector}"
        left, top, width, height = box
        return self.origin[0] + left + width / 2, self.origin[1] + top + height * fraction

    def screenshot(self) -> bytes:
        """The window's page as a PNG."""
        return self.session.screenshot()

    # -- the real keyboard

    def focus(self, selector: str) -> None:
        """Focuses the element (as a Tab would) and keeps the pointer over the window: with no
        window manager, X gives the keyboard to the window under the pointer."""
        assert self.value("(() => { const element = document.querySelector(arguments[0]);"
                          " element?.focus(); return element !== null && document.activeElement === element; })()",
                          selector), f"{selector} cannot take the focus"
        self.input.move(self.origin[0] + 2, self.origin[1] + 2)

    def keys(self, *names: str) -> None:
        """Real key presses (X key names: space, Return, Right, Left, Up, Down, Escape)."""
        self.input.key(*names)

    # -- the real mouse

    def press(self, source: str) -> None:
        """The real mouse goes down on the element `source` and moves past every engine's drag
        threshold, until the page's dragstart marked the row as dragged."""
        x, y = self.point(source)
        self.input.move(x, y)
        self.input.down()
        for step in range(1, 6):
            self.input.move(x, y + 3 * step)
        self.wait(f"document.querySelector({json.dumps(source)})?.classList.contains('is-dragging')",
                  "the page's dragstart marked the dragged row")

    def hover(self, target: str, over: str, fraction: float = 0.5, steps: int = 20) -> None:
        """Moves the pressed mouse in `steps` to `fraction` of the element `target`'s height, and
        holds there until `over` (a JavaScript expression: the page draws the hover feedback)."""
        x, y = map(round, self.point(target, fraction))
        start_x, start_y = self.input.x, self.input.y
        for step in range(1, steps + 1):
            self.input.move(start_x + (x - start_x) * step / steps, start_y + (y - start_y) * step / steps)
        # Engines send dragover on motion; a one-pixel wiggle keeps them coming until the page
        # has the server's proposal table in hand and draws its decision.
        wiggle = 0

        def shown():
            nonlocal wiggle
            wiggle = 1 - wiggle
            self.input.move(x + wiggle, y)
            return self.value(over)
        wait_until(shown, f"the page shows the hover feedback ({over})")

    def release(self) -> None:
        self.input.up()

    def drag(self, source: str, target: str, over: str, fraction: float = 0.5) -> None:
        """Drags `source` to `fraction` of `target` with the real mouse and drops once the page
        shows `over`."""
        self.press(source)
        self.hover(target, over, fraction)
        self.release()
