"""A whole Splendor Duel game tapped through the phone screen, from "new game" to the victory banner."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from driver import Table, import_part, late, open_new_game
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).parents[1] / "fixtures"
#: The entries of duel-1012.json made on the other phone (its poll brings them to this one): two
#: stretches of takes, purchases, reserves and privileges, every kind of which is tapped before
#: and after them (the 23rd, a discard; the 45th to 47th, a royal card and a joker; the 65th to the
#: last: purchases from the reserve, steals, a secret reserve, the second royal card, the win).
OTHER_PHONE = (range(24, 37), range(48, 65))


def start_game(page: Page, base: str, names: tuple[str, str], first: int, *, quick: bool = True,
               via_home: bool = False) -> Table:
    """A new Duel between ``names`` on this phone's game screen (``driver.open_new_game``)."""
    open_new_game(page, base, names, first, via_home=via_home)
    return Table(page, quick=quick)


def slow_sheets(page: Page, sheet: str, ms: int) -> None:
    """A slow network for one sheet's taps: each answer comes ``ms`` milliseconds late."""
    page.route(f"**/sheet/{sheet}*", late(page, ms))


#: After an entry: the page at its top, or scrolled no further than the turn line's top (8 px).
TURN_SHOWN = ("() => window.scrollY === 0 || (document.getElementById('turnbar').getBoundingClientRect().top >= 7"
              " && document.getElementById('turnbar').getBoundingClientRect().top < innerHeight / 2)")


def test_a_complete_game_is_tapped_to_the_victory_banner_with_an_undo(page: Page, live_server: str, shots: Path):
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    browser_dialogs: list[str] = []  # the app asks in its own dialogs, never the browser's
    page.on("dialog", lambda dialog: (browser_dialogs.append(dialog.message), dialog.accept()))
    table = start_game(page, live_server, tuple(log["players"]), log["first_player"], quick=True, via_home=True)
    expect(page.locator(".whose-turn")).to_have_text(f"{log['players'][log['first_player']]}'s turn")
    page.screenshot(path=str(shots / "01-new-game.png"))

    scrolled = 0  # entries whose save button was below the screen (tall buy and reserve sheets)
    page.evaluate("addEventListener('scroll', () => { window.lowest = Math.max(window.lowest || 0, scrollY); })")
    gid = page.locator("#game").get_attribute("data-game")
    for n, event in enumerate(log["events"], start=1):
        stretch = next((r for r in OTHER_PHONE if n in r), None)
        if stretch is not None:
            answer = page.request.post(f"{live_server}/api/games/{gid}/events", data=event)
            assert answer.ok, n
            if n == stretch[-1]:  # (the version counts the undo too)
                page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) === v",
                                       arg=answer.json()["version"])
                expect(page.locator("#log summary")).to_contain_text(f"({n})")
            continue
        page.evaluate("window.lowest = 0")
        table.enter(event)
        scrolled += page.evaluate("window.lowest") > 0
        # The new screen shows from its top (both panels), or as far down as the sheet needs but
        # never past whose turn it is, or brings a prompt the rules raised into view; a short
        # toast says what was recorded.
        prompt = page.locator("#sheet .prompt")
        if prompt.count():
            expect(prompt).to_be_in_viewport()
        else:
            page.wait_for_function(TURN_SHOWN)
        expect(page.locator(".alert-done")).to_have_count(1)
        if n == 3:
            # Undo one entry with its confirmation, check the screen went back, then enter it again.
            before = table.version
            page.locator("#undo").click()  # the app's own dialog asks (never the browser's)
            dialog = page.locator("#undo-dialog")
            expect(dialog).to_be_visible()
            expect(dialog).to_contain_text("Undo the last entry: ")
            page.screenshot(path=str(shots / "undo-dialog.png"))
            page.locator("#undo-dialog-no").click()  # "Keep it": nothing undone
            expect(dialog).to_be_hidden()
            gid = page.locator("#game").get_attribute("data-game")
            assert table.version == before and page.request.get(f"{live_server}/api/games/{gid}").json()["version"] == before
            page.locator("#undo").click()
            page.locator("#undo-dialog-yes").click()
            page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) > v", arg=before)
            expect(page.locator(".alert-notice")).to_contain_text("Undone: ")
            expect(page.locator("#log summary")).to_contain_text("(2)")
            table.enter(event)
        if n == 45:
            page.screenshot(path=str(shots / "02-royal-due.png"))
        if n == 66:
            page.screenshot(path=str(shots / "03-mid-game.png"))

    assert scrolled >= 10
    banner = page.locator("#victory")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Player A wins!")
    expect(banner.locator(".routes")).to_have_text("reached 20 prestige")
    page.screenshot(path=str(shots / "04-victory.png"))
    expect(page.locator("#action-take")).to_have_count(0)  # read-only once finished
    # a winning entry made by mistake: the banner's own Undo asks, "Keep it" leaves the win
    page.locator("#victory-undo").click()
    expect(page.locator("#undo-dialog")).to_be_visible()
    expect(page.locator("#undo-dialog")).to_contain_text("This game is over")
    page.locator("#undo-dialog-no").click()
    expect(page.locator("#undo-dialog")).to_be_hidden()
    expect(banner).to_be_visible()
    page.locator("#dismiss-victory").click()
    expect(banner).to_be_hidden()
    expect(page.locator("#log summary")).to_contain_text(f"({len(log['events'])})")
    expect(page.locator(".turnbar")).to_contain_text("Player A won")
    # Closed by mistake: "Show the result" brings the banner (review, next game) back.
    page.locator("#show-result").click()
    expect(banner).to_be_visible()
    expect(banner.locator("#review-game")).to_be_visible()
    state = page.request.get(live_server + "/api/games").json()[0]
    assert state["status"] == "finished" and state["winner"] == {"player": 0, "routes": ["prestige"]}
    assert browser_dialogs == []


def test_a_rule_error_shows_its_message_and_changes_nothing(page: Page, live_server: str, shots: Path):
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    table.open("take")
    for kind in ("red", "red", "red"):
        page.locator(f'.pick-source a[data-kind="{kind}"]').click()
    expect(page.locator("#sheet .preview")).to_contain_text("Ben gains a privilege")
    table._save("take_tokens")
    # Ben tries to buy a card he cannot pay: the preview says so and the entry is refused.
    table.open("buy")
    page.locator('.grid a[data-card="D1-01"]').click()
    expect(page.locator("#sheet .preview-error")).to_be_visible()
    version = table.version
    page.locator('#sheet form[data-type="purchase"] button.save').click(force=True)
    page.wait_for_timeout(300)
    assert table.version == version
    page.screenshot(path=str(shots / "05-refused.png"))
    # A bad correction is refused by the server with its sentence next to the control.
    table.open("correction")
    page.fill('input[name="tokens-red"]', "4")
    page.locator('#sheet form.correction button.save').click()
    expect(page.locator("#entry-error")).to_contain_text("add up to")
    expect(page.locator("#fix-preview .preview")).to_be_hidden()  # the refusal is said once, with its rule
    assert table.version == version
    page.screenshot(path=str(shots / "06-correction-error.png"))
    page.fill('input[name="tokens-red"]', "3")  # typing again: the refusal goes, the live line is back
    expect(page.locator("#entry-error")).to_be_empty()
    expect(page.locator("#fix-preview")).to_contain_text("add up to")
    assert re.search(r"Ana", page.locator("#panel-0").inner_text())
    # One red for Ben: one too many, and the board's last red is offered to make it add up; one
    # tap types it and the line says what saving records.
    page.fill('input[name="tokens-red"]', "1")
    balance = page.locator("#fix-balance [data-fix]")
    expect(balance).to_have_text("board, red: 1 → 0")
    # saved as it is, refused: the one-tap repair stays offered under the refusal (it went with
    # the preview, and a count had to be typed again to bring it back: a tester)
    page.locator('#sheet form.correction button.save').click()
    expect(page.locator("#entry-error")).to_contain_text("add up to")
    expect(page.locator("#fix-preview .preview")).to_be_hidden()
    expect(balance).to_be_visible()
    assert table.version == version
    balance.click()
    expect(page.locator("#entry-error")).to_be_empty()
    expect(page.locator('input[name="board-red"]')).to_have_value("0")
    expect(page.locator("#fix-preview")).to_contain_text("Saving will record: Correction for Ben: tokens: red 0 → 1; board: red 1 → 0")
    page.locator('#sheet form.correction button.save').click()
    expect(page.locator("#panel-1")).to_contain_text("R1")
    assert table.version == version + 1


def test_taps_faster_than_the_network_are_all_counted_in_order(page: Page, live_server: str):
    """On a slow connection a player taps red three times, then the first red again to put it
    back, and blue, without waiting for the sheet: each tap counts, in the order made."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    table.open("take")

    slow_sheets(page, "take", 400)
    for kind in ("red", "red", "red"):
        page.locator(f'.pick-source a[data-kind="{kind}"]').click()
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(3)
    expect(page.locator("#sheet .preview")).to_contain_text("Ana took 3 red")
    expect(page.locator("#sheet .preview")).to_contain_text("Ben gains a privilege")
    page.locator('.pick-chosen a[data-kind="red"]').first.click()
    page.locator('.pick-source a[data-kind="blue"]').click()
    expect(page.locator("#sheet .preview")).to_contain_text("Ana took 1 blue, 2 red", timeout=8000)
    page.unroute("**/sheet/take*")
    table._save("take_tokens")
    state = page.request.get(f"{live_server}/api/games/{page.url.split('?')[0].rsplit('/', 1)[-1]}").json()
    assert state["players"][0]["tokens"]["red"] == 2 and state["players"][0]["tokens"]["blue"] == 1


def test_a_save_tapped_before_the_sheet_arrives_saves_what_was_tapped(page: Page, live_server: str):
    """Slow network: red, then blue and at once the save button: the save waits for the sheet
    the blue tap leads to and records red and blue."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    table.open("take")
    page.locator('.pick-source a[data-kind="red"]').click()
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(1)

    slow_sheets(page, "take", 500)
    page.locator('.pick-source a[data-kind="blue"]').click()
    page.locator('#sheet form[data-type="take_tokens"] button.save').click()
    page.wait_for_function("() => Number(document.querySelector('#game').dataset.version) === 1")
    state = page.request.get(f"{live_server}/api/games/{page.url.split('?')[0].rsplit('/', 1)[-1]}").json()
    assert state["players"][0]["tokens"] == {**state["players"][0]["tokens"], "red": 1, "blue": 1}
    assert sum(state["players"][0]["tokens"].values()) == 2


def test_a_waiting_tap_on_a_control_gone_grey_ends_the_wait(page: Page, live_server: str):
    """Slow network: red, blue, green, white, black tapped at once: three are picked (the limit),
    white lands on a greyed chip and black is dropped with it, not replayed on a later tap."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    table.open("take")

    slow_sheets(page, "take", 300)
    for kind in ("red", "blue", "green", "white", "black"):
        page.locator(f'.pick-source [data-kind="{kind}"]').click()
    expect(page.locator("#sheet .preview")).to_contain_text("Ana took 1 blue, 1 green, 1 red")
    page.wait_for_timeout(1200)
    page.locator('.pick-chosen a[data-kind="green"]').click()
    expect(page.locator("#sheet .preview")).to_contain_text("Ana took 1 blue, 1 red", timeout=5000)
    page.wait_for_timeout(1000)
    expect(page.locator(".pick-chosen .chip-btn.chosen")).to_have_count(2)


def test_a_mouse_press_on_the_save_as_the_sheet_is_redrawn_records_the_entry(page: Page, live_server: str):
    """A CI run's save went down on the sheet just before the last chip's answer redrew it and
    came up on the new sheet's save: the browser made no click (the button it went down on was
    gone) and nothing was recorded. Released on the same control, the press is its click; released
    elsewhere, it is nothing."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    table.open("take")
    slow_sheets(page, "take", 400)
    for kind in ("red", "blue"):
        page.locator(f'.pick-source a[data-kind="{kind}"]').click()
    expect(page.locator("#sheet .preview")).to_contain_text("Ana took 1 blue, 1 red")
    before = table.version
    page.locator('.pick-source a[data-kind="green"]').click()  # its answer is on its way
    box = page.locator('#sheet form[data-type="take_tokens"] button.save').bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    expect(page.locator("#sheet .preview")).to_contain_text("Ana took 1 blue, 1 green, 1 red")
    page.mouse.move(box["x"] + 2, box["y"] + box["height"] / 2)  # still on the (new) save
    page.mouse.up()
    page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) > v", arg=before)
    state = page.request.get(page.url.replace("/games/", "/api/games/")).json()
    assert state["version"] == before + 1 and state["players"][0]["tokens"]["green"] == 1

    table.open("take")
    for kind in ("white", "black"):
        page.locator(f'.pick-source a[data-kind="{kind}"]').click()
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(2)
    page.locator('.pick-source a[data-kind="blue"]').click()
    box = page.locator('#sheet form[data-type="take_tokens"] button.save').bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(3)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] - 200)  # slid off the save
    page.mouse.up()
    page.wait_for_timeout(600)
    assert table.version == before + 1
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(3)  # the sheet waits for the save


def test_quick_filter_taps_are_replayed_in_order(page: Page, live_server: str):
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    table.open("buy")

    slow_sheets(page, "buy", 400)
    page.locator('#sheet .tabs a[data-tab="2"]').click()
    page.locator('#sheet .filters a[data-filter="red"]').click()
    page.locator('#sheet .filters a[data-filter="green"]').click()
    expect(page.locator('#sheet .filters a[data-filter="green"]')).to_have_class(re.compile(r"\bon\b"), timeout=8000)
    expect(page.locator('#sheet .tabs a[data-tab="2"]')).to_have_class(re.compile(r"\bon\b"))
    ids = page.locator("#sheet .grid a[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert ids and all(i.startswith("D2-") for i in ids)


def test_a_save_tapped_on_a_royal_sheet_still_loading_records_that_royal_card(page: Page, live_server: str):
    """Slow network, a royal card due: the player taps "Choose it, then the token" on DR-4, then
    at once "Take this royal card" under DR-3: DR-3 ends up chosen, then recorded (never the
    first card listed)."""
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    part = {**{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:45], "result": None}
    state = page.request.post(live_server + "/api/games/import", data=part).json()
    assert state["pending"]["kind"] == "royal"
    page.goto(f"{live_server}/games/{state['id']}")
    Table(page)
    slow_sheets(page, "royal", 600)
    page.locator('a.royal-card[data-royal="DR-4"]').click()
    page.locator('div.royal-card[data-royal="DR-3"] button.save').click()
    # the save tapped before DR-4's choice came back lands on DR-3's card, which, DR-4 being chosen,
    # only chooses: DR-3 chosen, its own save saying what it records (nothing recorded unseen)
    expect(page.locator('div.royal-card.selected[data-royal="DR-3"] .preview')).to_contain_text("Saving will record", timeout=8000)
    assert page.request.get(f"{live_server}/api/games/{state['id']}").json()["version"] == state["version"]
    page.locator('div.royal-card[data-royal="DR-3"] button.save').click()
    page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) > v", arg=state["version"])
    after = page.request.get(f"{live_server}/api/games/{state['id']}").json()
    seat = state["pending"]["player"]
    assert set(after["players"][seat]["royals"]) - set(state["players"][seat]["royals"]) == {"DR-3"}


def test_back_after_choosing_a_royal_card_that_steals_returns_to_the_royal_cards(page: Page, live_server: str):
    """A royal card due, the player taps "Choose it, then the token" on a card that steals, then
    Back (a tester: it left the game). Back leads to the royal cards again, nothing chosen; the
    card chosen again and saved with its token, one Back leaves the game."""
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    part = {**{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:45], "result": None}
    state = page.request.post(live_server + "/api/games/import", data=part).json()
    assert state["pending"]["kind"] == "royal"
    page.goto(live_server + "/")
    game_url = f"{live_server}/games/{state['id']}"
    page.goto(game_url)
    Table(page)
    page.locator("#royal-choose-DR-4").click()
    expect(page.locator("#steal-question")).to_be_visible()
    assert "royal=DR-4" in page.url
    page.go_back()
    expect(page.locator("#royal-choose-DR-4")).to_be_visible()
    expect(page.locator("#steal-question")).to_have_count(0)
    assert page.url == game_url
    page.locator("#royal-choose-DR-4").click()
    expect(page.locator("#steal-question")).to_be_visible()
    page.locator("#sheet [data-steal]").first.click()
    page.locator('#sheet form:has(input[name="event"][value*="steal"]) button.save').click()
    page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) > v", arg=state["version"])
    seat = state["pending"]["player"]
    assert "DR-4" in page.request.get(f"{live_server}/api/games/{state['id']}").json()["players"][seat]["royals"]
    page.wait_for_function("u => location.href === u && !(history.state && history.state.trackerSheetFrom)", arg=game_url)
    back_home(page, live_server)


def test_back_after_choosing_a_card_on_buy_or_reserve_returns_to_the_cards(page: Page, live_server: str):
    """A card chosen on Buy or Reserve, then Back (a tester: it closed the whole sheet): Back shows
    the cards again, the level and filter kept, on the sheet's step; a second Back closes the sheet.
    "Other card", a tab or a save take the card's step along: one Back closes the sheet or leaves
    the game, never a Back that does nothing."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0, via_home=True)  # Back leads home
    game_url = page.url.split("?")[0]
    chosen = "#sheet [data-back]"

    def choose(sheet: str, level: str | None = None) -> None:
        table.open(sheet)
        if level:
            table._tap(f'.tabs a[data-tab="{level}"]')
        table._tap(".grid a.card[data-card]")
        expect(page.locator(chosen)).to_be_visible()
        page.wait_for_function("() => history.state && history.state.trackerCardStep")

    choose("buy", "2")
    page.go_back()
    expect(page.locator('#sheet [data-sheet="buy"] .grid a.card').first).to_be_visible()
    expect(page.locator(chosen)).to_have_count(0)
    expect(page.locator('#sheet .tabs a[data-tab="2"]')).to_have_attribute("aria-current", "true")
    assert page.url.startswith(game_url + "?sheet=buy&src=2")
    page.go_back()
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    assert page.url == game_url
    # "other card": the cards again, and one Back closes the sheet
    choose("reserve")
    table._tap(chosen)
    expect(page.locator(chosen)).to_have_count(0)
    page.wait_for_function("() => history.state && history.state.trackerSheetFrom && !history.state.trackerCardStep")
    page.go_back()
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    assert page.url == game_url
    # another tab with a card chosen: one Back closes the sheet
    choose("buy")
    table.open("reserve")
    page.wait_for_function("u => location.href === u", arg=game_url + "?sheet=reserve")
    page.go_back()
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    assert page.url == game_url
    # a card reserved: its save takes both steps, one Back leaves the game
    choose("reserve")
    table._save("reserve")
    page.wait_for_function("u => location.href === u && !(history.state && history.state.trackerSheetFrom)", arg=game_url)
    assert len(page.request.get(f"{live_server}/api/games/{game_url.rsplit('/', 1)[1]}").json()["players"][0]["reserved"]) == 1
    back_home(page, live_server)


def test_a_card_s_back_step_survives_the_undo_question_the_other_phone_and_a_slow_answer(page: Page, live_server: str):
    """A helper's breakage of the card's Back step: the Undo question closed with "Keep it" took
    the card's step with its own (Back then closed the sheet); the other phone's entry redrawing
    the sheet left the address at the grid's old version (a reload then lost the sheet); Back
    while the card was still on its way did nothing, and the card came anyway."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0, via_home=True)
    game_url = page.url.split("?")[0]
    gid = game_url.rsplit("/", 1)[1]
    table.enter({"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    page.wait_for_function("() => !(history.state && history.state.trackerSheetFrom)")
    chosen = "#sheet [data-back]"

    def choose(level: str) -> None:
        table.open("buy")
        table._tap(f'.tabs a[data-tab="{level}"]')
        table._tap(".grid a.card[data-card]")
        expect(page.locator(chosen)).to_be_visible()
        page.wait_for_function("() => history.state && history.state.trackerCardStep")

    # the Undo question kept: one Back shows the cards, the next closes the sheet
    choose("2")
    page.locator("#undo").click()
    page.locator("#undo-dialog-no").click()
    expect(page.locator("#undo-dialog")).not_to_be_visible()
    page.wait_for_function("() => history.state && history.state.trackerCardStep")
    expect(page.locator(chosen)).to_be_visible()
    page.go_back()
    expect(page.locator(chosen)).to_have_count(0)
    expect(page.locator('#sheet [data-sheet="buy"] .grid a.card').first).to_be_visible()
    page.go_back()
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    assert page.url == game_url
    # the other phone's entry redraws the sheet as its cards: the address names its version
    choose("3")
    version = table.version
    assert page.request.post(f"{live_server}/api/games/{gid}/events",
                             data={"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}).status == 200
    page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) > v", arg=version)
    page.wait_for_function("() => history.state && history.state.trackerSheetFrom && !history.state.trackerCardStep")
    expect(page.locator(chosen)).to_have_count(0)
    page.wait_for_function("v => location.search.includes('v=' + v) && location.search.includes('src=3')", arg=version + 1)
    page.reload()
    expect(page.locator('#sheet [data-sheet="buy"] .tabs a[data-tab="3"]')).to_have_attribute("aria-current", "true")
    page.go_back()
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    assert page.url == game_url
    # Back while the card is still on its way: the cards stay, and one more Back closes the sheet
    table = Table(page)
    table.open("buy")
    page.route("**/sheet/buy?*card=*", late(page, 1200))
    page.locator(".grid a.card[data-card]").first.click()
    page.wait_for_function("() => history.state && history.state.trackerCardStep")
    page.go_back()
    page.wait_for_timeout(1800)  # the card's answer came meanwhile: not shown
    expect(page.locator(chosen)).to_have_count(0)
    expect(page.locator('#sheet [data-sheet="buy"] .grid a.card').first).to_be_visible()
    page.unroute("**/sheet/buy?*card=*")
    page.go_back()
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    assert page.url == game_url
    back_home(page, live_server)


def test_a_card_s_step_gives_way_to_the_victory_banner_and_keeps_the_filter_and_secret_level(page: Page, live_server: str):
    """A second helper's breakage: the other phone's winning entry under a card chosen here left
    the sheet's and the card's steps under the banner (four Backs to leave, two doing nothing);
    a secret card chosen on Reserve lost the colour filter, and a card among a secret level's
    candidates (Buy, My reserve) came back to the first level's."""
    log = json.loads((FIXTURES / "own-prestige.json").read_text())
    page.goto(live_server + "/")
    gid = import_part(page, live_server, "own-prestige.json", 74)
    page.goto(f"{live_server}/games/{gid}")
    table = Table(page)
    table.open("buy")
    table._tap(".grid a.card[data-card]")
    page.wait_for_function("() => history.state && history.state.trackerCardStep")
    assert page.request.post(f"{live_server}/api/games/{gid}/events", data=log["events"][74]).status == 200
    expect(page.locator("#victory")).to_be_visible(timeout=10_000)
    page.wait_for_function("() => history.state && history.state.trackerOverlay === 'victory'")
    page.go_back()
    expect(page.locator("#victory")).to_be_hidden()
    back_home(page, live_server)

    # a secret card of level 3, the level-2 grid filtered on blue: Back keeps both
    page.goto(live_server + "/")
    table = start_game(page, live_server, ("Ana", "Ben"), 0, via_home=True)
    game_url = page.url.split("?")[0]
    table.open("reserve")
    table._tap('.tabs a[data-tab="2"]')
    table._tap('.filters a[data-filter="blue"]')
    table._tap("#secret-3")
    assert "color=blue" in page.url
    page.go_back()
    expect(page.locator('#sheet .filters a[data-filter="blue"]')).to_have_attribute("aria-current", "true")
    expect(page.locator('#sheet .tabs a[data-tab="2"]')).to_have_attribute("aria-current", "true")
    # two secret cards reserved (levels 1 and 2): a level-2 candidate chosen, Back shows level 2's
    for event in ({"type": "reserve", "player": 0, "level": 1}, {"type": "take_tokens", "player": 1, "tokens": {"red": 1}},
                  {"type": "reserve", "player": 0, "level": 2}, {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}):
        assert page.request.post(f"{game_url.replace('/games/', '/api/games/')}/events", data=event).status == 200
    page.goto(game_url)
    table = Table(page)
    table.open("buy")
    table._tap('.tabs a[data-tab="reserve"]')
    table._tap('a[data-reveal="2"]')
    table._tap('.filters a[data-filter="green"]')
    expect(page.locator('#sheet a[data-reveal="2"].on')).to_have_count(1)
    table._tap(".grid a.card[data-card^='D2']")
    page.go_back()
    expect(page.locator('#sheet a[data-reveal="2"].on')).to_have_count(1)
    expect(page.locator('#sheet .filters a[data-filter="green"]')).to_have_attribute("aria-current", "true")


def test_the_back_button_closes_an_open_sheet_before_it_leaves_the_game(page: Page, live_server: str, shots: Path):
    """A phone's back gesture on an open Buy sheet returns to the game's screen (fresh from the
    server), not to the page before the game; after an entry the address is the game's again."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0, via_home=True)  # Back leads home
    game_url = page.url.split("?")[0]
    table.open("buy")
    assert page.url == game_url + "?sheet=buy"
    page.go_back()
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    assert page.url == game_url
    # tab after tab (the open Take tab tapped first), Back closes the sheet once, then leaves the game
    for sheet in ("take", "buy", "reserve", "privileges", "buy"):
        table.open(sheet)
    assert page.url == game_url + "?sheet=buy"
    page.go_back()
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    assert page.url == game_url
    table.open("reserve")
    table.enter({"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    page.wait_for_function("u => location.href === u", arg=game_url)  # the entry's answer names the game again
    expect(page.locator(".alert-done")).to_contain_text("Ana took 1 red")
    # the sheet's step is gone with it: one Back leaves the game (it reloaded the same screen first)
    page.wait_for_function("() => !(history.state && history.state.trackerSheetFrom)")
    page.go_back()
    page.wait_for_function("u => location.href === u", arg=live_server + "/")
    # a sheet saved after the page was reloaded with it open: one Back too
    page.go_forward()
    expect(page.locator("#game")).to_be_visible()
    table = Table(page)
    table.open("privileges")
    page.reload()
    expect(page.locator('#sheet [data-sheet="privileges"]')).to_be_visible()
    table = Table(page)
    table.enter({"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})
    page.wait_for_function("u => location.href === u", arg=game_url)
    page.wait_for_function("() => !(history.state && history.state.trackerSheetFrom)")
    page.go_back()
    page.wait_for_function("u => location.href === u", arg=live_server + "/")


def reload_off_the_step(page: Page) -> None:
    """Reload the page on the Undo question's or the banner's Back step: the page takes the step
    back once loaded (app.js)."""
    page.reload()
    page.wait_for_function("() => document.readyState === 'complete' && !(history.state && history.state.trackerOverlay)")
    page.wait_for_timeout(300)


def back_home(page: Page, live_server: str) -> None:
    """One Back leaves the game for the home page it was opened from."""
    page.go_back()
    page.wait_for_function("u => location.href === u", arg=live_server + "/")


def test_the_back_button_closes_the_undo_question_before_it_leaves_the_game(page: Page, live_server: str):
    """A tester pressed Back with "Undo the last entry?" open: the phone left the game. Back
    closes the question (nothing undone); closed by its own buttons, no Back step is left over."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0, via_home=True)  # Back leads home
    game_url = page.url.split("?")[0]
    gid = game_url.rsplit("/", 1)[1]
    table.enter({"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    page.wait_for_function("() => !(history.state && history.state.trackerSheetFrom)")
    table.settled()
    version = table.version
    page.locator("#undo").click()
    expect(page.locator("#undo-dialog")).to_be_visible()
    page.go_back()
    expect(page.locator("#undo-dialog")).to_be_hidden()
    assert page.url == game_url and table.version == version
    assert len(page.request.get(f"{live_server}/api/games/{gid}/log").json()["events"]) == 1
    page.locator("#undo").click()  # "Keep it": no step left for Back to use up
    expect(page.locator("#undo-dialog")).to_be_visible()
    page.locator("#undo-dialog-no").click()
    page.wait_for_function("() => !(history.state && history.state.trackerOverlay)")
    page.locator("#undo").click()  # reloaded with the question up: one Back leaves the game
    expect(page.locator("#undo-dialog")).to_be_visible()
    reload_off_the_step(page)
    expect(page.locator("#undo-dialog")).to_be_hidden()
    back_home(page, live_server)
    page.go_forward()
    table = Table(page)
    page.locator("#undo").click()  # "Undo it": undone, and one Back leaves the game
    page.locator("#undo-dialog-yes").click()
    page.wait_for_function("v => +document.getElementById('game').dataset.version > v", arg=version)
    assert page.request.get(f"{live_server}/api/games/{gid}/log").json()["events"] == []
    page.wait_for_function("() => !(history.state && history.state.trackerOverlay)")
    page.go_back()
    page.wait_for_function("u => location.href === u", arg=live_server + "/")


def test_the_back_button_closes_the_victory_banner_before_it_leaves_the_game(page: Page, live_server: str):
    """The winning entry's banner, and the one "Show the result" brings back, close with Back as
    with Close; then Back leaves the game."""
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    gid = import_part(page, live_server, "duel-1012.json", len(log["events"]) - 1)
    page.goto(live_server + "/")
    page.goto(f"{live_server}/games/{gid}")
    table = Table(page)
    table.enter(log["events"][-1])
    expect(page.locator("#victory")).to_be_visible()
    page.wait_for_function("() => history.state && history.state.trackerOverlay === 'victory'")
    page.locator("#victory-undo").click()  # the undo question asked over it, kept: the banner keeps its step
    page.locator("#undo-dialog-no").click()
    expect(page.locator("#undo-dialog")).to_be_hidden()
    expect(page.locator("#victory")).to_be_visible()
    page.go_back()
    expect(page.locator("#victory")).to_be_hidden()
    assert page.url == f"{live_server}/games/{gid}"
    assert page.request.get(f"{live_server}/api/games/{gid}").json()["status"] == "finished"
    page.locator("#show-result").click()
    expect(page.locator("#victory")).to_be_visible()
    page.go_back()
    expect(page.locator("#victory")).to_be_hidden()
    page.locator("#show-result").click()  # closed with Close: no step left over
    page.locator("#dismiss-victory").click()
    expect(page.locator("#victory")).to_be_hidden()
    page.wait_for_function("() => !(history.state && history.state.trackerOverlay)")
    page.go_back()
    page.wait_for_function("u => location.href === u", arg=live_server + "/")
    page.go_forward()  # reloaded with the banner up: it shows again, and one Back leaves the game
    page.locator("#show-result").click()
    page.wait_for_function("() => history.state && history.state.trackerOverlay === 'victory'")
    reload_off_the_step(page)
    expect(page.locator("#victory")).to_be_visible()
    back_home(page, live_server)


def test_back_with_the_undo_question_up_over_the_banner_closes_the_question_then_the_banner(page: Page, live_server: str):
    """The undo question asked over the winner's banner shares the banner's Back step. Back with
    the question up closes the question alone (nothing undone), the next Back the banner, the
    next leaves the game. Back tapped as the question is answered, before its close event comes
    (once in a full run), closes the banner all the same."""
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    gid = import_part(page, live_server, "duel-1012.json", len(log["events"]) - 1)
    page.goto(live_server + "/")
    page.goto(f"{live_server}/games/{gid}")
    Table(page).enter(log["events"][-1])
    page.wait_for_function("() => history.state && history.state.trackerOverlay === 'victory'")
    page.locator("#victory-undo").click()
    expect(page.locator("#undo-dialog")).to_be_visible()
    page.go_back()
    expect(page.locator("#undo-dialog")).to_be_hidden()
    expect(page.locator("#victory")).to_be_visible()
    page.wait_for_function("() => history.state && history.state.trackerOverlay === 'victory'")
    page.go_back()
    expect(page.locator("#victory")).to_be_hidden()
    assert page.request.get(f"{live_server}/api/games/{gid}").json()["status"] == "finished"
    page.locator("#show-result").click()
    page.wait_for_function("() => history.state && history.state.trackerOverlay === 'victory'")
    page.locator("#victory-undo").click()
    expect(page.locator("#undo-dialog")).to_be_visible()
    page.evaluate("() => { document.getElementById('undo-dialog-no').click(); history.back(); }")
    expect(page.locator("#victory")).to_be_hidden()
    page.wait_for_function("() => !(history.state && history.state.trackerOverlay)")
    assert page.request.get(f"{live_server}/api/games/{gid}").json()["status"] == "finished"
    back_home(page, live_server)


def test_the_back_button_puts_the_picked_tokens_down_before_it_leaves_the_game(page: Page, live_server: str):
    """A tester on Android picked two tokens, changed their mind and used the back gesture: it
    left the game, picks and all. The first pick is a step Back takes away (the Take sheet
    empty again, the game's own address); a save, or the last pick put down by hand, leaves
    no step behind: then one Back leaves the game."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0, via_home=True)  # Back leads home
    game_url = page.url.split("?")[0]
    take = page.locator('#sheet [data-sheet="take"]')
    for kind, count in (("red", 1), ("blue", 2)):
        page.locator(f"#add-{kind}").click()
        expect(take.locator(".pick-count")).to_have_text(f"{count}/3")
    assert "t=red&t=blue" in page.url
    page.go_back()
    expect(take.locator(".pick-count")).to_have_text("0/3")
    assert page.url == game_url
    # picks put down one by one: the step goes with the last, and Back leaves the game
    page.locator("#add-green").click()
    expect(take.locator(".pick-count")).to_have_text("1/3")
    page.locator("#remove-1").click()
    expect(take.locator(".pick-count")).to_have_text("0/3")
    page.wait_for_function("u => location.href === u && !(history.state && history.state.trackerSheetFrom)",
                           arg=game_url)
    # picks, then the Buy tab, then Back: the game's plain screen (one step, not two)
    page.locator("#add-white").click()
    expect(take.locator(".pick-count")).to_have_text("1/3")
    table.open("buy")
    assert page.url == game_url + "?sheet=buy"
    page.go_back()
    expect(take.locator(".pick-count")).to_have_text("0/3")
    assert page.url == game_url
    # picks the other phone's entry made void (Ana's take recorded there): the step goes with them
    page.locator("#add-black").click()
    expect(take.locator(".pick-count")).to_have_text("1/3")
    page.request.post(f"{live_server}/api/games/{game_url.rsplit('/', 1)[-1]}/events",
                      data={"type": "take_tokens", "player": 0, "tokens": {"blue": 1}})
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '1'", timeout=8000)
    expect(take.locator(".pick-count")).to_have_text("0/3")
    page.wait_for_function("u => location.href === u && !(history.state && history.state.trackerSheetFrom)",
                           arg=game_url)
    # picks saved: the step goes with them, and one Back leaves the game
    table.enter({"type": "take_tokens", "player": 1, "tokens": {"red": 1, "green": 1}})
    expect(page.locator(".alert-done")).to_contain_text("Ben took")
    page.wait_for_function("u => location.href === u && !(history.state && history.state.trackerSheetFrom)",
                           arg=game_url)
    page.go_back()
    page.wait_for_function("u => location.href === u", arg=live_server + "/")


def test_picks_kept_through_the_other_phone_s_fix_are_still_one_back_step(page: Page, live_server: str):
    """A tester: the other phone's Fix redrew the screen, the picks opened again on it, and that
    reopening was taken for a first pick: a second step, two Backs on the same screen."""
    start_game(page, live_server, ("Ana", "Ben"), 0, via_home=True)  # Back leads home
    game_url = page.url.split("?")[0]
    take = page.locator('#sheet [data-sheet="take"]')
    page.locator("#add-red").click()
    expect(take.locator(".pick-count")).to_have_text("1/3")
    page.request.post(f"{live_server}/api/games/{game_url.rsplit('/', 1)[-1]}/events",
                      data={"type": "correction", "player": 1, "set": {"privileges": 2}})  # (Ben holds 1)
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '1'", timeout=8000)
    expect(take.locator(".pick-count")).to_have_text("1/3")  # a Fix leaves the turn and its picks
    page.wait_for_function("() => location.search.indexOf('t=red') >= 0")
    page.go_back()
    expect(take.locator(".pick-count")).to_have_text("0/3")
    assert page.url == game_url
    page.go_back()
    page.wait_for_function("u => location.href === u", arg=live_server + "/")


def test_the_back_button_puts_the_tokens_picked_to_return_down_and_keeps_the_discard(page: Page, live_server: str):
    """The discard the rules raised (down to 10 tokens) is the game's plain screen: Back with
    tokens picked to return left the game, picks and all. The first pick is a step Back takes
    away (the prompt stays, nothing picked); saved, one Back leaves the game."""
    from tracker.rules import duel

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "table-ben-wins.json").read_text())
    setup = {"players": log["players"], "first_player": log["first_player"]}
    at = next(n for n in range(1, len(log["events"]))
              if (s := duel.replay(setup, log["events"][:n])).pending is not None and s.pending.kind == "discard")
    gid = import_part(page, live_server, "table-ben-wins.json", at)
    page.goto(live_server + "/history")
    page.goto(f"{live_server}/games/{gid}")
    prompt = page.locator('#sheet [data-sheet="discard"]')
    expect(prompt).to_be_visible()
    game_url = page.url
    chip = prompt.locator(".pick-source a.chip-btn").first
    chip.click()
    expect(prompt.locator(".pick-chosen a.chosen")).to_have_count(1)
    assert "sheet=discard" in page.url
    page.go_back()
    expect(prompt.locator(".pick-chosen a.chosen")).to_have_count(0)
    assert page.url == game_url
    # picked again, then saved: no step left behind
    Table(page).enter(log["events"][at])
    page.wait_for_function("u => location.href === u && !(history.state && history.state.trackerSheetFrom)", arg=game_url)
    expect(prompt).to_have_count(0)
    page.go_back()
    page.wait_for_function("u => location.href === u", arg=live_server + "/history")


def test_a_poll_answered_just_after_a_save_never_takes_the_phone_out_of_the_game(page: Page, live_server: str):
    """A tester's phone left the game after a save from a tab's sheet: a poll sent before the
    save, answered just after it (its element gone with the old screen), took the sheet's step
    back a second time. And the other phone's entry redrawing an open sheet keeps its step."""
    page.goto(live_server + "/history")
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    game_url = page.url.split("?")[0]
    table.open("privileges")
    # the poll is sent now (after the save) but answered only once the save is stored and answered
    page.route("**/poll*", late(page, 600))
    page.evaluate("""() => { const p = document.getElementById('poller');
                             p.setAttribute('hx-trigger', 'poll-now'); htmx.process(p); }""")
    table.open("take")
    table.open("buy")
    page.evaluate("() => htmx.trigger(document.getElementById('poller'), 'poll-now')")
    table.enter({"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    page.wait_for_timeout(1500)  # the late poll's answer has come
    assert page.url == game_url
    expect(page.locator("#game")).to_be_visible()
    page.unroute("**/poll*")
    # Ben's phone shows Buy while the other phone records his take (here through the API)
    table.open("buy")
    page.request.post(f"{live_server}/api/games/{game_url.rsplit('/', 1)[-1]}/events",
                      data={"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '2'", timeout=8000)
    expect(page.locator('#sheet [data-sheet="buy"]')).to_be_visible()  # opened again for the new position
    page.go_back()  # closes the sheet, stays in the game
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    assert page.url.split("?")[0] == game_url


def test_display_choices_made_in_a_game_add_no_back_steps(page: Page, live_server: str):
    """A tester made two settings choices in a game: three Backs to leave it, each reloading the
    same screen. A choice takes the page's place in the history."""
    start_game(page, live_server, ("Ana", "Ben"), 0, via_home=True)  # Back leads home
    game_url = page.url
    for choice in ("#table-on", "#table-off"):
        if not page.locator("#settings").evaluate("el => el.open"):  # (the first choice comes back to it open)
            page.locator("#settings summary").click()
        page.locator(choice).click()
        page.wait_for_function("u => location.href === u && document.readyState === 'complete'", arg=game_url)
        expect(page.locator("#game")).to_be_visible()
    assert any(c["name"] == "table" and c["value"] == "off" for c in page.context.cookies())
    page.go_back()
    page.wait_for_function("u => location.href === u", arg=live_server + "/")


def test_a_sheet_closed_by_the_other_phone_s_entry_leaves_no_back_step(page: Page, live_server: str):
    """A tester's third pass: the other phone's entry closed the Privilege · Refill sheet (it is
    not opened again: a privilege pick is spent) but its step stayed, and each time one Back more
    reloaded the same screen. A display choice made with a sheet open keeps that sheet and its step."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0, via_home=True)  # Back leads home
    game_url = page.url
    gid = game_url.rsplit("/", 1)[-1]
    for n, seat in enumerate((0, 1, 0), start=1):
        table.open("privileges")
        page.request.post(f"{live_server}/api/games/{gid}/events",
                          data={"type": "take_tokens", "player": seat, "tokens": {"red": 1}})
        page.wait_for_function("n => document.querySelector('#game').dataset.version === String(n)", arg=n, timeout=8000)
        expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
        page.wait_for_function("u => location.href === u && !(history.state && history.state.trackerSheetFrom)",
                               arg=game_url)
    # a display choice with Buy open: Buy still open after it, Back closes it, one more leaves
    table.open("buy")
    page.locator("#settings summary").click()
    page.locator("#table-on").click()
    expect(page.locator('#sheet [data-sheet="buy"]')).to_be_visible()
    page.go_back()
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    assert page.url == game_url
    page.go_back()
    page.wait_for_function("u => location.href === u", arg=live_server + "/")  # the page the game started from


def test_a_take_can_be_entered_with_the_keyboard_without_losing_the_focus(page: Page, live_server: str, shots: Path):
    """Enter on a token chip redraws the sheet; the focus stays on that chip, so a second Enter
    takes another of the same colour (no tabbing back from the top of the page)."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    page.locator('.pick-source a[data-kind="red"]').focus()
    for n in (1, 2):
        page.keyboard.press("Enter")
        expect(page.locator(".pick-chosen .chip-btn")).to_have_count(n)
        page.wait_for_function("() => document.activeElement && document.activeElement.dataset.kind === 'red'")
    assert page.evaluate("document.activeElement.closest('.pick-source') !== null")
    before = table.version
    page.locator("#sheet form button.save").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) > v", arg=before)
    expect(page.locator(".alert-done")).to_contain_text("Ana took 2 red")


def test_without_javascript_a_finished_game_can_still_be_undone_after_a_confirmation(browser, live_server: str, shots: Path):
    """No JavaScript: the victory banner cannot be closed, so it sits at the top of the screen
    instead of over it; Undo asks first (UX.md: one tap plus a confirmation), then undoes."""
    log = json.loads((FIXTURES / "duel-1069.json").read_text())
    log = {k: v for k, v in log.items() if k not in ("expected", "checkpoints", "source", "id")}
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    state = page.request.post(live_server + "/api/games/import", data=log).json()
    page.goto(f"{live_server}/games/{state['id']}")
    expect(page.locator("#victory")).to_be_visible()
    page.locator("#undo").click()  # not covered by the banner: a click on something else would fail
    expect(page.locator("#undo-confirm")).to_contain_text("This game is over. Undo its last entry and play on?")
    page.screenshot(path=str(shots / "nojs-undo-confirm.png"))
    page.locator("#confirm-undo").click()
    expect(page.locator("#victory")).to_have_count(0)
    assert page.request.get(f"{live_server}/api/games/{state['id']}").json()["status"] == "active"
    context.close()


def test_a_second_card_tapped_while_the_first_loads_is_the_one_chosen(page: Page, live_server: str):
    """Slow network: Ana taps a card to reserve, changes her mind and taps another before the
    first one's sheet arrives: the second card is chosen, and reserved."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    table.open("reserve")
    table._tap('.tabs a[data-tab="1"]')
    cards = page.locator("#sheet .grid a[data-card]")
    first, second = cards.nth(0).get_attribute("data-card"), cards.nth(1).get_attribute("data-card")

    slow_sheets(page, "reserve", 500)
    page.locator(f'#sheet .grid a[data-card="{first}"]').click()
    page.locator(f'#sheet .grid a[data-card="{second}"]').click()
    expect(page.locator(f'#sheet .selected-card [data-card="{second}"]')).to_be_visible(timeout=8000)
    page.wait_for_timeout(800)  # nothing else is on its way: the second card stays chosen
    expect(page.locator(f'#sheet .selected-card [data-card="{second}"]')).to_be_visible()
    page.unroute("**/sheet/reserve*")
    table._save("reserve")
    state = page.request.get(f"{live_server}/api/games/{page.url.split('?')[0].rsplit('/', 1)[-1]}").json()
    assert [r.get("card") for r in state["players"][0]["reserved"]] == [second]


def test_a_card_then_another_on_a_slow_network_leaves_the_sheet_working(page: Page, live_server: str):
    """Slow network: a card Ana cannot pay for (its save is greyed), then another card: the
    second is chosen, and the sheet and the action tabs still answer taps."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    table.open("buy")
    table._tap('.tabs a[data-tab="1"]')
    cards = page.locator("#sheet .grid a[data-card]")
    first, second = cards.nth(0).get_attribute("data-card"), cards.nth(1).get_attribute("data-card")
    slow_sheets(page, "buy", 600)
    page.locator(f'#sheet .grid a[data-card="{first}"]').click()
    page.locator(f'#sheet .grid a[data-card="{second}"]').click()
    expect(page.locator(f'#sheet .selected-card [data-card="{second}"]')).to_be_visible(timeout=8000)
    page.unroute("**/sheet/buy*")
    page.locator("#action-take").click()
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()


def test_a_secret_card_tapped_after_a_card_on_a_slow_network_is_the_one_reserved(page: Page, live_server: str):
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    table.open("reserve")
    table._tap('.tabs a[data-tab="2"]')
    card = page.locator("#sheet .grid a[data-card]").first.get_attribute("data-card")
    slow_sheets(page, "reserve", 500)
    page.locator(f'#sheet .grid a[data-card="{card}"]').click()
    page.locator("#secret-2").click()
    expect(page.locator("#sheet .selected-card .card.secret")).to_be_visible(timeout=8000)
    page.wait_for_timeout(700)
    expect(page.locator("#sheet .selected-card .card.secret")).to_be_visible()
    page.unroute("**/sheet/reserve*")
    table._save("reserve")
    state = page.request.get(f"{live_server}/api/games/{page.url.split('?')[0].rsplit('/', 1)[-1]}").json()
    assert state["players"][0]["reserved"] == [{"level": 2}]


def test_by_keyboard_a_royal_card_that_steals_hands_the_focus_to_the_tokens_and_reads_its_own_preview(
        page: Page, live_server: str):
    """Keyboard: Enter on DR-4 ("choose it, then the token") leaves the focus on the tokens to
    steal (it fell to the page); Enter on a token reads out DR-4's preview (it read DR-1's)."""
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    part = {**{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:45], "result": None}
    state = page.request.post(live_server + "/api/games/import", data=part).json()
    page.goto(f"{live_server}/games/{state['id']}")
    page.locator('a.royal-card[data-royal="DR-4"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('.steal-choices a[data-steal]')")
    # the card chosen reads out the question (it read another royal card's preview)
    expect(page.locator("#announcer")).to_contain_text("Which token does ", timeout=3000)
    assert "prestige" not in page.locator("#announcer").inner_text()
    kind = page.evaluate("() => document.activeElement.dataset.steal")
    page.keyboard.press("Enter")
    expect(page.locator(f'.steal-choices a[data-steal="{kind}"][aria-current="true"]')).to_have_count(1)
    expect(page.locator("#announcer")).to_contain_text("a royal card (2 prestige, steal a token)", timeout=3000)
    assert "3 prestige" not in page.locator("#announcer").inner_text()  # DR-1's
    save = page.locator('#sheet form[data-steal] button.save')
    # its spoken name begins with its words (a voice command says what is written)
    assert save.get_attribute("aria-label").startswith("Take this royal card, stealing ")
    assert save.inner_text() == "Take this royal card"


def test_a_royal_card_that_steals_once_chosen_folds_the_others_and_shows_its_save(page: Page, live_server: str, shots: Path):
    """A tester's thumb hit another royal card's big save: once DR-4 is chosen, the other royal
    cards only choose ("Choose this one instead", then their own save says what it records), and
    the token tapped brings DR-4's own save into view."""
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    part = {**{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:45], "result": None}
    state = page.request.post(live_server + "/api/games/import", data=part).json()
    page.goto(f"{live_server}/games/{state['id']}")
    others = page.locator("div.royal-card[data-royal]")
    count = others.count()
    assert count >= 1
    expect(others.locator("button.save.primary")).to_have_count(count)
    page.locator('a.royal-card[data-royal="DR-4"]').click()
    expect(page.locator(".steal-choices")).to_be_visible()
    # the others only choose now: no save of their own under the thumb (one tap recorded one)
    choosers = page.locator("a.royal-card[data-royal]:not([data-royal='DR-4'])")
    expect(choosers).to_have_count(count)
    expect(page.locator("div.royal-card[data-royal] button.save")).to_have_count(0)
    assert choosers.first.inner_text().endswith("Choose this one instead")
    page.locator(".steal-choices a[data-steal]").first.click()
    save = page.locator("#sheet form[data-steal] button.save")
    expect(save).to_be_in_viewport(ratio=1)
    page.screenshot(path=str(shots / "royal-steal-chosen.png"))
    before = state["version"]
    save.click()
    page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) > v", arg=before)
    after = page.request.get(f"{live_server}/api/games/{state['id']}").json()
    seat = state["pending"]["player"]
    assert set(after["players"][seat]["royals"]) - set(state["players"][seat]["royals"]) == {"DR-4"}


def test_the_review_s_turn_stepper_reads_out_the_turn_it_shows(page: Page, live_server: str):
    """A screen reader heard nothing when stepping through a review: the turn and what happened
    in it are read out (the page's live region)."""
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    part = {**{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:12], "result": None}
    state = page.request.post(live_server + "/api/games/import", data=part).json()
    page.goto(f"{live_server}/games/{state['id']}/review?turn=3")
    page.locator("#step-next").click()
    expect(page.locator("#announcer")).to_contain_text("After turn 4", timeout=3000)
    page.locator("#step-prev").click()
    expect(page.locator("#announcer")).to_contain_text("After turn 3", timeout=3000)


def test_by_keyboard_a_card_chosen_to_buy_hands_the_focus_to_its_save(page: Page, live_server: str):
    """Keyboard: Enter on a card in the Buy grid opened its view with the focus on the level tabs,
    3–4 tabs before its save; the focus now lands on the save."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    game_id = page.url.split("?")[0].rsplit("/", 1)[-1]
    board = page.request.get(f"{live_server}/api/games/{game_id}").json()["board"]
    fix = {"type": "correction", "player": 0, "set": {"tokens": {"blue": 3}, "board": {**board, "blue": board["blue"] - 3}}}
    assert page.request.post(f"{live_server}/api/games/{game_id}/events", data=fix).ok
    page.reload()
    page.keyboard.press("Tab")  # the page answers the keyboard from here on
    table.open("buy")
    page.locator('#sheet .grid a[data-card="D1-04"]').focus()  # blue 3: Ana can pay
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('#sheet form button.save')")


def test_a_reload_in_the_middle_of_an_entry_keeps_the_sheet_as_it_was(page: Page, live_server: str, shots: Path):
    """A phone reloaded (or its tab woken from sleep) with a card chosen, or tokens picked, opens
    that sheet again as it was, and its save records it; after the entry the address is the
    game's again, so a later reload starts the next turn with nothing half-made."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    game_url = page.url.split("?")[0]
    table._tap_chips({"red": 1, "blue": 1})
    page.wait_for_function("() => location.search.includes('t=red')")
    page.reload()
    table = Table(page)
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(2)
    expect(page.locator("#sheet .preview")).to_contain_text("Ana took 1 blue, 1 red")
    table._save("take_tokens")
    page.wait_for_function("u => location.href === u", arg=game_url)

    table.open("reserve")
    table._tap('.tabs a[data-tab="1"]')
    card = page.locator("#sheet .grid a[data-card]").first.get_attribute("data-card")
    table._tap(f'#sheet .grid a[data-card="{card}"]')
    page.wait_for_function("c => location.search.includes('card=' + c)", arg=card)
    page.reload()
    table = Table(page)
    expect(page.locator(f'#sheet .selected-card [data-card="{card}"]')).to_be_visible()
    page.screenshot(path=str(shots / "reload-keeps-sheet.png"))
    table._save("reserve")
    state = page.request.get(f"{live_server}/api/games/{game_url.rsplit('/', 1)[-1]}").json()
    assert [r.get("card") for r in state["players"][1]["reserved"]] == [card]
    page.wait_for_function("u => location.href === u", arg=game_url)


def test_a_reserved_card_in_the_panel_opens_its_purchase(page: Page, live_server: str, shots: Path):
    """A first-time player tapped the reserved card in their own panel (it shows its cost and a
    tick) and nothing happened: it now opens the Buy sheet on that card, in view, ready to save."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    game_id = page.url.split("?")[0].rsplit("/", 1)[-1]
    api = f"{live_server}/api/games/{game_id}/events"
    assert page.request.post(api, data={"type": "reserve", "player": 0, "card": "D1-14"}).ok
    assert page.request.post(api, data={"type": "take_tokens", "player": 1, "tokens": {"red": 1}}).ok
    board = page.request.get(f"{live_server}/api/games/{game_id}").json()["board"]
    fix = {"type": "correction", "player": 0, "set": {"tokens": {"gold": 1, "red": 3}, "board": {**board, "red": board["red"] - 3}}}
    assert page.request.post(api, data=fix).ok
    page.reload()
    table = Table(page)
    chip = page.locator('#panel-0 a.mini-card[data-card="D1-14"]')
    expect(chip).to_contain_text("✓")
    table.settled()
    chip.click()
    expect(page.locator('#sheet .selected-card [data-card="D1-14"]')).to_be_visible()
    expect(page.locator("#sheet .preview")).to_contain_text("Ana bought a level-1 green card (1 crown) from the reserve")
    expect(page.locator("#sheet form button.save")).to_be_in_viewport()
    page.screenshot(path=str(shots / "reserved-chip-opens-buy.png"))
    page.go_back()  # Back closes the sheet it opened, as after a tab (it left the game)
    expect(page.locator('#sheet [data-sheet="take"]')).to_be_visible()
    assert page.url.split("?")[0].endswith(game_id) and "?" not in page.url
    table = Table(page)
    table.settled()
    page.locator('#panel-0 a.mini-card[data-card="D1-14"]').click()
    expect(page.locator('#sheet .selected-card [data-card="D1-14"]')).to_be_visible()
    table._save("purchase")
    state = page.request.get(f"{live_server}/api/games/{game_id}").json()
    assert state["players"][0]["reserved"] == [] and "D1-14" in state["players"][0]["cards"]


def _take_three_and_tap_in_the_moment(page: Page, table: Table, tap: str, clicks: int = 1) -> int:
    """The player to act takes red, blue and green; ``tap`` (JavaScript) runs in the page itself
    as the save's screen settles (a loaded machine let the moment pass before a test's next
    step), with ``window.__moment`` whether the moment after the save was on. The save is tapped
    ``clicks`` times. Returns the version before the save."""
    table.open("take")
    for kind in ("red", "blue", "green"):
        page.locator(f'.pick-source a[data-kind="{kind}"]').click()
    before = table.version
    page.evaluate("""() => { window.__moment = null;
      document.body.addEventListener('htmx:afterSettle', function once(evt) {
        if (!evt.detail.target || evt.detail.target.id !== 'game') { return; }
        document.body.removeEventListener('htmx:afterSettle', once);
        window.__moment = document.body.classList.contains('just-saved');
        %s
      }); }""" % tap)
    page.locator('#sheet form[data-type="take_tokens"] button.save').click(click_count=clicks, delay=40)
    page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) > v", arg=before)
    page.wait_for_function("() => window.__moment !== null")
    assert page.evaluate("() => window.__moment") is True  # (the tap came in the moment)
    return before


def test_a_tap_in_the_moment_after_this_phones_own_save_does_nothing_unsaid(page: Page, live_server: str):
    """A tester's quick triple tap on "Take 3" stored one entry, but its last taps landed on the
    new screen (once a player's page opened); on "Undo it", a chip of the discard prompt below
    was picked. A tap in the moment after this phone's own save redraws the screen does nothing,
    and says nothing (the finger was still on the save); the next tap counts."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    # a tap on a chip as the save's screen settles: the save's own finger (a script's click has no point)
    before = _take_three_and_tap_in_the_moment(
        page, table, "const chip = document.querySelector('.pick-source a[data-kind=\"black\"]'); if (chip) { chip.click(); }",
        clicks=3)
    page.wait_for_timeout(500)
    assert table.version == before + 1 and re.search(r"/games/[A-Za-z0-9_-]+$", page.url)
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(0)  # nothing picked for Ben
    expect(page.locator(".alert-tap-again")).to_have_count(0)  # and nothing said about it
    # the links below the game rose under the finger as the page grew shorter: a tap there waits too
    _take_three_and_tap_in_the_moment(page, table, "document.querySelector('a[href=\"/players\"]').click();")
    page.wait_for_timeout(500)
    assert re.search(r"/games/[A-Za-z0-9_-]+$", page.url), page.url
    page.locator('.pick-source a[data-kind="black"]').click()  # a moment later: the tap counts
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(1)


def test_a_tap_elsewhere_in_the_moment_after_this_phones_own_save_counts(page: Page, live_server: str):
    """Only a tap where the save's was is its finger still there: a tester tapping the next
    player's chips at once after a save (another place on the screen) saw the first ones do
    nothing, unsaid. A tap as the new screen settles, away from the save, picks its chip."""
    table = start_game(page, live_server, ("Ana", "Ben"), 0)
    # a tap with a point (as a finger's), on the black chip
    before = _take_three_and_tap_in_the_moment(page, table, """
        const chip = document.querySelector('.pick-source a[data-kind="black"]');
        const box = chip.getBoundingClientRect();
        chip.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, detail: 1, view: window,
          clientX: box.x + box.width / 2, clientY: box.y + box.height / 2}));""")
    expect(page.locator(".pick-chosen .chip-btn[data-kind='black']")).to_have_count(1)  # Ben's black
    assert table.version == before + 1
    expect(page.locator(".alert-tap-again")).to_have_count(0)
