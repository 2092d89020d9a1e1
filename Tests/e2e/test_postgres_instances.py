"""Two dragboard instances on one PostgreSQL database (issue #13): a drop through either shows in
the other's pages without a reload, concurrent drops through both keep the board consistent, a
drop is answered once whichever instance a retry reaches, and killing one instance with SIGKILL
loses no acknowledged drop while the other keeps serving.

The database is read with psql at the end of each run: every acknowledged drop is where its
answer put its row, nothing was lost or duplicated, order keys are unique, and the board's
version rose once per acknowledged change."""
import dataclasses
import os
import pathlib
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

import pytest
from playwright.sync_api import expect

from conftest import ROOT, ConsoleErrors, Server, _binary, postgres_cluster
from helpers import RECORD_SSE, board_state, drag, row, title_cells, wait_version

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "chaos"))
import chaos  # noqa: E402  (its HTTP client and its answer comparison)
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "bench"))
from clients import Client as BenchClient  # noqa: E402  (a browser's cookie and headers for API calls)

BOARD = "demo"
CATS = ("cat-1", "cat-2", "cat-3")
READY = "document.querySelector('[data-board]') && window.__dragboardReady === true"
#: How long one request is re-sent while no instance answers it.
RETRY_DEADLINE = 20.0


@pytest.fixture
def instances(fresh_postgres_database):
    """Instances A and B on one new database, sharing one image folder."""
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-instances-"))
    images = directory / "images"
    images.mkdir()
    started = []
    try:
        for _ in range(2):
            started.append(Server(fresh_postgres_database, "--images", str(images)).start())
        yield started[0], started[1]
    finally:
        for server in started:
            server.stop()   # clean SIGTERM exit of whichever is still running (kill -9'd ones are done)
        shutil.rmtree(directory, ignore_errors=True)


def sql(url: str, query: str) -> list[list[str]]:
    return [line.split("|") for line in postgres_cluster.run_sql(url, query).splitlines() if line]


# ---------------------------------------------------------------- the database, read with psql

@dataclasses.dataclass
class Stored:
    version: int
    items: dict[str, tuple[str, str]]   # id → (list, container or "")
    ids: list[str]                      # every row's id, duplicates kept
    duplicate_keys: list[list[str]]     # (listid, scope, pos, count) shared by several rows
    operations: dict[str, int]          # operation id → version


def read_stored(url: str) -> Stored:
    rows = sql(url, "SELECT id, listid, coalesce(containerid, '') FROM item")
    return Stored(
        version=int(sql(url, f"SELECT version FROM board WHERE id = '{BOARD}'")[0][0]),
        items={item: (list_id, container) for item, list_id, container in rows},
        ids=[item for item, _, _ in rows],
        duplicate_keys=sql(url, "SELECT listid, scope, pos, count(*) FROM item GROUP BY listid, scope, pos HAVING count(*) > 1"),
        operations={op: int(version) for op, version in sql(url, "SELECT id, version FROM operation")})


def cat_titles(url: str) -> dict[str, list[str]]:
    """Each cat's top-level rows in their stored order."""
    found = {name: [] for name in CATS}
    for list_id, title in sql(url, "SELECT listid, title FROM item WHERE listid IN ('cat-1', 'cat-2', 'cat-3') "
                                    "AND containerid IS NULL ORDER BY listid, pos"):
        found[list_id].append(title)
    return found


# ---------------------------------------------------------------- clients dragging their own rows

@dataclasses.dataclass
class Ack:
    """A drop answered 200 that changed the board."""
    op: str
    version: int
    item: str
    list: str          # where the answer put the row
    port: int          # the instance that answered
    answered: float    # time.monotonic() of the answer


class Tally:
    """What the clients saw, shared by their threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {"attempted": 0, "acknowledged changed": 0, "acknowledged unchanged": 0, "refused": 0, "retried": 0,
                       "failed over": 0}
        self.refusals: dict[int, int] = {}
        self.acks: list[Ack] = []
        self.unchanged_ops: list[str] = []
        self.problems: list[str] = []

    def add(self, name: str) -> None:
        with self.lock:
            self.counts[name] += 1

    def changed_through(self, port: int, after: float = 0.0) -> int:
        with self.lock:
            return sum(1 for ack in self.acks if ack.port == port and ack.answered > after)

    def report(self, title: str) -> str:
        line = f"{title}: " + ", ".join(f"{name} {value}" for name, value in self.counts.items())
        return line + (f" (refusals by status: {dict(sorted(self.refusals.items()))})" if self.refusals else "")


def accepts(port: int) -> bool:
    """Whether an instance still accepts connections (a killed one refuses them at once)."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        return True
    except OSError:
        return False


class Dragger:
    """One browser dragging the rows it owns between the cats through its instance. A request
    that got no HTTP answer is sent again, the SAME request (a drop keeps its op id); when its
    instance no longer accepts connections it goes to the other instance instead, with the same
    token path and CSRF cookie (a browser's cookie is per host), and stays there."""

    def __init__(self, own_port: int, other_port: int, rows: list[str], seed: int, tally: Tally):
        self.client = chaos.Client(own_port)
        self.spare = chaos.Client(other_port)
        self.spare.csrf = self.client.csrf
        self.rows, self.rng, self.tally = rows, random.Random(seed), tally

    def send(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict, bool]:
        """(status, answer, whether it was re-sent) of the first HTTP answer."""
        give_up, retried = time.monotonic() + RETRY_DEADLINE, False
        while True:
            try:
                status, answer = self.client.request(method, path, body)
                return status, answer, retried
            except chaos.Unreachable:
                assert time.monotonic() < give_up, f"no instance answered {method} {path} within {RETRY_DEADLINE} s"
                retried = True
                if path.endswith("/drop"):
                    self.tally.add("retried")
                if not accepts(self.client.port) and accepts(self.spare.port):
                    self.client, self.spare = self.spare, self.client
                    self.tally.add("failed over")
                else:
                    time.sleep(0.02)   # a polling interval while an instance is busy, not a synchronisation

    def run(self, stop: threading.Event) -> None:
        try:
            while not stop.is_set():
                self.drag_once()
        except Exception as error:   # noqa: BLE001  (reported by the test, not lost in a thread)
            with self.tally.lock:
                self.tally.problems.append(f"client on port {self.client.port}: {error!r}")
        finally:
            self.client.close()
            self.spare.close()

    def drag_once(self) -> None:
        """Reads the board, then drags one of its rows to a random cat: over a random row of it
        (as the board read showed it: a row moved since makes a refusal) or below its rows."""
        status, board, _ = self.send("GET", "/api/board")
        assert status == 200, f"GET /api/board answered {status}"
        lists = {entry["id"]: chaos.ITEM.findall(entry["html"]) for entry in board["lists"]}
        item = self.rng.choice(self.rows)
        source = next(name for name in CATS if item in lists[name])
        target = self.rng.choice(CATS)
        location = None
        if lists[target] and self.rng.random() < 0.7:
            index = self.rng.randrange(len(lists[target]))
            location = {"row": index, "fraction": self.rng.choice([0.2, 0.5, 0.8]), "item": lists[target][index]}
        token = secrets.token_hex(16)
        status, _, _ = self.send("POST", "/api/sessions", {"token": token, "list": source, "items": [item]})
        if status != 201:
            return
        body = {"op": str(uuid.uuid4()), "version": board["version"], "target": {"list": target}, "location": location}
        self.tally.add("attempted")
        status, answer, _ = self.send("POST", f"/api/sessions/{token}/drop", body)
        with self.tally.lock:
            if status == 200 and answer.get("changes"):
                placed = [change["list"] for change in answer["changes"] if change["kind"] == "insert" and change["item"] == item]
                if len(placed) != 1:
                    self.tally.problems.append(f"op {body['op']} changed the board without inserting {item}: {answer['changes']}")
                    return
                self.tally.counts["acknowledged changed"] += 1
                self.tally.acks.append(Ack(body["op"], answer["version"], item, placed[0], self.client.port, time.monotonic()))
            elif status == 200:
                self.tally.counts["acknowledged unchanged"] += 1
                self.tally.unchanged_ops.append(body["op"])
            elif status >= 500:
                self.tally.problems.append(f"op {body['op']} answered {status}: {answer}")
            else:
                self.tally.counts["refused"] += 1
                self.tally.refusals[status] = self.tally.refusals.get(status, 0) + 1
        self.send("POST", f"/api/sessions/{token}/end", {})


def start_draggers(a: Server, b: Server, seed: Stored, per_instance: int, tally: Tally) -> tuple[threading.Event, list[threading.Thread]]:
    """`per_instance` clients on each instance; the cats' rows dealt out among them, so each owns at least one."""
    rows = sorted(item for item, (list_id, container) in seed.items.items() if list_id in CATS and not container)
    clients = 2 * per_instance
    assert len(rows) >= clients, f"{len(rows)} rows in the cats for {clients} clients"
    stop = threading.Event()
    threads = []
    for number in range(clients):
        own, other = (a, b) if number % 2 == 0 else (b, a)
        dragger = Dragger(own.port, other.port, rows[number::clients], seed=number, tally=tally)
        threads.append(threading.Thread(target=dragger.run, args=(stop,), daemon=True))
    for thread in threads:
        thread.start()
    return stop, threads


def finish(stop: threading.Event, threads: list[threading.Thread], tally: Tally) -> None:
    stop.set()
    for thread in threads:
        thread.join(timeout=RETRY_DEADLINE + 10)
    assert not any(thread.is_alive() for thread in threads), "a client thread did not finish"
    assert tally.problems == [], "\n".join(tally.problems)


def wait_until(condition, what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.02)


def consistency_problems(seed: Stored, final: Stored, tally: Tally) -> list[str]:
    """Everything in which the final database disagrees with the acknowledgements."""
    problems = []
    if sorted(final.ids) != sorted(seed.ids):
        lost = set(seed.ids) - set(final.ids)
        extra = [item for item in final.ids if item not in seed.items or final.ids.count(item) > 1]
        problems.append(f"the rows are not the seed's: lost {sorted(lost)}, extra or duplicated {sorted(set(extra))}")
    if final.duplicate_keys:
        problems.append(f"order keys shared by several rows (listid, scope, pos, count): {final.duplicate_keys}")
    last: dict[str, Ack] = {}
    for ack in sorted(tally.acks, key=lambda ack: ack.version):
        last[ack.item] = ack
    for item, (list_id, container) in seed.items.items():
        expected = (last[item].list, "") if item in last else (list_id, container)
        if final.items.get(item) != expected:
            why = f"the acknowledgement of version {last[item].version} (op {last[item].op})" if item in last else "no acknowledged drop"
            problems.append(f"row {item} is in {final.items.get(item)}, {why} put it in {expected}")
    versions = [ack.version for ack in tally.acks]
    if len(set(versions)) != len(versions):
        problems.append(f"changing acknowledgements share versions: {sorted(v for v in set(versions) if versions.count(v) > 1)}")
    for ack in tally.acks:
        if final.operations.get(ack.op) != ack.version:
            problems.append(f"op {ack.op} answered version {ack.version}, its record says {final.operations.get(ack.op)}")
    for op in tally.unchanged_ops:
        if op in final.operations:
            problems.append(f"op {op} changed nothing but was recorded with version {final.operations[op]}")
    if final.version - seed.version != len(tally.acks):
        problems.append(f"the board went from version {seed.version} to {final.version} "
                        f"for {len(tally.acks)} acknowledged changing drops")
    return problems


# ---------------------------------------------------------------- the tests

def wait_in_page(page, expression: str, what: str) -> None:
    """Polls `expression` from here: Playwright's own wait_for_function evaluates its predicate
    with eval() when it has to poll, which the board's Content-Security-Policy (script-src 'self')
    forbids (microsoft/playwright#7395), so it fails whenever the condition is not true at once."""
    wait_until(lambda: page.evaluate(expression), what, timeout=10)


#: The lines of a board page's activity panel, newest first.
ACTIVITY_LINES = "[data-activity-list] li"


def activity_versions(page) -> list[str]:
    """The board version of each line of the page's activity panel, newest first."""
    return page.locator(ACTIVITY_LINES).evaluate_all("lines => lines.map(line => line.dataset.version)")


def open_board(browser, server: Server, errors: ConsoleErrors):
    """A page of its own browser context (its own cookies) on `server`'s board, listening for live events."""
    opened = errors.watch(browser.new_context(viewport={"width": 1280, "height": 1000}).new_page())
    opened.add_init_script(RECORD_SSE)
    opened.goto(server.demo)
    wait_in_page(opened, READY, "the board is ready")
    wait_in_page(opened, "window.__sse.some(([type]) => type === 'hello')", "the page listens")   # before anyone drops
    return opened


def live_events(page, kind: str) -> list[int]:
    return page.evaluate(f"window.__sse.filter(([type]) => type === '{kind}').map(([, data]) => JSON.parse(data).version)")


def test_a_drop_through_one_instance_shows_in_the_other_s_page(browser, instances, fresh_postgres_database, console_errors):
    a, b = instances
    page_a = open_board(browser, a, console_errors)
    page_b = open_board(browser, b, console_errors)
    try:
        before = int(page_a.get_attribute("[data-board]", "data-version"))
        wait_version(page_b, before)

        page_a.bring_to_front()
        drag(page_a, row(page_a, "cat-1", "Ball of yarn"), row(page_a, "cat-2", "Laser pointer"), position="top")
        wait_version(page_a, before + 1)
        wait_version(page_b, before + 1)
        expect(title_cells(page_b, "cat-1")).to_have_text(["Feather wand", "Catnip mouse"])
        expect(title_cells(page_b, "cat-2")).to_have_text(["Ball of yarn", "Laser pointer", "Bell ball"])
        assert live_events(page_b, "version") == [before + 1], "B's page must hear of A's drop as a 'version' event"
        # And of its line in the activity panel, read by B from the database.
        expect(page_b.locator(ACTIVITY_LINES).first).to_contain_text("Ball of yarn")
        expect(page_b.locator(ACTIVITY_LINES).first).to_have_attribute("data-version", str(before + 1))

        page_b.bring_to_front()
        drag(page_b, row(page_b, "cat-1", "Feather wand"), row(page_b, "cat-3", "Scratching post"), position="top")
        wait_version(page_b, before + 2)
        wait_version(page_a, before + 2)
        expect(title_cells(page_a, "cat-1")).to_have_text(["Catnip mouse"])
        expect(title_cells(page_a, "cat-3")).to_have_text(["Crinkle tunnel", "Feather wand", "Scratching post"])
        assert live_events(page_a, "version") == [before + 2], "A's page must hear of B's drop as a 'version' event"
        assert live_events(page_a, "changes") == [before + 1] and live_events(page_b, "changes") == [before + 2], \
            "each instance tells its own viewers of its own drop as 'changes'"
        assert board_state(page_a) == board_state(page_b)

        expect(page_a.locator(ACTIVITY_LINES).first).to_contain_text("Feather wand")
        for page in (page_a, page_b):
            versions = activity_versions(page)
            assert versions[:2] == [str(before + 2), str(before + 1)] and versions.count(str(before + 1)) == 1, \
                f"each drop's line once, newest first, in both pages: {versions}"

        page_b.reload()
        wait_in_page(page_b, READY, "the reloaded board is ready")
        wait_version(page_b, before + 2)
        assert board_state(page_b) == board_state(page_a)
        # Lines a page was rendered with carry their version too: a change told again live is not shown twice.
        assert activity_versions(page_b)[:2] == [str(before + 2), str(before + 1)]
        stored = cat_titles(fresh_postgres_database)
        assert {name: board_state(page_b)[name] for name in CATS} == stored
        assert console_errors.unexpected() == [], f"browser errors: {console_errors.unexpected()}"
    finally:
        page_a.context.close()
        page_b.context.close()


def test_concurrent_drops_through_both_instances_keep_the_board_consistent(instances, fresh_postgres_database):
    a, b = instances
    seed = read_stored(fresh_postgres_database)
    tally = Tally()
    stop, threads = start_draggers(a, b, seed, per_instance=3, tally=tally)
    try:
        # The run lasts a fixed time, as a benchmark's does: the clients drop until told to stop.
        stop.wait(6.0)
    finally:
        finish(stop, threads, tally)
    print("\n" + tally.report("two instances, random drops"))
    assert tally.changed_through(a.port) > 0 and tally.changed_through(b.port) > 0, tally.report("no change through one instance")
    b.stop()
    a.stop()
    assert consistency_problems(seed, read_stored(fresh_postgres_database), tally) == []


def test_a_drop_replayed_through_the_other_instance_gets_the_same_answer(instances, fresh_postgres_database):
    a, b = instances
    through_a = chaos.Client(a.port)
    through_b = chaos.Client(b.port)
    through_b.csrf = through_a.csrf   # the same browser: its cookie goes to both
    status, board = through_a.request("GET", "/api/board")
    assert status == 200
    before = board["version"]
    item = chaos.ITEM.findall(next(entry["html"] for entry in board["lists"] if entry["id"] == "cat-1"))[0]
    token = secrets.token_hex(16)
    status, _ = through_a.request("POST", "/api/sessions", {"token": token, "list": "cat-1", "items": [item]})
    assert status == 201
    body = {"op": str(uuid.uuid4()), "version": before, "target": {"list": "cat-2"}, "location": None}
    status, first = through_a.request("POST", f"/api/sessions/{token}/drop", body)
    assert status == 200 and first["changes"] and first["version"] == before + 1, first
    operations = read_stored(fresh_postgres_database).operations

    # The session lives in A's memory; B answers from the operation record, looked up first.
    status, again = through_b.request("POST", f"/api/sessions/{token}/drop", body)
    assert status == 200, again
    assert chaos.without_html(again) == chaos.without_html(first)
    assert again == first, "B renders the moved row as A did"
    stored = read_stored(fresh_postgres_database)
    assert stored.version == before + 1 and stored.operations == operations
    for client in (through_a, through_b):
        status, board = client.request("GET", "/api/board")
        assert status == 200 and board["version"] == before + 1

    # The same op id for another drop is refused by B too, and changes nothing.
    status, reused = through_b.request("POST", f"/api/sessions/{token}/drop", {**body, "target": {"list": "cat-3"}})
    assert status == 422, reused
    assert read_stored(fresh_postgres_database).version == before + 1
    through_a.request("POST", f"/api/sessions/{token}/end", {})


def test_every_acknowledged_drop_survives_kill_9_of_one_instance(instances, fresh_postgres_database):
    a, b = instances
    seed = read_stored(fresh_postgres_database)
    tally = Tally()
    stop, threads = start_draggers(a, b, seed, per_instance=3, tally=tally)
    try:
        wait_until(lambda: tally.changed_through(a.port) >= 5 and tally.changed_through(b.port) >= 5,
                   "both instances acknowledged drops", timeout=15)
        a.process.kill()   # SIGKILL, with drops of its clients in flight
        a.process.wait()
        killed = time.monotonic()
        wait_until(lambda: tally.changed_through(b.port, after=killed) >= 10, "B acknowledged drops after the kill", timeout=15)
    finally:
        finish(stop, threads, tally)
    after_kill = tally.changed_through(b.port, after=killed)
    print("\n" + tally.report("kill -9 of A") + f"; through A before the kill {tally.changed_through(a.port)}, "
          f"through B after the kill {after_kill}")
    assert tally.counts["failed over"] >= 1, "A's clients never turned to B"
    b.stop()
    assert consistency_problems(seed, read_stored(fresh_postgres_database), tally) == []


def test_the_database_url_may_come_from_the_environment(fresh_postgres_database, tmp_path):
    """Without --database the server takes DRAGBOARD_DATABASE_URL: the board it serves is the one in
    PostgreSQL (a change through it is there), and no SQLite file appears in its working folder."""
    environment = dict(os.environ, DRAGBOARD_DATABASE_URL=fresh_postgres_database)
    process = subprocess.Popen(
        [str(_binary()), "--port", "0", "--public", str(ROOT / "Public"), "--templates", str(ROOT / "Templates"),
         "--log-level", "warning"],
        cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        match = re.fullmatch(r"Listening on http://[\d.]+:(\d+)\n", process.stdout.readline())
        assert match
        http = BenchClient(int(match.group(1)))
        item = http.board().lists["cat-1"][0]
        token = secrets.token_hex(16)
        assert http.post("/api/sessions", {"token": token, "list": "cat-1", "items": [item]})[0] == 201
        status, answer = http.post(f"/api/sessions/{token}/drop", {"op": secrets.token_hex(16), "version": 0, "target": {"list": "cat-2"}})
        assert status == 200 and answer["changes"], answer
        assert sql(fresh_postgres_database, f"SELECT listid FROM item WHERE id = '{item}'") == [["cat-2"]]
        assert sql(fresh_postgres_database, "SELECT version FROM board WHERE id = 'demo'") == [[str(answer["version"])]]
        assert not list(tmp_path.glob("*.sqlite*"))
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_health_says_unavailable_while_the_database_does_not_answer(fresh_postgres_database):
    """GET /healthz is 200 while PostgreSQL answers and 503 once its database is gone (dropped with the
    server's connections closed), and says nothing else: no URL, no user, no error text."""
    import json
    import urllib.error
    import urllib.request

    server = Server(fresh_postgres_database).start()
    try:
        def health() -> tuple[int, str]:
            try:
                with urllib.request.urlopen(server.url + "/healthz", timeout=10) as answer:
                    return answer.status, answer.read().decode()
            except urllib.error.HTTPError as error:
                return error.code, error.read().decode()

        assert health() == (200, '{"status":"ok"}')
        postgres_cluster.drop_database(fresh_postgres_database, fresh_postgres_database.rsplit("/", 1)[1].split("?")[0])
        status, body = health()
        assert status == 503 and json.loads(body) == {"status": "unavailable"}, body
    finally:
        server.stop()
