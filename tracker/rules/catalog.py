"""The card catalogues shipped in ``tracker/rules/data`` (copied from the verified CSV files).

Loaded lazily, once per process (``functools.cache``): nothing is read at import time.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .errors import N_, RuleError
from .tokens import GEM_COLORS, Tokens

#: Jewel card colours besides the five gems (D-7): a joker copies a colour, ``none`` gives no bonus.
WILD = "wild"
NO_COLOR = "none"

#: Jewel card abilities (D-8).
EXTRA_TURN = "extra_turn"
TAKE_TOKEN = "take_token"
TAKE_PRIVILEGE = "take_privilege"
STEAL_TOKEN = "steal_token"


@dataclass(frozen=True)
class JewelCard:
    """A Splendor Duel jewel card (D-1.2).

    ``color`` is a gem colour, ``wild`` (a joker, placed on one of the owner's colours) or
    ``none`` (points only). ``bonus`` is 0, 1 or 2; ``cost`` holds gems and pearls only.
    """

    id: str
    level: int
    color: str
    bonus: int
    points: int
    crowns: int
    ability: str
    cost: Tokens

    @property
    def is_joker(self) -> bool:
        """True for a joker (``color == "wild"``), D3-12 included (D-7)."""
        return self.color == WILD


@dataclass(frozen=True)
class RoyalCard:
    """A Splendor Duel royal card (D-1.2, D-9): prestige and one ability, no colour, no crowns."""

    id: str
    points: int
    ability: str


@dataclass(frozen=True)
class DevelopmentCard:
    """A Splendor development card: level 1–3, a gem colour (its bonus), prestige, gem cost."""

    id: str
    level: int
    color: str
    points: int
    cost: Tokens


@dataclass(frozen=True)
class Noble:
    """A Splendor noble tile (S-3.2): prestige and the bonuses it requires."""

    id: str
    points: int
    requires: Tokens


def _rows(name: str) -> list[dict[str, str]]:
    text = resources.files("tracker.rules").joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def _cost(row: dict[str, str], prefix: str, kinds: tuple[str, ...]) -> Tokens:
    return Tokens(**{k: int(row[f"{prefix}{k}"]) for k in kinds})


@cache
def jewels() -> dict[str, JewelCard]:
    """All 67 Duel jewel cards by id (30/24/13 by level). Reads the packaged CSV once."""
    return {
        r["id"]: JewelCard(
            id=r["id"],
            level=int(r["level"]),
            color=r["color"],
            bonus=int(r["bonus"]),
            points=int(r["points"]),
            crowns=int(r["crowns"]),
            ability=r["ability"],
            cost=_cost(r, "cost_", GEM_COLORS + ("pearl",)),
        )
        for r in _rows("splendor_duel_jewels.csv")
    }


@cache
def royals() -> dict[str, RoyalCard]:
    """The 4 Duel royal cards by id (``DR-1`` … ``DR-4``)."""
    return {
        r["id"]: RoyalCard(id=r["id"], points=int(r["points"]), ability=r["ability"])
        for r in _rows("splendor_duel_royals.csv")
    }


@cache
def development_cards() -> dict[str, DevelopmentCard]:
    """All 90 Splendor development cards by id (40/30/20 by level)."""
    return {
        r["id"]: DevelopmentCard(
            id=r["id"],
            level=int(r["level"]),
            color=r["color"],
            points=int(r["points"]),
            cost=_cost(r, "cost_", GEM_COLORS),
        )
        for r in _rows("splendor_cards.csv")
    }


@cache
def nobles() -> dict[str, Noble]:
    """The 10 Splendor nobles by id (``N-01`` … ``N-10``)."""
    return {
        r["id"]: Noble(id=r["id"], points=int(r["points"]), requires=_cost(r, "req_", GEM_COLORS))
        for r in _rows("splendor_nobles.csv")
    }


def jewel(card_id: object) -> JewelCard:
    """The jewel card with this id. Raises ``RuleError("unknown_card")`` for any other value."""
    card = jewels().get(card_id) if isinstance(card_id, str) else None
    if card is None:
        raise RuleError("unknown_card", N_("There is no jewel card %(id)s."), "D-1.2", id=str(card_id)[:20])
    return card


def royal(royal_id: object) -> RoyalCard:
    """The royal card with this id. Raises ``RuleError("unknown_card")`` for any other value."""
    card = royals().get(royal_id) if isinstance(royal_id, str) else None
    if card is None:
        raise RuleError("unknown_card", N_("There is no royal card %(id)s."), "D-1.2", id=str(royal_id)[:20])
    return card


def jewels_of_level(level: int) -> list[JewelCard]:
    """The jewel cards of one level, in catalogue order."""
    return [c for c in jewels().values() if c.level == level]
