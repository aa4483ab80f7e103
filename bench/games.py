"""Long, legal Splendor Duel games for the benchmark: a table that has been playing a while.

``autoplay.play`` games end after about 80 entries; a table in the benchmark must reach 150
entries and keep accepting one every 2 s. ``long_game`` plays with ``autoplay.propose`` but
declines any entry that brings a player near a victory route, so the game goes on (tokens
taken, discarded, replenished; cards bought and reserved while they are harmless).
"""

from __future__ import annotations

import random
from typing import Any

from tracker.rules import autoplay, duel
from tracker.rules.errors import RuleError
from tracker.rules.events import Event, Replenish, TakeTokens, event_to_dict
from tracker.rules.tokens import GEM_COLORS, PEARL, Tokens

#: Caps far from the victory routes (20 prestige, 10 crowns, 10 in one colour).
MAX_PRESTIGE, MAX_CROWNS, MAX_COLOR = 12, 5, 6


def _harmless(state: duel.DuelState) -> bool:
    return state.winner is None and all(
        p.prestige <= MAX_PRESTIGE and p.crowns <= MAX_CROWNS and p.best_color[1] <= MAX_COLOR for p in state.players
    )


def _fallbacks(state: duel.DuelState) -> list[Event]:
    seat = state.current_player
    out: list[Event] = [Replenish(player=seat)]
    out += [TakeTokens(player=seat, tokens=Tokens(**{k: 1})) for k in GEM_COLORS + (PEARL,) if state.board.get(k)]
    return out


def long_game(seed: int, length: int) -> tuple[dict[str, Any], list[Event]]:
    """``length`` legal entries of one unfinished game from ``seed`` (fewer if it gets stuck)."""
    rng = random.Random(seed)
    setup = {"players": ["Ana", "Ben"], "first_player": rng.randint(0, 1)}
    state = duel.new_game(setup["players"], setup["first_player"])
    events: list[Event] = []
    while len(events) < length:
        for ev in autoplay.propose(state, rng, "random") + _fallbacks(state):
            try:
                after = duel.apply(state, ev)
            except RuleError:
                continue
            if not _harmless(after):
                continue
            state = after
            events.append(ev)
            break
        else:
            break
    return setup, events


def as_log(setup: dict[str, Any], events: list[Event]) -> dict[str, Any]:
    """A GAME-LOG.md log of an unfinished game, to import (the server gives it a fresh id)."""
    return {
        "format": "splendor-tracker/1",
        "game": "duel",
        "players": list(setup["players"]),
        "first_player": setup["first_player"],
        "nobles": None,
        "events": [event_to_dict(e) for e in events],
        "result": None,
    }


def templates(count: int, length: int, extra: int) -> list[tuple[dict[str, Any], list[Event]]]:
    """``count`` games of ``length + extra`` entries: the first ``length`` are imported, the
    rest are what the table enters during the benchmark."""
    out = []
    seed = 0
    while len(out) < count:
        setup, events = long_game(seed, length + extra)
        seed += 1
        if len(events) == length + extra:
            out.append((setup, events))
    return out
