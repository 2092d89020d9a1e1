"""Drop feedback appears while hovering and disappears after a drop or a cancelled drag; the
client never asks the server per dragover."""
import json

from playwright.sync_api import expect

from helpers import (expect_no_drop_feedback, is_session_call, list_of, point_in, row, start_drag,
                     version, wait_version)


def test_feedback_is_shown_while_hovering_and_removed_after_the_drop(page, server):
    before = version(page)
    session = start_drag(page, row(page, "cat-1", "Feather wand"))
    session.hover(row(page, "cat-3", "Crinkle tunnel"), "bottom")
    cat = list_of(page, "cat-3")
    expect(cat).to_have_attribute("data-drop-operation", "move")
    expect(cat).to_have_attribute("data-drop-intent", "insert-at")
    expect(page.locator(".drop-indicator")).to_be_visible()
    # Only the hovered target carries feedback.
    expect(page.locator("[data-drop-operation]")).to_have_count(1)
    session.release()

    wait_version(page, before + 1)
    expect_no_drop_feedback(page)
    expect(page.locator(".is-dragging")).to_have_count(0)


def test_feedback_is_removed_when_the_pointer_leaves_and_the_drag_is_released_outside_any_list(page, server):
    before = version(page)
    session = start_drag(page, row(page, "cat-1", "Feather wand"))
    session.hover(row(page, "cat-2", "Laser pointer"), "middle")
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-operation", "move")
    expect(page.locator(".drop-indicator")).to_be_visible()

    x, y = point_in(page.locator(".masthead h1"))
    session.move_to(x, y)
    session.move_to(x + 1, y, steps=1)
    expect_no_drop_feedback(page)
    dropped = session.release()

    assert dropped is None
    assert session.ended["operation"] == "cancel"
    expect_no_drop_feedback(page)
    expect(page.locator(".is-dragging")).to_have_count(0)
    assert version(page) == before


def test_feedback_is_removed_when_the_drag_ends_over_a_target_that_refuses_it(page, server):
    before = version(page)
    session = start_drag(page, row(page, "people", "Grace Hopper"))
    session.hover(row(page, "cat-1", "Ball of yarn"), "middle")
    expect(list_of(page, "cat-1")).to_have_attribute("data-drop-operation", "forbidden")
    expect(page.locator(".drop-badge--forbidden")).to_be_visible()
    session.release()  # over the cat, which refuses: no drop event, the end of the drag clears it

    expect_no_drop_feedback(page)
    assert version(page) == before


def test_hovering_one_target_sends_one_target_request_and_none_per_dragover(page, server):
    requests = []
    page.on("request", lambda request: requests.append(request) if is_session_call(request.url) else None)
    page.evaluate("""() => {
        window.__dragovers = 0;
        document.addEventListener('dragover', () => { window.__dragovers += 1; }, true);
    }""")

    session = start_drag(page, row(page, "cat-1", "Catnip mouse"))
    target = row(page, "cat-2", "Laser pointer")
    with page.expect_response(lambda response: is_session_call(response.url, "target")
                              and json.loads(response.request.post_data)["target"] == {"list": "cat-2"}):
        session.hover(target, "top")
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-operation", "move")
    # Back over the dragged row itself, whose neighbours hold still: beside the lifted row no landing
    # gap opens to push rows under the pointer (motion.js).
    source = row(page, "cat-1", "Catnip mouse")
    with page.expect_response(lambda response: is_session_call(response.url, "target")
                              and json.loads(response.request.post_data)["target"] == {"list": "cat-1"}):
        session.hover(source, "middle")

    mark = len(requests)
    dragovers = page.evaluate("window.__dragovers")
    # Small moves over the empty right part of one row, crossing its middle (so the destination
    # index changes): Chromium fires dragover only when the element under the pointer stays the
    # same, dragenter/dragleave otherwise.
    box = source.bounding_box()
    for step in range(30):
        fraction = 0.3 if step % 2 == 0 else 0.7
        page.mouse.move(box["x"] + box["width"] - 15 - step * 2, box["y"] + box["height"] * fraction)
    fired = page.evaluate("window.__dragovers") - dragovers
    assert fired == 30, f"{fired} dragover events fired over 30 mouse moves"
    expect(list_of(page, "cat-1")).to_have_attribute("data-drop-operation", "move")
    during = requests[mark:]
    session.release()

    assert during == [], f"requests while hovering one target: {[r.url for r in during]}"
    after = [request.url.rsplit("/", 1)[1] for request in requests[mark:]]
    assert after == ["drop", "end"]
    to_cat_2 = [request for request in requests if is_session_call(request.url, "target")
                and json.loads(request.post_data)["target"] == {"list": "cat-2"}]
    assert len(to_cat_2) == 1, f"{len(to_cat_2)} target requests for cat-2"
