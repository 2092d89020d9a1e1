"""Drag out: at dragstart a row writes its public representations into the DataTransfer, in
fidelity order (custom JSON type, URI list for links, server-built escaped HTML, plain text), and
the session type that lets other windows of the app recognise the drag. What only the server may
read (its item reference) never leaves it."""
import json

import pytest
from playwright.sync_api import expect

from data_helpers import (RECORD_SET_DATA, SESSION_TYPE, ExternalDrag, drop_and_wait, item_ids, new_row,
                          wait_ready)
from helpers import point_in, row, start_drag, version, wait_version


@pytest.fixture
def recording(page, context):
    """The page, reloaded with `DataTransfer.prototype.setData` recorded into `window.__setData`."""
    context.add_init_script(RECORD_SET_DATA)
    page.reload()
    wait_ready(page)
    assert page.evaluate("window.__setData") == []
    return page


def recorded_drag(page, source):
    """Starts a real-mouse drag of `source`, reads what dragstart wrote, and releases the drag over
    no target (which changes nothing). Returns (representations, session entries, the session)."""
    before = version(page)
    session = start_drag(page, source)
    written = page.evaluate("window.__setData")
    x, y = point_in(page.locator(".masthead h1"))
    session.move_to(x, y)
    session.move_to(x + 1, y, steps=1)
    assert session.release() is None
    assert version(page) == before

    assert all(isinstance(pair, list) and len(pair) == 2 for pair in written), written
    leaked = [kind for kind, _ in written if "x-dragboard-item" in kind or "com.dragboard.item" in kind]
    assert leaked == [], f"server-only representations left the server: {leaked}"
    sessions = [(kind, data) for kind, data in written if kind.startswith("application/x-dragboard-session")]
    assert len(sessions) == 1, f"expected one session type, got {sessions} in {written}"
    kind, data = sessions[0]
    match = SESSION_TYPE.fullmatch(kind)
    assert match, f"bad session type {kind!r}"
    assert data == match.group(1) == session.token, "the session type and its value carry the session's token"
    public = [(kind, data) for kind, data in written if not kind.startswith("application/x-dragboard-session")]
    return public, session


def decoded(pairs):
    """JSON types compared as values (key order is not a representation's meaning)."""
    return [(kind, json.loads(data) if kind.endswith("+json") else data) for kind, data in pairs]


def test_a_toy_writes_its_json_then_html_then_plain_text(recording, server):
    public, _ = recorded_drag(recording, row(recording, "cat-1", "Ball of yarn"))
    assert [kind for kind, _ in public] == ["application/x-dragboard-toy+json", "text/html", "text/plain"]
    assert decoded(public) == [
        ("application/x-dragboard-toy+json", {"title": "Ball of yarn"}),
        ("text/html", "<p><strong>Ball of yarn</strong></p>"),
        ("text/plain", "Ball of yarn"),
    ]


def test_a_person_writes_name_and_age_in_every_representation(recording, server):
    public, _ = recorded_drag(recording, row(recording, "people", "Ada Lovelace"))
    assert [kind for kind, _ in public] == ["application/x-dragboard-person+json", "text/html", "text/plain"]
    assert decoded(public) == [
        ("application/x-dragboard-person+json", {"name": "Ada Lovelace", "age": 36}),
        ("text/html", "<p><strong>Ada Lovelace</strong>, 36</p>"),
        ("text/plain", "Ada Lovelace (36)"),
    ]


def test_each_drag_writes_a_fresh_session_token(recording, server):
    _, first = recorded_drag(recording, row(recording, "cat-2", "Laser pointer"))
    recording.evaluate("window.__setData = []")
    _, second = recorded_drag(recording, row(recording, "cat-2", "Laser pointer"))
    assert first.token != second.token


def test_a_link_writes_its_uri_list_before_html_and_plain_text(recording, server):
    """A link (made by dropping a URL from another app on places) carries no custom type: its URI
    list comes first."""
    before, places = version(recording), item_ids(recording, "places")
    drag = ExternalDrag(recording, items=[("text/uri-list", "https://example.com/a"), ("text/plain", "https://example.com/a")])
    drag.enter(row(recording, "places", "Oslo"), "top")
    drop_and_wait(recording, drag)
    wait_version(recording, before + 1)
    link = new_row(recording, "places", places)
    expect(link).to_have_attribute("data-kind", "link")

    public, _ = recorded_drag(recording, link)
    kinds = [kind for kind, _ in public]
    assert kinds == ["text/uri-list", "text/html", "text/plain"], public
    uri_list = dict(public)["text/uri-list"]
    assert [line for line in uri_list.splitlines() if line and not line.startswith("#")] == ["https://example.com/a"]
    assert "https://example.com/a" in dict(public)["text/html"]
    assert "https://example.com/a" in dict(public)["text/plain"]


def test_the_html_of_a_row_is_escaped_markup_built_by_the_server(recording, server):
    """A toy whose title looks like markup (dropped as text from another app) travels out as
    escaped HTML: the title is text inside the server's own markup."""
    before, toys = version(recording), item_ids(recording, "cat-2")
    title = "<i>Tea & cake</i>"
    drag = ExternalDrag(recording, items=[("text/plain", title)])
    drag.enter(row(recording, "cat-2", "Bell ball"), "top")
    drop_and_wait(recording, drag)
    wait_version(recording, before + 1)
    toy = new_row(recording, "cat-2", toys)
    expect(toy.locator(":scope > .title")).to_have_text(title)

    public, _ = recorded_drag(recording, toy)
    assert decoded(public) == [
        ("application/x-dragboard-toy+json", {"title": title}),
        ("text/html", "<p><strong>&lt;i&gt;Tea &amp; cake&lt;/i&gt;</strong></p>"),
        ("text/plain", title),
    ]


def test_most_rows_carry_no_pre_rendered_representations(page, server):
    """A toy's representations are composed at dragstart from its title and its kind's recipe
    (the page's `data-drag-recipes`): the page does not grow by them on every row. A row whose
    kind needs more than its title (a person's age) still carries its own."""
    assert row(page, "cat-1", "Ball of yarn").get_attribute("data-drag") is None
    assert row(page, "people", "Ada Lovelace").get_attribute("data-drag") is not None
    assert page.locator("#board").get_attribute("data-drag-recipes").startswith("{")
