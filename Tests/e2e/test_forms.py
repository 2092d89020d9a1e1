"""Every board form as a plain POST, in a browser with JavaScript turned off: each answers 303
back to the board (or the index), and bad input a 4xx page that says what to fix."""
import re

import pytest
from playwright.sync_api import expect


@pytest.fixture
def plain(browser):
    """A page that runs no script at all."""
    created = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 1000})
    yield created.new_page()
    created.close()


def submit(page, form, field: str | None = None, text: str | None = None):
    """Fills a form's title (when given) and submits it with the keyboard (Enter in a one-line field) or
    its button (a card's title is a textarea, where Enter without script is a new line)."""
    if field is not None:
        form.locator(f'input[name="{field}"], textarea[name="{field}"]').fill(text)
        with page.expect_navigation():
            if form.locator(f'textarea[name="{field}"]').count():
                form.locator("button[type=submit]").click()
            else:
                form.locator(f'input[name="{field}"]').press("Enter")
    else:
        with page.expect_navigation():
            form.locator("button[type=submit]").click()


def test_a_board_is_made_filled_renamed_and_emptied_without_javascript(plain, server):
    page = plain
    page.goto(server.url + "/")
    submit(page, page.locator('form[data-form="new-board"]'), "title", "Plain board")
    board = re.search(r"/boards/([\w-]+)$", page.url).group(1)
    expect(page.locator(".board-title")).to_have_text("Plain board")

    submit(page, page.locator('form[data-form="new-list"]'), "title", "Errands")
    errands = page.locator(".list[data-list]", has=page.locator(".list-title", has_text="Errands"))
    expect(errands).to_have_count(1)
    for title in ["Post office", "Bakery"]:
        submit(page, errands.locator('form[data-form="new-item"]'), "title", title)
    expect(errands.locator("[data-item] > .title")).to_have_text(["Post office", "Bakery"])

    errands.locator("details.list-menu summary").click()   # the "⋯" menu, a <details> without script
    submit(page, errands.locator('form[data-form="rename-list"]'), "title", "Chores")
    chores = page.locator(".list[data-list]", has=page.locator(".list-title", has_text="Chores"))
    expect(chores).to_have_count(1)

    bakery = chores.locator("[data-item]", has_text="Bakery")
    bakery.hover()
    with page.expect_navigation():
        bakery.locator('button[data-action="delete"]').click()
    assert re.search(fr"/boards/{board}\?done=[\w-]+$", page.url)
    expect(chores.locator("[data-item] > .title")).to_have_text(["Post office"])
    # The board says what the form did, and takes it back with a plain form too.
    expect(page.locator("[data-notice] p")).to_have_text("Deleted Bakery.")
    with page.expect_navigation():
        page.locator('[data-notice] form[data-form="undo"] button').click()
    expect(chores.locator("[data-item] > .title")).to_have_text(["Post office", "Bakery"])
    expect(page.locator("[data-notice] p")).to_have_text(re.compile("Undid"))

    page.locator(".board-settings summary").click()
    submit(page, page.locator('form[data-form="rename-board"]'), "title", "Renamed plainly")
    expect(page.locator(".board-title")).to_have_text("Renamed plainly")

    chores.locator("details.list-menu summary").click()
    with page.expect_navigation():
        chores.locator('form[data-form="delete-list"] button[data-action="delete"]').click()
    # A list with cards asks first, on a page of its own; Cancel goes back, the answer deletes.
    expect(page.locator("h1")).to_have_text("Delete the list “Chores”?")
    expect(page.locator("main")).to_contain_text("Its 2 cards go with it.")
    with page.expect_navigation():
        page.locator('form[data-form="confirm"] button[type="submit"]').click()
    expect(page.locator(".list[data-list]")).to_have_count(0)
    expect(page.locator("[data-notice] p")).to_have_text("Deleted the list Chores.")

    page.locator(".board-settings summary").click()
    with page.expect_navigation():
        page.locator('form[data-form="delete-board"] button[data-action="delete"]').click()
    expect(page.locator("h1")).to_have_text("Delete the board “Renamed plainly”?")
    with page.expect_navigation():
        page.locator('form[data-form="confirm"] button[type="submit"]').click()
    assert page.url == server.url + "/"
    expect(page.locator(f'a[data-board-link="{board}"]')).to_have_count(0)


def test_bad_input_without_javascript_is_a_4xx_page_that_says_what_to_fix(plain, server):
    page = plain
    page.goto(server.url + "/")
    field = page.locator('form[data-form="new-board"] input[name="title"]')
    # The browser's own checks (required, maxlength) are what a person meets first; the server
    # refuses on its own when they are bypassed.
    page.eval_on_selector('form[data-form="new-board"] input[name="title"]',
                          "(input) => { input.removeAttribute('required'); input.removeAttribute('maxlength'); }")
    field.fill("   ")
    with page.expect_navigation() as answered:
        field.press("Enter")
    assert answered.value.status == 400
    expect(page.locator("p.error")).to_contain_text("The title is empty")   # a sentence, capitalised
    expect(page.locator("main a[data-action=\"back\"]")).to_have_attribute("href", "/")   # and a way back to the form

    page.goto(server.url + "/")
    page.eval_on_selector('form[data-form="new-board"] input[name="title"]', "(input) => input.removeAttribute('maxlength')")
    field.fill("z" * 501)
    with page.expect_navigation() as answered:
        field.press("Enter")
    assert answered.value.status == 400
    expect(page.locator("p.error")).to_contain_text("shorten it to 500")
    page.goto(server.url + "/")
    expect(page.locator("a[data-board-link]")).to_have_count(1)

    response = page.request.post(server.url + "/boards/demo/items/delete", form={"item": "nope", "csrf": "0" * 32})
    assert response.status == 403


def test_a_card_is_renamed_without_javascript_from_its_list_menu(plain, server):
    page = plain
    page.goto(server.url + "/")
    submit(page, page.locator('form[data-form="new-board"]'), "title", "Renames")
    submit(page, page.locator('form[data-form="new-list"]'), "title", "Words")
    words = page.locator(".list[data-list]", has=page.locator(".list-title", has_text="Words"))
    for title in ["Colour", "Flavour"]:
        submit(page, words.locator('form[data-form="new-item"]'), "title", title)
    words.locator("details.list-menu summary").click()
    form = words.locator('form[data-form="rename-item"]')
    form.locator('select[name="item"]').select_option(label="Flavour")
    submit(page, form, "title", "Flavor")
    expect(words.locator("[data-item] > .title")).to_have_text(["Colour", "Flavor"])
