"""S-1 setup refusals say what is wrong with the nobles."""

from __future__ import annotations

import pytest

from tracker.rules import splendor
from tracker.rules.errors import RuleError


def test_an_unknown_noble_is_named():
    with pytest.raises(RuleError) as err:
        splendor.new_game(["A", "B"], 0, ["N-01", "N-02", "N-99"])
    assert err.value.code == "bad_setup" and err.value.message == "There is no noble N-99: nobles are N-01 to N-10."
    # a noble that is no text is shown as the log spells it, not as Python prints it
    with pytest.raises(RuleError) as err:
        splendor.new_game(["A", "B"], 0, ["N-01", "N-02", ["x"]])
    assert err.value.message == 'There is no noble ["x"]: nobles are N-01 to N-10.'


def test_too_few_or_repeated_nobles_are_counted():
    for nobles in (["N-01", "N-02"], ["N-01", "N-01", "N-02"]):
        with pytest.raises(RuleError) as err:
            splendor.new_game(["A", "B"], 0, nobles)
        assert err.value.message == "Enter the 3 different nobles on display (players + 1)."


def test_a_player_who_can_pay_for_a_reserved_card_may_not_pass():
    """S-2 / S-2.4: with no gem in the supply and 3 reserved cards, a pass is still refused when
    one of those cards is affordable (a tester's Cho passed holding a ✓ card)."""
    import dataclasses

    from tracker.rules.common import Reserved
    from tracker.rules.events import Pass
    from tracker.rules.tokens import Tokens

    state = splendor.new_game(["Ana", "Ben"], 0, ["N-01", "N-02", "N-03"])
    reserved = (Reserved(level=1, card="S1-01"), Reserved(level=1, card="S1-02"), Reserved(level=1))
    gems = ("white", "blue", "green", "red", "black")

    def position(ana_tokens: Tokens):  # no gem left in the supply: Ben holds the rest (S-1 totals kept)
        ana = dataclasses.replace(state.players[0], reserved=reserved, tokens=ana_tokens)
        ben = dataclasses.replace(state.players[1], tokens=Tokens(**{c: 4 - ana_tokens.get(c) for c in gems}))
        board = Tokens(gold=5 - ana_tokens.get("gold"))
        return dataclasses.replace(state, players=(ana, ben), board=board)

    with pytest.raises(RuleError) as err:  # S1-02 costs red 2, black 1: a gold for the second red
        splendor.apply(position(Tokens(black=1, red=1, gold=1)), Pass(player=0))
    assert err.value.code == "pass_not_allowed" and err.value.message == (
        "Ana can buy a reserved card, S1-02: passing is only for a player who can take no action.")
    after = splendor.apply(position(Tokens(black=1, gold=1)), Pass(player=0))  # S1-01 needs 3 blue, S1-02 2 red
    assert after.current_player == 1
