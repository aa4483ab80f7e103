"""Reviewing a finished game on the phone: step back through the turns and read the panels."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tracker.rules import duel
from tracker.rules.events import parse_event

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).parents[1] / "fixtures"


def positions(log: dict) -> dict[int, duel.DuelState]:
    """The position after each turn of a log, by the rules engine (turn 0 is the setup)."""
    events = [parse_event(e, 2) for e in log["events"]]
    out = {0: duel.replay(log, ())}
    for _ev, before, after in duel.steps(log, events):
        out[before.turn] = after
    return out


def expect_panels(page: Page, state: duel.DuelState) -> None:
    for seat, player in enumerate(state.players):
        panel = page.locator(f"#replay #panel-{seat}")
        expect(panel.locator(".player-name")).to_have_text(player.name)
        expect(panel.locator('[aria-label="prestige"]')).to_have_attribute("aria-valuenow", str(player.prestige))
        expect(panel.locator('[aria-label="crowns"]')).to_have_attribute("aria-valuenow", str(player.crowns))
        expect(panel.locator('[data-field="privileges"]')).to_have_text(str(player.privileges))
        expect(panel.locator('[data-field="token-total"]')).to_have_text(f"{player.tokens.total}/10")


def test_a_finished_game_is_stepped_back_turn_by_turn(page: Page, live_server: str, shots: Path):
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    log = {k: v for k, v in log.items() if k not in ("expected", "checkpoints", "source")}
    resp = page.request.post(live_server + "/api/games/import", data=log)
    assert resp.status == 201
    game_id = resp.json()["id"]
    at = positions(log)
    refused = []  # what the page's Content-Security-Policy blocked (htmx settling a style, say)
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)

    # From the victory banner to the review.
    page.goto(f"{live_server}/games/{game_id}")
    page.locator("#review-game").click()
    expect(page.locator("#replay")).to_have_attribute("data-turn", "70")
    expect(page.locator("#replay #panel-0 [aria-label=prestige]")).to_have_attribute("aria-valuenow", "20")
    expect(page.locator("#replay #panel-1 [aria-label=prestige]")).to_have_attribute("aria-valuenow", "11")
    page.screenshot(path=str(shots / "10-review-final.png"))

    page.locator("#step-prev").click()
    expect(page.locator("#replay")).to_have_attribute("data-turn", "69")
    expect(page).to_have_url(f"{live_server}/games/{game_id}/review?turn=69")
    expect_panels(page, at[69])

    page.locator("#jump-turn").fill("40")
    page.locator("#jump-go").click()
    expect(page.locator("#replay")).to_have_attribute("data-turn", "40")
    expect(page.locator("#moment h2")).to_contain_text("After turn 40")
    expect_panels(page, at[40])
    expect(page.locator('[data-chart-value="prestige-0"]')).to_have_text(str(at[40].players[0].prestige))
    page.screenshot(path=str(shots / "11-review-turn-40.png"))

    page.locator("#step-next").click()
    expect(page.locator("#replay")).to_have_attribute("data-turn", "41")
    expect_panels(page, at[41])
    # read out as sentences: the heading, then each line, never run together ("…green.Gus bought")
    expect(page.locator("#announcer")).to_contain_text("After turn 41")
    said = page.locator("#announcer").inner_text()
    assert not re.search(r"\.[A-Z]", said), said

    page.locator("#turn-12 .turn-link").click()
    expect(page.locator("#replay")).to_have_attribute("data-turn", "12")
    expect_panels(page, at[12])
    expect(page).to_have_url(f"{live_server}/games/{game_id}/review?turn=12")  # a reload or a link stays here
    page.screenshot(path=str(shots / "12-review-charts.png"), full_page=True)
    # One Back leaves the review for the page it was opened from (a tester: 7 Backs after looking
    # through a 70-turn game, one turn at a time)
    page.go_back()
    expect(page).to_have_url(f"{live_server}/games/{game_id}")
    assert refused == []


def _seoul_phone_with_a_game(browser, live_server: str, started: str, locale: str):  # type: ignore[no-untyped-def]
    """A new phone in Seoul (no time zone cookie yet) and a finished game begun at ``started``."""
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    log = {k: v for k, v in log.items() if k not in ("expected", "checkpoints", "source")}
    log["started"] = started
    context = browser.new_context(viewport={"width": 390, "height": 844}, timezone_id="Asia/Seoul", locale=locale)
    page = context.new_page()
    assert page.request.post(live_server + "/api/games/import", data=log).status == 201
    return context, page


def test_a_phones_first_look_at_the_history_is_in_its_own_time_zone(browser, live_server: str):
    """The first page a new phone opens was drawn before the server knew its zone: it is drawn
    again at once in the phone's zone (23:30 UTC on Sunday is 08:30 on Monday in Seoul)."""
    context, page = _seoul_phone_with_a_game(browser, live_server, "2026-11-08T23:30:00Z", "en-US")
    page.goto(live_server + "/history")
    expect(page.locator(".night-head .day").first).to_have_text("Monday, November 9, 2026")
    expect(page.locator(".game-row time").first).to_have_text("8:30\u202fAM")
    context.close()


def test_a_phones_first_look_at_the_home_page_is_in_its_own_time_zone(browser, live_server: str):
    """A Korean tester's first visit: the home page's games said 오전 5:17 for a game begun at
    오후 2:17 in Seoul (the server's UTC) until a second page load."""
    context, page = _seoul_phone_with_a_game(browser, live_server, "2026-11-08T05:17:00Z", "ko-KR")
    page.goto(live_server + "/")
    expect(page.locator(".resume .when time").first).to_contain_text("오후 2:17")
    context.close()


def test_a_korean_phone_imports_a_log_with_the_apps_own_file_button(browser, live_server: str, shots: Path):
    """History's import said the browser's own "Choose File" / "No file chosen" (in the
    browser's language, whatever the app's): its button and the chosen file's name are the app's."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ko-KR")
    page = context.new_page()
    page.goto(live_server + "/history")
    # no file: the app's refusal in the app's language (the browser's "Please select a file" was its own)
    page.locator(".import-form button[type=submit]").click()
    expect(page.locator("#import-error")).to_have_text("이 앱에서 내보낸 JSON 파일(게임 기록 하나 또는 지난 게임 전체)을 고르세요. 아무것도 가져오지 않았습니다.")
    page.goto(live_server + "/history")
    pick = page.locator(".file-pick")
    expect(pick.locator(".button")).to_have_text("파일 선택")
    expect(pick.locator("[data-file-name]")).to_have_text("선택한 파일 없음")
    box = page.locator("#import-file").bounding_box()
    assert box is not None and box["width"] <= 1  # the browser's own button is not shown
    with page.expect_file_chooser() as chooser:
        pick.locator(".button").click()
    chooser.value.set_files(str(FIXTURES / "duel-1012.json"))
    expect(pick.locator("[data-file-name]")).to_have_text("duel-1012.json")
    # away and Back: the file the browser kept is named again (it said "No file chosen")
    page.goto(live_server + "/players")
    page.go_back()
    if page.locator("#import-file").evaluate("i => i.files.length"):
        expect(pick.locator("[data-file-name]")).to_have_text("duel-1012.json")
    else:
        expect(pick.locator("[data-file-name]")).to_have_text("선택한 파일 없음")
        page.locator("#import-file").set_input_files(str(FIXTURES / "duel-1012.json"))
    page.locator("#import-file").focus()
    page.screenshot(path=str(shots / "history-import-ko.png"))
    page.locator(".import-form button[type=submit]").click()
    expect(page.locator("#import-result")).to_have_text("게임 1개를 가져왔습니다.")
    expect(page.locator(".game-row")).to_have_count(1)
    context.close()


def test_head_to_head_line_goes_when_the_player_filter_leaves_it(page: Page, live_server: str):
    """A tester: from a player's head-to-head count, History said "Only the games with Jun"; the
    Player filter set to "everyone" listed everyone's games under that line still, and its
    "All their games" put the player back. The line (and the filter it stands for) is drawn with
    the games, so it goes with the change."""
    from tests.web.helpers import fixture_log

    for n, started in enumerate(("2026-10-01T19:00:00Z", "2026-10-02T19:00:00Z")):
        log = fixture_log("duel-1012.json", ["Yuna", "Jaewon" if n else "Minho"], started)
        assert page.request.post(live_server + "/api/games/import", data=log).status == 201
    ids = {o.inner_text(): o.get_attribute("value") for o in
           page.goto(live_server + "/history") and page.locator("#filter-player option").all()}
    page.goto(f"{live_server}/history?player={ids['Yuna']}&kind=duel&with={ids['Jaewon']}")
    expect(page.locator("#filter-with")).to_have_text(re.compile("Only the games with Jaewon"))
    expect(page.locator("#games .game-row")).to_have_count(1)
    # a filter applies as it changes: no "Show" to tap after it (it made a second step for Back)
    expect(page.locator(".history-filters .apply")).to_be_hidden()
    page.locator("#filter-player").select_option("")
    expect(page.locator("#filter-with")).to_have_count(0)
    expect(page).not_to_have_url(re.compile("with="))
    assert page.locator("#games .game-row").count() >= 2  # everyone's Duels, both of Yuna's among them
    page.locator("#filter-player").select_option(ids["Yuna"])  # the player again: both of theirs, no line
    expect(page.locator("#games .game-row")).to_have_count(2)
    expect(page.locator("#filter-with")).to_have_count(0)


def test_a_phones_first_look_at_a_won_game_tallies_its_own_night(browser, live_server: str):
    """A tester's new phone opened a finished game first: its banner's "Tonight" tally counted
    the nights of the server's zone (a game at 6:10 a.m. there was another night where the
    phone is) until a reload. Two games in Seoul at 5:30 and 6:30 a.m. on Monday are two nights
    there (the night ends at 6), one in UTC (20:30 and 21:30 on Sunday): the second one's banner,
    drawn again in Seoul's zone at once, has no tally of two games."""
    context, page = _seoul_phone_with_a_game(browser, live_server, "2026-11-08T20:30:00Z", "en-US")
    log = json.loads((FIXTURES / "duel-1012.json").read_text())
    log = {k: v for k, v in log.items() if k not in ("expected", "checkpoints", "source", "id")}
    resp = page.request.post(live_server + "/api/games/import", data={**log, "started": "2026-11-08T21:30:00Z"})
    assert resp.status == 201
    page.goto(f"{live_server}/games/{resp.json()['id']}")
    expect(page.locator("#victory")).to_be_visible()
    page.wait_for_load_state("load")
    assert "tz=Asia/Seoul" in page.evaluate("document.cookie")
    expect(page.locator("#victory-title")).to_be_visible()
    expect(page.locator("#victory-tally")).to_have_count(0)
    # in the server's zone (UTC) the two are one night: the tally is there
    utc = browser.new_context(viewport={"width": 390, "height": 844}, timezone_id="UTC")
    other = utc.new_page()
    other.goto(f"{live_server}/games/{resp.json()['id']}")
    expect(other.locator("#victory-tally")).to_contain_text("2 – 0")
    utc.close()
    context.close()
