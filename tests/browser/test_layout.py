"""Pages fit a 390-px phone whatever names the table typed (the form allows 40 characters)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

LONG = "Maximilian-Alexander Wolfeschlegelstein!"  # 40 characters


def test_long_names_never_widen_the_players_and_history_pages(page: Page, live_server: str):
    assert len(LONG) == 40
    game = page.request.post(live_server + "/api/games", data={"game": "duel", "players": [LONG, "Ben"], "first_player": 0}).json()
    page.goto(f"{live_server}/players")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    player = page.locator("tr[data-player] a", has_text="Maximilian").get_attribute("href")
    assert player
    page.goto(f"{live_server}/history?player={player.rsplit('/', 1)[-1]}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.goto(f"{live_server}/games/{game['id']}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    heights = page.evaluate("[...document.querySelectorAll('nav.actions a, #share-btn, #log summary')]"
                            ".map(e => e.getBoundingClientRect().height)")
    assert heights and min(heights) >= 44, heights


def test_the_buy_sheet_colour_filters_fit_a_390_px_phone(page: Page, live_server: str):
    """Duel's eight filters (all, five colours, joker, points only) stay on screen, 44 px wide."""
    page.goto(live_server + "/")
    page.fill("#player0", "지민")
    page.fill("#player1", "서준")
    page.get_by_role("button", name="Start the game").click()
    page.locator("#action-buy").click()
    filters = page.locator("#sheet .filters .filter")
    expect(filters).to_have_count(8)
    for i in range(8):
        box = filters.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] >= 44, (i, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
