"""S-1 setup refusals say what is wrong with the nobles."""

from __future__ import annotations

import pytest

from tracker.rules import splendor
from tracker.rules.errors import RuleError


def test_an_unknown_noble_is_named():
    with pytest.raises(RuleError) as err:
        splendor.new_game(["A", "B"], 0, ["N-01", "N-02", "N-99"])
    assert err.value.code == "bad_setup" and err.value.message == "There is no noble N-99: nobles are N-01 to N-10."


def test_too_few_or_repeated_nobles_are_counted():
    for nobles in (["N-01", "N-02"], ["N-01", "N-01", "N-02"]):
        with pytest.raises(RuleError) as err:
            splendor.new_game(["A", "B"], 0, nobles)
        assert err.value.message == "Enter the 3 different nobles on display (players + 1)."
