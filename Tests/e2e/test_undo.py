"""Undo and redo with the real mouse: a move, a copy, a drop into a box and a drop on a zone are
taken back and done again by the status's buttons and by the keyboard; the history belongs to
the browser (its cookie), reaches other windows live, refuses with a reason when someone else
changed the row since, and survives a server restart."""
import re

from playwright.sync_api import expect

from data_helpers import label_text, open_board, wait_ready, zone
from helpers import READY, drag, list_of, open_composer, open_list_menu, row, start_drag, title_cells, version, wait_version

CAT_1 = ["Ball of yarn", "Feather wand", "Catnip mouse"]
CAT_2 = ["Laser pointer", "Bell ball"]
PLACES = ["Paris", "Lisbon", "Oslo", "Kyoto", "Reykjavík"]


def status(page):
    return page.locator("#status")


def undo_button(page):
    return page.locator('.status-actions button[data-action="undo"]')


def redo_button(page):
    return page.locator('.status-actions button[data-action="redo"]')


def fit_in_viewport(page, *locators):
    """A real-mouse drag cannot scroll: make the viewport tall enough for every locator."""
    bottom = max(box["y"] + box["height"] for box in (locator.bounding_box() for locator in locators))
    size = page.viewport_size
    if bottom + 20 > size["height"]:
        page.set_viewport_size({"width": size["width"], "height": int(bottom) + 40})


def move_feather_wand_to_tom(page):
    before = version(page)
    dropped = drag(page, row(page, "cat-1", "Feather wand"), row(page, "cat-2", "Laser pointer"), "top").dropped
    assert dropped["operation"] == "move", dropped
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Feather wand"] + CAT_2)
    return before + 1


def test_a_move_is_undone_and_redone_with_the_status_buttons(page, server):
    moved_id = row(page, "cat-1", "Feather wand").get_attribute("data-item")
    after = move_feather_wand_to_tom(page)
    expect(undo_button(page)).to_be_visible()

    undo_button(page).click()
    wait_version(page, after + 1)
    expect(title_cells(page, "cat-1")).to_have_text(CAT_1)   # between Ball of yarn and Catnip mouse again
    expect(title_cells(page, "cat-2")).to_have_text(CAT_2)
    expect(row(page, "cat-1", "Feather wand")).to_have_attribute("data-item", moved_id)
    expect(status(page)).to_contain_text("Undid “Move Feather wand from Whiskers to Tom”.")
    expect(undo_button(page)).to_have_count(0)

    redo_button(page).click()
    wait_version(page, after + 2)
    expect(title_cells(page, "cat-2")).to_have_text(["Feather wand"] + CAT_2)
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Catnip mouse"])
    expect(status(page)).to_contain_text("Redid “Move Feather wand from Whiskers to Tom”.")

    page.reload()   # what the page shows is what the server stored
    wait_ready(page)
    expect(title_cells(page, "cat-2")).to_have_text(["Feather wand"] + CAT_2)


def test_a_copy_is_undone_and_redone_with_the_keyboard(page, server):
    before = version(page)
    session = start_drag(page, row(page, "cat-2", "Laser pointer"))
    session.hover(row(page, "places", "Lisbon"), "top")
    expect(list_of(page, "places")).to_have_attribute("data-drop-operation", "copy")
    assert session.release()["operation"] == "copy"
    wait_version(page, before + 1)
    expect(title_cells(page, "places")).to_have_text(["Paris", "Laser pointer"] + PLACES[1:])
    copy_id = row(page, "places", "Laser pointer").get_attribute("data-item")

    page.keyboard.press("Control+z")
    wait_version(page, before + 2)
    expect(title_cells(page, "places")).to_have_text(PLACES)       # the copy is gone…
    expect(title_cells(page, "cat-2")).to_have_text(CAT_2)          # …and the original stays

    page.keyboard.press("Control+Shift+z")
    wait_version(page, before + 3)
    expect(title_cells(page, "places")).to_have_text(["Paris", "Laser pointer"] + PLACES[1:])
    expect(row(page, "places", "Laser pointer")).to_have_attribute("data-item", copy_id)

    page.keyboard.press("Control+z")
    wait_version(page, before + 4)
    page.keyboard.press("Control+y")
    wait_version(page, before + 5)
    expect(title_cells(page, "places")).to_have_text(["Paris", "Laser pointer"] + PLACES[1:])


def test_typing_in_a_field_is_not_undone_on_the_board(page, server):
    after = move_feather_wand_to_tom(page)
    field = open_composer(page, "new-list")
    field.click()
    field.type("Groceries")
    page.keyboard.press("Control+z")   # the field's own undo, not the board's
    page.locator("h1").click()
    expect(undo_button(page)).to_be_visible()
    assert version(page) == after
    expect(title_cells(page, "cat-2")).to_have_text(["Feather wand"] + CAT_2)


def test_a_drop_into_a_box_is_undone_out_of_it(page, server):
    before = version(page)
    red = row(page, "toy-boxes", "Red box")
    session = start_drag(page, row(page, "cat-2", "Bell ball"))
    session.hover(red, "middle")
    expect(red).to_have_attribute("data-drop-into", "")
    assert session.release()["intent"] == "insert-into"
    wait_version(page, before + 1)
    expect(row(page, "toy-boxes", "Red box").locator(".count")).to_have_text("2")

    undo_button(page).click()
    wait_version(page, before + 2)
    expect(row(page, "toy-boxes", "Red box").locator(".count")).to_have_text("1")
    expect(title_cells(page, "cat-2")).to_have_text(CAT_2)
    expect(status(page)).to_contain_text("Undid “Put Bell ball into Red box”.")

    redo_button(page).click()
    wait_version(page, before + 3)
    expect(row(page, "toy-boxes", "Red box").locator(".count")).to_have_text("2")
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer"])


def test_a_drop_on_the_label_zone_is_undone_and_redone(page, server):
    label = zone(page, "label")
    toy = row(page, "cat-1", "Ball of yarn")
    fit_in_viewport(page, toy, label)
    before = version(page)
    session = start_drag(page, toy)
    session.hover(label)
    expect(label).to_have_attribute("data-drop-operation", "copy")
    assert session.release()["operation"] == "copy"
    wait_version(page, before + 1)
    expect(label_text(page)).to_have_text("Ball of yarn")

    page.keyboard.press("Control+z")
    wait_version(page, before + 2)
    expect(label_text(page)).to_have_text("Drop any text here")
    expect(title_cells(page, "cat-1")).to_have_text(CAT_1)

    page.keyboard.press("Control+Shift+z")
    wait_version(page, before + 3)
    expect(label_text(page)).to_have_text("Ball of yarn")


def test_an_undo_reaches_another_browser_live_and_a_refused_undo_says_why(page, browser, server, console_errors):
    other_context = browser.new_context(viewport={"width": 1280, "height": 1000})   # another browser identity
    try:
        other = open_board(other_context, server, console_errors)
        after = move_feather_wand_to_tom(page)
        wait_version(other, after)
        expect(title_cells(other, "cat-2")).to_have_text(["Feather wand"] + CAT_2)
        # The other browser has nothing of its own to undo: it is said, and nothing is posted (a refused
        # POST would log a console error at every press of Ctrl+Z).
        other_posts = []
        other.on("request", lambda request: other_posts.append(request.url) if request.method == "POST" and "/api/undo" in request.url else None)
        other.locator("h1").click()
        other.keyboard.press("Control+z")
        expect(status(other)).to_have_text("There is nothing to undo.")
        assert other_posts == []

        undo_button(page).click()
        wait_version(page, after + 1)
        wait_version(other, after + 1)   # live, over the event stream
        expect(title_cells(other, "cat-1")).to_have_text(CAT_1)
        expect(title_cells(other, "cat-2")).to_have_text(CAT_2)

        # The first browser moves Catnip mouse to Tom; the second moves it on to Luna.
        dropped = drag(page, row(page, "cat-1", "Catnip mouse"), row(page, "cat-2", "Bell ball"), "bottom").dropped
        assert dropped["operation"] == "move", dropped
        wait_version(other, after + 2)
        dropped = drag(other, row(other, "cat-2", "Catnip mouse"), row(other, "cat-3", "Crinkle tunnel"), "top").dropped
        assert dropped["operation"] == "move", dropped
        wait_version(page, after + 3)
        luna = ["Catnip mouse", "Crinkle tunnel", "Scratching post"]
        expect(title_cells(page, "cat-3")).to_have_text(luna)

        # Undoing the first browser's move now would put back a stale place: refused, with the reason
        # (Chromium logs the refused request).
        console_errors.expect("409", r"/api/undo$")
        with page.expect_response(lambda response: response.url.endswith("/api/undo")) as refused:
            undo_button(page).click()
        assert refused.value.status == 409
        assert refused.value.json()["error"]["code"] == "conflict"
        expect(status(page)).to_have_text(re.compile("“Catnip mouse” in Tom was moved by someone else since"))
        expect(status(page)).to_have_attribute("data-kind", "error")
        assert version(page) == after + 3 and version(other) == after + 3
        for window in (page, other):
            expect(title_cells(window, "cat-3")).to_have_text(luna)
            expect(title_cells(window, "cat-2")).to_have_text(CAT_2)
        page.reload()
        wait_ready(page)
        expect(title_cells(page, "cat-3")).to_have_text(luna)
        assert version(page) == after + 3
    finally:
        other_context.close()


def test_the_history_survives_a_server_restart(page, server, console_errors):
    after = move_feather_wand_to_tom(page)
    console_errors.expect_outage()
    server.restart()
    page.goto(server.demo)
    wait_ready(page)
    page.locator("h1").click()
    page.keyboard.press("Control+z")
    wait_version(page, after + 1)
    expect(title_cells(page, "cat-1")).to_have_text(CAT_1)
    expect(title_cells(page, "cat-2")).to_have_text(CAT_2)


def test_a_deleted_card_and_a_deleted_list_come_back_in_their_places(page, server):
    before = version(page)
    catnip = row(page, "cat-1", "Catnip mouse")
    catnip_id = catnip.get_attribute("data-item")
    catnip.hover()
    catnip.locator('button[data-action="delete"]').click()
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-1")).to_have_text(CAT_1[:2])
    undo_button(page).click()
    wait_version(page, before + 2)
    expect(title_cells(page, "cat-1")).to_have_text(CAT_1)
    expect(row(page, "cat-1", "Catnip mouse")).to_have_attribute("data-item", catnip_id)

    page.once("dialog", lambda dialog: dialog.accept())
    open_list_menu(list_of(page, "cat-2")).locator('form[data-form="delete-list"] button[data-action="delete"]').click()
    wait_version(page, before + 3)
    expect(list_of(page, "cat-2")).to_have_count(0)
    page.locator("h1").click()
    page.keyboard.press("Control+z")
    wait_version(page, before + 4)
    expect(title_cells(page, "cat-2")).to_have_text(CAT_2)
    lists = page.eval_on_selector_all(".list[data-list]", "lists => lists.map((list) => list.dataset.list)")
    assert lists.index("cat-2") == lists.index("cat-1") + 1 and lists.index("cat-3") == lists.index("cat-2") + 1, lists


def test_a_deleted_board_comes_back_from_the_index(context, server, console_errors):
    from test_boards import add_card, add_list, cards, create_board, open_page
    page = open_page(context, server.url + "/", console_errors)
    board = create_board(page, "Errands")
    add_card(page, add_list(page, "Shop"), "Milk")
    page.locator(".board-settings summary").click()
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.locator('form[data-form="delete-board"] button[data-action="delete"]').click()
    expect(page.locator(f'a[data-board-link="{board}"]')).to_have_count(0)
    expect(status(page)).to_have_text(re.compile("Your last change: Delete the board Errands"))

    with page.expect_navigation():
        undo_button(page).click()
    page.wait_for_function(READY)
    assert page.url.endswith(f"/boards/{board}")
    expect(page.locator(".board-title")).to_have_text("Errands")
    shop = page.locator(".list[data-list]", has=page.locator(".list-title", has_text="Shop"))
    expect(shop.locator(":scope > .rows > [data-item] > .title")).to_have_text(["Milk"])
    page.goto(server.url + "/")
    expect(page.locator(f'a[data-board-link="{board}"]')).to_have_count(1)


def test_an_image_dropped_on_the_well_is_undone_and_redone_with_its_file(page, server, tmp_path):
    from data_helpers import ExternalDrag, drop_and_wait, png_bytes, well_images, write
    content = png_bytes(4, 3)
    before, count = version(page), well_images(page).count()
    drag = ExternalDrag(page, files=[write(tmp_path, "orange.png", content)])
    drag.enter(zone(page, "image-well"))
    assert drop_and_wait(page, drag)["operation"] == "copy"
    wait_version(page, before + 1)
    expect(well_images(page)).to_have_count(count + 1)
    path = well_images(page).last.evaluate("(img) => new URL(img.src, document.baseURI).pathname")

    page.locator("h1").click()
    page.keyboard.press("Control+z")
    wait_version(page, before + 2)
    expect(well_images(page)).to_have_count(count)
    assert page.request.get(server.url + path).status == 404

    page.keyboard.press("Control+Shift+z")
    wait_version(page, before + 3)
    expect(well_images(page)).to_have_count(count + 1)
    fetched = page.request.get(server.url + path)
    assert fetched.status == 200 and fetched.body() == content   # the same bytes came back


def test_a_second_press_while_the_first_undo_is_on_its_way_undoes_the_change_before(page):
    before = version(page)
    drag(page, row(page, "cat-1", "Feather wand"), row(page, "cat-2", "Laser pointer"), "top")
    wait_version(page, before + 1)
    drag(page, row(page, "cat-1", "Catnip mouse"), row(page, "cat-2", "Bell ball"), "top")
    wait_version(page, before + 2)
    # The first undo's request is held until the second key was pressed; later ones go through.
    held = []
    page.route("**/api/undo", lambda route: route.continue_() if held else held.append(route))
    with page.expect_request("**/api/undo"):
        page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    held[0].continue_()
    wait_version(page, before + 4)
    expect(title_cells(page, "cat-1")).to_have_text(CAT_1)
    expect(title_cells(page, "cat-2")).to_have_text(CAT_2)
