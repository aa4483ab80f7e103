"""S-2.1 / S-2.2: take 3 gems of different colours, or 2 of one colour from a supply of 4 or more; never gold."""

import pytest

from tracker.rules import splendor
from tracker.rules.tokens import Tokens

from splendor_builders import ANA, BEN, new, play, position, refused, take


def test_taking_three_different_gems_moves_them_from_the_supply_and_ends_the_turn():
    state = play(new(), take(ANA, white=1, green=1, black=1))
    assert state.players[ANA].tokens == Tokens(white=1, green=1, black=1)
    assert state.board == Tokens(white=3, blue=4, green=3, red=4, black=3, gold=5)
    assert state.current_player == BEN and state.turn == 2


@pytest.mark.parametrize(("in_supply", "allowed"), [(3, False), (4, True), (5, True)])
def test_two_gems_of_one_colour_need_at_least_four_of_it_in_the_supply_before(in_supply, allowed):
    state = position(3, supply={"red": in_supply}, holder=BEN)
    event = take(ANA, red=2)
    if allowed:
        after = play(state, event)
        assert after.players[ANA].tokens == Tokens(red=2)
        assert after.board.red == in_supply - 2
    else:
        error = refused(state, event)
        assert error.code == "take_two_needs_four" and error.rule == "S-2.2"


@pytest.mark.parametrize("tokens", [{"red": 3}, {"red": 2, "blue": 1}, {"blue": 1, "black": 2}])
def test_a_take_is_three_different_colours_or_two_alike_nothing_in_between(tokens):
    error = refused(new(4), take(ANA, **tokens))
    assert error.code == "take_three_distinct" and error.rule == "S-2.1"


def test_more_than_three_gems_are_too_many():
    error = refused(new(4), take(ANA, white=1, blue=1, green=1, red=1))
    assert error.code == "too_many_tokens"


@pytest.mark.parametrize("tokens", [{"gold": 1}, {"gold": 1, "red": 1, "blue": 1}, {"gold": 2}])
def test_gold_is_never_taken_with_gems(tokens):
    error = refused(new(), take(ANA, **tokens))
    assert error.code == "gold_not_allowed"


@pytest.mark.parametrize(
    ("colors_left", "taken", "allowed"),
    [
        # Fewer than 3 different gems only when fewer than 3 colours are left in the supply (ruling).
        (5, {"red": 1, "blue": 1}, False),
        (5, {"red": 1}, False),
        (3, {"red": 1, "blue": 1}, False),
        (3, {"red": 1, "blue": 1, "green": 1}, True),
        (2, {"red": 1, "blue": 1}, True),
        (2, {"red": 1}, True),
        (1, {"red": 1}, True),
    ],
)
def test_fewer_than_three_different_gems_only_when_fewer_than_three_colours_remain(colors_left, taken, allowed):
    gone = ["white", "black", "green", "blue"][: 5 - colors_left]
    state = position(4, supply=dict.fromkeys(gone, 0), holder=BEN)
    assert len(splendor.colors_in_supply(state)) == colors_left
    event = take(ANA, **taken)
    if allowed:
        assert play(state, event).players[ANA].tokens == Tokens(**taken)
    else:
        error = refused(state, event)
        assert error.code == "take_three_count" and error.rule == "S-2.1"


def test_a_colour_missing_from_the_supply_cannot_be_taken():
    state = position(supply={"red": 0}, holder=BEN)
    assert refused(state, take(ANA, red=1, blue=1, green=1)).code == "not_enough_tokens"


def test_an_empty_take_and_pearls_are_malformed():
    assert refused(new(), take(ANA)).code == "bad_event"
    assert refused(new(), take(ANA, pearl=1, red=1, blue=1)).code == "bad_event"


def test_a_refused_take_changes_nothing():
    state = position(supply={"red": 3}, holder=BEN)
    refused(state, take(ANA, red=2))
    assert state.board.red == 3 and state.current_player == ANA and state.turn == 1


@pytest.mark.parametrize(("chosen", "color", "red_in_supply", "can"), [
    ({}, "red", 4, True),                          # a first gem
    ({"red": 1}, "red", 4, True),                  # 2 alike from 4 (S-2.2)
    ({"red": 1}, "red", 3, False),                 # not from 3
    ({"red": 2}, "red", 5, False),                 # never a third alike
    ({"red": 2}, "blue", 5, False),                # 2 alike is a whole take
    ({"red": 1}, "blue", 4, True),                 # different colours (S-2.1)
    ({"red": 1, "blue": 1}, "green", 4, True),
    ({"red": 1, "blue": 1}, "red", 4, False),      # no pair in a take of different colours
    ({"red": 1, "blue": 1, "green": 1}, "white", 4, False),  # at most 3
    ({}, "gold", 4, False),                        # never gold (S-2)
])
def test_the_pick_goes_on_only_towards_a_legal_take(chosen, color, red_in_supply, can):
    board = Tokens(white=4, blue=4, green=4, red=red_in_supply, black=4, gold=5)
    assert splendor.can_add_to_take(board, Tokens.of(chosen), color) is can


def test_the_pick_never_takes_more_than_the_supply_holds():
    board = Tokens(white=0, blue=1, green=4, red=4, black=4, gold=5)
    assert not splendor.can_add_to_take(board, Tokens(), "white")
    assert not splendor.can_add_to_take(board, Tokens(blue=1), "blue")


@pytest.mark.parametrize(("supply", "most", "alike"), [
    ({"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4}, 3, True),
    ({"white": 2, "blue": 3, "green": 3, "red": 3, "black": 3}, 3, False),  # 3 colours, none at 4
    ({"red": 2, "black": 1}, 2, False),  # S-2.1's ruling: 1 each of the 2 colours left
    ({"red": 1}, 1, False),
    ({"red": 4}, 2, True),  # S-2.2: 2 alike from 4, one colour left
    ({"red": 4, "black": 1}, 2, True),
    ({}, 0, False),
])
def test_the_most_one_take_can_hold_follows_the_supply(supply, most, alike):
    board = Tokens(**supply)
    assert splendor.most_to_take(board) == most
    assert splendor.two_alike_allowed(board) is alike
