"""S-3.2: after the discard, at the end of every turn, nobles visit on bonuses alone: one a turn, 3 prestige."""

import pytest

from tracker.rules import splendor

from splendor_builders import (
    ANA,
    BEN,
    alert_kinds,
    bonus_cards,
    buy_paying_exactly,
    discard,
    plain_cards,
    play,
    position,
    quiet_turn,
    refused,
    reserve,
    take,
    take_noble,
)

# The display for 2 players: N-06 (4 white, 4 blue), N-07 (4 white, 4 black), N-08 (4 blue, 4 green).
DISPLAY = ("N-06", "N-07", "N-08")


def test_a_single_qualifying_noble_visits_automatically_when_the_turn_ends():
    fourth_green = plain_cards("green", 4)[3]  # Ana holds its printed cost
    cost = splendor.development_card(fourth_green).cost
    state = position(seats={ANA: dict(cards=bonus_cards(blue=4, green=3), tokens=cost.to_dict())})
    after = play(state, buy_paying_exactly(state, ANA, fourth_green))
    ana = after.players[ANA]
    assert ana.nobles == ("N-08",) and ana.prestige == 3
    assert after.nobles_available == ("N-06", "N-07")
    assert alert_kinds(after) == ["noble_visit"] and "N-08" in after.alerts[0].message
    assert after.current_player == BEN and after.pending is None
    assert splendor.to_json(after)["players"][ANA]["nobles"] == ["N-08"]


@pytest.mark.parametrize(("green_bonuses", "visited"), [(3, ()), (4, ("N-08",))])
def test_nobles_are_checked_at_the_end_of_every_turn_even_one_that_buys_nothing(green_bonuses, visited):
    state = position(seats={ANA: dict(cards=bonus_cards(blue=4, green=green_bonuses))})
    after = play(state, take(ANA, white=1, red=1, black=1))
    assert after.players[ANA].nobles == visited


def test_tokens_never_count_toward_a_noble():
    state = position(seats={ANA: dict(cards=bonus_cards(blue=4, green=3), tokens={"green": 4})})
    after = play(state, take(ANA, white=1, red=1, black=1))
    assert after.players[ANA].nobles == () and after.nobles_available == DISPLAY


def test_when_several_nobles_qualify_the_player_chooses_one():
    state = position(seats={ANA: dict(cards=bonus_cards(white=4, blue=4, green=4))})
    after = play(state, take(ANA, red=1, black=1, green=1))
    assert after.pending == splendor.Pending("noble", ANA, choices=("N-06", "N-08"))
    assert splendor.to_json(after)["pending"] == {"kind": "noble", "player": ANA, "choices": ["N-06", "N-08"]}
    assert alert_kinds(after) == ["noble_due"]
    assert after.current_player == ANA and after.turn == 1

    chosen = play(after, take_noble(ANA, "N-08"))
    assert chosen.players[ANA].nobles == ("N-08",) and chosen.players[ANA].prestige == 3
    assert chosen.nobles_available == ("N-06", "N-07")
    assert alert_kinds(chosen) == ["noble_visit"]
    assert chosen.current_player == BEN and chosen.pending is None


def test_at_most_one_noble_visits_a_turn_the_other_comes_next_turn():
    state = position(seats={ANA: dict(cards=bonus_cards(white=4, blue=4, green=4))})
    state = play(state, take(ANA, red=1, black=1, green=1), take_noble(ANA, "N-06"))
    state = quiet_turn(state)  # Ben
    assert state.current_player == ANA
    state = play(state, take(ANA, red=1, black=1, white=1))
    assert state.players[ANA].nobles == ("N-06", "N-08") and state.players[ANA].prestige == 6
    assert alert_kinds(state) == ["noble_visit"]


def test_a_noble_choice_must_be_one_of_the_qualifying_nobles():
    state = position(seats={ANA: dict(cards=bonus_cards(white=4, blue=4, green=4))})
    state = play(state, take(ANA, red=1, black=1, green=1))
    error = refused(state, take_noble(ANA, "N-07"))  # on display, but Ana has no black bonus
    assert error.code == "noble_not_eligible" and error.rule == "S-3.2"
    assert "cannot visit Ana now" in error.message
    absent = refused(state, take_noble(ANA, "N-01"))  # not on display: said so, not "cannot visit"
    assert absent.code == "noble_not_eligible" and absent.params["choices"] == "N-06, N-08"
    assert "not on display in this game" in absent.message
    assert refused(state, take_noble(ANA, "N-42")).code == "unknown_card"


def test_nothing_else_is_accepted_while_a_noble_choice_is_due():
    state = position(seats={ANA: dict(cards=bonus_cards(white=4, blue=4, green=4))})
    state = play(state, take(ANA, red=1, black=1, green=1))
    for event in (take(ANA, red=1, black=1, green=1), reserve(ANA, level=2), discard(ANA, red=1)):
        assert refused(state, event).code == "noble_required"
    # another player's entry: not their turn, and what Ana owes first is said
    error = refused(state, take(BEN, red=1, black=1, green=1))
    assert error.code == "not_your_turn" and error.rule == "S-1"
    assert error.message == "It is Ana's turn: Ana chooses the noble who visits first."


def test_a_noble_choice_that_is_not_due_is_refused():
    state = position(seats={ANA: dict(cards=bonus_cards(white=4, blue=4))})
    assert refused(state, take_noble(ANA, "N-06")).code == "no_noble_due"
    assert refused(state, take_noble(ANA, "N-99")).code == "unknown_card"  # GAME-LOG.md: unknown id first


def test_the_discard_comes_before_the_noble():
    state = position(4, nobles=["N-06", "N-07", "N-08", "N-09", "N-10"],
                     seats={ANA: dict(cards=bonus_cards(white=4, blue=4, green=4), tokens={"white": 5, "blue": 4})})
    state = play(state, take(ANA, red=1, black=1, green=1))
    assert state.pending == splendor.Pending("discard", ANA, count=2)
    assert refused(state, take_noble(ANA, "N-06")).code == "discard_required"
    state = play(state, discard(ANA, white=1, blue=1))
    assert state.pending == splendor.Pending("noble", ANA, choices=("N-06", "N-08"))
    assert alert_kinds(state) == ["noble_due"]
    state = play(state, take_noble(ANA, "N-06"))
    assert state.current_player == BEN


def test_a_single_noble_visits_right_after_the_discard():
    state = position(4, seats={ANA: dict(cards=bonus_cards(white=4, blue=4), tokens={"white": 5, "blue": 5})})
    state = play(state, take(ANA, red=1, black=1, green=1))
    assert state.players[ANA].nobles == ()
    state = play(state, discard(ANA, red=1, black=1, green=1))
    assert state.players[ANA].nobles == ("N-06",) and alert_kinds(state) == ["noble_visit"]
    assert state.current_player == BEN


def test_only_the_player_whose_turn_ends_is_visited():
    state = position(seats={BEN: dict(cards=bonus_cards(white=4, blue=4))})
    state = play(state, take(ANA, red=1, black=1, green=1))
    assert state.players[BEN].nobles == ()
    state = play(state, take(BEN, red=1, black=1, green=1))
    assert state.players[BEN].nobles == ("N-06",)


def test_a_noble_with_another_player_visits_no_one_else():
    state = position(seats={ANA: dict(cards=bonus_cards(white=4, blue=4)), BEN: dict(nobles=["N-06"])})
    state = play(state, take(ANA, red=1, black=1, green=1))
    assert state.players[ANA].nobles == () and state.players[BEN].nobles == ("N-06",)
