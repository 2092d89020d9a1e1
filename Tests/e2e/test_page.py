"""The served page: lists and rows per the DOM contract, security headers, no inline script."""


def test_page_shows_every_demo_list_with_draggable_rows(page, server):
    lists = page.eval_on_selector_all("[data-list]", "els => els.map(e => e.dataset.list)")
    # Each toy box's contents are a list of its own, inside the box's row.
    assert lists == ["cat-1", "cat-2", "cat-3", "places", "people", "toy-boxes", "box-red", "box-blue", "box-green"]
    rows = page.locator("[data-list='cat-1'] [data-item]")
    assert rows.count() == 3
    assert rows.first.get_attribute("draggable") == "true"
    assert "Ball of yarn" in rows.first.inner_text()
    assert page.locator("[data-list='people'] [data-item]").first.inner_text().startswith("Ada Lovelace")


def test_page_is_served_with_a_strict_content_security_policy(page, server):
    response = page.request.get(server.url)
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    assert page.locator("script:not([src])").count() == 0
