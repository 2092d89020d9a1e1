"""The board looks and works like a product: lists in one sideways-scrolling row, each as tall as its
cards; one "⋯" menu per list; composers for cards and lists; a light and a dark theme with readable
text; no browser-default control on any page; a filter; phones (one list per screen, menus inside the
screen, targets a finger can hit, hints that speak of touch); and the defects the review found."""
import re

import pytest
from playwright.sync_api import expect

from helpers import READY, expect_indicator_at, list_of, open_composer, open_list_menu, row, rows, start_drag, title_cells, top_of, version, wait_version

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}

#: The WCAG contrast ratio of two computed colours ("rgb(…)" / "rgba(…)"), the second being the backdrop.
CONTRAST = """([fg, bg]) => {
  const parse = (text) => text.match(/[\\d.]+/g).map(Number);
  const channel = (value) => { const c = value / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const [a, b] = [luminance(parse(fg)), luminance(parse(bg))].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""

#: The colour an element's text sits on: its own background or the first opaque one behind it.
BACKDROP = """(element) => {
  for (let node = element; node; node = node.parentElement) {
    const colour = getComputedStyle(node).backgroundColor;
    const alpha = colour.startsWith('rgba') ? Number(colour.match(/[\\d.]+/g)[3]) : 1;
    if (alpha > 0.9) return colour;
  }
  return getComputedStyle(document.documentElement).backgroundColor;
}"""


def open_board(browser, server, console_errors, path="/boards/demo", **options):
    context = browser.new_context(**{"viewport": DESKTOP, **options})
    page = console_errors.watch(context.new_page())
    page.goto(server.url + path)
    if path.startswith("/boards/") and path.count("/") == 2:
        page.wait_for_function(READY)
    return context, page


@pytest.fixture
def desk(browser, server, console_errors):
    context, page = open_board(browser, server, console_errors)
    yield page
    context.close()
    assert console_errors.unexpected() == [], f"browser errors: {console_errors.unexpected()}"


@pytest.fixture
def phone(browser, server, console_errors):
    context, page = open_board(browser, server, console_errors, viewport=PHONE, has_touch=True, is_mobile=True)
    yield page
    context.close()
    assert console_errors.unexpected() == [], f"browser errors: {console_errors.unexpected()}"


def box(locator):
    found = locator.bounding_box()
    assert found, f"{locator} has no box"
    return found


def overlaps(a, b) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def inside_viewport(page, locator):
    found, size = box(locator), page.viewport_size
    assert found["x"] >= 0 and found["x"] + found["width"] <= size["width"], f"off-screen sideways: {found}"
    assert found["y"] >= 0 and found["y"] + found["height"] <= size["height"], f"off-screen up or down: {found}"


# ---------------------------------------------------------------- layout

def test_the_lists_stand_in_one_row_that_scrolls_sideways(desk):
    lists = desk.locator(".list[data-list]")
    boxes = [box(lists.nth(index)) for index in range(lists.count())]
    assert len(boxes) == 6
    assert all(abs(found["y"] - boxes[0]["y"]) <= 1 for found in boxes), [found["y"] for found in boxes]
    assert all(later["x"] > earlier["x"] + earlier["width"] for earlier, later in zip(boxes, boxes[1:]))
    assert all(272 <= found["width"] <= 300 for found in boxes), [found["width"] for found in boxes]
    # Six columns do not fit in 1440 px: the row scrolls, the page itself does not.
    row_of_lists = desk.locator("[data-board-lists]")
    assert row_of_lists.evaluate("(element) => element.scrollWidth > element.clientWidth")
    assert desk.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    row_of_lists.evaluate("(element) => { element.scrollLeft = 400; }")
    assert row_of_lists.evaluate("(element) => element.scrollLeft") == 400
    assert box(lists.nth(0))["x"] < boxes[0]["x"] - 300


def test_a_drag_held_at_the_rows_right_edge_scrolls_it_to_the_lists_beyond(desk):
    lists_row = desk.locator("[data-board-lists]")
    edge = box(lists_row)
    green = row(desk, "toy-boxes", "Green box")
    assert box(green)["x"] > desk.viewport_size["width"], "the toy boxes start off-screen"
    before = version(desk)
    session = start_drag(desk, row(desk, "cat-1", "Ball of yarn"))
    session.move_to(edge["x"] + edge["width"] - 12, box(row(desk, "cat-1", "Feather wand"))["y"])
    desk.wait_for_function("() => { const row = document.querySelector('[data-board-lists]'); return row.scrollLeft + row.clientWidth >= row.scrollWidth - 2; }")
    session.hover(green, "middle")   # now on screen
    session.release()
    wait_version(desk, before + 1)
    expect(list_of(desk, "toy-boxes").locator("[data-item] > .title", has_text="Ball of yarn")).to_have_count(1)
    expect(title_cells(desk, "cat-1")).to_have_text(["Feather wand", "Catnip mouse"])


def test_a_short_list_is_as_tall_as_its_cards(desk):
    tom, places = box(list_of(desk, "cat-2")), box(list_of(desk, "places"))
    assert tom["height"] < places["height"] - 100, (tom, places)
    foot = box(list_of(desk, "cat-2").locator("[data-composer]"))
    assert tom["y"] + tom["height"] - (foot["y"] + foot["height"]) <= 16, "no stretched space under the composer"


def test_cards_are_raised_tiles(desk):
    card = row(desk, "cat-1", "Ball of yarn")
    style = card.evaluate("(element) => { const s = getComputedStyle(element); return [s.borderTopLeftRadius, s.boxShadow]; }")
    assert float(style[0].rstrip("px")) >= 6 and style[1] != "none", style
    before = card.evaluate("(element) => getComputedStyle(element).boxShadow")
    card.hover()
    expect(card).not_to_have_css("box-shadow", before)


# ---------------------------------------------------------------- a list's header, count and menu

def test_the_list_menu_renames_and_deletes_a_list_with_the_mouse(desk):
    tom = list_of(desk, "cat-2")
    expect(tom.locator("details.list-rename")).to_have_count(0)
    expect(tom.locator(".list-header button")).to_have_count(1)   # one "⋯", no × of its own
    button = tom.locator('button[data-action="list-menu"]')
    expect(button).to_have_attribute("aria-haspopup", "true")
    expect(button).to_have_attribute("aria-expanded", "false")
    panel = open_list_menu(tom)
    expect(button).to_have_attribute("aria-expanded", "true")
    inside_viewport(desk, panel)
    before = version(desk)
    panel.locator('form[data-form="rename-list"] input[name="title"]').fill("Thomas")
    panel.locator('form[data-form="rename-list"] button[type="submit"]').click()
    wait_version(desk, before + 1)
    expect(list_of(desk, "cat-2").locator(".list-title")).to_have_text("Thomas")

    desk.locator("h1").click()   # a click outside closes an open menu
    expect(list_of(desk, "cat-2").locator(".menu-panel")).to_be_hidden()
    panel = open_list_menu(list_of(desk, "cat-2"))
    desk.once("dialog", lambda dialog: dialog.accept())
    panel.locator('form[data-form="delete-list"] button[data-action="delete"]').click()
    wait_version(desk, before + 2)
    expect(list_of(desk, "cat-2")).to_have_count(0)


def test_the_list_menu_works_with_the_keyboard(desk):
    luna = list_of(desk, "cat-3")
    button = luna.locator('button[data-action="list-menu"]')
    button.focus()
    desk.keyboard.press("Enter")
    field = luna.locator('form[data-form="rename-list"] input[name="title"]')
    expect(field).to_be_focused()
    expect(button).to_have_attribute("aria-expanded", "true")
    desk.keyboard.press("Escape")
    expect(luna.locator(".menu-panel")).to_be_hidden()
    expect(button).to_be_focused()
    expect(button).to_have_attribute("aria-expanded", "false")

    desk.keyboard.press("Enter")
    expect(field).to_be_focused()
    desk.keyboard.press("Control+a")
    desk.keyboard.type("Luna the cat")
    before = version(desk)
    desk.keyboard.press("Enter")
    wait_version(desk, before + 1)
    expect(list_of(desk, "cat-3").locator(".list-title")).to_have_text("Luna the cat")


def test_the_list_menu_moves_a_list_right_and_left(desk):
    before = version(desk)
    open_list_menu(list_of(desk, "cat-1")).locator('button[data-action="list-right"]').click()
    wait_version(desk, before + 1)
    order = lambda: desk.eval_on_selector_all(".list[data-list]", "lists => lists.map((list) => list.dataset.list)")
    assert order()[:3] == ["cat-2", "cat-1", "cat-3"], order()
    open_list_menu(list_of(desk, "cat-1")).locator('button[data-action="list-left"]').click()
    wait_version(desk, before + 2)
    assert order()[:3] == ["cat-1", "cat-2", "cat-3"], order()


def test_the_header_counts_the_cards_and_keeps_counting(desk):
    count = list_of(desk, "cat-2").locator("[data-list-count]")
    expect(count).to_have_text(re.compile(r"^2\b"))
    expect(list_of(desk, "places").locator("[data-list-count]")).to_have_text(re.compile(r"^5\b"))
    field = open_composer(list_of(desk, "cat-2"), "new-item")
    field.fill("Yo-yo")
    before = version(desk)
    field.press("Enter")
    wait_version(desk, before + 1)
    expect(count).to_have_text(re.compile(r"^3\b"))
    cat1 = list_of(desk, "cat-1").locator("[data-list-count]")
    row(desk, "cat-1", "Ball of yarn").hover()
    row(desk, "cat-1", "Ball of yarn").locator('button[data-action="delete"]').click()
    wait_version(desk, before + 2)
    expect(cat1).to_have_text(re.compile(r"^2\b"))


# ---------------------------------------------------------------- composers

def test_the_card_composer_adds_cards_one_after_another_and_escape_closes_it(desk):
    tom = list_of(desk, "cat-2")
    field = tom.locator('form[data-form="new-item"] textarea[name="title"]')
    expect(field).to_be_hidden()
    opener = tom.locator('button[data-action="compose"]')
    expect(opener).to_have_text("+ Add a card")
    opener.click()
    expect(field).to_be_focused()
    before = version(desk)
    desk.keyboard.type("Yo-yo")
    desk.keyboard.press("Enter")
    wait_version(desk, before + 1)
    expect(field).to_have_value("")
    expect(field).to_be_focused()   # open for the next card
    desk.keyboard.type("Spinning top")
    desk.keyboard.press("Enter")
    wait_version(desk, before + 2)
    expect(title_cells(desk, "cat-2")).to_have_text(["Laser pointer", "Bell ball", "Yo-yo", "Spinning top"])
    desk.keyboard.press("Escape")
    expect(field).to_be_hidden()
    expect(opener).to_be_focused()
    tom.locator('button[data-action="compose"]').click()
    tom.locator('button[data-action="compose-cancel"]').click()
    expect(field).to_be_hidden()


def test_text_typed_in_a_composer_survives_the_list_being_drawn_again(desk, browser, server, console_errors):
    field = open_composer(list_of(desk, "cat-2"), "new-item")
    field.type("Half a thought")
    other_context, other = open_board(browser, server, console_errors)
    try:
        before = version(desk)
        # Another browser adds a list: every page reads the board's lists again and draws them anew.
        open_composer(other, "new-list").fill("Elsewhere")
        other.locator('form[data-form="new-list"] select[name="kind"]').select_option(index=0)
        other.locator('form[data-form="new-list"] [name="title"]').press("Enter")
        expect(desk.locator(".list-title", has_text="Elsewhere")).to_have_count(1)
        wait_version(desk, before + 1)
    finally:
        other_context.close()
    field = list_of(desk, "cat-2").locator('form[data-form="new-item"] textarea[name="title"]')
    expect(field).to_be_visible()
    expect(field).to_have_value("Half a thought")
    expect(field).to_be_focused()


def test_add_another_list_is_the_rows_last_column(desk):
    column = desk.locator("[data-board-lists] > .add-list")
    last = desk.locator(".list[data-list]").last
    desk.locator("[data-board-lists]").evaluate("(element) => { element.scrollLeft = element.scrollWidth; }")
    assert box(column)["x"] > box(last)["x"] + box(last)["width"]
    assert abs(box(column)["y"] - box(last)["y"]) <= 1
    opener = column.locator('button[data-action="compose"]')
    expect(opener).to_have_text("+ Add another list")
    opener.click()
    field = column.locator('input[name="title"]')
    expect(field).to_be_focused()
    expect(column.locator('select[name="kind"]')).to_be_visible()
    before = version(desk)
    desk.keyboard.type("Inbox")
    desk.keyboard.press("Enter")
    wait_version(desk, before + 1)
    expect(desk.locator(".list[data-list]").last.locator(".list-title")).to_have_text("Inbox")
    expect(field).to_have_value("")
    desk.keyboard.press("Escape")
    expect(field).to_be_hidden()


# ---------------------------------------------------------------- themes and contrast

def background(page) -> str:
    return page.evaluate("() => getComputedStyle(document.body).backgroundColor")


def luminance_of(page, colour: str) -> float:
    return page.evaluate(CONTRAST, [colour, "rgb(0, 0, 0)"]) * 0.05 - 0.05


def test_the_theme_toggle_switches_and_is_remembered(desk):
    light = background(desk)
    assert luminance_of(desk, light) > 0.5
    toggle = desk.locator('.masthead button[data-action="theme"]')
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(desk.locator("html")).to_have_attribute("data-theme", "dark")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert luminance_of(desk, background(desk)) < 0.05
    desk.reload()
    desk.wait_for_function(READY)
    expect(desk.locator("html")).to_have_attribute("data-theme", "dark")
    assert luminance_of(desk, background(desk)) < 0.05
    desk.goto(desk.url.replace("/boards/demo", "/"))   # the index shares the choice, and has the toggle
    expect(desk.locator('.masthead button[data-action="theme"]')).to_have_attribute("aria-pressed", "true")
    assert luminance_of(desk, background(desk)) < 0.05
    desk.locator('.masthead button[data-action="theme"]').click()
    expect(desk.locator("html")).to_have_attribute("data-theme", "light")
    assert luminance_of(desk, background(desk)) > 0.5


def test_a_dark_system_gets_the_dark_theme_without_the_toggle(browser, server, console_errors):
    context, page = open_board(browser, server, console_errors, color_scheme="dark")
    try:
        expect(page.locator("html")).not_to_have_attribute("data-theme", re.compile("."))
        assert luminance_of(page, background(page)) < 0.05
        card = row(page, "cat-1", "Ball of yarn")
        assert luminance_of(page, card.evaluate("(element) => getComputedStyle(element).backgroundColor")) < 0.05
        expect(page.locator('button[data-action="theme"]')).to_have_attribute("aria-pressed", "true")
    finally:
        context.close()
    assert console_errors.unexpected() == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_body_text_reaches_aa_contrast_in_both_themes(browser, server, console_errors, scheme):
    context, page = open_board(browser, server, console_errors, color_scheme=scheme)
    try:
        for selector in [".board-title", ".hint--pointer", ".list-title", "[data-item] > .title", ".list-count",
                         ".composer-open", ".row .age", ".zone-hint", ".label-text", ".activity-panel h2", ".crumbs a"]:
            element = page.locator(selector).first
            colours = element.evaluate(f"(element) => [getComputedStyle(element).color, ({BACKDROP})(element)]")
            ratio = page.evaluate(CONTRAST, colours)
            assert ratio >= 4.5, f"{scheme}: {selector} {colours} contrast {ratio:.2f}"
    finally:
        context.close()


# ---------------------------------------------------------------- every control styled

#: Every visible control whose look is still the browser's own (`appearance: auto`), by its markup.
DEFAULT_CONTROLS = """() => [...document.querySelectorAll('button, input, select, textarea, summary.icon-button')]
  .filter((element) => element.type !== 'hidden' && element.type !== 'checkbox' && element.type !== 'radio')
  .filter((element) => element.getClientRects().length > 0)
  .filter((element) => {
    const style = getComputedStyle(element);
    return style.appearance !== 'none' || style.backgroundColor === 'rgb(239, 239, 239)' || style.borderTopStyle === 'outset';
  })
  .map((element) => element.outerHTML.slice(0, 120))"""


def test_no_control_on_any_page_looks_like_the_browsers_default(desk, server):
    item = rows(desk, "cat-1").first.get_attribute("data-item")
    pages = ["/", "/boards/demo", f"/boards/demo/move?item={item}", "/login", "/boards/demo/members", "/boards/demo/activity"]
    for path in pages:
        desk.goto(server.url + path)
        desk.wait_for_load_state("load")
        if path == "/boards/demo":
            desk.wait_for_function(READY)
            open_list_menu(list_of(desk, "cat-1"))
            desk.locator('[data-board-lists] > .add-list button[data-action="compose"]').click()
        controls = desk.evaluate("() => document.querySelectorAll('button, input:not([type=hidden]), select, textarea').length")
        assert controls > 0 or path.endswith("/activity"), path
        assert desk.evaluate(DEFAULT_CONTROLS) == [], path


def test_focus_rings_are_visible_two_pixel_outlines(desk):
    button = list_of(desk, "cat-1").locator('button[data-action="list-menu"]')
    button.focus()
    desk.keyboard.press("Shift+Tab")
    desk.keyboard.press("Tab")
    expect(button).to_be_focused()
    style = button.evaluate("(element) => { const s = getComputedStyle(element); return [s.outlineStyle, s.outlineWidth, s.outlineOffset, s.outlineColor]; }")
    assert style[0] == "solid" and style[1] == "2px" and style[2] != "0px", style
    backdrop = button.evaluate(f"(element) => ({BACKDROP})(element.parentElement)")
    assert desk.evaluate(CONTRAST, [style[3], backdrop]) >= 3, (style, backdrop)


# ---------------------------------------------------------------- the filter

def test_the_filter_dims_the_cards_that_do_not_match(desk):
    box_ = desk.locator('.masthead input[type="search"][data-filter]')
    expect(box_).to_have_accessible_name(re.compile("Filter", re.I))
    desk.locator("h1").click()
    desk.keyboard.press("/")
    expect(box_).to_be_focused()
    expect(box_).to_have_value("")   # the slash was a shortcut, not typed
    desk.keyboard.type("BALL")
    expect(row(desk, "cat-1", "Feather wand")).to_have_attribute("data-filtered-out", "")
    for kept in [row(desk, "cat-1", "Ball of yarn"), row(desk, "cat-2", "Bell ball")]:
        expect(kept).not_to_have_attribute("data-filtered-out", "")
    expect(row(desk, "cat-1", "Feather wand")).to_have_css("opacity", "0.3")
    # A card that comes later is filtered as it arrives.
    field = open_composer(list_of(desk, "cat-3"), "new-item")
    field.fill("Kite")
    before = version(desk)
    field.press("Enter")
    wait_version(desk, before + 1)
    expect(row(desk, "cat-3", "Kite")).to_have_attribute("data-filtered-out", "")
    box_.focus()
    desk.keyboard.press("Escape")
    expect(box_).to_have_value("")
    expect(desk.locator("[data-filtered-out]")).to_have_count(0)


# ---------------------------------------------------------------- phones

def test_a_phone_shows_one_list_per_screen_and_snaps_to_each(phone):
    lists_row = phone.locator("[data-board-lists]")
    assert lists_row.evaluate("(element) => getComputedStyle(element).scrollSnapType") == "x mandatory"
    first = list_of(phone, "cat-1")
    assert first.evaluate("(element) => getComputedStyle(element).scrollSnapAlign") == "start"
    width = box(first)["width"]
    assert 390 - 60 <= width <= 390 - 16, width
    assert box(list_of(phone, "cat-2"))["x"] >= 390 - 20, "the next list waits beyond the screen's edge"
    lists_row.evaluate("(element) => element.scrollBy(150, 0)")   # a little past the first list: it snaps on
    phone.wait_for_function("() => { const x = document.querySelector('[data-list=\"cat-2\"]').getBoundingClientRect().x; return x >= 0 && x < 30; }")


def test_on_a_phone_menus_open_inside_the_screen(phone):
    lists_row = phone.locator("[data-board-lists]")
    button = row(phone, "cat-1", "Ball of yarn").locator('button[data-action="move-to"]')
    button.tap()
    menu = phone.locator(".move-menu")
    expect(menu.locator('[role="menuitem"]').first).to_be_visible()
    inside_viewport(phone, menu)
    phone.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    lists_row.evaluate("(element) => { element.scrollLeft = 0; }")
    panel = open_list_menu(list_of(phone, "cat-1"))
    inside_viewport(phone, panel)


def test_on_a_phone_every_target_is_big_enough_for_a_finger(phone):
    targets = phone.evaluate("""() => [...document.querySelectorAll(
        '[data-list="cat-1"] button, [data-list="cat-1"] input:not([type=hidden]), .masthead button, .masthead input')]
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => { const r = element.getBoundingClientRect(); return [element.outerHTML.slice(0, 80), r.width, r.height]; })""")
    assert len(targets) >= 8, targets
    small = [target for target in targets if target[1] < 44 or target[2] < 44]
    assert small == [], small


def test_on_a_phone_the_hint_speaks_of_touch(phone):
    hints = phone.locator(".hint:visible")
    expect(hints).to_have_count(1)
    expect(hints).to_contain_text(re.compile("touch", re.I))
    expect(hints).not_to_contain_text(re.compile("mouse", re.I))


def test_without_javascript_no_hint_speaks_of_what_needs_it(browser, server):
    context = browser.new_context(java_script_enabled=False, viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(server.demo)
        expect(page.locator(".hint:visible")).to_have_count(0)
        # The forms are simply there: the card composers open, the list menu a <details>.
        expect(list_of(page, "cat-1").locator('form[data-form="new-item"] textarea[name="title"]')).to_be_visible()
        expect(list_of(page, "cat-1").locator('button[data-action="compose"]')).to_be_hidden()
        page.locator('[data-list="cat-1"] details.list-menu > summary').click()
        expect(list_of(page, "cat-1").locator('form[data-form="rename-list"]')).to_be_visible()
    finally:
        context.close()


# ---------------------------------------------------------------- defects of the review

def test_defect_5_the_new_list_column_and_the_zones_overlap_nothing(desk):
    zones = [box(desk.locator('[data-zone="image-well"]')), box(desk.locator('[data-zone="label"]'))]
    desk.locator('[data-board-lists] > .add-list button[data-action="compose"]').click()
    others = [box(desk.locator("form[data-form='new-list']")), *(box(item) for item in desk.locator(".list[data-list]").all())]
    for zone in zones:
        for other in others:
            assert not overlaps(zone, other), (zone, other)


def test_defect_6_long_titles_wrap_beside_the_row_buttons(desk):
    field = open_composer(list_of(desk, "cat-2"), "new-item")
    title = "A very long card title that goes on and on about a ball of yarn the cat lost under the sofa"
    field.fill(title)
    before = version(desk)
    field.press("Enter")
    wait_version(desk, before + 1)
    card = row(desk, "cat-2", title)
    card.hover()
    words = box(card.locator(".title"))
    assert words["height"] > 30, "the title wraps onto several lines"
    for button in ["move-to", "delete"]:
        control = card.locator(f'button[data-action="{button}"]')
        expect(control).to_be_visible()
        assert not overlaps(words, box(control)), (button, words, box(control))
    assert box(card)["x"] + box(card)["width"] >= words["x"] + words["width"]


#: Watches every change of the spring-loading cue and of the insertion line during a drag: whether the
#: cue was ever on while the line showed (`together`), and whether its fill then showed (`filled`).
WATCH_CUES = """() => {
  window.__cues = { together: 0, filled: 0 };
  const look = () => {
    const line = document.querySelector('.drop-indicator');
    if (!line || line.hidden) return;
    for (const row of document.querySelectorAll('[data-spring-loading]')) {
      window.__cues.together += 1;
      const style = getComputedStyle(row);
      if (style.animationName !== 'none' || style.backgroundImage !== 'none') window.__cues.filled += 1;
    }
  };
  new MutationObserver(look).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-spring-loading', 'hidden', 'style'] });
}"""


def test_defect_7_spring_loading_never_fills_while_the_between_line_shows(desk):
    blue = row(desk, "toy-boxes", "Blue box")
    desk.locator("[data-board-lists]").evaluate("(element) => { element.scrollLeft = 400; }")   # Luna and the boxes on screen
    desk.evaluate(WATCH_CUES)
    session = start_drag(desk, row(desk, "cat-3", "Crinkle tunnel"))
    session.hover(blue, 0.1)   # the top edge of a closed box: the line between the boxes
    expect_indicator_at(desk, top_of(blue))
    session.release()
    cues = desk.evaluate("() => window.__cues")
    assert cues["together"] > 0, "the drag went over the box's edge with its spring-loading timer running"
    assert cues["filled"] == 0, cues


def test_ctrl_z_with_nothing_to_undo_logs_no_error(desk):
    posts = []
    desk.on("request", lambda request: posts.append(request.url) if request.method == "POST" and "/api/" in request.url else None)
    desk.locator("h1").click()
    desk.keyboard.press("Control+z")
    expect(desk.locator("#status")).to_have_text("There is nothing to undo.")
    desk.keyboard.press("Control+Shift+z")
    expect(desk.locator("#status")).to_have_text("There is nothing to redo.")
    assert posts == []   # the desk fixture fails the test on any console error
