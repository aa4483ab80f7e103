"""D-9 crowns and royal cards: thresholds 3 and 6, the choice owed, and the royal abilities."""

import pytest

from builders import (
    ANA,
    BEN,
    alerts,
    buy,
    correct,
    discard,
    new,
    play,
    position,
    refused,
    replenish,
    take,
    take_royal,
    tokens_of,
    use,
)
from tracker.rules import duel

TWO_CROWNS = ["D1-04", "D1-09"]  # white and blue, 1 crown each, no points
FIVE_CROWNS = ["D1-04", "D1-09", "D1-14", "D1-19", "D1-24"]
# D1-14: green, 1 crown; costs 3 red.
THIRD_CROWN = ("D1-14", {"red": 3})
# D2-21: joker, 2 crowns; costs 6 blue and 1 pearl, 5 blue with the blue card above.
TWO_MORE_CROWNS = ("D2-21", {"blue": 4, "gold": 1, "pearl": 1})
# D2-04: white, 1 crown, 2 points; costs 2 green, 2 red, 2 black, 1 pearl: one of each with FIVE_CROWNS.
ONE_MORE_CROWN = ("D2-04", {"green": 1, "red": 1, "black": 1, "pearl": 1})


def royal_due(ana_tokens: dict | None = None, ben: dict | None = None, ana_cards=()) -> duel.DuelState:
    """Ana has just bought her third crown (2 → 3) and owes the choice of a royal card."""
    tokens = dict({"red": 3}, **(ana_tokens or {}))
    state = position(ana=dict(cards=TWO_CROWNS + list(ana_cards), tokens=tokens), ben=ben)
    return play(state, buy(ANA, *THIRD_CROWN))


@pytest.mark.parametrize(
    "cards, royals, purchase, crowns_after, due",
    [
        (TWO_CROWNS, [], THIRD_CROWN, 3, True),
        (TWO_CROWNS, [], TWO_MORE_CROWNS, 4, True),
        (TWO_CROWNS + ["D1-14"], ["DR-1"], TWO_MORE_CROWNS, 5, False),
        (FIVE_CROWNS, ["DR-1"], ONE_MORE_CROWN, 6, True),
        (FIVE_CROWNS, ["DR-1"], TWO_MORE_CROWNS, 7, True),
        (FIVE_CROWNS + ["D1-26:white"], ["DR-1", "DR-2"], ONE_MORE_CROWN, 7, False),
        (["D1-04"], [], ("D1-09", {"green": 3}), 2, False),
    ],
    ids=["2 to 3", "2 to 4", "3 to 5", "5 to 6", "5 to 7", "6 to 7", "1 to 2"],
)
def test_crossing_three_or_six_crowns_owes_a_royal_card(cards, royals, purchase, crowns_after, due):
    card, payment = purchase
    wild = "blue" if duel.catalog.jewel(card).is_joker else None
    state = position(ana=dict(cards=cards, royals=royals, tokens=payment))
    after = play(state, buy(ANA, card, payment, wild=wild))
    assert after.players[ANA].crowns == crowns_after
    if due:
        assert after.pending == duel.Pending("royal", ANA)
        assert after.current_player == ANA
        assert ("royal_due", ANA) in alerts(after)
        assert duel.to_json(after)["pending"] == {"kind": "royal", "player": ANA}
    else:
        assert after.pending is None
        assert after.current_player == BEN
        assert "royal_due" not in [k for k, _ in alerts(after)]


@pytest.mark.parametrize(
    "event",
    [take(ANA, blue=1), use(ANA, blue=1), replenish(ANA), discard(ANA, blue=1), buy(ANA, "D1-01", {})],
    ids=["take", "privilege", "replenish", "discard", "purchase"],
)
def test_while_a_royal_card_is_due_only_the_royal_choice_is_accepted(event):
    state = royal_due(ben=dict(privileges=0))
    state = play(state, correct(ANA, privileges=1))
    error = refused(state, event)
    assert error.code == "royal_required"
    assert error.rule == "D-9"


def test_the_opponent_cannot_act_while_a_royal_card_is_due():
    error = refused(royal_due(), take(BEN, red=1))
    assert error.code == "not_your_turn"
    assert error.message.endswith("'s turn: " + error.params["name"] + " takes a royal card first.")


def test_taking_a_royal_card_when_none_is_due_is_refused():
    assert refused(new(), take_royal(ANA, "DR-1")).code == "no_royal_due"
    state = play(royal_due(), take_royal(ANA, "DR-1"), take(BEN, red=1))
    error = refused(state, take_royal(ANA, "DR-2"))
    assert error.code == "no_royal_due"
    assert error.rule == "D-9"


def test_an_unknown_royal_card_is_unknown_whether_or_not_one_is_due():
    """GAME-LOG.md: an unknown id is ``unknown_card`` (a malformed entry), before D-9's "due"."""
    for state in (new(), royal_due()):
        error = refused(state, take_royal(ANA, "DR-9"))
        assert (error.code, error.rule) == ("unknown_card", "D-1.2")


def test_a_royal_card_already_taken_is_unavailable():
    state = royal_due(ben=dict(cards=["D1-19", "D1-24", "D1-26:red"], royals=["DR-2"]))
    error = refused(state, take_royal(ANA, "DR-2"))
    assert error.code == "royal_unavailable"


def test_an_unknown_royal_card_is_refused():
    assert refused(royal_due(), take_royal(ANA, "DR-9")).code == "unknown_card"


def test_dr_1_gives_three_prestige_and_ends_the_turn():
    state = play(royal_due(), take_royal(ANA, "DR-1"))
    me = state.players[ANA]
    assert me.royals == ("DR-1",)
    assert me.prestige == 3
    assert sorted(state.royals_available) == ["DR-2", "DR-3", "DR-4"]
    assert state.current_player == BEN
    assert state.turn == 2


def test_dr_2_gives_an_extra_turn():
    state = play(royal_due(), take_royal(ANA, "DR-2"))
    assert state.current_player == ANA
    assert state.turn == 2
    assert ("extra_turn", ANA) in alerts(state)
    assert state.players[ANA].prestige == 2


@pytest.mark.parametrize("ben_privileges, ana_after, ben_after", [(1, 1, 1), (3, 1, 2)])
def test_dr_3_gives_a_privilege(ben_privileges, ana_after, ben_after):
    state = royal_due(ben=dict(privileges=ben_privileges))
    state = play(state, take_royal(ANA, "DR-3"))
    assert [p.privileges for p in state.players] == [ana_after, ben_after]
    assert state.privileges_supply == 3 - ana_after - ben_after


def test_dr_4_steals_a_gem_or_pearl_from_the_opponent():
    state = royal_due(ben=dict(tokens={"pearl": 1, "gold": 1}))
    assert refused(state, take_royal(ANA, "DR-4")).code == "steal_required"
    assert refused(state, take_royal(ANA, "DR-4", steal="red")).code == "steal_target"
    error = refused(state, take_royal(ANA, "DR-4", steal="gold"))
    assert error.code == "gold_not_allowed"
    # the steal is D-8's card ability, on a royal card as on a jewel card (D-9 only brings it)
    assert {refused(state, take_royal(ANA, "DR-4", steal=s)).rule for s in (None, "red", "gold")} == {"D-8"}
    after = play(state, take_royal(ANA, "DR-4", steal="pearl"))
    assert tokens_of(after, ANA) == {"pearl": 1}
    assert tokens_of(after, BEN) == {"gold": 1}
    assert after.players[ANA].royals == ("DR-4",)


@pytest.mark.parametrize("ben_tokens", [{}, {"gold": 3}], ids=["nothing", "only gold"])
def test_dr_4_with_nothing_to_steal_names_no_token(ben_tokens):
    state = royal_due(ben=dict(tokens=ben_tokens))
    assert refused(state, take_royal(ANA, "DR-4", steal="red")).code == "steal_target"
    after = play(state, take_royal(ANA, "DR-4"))
    assert tokens_of(after, BEN) == ben_tokens
    assert after.current_player == BEN


def test_a_royal_without_the_steal_ability_names_no_steal():
    state = royal_due(ben=dict(tokens={"red": 1}))
    assert refused(state, take_royal(ANA, "DR-1", steal="red")).code == "bad_event"


def test_the_royal_card_comes_before_the_discard():
    state = royal_due(ana_tokens={"white": 4, "blue": 4, "green": 3})  # 14 tokens, 11 after paying
    assert state.pending == duel.Pending("royal", ANA)
    assert refused(state, discard(ANA, white=1)).code == "royal_required"
    state = play(state, take_royal(ANA, "DR-1"))
    assert state.pending == duel.Pending("discard", ANA, 1)
    assert refused(state, take_royal(ANA, "DR-2")).code == "discard_required"
    state = play(state, discard(ANA, green=1))
    assert state.current_player == BEN


def test_a_stolen_token_can_force_a_discard():
    state = royal_due(ana_tokens={"white": 4, "blue": 4, "green": 2}, ben=dict(tokens={"black": 2}))
    assert state.players[ANA].tokens.total == 10
    state = play(state, take_royal(ANA, "DR-4", steal="black"))
    assert state.pending == duel.Pending("discard", ANA, 1)


def test_royal_prestige_counts_toward_twenty_but_never_toward_a_colour():
    # 18 prestige on jewel cards (white 4, the rest points-only) and 2 crowns.
    jewels = ["D3-13", "D2-24", "D1-30", "D3-02"]
    state = royal_due(ana_cards=jewels)
    assert state.players[ANA].prestige == 18
    assert state.winner is None
    state = play(state, take_royal(ANA, "DR-1"))
    me = state.players[ANA]
    assert me.prestige == 21
    assert me.color_points == {"white": 4, "blue": 0, "green": 0, "red": 0, "black": 0}
    assert me.crowns == 3
    assert state.winner == duel.Winner(ANA, ("prestige",))


def test_a_player_owns_at_most_two_royal_cards_one_per_threshold():
    state = position(ana=dict(cards=FIVE_CROWNS, royals=["DR-1"], tokens=ONE_MORE_CROWN[1]))
    state = play(state, buy(ANA, *ONE_MORE_CROWN), take_royal(ANA, "DR-3"))
    assert state.players[ANA].royals == ("DR-1", "DR-3")
    assert state.players[ANA].royals_earned == 2
    assert sorted(state.royals_available) == ["DR-2", "DR-4"]
