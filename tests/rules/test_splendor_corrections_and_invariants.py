"""Corrections (tokens and supply only, by anyone, before the end) and the totals checked after every event."""

from dataclasses import replace

import pytest

from tracker.rules import splendor
from tracker.rules.errors import RuleError
from tracker.rules.events import Correction, parse_event
from tracker.rules.splendor import Reserved
from tracker.rules.tokens import Tokens

from splendor_builders import (
    ANA,
    BEN,
    CLEO,
    bonus_cards,
    correct,
    discard,
    new,
    play,
    position,
    take,
)


def test_a_correction_moving_tokens_between_a_player_and_the_supply_is_accepted_from_anyone():
    state = play(new(3), take(ANA, red=1, blue=1, green=1))
    fixed = play(state, correct(CLEO, tokens={"white": 1}, board=(state.board - Tokens(white=1)).to_dict(),
                                note="Cleo took a white she forgot to enter"))
    assert fixed.players[ANA].tokens == Tokens(red=1, blue=1, green=1)
    assert fixed.players[CLEO].tokens == Tokens(white=1)
    assert fixed.board.white == 4
    assert fixed.current_player == BEN and fixed.turn == 2


@pytest.mark.parametrize(
    "fix",
    [
        dict(tokens={"red": 2}),  # the player's tokens alone: the red would add up to 5
        dict(board={"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "gold": 4}),  # a gold lost
    ],
)
def test_a_correction_that_breaks_a_total_is_refused(fix):
    error = pytest.raises(RuleError, splendor.apply, new(), correct(ANA, **fix)).value
    assert error.code == "invariant_broken" and error.rule == "S-1"


def test_a_correction_that_breaks_several_totals_names_them_all():
    """A half-made fix (white 0→1, blue 1→0 on a player) is off in two kinds: both are named
    (only the first was, and the player fixed it to be told of the second)."""
    error = pytest.raises(RuleError, splendor.apply, new(), correct(ANA, tokens={"white": 1, "red": 2})).value
    assert error.code == "invariant_broken" and error.rule == "S-1"
    assert error.message == "Token totals would not hold (white 5, not 4; red 6, not 4): fix the supply too."


def test_splendor_has_no_privileges_no_bag_and_no_pearls_to_correct():
    for fix in (Correction(player=ANA, privileges=1), Correction(player=ANA, bag=Tokens(red=1)),
                correct(ANA, tokens={"pearl": 1}, board={"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "gold": 5})):
        assert pytest.raises(RuleError, splendor.apply, new(), fix).value.code == "bad_event"


def test_a_correction_that_settles_a_pending_discard_lets_the_turn_end():
    state = position(4, seats={ANA: dict(tokens={"white": 4, "blue": 4, "green": 2})})
    state = play(state, take(ANA, red=1, black=1, green=1))
    assert state.pending.kind == "discard"
    held = state.players[ANA].tokens
    back = Tokens(white=3)
    state = play(state, correct(BEN, tokens={}, board=state.board.to_dict()))  # Ben's tokens restated: no change
    assert state.pending.kind == "discard" and state.alerts == ()
    state = play(state, correct(ANA, tokens=(held - back).to_dict(), board=(state.board + back).to_dict()))
    assert state.pending is None and state.current_player == BEN


def test_a_correction_during_a_noble_choice_keeps_the_choice():
    state = position(seats={ANA: dict(cards=bonus_cards(white=4, blue=4, green=4))})
    state = play(state, take(ANA, red=1, black=1, green=1))
    assert state.pending.kind == "noble"
    after = play(state, correct(BEN, tokens={}))
    assert after.pending == state.pending and after.alerts == ()


def test_a_correction_is_parsed_from_its_set_form():
    event = parse_event({"type": "correction", "player": 1, "set": {"tokens": {"red": 1}, "board": {"red": 3}},
                         "note": "x"}, 3)
    assert event == Correction(player=1, tokens=Tokens(red=1), board=Tokens(red=3), note="x")


def test_check_invariants_accepts_a_fresh_game_and_refuses_broken_positions():
    state = new(3)
    splendor.check_invariants(state)
    broken = [
        replace(state, board=state.board + Tokens(red=1)),
        replace(state, board=state.board - Tokens(gold=1)),
        replace(state, nobles_available=state.nobles_available[:-1]),
        replace(state, nobles_available=state.nobles_available[:-1] + (state.nobles_available[0],)),
    ]
    players = list(state.players)
    players[ANA] = replace(players[ANA], reserved=(Reserved(1),) * 4)
    broken.append(replace(state, players=tuple(players)))
    players[ANA] = replace(players[ANA], reserved=(), cards=("S1-01",))
    players[BEN] = replace(players[BEN], reserved=(Reserved(1, "S1-01"),))
    broken.append(replace(state, players=tuple(players)))
    players[BEN] = replace(players[BEN], reserved=(Reserved(3),) * 3, cards=tuple(f"S3-{i:02d}" for i in range(1, 19)))
    broken.append(replace(state, players=tuple(players)))
    for position_ in broken:
        with pytest.raises(RuleError) as info:
            splendor.check_invariants(position_)
        assert info.value.code == "invariant_broken"


def test_a_refused_event_leaves_the_state_untouched():
    state = position(4, seats={ANA: dict(tokens={"white": 4, "blue": 4, "green": 2})})
    state = play(state, take(ANA, red=1, black=1, green=1))
    snapshot = splendor.to_json(state)
    with pytest.raises(RuleError):
        splendor.apply(state, discard(ANA, white=1))
    assert splendor.to_json(state) == snapshot


def test_the_supply_fixed_alone_is_told_to_fix_a_player_s_tokens_too():
    """A tester fixed the supply's red (2 → 3) and was told "fix the supply too"."""
    state = new()
    error = pytest.raises(RuleError, splendor.apply, state, correct(ANA, board={**state.board.to_dict(), "red": 5})).value
    assert error.code == "invariant_broken" and error.rule == "S-1"
    assert error.message == "The red tokens would add up to 5, not 4: fix a player's tokens too."


def test_a_fix_breaking_a_total_is_offered_the_supply_count_that_restores_it():
    """S-1: Cleo's white typed 0 → 1 alone makes one white too many: the supply's one fewer
    restores it (classic Splendor has no bag), and applied it is accepted."""
    state = play(new(3), take(ANA, red=1, blue=1, green=1))
    white = state.board.white
    alone = correct(CLEO, tokens={"white": 1})
    assert splendor.fix_balancing(state, alone) == [("board", "white", white, white - 1)]
    fixed = play(state, correct(CLEO, tokens={"white": 1}, board={**state.board.to_dict(), "white": white - 1}))
    assert fixed.players[CLEO].tokens.white == 1 and fixed.board.white == white - 1
    # the supply typed: Cleo's own count is what is left to offer
    typed = correct(CLEO, board={**state.board.to_dict(), "white": white - 2})
    assert splendor.fix_balancing(state, typed) == [("tokens", "white", 0, 2)]
