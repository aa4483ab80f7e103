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


def test_a_long_history_comes_in_pages_newest_first(app, client):
    ids = many_games(app, 230)
    first = client.get("/history").get_data(as_text=True)
    assert rows(first) == ids[::-1][:100]
    older = re.search(r'id="older-games" href="([^"]+)"', first)[1].replace("&amp;", "&")
    assert 'id="newer-games"' not in first and older == "/history?from=100"
    second = client.get(older).get_data(as_text=True)
    assert rows(second) == ids[::-1][100:200]
    assert re.search(r'id="newer-games" href="([^"]+)"', second)[1] == "/history"
    third = client.get(re.search(r'id="older-games" href="([^"]+)"', second)[1]).get_data(as_text=True)
    assert rows(third) == ids[::-1][200:] and 'id="older-games"' not in third
    # htmx: the games block alone, with its pager
    block = client.get("/history?from=100", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert block.lstrip().startswith('<section id="games"') and len(rows(block)) == 100 and 'id="older-games"' in block


def test_the_pages_keep_the_filters(app, client):
    many_games(app, 120)
    view = service.create_game({"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                "nobles": ["N-01", "N-02", "N-03"]})
    view.row.started = datetime(2023, 1, 1, 19)
    db.session.commit()
    ana = re.search(r'<option value="(\d+)">Ana<', client.get("/history").get_data(as_text=True))[1]
    page = client.get(f"/history?player={ana}&kind=duel").get_data(as_text=True)
    older = re.search(r'id="older-games" href="([^"]+)"', page)[1].replace("&amp;", "&")
    assert older == f"/history?player={ana}&kind=duel&from=100"
    assert len(rows(client.get(older).get_data(as_text=True))) == 20  # the Splendor game left out


def test_a_game_night_is_never_cut_in_two(app, client):
    """Eight games an evening: page one ends with its 13th evening whole (104 games), and the
    evening's tally counts all eight."""
    ids = many_games(app, 160, per_night=8)
    with app.test_request_context("/history"):
        records, older = stats.history(offset=0)
        assert len(records) == 104 and older == 104
        assert stats.history(offset=104)[1] is None
    page = client.get("/history").get_data(as_text=True)
    assert rows(page) == ids[::-1][:104]
    assert len(rows(client.get("/history?from=104").get_data(as_text=True))) == 56


def test_a_bad_page_number_shows_the_first_page(app, client):
    many_games(app, 3)
    for bad in ("-5", "abc", "99999999999999999999", "1e3"):
        resp = client.get(f"/history?from={bad}")
        assert resp.status_code == 200 and len(rows(resp.get_data(as_text=True))) == 3, bad
    assert rows(client.get("/history?from=50").get_data(as_text=True)) == []


def test_an_import_refused_on_the_history_page_says_the_result_in_words(client):
    log = fixture_log("own-prestige.json", ["Dae", "Ana"])
    log["result"] = {**log["result"], "turns": log["result"]["turns"] + 1}
    resp = client.post("/history/import", data={"file": (io.BytesIO(json.dumps(log).encode()), "log.json")})
    text = resp.get_data(as_text=True)
    assert resp.status_code == 422
    message = re.search(r'id="import-error" role="alert">([^<]+)<', text)[1]
    assert "(&#39;" not in message and "('" not in message and "Game 1 of the file" not in message
    assert f"won by 20 prestige after {log['result']['turns']} turns" in message
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
    assert resp.status_code == 422 and message.startswith("Game 2 of the file: Replaying the log")
    assert "won by 20 prestige after 3 turns" in message
    with client.application.app_context():
        assert Game.query.count() == 0
