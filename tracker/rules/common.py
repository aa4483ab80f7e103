"""Pieces of game state both engines share: a reserved card and an alert."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


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
