"""A move across two windows of the same origin: window A starts a real-mouse drag of a toy;
its DataTransfer (session type included) arrives in window B, which recognises the session of
this app (`/join`), offers a move and drops; when A's drag ends, A learns the outcome from the
server and shows the toy where B put it. Exactly one copy of the toy exists."""
from playwright.sync_api import expect

from data_helpers import (COPY, MOVE, RECORD_SET_DATA, SESSION_TYPE, ExternalDrag, board_markup, count_title,
                          drop_and_wait, is_join, open_board, wait_ready)
from helpers import list_of, point_in, row, start_drag, title_cells, version, wait_version


def test_a_toy_dragged_from_one_window_is_moved_by_a_drop_in_another(page, context, server, console_errors):
    context.add_init_script(RECORD_SET_DATA)
    page.reload()
    wait_ready(page)
    other = open_board(context, server, console_errors)
    before = version(page)
    assert version(other) == before
    moved = row(page, "cat-1", "Feather wand").get_attribute("data-item")

    # Window A: the drag begins and the mouse stays down; the pointer leaves A's lists (on its
    # way to the other window: no list of A is targeted when B drops).
    session = start_drag(page, row(page, "cat-1", "Feather wand"))
    written = page.evaluate("window.__setData")
    x, y = point_in(page.locator(".masthead h1"))
    session.move_to(x, y)
    session.move_to(x + 1, y, steps=1)
    expect(page.locator("[data-drop-operation]")).to_have_count(0)
    tokens = [SESSION_TYPE.fullmatch(kind).group(1) for kind, _ in written if SESSION_TYPE.fullmatch(kind)]
    assert tokens == [session.token], written

    # Window B: the same DataTransfer comes in; B joins the session and is offered a move.
    drag = ExternalDrag(other, items=written, mask=COPY | MOVE)
    drag.enter(row(other, "cat-2", "Laser pointer"), "top", begins=is_join(session.token))
    assert drag.begun["token"] == session.token
    cat = list_of(other, "cat-2")
    expect(cat).to_have_attribute("data-drop-operation", "move")
    expect(cat).to_have_attribute("data-drop-intent", "insert-at")
    answer = drop_and_wait(other, drag)
    assert answer["operation"] == "move", answer
    wait_version(other, before + 1)
    expect(title_cells(other, "cat-2")).to_have_text(["Feather wand", "Laser pointer", "Bell ball"])
    expect(title_cells(other, "cat-1")).to_have_text(["Ball of yarn", "Catnip mouse"])
    expect(row(other, "cat-2", "Feather wand")).to_have_attribute("data-item", moved)  # the same item, not a copy
    expect(other.locator("[data-drop-operation]")).to_have_count(0)

    # Window A: released over no list; the end of the drag tells A what happened.
    assert session.release() is None, "A itself dropped nothing"
    assert session.ended["operation"] == "move", session.ended
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Feather wand", "Laser pointer", "Bell ball"])
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Catnip mouse"])
    expect(row(page, "cat-2", "Feather wand")).to_have_attribute("data-item", moved)
    expect(page.locator(".is-dragging")).to_have_count(0)

    # Exactly one Feather wand on the board: in both windows and on the server.
    for window in (page, other):
        expect(window.locator('[data-list] > .rows > [data-item] > .title', has_text="Feather wand")).to_have_count(1)
    assert count_title(board_markup(page, server.url), "Feather wand") == 1
    page.reload()
    wait_ready(page)
    expect(title_cells(page, "cat-2")).to_have_text(["Feather wand", "Laser pointer", "Bell ball"])
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Catnip mouse"])
    assert version(page) == before + 1
