"""D-6 take 1 gold and reserve a card: named or secret, limits, empty decks, buying it later."""

import pytest

from builders import (
    ANA,
    BEN,
    buy,
    new,
    play,
    position,
    refused,
    reserve,
    take,
    tokens_of,
)
from tracker.rules import catalog, duel
from tracker.rules.duel import Reserved

DECK = {1: 30 - 5, 2: 24 - 4, 3: 13 - 3}


def test_reserving_a_named_card_takes_one_gold():
    state = play(new(), reserve(ANA, "D2-05"))
    assert state.players[ANA].reserved == (Reserved(2, "D2-05"),)
    assert tokens_of(state, ANA) == {"gold": 1}
    assert state.board.gold == 2
    assert state.current_player == BEN
    assert duel.to_json(state)["players"][ANA]["reserved"] == [{"card": "D2-05"}]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_secret_reserve_names_only_the_level(level):
    state = play(new(), reserve(ANA, level=level))
    assert state.players[ANA].reserved == (Reserved(level),)
    assert tokens_of(state, ANA) == {"gold": 1}
    assert duel.to_json(state)["players"][ANA]["reserved"] == [{"level": level}]


@pytest.mark.parametrize("held, allowed", [(0, True), (2, True), (3, False)])
def test_a_player_holds_at_most_three_reserved_cards(held, allowed):
    state = position(ana=dict(reserved_cards=["D1-01", "D1-02", 1][:held]))
    if allowed:
        assert len(play(state, reserve(ANA, "D3-01")).players[ANA].reserved) == held + 1
    else:
        error = refused(state, reserve(ANA, "D3-01"))
        assert error.code == "reserve_limit"
        assert refused(state, reserve(ANA, level=2)).code == "reserve_limit"


def test_no_reserve_without_gold_on_the_board():
    state = position(ben=dict(tokens={"gold": 2}), bag={"gold": 1})
    assert refused(state, reserve(ANA, "D1-01")).code == "no_gold_on_board"
    assert refused(state, reserve(ANA, level=1)).code == "no_gold_on_board"


def test_the_last_gold_on_the_board_still_allows_a_reserve():
    state = position(ben=dict(tokens={"gold": 2}))
    after = play(state, reserve(ANA, "D1-01"))
    assert after.board.gold == 0
    assert tokens_of(after, ANA) == {"gold": 1}


@pytest.mark.parametrize(
    "ana, ben",
    [
        ({}, dict(cards=["D1-01"])),
        (dict(cards=["D1-01"]), {}),
        ({}, dict(reserved_cards=["D1-01"])),
        (dict(reserved_cards=["D1-01"]), {}),
    ],
    ids=["bought by the opponent", "bought by herself", "reserved by the opponent", "reserved by herself"],
)
def test_a_card_already_bought_or_reserved_is_unavailable(ana, ben):
    state = position(ana=ana, ben=ben)
    error = refused(state, reserve(ANA, "D1-01"))
    assert error.code == "card_unavailable"
    assert error.rule == "D-6"


def test_an_unknown_card_cannot_be_reserved():
    assert refused(new(), reserve(ANA, "D4-01")).code == "unknown_card"


def test_a_joker_may_always_be_reserved():
    state = play(new(), reserve(ANA, "D3-11"))
    assert state.players[ANA].reserved == (Reserved(3, "D3-11"),)


def _gone(level: int, count: int) -> list[str]:
    """``count`` cards of ``level`` for the opponent, crownless first (jokers on white)."""
    cards = sorted(catalog.jewels_of_level(level), key=lambda c: (c.crowns > 0, c.id))[:count]
    return [c.id + (":white" if c.is_joker else "") for c in cards]


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("gone_before, allowed", [(-1, True), (0, False)], ids=["one card left", "deck empty"])
def test_a_secret_reserve_from_an_empty_deck_is_refused(level, gone_before, allowed):
    """Deck = level size − face-up slots − cards of that level bought or reserved."""
    gone = _gone(level, DECK[level] + gone_before)
    state = position(ben=dict(cards=gone))
    assert state.deck_left(level) == (1 if allowed else 0)
    if allowed:
        after = play(state, reserve(ANA, level=level))
        assert after.deck_left(level) == 0
        assert after.players[ANA].reserved == (Reserved(level),)
    else:
        error = refused(state, reserve(ANA, level=level))
        assert error.code == "deck_empty"
        assert error.rule == "D-6"


def test_reserved_cards_count_against_the_deck_named_or_secret():
    bought = ["D3-02", "D3-04", "D3-06", "D3-10", "D3-12:white"]  # 19 prestige, no crown
    state = position(ben=dict(cards=bought, reserved_cards=["D3-13", 3, 3]), ana=dict(reserved_cards=[3]))
    # The level 3 deck holds 10: 5 bought, 1 named and 3 secret reserves leave 1.
    assert state.deck_left(3) == 1
    state = play(state, reserve(ANA, level=3), take(BEN, red=1))
    assert state.deck_left(3) == 0
    assert refused(state, reserve(ANA, level=3)).code == "deck_empty"


def test_a_named_card_may_be_reserved_when_the_deck_is_empty():
    gone = _gone(3, DECK[3])
    state = position(ben=dict(cards=gone))
    assert state.deck_left(3) == 0
    free = sorted({c.id for c in catalog.jewels_of_level(3)} - {g.split(":")[0] for g in gone})
    assert len(free) == 3
    after = play(state, reserve(ANA, free[0]))
    assert after.players[ANA].reserved == (Reserved(3, free[0]),)


def test_no_pyramid_card_is_left_once_every_card_of_a_level_is_out():
    """D-1.2 / D-6: 13 level-3 cards. Ben bought 10 and holds 3 secret reserves: the pyramid's
    level 3 is empty, so naming any other level-3 card to reserve or buy from it is refused,
    while a secret reserve may still be named when bought."""
    gone = _gone(3, DECK[3])
    state = position(ben=dict(cards=gone, reserved_cards=[3, 3, 3]),
                     ana=dict(tokens={"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4}))
    assert state.cards_on_table(3) == 0 and state.deck_left(3) == -3
    last = sorted({c.id for c in catalog.jewels_of_level(3)} - {g.split(":")[0] for g in gone})
    assert len(last) == 3  # each one is under one of Ben's secret reserves
    error = refused(state, reserve(ANA, last[0]))
    assert (error.code, error.rule) == ("card_unavailable", "D-6")
    assert "all 13 are bought or reserved" in error.message
    card = catalog.jewel(last[0])
    pay = {k: v for k, v in card.cost.items() if v}
    error = refused(state, buy(ANA, last[0], pay))
    assert (error.code, error.rule) == ("card_unavailable", "D-7")
    # Another level still has its cards.
    assert play(state, reserve(ANA, "D2-05")).players[ANA].reserved == (Reserved(2, "D2-05"),)


def test_the_last_card_of_a_level_can_still_be_named_from_the_pyramid():
    gone = _gone(3, DECK[3])
    state = position(ben=dict(cards=gone, reserved_cards=[3, 3]))
    assert state.cards_on_table(3) == 1
    free = sorted({c.id for c in catalog.jewels_of_level(3)} - {g.split(":")[0] for g in gone})
    after = play(state, reserve(ANA, free[0]))
    assert after.cards_on_table(3) == 0 and after.players[ANA].reserved == (Reserved(3, free[0]),)


def test_a_secret_card_is_named_when_bought_from_the_reserve():
    state = position(ana=dict(reserved_cards=[1], tokens={"blue": 3, "gold": 1}))
    after = play(state, buy(ANA, "D1-04", {"blue": 3}, from_reserve=True))
    me = after.players[ANA]
    assert me.reserved == ()
    assert [o.card for o in me.cards] == ["D1-04"]
    assert me.crowns == 1
    assert tokens_of(after, ANA) == {"gold": 1}
    assert after.deck_left(1) == DECK[1] - 1


def test_the_named_reserved_card_is_used_before_a_secret_one():
    state = position(ana=dict(reserved_cards=[1, "D1-04"], tokens={"blue": 3}))
    after = play(state, buy(ANA, "D1-04", {"blue": 3}, from_reserve=True))
    assert after.players[ANA].reserved == (Reserved(1),)


def test_a_secret_card_named_when_bought_must_be_of_its_level():
    state = position(ana=dict(reserved_cards=[2], tokens={"blue": 3}))
    error = refused(state, buy(ANA, "D1-04", {"blue": 3}, from_reserve=True))
    assert error.code == "not_reserved"


def test_a_card_not_in_the_players_reserve_is_not_reserved():
    state = position(ana=dict(tokens={"blue": 3}))
    assert refused(state, buy(ANA, "D1-04", {"blue": 3}, from_reserve=True)).code == "not_reserved"


def test_a_secret_card_cannot_be_named_as_a_card_someone_already_has():
    state = position(ana=dict(reserved_cards=[1], tokens={"blue": 3}), ben=dict(reserved_cards=["D1-04"]))
    error = refused(state, buy(ANA, "D1-04", {"blue": 3}, from_reserve=True))
    assert error.code == "card_unavailable"


def test_the_opponents_reserved_card_cannot_be_bought():
    state = position(ana=dict(tokens={"blue": 3}), ben=dict(reserved_cards=["D1-04"]))
    assert refused(state, buy(ANA, "D1-04", {"blue": 3})).code == "card_unavailable"
    assert refused(state, buy(ANA, "D1-04", {"blue": 3}, from_reserve=True)).code == "card_unavailable"


def test_reserved_cards_never_leave_except_by_purchase():
    state = position(ana=dict(reserved_cards=["D3-13", 2], tokens={"blue": 3}))
    state = play(state, reserve(ANA, "D1-01"), take(BEN, red=1), take(ANA, red=1), take(BEN, red=1))
    assert state.players[ANA].reserved == (Reserved(3, "D3-13"), Reserved(2), Reserved(1, "D1-01"))
    assert refused(state, reserve(ANA, "D1-03")).code == "reserve_limit"
