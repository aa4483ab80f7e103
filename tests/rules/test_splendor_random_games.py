"""Property: random legal Splendor games (2–4 players) keep every token total after every event and end.

Each step plays the first entry the engine accepts among the generator's candidates (on its own
shuffled table), sometimes a harmless correction, and probes one entry the rules forbid, which
must be refused with its GAME-LOG.md code.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.rules import catalog, splendor, splendor_autoplay
from tracker.rules.errors import RuleError
from tracker.rules.events import (
    Correction, Discard, Event, Pass, Purchase, Reserve, TakeNoble, TakeTokens, event_to_dict, parse_event,
)
from tracker.rules.tokens import GEM_COLORS, Tokens

MAX_EVENTS = 400
#: GAME-LOG.md's error codes and alert kinds that apply to Splendor.
CODES = {
    "bad_event", "unknown_card", "not_your_turn", "game_over", "invariant_broken", "not_enough_tokens",
    "too_many_tokens", "gold_not_allowed", "reserve_limit", "deck_empty", "card_unavailable", "not_reserved",
    "wrong_payment", "discard_required", "noble_required", "no_discard_due", "wrong_discard", "no_noble_due",
    "noble_not_eligible", "take_two_needs_four", "take_three_distinct", "take_three_count", "pass_not_allowed",
}
ALERTS = {"discard_due", "noble_visit", "noble_due", "final_round", "victory"}

#: ``HYPOTHESIS_PROFILE=thorough`` (README) plays ten times as many random games.
EXAMPLES_FACTOR = 10 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 1


def forbidden(state: splendor.SplendorState, rnd: random.Random) -> list[tuple[Event, str]]:
    """Entries the rules refuse in this position, each with the code it must get."""
    seat = state.current_player
    other = (seat + 1) % len(state.players)
    me = state.players[seat]
    out: list[tuple[Event, str]] = [(TakeTokens(player=other, tokens=Tokens(red=1)), "not_your_turn")]
    pending = state.pending
    if pending is not None and pending.kind == "discard":
        out.append((TakeTokens(player=seat, tokens=Tokens(red=1)), "discard_required"))
        out.append((Discard(player=seat, tokens=Tokens(**{me.tokens.kinds()[0]: 1})), "wrong_discard")
                   if pending.count > 1 else (TakeNoble(player=seat, noble="N-01"), "discard_required"))
        return out
    if pending is not None and pending.kind == "noble":
        out.append((Reserve(player=seat, level=1), "noble_required"))
        others = [n for n in catalog.nobles() if n not in pending.choices]
        out.append((TakeNoble(player=seat, noble=rnd.choice(others)), "noble_not_eligible"))
        return out
    out.append((TakeTokens(player=seat, tokens=Tokens(gold=1)), "gold_not_allowed"))
    out.append((TakeTokens(player=seat, tokens=Tokens(**{rnd.choice(GEM_COLORS): 3})), "take_three_distinct"))
    out.append((Discard(player=seat, tokens=Tokens(red=1)), "no_discard_due"))
    out.append((TakeNoble(player=seat, noble=state.nobles_available[0] if state.nobles_available else "N-01"),
                "no_noble_due"))
    few = [c for c in GEM_COLORS if 0 < state.board.get(c) < splendor.TAKE_TWO_MIN_SUPPLY]
    if few:
        out.append((TakeTokens(player=seat, tokens=Tokens(**{rnd.choice(few): 2})), "take_two_needs_four"))
    present = splendor.colors_in_supply(state)
    if len(present) >= 3:
        out.append((TakeTokens(player=seat, tokens=Tokens(**dict.fromkeys(rnd.sample(present, 2), 1))),
                    "take_three_count"))
    if len(me.reserved) == splendor.MAX_RESERVED:
        out.append((Reserve(player=seat, level=1), "reserve_limit"))
    taken = sorted(state.taken_cards())
    if taken:
        card = rnd.choice(taken)
        out.append((Purchase(player=seat, card=card, payment=Tokens()), "card_unavailable"))
        full = len(me.reserved) == splendor.MAX_RESERVED
        out.append((Reserve(player=seat, card=card), "reserve_limit" if full else "card_unavailable"))
    return out


def harmless_correction(state: splendor.SplendorState, rnd: random.Random) -> Correction:
    """A table fix: a seat not in the middle of its turn gets one more gem from the supply, or the same tokens."""
    seat = rnd.randrange(len(state.players))
    held = state.players[seat].tokens
    kinds = splendor.colors_in_supply(state)
    if kinds and seat != state.current_player and held.total < splendor.TOKEN_LIMIT:
        moved = Tokens(**{rnd.choice(kinds): 1})
        return Correction(player=seat, tokens=held + moved, board=state.board - moved, note="forgot one")
    return Correction(player=seat, tokens=held, note="recount")


def assert_table_holds(state, previous, table) -> None:
    """Token totals and the standing facts, computed here independently of the engine."""
    totals = splendor.token_totals(len(state.players))
    for kind, total in totals.items():
        counts = [state.board.get(kind)] + [p.tokens.get(kind) for p in state.players]
        assert min(counts) >= 0 and sum(counts) == total, kind
    cards = catalog.development_cards()
    owned = [c for p in state.players for c in p.cards] + [r.card for p in state.players for r in p.reserved if r.card]
    assert len(owned) == len(set(owned)), "a card is in two places"
    for seat, p in enumerate(state.players):
        assert len(p.reserved) <= splendor.MAX_RESERVED
        assert p.prestige == sum(cards[c].points for c in p.cards) + 3 * len(p.nobles)
        if seat != state.current_player or not state.action_done:
            assert p.tokens.total <= splendor.TOKEN_LIMIT, "more than 10 tokens outside a turn"
    for level in splendor.LEVEL_SIZES:
        assert state.cards_on_table(level) == table.cards_on_table(level)
    if previous is not None:
        assert state.turn - previous.turn in (0, 1)
        if state.turn != previous.turn:
            ended = state.players[previous.current_player]
            assert ended.tokens.total <= splendor.TOKEN_LIMIT, "a turn ended above 10 tokens"
    assert (state.winner is not None) == (state.status == "finished")


@settings(max_examples=20 * EXAMPLES_FACTOR, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_legal_games_keep_every_token_total_and_reach_a_winner(seed, players):
    rnd = random.Random(seed)
    setup, table = splendor_autoplay.deal(rnd, players)
    state = splendor.new_game(setup["players"], setup["first_player"], setup["nobles"])
    assert_table_holds(state, None, table)
    log: list[Event] = []
    while state.winner is None and len(log) < MAX_EVENTS:
        probe, code = rnd.choice(forbidden(state, rnd))
        try:
            splendor.apply(state, probe)
        except RuleError as error:
            assert error.code == code, (probe, error.code, error.message)
        else:
            raise AssertionError(f"{probe} was accepted")
        if rnd.random() < 0.03:
            fix = harmless_correction(state, rnd)
            after = splendor.apply(state, fix)
            assert_table_holds(after, state, table)
            state = after
            log.append(fix)
        for event in splendor_autoplay.propose(state, table, rnd):
            try:
                after = splendor.apply(state, event)
            except RuleError as error:
                assert error.code in CODES and error.message
                continue
            table.record(event)
            assert_table_holds(after, state, table)
            assert {a.kind for a in after.alerts} <= ALERTS
            state = after
            log.append(event)
            break
        else:
            raise AssertionError("no candidate was accepted")

    assert state.status == "finished", "every random game ends"
    assert state.turn % players == 0, "the last round is complete"
    exported = [json.loads(json.dumps(event_to_dict(e))) for e in log]
    assert [parse_event(d, players) for d in exported] == log
    assert splendor.replay(setup, exported) == state


def test_a_player_who_can_take_no_action_passes():
    """S-2 ruling: with no gem in the supply and 3 cards reserved a player passes (found by the
    random games: seed 28841634, 3 players); with a gem left, or a reserve possible, passing is
    refused."""
    rnd = random.Random(28841634)
    setup, table = splendor_autoplay.deal(rnd, 3)
    state = splendor.new_game(setup["players"], setup["first_player"], setup["nobles"])
    while state.winner is None:
        probe, _code = rnd.choice(forbidden(state, rnd))
        try:
            splendor.apply(state, probe)
        except RuleError:
            pass
        if rnd.random() < 0.03:
            state = splendor.apply(state, harmless_correction(state, rnd))
        proposed = splendor_autoplay.propose(state, table, rnd)
        if [type(e) for e in proposed] == [Pass]:
            break
        for event in proposed:
            try:
                after = splendor.apply(state, event)
            except RuleError:
                continue
            table.record(event)
            state = after
            break
    me = state.players[state.current_player]
    assert not any(state.board.get(c) for c in GEM_COLORS) and len(me.reserved) == 3
    after = splendor.apply(state, Pass(player=state.current_player))
    assert after.current_player == (state.current_player + 1) % 3 and after.players == state.players
    with_a_gem = dataclasses.replace(state, board=state.board + Tokens(red=1))
    with pytest.raises(RuleError) as refused:
        splendor.apply(with_a_gem, Pass(player=state.current_player))
    assert refused.value.code == "pass_not_allowed" and refused.value.rule == "S-2.1"  # a gem to take
