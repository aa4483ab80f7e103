"""Two complete recorded Splendor games (tests/fixtures/splendor-*.json: 2 and 3 players), replayed.

Each must reproduce its ``result``, every figure of ``expected`` and every ``checkpoint`` (the
figures after the first ``after_event`` events), using ``splendor.to_json`` field names.
"""

import json
from pathlib import Path

import pytest

from tracker.rules import splendor
from tracker.rules.errors import RuleError
from tracker.rules.events import TakeNoble, parse_event
from tracker.rules.tokens import Tokens

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
GAMES = sorted(FIXTURES.glob("splendor-*.json"))
BAGS = {"tokens", "board"}
SETS = {"cards", "nobles", "nobles_available"}


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _norm(key: str, value):
    """Token bags without zero counts, card and noble lists sorted, reserved entries sorted."""
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
            assert len(want) == len(state_json["players"]), f"{where}: players"
            for seat, player in enumerate(want):
                _compare(player, state_json["players"][seat], f"{where} player {seat}")
            continue
        if key == "reserved_count":
            assert len(state_json["reserved"]) == want, f"{where}: reserved_count"
            continue
        assert key in state_json, f"{where}: the state has no field {key}"
        assert _norm(key, state_json[key]) == _norm(key, want), f"{where}: {key}"


def test_the_two_recorded_games_are_here():
    assert [p.name for p in GAMES] == ["splendor-133.json", "splendor-153.json"]
    assert sorted(len(_load(p)["players"]) for p in GAMES) == [2, 3]


@pytest.fixture(params=GAMES, ids=lambda p: p.stem)
def game(request) -> dict:
    return _load(request.param)


def _events(game: dict) -> list:
    return [parse_event(e, len(game["players"])) for e in game["events"]]


def test_replay_reaches_the_recorded_result(game):
    state = splendor.replay(game, game["events"])
    assert state.status == "finished" and state.final_round
    assert state.winner.to_json() == game["result"]["winner"]
    assert state.turn == game["result"]["turns"]


def test_replay_reproduces_every_expected_final_figure(game):
    state = splendor.replay(game, game["events"])
    _compare(game["expected"], splendor.to_json(state), "final")


def test_replay_passes_every_checkpoint(game):
    events = _events(game)
    assert game["checkpoints"], "a recorded game has checkpoints"
    for checkpoint in game["checkpoints"]:
        n = checkpoint["after_event"]
        state = splendor.replay(game, events[:n])
        _compare(checkpoint, splendor.to_json(state), f"after event {n}")


def test_every_player_plays_the_same_number_of_turns(game):
    players = len(game["players"])
    assert game["result"]["turns"] % players == 0
    seats = []
    for event, before, after in splendor.steps(game, _events(game)):
        if after.turn != before.turn or after.status == "finished":
            seats.append(before.current_player)
    assert len(seats) == game["result"]["turns"]
    assert [seats.count(s) for s in range(players)] == [len(seats) // players] * players
    assert seats[0] == game["first_player"]


def test_replay_keeps_every_total_and_accepts_nothing_after_the_end(game):
    state = splendor.new_game(game["players"], game["first_player"], game["nobles"])
    totals = splendor.token_totals(len(game["players"]))
    for event in _events(game):
        state = splendor.apply(state, event)
        splendor.check_invariants(state)
        assert state.board + sum((p.tokens for p in state.players), Tokens()) == totals
    with pytest.raises(RuleError) as info:
        splendor.apply(state, parse_event({"type": "take_tokens", "player": state.current_player,
                                           "tokens": {"red": 1}}, len(game["players"])))
    assert info.value.code == "game_over"


def test_a_noble_choice_in_a_recorded_game_is_its_own_event(game):
    for event, before, after in splendor.steps(game, _events(game)):
        if isinstance(event, TakeNoble):
            assert before.pending.kind == "noble" and event.noble in before.pending.choices
            assert event.noble in after.players[event.player].nobles


def test_exported_events_replay_to_the_same_game(game):
    events = _events(game)
    again = [parse_event(json.loads(json.dumps(e.to_dict())), len(game["players"])) for e in events]
    assert again == events
    assert splendor.replay(game, again) == splendor.replay(game, game["events"])
