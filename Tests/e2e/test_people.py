"""Who is here and who did what, in two signed-in browsers: the board shows who views it, the
card someone else is dragging is marked with their name and words while it is in the air (told at
the drag's start, its target changes and its end, never per dragover), and the activity panel and
page say each change by its author."""
from playwright.sync_api import expect

from helpers import list_of, open_composer, row, rows, start_drag, title_cells, version, wait_version
from test_accounts import accounts_server, people  # noqa: F401  (fixtures)

#: Counts the `dragging` events the page's own EventSource hears, in `window.__dragging`.
COUNT_DRAGGING = """
(() => {
  const Native = window.EventSource;
  window.__dragging = 0;
  window.EventSource = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('dragging', () => { window.__dragging += 1; });
    }
  };
})();
"""


def test_each_board_page_shows_who_views_it_live(people, accounts_server):
    """Two people on the board see each other in `[data-presence]`; one signs out, the other's list loses them."""
    alice, page = people.member("alice", "editor")
    bob, other = people.member("bob", "viewer")
    for seen in (page, other):
        expect(seen.locator(f'[data-presence] [data-user="{alice}"]')).to_have_count(1)
        expect(seen.locator(f'[data-presence] [data-user="{bob}"]')).to_have_count(1)
    expect(page.locator(f'[data-presence] [data-user="{alice}"]')).to_contain_text("(you)")
    with other.expect_navigation():
        other.locator('[data-action="logout"]').click()
    expect(page.locator(f'[data-presence] [data-user="{bob}"]')).to_have_count(0)
    expect(page.locator(f'[data-presence] [data-user="{alice}"]')).to_have_count(1)


def test_a_card_in_the_air_is_marked_for_everyone_else_until_it_lands(people, accounts_server):
    """While alice drags a card (real mouse), bob's page marks it `data-dragged-by` with her name and
    says "alice is moving “…”"; the events come at the start and at each change of target only;
    when she drops, the mark and the words go, and the card is where she put it."""
    alice, page = people.member("alice", "editor")
    bob, watcher = people.member("bob", "viewer", init_script=COUNT_DRAGGING)
    # Bob's live stream is open once Alice's page lists him among the viewers: a drag begun before that
    # is told to no stream of his (his page had loaded, its stream not yet connected).
    expect(page.locator(f'[data-presence] [data-user="{bob}"]')).to_have_count(1)
    moved = rows(page, "cat-1").first
    title = moved.locator(":scope > .title").inner_text()
    item = moved.get_attribute("data-item")
    before = version(page)
    session = start_drag(page, moved)
    marked = watcher.locator(f'[data-item="{item}"]')
    expect(marked).to_have_attribute("data-dragged-by", alice)
    expect(watcher.locator("[data-dragging-note]")).to_have_text(f"{alice} is moving “{title}”")
    expect(page.locator(f'[data-item="{item}"]')).not_to_have_attribute("data-dragged-by", alice)   # not on her own page
    started = watcher.evaluate("() => window.__dragging")
    # Many dragovers over one list, one target change.
    session.hover(rows(page, "cat-2").first, "top", steps=12)
    session.hover(rows(page, "cat-2").last, "bottom", steps=12)
    expect(list_of(page, "cat-2")).to_have_attribute("data-drop-operation", "move")
    watcher.wait_for_function("(count) => window.__dragging > count", arg=started)
    session.release()
    wait_version(page, before + 1)
    expect(watcher.locator("[data-dragged-by]")).to_have_count(0)
    expect(watcher.locator("[data-dragging-note]")).to_have_text("")
    # start, the target change(s) of this one path (cat-1 → cat-2), the end: a handful, not one per dragover
    assert watcher.evaluate("() => window.__dragging") <= 5
    wait_version(watcher, before + 1)
    expect(row(watcher, "cat-2", title)).to_have_count(1)


def test_the_activity_panel_and_page_tell_each_change_by_its_author(people, accounts_server):
    """An editor adds a card: the owner's activity panel says "<editor> added …" live; the activity
    page lists it, newest first, with its time."""
    owner_name, owner = people.member("olive", "owner")
    editor, page = people.member("eddie", "editor")
    form = list_of(page, "cat-1").locator('form[data-form="new-item"]')
    open_composer(list_of(page, "cat-1"), "new-item").fill("Card 7")
    before = version(page)
    form.locator('button[type="submit"]').click()
    wait_version(page, before + 1)
    panel = owner.locator("[data-activity-list] li").first
    expect(panel).to_contain_text(f"{editor} added")
    expect(panel).to_contain_text("Card 7")
    expect(panel.locator("time")).to_have_attribute("datetime", __import__("re").compile(r"^\d{4}-\d\d-\d\dT"))
    owner.locator('[data-action="activity"]').click()
    expect(owner.locator(".activity-page")).to_be_visible()
    entries = owner.locator(".activity-list li")
    expect(entries.first).to_contain_text(f"{editor} added")
    expect(title_cells(page, "cat-1").last).to_have_text("Card 7")
    assert owner_name != editor


def test_a_page_whose_sign_in_ended_goes_to_the_sign_in_page_at_its_next_request(people, accounts_server):
    """A new password ends bob's sign-in (from the command line, while his board is open): his next
    drag's request is refused with 401, and the page goes to the sign-in page, to come back after.
    The drag is picked up with the keyboard (the same request as the mouse's): a native drag whose page
    navigates away under it can leave Playwright's `mouse.up()` waiting for good (a fresh-clone run hung so)."""
    bob, page = people.member("bob", "editor")
    accounts_server.users("set-password", bob, password="a-new-password-1")
    people.console_errors.expect(r"status of 401", r"/api/|/events")
    with page.expect_navigation(url=f"{accounts_server.url}/login?next=%2Fboards%2Fdemo"):
        rows(page, "cat-1").first.focus()
        page.keyboard.press("Space")
    expect(page.locator('form[data-form="login"] input[name="next"]')).to_have_value("/boards/demo")
