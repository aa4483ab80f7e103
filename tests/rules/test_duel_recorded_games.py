"""Three complete recorded games (tests/fixtures/duel-*.json), replayed event by event.

Each must reproduce its ``result``, every figure of ``expected`` and every ``checkpoint``
(the figures after the first ``after_event`` events), using ``duel.to_json`` field names.
"""

import json
from pathlib import Path

import pytest

from tracker.rules import duel
from tracker.rules.errors import RuleError
from tracker.rules.events import parse_event

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
GAMES = sorted(FIXTURES.glob("duel-*.json"))
BAGS = {"tokens", "board", "bag"}
SETS = {"cards", "royals", "royals_available"}


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _norm(key: str, value):
    """Token bags without zero counts, card lists sorted, reserved entries sorted."""
    if key in BAGS:
        return {k: v for k, v in value.items() if v}
    if key in SETS:
        return sorted(value)
    if key == "reserved":
        return sorted(value, key=lambda r: json.dumps(r, sort_keys=True))
    return value


def _compare(figures: dict, state_json: dict, where: str) -> None:
    for key, want in figures.items():
        if key == "after_event":
            continue
        if key == "players":
            for seat, player in enumerate(want):
                _compare(player, state_json["players"][seat], f"{where} player {seat}")
            continue
        if key == "reserved_count":
            assert len(state_json["reserved"]) == want, f"{where}: reserved_count"
            continue
        assert key in state_json, f"{where}: the state has no field {key}"
        assert _norm(key, state_json[key]) == _norm(key, want), f"{where}: {key}"


def test_the_three_recorded_games_are_here():
    assert [p.name for p in GAMES] == ["duel-1012.json", "duel-1069.json", "duel-1102.json"]


@pytest.fixture(params=GAMES, ids=lambda p: p.stem)
def game(request) -> dict:
    return _load(request.param)


def test_replay_reaches_the_recorded_result(game):
    state = duel.replay(game, game["events"])
    assert state.status == "finished"
    assert {"player": state.winner.player, "routes": list(state.winner.routes)} == game["result"]["winner"]
    assert state.turn == game["result"]["turns"]


def test_replay_reproduces_every_expected_final_figure(game):
    state = duel.replay(game, game["events"])
    _compare(game["expected"], duel.to_json(state), "final")


def test_replay_passes_every_checkpoint(game):
    events = [parse_event(e, 2) for e in game["events"]]
    assert game["checkpoints"], "a recorded game has checkpoints"
    for checkpoint in game["checkpoints"]:
        n = checkpoint["after_event"]
        state = duel.replay(game, events[:n])
        _compare(checkpoint, duel.to_json(state), f"after event {n}")


def test_replay_keeps_every_invariant_and_accepts_nothing_after_the_end(game):
    state = duel.new_game(game["players"], game["first_player"])
    for data in game["events"]:
        state = duel.apply(state, parse_event(data, 2))
        duel.check_invariants(state)
        assert state.privileges_supply + sum(p.privileges for p in state.players) == 3
    with pytest.raises(RuleError) as info:
        duel.apply(state, parse_event({"type": "replenish", "player": state.current_player}, 2))
    assert info.value.code == "game_over"


def test_exported_events_replay_to_the_same_game(game):
    events = [parse_event(e, 2) for e in game["events"]]
    again = [parse_event(json.loads(json.dumps(e.to_dict())), 2) for e in events]
    assert again == events
    assert duel.replay(game, again) == duel.replay(game, game["events"])
