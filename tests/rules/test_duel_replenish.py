"""D-4 replenish: the bag empties onto the board and the opponent gains a privilege."""

import dataclasses

import pytest

from builders import ANA, BEN, alerts, bag, board, new, play, position, refused, replenish, reserve, take, use
from tracker.rules.tokens import Tokens


def test_replenish_with_an_empty_bag_is_refused():
    error = refused(new(), replenish(ANA))
    assert error.code == "bag_empty"
    assert error.rule == "D-4"


@pytest.mark.parametrize(
    "in_bag",
    [{"red": 1}, {"gold": 2, "pearl": 1}, {"white": 4, "blue": 3, "green": 2, "red": 1, "black": 4, "pearl": 2, "gold": 3}],
)
def test_replenish_puts_every_bag_token_on_the_board(in_bag):
    state = position(bag=in_bag)
    after = play(state, replenish(ANA))
    assert bag(after) == {}
    assert after.board == state.board + state.bag
    assert after.board.total == 25


def test_the_opponent_gains_a_privilege_on_replenish():
    state = position(ana=dict(privileges=0), ben=dict(privileges=0), bag={"red": 2})
    after = play(state, replenish(ANA))
    assert after.players[BEN].privileges == 1
    assert after.players[ANA].privileges == 0
    assert after.privileges_supply == 2
    assert alerts(after) == [("privilege_given", BEN)]


def test_replenish_with_an_empty_supply_takes_the_privilege_from_the_player_replenishing():
    state = position(ana=dict(privileges=3), ben=dict(privileges=0), bag={"red": 2})
    after = play(state, replenish(ANA))
    assert [p.privileges for p in after.players] == [2, 1]
    assert alerts(after) == [("privilege_taken", BEN)]


def test_replenish_is_not_the_turns_action():
    state = position(bag={"red": 2})
    after = play(state, replenish(ANA))
    assert after.current_player == ANA
    assert after.turn == 1
    after = play(after, take(ANA, red=3))
    assert after.current_player == BEN
    assert after.turn == 2


def test_a_second_replenish_in_the_same_turn_finds_the_bag_empty():
    state = play(position(bag={"red": 2}), replenish(ANA))
    assert refused(state, replenish(ANA)).code == "bag_empty"


def test_no_privilege_is_used_after_a_replenish_but_an_action_still_is():
    state = play(position(ana=dict(privileges=1), bag={"gold": 1}), replenish(ANA))
    assert refused(state, use(ANA, red=1)).code == "privilege_after_replenish"
    after = play(state, reserve(ANA, "D1-01"))
    assert after.players[ANA].tokens.gold == 1
    assert board(after)["gold"] == 2


def test_the_replenish_flag_is_cleared_for_the_next_turn():
    state = play(position(bag={"red": 2}), replenish(ANA), take(ANA, red=1))
    state = play(state, use(BEN, blue=1))
    assert state.players[BEN].tokens.blue == 1


def test_a_second_replenish_after_a_fix_refilled_the_bag_gives_no_second_privilege():
    """D-4 "at most one per turn": a correction put tokens back in the bag after the replenish
    (the table had missed them); replenishing again is refused, so Ben gains one privilege, not two."""
    state = play(position(ana=dict(privileges=0), ben=dict(privileges=0), bag={"red": 2}), replenish(ANA))
    missed = Tokens(red=1)
    state = dataclasses.replace(state, bag=missed, board=state.board - missed)  # the Fix sheet's correction
    error = refused(state, replenish(ANA))
    assert (error.code, error.rule) == ("replenish_twice", "D-4")
    assert state.players[BEN].privileges == 1
    assert "with Fix" in error.message
