"""D-7 purchase: cost after bonuses, exact payment into the bag, 2-bonus cards, points-only
cards and jokers."""

import pytest

from builders import ANA, BEN, bag, buy, new, play, position, refused, tokens_of
from tracker.rules import duel
from tracker.rules.tokens import Tokens

RED_BONUS_CARDS = {
    0: [],
    1: ["D1-16"],
    2: ["D1-16", "D1-17"],
    3: ["D1-16", "D1-17", "D1-18"],
    4: ["D1-16", "D1-17", "D2-13"],
    5: ["D1-16", "D1-17", "D1-18", "D2-13"],
}


@pytest.mark.parametrize("red_bonus, red_owed", [(0, 3), (1, 2), (2, 1), (3, 0), (4, 0), (5, 0)])
def test_cost_is_printed_cost_minus_bonuses_never_below_zero(red_bonus, red_owed):
    # D1-05 costs 2 green and 3 red.
    state = position(ana=dict(cards=RED_BONUS_CARDS[red_bonus], tokens={"green": 2, "red": red_owed}))
    assert state.players[ANA].bonuses["red"] == red_bonus
    owed = duel.cost_after_bonuses(state.players[ANA], duel.catalog.jewel("D1-05"))
    assert owed == Tokens(green=2, red=red_owed)
    after = play(state, buy(ANA, "D1-05", {"green": 2, "red": red_owed}))
    assert tokens_of(after, ANA) == {}
    assert "D1-05" in [o.card for o in after.players[ANA].cards]


def test_pearl_costs_are_never_reduced():
    # D1-02 costs 2 blue, 2 green, 1 pearl; the buyer's bonuses cover every gem.
    cards = ["D1-06", "D1-07", "D1-11", "D1-12"]
    state = position(ana=dict(cards=cards, tokens={"pearl": 1, "white": 2}))
    owed = duel.cost_after_bonuses(state.players[ANA], duel.catalog.jewel("D1-02"))
    assert owed == Tokens(pearl=1)
    assert refused(state, buy(ANA, "D1-02", {})).code == "wrong_payment"
    after = play(state, buy(ANA, "D1-02", {"pearl": 1}))
    assert tokens_of(after, ANA) == {"white": 2}
    assert bag(after) == {"pearl": 1}


@pytest.mark.parametrize(
    "payment",
    [
        {"blue": 2, "green": 2, "pearl": 1},
        {"blue": 1, "green": 2, "gold": 2},
        {"blue": 2, "green": 1, "pearl": 1, "gold": 1},
        {"green": 1, "gold": 3, "blue": 1},
    ],
)
def test_gold_pays_for_any_gem_or_pearl(payment):
    state = position(ana=dict(tokens={"blue": 2, "green": 2, "pearl": 1, "gold": 3}))
    after = play(state, buy(ANA, "D1-02", payment))
    assert after.players[ANA].tokens == state.players[ANA].tokens - Tokens(**payment)
    assert bag(after) == payment


@pytest.mark.parametrize(
    "payment",
    [
        {"blue": 3, "green": 2, "pearl": 1},
        {"blue": 2, "green": 2, "pearl": 1, "gold": 1},
        {"blue": 2, "green": 2, "pearl": 1, "red": 1},
        {"blue": 2, "green": 2},
        {"blue": 2, "green": 1, "pearl": 1},
        {"blue": 1, "green": 2, "pearl": 1, "gold": 2},
        {"gold": 3},
        {},
    ],
    ids=["extra gem", "extra gold", "gem not owed", "pearl missing", "gem missing", "gold too much",
         "gold short", "nothing"],
)
def test_the_payment_must_be_exactly_the_cost_after_bonuses(payment):
    state = position(ana=dict(tokens={"blue": 3, "green": 2, "pearl": 1, "gold": 3, "red": 1}))
    error = refused(state, buy(ANA, "D1-02", payment))
    assert error.code == "wrong_payment"
    assert error.rule == "D-7"


def test_a_player_pays_only_with_tokens_held():
    state = position(ana=dict(tokens={"blue": 2, "green": 1, "pearl": 1}))
    error = refused(state, buy(ANA, "D1-02", {"blue": 2, "green": 2, "pearl": 1}))
    assert error.code == "not_enough_tokens"


def test_paid_tokens_go_to_the_bag_not_the_board():
    # D1-20 costs 2 white and 3 blue.
    state = position(ana=dict(tokens={"white": 1, "blue": 3, "gold": 1, "red": 2}))
    after = play(state, buy(ANA, "D1-20", {"white": 1, "blue": 3, "gold": 1}))
    assert bag(after) == {"white": 1, "blue": 3, "gold": 1}
    assert after.board == state.board
    assert tokens_of(after, ANA) == {"red": 2}


def test_a_purchase_is_the_turns_action():
    state = position(ana=dict(tokens={"blue": 3}))
    after = play(state, buy(ANA, "D1-04", {"blue": 3}))
    assert after.current_player == BEN
    assert after.turn == 2
    assert after.players[ANA].crowns == 1
    assert after.players[ANA].bonuses["white"] == 1


def test_a_bought_card_is_unavailable_to_anyone_else():
    state = position(ana=dict(tokens={"blue": 3}), ben=dict(tokens={"blue": 1}, cards=["D1-04"]))
    assert refused(state, buy(ANA, "D1-04", {"blue": 3})).code == "card_unavailable"


def test_an_unknown_card_cannot_be_bought():
    assert refused(new(), buy(ANA, "D1-31", {})).code == "unknown_card"


def test_a_two_bonus_card_gives_two_bonuses_but_only_its_printed_points():
    # D2-01: white, 2 bonuses, 1 point; costs 5 blue and 2 green.
    state = position(ana=dict(tokens={"blue": 4, "gold": 1, "green": 2}))
    after = play(state, buy(ANA, "D2-01", {"blue": 4, "gold": 1, "green": 2}))
    me = after.players[ANA]
    assert me.bonuses == {"white": 2, "blue": 0, "green": 0, "red": 0, "black": 0}
    assert me.prestige == 1
    assert me.color_points["white"] == 1


def test_points_only_cards_count_toward_prestige_but_never_toward_a_colour():
    # D1-30 (3 points) costs 4 red and 1 pearl; D3-13 (6) and D2-24 (5) already owned.
    state = position(ana=dict(cards=["D3-13", "D2-24"], tokens={"red": 4, "pearl": 1}))
    after = play(state, buy(ANA, "D1-30", {"red": 4, "pearl": 1}))
    me = after.players[ANA]
    assert me.prestige == 14
    assert me.color_points == dict.fromkeys(["white", "blue", "green", "red", "black"], 0)
    assert me.bonuses == dict.fromkeys(["white", "blue", "green", "red", "black"], 0)
    assert me.best_color == (None, 0)


@pytest.mark.parametrize("cards", [[], ["D1-30"], ["D3-13", "D2-24"]], ids=["no card", "points only", "two points only"])
def test_a_joker_needs_a_card_with_a_bonus_already_owned(cards):
    # D1-26 (joker) costs 4 white and 1 pearl.
    state = position(ana=dict(cards=cards, tokens={"white": 4, "pearl": 1}))
    error = refused(state, buy(ANA, "D1-26", {"white": 4, "pearl": 1}, wild="white"))
    assert error.code == "joker_needs_bonus"
    assert error.rule == "D-7"


def test_a_joker_joins_only_a_colour_the_player_has_a_bonus_in():
    state = position(ana=dict(cards=["D1-16"], tokens={"white": 4, "pearl": 1}))
    error = refused(state, buy(ANA, "D1-26", {"white": 4, "pearl": 1}, wild="blue"))
    assert error.code == "joker_color"


def test_a_joker_must_be_given_a_colour():
    state = position(ana=dict(cards=["D1-16"], tokens={"white": 4, "pearl": 1}))
    assert refused(state, buy(ANA, "D1-26", {"white": 4, "pearl": 1})).code == "bad_event"


def test_only_a_joker_takes_a_colour():
    state = position(ana=dict(tokens={"blue": 3}))
    assert refused(state, buy(ANA, "D1-04", {"blue": 3}, wild="white")).code == "bad_event"


def test_a_placed_joker_is_that_colour_for_bonuses_and_colour_points():
    # D1-28: joker, 1 point; costs 2 white, 2 green, 1 black, 1 pearl.
    state = position(ana=dict(cards=["D1-16", "D1-01"], tokens={"white": 1, "green": 2, "black": 1, "pearl": 1}))
    after = play(state, buy(ANA, "D1-28", {"white": 1, "green": 2, "black": 1, "pearl": 1}, wild="red"))
    me = after.players[ANA]
    assert me.bonuses["red"] == 2
    assert me.bonuses["white"] == 1
    assert me.color_points["red"] == 1
    assert me.prestige == 1
    assert duel.to_json(after)["players"][ANA]["jokers"] == {"D1-28": "red"}
    assert duel.joker_colors(me) == ["white", "red"]


def test_a_joker_placed_on_a_colour_lowers_the_next_cost_in_that_colour():
    # D1-10 costs 2 red and 3 black; a red joker plus a red card leave only the black.
    state = position(ana=dict(cards=["D1-16", "D1-28:red"], tokens={"black": 3}))
    assert duel.cost_after_bonuses(state.players[ANA], duel.catalog.jewel("D1-10")) == Tokens(black=3)
    after = play(state, buy(ANA, "D1-10", {"black": 3}))
    assert after.players[ANA].bonuses["blue"] == 1


def test_a_reserved_joker_is_placed_when_bought():
    # D1-27 (joker, 1 point) costs 4 black and 1 pearl; a black card lowers it to 3 black.
    state = position(ana=dict(cards=["D1-21"], reserved_cards=["D1-27"], tokens={"black": 3, "pearl": 1}))
    after = play(state, buy(ANA, "D1-27", {"black": 3, "pearl": 1}, from_reserve=True, wild="black"))
    me = after.players[ANA]
    assert me.reserved == ()
    assert me.bonuses["black"] == 2
    assert me.color_points["black"] == 1
    assert me.prestige == 1


def test_the_payment_helper_suggests_own_tokens_first_and_gold_for_the_rest():
    state = position(ana=dict(tokens={"blue": 1, "green": 2, "gold": 2}))
    payment, affordable = duel.payment_for(state, ANA, "D1-02")
    assert affordable
    assert payment.to_dict(skip_zero=True) == {"blue": 1, "green": 2, "gold": 2}
    payment, affordable = duel.payment_for(position(ana=dict(tokens={"blue": 1})), ANA, "D1-02")
    assert not affordable


def test_a_card_in_the_buyers_own_reserve_named_from_the_pyramid_says_to_buy_it_from_the_reserve():
    state = position(ana=dict(tokens={"blue": 3}, reserved_cards=["D1-04"]))
    err = refused(state, buy(ANA, "D1-04", {"blue": 3}))
    assert err.code == "card_unavailable" and err.rule == "D-7"
    assert err.message.startswith("This card is in Ana's own reserve: buy it from the reserve:")
    assert refused(position(ben=dict(reserved_cards=["D1-04"])), buy(ANA, "D1-04", {})).message.startswith(
        "This card is in Ben's reserve:")
