"""D-10 end of turn: a player with more than 10 tokens returns tokens to the bag down to 10."""

import pytest

from builders import ANA, BEN, alerts, bag, discard, new, play, position, refused, reserve, take, tokens_of, use
from tracker.rules import duel

NINE = {"white": 3, "blue": 3, "green": 3}


HELD = {8: {"white": 3, "blue": 3, "green": 2}, 9: NINE, 10: dict(NINE, gold=1)}


@pytest.mark.parametrize(
    "held, taken, owed", [(8, 2, 0), (9, 1, 0), (9, 2, 1), (10, 1, 1), (10, 3, 3)]
)
def test_more_than_ten_tokens_at_the_end_of_a_turn_must_be_returned(held, taken, owed):
    state = position(ana=dict(tokens=HELD[held]))
    after = play(state, take(ANA, red=taken))
    assert after.players[ANA].tokens.total == held + taken
    if owed:
        assert after.pending == duel.Pending("discard", ANA, owed)
        assert after.current_player == ANA
        assert ("discard_due", ANA) in alerts(after)
        assert duel.to_json(after)["pending"] == {"kind": "discard", "player": ANA, "count": owed}
    else:
        assert after.pending is None
        assert after.current_player == BEN


def test_exactly_ten_tokens_need_no_discard():
    state = position(ana=dict(tokens=NINE))
    after = play(state, take(ANA, red=1))
    assert after.players[ANA].tokens.total == 10
    assert after.current_player == BEN
    assert refused(after, discard(BEN, red=1)).code == "no_discard_due"


def test_the_discard_returns_tokens_to_the_bag_and_ends_the_turn():
    state = play(position(ana=dict(tokens=NINE)), take(ANA, red=2))
    after = play(state, discard(ANA, white=1))
    assert after.players[ANA].tokens.total == 10
    assert tokens_of(after, ANA) == {"white": 2, "blue": 3, "green": 3, "red": 2}
    assert bag(after) == {"white": 1}
    assert after.current_player == BEN
    assert after.turn == 2


def test_gold_counts_toward_the_ten_and_may_be_returned():
    state = position(ana=dict(tokens=dict(NINE, red=1)))
    state = play(state, reserve(ANA, "D1-01"))
    assert tokens_of(state, ANA)["gold"] == 1
    assert state.pending == duel.Pending("discard", ANA, 1)
    after = play(state, discard(ANA, gold=1))
    assert after.players[ANA].tokens.gold == 0
    assert bag(after) == {"gold": 1}
    assert after.current_player == BEN


@pytest.mark.parametrize("returned", [{}, {"white": 2}, {"white": 1, "red": 1}, {"red": 2, "blue": 1}])
def test_the_discard_must_leave_exactly_ten(returned):
    state = play(position(ana=dict(tokens=NINE)), take(ANA, red=2))  # 11 tokens: return 1
    error = refused(state, discard(ANA, **returned))
    assert error.code == "wrong_discard"
    assert error.rule == "D-10"


@pytest.mark.parametrize("returned", [{"gold": 1}, {"red": 3}])
def test_the_discard_returns_only_tokens_held(returned):
    state = play(position(ana=dict(tokens=NINE)), take(ANA, red=2))
    assert refused(state, discard(ANA, **returned)).code == "not_enough_tokens"


@pytest.mark.parametrize("event", [take(ANA, red=1), reserve(ANA, "D1-01")], ids=["take", "reserve"])
def test_while_a_discard_is_due_nothing_else_is_accepted(event):
    state = play(position(ana=dict(tokens=NINE)), take(ANA, red=2))
    error = refused(state, event)
    assert error.code == "discard_required"
    assert error.rule == "D-10"


def test_no_discard_is_due_at_the_start_of_a_turn():
    assert refused(new(), discard(ANA, red=1)).code == "no_discard_due"


def test_more_than_ten_tokens_during_the_turn_is_fine():
    state = position(ana=dict(tokens=dict(NINE, red=1), privileges=2))
    state = play(state, use(ANA, black=2))
    assert state.players[ANA].tokens.total == 12
    assert state.pending is None
    state = play(state, take(ANA, pearl=1))
    assert state.pending == duel.Pending("discard", ANA, 3)


def test_a_discard_of_tokens_partly_held_says_what_cannot_be_returned_and_what_is_short():
    """D-10: Ana (3 white, 3 blue, 3 green, 1 gold) takes 3 red and owes 3; returning 2 red and a
    pearl she does not hold: she cannot return them, 1 pearl short (it said "is 1 pearl short of")."""
    state = play(position(ana=dict(tokens=dict(NINE, gold=1))), take(ANA, red=3))
    error = refused(state, discard(ANA, red=2, pearl=1))
    assert (error.code, error.rule) == ("not_enough_tokens", "D-10")
    assert error.message == "Ana cannot return 2 red, 1 pearl: 1 pearl short."
