"""Property: random legal games keep every D-12 invariant, and their logs replay to the same state.

Each step lists candidate entries for the position, shuffles them and applies the first one the
engine accepts (a refused entry must leave the position untouched). Games run until someone wins,
nothing is accepted, or about 150 entries.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.rules import catalog, duel, events
from tracker.rules.errors import RuleError
from tracker.rules.events import (
    Correction,
    Discard,
    Event,
    Purchase,
    Replenish,
    Reserve,
    TakeRoyal,
    TakeTokens,
    UsePrivileges,
    parse_event,
)
from tracker.rules.tokens import GEM_COLORS, PEARL, TOKEN_KINDS, Tokens

MAX_EVENTS = 150
#: GAME-LOG.md's error codes and alert kinds for Splendor Duel.
CODES = {
    "bad_event", "unknown_card", "not_your_turn", "game_over", "invariant_broken", "not_enough_tokens",
    "too_many_tokens", "gold_not_allowed", "bag_empty", "replenish_twice", "not_enough_privileges", "privilege_after_replenish",
    "reserve_limit", "no_gold_on_board", "deck_empty", "card_unavailable", "not_reserved", "wrong_payment",
    "joker_needs_bonus", "joker_color", "steal_required", "steal_target", "royal_required", "discard_required",
    "no_royal_due", "royal_unavailable", "no_discard_due", "wrong_discard",
}
ALERTS = {
    "privilege_gained", "privilege_taken", "privilege_given", "royal_due", "discard_due", "extra_turn", "victory",
}
TAKEABLE = GEM_COLORS + (PEARL,)

#: ``HYPOTHESIS_PROFILE=thorough`` (README) plays ten times as many random games.
EXAMPLES_FACTOR = 10 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 1


def _royal_choices(state: duel.DuelState, seat: int) -> list[Event]:
    out: list[Event] = []
    for royal in state.royals_available:
        if catalog.royal(royal).ability == catalog.STEAL_TOKEN:
            for kind in duel.stealable(state.players[1 - seat]) or [None]:
                out.append(TakeRoyal(player=seat, royal=royal, steal=kind))
        else:
            out.append(TakeRoyal(player=seat, royal=royal))
    return out


def _discards(state: duel.DuelState, seat: int, count: int, rnd: random.Random) -> list[Event]:
    held = [k for k, n in state.players[seat].tokens.items() for _ in range(n)]
    out = []
    for _ in range(3):
        out.append(Discard(player=seat, tokens=Tokens(**Counter(rnd.sample(held, count)))))
    return out


def _takes(state: duel.DuelState, seat: int, rnd: random.Random) -> list[Event]:
    pool = [k for k in TAKEABLE for _ in range(state.board.get(k))]
    out = []
    for _ in range(6):
        if not pool:
            break
        n = rnd.randint(1, min(3, len(pool)))
        picked = Counter(rnd.sample(pool, n))
        if rnd.random() < 0.15 and state.board.get(picked.most_common(1)[0][0]) >= 3:
            picked = Counter({picked.most_common(1)[0][0]: 3})
        out.append(TakeTokens(player=seat, tokens=Tokens(**picked)))
    return out


def _purchases(state: duel.DuelState, seat: int, rnd: random.Random) -> list[Event]:
    me, other = state.players[seat], state.players[1 - seat]
    taken = state.taken_cards()
    offers: list[tuple[str, bool]] = [(c, False) for c in catalog.jewels() if c not in taken]
    offers += [(r.card, True) for r in me.reserved if r.card]
    for r in me.reserved:
        if r.card is None:
            hidden = [c.id for c in catalog.jewels_of_level(r.level) if c.id not in taken]
            offers += [(c, True) for c in rnd.sample(hidden, min(3, len(hidden)))]
    out: list[Event] = []
    for card_id, from_reserve in offers:
        payment, affordable = duel.payment_for(state, seat, card_id)
        if not affordable:
            continue
        card = catalog.jewel(card_id)
        wild = None
        if card.is_joker:
            colors = duel.joker_colors(me)
            if not colors:
                continue
            wild = rnd.choice(colors)
        steal = None
        if card.ability == catalog.STEAL_TOKEN:
            options = duel.stealable(other)
            steal = rnd.choice(options) if options else None
        out.append(
            Purchase(player=seat, card=card_id, from_reserve=from_reserve, payment=payment, wild_color=wild, steal=steal)
        )
    return out


def _reserves(state: duel.DuelState, seat: int, rnd: random.Random) -> list[Event]:
    taken = state.taken_cards()
    free = [c for c in catalog.jewels() if c not in taken]
    out: list[Event] = [Reserve(player=seat, card=c) for c in rnd.sample(free, min(2, len(free)))]
    out.append(Reserve(player=seat, level=rnd.randint(1, 3)))
    return out


def _correction(state: duel.DuelState, rnd: random.Random) -> Event:
    """A harmless table fix: restate a privilege count, or move one board token into the bag."""
    seat = rnd.randint(0, 1)
    kinds = [k for k in TOKEN_KINDS if state.board.get(k)]
    if kinds and rnd.random() < 0.5:
        moved = Tokens(**{rnd.choice(kinds): 1})
        return Correction(player=seat, board=state.board - moved, bag=state.bag + moved, note="fix")
    return Correction(player=seat, privileges=state.players[seat].privileges)


def candidates(state: duel.DuelState, rnd: random.Random) -> list[Event]:
    """Entries to try for the position, most wanted first (purchases, to reach the end)."""
    seat = state.current_player
    pending = state.pending
    if pending is not None and pending.kind == "royal":
        options = _royal_choices(state, seat)
        rnd.shuffle(options)
        return options
    if pending is not None and pending.kind == "discard":
        return _discards(state, seat, pending.count, rnd)
    me = state.players[seat]
    optional: list[Event] = []
    if me.privileges and rnd.random() < 0.3:
        kinds = [k for k in TAKEABLE if state.board.get(k)]
        if kinds:
            optional.append(UsePrivileges(player=seat, tokens=Tokens(**{rnd.choice(kinds): 1})))
    if state.bag and rnd.random() < 0.3:
        optional.append(Replenish(player=seat))
    if rnd.random() < 0.03:
        optional.append(_correction(state, rnd))
    actions = _purchases(state, seat, rnd)
    rnd.shuffle(actions)
    others = _takes(state, seat, rnd) + _reserves(state, seat, rnd)
    rnd.shuffle(others)
    if rnd.random() < 0.3:
        actions = others + actions
    else:
        actions = actions + others
    # A forced replenish comes last: only when no action is possible.
    forced = [Replenish(player=seat)] if state.bag else []
    return optional + actions + forced


def assert_table_holds(state: duel.DuelState, previous: duel.DuelState | None) -> None:
    """D-12 and the rules' standing facts, computed here independently of the engine."""
    duel.check_invariants(state)
    for kind in TOKEN_KINDS:
        counts = [state.board.get(kind), state.bag.get(kind)] + [p.tokens.get(kind) for p in state.players]
        assert min(counts) >= 0, kind
        assert sum(counts) == duel.TOKEN_TOTALS.get(kind), kind
    assert state.privileges_supply + sum(p.privileges for p in state.players) == 3
    assert min([state.privileges_supply] + [p.privileges for p in state.players]) >= 0
    seen = [o.card for p in state.players for o in p.cards] + [r.card for p in state.players for r in p.reserved if r.card]
    assert len(seen) == len(set(seen)), "a card is in two places"
    owned_royals = [r for p in state.players for r in p.royals]
    assert sorted(owned_royals + list(state.royals_available)) == ["DR-1", "DR-2", "DR-3", "DR-4"]
    for seat, p in enumerate(state.players):
        assert len(p.reserved) <= 3
        earned = (p.crowns >= 3) + (p.crowns >= 6)
        assert len(p.royals) <= earned <= 2
        if seat != state.current_player or not state.action_done:
            assert len(p.royals) == earned, "a royal card is owed outside its turn"
        assert p.prestige == sum(catalog.jewel(o.card).points for o in p.cards) + sum(
            catalog.royal(r).points for r in p.royals
        )
        assert p.crowns == sum(catalog.jewel(o.card).crowns for o in p.cards)
        for o in p.cards:
            assert o.color in GEM_COLORS + (catalog.NO_COLOR,)
            assert (o.color == catalog.NO_COLOR) == (catalog.jewel(o.card).color == catalog.NO_COLOR)
    other = state.players[1 - state.current_player]
    assert other.tokens.total <= 10, "the player whose turn ended holds more than 10 tokens"
    if state.winner is not None:
        winner = state.players[state.winner.player]
        assert state.winner.player == state.current_player
        assert state.winner.routes == winner.routes() != ()
    if previous is not None:
        assert state.turn - previous.turn in (0, 1)


@settings(max_examples=30 * EXAMPLES_FACTOR, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), first_player=st.integers(0, 1))
def test_random_legal_games_keep_the_invariants_and_replay_identically(seed, first_player):
    rnd = random.Random(seed)
    setup = {"players": ["Ana", "Ben"], "first_player": first_player}
    state = duel.new_game(setup["players"], first_player)
    log: list[Event] = []
    assert_table_holds(state, None)
    while state.winner is None and len(log) < MAX_EVENTS:
        for event in candidates(state, rnd):
            before = state
            try:
                after = duel.apply(state, event)
            except RuleError as error:
                assert error.code in CODES and error.message
                assert state == before
                continue
            assert_table_holds(after, state)
            assert {a.kind for a in after.alerts} <= ALERTS
            if isinstance(event, Reserve) and event.level is not None:
                assert state.deck_left(event.level) > 0, "a secret reserve from an empty deck (D-6)"
            state = after
            log.append(event)
            break
        else:
            break  # nothing is accepted: the game is stuck

    assert log, "the first player can always take a token"
    exported = [json.loads(json.dumps(events.event_to_dict(e))) for e in log]
    assert [parse_event(d, 2) for d in exported] == log
    replayed = duel.replay(setup, exported)
    assert replayed == state
    assert duel.to_json(replayed) == duel.to_json(state)
    assert duel.replay(setup, [parse_event(e.to_dict(), 2) for e in log]) == state
