"""Images in the well can be removed: the × beside each is a plain form button (JavaScript
sends it by fetch and the well updates in place); the image is gone from the page, the board
and the server."""
from playwright.sync_api import expect

from data_helpers import ExternalDrag, drop_and_wait, png_bytes, well_images, write, zone
from helpers import version, wait_version


def test_an_image_dropped_in_the_well_is_removed_with_its_button(page, server, tmp_path):
    well = zone(page, "image-well")
    count = well_images(page).count()
    drag = ExternalDrag(page, files=[write(tmp_path, "gone.png", png_bytes(4, 3))])
    drag.enter(well)
    drop_and_wait(page, drag)
    expect(well_images(page)).to_have_count(count + 1)
    image = well_images(page).last
    path = image.evaluate("(img) => new URL(img.src).pathname")
    assert page.request.get(server.url + path).status == 200
    before = version(page)

    page.evaluate("window.__sameDocument = true")
    zone(page, "image-well").locator(f'button.image-remove[value="{path.rsplit("/", 1)[1]}"]').click()
    wait_version(page, before + 1)
    expect(well_images(page)).to_have_count(count)
    assert page.evaluate("window.__sameDocument") is True
    assert page.request.get(server.url + path).status == 404
    page.reload()
    expect(well_images(page)).to_have_count(count)
