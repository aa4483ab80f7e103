"""Seeded random play of legal Splendor games (2–4 players), for tests and benchmarks (not for the table).

Unlike the app, the generator models the physical table: shuffled decks, 4 face-up cards per
level refilled from the deck, the real card under each secret reserve. It only proposes
events; every one is checked by ``splendor.apply``, and the table is updated only for the
events the engine accepts.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from . import catalog, splendor
from .errors import RuleError
from .events import Discard, Event, Pass, Purchase, Reserve, TakeNoble, TakeTokens
from .tokens import GEM_COLORS, Tokens


@dataclass
class Table:
    """What lies on the physical table besides the tokens: decks (top last), face-up cards, secret reserves.

    ``secret[seat]`` holds the real ids of that seat's secret reserves (the app only knows levels).
    """

    decks: dict[int, list[str]]
    face_up: dict[int, list[str]]
    secret: dict[int, list[str]] = field(default_factory=dict)

    def cards_on_table(self, level: int) -> int:
        """Face-up cards plus deck cards of ``level`` (what ``SplendorState.cards_on_table`` derives)."""
        return len(self.face_up[level]) + len(self.decks[level])

    def _take_face_up(self, card_id: str) -> None:
        level = catalog.development_cards()[card_id].level
        self.face_up[level].remove(card_id)
        if self.decks[level]:
            self.face_up[level].append(self.decks[level].pop())

    def record(self, event: Event) -> None:
        """Update the table for an event the engine accepted."""
        if isinstance(event, Reserve):
            if event.card is not None:
                self._take_face_up(event.card)
            else:
                assert event.level is not None
                self.secret.setdefault(event.player, []).append(self.decks[event.level].pop())
        elif isinstance(event, Purchase):
            hidden = self.secret.get(event.player, [])
            if event.from_reserve and event.card in hidden:
                hidden.remove(event.card)
            elif not event.from_reserve:
                self._take_face_up(event.card)


def deal(rng: random.Random, players: int) -> tuple[dict[str, Any], Table]:
    """A setup (names, start player, ``players + 1`` nobles) and a freshly shuffled table (S-1)."""
    setup = {
        "players": ["Ana", "Ben", "Cleo", "Dan"][:players],
        "first_player": rng.randrange(players),
        "nobles": rng.sample(sorted(catalog.nobles()), players + splendor.EXTRA_NOBLES),
    }
    decks: dict[int, list[str]] = {}
    face_up: dict[int, list[str]] = {}
    for level in splendor.LEVEL_SIZES:
        deck = [c.id for c in catalog.development_cards().values() if c.level == level]
        rng.shuffle(deck)
        face_up[level] = [deck.pop() for _ in range(splendor.FACE_UP)]
        decks[level] = deck
    return setup, Table(decks=decks, face_up=face_up)


def _buyable(state: splendor.SplendorState, table: Table) -> list[tuple[str, bool]]:
    """Cards the player to act could buy on this table: face up, or in their own reserve."""
    seat = state.current_player
    out = [(c, False) for level in table.face_up for c in table.face_up[level]]
    out += [(r.card, True) for r in state.players[seat].reserved if r.card]
    out += [(c, True) for c in table.secret.get(seat, [])]
    return out


def _discard(state: splendor.SplendorState, rng: random.Random, count: int) -> Discard:
    """Return ``count`` tokens, mostly of the kinds held in largest numbers (gold last)."""
    held = Counter(state.players[state.current_player].tokens.to_dict(skip_zero=True))
    back: Counter[str] = Counter()
    for _ in range(count):
        kinds = [k for k in held if held[k] > 0]
        gems = [k for k in kinds if k != "gold"] or kinds
        kind = max(gems, key=lambda k: (held[k], rng.random()))
        held[kind] -= 1
        back[kind] += 1
    return Discard(player=state.current_player, tokens=Tokens(**back))


def _takes(state: splendor.SplendorState, rng: random.Random, wanted: list[str]) -> list[Event]:
    """Token takes, those of the wanted colours first: 3 different (fewer if the supply lacks colours), or 2 alike."""
    seat = state.current_player
    present = splendor.colors_in_supply(state)
    out: list[Event] = []
    if wanted and state.board.get(wanted[0]) >= splendor.TAKE_TWO_MIN_SUPPLY and rng.random() < 0.3:
        out.append(TakeTokens(player=seat, tokens=Tokens(**{wanted[0]: splendor.TAKE_TWO})))
    for _ in range(2):
        order = sorted(present, key=lambda c: (c not in wanted, rng.random()))
        picked = order[: splendor.TAKE_THREE]
        if picked:
            out.append(TakeTokens(player=seat, tokens=Tokens(**dict.fromkeys(picked, 1))))
    doubles = [c for c in GEM_COLORS if state.board.get(c) >= splendor.TAKE_TWO_MIN_SUPPLY]
    if doubles:
        out.append(TakeTokens(player=seat, tokens=Tokens(**{rng.choice(doubles): splendor.TAKE_TWO})))
    return out


def _reserves(state: splendor.SplendorState, table: Table, rng: random.Random) -> list[Event]:
    seat = state.current_player
    out: list[Event] = []
    cards = [c for level in table.face_up for c in table.face_up[level]]
    if cards:
        best = max(cards, key=lambda c: (catalog.development_cards()[c].points, rng.random()))
        out.append(Reserve(player=seat, card=best))
    levels = [level for level, deck in table.decks.items() if deck]
    if levels:
        out.append(Reserve(player=seat, level=rng.choice(levels)))
    rng.shuffle(out)
    return out


def propose(state: splendor.SplendorState, table: Table, rng: random.Random) -> list[Event]:
    """Candidate events for the player to act, best first (the engine decides which are legal)."""
    seat = state.current_player
    pending = state.pending
    if pending is not None and pending.kind == "discard":
        return [_discard(state, rng, pending.count)]
    if pending is not None and pending.kind == "noble":
        return [TakeNoble(player=seat, noble=rng.choice(pending.choices))]
    me = state.players[seat]
    cards = catalog.development_cards()
    purchases: list[tuple[float, Event]] = []
    needs: list[tuple[float, Tokens]] = []
    for card_id, from_reserve in _buyable(state, table):
        card = cards[card_id]
        payment, affordable = splendor.payment_for(state, seat, card_id)
        if affordable:
            ev = Purchase(player=seat, card=card_id, from_reserve=from_reserve, payment=payment)
            purchases.append((card.points * 2 + rng.random() * 1.5, ev))
        else:
            missing = splendor.cost_after_bonuses(me, card) - me.tokens
            short = sum(max(0, missing.get(c)) for c in GEM_COLORS) - me.tokens.gold
            needs.append((card.points / (short + 1) + rng.random() * 0.3, missing))
    purchases.sort(key=lambda o: -o[0])
    events: list[Event] = [ev for _, ev in purchases[:3]]
    if rng.random() < 0.1:
        rng.shuffle(events)
    wanted: list[str] = []
    if needs:
        _, missing = max(needs, key=lambda n: n[0])
        wanted = sorted((c for c in GEM_COLORS if missing.get(c) > 0), key=lambda c: -missing.get(c))
    others = _takes(state, rng, wanted)
    if len(me.reserved) < splendor.MAX_RESERVED and (rng.random() < 0.12 or not others):
        others = _reserves(state, table, rng) + others
    if not events and not others:  # nothing to take, reserve or buy: the player passes (S-2 ruling)
        return [Pass(player=seat)]
    if purchases and rng.random() < 0.15:
        return others + events
    return events + others


def play(
    seed: int,
    players: int = 4,
    max_events: int = 600,
    on_step: Callable[[Event, splendor.SplendorState, Table], None] | None = None,
) -> tuple[dict[str, Any], list[Event], splendor.SplendorState]:
    """Play one game from a seed; returns ``(setup, events, final_state)``.

    ``on_step(event, state, table)`` is called after each accepted event. The game may stop
    unfinished after ``max_events`` or when nothing proposed is legal (``winner`` is then None).
    """
    rng = random.Random(seed)
    setup, table = deal(rng, players)
    state = splendor.new_game(setup["players"], setup["first_player"], setup["nobles"])
    events: list[Event] = []
    while state.winner is None and len(events) < max_events:
        for ev in propose(state, table, rng):
            try:
                state = splendor.apply(state, ev)
            except RuleError:
                continue
            table.record(ev)
            events.append(ev)
            if on_step is not None:
                on_step(ev, state, table)
            break
        else:
            break
    return setup, events, state
