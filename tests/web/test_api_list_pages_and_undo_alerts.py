"""GAME-LOG.md's JSON API: the list of games in pages (``Link: rel="next"``) and an undo's
answer without the alerts of the entry before it ("alerts are the ones raised by the last write")."""

from __future__ import annotations

import re
from datetime import datetime

from helpers import new_game, post

from tracker import service
from tracker.db import db
from tracker.models import Game


def next_link(resp) -> str | None:
    """The URL of the ``rel="next"`` page in the answer's ``Link`` header, if any."""
    match = re.fullmatch(r'<([^>]+)>; rel="next"', resp.headers.get("Link", ""))
    return match.group(1) if match else None


def test_the_list_of_games_comes_in_pages_and_misses_none(client, monkeypatch):
    monkeypatch.setattr(service, "API_PAGE", 3)
    ids = [new_game(client, (f"Ana {i}", f"Ben {i}"))["id"] for i in range(7)]
    # two games started at the very same moment: ordered by id, never one on two pages or none
    same = datetime(2026, 11, 1, 20, 0, 0)
    for game_id in ids[2:4]:
        db.session.get(Game, game_id).started = same
    db.session.commit()
    pages, url = [], "/api/games"
    while url is not None:
        resp = client.get(url)
        assert resp.status_code == 200
        pages.append([g["id"] for g in resp.get_json()])
        url = next_link(resp)
    assert [len(p) for p in pages] == [3, 3, 1]
    listed = [game_id for page in pages for game_id in page]
    assert sorted(listed) == sorted(ids) and len(set(listed)) == 7
    assert listed[-2:] == sorted(ids[2:4], reverse=True)  # the oldest two, by id
    rows = {r.id: r.started for r in db.session.query(Game)}
    assert [rows[i] for i in listed] == sorted(rows.values(), reverse=True)  # newest first


def test_a_game_started_between_two_pages_shifts_nothing(client, monkeypatch):
    monkeypatch.setattr(service, "API_PAGE", 2)
    ids = [new_game(client, (f"Cho {i}", f"Dan {i}"))["id"] for i in range(4)]
    first = client.get("/api/games")
    assert [g["id"] for g in first.get_json()] == ids[:1:-1] and first.headers["Link"].endswith('; rel="next"')
    new_game(client, ("Eun", "Fay"))
    second = client.get(next_link(first))
    assert [g["id"] for g in second.get_json()] == ids[1::-1] and next_link(second) is None


def test_a_full_list_has_no_link_and_a_wrong_cursor_is_not_found(client):
    game = new_game(client)
    resp = client.get("/api/games")
    assert [g["id"] for g in resp.get_json()] == [game["id"]] and "Link" not in resp.headers
    for older in ("no-such-game-id-at-all-here", "x\x00y", "a" * 300):
        bad = client.get("/api/games", query_string={"older": older})
        assert bad.status_code == 404 and bad.get_json()["error"]["code"] == "not_found"
    assert client.get("/api/games", query_string={"older": game["id"]}).get_json() == []
    assert [g["id"] for g in client.get("/api/games?older=").get_json()] == [game["id"]]  # empty: the first page


def test_an_undo_answers_with_no_alert_of_the_entry_before_it(client, app):
    game = new_game(client)
    gid = game["id"]
    taken = post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 3}}).get_json()
    assert [a["kind"] for a in taken["alerts"]] == ["privilege_given"]
    post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})
    undone = client.post(f"/api/games/{gid}/undo", json={}).get_json()
    assert undone["alerts"] == [] and undone["version"] == 3 and undone["current_player"] == 1
    assert client.get(f"/api/games/{gid}").get_json()["alerts"] == []  # the worker's kept game
    app.extensions.pop("tracker.snapshots", None)  # another worker: folded from the database
    assert client.get(f"/api/games/{gid}").get_json()["alerts"] == []
    # the undo of a game's only entry, folded afresh
    client.post(f"/api/games/{gid}/undo", json={})
    app.extensions.pop("tracker.snapshots", None)
    state = client.get(f"/api/games/{gid}").get_json()
    assert state["alerts"] == [] and state["version"] == 4 and state["current_player"] == 0
    # the next entry's alerts are its own again, on a kept game and on a fresh fold
    again = post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 3}}).get_json()
    assert [a["kind"] for a in again["alerts"]] == ["privilege_given"]
    app.extensions.pop("tracker.snapshots", None)
    assert [a["kind"] for a in client.get(f"/api/games/{gid}").get_json()["alerts"]] == ["privilege_given"]


def test_the_phone_after_an_undo_announces_nothing_again(client):
    """The game screen after an undo (this phone's, and the other phone's poll) carries no alert:
    the other phone said "Ben gains a privilege" once, when it happened."""
    game = new_game(client)
    gid = game["id"]
    post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})
    post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}})
    client.post(f"/api/games/{gid}/undo", json={})
    page = client.get(f"/games/{gid}/poll", query_string={"v": 2}, headers={"HX-Request": "true"})
    assert page.status_code == 200
    assert "privilege_given" not in page.get_data(as_text=True)
