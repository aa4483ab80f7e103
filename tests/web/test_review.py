"""The game review: the log turn by turn, the step-through replay with both panels as they were,
the per-turn SVG charts, and the game log download (export → import round trip)."""

from __future__ import annotations

import json
import re

import flask_babel
import pytest
from flask_migrate import upgrade
from helpers import fixture_log, import_log, load_fixture, new_game, play

from tracker import create_app
from tracker.db import db
from tracker.rules import duel
from tracker.rules.events import parse_event

HX = {"HX-Request": "true"}


def app_config(uri: str) -> dict:
    """Settings for a second app (a restore target) on ``uri``."""
    return {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": uri, "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False}


def turn_ends(log: dict) -> dict[int, int]:
    """``{event number: turn}`` for every event that ends a turn (the rules engine's turn count)."""
    events = [parse_event(e, 2) for e in log["events"]]
    turns = [before.turn for _ev, before, _after in duel.steps(log, events)]
    return {i + 1: t for i, t in enumerate(turns) if i + 1 == len(turns) or turns[i + 1] != t}


def panel(page: str, seat: int) -> dict:
    """The figures a player's panel shows (its tokens: not the cost pips of its reserved cards)."""
    start = page.index(f'id="panel-{seat}"')
    html = page[start:page.index("</section>", start)]
    meters = dict((label, int(v)) for v, label in re.findall(r'aria-valuenow="(\d+)"[^>]*aria-label="([^"]+)"', html))
    tokens = {k: int(n) for k, n in re.findall(r'class="chip gem-(\w+)(?![^"]*\bpip\b)[^"]*"[^>]*><b>[^<]*</b><i>(\d+)</i>', html)
              if k in ("white", "blue", "green", "red", "black", "pearl", "gold")}
    return {"name": re.search(r'class="player-name">([^<]+)<', html).group(1), "prestige": meters["prestige"],
            "crowns": meters["crowns"], "privileges": int(re.search(r'data-field="privileges">(\d+)<', html).group(1)),
            "tokens": tokens}


@pytest.fixture
def game1012(client):
    return import_log(client, fixture_log("duel-1012.json", None, "2026-11-01T19:00:00Z"))


def test_the_review_tells_the_whole_game_turn_by_turn(client, game1012):
    page = client.get(f"/games/{game1012['id']}/review").get_data(as_text=True)
    full_log = page[page.index('id="full-log"'):]
    turns = re.findall(r'<li id="turn-(\d+)"', full_log)
    assert turns == [str(n) for n in range(1, 71)]
    first = full_log[full_log.index('id="turn-1"'):full_log.index('id="turn-2"')]
    assert "Turn 1 · Player B" in first and "Player B took" in first  # seat 1 starts this game
    sentences = full_log[:full_log.index("</ol>")].count("<li>")
    assert sentences == len(load_fixture("duel-1012.json")["events"]) == 85  # one sentence per event
    assert "Player A wins by reaching 20 prestige!" in full_log[full_log.index('id="turn-70"'):]
    assert "Player A won" in page and "70 turns" in page
    assert 'style=' not in page and "<script>" not in page and "hx-on" not in page


def test_stepping_back_shows_both_panels_as_they_were(client, game1012):
    log = load_fixture("duel-1012.json")
    ends = turn_ends(log)
    checked = 0
    for cp in log["checkpoints"]:
        turn = ends.get(cp["after_event"])
        if turn is None:
            continue  # this checkpoint falls inside a turn
        page = client.get(f"/games/{game1012['id']}/review?turn={turn}").get_data(as_text=True)
        assert f'data-turn="{turn}"' in page and f'value="{turn}"' in page
        for seat in (0, 1):
            shown = panel(page, seat)
            want = cp["players"][seat]
            assert (shown["prestige"], shown["crowns"], shown["privileges"]) == (want["prestige"], want["crowns"], want["privileges"])
            assert shown["tokens"] == want["tokens"]
        # the table at that turn (a tester looked for the board around a correction)
        table = page[page.index('id="review-table"'):page.index("</div>", page.index('id="review-table"'))]
        board = {k: int(n) for k, n in re.findall(r'class="chip gem-(\w+) small"[^>]*><b>[^<]*</b><i>(\d+)</i>', table)}
        assert {k: n for k, n in board.items() if n} == cp["board"]
        assert re.search(r'data-field="bag-total">(\d+)<', table)[1] == str(sum(cp["bag"].values()))
        assert re.search(r'data-field="privileges-supply">(\d+)<', table)[1] == str(cp["privileges_supply"])
        checked += 1
    assert checked >= 3
    final = client.get(f"/games/{game1012['id']}/review").get_data(as_text=True)
    expected = log["expected"]["players"]
    assert [panel(final, s)["prestige"] for s in (0, 1)] == [expected[0]["prestige"], expected[1]["prestige"]] == [20, 11]
    setup = client.get(f"/games/{game1012['id']}/review?turn=0").get_data(as_text=True)
    assert "Setup, before the first turn" in setup
    assert [panel(setup, s)["privileges"] for s in (0, 1)] == [1, 0]  # the seat that does not start holds one


def test_previous_next_and_jump_move_through_the_turns(client, game1012):
    gid = game1012["id"]
    page = client.get(f"/games/{gid}/review?turn=12").get_data(as_text=True)
    assert f'href="/games/{gid}/review?turn=11"' in page and f'href="/games/{gid}/review?turn=13"' in page
    assert "After turn 12" in page
    block = client.get(f"/games/{gid}/review?turn=12", headers=HX).get_data(as_text=True)
    assert block.lstrip().startswith('<section id="replay"') and "<html" not in block and "full-log" not in block
    last = client.get(f"/games/{gid}/review").get_data(as_text=True)
    assert 'data-turn="70"' in last and 'id="step-next"' not in last and 'id="step-prev"' in last
    first = client.get(f"/games/{gid}/review?turn=0").get_data(as_text=True)
    assert 'id="step-prev"' not in first and f'href="/games/{gid}/review?turn=1"' in first
    assert 'data-turn="70"' in client.get(f"/games/{gid}/review?turn=999").get_data(as_text=True)
    assert 'data-turn="70"' in client.get(f"/games/{gid}/review?turn=abc").get_data(as_text=True)
    assert 'data-turn="0"' in client.get(f"/games/{gid}/review?turn=-4").get_data(as_text=True)
    assert client.get("/games/no-such-game-abcdefghijklmn/review").status_code == 404


def test_charts_draw_prestige_crowns_and_colour_per_turn(client, game1012):
    page = client.get(f"/games/{game1012['id']}/review?turn=40").get_data(as_text=True)
    charts = re.findall(r'<figure class="chart chart-(\w+)"', page)
    assert charts == ["prestige", "crowns", "color"]
    prestige = page[page.index('id="chart-prestige"'):page.index('id="chart-crowns"')]
    lines = re.findall(r'<polyline class="line s(\d)" points="([^"]+)"', prestige)
    assert [seat for seat, _ in lines] == ["0", "1"]
    assert all(len(points.split()) == 71 for _, points in lines)  # setup + 70 turns
    assert 'class="goal"' in prestige and ">20</text>" in prestige and 'class="marker"' in prestige
    shown = [panel(page, s) for s in (0, 1)]
    for key, field in (("prestige", "prestige"), ("crowns", "crowns")):
        values = [int(v) for v in re.findall(rf'data-chart-value="{key}-\d">(\d+)<', page)]
        assert values == [shown[0][field], shown[1][field]]
    final = client.get(f"/games/{game1012['id']}/review").get_data(as_text=True)
    assert [int(v) for v in re.findall(r'data-chart-value="color-\d">(\d+)<', final)] == [8, 2]
    assert re.search(r'<svg class="chart-svg" viewBox="0 0 360 150" role="img" aria-label="Prestige: Player A 20, Player B 11"', final)


def test_a_splendor_game_and_an_active_game_can_be_reviewed(client):
    splendor = import_log(client, fixture_log("splendor-133.json"))
    page = client.get(f"/games/{splendor['id']}/review").get_data(as_text=True)
    assert "Player B won" in page and "96 turns" in page
    assert [panel_id for panel_id in re.findall(r'id="panel-(\d)"', page)] == ["0", "1", "2"]
    assert re.findall(r'<figure class="chart chart-(\w+)"', page) == ["prestige"]
    assert re.findall(r'data-chart-value="prestige-\d">(\d+)<', page) == ["16", "21", "9"]
    # the winner's panel is framed at the end (S-4), as a Duel's is; earlier positions frame none
    assert re.findall(r'class="panel panel-review[^"]*is-winner[^"]*" id="panel-(\d)"', page) == ["1"]
    early = client.get(f"/games/{splendor['id']}/review?turn=10").get_data(as_text=True)
    assert "is-winner" not in early
    assert f'href="/games/{splendor["id"]}/review"' in client.get(f"/games/{splendor['id']}").get_data(as_text=True)

    active = new_game(client, ("Ana", "Ben"))
    play(client, active["id"], [{"type": "take_tokens", "player": 0, "tokens": {"red": 1, "blue": 1}},
                                {"type": "take_tokens", "player": 1, "tokens": {"pearl": 1}}])
    page = client.get(f"/games/{active['id']}/review").get_data(as_text=True)
    assert "in progress, turn 3" in page and "Ben took 1 pearl." in page
    assert panel(page, 0)["tokens"]["red"] == 1 and panel(page, 1)["tokens"]["pearl"] == 1
    empty = new_game(client, ("Cho", "Dee"))
    assert "No entries yet." in client.get(f"/games/{empty['id']}/review").get_data(as_text=True)


def test_the_downloaded_log_imports_into_identical_states_and_twice_is_a_no_op(client, game1012, tmp_path):
    gid = game1012["id"]
    page = client.get(f"/games/{gid}/review").get_data(as_text=True)
    assert f'href="/games/{gid}/export"' in page
    resp = client.get(f"/games/{gid}/export")
    assert resp.headers["Content-Disposition"] == 'attachment; filename="splendor-duel-2026-11-01-1900-player-a-player-b.json"'
    log = json.loads(resp.get_data(as_text=True))
    assert log == client.get(f"/api/games/{gid}/log").get_json()
    assert log["events"] == load_fixture("duel-1012.json")["events"]
    original = {k: v for k, v in client.get(f"/api/games/{gid}").get_json().items() if k != "alerts"}

    other_app = create_app(app_config(f"sqlite:///{tmp_path / 'other.sqlite3'}"))
    with other_app.app_context():
        upgrade()
        other = other_app.test_client()
        assert other.post("/api/games/import", json=log).status_code == 201
        assert other.post("/api/games/import", json=log).status_code == 200
        copy = {k: v for k, v in other.get(f"/api/games/{gid}").get_json().items() if k != "alerts"}
        assert copy == original
        assert len(other.get("/api/games").get_json()) == 1
        # Every intermediate position replays identically too.
        for turn in (0, 17, 45, 70):
            a = client.get(f"/games/{gid}/review?turn={turn}", headers=HX).get_data(as_text=True)
            b = other.get(f"/games/{gid}/review?turn={turn}", headers=HX).get_data(as_text=True)
            assert [panel(a, s) for s in (0, 1)] == [panel(b, s) for s in (0, 1)]
        db.session.remove()
        db.engine.dispose()


def test_a_games_file_name_tells_two_games_of_a_day_apart_and_keeps_korean_names(client):
    """Two games of the same players on one day got one file name (the second saved over the
    first); a Korean name was dropped from it."""
    from helpers import fixture_log, import_log

    one = import_log(client, fixture_log("duel-1012.json", ["민준", "Ben"], "2026-11-01T10:05:00Z"))
    two = import_log(client, fixture_log("duel-1069.json", ["민준", "Ben"], "2026-11-01T11:40:00Z"))
    client.set_cookie("tz", "Asia/Seoul")
    names = [client.get(f"/games/{g['id']}/export").headers["Content-Disposition"] for g in (one, two)]
    assert names[0] == ('attachment; filename="splendor-duel-2026-11-01-1905-ben.json"; '
                        "filename*=UTF-8''splendor-duel-2026-11-01-1905-%EB%AF%BC%EC%A4%80-ben.json")
    assert names[1].startswith('attachment; filename="splendor-duel-2026-11-01-2040-ben.json"')


def test_file_names_keep_every_scripts_letters_and_marks():
    from datetime import datetime
    from types import SimpleNamespace

    from tracker import archive

    row = SimpleNamespace(game="duel", started=datetime(2026, 11, 30, 19, 3))
    assert archive.filename(row, ["हिन्दी", "İstanbul"]) == (
        "splendor-duel-2026-11-30-1903-हिन्दी-i̇stanbul.json", "splendor-duel-2026-11-30-1903-i-stanbul.json")
    assert archive.filename(row, ["🎲", "Ana Lee"])[0] == "splendor-duel-2026-11-30-1903-ana-lee.json"
    assert archive.filename(row, ["🎲", "🃏"], "csv")[1] == "splendor-duel-2026-11-30-1903-game.csv"


def test_a_splendor_review_shows_each_players_nobles_the_table_and_the_final_round(client):
    """A tester: the review gave a count of nobles, no supply, no nobles on display and no sign of
    the final round (S-3.2, S-4). Each step now shows them as the game screen does."""
    from tracker import service

    log = fixture_log("splendor-133.json")
    game = import_log(client, log)
    view = service.load(game["id"])
    positions = [after for _event, _before, after in view.engine.steps(view.row.setup, view.events)]
    state = positions[-1]
    final_turn = next(after.turn for after in positions if after.final_round)
    last = client.get(f"/games/{game['id']}/review").get_data(as_text=True)
    for seat, player in enumerate(state.players):
        tiles = re.search(rf'id="panel-{seat}".*?</section>', last, re.S).group(0)
        assert re.findall(r'data-noble-id="([^"]+)"', tiles) == list(player.nobles)
        # the token row says what it is, as the Duel review's does (a tester read it as bonuses)
        tokens = re.search(r'<div class="tokens"[^>]*><span class="label"[^>]*>tokens</span>.*?data-field="token-total"><b>(\d+)</b>', tiles, re.S)
        assert tokens and int(tokens.group(1)) == player.tokens.total
    table = re.search(r'id="review-table">(.*?)</div>', last, re.S).group(1)
    assert re.findall(r'data-noble-id="([^"]+)"', table) == list(state.nobles_available)
    assert 'id="review-final-round"' not in last  # the game is over: its result says so
    setup = client.get(f"/games/{game['id']}/review?turn=0").get_data(as_text=True)
    assert len(re.findall(r'data-noble-id', re.search(r'id="review-table">(.*?)</div>', setup, re.S).group(1))) == 4
    during = client.get(f"/games/{game['id']}/review?turn={final_turn}").get_data(as_text=True)
    assert 'id="review-final-round"' in during and "Final round" in during


def test_a_splendor_review_lists_each_players_reserved_cards_at_every_turn(client):
    """A club organiser's review of a Splendor game said "res 2" and not which cards: each panel
    lists the cards reserved at that turn, as the game screen does (a secret one by its level)."""
    from tracker import service

    game = import_log(client, fixture_log("splendor-133.json"))
    view = service.load(game["id"])
    after_turn = {before.turn: after for _event, before, after in view.engine.steps(view.row.setup, view.events)}
    seen = 0
    for turn in sorted(after_turn)[::7]:
        state = after_turn[turn]  # the review's step "after turn N": the position its last entry left
        page = client.get(f"/games/{game['id']}/review?turn={turn}").get_data(as_text=True)
        for seat, player in enumerate(state.players):
            panel = re.search(rf'id="panel-{seat}".*?</section>', page, re.S).group(0)
            assert re.search(r'data-field="reserved">(\d+)<', panel).group(1) == str(len(player.reserved))
            listed = re.findall(r'data-card="([^"]+)"|title="secret level-(\d) card"', panel)
            assert [c or f"secret-{lv}" for c, lv in listed] == [r.card or f"secret-{r.level}" for r in player.reserved]
            seen += len(player.reserved)
    assert seen > 10


def test_a_turn_still_going_is_told_as_so_far_and_a_lone_fix_names_whose_turn(client):
    """The review of a game in progress: its last turn, a correction alone so far, reads "Turn 2
    so far · Ben's turn" (not "After turn 2" and no name); a correction made before a player's
    first entry of a turn is listed under that player's turn."""
    gid = new_game(client)["id"]
    state = play(client, gid, [{"type": "take_tokens", "player": 0, "tokens": {"red": 1, "blue": 1, "green": 1}}])
    bag = dict(state["bag"], green=state["bag"].get("green", 0) + 1)  # a green token went back to the bag
    play(client, gid, [{"type": "correction", "player": 0,
                        "set": {"tokens": {"red": 1, "blue": 1, "green": 0}, "bag": bag}}])
    page = client.get(f"/games/{gid}/review").get_data(as_text=True)
    assert "<h2>Turn 2 so far · Ben's turn</h2>" in page
    assert re.search(r'>Turn 2 · Ben <small>\(so far\)</small></a>', page)
    play(client, gid, [{"type": "take_tokens", "player": 1, "tokens": {"white": 1, "black": 1, "pearl": 1}}])
    page = client.get(f"/games/{gid}/review?turn=2").get_data(as_text=True)
    assert "<h2>After turn 2 · Ben played · Ana's turn</h2>" in page and "so far" not in page
    page = client.get(f"/games/{gid}/review?turn=1").get_data(as_text=True)
    assert "<h2>After turn 1 · Ana played</h2>" in page  # (whose turn only on the game's last step)
    assert re.search(r'>Turn 1 · Ana</a>', page) and re.search(r'>Turn 2 · Ben</a>', page)
    assert "Turn 3" not in page  # nothing entered in turn 3 yet


def test_a_win_says_the_route_it_reached_not_a_total(client):
    """A tester: "Mina won (10 crowns)" over a panel showing her 11 crowns read as her total.
    The route is said reached, in the review and the history row, in English and Korean."""
    game = import_log(client, fixture_log("duel-1069.json", ["Mina", "Jun"], "2026-11-26T19:00:00Z"))
    assert load_fixture("duel-1069.json")["expected"]["winner"] == {"player": 0, "routes": ["crowns"]}
    review = client.get(f"/games/{game['id']}/review").get_data(as_text=True)
    assert re.search(r'data-field="result">Mina won</b> \(reached 10 crowns\)', review)
    history = client.get("/history").get_data(as_text=True)
    assert re.search(r'data-field="routes">reached 10 crowns<', history)
    ko = {"Accept-Language": "ko"}
    flask_babel.refresh()  # (the test's one app context keeps the locale chosen first)
    page = client.get(f"/games/{game['id']}/review", headers=ko).get_data(as_text=True)
    assert re.search(r"\(왕관\s10개\s달성\)", page)  # (a space that never breaks inside "10 crowns")
    flask_babel.refresh()
    assert re.search(r'data-field="routes">왕관\s10개\s달성<', client.get("/history", headers=ko).get_data(as_text=True))
