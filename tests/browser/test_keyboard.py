"""Keyboard play (no pointer): the focus stays where the next key is pressed, Space presses the
link-buttons, and focus is seen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def focused(page: Page) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.className")


def new_duel(page: Page, live_server: str, query: str = "") -> str:
    """A new Duel (Ana starts) opened on this page, htmx loaded; its id."""
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                             "first_player": 0}).json()["id"]
    page.goto(f"{live_server}/games/{gid}{query}")
    page.wait_for_function("() => window.htmx !== undefined")
    return gid


def test_an_entry_is_made_with_keys_only_and_the_focus_follows(page: Page, live_server: str):
    gid = new_duel(page, live_server)
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


def test_a_buy_or_reserve_sheet_starts_with_a_skip_to_the_cards(page: Page, live_server: str):
    """A blind player's pass: the level tabs and eight colour filters were 12-15 Tab stops before
    the first card. The sheet's first stop is "Skip to the cards (N)", shown while focused."""
    new_duel(page, live_server)
    for action in ("buy", "reserve"):
        page.focus(f"#action-{action}")
        page.keyboard.press("Enter")
        expect(page.locator(f'#sheet [data-sheet="{action}"]')).to_be_visible()
        skip = page.locator("#sheet a.skip-link")
        expect(skip).to_be_focused()  # the sheet's first control
        expect(skip).to_have_text("Skip to the cards (30)")  # level 1: 30 cards, none taken
        assert (skip.bounding_box() or {}).get("width", 0) > 40  # seen while focused
        page.keyboard.press("Enter")
        page.wait_for_function("() => !!document.activeElement.closest('#cards') && document.activeElement.matches('a.card')")
        assert "#cards" not in page.url
        page.keyboard.press("Enter")  # the card: its payment, then its save
        expect(page.locator("#sheet .selected-card")).to_be_visible()
    page.focus("#action-take")
    page.keyboard.press("Enter")
    expect(page.locator("#sheet a.skip-link")).to_have_count(0)  # the take sheet has no grid


def test_the_victory_banners_undo_question_is_answered_with_keys(page: Page, live_server: str):
    """The banner keeps the focus inside it, but not from the undo question asked over it: Tab
    reaches "Undo it" (it went round "Keep it" alone), Esc closes the question and leaves the
    banner up."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "duel-1069.json").read_text())
    gid = page.request.post(live_server + "/api/games/import", data=log).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    expect(page.locator("#victory")).to_be_visible()
    page.focus("#victory-undo")
    page.keyboard.press("Enter")
    expect(page.locator("#undo-dialog")).to_be_visible()
    assert focused(page) == "undo-dialog-no"
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "undo-dialog-yes"
    page.keyboard.press("Escape")
    expect(page.locator("#undo-dialog")).to_be_hidden()
    expect(page.locator("#victory")).to_be_visible()
    assert page.request.get(f"{live_server}/api/games/{gid}").json()["status"] == "finished"


def test_space_presses_a_button_drawn_as_a_link(page: Page, live_server: str):
    """A secret card's level (a link drawn as a button) opens with Space as with Enter."""
    new_duel(page, live_server, "?sheet=reserve")
    page.focus("#secret-2")
    page.keyboard.press(" ")
    form = page.locator('#sheet form[data-type="reserve"]')
    expect(form).to_have_count(1)  # the secret level-2 reserve, ready to save
    assert '"level": 2' in (form.locator('input[name="event"]').get_attribute("value") or "")


def test_a_joker_card_chosen_with_keys_hands_the_focus_to_its_colours(page: Page, live_server: str):
    """A joker card chosen from the grid by Enter: its save waits for the colour, so the focus
    goes to the colour choices (it fell to the page: the next Tab went past them), each named by
    its colour; the colour chosen hands it to the save."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "duel-1012.json").read_text())
    gid = page.request.post(live_server + "/api/games/import", data={
        **{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:46]}).json()["id"]
    page.goto(f"{live_server}/games/{gid}?sheet=buy")
    page.wait_for_function("() => window.htmx !== undefined")
    page.focus('#cards a.card[data-card="D1-28"]')
    page.keyboard.press("Enter")
    page.wait_for_function("() => !!document.activeElement.closest('[data-wild]')")
    names = page.locator("#sheet [data-wild]").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert "white" in names and all(n and len(n) > 1 for n in names)
    page.focus('#sheet [data-wild="white"]')
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.matches('#sheet form button.save')")


def test_a_card_that_steals_chosen_with_keys_hands_the_focus_to_the_tokens(page: Page, live_server: str):
    """D2-02 (steal a token) chosen by Enter: the focus went to its save, disabled until a token
    is named, past the tokens above it (an accessibility tester); it goes to the first token,
    each named "steal <colour> (<n> held)"; the token chosen hands it to the save."""
    gid = new_duel(page, live_server)
    fixes = [{"type": "correction", "player": 0, "set": {
                 "tokens": {"blue": 4, "red": 3},
                 "board": {"white": 4, "blue": 0, "green": 4, "red": 1, "black": 4, "pearl": 2, "gold": 3}}},
             {"type": "correction", "player": 1, "set": {
                 "tokens": {"white": 2, "black": 1},
                 "board": {"white": 2, "blue": 0, "green": 4, "red": 1, "black": 3, "pearl": 2, "gold": 3}}}]
    for fix in fixes:
        assert page.request.post(f"{live_server}/api/games/{gid}/events", data=fix).ok
    page.goto(f"{live_server}/games/{gid}?sheet=buy&src=2")
    page.wait_for_function("() => window.htmx !== undefined")
    page.focus('#cards a.card[data-card="D2-02"]')
    page.keyboard.press("Enter")
    page.wait_for_function("() => !!document.activeElement.closest('.steal-choices [data-steal]')")
    names = page.locator("#sheet .steal-choices [data-steal]").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert names == ["steal white (2 held)", "steal black (1 held)"], names
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.matches('#sheet form button.save')")


def test_the_focus_in_an_open_sheet_stays_on_its_control_when_the_other_phone_enters(page: Page, live_server: str):
    """An accessibility tester: a Buy sheet's level tab focused, the other phone's entry redrew
    the screen and opened the sheet again, and the focus fell to the page (the next Tab went to
    the game log). It goes back to the same control of the sheet opened again, and the sheet's new
    buyer is said."""
    gid = new_duel(page, live_server, "?sheet=buy")
    page.focus('#sheet .tabs a[data-tab="2"]')
    assert page.evaluate("document.activeElement.dataset.tab") == "2"
    page.request.post(f"{live_server}/api/games/{gid}/events",
                      data={"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    expect(page.locator(".whose-turn")).to_have_text("Ben's turn", timeout=4000)
    expect(page.locator('#sheet [data-sheet="buy"]')).to_be_visible()
    page.wait_for_function("() => document.activeElement.matches('#sheet .tabs a[data-tab=\"2\"]')", timeout=4000)
    # the sheet is Ben's now: said after the news (a screen reader read on as if the costs were Ana's)
    expect(page.locator("#announcer")).to_contain_text("Ben buys: costs after Ben's bonuses.", timeout=4000)


def test_a_control_reached_with_tab_at_200_percent_zoom_stays_clear_of_the_two_rows_of_tabs(browser, live_server: str):
    """An accessibility tester at 200% zoom (a 195×422 page): the tabs took two rows, 105 px, and
    a filter reached with Tab stopped 28–33 px under them (72 px kept for one row)."""
    context = browser.new_context(viewport={"width": 195, "height": 422}, device_scale_factor=4)
    page = context.new_page()
    new_duel(page, live_server, "?sheet=buy")
    nav = page.locator("nav.actions").bounding_box()
    assert nav and nav["height"] > 80, nav  # (two rows)
    padding = page.evaluate("parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom)")
    assert padding >= nav["height"], (padding, nav)
    for selector in ('#sheet .filters a:last-child', '#sheet #cards a.card'):
        page.focus(selector)
        box = page.locator(selector).first.bounding_box()
        top_of_tabs = page.locator("nav.actions").bounding_box()["y"]
        assert box and box["y"] + box["height"] <= top_of_tabs + 1, (selector, box, top_of_tabs)
    context.close()


def test_a_card_picked_when_the_other_phone_enters_keeps_the_news_with_the_new_buyer(page: Page, live_server: str):
    """A tester: a card picked on the Buy sheet, the other phone's entry came; the live region had
    "Ben took 1 blue. Ana's turn. What you had chosen was cleared…", then only "Ana buys: …" 36 ms
    later, before any of it was read. The new buyer is said after the news, with it."""
    gid = new_duel(page, live_server)
    assert page.request.post(f"{live_server}/api/games/{gid}/events",
                             data={"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).ok
    page.goto(f"{live_server}/games/{gid}?sheet=buy")
    page.wait_for_function("() => window.htmx !== undefined")
    page.focus("#cards a.card")
    page.keyboard.press("Enter")
    expect(page.locator("#sheet form button.save")).to_have_count(1)
    page.request.post(f"{live_server}/api/games/{gid}/events", data={"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})
    said = page.locator("#announcer")
    expect(said).to_contain_text("Ana buys: costs after Ana's bonuses.", timeout=5000)
    expect(said).to_contain_text("Ben took 1 blue.")
    expect(said).to_contain_text("What you had chosen was cleared")


def test_the_table_button_pressed_with_a_key_keeps_the_focus(page: Page, live_server: str):
    """The turn line's "⟲ Table" reloads the page: pressed with Enter, the focus fell to the
    page's top and the next Tab started over (a keyboard tester). It stays on the button; a tap
    (a pointer) leaves the focus alone."""
    new_duel(page, live_server)
    page.focus("#table-btn")
    page.keyboard.press("Enter")
    expect(page.locator("body.table-mode")).to_have_count(1)
    expect(page.locator("#table-btn")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("body.table-mode")).to_have_count(0)
    expect(page.locator("#table-btn")).to_be_focused()
    page.locator("#table-btn").click()
    expect(page.locator("body.table-mode")).to_have_count(1)
    expect(page.locator("#table-btn")).not_to_be_focused()
