"""A phone on its side (844×390): a tester found one column showed half a panel and no token
chip in the first screen. The table goes left, the sheet right, kept in view."""

from __future__ import annotations

import json
import re
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


@pytest.mark.parametrize("size", [(740, 360), (1024, 768)])
def test_on_its_side_a_chosen_card_s_save_and_a_royal_prompt_s_first_card_are_in_view(
        browser: Browser, live_server: str, shots: Path, size):
    """A tester's second pass: at 740×360 the save of a card chosen to buy was below the sheet's
    own scrolling box, a royal card's save showed 15 of its 44 px, and the royal prompt opened
    scrolled to its middle; a tablet on its side kept the one narrow column."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    head = {k: log[k] for k in ("format", "game", "players", "first_player")}
    state = page.request.post(live_server + "/api/games/import", data={**head, "events": log["events"][:30], "result": None}).json()
    page.goto(f"{live_server}/games/{state['id']}")
    table = Table(page)
    sheet, panel = page.locator("#entry").bounding_box(), page.locator("#panel-0").bounding_box()
    assert sheet["x"] >= panel["x"] + panel["width"]  # side by side, the tablet too
    table.open("buy")
    page.locator("#sheet .grid a.affordable[data-card]").first.click()
    save = page.locator("#sheet form button.save")
    expect(save).to_be_visible()
    page.wait_for_timeout(300)
    box, clip = save.bounding_box(), page.locator("#entry").bounding_box()
    assert clip["y"] <= box["y"] and box["y"] + box["height"] <= clip["y"] + clip["height"]  # whole, in the sheet's box
    # a royal card due: the prompt from its heading; the steal's save whole once the token is tapped
    due = page.request.post(live_server + "/api/games/import", data={**head, "events": log["events"][:45], "result": None}).json()
    page.goto(f"{live_server}/games/{due['id']}")
    expect(page.locator("#sheet .prompt h3")).to_be_in_viewport(ratio=1)
    page.locator('a.royal-card[data-royal="DR-4"]').click()
    page.locator(".steal-choices a[data-steal]").first.click()
    steal_save = page.locator("#sheet form[data-steal] button.save")
    expect(steal_save).to_be_visible()
    page.wait_for_timeout(300)
    box, clip = steal_save.bounding_box(), page.locator("#entry").bounding_box()
    assert clip["y"] <= box["y"] and box["y"] + box["height"] <= min(clip["y"] + clip["height"], height)
    page.screenshot(path=str(shots / f"landscape-royal-{width}x{height}.png"))
    context.close()


def test_on_its_side_a_four_player_game_shows_the_acting_player_s_panel(browser: Browser, live_server: str, shots: Path):
    """Four Splendor panels on the left of a phone on its side: the third and fourth players'
    panels were below the fold while they entered their turn (a tester). The acting player's
    panel is scrolled into view when the screen opens and after each save; the sheet stays."""
    context = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    setup = {"game": "splendor", "players": ["Ana", "Ben", "Cho", "Dan"], "first_player": 0,
             "nobles": ["N-01", "N-02", "N-03", "N-04", "N-05"]}
    gid = page.request.post(live_server + "/api/games", data=setup).json()["id"]
    for seat, kinds in ((0, ("red", "blue", "green")), (1, ("white", "black", "red"))):
        move = {"type": "take_tokens", "player": seat, "tokens": {k: 1 for k in kinds}}
        assert page.request.post(f"{live_server}/api/games/{gid}/events", data=move).ok
    page.goto(f"{live_server}/games/{gid}")
    table = Table(page)
    expect(page.locator("#panel-2.is-current")).to_be_in_viewport(ratio=1)  # Cho's turn
    expect(page.locator("#sheet .sheet-for")).to_be_in_viewport()
    for kind in ("red", "blue", "green"):
        page.locator(f'.pick-source a[data-kind="{kind}"]').click()
    table._save("take_tokens")
    expect(page.locator("#panel-3.is-current")).to_be_in_viewport(ratio=1)  # Dan's
    expect(page.locator("#sheet .sheet-for")).to_have_text("Dan takes 3 different gems or 2 alike")
    expect(page.locator("#sheet .sheet-for")).to_be_in_viewport()
    page.screenshot(path=str(shots / "landscape-four-players.png"))
    # scrolled to the page's end (the log, the links, Settings): the sheet stays whole in its
    # column (it was carried up off the screen with the game's grid, its chips half hidden: a tester)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(page.locator("#settings")).to_be_in_viewport()
    expect(page.locator("#sheet .sheet-for")).to_be_in_viewport(ratio=1)
    expect(page.locator('.pick-source a[data-kind="white"]')).to_be_in_viewport(ratio=1)
    links = page.locator(".game-links").bounding_box()
    sheet = page.locator("#entry").bounding_box()
    assert links and sheet and links["x"] + links["width"] <= sheet["x"]  # beside it, never under it
    context.close()


def test_a_prompt_turned_across_is_placed_again_when_the_window_resizes(browser: Browser, live_server: str):
    """Table mode, Ben's royal card owed, on a laptop's window made smaller (as a tablet turned):
    the sheet's column, now scrolling, stayed at its top, which is the far end of Ben's prompt
    (his last choices, upside down), its heading off the screen (a tester). It is placed as on a
    fresh load."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    log = json.loads((FIXTURES / "duel-1102.json").read_text())
    part = {**{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:32],
            "result": None}
    gid = page.request.post(live_server + "/api/games/import", data=part).json()["id"]
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    heading = page.locator("#sheet .prompt h3, #sheet h3").first
    expect(page.locator("body.table-mode")).to_have_count(1)
    expect(heading).to_be_in_viewport()
    page.set_viewport_size({"width": 844, "height": 390})
    expect(heading).to_be_in_viewport(timeout=3000)
    assert page.evaluate("document.getElementById('entry').scrollTop") > 0
    # turned to portrait (one column): placed as a fresh load places it
    page.set_viewport_size({"width": 768, "height": 1024})
    expect(heading).to_be_in_viewport(timeout=3000)
    context.close()


def test_on_a_wide_screen_the_tabs_stand_under_the_sheet_s_column(browser: Browser, live_server: str):
    """A laptop at 1366 px: the game is 1100 px wide, centred, and the tabs ran on to the window's
    edge, Fix and Undo 140 px past the sheet (a tester). They end with the sheet's column."""
    for width in (1366, 1920):
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                                 "first_player": 0}).json()["id"]
        page.goto(f"{live_server}/games/{gid}")
        tabs, sheet = page.locator("nav.actions").bounding_box(), page.locator("#entry").bounding_box()
        assert tabs and sheet
        assert abs((tabs["x"] + tabs["width"]) - (sheet["x"] + sheet["width"])) <= 2, width
        assert abs(tabs["x"] - sheet["x"]) <= 8, width
        context.close()


def test_the_winning_entry_s_toasts_leave_the_victory_banner_s_buttons_clear(browser: Browser, live_server: str):
    """A phone on its side: the winning entry's toast lay over "New game, same players" and Undo
    for seconds (a tester). While the banner shows, only a notice (a refusal) shows over it."""
    context = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True)
    page = context.new_page()
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    part = {**{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:-1],
            "result": None}
    gid = page.request.post(live_server + "/api/games/import", data=part).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    assert page.request.post(f"{live_server}/api/games/{gid}/events", data=log["events"][-1]).ok
    expect(page.locator("#victory")).to_be_visible(timeout=8000)
    shown = page.evaluate("() => [...document.querySelectorAll('.alerts .alert')]"
                          ".map(a => [a.className, getComputedStyle(a).display])")
    assert ["alert alert-done", "none"] in shown  # (told: the banner says it; not faded yet)
    context.close()


def test_on_its_side_what_stands_above_the_game_keeps_clear_of_the_sheet(browser: Browser, live_server: str):
    """The re-tester: with the sheet fixed in the right column, the whose-phone question and a
    series' score (drawn above the game) ran under it, "Everyone's" hidden. They take the left
    column, as the game does."""
    for width, height in ((844, 390), (1280, 800)):
        context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
        page = context.new_page()
        home = page.request.get(live_server + "/").text()
        token = re.search(r'name="csrf_token" value="([^"]+)"', home)
        assert token
        made = page.request.post(live_server + "/games", max_redirects=0, form={
            "csrf_token": token.group(1), "game": "duel", "player0": "Ana", "player1": "Ben", "first": "0", "best_of": "3"})
        assert made.status == 303
        page.goto(live_server + made.headers["location"].removeprefix(live_server).split("?")[0] + "?whose=ask")
        sheet = page.locator("#entry").bounding_box()
        assert sheet
        for part in ("#whose-phone", ".series-strip", "#phone-shared"):
            box = page.locator(part).bounding_box()
            assert box and box["x"] + box["width"] <= sheet["x"], (width, part, box, sheet)
        expect(page.locator("#phone-shared")).to_be_in_viewport(ratio=1)
        context.close()


def test_on_its_side_the_connection_banner_covers_none_of_the_sheet(browser: Browser, live_server: str):
    """The re-tester: offline, the banner across the top covered the fixed sheet's first line (the
    token chips' letters). The sheet starts below it, as the page does."""
    context = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True)
    page = context.new_page()
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"], "first_player": 0}).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    Table(page)
    page.evaluate("document.getElementById('connection').setAttribute('data-kind', 'poll'); document.getElementById('connection').hidden = false")
    banner = page.locator("#connection").bounding_box()
    sheet = page.locator("#entry").bounding_box()
    assert banner and sheet and sheet["y"] >= banner["y"] + banner["height"], (banner, sheet)
    assert sheet["y"] + sheet["height"] <= 390
    context.close()
