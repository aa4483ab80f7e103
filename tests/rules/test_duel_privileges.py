"""D-3 privileges: using them (D-3.1), gaining them (D-3.2), and their total of 3 (D-3.3)."""

import pytest

from builders import (
    ANA,
    BEN,
    alerts,
    buy,
    new,
    play,
    position,
    refused,
    replenish,
    take,
    tokens_of,
    use,
)
from tracker.rules.tokens import Tokens


@pytest.mark.parametrize(
    "held, taken",
    [
        (1, {"red": 1}),
        (2, {"red": 1}),
        (2, {"pearl": 2}),
        (3, {"white": 1, "blue": 1, "black": 1}),
        (3, {"green": 2}),
        (3, {"green": 1, "pearl": 1}),
    ],
)
def test_each_privilege_returned_takes_one_gem_or_pearl_from_the_board(held, taken):
    state = position(ana=dict(privileges=held), ben=dict(privileges=0))
    after = play(state, use(ANA, **taken))
    n = sum(taken.values())
    assert tokens_of(after, ANA) == taken
    assert after.players[ANA].privileges == held - n
    assert after.privileges_supply == 3 - held + n
    assert after.board == state.board - Tokens(**taken)
    assert after.current_player == ANA, "using privileges is not the turn's action"


@pytest.mark.parametrize("held, asked", [(0, 1), (1, 2), (2, 3)])
def test_a_player_cannot_use_more_privileges_than_held(held, asked):
    state = position(ana=dict(privileges=held), ben=dict(privileges=0))
    error = refused(state, use(ANA, red=asked))
    assert error.code == "not_enough_privileges"
    assert error.rule == "D-3.1"


def test_a_privilege_never_takes_gold():
    state = position(ana=dict(privileges=2), ben=dict(privileges=0))
    assert refused(state, use(ANA, gold=1)).code == "gold_not_allowed"
    assert refused(state, use(ANA, gold=1, red=1)).code == "gold_not_allowed"


def test_a_privilege_takes_only_what_the_board_holds():
    state = position(ana=dict(privileges=2), ben=dict(tokens={"pearl": 2}))
    error = refused(state, use(ANA, pearl=1))
    assert error.code == "not_enough_tokens"
    state = position(ana=dict(privileges=2), bag={"red": 3})
    assert refused(state, use(ANA, red=2)).code == "not_enough_tokens"
    assert play(state, use(ANA, red=1)).board.red == 0


def test_a_privilege_must_take_at_least_one_token():
    state = position(ana=dict(privileges=1))
    assert refused(state, use(ANA)).code == "bad_event"


def test_no_privilege_may_be_used_after_replenishing_the_board():
    state = position(ana=dict(privileges=1), ben=dict(privileges=0), bag={"red": 2})
    state = play(state, replenish(ANA))
    error = refused(state, use(ANA, red=1))
    assert error.code == "privilege_after_replenish"
    assert error.rule == "D-3.1"  # GAME-LOG.md's table of codes


def test_privileges_may_be_used_before_a_replenish_in_the_same_turn():
    state = position(ana=dict(privileges=2), ben=dict(privileges=0), bag={"red": 2})
    state = play(state, use(ANA, blue=1), use(ANA, green=1), replenish(ANA))
    assert tokens_of(state, ANA) == {"blue": 1, "green": 1}
    assert state.players[BEN].privileges == 1


def test_privileges_are_not_used_once_the_action_is_done():
    # After the action the turn ends at once, so a privilege entry is the next player's.
    state = position(ana=dict(privileges=1), ben=dict(privileges=0))
    state = play(state, take(ANA, red=1))
    assert refused(state, use(ANA, blue=1)).code == "not_your_turn"


def test_two_pearls_taken_with_privileges_never_give_the_opponent_a_privilege():
    state = position(ana=dict(privileges=2), ben=dict(privileges=0))
    state = play(state, use(ANA, pearl=2), take(ANA, red=1))
    assert state.players[BEN].privileges == 0
    assert state.privileges_supply == 3


def test_a_gained_privilege_comes_from_the_supply():
    state = position(ana=dict(privileges=0), ben=dict(privileges=0))
    state = play(state, take(ANA, red=3))
    assert state.players[BEN].privileges == 1
    assert state.privileges_supply == 2
    assert alerts(state) == [("privilege_given", BEN)]


def test_with_the_supply_empty_the_privilege_is_taken_from_the_opponent():
    state = position(ana=dict(privileges=2), ben=dict(privileges=1))
    assert state.privileges_supply == 0
    state = play(state, take(ANA, red=3))
    assert state.players[ANA].privileges == 1
    assert state.players[BEN].privileges == 2
    assert state.privileges_supply == 0
    assert alerts(state) == [("privilege_taken", BEN)]


def test_a_player_holding_all_three_privileges_gains_nothing():
    state = position(ana=dict(privileges=0), ben=dict(privileges=3))
    after = play(state, take(ANA, red=3))
    assert after.players[BEN].privileges == 3
    assert after.players[ANA].privileges == 0
    assert after.privileges_supply == 0
    assert alerts(after) == []


def test_the_take_privilege_ability_gains_from_the_supply_for_the_buyer():
    state = position(ana=dict(privileges=0, tokens={"white": 4, "black": 2, "pearl": 1}), ben=dict(privileges=1))
    state = play(state, buy(ANA, "D2-03", {"white": 4, "black": 2, "pearl": 1}))
    assert state.players[ANA].privileges == 1
    assert state.privileges_supply == 1
    assert ("privilege_gained", ANA) in alerts(state)


def test_the_take_privilege_ability_with_an_empty_supply_takes_the_opponents():
    state = position(ana=dict(privileges=1, tokens={"white": 4, "black": 2, "pearl": 1}), ben=dict(privileges=2))
    state = play(state, buy(ANA, "D2-03", {"white": 4, "black": 2, "pearl": 1}))
    assert [p.privileges for p in state.players] == [2, 1]
    assert state.privileges_supply == 0
    assert ("privilege_taken", ANA) in alerts(state)


def test_privileges_always_add_up_to_three():
    state = new(ANA)
    history = [take(ANA, red=3), use(BEN, pearl=1), take(BEN, blue=3), take(ANA, green=3), take(BEN, black=3)]
    for event in history:
        state = play(state, event)
        assert state.privileges_supply + sum(p.privileges for p in state.players) == 3
    assert [p.privileges for p in state.players] == [2, 1]
    assert state.privileges_supply == 0
