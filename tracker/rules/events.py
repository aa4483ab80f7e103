"""Table events (GAME-LOG.md): frozen dataclasses, parsed from and written back to JSON dicts.

Parsing checks shape only (types, ranges, known kinds); whether an event is legal in a game
is the business of ``duel.apply`` / ``splendor.apply``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Mapping

from .errors import N_, RuleError
from .text import clean_text
from .tokens import GEM_COLORS, PEARL, TOKEN_KINDS, Tokens

#: A correction's note is kept in the log; longer text is a paste accident.
MAX_NOTE = 500


@dataclass(frozen=True, kw_only=True)
class Event:
    """One thing that happened at the table, entered for seat ``player`` (0-based)."""

    type: ClassVar[str] = ""
    player: int

    def to_dict(self) -> dict[str, Any]:
        """The event as its GAME-LOG.md JSON object (token bags without zero counts)."""
        out: dict[str, Any] = {"type": self.type, "player": self.player}
        for f in fields(self):
            if f.name == "player":
                continue
            value = getattr(self, f.name)
            if value is None:
                continue
            out[f.name] = value.to_dict(skip_zero=True) if isinstance(value, Tokens) else value
        return out


@dataclass(frozen=True, kw_only=True)
class UsePrivileges(Event):
    """D-3.1: return one privilege per token taken from the board (gems or pearls)."""

    type: ClassVar[str] = "use_privileges"
    tokens: Tokens


@dataclass(frozen=True, kw_only=True)
class Replenish(Event):
    """D-4: every token of the bag goes back onto the board."""

    type: ClassVar[str] = "replenish"


@dataclass(frozen=True, kw_only=True)
class TakeTokens(Event):
    """D-5 / S-2.1 / S-2.2: the mandatory take of tokens from the board (or supply)."""

    type: ClassVar[str] = "take_tokens"
    tokens: Tokens


@dataclass(frozen=True, kw_only=True)
class Reserve(Event):
    """D-6 / S-2.3: reserve a named card (``card``) or a deck's top card (``level`` only)."""

    type: ClassVar[str] = "reserve"
    card: str | None = None
    level: int | None = None


@dataclass(frozen=True, kw_only=True)
class Purchase(Event):
    """D-7 / S-2.4: buy ``card`` paying ``payment``; Duel adds ``wild_color`` and ``steal``."""

    type: ClassVar[str] = "purchase"
    card: str
    from_reserve: bool = False
    payment: Tokens = Tokens()
    wild_color: str | None = None
    steal: str | None = None


@dataclass(frozen=True, kw_only=True)
class TakeRoyal(Event):
    """D-9: take an available royal card; ``steal`` names the token for DR-4."""

    type: ClassVar[str] = "take_royal"
    royal: str
    steal: str | None = None


@dataclass(frozen=True, kw_only=True)
class Discard(Event):
    """D-10 / S-3.1: return tokens until exactly 10 remain."""

    type: ClassVar[str] = "discard"
    tokens: Tokens


@dataclass(frozen=True, kw_only=True)
class TakeNoble(Event):
    """S-3.2: the noble chosen when several qualify."""

    type: ClassVar[str] = "take_noble"
    noble: str


@dataclass(frozen=True, kw_only=True)
class Pass(Event):
    """Splendor, S-2 ruling: the player to act can take no action at all (no gem in the supply,
    3 cards reserved, nothing they can buy) and passes the turn."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, kw_only=True)
class Correction(Event):
    """A table fix, kept in the log: any of ``tokens``, ``privileges``, ``board``, ``bag``.

    ``player`` is the seat whose tokens or privileges are fixed, not the one to act.
    """

    type: ClassVar[str] = "correction"
    tokens: Tokens | None = None
    privileges: int | None = None
    board: Tokens | None = None
    bag: Tokens | None = None
    note: str = ""


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (UsePrivileges, Replenish, TakeTokens, Reserve, Purchase, TakeRoyal, Discard, TakeNoble, Pass, Correction)
}


def _bad(template: str, **params: Any) -> RuleError:
    return RuleError("bad_event", template, **params)


def _int(data: Mapping[str, Any], name: str, low: int, high: int, *, required: bool = True) -> int | None:
    value = data.get(name)
    if value is None:
        if required:
            raise _bad(N_("The entry needs a field %(field)s."), field=name)
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(N_("%(field)s must be a whole number from %(low)s to %(high)s."), field=name, low=low, high=high)
    return value


def _str(data: Mapping[str, Any], name: str, *, required: bool = True, max_len: int = 20) -> str | None:
    value = data.get(name)
    if value is None or value == "":
        if required:
            raise _bad(N_("The entry needs a field %(field)s."), field=name)
        return None
    if clean_text(value, max_len) != value:
        raise _bad(N_("%(field)s must be a text of at most %(max)s characters, with no space at either end and no "
                      "control or invisible character."), field=name, max=max_len)
    return value


def _bag(data: Mapping[str, Any], name: str, *, required: bool = True) -> Tokens | None:
    value = data.get(name)
    if value is None:
        if required:
            raise _bad(N_("The entry needs a field %(field)s."), field=name)
        return None
    return Tokens.of(value)


def _token_kind(data: Mapping[str, Any], name: str) -> str | None:
    """A token kind field (``steal``); a bad one's error carries ``field``: an engine's
    ``ENTRY_RULES`` may give that field a rule of its own (Duel's steal: D-8, not D-7)."""
    try:
        value = _str(data, name, required=False)
        if value is not None and value not in TOKEN_KINDS:
            raise _bad(N_("Unknown token kind: %(kind)s."), kind=value)
    except RuleError as err:
        err.field = name
        raise
    return value


#: What a correction's ``set`` may fix (GAME-LOG.md), and its ``note``.
CORRECTION_FIELDS = frozenset(("tokens", "privileges", "board", "bag", "note"))
#: Parts of the position a correction never fixes ("cards are never corrected (undo instead)").
NEVER_CORRECTED = frozenset(("cards", "card", "royals", "royal", "reserved", "reserve", "nobles", "noble",
                             "prestige", "crowns", "crown", "bonuses", "bonus"))


def parse_event(data: Any, seats: int, rules: Mapping[str, str] | None = None) -> Event:
    """Build an ``Event`` from its GAME-LOG.md JSON object.

    ``seats`` is the number of players (2 in Duel, 2–4 in Splendor); ``player`` must be one of
    them. Unknown extra fields are ignored. Raises ``RuleError("bad_event")`` on a missing,
    mistyped or out-of-range field or an unknown type or token kind. ``rules`` (an engine's
    ``ENTRY_RULES``) names the rule of each entry type, given as the error's ``rule`` (the
    ``""`` key: what is not an entry of a known type; a field's name: a bad value of that field,
    Duel's ``steal`` D-8); without it the error names none.
    """
    try:
        return _parse_event(data, seats)
    except RuleError as err:
        if rules is not None and not err.rule:
            kind = data.get("type") if isinstance(data, Mapping) else None
            err.rule = rules.get(kind, rules[""]) if isinstance(kind, str) else rules[""]
            if err.field and err.field in rules:  # (Duel's "steal": D-8)
                err.rule = rules[err.field]
        raise


def _parse_event(data: Any, seats: int) -> Event:
    if not isinstance(data, Mapping):
        raise _bad(N_("An entry must be a JSON object."))
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        if isinstance(kind, str):
            raise _bad(N_("Unknown entry type: %(type)s."), type=kind[:30])
        raise _bad(N_("An entry needs its type as text, e.g. \"take_tokens\"."))
    player = _int(data, "player", 0, seats - 1)
    assert player is not None
    if cls in (UsePrivileges, TakeTokens, Discard):
        return cls(player=player, tokens=_bag(data, "tokens"))  # type: ignore[call-arg]
    if cls in (Replenish, Pass):
        return cls(player=player)
    if cls is Reserve:
        card = _str(data, "card", required=False)
        level = _int(data, "level", 1, 3, required=False)
        if card is not None and level is not None:
            raise _bad(N_("A reserve names either a card or a level (a secret card), not both."))
        if card is None and level is None:
            raise _bad(N_("A reserve names the card reserved, or the level of a secret card from a deck."))
        return Reserve(player=player, card=card, level=None if card else level)
    if cls is Purchase:
        from_reserve = data.get("from_reserve", False)
        if not isinstance(from_reserve, bool):
            raise _bad(N_("%(field)s must be true or false."), field="from_reserve")
        wild = _str(data, "wild_color", required=False)
        if wild is not None and wild not in GEM_COLORS:
            raise _bad(N_("A joker joins one of the five gem colours, not %(kind)s."), kind=wild)
        return Purchase(
            player=player,
            card=_str(data, "card"),  # type: ignore[arg-type]
            from_reserve=from_reserve,
            payment=_bag(data, "payment", required=False) or Tokens(),
            wild_color=wild,
            steal=_token_kind(data, "steal"),
        )
    if cls is TakeRoyal:
        return TakeRoyal(player=player, royal=_str(data, "royal"), steal=_token_kind(data, "steal"))  # type: ignore[arg-type]
    if cls is TakeNoble:
        return TakeNoble(player=player, noble=_str(data, "noble"))  # type: ignore[arg-type]
    # Correction: the fields come either at the top level or under "set" (GAME-LOG.md).
    source = data.get("set", data)
    if not isinstance(source, Mapping):
        raise _bad(N_("A correction's set must be an object."))
    named = {str(k).casefold() for k in data} | {str(k).casefold() for k in source}
    unknown = set(map(str, source)) - CORRECTION_FIELDS if "set" in data else set()
    # a token count at the top (``"white": 3``) is never read, with a set or without: said, not dropped
    unknown |= {str(k) for k in data if str(k) in TOKEN_KINDS}
    never = named & NEVER_CORRECTED
    if never:
        raise _bad(N_("A correction fixes only token counts (and a Duel's privileges), not %(field)s: "
                      "cards are never corrected (undo instead)."), field=sorted(never)[0][:20])
    if unknown:  # e.g. "gold" outside a bag: a token count belongs in tokens, board or bag
        raise _bad(N_("A correction sets tokens, privileges, board or bag, not %(field)s: "
                      "a token count goes inside one of those (\"tokens\": {\"gold\": 1})."),
                   field=sorted(unknown)[0][:20])
    # with a set, the counts are in it (one beside it was dropped unread) and the note once
    beside = [k for k in sorted(CORRECTION_FIELDS) if "set" in data and k in data
              and (k != "note" or ("note" in source and data[k] != source[k]))]
    if beside:
        raise _bad(N_("A correction with a set gives its counts inside the set, not beside it: "
                      "%(field)s beside the set is not read (a note goes once, inside or beside)."), field=beside[0])
    note = clean_text(data.get("note", source.get("note", "")) or "", MAX_NOTE)
    if note is None:
        raise _bad(N_("A note is plain text of at most %(max)s characters, without control characters."), max=MAX_NOTE)
    corr = Correction(
        player=player,
        tokens=_bag(source, "tokens", required=False),
        privileges=_int(source, "privileges", 0, 3, required=False),
        board=_bag(source, "board", required=False),
        bag=_bag(source, "bag", required=False),
        note=note,
    )
    if corr.tokens is None and corr.privileges is None and corr.board is None and corr.bag is None:
        raise _bad(N_("Nothing to correct: a correction sets at least one of tokens, privileges, board or bag to "
                      "the counts the table shows."))
    return corr


def correction_dict(event: Correction) -> dict[str, Any]:
    """A correction in GAME-LOG.md form: the fixed values under ``set`` (whole bags; no
    ``pearl`` key when there are none, as in classic Splendor, which has no pearls)."""
    fixed: dict[str, Any] = {}
    for name in ("tokens", "privileges", "board", "bag"):
        value = getattr(event, name)
        if value is not None:
            if isinstance(value, Tokens):
                value = value.to_dict()
                if not value[PEARL]:  # a count of 0 is what a missing kind means: classic Splendor has no pearls
                    del value[PEARL]
            fixed[name] = value
    out: dict[str, Any] = {"type": event.type, "player": event.player, "set": fixed}
    if event.note:
        out["note"] = event.note
    return out


def event_to_dict(event: Event) -> dict[str, Any]:
    """The JSON object of any event, as stored and exported."""
    if isinstance(event, Correction):
        return correction_dict(event)
    return event.to_dict()


__all__ = [
    "Event",
    "UsePrivileges",
    "Replenish",
    "TakeTokens",
    "Reserve",
    "Purchase",
    "TakeRoyal",
    "Discard",
    "TakeNoble",
    "Pass",
    "Correction",
    "EVENT_TYPES",
    "parse_event",
    "event_to_dict",
    "PEARL",
]
