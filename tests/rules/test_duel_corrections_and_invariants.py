"""Corrections (GAME-LOG.md) and the D-12 invariants the engine asserts after every event."""

from dataclasses import replace

import pytest

from builders import (
    ANA,
    BEN,
    buy,
    correct,
    new,
    play,
    position,
    refused,
    replenish,
    take,
    tokens_of,
    use,
)
from tracker.rules import duel
from tracker.rules.duel import Owned, Reserved
from tracker.rules.errors import RuleError
from tracker.rules.tokens import Tokens

FULL = duel.TOKEN_TOTALS


def test_a_token_correction_names_the_board_too():
    state = new()
    after = play(state, correct(ANA, tokens={"red": 1}, board=(FULL - Tokens(red=1)).to_dict()))
    assert tokens_of(after, ANA) == {"red": 1}
    assert after.board.red == 3


def test_a_token_correction_may_name_the_bag_instead():
    state = position(ana=dict(tokens={"red": 2}))
    after = play(state, correct(ANA, tokens={"red": 1}, bag={"red": 1}))
    assert tokens_of(after, ANA) == {"red": 1}
    assert after.bag.red == 1
    assert after.board.red == 2


@pytest.mark.parametrize(
    "fix",
    [
        dict(tokens={"red": 1}),
        dict(board={"red": 4}),
        dict(bag={"gold": 1}),
        dict(tokens={"red": 1}, bag={"red": 1}),
    ],
    ids=["tokens alone", "board alone", "bag alone", "a token counted twice"],
)
def test_a_correction_that_breaks_a_token_total_is_refused(fix):
    error = refused(new(), correct(ANA, **fix))
    assert error.code == "invariant_broken"
    assert error.rule == "D-12"


def test_a_correction_that_breaks_several_token_totals_names_them_all():
    error = refused(new(), correct(ANA, tokens={"red": 1, "pearl": 1}))
    assert error.code == "invariant_broken" and error.rule == "D-12"
    assert error.message == ("Token totals would not hold (red 5, not 4; pearl 3, not 2): "
                             "fix the board or the bag too.")


@pytest.mark.parametrize("seat, held, supply", [(ANA, 0, 2), (ANA, 2, 0), (BEN, 0, 3), (BEN, 3, 0)])
def test_a_privilege_correction_recomputes_the_supply(seat, held, supply):
    state = new(ANA)  # Ben holds the setup privilege
    after = play(state, correct(seat, privileges=held))
    assert after.players[seat].privileges == held
    assert after.privileges_supply == supply
    assert after.privileges_supply + sum(p.privileges for p in after.players) == 3


def test_a_privilege_correction_beyond_three_in_all_is_refused():
    state = new(ANA)  # Ben, second to play, holds the setup privilege (D-1)
    error = refused(state, correct(ANA, privileges=3))
    assert error.code == "invariant_broken"
    assert error.rule == "D-3.3"
    # says what to fix first (a tester set 3 for one player while the other held 1)
    ana, ben = state.players[ANA].name, state.players[BEN].name
    assert error.message == (f"Both players together can hold at most 3 privileges: {ben} holds 1, so {ana} "
                             f"can hold at most 2 (fix {ben}'s first).")


@pytest.mark.parametrize("seat", [ANA, BEN])
def test_either_player_may_enter_a_correction_without_changing_the_turn(seat):
    state = play(new(ANA), take(ANA, red=1), take(BEN, blue=1))
    after = play(state, correct(seat, privileges=0))
    assert after.current_player == ANA
    assert after.turn == state.turn
    assert after.pending is None


def test_a_correction_is_accepted_while_a_royal_card_is_due():
    state = position(ana=dict(cards=["D1-04", "D1-09"], tokens={"red": 3}))
    state = play(state, buy(ANA, "D1-14", {"red": 3}))
    after = play(state, correct(BEN, privileges=2))
    assert after.pending == duel.Pending("royal", ANA)
    assert after.current_player == ANA


def test_a_correction_is_accepted_while_a_discard_is_due():
    state = play(position(ana=dict(tokens={"white": 3, "blue": 3, "green": 3})), take(ANA, red=3))
    assert state.pending == duel.Pending("discard", ANA, 2)
    after = play(state, correct(BEN, tokens={"pearl": 1}, board=(state.board - Tokens(pearl=1)).to_dict()))
    assert after.pending == duel.Pending("discard", ANA, 2)
    assert after.current_player == ANA


def test_a_correction_keeps_the_replenish_of_the_turn():
    state = play(position(ana=dict(privileges=1), bag={"red": 1}), replenish(ANA))
    state = play(state, correct(BEN, privileges=1))
    assert refused(state, use(ANA, red=1)).code == "privilege_after_replenish"


def test_a_new_game_passes_every_invariant():
    duel.check_invariants(new())


@pytest.mark.parametrize(
    "broken",
    [
        lambda s: replace(s, board=s.board + Tokens(red=1)),
        lambda s: replace(s, bag=s.bag + Tokens(gold=1)),
        lambda s: replace(s, board=s.board - Tokens(pearl=3), bag=Tokens(pearl=1)),
        lambda s: replace(s, privileges_supply=3),
        lambda s: replace(s, players=(replace(s.players[0], reserved=(Reserved(1),) * 4), s.players[1])),
        lambda s: replace(s, players=(replace(s.players[0], royals=("DR-1",)), s.players[1])),
        lambda s: replace(
            s, players=(replace(s.players[0], cards=(Owned("D1-04", "white"),) * 3, royals=("DR-1", "DR-2")), s.players[1])
        ),
    ],
    ids=["token created", "gold created", "negative pearls", "four privileges", "four reserved",
         "royal without crowns", "second royal at three crowns"],
)
def test_a_broken_total_is_reported_as_invariant_broken(broken):
    with pytest.raises(RuleError) as info:
        duel.check_invariants(broken(new()))
    assert info.value.code == "invariant_broken"


def test_a_royal_may_still_be_due_without_breaking_the_invariant():
    state = position(ana=dict(cards=["D1-04", "D1-09", "D1-14"]))
    duel.check_invariants(state)
    assert state.players[ANA].royal_due


def test_prestige_crowns_bonuses_and_colour_points_are_derived_from_the_cards():
    player = duel.Player(
        name="Ana",
        cards=(Owned("D2-13", "red"), Owned("D3-12", "red"), Owned("D3-13", "none"), Owned("D3-01", "white")),
        royals=("DR-1",),
    )
    assert player.prestige == 1 + 3 + 6 + 3 + 3
    assert player.crowns == 2
    assert player.bonuses == {"white": 1, "blue": 0, "green": 0, "red": 3, "black": 0}
    assert player.color_points == {"white": 3, "blue": 0, "green": 0, "red": 4, "black": 0}
    assert player.best_color == ("red", 4)
    assert player.royals_earned == 0


def test_the_state_json_uses_the_game_log_field_names():
    state = play(position(ana=dict(cards=["D1-01"], reserved_cards=[2])), take(ANA, red=1))
    data = duel.to_json(state)
    assert data["game"] == "duel"
    assert data["status"] == "active"
    assert data["turn"] == 2
    assert data["current_player"] == BEN
    assert data["pending"] is None
    assert data["privileges_supply"] == 2
    assert data["board"]["red"] == 3
    assert data["bag"] == {k: 0 for k in data["bag"]}
    assert data["royals_available"] == ["DR-1", "DR-2", "DR-3", "DR-4"]
    assert data["winner"] is None
    ana = data["players"][ANA]
    assert ana["name"] == "Ana"
    assert ana["cards"] == ["D1-01"]
    assert ana["reserved"] == [{"level": 2}]
    assert ana["tokens"]["red"] == 1
    assert ana["bonuses"]["white"] == 1
    assert set(ana) >= {"prestige", "crowns", "color_points", "bonuses", "tokens", "privileges", "reserved",
                        "royals", "cards", "extra_turn"}


@pytest.mark.parametrize(
    "fix, advice",
    [
        (dict(tokens={"red": 1}), "fix the board or the bag too."),
        (dict(board={**FULL.to_dict(), "red": 3}), "fix the bag or a player's tokens too."),
        (dict(bag={"red": 1}), "fix the board or a player's tokens too."),
        (dict(board={**FULL.to_dict(), "red": 3}, bag={"red": 2}), "fix a player's tokens too."),
    ],
    ids=["tokens", "board", "bag", "board and bag"],
)
def test_a_broken_total_s_advice_names_what_the_fix_left_alone(fix, advice):
    """A board fixed alone was told "fix the board or the bag too" (a tester: the part just fixed)."""
    error = refused(new(), correct(ANA, **fix))
    assert error.code == "invariant_broken" and error.rule == "D-12"
    assert error.message.startswith("The red tokens would add up to ") and error.message.endswith(advice), error.message


def test_a_fix_breaking_a_total_is_offered_the_single_counts_that_restore_it():
    """D-12: Ana's red typed 2 → 1 and nothing else leaves a red token missing: the board's or
    the bag's red one more restores it (each offered, board first), and either, applied, is a
    correction the engine accepts. What the table typed itself is never offered back."""
    state = position(ana=dict(tokens={"red": 2}))
    board_red, bag_red = state.board.red, state.bag.red
    alone = correct(ANA, tokens={"red": 1})
    with pytest.raises(RuleError):
        duel.apply(state, alone)
    offered = duel.fix_balancing(state, alone)
    assert offered == [("board", "red", board_red, board_red + 1), ("bag", "red", bag_red, bag_red + 1)]
    on_board = play(state, correct(ANA, tokens={"red": 1}, board={**state.board.to_dict(), "red": board_red + 1}))
    assert on_board.board.red == board_red + 1 and tokens_of(on_board, ANA) == {"red": 1}
    # the board typed too (and wrong): only the bag is left to offer
    typed_board = correct(ANA, tokens={"red": 1}, board=state.board.to_dict())
    assert duel.fix_balancing(state, typed_board) == [("bag", "red", bag_red, bag_red + 1)]
    # the board set for another kind (an earlier tap of the offer: red), a second kind off: the
    # board's count of it, left as it was, is offered too (a Korean tester typed it by hand)
    state2 = position(ana=dict(tokens={"red": 2, "pearl": 1}))
    board_pearl = state2.board.pearl
    both = correct(ANA, tokens={"red": 1, "pearl": 2}, board={**state2.board.to_dict(), "red": state2.board.red + 1})
    assert ("board", "pearl", board_pearl, board_pearl - 1) in duel.fix_balancing(state2, both)
    assert ("board", "red", state2.board.red, state2.board.red) not in duel.fix_balancing(state2, both)
    # five red too many on the board: the bag cannot give five, Ana's 2 cannot either
    too_many = correct(ANA, board={**state.board.to_dict(), "red": board_red + 5})
    assert duel.fix_balancing(state, too_many) == []
    # totals that hold offer nothing
    assert duel.fix_balancing(state, correct(ANA, privileges=1)) == []
