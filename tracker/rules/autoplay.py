"""Seeded random play of legal Splendor Duel games, for tests and benchmarks (not for the table).

Every event is checked by ``duel.apply``; the generator only proposes candidates. The board's
geometry and the pyramid's contents are not modelled (the app does not see them either), so
any card not yet bought or reserved may be bought or reserved.
"""

from __future__ import annotations

import random
from typing import Any

from . import catalog, duel
from .errors import RuleError
from .events import Discard, Event, Purchase, Replenish, Reserve, TakeRoyal, TakeTokens, UsePrivileges
from .tokens import GEM_COLORS, PEARL, Tokens

#: Styles bias purchases toward one route: ``prestige``, ``crowns``, ``color`` or ``random``.
STYLES = ("prestige", "crowns", "color", "random")


def _random_bag(rng: random.Random, source: Tokens, count: int, kinds: tuple[str, ...]) -> Tokens:
    pool = [k for k in kinds for _ in range(source.get(k))]
    rng.shuffle(pool)
    counts: dict[str, int] = {}
    for k in pool[:count]:
        counts[k] = counts.get(k, 0) + 1
    return Tokens(**counts)


def _score(card: catalog.JewelCard, style: str, target: str) -> float:
    if style == "crowns":
        return card.crowns * 3 + card.points * 0.5
    if style == "color":
        return (card.points * 3 if card.color in (target, catalog.WILD) else card.points * 0.2) + card.bonus
    if style == "prestige":
        return card.points * 2 + card.bonus * 0.5
    return 1.0


def _purchases(state: duel.DuelState, rng: random.Random, style: str, target: str) -> list[Event]:
    seat = state.current_player
    me = state.players[seat]
    other = state.players[1 - seat]
    taken = state.taken_cards()
    options: list[tuple[float, Event]] = []
    candidates = [(c, False) for c in catalog.jewels().values() if c.id not in taken]
    for r in me.reserved:
        if r.card:
            candidates.append((catalog.jewels()[r.card], True))
        else:
            candidates.extend((c, True) for c in catalog.jewels_of_level(r.level) if c.id not in taken)
    for card, from_reserve in candidates:
        payment, ok = duel.payment_for(state, seat, card.id)
        if not ok:
            continue
        wild = None
        if card.is_joker:
            colors = duel.joker_colors(me)
            if not colors:
                continue
            wild = target if target in colors else rng.choice(colors)
        steal = None
        if card.ability == catalog.STEAL_TOKEN:
            steal_options = duel.stealable(other)
            steal = rng.choice(steal_options) if steal_options else None
        ev = Purchase(player=seat, card=card.id, from_reserve=from_reserve, payment=payment, wild_color=wild, steal=steal)
        options.append((_score(card, style, target) + rng.random(), ev))
    options.sort(key=lambda o: -o[0])
    return [ev for _, ev in options[:3]]


def propose(state: duel.DuelState, rng: random.Random, style: str = "random", target: str = "white") -> list[Event]:
    """Candidate events for the player to act, best first (some may still be refused)."""
    seat = state.current_player
    me = state.players[seat]
    pending = state.pending
    if pending is not None and pending.kind == "royal":
        out: list[Event] = []
        for rid in state.royals_available:
            steal_options = duel.stealable(state.players[1 - seat])
            steal = rng.choice(steal_options) if rid == "DR-4" and steal_options else None
            out.append(TakeRoyal(player=seat, royal=rid, steal=steal))
        rng.shuffle(out)
        return out
    if pending is not None and pending.kind == "discard":
        return [Discard(player=seat, tokens=_random_bag(rng, me.tokens, pending.count, tuple(me.tokens.to_dict())))]
    events: list[Event] = []
    if me.privileges and not state.replenished and rng.random() < 0.25:
        n = rng.randint(1, me.privileges)
        events.append(UsePrivileges(player=seat, tokens=_random_bag(rng, state.board, n, GEM_COLORS + (PEARL,))))
    if state.bag and rng.random() < 0.08:
        events.append(Replenish(player=seat))
    if rng.random() < 0.75:
        events.extend(_purchases(state, rng, style, target))
    if rng.random() < 0.1 and len(me.reserved) < duel.MAX_RESERVED:
        if rng.random() < 0.3:
            events.append(Reserve(player=seat, level=rng.randint(1, 3)))
        else:
            free = [c.id for c in catalog.jewels().values() if c.id not in state.taken_cards()]
            if free:
                events.append(Reserve(player=seat, card=rng.choice(free)))
    for _ in range(3):
        events.append(TakeTokens(player=seat, tokens=_random_bag(rng, state.board, rng.randint(1, 3), GEM_COLORS + (PEARL,))))
    if state.bag:
        events.append(Replenish(player=seat))
    return events


def play(seed: int, styles: tuple[str, str] = ("random", "random"), targets: tuple[str, str] = ("white", "blue"),
         max_events: int = 600) -> tuple[dict[str, Any], list[Event], duel.DuelState]:
    """Play one game from a seed; returns ``(setup, events, final_state)``.

    The game may stop unfinished after ``max_events`` (``final_state.winner`` is then None).
    """
    rng = random.Random(seed)
    setup = {"players": ["Ana", "Ben"], "first_player": rng.randint(0, 1)}
    state = duel.new_game(setup["players"], setup["first_player"])
    events: list[Event] = []
    while state.winner is None and len(events) < max_events:
        seat = state.current_player
        for ev in propose(state, rng, styles[seat], targets[seat]):
            try:
                state = duel.apply(state, ev)
            except RuleError:
                continue
            events.append(ev)
            break
        else:
            break  # nothing legal was proposed: stop (rare: empty board and bag)
    return setup, events, state
