"""Dragboard behind Debian's nginx (issue #25): the files of deploy/, which docs/deploy.md shows, run as they are.

nginx runs as the test user with a temporary prefix and deploy/nginx.conf as its one site, only its
listen addresses, certificate (a throw-away one for localhost), upstream port and (its port is not
443) Host line substituted; the server runs with deploy/dragboard.service's own ExecStart, only its
port, database and log level substituted. Through them: a real-mouse drag in one tab reaches another
tab live (TLS, HTTP/2, the event stream unbuffered); the server counts a client by the address nginx
saw, never by an X-Forwarded-For the client forged; cookies are Secure because nginx, a trusted
proxy, says HTTPS, and not because anyone else does; the Host, /metrics, plain-HTTP and upload rules
of the site hold. The unit's --trusted-proxy makes the server refuse to start with no account (nginx
brings everyone's requests from loopback), so each server's database gets its first account before it
starts, as docs/deploy.md says, and the browsers and clients sign in. Then two instances of deploy/dragboard@.service on one PostgreSQL database behind
deploy/nginx-instances.conf's upstream; `systemd-analyze verify` on the units; the guide's copies.
Nothing sleeps: nginx and the servers are ready when they say so, and log lines are waited for.
"""
import http.client
import json
import os
import pathlib
import re
import secrets
import shlex
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import uuid
from urllib.parse import quote, urlencode

import pytest
from playwright.sync_api import expect

from conftest import ROOT, Server, _binary
from data_helpers import large_png_bytes
from helpers import READY, RECORD_SSE, board_state, drag, row, title_cells, version, wait_version

DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
#: The public name of deploy/: the unit's --allowed-host and the site's server_name.
PUBLIC_NAME = "boards.example.org"
#: What a client puts first in X-Forwarded-For to pass for someone else (TEST-NET-3).
FORGED = "203.0.113.7"
#: The servers here hold few streams per address, so a share fills with a handful of requests.
STREAMS_PER_ADDRESS = 2
#: The first account, added to each server's database before it starts (docs/deploy.md, section 3).
ADMIN, PASSWORD = "alice", "a long password here"
SESSION = "dragboard_session"


class Lines:
    """The lines a process writes to a pipe, read by a thread as they come (the pipe never fills up).
    Several may share one condition, so that a wait can watch them all (`first_to_log`)."""

    def __init__(self, stream, changed: threading.Condition | None = None):
        self.lines: list[str] = []
        self.closed = False
        self.changed = changed or threading.Condition()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in stream:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    def search(self, compiled: re.Pattern) -> re.Match | None:
        return next((match for line in self.lines if (match := compiled.search(line))), None)

    def wait_for(self, pattern: str, timeout: float = 10) -> re.Match:
        return first_to_log([self], pattern, timeout)[1]


def first_to_log(logs: list[Lines], pattern: str, timeout: float = 10) -> tuple[int, re.Match]:
    """The index of the first of `logs` (sharing one condition) to hold a line matching `pattern`, and the match."""
    compiled, deadline, changed = re.compile(pattern), time.monotonic() + timeout, logs[0].changed
    assert all(log.changed is changed for log in logs)
    with changed:
        while True:
            found = next(((index, match) for index, log in enumerate(logs) if (match := log.search(compiled))), None)
            if found:
                return found
            left = deadline - time.monotonic()
            assert not all(log.closed for log in logs) and left > 0, \
                f"no line matches {pattern!r}; the last ones:\n" + "\n\n".join("\n".join(log.lines[-20:]) for log in logs)
            changed.wait(left)


# ---------------------------------------------------------------- the server, as the unit starts it

def unit_command(unit: str, values: dict[str, str], *extra: str) -> list[str]:
    """The ExecStart of `unit` (a file of deploy/) for this machine: the built binary, and the value
    after each flag of `values` replaced (each must be there once); `extra` flags added."""
    text = (DEPLOY / unit).read_text()
    starts = re.findall(r"^ExecStart=(.+)$", text, flags=re.M)
    assert len(starts) == 1, f"{unit} has {len(starts)} ExecStart lines"
    words = shlex.split(starts[0])
    assert words[0] == "/opt/dragboard/dragboard", words[0]
    for flag, value in values.items():
        assert words.count(flag) == 1, f"the ExecStart of {unit} should name {flag} once: {starts[0]}"
        words[words.index(flag) + 1] = value
    return [str(_binary()), *words[1:], *extra]


def with_first_account(server: Server) -> Server:
    """`server`, its database holding the admin account: without one, a server behind a proxy refuses to start."""
    server.users("add", ADMIN, "--admin", password=PASSWORD)
    return server


def single_instance(database: pathlib.Path, *extra: str, **flags: str) -> list[str]:
    """deploy/dragboard.service's command on a free port and a test database, with a log line for every
    request; `flags` (`trusted_proxy="…"`) replace more of its values."""
    return unit_command("dragboard.service", {"--port": "0", "--database": str(database), "--log-level": "info",
                                              **{"--" + name.replace("_", "-"): value for name, value in flags.items()}}, *extra)


class UnitServer(Server):
    """A dragboard process started with a unit's command line; its log in `log`."""

    def __init__(self, database, command: list[str], environment: dict[str, str] | None = None,
                 changed: threading.Condition | None = None):
        super().__init__(database)
        self.command, self.environment, self.changed = command, environment, changed

    def launch(self, port: int = 0):
        # The working directory holds Public/ and Templates/, as the unit's WorkingDirectory does.
        self.process = subprocess.Popen(self.command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env={**os.environ, **(self.environment or {})})
        self.log = Lines(self.process.stderr, self.changed)
        return self

    def remote_of(self, path: str) -> str:
        """The client address the server logged for its request of `path`."""
        return self.log.wait_for(rf"http\.path={re.escape(path)} http\.remote=(\S+)").group(1)


# ---------------------------------------------------------------- nginx, with deploy/nginx.conf as its site

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def substituted(text: str, replacements: list[tuple[str, str]]) -> str:
    """`text` with each exact line fragment replaced; each must be there exactly once, so a change of
    deploy/nginx.conf that the test would no longer follow fails here, not silently."""
    for old, new in replacements:
        assert text.count(old) == 1, f"deploy/nginx.conf should hold {old!r} once"
        text = text.replace(old, new)
    return text


class Nginx:
    """Debian's nginx as this user: a main configuration of our own (temporary paths, no `user` change
    unless we are root, whose workers would otherwise run as nobody) around the site."""

    def __init__(self, directory: pathlib.Path, upstreams: list[int], certificate: tuple[pathlib.Path, pathlib.Path]):
        self.directory = directory
        self.https, self.http = free_port(), free_port()
        site = (DEPLOY / "nginx.conf").read_text()
        if len(upstreams) == 1:
            site = substituted(site, [("server 127.0.0.1:8080;", f"server 127.0.0.1:{upstreams[0]};")])
        else:   # the site with deploy/nginx-instances.conf's upstream block, as docs/deploy.md says
            block = substituted((DEPLOY / "nginx-instances.conf").read_text(), [
                (f"server 127.0.0.1:{8081 + index};", f"server 127.0.0.1:{port};") for index, port in enumerate(upstreams)])
            found = re.findall(r"^upstream dragboard \{\n(?:    .*\n)*\}\n", site, flags=re.M)
            assert len(found) == 1, "deploy/nginx.conf should hold one `upstream dragboard` block"
            site = site.replace(found[0], block)
        site = substituted(site, [
            ("listen 80;", f"listen 127.0.0.1:{self.http};"),
            ("    listen [::]:80;\n", ""),
            ("listen 443 ssl http2;", f"listen 127.0.0.1:{self.https} ssl http2;"),
            ("    listen [::]:443 ssl http2;\n", ""),
            (f"/etc/letsencrypt/live/{PUBLIC_NAME}/fullchain.pem", str(certificate[0])),
            (f"/etc/letsencrypt/live/{PUBLIC_NAME}/privkey.pem", str(certificate[1])),
            # On another port than 443 the browser's Origin names the port, and $host does not: the
            # variant docs/deploy.md gives for such a port (the server compares a write's Origin with Host).
            ("proxy_set_header Host $host;", "proxy_set_header Host $host:$server_port;"),
        ])
        (directory / "site.conf").write_text(site)
        temporary = "\n".join(f"    {kind}_temp_path {directory / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (directory / "nginx.conf").write_text(f"""{'user root;' if os.geteuid() == 0 else ''}
worker_processes 1;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    gzip on;                      # as Debian's nginx.conf has it: the event stream must not be held by it
    access_log {directory / 'access.log'};
{temporary}
    include {directory / 'site.conf'};
}}
""")
        self.base = f"https://localhost:{self.https}"

    def start(self) -> "Nginx":
        directory = self.directory
        self.process = subprocess.Popen(
            [NGINX, "-p", str(directory), "-c", str(directory / "nginx.conf"),
             "-g", f"daemon off; pid {directory / 'nginx.pid'}; error_log stderr notice;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.log = Lines(self.process.stderr)
        # Logged once the configuration is loaded and its sockets listen: connections queue from then on.
        self.log.wait_for(r"start worker processes")
        return self

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def certificate():
    """A self-signed certificate for localhost, as certbot's fullchain.pem and privkey.pem stand in deploy/."""
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-tls-"))
    cert, key = directory / "fullchain.pem", directory / "privkey.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    yield cert, key
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def deployed(certificate):
    """Starts a server with the unit's command line (`flags` change it, `extra` adds to it) and nginx in
    front of it; returns (server, nginx). Everything started is stopped afterwards."""
    started = []

    def start(*extra: str, **flags: str) -> tuple[UnitServer, Nginx]:
        directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-nginx-"))
        database = directory / "board.sqlite"
        server = with_first_account(UnitServer(database, single_instance(database, *extra, **flags)))
        started.append((server, None, directory))
        server.start()
        proxy = Nginx(directory, [server.port], certificate)
        started[-1] = (server, proxy, directory)
        proxy.start()
        return server, proxy

    yield start
    for server, proxy, directory in reversed(started):
        if proxy:
            proxy.stop()
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


# ---------------------------------------------------------------- plain clients

def tls() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE   # the throw-away certificate
    return context


def connect(proxy: Nginx, source: str = "127.0.0.1") -> http.client.HTTPSConnection:
    """A connection to nginx's HTTPS side from `source` (any 127.x address is this machine)."""
    return http.client.HTTPSConnection("127.0.0.1", proxy.https, context=tls(), source_address=(source, 0), timeout=10)


def fetch(connection: http.client.HTTPConnection, path: str, headers: dict | None = None, method: str = "GET",
          body: bytes | None = None) -> tuple[int, http.client.HTTPMessage, bytes]:
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    return response.status, response.headers, response.read()


def open_stream(proxy: Nginx, source: str, signed_in: "SignIn") -> tuple[http.client.HTTPSConnection, http.client.HTTPResponse]:
    """The demo board's event stream through nginx from `source`, signed in, claiming to be FORGED; the
    answer's head has arrived (a 200 stream stays open until its connection is closed)."""
    connection = connect(proxy, source)
    connection.request("GET", "/boards/demo/events", headers={"Accept": "text/event-stream", "X-Forwarded-For": FORGED,
                                                               "Cookie": signed_in.cookie})
    return connection, connection.getresponse()


def set_cookie(headers: http.client.HTTPMessage, name: str) -> str:
    cookies = [value for value in headers.get_all("Set-Cookie") or [] if value.startswith(f"{name}=")]
    assert len(cookies) == 1, f"expected the cookie {name}: {headers.get_all('Set-Cookie')}"
    return cookies[0]


def csrf_cookie(headers: http.client.HTTPMessage) -> str:
    return set_cookie(headers, "dragboard_csrf")


def cookie_value(header: str) -> str:
    return header.split(";")[0].split("=", 1)[1]


class SignIn:
    """A plain client's sign-in: the Cookie header it sends, the token its writes echo (the sign-in's,
    which its pages carry), and the Set-Cookie that started it."""

    def __init__(self, connection: http.client.HTTPConnection):
        # As the sign-in page's form posts: its csrf field, which is the browser's CSRF cookie.
        status, headers, _ = fetch(connection, "/login")
        assert status == 200, status
        browser_token = cookie_value(csrf_cookie(headers))
        status, headers, body = fetch(connection, "/login", {"Cookie": f"dragboard_csrf={browser_token}",
                                                             "Content-Type": "application/x-www-form-urlencoded"}, "POST",
                                      urlencode({"csrf": browser_token, "username": ADMIN, "password": PASSWORD,
                                                 "next": "/boards/demo"}).encode())
        assert (status, headers["Location"]) == (303, "/boards/demo"), (status, body[:300])
        self.set_cookie = set_cookie(headers, SESSION)
        self.cookie = f"{SESSION}={cookie_value(self.set_cookie)}"
        status, _, body = fetch(connection, "/boards/demo", {"Cookie": self.cookie})
        assert status == 200, status
        self.token = re.search(rb'<meta name="csrf-token" content="([0-9a-f]+)">', body).group(1).decode()
        assert self.token != browser_token, "a sign-in carries a token of its own"


def sign_in(page, base: str, next_path: str = "/"):
    """Signs `page`'s browser in through the sign-in page's form, as a person would; it lands on `next_path`."""
    page.goto(f"{base}/login?next={quote(next_path, safe='/')}")
    form = page.locator('form[data-form="login"]')
    form.locator('input[name="username"]').fill(ADMIN)
    form.locator('input[name="password"]').fill(PASSWORD)
    with page.expect_navigation():
        form.locator('button[type="submit"]').click()
    assert page.url == base + next_path, page.url


# ---------------------------------------------------------------- the tests

def test_behind_the_proxy_a_server_with_no_account_refuses_to_start():
    """The unit's command on a database with no account: nginx would bring everyone's requests from
    loopback, and with no account to sign in to, everyone would get every board. The server says so
    and exits before it listens."""
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-nginx-"))
    try:
        done = subprocess.run(single_instance(directory / "board.sqlite"), cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode != 0 and "Listening on" not in done.stdout, (done.returncode, done.stdout)
        assert "no account exists, and a reverse proxy brings other machines' requests" in done.stderr, done.stderr
        assert "dragboard users add NAME --admin" in done.stderr, done.stderr
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def test_a_drag_through_nginx_reaches_another_tab_live(deployed, browser, console_errors):
    _, proxy = deployed()
    context = browser.new_context(viewport={"width": 1800, "height": 1000}, ignore_https_errors=True)
    try:
        page = console_errors.watch(context.new_page())
        other = console_errors.watch(context.new_page())
        other.add_init_script(RECORD_SSE)
        sign_in(page, proxy.base, "/boards/demo")   # the tabs share the browser's sign-in
        for opened in (page, other):
            opened.goto(f"{proxy.base}/boards/demo")
            opened.wait_for_function(READY)
        # Over TLS and HTTP/2 (both tabs' streams share one connection), with the cookies marked Secure
        # because nginx told the server the page came over HTTPS.
        assert page.evaluate("() => performance.getEntriesByType('navigation')[0].nextHopProtocol") == "h2"
        assert [cookie["secure"] for cookie in context.cookies() if cookie["name"] in ("dragboard_csrf", SESSION)] == [True, True]
        other.wait_for_function("() => window.__sse.some(([type]) => type === 'hello')")
        other.evaluate("() => { window.__sameDocument = true; }")
        before = version(page)

        page.bring_to_front()
        drag(page, row(page, "cat-1", "Ball of yarn"), row(page, "cat-2", "Laser pointer"), position="top")
        wait_version(page, before + 1)
        expect(title_cells(page, "cat-2")).to_have_text(["Ball of yarn", "Laser pointer", "Bell ball"])

        # The other tab hears of it through nginx's stream, without a reload.
        wait_version(other, before + 1)
        expect(title_cells(other, "cat-2")).to_have_text(["Ball of yarn", "Laser pointer", "Bell ball"])
        assert other.evaluate("() => window.__sameDocument") is True
        assert other.evaluate("() => window.__sse.filter(([type]) => type === 'changes').length") == 1
        assert board_state(other) == board_state(page)
        assert console_errors.unexpected() == [], f"browser errors: {console_errors.unexpected()}"
    finally:
        context.close()


def test_the_server_counts_the_client_nginx_saw_not_the_one_it_claims(deployed):
    """Every client here forges X-Forwarded-For; nginx appends the address it saw and the server
    believes that last entry only: its per-address share of live streams follows it."""
    server, proxy = deployed("--event-streams-per-address", str(STREAMS_PER_ADDRESS))
    signed_in = SignIn(connect(proxy))   # one person: the share is counted by address, not by sign-in
    held = []
    try:
        for _ in range(STREAMS_PER_ADDRESS):
            held.append(open_stream(proxy, "127.0.0.5", signed_in))
            assert held[-1][1].status == 200
        # 127.0.0.5's share is full, whatever it claims to be …
        connection, refused = open_stream(proxy, "127.0.0.5", signed_in)
        assert refused.status == 429, refused.status
        assert json.loads(refused.read())["error"]["code"] == "too_many_streams_from_address"
        connection.close()
        # … and another client claiming the same address is not charged for it: nginx, the peer of
        # every request, is not the client either.
        held.append(open_stream(proxy, "127.0.0.6", signed_in))
        assert held[-1][1].status == 200
    finally:
        for connection, _ in held:
            connection.close()
    path = f"/probe-{uuid.uuid4().hex}"
    status, _, _ = fetch(connect(proxy, "127.0.0.5"), path, {"X-Forwarded-For": FORGED})
    assert status == 404
    assert server.remote_of(path) == "127.0.0.5"


def test_cookies_are_secure_only_when_the_trusted_proxy_says_https(deployed):
    _, proxy = deployed()
    connection = connect(proxy)
    # The sign-in page (the one page served before signing in) sets the browser's CSRF cookie, …
    status, headers, _ = fetch(connection, "/login")
    assert status == 200
    assert re.search(r";\s*Secure\b", csrf_cookie(headers)), csrf_cookie(headers)
    # … and signing in the sign-in cookie, which a page then needs.
    status, headers, _ = fetch(connection, "/boards/demo")
    assert (status, headers["Location"]) == (401, None), (status, headers["Location"])
    signed_in = SignIn(connection)
    assert re.search(r";\s*Secure\b", signed_in.set_cookie), signed_in.set_cookie

    # The same words sent to a server by a peer that is not its proxy are the client's own: ignored.
    untrusting, _ = deployed(trusted_proxy="127.0.0.9")
    direct = http.client.HTTPConnection("127.0.0.1", untrusting.port, timeout=10)
    status, headers, _ = fetch(direct, "/login", {"X-Forwarded-Proto": "https", "X-Forwarded-For": FORGED})
    assert status == 200
    assert not re.search(r"\bSecure\b", csrf_cookie(headers)), csrf_cookie(headers)
    assert untrusting.remote_of("/login") == "127.0.0.1"


def test_the_site_forwards_the_host_and_keeps_metrics_and_plain_http_out(deployed):
    server, proxy = deployed()
    connection = connect(proxy)
    # The Host nginx forwards is the browser's: the unit's --allowed-host name is served, another is
    # refused by the server (421), as a DNS-rebinding page's would be.
    status, headers, body = fetch(connection, "/healthz", {"Host": PUBLIC_NAME})
    assert (status, json.loads(body)) == (200, {"status": "ok"})
    assert headers["Strict-Transport-Security"] == "max-age=31536000"
    status, _, body = fetch(connection, "/healthz", {"Host": "elsewhere.example"})
    assert status == 421 and json.loads(body)["error"]["code"] == "misdirected_request", (status, body)

    # /metrics is nginx's 403, though the server itself would answer this machine.
    status, _, body = fetch(connection, "/metrics")
    assert status == 403 and b"nginx" in body, (status, body[:200])
    status, _, body = fetch(http.client.HTTPConnection("127.0.0.1", server.port, timeout=10), "/metrics")
    assert status == 200 and b"# TYPE" in body

    # Plain HTTP is sent to HTTPS.
    status, headers, _ = fetch(http.client.HTTPConnection("127.0.0.1", proxy.http, timeout=10), "/boards/demo?x=1",
                               {"Host": PUBLIC_NAME})
    assert (status, headers["Location"]) == (301, f"https://{PUBLIC_NAME}/boards/demo?x=1")


def test_a_file_of_nearly_20_mb_dropped_from_another_app_passes_nginx(deployed):
    """nginx's own limit is 1 MB unless the site raises it: the upload reaches the server whole. (Sent
    as the page's script sends it, by a plain client: Playwright's request API takes seconds for 19 MB.)"""
    _, proxy = deployed()
    connection = connect(proxy)
    signed_in = SignIn(connection)
    browser_headers = {"Cookie": signed_in.cookie, "X-CSRF-Token": signed_in.token, "Content-Type": "application/json"}
    session = secrets.token_hex(16)
    status, _, body = fetch(connection, "/api/sessions/external", browser_headers, "POST",
                            json.dumps({"token": session, "types": [], "files": ["image/png"]}).encode())
    assert status == 201, body
    content, _, _ = large_png_bytes(19)
    status, _, body = fetch(connection, f"/api/sessions/{session}/files", {**browser_headers, "Content-Type": "image/png",
                                                                          "X-File-Name": "picture.png"}, "POST", content)
    assert status == 201, body[:300]
    assert json.loads(body)["size"] == len(content)


def test_two_instances_behind_the_upstream_share_the_board_and_keep_each_browser_on_one(
        certificate, fresh_postgres_database, browser, console_errors):
    """deploy/dragboard@.service twice on one PostgreSQL database, behind the site with
    deploy/nginx-instances.conf's upstream: a browser's drag goes to one instance from begin to end,
    and a browser held by the other instance sees it live."""
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-nginx-"))
    (directory / "images").mkdir()
    changed = threading.Condition()
    command = unit_command("dragboard@.service", {"--port": "0", "--images": str(directory / "images"), "--log-level": "info"})
    instances = [UnitServer(fresh_postgres_database, command, {"DRAGBOARD_DATABASE_URL": fresh_postgres_database}, changed)
                 for _ in range(2)]
    with_first_account(instances[0])   # the database the two share
    proxy = None
    contexts = []
    try:
        for instance in instances:
            instance.start()
        proxy = Nginx(directory, [instance.port for instance in instances], certificate).start()

        # A browser's cookies pick its instance (its sign-in's and its CSRF cookie): each browser signs
        # in, then takes a CSRF cookie that, with its sign-in, nginx sends to the instance it is meant for.
        connection = connect(proxy)
        pages = []
        for index in (0, 1):
            context = browser.new_context(viewport={"width": 1800, "height": 1000}, ignore_https_errors=True)
            contexts.append(context)
            context.add_cookies([{"name": "dragboard_csrf", "value": uuid.uuid4().hex, "url": proxy.base}])
            pages.append(console_errors.watch(context.new_page()))
            sign_in(pages[index], proxy.base, "/boards/demo")
            session = next(cookie["value"] for cookie in context.cookies() if cookie["name"] == SESSION)
            for _ in range(64):   # each cookie lands on either instance: 64 misses in a row would take a 2^-64 chance
                token, path = uuid.uuid4().hex, f"/probe-{uuid.uuid4().hex}"
                assert fetch(connection, path, {"Cookie": f"{SESSION}={session}; dragboard_csrf={token}"})[0] == 404
                if first_to_log([instance.log for instance in instances], rf"http\.path={path} ")[0] == index:
                    break
            else:
                raise AssertionError(f"nginx sent 64 cookies of one sign-in to instance {1 - index} only")
            context.add_cookies([{"name": "dragboard_csrf", "value": token, "url": proxy.base}])
            assert [cookie["value"] for cookie in context.cookies() if cookie["name"] == "dragboard_csrf"] == [token]
            if index == 1:
                pages[1].add_init_script(RECORD_SSE)
            pages[index].goto(f"{proxy.base}/boards/demo")
            pages[index].wait_for_function(READY)
        page, other = pages
        other.wait_for_function("() => window.__sse.some(([type]) => type === 'hello')")
        before = version(page)

        page.bring_to_front()
        session = drag(page, row(page, "cat-1", "Ball of yarn"), row(page, "cat-2", "Laser pointer"), position="top")
        assert session.dropped and session.dropped.get("operation") == "move", session.dropped
        wait_version(other, before + 1)
        expect(title_cells(other, "cat-2")).to_have_text(["Ball of yarn", "Laser pointer", "Bell ball"])
        assert board_state(other) == board_state(page)
        # Begin, targets, drop and end all reached the first instance, none the second.
        instances[0].log.wait_for(rf"http\.path=/api/sessions/{session.token}/end ")
        assert [line for line in instances[1].log.lines if session.token in line] == []
        assert console_errors.unexpected() == [], f"browser errors: {console_errors.unexpected()}"
    finally:
        for context in contexts:
            context.close()
        if proxy:
            proxy.stop()
        for instance in instances:
            instance.stop()
        shutil.rmtree(directory, ignore_errors=True)


def test_the_units_are_ones_systemd_accepts():
    """`systemd-analyze verify` on both units, in a root of their own holding the system's units and an
    executable where ExecStart looks for one (the units' command lines themselves run in the tests above)."""
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze (Debian's systemd package) is needed to check deploy/*.service"
    root = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-unit-"))
    try:
        shutil.copytree("/lib/systemd/system", root / "lib/systemd/system", symlinks=True)
        units = root / "etc/systemd/system"
        units.mkdir(parents=True)
        for unit in ("dragboard.service", "dragboard@.service"):
            shutil.copy(DEPLOY / unit, units)
        binary = root / "opt/dragboard/dragboard"
        binary.parent.mkdir(parents=True)
        binary.write_text("#!/bin/sh\n")
        binary.chmod(0o755)
        done = subprocess.run([analyze, "verify", f"--root={root}", str(units / "dragboard.service"), str(units / "dragboard@8081.service")],
                              capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stdout + done.stderr) == (0, ""), done.stdout + done.stderr
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_the_guide_shows_the_files_that_are_tested():
    """docs/deploy.md shows every file of deploy/ whole, as it is: each of its nginx and ini blocks is one
    of them, and each of them is one of its blocks."""
    guide = (ROOT / "docs" / "deploy.md").read_text()
    shown = [body for body in re.findall(r"^```(?:nginx|ini)\n(.*?)^```$", guide, flags=re.M | re.S)]
    files = {path.name: path.read_text() for path in sorted(DEPLOY.iterdir()) if path.is_file()}
    assert sorted(files) == ["dragboard.service", "dragboard@.service", "nginx-instances.conf", "nginx.conf"]
    assert [body for body in shown if body not in files.values()] == [], "a block of docs/deploy.md is not a file of deploy/"
    assert [name for name, text in files.items() if text not in shown] == [], "a file of deploy/ is not shown in docs/deploy.md"
