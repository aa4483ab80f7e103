"""Pages fit a 390-px phone whatever names the table typed (the form allows 40 characters)."""

from __future__ import annotations

import re

import pytest
from driver import Table, duel_via_api, first_prompt, import_part
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

LONG = "Maximilian-Alexander Wolfeschlegelstein!"  # 40 characters


def test_long_names_never_widen_the_players_and_history_pages(page: Page, live_server: str):
    assert len(LONG) == 40
    game = page.request.post(live_server + "/api/games", data={"game": "duel", "players": [LONG, "Ben"], "first_player": 0}).json()
    page.goto(f"{live_server}/players")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the game in progress is said under the count, "(1 in progress)": it wraps at 320 px and 200% text
    expect(page.locator("tr[data-player] .playing").first).to_have_text("(1 in progress)")
    # on one line: the name column takes what is left (a Korean tester's "(2판 진행 중)" took 3 lines
    # and "100%" one letter a line, beside an empty name column)
    lines = page.evaluate("[...document.querySelectorAll('tr[data-player] .playing')]"
                          ".map(e => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))")
    assert lines and max(lines) < 1.5, lines
    page.set_viewport_size({"width": 320, "height": 640})
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.set_viewport_size({"width": 390, "height": 844})
    player = page.locator("tr[data-player] a", has_text="Maximilian").get_attribute("href")
    assert player
    page.goto(f"{live_server}/history?player={player.rsplit('/', 1)[-1]}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.goto(f"{live_server}/games/{game['id']}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    heights = page.evaluate("[...document.querySelectorAll('nav.actions a, #share-btn, #log summary')]"
                            ".map(e => e.getBoundingClientRect().height)")
    assert heights and min(heights) >= 44, heights


def test_a_name_with_no_space_and_the_nobles_picker_fit_a_360_px_phone(browser, live_server: str):
    """A 40-letter name with nowhere to break (its turn, the toast, the home list, the history,
    the review) and the Splendor nobles picker never make a 360-px page scroll sideways."""
    word = "Wolfeschlegelsteinhausenbergerdorffwelch"
    assert len(word) == 40
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    page = context.new_page()
    game = page.request.post(live_server + "/api/games", data={
        "game": "splendor", "players": [word, "Ben", word[::-1]], "first_player": 0,
        "nobles": ["N-01", "N-02", "N-03", "N-04"]}).json()
    wide = "() => document.documentElement.scrollWidth"
    # the home list's "<name>'s turn · Turn 1" (a tester: 40 × "A" made the page 402 px wide at
    # 320, 360 and 390)
    page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["W" * 40, "Ben"], "first_player": 0})
    page.goto(live_server + "/")
    expect(page.locator(".resume .standing").first).to_contain_text("W" * 40)
    assert page.evaluate(wide) <= 360
    page.goto(f"{live_server}/games/{game['id']}")
    expect(page.locator(".whose-turn")).to_contain_text(word)
    assert page.evaluate(wide) <= 360
    page.wait_for_function("() => window.htmx !== undefined")
    for kind in ("red", "blue", "green"):
        page.locator(f'.pick-source a[data-kind="{kind}"]').click()
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(3)
    assert page.evaluate(wide) <= 360  # the preview names the player
    page.locator('#sheet form[data-type="take_tokens"] button.save').click()
    expect(page.locator(".alert-done")).to_contain_text(word)
    assert page.evaluate(wide) <= 360
    for url in ("/", "/history", f"/games/{game['id']}/review", f"/games/{game['id']}/review?turn=1"):
        page.goto(live_server + url)
        assert page.evaluate(wide) <= 360, url
    page.goto(live_server + "/")
    page.locator('input[name="game"][value="splendor"]').check()
    picks = page.locator(".noble-pick")
    expect(picks.first).to_be_visible()
    for i in range(picks.count()):
        box, inner = picks.nth(i).bounding_box(), picks.nth(i).locator(".noble").bounding_box()
        assert box and inner and inner["x"] + inner["width"] <= box["x"] + box["width"] + 0.5, i
    assert page.evaluate(wide) <= 360
    context.close()


def test_a_name_with_no_space_fits_the_prompts_the_fix_sheet_and_the_history_line(browser, live_server: str):
    """The same 40-letter name made the page 30 px wider in the discard prompt's heading, the Fix
    sheet's legend (the count grid pushed off the screen), a near win's warning and History's
    "… won" line."""
    word = "Wolfeschlegelsteinhausenbergerdorffwelch"
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()

    def imported(count: int | None) -> str:
        return import_part(page, live_server, "duel-1102.json", count, players=[word, word[::-1]])

    wide = "() => document.documentElement.scrollWidth"
    page.goto(f"{live_server}/games/{imported(16)}")
    expect(page.locator('#sheet [data-sheet="discard"]')).to_be_visible()  # the discard prompt (entry 17)
    assert page.evaluate(wide) <= 390
    page.locator("#sheet .prompt-fix summary, #sheet a:has-text('Fix')").first.click()
    expect(page.locator("#sheet .count-grid").first).to_be_visible()
    assert page.evaluate(wide) <= 390
    page.goto(f"{live_server}/games/{imported(81)}")  # 3 entries before duel-1102's end: a near win warned
    expect(page.locator(".near-win").first).to_be_visible()
    assert page.evaluate(wide) <= 390
    imported(None)
    page.goto(f"{live_server}/history")
    expect(page.locator(".row-meta .result").first).to_be_visible()
    assert page.evaluate(wide) <= 390
    # an audit: 20 W's at 320 px, "Privileges of WWW…" and the seat buttons of the Fix sheet
    page.set_viewport_size({"width": 320, "height": 640})
    gid = import_part(page, live_server, "duel-1102.json", 16, players=["W" * 20, "M" * 20])
    page.goto(f"{live_server}/games/{gid}?sheet=correction")
    expect(page.locator('#sheet input[name="privileges"]')).to_be_visible()
    assert page.evaluate(wide) <= 320
    context.close()


@pytest.mark.parametrize("width, height, lang", [(390, 844, "en"), (360, 640, "ko"), (375, 667, "en"), (320, 568, "en")])
def test_every_sheet_and_the_action_tabs_fit_a_small_phone(browser, live_server: str, width: int, height: int, lang: str):
    """Duel's eight buy filters (all, five colours, joker, points only) stay on screen (44 px
    wide at 390 px), and no sheet makes the page wider than the phone: the fixed action tabs, Undo
    included, stay whole at the bottom (a 360-px page 377 px wide had zoomed them half off)."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["지민", "서준"],
                                                              "first_player": 0}).json()["id"]
    assert page.request.post(f"{live_server}/api/games/{gid}/events",
                             data={"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).ok
    page.goto(f"{live_server}/settings?lang={lang}&next=/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    for action in ("buy", "reserve", "privileges", "correction", "take"):
        page.locator(f"#action-{action}").click()
        expect(page.locator(f'#sheet [data-sheet="{action}"]')).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width, action
        for tab in page.locator("nav.actions > *").all():
            box = tab.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (action, box)
            assert box["y"] + box["height"] <= height and box["height"] >= 44, (action, box)
        if action == "buy":
            filters = page.locator("#sheet .filters .filter")
            expect(filters).to_have_count(8)
            for i in range(8):
                box = filters.nth(i).bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (i, box)
                # (at 320 px in two rows of four: eight in one row were 36 px each, touching: a tester)
                assert box["width"] >= (44 if width >= 390 or width <= 320 else 40) and box["height"] >= 44, (i, box)
    context.close()


def test_who_starts_offers_a_splendor_seat_only_once_its_name_is_typed(page: Page, live_server: str):
    """Three names typed for classic Splendor offered a "Fourth player" to start (a Korean tester)."""
    page.goto(live_server + "/")
    page.wait_for_function("() => window.htmx !== undefined")
    page.locator('input[name="game"][value="splendor"]').check()
    third = page.locator('input[name="first"][value="2"]')
    fourth = page.locator('input[name="first"][value="3"]')
    expect(third).to_be_hidden()
    expect(fourth).to_be_hidden()
    for i, name in enumerate(("Jimin", "Seojun", "Haeun")):
        page.fill(f"#player{i}", name)
    expect(third).to_be_visible()
    expect(fourth).to_be_hidden()
    third.check()
    page.fill("#player2", "")  # the chosen starter's name taken away: the first player starts, visibly
    expect(third).to_be_hidden()
    expect(page.locator('input[name="first"][value="0"]')).to_be_checked()


def test_who_starts_names_the_seats_as_typed_and_toasts_take_no_tap(page: Page, live_server: str):
    page.goto(live_server + "/")
    page.wait_for_function("() => window.htmx !== undefined")
    page.fill("#player0", "Jimin")
    page.fill("#player1", "Seojun")
    expect(page.locator('[data-name-of="0"]')).to_have_text("Jimin")
    expect(page.locator('[data-name-of="1"]')).to_have_text("Seojun")
    page.fill("#player1", "")
    expect(page.locator('[data-name-of="1"]')).to_have_text("Second player")
    page.fill("#player1", "Seojun")
    page.locator('input[name="first"][value="1"]').check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".whose-turn")).to_have_text("Seojun's turn")
    page.locator("#action-take").click()
    page.locator('.pick-source a[data-kind="red"]').click()
    page.locator('#sheet form[data-type="take_tokens"] button.save').click()
    expect(page.locator("#alerts .alert-done")).to_be_visible()
    # Toasts never take a tap: the sheet's tabs can lie under them when the page is scrolled.
    assert page.evaluate("getComputedStyle(document.querySelector('#alerts .alert-done')).pointerEvents") == "none"
    # ... and sit just above the action tabs, never over the panels and whose turn it is
    toast, tabs = page.locator("#alerts").bounding_box(), page.locator("nav.actions").bounding_box()
    turn = page.locator("#turnbar").bounding_box()
    assert toast and tabs and turn and turn["y"] + turn["height"] < toast["y"] and toast["y"] + toast["height"] <= tabs["y"]


def test_undo_stays_on_screen_in_a_four_player_game(page: Page, live_server: str):
    """UX.md: Undo always visible. Four Splendor panels push the sheet down; Undo is the last tab
    of the action bar that stays at the bottom of the screen."""
    setup = {"game": "splendor", "players": ["Ana", "Ben", "Cho", "Dan"], "first_player": 0,
             "nobles": ["N-01", "N-02", "N-03", "N-04", "N-05"]}
    gid = page.request.post(live_server + "/api/games", data=setup).json()["id"]
    move = {"type": "take_tokens", "player": 0, "tokens": {"red": 1, "blue": 1, "green": 1}}
    assert page.request.post(f"{live_server}/api/games/{gid}/events", data=move).ok
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{live_server}/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    undo = page.locator("#undo")
    expect(undo).to_be_in_viewport()
    page.locator('.pick-source a[data-kind="white"]').click()
    expect(page.locator(".pick-chosen .chip-btn")).to_have_count(1)
    expect(undo).to_be_in_viewport()
    undo.click()
    page.locator("#undo-dialog-yes").click()
    expect(page.locator(".whose-turn")).to_have_text("Ana's turn")
    assert page.request.get(f"{live_server}/api/games/{gid}").json()["players"][0]["tokens"]["red"] == 0


def test_the_victory_banner_scrolls_on_a_phone_turned_on_its_side(browser, live_server: str):
    """640x360: the banner starts at its top (the crown on screen) and scrolls to its last button."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "splendor-133.json").read_text())
    context = browser.new_context(viewport={"width": 640, "height": 360}, has_touch=True)
    page = context.new_page()
    game = page.request.post(live_server + "/api/games/import", data={
        k: v for k, v in log.items() if k not in ("expected", "checkpoints", "source")}).json()
    page.goto(f"{live_server}/games/{game['id']}")
    crown = page.locator("#victory .crown").bounding_box()
    assert crown and crown["y"] >= 0, crown
    review = page.locator("#review-game")
    review.scroll_into_view_if_needed()
    box = review.bounding_box()
    assert box and box["y"] + box["height"] <= 360 + 1, box  # (scrolled in to its very edge: a subpixel over)
    review.click()
    expect(page).to_have_url(f"{live_server}/games/{game['id']}/review")
    context.close()


def test_a_prompt_owed_when_the_game_opens_is_brought_into_view(browser, live_server: str):
    """A reload (or the other phone) on a classic Splendor game owing a noble choice: with three
    panels on a 360x640 phone the prompt lies below the fold; the screen shows it, centred."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "splendor-153.json").read_text())
    at = next(i for i, e in enumerate(log["events"]) if e["type"] == "take_noble")
    body = {k: log[k] for k in ("players", "first_player", "nobles")}
    body.update({"format": "splendor-tracker/1", "game": "splendor", "events": log["events"][:at], "result": None})
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    page = context.new_page()
    game = page.request.post(live_server + "/api/games/import", data=body).json()
    page.goto(f"{live_server}/games/{game['id']}")
    prompt = page.locator('#sheet .prompt[data-sheet="noble"]')
    expect(prompt).to_be_in_viewport()
    assert page.evaluate("scrollY") > 0
    context.close()


def test_no_toast_is_drawn_over_a_prompt_raised_by_the_other_phone(page: Page, live_server: str):
    """The other phone records a purchase that reaches 3 crowns: this phone shows the royal-card
    prompt and its choices with no toast over them; the purchase is still read out and logged."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "duel-1012.json").read_text())
    body = {k: log[k] for k in ("format", "game", "players", "first_player")}
    gid = page.request.post(live_server + "/api/games/import", data={**body, "events": log["events"][:44],
                                                                      "result": None}).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    assert page.request.post(f"{live_server}/api/games/{gid}/events", data=log["events"][44]).ok
    expect(page.locator('#sheet .prompt[data-sheet="royal"]')).to_be_visible(timeout=3500)
    expect(page.locator(".alert-done")).to_have_count(1)
    expect(page.locator(".alert-done")).to_be_hidden()
    expect(page.locator("#announcer")).to_contain_text("bought")
    expect(page.locator("#log summary")).to_contain_text("(45)")


def test_at_very_large_text_the_action_tabs_take_two_rows_and_nothing_overlaps(browser, live_server: str):
    """A 360 px phone at 200% zoom is 180 CSS px wide: the tabs ran into each other and a panel's
    token chips overlapped. Now the page fits, the tabs sit in two rows, the chips never overlap."""
    page = browser.new_page(viewport={"width": 180, "height": 370}, device_scale_factor=2)
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                             "first_player": 0}).json()["id"]
    page.request.post(f"{live_server}/api/games/{gid}/events", data={"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    page.goto(f"{live_server}/games/{gid}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 180

    def boxes(selector: str) -> list[dict]:
        return [page.locator(selector).nth(i).bounding_box() for i in range(page.locator(selector).count())]

    def apart(a: dict, b: dict) -> bool:
        return a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5 or \
            a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5

    for selector in ("nav.actions > .action", "#panel-0 .tokens .chip"):
        found = boxes(selector)
        assert len(found) >= 6, selector
        assert all(apart(a, b) for i, a in enumerate(found) for b in found[i + 1:]), selector
    assert len({round(b["y"]) for b in boxes("nav.actions > .action")}) == 2  # two rows of tabs
    page.close()


@pytest.mark.parametrize("game", ["duel", "splendor"])
def test_after_an_entry_on_a_small_phone_the_take_sheet_is_on_screen_with_whose_turn(browser, live_server: str, game: str):
    """360x640 (a Korean tester): after each save the screen jumped to its top, the whole screen
    panels, and the next player tapped the tab already chosen (or scrolled) to reach the chips
    every turn. Now the page scrolls just enough to show the take sheet's save above the action
    tabs, never past whose turn it is (Duel's turn line, the acting Splendor player's panel).
    A 2-player Splendor's take sheet can fit on a 640 px screen without Korean fonts (the glyphs
    drawn as narrower boxes): its screen is a shorter phone's, 560 px, where it never fits."""
    height = 640 if game == "duel" else 560
    context = browser.new_context(viewport={"width": 360, "height": height}, has_touch=True)
    page = context.new_page()
    upto = 50 if game == "duel" else 30
    gid, log = _small_game(page, live_server, "duel-1102.json" if game == "duel" else "splendor-153.json", upto, game)
    page.goto(f"{live_server}/settings?lang=ko&next=/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    table = Table(page)
    scrolled: list[bool] = []
    for event in log["events"][upto:upto + 4]:
        if page.locator("#sheet .prompt").count():
            break
        table.enter(event)
        if page.locator("#sheet .prompt").count():
            break
        keep = "#game.splendor .panel.is-current" if game == "splendor" else "#turnbar"
        page.wait_for_function(
            "() => { const save = document.querySelector('#sheet .sheet-body').getBoundingClientRect();"
            " const bar = document.querySelector('nav.actions').getBoundingClientRect();"
            f" const keep = document.querySelector('{keep}').getBoundingClientRect();"
            " return keep.top >= 7 && (save.bottom <= bar.top || keep.top < 9); }")
        scrolled.append(page.evaluate("scrollY") > 0)
    assert any(scrolled), scrolled  # the sheet was below the fold at the top (at times it fits)
    context.close()


def test_on_a_320_px_phone_with_two_line_names_the_next_take_chips_come_above_the_tabs(browser, live_server: str):
    """A dim-light tester, 320x568, names of two lines: after a save the page kept whose turn it
    is in view and the next player's chips sat under the action tabs (a tap at a chip's centre
    landed on the tabs). The chips come first now; the sheet's heading above them names the
    player to act."""
    context = browser.new_context(viewport={"width": 320, "height": 568}, has_touch=True, is_mobile=True)
    page = context.new_page()
    names = ["Maximiliana-Josephine", "Bartholomew-Alexander"]
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": names, "first_player": 0}).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    table = Table(page)
    for seat, kind in ((0, "red"), (1, "blue"), (0, "green")):
        table.enter({"type": "take_tokens", "player": seat, "tokens": {kind: 1}})
        page.wait_for_function(
            "() => { const chips = [...document.querySelectorAll('#sheet .pick-source .chip-btn')];"
            " const bar = document.querySelector('nav.actions').getBoundingClientRect();"
            " return chips.length === 6 && chips.every(c => { const b = c.getBoundingClientRect();"
            " return b.top >= 0 && b.bottom <= bar.top; }); }")
        heading = page.locator("#sheet .sheet-for").bounding_box()  # whose turn: over the chips, in view
        assert heading is not None and heading["y"] >= 0 and names[1 - seat] in page.locator("#sheet .sheet-for").inner_text()
    assert page.evaluate("scrollY") > 0
    context.close()


def _small_game(page: Page, live_server: str, name: str, upto: int, game: str = "duel") -> tuple[str, dict]:
    import json
    import uuid
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / name).read_text())
    body = {k: log[k] for k in ("players", "first_player", "nobles") if k in log}
    body.update({"id": "t-" + uuid.uuid4().hex, "format": "splendor-tracker/1", "game": game,
                 "events": log["events"][:upto], "result": None})
    return page.request.post(live_server + "/api/games/import", data=body).json()["id"], log


def test_on_a_small_phone_table_mode_and_back_from_another_page_keep_their_place(browser, live_server: str):
    """A regression pass: table mode's player across the table lost their tokens row above the
    fold after each save (the page scrolled to the sheet): on their turn it stays at the top; Back from the
    History returned the game at its top, not where the player was reading."""
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    page = context.new_page()
    gid, log = _small_game(page, live_server, "duel-1102.json", 49)
    page.goto(f"{live_server}/settings?table=on&next=/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    table = Table(page)
    table.enter(log["events"][49])  # Ana's take: Ben's turn, across the table
    page.wait_for_timeout(400)
    assert page.evaluate("scrollY") == 0
    # Ben's purchase: Ana's turn, near: her take sheet's chips come up above the tabs (she would
    # scroll to them herself; placed for her, her first tap does not move them)
    table.enter(log["events"][50])
    page.wait_for_timeout(400)
    assert page.evaluate("scrollY") > 0
    bar = page.locator("nav.actions").bounding_box()
    chip = page.locator("#sheet .pick-source a[data-kind]").first.bounding_box()
    assert bar and chip and chip["y"] + chip["height"] <= bar["y"], (chip, bar)
    page.goto(f"{live_server}/settings?table=off&next=/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    page.evaluate("() => window.scrollTo(0, 300)")
    page.wait_for_timeout(200)
    page.locator('a[href="/history"]').first.click()
    page.wait_for_url("**/history")
    page.go_back()
    page.wait_for_url(f"**/games/{gid}")
    page.wait_for_function("() => window.scrollY > 200")  # where the player was (not the top)
    context.close()


def test_one_phone_each_the_phone_whose_turn_comes_shows_its_sheet_as_the_saving_phone_does(browser, live_server: str):
    """One phone each at 360x640: the other phone's entry hands this phone's player the turn; its
    take sheet was left under the action tabs (only the saving phone was placed)."""
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    page = context.new_page()
    gid, log = _small_game(page, live_server, "duel-1102.json", 50)
    state = page.request.get(f"{live_server}/api/games/{gid}").json()
    waiting = log["players"][1 - state["current_player"]]
    page.goto(f"{live_server}/settings?mine={waiting}&next=/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    assert page.request.post(f"{live_server}/api/games/{gid}/events", data=log["events"][50]).ok
    expect(page.locator(".whose-turn")).to_have_text(f"{waiting}'s turn", timeout=4000)
    page.wait_for_function(
        "() => { const s = document.querySelector('#sheet .sheet-body').getBoundingClientRect();"
        " const bar = document.querySelector('nav.actions').getBoundingClientRect();"
        " const keep = document.getElementById('turnbar').getBoundingClientRect();"
        " return window.scrollY > 0 && keep.top >= 7 && (s.bottom <= bar.top || keep.top < 9); }")
    context.close()


@pytest.mark.parametrize("width, text", [(320, "100%"), (320, "150%"), (390, "150%"), (390, "200%")])
def test_token_counts_are_never_cut_and_the_page_never_scrolls_sideways(browser, live_server: str, width: int, text: str):
    """A 320 px phone, or the reader's larger text (their default font size; the page followed
    only its own 16 px): a panel's token chips shrank under their counts ("★1" ran into "4/10"
    as "★14/10"), the meters pushed the page wider than the phone and the tab words broke out of
    their borders. Now every chip shows its whole count apart from the total, nothing is wider
    than the screen, and each tab's words fit it."""
    page = browser.new_page(viewport={"width": width, "height": 700})
    page.add_init_script(f"document.addEventListener('DOMContentLoaded', () => "
                         f"document.documentElement.style.fontSize = '{text}')")
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "duel-1012.json").read_text())
    gid = page.request.post(live_server + "/api/games/import", data={
        **{k: log[k] for k in ("format", "game", "players", "first_player")}, "events": log["events"][:60]}).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    cut = page.evaluate("""() => [...document.querySelectorAll('.panel .tokens .chip, .panel .token-total, nav.actions > .action')]
        .filter(el => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1).map(el => el.textContent.trim())""")
    assert cut == []
    if width == 320:  # (each tab at least a thumb wide)
        assert min(page.locator("nav.actions > .action").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().width)")) >= 44
    for seat in (0, 1):
        chips = page.locator(f"#panel-{seat} .tokens .chip")
        total = page.locator(f"#panel-{seat} .tokens .token-total").bounding_box()
        assert chips.count() == 7 and total
        for i in range(7):
            box = chips.nth(i).bounding_box()
            assert box and (box["x"] + box["width"] <= total["x"] or box["y"] + box["height"] <= total["y"]
                            or box["y"] >= total["y"] + total["height"]), (seat, i)
    page.close()


def test_in_high_contrast_the_tab_level_and_filter_chosen_are_marked(browser, live_server: str):
    """Forced colours drop backgrounds and shadows: the open tab, level and filter were drawn
    like the others. They carry an outline in the system's highlight colour."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, forced_colors="active")
    gid = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                             "first_player": 0}).json()["id"]
    page.goto(f"{live_server}/games/{gid}?sheet=buy")
    for chosen, other in (("#action-buy", "#action-take"), ('.tab.on', '.tab:not(.on)'), ('.filter.on', '.filter:not(.on)')):
        marked = page.locator(chosen).first.evaluate("e => getComputedStyle(e).outlineStyle")
        plain = page.locator(other).first.evaluate("e => getComputedStyle(e).outlineStyle")
        assert (marked, plain) == ("solid", "none"), chosen
    page.close()


def test_the_victory_banner_fits_a_320_px_phone_with_long_names(browser, live_server: str):
    """"Bartholomew" beside "Alexandrina" pushed the banner's table 33 px past a 320 px screen
    (the loser's column cut off): the cells wrap instead."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "duel-1069.json").read_text())
    page = browser.new_page(viewport={"width": 320, "height": 568})
    gid = page.request.post(live_server + "/api/games/import", data={
        **{k: log[k] for k in ("format", "game", "first_player", "events", "result")},
        "players": ["Alexandrina", "Bartholomew"]}).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    card = page.locator(".victory-card")
    expect(card).to_be_visible()
    box = card.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 320
    assert page.locator("#victory").evaluate("e => e.scrollWidth <= e.clientWidth")
    table = page.locator(".final").bounding_box()
    assert table and table["x"] + table["width"] <= box["x"] + box["width"]
    # the row labels keep their words whole ("pres/tige" when the names took the room)
    widest_word = """e => { const cs = getComputedStyle(e), probe = document.createElement('span');
        probe.style.font = cs.font; probe.style.whiteSpace = 'nowrap'; probe.style.position = 'absolute';
        document.body.appendChild(probe);
        const widest = Math.max(...e.textContent.trim().split(/\\s+/).map(w => { probe.textContent = w; return probe.getBoundingClientRect().width; }));
        probe.remove();
        return widest <= e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) + 0.5; }"""
    for label in page.locator(".final tr > td:first-child").all():
        assert label.evaluate("e => e.scrollWidth <= e.clientWidth") and label.evaluate(widest_word), label.inner_text()
    # the games list says who won, "finished · Alexandra Konstantinopoulos won": the status wraps
    # (it made the home page 329 px wide: a tester)
    assert page.request.post(live_server + "/api/games/import", data={
        **{k: log[k] for k in ("format", "game", "first_player", "events", "result")},
        "players": ["Alexandra Konstantinopoulos", "Konstantinopoulos Alexandra"]}).ok
    page.goto(f"{live_server}/")
    expect(page.locator(".resume .status", has_text="Konstantinopoulos won")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.close()


def test_tied_best_colours_a_full_token_row_and_a_royal_ability_read_whole_at_390(page: Page, live_server: str):
    """A tester's game (tests/fixtures/tied-colours.json): Ana's best colour tied four ways read
    "best colour whi…" (then, named whole, took three lines: W/U/R/K now); Ben's 10 tokens with a gold pushed "10/10" to a line of its own at 390 px;
    a royal card's ability wrapped into half the card ("take a / privilege")."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "tied-colours.json").read_text())
    gid = page.request.post(live_server + "/api/games/import", data=log).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    expect(page.locator("#victory")).to_be_visible()
    page.keyboard.press("Escape")
    label = page.locator(".panel", has_text="Ana").locator(".m-color .meter-label")
    # four tied: their letters (named whole they took three lines of the column: a tester), read out by name
    expect(label).to_contain_text("best colour W/U/R/K")
    assert label.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight")
    assert label.evaluate("e => e.getClientRects().length && e.getBoundingClientRect().height < 2.5 * parseFloat(getComputedStyle(e).lineHeight)")
    expect(page.locator(".panel", has_text="Ana").locator(".m-color")).to_have_attribute("aria-valuetext", "2 of 10, white/blue/red/black")
    bars = page.locator(".panel", has_text="Ana").locator(".meter progress")
    tops = {round(bars.nth(i).bounding_box()["y"]) for i in range(3)}
    assert len(tops) == 1, tops  # the three bars stay level
    page.set_viewport_size({"width": 320, "height": 640})  # the banner's table: no name squeezed to "Be/n"
    page.locator("#show-result").click()
    heights = page.locator("#victory table.final tr").first.evaluate(
        "r => [...r.children].map(c => c.getBoundingClientRect().height)")
    row_h = page.locator("#victory table.final tr").nth(1).bounding_box()["height"]
    assert max(heights) <= row_h + 2, (heights, row_h)
    expect(page.locator("#victory table.final")).to_contain_text("2 W/U/R/K")
    page.keyboard.press("Escape")
    page.set_viewport_size({"width": 390, "height": 844})
    row = page.locator(".panel", has_text="Ben").locator(".tokens")
    expect(row.locator(".token-total")).to_have_text("10/10")
    tops = row.evaluate("r => [...r.children].map(k => Math.round(k.getBoundingClientRect().bottom))")
    assert max(tops) - min(tops) <= 8, tops  # one line
    # the royal card prompt (the 3rd crown of duel-1012): each ability beside its prestige, whole
    first = json.loads((Path(__file__).parents[1] / "fixtures" / "duel-1012.json").read_text())
    part = {**{k: first[k] for k in ("format", "game", "players", "first_player")}, "events": first["events"][:45], "result": None}
    gid = page.request.post(live_server + "/api/games/import", data=part).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    faces = page.locator('#sheet [data-sheet="royal"] .royal-card')
    expect(faces.first).to_be_visible()
    for i in range(faces.count()):
        card, points, ability = (faces.nth(i).bounding_box(), faces.nth(i).locator("b").first.bounding_box(),
                                 faces.nth(i).locator("b + span").bounding_box())
        assert ability["width"] > (card["width"] - points["width"]) * 0.7, (i, card, ability)


def test_the_fix_note_being_typed_is_never_under_the_save_bar(browser, live_server: str):
    """Classic Splendor, a Fix with a long preview: the save bar stays above the tabs while counts
    are typed, but covered the note (the last field) while it was typed; it follows the note then."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    game = page.request.post(live_server + "/api/games", data={
        "game": "splendor", "players": ["Mom", "Dad", "Kid"], "first_player": 0,
        "nobles": ["N-01", "N-02", "N-03", "N-04"]}).json()
    page.goto(f"{live_server}/games/{game['id']}?sheet=correction&p=2")
    page.wait_for_function("() => window.htmx !== undefined")
    page.locator('#sheet input[name="tokens-red"]').fill("1")
    page.locator('#sheet input[name="board-red"]').fill("4")
    note = page.locator('#sheet input[name="note"]')
    # the note low on the screen, just above the bar as it is before the preview grows, and
    # tapped there (the page does not move: the note is in view)
    page.evaluate("""() => { const bar = document.querySelector('#sheet .fix-save');
      const note = document.querySelector('#sheet input[name="note"]');
      window.scrollBy(0, note.getBoundingClientRect().bottom - (innerHeight - 57 - bar.offsetHeight - 4));
      note.focus({ preventScroll: true }); }""")
    page.keyboard.type("Kid actually had one more red than the screen showed at the end of the turn")
    expect(page.locator("#fix-preview")).to_contain_text("at the end of the turn")
    page.wait_for_timeout(200)
    box, bar = note.bounding_box(), page.locator("#sheet .fix-save").bounding_box()
    tabs = page.locator("nav.actions").bounding_box()
    assert box["y"] + box["height"] <= bar["y"] + 1 and box["y"] + box["height"] <= tabs["y"], (box, bar, tabs)
    context.close()


def test_three_toasts_at_once_stay_compact(page: Page, live_server: str):
    """A tester's family game (tests/fixtures/family-three.json): Mom's purchase brought a noble
    and the final round; its three toasts covered 200 px of the next panels and the chips."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "family-three.json").read_text())
    part = {**{k: log[k] for k in ("format", "game", "players", "first_player", "nobles")},
            "events": log["events"][:97], "result": None}
    game = page.request.post(live_server + "/api/games/import", data=part).json()
    page.goto(f"{live_server}/games/{game['id']}")
    page.wait_for_function("() => window.htmx !== undefined")
    page.evaluate("""(d) => htmx.ajax('POST', '/games/' + d.id + '/events', {target: '#game', swap: 'outerHTML',
        values: {event: JSON.stringify(d.event), expected_version: String(d.version), entry_id: 'toasts-1',
                 csrf_token: document.querySelector('input[name=csrf_token]').value}})""",
                  {"id": game["id"], "version": game["version"], "event": log["events"][97]})
    expect(page.locator("#alerts .alert")).to_have_count(3)
    expect(page.locator("#alerts .alert-done")).to_contain_text("Mom bought")
    box = page.locator("#alerts").bounding_box()
    assert box["height"] <= 150, box
    done = page.locator("#alerts .alert-done")
    # the entry's sentence in three lines at most, whole here (two cut off a purchase's new
    # total, "prestige 14 → 1…": a tester); its text is what is clamped, never the toast (the top
    # of a further line showed in its padding)
    lines = done.locator("span").evaluate("e => Math.round(e.clientHeight / parseFloat(getComputedStyle(e).lineHeight))")
    assert lines <= 3 and done.locator("span").evaluate("e => e.scrollHeight <= e.clientHeight"), lines
    assert done.evaluate("e => e.scrollHeight <= e.clientHeight")


def test_a_phone_that_missed_entries_sees_the_latest_in_a_crowded_toast(page: Page, live_server: str, shots):
    """A tester: a phone catching up on several entries at once, with alerts beside its toast,
    showed the oldest entry's sentence, cut off after two lines; showing the latest alone left
    the others out (another tester's board lost a green with no word). With other alerts each
    entry has lines of its own, two at most, in order (one cut the colours taken: a tester)."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "family-three.json").read_text())
    part = {**{k: log[k] for k in ("format", "game", "players", "first_player", "nobles")},
            "events": log["events"][:95], "result": None}
    game = page.request.post(live_server + "/api/games/import", data=part).json()
    page.goto(f"{live_server}/games/{game['id']}")
    page.wait_for_function("() => window.htmx !== undefined")
    for event in log["events"][95:98]:  # Dad's, Kid's and Mom's purchases, made on other phones
        assert page.request.post(f"{live_server}/api/games/{game['id']}/events", data=event).ok
    expect(page.locator("#game")).to_have_attribute("data-version", str(game["version"] + 3), timeout=5000)
    done = page.locator("#alerts .alert-done")
    expect(page.locator("#alerts .alert")).to_have_count(3)
    expect(done.locator("span[data-player]")).to_have_count(3)  # all three told (the announcer reads them)
    page.screenshot(path=str(shots / "missed-entries-toast.png"))
    # (the toast itself fades out after a few seconds: what is drawn is read from its layout)
    drawn = done.locator("span[data-player]").evaluate_all(
        "es => es.map(e => [e.textContent.split(' ')[0], Math.round(e.getBoundingClientRect().top),"
        " Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))])")
    assert [name for name, _top, _lines in drawn] == ["Dad", "Kid", "Mom"], drawn
    assert drawn[0][1] < drawn[1][1] < drawn[2][1], drawn  # one under the other, in order
    assert all(lines in (1, 2) for _name, _top, lines in drawn), drawn  # each in two lines at most


def test_a_count_typed_in_the_fix_sheet_is_not_hidden_by_its_grown_save_bar(browser, live_server: str):
    """A tester: 3 typed into "Privileges of Ana" (Ben holds 1) makes the save bar pinned above
    the tabs say why it is refused (D-3.3) in three lines; the next field reached with the
    keyboard's next-field key then sat under that bar (the page kept room for a smaller one), so
    the number typed could not be seen. The field being typed comes above the bar, whatever its
    height."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    game = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                               "first_player": 0}).json()
    page.goto(f"{live_server}/games/{game['id']}")
    page.wait_for_function("() => window.htmx !== undefined")
    page.locator("#action-correction").click()
    field = page.locator('#sheet input[name="privileges"]')
    # (typed once htmx has wired the new sheet's preview: typed before, no preview was asked for)
    page.wait_for_function("() => { const p = document.querySelector('#fix-preview');"
                           " return !!p && !!p['htmx-internal-data'] && !document.querySelector('.htmx-settling, .htmx-request'); }")
    field.fill("3")
    expect(page.locator("#fix-preview")).to_contain_text("(privileges)")
    page.wait_for_timeout(200)
    # the bag's last count just above the grown bar, the privileges below the fold; then "next"
    page.evaluate("""() => { const bar = document.querySelector('#sheet .fix-save');
      const gold = document.querySelector('#sheet input[name="bag-gold"]');
      const pinned = document.querySelector('nav.actions').getBoundingClientRect().top - bar.offsetHeight;
      window.scrollBy(0, gold.getBoundingClientRect().bottom - pinned + 4);
      gold.focus({ preventScroll: true }); }""")
    page.keyboard.press("Tab")
    expect(field).to_be_focused()
    page.wait_for_timeout(100)
    box, bar = field.bounding_box(), page.locator("#sheet .fix-save").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"] + 1, (box, bar)
    context.close()


def test_a_tab_tapped_over_a_long_grid_opens_its_cards_right_under_the_tabs(page: Page, live_server: str):
    """A tester scrolled the level-1 grid until the tabs reached the top, tapped "My reserve": the
    page jumped 800 px down (the browser's scroll anchoring held on to what lay below the old
    grid), past the secret card's heading "A secret card: which one is it?". The tabs stay
    where the finger was, the secret card's question right under them."""
    gid = import_part(page, live_server, "duel-1012.json", 20)  # Ana to act, a secret level-1 card reserved
    page.goto(f"{live_server}/games/{gid}")
    table = Table(page)
    table.open("buy")
    page.evaluate("() => document.querySelector('#sheet nav.tabs').scrollIntoView({ block: 'start' })")
    before = page.evaluate("() => [scrollY, document.querySelector('#sheet nav.tabs').getBoundingClientRect().top]")
    assert before[0] > 300  # (the page scrolled: the tabs at the screen's top)
    page.locator('#sheet .tabs a[data-tab="reserve"]').click()
    expect(page.locator('#sheet .tabs a[data-tab="reserve"]')).to_have_class(re.compile(r"\bon\b"))
    page.wait_for_timeout(200)
    after = page.evaluate("() => [scrollY, document.querySelector('#sheet nav.tabs').getBoundingClientRect().top]")
    assert abs(after[1] - before[1]) < 2, (before, after)
    expect(page.get_by_text("A secret card: which one is it?")).to_be_in_viewport()


def test_the_fix_tab_shows_the_first_counts_above_its_pinned_save(page: Page, live_server: str):
    """A tester's Fix tab in a game of three: the page showed the sheet's heading and the names,
    the pinned "Save the correction" over where the counts begin. The first counts to fix (the
    player's tokens) show above the save, the sheet's top still on the screen."""
    gid = page.request.post(live_server + "/api/games", data={
        "game": "splendor", "players": ["Mina", "Joon", "Sara"], "first_player": 0,
        "nobles": ["N-01", "N-02", "N-03", "N-04"]}).json()["id"]
    page.goto(f"{live_server}/games/{gid}")
    table = Table(page)
    table.open("correction")
    page.wait_for_timeout(300)
    counts = page.locator("#sheet form.correction fieldset").first.bounding_box()
    bar = page.locator("#sheet form.correction .fix-save").bounding_box()
    heading = page.locator("#sheet [data-sheet='correction'] h3").bounding_box()
    assert counts["y"] + counts["height"] <= bar["y"], (counts, bar, heading, page.evaluate("scrollY"))
    assert heading["y"] >= 0


def test_another_tab_tapped_far_down_the_buy_grid_opens_its_sheet_at_its_top(page: Page, live_server: str):
    """A tester scrolled Buy's level-1 grid to its end and tapped Reserve: the Reserve sheet came
    scrolled to its own grid's end, its secret cards and filters off the screen."""
    game = page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Ana", "Ben"],
                                                               "first_player": 0}).json()
    page.goto(f"{live_server}/games/{game['id']}")
    table = Table(page)
    table.open("buy")
    expect(page.locator('#sheet [data-sheet="buy"]')).to_have_count(1)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("document.getElementById('sheet').getBoundingClientRect().top") < 0
    page.locator("#action-reserve").click()
    expect(page.locator('#sheet [data-sheet="reserve"]')).to_have_count(1)
    page.wait_for_function("() => document.getElementById('sheet').getBoundingClientRect().top >= 0")
    expect(page.locator("#secret-1")).to_be_in_viewport()


def test_what_a_form_low_on_a_page_led_to_is_brought_into_view(page: Page, live_server: str):
    """A player page's "… is forgotten" notice sat some 2,000 px down a long page that opened at
    its top (a tester saw nothing happen); the new-game form's refusal of the nobles likewise."""
    for i in range(6):  # a player page with some length: six games… and an old name
        game = page.request.post(f"{live_server}/api/games", data={"game": "duel", "players": ["Ana", f"Ben{i}"],
                                                                   "first_player": 0}).json()
        assert game["status"] == "active"
    page.set_viewport_size({"width": 390, "height": 600})
    page.goto(live_server + "/players")
    page.get_by_role("link", name="Ana", exact=True).click()
    page.locator("summary", has_text="Rename").click()
    page.locator("#rename-name").fill("Ana Kim")
    page.locator("#rename-name").press("Enter")
    page.wait_for_load_state()
    page.locator("#other-names summary").click()
    page.get_by_role("button", name="Forget the name Ana").click()
    notice = page.locator("#player-notice")
    expect(notice).to_have_text("“Ana” is forgotten: typed again, it is a new player.")
    expect(notice).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 0

    page.goto(live_server + "/")
    page.locator('input[name="game"][value="splendor"]').check()
    page.fill("#player0", "Jimin")
    page.fill("#player1", "Seojun")
    page.locator(".noble-pick").first.click()  # one noble of the three a 2-player game shows
    page.get_by_role("button", name="Start the game").click()
    error = page.locator("#noble-error")
    expect(error).to_contain_text("Enter the 3 different nobles")
    expect(error).to_be_in_viewport()


def test_a_double_tap_on_start_the_game_over_slow_wifi_starts_one_game(page: Page, live_server: str, monkeypatch):
    """A tester's two taps on "Start the game", 150–400 ms apart over a slow network, made two
    games: one opened, the other left in progress on the home page and in History."""
    import time

    from tracker import service

    started = service.create_game

    def slowly(*args, **kwargs):  # the answer takes 0.7 s to come back, as over a café's Wi-Fi
        view = started(*args, **kwargs)
        time.sleep(0.7)
        return view

    monkeypatch.setattr(service, "create_game", slowly)  # (the live server runs in this process)
    page.goto(live_server + "/")
    page.fill("#player0", "Minji")
    page.fill("#player1", "Joon")
    start = page.get_by_role("button", name="Start the game")
    start.scroll_into_view_if_needed()
    box = start.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)  # raw taps: a locator's tap would wait for the first one's page
    page.wait_for_timeout(250)
    page.touchscreen.tap(x, y)
    expect(page).to_have_url(re.compile(r"/games/[^/?]+$"), timeout=10000)  # (the first tap's page was left)
    expect(page.locator(".whose-turn")).to_be_visible()
    games = page.request.get(f"{live_server}/api/games").json()
    assert len(games) == 1 and page.url.endswith(games[0]["id"])


def test_a_near_win_warning_takes_the_turn_lines_whole_width(page: Page, live_server: str):
    """A long near-win warning ran four centred lines in the 230 px beside "⟲ Table" and "Share"
    (a Korean tester); it goes under them, across the whole turn line. The two buttons are read
    and tabbed to in the order they are drawn."""
    gid = import_part(page, live_server, "duel-1012.json", 20)
    page.goto(f"{live_server}/games/{gid}")
    page.evaluate("""() => {
      const ul = document.createElement('ul'); ul.className = 'near-wins';
      ul.innerHTML = '<li class="near-win">⚠ Dasom: can win next turn — buying the reserved level-2 white card (2 prestige, take a privilege) reaches 10 prestige in one colour</li>';
      document.querySelector('#turnbar').appendChild(ul);
    }""")
    bar = page.locator("#turnbar").bounding_box()
    warning = page.locator("#turnbar .near-wins").bounding_box()
    assert bar and warning and warning["width"] >= bar["width"] - 24, (warning, bar)
    table = page.locator("#table-btn").bounding_box()
    share = page.locator("#share-btn").bounding_box()
    assert table and share and table["x"] < share["x"]
    order = page.evaluate("() => [...document.querySelectorAll('#turnbar a')].map(a => a.id)")
    assert order.index("table-btn") < order.index("share-btn")


def test_on_a_short_phone_the_toasts_leave_the_take_chips_sooner(browser, live_server: str):
    """Two testers on a 360x640 phone: after an entry the toasts lay over the next player's take
    chips for 4 s. On a short phone they go after 1.5 s (the entry's line) and 2.5 s (a rule's
    alert); on a taller one they keep their time; a notice stays until a tap either way."""
    for (w, h), done, other in (((360, 640), "1.5s", "2.5s"), ((390, 844), "2.5s", "4s")):
        page = browser.new_page(viewport={"width": w, "height": h})
        gid = duel_via_api(page, live_server)
        page.goto(f"{live_server}/games/{gid}")
        page.wait_for_function("() => window.htmx !== undefined")
        assert page.request.post(f"{live_server}/api/games/{gid}/events",
                                 data={"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).ok
        toast = page.locator("#alerts .alert-done")
        expect(toast).to_have_count(1, timeout=4000)
        assert toast.evaluate("el => getComputedStyle(el).animationDelay") == done, (w, h)
        assert page.evaluate("""() => { const p = document.createElement('p'); p.className = 'alert';
            document.getElementById('alerts').appendChild(p); return getComputedStyle(p).animationDelay; }""") == other
        assert page.evaluate("""() => { const p = document.createElement('p'); p.className = 'alert alert-notice';
            document.getElementById('alerts').appendChild(p); return getComputedStyle(p).animationName; }""") == "none"
        page.close()


def test_the_korean_players_list_keeps_each_phrase_on_one_line_at_360_px(browser, live_server: str):
    """A Korean tester at 360 px: "끝난 6판 중 83%" and "(89판 진행 중)" broke a syllable a line."""
    context = browser.new_context(viewport={"width": 360, "height": 640}, extra_http_headers={"Accept-Language": "ko"})
    page = context.new_page()
    for names in (["지민", "서준"], ["지민", "Ben"]):
        page.request.post(live_server + "/api/games", data={"game": "duel", "players": names, "first_player": 0})
    import_part(page, live_server, "duel-1012.json", players=["지민", "서준"])  # finished: a win rate
    page.goto(f"{live_server}/players")
    expect(page.locator("tr[data-player] .win-rate").first).to_be_visible()
    lines = page.evaluate("[...document.querySelectorAll('tr[data-player] :is(.playing, .win-rate)')]"
                          ".map(e => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))")
    assert lines and max(lines) < 1.5, lines
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # at 320 px they may wrap, at their spaces only (a syllable a line before)
    page.set_viewport_size({"width": 320, "height": 640})
    # (lines no more than words: each line break at a space)
    counts = page.evaluate("""[...document.querySelectorAll('tr[data-player] :is(.playing, .win-rate)')].map(e => {
        const r = document.createRange(); r.selectNodeContents(e);
        const tops = new Set([...r.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top)));
        return [tops.size, e.textContent.trim().split(/\\s+/).length]; })""")
    assert counts and all(lines <= words for lines, words in counts), counts
    context.close()


def test_the_fix_sheet_s_pinned_save_bar_keeps_to_a_third_of_the_phone(page: Page, live_server: str):
    """A tester's Fix in a game of four: Ana's red raised by 1 while Ben, Cleo and Dev hold red
    made the pinned bar a refusal, "Make it add up" and "Fix Ben/Cleo first" (385 px of 844),
    over the supply's counts. Its preview scrolls within a quarter of the screen: the bar stays
    under a third of it, the refusal's sentence in sight and the save below it."""
    gid = page.request.post(live_server + "/api/games", data={
        "game": "splendor", "players": ["Ana", "Ben", "Cleo", "Dev"], "first_player": 0,
        "nobles": ["N-01", "N-02", "N-03", "N-04", "N-05"]}).json()["id"]
    for seat in range(4):
        page.request.post(f"{live_server}/api/games/{gid}/events", data={
            "type": "take_tokens", "player": seat, "tokens": {"red": 1, "blue": 1, "green": 1}})
    page.goto(f"{live_server}/games/{gid}")
    table = Table(page)
    table.open("correction")
    page.wait_for_function("() => { const p = document.querySelector('#fix-preview');"
                           " return !!p && !!p['htmx-internal-data'] && !document.querySelector('.htmx-settling, .htmx-request'); }")
    page.locator('#sheet input[name$="-red"]').first.fill("2")
    expect(page.locator("#fix-preview .fix-transfer").first).to_be_attached()
    page.wait_for_timeout(200)
    bar = page.locator("#sheet .fix-save").bounding_box()
    assert bar["height"] <= 844 / 3, bar
    expect(page.locator("#fix-preview .preview-error")).to_be_in_viewport()
    expect(page.locator("#sheet .fix-save button.save")).to_be_in_viewport()
    # the suggestions are all there, one scroll of the preview away
    assert page.evaluate("() => { const p = document.querySelector('#fix-preview'); return p.scrollHeight > p.clientHeight; }")
    # saved as it is, refused: the bar lets go and every repair reads whole under the refusal (in
    # the quarter-screen box "Fix Ben first" was cut off, its button out of sight: the re-tester)
    page.locator("#sheet .fix-save button.save").click()
    expect(page.locator("#entry-error")).not_to_be_empty()
    assert page.evaluate("() => { const p = document.querySelector('#fix-preview'); return p.scrollHeight <= p.clientHeight + 1; }")
    for link in page.locator("#fix-preview .fix-transfer a").all():
        link.scroll_into_view_if_needed()
        expect(link).to_be_in_viewport(ratio=1)
    # typing a count again: the refusal goes, the bar is pinned and kept to its share again
    page.locator('#sheet input[name$="-red"]').first.fill("3")
    expect(page.locator("#entry-error")).to_be_empty()
    expect(page.locator("#sheet .fix-save")).to_have_css("position", "sticky")


def test_on_a_320_px_phone_the_discard_s_seven_kinds_are_44_px_wide(browser, live_server: str):
    """Five gems, pearl and gold in one row were 36 px each at 320 px (a tester): two rows there,
    each chip 44 px wide or more; one row still at 360 px."""
    at, _due = first_prompt("win-waits-for-discard.json", "discard")
    page = browser.new_page(viewport={"width": 320, "height": 568})
    gid = import_part(page, live_server, "win-waits-for-discard.json", at)
    chips = "[...document.querySelectorAll('[data-sheet=discard] .pick-source .chip-btn')].map(e => e.getBoundingClientRect())"
    for width, rows in ((320, 2), (360, 1)):
        page.set_viewport_size({"width": width, "height": 640})
        page.goto(f"{live_server}/games/{gid}")
        boxes = page.evaluate(chips)
        assert len(boxes) == 7 and min(b["width"] for b in boxes) >= (44 if width == 320 else 40), boxes
        assert len({round(b["y"]) for b in boxes}) == rows and page.evaluate("document.documentElement.scrollWidth") <= width
    page.close()


def test_a_waiting_splendor_panel_keeps_its_facts_on_one_line_at_360_px(browser, live_server: str):
    """A tester: at a table of three on a 360 px phone, a waiting player on 14 prestige with 10
    tokens had "tokens 10/10 ▾" fall to a line of its own, the panel taller than the others."""
    page = browser.new_page(viewport={"width": 360, "height": 740})
    gid = import_part(page, live_server, "splendor-133.json", 92, players=["Ana", "Ben", "Cho"])
    page.goto(f"{live_server}/games/{gid}")
    panel = page.locator("#panel-0")
    expect(panel.locator("[data-field=token-total]")).to_have_text("10")
    expect(panel.locator("[data-field=prestige]")).to_have_text("14")
    tops = panel.locator("header .facts > .fact").evaluate_all("els => els.map(e => e.getBoundingClientRect().top)")
    assert len(tops) == 3 and max(tops) - min(tops) < 4, tops
    page.close()


def test_a_long_other_name_keeps_forget_on_a_390_px_page(page: Page, live_server: str):
    """An operator tester: Cleo renamed to 40 letters and back; under "Other names" the old name
    pushed Forget off the screen (the page 476 px wide), and a tap could not reach it."""
    page.request.post(live_server + "/api/games", data={"game": "duel", "players": ["Cleo", "Ben"], "first_player": 0})
    page.goto(live_server + "/players")
    page.locator("tr[data-player] a", has_text="Cleo").click()
    player_url = page.url
    for name in ("x" * 40, "Cleo"):
        page.locator("details:has(#rename-name) > summary").click()
        page.fill("#rename-name", name)
        page.locator("#rename-name").press("Enter")
        page.wait_for_url(re.compile(re.escape(player_url) + r"(\?.*)?$"))
    page.locator("#other-names > summary").click()
    forget = page.locator("#other-names .alias-list button")
    expect(forget).to_have_count(1)
    box = forget.bounding_box()
    assert box and box["x"] + box["width"] <= 390, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_card_chosen_on_a_small_phone_shows_with_its_payment_and_its_save(browser, live_server: str):
    """A first-time player at 320x568: the grid swapped for the shorter chosen card left the page
    scrolled to its end, the card and its payment above the screen ("Buy this card" alone), and a
    hurried save paid with the tokens the app suggested. The card, its payment and its save show."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "duel-1012.json").read_text())
    context = browser.new_context(viewport={"width": 320, "height": 568}, is_mobile=True, has_touch=True)
    page = context.new_page()
    gid = import_part(page, live_server, "duel-1012.json", 17)  # Player B buys D1-22 with gold next
    page.goto(f"{live_server}/games/{gid}")
    Table(page).open("buy")
    page.locator(f'#sheet [data-card="{log["events"][17]["card"]}"]').first.click()
    save = page.locator("#sheet form button.save")
    expect(save).to_be_visible()
    page.wait_for_timeout(300)
    tabs = page.locator("nav.actions").bounding_box()
    for part in ("#sheet .selected-card .card", "#sheet .selected-card .pay", "#sheet form button.save"):
        box = page.locator(part).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= tabs["y"], (part, box, tabs)
    context.close()


def test_entries_missed_at_once_without_other_alerts_take_a_line_each(page: Page, live_server: str):
    """A tester woke a phone after three entries: its toast ran them on as one paragraph ("…
    On another phone: Ben took 1 blue. Ana bought…": the purchase read as the other phone's too).
    With no other alert beside it, each entry begins a line of its own as well."""
    import json
    from pathlib import Path

    log = json.loads((Path(__file__).parents[1] / "fixtures" / "duel-1012.json").read_text())
    gid = import_part(page, live_server, "duel-1012.json", 0)
    page.goto(f"{live_server}/games/{gid}")
    page.wait_for_function("() => window.htmx !== undefined")
    for event in log["events"][:3]:  # a take, privileges used, a take: no alert among them
        assert page.request.post(f"{live_server}/api/games/{gid}/events", data=event).ok
    expect(page.locator("#game")).to_have_attribute("data-version", "3", timeout=5000)
    expect(page.locator("#alerts .alert")).to_have_count(1)
    parts = page.locator("#alerts .alert-done span[data-player]")
    expect(parts).to_have_count(3)
    lefts = parts.evaluate_all("es => es.map(e => [Math.round(e.getClientRects()[0].left), Math.round(e.getBoundingClientRect().top)])")
    assert lefts[1][0] == lefts[2][0] < lefts[0][0] and lefts[0][1] < lefts[1][1] < lefts[2][1], lefts
