"""S-2.3: reserve a face-up card or a deck's top card (max 3), with 1 gold if any is left."""

import pytest

from tracker.rules import splendor
from tracker.rules.splendor import Reserved
from tracker.rules.tokens import Tokens

from splendor_builders import (
    ANA,
    BEN,
    CLEO,
    buy,
    buy_paying_exactly,
    cards_of_level,
    new,
    play,
    position,
    refused,
    reserve,
)


def test_reserving_a_face_up_card_gives_one_gold_and_ends_the_turn():
    state = play(new(), reserve(ANA, "S2-05"))
    ana = state.players[ANA]
    assert ana.reserved == (Reserved(level=2, card="S2-05"),)
    assert ana.tokens == Tokens(gold=1) and state.board.gold == 4
    assert state.current_player == BEN
    assert splendor.to_json(state)["players"][ANA]["reserved"] == [{"card": "S2-05"}]


@pytest.mark.parametrize(("gold_left", "gold_taken"), [(2, 1), (1, 1), (0, 0)])
def test_a_reserve_takes_gold_only_if_any_is_left_and_is_allowed_without(gold_left, gold_taken):
    state = position(supply={"gold": gold_left}, holder=BEN)
    after = play(state, reserve(ANA, "S1-01"))
    assert after.players[ANA].tokens.gold == gold_taken
    assert after.board.gold == gold_left - gold_taken
    assert len(after.players[ANA].reserved) == 1 and after.current_player == BEN


@pytest.mark.parametrize(("held", "allowed"), [(2, True), (3, False)])
def test_a_player_holds_at_most_three_reserved_cards(held, allowed):
    state = position(seats={ANA: dict(reserved=["S1-01", 2, "S3-01"][:held])})
    for event in (reserve(ANA, "S1-10"), reserve(ANA, level=1)):
        if allowed:
            assert len(play(state, event).players[ANA].reserved) == 3
        else:
            error = refused(state, event)
            assert error.code == "reserve_limit" and error.rule == "S-2.3"


@pytest.mark.parametrize("ben", [dict(cards=["S2-05"]), dict(reserved=["S2-05"])])
def test_a_card_already_bought_or_reserved_cannot_be_reserved(ben):
    state = position(seats={BEN: ben})
    assert refused(state, reserve(ANA, "S2-05")).code == "card_unavailable"


def test_an_unknown_card_cannot_be_reserved():
    assert refused(new(), reserve(ANA, "S4-01")).code == "unknown_card"


def test_a_deck_card_is_reserved_secretly_and_shown_only_by_its_level():
    state = play(new(3), reserve(ANA, level=3))
    assert state.players[ANA].reserved == (Reserved(level=3),)
    assert splendor.to_json(state)["players"][ANA]["reserved"] == [{"level": 3}]
    assert state.deck_left(3) == 20 - 4 - 1


@pytest.mark.parametrize(("out", "allowed"), [(15, True), (16, False)])
def test_a_secret_reserve_from_an_exhausted_deck_is_refused(out, allowed):
    # Level 3: 20 cards, 4 face up, so the deck holds 16; bought and reserved cards (secret ones
    # included) all came out of it.
    bought = cards_of_level(3, out - 2)
    state = position(3, seats={BEN: dict(cards=bought), CLEO: dict(reserved=[3, 3])})
    assert state.deck_left(3) == 16 - out
    if allowed:
        assert play(state, reserve(ANA, level=3)).deck_left(3) == 0
    else:
        error = refused(state, reserve(ANA, level=3))
        assert error.code == "deck_empty" and error.rule == "S-2.3"
        # A face-up card of that level can still be reserved.
        face_up = cards_of_level(3, 20, avoid=bought)[0]
        assert play(state, reserve(ANA, face_up)).deck_left(3) == -1


def test_no_face_up_card_is_left_once_every_card_of_a_level_is_out():
    bought = cards_of_level(3, 18)
    state = position(3, seats={BEN: dict(cards=bought), CLEO: dict(reserved=[3, 3])})
    assert state.cards_on_table(3) == 0
    last = cards_of_level(3, 20, avoid=bought)[0]  # under one of Cleo's secret reserves
    assert refused(state, reserve(ANA, last)).code == "card_unavailable"


def test_a_secret_reserve_is_named_when_bought_and_matched_to_its_level():
    state = position(seats={ANA: dict(reserved=["S1-01", 2], tokens={"white": 2, "red": 1, "black": 4})})
    card = "S2-10"
    event = buy_paying_exactly(state, ANA, card, from_reserve=True)
    after = play(state, event)
    assert after.players[ANA].reserved == (Reserved(level=1, card="S1-01"),)
    assert card in after.players[ANA].cards
    assert splendor.development_card(card).level == 2


def test_a_secret_reserve_of_another_level_does_not_cover_the_card_named():
    state = position(seats={ANA: dict(reserved=[2], tokens={"blue": 3})})
    error = refused(state, buy(ANA, "S1-01", {"blue": 3}, from_reserve=True))
    assert error.code == "not_reserved"


def test_a_secret_reserve_cannot_be_named_as_a_card_already_bought():
    state = position(seats={ANA: dict(reserved=[1], tokens={"blue": 3}), BEN: dict(cards=["S1-01"])})
    assert refused(state, buy(ANA, "S1-01", {"blue": 3}, from_reserve=True)).code == "card_unavailable"


def test_only_the_players_own_reserve_can_be_bought_from():
    state = position(seats={ANA: dict(tokens={"blue": 3}), BEN: dict(reserved=["S1-01"])})
    assert refused(state, buy(ANA, "S1-01", {"blue": 3}, from_reserve=True)).code == "card_unavailable"
    assert refused(state, buy(ANA, "S1-01", {"blue": 3})).code == "card_unavailable"
    assert refused(state, buy(ANA, "S1-02", {"red": 2, "black": 1}, from_reserve=True)).code == "not_reserved"


def test_a_named_reserved_card_leaves_the_reserve_when_bought():
    state = position(seats={ANA: dict(reserved=["S1-01", 3], tokens={"blue": 3})})
    after = play(state, buy(ANA, "S1-01", {"blue": 3}, from_reserve=True))
    assert after.players[ANA].reserved == (Reserved(level=3),)
    assert after.players[ANA].cards == ("S1-01",)
    assert after.board.blue == 4
