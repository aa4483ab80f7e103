"""D-5 take up to 3 gems or pearls; 3 of a colour or 2 pearls give the opponent a privilege."""

import pytest

from builders import ANA, BEN, alerts, new, play, position, refused, take, tokens_of
from tracker.rules.tokens import Tokens


@pytest.mark.parametrize(
    "taken",
    [{"red": 1}, {"pearl": 1}, {"red": 1, "blue": 1}, {"white": 1, "green": 1, "black": 1}, {"red": 2, "pearl": 1}],
)
def test_one_to_three_tokens_move_from_the_board_to_the_player(taken):
    state = new()
    after = play(state, take(ANA, **taken))
    assert tokens_of(after, ANA) == taken
    assert after.board == state.board - Tokens(**taken)
    assert after.current_player == BEN


@pytest.mark.parametrize(
    "taken",
    [{"red": 4}, {"red": 2, "blue": 2}, {"white": 1, "blue": 1, "green": 1, "red": 1}, {"pearl": 2, "red": 2}],
)
def test_four_tokens_are_too_many(taken):
    error = refused(new(), take(ANA, **taken))
    assert error.code == "too_many_tokens"
    assert error.rule == "D-5"


def test_taking_nothing_is_not_an_action():
    assert refused(new(), take(ANA)).code == "bad_event"


@pytest.mark.parametrize("taken", [{"gold": 1}, {"gold": 1, "red": 2}])
def test_gold_is_never_taken_with_gems(taken):
    error = refused(new(), take(ANA, **taken))
    assert error.code == "gold_not_allowed"


def test_a_player_takes_only_what_the_board_holds():
    state = position(ben=dict(tokens={"red": 2}))
    assert refused(state, take(ANA, red=3)).code == "not_enough_tokens"
    state = position(ben=dict(tokens={"pearl": 1}))
    assert refused(state, take(ANA, pearl=2)).code == "not_enough_tokens"


@pytest.mark.parametrize(
    "taken, privilege",
    [
        ({"red": 3}, True),
        ({"black": 3}, True),
        ({"pearl": 2}, True),
        ({"pearl": 2, "white": 1}, True),
        ({"red": 2}, False),
        ({"red": 2, "blue": 1}, False),
        ({"pearl": 1}, False),
        ({"pearl": 1, "red": 2}, False),
        ({"white": 1, "blue": 1, "green": 1}, False),
    ],
)
def test_three_of_a_colour_or_two_pearls_give_the_opponent_a_privilege(taken, privilege):
    state = position(ana=dict(privileges=0), ben=dict(privileges=0))
    after = play(state, take(ANA, **taken))
    assert after.players[BEN].privileges == (1 if privilege else 0)
    assert after.players[ANA].privileges == 0
    assert after.privileges_supply == (2 if privilege else 3)
    assert alerts(after) == ([("privilege_given", BEN)] if privilege else [])


def test_the_player_taking_three_of_a_colour_never_gains_the_privilege():
    state = position(ana=dict(privileges=0), ben=dict(privileges=0), to_act=BEN)
    after = play(state, take(BEN, green=3))
    assert [p.privileges for p in after.players] == [1, 0]
