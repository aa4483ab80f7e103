"""Players as people: names matched at a new game, renaming, merging, and the player page's
statistics computed from fixture games with known results."""

from __future__ import annotations

import io
import json
import re

import pytest
from helpers import fixture_log, import_log, new_game, post

from tracker import stats
from tracker.models import Player


def player_id(client, name: str) -> int:
    page = client.get("/players").get_data(as_text=True)
    found = dict((n, int(i)) for i, n in re.findall(r'href="/players/(\d+)">([^<]+)<', page))
    return found[name]


def stat(page: str, key: str) -> str:
    match = re.search(rf'data-stat="{key}">([^<]*)<', page)
    assert match, key
    return match.group(1).strip()


def versus(page: str, other_id: int, kind: str = "duel|splendor") -> tuple[int, str]:
    """Head to head against ``other_id`` in ``kind``'s table (the first row found by default)."""
    row = re.search(rf'data-kind="(?:{kind})" data-versus="{other_id}">.*?<td><a [^>]*>(\d+)</a></td><td data-field="record">([^<]+)</td>', page, re.S)
    assert row, other_id
    return int(row.group(1)), row.group(2)


@pytest.fixture
def season(client):
    """Six finished games with known outcomes (GAME-LOG.md ``result`` of each fixture):

    - duel-1012 Ana–Ben, Ben starts, Ana wins by prestige in 70 turns (Ana took DR-2, DR-3)
    - duel-1069 Ana–Ben, Ana starts, Ana wins by crowns in 70 turns (Ana took DR-2, DR-4)
    - duel-1102 Ana–Ben, Ben starts, Ben wins by colour in 67 turns (Ben took DR-1, DR-3)
    - own-prestige Ana–Cho, Ana starts, Ana wins by prestige in 66 turns
    - own-crowns Cho–Ana, Cho starts, Cho wins by crowns in 60 turns
    - splendor-153 Ana–Ben, Ben wins (Splendor: no routes, no seats order stats)
    """
    games = {}
    for i, (name, players) in enumerate([
        ("duel-1012.json", ["Ana", "Ben"]), ("duel-1069.json", ["Ana", "Ben"]), ("duel-1102.json", ["Ana", "Ben"]),
        ("own-prestige.json", ["Ana", "Cho"]), ("own-crowns.json", ["Cho", "Ana"]), ("splendor-153.json", ["Ana", "Ben"]),
    ]):
        games[name] = import_log(client, fixture_log(name, players, f"2026-11-{10 + i:02d}T19:00:00Z"))
    return games


def test_the_player_page_shows_known_statistics(client, season):
    ana, ben, cho = (player_id(client, n) for n in ("Ana", "Ben", "Cho"))
    page = client.get(f"/players/{ana}").get_data(as_text=True)
    assert (stat(page, "games"), stat(page, "wins"), stat(page, "win-rate")) == ("6", "3", "50%")
    assert stat(page, "win-base") == "of 6 finished games"
    assert [stat(page, f"route-{r}") for r in ("prestige", "crowns", "color")] == ["2", "1", "0"]
    assert stat(page, "first-rate").startswith("100%") and "(2 of 2)" in page
    assert stat(page, "second-rate").startswith("33%") and "(1 of 3)" in page
    assert stat(page, "turns-to-win") == "68.7"  # (70 + 70 + 66) / 3: the games' turns, both players'
    assert "Average turns to win (both players’ turns)" in page  # (a tester read 40 as one player's)
    own = [season["own-prestige.json"]["players"][0]["royals"], season["own-crowns.json"]["players"][1]["royals"]]
    assert stat(page, "royals") == str(2 + 2 + 0 + sum(len(r) for r in own))
    # one table per game: 3 Duels with Ben (2 won), 1 Splendor game (Ben won); 2 Duels with Cho
    assert versus(page, ben, "duel") == (3, "2 – 1") and versus(page, ben, "splendor") == (1, "0 – 1")
    assert versus(page, cho, "duel") == (2, "1 – 1") and 'data-kind="splendor" data-versus="%d"' % cho not in page
    assert "Head to head · Duel" in page and "Head to head · Splendor" in page
    assert f'href="/history?player={ana}&amp;kind=duel&amp;with={ben}"' in page

    page = client.get(f"/players/{ben}").get_data(as_text=True)
    assert (stat(page, "games"), stat(page, "wins"), stat(page, "win-rate")) == ("4", "2", "50%")
    assert [stat(page, f"route-{r}") for r in ("prestige", "crowns", "color")] == ["0", "0", "1"]
    assert stat(page, "first-rate").startswith("50%") and stat(page, "second-rate").startswith("0%")
    assert stat(page, "royals") == "2" and stat(page, "turns-to-win") == "67.0"
    assert versus(page, ana, "duel") == (3, "1 – 2") and versus(page, ana, "splendor") == (1, "1 – 0")


def test_royal_cards_taken_count_finished_games_as_the_other_duel_figures_do(client, season):
    """A Korean tester's player page said 8 royal cards beside figures of 3 finished games: 5 came
    from games still played. A game in progress adds none until it is finished."""
    ana = player_id(client, "Ana")
    before = stat(client.get(f"/players/{ana}").get_data(as_text=True), "royals")
    log = fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-20T19:00:00Z")
    royal_at = next(i for i, e in enumerate(log["events"]) if e["type"] == "take_royal" and e["player"] == 0)
    import_log(client, {**log, "events": log["events"][:royal_at + 1], "result": None, "finished": None})
    page = client.get(f"/players/{ana}").get_data(as_text=True)
    assert stat(page, "royals") == before and stat(page, "games") == "7"
    assert "Royal cards taken (finished games)" in page


def test_statistics_as_numbers(app, client, season):
    s = stats.player_stats(app.extensions["sqlalchemy"].session.get(Player, player_id(client, "Cho")))
    assert (s.games, s.finished, s.wins, s.win_rate) == (2, 2, 1, 0.5)
    assert s.routes == {"prestige": 0, "crowns": 1, "color": 0}
    assert (s.first, s.second) == ([1, 1], [1, 0])
    assert s.average_turns_to_win == 60
    assert [(v.player.name, v.games, v.wins, v.losses) for v in s.versus] == [("Ana", 2, 1, 1)]
    lines = {line.player.name: (line.games, line.wins, line.playing) for line in stats.player_lines()}
    assert lines == {"Ana": (6, 3, 0), "Ben": (4, 2, 0), "Cho": (2, 1, 0)}
    new_game(client, ("Cho", "Dae"))
    lines = {line.player.name: (line.games, line.wins, line.playing) for line in stats.player_lines()}
    assert lines["Cho"] == (3, 1, 1) and lines["Dae"] == (1, 0, 1)


def test_duel_only_figures_ignore_splendor_games(client):
    import_log(client, fixture_log("splendor-133.json", ["Ana", "Ben", "Cho"]))
    page = client.get(f"/players/{player_id(client, 'Ben')}").get_data(as_text=True)
    assert (stat(page, "games"), stat(page, "wins"), stat(page, "win-rate")) == ("1", "1", "100%")
    assert "Wins by route" not in page and "Royal cards taken" not in page
    assert versus(page, player_id(client, "Cho")) == (1, "1 – 0")


def test_a_typed_name_matches_an_existing_player(client):
    for names in (("Ana", "Ben"), (" ana ", "BEN"), ("Ａｎａ", "Cho")):  # full-width letters too
        resp = client.post("/games", data={"player0": names[0], "player1": names[1], "first": "0",
                                           "namesake_ok": names[0]})  # (Ana's other game asked about once)
        assert resp.status_code == 303
    page = client.get("/players").get_data(as_text=True)
    assert re.findall(r'href="/players/\d+">([^<]+)<', page) == ["Ana", "Ben", "Cho"]
    assert re.search(r'>Ana</a></td>\s*<td>3 <small class="playing">\(3 in progress\)</small></td><td>0</td>', page)
    assert 'data-field="win-rate"' not in page  # no game over: no rate under the wins
    # The logs keep the names as typed.
    assert sorted(tuple(g["players"]) for g in client.get("/api/games").get_json()) == [
        ("Ana", "Ben"), ("ana", "BEN"), ("Ａｎａ", "Cho")]


def test_renaming_changes_the_name_everywhere_but_not_the_log(client):
    game = import_log(client, fixture_log("own-prestige.json", ["Ana", "Ben"]))
    ana = player_id(client, "Ana")
    resp = client.post(f"/players/{ana}/rename", data={"name": "Anna"})
    assert resp.status_code == 303
    assert ">Anna<" in client.get(f"/players/{ana}").get_data(as_text=True)
    assert "Anna" in client.get("/history").get_data(as_text=True)
    review = client.get(f"/games/{game['id']}/review").get_data(as_text=True)
    assert "Anna won" in review and "Anna took" in review
    assert client.get(f"/api/games/{game['id']}/log").get_json()["players"] == ["Ana", "Ben"]

    resp = client.post(f"/players/{ana}/rename", data={"name": "ben"})
    assert resp.status_code == 422 and "Ben is another player, who sat at a game with Anna: choose another name." in resp.get_data(as_text=True)
    # the refusal sits below a long page of figures: the name field takes the focus, brought into view
    assert re.search(r'<input name="name" id="rename-name"[^>]* autofocus>', resp.get_data(as_text=True))
    assert " autofocus" not in client.get(f"/players/{ana}").get_data(as_text=True)
    resp = client.post(f"/players/{ana}/rename", data={"name": "   "})
    assert resp.status_code == 422
    assert client.post("/players/999/rename", data={"name": "X"}).status_code == 404


def test_a_renamed_players_old_name_still_means_them(client):
    """Players keep typing the short name: after Dae becomes Dae-ho, a game (or an import) naming
    Dae is Dae-ho's, the home page suggests Dae-ho only, and renaming back needs no merge."""
    import_log(client, fixture_log("own-prestige.json", ["Dae", "Ben"], "2026-11-01T19:00:00Z"))
    dae = player_id(client, "Dae")
    assert client.post(f"/players/{dae}/rename", data={"name": "Dae-ho"}).status_code == 303
    import_log(client, fixture_log("own-crowns.json", ["dae", "Ben"], "2026-11-02T19:00:00Z"))
    client.post("/api/games", json={"game": "duel", "players": ["Dae", "Cho"], "first_player": 0})
    page = client.get("/players").get_data(as_text=True)
    assert re.findall(r'href="/players/\d+">([^<]+)<', page) == ["Dae-ho", "Ben", "Cho"]
    # three games, one of them still being played: wins are read against the two finished
    assert re.search(r'>Dae-ho</a></td>\s*<td>3 <small class="playing">\(1 in progress\)</small></td><td>\d ', page)
    assert re.search(r'>Ben</a></td>\s*<td>2</td>', page)  # both finished: no note
    options = re.findall(r'<option value="([^"]+)">', client.get("/").get_data(as_text=True))
    assert "Dae-ho" in options and "Dae" not in options
    assert "Dae" in client.get(f"/players/{dae}").get_data(as_text=True)  # listed as what typing it means
    # the win rate says its base: 1 win of the 2 finished games (the third is still on)
    player = client.get(f"/players/{dae}").get_data(as_text=True)
    assert stat(player, "games") == "3" and stat(player, "win-base") == "of 2 finished games"
    wins = int(re.search(r'>Dae-ho</a></td>\s*<td>3 <small[^>]*>[^<]*</small></td><td>(\d)', page)[1])
    # and so does the list's: over 2, not 3, and it says so (a tester read "2 wins 100%" beside 31 games)
    rate = "0%" if wins == 0 else "50%" if wins == 1 else "100%"
    assert re.search(rf'>Dae-ho</a></td>\s*<td>3 <small[^>]*>[^<]*</small></td><td>{wins} <small class="win-rate" '
                     rf'data-field="win-rate" title="win rate"><span class="visually-hidden">win rate </span>{rate} of 2 finished</small></td>', page)
    # renaming back to the old name: it is this person's again, no merge asked
    assert client.post(f"/players/{dae}/rename", data={"name": "Dae"}).status_code == 303
    page = client.get("/players").get_data(as_text=True)
    assert re.findall(r'href="/players/\d+">([^<]+)<', page) == ["Dae", "Ben", "Cho"]
    # a rename that only changes case or spacing makes no alias
    assert client.post(f"/players/{dae}/rename", data={"name": "DAE"}).status_code == 303
    assert client.post(f"/players/{dae}/rename", data={"name": "Dae"}).status_code == 303


def test_merging_moves_every_game_and_keeps_the_old_name_as_an_alias(client):
    import_log(client, fixture_log("own-prestige.json", ["Ana", "Ben"], "2026-11-01T19:00:00Z"))
    import_log(client, fixture_log("own-crowns.json", ["Ana", "Benny"], "2026-11-02T19:00:00Z"))
    ben, benny = player_id(client, "Ben"), player_id(client, "Benny")

    ask = client.post(f"/players/{ben}/merge", data={"other": str(benny)})
    # no direction in the question: the name kept is chosen on the page (a tester)
    assert ask.status_code == 200 and "Merge Benny and Ben into one player?" in ask.get_data(as_text=True)
    # and that a merge is for good (a tester)
    assert "Their 2 games then are one player's, under the name kept below." in ask.get_data(as_text=True)
    assert "A merge is for good: it cannot be undone." in ask.get_data(as_text=True)
    # as a rename says: a game in progress keeps the name typed until it ends (a tester looked for it)
    assert "The screen of a game still in progress shows the name kept once that game ends" in ask.get_data(as_text=True)
    # the name to keep is asked; with one game each, the page's own player's name comes first
    assert re.findall(r'<input type="radio" name="name" value="(\w+)" ?(checked)?', ask.get_data(as_text=True)) == [
        ("keep", "checked"), ("other", "")]
    assert player_id(client, "Benny") == benny  # asking merged nothing

    resp = client.post(f"/players/{ben}/merge", data={"other": str(benny), "confirm": "yes"})
    assert resp.status_code == 303
    page = client.get(f"/players/{ben}").get_data(as_text=True)
    assert stat(page, "games") == "2" and versus(page, player_id(client, "Ana")) == (2, "0 – 2")
    assert "Benny" not in client.get("/players").get_data(as_text=True)
    old = client.get(f"/players/{benny}")
    assert old.status_code == 301 and old.headers["Location"].endswith(f"/players/{ben}")
    # the history filtered by the old player's link lists the kept player's games
    filtered = client.get(f"/history?player={benny}").get_data(as_text=True)
    assert len(re.findall(r'<li class="game-row', filtered)) == 2 and f'<option value="{ben}" selected' in filtered
    client.post("/games", data={"player0": "benny", "player1": "Ana", "first": "0"})
    assert stat(client.get(f"/players/{ben}").get_data(as_text=True), "games") == "3"
    assert client.post(f"/players/{ben}/merge", data={"other": str(ben), "confirm": "yes"}).status_code == 422
    # the same merge confirmed again (a second tab): said to be done, not "choose the other player"
    again = client.post(f"/players/{ben}/merge", data={"other": str(benny), "confirm": "yes"})
    assert again.status_code == 422 and "These two are one player already: the merge was made." in again.get_data(as_text=True)


def test_two_people_who_played_at_one_table_cannot_be_merged(client):
    """A game would list the same person twice ("Cleo · Cleo") and count twice: refused, before
    the confirmation and on it, with a sentence saying why; nothing moves."""
    import_log(client, fixture_log("own-prestige.json", ["Cleo", "Dan"]))
    cleo, dan = player_id(client, "Cleo"), player_id(client, "Dan")
    for data in ({"other": str(dan)}, {"other": str(dan), "confirm": "yes"}):
        resp = client.post(f"/players/{cleo}/merge", data=data)
        assert resp.status_code == 422 and "Cleo and Dan played in the same game, so they are two people" in resp.get_data(as_text=True)
        # on a long page of figures the refusal is brought into view with the field it is about
        assert re.search(r'<select name="other" id="merge-other" required autofocus>', resp.get_data(as_text=True))
    assert player_id(client, "Dan") == dan
    page = client.get(f"/players/{cleo}").get_data(as_text=True)
    assert stat(page, "games") == "1"
    # nor offered: the merge list leaves Dan out and says why (a tester chose him and was refused)
    assert f'<option value="{dan}">' not in page and 'id="merge-other"' not in page
    assert "1 player who sat at a game with Cleo is not listed: they are two people." in page
    import_log(client, fixture_log("own-prestige.json", ["Eve", "Finn"]))
    page = client.get(f"/players/{cleo}").get_data(as_text=True)
    eve, finn = player_id(client, "Eve"), player_id(client, "Finn")
    assert f'<option value="{eve}">Eve</option>' in page and f'<option value="{finn}">Finn</option>' in page
    assert f'<option value="{dan}">' not in page


def test_player_pages_answer_404_for_unknown_players(client):
    assert client.get("/players/12345").status_code == 404
    assert client.get("/players").status_code == 200


def test_games_stored_before_players_existed_get_their_people_on_first_visit(tmp_path):
    import json as _json

    from flask_migrate import upgrade
    from sqlalchemy import text

    from tracker import create_app
    from tracker.db import db

    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'old.sqlite3'}",
                      "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False, "CACHE_TYPE": "SimpleCache"})
    with app.app_context():
        upgrade(revision="74b057378505")  # the schema before players
        log = fixture_log("own-color.json")
        db.session.execute(text(
            "INSERT INTO games (id, game, setup, version, status, result, started) "
            "VALUES ('old-game-0000-abcdefghijklmnop', 'duel', :setup, :v, 'finished', :result, CURRENT_TIMESTAMP)"),
            {"setup": _json.dumps({"players": ["Ana", "Ben"], "first_player": 1, "nobles": None}),
             "v": len(log["events"]), "result": _json.dumps(log["result"])})
        for seq, ev in enumerate(log["events"], start=1):
            db.session.execute(text("INSERT INTO events (game_id, seq, data, undone, created) "
                                    "VALUES ('old-game-0000-abcdefghijklmnop', :s, :d, :u, CURRENT_TIMESTAMP)"),
                               {"s": seq, "d": _json.dumps(ev), "u": False})
        db.session.commit()
        upgrade()
        client = app.test_client()
        assert "Ana won" in client.get("/history").get_data(as_text=True)
        page = client.get(f"/players/{player_id(client, 'Ana')}").get_data(as_text=True)
        assert (stat(page, "games"), stat(page, "wins"), stat(page, "route-color")) == ("1", "1", "1")
        assert stat(page, "second-rate").startswith("100%")  # Ben started
        db.session.remove()
        db.engine.dispose()


def test_a_player_of_both_games_gets_each_games_win_rate_and_head_to_head_says_what_it_leaves_out(client, season):
    """The top win rate mixes Duel and Splendor: each is also given on its own. Head to head,
    an unfinished game and a game a third player won are said (they counted without a word)."""
    import_log(client, fixture_log("splendor-133.json", ["Ana", "Ben", "Cho"], "2026-11-20T19:00:00Z"))  # Ben wins
    new_game(client, ("Ana", "Cho"))
    ana, cho = player_id(client, "Ana"), player_id(client, "Cho")
    page = client.get(f"/players/{ana}").get_data(as_text=True)
    assert (stat(page, "duel-wins"), stat(page, "duel-rate")) == ("3 wins", "60%")  # 3 of the 5 Duels
    assert (stat(page, "splendor-wins"), stat(page, "splendor-rate")) == ("0 wins", "0%")  # 2 Splendor games
    assert "of 5 finished games" in page and "of 2 finished games" in page
    row = re.search(rf'data-kind="duel" data-versus="{cho}">(.*?)</tr>', page, re.S)[1]
    assert '<small class="versus-note">1 in progress</small>' in row and versus(page, cho, "duel") == (3, "1 – 1")
    row = re.search(rf'data-kind="splendor" data-versus="{cho}">(.*?)</tr>', page, re.S)[1]
    assert '<small class="versus-note">1 won by another player</small>' in row
    assert versus(page, cho, "splendor") == (1, "0 – 0")


def test_a_shared_win_is_neither_a_win_nor_a_loss_head_to_head(client):
    """S-4: a full tie is a win both share. Head to head it counted as a win and a loss at once,
    which hid a game a third player won ("4 · 1 – 3" with no note, for a shared win, a loss, a
    win and a game Ben won): each finished game together now counts once."""
    from tracker.rules import splendor_autoplay
    from tracker.rules.events import event_to_dict

    setup, events, state = splendor_autoplay.play(3, players=2)  # a full tie: both win
    assert len(state.winner.players) == 2
    winner = {"players": list(state.winner.players), "prestige": state.winner.prestige, "cards": state.winner.cards}
    import_log(client, {"format": "splendor-tracker/1", "game": "splendor", **setup, "players": ["Cho", "Dan"],
                        "events": [event_to_dict(e) for e in events], "result": {"winner": winner, "turns": state.turn}})
    import_log(client, fixture_log("splendor-133.json", ["Cho", "Ben", "Dan"], "2026-11-20T19:00:00Z"))  # Ben wins
    cho, dan = player_id(client, "Cho"), player_id(client, "Dan")
    for me, other in ((cho, dan), (dan, cho)):
        page = client.get(f"/players/{me}").get_data(as_text=True)
        assert versus(page, other) == (2, "0 – 0")
        row = re.search(rf'data-versus="{other}">(.*?)</tr>', page, re.S)[1]
        assert '<small class="versus-note">1 shared win · 1 won by another player</small>' in row
    from tracker.db import db

    (against_dan,) = [v for v in stats.player_stats(db.session.get(Player, cho)).versus if v.player.id == dan]
    assert (against_dan.finished, against_dan.wins, against_dan.losses, against_dan.shared, against_dan.third_party) \
        == (2, 0, 0, 1, 1)


def test_a_splendor_player_gets_win_rates_by_table_size_first_seat_and_shared_wins(client):
    """A tester: someone who plays only classic Splendor got games and wins alone. Their page now
    gives the win rate by number of players, as first player, and the wins they shared (S-4)."""
    from tracker.db import db
    from tracker.rules import splendor_autoplay
    from tracker.rules.events import event_to_dict

    setup, events, state = splendor_autoplay.play(3, players=2)  # a full tie: Eve and Fay share the win
    winner = {"players": list(state.winner.players), "prestige": state.winner.prestige, "cards": state.winner.cards}
    import_log(client, {"format": "splendor-tracker/1", "game": "splendor", **setup, "players": ["Eve", "Fay"],
                        "events": [event_to_dict(e) for e in events], "result": {"winner": winner, "turns": state.turn}})
    log = fixture_log("splendor-133.json", ["Eve", "Gil", "Hal"], "2026-11-20T19:00:00Z")
    import_log(client, log)  # seat 1 (Gil) wins: Eve loses a 3-player game
    eve = db.session.get(Player, player_id(client, "Eve"))
    s = stats.player_stats(eve)
    assert s.splendor_tables == {2: [1, 1], 3: [1, 0]} and s.splendor_shared == 1
    first = (setup["first_player"] == 0) + (log["first_player"] == 0)
    assert s.splendor_first[0] == first
    page = client.get(f"/players/{eve.id}").get_data(as_text=True)
    assert stat(page, "splendor-2-rate").startswith("100%") and stat(page, "splendor-3-rate").startswith("0%")
    assert stat(page, "splendor-shared") == "1" and "Win rate with 3 players" in page
    # the win at the top is the shared one, said so (head to head counts it apart: a tester)
    assert stat(page, "wins") == "1" and stat(page, "wins-shared") == "with 1 shared win"
    assert "Wins by route" not in page  # nothing of a Duel for a Splendor-only player


def test_a_half_percent_rounds_up_everywhere():
    """5 of 8 read 62% and 3 of 8 38% (Python rounds halves to the even number)."""
    from tracker.stats import percent

    assert [percent(5 / 8), percent(3 / 8), percent(1 / 8), percent(2 / 3), percent(None)] == ["63%", "38%", "13%", "67%", "–"]
    assert percent(0.285) == "29%" and percent(1.0) == "100%" and percent(0.0) == "0%"


def test_an_average_of_a_half_tenth_rounds_up():
    """A tester's average of 69.25 turns to win read 69.2 (formatting rounds halves to even)."""
    from tracker.stats import tenths

    assert [tenths(69.25), tenths(69.0), tenths(66.75), tenths(70 / 3), tenths(None)] == ["69.3", "69.0", "66.8", "23.3", "–"]


def test_people_whose_games_were_all_deleted_are_not_listed_until_a_restore(client):
    kept = import_log(client, fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-07T19:00:00Z"))
    gone = import_log(client, fixture_log("duel-1069.json", ["Cho", "Dae"], "2026-11-07T20:00:00Z"))
    assert client.post(f"/history/{gone['id']}/delete").status_code == 303
    page = client.get("/players").get_data(as_text=True)
    listed = re.findall(r'href="/players/\d+">([^<]+)<', page)
    assert listed == ["Ana", "Ben"] and "2 people whose games were all deleted are not listed" in page
    assert client.post(f"/history/{gone['id']}/restore").status_code == 303
    page = client.get("/players").get_data(as_text=True)
    assert sorted(re.findall(r'href="/players/\d+">([^<]+)<', page)) == ["Ana", "Ben", "Cho", "Dae"]
    assert 'id="players-hidden"' not in page and kept["id"]


def test_historys_player_filter_offers_those_with_a_game_kept(client):
    """A tester chose a name from History's Player filter whose every game was deleted and got
    "No games match." (the Players page hid the same people): the filter offers those with a
    game of the status shown (the deleted games: those who played them), and the person chosen
    in any case."""
    import_log(client, fixture_log("duel-1012.json", ["Ana", "Ben"], "2026-11-07T19:00:00Z"))
    gone = import_log(client, fixture_log("duel-1069.json", ["Cho", "Dae"], "2026-11-07T20:00:00Z"))
    assert client.post(f"/history/{gone['id']}/delete").status_code == 303

    def offered(address: str) -> list[str]:
        page = client.get(address).get_data(as_text=True)
        select = page[page.index('id="filter-player"'):]
        return re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', select[:select.index("</select>")])

    assert offered("/history") == ["Ana", "Ben"]
    assert offered("/history?status=finished") == ["Ana", "Ben"]
    assert offered("/history?status=active") == []  # (no game in progress: nobody to pick)
    assert offered("/history?status=deleted") == ["Cho", "Dae"]  # those the deleted games list
    page = client.get("/history?status=deleted").get_data(as_text=True)
    cho = re.search(r'<option value="(\d+)"[^>]*>Cho</option>', page)[1]
    assert offered(f"/history?player={cho}") == ["Ana", "Ben", "Cho"]  # the one chosen stays chosen
    # the Status filter changed on the page (htmx: the games alone) brings the people it offers too
    swapped = client.get("/history?status=deleted", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert '<select name="player" id="filter-player" form="history-filters" hx-swap-oob="true">' in swapped
    assert re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', swapped) == ["Cho", "Dae"]
    assert "hx-swap-oob" not in client.get("/history?status=deleted").get_data(as_text=True)  # the page: one select


def test_head_to_head_opens_the_games_of_the_two_in_that_game(client, season):
    """"Who wins our Duels?": a head-to-head count opens the history of those two players' games
    of that game only (the history filtered one player at a time)."""
    import_log(client, fixture_log("splendor-133.json", ["Ana", "Ben", "Cho"], "2026-11-20T19:00:00Z"))
    ana, ben = player_id(client, "Ana"), player_id(client, "Ben")
    page = client.get(f"/players/{ana}").get_data(as_text=True)
    link = re.search(rf'href="(/history\?player={ana}&amp;kind=duel&amp;with={ben})"', page)[1].replace("&amp;", "&")
    history = client.get(link).get_data(as_text=True)
    shown = {season[name]["id"] for name in ("duel-1012.json", "duel-1069.json", "duel-1102.json")}
    assert set(re.findall(r'data-game="([A-Za-z0-9_-]+)"', history)) == shown
    assert "Only the games with Ben" in history and f'name="with" value="{ben}"' in history
    assert f'id="clear-with">' in history and f'href="/history?player={ana}&amp;kind=duel" class="small-btn" id="clear-with"' in history
    both = client.get(f"/history?player={ana}&with={ben}").get_data(as_text=True)  # every game: 4 with Splendor's two
    assert len(set(re.findall(r'data-game="([A-Za-z0-9_-]+)"', both))) == 5
    assert "Only the games with" not in client.get(f"/history?with={ben}").get_data(as_text=True)  # needs a player
    for odd in (f"player={ana}&with=99999", f"player={ana}&with={ana}", f"player=99999&with={ben}", f"player={ana}&with=x"):
        page = client.get(f"/history?{odd}").get_data(as_text=True)  # no such head to head: the filter is dropped
        assert "Only the games with" not in page and 'name="with"' not in page, odd
    assert len(set(re.findall(r'data-game="([A-Za-z0-9_-]+)"', client.get(f"/history?player={ana}&with={ana}")
                               .get_data(as_text=True)))) == 7  # all of Ana's games


def test_a_win_reaching_two_routes_is_explained_where_the_routes_outnumber_the_wins(client):
    """A tester counted 37 + 7 + 1 routes for 40 wins: one win can reach two routes (D-11)."""
    from tracker.rules import autoplay, duel
    from tracker.rules.events import event_to_dict

    setup, events, state = autoplay.play(5)  # Ana wins by prestige and one colour at once
    result = {"winner": duel.to_json(state)["winner"], "turns": state.turn}
    assert result["winner"]["routes"] == ["prestige", "color"]
    import_log(client, {"format": "splendor-tracker/1", "game": "duel", **setup,
                        "events": [event_to_dict(e) for e in events], "result": result})
    page = client.get(f"/players/{player_id(client, 'Ana')}").get_data(as_text=True)
    assert (stat(page, "wins"), stat(page, "route-prestige"), stat(page, "route-color")) == ("1", "1", "1")
    assert 'id="routes-overlap"' in page and "A win can reach two routes at once" in page
    # each route's bar is for the eye: a screen reader hears the route and its count (an audit
    # heard an unnamed "meter" beside each)
    assert page.count("<meter ") == 3 and page.count('aria-hidden="true"></meter>') == 3
    import_log(client, fixture_log("duel-1012.json", ["Cho", "Dan"], "2026-11-07T19:00:00Z"))
    assert 'id="routes-overlap"' not in client.get(f"/players/{player_id(client, 'Cho')}").get_data(as_text=True)


def test_a_game_in_progress_and_its_review_keep_the_names_as_recorded_until_it_ends(client):
    """A merge (or rename) during a game: its screen keeps "Ben" until the game ends, and so does
    its review, whose heading and turns said "Dan" while the screen said "Ben's turn" (a tester)."""
    game = new_game(client, ("Ana", "Ben"))
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}})
    import_log(client, fixture_log("own-prestige.json", ["Dan", "Eve"]))
    dan, ben = player_id(client, "Dan"), player_id(client, "Ben")
    assert client.post(f"/players/{dan}/merge", data={"other": str(ben), "confirm": "yes"}).status_code == 303
    assert "Ben's turn" in client.get(f"/games/{game['id']}").get_data(as_text=True)
    review = client.get(f"/games/{game['id']}/review").get_data(as_text=True)
    # (the game's random id may hold "Dan" by chance: CI's did, "8NJgDan-…")
    assert f'<a href="/players/{dan}">Ben</a>' in review and "Dan" not in review.replace(game["id"], "")
    assert client.get(f"/api/games/{game['id']}").get_json()["players"][1]["name"] == "Ben"


def test_a_finished_games_screen_shows_its_players_renamed_since(client):
    """Renamed on the Players page after the game: its victory banner, panels and "New game, same
    players" use the name of now, as History, the review and the night's tally do, and so does
    its log on the screen (the exported log keeps the names as recorded); a Splendor game's
    banner and log too."""
    game = import_log(client, fixture_log("duel-1102.json", ["Player A", "Player B"]))
    a = player_id(client, "Player A")
    assert client.post(f"/players/{a}/rename", data={"name": "Ana"}).status_code == 303
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    banner = page[page.index('id="victory"'):page.index('id="victory"') + 4000]
    assert "Player A" not in banner and "Ana" in banner and "Player B wins!" in banner
    assert re.search(r'id="same-players" href="/\?player0=Ana&amp;player1=Player\+B', page) or \
        re.search(r'id="same-players" href="/\?player0=Player\+B&amp;player1=Ana', page)
    log = page[page.index('id="log"'):]
    assert "Player A" not in log and log.count("Ana took") >= 3 and "Player B took" in log
    assert client.get(f"/api/games/{game['id']}/log").get_json()["players"] == ["Player A", "Player B"]
    splendor = import_log(client, fixture_log("splendor-153.json", ["Player A", "Player B"]))
    page = client.get(f"/games/{splendor['id']}").get_data(as_text=True)
    assert "Player A" not in page[page.index('id="victory"'):page.index('id="victory"') + 4000]
    assert "Player A" not in page[page.index('id="log"'):] and "Ana took" in page[page.index('id="log"'):]


def test_the_home_pages_games_show_players_renamed_or_merged_since(client):
    """A club organiser merged "Kai S." into Kai and renamed Tomas to Tomás: the home page's
    list of games said "Kai S. · Tomas … Tomas won" still (History and the players' pages said
    the names of now). The API's list keeps the names as recorded, as each game's log does."""
    new_game(client, ("Kai", "Lee"))
    game = import_log(client, fixture_log("duel-1102.json", ["Kai S.", "Tomas"]))  # seat 1 wins
    kai, kai_s, tomas = (player_id(client, n) for n in ("Kai", "Kai S.", "Tomas"))
    assert client.post(f"/players/{kai}/merge", data={"other": str(kai_s), "confirm": "yes"}).status_code == 303
    assert client.post(f"/players/{tomas}/rename", data={"name": "Tomás"}).status_code == 303
    home = client.get("/").get_data(as_text=True).replace(game["id"], "GAME")  # (a random id may hold any name)
    row = home[home.index('/games/GAME'):][:600]
    assert "Kai · Tomás" in row and "Tomás won" in row and "Kai S." not in home and "Tomas" not in home
    listed = {g["id"]: g for g in client.get("/api/games").get_json()}[game["id"]]
    assert listed["players"] == ["Kai S.", "Tomas"] and listed["winner_names"] == ["Tomas"]


def test_a_name_taken_at_the_same_moment_is_refused_as_taken(app, client):
    """Two renames to one new name at once (or a rename while a new game brings that name): the
    one whose write comes second is told the name is taken (422), not a 500; nothing is half
    renamed."""
    from sqlalchemy import event, insert

    from tracker.db import db
    from tracker.models import utcnow

    new_game(client, players=["Ria", "Sol"])
    ria = player_id(client, "Ria")
    sneaked: list[bool] = []

    def another_phone_first(session, _context, _instances):  # between the check and the write
        if not sneaked:
            sneaked.append(True)
            with db.engine.begin() as other:
                other.execute(insert(Player).values(name="Tove", normalized="tove", created=utcnow()))

    with app.app_context():
        event.listen(db.session, "before_flush", another_phone_first)
        try:
            resp = client.post(f"/players/{ria}/rename", data={"name": "Tove"})
        finally:
            event.remove(db.session, "before_flush", another_phone_first)
    assert sneaked and resp.status_code == 422
    assert "Tove is already a player: merge the two instead." in resp.get_data(as_text=True)
    names = re.findall(r'href="/players/\d+">([^<]+)<', client.get("/players").get_data(as_text=True))
    assert sorted(names) == ["Ria", "Sol"]  # Ria keeps her name, no alias of it is left behind
    with app.app_context():
        assert sorted((p.name, p.merged_into) for p in Player.query.all()) == [
            ("Ria", None), ("Sol", None), ("Tove", None)]


def test_two_phones_merging_two_people_into_each_other_keep_one(app, client):
    """Ana into Ben on one phone, Ben into Ana on another, at the same moment: the second merge
    is refused (422, "merged meanwhile"), one person is kept with both games; before, both
    merges went through, each was merged into the other and both left every list."""
    from sqlalchemy import event, update

    from tracker.db import db

    import_log(client, fixture_log("own-prestige.json", ["Ana", "Cho"], "2026-11-01T19:00:00Z"))
    import_log(client, fixture_log("own-crowns.json", ["Ben", "Dae"], "2026-11-02T19:00:00Z"))
    ana, ben = player_id(client, "Ana"), player_id(client, "Ben")
    sneaked: list[bool] = []

    def other_phone_first(_conn, _cursor, statement, _params, _context, _many):
        if not sneaked and ("ORDER BY players.id" in statement or statement.startswith("UPDATE players")):
            sneaked.append(True)  # Ben into Ana, committed just before this merge writes
            with db.engine.begin() as other:
                other.execute(update(Player).where(Player.id == ben).values(merged_into=ana))

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", other_phone_first)
        try:
            resp = client.post(f"/players/{ben}/merge", data={"other": str(ana), "confirm": "yes"})
        finally:
            event.remove(db.engine, "before_cursor_execute", other_phone_first)
    assert sneaked and resp.status_code == 422
    assert "was merged meanwhile" in resp.get_data(as_text=True)
    with app.app_context():
        kept = {p.id: p.merged_into for p in Player.query.filter(Player.id.in_([ana, ben]))}
    assert kept == {ana: None, ben: ana}
    page = client.get("/players").get_data(as_text=True)
    assert "Ana" in page and not re.search(r'href="/players/\d+">Ben<', page)


def test_the_entry_that_ends_a_renamed_players_game_says_the_name_of_now(client):
    """Pia, renamed Pina while her game went on, makes its last entry: the screen that answers it
    (banner, toast, the victory alert read out, the log) says Pina, as the finished game does
    from then on; before, the banner said Pina and the toast and alert Pia."""
    import json

    log = fixture_log("duel-1102.json", ["Quin", "Pia"])  # the second player wins it
    last = log["events"][-1]
    ongoing = {**log, "events": log["events"][:-1], "result": None}
    game = import_log(client, ongoing)
    assert client.post(f"/players/{player_id(client, 'Pia')}/rename", data={"name": "Pina"}).status_code == 303
    resp = client.post(f"/games/{game['id']}/events", headers={"HX-Request": "true"},
                       data={"event": json.dumps(last), "expected_version": str(game["version"])})
    body = resp.get_data(as_text=True).replace(game["id"], "")  # (a random id may hold "Pia")
    assert resp.status_code == 200 and 'id="victory"' in body
    alerts = json.loads(resp.headers["HX-Trigger"])["tracker:alerts"]
    victory = next(a for a in alerts if a["kind"] == "victory")
    assert victory["player"] == 1 and victory["message"] == "Pina wins!"
    assert "Pia" not in body and "Pia" not in resp.headers["HX-Trigger"]
    assert re.search(r'class="alert alert-done"[^>]*><span>✓ Pina ', body)


def test_a_typo_left_as_another_name_can_be_forgotten(app, client):
    """Ana renamed "Anaa" by mistake, then "Ana Kim": both old names lead to her. The player
    page lists them; forgetting "Anaa" frees it (a new game's "Anaa" is a new person) while her
    games and her other names stay hers; a name not hers, or a name a game seats her under, is
    refused with a sentence (422), nothing deleted."""
    from tracker.db import db
    from tracker.models import GamePlayer

    import_log(client, fixture_log("own-prestige.json", ["Ana", "Ben"], "2026-11-01T19:00:00Z"))
    ana = player_id(client, "Ana")
    for name in ("Anaa", "Ana Kim"):
        assert client.post(f"/players/{ana}/rename", data={"name": name}).status_code == 303
    page = client.get(f"/players/{ana}").get_data(as_text=True)
    names = re.findall(r'<span class="alias-name">([^<]+)</span>', page)
    assert names == ["Ana", "Anaa"] and "Other names (2)" in page
    ids = dict(zip(names, re.findall(r'name="alias" value="(\d+)"', page)))
    resp = client.post(f"/players/{ana}/forget-name", data={"alias": ids["Anaa"]})
    assert resp.status_code == 303 and resp.headers["Location"] == f"/players/{ana}"
    page = client.get(f"/players/{ana}").get_data(as_text=True)
    assert "“Anaa” is forgotten: typed again, it is a new player." in page
    assert re.findall(r'<span class="alias-name">([^<]+)</span>', page) == ["Ana"] and stat(page, "games") == "1"
    assert "is forgotten" not in client.get(f"/players/{ana}").get_data(as_text=True)  # said once
    # "Anaa" typed at a new game is a new person; "Ana" still means Ana Kim
    client.post("/api/games", json={"game": "duel", "players": ["Anaa", "Ben"], "first_player": 0})
    client.post("/api/games", json={"game": "duel", "players": ["Ana", "Cho"], "first_player": 0})
    listing = client.get("/players").get_data(as_text=True)
    assert sorted(re.findall(r'href="/players/\d+">([^<]+)<', listing)) == ["Ana Kim", "Anaa", "Ben", "Cho"]
    assert stat(client.get(f"/players/{ana}").get_data(as_text=True), "games") == "2"
    # refusals: a name of someone else (Ben has none), the same name twice, a name a game seats her under
    ben = player_id(client, "Ben")
    refused = client.post(f"/players/{ben}/forget-name", data={"alias": ids["Ana"]})
    assert refused.status_code == 422 and "That is not one of this player&#39;s names" in refused.get_data(as_text=True)
    assert client.post(f"/players/{ana}/forget-name", data={"alias": ids["Anaa"]}).status_code == 422
    assert client.post(f"/players/{ana}/forget-name", data={"alias": "x"}).status_code == 422
    with app.app_context():
        seat = db.session.scalars(db.select(GamePlayer).where(GamePlayer.player_id == ana)).first()
        seat.player_id = int(ids["Ana"])  # an imported game seating her under her old name
        db.session.commit()
    refused = client.post(f"/players/{ana}/forget-name", data={"alias": ids["Ana"]})
    assert refused.status_code == 422 and "A game seats Ana Kim as Ana, so that name stays theirs." in \
        refused.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Player, int(ids["Ana"])) is not None


def test_a_merge_may_keep_the_other_name_and_every_link_still_leads_to_the_person(client):
    """A tester merged Mina (3 games) into Minah (1 game) from Minah's page and lost the spelling the
    table used; renaming back to Mina then left Mina's old links (history filter, player page)
    leading nowhere. The merge asks which name to keep, offering the one with more games first."""
    for i, log in enumerate(("own-prestige.json", "own-crowns.json", "duel-1012.json")):
        import_log(client, fixture_log(log, ["Ana", "Mina"], f"2026-11-0{i + 1}T19:00:00Z"))
    import_log(client, fixture_log("duel-1069.json", ["Ana", "Minah"], "2026-11-05T19:00:00Z"))
    mina, minah = player_id(client, "Mina"), player_id(client, "Minah")
    ask = client.post(f"/players/{minah}/merge", data={"other": str(mina)}).get_data(as_text=True)
    assert re.findall(r'<input type="radio" name="name" value="(\w+)" ?(checked)?', ask) == [("other", "checked"), ("keep", "")]
    assert re.search(r'value="other" checked> Mina\s*<span class="hint">\(3 games\)</span>', ask)
    resp = client.post(f"/players/{minah}/merge", data={"other": str(mina), "confirm": "yes", "name": "other"})
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/players/{minah}")
    page = client.get(f"/players/{minah}").get_data(as_text=True)
    assert "<h1>Mina</h1>" in page or re.search(r"<h1[^>]*>\s*Mina\s*<", page)
    assert stat(page, "games") == "4"
    assert player_id(client, "Mina") == minah and "Minah</a>" not in client.get("/players").get_data(as_text=True)
    for old_link in (mina, minah):  # either id: the person's page and their games
        assert client.get(f"/players/{old_link}").status_code in (200, 301)
        filtered = client.get(f"/history?player={old_link}").get_data(as_text=True)
        assert len(re.findall(r'<li class="game-row', filtered)) == 4 and f'<option value="{minah}" selected' in filtered
    # both spellings typed at a new game mean her
    for typed in ("minah", "MINA"):
        client.post("/games", data={"player0": typed, "player1": "Ana", "first": "0"})
    assert stat(client.get(f"/players/{minah}").get_data(as_text=True), "games") == "6"


def test_forgetting_the_spelling_a_merge_left_keeps_every_link_to_the_person(client):
    """A tester merged TmA into TaAnna keeping "TaAnna": the row of TaAnna's first id then held
    the alias "TmA", and forgetting "TmA" made /players/<TaAnna's first id> a 404."""
    for i, log in enumerate(("own-prestige.json", "own-crowns.json")):
        import_log(client, fixture_log(log, ["Ana", "TaAnna"], f"2026-11-0{i + 1}T19:00:00Z"))
    import_log(client, fixture_log("duel-1012.json", ["Ana", "TmA"], "2026-11-05T19:00:00Z"))
    first, tma = player_id(client, "TaAnna"), player_id(client, "TmA")
    assert client.post(f"/players/{tma}/merge", data={"other": str(first), "confirm": "yes", "name": "other"}).status_code == 303
    page = client.get(f"/players/{tma}").get_data(as_text=True)
    alias = dict(zip(re.findall(r'<span class="alias-name">([^<]+)</span>', page), re.findall(r'name="alias" value="(\d+)"', page)))
    assert list(alias) == ["TmA"]
    assert client.post(f"/players/{tma}/forget-name", data={"alias": alias["TmA"]}).status_code == 303
    for link in (first, tma):
        assert client.get(f"/players/{link}", follow_redirects=True).status_code == 200
        filtered = client.get(f"/history?player={link}").get_data(as_text=True)
        assert len(re.findall(r'<li class="game-row', filtered)) == 3
    page = client.get(f"/players/{tma}").get_data(as_text=True)
    assert re.findall(r'<span class="alias-name">([^<]+)</span>', page) == [] and stat(page, "games") == "3"
    assert "TmA" not in client.get("/history/export.json").get_json()["aliases"]
    # the name is free: typed at a new game, a new person
    client.post("/api/games", json={"game": "duel", "players": ["TmA", "Ben"], "first_player": 0})
    assert player_id(client, "TmA") not in (first, tma)


def test_renaming_back_to_an_old_name_keeps_the_old_names_links(client):
    import_log(client, fixture_log("own-prestige.json", ["Ana", "Mina"], "2026-11-01T19:00:00Z"))
    import_log(client, fixture_log("own-crowns.json", ["Ana", "Minah"], "2026-11-02T19:00:00Z"))
    mina, minah = player_id(client, "Mina"), player_id(client, "Minah")
    assert client.post(f"/players/{minah}/merge", data={"other": str(mina), "confirm": "yes"}).status_code == 303
    assert client.post(f"/players/{minah}/rename", data={"name": "Mina"}).status_code == 303
    assert player_id(client, "Mina") == minah
    page = client.get(f"/players/{minah}").get_data(as_text=True)
    assert "Minah" in page  # the name left is one of her other names
    for old_link in (mina, minah):
        filtered = client.get(f"/history?player={old_link}").get_data(as_text=True)
        assert len(re.findall(r'<li class="game-row', filtered)) == 2 and f'<option value="{minah}" selected' in filtered
    old = client.get(f"/players/{mina}")
    assert old.status_code == 301 and old.headers["Location"].endswith(f"/players/{minah}")


def test_a_name_taken_by_someone_met_at_a_game_is_refused_without_offering_a_merge(client):
    """Renaming Ana to "Ben" when Ana and Ben played together: a merge is impossible, so the
    refusal says to choose another name (it said "merge the two instead", and the merge was refused)."""
    import_log(client, fixture_log("own-prestige.json", ["Ana", "Ben"], "2026-11-01T19:00:00Z"))
    import_log(client, fixture_log("own-crowns.json", ["Ben", "Cleo"], "2026-11-02T19:00:00Z"))
    ana, ben, cleo = (player_id(client, n) for n in ("Ana", "Ben", "Cleo"))
    resp = client.post(f"/players/{ana}/rename", data={"name": "ben"})
    assert resp.status_code == 422
    assert "Ben is another player, who sat at a game with Ana: choose another name." in resp.get_data(as_text=True)
    assert client.post(f"/players/{cleo}/rename", data={"name": "Benny"}).status_code == 303
    assert client.post(f"/players/{cleo}/rename", data={"name": "Cleo"}).status_code == 303  # Benny: Cleo's alias
    resp = client.post(f"/players/{ben}/rename", data={"name": "BENNY"})
    assert resp.status_code == 422
    assert "Benny is already another name of Cleo, who sat at a game with Ben: choose another name." in resp.get_data(as_text=True)
    # Ana never met Cleo: the merge is what she is told
    resp = client.post(f"/players/{ana}/rename", data={"name": "Cleo"})
    assert resp.status_code == 422 and "Cleo is already a player: merge the two instead." in resp.get_data(as_text=True)


def _upload(client, data) -> str:
    """The History page's import of ``data`` (a backup): the page it lands on."""
    body = io.BytesIO(json.dumps(data).encode())
    return client.post("/history/import", data={"file": (body, "backup.json")}, content_type="multipart/form-data",
                       follow_redirects=True).get_data(as_text=True)


def test_a_backup_of_games_stored_already_brings_no_forgotten_name_back(client):
    """A tester forgot the old name "Bena" of Benedict, then imported a backup made before:
    "Nothing new", yet "Bena" was Benedict's name again (the backup's aliases were restored)."""
    import_log(client, fixture_log("own-prestige.json", ["Bena", "Cho"], "2026-11-01T19:00:00Z"))
    bena = player_id(client, "Bena")
    assert client.post(f"/players/{bena}/rename", data={"name": "Benedict"}).status_code == 303
    backup = client.get("/history/export.json").get_json()
    assert backup["aliases"] == {"Bena": "Benedict"}
    page = client.get(f"/players/{bena}").get_data(as_text=True)
    alias = dict(zip(re.findall(r'<span class="alias-name">([^<]+)</span>', page), re.findall(r'name="alias" value="(\d+)"', page)))
    assert client.post(f"/players/{bena}/forget-name", data={"alias": alias["Bena"]}).status_code == 303
    assert "Nothing new" in _upload(client, backup)
    page = client.get(f"/players/{bena}").get_data(as_text=True)
    assert re.findall(r'<span class="alias-name">([^<]+)</span>', page) == [] and stat(page, "games") == "1"
    assert "Bena" not in client.get("/history/export.json").get_json()["aliases"]
    # a backup with a new game of Benedict's brings the name back with it (the file's games need it)
    backup["games"].append({**fixture_log("own-crowns.json", ["Bena", "Cho"], "2026-11-02T19:00:00Z"),
                            "people": ["Benedict", "Cho"]})
    assert "Imported 1 game" in _upload(client, backup)
    assert client.get("/history/export.json").get_json()["aliases"] == {"Bena": "Benedict"}
    assert stat(client.get(f"/players/{bena}").get_data(as_text=True), "games") == "2"


def test_a_name_forgotten_stays_forgotten_in_a_backup_restored_elsewhere(client, sqlite_template, tmp_path):
    """A club organiser renamed Dana to Daniela and forgot "Dana"; the backup restored into an
    empty database listed "Dana" as Daniela's other name again, and a new game's "Dana" went to
    Daniela. The backup says which names were forgotten; the restore forgets them again, her games
    staying hers."""
    import io
    import shutil

    from appconfig import app_config

    from tracker import create_app

    import_log(client, fixture_log("own-prestige.json", ["Dana", "Ben"], "2026-11-01T19:00:00Z"))
    dana = player_id(client, "Dana")
    assert client.post(f"/players/{dana}/rename", data={"name": "Daniela"}).status_code == 303
    alias = re.search(r'name="alias" value="(\d+)"', client.get(f"/players/{dana}").get_data(as_text=True))[1]
    assert client.post(f"/players/{dana}/forget-name", data={"alias": alias}).status_code == 303
    backup = client.get("/history/export.json").get_json()
    assert backup["forgotten"] == ["Dana"] and "Dana" not in backup["aliases"]
    shutil.copy(sqlite_template, tmp_path / "restored.sqlite3")
    other = create_app(app_config(f"sqlite:///{tmp_path / 'restored.sqlite3'}")).test_client()
    resp = other.post("/history/import", data={"file": (io.BytesIO(json.dumps(backup).encode()), "b.json")})
    assert resp.status_code == 303, resp.get_data(as_text=True)[:500]
    daniela = player_id(other, "Daniela")
    page = other.get(f"/players/{daniela}").get_data(as_text=True)
    assert re.findall(r'<span class="alias-name">([^<]+)</span>', page) == [] and stat(page, "games") == "1"
    other.post("/api/games", json={"game": "duel", "players": ["Dana", "Ben"], "first_player": 0})
    listing = other.get("/players").get_data(as_text=True)
    assert sorted(re.findall(r'href="/players/\d+">([^<]+)<', listing)) == ["Ben", "Dana", "Daniela"]
    assert stat(other.get(f"/players/{daniela}").get_data(as_text=True), "games") == "1"
    # the restored history's own backup says the same
    assert other.get("/history/export.json").get_json()["forgotten"] == ["Dana"]


def test_a_name_at_another_table_right_now_is_asked_about_before_the_game_starts(app, client):
    """A café evening (a tester): "Min" typed at a second table while another Min was playing
    at the first made the two one player, unsaid. The home form now asks once, naming that
    game; the form sent again as it is starts the game (the same person), another name starts
    it at once; the same people playing on, the game the phone is on, a finished game or one
    left untouched for half an hour ask nothing."""
    from datetime import timedelta

    from sqlalchemy import update

    from tracker.db import db
    from tracker.models import Event, Game, utcnow

    first = new_game(client, ("Ana", "Min"))
    assert post(client, first["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).status_code == 200

    def start(*names, **extra):
        return client.post("/games", data={"game": "duel", "player0": names[0], "player1": names[1], "first": "0", **extra})

    def games():
        return len(client.get("/api/games").get_json())

    # the same people playing on: their own game is none (that next game deleted again)
    resp = start("Min", "Ana")
    assert resp.status_code == 303
    assert client.post(f"/history/{resp.headers['Location'].rsplit('/', 1)[-1]}/delete").status_code == 303
    before = games()
    resp = start("min ", "Jae")
    page = resp.get_data(as_text=True)
    assert resp.status_code == 200 and games() == before
    assert "min is also in a game in progress, played in the last half hour: Ana · Min, turn 2." in page
    assert '<input type="hidden" name="namesake_ok" value="min">' in page
    assert 'value="Jae"' in page  # the form kept as typed
    resp = start("min ", "Jae", namesake_ok="min")  # sent again: the same Min
    assert resp.status_code == 303 and games() == before + 1
    # another name: no question
    assert start("Min K", "Eve").status_code == 303
    # Jae's new game (just started, no entry yet) is one too: asked about Jae, turn 1
    page = start("Jae", "Cho").get_data(as_text=True)
    assert "Jae is also in a game in progress, started in the last half hour: Min · Jae." in page
    # the game this phone is on is not asked about: the same table choosing another game
    assert start("Ana", "Lee").status_code == 200  # (this client never opened Ana's game)
    phone = app.test_client()
    phone.get(f"/games/{first['id']}")
    assert phone.post("/games", data={"game": "duel", "player0": "Ana", "player1": "Lee", "first": "0"}).status_code == 303
    # a game left untouched for half an hour, or finished, asks nothing
    with app.app_context():
        long_ago = utcnow() - timedelta(minutes=31)
        db.session.execute(update(Game).values(started=long_ago))
        db.session.execute(update(Event).values(created=long_ago))
        db.session.commit()
    assert start("Min", "Kim").status_code == 303
