"""GAME-LOG.md event objects: parsing with ``parse_event`` and writing back with ``to_dict``."""

import json

import pytest

from builders import ANA, BEN, buy, correct, discard, replenish, reserve, take, take_royal, use
from tracker.rules import events
from tracker.rules.errors import RuleError
from tracker.rules.events import parse_event
from tracker.rules.tokens import Tokens

EXAMPLES = [
    use(ANA, red=1, pearl=1),
    replenish(BEN),
    take(ANA, red=1, blue=1, pearl=1),
    reserve(BEN, "D2-05"),
    reserve(ANA, level=3),
    buy(ANA, "D1-02", {"blue": 2, "green": 2, "gold": 1}),
    buy(BEN, "D3-12", {"red": 7}, from_reserve=True, wild="red"),
    buy(ANA, "D2-02", {"blue": 1}, steal="pearl"),
    buy(ANA, "D1-01", {}),
    take_royal(BEN, "DR-4", steal="red"),
    take_royal(ANA, "DR-1"),
    discard(ANA, gold=1),
    correct(BEN, tokens={"red": 1}, board={"red": 3}, note="dropped a ruby"),
    correct(ANA, privileges=2),
]


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda e: e.type)
def test_every_event_survives_a_json_round_trip(event):
    for data in (event.to_dict(), events.event_to_dict(event)):
        assert parse_event(json.loads(json.dumps(data)), 2) == event


def test_token_bags_are_written_without_zero_counts():
    assert take(ANA, red=2).to_dict() == {"type": "take_tokens", "player": 0, "tokens": {"red": 2}}
    assert reserve(BEN, level=2).to_dict() == {"type": "reserve", "player": 1, "level": 2}


def test_a_correction_is_written_with_its_fixes_under_set():
    data = events.event_to_dict(correct(BEN, privileges=1, note="forgot the scroll"))
    assert data == {"type": "correction", "player": 1, "set": {"privileges": 1}, "note": "forgot the scroll"}


def test_the_game_log_example_event_parses():
    event = parse_event({"type": "take_tokens", "player": 0, "tokens": {"red": 1, "blue": 1, "pearl": 1}}, 2)
    assert event == take(ANA, red=1, blue=1, pearl=1)


def test_a_purchase_without_payment_pays_nothing():
    assert parse_event({"type": "purchase", "player": 1, "card": "D1-01"}, 2).payment == Tokens()


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"type": "end_turn", "player": 0},
        {"type": "take_tokens"},
        {"type": "take_tokens", "player": 2, "tokens": {"red": 1}},
        {"type": "take_tokens", "player": True, "tokens": {"red": 1}},
        {"type": "take_tokens", "player": 0},
        {"type": "take_tokens", "player": 0, "tokens": {"ruby": 1}},
        {"type": "take_tokens", "player": 0, "tokens": {"red": -1}},
        {"type": "take_tokens", "player": 0, "tokens": {"red": "1"}},
        {"type": "take_tokens", "player": 0, "tokens": [1]},
        {"type": "reserve", "player": 0},
        {"type": "reserve", "player": 0, "card": "D1-01", "level": 1},
        {"type": "reserve", "player": 0, "level": 4},
        {"type": "purchase", "player": 0},
        {"type": "purchase", "player": 0, "card": "D1-01", "from_reserve": "yes"},
        {"type": "purchase", "player": 0, "card": "D1-26", "wild_color": "gold"},
        {"type": "purchase", "player": 0, "card": "D2-02", "steal": "ruby"},
        {"type": "take_royal", "player": 0},
        {"type": "correction", "player": 0},
        {"type": "correction", "player": 0, "set": {"privileges": 4}},
        {"type": "correction", "player": 0, "set": []},
    ],
)
def test_a_malformed_event_is_bad_event(data):
    with pytest.raises(RuleError) as info:
        parse_event(data, 2)
    assert info.value.code == "bad_event"


@pytest.mark.parametrize(
    "data, field",
    [
        ({"type": "correction", "player": 0, "privileges": 2, "set": {"privileges": 0}}, "privileges"),
        ({"type": "correction", "player": 0, "tokens": {"red": 1}, "set": {"privileges": 0}}, "tokens"),
        ({"type": "correction", "player": 0, "set": {"privileges": 0, "note": "a"}, "note": "b"}, "note"),
    ],
)
def test_a_correction_naming_a_field_under_set_and_beside_it_is_refused(data, field):
    """An API tester's correction gave privileges 2 beside its set and 0 in it: the set's 0 was
    stored and the 2 dropped unread (and a note given twice kept the outer one)."""
    with pytest.raises(RuleError) as info:
        parse_event(data, 2)
    assert info.value.code == "bad_event"
    assert info.value.message == (f"A correction with a set gives its counts inside the set, not beside it: "
                                  f"{field} beside the set is not read (a note goes once, inside or beside).")
    # the same note twice, or the note beside the set (GAME-LOG.md's form), is one note
    for note in ({"note": "a", "set": {"privileges": 0, "note": "a"}}, {"note": "a", "set": {"privileges": 0}}):
        assert parse_event({"type": "correction", "player": 0, **note}, 2).note == "a"


@pytest.mark.parametrize("data", [
    {"type": "correction", "player": 0, "set": {"privileges": 0}, "white": 3},
    {"type": "correction", "player": 0, "privileges": 1, "gold": 1},
    {"type": "correction", "player": 0, "set": {"tokens": {"red": 1}, "board": {}}, "pearl": 0},
])
def test_a_token_count_at_the_top_of_a_correction_is_refused_not_dropped(data):
    """An API tester's ``"white": 3`` beside a correction's set was dropped unread (the
    correction stored without it): a count goes inside tokens, board or bag, said so."""
    with pytest.raises(RuleError) as info:
        parse_event(data, 2)
    assert info.value.code == "bad_event"
    stray = next(k for k in data if k in ("white", "gold", "pearl"))
    assert info.value.message.startswith(f"A correction sets tokens, privileges, board or bag, not {stray}: ")


def test_a_rule_error_has_a_code_a_rule_and_a_message():
    error = RuleError("wrong_payment", "%(card)s costs more.", "D-7", card="D1-01")
    assert error.to_dict() == {"code": "wrong_payment", "message": "D1-01 costs more.", "rule": "D-7"}


def test_a_card_id_with_a_space_at_one_end_is_said_to_have_one():
    """A breaker's ``"card": " D1-01"`` was refused as "card must be a short text": it is short."""
    with pytest.raises(RuleError) as info:
        parse_event({"type": "purchase", "player": 0, "card": " D1-01", "payment": {}}, 2)
    assert info.value.code == "bad_event"
    assert info.value.message == ("card must be a text of at most 20 characters, with no space at either end and no "
                                  "control or invisible character.")
