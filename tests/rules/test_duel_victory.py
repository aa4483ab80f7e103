"""D-11 victory: 20 prestige, 10 crowns or 10 points in one colour, checked at the end of the
turn (after the discard) for the player whose turn ends; the game then ends at once."""

import pytest

from builders import (
    ANA,
    BEN,
    alerts,
    buy,
    correct,
    discard,
    play,
    position,
    refused,
    take,
    take_royal,
    use,
)
from tracker.rules import catalog, duel

# Ana's cards for each boundary (see the card table in data/): prestige, crowns, colour.
PRESTIGE_19 = ["D3-13", "D2-24", "D1-30", "D3-02", "D1-05"]  # 6+5+3 points-only, white 4+1
PRESTIGE_20 = PRESTIGE_19 + ["D1-10"]
CROWNS_9 = ["D1-04", "D1-09", "D1-14", "D1-19", "D1-24", "D2-21:white", "D2-22:blue"]
CROWNS_10 = CROWNS_9 + ["D1-26:green"]
RED_9 = ["D3-08", "D2-15", "D2-16", "D1-20"]  # 4+2+2+1 red points, 1 crown
RED_10 = RED_9 + ["D2-13"]
BOTH_ROYALS = ["DR-1", "DR-3"]


def _ends_turn(cards, royals=()):
    state = position(ana=dict(cards=cards, royals=list(royals)))
    return state, play(state, take(ANA, blue=1))


@pytest.mark.parametrize(
    "cards, royals, prestige, crowns, best, routes",
    [
        (PRESTIGE_19, [], 19, 0, 5, ()),
        (PRESTIGE_20, [], 20, 0, 5, ("prestige",)),
        (CROWNS_9, BOTH_ROYALS, 5, 9, 0, ()),
        (CROWNS_10, BOTH_ROYALS, 5, 10, 0, ("crowns",)),
        (RED_9, [], 9, 1, 9, ()),
        (RED_10, [], 10, 1, 10, ("color",)),
    ],
    ids=["19 prestige", "20 prestige", "9 crowns", "10 crowns", "9 in red", "10 in red"],
)
def test_victory_boundaries_at_the_end_of_a_turn(cards, royals, prestige, crowns, best, routes):
    before, after = _ends_turn(cards, royals)
    me = after.players[ANA]
    assert (me.prestige, me.crowns, me.best_color[1]) == (prestige, crowns, best)
    if routes:
        assert after.winner == duel.Winner(ANA, routes)
        assert after.status == "finished"
        assert after.current_player == ANA
        assert after.turn == before.turn
        assert ("victory", ANA) in alerts(after)
        assert duel.to_json(after)["winner"] == {"player": ANA, "routes": list(routes)}
    else:
        assert after.winner is None
        assert after.current_player == BEN
        assert after.turn == before.turn + 1


def test_ten_crowns_win_at_end_of_turn():
    _, after = _ends_turn(CROWNS_10, BOTH_ROYALS)
    assert after.winner == duel.Winner(ANA, ("crowns",))


def test_twenty_prestige_win_at_end_of_turn():
    _, after = _ends_turn(PRESTIGE_20)
    assert after.winner == duel.Winner(ANA, ("prestige",))


def test_every_route_met_is_reported():
    cards = ["D3-07", "D3-08", "D2-16", "D1-20", "D3-11:red", "D3-01", "D3-03"]  # red 10, 10 crowns
    _, after = _ends_turn(cards, ["DR-1", "DR-2"])
    assert after.players[ANA].prestige == 21
    assert after.winner == duel.Winner(ANA, ("prestige", "crowns", "color"))


def test_prestige_and_colour_are_both_reported():
    _, after = _ends_turn(RED_10 + ["D3-13", "D2-24"])
    assert after.winner == duel.Winner(ANA, ("prestige", "color"))


def test_nine_points_in_two_colours_are_not_ten_in_one():
    _, after = _ends_turn(RED_9 + ["D3-04", "D2-07", "D2-08", "D1-10"])
    me = after.players[ANA]
    assert me.color_points["red"] == 9 and me.color_points["blue"] == 9
    assert me.prestige == 18
    assert after.winner is None


@pytest.mark.parametrize("placed, wins", [("red", True), ("white", False)])
def test_a_joker_counts_for_the_colour_it_is_placed_on(placed, wins):
    # D3-12 (3 points) on red brings 7 red points to 10.
    cards = ["D3-08", "D2-15", "D1-20", "D1-01", f"D3-12:{placed}"]
    _, after = _ends_turn(cards)
    assert after.players[ANA].color_points["red"] == (10 if wins else 7)
    assert after.winner == (duel.Winner(ANA, ("color",)) if wins else None)


def test_points_only_cards_never_make_a_colour_win():
    _, after = _ends_turn(["D3-13", "D2-24", "D1-30"])
    assert after.players[ANA].prestige == 14
    assert after.players[ANA].best_color == (None, 0)
    assert after.winner is None


def test_a_winning_purchase_ends_the_game_and_the_extra_turn_is_not_taken():
    # 7 red points and 3 red bonuses: D3-12 (8 red, joker, extra turn) costs 5 red.
    state = position(ana=dict(cards=["D3-08", "D2-15", "D1-20"], tokens={"red": 4, "gold": 1}))
    after = play(state, buy(ANA, "D3-12", {"red": 4, "gold": 1}, wild="red"))
    assert after.winner == duel.Winner(ANA, ("color",))
    assert after.current_player == ANA
    assert after.turn == state.turn
    assert "extra_turn" not in [k for k, _ in alerts(after)]
    assert all(p["extra_turn"] is False for p in duel.to_json(after)["players"])
    assert duel.to_json(after)["status"] == "finished"


def test_victory_is_checked_after_the_discard():
    nine = {"white": 3, "blue": 3, "green": 3}
    state = position(ana=dict(cards=PRESTIGE_20, tokens=nine))
    state = play(state, take(ANA, red=2))
    assert state.pending == duel.Pending("discard", ANA, 1)
    assert state.winner is None
    assert state.status == "active"
    state = play(state, discard(ANA, red=1))
    assert state.winner == duel.Winner(ANA, ("prestige",))


def test_victory_is_checked_only_for_the_player_whose_turn_ends():
    state = position(ben=dict(cards=PRESTIGE_20))
    state = play(state, take(ANA, red=1))
    assert state.winner is None
    assert state.current_player == BEN
    state = play(state, take(BEN, red=1))
    assert state.winner == duel.Winner(BEN, ("prestige",))


def test_victory_waits_for_the_royal_card_choice():
    # 18 prestige and 2 crowns; D1-14 (3 red) brings the third crown.
    state = position(ana=dict(cards=["D3-13", "D2-24", "D1-30", "D3-02", "D1-04", "D1-09"], tokens={"red": 3}))
    state = play(state, buy(ANA, "D1-14", {"red": 3}))
    assert state.winner is None
    state = play(state, take_royal(ANA, "DR-2"))
    assert state.winner == duel.Winner(ANA, ("prestige",))
    assert state.current_player == ANA
    assert "extra_turn" not in [k for k, _ in alerts(state)]


@pytest.mark.parametrize(
    "event",
    [
        take(BEN, red=1),
        take(ANA, red=1),
        use(BEN, red=1),
        discard(ANA, red=1),
        correct(BEN, privileges=0),
        correct(ANA, tokens={"red": 1}, board={"white": 4, "blue": 3, "green": 4, "red": 3, "black": 4, "pearl": 2, "gold": 3}),
    ],
    ids=["opponent", "winner", "privilege", "discard", "correction", "token correction"],
)
def test_no_entry_is_accepted_after_the_game_ends(event):
    _, after = _ends_turn(PRESTIGE_20)
    error = refused(after, event)
    assert error.code == "game_over"
    assert error.rule == "D-11"


def test_a_reserved_card_that_wins_by_itself_and_can_be_paid_for_is_named():
    """D-11 with D-7 (the near-win line asks it): D2-13 in Ana's reserve brings her 10th red
    point; she can pay its 2 white and 5 black with gold for the black she lacks."""
    paid = position(ana=dict(cards=RED_9, reserved_cards=["D2-13", 2], tokens={"white": 2, "black": 4, "gold": 1}))
    assert duel.winning_reserve(paid, ANA) == [("D2-13", ("color",))]
    assert duel.winning_reserve(paid, BEN) == []
    short = position(ana=dict(cards=RED_9, reserved_cards=["D2-13"], tokens={"white": 2, "black": 4}))
    assert duel.winning_reserve(short, ANA) == []  # one black missing, no gold
    not_enough = position(ana=dict(cards=RED_9[:-1], reserved_cards=["D2-13"], tokens={"white": 2, "black": 4, "gold": 1}))
    assert duel.winning_reserve(not_enough, ANA) == []  # 8 red points + 1: no route


def test_a_reserved_joker_wins_in_the_colour_that_serves_best():
    """D3-12 (a joker, 3 points) joins red, where Ana has 9 points, not blue."""
    state = position(ana=dict(cards=RED_9 + ["D1-10"], reserved_cards=["D3-12"], tokens={"red": 3, "gold": 3}))
    red_bonus = duel.cost_after_bonuses(state.players[ANA], catalog.jewel("D3-12")).red
    assert red_bonus <= 6  # payable with 3 red and 3 gold
    assert duel.winning_reserve(state, ANA) == [("D3-12", ("color",))]


def test_can_buy_asks_the_cost_after_bonuses_and_a_colour_for_a_joker():
    """D-7: one rule for the Buy grid's tick, the My reserve mark and the near-win line."""
    rich = position(ana=dict(tokens={"red": 4, "gold": 3}))
    joker = catalog.jewel("D3-12")  # 8 red: 4 red and 3 gold are one short
    assert duel.can_buy(rich.players[ANA], joker) is False
    with_bonus = position(ana=dict(cards=["D1-20"], tokens={"red": 4, "gold": 3}))
    assert duel.can_buy(with_bonus.players[ANA], joker) is True  # the red bonus: 7 owed, and red to join
    assert duel.can_buy(rich.players[ANA], catalog.jewel("D1-04")) is True  # 3 blue: gold stands in
    cheap_joker = catalog.jewel("D1-26")  # 4 white and a pearl
    payer = position(ana=dict(tokens={"white": 4, "pearl": 1}))
    assert duel.can_buy(payer.players[ANA], cheap_joker) is False  # payable, but no colour to join
    payer = position(ana=dict(tokens={"white": 4, "pearl": 1}, cards=["D1-20"]))
    assert duel.can_buy(payer.players[ANA], cheap_joker) is True


def test_the_most_crowns_one_card_can_still_bring():
    """D-11.2: 3 (one level-3 card) while it is out; reserved by Ben it is his to bring, not
    Ana's (2 for her); once nothing crowned is left, 0."""
    from tracker.rules import catalog
    from tracker.rules.common import Reserved

    state = position()
    assert duel.route_reach(state, ANA)["crowns"][0] == 3
    three = next(cid for cid, card in catalog.jewels().items() if card.crowns == 3)
    ben = duel._replace(state.players[BEN], reserved=(Reserved(level=3, card=three),))
    held = duel._replace(state, players=(state.players[ANA], ben))
    assert duel.route_reach(held, ANA)["crowns"][0] == 2 and duel.route_reach(held, BEN)["crowns"][0] == 3
    crowned = [duel.Owned(cid, card.color) for cid, card in catalog.jewels().items() if card.crowns]
    gone = duel._replace(state, players=(duel._replace(state.players[ANA], cards=tuple(crowned)), state.players[BEN]))
    assert duel.route_reach(gone, BEN)["crowns"][0] == 0
