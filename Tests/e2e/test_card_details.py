"""A card's details in Chromium: opened in a dialog by a click or `o`, its description, due date,
labels and checklist edited and shown as badges on its tile, live to other viewers, undone like any
change; and the same card as a page that works without JavaScript."""
import re

import pytest
from playwright.sync_api import expect

from helpers import READY, row

DIALOG = 'dialog[data-dialog="card"]'


def add_label(page, name: str, color: str):
    """Adds a board label from the board's labels menu and closes the menu again."""
    page.locator("details.board-labels > summary").click()
    form = page.locator('form[data-form="new-label"]')
    form.locator('input[name="name"]').fill(name)
    form.locator('select[name="color"]').select_option(color)
    form.locator('button[type="submit"]').click()
    expect(page.locator(f'details.board-labels li[data-label] input[name="name"][value="{name}"]')).to_have_count(1)
    page.locator("details.board-labels > summary").click()


def open_card(page, list_id: str, title: str):
    row(page, list_id, title).locator(".title").click()
    dialog = page.locator(f"{DIALOG}[open]")
    expect(dialog.locator("article[data-card] h1")).to_have_text(title)
    return dialog


def save_details(dialog, description: str | None = None, due: str | None = None, labels: tuple[str, ...] = ()):
    form = dialog.locator('form[data-form="card-details"]')
    if description is not None:
        form.locator('textarea[name="description"]').fill(description)
    if due is not None:
        form.locator('input[name="due"]').fill(due)
    for label in labels:
        form.locator("label.label-choice", has_text=label).locator('input[name="label"]').check()
    form.locator('button[type="submit"]').click()


def test_a_card_opens_in_a_dialog_and_its_details_show_as_badges(page, server):
    add_label(page, "Urgent", "red")
    dialog = open_card(page, "cat-1", "Ball of yarn")
    save_details(dialog, "First line\nSee https://example.com/guide for more. <b>bold?</b>", "2020-01-02", ("Urgent",))
    link = dialog.locator(".description-text a")
    expect(link).to_have_attribute("href", "https://example.com/guide")
    expect(dialog.locator(".description-text")).to_contain_text("<b>bold?</b>")   # text, never markup
    tile = row(page, "cat-1", "Ball of yarn")
    expect(tile.locator('[data-badge="labels"] .chip[data-color="red"]')).to_have_text("Urgent")
    expect(tile.locator('[data-badge="due"]')).to_have_attribute("data-due-state", "overdue")
    expect(tile.locator('[data-badge="due"] time')).to_have_text("2 Jan 2020")
    expect(tile.locator('[data-badge="description"]')).to_have_count(1)

    page.keyboard.press("Escape")
    expect(page.locator(f"{DIALOG}[open]")).to_have_count(0)
    # `o` on a focused card opens it too; the details survived a reload.
    page.reload()
    page.wait_for_function(READY)
    row(page, "cat-1", "Ball of yarn").focus()
    page.keyboard.press("o")
    expect(page.locator(f"{DIALOG}[open] textarea[name='description']")).to_have_value(
        "First line\nSee https://example.com/guide for more. <b>bold?</b>")
    expect(page.locator(f"{DIALOG}[open] input[name='label']")).to_be_checked()


def test_bad_details_are_refused_with_words_and_the_card_is_unchanged(page, server, console_errors):
    console_errors.expect(r"status of 400", r"/boards/demo/cards/")   # Chromium logs every refused request
    dialog = open_card(page, "cat-1", "Feather wand")
    dialog.locator('textarea[name="description"]').evaluate("(field) => { field.removeAttribute('maxlength'); }")
    save_details(dialog, "x" * 10_001)
    expect(page.locator("#status")).to_contain_text("at most 10,000 characters")
    expect(row(page, "cat-1", "Feather wand").locator(".badges")).to_have_count(0)


def test_a_checklist_is_built_toggled_and_reordered_by_dragging(page, server):
    dialog = open_card(page, "cat-1", "Catnip mouse")
    field = dialog.locator('form[data-form="new-check"] input[name="title"]')
    for title in ["Buy", "Wrap", "Give"]:
        page.locator(f"{DIALOG} form[data-form='new-check'] input[name='title']").fill(title)
        page.keyboard.press("Enter")
        expect(dialog.locator("[data-check] .check-title").last).to_have_text(title)
        expect(field).to_be_focused()   # the next item is typed straight away
    dialog.locator("[data-check]", has_text="Wrap").locator('[data-action="toggle-check"]').click()
    expect(dialog.locator("[data-checklist-count]")).to_have_text("1/3")
    expect(row(page, "cat-1", "Catnip mouse").locator('[data-badge="checklist"]')).to_contain_text("1/3")

    # "Give" dragged with the mouse above "Buy".
    source = dialog.locator("[data-check]", has_text="Give").locator(".check-title")
    target = dialog.locator("[data-check]", has_text="Buy")
    box, goal = source.bounding_box(), target.bounding_box()
    page.mouse.move(box["x"] + 5, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 10, box["y"] + box["height"] / 2, steps=2)
    page.mouse.move(goal["x"] + 10, goal["y"] + 3, steps=8)
    page.mouse.up()
    expect(dialog.locator("[data-check] .check-title")).to_have_text(["Give", "Buy", "Wrap"])
    # The board heard nothing of that drag: no session began for it.
    expect(page.locator(".row.is-dragging")).to_have_count(0)
    # The order is the server's: the card's own page says the same.
    item = row(page, "cat-1", "Catnip mouse").get_attribute("data-item")
    other = page.context.new_page()
    other.goto(f"{server.url}/boards/demo/cards/{item}")
    expect(other.locator("[data-check] .check-title")).to_have_text(["Give", "Buy", "Wrap"])
    other.close()


def test_another_viewer_sees_details_live_and_undo_takes_them_back(page, context, server):
    other = context.new_page()
    other.goto(server.demo)
    other.wait_for_function(READY)
    theirs = open_card(other, "cat-2", "Laser pointer")
    dialog = open_card(page, "cat-2", "Laser pointer")
    save_details(dialog, "Point it at the wall")
    expect(row(other, "cat-2", "Laser pointer").locator('[data-badge="description"]')).to_have_count(1)
    expect(theirs.locator(".description-text")).to_have_text("Point it at the wall")   # their open card too

    page.keyboard.press("Escape")
    page.locator('button[data-action="undo"]').first.click()
    expect(row(page, "cat-2", "Laser pointer").locator(".badges")).to_have_count(0)
    expect(row(other, "cat-2", "Laser pointer").locator(".badges")).to_have_count(0)
    other.close()


@pytest.fixture
def plain(browser):
    """A page that runs no script at all."""
    created = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 1000})
    yield created.new_page()
    created.close()


def test_a_card_is_a_page_that_works_without_javascript(plain, server):
    page = plain
    page.goto(server.demo)
    menu = page.locator("details.board-labels")
    menu.locator("summary").click()
    menu.locator('form[data-form="new-label"] input[name="name"]').fill("Later")
    with page.expect_navigation():
        menu.locator('form[data-form="new-label"] button[type="submit"]').click()
    with page.expect_navigation():
        row(page, "places", "Oslo").locator("a.row-open").click()
    assert re.search(r"/boards/demo/cards/[\w-]+$", page.url)
    expect(page.locator("h1")).to_have_text("Oslo")
    form = page.locator('form[data-form="card-details"]')
    form.locator('textarea[name="description"]').fill("Fjords\nhttps://visitoslo.example")
    form.locator('input[name="due"]').fill("2099-05-17")
    form.locator("label.label-choice", has_text="Later").locator("input").check()
    with page.expect_navigation():
        form.locator('button[type="submit"]').click()
    expect(page.locator(".description-text a")).to_have_text("https://visitoslo.example")
    with page.expect_navigation():
        page.locator('form[data-form="new-check"] input[name="title"]').fill("Pack")
        page.locator('form[data-form="new-check"] input[name="title"]').press("Enter")
    with page.expect_navigation():
        page.locator('[data-action="toggle-check"]').click()
    expect(page.locator("[data-checklist-count]")).to_have_text("1/1")
    # A bad date is a page that says what is wrong and leads back.
    page.locator('input[name="due"]').evaluate("(field) => { field.type = 'text'; field.value = '2099-02-30'; }")
    with page.expect_navigation():
        page.locator('form[data-form="card-details"] button[type="submit"]').click()
    expect(page.locator("[data-error]")).to_contain_text("is not a date")
    page.goto(server.demo)
    tile = row(page, "places", "Oslo")
    expect(tile.locator('[data-badge="checklist"]')).to_contain_text("1/1")
    expect(tile.locator('[data-badge="due"] time')).to_have_text("17 May 2099")
    expect(tile.locator('[data-badge="labels"] .chip')).to_have_text("Later")


def test_the_filter_finds_cards_by_their_description_and_labels(page, server):
    add_label(page, "Nordic", "teal")
    dialog = open_card(page, "places", "Oslo")
    save_details(dialog, "Fjords and a penguin at the zoo", labels=("Nordic",))
    expect(row(page, "places", "Oslo").locator('[data-badge="description"]')).to_have_count(1)
    page.keyboard.press("Escape")
    field = page.locator("input[data-filter]")
    field.fill("PENGUIN")   # only in the description: the server's search finds it
    expect(row(page, "places", "Paris")).to_have_attribute("data-filtered-out", "")
    expect(row(page, "places", "Oslo")).not_to_have_attribute("data-filtered-out", "")
    field.fill("nordic")    # a label's name
    expect(row(page, "places", "Lisbon")).to_have_attribute("data-filtered-out", "")
    expect(row(page, "places", "Oslo")).not_to_have_attribute("data-filtered-out", "")


def test_on_a_phone_the_card_is_a_whole_screen_and_its_badges_fit(browser, server, console_errors):
    """390×844, touch: a tap opens the card as a dialog inside the screen, every control a finger's
    size; the tile's badges stay inside the screen."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = console_errors.watch(context.new_page())
    try:
        page.goto(server.demo)
        page.wait_for_function(READY)
        add_label(page, "A label with a long name", "purple")
        tile = row(page, "cat-1", "Ball of yarn")
        tile.locator(".title").tap()
        dialog = page.locator(f"{DIALOG}[open]")
        save_details(dialog, "Notes", "2099-01-01", ("A label with a long name",))
        expect(dialog.locator(".description-text")).to_have_text("Notes")   # the saved card is shown
        dialog.locator('form[data-form="new-check"] input[name="title"]').fill("One")
        dialog.locator('form[data-form="new-check"] input[name="title"]').press("Enter")
        expect(dialog.locator("[data-check]")).to_have_count(1)
        frame = dialog.bounding_box()
        assert frame["x"] >= 0 and frame["y"] >= 0 and frame["x"] + frame["width"] <= 390 and frame["y"] + frame["height"] <= 844
        for control in dialog.locator('button:visible, input[type="checkbox"]:visible').all():
            size = control.bounding_box()
            if control.get_attribute("type") == "checkbox":
                size = control.locator("xpath=..").bounding_box()   # a checkbox's target is its label
            assert size["height"] >= 44, f"{control.evaluate('(element) => element.outerHTML.slice(0, 80)')} is {size['height']} px high"
        dialog.locator('[data-action="close-card"]').tap()
        for badge in tile.locator("[data-badge]").all():
            edge = badge.bounding_box()
            assert edge["x"] >= 0 and edge["x"] + edge["width"] <= 390, f"a badge leaves the screen: {edge}"
    finally:
        context.close()
    assert console_errors.unexpected() == [], f"browser errors: {console_errors.unexpected()}"
