"""Accounts and board members: `dragboard users` makes the accounts; once one exists every page
needs sign-in. A board's members are owners, editors or viewers: a non-member does not see the
board at all, a viewer sees it but every way of changing it (mouse, keyboard, touch, the move-to
menu, plain forms) is refused with one reason, an editor drags as before, and a change of role
takes effect at once. Each person is a browser context of their own (their own cookie jar).

Each test has a server of its own whose database has an admin account from the start (a server
counts the live streams of each address, and a closed page's stream is let go only later)."""
import itertools
import pathlib
import re
import shutil
import tempfile
import time
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from conftest import Server
from helpers import (READY, board_state, expect_no_drop_feedback, is_session_call, list_of, point_in, row, rows,
                     start_drag, title_cells, version, wait_version)
from test_boards import create_board
from test_touch import Finger

ADMIN = "root"
PASSWORD = "secret-pass-1"
VIEW_ONLY = "You can view this board but not change it."
COOKIE = "dragboard_session"

#: Counts what the page's own live stream (EventSource) hears: `opened` at each `hello` (a stream
#: that opened), `closed` at each `error` (the stream ended; the browser may open it again).
RECORD_LIVE = """
(() => {
  const Native = window.EventSource;
  window.__live = { opened: 0, closed: 0 };
  window.EventSource = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('hello', () => { window.__live.opened += 1; });
      this.addEventListener('error', () => { window.__live.closed += 1; });
    }
  };
})();
"""

_names = itertools.count(1)


@pytest.fixture
def accounts_server():
    """A server whose database has one admin account from the start: every page needs sign-in."""
    directory = pathlib.Path(tempfile.mkdtemp(prefix="dragboard-e2e-"))
    running = Server(directory / "board.sqlite")
    running.users("add", ADMIN, "--admin", password=PASSWORD)
    running.start()
    yield running
    running.stop()
    shutil.rmtree(directory, ignore_errors=True)


class People:
    """Makes accounts with the CLI and signs each person in, in a browser context of their own.

    The tests of signing in and of the members page go through their pages; to set the scene,
    the admin's and the members' sign-ins and the admin's membership changes are the same plain
    form posts made without loading the pages (a sign-in costs a password hash either way)."""

    def __init__(self, browser, server: Server, console_errors):
        self.browser, self.server, self.console_errors = browser, server, console_errors
        self.contexts = []
        self._admin: Page | None = None
        self._admin_token: str | None = None

    def new_name(self, base: str) -> str:
        return f"{base}{next(_names)}"

    def account(self, base: str) -> str:
        name = self.new_name(base)
        self.server.users("add", name, password=PASSWORD)
        return name

    def window(self, init_script: str | None = None, **options) -> Page:
        """A new browser context (its own cookies) and a page in it, watched for console errors."""
        # Wide enough for the demo's lists side by side (they stand in one row; a real-mouse drag reaches only the screen).
        context = self.browser.new_context(**{"viewport": {"width": 1800, "height": 1000}, **options})
        if init_script:
            context.add_init_script(init_script)
        self.contexts.append(context)
        return self.console_errors.watch(context.new_page())

    def signed_in(self, name: str, next_path: str = "/", **options) -> Page:
        page = self.window(**options)
        sign_in(page, self.server, name, next_path=next_path)
        return page

    @property
    def admin(self) -> Page:
        """A window of the admin's (signed in, on no page yet)."""
        if self._admin is None:
            self._admin = self.window()
            post_sign_in(self._admin, self.server, ADMIN)
            self._admin_token = form_token(self._admin, self.server.url + "/")
        return self._admin

    def grant(self, board: str, name: str, role: str):
        """The admin adds `name` to `board` with `role` (the members page's form, posted)."""
        admin = self.admin
        answer = admin.request.post(f"{self.server.url}/boards/{board}/members", max_redirects=0,
                                    form={"csrf": self._admin_token, "username": name, "role": role})
        assert answer.status == 303, f"{answer.status} {answer.text()}"

    def member(self, base: str, role: str, board: str = "demo", **options) -> tuple[str, Page]:
        """A new account added to `board` with `role` by the admin, signed in on the board."""
        name = self.account(base)
        self.grant(board, name, role)
        page = self.window(**options)
        post_sign_in(page, self.server, name)
        page.goto(f"{self.server.url}/boards/{board}")
        if options.get("java_script_enabled", True):
            page.wait_for_function(READY)
        return name, page

    def close(self):
        for context in self.contexts:
            context.close()


@pytest.fixture
def people(browser, accounts_server, console_errors):
    """The people of one test (see People); their windows close after it, having logged no unexpected error."""
    made = People(browser, accounts_server, console_errors)
    yield made
    made.close()
    assert console_errors.unexpected() == [], f"browser errors: {console_errors.unexpected()}"


# ---------------------------------------------------------------- signing in, members

def sign_in(page: Page, server: Server, name: str, password: str = PASSWORD, next_path: str = "/"):
    """Fills the sign-in page's form and submits it; returns the answer to the post."""
    page.goto(f"{server.url}/login?next={quote(next_path, safe='/')}")
    form = page.locator('form[data-form="login"]')
    form.locator('input[name="username"]').fill(name)
    form.locator('input[name="password"]').fill(password)
    with page.expect_navigation() as answered:
        form.locator('button[type="submit"]').click()
    return answered.value


def titles_of(page: Page, list_id: str) -> list[str]:
    return title_cells(page, list_id).all_inner_texts()


def expect_see_other(answer, url: str):
    """`answer` (a navigation's) came from a plain POST answered 303 See Other to `url`."""
    posted = answer.request.redirected_from
    assert posted is not None and posted.method == "POST", f"not a redirected POST: {answer.url}"
    assert posted.response().status == 303 and answer.url == url, f"{posted.response().status} to {answer.url}"


def form_token(page: Page, url: str) -> str:
    """The CSRF token the forms of the page at `url` carry (read without loading the page)."""
    return re.search(r'name="csrf" value="([0-9a-f]+)"', page.request.get(url).text()).group(1)


def post_sign_in(page: Page, server: Server, name: str):
    """Posts the sign-in form as the sign-in page would, in `page`'s context (its cookie jar)."""
    answer = page.request.post(server.url + "/login", max_redirects=0, form={
        "csrf": form_token(page, server.url + "/login"), "username": name, "password": PASSWORD, "next": "/"})
    assert answer.status == 303, f"{answer.status} {answer.text()}"


def members_page(page: Page, server: Server, board: str):
    response = page.goto(f"{server.url}/boards/{board}/members")
    assert response.status == 200, response.status
    return page


def member(page: Page, name: str):
    return page.locator(f'[data-member="{name}"]')


def set_member(page: Page, server: Server, board: str, name: str, role: str):
    """Adds `name` to `board` with `role` through the members page's form (an owner's page)."""
    members_page(page, server, board)
    form = page.locator('form[data-form="add-member"]')
    form.locator('input[name="username"]').fill(name)
    form.locator('select[name="role"]').select_option(role)
    with page.expect_navigation() as answered:
        form.locator('button[type="submit"]').click()
    expect_see_other(answered.value, f"{server.url}/boards/{board}/members")
    expect(member(page, name)).to_have_attribute("data-role", role)


def change_role(page: Page, name: str, role: str):
    """Changes a member's role with their row's form on the members page; returns the answer."""
    form = member(page, name).locator('form[data-form="member-role"]')
    form.locator('select[name="role"]').select_option(role)
    with page.expect_navigation() as answered:
        form.get_by_role("button", name="Change role").click()
    return answered.value


def remove_member(page: Page, name: str):
    """Removes a member with their row's button on the members page; returns the answer."""
    with page.expect_navigation() as answered:
        member(page, name).locator('button[data-action="remove-member"]').click()
    return answered.value


def csrf_of(page: Page) -> str:
    """The token the signed-in page's forms carry (the sign-out form has it on every page)."""
    return page.locator('form[data-form="logout"] input[name="csrf"]').get_attribute("value")


def server_version(page: Page, server: Server, board: str = "demo") -> int:
    """The board's version as the server has it now (the owner's cookie reads it)."""
    response = page.request.get(f"{server.url}/boards/{board}/api/board")
    assert response.status == 200, response.status
    return response.json()["version"]


def expect_forbidden_over(page: Page, list_id: str):
    """A drag is over `list_id`, refused for the viewer with their reason and no insertion line."""
    expect(list_of(page, list_id)).to_have_attribute("data-drop-operation", "forbidden")
    badge = page.locator(".drop-badge--forbidden")
    expect(badge).to_be_visible()
    expect(badge).to_contain_text(VIEW_ONLY)
    expect(page.locator(".drop-indicator")).to_be_hidden()


# ---------------------------------------------------------------- the command and signing in

def test_with_no_account_the_server_serves_everyone_until_the_first_is_added(browser, server, console_errors):
    """A fresh server on loopback serves without sign-in; an account added by the CLI while it runs
    closes it at once, and the account signs in and comes back to the page it asked for."""
    context = browser.new_context()
    try:
        page = console_errors.watch(context.new_page())
        page.goto(server.demo)
        page.wait_for_function(READY)
        expect(page.locator("[data-who]")).to_have_count(0)
        expect(page.locator('form[data-form="new-list"]')).to_have_count(1)

        added = server.users("add", "first", "--admin", password=PASSWORD)
        assert added.stdout.strip() == "Added first (admin)."
        page.goto(server.demo)
        assert page.url == f"{server.url}/login?next=/boards/demo"
        expect(page.locator('form[data-form="login"] input[name="next"]')).to_have_value("/boards/demo")
        page.locator('input[name="username"]').fill("first")
        page.locator('input[name="password"]').fill(PASSWORD)
        with page.expect_navigation():
            page.locator('input[name="password"]').press("Enter")
        assert page.url == server.demo
        page.wait_for_function(READY)
        expect(page.locator('[data-who="first"]')).to_be_visible()
        expect(page.locator('form[data-form="new-list"]')).to_have_count(1)   # an admin owns every board
        assert console_errors.unexpected() == []
    finally:
        context.close()


def test_the_users_command_checks_names_and_passwords_and_its_changes_end_sign_ins(people, accounts_server):
    """`users add/list/set-password/remove` on the database of a running server: bad names and
    passwords are refused and change nothing; a new password or a removal ends the sign-in at once."""
    server = accounts_server
    name = people.new_name("Casey")
    server.users("add", name, password=PASSWORD)
    listed = server.users("list").stdout.splitlines()
    assert f"{ADMIN}\tadmin" in listed and name in listed

    refusals = [
        (["add", name.lower()], PASSWORD, "taken"),                     # names compare case-insensitively
        (["add", "two words"], PASSWORD, "letters, digits"),
        (["add", "é" + "x"], PASSWORD, "letters, digits"),
        (["add", "x" * 65], PASSWORD, "1 to 64"),
        (["add", people.new_name("short")], "seven77", "8 to 1,024"),
        (["add", people.new_name("long")], "p" * 1025, "8 to 1,024"),
        (["add", people.new_name("silent")], None, "standard input"),
        (["remove", "nobody-here"], None, "no user named"),
        (["set-password", "nobody-here"], "another-pass-2", "no user named"),
    ]
    for arguments, password, said in refusals:
        done = server.users(*arguments, password=password, check=False)
        assert done.returncode != 0, f"{arguments} was taken"
        assert said in done.stderr, f"{arguments}: {done.stderr}"
    assert server.users("list").stdout.splitlines() == listed, "a refused command changed the accounts"
    server.users("add", "x" * 64, password="p" * 1024)   # the longest name and password are taken

    # The name signs in in any case; a new password ends the sign-in at once, and only it works then.
    page = people.signed_in(name.upper())
    expect(page.locator(f'[data-who="{name}"]')).to_be_visible()
    # The index asks for the undo state once loaded: answered before the sign-in ends (the index has no live stream).
    page.wait_for_load_state("networkidle")
    assert server.users("set-password", name, password="another-pass-2").stdout.strip() == f"Set the password of {name}."
    page.goto(accounts_server.url + "/")
    assert page.url == f"{accounts_server.url}/login?next=/"
    people.console_errors.expect(r"status of 401", r"/login$")   # the refused sign-ins below
    assert sign_in(page, server, name, PASSWORD).status == 401
    expect(page.locator('[data-error="sign-in"]')).to_have_text("Wrong user name or password.")
    assert sign_in(page, server, name, "another-pass-2").status == 200
    expect(page.locator(f'[data-who="{name}"]')).to_be_visible()
    page.wait_for_load_state("networkidle")

    assert server.users("remove", name).stdout.strip() == f"Removed {name}."
    assert name not in server.users("list").stdout.splitlines()
    page.goto(accounts_server.url + "/")
    assert page.url == f"{accounts_server.url}/login?next=/", "a removed account's sign-in ends at once"
    assert sign_in(page, server, name, "another-pass-2").status == 401


def test_pages_send_to_sign_in_and_everything_else_answers_401(people, accounts_server):
    """Pages go to the sign-in page and come back after it; the API, the live stream and anything
    not a page answer 401 JSON. One refusal for a wrong password and an unknown name; the cookie is
    HttpOnly and SameSite=Lax; sign-in never sends the browser elsewhere; signing out ends it."""
    server = accounts_server
    page = people.window()
    request = page.request
    answer = request.get(server.demo, headers={"Accept": "text/html"}, max_redirects=0)
    assert answer.status == 303
    assert answer.headers["location"] == "/login?next=/boards/demo"
    answer = request.get(f"{server.demo}/move?item=abc", headers={"Accept": "text/html"}, max_redirects=0)
    assert answer.status == 303 and answer.headers["location"].startswith("/login?next=/boards/demo/move")
    for method, path, headers in [("GET", "/api/board", {}), ("GET", "/boards/demo/api/board", {"Accept": "application/json"}),
                                  ("GET", "/boards/demo/events", {"Accept": "text/event-stream"}), ("POST", "/api/sessions", {}),
                                  ("GET", "/boards/demo/members", {"Accept": "application/json"})]:
        answer = request.fetch(server.url + path, method=method, headers=headers, max_redirects=0)
        assert answer.status == 401, f"{method} {path}: {answer.status}"
        assert answer.json()["error"]["code"] == "sign_in_required", f"{method} {path}: {answer.text()}"

    # A wrong password or an unknown name: one answer for both, the name kept.
    people.console_errors.expect(r"status of 401", r"/login$")
    assert sign_in(page, server, ADMIN, "wrong-pass-1", next_path="/boards/demo").status == 401
    expect(page.locator('[data-error="sign-in"]')).to_have_text("Wrong user name or password.")
    expect(page.locator('input[name="username"]')).to_have_value(ADMIN)
    assert sign_in(page, server, "nobody-at-all", PASSWORD).status == 401
    expect(page.locator('[data-error="sign-in"]')).to_have_text("Wrong user name or password.")
    assert [cookie for cookie in page.context.cookies() if cookie["name"] == COOKIE] == []

    # Signed in, back where the browser was going, with an HttpOnly, SameSite=Lax cookie.
    expect_see_other(sign_in(page, server, ADMIN, next_path="/boards/demo"), server.demo)
    page.wait_for_function(READY)
    expect(page.locator(f'[data-who="{ADMIN}"]')).to_be_visible()
    [cookie] = [cookie for cookie in page.context.cookies() if cookie["name"] == COOKIE]
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Lax"
    assert COOKIE not in page.evaluate("() => document.cookie")
    assert page.request.get(server.url + "/api/board").status == 200

    # Sign-in never sends the browser to another site.
    other = people.window()
    sign_in(other, server, ADMIN, next_path="//elsewhere.example/boards")
    assert other.url == server.url + "/"
    probe = people.window()
    probe.goto(server.url + "/login")
    login_csrf = probe.locator('form[data-form="login"] input[name="csrf"]').get_attribute("value")
    for elsewhere in ["https://elsewhere.example/", "//elsewhere.example/", "/\\elsewhere.example/"]:
        answer = probe.request.post(server.url + "/login", max_redirects=0, form={
            "csrf": login_csrf, "username": ADMIN, "password": PASSWORD, "next": elsewhere})
        assert answer.status == 303 and answer.headers["location"] == "/", f"{elsewhere}: {answer.headers.get('location')}"

    # Signing out (here from the index) ends the sign-in itself: the same cookie no longer opens anything.
    page.goto(server.url + "/")
    with page.expect_navigation() as answered:
        page.locator('form[data-form="logout"] button[data-action="logout"]').click()
    expect_see_other(answered.value, server.url + "/login")
    assert [c for c in page.context.cookies() if c["name"] == COOKIE] == []
    replay = people.window()
    replay.context.add_cookies([cookie])
    answer = replay.request.get(server.demo, headers={"Accept": "text/html"}, max_redirects=0)
    assert answer.status == 303 and answer.headers["location"] == "/login?next=/boards/demo"
    expect(other.locator("[data-who]")).to_have_count(1)   # the other sign-in still stands
    other.reload()
    expect(other.locator(f'[data-who="{ADMIN}"]')).to_be_visible()


# ---------------------------------------------------------------- boards and members

def test_whoever_creates_a_board_owns_it_and_others_do_not_even_see_it(people, accounts_server):
    """A board's creator is its owner; to anyone else it is 404 and missing from the index; an
    admin sees and owns every board."""
    server = accounts_server
    ana = people.account("ana")
    ben = people.account("ben")
    page = people.signed_in(ana)
    expect(page.locator(f'[data-who="{ana}"]')).to_be_visible()
    expect(page.locator("a[data-board-link]")).to_have_count(0)   # not a member of the demo board
    for path in ["/boards/demo", "/boards/demo/members", "/boards/demo/move?item=abc"]:
        assert page.goto(server.url + path).status == 404, path
    assert page.request.get(server.url + "/boards/demo/api/board").status == 404
    people.console_errors.expect(r"status of 404", r"/boards/|/favicon\.ico$")   # a 404 page has no icon

    page.goto(server.url + "/")
    board = create_board(page, "Ana's plans")
    expect(page.locator("details.board-settings")).to_have_count(1)
    expect(page.locator('form[data-form="new-list"]')).to_have_count(1)
    page.locator('a[data-action="members"]').click()
    page.wait_for_url(f"{server.url}/boards/{board}/members")
    expect(member(page, ana)).to_have_attribute("data-role", "owner")
    expect(page.locator('form[data-form="add-member"]')).to_be_visible()
    page.goto(server.url + "/")
    expect(page.locator("a[data-board-link]")).to_have_count(1)
    expect(page.locator(f'a[data-board-link="{board}"] .board-tile-title')).to_have_text("Ana's plans")

    other = people.signed_in(ben)
    expect(other.locator("a[data-board-link]")).to_have_count(0)
    for path in [f"/boards/{board}", f"/boards/{board}/members", f"/boards/{board}/api/board", f"/boards/{board}/events"]:
        assert other.request.get(server.url + path, headers={"Accept": "text/html"}).status == 404, path
    answer = other.request.post(f"{server.url}/boards/{board}/lists", form={"csrf": csrf_of(other), "title": "Mine now"})
    assert answer.status == 404

    admin = people.admin
    admin.goto(server.url + "/")
    expect(admin.locator(f'a[data-board-link="{board}"]')).to_be_visible()
    expect(admin.locator('a[data-board-link="demo"]')).to_be_visible()
    admin.goto(f"{server.url}/boards/{board}")
    admin.wait_for_function(READY)
    expect(admin.locator("details.board-settings")).to_have_count(1)   # an admin opens every board as owner


def test_owners_add_change_and_remove_members_and_the_last_owner_stays(people, accounts_server):
    """The members page's plain forms (303 back to it): an owner adds, changes and removes members;
    others read the list only; the last owner is neither demoted nor removed, and the page says why."""
    server = accounts_server
    ana = people.account("ana")
    ben = people.account("ben")
    page = people.signed_in(ana)
    board = create_board(page, "Shared")
    set_member(page, server, board, ben, "viewer")
    expect(page.locator("[data-member]")).to_have_count(2)

    # An unknown name is refused with the reason, on the same page.
    form = page.locator('form[data-form="add-member"]')
    form.locator('input[name="username"]').fill("nobody-by-that-name")
    with page.expect_navigation() as answered:
        form.locator('button[type="submit"]').click()
    assert answered.value.status == 422
    expect(page.locator('[data-error="members"]')).to_contain_text("nobody-by-that-name")
    expect(page.locator("[data-member]")).to_have_count(2)

    # Ben sees the board, read-only, and its members without the means to change them.
    other = people.signed_in(ben)
    expect(other.locator(f'a[data-board-link="{board}"]')).to_be_visible()
    other.goto(f"{server.url}/boards/{board}")
    other.wait_for_function(READY)
    expect(other.locator("main#board")).to_have_attribute("data-read-only", "")
    members_page(other, server, board)
    expect(member(other, ana)).to_have_attribute("data-role", "owner")
    expect(member(other, ben)).to_have_attribute("data-role", "viewer")
    expect(other.locator('form[data-form="add-member"]')).to_have_count(0)
    expect(other.locator('form[data-form="member-role"]')).to_have_count(0)
    expect(other.locator('button[data-action="remove-member"]')).to_have_count(0)
    forged = other.request.post(f"{server.url}/boards/{board}/members", form={"csrf": csrf_of(other), "username": ben, "role": "owner"})
    assert forged.status == 403

    # Ana makes him an editor: his board now takes changes.
    page.goto(f"{server.url}/boards/{board}/members")
    expect_see_other(change_role(page, ben, "editor"), f"{server.url}/boards/{board}/members")
    expect(member(page, ben)).to_have_attribute("data-role", "editor")
    other.goto(f"{server.url}/boards/{board}")
    other.wait_for_function(READY)
    expect(other.locator("main#board")).not_to_have_attribute("data-read-only", "")
    expect(other.locator('form[data-form="new-list"]')).to_have_count(1)
    expect(other.locator("details.board-settings")).to_have_count(0)   # renaming and deleting are an owner's
    members_page(other, server, board)
    expect(other.locator('form[data-form="add-member"]')).to_have_count(0)

    # The last owner can be neither demoted nor removed; the page says why.
    people.console_errors.expect(r"status of 422", r"/members")
    last_owner = "a board keeps at least one owner: make someone else an owner first"
    assert change_role(page, ana, "editor").status == 422
    expect(page.locator('[data-error="members"]')).to_have_text(last_owner)
    expect(member(page, ana)).to_have_attribute("data-role", "owner")
    assert remove_member(page, ana).status == 422
    expect(page.locator('[data-error="members"]')).to_have_text(last_owner)
    members_page(page, server, board)
    expect(member(page, ana)).to_have_attribute("data-role", "owner")

    # Removed, Ben no longer sees the board at all.
    expect_see_other(remove_member(page, ben), f"{server.url}/boards/{board}/members")
    expect(member(page, ben)).to_have_count(0)
    other.goto(server.url + "/")
    expect(other.locator(f'a[data-board-link="{board}"]')).to_have_count(0)
    assert other.goto(f"{server.url}/boards/{board}").status == 404
    people.console_errors.expect(r"status of 404", rf"/boards/{board}$|/favicon\.ico$")   # a 404 page has no icon


# ---------------------------------------------------------------- a viewer

def test_a_viewer_sees_the_board_without_any_means_to_change_it(people, accounts_server):
    """A viewer's board has no form that changes it and says why; the owner's page of the same
    board, rendered right after, still has them all."""
    _, owner = people.member("olivia", "owner")
    viewer_name, page = people.member("vic", "viewer")
    board = page.locator("main#board")
    expect(board).to_have_attribute("data-read-only", "")
    expect(page.locator("[data-read-only-note]")).to_have_text(VIEW_ONLY)
    for selector in ['form[data-form="new-list"]', 'form[data-form="new-item"]', 'form[data-form="delete-list"]', "details.board-settings"]:
        expect(page.locator(selector)).to_have_count(0)
    expect(page.locator(f'[data-who="{viewer_name}"]')).to_be_visible()
    expect(page.locator(f'[data-who="{viewer_name}"] a[data-action="members"]')).to_have_attribute("href", "/boards/demo/members")
    assert rows(page, "cat-1").count() > 0, "a viewer sees the cards"

    # The owner's page of the same board, served after the viewer's, still has every form.
    owner.reload()
    owner.wait_for_function(READY)
    expect(owner.locator("main#board")).not_to_have_attribute("data-read-only", "")
    expect(owner.locator("[data-read-only-note]")).to_have_count(0)
    expect(owner.locator('form[data-form="new-list"]')).to_have_count(1)
    expect(owner.locator('form[data-form="new-item"]').first).to_be_attached()
    expect(owner.locator("details.board-settings")).to_have_count(1)
    page.reload()
    page.wait_for_function(READY)
    expect(page.locator('form[data-form="new-item"]')).to_have_count(0)


def test_a_viewers_mouse_drag_is_forbidden_over_every_list_with_the_reason_and_changes_nothing(people, accounts_server):
    """Over every list, its own included, the viewer's drag is forbidden in the server's words;
    nothing drops (a drop posted anyway is refused), and the owner's window shows no change."""
    _, owner = people.member("olivia", "owner")
    _, page = people.member("vic", "viewer")
    before, state = version(page), board_state(page)
    assert board_state(owner) == state
    dragged = rows(page, "cat-1").first
    title = dragged.locator(":scope > .title").inner_text()

    session = start_drag(page, dragged)
    for list_id in ["cat-1", "cat-3", "people", "cat-2"]:   # its own list, another cat, the people, and Tom
        session.hover(rows(page, list_id).last, "bottom")
        expect_forbidden_over(page, list_id)
    # The server decides, not the page: a drop posted all the same is refused with the reason.
    count = rows(page, "cat-2").count()
    location = {"row": count - 1, "fraction": 0.8, "item": rows(page, "cat-2").last.get_attribute("data-item")}
    forced = page.request.post(f"{accounts_server.url}/api/sessions/{session.token}/drop", headers={"X-CSRF-Token": csrf_of(page)},
                               data={"op": "e" * 32, "version": before, "target": {"list": "cat-2"}, "location": location, "shown": "move"})
    assert forced.status == 403 and forced.json()["error"]["message"] == VIEW_ONLY, forced.text()
    dropped = session.release()

    assert dropped is None, "a forbidden proposal must not be dropped"
    assert session.ended["operation"] == "cancel"
    expect(page.locator("#status")).to_have_text(VIEW_ONLY)
    expect_no_drop_feedback(page)
    assert version(page) == before and board_state(page) == state
    assert server_version(owner, accounts_server) == before
    assert version(owner) == before and board_state(owner) == state
    page.reload()
    page.wait_for_function(READY)
    assert board_state(page) == state
    expect(row(page, "cat-1", title)).to_have_count(1)


def test_a_viewers_keyboard_drag_says_the_reason_and_drops_nothing(people, accounts_server):
    """Space picks the row up, an arrow takes it over Tom: refused, said in the status line with
    the reason; Space there drops nothing; Escape puts it back."""
    _, page = people.member("vic", "viewer")
    before, state = version(page), board_state(page)
    picked = rows(page, "cat-1").first
    title = picked.locator(":scope > .title").inner_text()
    picked.focus()
    page.keyboard.press("Space")
    expect(page.locator("#status")).to_contain_text(f"Picked up {title}")
    page.keyboard.press("ArrowRight")
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-operation", "forbidden")
    expect(page.locator(".drop-badge")).to_contain_text(VIEW_ONLY)
    expect(page.locator("#status")).to_have_text(f"Tom: not allowed. {VIEW_ONLY}")
    page.keyboard.press("Space")   # refused: said again, still carried
    expect(page.locator("#status")).to_have_text(f"Tom: not allowed. {VIEW_ONLY}")
    expect(picked).to_have_class(re.compile(r"\bis-dragging\b"))
    page.keyboard.press("Escape")
    expect(page.locator("#status")).to_have_text(f"Cancelled. {title} stays in Whiskers.")
    expect(page.locator(".is-dragging")).to_have_count(0)
    assert version(page) == before and board_state(page) == state
    assert server_version(people.admin, accounts_server) == before


def test_a_viewers_move_menu_offers_nowhere_and_says_why(people, accounts_server):
    """The move-to menu lists no destination, only the reason."""
    _, page = people.member("vic", "viewer")
    before = version(page)
    target = rows(page, "cat-2").first
    target.focus()
    button = target.locator(':scope > button[data-action="move-to"]')
    button.click()
    expect(button).to_have_attribute("aria-expanded", "true")
    menu = page.locator(".move-menu")
    expect(menu).to_have_text(VIEW_ONLY)
    expect(menu.locator('[role="menuitem"]')).to_have_count(0)
    with page.expect_response(lambda response: is_session_call(response.url, "end")) as ended:
        button.click()   # the button closes its menu again
    assert ended.value.json()["operation"] == "cancel"
    expect(menu).to_be_hidden()
    expect(button).to_have_attribute("aria-expanded", "false")
    # Escape closes it too, though nothing in it is a choice.
    button.click()
    expect(menu).to_have_text(VIEW_ONLY)
    with page.expect_response(lambda response: is_session_call(response.url, "end")):
        page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(button).to_be_focused()
    assert version(page) == before
    assert server_version(people.admin, accounts_server) == before


def test_without_javascript_a_viewer_gets_no_move_form_and_a_forged_post_is_refused(people, accounts_server):
    """The move page offers no form, only the reason; the forms a viewer does not see, posted with
    their own token all the same, answer 403 and change nothing."""
    server = accounts_server
    _, page = people.member("vic", "viewer", java_script_enabled=False)
    assert page.url == server.demo
    before = version(page)
    expect(page.locator("main#board")).to_have_attribute("data-read-only", "")
    laser = rows(page, "cat-2").first
    item = laser.get_attribute("data-item")
    laser.focus()
    with page.expect_navigation():
        laser.locator(':scope > button[data-action="move-to"]').click()
    assert page.url == f"{server.demo}/move?item={item}"
    expect(page.locator('form[data-form="move"]')).to_have_count(0)
    expect(page.locator("[data-nowhere]")).to_have_text(VIEW_ONLY)

    page.goto(server.demo)
    csrf = page.locator('meta[name="csrf-token"]').get_attribute("content")
    assert csrf == csrf_of(page)
    forged = [
        ("/boards/demo/lists", {"title": "Sneaked in", "op": "a" * 32}),
        ("/boards/demo/move", {"item": item, "to": "list:cat-1", "op": "b" * 32}),
        ("/boards/demo/items/delete", {"item": item, "op": "c" * 32}),
        ("/boards/demo/rename", {"title": "Mine", "op": "d" * 32}),
    ]
    for path, fields in forged:
        answer = page.request.post(server.url + path, form={"csrf": csrf, **fields}, headers={"Accept": "text/html"}, max_redirects=0)
        assert answer.status == 403, f"{path}: {answer.status}"
    page.reload()
    assert version(page) == before
    assert server_version(people.admin, server) == before


def test_a_viewers_touch_drag_is_forbidden_with_the_reason_and_changes_nothing(people, accounts_server):
    """A long-press drag (as in test_touch) is refused with the same reason and lifts to nothing."""
    _, page = people.member("vic", "viewer", viewport={"width": 1000, "height": 700}, has_touch=True)
    touch = Finger(page, page.context.new_cdp_session(page))
    before, state = version(page), board_state(page)
    began = touch.long_press(rows(page, "cat-2").first)
    touch.move(*point_in(rows(page, "cat-1").last, "bottom"))
    expect_forbidden_over(page, "cat-1")
    ended = touch.lift(began["token"])
    assert ended["operation"] == "cancel"
    expect(page.locator(".touch-ghost")).to_have_count(0)
    expect(page.locator("[data-drop-operation]")).to_have_count(0)
    assert version(page) == before and board_state(page) == state
    assert server_version(people.admin, accounts_server) == before


# ---------------------------------------------------------------- an editor, and roles that change

def test_an_editor_drags_a_card_and_the_owner_sees_it_live(people, accounts_server):
    """An editor's real-mouse drag moves the card as before; the owner's window shows it live."""
    _, owner = people.member("olivia", "owner")
    _, page = people.member("eddie", "editor")
    expect(page.locator("main#board")).not_to_have_attribute("data-read-only", "")
    before = version(page)
    assert version(owner) == before
    moved = rows(page, "cat-1").first
    title = moved.locator(":scope > .title").inner_text()
    tom = titles_of(page, "cat-2")
    session = start_drag(page, moved)
    session.hover(rows(page, "cat-2").first, "top")
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-operation", "move")
    dropped = session.release()
    assert dropped["operation"] == "move", dropped
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text([title, *tom])
    wait_version(owner, before + 1)   # live, no reload
    expect(title_cells(owner, "cat-2")).to_have_text([title, *tom])
    expect(row(owner, "cat-1", title)).to_have_count(0)


def test_demoting_an_editor_closes_their_live_stream_and_refuses_the_drop_they_were_making(people, accounts_server):
    """Made a viewer in the middle of a drag: their live stream closes within a second, the drop
    they release is refused (403, with the reason) and changes nothing; the board reloads read-only."""
    server = accounts_server
    _, owner = people.member("olivia", "owner")
    editor_name, page = people.member("eddie", "editor", init_script=RECORD_LIVE)
    page.wait_for_function("() => window.__live.opened >= 1")
    before, state = version(page), board_state(page)
    members_page(owner, server, "demo")

    session = start_drag(page, rows(page, "cat-1").first)
    session.hover(list_of(page, "cat-2"), "middle")
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-operation", "move")

    expect_see_other(change_role(owner, editor_name, "viewer"), f"{server.url}/boards/demo/members")
    demoted = time.monotonic()
    expect(member(owner, editor_name)).to_have_attribute("data-role", "viewer")
    page.wait_for_function("() => window.__live.closed >= 1", timeout=1500)
    assert time.monotonic() - demoted < 1.5, "the demoted editor's live stream stayed open"

    refused = []
    page.on("response", lambda response: refused.append(response) if is_session_call(response.url, "drop") else None)
    people.console_errors.expect(r"status of 403", r"/api/sessions/[0-9a-f]{32}/drop$")
    session.release()
    assert [response.status for response in refused] == [403]
    assert refused[0].json()["error"]["message"] == VIEW_ONLY
    assert session.ended["operation"] == "cancel"
    expect(page.locator("#status")).to_have_text(VIEW_ONLY)
    assert board_state(page) == state
    assert server_version(owner, server) == before

    page.reload()
    page.wait_for_function(READY)
    expect(page.locator("main#board")).to_have_attribute("data-read-only", "")


def test_removing_an_editor_closes_their_live_stream_and_the_board_answers_404(people, accounts_server):
    """Removed in the middle of a drag: their live stream closes within a second, the drop is
    answered 404 saying why, and the board is gone for them."""
    server = accounts_server
    _, owner = people.member("olivia", "owner")
    editor_name, page = people.member("eddie", "editor", init_script=RECORD_LIVE)
    page.wait_for_function("() => window.__live.opened >= 1")
    before, state = version(page), board_state(page)
    managing = members_page(people.console_errors.watch(owner.context.new_page()), server, "demo")

    session = start_drag(page, rows(page, "cat-1").first)
    session.hover(list_of(page, "cat-2"), "middle")
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-operation", "move")

    remove_member(managing, editor_name)
    removed = time.monotonic()
    expect(member(managing, editor_name)).to_have_count(0)
    page.wait_for_function("() => window.__live.closed >= 1", timeout=1500)
    assert time.monotonic() - removed < 1.5, "the removed editor's live stream stayed open"

    people.console_errors.expect(r"status of 404", r"/api/sessions/[0-9a-f]{32}/(drop|end)$|/boards/demo(/events|/api/board)?$|/favicon\.ico$")
    answers = []
    page.on("response", lambda response: answers.append(response) if session.token in response.url else None)
    with page.expect_response(lambda response: is_session_call(response.url, "end") and session.token in response.url):
        page.mouse.up()
    drops = [response for response in answers if is_session_call(response.url, "drop")]
    assert [response.status for response in drops] == [404]
    assert "no longer a member" in drops[0].json()["error"]["message"]
    expect(page.locator("#status")).to_contain_text("no longer a member")
    assert server_version(owner, server) == before
    assert version(owner) == before and board_state(owner) == state

    assert page.request.get(server.url + "/boards/demo/api/board").status == 404
    assert page.goto(server.demo).status == 404
    page.goto(server.url + "/")
    expect(page.locator('a[data-board-link="demo"]')).to_have_count(0)


def test_signing_out_from_a_board_page_ends_the_sign_in_and_goes_to_the_sign_in_page(people, accounts_server):
    """The sign-out button of the person bar on a board page (with its scripts running) leaves the
    board for the sign-in page, as it does on the index and without JavaScript."""
    server = accounts_server
    _, page = people.member("sam", "editor")
    with page.expect_navigation(timeout=5000):
        page.locator('form[data-form="logout"] button[data-action="logout"]').click()
    assert page.url == server.url + "/login"
    expect(page.locator('form[data-form="login"]')).to_be_visible()
    assert [cookie for cookie in page.context.cookies() if cookie["name"] == COOKIE] == []
