"""S-1: setup (supply by player count, nobles on display), seats taking turns clockwise, the state JSON."""

import pytest

from tracker.rules import duel, splendor
from tracker.rules.errors import RuleError
from tracker.rules.events import Replenish, TakeRoyal, UsePrivileges
from tracker.rules.tokens import Tokens

from splendor_builders import ANA, BEN, CLEO, DAN, NAMES, new, position, quiet_turn, refused, take


@pytest.mark.parametrize(("players", "gems"), [(2, 4), (3, 5), (4, 7)])
def test_the_supply_holds_4_5_or_7_gems_per_colour_and_always_5_gold(players, gems):
    state = new(players)
    assert state.board == Tokens(white=gems, blue=gems, green=gems, red=gems, black=gems, gold=5)
    assert splendor.GEMS_PER_COLOR[players] == gems and splendor.GOLD_TOKENS == 5
    assert all(p.tokens.total == 0 and not p.cards and not p.reserved and not p.nobles for p in state.players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_players_plus_one_nobles_are_on_display(players):
    display = ["N-01", "N-02", "N-03", "N-04", "N-05"][: players + 1]
    state = splendor.new_game(list(NAMES[:players]), 0, display)
    assert state.nobles_available == tuple(display)


@pytest.mark.parametrize(
    "nobles",
    [
        None,
        ["N-01", "N-02"],  # one short for 2 players
        ["N-01", "N-02", "N-03", "N-04"],  # one too many
        ["N-01", "N-01", "N-02"],  # the same tile twice
        ["N-01", "N-02", "N-99"],  # unknown
        "N-01,N-02,N-03",
        ["N-01", "N-02", 3],
    ],
)
def test_the_nobles_on_display_must_be_players_plus_one_distinct_known_tiles(nobles):
    with pytest.raises(RuleError) as info:
        splendor.new_game(["Ana", "Ben"], 0, nobles)
    assert info.value.code == "bad_setup" and info.value.rule == "S-1"


@pytest.mark.parametrize(
    ("players", "first_player"),
    [(["Ana"], 0), (list(NAMES) + ["Eve"], 0), (["Ana", ""], 0), (["Ana", "x" * 41], 0), ("AnaBen", 0),
     (["Ana", "Ben"], 2), (["Ana", "Ben"], -1), (["Ana", "Ben"], True), (["Ana", "Ben"], None)],
)
def test_setup_needs_two_to_four_named_players_and_a_start_seat(players, first_player):
    with pytest.raises(RuleError) as info:
        splendor.new_game(players, first_player, ["N-01", "N-02", "N-03", "N-04", "N-05", "N-06"][: 3])
    assert info.value.code == "bad_setup"


def test_play_goes_clockwise_from_the_start_player_and_turn_counts_every_players_turns():
    state = new(3, first_player=CLEO)
    seen = []
    for _ in range(5):
        seen.append((state.turn, state.current_player))
        state = quiet_turn(state)
    assert seen == [(1, CLEO), (2, ANA), (3, BEN), (4, CLEO), (5, ANA)]


def test_an_entry_for_a_player_who_is_not_to_act_is_refused():
    state = new(4, first_player=BEN)
    error = refused(state, take(DAN, red=1, blue=1, green=1))
    assert error.code == "not_your_turn" and "Ben" in error.message


@pytest.mark.parametrize("event", [Replenish(player=0), UsePrivileges(player=0, tokens=Tokens(red=1)),
                                   TakeRoyal(player=0, royal="DR-1")])
def test_duel_only_entries_do_not_exist_in_splendor(event):
    assert refused(new(), event).code == "bad_event"


def test_the_state_json_has_the_splendor_shape():
    state = quiet_turn(new(3, first_player=BEN))
    data = splendor.to_json(state)
    assert data["game"] == "splendor" and data["status"] == "active"
    assert data["turn"] == 2 and data["current_player"] == CLEO and data["first_player"] == BEN
    assert data["final_round"] is False and data["pending"] is None and data["winner"] is None
    assert data["board"] == {"white": 4, "blue": 4, "green": 4, "red": 5, "black": 5, "gold": 5}
    assert data["nobles_available"] == ["N-06", "N-07", "N-08", "N-09"]
    for key in ("bag", "privileges_supply", "royals_available"):
        assert key not in data
    ben = data["players"][BEN]
    assert set(ben) >= {"name", "prestige", "bonuses", "tokens", "reserved", "cards", "nobles"}
    assert "crowns" not in ben and "privileges" not in ben and "royals" not in ben
    assert ben["tokens"] == {"white": 1, "blue": 1, "green": 1, "red": 0, "black": 0, "gold": 0}
    assert "pearl" not in ben["tokens"]


def test_alert_messages_go_through_the_translate_function():
    state = position(seats={ANA: dict(tokens={"white": 4, "blue": 4, "green": 2})})
    state = splendor.apply(state, take(ANA, green=1, red=1, black=1))
    seen = []
    data = splendor.to_json(state, translate=lambda template, params: seen.append(params) or "übersetzt")
    assert data["alerts"] == [{"kind": "discard_due", "player": ANA, "message": "übersetzt"}]
    assert seen == [{"name": "Ana", "total": 13, "count": 3}]
    assert splendor.to_json(state)["alerts"][0]["message"] == "Ana holds 13 tokens: return 3."


def test_splendor_offers_the_same_public_shape_as_duel():
    for name in ("GAME", "new_game", "apply", "replay", "steps", "to_json", "check_invariants",
                 "cost_after_bonuses", "payment_for"):
        assert hasattr(splendor, name) and hasattr(duel, name), name
    state = new()
    for attr in ("status", "pending", "winner", "turn", "current_player", "players", "alerts", "game"):
        assert hasattr(state, attr), attr
    assert state.game == splendor.GAME == "splendor"


def test_steps_yields_each_event_with_the_state_before_and_after():
    setup = {"players": ["Ana", "Ben"], "first_player": BEN, "nobles": ["N-06", "N-07", "N-08"]}
    events = [take(BEN, red=1, blue=1, green=1), take(ANA, red=1, blue=1, green=1)]
    triples = list(splendor.steps(setup, events))
    assert [ev for ev, _, _ in triples] == events
    assert triples[0][1] == splendor.replay(setup, [])
    assert triples[1][1] == triples[0][2]
    assert triples[-1][2] == splendor.replay(setup, [e.to_dict() for e in events])
