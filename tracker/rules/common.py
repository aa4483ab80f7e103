"""Pieces of game state both engines share: a reserved card and an alert."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .errors import N_, RuleError


@dataclass(frozen=True)
class Reserved:
    """A reserved card: named (``card``) or secret (``card is None``, only its ``level`` known)."""

    level: int
    card: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"card": id}`` or, for a secret card, ``{"level": n}`` (GAME-LOG.md)."""
        return {"card": self.card} if self.card else {"level": self.level}


@dataclass(frozen=True)
class Alert:
    """Something the table must notice, raised by the last event.

    ``kind`` is one of GAME-LOG.md's alert kinds (``privilege_gained`` … ``victory``, and in
    Splendor ``noble_visit``, ``noble_due``, ``final_round``); ``template``/``params`` make its
    message (translated by the web layer).
    """

    kind: str
    player: int
    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """The English message."""
        return self.template % dict(self.params)


def card_taken(holders: Iterable[tuple[str, Iterable[str], Iterable[Reserved]]], card_id: str, rule: str,
               buyer: int | None = None) -> RuleError:
    """The refusal of a card named from the table that a player already holds (D-6, D-7, S-2.3,
    S-2.4): ``holders`` gives each player's ``(name, bought card ids, reserved cards)``; the
    sentence says who bought it or whose reserve holds it. ``buyer``: the seat of a purchase
    named from the table, told to buy it from the reserve when the card is in their own. Returns
    (never raises) a ``RuleError("card_unavailable")`` with ``rule``."""
    for seat, (name, bought, reserved) in enumerate(holders):
        if card_id in bought:
            return RuleError("card_unavailable", N_("%(name)s already bought this card: %(card)s."), rule,
                             name=name, card=card_id)
        if seat == buyer and any(r.card == card_id for r in reserved):
            return RuleError("card_unavailable", N_("This card is in %(name)s's own reserve: buy it from the reserve: "
                                                    "%(card)s."), rule, name=name, card=card_id)
        if any(r.card == card_id for r in reserved):
            return RuleError("card_unavailable", N_("This card is in %(name)s's reserve: %(card)s."), rule,
                             name=name, card=card_id)
    return RuleError("card_unavailable", N_("This card is already bought or reserved: %(card)s."), rule, card=card_id)
