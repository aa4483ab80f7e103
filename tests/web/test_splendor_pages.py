"""The Splendor screens: setup form with nobles, 2–4 panels, noble choice, final round, ranking."""

from __future__ import annotations

import html
import json
import re

import pytest
from helpers import load_fixture
from tables import stuck_splendor

from tracker.rules import splendor_autoplay
from tracker.rules.events import event_to_dict

HX = {"HX-Request": "true"}


def import_log(client, log: dict, upto: int | None = None) -> dict:
    body = {k: log[k] for k in ("players", "first_player", "nobles")}
    events = log["events"] if upto is None else log["events"][:upto]
    result = log.get("result") if upto is None else None
    body.update({"format": "splendor-tracker/1", "game": "splendor", "events": events, "result": result})
    resp = client.post("/api/games/import", json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def generated(seed: int, players: int) -> dict:
    setup, events, state = splendor_autoplay.play(seed, players=players)
    winner = {"players": list(state.winner.players), "prestige": state.winner.prestige, "cards": state.winner.cards}
    return {**setup, "events": [event_to_dict(e) for e in events], "result": {"winner": winner, "turns": state.turn}}


def test_a_splendor_game_starts_from_the_form_with_its_nobles(client):
    form = {"game": "splendor", "player0": "Ana", "player1": "Ben", "player2": "Cho", "player3": "",
            "first": "2", "noble": ["N-01", "N-05", "N-07", "N-10"]}
    resp = client.post("/games", data=form)
    assert resp.status_code == 303
    game_id = resp.headers["Location"].rsplit("/", 1)[-1]
    state = client.get(f"/api/games/{game_id}").get_json()
    assert [p["name"] for p in state["players"]] == ["Ana", "Ben", "Cho"] and state["current_player"] == 2
    assert state["nobles_available"] == ["N-01", "N-05", "N-07", "N-10"]
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert page.count('class="panel spanel') == 3 and "Cho's turn" in page and 'id="action-privileges"' not in page
    # S-4: the start player is marked, the one before whom the final round ends (a tester: not shown)
    assert page.count('class="start-mark"') == 1
    assert re.search(r'id="panel-2".*?<h2 class="player-name">Cho <span class="start-mark"', page, re.S)


def test_the_wrong_number_of_nobles_is_refused_with_a_message(client):
    form = {"game": "splendor", "player0": "Ana", "player1": "Ben", "first": "0", "noble": ["N-01", "N-02"]}
    resp = client.post("/games", data=form)
    assert resp.status_code == 422 and "3 different nobles" in resp.get_data(as_text=True)
    assert client.get("/api/games").get_json() == []
    # said at the nobles, with the two taps kept (a tester found the sentence at the top of the
    # form, far from the grid); any other refusal stays at the top
    page = resp.get_data(as_text=True)
    grid = page.split('<fieldset class="noble-grid splendor-only" id="nobles" aria-describedby="noble-error">')[1].split("</fieldset>")[0]
    assert '<p class="error-message" role="alert" id="noble-error" data-into-view>Enter the 3 different nobles on display (players + 1).</p>' in grid
    assert page.count('class="error-message"') == 1
    assert re.findall(r'value="(N-\d+)" checked', page) == ["N-01", "N-02"]
    unknown = client.post("/games", data={**form, "noble": ["N-01", "N-02", "N-99"]}).get_data(as_text=True)
    assert 'id="noble-error" data-into-view>There is no noble N-99' in unknown
    other = client.post("/games", data={**form, "player1": "", "noble": ["N-01", "N-02", "N-03"]}).get_data(as_text=True)
    assert 'id="noble-error"' not in other and 'aria-describedby="noble-error"' not in other
    assert other.count('class="error-message"') == 1


def test_the_home_page_shows_the_ten_nobles_to_pick(client):
    page = client.get("/").get_data(as_text=True)
    assert page.count('name="noble"') == 10 and 'value="splendor"' in page


def test_the_final_round_names_who_still_plays(client):
    log = load_fixture("splendor-133.json")
    # Find the first event after which the final round is on, then look at the screen.
    for upto in range(60, len(log["events"])):
        state = import_log(client, log, upto)
        if state["final_round"] and state["status"] == "active":
            break
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert 'id="final-round"' in page and "still to play" in page
    current = state["players"][state["current_player"]]["name"]
    banner = page.split('id="final-round"')[1].split("</section>")[0]
    assert current in banner
    # S-4: who would win were the round over now (a tester: told only by the victory banner)
    players = state["players"]
    best = max(players, key=lambda p: (p["prestige"], -len(p["cards"])))
    assert f'<span class="final-leader">leading: {best["name"]}, {best["prestige"]} prestige' in html.unescape(banner)


def test_the_final_round_leader_is_told_by_prestige_then_fewest_cards_then_level():
    """S-4 on the final round's banner: the most prestige leads; a prestige tie is led by the
    fewest development cards; a tie on both is a shared lead."""
    from tracker.screen import final_round_leader

    class P:
        def __init__(self, name, prestige, cards):
            self.name, self.prestige, self.cards = name, prestige, [None] * cards

    class S:
        final_round, winner = True, None

        def __init__(self, *players):
            self.players = players

    assert final_round_leader(S(P("Ana", 16, 12), P("Ben", 15, 9))) == {
        "names": ["Ana"], "prestige": 16, "cards": 12, "by_cards": False}
    assert final_round_leader(S(P("Ana", 15, 16), P("Ben", 10, 9), P("Cho", 15, 10))) == {
        "names": ["Cho"], "prestige": 15, "cards": 10, "by_cards": True}
    assert final_round_leader(S(P("Ana", 15, 10), P("Ben", 15, 10), P("Cho", 3, 2))) == {
        "names": ["Ana", "Ben"], "prestige": 15, "cards": 10, "by_cards": False}
    S.final_round = False
    assert final_round_leader(S(P("Ana", 15, 10), P("Ben", 1, 1))) is None


def test_a_finished_game_ranks_players_and_names_the_winner(client):
    log = load_fixture("splendor-153.json")
    state = import_log(client, log)
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert 'id="ranking"' in page and "Player B wins!" in page
    assert "<strong>Game over</strong> · Player B won" in page  # the turn line says it too, as a Duel's does
    assert page.index('data-seat="1"', page.index('id="ranking"')) < page.index('data-seat="0"', page.index('id="ranking"'))


def test_a_tie_on_prestige_is_decided_by_fewest_cards_and_explained(client):
    state = import_log(client, generated(8, 3))
    assert len(state["winner"]["players"]) == 1
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert 'id="tie-note"' in page and "fewest development cards wins" in page
    # the log's last line (and the preview of the entry that ended it) says the tie-break too
    winner = state["winner"]
    seat = winner["players"][0]
    tied = [p["name"] for i, p in enumerate(state["players"]) if p["prestige"] == winner["prestige"] and i != seat]
    assert tied
    log = client.get(f"/games/{state['id']}/log").get_data(as_text=True)
    assert (f"Game over: {state['players'][seat]['name']} wins with {winner['prestige']} prestige, tied with "
            f"{', '.join(tied)} but with fewer development cards ({winner['cards']}).") in log
    # History and the review say it too (S-4), and a win on prestige alone does not
    history = client.get("/history?kind=splendor").get_data(as_text=True)
    row = history.split(f'data-game="{state["id"]}"')[1].split("</li>")[0]
    assert 'data-field="tie-break"' in row and "(tie-break: fewer development cards)" in row
    review = client.get(f"/games/{state['id']}/review").get_data(as_text=True)
    assert 'data-field="tie-break"' in review.split('class="meta"')[1].split("</p>")[0]
    plain = import_log(client, load_fixture("splendor-153.json"))
    assert 'data-field="tie-break"' not in client.get(f"/games/{plain['id']}/review").get_data(as_text=True)
    history = client.get("/history?kind=splendor").get_data(as_text=True)
    assert 'data-field="tie-break"' not in history.split(f'data-game="{plain["id"]}"')[1].split("</li>")[0]


def test_a_full_tie_is_a_shared_win(client):
    state = import_log(client, generated(3, 2))
    assert len(state["winner"]["players"]) == 2
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert "Shared win" in page and "the win is shared" in page


def test_the_noble_choice_opens_when_several_qualify(client):
    log = load_fixture("splendor-153.json")
    at = next(i for i, e in enumerate(log["events"]) if e["type"] == "take_noble")
    state = import_log(client, log, at)
    assert state["pending"]["kind"] == "noble"
    body = client.get(f"/games/{state['id']}", headers=HX).get_data(as_text=True)
    assert 'data-sheet="noble"' in body and "Several nobles can visit" in body
    assert "One noble a turn: the others stay and may visit on a later turn." in body
    for noble in state["pending"]["choices"]:
        assert f'data-noble="{noble}"' in body
    # each choice says what saving records, as every other save does (the game's end too)
    assert len(re.findall(r'<p class="preview"[^>]*>Saving will record: ', body)) == len(state["pending"]["choices"])
    # each choice's refusal has its own place (a tester: every form's was id="entry-error")
    ids = re.findall(r'(?<![\w-])id="([^"]+)"', body)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    for noble in state["pending"]["choices"]:
        assert f'id="entry-form-{noble}"' in body and f'id="entry-error-{noble}"' in body
    chosen = state["pending"]["choices"][-1]
    out_of_reach = next(n for n in state["nobles_available"] if n not in state["pending"]["choices"])
    refused = client.post(f"/games/{state['id']}/events", headers={**HX, "HX-Trigger": f"entry-form-{chosen}"}, data={
        "event": json.dumps({"type": "take_noble", "player": state["pending"]["player"], "noble": out_of_reach}),
        "expected_version": str(state["version"])})
    assert refused.status_code == 422 and refused.headers["HX-Retarget"] == f"#entry-error-{chosen}"
    event = {"type": "take_noble", "player": state["pending"]["player"], "noble": log["events"][at]["noble"]}
    assert not re.search(r"\b0 short", body) and "✓</span>" in body  # the qualifying nobles are ready, not "0 short"
    # a noble still out of reach says how many bonuses are missing in words (it read "−3": a negative number?)
    assert re.search(r'bonuses still needed: </span>[1-9]\d* short</small>', body)
    resp = client.post(f"/games/{state['id']}/events", data={"event": json.dumps(event), "expected_version": str(state["version"])},
                       headers=HX)
    assert resp.status_code == 200
    toast = re.search(r'data-kind="done"><span>([^<]*)<', resp.get_data(as_text=True)).group(1)
    from tracker.rules import catalog
    tile = " ".join(f"{'WUGRK'['white blue green red black'.split().index(k)]}{n}"
                    for k, n in catalog.nobles()[event["noble"]].requires.items() if n)
    # said once (not again as "visits"), by its requirement as on the tile, not by its catalogue id
    assert toast.count(tile) == 1 and f"welcomed noble {tile} (+3 prestige)" in toast and event["noble"] not in toast
    # and no second toast of the same visit (the alert is read out, not drawn)
    drawn = re.findall(r'<p class="alert alert-(\w+)"', resp.get_data(as_text=True))
    assert "noble_visit" not in drawn and 'alert-noble_visit visually-hidden' in resp.get_data(as_text=True)


@pytest.mark.parametrize("sheet", ["take", "buy", "reserve", "correction"])
def test_splendor_sheets_render(client, sheet):
    state = import_log(client, load_fixture("splendor-153.json"), 20)
    body = client.get(f"/games/{state['id']}/sheet/{sheet}", headers=HX).get_data(as_text=True)
    assert f'data-sheet="{sheet}"' in body
    if sheet == "take":
        assert 'data-kind="pearl"' not in body
    if sheet == "correction":
        assert 'name="privileges"' not in body and 'name="bag-white"' not in body
    if sheet == "buy":
        assert 'data-card="S1-' in body


def test_a_splendor_correction_from_the_form(client):
    state = import_log(client, load_fixture("splendor-153.json"), 4)
    page = client.get(f"/games/{state['id']}/sheet/correction?p=0", headers=HX).get_data(as_text=True)
    assert 'name="tokens-gold"' in page
    seat_tokens = state["players"][0]["tokens"]
    data = {"type": "correction", "player": "0", "expected_version": str(state["version"]), "note": "miscount"}
    for k in ("white", "blue", "green", "red", "black", "gold"):
        data[f"tokens-{k}"] = data[f"orig-tokens-{k}"] = str(seat_tokens[k])
        data[f"board-{k}"] = data[f"orig-board-{k}"] = str(state["board"][k])
    moved = next(k for k in ("white", "blue", "green", "red", "black") if state["board"][k])
    data[f"tokens-{moved}"] = str(seat_tokens[moved] + 1)
    data[f"board-{moved}"] = str(state["board"][moved] - 1)
    resp = client.post(f"/games/{state['id']}/events", data=data, headers=HX)
    assert resp.status_code == 200
    after = client.get(f"/api/games/{state['id']}").get_json()
    assert after["players"][0]["tokens"][moved] == seat_tokens[moved] + 1


@pytest.mark.parametrize("fixed", [{"board": None}, {"tokens": None, "board": None}, {"tokens": None}])
def test_a_splendor_correction_through_the_api_that_changes_nothing_leaves_the_pages_whole(client, fixed):
    """A tester's API correction setting the supply (or a player's tokens) to what they were was
    stored, and its log sentence then failed (a Splendor player has no privileges): the game
    screen, its poll and its review answered 500, Undo out of reach on the phone."""
    log = load_fixture("splendor-153.json")
    state = import_log(client, log, 4)
    values = {"board": state["board"], "tokens": state["players"][0]["tokens"]}
    fix = {k: (values[k] if v is None else v) for k, v in fixed.items()}
    correction = {"type": "correction", "player": 0, "set": fix}
    # a new one is refused now (an adversarial tester: a version and a log line for nothing) ...
    resp = client.post(f"/api/games/{state['id']}/events", json=correction)
    assert resp.status_code == 422 and resp.get_json()["error"]["message"].startswith("Nothing to correct")
    # ... but a game that recorded one before still loads whole
    state = import_log(client, {**log, "players": ["Cy", "Di"], "events": log["events"][:4] + [correction]}, 5)
    for path in ("", "/review", f"/poll?v={state['version'] - 1}&n=4"):
        page = client.get(f"/games/{state['id']}{path}", headers=HX if "poll" in path else {})
        assert page.status_code == 200, path
    assert "Correction of the table: no change." in client.get(f"/games/{state['id']}").get_data(as_text=True)


def test_classic_splendor_says_prestige_with_its_own_korean_word(client):
    """GLOSSARY.md: Duel's prestige is 위신, classic Splendor's 명성 (the near-win warning and the
    buy preview of a Splendor screen)."""
    import flask_babel

    log = load_fixture("splendor-153.json")
    state = import_log(client, log, len(log["events"]) - 6)  # near the end: somebody is near 15
    flask_babel.refresh()
    body = client.get(f"/games/{state['id']}", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert "명성" in body and "위신" not in body


def test_a_player_who_can_take_no_action_passes_from_the_take_sheet(client):
    """No gem left in the supply and 3 cards reserved: the take sheet offers Pass, and the turn
    goes on (S-2 ruling; random games found such a table). Earlier, passing is refused."""
    def create(setup: dict) -> str:
        return client.post("/api/games", json=setup).get_json()["id"]

    def post(gid: str, event: dict) -> None:
        assert client.post(f"/api/games/{gid}/events", json=event).status_code == 200, event

    fresh = create({"game": "splendor", "players": ["Ana", "Ben", "Cho"], "first_player": 0,
                    "nobles": ["N-01", "N-02", "N-03", "N-04"]})
    refused = client.post(f"/api/games/{fresh}/events", json={"type": "pass", "player": 0})
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "pass_not_allowed"
    gid = stuck_splendor(create, post, lambda gid: client.get(f"/api/games/{gid}").get_json())
    state = client.get(f"/api/games/{gid}").get_json()
    assert state["current_player"] == 0 and not any(state["board"].values())
    sheet = client.get(f"/games/{gid}/sheet/take", headers=HX).get_data(as_text=True)
    assert 'data-type="pass"' in sheet and "No gem is left to take" in sheet
    resp = client.post(f"/games/{gid}/events", headers=HX,
                       data={"event": json.dumps({"type": "pass", "player": 0}), "expected_version": str(state["version"])})
    assert resp.status_code == 200 and "Ana could take no action and passed." in resp.get_data(as_text=True)
    assert client.get(f"/api/games/{gid}").get_json()["current_player"] == 1


def test_with_no_gem_and_three_reserved_the_take_sheet_says_to_buy(client):
    """A tester: no gem in the supply, Ana's 3 reserved cards, one she can pay for (S1-01, 3
    blue): no Pass, rightly, but the take sheet said "buy or reserve a card", and a 4th reserve
    is refused (S-2.3)."""
    def create(setup: dict) -> str:
        return client.post("/api/games", json=setup).get_json()["id"]

    def post(gid: str, event: dict) -> None:
        assert client.post(f"/api/games/{gid}/events", json=event).status_code == 200, event

    gid = stuck_splendor(create, post, lambda gid: client.get(f"/api/games/{gid}").get_json(), named="S1-01")
    state = client.get(f"/api/games/{gid}").get_json()
    assert state["current_player"] == 0 and not any(state["board"][k] for k in ("white", "blue", "green", "red", "black"))
    sheet = client.get(f"/games/{gid}/sheet/take", headers=HX).get_data(as_text=True)
    assert 'data-type="pass"' not in sheet
    assert "No gem is left to take: buy a card." in sheet and "or reserve" not in sheet
    # the heading says so too, not "takes 3 different gems or 2 alike" above five empty chips
    heading = re.search(r'<h3 class="sheet-for">([^<]*)</h3>', sheet)[1]
    assert heading == "Ana cannot take a gem: none is left", heading



def test_splendor_tokens_go_back_to_the_supply_not_a_bag(client):
    """S-3.1: classic Splendor has no bag; the discard prompt and the log say "supply"."""
    gid = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                          "nobles": ["N-01", "N-02", "N-03"]}).get_json()["id"]
    tens = {"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2}
    fix = {"type": "correction", "player": 0, "set": {"tokens": tens,
           "board": {"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2, "gold": 5}}}
    assert client.post(f"/api/games/{gid}/events", json=fix).status_code == 200
    take = {"type": "take_tokens", "player": 0, "tokens": {"white": 1, "blue": 1, "green": 1}}
    assert client.post(f"/api/games/{gid}/events", json=take).get_json()["pending"]["kind"] == "discard"
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert "Tap the tokens returned to the supply" in page and "to the bag" not in page
    back = {"type": "discard", "player": 0, "tokens": {"white": 1, "blue": 1, "green": 1}}
    assert client.post(f"/api/games/{gid}/events", json=back).status_code == 200
    log = client.get(f"/games/{gid}/log", headers=HX).get_data(as_text=True)
    assert "Ana returned 1 white, 1 blue, 1 green to the supply." in log


def test_a_shared_win_ranks_both_winners_first(client):
    """S-4: tied on prestige and on cards, the winners share first place: both are ranked 1."""
    from types import SimpleNamespace

    from tracker.screen import ranking

    players = [SimpleNamespace(name=n, prestige=p, cards=[0] * c) for n, p, c in
               (("Ana", 15, 9), ("Ben", 15, 9), ("Cho", 12, 7), ("Dee", 12, 8))]
    state = SimpleNamespace(players=players, winner=SimpleNamespace(players=(0, 1)))
    assert [(r["name"], r["rank"]) for r in ranking(state)] == [("Ana", 1), ("Ben", 1), ("Cho", 3), ("Dee", 4)]


def test_an_empty_deck_is_shown_as_empty_never_as_a_negative_count(client, monkeypatch):
    """The reserve sheet's secret-card buttons: a deck with no card left (the face-up slots
    then stay empty) says "deck empty" and cannot be tapped; never "(-4)"."""
    from tracker.rules import splendor

    gid = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                          "nobles": ["N-01", "N-02", "N-03"]}).get_json()["id"]
    monkeypatch.setattr(splendor.SplendorState, "deck_left", lambda self, level: -4 if level == 1 else 20)
    sheet = client.get(f"/games/{gid}/sheet/reserve", headers=HX).get_data(as_text=True)
    assert "(-4)" not in sheet and "(deck empty)" in sheet
    assert re.search(r'<span class="small-btn secret disabled" id="secret-1"', sheet)
    assert re.search(r'<a class="small-btn secret" id="secret-2"', sheet)


def test_four_panels_show_one_nearest_noble_each_so_the_token_chips_fit_the_screen(client):
    """At four players each panel names its one nearest noble (two at 2–3 players): the four
    panels and the take sheet's chips then fit a 390×844 screen above the action tabs."""
    for players, shown in ((["Ana", "Ben", "Cho", "Dee"], 1), (["Ana", "Ben", "Cho"], 2)):
        gid = client.post("/api/games", json={"game": "splendor", "players": players, "first_player": 0,
                                              "nobles": ["N-01", "N-02", "N-03", "N-04", "N-05"][:len(players) + 1]}
                          ).get_json()["id"]
        page = client.get(f"/games/{gid}").get_data(as_text=True)
        rows = re.findall(r'<div class="noble-row">(.*?)</div>', page, re.S)
        assert len(rows) == len(players)
        assert all(row.split("nearest", 1)[1].count('class="noble"') == shown for row in rows), rows[0]


def test_a_splendor_fix_names_the_supply_and_exports_no_pearls(client):
    """Classic Splendor's tokens lie in the supply (GLOSSARY: 공급처), not on a board: the Fix form
    and the log say so; its correction is exported without the pearls the game does not have."""
    gid = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                          "nobles": ["N-01", "N-02", "N-03"]}).get_json()["id"]
    sheet = client.get(f"/games/{gid}/sheet/correction", headers=HX).get_data(as_text=True)
    assert "<legend>supply</legend>" in sheet and "<legend>board</legend>" not in sheet and "pearl" not in sheet
    fix = {"type": "correction", "player": 0, "set": {"tokens": {"white": 1},
           "board": {"white": 3, "blue": 4, "green": 4, "red": 4, "black": 4, "gold": 5}}}
    assert client.post(f"/api/games/{gid}/events", json=fix).status_code == 200
    log = client.get(f"/games/{gid}/log", headers=HX).get_data(as_text=True)
    assert "Correction for Ana: tokens: white 0 → 1; supply: white 4 → 3." in log
    stored = client.get(f"/api/games/{gid}/log").get_json()["events"][0]["set"]
    assert "pearl" not in stored["tokens"] and "pearl" not in stored["board"]
    assert stored["board"] == {"white": 3, "blue": 4, "green": 4, "red": 4, "black": 4, "gold": 5}


def test_the_screen_counts_rounds_as_the_table_does(client):
    """Three players: turn 76 is in round 26 (every player plays once a round, S-4); the final
    ranking says 32 rounds of the 96 turns."""
    log = load_fixture("splendor-133.json")
    body = {k: log[k] for k in ("format", "game", "players", "first_player", "nobles")}
    state = client.post("/api/games/import", json={**body, "events": log["events"][:75], "result": None}).get_json()
    assert state["turn"] == 76
    assert "round 26 · turn 76" in client.get(f"/games/{state['id']}").get_data(as_text=True)
    whole = {k: v for k, v in log.items() if k not in ("expected", "checkpoints", "source")}
    done = client.post("/api/games/import", json=whole).get_json()
    assert "32 rounds · 96 turns" in client.get(f"/games/{done['id']}").get_data(as_text=True)


def test_the_preview_of_a_buy_says_the_noble_choice_and_the_log_counts_the_noble_in_the_total(app, client):
    """S-3.2: the buy after which several nobles qualify previews the choice it opens; a buy a
    single noble follows says its prestige includes that noble's points (not on top of them)."""
    from tracker import screen, service

    log = load_fixture("splendor-153.json")
    at = next(i for i, e in enumerate(log["events"]) if e["type"] == "take_noble")
    state = import_log(client, log, at - 1)
    with app.test_request_context("/"):
        preview = screen.preview(service.load(state["id"]), log["events"][at - 1])
    assert preview.ok and " chooses the noble who visits: " in preview.text, preview.text
    assert "N-0" not in preview.text and "N-1" not in preview.text  # the tiles as the table sees them
    full = import_log(client, log)
    lines = client.get(f"/games/{full['id']}/log").get_data(as_text=True)
    included = re.findall(r"prestige (\d+) → (\d+) \(the noble&#39;s (\d) included\)", lines)
    assert included and all(int(a) + int(n) <= int(b) for a, b, n in included), included


def test_a_take_on_its_way_to_three_colours_or_two_alike_is_no_refusal_yet(client):
    """S-2.1/S-2.2: one red, or red and blue, are steps towards a legal take: the sheet says how
    to go on (no refusal box); the save stays unusable until the pick is legal."""
    state = import_log(client, load_fixture("splendor-153.json"), 0)
    url = f"/games/{state['id']}/sheet/take"
    one = client.get(url + "?t=red", headers=HX).get_data(as_text=True)
    assert '<p class="preview preview-hint">Go on: two more colours, or one more red for 2 alike.</p>' in _no_ids(one)
    assert "preview-error" not in one and 'aria-disabled="true"' in one
    two = client.get(url + "?t=red&t=blue", headers=HX).get_data(as_text=True)
    assert '<p class="preview preview-hint">Go on: one more colour.</p>' in _no_ids(two)
    alike = client.get(url + "?t=red&t=red", headers=HX).get_data(as_text=True)
    assert "Saving will record:" in alike and "preview-hint" not in alike
    wrong = client.get(url + "?t=red&t=red&t=blue", headers=HX).get_data(as_text=True)
    assert "preview-error" in wrong and "preview-hint" not in wrong
    # a colour with 3 left: its chip goes grey after one, and the hint says why (S-2.2; a family
    # wondered why they could not tap it again)
    gid = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                          "nobles": ["N-01", "N-02", "N-03"]}).get_json()["id"]
    assert client.post(f"/api/games/{gid}/events", json={"type": "take_tokens", "player": 0,
                                                         "tokens": {"red": 1, "blue": 1, "green": 1}}).status_code == 200
    said = client.get(f"/games/{gid}/sheet/take?t=red", headers=HX).get_data(as_text=True)
    assert ('<p class="preview preview-hint">Go on: two more colours (2 alike need at least 4 red in the supply; '
            'there are 3).</p>') in _no_ids(said)


def test_the_take_sheet_chips_stop_where_no_gem_can_complete_the_take(client):
    """S-2.1/S-2.2: a tester tapped red three times before the refusal; the chips now stop at a
    pick no further gem can make legal (2 players: 4 of each gem in the supply)."""
    gid = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                          "nobles": ["N-01", "N-02", "N-03"]}).get_json()["id"]

    def addable(query: str) -> set[str]:
        sheet = client.get(f"/games/{gid}/sheet/take?{query}", headers=HX).get_data(as_text=True)
        return set(re.findall(r'id="add-(\w+)"', sheet))

    gems = {"white", "blue", "green", "red", "black"}
    assert addable("") == gems
    assert addable("t=red") == gems  # red again: 2 alike from 4
    assert addable("t=red&t=red") == set()  # 2 alike is a whole take
    assert addable("t=red&t=blue") == gems - {"red", "blue"}
    assert addable("t=red&t=blue&t=green") == set()
    # a Duel keeps every chip until 3 (three alike is a Duel take: D-5)
    duel = client.post("/api/games", json={"game": "duel", "players": ["Ana", "Ben"], "first_player": 0}).get_json()["id"]
    sheet = client.get(f"/games/{duel}/sheet/take?t=red&t=red", headers=HX).get_data(as_text=True)
    assert 'id="add-red"' in sheet and '<span class="pick-count">2/3</span>' in sheet


def test_two_alike_count_as_a_whole_take(client):
    """A tester read "2/3" after two whites and looked for a third: 2 alike are a whole take (S-2.2)."""
    gid = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                          "nobles": ["N-01", "N-02", "N-03"]}).get_json()["id"]

    def count(query: str) -> str:
        sheet = client.get(f"/games/{gid}/sheet/take?{query}", headers=HX).get_data(as_text=True)
        return re.search(r'<span class="pick-count">([^<]*)</span>', sheet)[1]

    assert [count(q) for q in ("", "t=white", "t=white&t=white", "t=white&t=blue", "t=white&t=blue&t=red")] == [
        "0/3", "1/3", "2/2", "2/3", "3/3"]


def test_one_phone_each_in_classic_splendor(client):
    """Four friends, four phones: Settings offered "this phone is…" only in a Duel, so every
    phone showed the Take, Buy and Reserve controls and the prompts of whoever was to act (and a
    second phone saved a turn for its player). Each phone names its player; another player's
    turn waits behind "… plays on their phone" (with "Enter it here"); the phone's panel is marked."""
    log = load_fixture("splendor-153.json")
    names = ["Ana", "Ben", "Cho", "Dan"][: len(log["players"])]
    state = import_log(client, {**log, "players": names}, 4)
    gid, current = state["id"], state["current_player"]
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="settings-mine"' in page and "This phone is" in page
    assert re.findall(r'id="mine-(\w+)" href="/settings\?mine=([^&"]*)', page) == \
        [("auto", "")] + [(str(i), n) for i, n in enumerate(names)]
    assert re.search(r'<body[^>]*class="[^"]*\bmine-', page) is None
    other = (current + 1) % len(names)
    assert client.get(f"/settings?mine={names[other]}&next=/games/{gid}").status_code == 303
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert re.search(rf'<body[^>]*class="[^"]*\bmine-{other}\b', page)
    assert f"{names[current]} plays on their phone." in page and "Enter it here" in page
    assert re.search(rf'<a class="small-btn on" aria-current="true" id="mine-{other}"', page)
    fix = client.get(f"/games/{gid}?sheet=correction").get_data(as_text=True)  # the Fix sheet opens on this phone's player
    assert re.search(rf'class="small-btn on" data-seat="{other}"', fix)
    client.get(f"/settings?mine=&next=/games/{gid}")
    assert re.search(r'<body[^>]*class="[^"]*\bmine-', client.get(f"/games/{gid}").get_data(as_text=True)) is None


def test_a_splendor_panel_labels_its_token_count(client):
    """A Korean first-game tester: "예약 1/3 · 8/10" in a panel's header; the 8/10 is labelled tokens."""
    game = import_log(client, load_fixture("splendor-133.json"), upto=40)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    totals = re.findall(r'<span class="fact token-total[^"]*">tokens <b data-field="token-total">(\d+)</b>/10<button', page)
    assert totals == [str(sum(p["tokens"].values())) for p in game["players"]]


def test_each_panel_counts_the_development_cards_bought_on_the_screen_and_in_the_review(client):
    """A tester: a win shared or decided by S-4's tie-break (fewest development cards) could not
    be followed from the panels, nor from the review: each panel now says how many cards."""
    log = load_fixture("splendor-153.json")
    state = client.post("/api/games/import", json={k: log[k] for k in ("format", "game", "players", "first_player",
                                                                       "nobles", "events", "result")}).get_json()
    counts = [len(p["cards"]) for p in state["players"]]
    assert len(set(counts)) > 1  # (the players' counts differ: each is read from its own panel)
    for path in (f"/games/{state['id']}", f"/games/{state['id']}/review"):
        page = client.get(path).get_data(as_text=True)
        for seat, n in enumerate(counts):
            panel = page.split(f'id="panel-{seat}"', 1)[1].split("</section>", 1)[0]
            assert f'<span class="card-count" data-field="cards">{n} cards</span>' in panel, (path, seat, n)


def test_a_four_player_panel_shows_every_noble_already_reached(app):
    """Four panels show one nearest noble each, but a player whose bonuses meet two (S-3.2: a
    choice) shows both: a tester saw one ✓ while the choice offered two."""
    from dataclasses import replace

    from tracker.rules import catalog, splendor
    from tracker.screen import splendor_panel

    state = splendor.new_game(["Mom", "Dad", "Kid", "Grandma"], 0, ["N-01", "N-02", "N-06", "N-09", "N-10"])
    cards = catalog.development_cards().values()
    bought = tuple(c.id for color in ("white", "blue", "black") for c in [c for c in cards if c.color == color][:3])
    players = list(state.players)
    players[2] = replace(players[2], cards=bought)  # white 3, blue 3, black 3: N-02 met, N-01 not
    players[3] = replace(players[3], cards=bought[:6] + tuple(c.id for c in cards if c.color == "green")[:3])
    state = replace(state, players=tuple(players))
    with app.test_request_context():
        assert [(n["id"], n["missing"]) for n in splendor_panel(state, 2)["near"]] == [("N-02", 0)]
        # white 3, blue 3, green 3 (and black 0): N-01 is met; N-02 lacks 3 black; one shown
        assert [(n["id"], n["missing"]) for n in splendor_panel(state, 3)["near"]] == [("N-01", 0)]
        players[3] = replace(players[3], cards=bought + tuple(c.id for c in cards if c.color == "green")[:3])
        both = replace(state, players=tuple(players))  # white, blue, green and black 3: N-01 and N-02
        assert sorted((n["id"], n["missing"]) for n in splendor_panel(both, 3)["near"]) == [("N-01", 0), ("N-02", 0)]
        # one bonus short of both (a tester: one purchase away from a choice, one noble was shown)
        players[3] = replace(players[3], cards=bought[:8] + tuple(c.id for c in cards if c.color == "green")[:2])
        short = replace(state, players=tuple(players))  # white 3, blue 3, green 2, black 2: both 1 short
        assert sorted((n["id"], n["missing"]) for n in splendor_panel(short, 3)["near"]) == [("N-01", 1), ("N-02", 1)]


def test_a_noble_choice_on_the_games_last_turn_promises_no_later_visit(client):
    """The final round's last turn owing a noble choice: "the others … may visit on a later turn"
    promised a turn the game does not have (a tester); the save's preview says the game ends."""
    log = generated(24, 2)  # a game whose last entry is a noble chosen on its last turn
    assert log["events"][-1]["type"] == "take_noble"
    log = {**log, "events": log["events"][:-1], "result": None}
    state = import_log(client, log)
    assert state["pending"]["kind"] == "noble" and len(state["pending"]["choices"]) >= 2
    body = client.get(f"/games/{state['id']}", headers=HX).get_data(as_text=True)
    assert "One noble a turn, and this is the game's last turn: the others stay on the table." in body
    assert "may visit on a later turn" not in body
    assert body.count("Game over:") >= len(state["pending"]["choices"])  # each choice's preview


def _no_ids(body: str) -> str:
    """A sheet without the ids a refused save's reason carries (``aria-describedby``)."""
    return re.sub(r' id="why-[^"]*"', "", body)


def test_the_take_sheet_says_how_many_colours_are_left_when_fewer_than_three(client):
    """A tester: with two colours left in the supply the Take sheet still read "takes 3 different
    gems or 2 alike" (S-2.1's ruling then allows fewer than 3). It names what is left, and "2
    alike" only while a colour has 4 in the supply (S-2.2)."""
    gid = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                          "nobles": ["N-01", "N-02", "N-03"]}).get_json()["id"]

    def heading() -> str:
        sheet = client.get(f"/games/{gid}/sheet/take", headers=HX).get_data(as_text=True)
        return re.search(r'<h3 class="sheet-for">(.*?)</h3>', sheet, re.S).group(1).strip()

    def fix(player: int, tokens: dict, board: dict) -> None:
        resp = client.post(f"/api/games/{gid}/events", json={"type": "correction", "player": player,
                                                              "set": {"tokens": tokens, "board": board}})
        assert resp.status_code == 200, resp.get_json()

    assert heading() == "Ana takes 3 different gems or 2 alike"
    # Ben holds 4 white and 4 blue: red, green and black are left (3 colours)
    fix(1, {"white": 4, "blue": 4}, {"white": 0, "blue": 0, "green": 4, "red": 4, "black": 4, "gold": 5})
    assert heading() == "Ana takes 3 different gems or 2 alike"
    fix(0, {"green": 4, "red": 2}, {"white": 0, "blue": 0, "green": 0, "red": 2, "black": 4, "gold": 5})
    assert heading() == "Ana takes up to 1 gem of each colour (2 left) or 2 alike"
    fix(0, {"green": 4, "red": 2, "black": 3}, {"white": 0, "blue": 0, "green": 0, "red": 2, "black": 1, "gold": 5})
    # one gem of either colour is a take too (S-2.1's ruling: "1 each of 1 or 2 colours"), and a
    # take is 2 at most: the counter says "0/2" (it said "1/3" after one: a tester)
    assert heading() == "Ana takes up to 1 gem of each colour (2 left)"
    sheet = client.get(f"/games/{gid}/sheet/take", headers=HX).get_data(as_text=True)
    assert '<span class="pick-count">0/2</span>' in sheet
    one = client.get(f"/games/{gid}/sheet/take?t=red", headers=HX).get_data(as_text=True)
    assert '<span class="pick-count">1/2</span>' in one and "Saving will record" in one
    fix(0, {"green": 4, "red": 4, "black": 2}, {"white": 0, "blue": 0, "green": 0, "red": 0, "black": 2, "gold": 5})
    assert heading() == "Ana takes 1 gem (1 colour left)"
    # three colours left, none with 4: 2 alike is not offered (S-2.2; a tester tapped a colour twice)
    fix(0, {"green": 2, "red": 2, "black": 2}, {"white": 0, "blue": 0, "green": 2, "red": 2, "black": 2, "gold": 5})
    assert heading() == "Ana takes 3 different gems"
    sheet = client.get(f"/games/{gid}/sheet/take", headers=HX).get_data(as_text=True)
    assert '<span class="pick-count">0/3</span>' in sheet
