"""Table mode (UX.md): the phone lies still between the players, so each panel keeps its side
whatever the turn: seat 1 across the table, on top and upside down; "turned" swaps the sides.
On the turn of the player across the table, the turn line, the sheet and the tabs face them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from driver import Table, duel_via_api, settled
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def sides(page: Page) -> dict[int, tuple[float, bool]]:
    """Each seat's panel: its top on the screen and whether it is drawn upside down, once the
    page has loaded (a box read while the page after a tap was still being laid out put both
    panels below the turn line: CI, 2026-12-07)."""
    page.wait_for_load_state("load")
    out = {}
    for seat in (0, 1):
        panel = page.locator(f"#panel-{seat}")
        box = panel.bounding_box()
        assert box
        turned = panel.evaluate("el => getComputedStyle(el).transform") not in ("none", "")
        out[seat] = (box["y"], turned)
    return out


ENTRY_PARTS = ("#turnbar", ".table-line", "#sheet > .sheet-body", "nav.actions")


def raise_prompt(page: Page, live_server: str, kind: str, seat: int | None = None) -> str:
    """A tester's game (``table-ben-wins.json``, Ben across) opened in table mode just before
    the entry that first makes a ``kind`` prompt due (``seat``'s, if given); that entry is then
    recorded elsewhere (the API), for this screen's poll to raise the prompt. The game's id."""
    from driver import import_part

    from tracker.rules import duel

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "table-ben-wins.json").read_text())
    setup = {"players": log["players"], "first_player": log["first_player"]}
    at = next(n for n in range(1, len(log["events"]))
              if (s := duel.replay(setup, log["events"][:n])).pending is not None and s.pending.kind == kind
              and seat in (None, s.current_player))
    gid = import_part(page, live_server, "table-ben-wins.json", at - 1)
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    assert page.request.post(f"{live_server}/api/games/{gid}/events", data=log["events"][at - 1]).ok
    return gid


def facing_across(page: Page) -> dict[str, bool]:
    """Whether the turn line, the board line, the open sheet and the action tabs are drawn upside down."""
    return {part: page.locator(part).evaluate("el => getComputedStyle(el).transform") not in ("none", "")
            for part in ENTRY_PARTS}


def entry(page: Page, gid: str, live_server: str, event: dict) -> None:
    assert page.request.post(f"{live_server}/api/games/{gid}/events", data=event).ok
    page.goto(f"{live_server}/games/{gid}")


@pytest.mark.parametrize("game", ["duel", "splendor"])
def test_each_panel_keeps_its_side_of_the_table_whatever_the_turn(page: Page, live_server: str, shots: Path, game: str):
    setup = {"game": game, "players": ["Ana", "Ben"], "first_player": 0}
    if game == "splendor":
        setup["nobles"] = ["N-01", "N-02", "N-03"]
    gid = page.request.post(live_server + "/api/games", data=setup).json()["id"]
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    expect(page.locator("body.table-mode")).to_have_count(1)
    for turn in range(3):  # Ana's turn, Ben's turn, Ana's again: the sides never move
        seats = sides(page)
        assert seats[1][0] < seats[0][0] and seats[1][1] and not seats[0][1], (turn, seats)
        # what the player to act reads and taps faces them: Ben's across the table
        assert facing_across(page) == {part: turn == 1 for part in ENTRY_PARTS}, turn
        if turn == 1:
            page.screenshot(path=str(shots / f"table-mode-{game}.png"))
        seat = turn % 2
        entry(page, gid, live_server, {"type": "take_tokens", "player": seat,
                                       "tokens": {"red": 1} if game == "duel" else {"red": 1, "blue": 1, "green": 1}})
    page.goto(f"{live_server}/settings?table=turned&next=/games/{gid}")
    seats = sides(page)
    assert seats[0][0] < seats[1][0] and seats[0][1] and not seats[1][1], seats
    # Ben (seat 1) to act sits at the bottom now: nothing of the entry is turned
    assert facing_across(page) == {part: False for part in ENTRY_PARTS}
    page.goto(f"{live_server}/settings?table=off&next=/games/{gid}")
    seats = sides(page)
    assert not seats[0][1] and not seats[1][1]
    assert facing_across(page) == {part: False for part in ENTRY_PARTS}
    seat_to_act = 1  # three entries made: Ben (seat 1) is to act, and off table mode sits at the bottom
    assert seats[seat_to_act][0] > seats[1 - seat_to_act][0] or game == "splendor"


def turned(page: Page, selector: str) -> bool:
    return page.locator(selector).first.evaluate("el => getComputedStyle(el).transform") not in ("none", "")


def test_the_undo_question_toasts_victory_and_long_sheets_face_the_player_they_concern(page: Page, live_server: str,
                                                                                     shots: Path):
    """Table mode, Ben across the table: after Ben's entry its toast faces Ben (Ana's next turn
    faces Ana), its undo's question is asked to both sides and answered from his; Ben's long Buy sheet opens at its start on his side (its
    heading above the tabs); the banner of Ben's win faces Ben."""
    import json

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "duel-1069.json").read_text())
    ben = 1 - log["first_player"]  # the second to play sits across the table
    names = ["Ana", "Ben"] if ben == 1 else ["Ben", "Ana"]
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": names,
                                                             "first_player": log["first_player"]}).json()["id"]
    table = "on" if ben == 1 else "turned"
    page.goto(f"{live_server}/settings?table={table}&next=/games/{gid}")
    # Ana (near) takes on the screen: her toast faces her; Ben's turn now faces him
    Table(page).enter({"type": "take_tokens", "player": 1 - ben, "tokens": {"red": 1}})
    expect(page.locator(".alert-done")).to_be_visible()
    assert not turned(page, ".alert-done") and turned(page, "#turnbar")
    # Ben opens Buy (long: every level-1 card): it opens at its start on his side
    page.locator("#action-buy").click()
    expect(page.locator('#sheet [data-sheet="buy"]')).to_be_visible()
    assert turned(page, "#sheet > .sheet-body")
    page.wait_for_timeout(200)
    body = page.locator("#sheet > .sheet-body").bounding_box()
    bar = page.locator("nav.actions").bounding_box()
    assert body and bar and abs(body["y"] + body["height"] - (bar["y"] - 8)) <= 2, (body, bar)
    page.screenshot(path=str(shots / "table-mode-far-buy.png"))
    # Ben takes: his toast faces him; the undo's question is asked to both (either may have tapped)
    page.locator("#action-take").click()
    page.locator('.pick-source a[data-kind="blue"]').click()
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(1)
    page.locator('#sheet form[data-type="take_tokens"] button.save').click()
    expect(page.locator(".alert-done")).to_contain_text("Ben took")
    assert turned(page, ".alert-done") and not turned(page, "#turnbar")
    settled(page)  # (a tap in the moment after this phone's own save is taken as the save's own, and dropped)
    page.locator("#undo").click()
    expect(page.locator("#undo-dialog")).to_be_visible()
    assert not turned(page, "#undo-dialog")
    across, near = page.locator("#undo-dialog .undo-across"), page.locator("#undo-dialog .undo-face:not(.undo-across)")
    expect(across).to_be_visible()
    expect(across).to_contain_text("Undo the last entry: Ben took 1 blue")
    expect(near).to_contain_text("Undo the last entry: Ben took 1 blue")
    assert turned(page, "#undo-dialog .undo-across") and not turned(page, "#undo-dialog .undo-face:not(.undo-across)")
    a, n = across.bounding_box(), near.bounding_box()
    assert a and n and a["y"] + a["height"] <= n["y"] + 1  # the across copy on their side of the screen
    # a screen reader and the Tab key meet the question and its buttons once (an accessibility tester)
    tree = page.locator("#undo-dialog").aria_snapshot()
    assert tree.count('button "Undo it"') == 1 and tree.count('button "Keep it"') == 1 and tree.count("paragraph") == 1, tree
    assert page.locator("#undo-dialog-yes-across").get_attribute("tabindex") == "-1"
    page.screenshot(path=str(shots / "table-mode-far-undo.png"))
    page.locator("#undo-dialog-no-across").click()  # Ben keeps it, from his side
    expect(page.locator("#undo-dialog")).to_be_hidden()
    expect(page.locator(".log")).to_contain_text("Ben took 1 blue")
    page.locator("#undo").click()
    page.locator("#undo-dialog-yes-across").click()  # and undoes it, from his side
    expect(page.locator(".log")).not_to_contain_text("Ben took 1 blue")
    assert turned(page, "#turnbar")  # Ben's turn again
    # a finished game won by Ben: the banner faces Ben
    winner = log["result"]["winner"]["player"]
    won = page.request.post(live_server + "/api/games/import", data={
        **{k: log[k] for k in ("format", "game", "first_player", "events", "result")},
        "players": ["Ana", "Ben"] if winner == 1 else ["Ben", "Ana"]}).json()["id"]
    page.goto(f"{live_server}/settings?table={'on' if winner == 1 else 'turned'}&next=/games/{won}")
    expect(page.locator("#victory")).to_be_visible()
    expect(page.locator("#victory-title")).to_have_text("Ben wins!")
    assert turned(page, ".victory-card")
    # and said in a line turned back to Ana, across the banner from Ben
    across = page.locator(".victory-across")
    expect(across).to_be_visible()
    expect(across).to_contain_text("Ben wins!")
    assert turned(page, ".victory-across")
    page.screenshot(path=str(shots / "table-mode-victory.png"))
    page.goto(f"{live_server}/settings?table={'turned' if winner == 1 else 'on'}&next=/games/{won}")
    assert not turned(page, ".victory-card")


def test_on_a_tablet_the_sheet_of_the_player_across_opens_at_its_start_and_leaves_their_panel_in_view(
        browser, live_server: str, shots: Path):
    """A café's tablet flat between the players, table mode, Ben across: on its side (the sheet
    in its own column) his Buy sheet opened at the grid's last cards, its level tabs cut off and
    the page scrolled; upright, after he picked a card the page stayed scrolled down, his own
    panel off the top of the screen."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    page = context.new_page()
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                             "first_player": 1}).json()["id"]
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    page.locator("#action-buy").click()
    expect(page.locator('#sheet [data-sheet="buy"]')).to_be_visible()
    assert turned(page, "#sheet > .sheet-body")
    page.wait_for_timeout(200)
    column = page.locator("#entry").bounding_box()
    tabs = page.locator("#sheet .sheet-body .tabs").first.bounding_box()  # Level 1, 2, 3, my reserve
    assert column and tabs and column["y"] <= tabs["y"] and tabs["y"] + tabs["height"] <= column["y"] + column["height"], (column, tabs)
    assert page.evaluate("window.scrollY") == 0  # the table beside it stays where it was
    page.screenshot(path=str(shots / "table-mode-tablet-across-buy.png"))
    # the other phone's entry (a fix of Ana's privileges) redraws the screen and opens the sheet
    # again: at its start again (it came back at the grid's end)
    assert page.request.post(f"{live_server}/api/games/{gid}/events", data={
        "type": "correction", "player": 0, "set": {"privileges": 0}}).ok
    page.wait_for_function("() => document.querySelector('#game').dataset.version === '1'", timeout=5000)
    expect(page.locator('#sheet [data-sheet="buy"]')).to_be_visible()
    page.wait_for_timeout(300)
    column = page.locator("#entry").bounding_box()
    tabs = page.locator("#sheet .sheet-body .tabs").first.bounding_box()
    assert column and tabs and column["y"] <= tabs["y"] and tabs["y"] + tabs["height"] <= column["y"] + column["height"], (column, tabs)
    # the same tablet upright: the grid is long, then a card picked leaves a short sheet
    page.set_viewport_size({"width": 768, "height": 1024})
    page.goto(f"{live_server}/games/{gid}")
    page.locator("#action-buy").click()
    expect(page.locator('#sheet [data-sheet="buy"]')).to_be_visible()
    page.wait_for_timeout(200)
    assert page.evaluate("window.scrollY") > 0  # the long grid's start, Ben's top, above the tabs
    page.locator("#sheet .grid a.card").first.click()
    expect(page.locator("#sheet .selected-card")).to_be_visible()
    page.wait_for_timeout(200)
    assert page.evaluate("window.scrollY") == 0
    panel = page.locator("#panel-1").bounding_box()
    assert panel and panel["y"] >= 0, panel  # Ben's own panel, at the top, whole
    context.close()


def test_a_discard_prompt_faces_its_player_with_its_fix_and_undo(page: Page, live_server: str, shots: Path):
    """Table mode: the discard owed by the player across the table faces them, with the "Counts
    on the screen wrong? Fix" line and the Undo under it (the Fix line stayed facing the near
    player); turned, all of it faces the near side."""
    import json

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "duel-1012.json").read_text())
    gid = page.request.post(live_server + "/api/games/import", data={
        **{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:22]}).json()["id"]
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    expect(page.locator('#sheet [data-sheet="discard"]')).to_be_visible()
    parts = ("#sheet > .sheet-body", "#sheet > .prompt-fix", "#entry > .undo-form")
    assert [turned(page, part) for part in parts] == [True, True, True]
    page.screenshot(path=str(shots / "table-mode-far-discard.png"))
    page.goto(f"{live_server}/settings?table=turned&next=/games/{gid}")
    expect(page.locator('#sheet [data-sheet="discard"]')).to_be_visible()
    assert [turned(page, part) for part in parts] == [False, False, False]


def test_one_phone_each_keeps_its_own_players_panel_at_the_bottom(page: Page, live_server: str, shots: Path):
    """A Korean two-phone table: the panel of the player to act sat at the bottom, so each phone's
    own panel jumped up and down every turn. "At the bottom: Ben" keeps Ben's panel there,
    upright, whoever is to act; the turn line stays between the two panels."""
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                             "first_player": 0}).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    page.locator("#settings summary").click()
    expect(page.locator("#mine-auto")).to_have_attribute("aria-current", "true")
    expect(page.locator("#mine-1")).to_have_text("Ben")
    page.locator("#mine-1").click()
    expect(page.locator("body.mine-1")).to_have_count(1)
    for turn in range(3):  # Ana's turn, Ben's, Ana's: Ben's panel never leaves the bottom
        seats = sides(page)
        line = page.locator("#turnbar").bounding_box()
        assert seats[0][0] < line["y"] < seats[1][0] and not seats[0][1] and not seats[1][1], (turn, seats)
        expect(page.locator(f"#panel-{turn % 2}.is-current")).to_have_count(1)  # whose turn: the panel says
        if turn == 1:
            page.screenshot(path=str(shots / "mine-ben-on-bens-turn.png"))
        entry(page, gid, live_server, {"type": "take_tokens", "player": turn % 2, "tokens": {"red": 1}})
    page.goto(f"{live_server}/settings?mine=&next=/games/{gid}")
    seats = sides(page)
    assert seats[1][0] > seats[0][0]  # Ben to act: at the bottom as before
    entry(page, gid, live_server, {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})
    seats = sides(page)
    assert seats[0][0] > seats[1][0]  # Ana to act: hers at the bottom again
    # the choice is a person: Ben's next game, typed "ben · Ana", keeps Ben (seat 0 now) at the bottom
    page.goto(f"{live_server}/settings?mine=Ben&next=/games/{gid}")
    other = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ben", "Cleo"],
                                                               "first_player": 1}).json()["id"]
    page.goto(f"{live_server}/games/{other}")
    expect(page.locator("body.mine-0")).to_have_count(1)
    seats = sides(page)
    assert seats[0][0] > seats[1][0]  # Cleo to act, Ben at the bottom
    page.locator("#settings summary").click()
    expect(page.locator("#mine-0")).to_have_attribute("aria-current", "true")
    # table mode and "At the bottom" exclude each other: one phone between the players, or one each
    page.goto(f"{live_server}/settings?table=on&next=/games/{other}")
    expect(page.locator("body.table-mode")).to_have_count(1)
    expect(page.locator("body.mine-0")).to_have_count(0)
    page.goto(f"{live_server}/settings?mine=Cleo&next=/games/{other}")
    expect(page.locator("body.mine-1")).to_have_count(1)
    expect(page.locator("body.table-mode")).to_have_count(0)


def test_table_mode_chosen_in_settings_comes_back_to_settings_with_the_choice_marked(page: Page, live_server: str,
                                                                                    shots: Path):
    """A first-time player chose table mode and the page came back at its top, Settings closed:
    nothing said it had worked. It comes back to Settings, open, the choice (naming who sits
    across) marked and in view; the game behind it turned."""
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                            "first_player": 0}).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    page.locator("#settings summary").click()
    expect(page.locator("#table-on")).to_have_text("on: Ben across")
    page.locator("#table-on").click()
    expect(page.locator("body.table-mode")).to_have_count(1)
    expect(page.locator("#table-on")).to_have_attribute("aria-current", "true")
    expect(page.locator("#table-on")).to_be_in_viewport()
    assert page.locator("#settings").evaluate("el => el.open")
    page.screenshot(path=str(shots / "table-mode-chosen.png"))
    # a reload later is the game as usual, Settings closed
    page.reload()
    expect(page.locator("body.table-mode")).to_have_count(1)
    assert not page.locator("#settings").evaluate("el => el.open")


def test_the_turn_line_s_table_button_turns_table_mode_on_and_off(page: Page, live_server: str, shots: Path):
    """One tap on the turn line: Ben's panel turns to face him; another gives the screen back."""
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                            "first_player": 0}).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    expect(page.locator("#table-btn")).to_be_in_viewport()
    page.locator("#table-btn").click()
    expect(page.locator("body.table-mode")).to_have_count(1)
    seats = sides(page)
    assert seats[1][1] and not seats[0][1] and seats[1][0] < seats[0][0]
    expect(page.locator("#table-btn")).to_have_accessible_name("Table mode: on, Ben’s side turned across")
    page.screenshot(path=str(shots / "table-mode-button.png"))
    page.locator("#table-btn").click()
    expect(page.locator("body.table-mode")).to_have_count(0)
    expect(page.locator("#table-btn")).to_have_accessible_name("Table mode: off (a tap turns Ben’s side across)")
    assert page.url.endswith(f"/games/{gid}")
    # the game log open stays open across the page the button reloads (a tester read it)
    page.locator("#log summary").click()
    page.locator("#table-btn").click()
    expect(page.locator("body.table-mode")).to_have_count(1)
    expect(page.locator("#log")).to_have_js_property("open", True)  # waits for the reloaded page
    page.locator("#table-btn").click()
    expect(page.locator("body.table-mode")).to_have_count(0)
    expect(page.locator("#log")).to_have_js_property("open", True)  # waits for the reloaded page
    # a poll's screen (another phone's entry) keeps what it says: the page's, this phone's
    assert page.request.post(f"{live_server}/api/games/{gid}/events",
                             data={"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).ok
    expect(page.locator("#game")).to_have_attribute("data-version", "1", timeout=8000)
    expect(page.locator("#table-btn")).to_have_accessible_name("Table mode: off (a tap turns Ben’s side across)")


def test_a_toast_about_the_player_across_faces_them_after_the_near_players_move(page: Page, live_server: str,
                                                                               shots: Path):
    """Ana (near) takes both pearls: her toast faces her, Ben's privilege from her move faces Ben."""
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                            "first_player": 0}).json()["id"]
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    Table(page).enter({"type": "take_tokens", "player": 0, "tokens": {"pearl": 2}})
    given = page.locator('.alert[data-kind="privilege_given"]')
    expect(given).to_contain_text("Ben gains a privilege from Ana's move")
    expect(page.locator(".alert-done")).to_contain_text("Ana took 2 pearls")
    assert turned(page, '.alert[data-kind="privilege_given"]') and not turned(page, ".alert-done")
    page.screenshot(path=str(shots / "table-mode-privilege-toast.png"))


def test_the_sheet_of_the_player_across_starts_above_the_tabs(page: Page, live_server: str):
    """A tester: Ben across with two rows of reserved cards; his sheet's start (its heading, his
    top, the turned sheet's bottom) lay half under the action tabs, on the page opened and after
    Ana's entry."""
    from driver import import_part

    gid = import_part(page, live_server, "duel-1102.json", 27)  # Ben (seat 1) to play
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    page.wait_for_timeout(300)
    body = page.locator("#sheet .sheet-body").bounding_box()
    tabs = page.locator("nav.actions").bounding_box()
    assert body and tabs and body["y"] + body["height"] <= tabs["y"], (body, tabs)


def test_a_prompt_that_fits_leaves_the_panel_across_at_the_top(browser, live_server: str):
    """Table mode, classic Splendor on a 390x844 phone: the other phone's purchase lets two
    nobles visit Ben, across the table. The noble prompt fits under the panels with the screen
    at its top, so the screen stays there (centring it scrolled Ben's panel off the top edge);
    a reload shows it the same way."""
    import json

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "splendor-153.json").read_text())
    at = next(i for i, e in enumerate(log["events"]) if e["type"] == "take_noble")
    body = {k: log[k] for k in ("players", "first_player", "nobles")}
    body.update({"format": "splendor-tracker/1", "game": "splendor", "result": None})
    page = browser.new_page(viewport={"width": 390, "height": 844})
    gid = page.request.post(live_server + "/api/games/import", data={**body, "events": log["events"][:at - 1]}).json()["id"]
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    assert page.request.post(f"{live_server}/api/games/{gid}/events", data=log["events"][at - 1]).ok
    prompt = page.locator('#sheet .prompt[data-sheet="noble"]')
    for step in ("poll", "reload"):
        expect(prompt).to_be_in_viewport(ratio=1, timeout=4000)
        page.wait_for_timeout(300)  # (where the screen settles after the swap)
        assert page.evaluate("scrollY") == 0, step
        assert page.locator("#panel-1").bounding_box()["y"] >= 0, step  # Ben's panel whole at the top edge
        page.reload()
    page.close()


def test_classic_splendor_final_round_and_nobles_face_the_player_across_on_their_turn(browser, live_server: str):
    """A tester, two at a classic Splendor table in table mode: on Ben's last turn the banner
    "Final round · still to play: Ben" and the nobles on display stayed upright for Ana. They
    turn with his turn line and sheet; on Ana's turn the nobles face her."""
    from tracker.rules import splendor, splendor_autoplay
    from tracker.rules.events import event_to_dict

    setup, events, _end = splendor_autoplay.play(1, players=2)  # seat 0 reaches 15 first: seat 1 plays last
    state, final = splendor.new_game(setup["players"], setup["first_player"], setup.get("nobles")), None
    for n, event in enumerate(events, start=1):
        state = splendor.apply(state, event)
        if state.final_round and state.winner is None and state.pending is None and state.current_player == 1:
            final = n
    assert setup["first_player"] == 0 and final is not None
    body = {**setup, "format": "splendor-tracker/1", "game": "splendor", "result": None}
    page = browser.new_page(viewport={"width": 390, "height": 844})

    def rotated(part: str) -> bool:
        return page.locator(part).evaluate("el => getComputedStyle(el).transform") not in ("none", "")

    def open_at(n: int) -> dict:
        game = page.request.post(live_server + "/api/games/import",
                                 data={**body, "events": [event_to_dict(e) for e in events[:n]]}).json()
        page.goto(f"{live_server}/settings?table=on&next=/games/{game['id']}")
        return game

    assert open_at(final)["current_player"] == 1
    expect(page.locator("#final-round")).to_contain_text("still to play: ")
    assert rotated("#final-round") and rotated(".nobles-line") and rotated("#turnbar")
    ana = next(n for n in range(final - 1, 0, -1) if splendor.replay(setup, events[:n]).current_player == 0)
    assert open_at(ana)["current_player"] == 0
    assert not rotated(".nobles-line") and not rotated("#turnbar")
    page.close()


def test_bringing_the_turned_sheet_above_the_tabs_never_cuts_a_reserved_card_across(page: Page, live_server: str):
    """A tester's Ben, across, held two reserved cards (one per row at his edge of the screen):
    the few pixels that bring his sheet's heading above the tabs cut his farther row, a card he
    buys by tapping it. The page scrolls no farther than that card's edge."""
    from driver import import_part

    gid = import_part(page, live_server, "table-ben-wins.json", 63)  # turn 38, Ben (seat 1) to play
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    page.wait_for_timeout(400)
    cards = page.locator("#panel-1 a[href]")
    assert cards.count() == 2
    assert min(cards.nth(i).bounding_box()["y"] for i in range(2)) >= 0
    assert page.evaluate("scrollY") <= 16  # (the few pixels there were: no more)


def test_on_its_side_what_is_turned_to_the_player_across_shows_from_their_start(browser, live_server: str):
    """A tester, a phone on its side between the players (844x390), Ben across: his royal-card
    prompt, in the column beside the board, showed its last choices (its heading, at the
    column's far end, out of view), and his victory card, taller than the screen, opened on its
    buttons: neither player saw who won. Both show from Ben's start now."""
    from driver import import_part

    page = browser.new_page(viewport={"width": 844, "height": 390})
    # Ben's purchase (his phone's, or the API's) reaches 3 crowns: this screen's poll raises the prompt
    raise_prompt(page, live_server, "royal", seat=1)
    heading = page.locator("#sheet .prompt h3")
    expect(heading).to_contain_text("Ben takes a royal card")
    expect(heading).to_be_in_viewport(ratio=1)
    gid = import_part(page, live_server, "table-ben-wins.json")
    page.goto(f"{live_server}/games/{gid}")
    expect(page.locator("#victory-title")).to_have_text("Ben wins!")
    expect(page.locator("#victory-title")).to_be_in_viewport(ratio=1)
    assert page.locator("#victory").evaluate("el => el.scrollHeight > el.clientHeight")  # (taller than the screen)
    page.close()


def test_a_small_prompt_below_the_fold_is_scrolled_just_into_view(browser, live_server: str):
    """A tester: Ben's discard prompt (a short one) was centred, which scrolled his panel and the
    turn line away and filled the screen's lower half with the page's foot. On a 360x640 phone
    it now comes up just far enough: its bottom on the screen's bottom line, the rest above kept."""
    page = browser.new_page(viewport={"width": 360, "height": 640})
    raise_prompt(page, live_server, "discard")
    prompt = page.locator('#sheet .prompt[data-sheet="discard"]')
    expect(prompt).to_be_in_viewport(ratio=1)
    page.wait_for_timeout(300)
    box = prompt.bounding_box()
    assert 640 - 8 - 2 <= box["y"] + box["height"] <= 640 - 8 + 1, box  # on the line, not centred
    assert 0 < page.evaluate("scrollY") < box["height"]
    page.close()


def test_a_secret_card_tapped_in_the_panel_across_opens_the_sheet_at_its_start(page: Page, live_server: str):
    """A table-mode tester: on Omar's turn (across), "? Level 2" in his panel opened his Buy sheet
    at the end of its grid ("Not listed?…"), its heading and tabs off the screen (htmx scrolled
    to the sheet's top, which is his bottom, after the sheet was placed)."""
    gid = page.request.post(f"{live_server}/api/games", data={"game": "duel", "players": ["Tara", "Omar"],
                                                              "first_player": 0}).json()["id"]
    for event in ({"type": "take_tokens", "player": 0, "tokens": {"red": 1}},
                  {"type": "reserve", "player": 1, "level": 2},
                  {"type": "take_tokens", "player": 0, "tokens": {"blue": 1}}):
        assert page.request.post(f"{live_server}/api/games/{gid}/events", data=event).ok
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    page.locator('#panel-1 a[href*="src=reserve"]').first.click()
    expect(page.locator('#sheet [data-reveal="2"]')).to_be_visible()
    page.wait_for_timeout(300)
    body = page.locator("#sheet .sheet-body").bounding_box()
    tabs = page.locator("nav.actions").bounding_box()
    # the turned sheet's start (its bottom on the screen) just above the tabs: its heading in view
    assert body and tabs and tabs["y"] - 120 <= body["y"] + body["height"] <= tabs["y"], (body, tabs)


def test_on_a_tablet_lying_flat_the_tabs_of_the_player_across_sit_at_their_edge(browser, live_server: str,
                                                                                shots: Path):
    """Testers: on Ben's turn (across the table) his tabs faced him but stayed at Ana's edge of a
    tablet, a reach over the whole screen. Upright on a tall screen they move to his edge, the
    top, his panel uncovered; the page keeps their room at its top, so nothing moves as the turn
    passes. A phone keeps its tabs at the bottom (its player across reaches them)."""
    for width, height, at_top in ((820, 1180, True), (390, 844, False)):
        page = browser.new_page(viewport={"width": width, "height": height})
        gid = duel_via_api(page, live_server)
        page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
        bar = page.locator("nav.actions")
        ana_turn = bar.bounding_box()
        panel_top = page.locator("#panel-1").bounding_box()["y"]
        assert abs(ana_turn["y"] + ana_turn["height"] - height) < 2  # Ana's tabs at her edge
        entry(page, gid, live_server, {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
        box = bar.bounding_box()
        assert turned(page, "nav.actions")
        if at_top:
            assert box["y"] < 2 and box["y"] + box["height"] <= page.locator("#panel-1").bounding_box()["y"]
            assert page.locator("#panel-1").bounding_box()["y"] == panel_top  # nothing moved with the turn
            page.screenshot(path=str(shots / "table-mode-tablet-across.png"))
            page.locator("#action-buy").click()  # tapped at the top edge, it opens Ben's Buy sheet
            expect(page.locator('#sheet [data-sheet="buy"]')).to_be_visible()
        else:
            assert abs(box["y"] + box["height"] - height) < 2
        page.close()
    # each toast at the edge of the player it faces: Ben's privilege from Ana's 3 red at his, her own at hers
    page = browser.new_page(viewport={"width": 820, "height": 1180})
    gid = duel_via_api(page, live_server)
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    assert page.request.post(f"{live_server}/api/games/{gid}/events",
                             data={"type": "take_tokens", "player": 0, "tokens": {"red": 3}}).ok
    given, done = page.locator("#alerts .alert-privilege_given"), page.locator("#alerts .alert-done")
    expect(given).to_contain_text("Ben gains a privilege from Ana's move", timeout=8000)
    assert turned(page, "#alerts .alert-privilege_given") and not turned(page, "#alerts .alert-done")
    bar = page.locator("nav.actions").bounding_box()
    assert bar["y"] + bar["height"] <= given.bounding_box()["y"] < 200  # under Ben's tabs, at his edge
    assert done.bounding_box()["y"] > 1000  # Ana's at hers
    page.close()
    # a prompt Ben owes stands in for his tabs: nothing moves up into their room (it shifted by 68 px)
    page = browser.new_page(viewport={"width": 820, "height": 1180})
    raise_prompt(page, live_server, "royal", seat=1)
    page.wait_for_timeout(0)
    where = "() => document.getElementById('panel-1').getBoundingClientRect().top + window.scrollY"
    before = page.evaluate(where)
    expect(page.locator("#sheet .prompt")).to_be_visible(timeout=8000)
    expect(page.locator("nav.actions")).to_have_count(0)
    assert page.evaluate(where) == before
    page.close()
