"""S-4: 15 prestige at the end of a turn starts the final round; it is completed so every player has
played as many turns; most prestige wins, then fewest purchased cards, then a shared win."""

import pytest

from tracker.rules import splendor

from splendor_builders import (
    ANA,
    BEN,
    CLEO,
    DAN,
    alert_kinds,
    bonus_cards,
    cards_with_points,
    cards_worth,
    correct,
    play,
    position,
    quiet_turn,
    refused,
    take,
)


def rounds(state, turns):
    """Play ``turns`` quiet turns, or fewer if the game ends first."""
    for _ in range(turns):
        if state.winner:
            break
        state = quiet_turn(state)
    return state


@pytest.mark.parametrize(("prestige", "final"), [(14, False), (15, True), (16, True)])
def test_fifteen_prestige_at_the_end_of_a_turn_starts_the_final_round(prestige, final):
    state = position(3, seats={ANA: dict(cards=cards_worth(prestige))})
    after = quiet_turn(state)
    assert after.final_round is final
    assert ("final_round" in alert_kinds(after)) is final
    assert after.winner is None and after.current_player == BEN
    assert splendor.to_json(after)["final_round"] is final


def test_fifteen_by_the_start_player_lets_every_other_player_finish_the_round():
    state = position(3, seats={ANA: dict(cards=cards_worth(15))})
    state = quiet_turn(state)  # Ana reaches 15 at the end of turn 1
    state = quiet_turn(state)  # Ben
    assert state.winner is None and state.current_player == CLEO
    state = quiet_turn(state)  # Cleo, the seat before the start player: the game ends
    assert state.status == "finished" and state.turn == 3
    assert state.winner == splendor.Winner((ANA,), 15, 3)
    assert alert_kinds(state) == ["victory"]
    assert state.current_player == CLEO
    assert state.pending is None


def test_fifteen_by_the_last_player_of_the_round_ends_the_game_at_once():
    state = position(3, seats={CLEO: dict(cards=cards_worth(15))})
    state = rounds(state, 2)
    assert state.winner is None and not state.final_round
    state = quiet_turn(state)  # Cleo ends her turn with 15: the round is already complete
    assert state.final_round and state.status == "finished" and state.turn == 3
    assert alert_kinds(state) == ["final_round", "victory"]
    assert state.winner.players == (CLEO,)
    final = next(a for a in state.alerts if a.kind == "final_round")
    assert final.template % final.params == "Cleo has 15 prestige and plays last in the round: the game ends now."


def test_fifteen_earlier_in_the_round_says_the_round_is_played_to_its_end():
    state = quiet_turn(position(3, seats={ANA: dict(cards=cards_worth(15))}))
    final = next(a for a in state.alerts if a.kind == "final_round")
    assert final.template % final.params == "Ana has 15 prestige: the round is played to its end."


def test_the_round_ends_with_the_seat_just_before_the_start_player():
    # Start player Cleo in a 4-player game: the seats play Cleo, Dan, Ana, Ben.
    state = position(4, first_player=CLEO, to_act=CLEO, seats={DAN: dict(cards=cards_worth(15))})
    seats = []
    while state.winner is None:
        seats.append(state.current_player)
        state = quiet_turn(state)
    assert seats == [CLEO, DAN, ANA, BEN]
    assert state.turn == 4 and state.winner.players == (DAN,)


def test_reaching_fifteen_later_in_the_final_round_raises_no_second_alert():
    ana = cards_worth(15)
    state = position(3, seats={ANA: dict(cards=ana), BEN: dict(cards=cards_worth(16, avoid=ana))})
    state = quiet_turn(state)
    assert "final_round" in alert_kinds(state)
    state = quiet_turn(state)
    assert "final_round" not in alert_kinds(state) and state.final_round


def test_most_prestige_wins_even_when_overtaken_in_the_final_round():
    ana = cards_worth(15)
    state = position(3, seats={ANA: dict(cards=ana), BEN: dict(cards=cards_worth(17, avoid=ana))})
    state = rounds(state, 3)
    assert state.winner == splendor.Winner((BEN,), 17, len(cards_worth(17, avoid=ana)))


@pytest.mark.parametrize(
    ("ana_points", "ben_points", "winners"),
    [
        ((5, 5, 5), (4, 4, 4, 3), (ANA,)),
        ((4, 4, 4, 3), (5, 5, 5), (BEN,)),
        ((5, 5, 4, 1), (5, 4, 4, 2), (ANA, BEN)),
    ],
)
def test_a_tie_on_prestige_goes_to_fewest_cards_and_a_full_tie_is_shared(ana_points, ben_points, winners):
    ana = cards_with_points(*ana_points)
    ben = cards_with_points(*ben_points, avoid=ana)
    state = position(2, seats={ANA: dict(cards=ana), BEN: dict(cards=ben)})
    state = rounds(state, 2)
    cards = min(len(ana), len(ben))
    assert state.winner == splendor.Winner(winners, 15, cards)
    assert splendor.to_json(state)["winner"] == {"players": list(winners), "prestige": 15, "cards": cards}
    assert state.alerts[-1].kind == "victory"


def test_nobles_are_never_a_tie_break():
    # Ana: 12 on cards + a noble = 15 with 11 cards; Ben: 15 on cards with 11 cards, no noble.
    ana = cards_with_points(4, 4, 4) + bonus_cards(white=4, blue=4)
    ben = cards_with_points(5, 5, 5, avoid=ana) + bonus_cards(red=4, black=4)
    state = position(2, seats={ANA: dict(cards=ana, nobles=["N-06"]), BEN: dict(cards=ben)})
    assert state.players[ANA].prestige == state.players[BEN].prestige == 15
    assert len(state.players[ANA].cards) == len(state.players[BEN].cards) == 11
    state = rounds(state, 2)
    assert state.players[ANA].nobles == ("N-06",) and state.players[BEN].nobles == ()
    assert state.winner.players == (ANA, BEN)


def test_a_noble_visit_can_bring_the_fifteenth_point():
    state = position(2, seats={ANA: dict(cards=cards_worth(12) + bonus_cards(white=4, blue=4))})
    state = play(state, take(ANA, red=1, green=1, black=1))
    assert state.players[ANA].prestige == 15 and state.final_round
    assert alert_kinds(state) == ["noble_visit", "final_round"]


def test_no_entry_is_accepted_after_the_end():
    state = rounds(position(2, seats={BEN: dict(cards=cards_worth(15))}), 2)
    assert state.status == "finished"
    assert refused(state, take(ANA, red=1, green=1, black=1)).code == "game_over"
    error = refused(state, correct(ANA, tokens=state.players[ANA].tokens.to_dict()))
    assert error.code == "game_over" and error.rule == "S-4"
