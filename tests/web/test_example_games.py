"""Complete recorded games replayed event by event through the JSON API, with known outcomes.

``duel-*.json`` are the shared examples (played by an independent engine); ``own-*.json`` are
our own games, one per victory route, whose winning figures are checked from the catalogue CSV
itself rather than from the engine.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from helpers import load_fixture, new_game, post

EXAMPLES = ["duel-1012.json", "duel-1069.json", "duel-1102.json"]
OWN = ["own-prestige.json", "own-crowns.json", "own-color.json"]


def nonzero(bag: dict) -> dict:
    return {k: v for k, v in bag.items() if v}


def check_figures(state: dict, expected: dict) -> None:
    """Every figure of ``expected`` (GAME-LOG.md field names) against the API state."""
    for key, value in expected.items():
        if key == "players":
            for seat, figures in enumerate(value):
                player = state["players"][seat]
                for field, want in figures.items():
                    if field == "reserved_count":
                        assert len(player["reserved"]) == want, (seat, field)
                    elif field in ("cards", "royals", "nobles"):  # sorted ids, as the examples list them
                        assert player[field] == sorted(want), (seat, field)
                    elif field == "tokens":
                        assert nonzero(player[field]) == nonzero(want), (seat, field)
                    else:
                        assert player[field] == want, (seat, field)
        elif key in ("board", "bag"):
            assert nonzero(state[key]) == nonzero(value), key
        elif key in ("nobles_available",):
            assert sorted(state[key]) == sorted(value), key
        elif key == "after_event":
            continue
        else:
            assert state[key] == value, key


def replay_through_api(client, log: dict) -> tuple[dict, dict]:
    game = new_game(client, tuple(log["players"]), log["first_player"])
    checkpoints = {c["after_event"]: c for c in log.get("checkpoints", [])}
    state = game
    for n, event in enumerate(log["events"], start=1):
        resp = post(client, game["id"], event, expected_version=state["version"], entry_id=f"e{n}")
        assert resp.status_code == 200, (n, event, resp.get_json())
        state = resp.get_json()
        if n in checkpoints:
            check_figures(state, checkpoints[n])
    return game, state


@pytest.mark.parametrize("name", EXAMPLES)
def test_shared_example_games_replay_to_their_known_outcome(client, name):
    log = load_fixture(name)
    game, state = replay_through_api(client, log)
    assert state["status"] == "finished"
    assert state["winner"] == log["result"]["winner"]
    assert state["turn"] == log["result"]["turns"]
    check_figures(state, log["expected"])
    exported = client.get(f"/api/games/{game['id']}/log").get_json()
    assert exported["result"] == log["result"]
    assert exported["events"] == [
        {**e, "payment": {k: v for k, v in e["payment"].items() if v}} if "payment" in e else e
        for e in log["events"]
    ]


def _catalogue() -> dict[str, dict]:
    path = Path(__file__).parents[2] / "tracker" / "rules" / "data" / "splendor_duel_jewels.csv"
    with path.open() as f:
        return {row["id"]: row for row in csv.DictReader(f)}


@pytest.mark.parametrize("name", OWN)
def test_our_own_games_end_on_each_route(client, name):
    log = load_fixture(name)
    _game, state = replay_through_api(client, log)
    route = name.removeprefix("own-").removesuffix(".json")
    assert state["status"] == "finished"
    assert state["winner"]["routes"] == [route] == log["result"]["winner"]["routes"]
    assert state["turn"] == log["result"]["turns"]
    winner = state["players"][state["winner"]["player"]]
    cards = _catalogue()
    royal_points = {"DR-1": 3, "DR-2": 2, "DR-3": 2, "DR-4": 2}
    prestige = sum(int(cards[c]["points"]) for c in winner["cards"]) + sum(royal_points[r] for r in winner["royals"])
    crowns = sum(int(cards[c]["crowns"]) for c in winner["cards"])
    by_color: dict[str, int] = {}
    for c in winner["cards"]:
        color = winner["jokers"].get(c, cards[c]["color"])
        if color != "none":
            by_color[color] = by_color.get(color, 0) + int(cards[c]["points"])
    assert winner["prestige"] == prestige and winner["crowns"] == crowns
    assert {"prestige": prestige >= 20, "crowns": crowns >= 10, "color": max(by_color.values()) >= 10}[route]
    loser = state["players"][1 - state["winner"]["player"]]
    assert loser["prestige"] < 20 and loser["crowns"] < 10 and max(loser["color_points"].values()) < 10
