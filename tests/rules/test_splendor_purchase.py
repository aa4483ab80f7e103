"""S-2.4: buy a face-up or own reserved card for its cost minus bonuses (never below 0), gold wild, exact payment."""

import pytest

from tracker.rules import splendor
from tracker.rules.errors import RuleError
from tracker.rules.events import Purchase
from tracker.rules.tokens import Tokens

from splendor_builders import ANA, BEN, bonus_cards, buy, play, position, refused

# S2-10: level 2, blue, 2 prestige, costs 2 white, 1 red, 4 black.
CARD = "S2-10"


def test_a_purchase_pays_the_printed_cost_back_to_the_supply_and_gives_the_card():
    state = position(seats={ANA: dict(tokens={"white": 2, "red": 1, "black": 4})})
    after = play(state, buy(ANA, CARD, {"white": 2, "red": 1, "black": 4}))
    ana = after.players[ANA]
    assert ana.cards == (CARD,) and ana.tokens == Tokens()
    assert ana.prestige == 2 and ana.bonuses["blue"] == 1
    assert after.board == splendor.token_totals(2)
    assert after.current_player == BEN


@pytest.mark.parametrize(
    ("bonuses", "owed"),
    [
        ({}, {"white": 2, "red": 1, "black": 4}),
        ({"black": 1}, {"white": 2, "red": 1, "black": 3}),
        ({"white": 2, "black": 4}, {"red": 1}),
        ({"white": 3, "red": 2, "black": 5}, {}),  # more bonuses than the cost: never below 0
    ],
)
def test_bonuses_lower_the_cost_per_colour_never_below_zero(bonuses, owed):
    state = position(4, seats={ANA: dict(cards=bonus_cards(**bonuses), tokens=owed)})
    card = splendor.development_card(CARD)
    assert splendor.cost_after_bonuses(state.players[ANA], card) == Tokens(**owed)
    assert splendor.payment_for(state, ANA, CARD) == (Tokens(**owed), True)
    after = play(state, buy(ANA, CARD, owed))
    assert after.players[ANA].tokens == Tokens()


@pytest.mark.parametrize(
    "payment",
    [
        {"white": 2, "red": 1, "black": 3, "gold": 1},  # gold for a black gem
        {"white": 1, "black": 4, "gold": 2},  # gold for a white and the red
        {"gold": 5, "black": 2},  # gold also replaces gems the player holds
    ],
)
def test_gold_pays_for_any_gem(payment):
    state = position(4, seats={ANA: dict(tokens={"white": 2, "red": 1, "black": 4, "gold": 5})})
    after = play(state, buy(ANA, CARD, payment))
    assert after.players[ANA].tokens == Tokens(white=2, red=1, black=4, gold=5) - Tokens(**payment)
    assert after.board.gold == Tokens(**payment).gold


@pytest.mark.parametrize(
    "payment",
    [
        {"white": 2, "red": 1, "black": 3},  # one short
        {"white": 2, "red": 1, "black": 4, "blue": 1},  # one too many
        {"white": 2, "red": 1, "black": 3, "gold": 2},  # gold beyond what is owed
        {"white": 3, "red": 1, "black": 3},  # a white for a black
        {},
    ],
)
def test_the_payment_must_be_exactly_the_cost_after_bonuses(payment):
    state = position(4, seats={ANA: dict(tokens={"white": 3, "blue": 1, "red": 1, "black": 4, "gold": 2})})
    error = refused(state, buy(ANA, CARD, payment))
    assert error.code == "wrong_payment" and error.rule == "S-2.4"


def test_a_player_cannot_pay_with_tokens_they_do_not_hold():
    state = position(seats={ANA: dict(tokens={"white": 2, "red": 1, "black": 3})})
    assert refused(state, buy(ANA, CARD, {"white": 2, "red": 1, "black": 3, "gold": 1})).code == "not_enough_tokens"
    assert splendor.payment_for(state, ANA, CARD) == (Tokens(white=2, red=1, black=3), False)


def test_a_card_already_bought_cannot_be_bought_again():
    state = position(seats={ANA: dict(tokens={"white": 2, "red": 1, "black": 4}), BEN: dict(cards=[CARD])})
    assert refused(state, buy(ANA, CARD, {"white": 2, "red": 1, "black": 4})).code == "card_unavailable"


def test_unknown_cards_and_pearls_are_refused():
    state = position(seats={ANA: dict(tokens={"white": 2, "red": 1, "black": 4})})
    assert refused(state, buy(ANA, "D1-01", {})).code == "unknown_card"
    assert refused(state, buy(ANA, CARD, {"white": 2, "red": 1, "black": 3, "pearl": 1})).code == "bad_event"
    with pytest.raises(RuleError) as info:
        splendor.payment_for(state, ANA, "S9-99")
    assert info.value.code == "unknown_card"


def test_duel_only_purchase_fields_are_refused():
    state = position(seats={ANA: dict(tokens={"blue": 3})})
    event = Purchase(player=ANA, card="S1-01", payment=Tokens(blue=3), wild_color="red")
    assert refused(state, event).code == "bad_event"


def test_a_card_in_the_buyers_own_reserve_named_from_the_table_says_to_buy_it_from_the_reserve():
    state = position(seats={ANA: dict(tokens={"white": 2, "red": 1, "black": 4}, reserved=[CARD]),
                            BEN: dict(reserved=["S1-01"])})
    err = refused(state, buy(ANA, CARD, {"white": 2, "red": 1, "black": 4}))
    assert err.code == "card_unavailable" and err.rule == "S-2.4"
    assert err.message.startswith("This card is in Ana's own reserve: buy it from the reserve:")
    other = refused(state, buy(ANA, "S1-01", {}))  # another player's reserve: whose, no advice
    assert other.message.startswith("This card is in Ben's reserve:")
    assert play(state, buy(ANA, CARD, {"white": 2, "red": 1, "black": 4}, from_reserve=True)).players[ANA].cards == (CARD,)


def test_a_refused_pass_gives_the_reason_that_applies():
    """S-2: "can still take gems or reserve a card" was said to a player holding 3 reserved cards."""
    from tracker.rules.events import Pass

    full = position(seats={ANA: dict(reserved=[1, 1, 2])})
    err = refused(full, Pass(player=ANA))
    assert err.code == "pass_not_allowed" and err.rule == "S-2.1" and "can still take gems:" in err.message
    gems = {c: 0 for c in ("white", "blue", "green", "red", "black")}
    empty = position(seats={BEN: dict(tokens={c: 4 for c in gems})}, supply=gems)
    err = refused(empty, Pass(player=ANA))
    assert err.rule == "S-2.3" and err.message.startswith("Ana can still reserve a card:")
