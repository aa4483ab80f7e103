"""The history in pages of 100 games, a game night never cut in two, and the history page's
import refusals in words (a club's history passed 500 games and the oldest vanished unsaid)."""

from __future__ import annotations

import io
import json
import re
from datetime import datetime, timedelta

from helpers import fixture_log

from tracker import service, stats
from tracker.db import db
from tracker.models import Game


def many_games(app, count: int, per_night: int = 1, start: datetime = datetime(2024, 1, 1, 19)) -> list[str]:
    """``count`` new games, ``per_night`` of them on each evening (Ana and Ben), oldest first."""
    ids = []
    for i in range(count):
        view = service.create_game({"game": "duel", "players": ["Ana", "Ben"], "first_player": 0})
        view.row.started = start + timedelta(days=i // per_night, minutes=10 * (i % per_night))
        ids.append(view.row.id)
    db.session.commit()
    return ids


def rows(page: str) -> list[str]:
    return re.findall(r'<li class="game-row[^"]*"[^>]*data-game="([^"]+)"', page)


def link(page: str, name: str) -> str | None:
    found = re.search(rf'id="{name}" href="([^"]+)"', page)
    return found[1].replace("&amp;", "&") if found else None


def test_a_long_history_comes_in_pages_newest_first(app, client):
    ids = many_games(app, 230)
    first = client.get("/history").get_data(as_text=True)
    assert rows(first) == ids[::-1][:100]
    # export and import sit below a hundred games: the top of the page leads there
    assert '<a href="#transfer" id="to-transfer">Export and import ↓</a>' in first and '<section class="transfer" id="transfer">' in first
    assert link(first, "newest-games") is None and link(first, "older-games") == f"/history?older={ids[::-1][99]}"
    second = client.get(link(first, "older-games")).get_data(as_text=True)
    assert rows(second) == ids[::-1][100:200]
    assert link(second, "newest-games") == "/history"  # back to the start, whatever page this is
    third = client.get(link(second, "older-games")).get_data(as_text=True)
    assert rows(third) == ids[::-1][200:] and link(third, "older-games") is None
    # htmx: the games block alone, with its pager
    block = client.get(link(first, "older-games"), headers={"HX-Request": "true"}).get_data(as_text=True)
    assert block.lstrip().startswith('<section id="games"') and len(rows(block)) == 100 and 'id="older-games"' in block


def test_games_started_meanwhile_never_shift_a_page(app, client):
    """A club night: tables start games while someone pages back; the older page is the same."""
    ids = many_games(app, 150)
    older = link(client.get("/history").get_data(as_text=True), "older-games")
    before = rows(client.get(older).get_data(as_text=True))
    many_games(app, 3, start=datetime(2025, 1, 1, 19))
    assert rows(client.get(older).get_data(as_text=True)) == before == ids[::-1][100:]


def test_the_pages_keep_the_filters(app, client):
    many_games(app, 120)
    view = service.create_game({"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                "nobles": ["N-01", "N-02", "N-03"]})
    view.row.started = datetime(2023, 1, 1, 19)
    db.session.commit()
    ana = re.search(r'<option value="(\d+)">Ana<', client.get("/history").get_data(as_text=True))[1]
    page = client.get(f"/history?player={ana}&kind=duel").get_data(as_text=True)
    older = link(page, "older-games")
    assert older.startswith(f"/history?player={ana}&kind=duel&older=")
    second = client.get(older).get_data(as_text=True)
    assert len(rows(second)) == 20  # the Splendor game left out
    assert link(second, "newest-games") == f"/history?player={ana}&kind=duel"


def test_a_game_night_is_never_cut_in_two(app, client):
    """Eight games an evening: page one ends with its 13th evening whole (104 games), and the
    evening's tally counts all eight."""
    ids = many_games(app, 160, per_night=8)
    with app.test_request_context("/history"):
        records, last = stats.history()
        assert len(records) == 104 and last == ids[::-1][103]
        assert stats.history(older=last)[1] is None
    page = client.get("/history").get_data(as_text=True)
    assert rows(page) == ids[::-1][:104]
    assert len(rows(client.get(link(page, "older-games")).get_data(as_text=True))) == 56


def test_an_unknown_or_odd_cursor_shows_the_first_page(app, client):
    many_games(app, 3)
    for bad in ("-5", "abc", "x" * 80, "%00", ""):
        resp = client.get(f"/history?older={bad}")
        assert resp.status_code == 200 and len(rows(resp.get_data(as_text=True))) == 3, bad


def test_an_import_refused_on_the_history_page_says_the_result_in_words(client):
    log = fixture_log("own-prestige.json", ["Dae", "Ana"])
    log["result"] = {**log["result"], "turns": log["result"]["turns"] + 1}
    resp = client.post("/history/import", data={"file": (io.BytesIO(json.dumps(log).encode()), "log.json")})
    text = resp.get_data(as_text=True)
    assert resp.status_code == 422
    message = re.search(r'id="import-error" role="alert">([^<]+)<', text)[1]
    assert "(&#39;" not in message and "('" not in message and "Game 1 of the file" not in message
    assert f"won by 20 prestige after {log['result']['turns']} turns" in message
    assert '<strong class="import-none">Nothing was imported.</strong></p>' in text  # (whole or nothing: said)
    # the API says the same, in English
    api = client.post("/api/games/import", json=log).get_json()["error"]["message"]
    assert f"won by 20 prestige after {log['result']['turns']} turns" in api and "Game 1" not in api


def test_an_empty_list_is_not_game_1_of_a_file(client):
    resp = client.post("/history/import", data={"file": (io.BytesIO(b"[]"), "log.json")})
    assert resp.status_code == 422
    assert "Game 1 of the file" not in resp.get_data(as_text=True)


def test_a_backups_refusal_names_the_game_of_the_file(client):
    log = fixture_log("own-prestige.json", ["Dae", "Ana"])
    log["result"] = {**log["result"], "turns": 3}
    backup = {"format": service.HISTORY_FORMAT, "games": [fixture_log("own-crowns.json"), log]}
    resp = client.post("/history/import", data={"file": (io.BytesIO(json.dumps(backup).encode()), "backup.json")})
    message = re.search(r'id="import-error" role="alert">([^<]+)<', resp.get_data(as_text=True))[1]
    assert resp.status_code == 422 and message.startswith("Game 2 of the file (Dae · Ana")
    assert "won by 20 prestige after 3 turns" in message
    with client.application.app_context():
        assert Game.query.count() == 0


def test_a_backups_refused_game_is_named_by_its_players_and_day(client):
    log = fixture_log("own-prestige.json", ["Dae", "Ana"], "2026-11-20T19:00:00Z")
    log["result"] = {**log["result"], "turns": 3}
    backup = {"format": service.HISTORY_FORMAT, "games": [fixture_log("own-crowns.json"), log]}
    resp = client.post("/history/import", data={"file": (io.BytesIO(json.dumps(backup).encode()), "backup.json")})
    message = re.search(r'id="import-error" role="alert">([^<]+)<', resp.get_data(as_text=True))[1]
    assert message.startswith("Game 2 of the file (Dae · Ana, 2026-11-20): Replaying the log")


def test_a_wrong_splendor_result_names_what_differs(client):
    """A classic Splendor result wrong in its prestige or cards read "it records B won after 96
    turns, the replay gives B won after 96 turns": the figures that differ are named."""
    log = fixture_log("splendor-153.json")
    right = log["result"]["winner"]
    log["result"] = {**log["result"], "winner": {**right, "prestige": right["prestige"] + 9}}
    message = client.post("/api/games/import", json=log).get_json()["error"]["message"]
    assert f"with {right['prestige'] + 9} prestige and {right['cards']} cards" in message
    assert f"with {right['prestige']} prestige and {right['cards']} cards" in message


def test_a_backup_sent_to_the_api_says_where_it_goes(client):
    backup = {"format": service.HISTORY_FORMAT, "games": [fixture_log("own-crowns.json")]}
    error = client.post("/api/games/import", json=backup).get_json()["error"]
    assert error["code"] == "bad_log" and "History page" in error["message"]
