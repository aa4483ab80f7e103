"""A 3-player classic Splendor game tapped through the phone screen to the final ranking (its long
middle entered on the other players' phones)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from driver import Table
from playwright.sync_api import Page, expect
from tables import stuck_splendor

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).parents[1] / "fixtures"
#: The entries of splendor-133.json made on the other players' phones (three stretches of takes,
#: purchases and a reserve): the 1st, the 13th and 14th, the 23rd to 37th (every kind of entry:
#: takes of 3 and of 2 alike, reserves seen and secret, purchases with gold and from the reserve)
#: and the 78th to the last (a discard, the final round) are tapped on this one.
OTHER_PHONES = (range(2, 13), range(15, 23), range(38, 78))


def test_a_three_player_game_is_tapped_to_the_final_ranking(page: Page, live_server: str, shots: Path):
    log = json.loads((FIXTURES / "splendor-133.json").read_text())
    page.goto(live_server + "/")
    page.locator('input[name="game"][value="splendor"]').check()
    for i, name in enumerate(log["players"]):
        page.fill(f"#player{i}", name)
    page.locator(f'input[name="first"][value="{log["first_player"]}"]').check()
    for noble in log["nobles"]:
        page.locator(f'input[name="noble"][value="{noble}"]').check()
    page.screenshot(path=str(shots / "s01-setup.png"), full_page=True)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#game.splendor")).to_be_visible()
    expect(page.locator(".spanel")).to_have_count(3)
    table = Table(page, quick=True)
    gid = page.locator("#game").get_attribute("data-game")
    final_round_seen = False
    for n, event in enumerate(log["events"], start=1):
        stretch = next((r for r in OTHER_PHONES if n in r), None)
        if stretch is not None:
            # Stretches of the game (takes and purchases, all tapped before and after them) are
            # entered on the other players' phones; this phone's poll brings them to the screen.
            assert page.request.post(f"{live_server}/api/games/{gid}/events", data=event).ok, n
            if n == stretch[-1]:
                page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) === v", arg=n)
                expect(page.locator("#log summary")).to_contain_text(f"({n})")
            continue
        table.enter(event)
        if not final_round_seen and page.locator("#final-round").count():
            final_round_seen = True
            expect(page.locator("#final-round")).to_contain_text("still to play")
            page.screenshot(path=str(shots / "s02-final-round.png"))
    assert final_round_seen
    banner = page.locator("#victory")
    expect(banner).to_be_visible()
    winner = log["players"][log["result"]["winner"]["players"][0]]
    expect(banner.locator("h2")).to_have_text(f"{winner} wins!")
    expect(banner.locator("#ranking li").first).to_contain_text(winner)
    expect(banner.locator("#ranking li")).to_have_count(3)
    page.screenshot(path=str(shots / "s03-ranking.png"))


def test_the_pass_button_shows_above_the_action_tabs_when_the_take_sheet_opens(page: Page, live_server: str, shots: Path):
    """A stuck player (no gem in the supply, 3 cards reserved) taps Take: the sheet's Pass button
    is scrolled into view above the tabs that stay at the bottom of the screen, not under them."""
    api = page.request

    def post(gid: str, event: dict) -> None:
        assert api.post(f"{live_server}/api/games/{gid}/events", data=event).ok, event

    gid = stuck_splendor(lambda setup: api.post(live_server + "/api/games", data=setup).json()["id"], post,
                         lambda gid: api.get(f"{live_server}/api/games/{gid}").json())
    page.goto(f"{live_server}/games/{gid}")
    page.click("#action-take")
    # (the Take sheet was already shown: its tab asks for it again; a slow answer swapped the tabs
    # away under the measure below, once)
    page.wait_for_function("() => !document.querySelector('nav.actions .htmx-request')")
    button = page.locator('form[data-type="pass"] button')
    expect(button).to_be_visible()
    page.wait_for_timeout(300)  # the scroll follows the swap's settling
    tabs = page.locator("nav.actions").bounding_box()
    box = button.bounding_box()
    assert tabs and box and box["y"] + box["height"] <= tabs["y"], (box, tabs)
    page.screenshot(path=str(shots / "s04-pass-above-tabs.png"))
    button.click()
    expect(page.locator("#game")).to_contain_text("Ben's turn")


@pytest.mark.parametrize("players,height", [(3, 640), (4, 640), (3, 740), (4, 740), (4, 844)])
def test_a_short_phone_at_a_table_of_four_shows_the_take_chips_in_its_first_screen(browser, live_server: str,
                                                                                  shots: Path, players: int, height: int):
    """A 360-px phone, 3 or 4 players: the take chips of the player to play were below the fold
    (under the action tabs), at 640 px and (a tester) at 740. The other players' panels give up
    their token chips and nearest noble there (their header keeps the token total); the player
    to play keeps everything, and a tall phone keeps every panel whole."""
    names = ["Ana", "Ben", "Cy", "Dee"][:players]
    context = browser.new_context(viewport={"width": 360, "height": height}, has_touch=True)
    page = context.new_page()
    setup = {"game": "splendor", "players": names, "first_player": 1, "nobles": ["N-01", "N-02", "N-03", "N-04", "N-05"][:players + 1]}
    resp = page.request.post(live_server + "/api/games", data=setup)
    assert resp.status == 201, resp.text()
    gid = resp.json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    tabs = page.locator("nav.actions").bounding_box()
    chips = page.locator('#sheet .pick-source [data-kind="red"]')
    box = chips.bounding_box()
    assert tabs and box and box["y"] + box["height"] <= tabs["y"], (box, tabs)
    current = page.locator("#panel-1")
    expect(current.locator(".tokens")).to_be_visible()
    expect(current.locator(".near-nobles .noble").first).to_be_visible()
    for seat in set(range(players)) - {1}:
        panel = page.locator(f"#panel-{seat}")
        expect(panel.locator(".tokens")).to_be_hidden()
        expect(panel.locator(".near-nobles .noble").first).to_be_hidden()
        expect(panel.locator('[data-field="token-total"]')).to_have_text("0")
        expect(panel.locator(".bonuses")).to_be_visible()
    page.screenshot(path=str(shots / f"s05-short-phone-{players}-players-{height}.png"))
    page.set_viewport_size({"width": 412, "height": 915})
    for seat in range(players):
        expect(page.locator(f"#panel-{seat} .tokens")).to_be_visible()
    box = chips.bounding_box()
    tabs = page.locator("nav.actions").bounding_box()
    assert tabs and box and box["y"] + box["height"] <= tabs["y"], (box, tabs)
    context.close()


def test_a_phone_of_its_own_keeps_its_players_panel_whole_at_a_table_of_four(browser, live_server: str):
    """One phone each at four: the compact panels hid this phone's own player's token chips
    while the others played (a tester); the others' panels stay compact."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    setup = {"game": "splendor", "players": ["Ana", "Ben", "Cy", "Dee"], "first_player": 0,
             "nobles": ["N-01", "N-02", "N-03", "N-04", "N-05"]}
    gid = page.request.post(live_server + "/api/games", data=setup).json()["id"]
    page.goto(f"{live_server}/settings?mine=Dee&next=/games/{gid}&game={gid}")
    expect(page.locator("body")).to_have_class(re.compile(r"\bmine-3\b"))
    expect(page.locator("#panel-3 .tokens")).to_be_visible()
    expect(page.locator("#panel-3 .near-nobles .noble").first).to_be_visible()
    for seat in (1, 2):
        expect(page.locator(f"#panel-{seat} .tokens")).to_be_hidden()
    context.close()


def test_another_player_s_folded_tokens_open_with_a_tap_and_stay_open_across_entries(browser, live_server: str):
    """A tester at four on a 390×844 phone could not read the other players' gems at all (folded
    to their total). The total's ▾, or a tap on the panel, opens them; they stay open as the
    turns go on (the screen redrawn), and close with another tap."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    setup = {"game": "splendor", "players": ["Ana", "Ben", "Cy", "Dee"], "first_player": 0,
             "nobles": ["N-01", "N-02", "N-03", "N-04", "N-05"]}
    gid = page.request.post(live_server + "/api/games", data=setup).json()["id"]
    api = f"{live_server}/api/games/{gid}/events"
    assert page.request.post(api, data={"type": "take_tokens", "player": 0, "tokens": {"red": 1, "blue": 1, "green": 1}}).ok
    page.goto(f"{live_server}/games/{gid}")
    ana = page.locator("#panel-0")
    toggle = ana.locator("[data-show-tokens]")
    expect(ana.locator(".tokens")).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#panel-1 [data-show-tokens]")).to_be_hidden()  # (Ben's turn: his panel is whole)
    toggle.tap()
    expect(ana.locator(".tokens")).to_be_visible()
    expect(ana.locator('.tokens [aria-label="red 1"]')).to_have_count(1)
    expect(toggle).to_have_attribute("aria-expanded", "true")
    # Ben's entry on another phone: the screen is redrawn, Ana's tokens stay open
    assert page.request.post(api, data={"type": "take_tokens", "player": 1, "tokens": {"white": 1, "black": 1, "blue": 1}}).ok
    expect(page.locator("#panel-2")).to_have_class(re.compile(r"\bis-current\b"), timeout=4000)
    expect(ana.locator(".tokens")).to_be_visible()
    expect(page.locator("#panel-1 .tokens")).to_be_hidden()
    page.locator("#panel-1 .bonuses").tap()  # anywhere on the panel
    expect(page.locator("#panel-1 .tokens")).to_be_visible()
    ana.locator(".player-name").tap()
    expect(ana.locator(".tokens")).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    context.close()


def test_the_nobles_ticked_are_counted_against_the_players_named_as_they_are_tapped(page: Page, live_server: str):
    """A tester ticked six nobles for four players and heard of it only on "Start the game"; another
    ticked five for three, told in red, every box still taking a tick."""
    page.goto(live_server + "/")
    page.locator("#game-splendor").check()
    count = page.locator("#noble-count")
    expect(count).to_have_text("0 chosen: 3, 4 or 5 by the players named above")
    for i, name in enumerate(["Ana", "Ben", "Cy", "Dee"]):
        page.fill(f"#player{i}", name)
    expect(count).to_have_text("0 of 5 chosen")
    nobles = page.locator("input[name=noble]")
    for k in range(5):
        nobles.nth(k).check()
    expect(count).to_have_text("5 of 5 chosen")
    # enough: the others take no tick until one is unticked (a tester ticked five for three)
    expect(nobles.nth(5)).to_be_disabled()
    nobles.nth(5).tap(force=True)
    expect(nobles.nth(5)).not_to_be_checked()
    nobles.nth(4).uncheck()
    expect(nobles.nth(5)).to_be_enabled()
    nobles.nth(4).check()
    # a name taken away calls for one fewer: the count says five are too many, as it did
    page.fill("#player3", "")
    expect(count).to_have_text("5 of 4 chosen")
    expect(count).to_have_class(re.compile(r"\bover\b"))
    page.fill("#player3", "Dee")
    expect(count).to_have_text("5 of 5 chosen")
    expect(count).not_to_have_class(re.compile(r"\bover\b"))
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".spanel")).to_have_count(4)


def test_nobles_laid_out_before_the_names_are_typed_can_be_ticked_for_four_players(page: Page, live_server: str):
    """A tester's table laid its nobles out first: with no names typed only three could be ticked
    (two players assumed), the rest greyed out unexplained. Until two names are typed, up to five."""
    page.goto(live_server + "/")
    page.locator("#game-splendor").check()
    count = page.locator("#noble-count")
    nobles = page.locator("input[name=noble]")
    for k in range(5):
        nobles.nth(k).check()
    expect(count).to_have_text("5 chosen: 3, 4 or 5 by the players named above")
    expect(nobles.nth(5)).to_be_disabled()
    for i, name in enumerate(["Ana", "Ben", "Cy"]):
        page.fill(f"#player{i}", name)
    expect(count).to_have_text("5 of 4 chosen")
    expect(count).to_have_class(re.compile(r"\bover\b"))
    page.fill("#player3", "Dee")
    expect(count).to_have_text("5 of 5 chosen")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".spanel")).to_have_count(4)
