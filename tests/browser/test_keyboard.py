"""Keyboard play (no pointer): the focus stays where the next key is pressed, Space presses the
link-buttons, and focus is seen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def focused(page: Page) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.className")


def test_an_entry_is_made_with_keys_only_and_the_focus_follows(page: Page, live_server: str):
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                             "first_player": 0}).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    page.focus("#add-red")
    page.keyboard.press("Enter")  # a chip: the redrawn sheet keeps the focus on it
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(1)
    assert focused(page) == "add-red"
    page.keyboard.press(" ")  # Space presses it too (it used to scroll the page)
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(2)
    assert focused(page) == "add-red"
    # a screen reader hears what saving would record (the page's lasting live region)
    expect(page.locator("#announcer")).to_have_text("Saving will record: Ana took 2 red.")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineWidth")
    assert outline == "3px"
    page.focus('#sheet form[data-type="take_tokens"] button.save')
    page.keyboard.press("Enter")  # saved: the new screen's sheet has the focus, not the page
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '1'")
    page.wait_for_function("() => document.activeElement.id === 'add-white'")
    page.focus("#action-buy")
    page.keyboard.press("Enter")  # a tab hands the focus to the sheet it opened
    expect(page.locator('#sheet [data-sheet="buy"]')).to_be_visible()
    page.wait_for_function("() => !!document.activeElement.closest('#sheet .sheet-body')")
    assert page.request.get(f"{live_server}/api/games/{gid}").json()["players"][0]["tokens"]["red"] == 2
