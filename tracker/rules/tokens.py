"""Token kinds and immutable token bags, shared by Splendor Duel and Splendor."""

from __future__ import annotations

from typing import Iterator, Mapping, NamedTuple

from .errors import N_, RuleError

#: The five gem colours, in the order every screen and export uses.
GEM_COLORS: tuple[str, ...] = ("white", "blue", "green", "red", "black")
PEARL = "pearl"
GOLD = "gold"
#: Every token kind (D-1.1): the five gems, pearl, gold.
TOKEN_KINDS: tuple[str, ...] = GEM_COLORS + (PEARL, GOLD)
#: The most tokens one count in an entry may hold; anything above is a typo, not a game.
MAX_COUNT = 99


class Tokens(NamedTuple):
    """An immutable bag of tokens: a count per kind (``white`` … ``black``, ``pearl``, ``gold``).

    Counts may go negative only in intermediate arithmetic; ``is_valid`` says whether every
    count is at least 0. Build one with ``Tokens.of({"red": 2})`` or ``Tokens(red=2)``.
    A named tuple of the seven counts in ``TOKEN_KINDS`` order (so totals and checks run in C),
    but ``+`` and ``-`` add and subtract counts, and a bag is true when it holds any token.
    """

    white: int = 0
    blue: int = 0
    green: int = 0
    red: int = 0
    black: int = 0
    pearl: int = 0
    gold: int = 0

    @classmethod
    def of(cls, counts: Mapping[str, int] | None = None) -> "Tokens":
        """A bag from a mapping of kind to count; missing kinds are 0.

        Raises ``RuleError("bad_event")`` for an unknown kind or a count that is not a whole
        number from 0 to ``MAX_COUNT``.
        """
        if counts is None:
            return cls()
        if isinstance(counts, Tokens):
            return counts
        if not isinstance(counts, Mapping):
            raise RuleError("bad_event", N_("A token bag must be an object like {\"red\": 2}."))
        values: dict[str, int] = {}
        for kind, count in counts.items():
            if kind not in TOKEN_KINDS:
                raise RuleError("bad_event", N_("Unknown token kind: %(kind)s."), kind=str(kind)[:20])
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
                raise RuleError(
                    "bad_event",
                    N_("A token count must be a whole number from 0 to %(max)s."),
                    max=MAX_COUNT,
                )
            values[kind] = count
        return cls(**values)

    def get(self, kind: str) -> int:
        """The count of one kind."""
        return int(getattr(self, kind))

    def items(self) -> Iterator[tuple[str, int]]:
        """``(kind, count)`` pairs in ``TOKEN_KINDS`` order, zeros included."""
        for kind in TOKEN_KINDS:
            yield kind, getattr(self, kind)

    def to_dict(self, *, skip_zero: bool = False) -> dict[str, int]:
        """The bag as a plain dict; ``skip_zero`` drops kinds with a count of 0."""
        return {k: v for k, v in self.items() if v or not skip_zero}

    @property
    def total(self) -> int:
        """All tokens in the bag, gold included."""
        return sum(self)

    @property
    def gems(self) -> int:
        """Gems only (no pearl, no gold)."""
        return sum(self.get(c) for c in GEM_COLORS)

    def is_valid(self) -> bool:
        """True when no count is negative."""
        return min(self) >= 0

    def covers(self, other: "Tokens") -> bool:
        """True when this bag holds at least every count of ``other``."""
        return (
            self.white >= other.white and self.blue >= other.blue and self.green >= other.green
            and self.red >= other.red and self.black >= other.black and self.pearl >= other.pearl
            and self.gold >= other.gold
        )

    # Arithmetic spells out the seven kinds: it runs several times per event of a replay.
    def __add__(self, other: "Tokens") -> "Tokens":
        return _bag(
            self.white + other.white, self.blue + other.blue, self.green + other.green, self.red + other.red,
            self.black + other.black, self.pearl + other.pearl, self.gold + other.gold,
        )

    def __sub__(self, other: "Tokens") -> "Tokens":
        return _bag(
            self.white - other.white, self.blue - other.blue, self.green - other.green, self.red - other.red,
            self.black - other.black, self.pearl - other.pearl, self.gold - other.gold,
        )

    def lacking(self, wanted: "Tokens") -> "Tokens":
        """What this bag is short of to hold ``wanted``: each kind's ``wanted`` count beyond this
        bag's, never below 0 (empty when ``covers(wanted)``)."""
        return _bag(*(max(0, w - h) for h, w in zip(self, wanted)))

    def __bool__(self) -> bool:
        return self.total > 0

    def kinds(self) -> list[str]:
        """The kinds with a count above 0, in ``TOKEN_KINDS`` order."""
        return [k for k, v in self.items() if v > 0]

    def describe(self) -> str:
        """A short English list such as ``2 red, 1 pearl`` (for logs and tests)."""
        return ", ".join(f"{v} {k}" for k, v in self.items() if v) or "nothing"

    def __str__(self) -> str:
        """``describe()``: a bag in a rule's English message (translated where it is shown)."""
        return self.describe()


def _bag(white: int, blue: int, green: int, red: int, black: int, pearl: int, gold: int) -> Tokens:
    """``Tokens(white, …, gold)`` without the keyword handling of the named tuple's ``__new__``."""
    return _new_tuple(Tokens, (white, blue, green, red, black, pearl, gold))


_new_tuple = tuple.__new__



def single(kind: str) -> Tokens:
    """A bag of exactly one token of ``kind``."""
    bag = _SINGLES.get(kind)
    return bag if bag is not None else Tokens(**{kind: 1})



def payment_is_exact(owed: Tokens, payment: Tokens) -> bool:
    """True when ``payment`` pays exactly ``owed`` (D-7, S-2.4).

    ``owed`` holds what is due per gem/pearl after bonuses (no gold). Each kind is paid with at
    most what is owed of it; gold covers exactly the rest.
    """
    o, p = owed, payment
    if (
        p.white > o.white or p.blue > o.blue or p.green > o.green or p.red > o.red or p.black > o.black
        or p.pearl > o.pearl
    ):
        return False
    shortfall = (
        (o.white - p.white) + (o.blue - p.blue) + (o.green - p.green) + (o.red - p.red) + (o.black - p.black)
        + (o.pearl - p.pearl)
    )
    return p.gold == shortfall


def suggest_payment(owed: Tokens, held: Tokens) -> tuple[Tokens, bool]:
    """The payment a player would usually make: own gems and pearls first, gold only where needed.

    Returns ``(payment, affordable)``; when not affordable the payment is the closest attempt
    (all the gold held) and is not exact.
    """
    counts: dict[str, int] = {}
    shortfall = 0
    for kind, due in owed.items():
        if kind == GOLD or not due:
            continue
        counts[kind] = min(due, held.get(kind))
        shortfall += due - counts[kind]
    counts[GOLD] = min(shortfall, held.gold)
    return Tokens(**counts), held.gold >= shortfall


#: ``single(kind)`` for every kind, built once (bags are immutable).
_SINGLES: dict[str, Tokens] = {kind: Tokens(**{kind: 1}) for kind in TOKEN_KINDS}
