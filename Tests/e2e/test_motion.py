"""Motion with the real mouse: a gap as tall as the dragged card opens where it will land (and the
drop lands exactly there), rows slide to their new places when a card lands (this page's drop,
an undo, another page's drop), the lifted card tilts and casts a shadow, and a person who asked
for reduced motion sees none of the movement."""
import re

import pytest
from playwright.sync_api import expect

from data_helpers import open_board
from helpers import is_session_call, list_of, row, start_drag, title_cells, version, wait_version

#: Records, in the page, what moves: at each `board:changed` the slides (motion.js's animations)
#: under way and whether a row is drawn away from its place; on each frame whether any row is.
RECORD_MOTION = """() => {
    const moving = () => document.getAnimations().filter((animation) => animation.id === 'slide'
        && animation.effect?.target?.matches('[data-item], [data-list]'));
    const shifted = () => [...document.querySelectorAll('[data-item]')]
        .filter((row) => !row.classList.contains('is-dragging') && getComputedStyle(row).transform !== 'none').length;
    window.__motion = { changes: [], frames: 0, shiftedFrames: 0 };
    document.querySelector('[data-board]').addEventListener('board:changed', () => {
        window.__motion.changes.push({ slides: moving().length, shifted: shifted(), frame: window.__motion.frames });
    });
    const poll = () => {
        window.__motion.frames += 1;
        if (shifted() > 0) window.__motion.shiftedFrames += 1;
        requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
}"""

#: Every slide is over and every row stands in its place (no transform left behind).
SETTLED = """() => document.getAnimations().every((animation) => animation.id !== 'slide')
    && [...document.querySelectorAll('[data-item]')].every((row) => getComputedStyle(row).transform === 'none')"""

GAP = ".landing-gap"
DRAGGING = re.compile(r"\bis-dragging\b")


def record_motion(page):
    page.evaluate(RECORD_MOTION)


def expect_rows_slid_and_settled(page):
    """The change was applied with rows sliding (drawn away from their places as it landed), then
    all came to rest in their places."""
    page.wait_for_function("() => window.__motion.changes.length > 0")
    first = page.evaluate("() => window.__motion.changes[0]")
    assert first["slides"] > 0 and first["shifted"] > 0, f"no row slid when the change landed: {first}"
    page.wait_for_function(SETTLED)


def gap_neighbours(page, list_id):
    """The titles of the rows before and after the landing gap in `list_id` (None at an end)."""
    gap = page.locator(f"[data-list='{list_id}'] > .rows > {GAP}")
    expect(gap).to_have_count(1)
    return gap.evaluate("""(gap) => [gap.previousElementSibling, gap.nextElementSibling]
        .map((row) => row?.querySelector(':scope > .title')?.textContent ?? null)""")


def tilt_of(locator):
    """The rotation of the element's computed transform, in degrees (0 without one)."""
    return locator.evaluate("""(element) => {
        const transform = getComputedStyle(element).transform;
        if (transform === 'none') return 0;
        const matrix = new DOMMatrixReadOnly(transform);
        return Math.atan2(matrix.b, matrix.a) * 180 / Math.PI;
    }""")


def test_a_gap_as_tall_as_the_card_opens_where_it_lands_and_the_drop_lands_there(page, server):
    before = version(page)
    source = row(page, "cat-1", "Feather wand")
    height = source.evaluate("(row) => row.offsetHeight")
    bell_ball = row(page, "cat-2", "Bell ball").get_attribute("data-item")
    drops = []
    page.on("request", lambda request: drops.append(request.post_data_json) if is_session_call(request.url, "drop") else None)

    session = start_drag(page, source)
    session.hover(row(page, "cat-2", "Bell ball"), "bottom")
    assert gap_neighbours(page, "cat-2") == ["Bell ball", None]
    # Up to the top of Bell ball: the gap moves before it, and holds under the pointer.
    session.hover(row(page, "cat-2", "Bell ball"), "top")
    assert gap_neighbours(page, "cat-2") == ["Laser pointer", "Bell ball"]
    expect(page.locator(GAP)).to_have_count(1)
    page.wait_for_function("(height) => Math.abs(document.querySelector('.landing-gap').getBoundingClientRect().height - height) <= 1",
                           arg=height)
    expect(page.locator(GAP)).to_have_attribute("aria-hidden", "true")
    # The line still shows the place, at the row after the gap.
    indicator = page.locator(".drop-indicator").bounding_box()
    assert abs(indicator["y"] + indicator["height"] / 2 - row(page, "cat-2", "Bell ball").bounding_box()["y"]) <= 6
    session.release()

    # The drop named the place without counting the gap: before Bell ball, the second row.
    assert len(drops) == 1 and drops[0]["location"]["row"] == 1 and drops[0]["location"]["item"] == bell_ball, drops
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Feather wand", "Bell ball"])
    expect(page.locator(GAP)).to_have_count(0)


def test_the_gap_goes_away_where_the_server_refuses_on_leaving_and_on_escape(page, server):
    before = version(page)
    session = start_drag(page, row(page, "cat-3", "Crinkle tunnel"))
    session.hover(row(page, "cat-2", "Laser pointer"), "top")
    assert gap_neighbours(page, "cat-2") == [None, "Laser pointer"]
    # Over people the server refuses a toy: no gap promises a landing there.
    session.hover(row(page, "people", "Alan Turing"), "top")
    expect(list_of(page, "people")).to_have_attribute("data-drop-operation", re.compile("^(cancel|forbidden)$"))
    expect(page.locator(GAP)).to_have_count(0)
    session.hover(row(page, "cat-2", "Laser pointer"), "top")
    assert gap_neighbours(page, "cat-2") == [None, "Laser pointer"]
    session.move_to(640, 5)                      # above the board: over no list
    expect(page.locator(GAP)).to_have_count(0)
    session.hover(row(page, "cat-2", "Laser pointer"), "top")
    assert gap_neighbours(page, "cat-2") == [None, "Laser pointer"]
    with page.expect_response(lambda response: is_session_call(response.url, "end")) as ended:
        page.keyboard.press("Escape")
    assert ended.value.json()["operation"] == "cancel"
    expect(page.locator(GAP)).to_have_count(0)
    page.mouse.up()
    assert version(page) == before
    expect(title_cells(page, "cat-2")).to_have_text(["Laser pointer", "Bell ball"])


def test_rows_slide_to_their_places_after_a_drop_and_after_its_undo(page, server):
    before = version(page)
    record_motion(page)
    session = start_drag(page, row(page, "cat-1", "Ball of yarn"))
    session.hover(row(page, "cat-2", "Laser pointer"), "top")
    session.release()
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Ball of yarn", "Laser pointer", "Bell ball"])
    expect_rows_slid_and_settled(page)

    record_motion(page)
    page.locator('.status-actions button[data-action="undo"]').click()
    wait_version(page, before + 2)
    expect(title_cells(page, "cat-1")).to_have_text(["Ball of yarn", "Feather wand", "Catnip mouse"])
    expect_rows_slid_and_settled(page)


def test_another_pages_drop_slides_the_rows_of_this_page(page, context, server, console_errors):
    other = open_board(context, server, console_errors)
    before = version(page)
    record_motion(page)
    other.bring_to_front()
    session = start_drag(other, row(other, "cat-1", "Catnip mouse"))
    session.hover(row(other, "cat-1", "Ball of yarn"), "top")
    session.release()
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-1")).to_have_text(["Catnip mouse", "Ball of yarn", "Feather wand"])
    expect_rows_slid_and_settled(page)


def test_the_lifted_card_tilts_and_casts_a_shadow(page, server):
    source = row(page, "cat-1", "Feather wand")
    assert tilt_of(source) == 0
    session = start_drag(page, source)
    session.hover(row(page, "cat-2", "Bell ball"), "top")
    expect(source).to_have_class(DRAGGING)
    page.wait_for_function("""() => {
        const lifted = document.querySelector('.row.is-dragging');
        const matrix = new DOMMatrixReadOnly(getComputedStyle(lifted).transform);
        return Math.abs(Math.atan2(matrix.b, matrix.a)) > 0.01 && getComputedStyle(lifted).boxShadow !== 'none';
    }""")
    assert 0.5 <= abs(tilt_of(source)) <= 5
    session.release()
    assert tilt_of(row(page, "cat-2", "Feather wand")) == 0

    # Picked up from the keyboard, the row lifts the same way; put down, it lies flat again.
    picked = row(page, "cat-1", "Ball of yarn")
    picked.focus()
    page.keyboard.press("Space")
    expect(picked).to_have_class(DRAGGING)
    page.wait_for_function("""() => {
        const lifted = document.querySelector('.row.is-dragging');
        return lifted && new DOMMatrixReadOnly(getComputedStyle(lifted).transform).b !== 0;
    }""")
    page.keyboard.press("Escape")
    expect(page.locator(".is-dragging")).to_have_count(0)
    assert tilt_of(picked) == 0


@pytest.fixture
def still_page(browser, server, console_errors):
    """The demo board for a person who asked for reduced motion."""
    still = browser.new_context(viewport={"width": 1280, "height": 1000}, reduced_motion="reduce")
    yield open_board(still, server, console_errors)
    still.close()


def test_reduced_motion_lands_rows_in_place_and_lifts_the_card_flat(still_page, server):
    page = still_page
    before = version(page)
    record_motion(page)
    source = row(page, "cat-1", "Ball of yarn")
    session = start_drag(page, source)
    session.hover(row(page, "cat-2", "Laser pointer"), "top")
    expect(source).to_have_class(DRAGGING)
    # Lifted: the shadow says so, without a tilt; the gap is there at once, without growing in.
    assert source.evaluate("(row) => getComputedStyle(row).boxShadow") != "none"
    assert source.evaluate("(row) => getComputedStyle(row).transform") == "none"
    assert gap_neighbours(page, "cat-2") == [None, "Laser pointer"]
    assert page.locator(GAP).evaluate("(gap) => gap.getAnimations().length") == 0
    session.release()
    wait_version(page, before + 1)
    expect(title_cells(page, "cat-2")).to_have_text(["Ball of yarn", "Laser pointer", "Bell ball"])

    # Frames after the change (as many as a slide lasts, and more): no row ever left its place.
    page.wait_for_function("() => window.__motion.changes.length > 0")
    page.wait_for_function("() => window.__motion.frames >= window.__motion.changes[0].frame + 30")
    first = page.evaluate("() => window.__motion.changes[0]")
    assert first["slides"] == 0 and first["shifted"] == 0, first
    assert page.evaluate("() => window.__motion.shiftedFrames") == 0
    assert page.evaluate("() => document.getAnimations().filter((animation) => animation.id === 'slide').length") == 0
