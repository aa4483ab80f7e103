"""Classic Splendor through the same JSON API: setup, complete 2-, 3- and 4-player games."""

from __future__ import annotations

import pytest
from helpers import load_fixture, post
from test_example_games import check_figures

from tracker.rules import splendor_autoplay
from tracker.rules.events import event_to_dict


def create(client, log: dict) -> dict:
    resp = client.post("/api/games", json={"game": "splendor", "players": log["players"],
                                           "first_player": log["first_player"], "nobles": log["nobles"]})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def replay(client, log: dict) -> tuple[dict, dict]:
    game = create(client, log)
    checkpoints = {c["after_event"]: c for c in log.get("checkpoints", [])}
    state = game
    for n, event in enumerate(log["events"], start=1):
        resp = post(client, game["id"], event, expected_version=state["version"], entry_id=f"s{n}")
        assert resp.status_code == 200, (n, event, resp.get_json())
        state = resp.get_json()
        if n in checkpoints:
            check_figures(state, checkpoints[n])
    return game, state


def test_a_splendor_game_starts_with_the_supply_for_its_player_count(client):
    game = create(client, {"players": ["Ana", "Ben", "Cho"], "first_player": 2,
                           "nobles": ["N-01", "N-02", "N-03", "N-04"]})
    assert game["game"] == "splendor" and game["current_player"] == 2
    assert game["board"] == {"white": 5, "blue": 5, "green": 5, "red": 5, "black": 5, "gold": 5}
    assert game["nobles_available"] == ["N-01", "N-02", "N-03", "N-04"] and game["final_round"] is False
    log = client.get(f"/api/games/{game['id']}/log").get_json()
    assert log["game"] == "splendor" and log["nobles"] == ["N-01", "N-02", "N-03", "N-04"]


@pytest.mark.parametrize("body", [
    {"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0, "nobles": ["N-01", "N-02"]},
    {"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0},
    {"game": "splendor", "players": ["Ana"], "first_player": 0, "nobles": ["N-01", "N-02"]},
    {"game": "splendor", "players": ["A", "B", "C", "D", "E"], "first_player": 0, "nobles": []},
    {"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0, "nobles": ["N-01", "N-01", "N-02"]},
    {"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0, "nobles": ["N-01", "N-02", "N-99"]},
])
def test_a_bad_splendor_setup_is_refused(client, body):
    resp = client.post("/api/games", json=body)
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "bad_setup"


@pytest.mark.parametrize("name", ["splendor-153.json", "splendor-133.json"])
def test_recorded_splendor_games_replay_through_the_api(client, name):
    log = load_fixture(name)
    game, state = replay(client, log)
    assert state["status"] == "finished" and state["winner"] == log["result"]["winner"]
    assert state["turn"] == log["result"]["turns"]
    check_figures(state, log["expected"])
    exported = client.get(f"/api/games/{game['id']}/log").get_json()
    assert exported["result"] == log["result"] and exported["nobles"] == log["nobles"]
    again = client.post("/api/games/import", json={**exported, "id": None})  # the stored game without its id
    assert again.status_code == 200 and again.get_json()["id"] == game["id"]
    other_night = client.post("/api/games/import", json={**exported, "id": None, "started": "2026-01-02T19:00:00Z"})
    assert other_night.status_code == 201 and other_night.get_json()["winner"] == log["result"]["winner"]


def test_a_four_player_game_replays_through_the_api(client):
    setup, events, _final = splendor_autoplay.play(3, players=4)
    log = {"players": setup["players"], "first_player": setup["first_player"], "nobles": setup["nobles"],
           "events": [event_to_dict(e) for e in events]}
    assert len(log["players"]) == 4
    _game, state = replay(client, log)
    assert state["status"] == "finished"
    turns_each = state["turn"] / 4
    assert turns_each == int(turns_each)  # the round was completed: everyone played as often
    top = max(p["prestige"] for p in state["players"])
    assert top >= 15 and all(state["players"][s]["prestige"] == top for s in state["winner"]["players"])


def test_splendor_errors_come_from_its_rules(client):
    game = create(client, {"players": ["Ana", "Ben"], "first_player": 0, "nobles": ["N-01", "N-02", "N-03"]})
    gid = game["id"]
    two = post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 2}})
    assert two.status_code == 200
    again = post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"red": 2}})
    assert again.get_json()["error"]["code"] == "take_two_needs_four"
    pearl = post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"pearl": 1}})
    assert pearl.status_code == 422
    fix = post(client, gid, {"type": "correction", "player": 1, "set": {"tokens": {"pearl": 1}, "board": {"pearl": 0}}})
    assert fix.status_code == 422 and "Splendor has no pearls" in fix.get_json()["error"]["message"]
    royal = post(client, gid, {"type": "take_royal", "player": 1, "royal": "DR-1"})
    assert royal.status_code == 422 and royal.get_json()["error"]["code"] == "bad_event"
