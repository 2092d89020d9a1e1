"""An applied drop is stored: a reload and a server restart on the same database show it."""
from playwright.sync_api import expect

from helpers import READY, board_state, drag, row, title_cells, version, wait_version


def _wait_ready(page):
    page.wait_for_function(READY)


def test_a_move_survives_a_reload_and_a_server_restart(page, server, console_errors):
    before = version(page)
    drag(page, row(page, "cat-2", "Bell ball"), row(page, "cat-3", "Scratching post"), position="bottom")
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-3")).to_have_text(["Crinkle tunnel", "Scratching post", "Bell ball"])
    state = board_state(page)
    ids = page.eval_on_selector_all("[data-item]", "rows => rows.map((row) => row.dataset.item)")

    page.reload()
    _wait_ready(page)
    assert version(page) == before + 1
    assert board_state(page) == state
    assert page.eval_on_selector_all("[data-item]", "rows => rows.map((row) => row.dataset.item)") == ids

    console_errors.expect_outage()
    server.restart()
    page.reload()
    _wait_ready(page)
    assert version(page) == before + 1
    assert board_state(page) == state
    assert page.eval_on_selector_all("[data-item]", "rows => rows.map((row) => row.dataset.item)") == ids
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer"])
