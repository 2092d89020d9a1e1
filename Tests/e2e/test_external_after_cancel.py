"""A drag from another app that the page first hears of at a `dragover` (hardening issue #26, item 7).

Chromium keeps the element a cancelled drag last entered as entered: the next drag whose first
element is that one gets no `dragenter`, only `dragover`s. A `dragover` while the page holds no
session must begin one, once, and the drop must be made whether the begin answers before or after it.

(A DevTools `dragOver` with no `dragEnter` before it reaches the page as nothing at all, so the
faithful drags below enter with `dragEnter` where the cancelled drag was; the direct ones dispatch
the page's events themselves, `dragover` first.)"""
import re

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError, expect

from data_helpers import ExternalDrag, drop_and_wait, is_external_begin
from helpers import SETTLED, expect_no_drop_feedback, list_of, point_in, row, title_cells, version, wait_version

PLACES = ["Paris", "Lisbon", "Oslo", "Kyoto", "Reykjavík"]

#: Records what each drag event reached (the page's own listeners are on the document too).
RECORD_DRAG_EVENTS = """() => {
    window.__dragEvents = [];
    for (const type of ['dragenter', 'dragover', 'dragleave', 'drop']) {
        document.addEventListener(type, (event) => {
            window.__dragEvents.push(type);
            if (type === 'dragenter') window.__lastEntered = event.target;
        }, true);
    }
}"""

#: A point (no drag over the page) where the element the last drag last entered is the topmost one: the
#: element Chromium keeps as entered (the one its last dragover reached may be another, where it entered no child).
WHERE_THE_LAST_DRAG_WAS = """() => {
    const last = window.__lastEntered;
    const box = last.getBoundingClientRect();
    const x = box.left + box.width / 2;
    for (let y = Math.ceil(box.top) + 1; y < box.bottom - 1; y += 1) {
        if (document.elementFromPoint(x, y) === last) return [x, y];
    }
    return null;
}"""


def is_end_of(token):
    return lambda request: request.method == "POST" and request.url.endswith(f"/api/sessions/{token}/end")


def external_begins(page):
    """The URLs of every `/api/sessions/external` the page posts from now on."""
    begun = []
    page.on("request", lambda request: begun.append(request.url) if request.method == "POST" and request.url.endswith("/api/sessions/external") else None)
    return begun


def enter_where_a_cancelled_drag_was(page, items):
    """A drag cancelled over Places (no event reaches the page), the mouse moved on (the page ends
    that session), then a drag of `items` entering over the element the cancelled one last entered:
    the page gets dragovers and no dragenter. Returns the new drag, once the page began its session."""
    page.evaluate(RECORD_DRAG_EVENTS)
    cancelled = ExternalDrag(page, items=[("text/plain", "Berlin")])
    cancelled.enter(row(page, "places", "Oslo"), "top")
    expect(list_of(page, "places")).to_have_attribute("data-drop-operation", "copy")
    cancelled.send("dragCancel", cancelled.x, cancelled.y)
    with page.expect_request(is_end_of(cancelled.begun["token"])):
        page.mouse.move(20, 20)
    expect_no_drop_feedback(page)

    page.wait_for_function(SETTLED)   # the rows the landing gap pushed are back where they stay
    point = page.evaluate(WHERE_THE_LAST_DRAG_WAS)
    assert point, "the element the cancelled drag last entered is covered everywhere"
    x, y = point
    # Where a drop there goes: after the rows of Places above the point (no gap is open now).
    above = page.evaluate("""(y) => [...document.querySelectorAll('[data-list="places"] > .rows > [data-item]')]
        .filter((row) => row.getBoundingClientRect().bottom <= y).length""", y)
    page.evaluate("() => { window.__dragEvents = []; }")
    drag = ExternalDrag(page, items=items)
    try:
        with page.expect_response(is_external_begin, timeout=10_000) as begun:
            drag.send("dragEnter", x, y)
            drag.send("dragOver", x, y)
        response = begun.value
    except PlaywrightTimeoutError:
        raise AssertionError(f"a drag that reached the page only as {page.evaluate('() => window.__dragEvents')} "
                             "began no session (/api/sessions/external)") from None
    events = page.evaluate("() => window.__dragEvents")
    # What this test is about: the browser itself sent no dragenter.
    assert "dragover" in events and "dragenter" not in events, f"not the case under test, the page got {events}"
    assert response.status in (200, 201), f"the page could not begin the session: {response.status} {response.text()}"
    response.finished()
    drag.begun = response.json()
    drag._settle()   # the page takes the answer in, as after `ExternalDrag.enter`
    assert drag.begun["token"] != cancelled.begun["token"]
    drag.lands_at = above
    return drag


def test_a_drag_that_gets_only_dragover_after_a_cancel_is_dropped(page, server):
    begins = external_begins(page)
    before = version(page)
    drag = enter_where_a_cancelled_drag_was(page, [("text/plain", "Madrid")])
    # Still where it entered (read against the rows as they were before the landing gap opened).
    drag.send("dragOver", drag.x + 1, drag.y)
    expect(list_of(page, "places")).to_have_attribute("data-drop-operation", "copy")
    answer = drop_and_wait(page, drag)
    assert answer["operation"] == "copy", answer
    wait_version(page, before + 1)
    landed = PLACES[:drag.lands_at] + ["Madrid"] + PLACES[drag.lands_at:]
    expect(title_cells(page, "places")).to_have_text(landed)
    expect_no_drop_feedback(page)
    assert len(begins) == 2, f"one session per drag, not {begins}"

    page.reload()
    expect(title_cells(page, "places")).to_have_text(landed)


def test_a_drag_that_gets_only_dragover_after_a_cancel_ends_when_it_leaves_the_window(page, server):
    before = version(page)
    drag = enter_where_a_cancelled_drag_was(page, [("text/plain", "Madrid")])
    drag.hover(row(page, "cat-1", "Feather wand"), "top")
    expect(list_of(page, "cat-1")).to_have_attribute("data-drop-operation", "copy")
    with page.expect_request(is_end_of(drag.begun["token"])):
        drag.leave_window()
    expect_no_drop_feedback(page)
    assert version(page) == before
    expect(title_cells(page, "places")).to_have_text(PLACES)


# ---------------------------------------------------------------- the page's events, dispatched directly

#: Dispatches `events` (`[type, x, y]`), as the browser would, on the element at each point, all
#: carrying one DataTransfer with `text`, in one task: no answer from the network comes in between.
#: Returns whether each was cancelled.
DISPATCH = """([text, events]) => {
    const transfer = new DataTransfer();
    transfer.setData('text/plain', text);
    return events.map(([type, clientX, clientY]) => {
        const event = new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer, relatedTarget: null, clientX, clientY });
        document.elementFromPoint(clientX, clientY).dispatchEvent(event);
        return event.defaultPrevented;
    });
}"""


#: One more dragover at (x, y), as the browser sends every ~50 ms; true once the list drew `operation`.
HOVER_UNTIL = """([text, x, y, list, operation]) => {
    const transfer = new DataTransfer();
    transfer.setData('text/plain', text);
    document.elementFromPoint(x, y).dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: transfer, clientX: x, clientY: y }));
    return document.querySelector(`[data-list="${list}"]`).dataset.dropOperation === operation;
}"""


def is_drop_response(response) -> bool:
    return response.request.method == "POST" and bool(re.search(r"/api/sessions/[0-9a-f]{32}/drop$", response.url))


def test_a_dragover_with_no_dragenter_begins_one_session_and_a_drop_before_its_answer_is_made(page, server):
    begins = external_begins(page)
    before = version(page)
    x, y = point_in(row(page, "places", "Lisbon"), "top")
    with page.expect_response(is_drop_response, timeout=10_000) as dropped:
        # Five dragovers and the drop in one task: the drop comes before the begin's answer.
        cancelled = page.evaluate(DISPATCH, ["Madrid", [["dragover", x, y]] * 5 + [["drop", x, y]]])
    assert cancelled == [True] * 6, f"the page let the browser handle a drag from elsewhere: {cancelled}"
    assert dropped.value.status == 200, dropped.value.text()
    assert dropped.value.json()["operation"] == "copy"
    wait_version(page, before + 1)
    expect(title_cells(page, "places")).to_have_text(["Paris", "Madrid", "Lisbon", "Oslo", "Kyoto", "Reykjavík"])
    expect_no_drop_feedback(page)
    assert len(begins) == 1, f"several sessions begun for one drag: {begins}"

    page.reload()
    expect(title_cells(page, "places")).to_have_text(["Paris", "Madrid", "Lisbon", "Oslo", "Kyoto", "Reykjavík"])


def test_a_dragover_with_no_dragenter_begins_one_session_and_a_drop_after_its_answer_is_made(page, server):
    begins = external_begins(page)
    before = version(page)
    x, y = point_in(row(page, "places", "Kyoto"), "top")
    with page.expect_response(is_external_begin, timeout=10_000):
        page.evaluate(DISPATCH, ["Madrid", [["dragover", x, y]] * 3])
    # Dragovers go on until one, with the table in hand, draws the copy: the answer has been taken in.
    page.wait_for_function(HOVER_UNTIL, arg=["Madrid", x, y, "places", "copy"])
    with page.expect_response(is_drop_response, timeout=10_000) as dropped:
        page.evaluate(DISPATCH, ["Madrid", [["dragover", x, y], ["drop", x, y]]])
    assert dropped.value.status == 200, dropped.value.text()
    wait_version(page, before + 1)
    expect(title_cells(page, "places")).to_have_text(["Paris", "Lisbon", "Oslo", "Madrid", "Kyoto", "Reykjavík"])
    assert len(begins) == 1, f"several sessions begun for one drag: {begins}"

    page.reload()
    expect(title_cells(page, "places")).to_have_text(["Paris", "Lisbon", "Oslo", "Madrid", "Kyoto", "Reykjavík"])


def test_a_session_begun_at_a_dragover_counts_as_entered_once(page, server):
    """Where a browser names no element entered next, the enter/leave count decides: a drag begun at
    a dragover has entered once, so moving on to another row keeps it, and only leaving ends it."""
    begins = external_begins(page)
    before = version(page)
    oslo, kyoto = point_in(row(page, "places", "Oslo"), "top"), point_in(row(page, "places", "Kyoto"), "top")
    with page.expect_response(is_external_begin, timeout=10_000) as begun:
        page.evaluate(DISPATCH, ["Madrid", [["dragover", *oslo]]])
    token = begun.value.json()["token"]
    # On to Kyoto: entered there, then left Oslo for an element the event does not name.
    page.evaluate(DISPATCH, ["Madrid", [["dragenter", *kyoto], ["dragleave", *oslo]]])
    page.wait_for_function(HOVER_UNTIL, arg=["Madrid", *kyoto, "places", "copy"])
    with page.expect_request(is_end_of(token), timeout=10_000):
        page.evaluate(DISPATCH, ["Madrid", [["dragleave", *kyoto]]])
    expect_no_drop_feedback(page)
    assert len(begins) == 1, f"several sessions begun for one drag: {begins}"
    assert version(page) == before
