"""Moving rows without dragging: the move-to menu (the same session API as a drag), and the
same choice as a plain form with JavaScript turned off (decided by the same engine, 303 back)."""
from playwright.sync_api import expect

from helpers import list_of, row, title_cells, version, wait_version


def open_menu(page, row_locator):
    row_locator.focus()
    button = row_locator.locator(':scope > button[data-action="move-to"]')
    button.click()
    expect(button).to_have_attribute("aria-expanded", "true")
    return page.locator('.move-menu [role="menuitem"]')


def test_the_menu_lists_the_destinations_the_server_allows_and_moves_the_row(page):
    before = version(page)
    items = open_menu(page, row(page, "cat-1", "Feather wand"))
    # Toys: the cats, the toy boxes and each box's contents take a move, places and the label a copy; people refuse toys.
    expect(items).to_have_text(["Move to Whiskers", "Move to Tom", "Move to Luna", "Copy to Places", "Move to Toy boxes", "Move to Red box", "Move to Blue box", "Move to Green box", "Copy to Label", "Another board or place…"])
    expect(items.first).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(items.nth(1)).to_be_focused()
    page.keyboard.press("Enter")
    wait_version(page, before + 1)
    expect(page.locator("#status")).to_have_text("Moved Feather wand from Whiskers to Tom.")
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Bell ball", "Feather wand"])
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Catnip mouse"])
    expect(row(page, "cat-2", "Feather wand")).to_be_focused()
    expect(page.locator(".move-menu")).to_be_hidden()
    expect(page.locator(".is-dragging")).to_have_count(0)


def test_a_person_is_not_offered_the_cats_and_escape_closes_the_menu(page):
    before = version(page)
    ada = row(page, "people", "Ada Lovelace")
    items = open_menu(page, ada)
    expect(items).to_have_text(["Copy to Places", "Move to People", "Copy to Label", "Another board or place…"])   # cats forbid people
    page.keyboard.press("Escape")
    expect(page.locator(".move-menu")).to_be_hidden()
    expect(ada.locator(':scope > button[data-action="move-to"]')).to_be_focused()
    expect(page.locator("#status")).to_have_text("Cancelled. Ada Lovelace stays in People.")
    assert version(page) == before


def test_a_copy_to_a_zone_from_the_menu(page):
    before = version(page)
    items = open_menu(page, row(page, "places", "Oslo"))
    items.filter(has_text="Copy to Label").click()
    wait_version(page, before + 1)
    expect(page.locator('[data-zone="label"] .label-text')).to_have_text("Oslo")
    expect(title_cells(page, "places")).to_have_text(["Paris", "Lisbon", "Oslo", "Kyoto", "Reykjavík"])


def test_without_javascript_the_move_form_moves_the_row(browser, server):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server.demo)
        mouse = row(page, "cat-1", "Catnip mouse")
        mouse.focus()
        with page.expect_navigation():
            mouse.locator(':scope > button[data-action="move-to"]').click()
        assert "/move?item=" in page.url
        expect(page.locator("h1")).to_have_text("Move Catnip mouse")
        groups = page.locator('form[data-form="move"] select[name="to"] optgroup')
        assert groups.evaluate_all("(groups) => groups.map((group) => group.label)") == [
            "Move to Whiskers", "Move to Tom", "Move to Luna", "Copy to Places", "Move to Toy boxes", "Move to Red box", "Move to Blue box", "Move to Green box", "Copy to Label"]
        expect(groups.nth(2).locator("option")).to_have_text(["Move to Luna, at the bottom", "Move to Luna, at the top", "Move to Luna, after Crinkle tunnel", "Move to Luna, after Scratching post"])
        page.locator('select[name="to"]').select_option(label="Move to Luna, at the bottom")
        with page.expect_navigation():
            page.locator('form[data-form="move"] button[type="submit"]').click()
        assert page.url.split("?")[0] == server.demo   # (?done= names what the form did)
        expect(title_cells(page, "cat-3")).to_have_text(["Crinkle tunnel", "Scratching post", "Catnip mouse"])
        expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Feather wand"])
    finally:
        context.close()


def test_without_javascript_a_refused_move_says_why_and_changes_nothing(browser, server):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server.demo)
        before = version(page)
        ada = row(page, "people", "Ada Lovelace").get_attribute("data-item")
        page.goto(f"{server.demo.rsplit('/', 1)[0]}/demo/move?item={ada}")
        # The page offers only what the engine allows; a forged choice is refused with the reason.
        page.locator('select[name="to"] option').first.evaluate("(option) => { option.value = 'list:cat-2'; }")
        response_status = []
        page.on("response", lambda response: response_status.append(response.status) if response.request.method == "POST" else None)
        with page.expect_navigation():
            page.locator('form[data-form="move"] button[type="submit"]').click()
        assert response_status == [422]
        expect(page.locator(".error")).to_have_text("Not moved: Tom only plays with toys, not with people.")
        page.goto(server.demo)
        assert version(page) == before
        expect(title_cells(page, "people")).to_have_text(["Ada Lovelace", "Alan Turing", "Grace Hopper"])
        expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Bell ball"])
    finally:
        context.close()


def test_without_javascript_a_toy_moves_into_a_box_from_the_move_form(browser, server):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server.demo)
        mouse = row(page, "cat-1", "Catnip mouse")
        mouse.focus()
        with page.expect_navigation():
            mouse.locator(':scope > button[data-action="move-to"]').click()
        page.locator('select[name="to"]').select_option(label="Move to Green box, at the bottom")
        with page.expect_navigation():
            page.locator('form[data-form="move"] button[type="submit"]').click()
        assert page.url.split("?")[0] == server.demo   # (?done= names what the form did)
        expect(title_cells(page, "box-green")).to_have_text(["Spinning top", "Marble", "Catnip mouse"])
        expect(page.locator('[data-item="box-green"] .count')).to_have_text("3")
        expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Feather wand"])
    finally:
        context.close()


def test_without_javascript_a_toy_moves_out_of_a_box_from_the_move_form(browser, server):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server.demo)
        duck = page.locator('[data-list="box-red"] > .rows > [data-item]').first.get_attribute("data-item")
        page.goto(f"{server.demo}/move?item={duck}")
        expect(page.locator("h1")).to_have_text("Move Rubber duck")
        page.locator('select[name="to"]').select_option(label="Move to Tom, at the bottom")
        with page.expect_navigation():
            page.locator('form[data-form="move"] button[type="submit"]').click()
        assert page.url.split("?")[0] == server.demo   # (?done= names what the form did)
        expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Bell ball", "Rubber duck"])
        expect(page.locator('[data-item="box-red"] .count')).to_have_text("0")
    finally:
        context.close()


def test_without_javascript_a_card_goes_to_another_board_after_a_named_card(browser, server):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.locator('form[data-form="new-board"] input[name="title"]').fill("Elsewhere")
        with page.expect_navigation():
            page.locator('form[data-form="new-board"] button[type="submit"]').click()
        elsewhere = page.url
        page.locator('form[data-form="new-list"] input[name="title"]').fill("Inbox")
        with page.expect_navigation():
            page.locator('form[data-form="new-list"] button[type="submit"]').click()
        for title in ["One", "Two"]:
            page.locator('form[data-form="new-item"] textarea[name="title"], form[data-form="new-item"] input[name="title"]').fill(title)
            with page.expect_navigation():
                page.locator('form[data-form="new-item"] button[type="submit"]').click()

        page.goto(server.demo)
        oslo = row(page, "places", "Oslo")
        oslo.focus()
        with page.expect_navigation():
            oslo.locator(':scope > button[data-action="move-to"]').click()
        page.locator('form[data-form="move-board"] select[name="to-board"]').select_option(label="Elsewhere")
        with page.expect_navigation():
            page.locator('form[data-form="move-board"] button[type="submit"]').click()
        expect(page.locator('form[data-form="move"]')).to_contain_text("Where, on Elsewhere")
        page.locator('form[data-form="move"] select[name="to"]').select_option(label="Move to Inbox, after One")
        with page.expect_navigation():
            page.locator('form[data-form="move"] button[type="submit"]').click()
        expect(title_cells(page, "places")).to_have_text(["Paris", "Lisbon", "Kyoto", "Reykjavík"])
        page.goto(elsewhere)
        expect(page.locator(".list .rows > [data-item] .title")).to_have_text(["One", "Oslo", "Two"])
    finally:
        context.close()
