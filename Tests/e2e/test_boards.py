"""Boards people make, with JavaScript: the index, new boards, lists and cards added in place,
titles edited in place with the mouse and the keyboard, deletions, and everything still there
after a reload and a restart of the server."""
import re

from playwright.sync_api import Page, expect

from helpers import READY, open_composer, open_list_menu, version, wait_version



def open_page(context, url: str, console_errors) -> Page:
    opened = console_errors.watch(context.new_page())
    opened.goto(url)
    return opened


def create_board(page: Page, title: str) -> str:
    """Types a title into the index's new-board form and presses Enter; returns the board id."""
    field = page.locator('form[data-form="new-board"] input[name="title"]')
    field.click()
    page.keyboard.type(title)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_function(READY)
    match = re.search(r"/boards/([\w-]+)$", page.url)
    assert match, page.url
    expect(page.locator(".board-title")).to_have_text(title)
    return match.group(1)


def add_list(page: Page, title: str):
    field = open_composer(page, "new-list")
    field.click()
    page.keyboard.type(title)
    page.keyboard.press("Enter")
    expect(page.locator(".list-title", has_text=title)).to_have_count(1)
    return page.locator(".list[data-list]", has=page.locator(".list-title", has_text=title))


def add_card(page: Page, list_section, title: str):
    open_composer(list_section, "new-item").click()
    page.keyboard.type(title)
    page.keyboard.press("Enter")
    expect(list_section.locator("[data-item] .title", has_text=title)).to_have_count(1)


def cards(list_section) -> list[str]:
    return list_section.locator(":scope > .rows > [data-item] > .title").all_inner_texts()


def test_two_boards_are_made_filled_edited_and_survive_reload_and_restart(context, server, console_errors):
    page = open_page(context, server.url + "/", console_errors)
    expect(page.locator('a[data-board-link="demo"]')).to_be_visible()
    first = create_board(page, "Groceries")
    page.goto(server.url + "/")
    second = create_board(page, "Holidays")
    page.goto(server.url + "/")
    links = page.locator("a[data-board-link]")
    assert [links.nth(i).get_attribute("data-board-link") for i in range(links.count())] == [second, first, "demo"]

    # On the second board: a list and cards, added in place (the document is never reloaded).
    page.locator(f'a[data-board-link="{second}"]').click()
    page.wait_for_function(READY)
    page.evaluate("window.__sameDocument = true")
    todo = add_list(page, "To pack")
    for title in ["Tent", "Stove", "Map"]:
        add_card(page, todo, title)
    assert cards(todo) == ["Tent", "Stove", "Map"]

    # A card renamed in place with F2 (a click opens the card), Enter saves; a rename cancelled with Escape.
    todo.locator("[data-item]", has_text="Stove").focus()
    page.keyboard.press("F2")
    editor = todo.locator('input[name="title"].inline-edit')
    expect(editor).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("Camping stove")
    renamed = version(page) + 1
    page.keyboard.press("Enter")
    wait_version(page, renamed)
    expect(todo.locator("[data-item] .title", has_text="Camping stove")).to_have_count(1)
    todo.locator("[data-item]", has_text="Map").focus()
    page.keyboard.press("F2")
    page.keyboard.type("Compass")
    page.keyboard.press("Escape")
    expect(editor).to_have_count(0)
    # The list renamed from the keyboard: Enter on its focused title.
    todo.locator(".list-title").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Control+A")
    page.keyboard.type("Packing")
    renamed = version(page) + 1
    page.keyboard.press("Enter")
    wait_version(page, renamed)   # the lists were fetched again and swapped in
    expect(page.locator(".list-title", has_text="Packing")).to_be_focused()   # the keyboard stays where it was
    todo = page.locator(".list[data-list]", has=page.locator(".list-title", has_text="Packing"))
    expect(todo.locator(".list-title")).to_have_text("Packing")
    # A focused card deleted with the Delete key.
    todo.locator("[data-item]", has_text="Tent").focus()
    page.keyboard.press("Delete")
    expect(todo.locator("[data-item]")).to_have_count(2)
    assert cards(todo) == ["Camping stove", "Map"]
    assert page.evaluate("window.__sameDocument") is True

    page.reload()
    page.wait_for_function(READY)
    todo = page.locator(".list[data-list]", has=page.locator(".list-title", has_text="Packing"))
    assert cards(todo) == ["Camping stove", "Map"]

    console_errors.expect_outage()
    server.restart()
    page.goto(f"{server.url}/boards/{second}")
    page.wait_for_function(READY)
    todo = page.locator(".list[data-list]", has=page.locator(".list-title", has_text="Packing"))
    assert cards(todo) == ["Camping stove", "Map"]
    page.goto(f"{server.url}/boards/{first}")
    page.wait_for_function(READY)
    expect(page.locator(".board-title")).to_have_text("Groceries")
    assert console_errors.unexpected() == []


def test_deleting_a_list_with_cards_and_a_board_asks_first(context, server, console_errors):
    page = open_page(context, server.url + "/", console_errors)
    board = create_board(page, "Scratch")
    notes = add_list(page, "Notes")
    add_card(page, notes, "Keep me")

    dialogs = []
    def answer(dialog, accept):
        dialogs.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    open_list_menu(notes).locator('button[data-action="delete"][aria-label^="Delete the list"]').click()   # in the list's "⋯" menu
    expect(notes).to_have_count(1)
    assert "Notes" in dialogs[-1] and "1 card" in dialogs[-1]
    page.once("dialog", lambda dialog: answer(dialog, True))
    notes.locator('button[data-action="delete"][aria-label^="Delete the list"]').click()
    expect(page.locator(".list[data-list]")).to_have_count(0)

    page.locator(".board-settings summary").click()
    page.once("dialog", lambda dialog: answer(dialog, True))
    with page.expect_navigation():
        page.locator('form[data-form="delete-board"] button[data-action="delete"]').click()
    assert "Scratch" in dialogs[-1]
    expect(page.locator(f'a[data-board-link="{board}"]')).to_have_count(0)
    assert console_errors.unexpected() == []


def test_a_viewer_of_the_board_sees_every_change_live_and_others_do_not(context, server, console_errors):
    page = open_page(context, server.url + "/", console_errors)
    board = create_board(page, "Shared")
    other = open_page(context, f"{server.url}/boards/{board}", console_errors)
    other.wait_for_function(READY)
    demo = open_page(context, server.demo, console_errors)
    demo.wait_for_function(READY)
    demo_version = demo.get_attribute("[data-board]", "data-version")
    other.evaluate("window.__sameDocument = true")

    page.bring_to_front()
    ideas = add_list(page, "Ideas")
    add_card(page, ideas, "Live card")
    seen = other.locator(".list[data-list]", has=other.locator(".list-title", has_text="Ideas"))
    expect(seen.locator("[data-item] .title")).to_have_text(["Live card"])
    assert other.evaluate("window.__sameDocument") is True
    assert demo.get_attribute("[data-board]", "data-version") == demo_version
    assert console_errors.unexpected() == []


def test_bad_titles_are_refused_with_a_message_that_says_what_to_fix(context, server, console_errors):
    page = open_page(context, server.url + "/", console_errors)
    create_board(page, "Strict")
    console_errors.expect("status of 400", "/lists")
    field = open_composer(page, "new-list")
    field.evaluate("(input) => { input.removeAttribute('required'); input.removeAttribute('maxlength'); }")
    field.fill("x" * 501)
    page.keyboard.press("Enter")
    expect(page.locator("#status")).to_contain_text("shorten it to 500")
    expect(page.locator(".list[data-list]")).to_have_count(0)


def test_a_list_dragged_by_its_header_moves_between_lists_and_stays_there(context, server, console_errors):
    from helpers import start_drag
    page = open_page(context, server.url + "/", console_errors)
    create_board(page, "Columns")
    for title in ["Alpha", "Beta", "Gamma"]:
        add_list(page, title)

    def list_titled(title):
        return page.locator(".list[data-list]", has=page.locator(".list-title", has_text=title))

    session = start_drag(page, list_titled("Gamma").locator(".list-header"))
    box = list_titled("Alpha").bounding_box()
    session.move_to(box["x"] + 20, box["y"] + box["height"] / 2)
    session.move_to(box["x"] + 22, box["y"] + box["height"] / 2, steps=1)
    expect(page.locator("[data-board]")).to_have_attribute("data-drop-operation", "move")
    expect(list_titled("Alpha")).to_have_attribute("data-drop-before", "")
    # Rows' lists are no targets of a list: the engine's table has only the board.
    assert [entry["target"] for entry in session.begun["table"]["targets"]] == [{"list": "_board"}]
    dropped = session.release()
    assert dropped["operation"] == "move"
    expect(page.locator(".list-title")).to_have_text(["Gamma", "Alpha", "Beta"])
    expect(page.locator("[data-drop-before], [data-drop-after], [data-drop-operation]")).to_have_count(0)

    page.reload()
    page.wait_for_function(READY)
    expect(page.locator(".list-title")).to_have_text(["Gamma", "Alpha", "Beta"])
    assert console_errors.unexpected() == []


def test_other_viewers_see_a_rename_live_and_leave_a_deleted_board(context, server, console_errors):
    page = open_page(context, server.url + "/", console_errors)
    board = create_board(page, "Before")
    other = open_page(context, f"{server.url}/boards/{board}", console_errors)
    other.wait_for_function(READY)
    other.wait_for_function("() => document.querySelector('[data-board]').dataset.version !== undefined")

    page.bring_to_front()
    page.locator(".board-title").dblclick()
    page.keyboard.press("Control+A")
    page.keyboard.type("After")
    renamed = version(page) + 1
    page.keyboard.press("Enter")
    wait_version(page, renamed)
    expect(page.locator(".board-title")).to_have_text("After")
    expect(other.locator(".board-title")).to_have_text("After")

    page.locator(".board-settings summary").click()
    page.once("dialog", lambda dialog: dialog.accept())
    with other.expect_navigation(url=server.url + "/"):
        with page.expect_navigation():
            page.locator('form[data-form="delete-board"] button[data-action="delete"]').click()
    expect(other.locator(f'a[data-board-link="{board}"]')).to_have_count(0)
    assert console_errors.unexpected() == []


def test_cards_are_reordered_and_moved_between_lists_with_the_mouse(context, server, console_errors):
    from helpers import drag
    page = open_page(context, server.url + "/", console_errors)
    create_board(page, "Kanban")
    todo = add_list(page, "Todo")
    done = add_list(page, "Done")
    for title in ["Write", "Test", "Ship"]:
        add_card(page, todo, title)
    add_card(page, done, "Plan")

    session = drag(page, todo.locator("[data-item]", has_text="Ship"), todo.locator("[data-item]", has_text="Write"), "top")
    assert session.dropped["operation"] == "move"
    expect(todo.locator("[data-item] > .title")).to_have_text(["Ship", "Write", "Test"])
    session = drag(page, todo.locator("[data-item]", has_text="Write"), done.locator("[data-item]", has_text="Plan"), "bottom")
    assert session.dropped["operation"] == "move"
    expect(todo.locator("[data-item] > .title")).to_have_text(["Ship", "Test"])
    expect(done.locator("[data-item] > .title")).to_have_text(["Plan", "Write"])

    page.reload()
    page.wait_for_function(READY)
    todo = page.locator(".list[data-list]", has=page.locator(".list-title", has_text="Todo"))
    done = page.locator(".list[data-list]", has=page.locator(".list-title", has_text="Done"))
    expect(todo.locator("[data-item] > .title")).to_have_text(["Ship", "Test"])
    expect(done.locator("[data-item] > .title")).to_have_text(["Plan", "Write"])
    assert console_errors.unexpected() == []
