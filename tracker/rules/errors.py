"""The one exception the rules engine raises, and the marker for translatable text."""

from __future__ import annotations

from typing import Any


def N_(text: str) -> str:
    """Mark ``text`` for translation without translating it (the web layer translates).

    The rules stay free of Flask-Babel; message templates are extracted by this keyword
    and translated later with their parameters (``%(name)s`` placeholders).
    """
    return text


class RuleError(ValueError):
    """An entry the rules refuse. Nothing is applied when it is raised.

    Attributes:
        code: a stable snake_case word from GAME-LOG.md (``not_your_turn``, ``wrong_payment``…).
        template: an English sentence with ``%(param)s`` placeholders, marked with ``N_``.
        params: the values for the placeholders (player names, counts, card ids).
        rule: the rule id the entry breaks (``"D-7"``; a malformed entry: the rule of its type), or
            ``""`` for what is about the request rather than an entry (its body, version or id).
        field: for a malformed entry, the field whose value is bad when that field has a rule of
            its own (``"steal"``: D-8 in a Duel, see ``events.parse_event``), else ``""``.
    """

    field = ""

    def __init__(self, code: str, template: str, rule: str = "", **params: Any) -> None:
        self.code = code
        self.template = template
        self.params = params
        self.rule = rule
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The English message with its parameters filled in."""
        try:
            text = self.template % self.params
        except (KeyError, ValueError, TypeError):
            text = self.template
        return text.encode("utf-8", "replace").decode("utf-8")

    def to_dict(self) -> dict[str, str]:
        """The error as GAME-LOG.md's ``{"code", "message", "rule"}`` (English message)."""
        return {"code": self.code, "message": self.message, "rule": self.rule}


class Phrase:
    """A translatable phrase quoted inside a message ("it records %(recorded)s"): its ``N_``
    template and parameters, English by ``str()``, in the reader's language where the web layer
    translates the message that quotes it."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        params = {k: ", ".join(map(str, v)) if isinstance(v, tuple) else v for k, v in self.params.items()}
        try:
            return self.template % params
        except (KeyError, ValueError, TypeError):
            return self.template


class Phrases(tuple):  # type: ignore[type-arg]
    """Several ``Phrase`` quoted one after another ("white 5, not 4; blue 3, not 4"), joined
    by ``"; "`` in English by ``str()``, each translated where the web layer translates."""

    def __str__(self) -> str:
        return "; ".join(str(p) for p in self)


#: One token kind's total that does not hold (D-12, S-1), quoted in a refused correction.
TOTAL_OFF = N_("%(kind)s %(n)s, not %(total)s")


def refuse_totals_off(off: list[tuple[str, int, int]], one: str, several: str, rule: str) -> None:
    """Raise ``RuleError("invariant_broken")`` for the token kinds whose totals do not hold, each
    ``(kind, count, total)`` (D-12, S-1): ``one`` names a single kind (``kind``, ``n``, ``total``),
    ``several`` quotes them all (``off``: a half-made fix moved two kinds). Nothing when ``off``
    is empty."""
    if len(off) == 1:
        kind, n, total = off[0]
        raise RuleError("invariant_broken", one, rule, kind=kind, n=n, total=total)
    if off:
        raise RuleError("invariant_broken", several, rule,
                        off=Phrases(Phrase(TOTAL_OFF, kind=k, n=n, total=t) for k, n, t in off))

