"""S-3.1: more than 10 tokens (gold included) at the end of a turn: return down to exactly 10."""

import pytest

from tracker.rules import splendor
from tracker.rules.tokens import Tokens

from splendor_builders import ANA, BEN, alert_kinds, discard, play, position, refused, reserve, take, take_noble


@pytest.mark.parametrize(("held", "due"), [(7, 0), (8, 1), (9, 2)])
def test_ten_tokens_are_kept_and_more_than_ten_at_the_end_of_the_turn_are_returned(held, due):
    state = position(4, seats={ANA: dict(tokens={"white": 3, "blue": 3, "red": held - 6})})
    after = play(state, take(ANA, white=1, blue=1, green=1))
    if due:
        assert after.pending == splendor.Pending("discard", ANA, count=due)
        assert alert_kinds(after) == ["discard_due"]
        assert after.current_player == ANA and after.turn == 1
        assert splendor.to_json(after)["pending"] == {"kind": "discard", "player": ANA, "count": due}
    else:
        assert after.pending is None and after.current_player == BEN


def test_gold_counts_toward_the_ten_and_may_be_returned():
    state = position(4, seats={ANA: dict(tokens={"white": 3, "blue": 3, "green": 3, "gold": 1})})
    after = play(state, reserve(ANA, "S3-01"))
    assert after.players[ANA].tokens.total == 11
    assert after.pending == splendor.Pending("discard", ANA, count=1)
    done = play(after, discard(ANA, gold=1))
    assert done.players[ANA].tokens == Tokens(white=3, blue=3, green=3, gold=1)
    assert done.board.gold == 4 and done.current_player == BEN and done.turn == 2


def test_the_discard_goes_back_to_the_supply_and_ends_the_turn():
    state = position(4, seats={ANA: dict(tokens={"white": 4, "blue": 4, "green": 2})})
    after = play(state, take(ANA, red=1, black=1, green=1), discard(ANA, white=2, red=1))
    assert after.players[ANA].tokens == Tokens(white=2, blue=4, green=3, black=1)
    assert after.board.white == 5 and after.board.red == 7
    assert after.current_player == BEN and after.pending is None


@pytest.mark.parametrize("tokens", [{"white": 1}, {"white": 2, "blue": 2}])
def test_the_discard_must_leave_exactly_ten(tokens):
    state = position(4, seats={ANA: dict(tokens={"white": 4, "blue": 4, "green": 2})})
    state = play(state, take(ANA, red=1, black=1, green=1))
    error = refused(state, discard(ANA, **tokens))
    assert error.code == "wrong_discard" and error.rule == "S-3.1"


def test_only_tokens_held_can_be_returned():
    state = position(4, seats={ANA: dict(tokens={"white": 4, "blue": 4, "green": 2})})
    state = play(state, take(ANA, red=1, black=1, green=1))
    assert refused(state, discard(ANA, gold=3)).code == "not_enough_tokens"


def test_nothing_else_is_accepted_while_the_discard_is_due():
    state = position(4, seats={ANA: dict(tokens={"white": 4, "blue": 4, "green": 2})})
    state = play(state, take(ANA, red=1, black=1, green=1))
    for event in (take(ANA, red=1, black=1, green=1), reserve(ANA, level=1), take_noble(ANA, "N-06")):
        error = refused(state, event)
        assert error.code == "discard_required"
    error = refused(state, take(BEN, red=1, black=1, green=1))
    assert error.code == "not_your_turn" and error.message == "It is Ana's turn: Ana returns tokens first."


def test_a_discard_that_is_not_due_is_refused():
    state = position(4, seats={ANA: dict(tokens={"white": 3})})
    error = refused(state, discard(ANA, white=1))
    assert error.code == "no_discard_due"
