"""The kit's "Cards" lists on a board of one's own: text, links and images dropped from other
apps become cards (copies), a link shown as a link and an image as a thumbnail; rows of the
server move in."""
from playwright.sync_api import expect

from data_helpers import ExternalDrag, drop_and_wait, png_bytes, write
from test_boards import READY, add_list, create_board, open_page


def test_text_links_and_images_from_other_apps_become_cards(context, server, console_errors, tmp_path):
    page = open_page(context, server.url + "/", console_errors)
    create_board(page, "Clippings")
    inbox = add_list(page, "Inbox")

    drag = ExternalDrag(page, items=[("text/plain", "A thought")])
    drag.enter(inbox)
    expect(inbox).to_have_attribute("data-drop-operation", "copy")
    assert drop_and_wait(page, drag)["operation"] == "copy"
    expect(inbox.locator("[data-item] > .title")).to_have_text(["A thought"])

    drag = ExternalDrag(page, items=[("text/uri-list", "https://example.com/read"), ("text/plain", "https://example.com/read")])
    drag.enter(inbox)
    drop_and_wait(page, drag)
    link = inbox.locator('[data-item][data-kind="card-link"] a.card-link')
    expect(link).to_have_attribute("href", "https://example.com/read")

    picture = write(tmp_path, "tiny.png", png_bytes(4, 3))
    drag = ExternalDrag(page, files=[picture])
    drag.enter(inbox)
    expect(inbox).to_have_attribute("data-drop-operation", "copy")
    drop_and_wait(page, drag)
    thumb = inbox.locator('[data-item][data-kind="card-image"] img.card-thumb')
    expect(thumb).to_have_count(1)
    page.wait_for_function("(img) => img.complete && img.naturalWidth === 4 && img.naturalHeight === 3", arg=thumb.element_handle())

    page.reload()
    page.wait_for_function(READY)
    inbox = page.locator(".list[data-list]", has=page.locator(".list-title", has_text="Inbox"))
    expect(inbox.locator("[data-item]")).to_have_count(3)
    expect(inbox.locator("a.card-link")).to_have_attribute("href", "https://example.com/read")

    # Deleting the image's card forgets the image: it counts against no quota and is not served.
    thumb = inbox.locator('[data-item][data-kind="card-image"] img.card-thumb')
    path = thumb.evaluate("(img) => new URL(img.src).pathname")
    assert page.request.get(server.url + path).status == 200
    inbox.locator('[data-item][data-kind="card-image"]').focus()
    page.keyboard.press("Delete")
    expect(inbox.locator("[data-item]")).to_have_count(2)
    assert page.request.get(server.url + path).status == 404
    assert console_errors.unexpected() == []
