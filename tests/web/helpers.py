"""Helpers for request tests: create a game and post events through the JSON API."""

from __future__ import annotations

from typing import Any


def new_game(client: Any, players: tuple[str, str] = ("Ana", "Ben"), first_player: int = 0) -> dict:
    resp = client.post("/api/games", json={"game": "duel", "players": list(players), "first_player": first_player})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def post(client: Any, game_id: str, event: dict, **extra: Any):
    return client.post(f"/api/games/{game_id}/events", json={**event, **extra})


def play(client: Any, game_id: str, events: list[dict]) -> dict:
    state = None
    for i, ev in enumerate(events):
        resp = post(client, game_id, ev)
        assert resp.status_code == 200, (i, ev, resp.get_json())
        state = resp.get_json()
    return state


def load_fixture(name: str) -> dict:
    """A game log from ``tests/fixtures`` (copies of the shared examples and our own games)."""
    import json
    from pathlib import Path

    return json.loads((Path(__file__).parent.parent / "fixtures" / name).read_text())


def fixture_log(name: str, players: list[str] | tuple[str, ...] | None = None, started: str | None = None,
                minutes: int = 40) -> dict:
    """A fixture game log as a player would export it: test-only keys dropped, optionally other
    player names and a start time (finishing ``minutes`` later when the game is finished)."""
    from datetime import datetime, timedelta

    log = {k: v for k, v in load_fixture(name).items() if k not in ("expected", "checkpoints", "source")}
    if players is not None:
        log["players"] = list(players)
    if started is not None:
        log["started"] = started
        if log.get("result"):
            end = datetime.fromisoformat(started.replace("Z", "")) + timedelta(minutes=minutes)
            log["finished"] = end.strftime("%Y-%m-%dT%H:%M:%SZ")
    return log


def import_log(client: Any, log: dict) -> dict:
    """Import a log through the API (it must be new) and return the state."""
    resp = client.post("/api/games/import", json=log)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()
