"""A row moved between two windows that show different boards of the same server: window A
(the demo board) starts a real-mouse drag of a toy, window B (a board of one's own) joins the
session and drops it on a Cards list. It is a move: the toy leaves A's board, live."""
from playwright.sync_api import expect

from data_helpers import COPY, MOVE, RECORD_SET_DATA, ExternalDrag, drop_and_wait, is_join, wait_ready
from helpers import point_in, row, start_drag, title_cells, version, wait_version
from test_boards import add_list, create_board, open_page


def test_a_toy_dragged_from_the_demo_board_moves_to_a_card_list_of_another_board(page, context, server, console_errors):
    context.add_init_script(RECORD_SET_DATA)
    other = open_page(context, server.url + "/", console_errors)
    create_board(other, "Elsewhere")
    inbox = add_list(other, "Inbox")
    page.reload()
    wait_ready(page)
    before = version(page)
    moved = row(page, "cat-1", "Feather wand").get_attribute("data-item")

    session = start_drag(page, row(page, "cat-1", "Feather wand"))
    written = page.evaluate("window.__setData")
    x, y = point_in(page.locator(".masthead h1"))
    session.move_to(x, y)
    session.move_to(x + 1, y, steps=1)

    other.bring_to_front()
    drag = ExternalDrag(other, items=written, mask=COPY | MOVE)
    drag.enter(inbox, begins=is_join(session.token))
    expect(inbox).to_have_attribute("data-drop-operation", "move")
    answer = drop_and_wait(other, drag)
    assert answer["operation"] == "move", answer
    expect(inbox.locator("[data-item] > .title")).to_have_text(["Feather wand"])
    expect(inbox.locator("[data-item]")).to_have_attribute("data-item", moved)

    page.bring_to_front()
    assert session.release() is None
    assert session.ended["operation"] == "move", session.ended
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Catnip mouse"])
    page.reload()
    wait_ready(page)
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Catnip mouse"])
    assert console_errors.unexpected() == []
