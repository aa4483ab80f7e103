"""A phone on its side (844×390): a tester found one column showed half a panel and no token
chip in the first screen. The table goes left, the sheet right, kept in view."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from driver import Table
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).parents[1] / "fixtures"


def test_on_its_side_the_phone_shows_the_table_and_the_sheet_side_by_side(browser: Browser, live_server: str, shots: Path):
    context = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    part = {**{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:30], "result": None}
    state = page.request.post(live_server + "/api/games/import", data=part).json()
    page.goto(f"{live_server}/games/{state['id']}")
    table = Table(page)
    # the first screen: a token chip, the player to act's name, the tabs
    expect(page.locator(".pick-source .chip-btn").first).to_be_in_viewport(ratio=1)
    expect(page.locator("#panel-0 .player-name")).to_be_in_viewport()
    expect(page.locator("#panel-1 .player-name")).to_be_in_viewport()
    sheet, panel = page.locator("#entry").bounding_box(), page.locator("#panel-0").bounding_box()
    assert sheet["x"] >= panel["x"] + panel["width"]  # side by side
    page.screenshot(path=str(shots / "landscape-take.png"))
    # a card chosen to buy: its save on screen, above the tabs, without scrolling the page
    table.open("buy")
    page.locator("#sheet .grid a.affordable[data-card]").first.click()
    save = page.locator("#sheet form button.save")
    expect(save).to_be_visible()
    save.scroll_into_view_if_needed()
    tabs = page.locator("nav.actions").bounding_box()
    box = save.bounding_box()
    assert box["y"] + box["height"] <= tabs["y"]  # not under the tabs
    expect(page.locator("#panel-0 .player-name")).to_be_in_viewport()  # the table still there
    before = table.version
    save.click()
    page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) > v", arg=before)
    page.screenshot(path=str(shots / "landscape-after-buy.png"))
    context.close()
