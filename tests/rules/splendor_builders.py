"""Builders for Splendor positions and events, so each test sets up a table in a line or two.

Every position they return passes ``splendor.check_invariants``: tokens handed to a player
come out of the supply, surplus goes back to it, nobles given to a player leave the display.

Only ``tracker.rules`` is imported here: these tests never touch Flask or a database.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Mapping

import pytest

from tracker.rules import catalog, splendor
from tracker.rules.errors import RuleError
from tracker.rules.events import Correction, Discard, Event, Purchase, Reserve, TakeNoble, TakeTokens
from tracker.rules.splendor import Reserved, SplendorState
from tracker.rules.tokens import GEM_COLORS, Tokens

NAMES = ("Ana", "Ben", "Cleo", "Dan")
ANA, BEN, CLEO, DAN = range(4)
#: Nobles needing 4 + 4 bonuses: hard to meet by accident, so tests that do not want a visit get none.
QUIET_NOBLES = ("N-06", "N-07", "N-08", "N-09", "N-10")


# ------------------------------------------------------------------------------ cards


def plain_cards(color: str, n: int) -> list[str]:
    """``n`` level-1 cards of ``color`` worth 0 prestige (one bonus each; at most 7 per colour)."""
    found = [c.id for c in catalog.development_cards().values() if c.level == 1 and c.color == color and not c.points]
    if n > len(found):
        raise ValueError(f"there are only {len(found)} plain {color} cards")
    return found[:n]


def bonus_cards(**counts: int) -> list[str]:
    """Plain cards giving exactly these bonuses: ``bonus_cards(red=4, green=4)``."""
    return [c for color, n in counts.items() for c in plain_cards(color, n)]


def cards_worth(points: int, *, avoid: Iterable[str] = (), colors: Iterable[str] = GEM_COLORS) -> list[str]:
    """Cards of ``colors`` worth exactly ``points`` prestige together, none of ``avoid`` (biggest first)."""
    avoid = set(avoid)
    allowed = set(colors)
    pool = sorted(
        (c for c in catalog.development_cards().values() if c.points and c.id not in avoid and c.color in allowed),
        key=lambda c: (-c.points, c.id),
    )
    picked: list[str] = []
    left = points
    for card in pool:
        if card.points <= left:
            picked.append(card.id)
            left -= card.points
        if not left:
            return picked
    raise ValueError(f"no cards add up to {points} prestige")


def cards_with_points(*points: int, avoid: Iterable[str] = ()) -> list[str]:
    """One card per value of ``points`` (``cards_with_points(5, 5, 4)``), none of ``avoid``, lowest ids first."""
    taken = set(avoid)
    picked: list[str] = []
    for value in points:
        card = next(c for c in catalog.development_cards().values() if c.points == value and c.id not in taken)
        picked.append(card.id)
        taken.add(card.id)
    return picked


def cards_of_level(level: int, n: int, *, avoid: Iterable[str] = ()) -> list[str]:
    """The first ``n`` cards of ``level`` in catalogue order, none of ``avoid``."""
    avoid = set(avoid)
    found = [c.id for c in catalog.development_cards().values() if c.level == level and c.id not in avoid]
    return found[:n]


# ------------------------------------------------------------------------------ positions


def new(players: int = 2, first_player: int = ANA, nobles: Iterable[str] | None = None) -> SplendorState:
    """A fresh game for the first ``players`` of Ana, Ben, Cleo, Dan; quiet nobles unless named (S-1)."""
    display = list(nobles) if nobles is not None else list(QUIET_NOBLES[: players + 1])
    return splendor.new_game(list(NAMES[:players]), first_player, display)


def _set(state: SplendorState, seat: int, **changes: object) -> SplendorState:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def _reserved(spec: str | int) -> Reserved:
    if isinstance(spec, int):
        return Reserved(level=spec)
    return Reserved(level=splendor.development_card(spec).level, card=spec)


def with_player(
    state: SplendorState,
    seat: int,
    *,
    tokens: Mapping[str, int] | None = None,
    cards: Iterable[str] = (),
    reserved: Iterable[str | int] = (),
    nobles: Iterable[str] = (),
) -> SplendorState:
    """``state`` with ``seat`` holding exactly ``tokens`` (to and from the supply), plus cards, reserves, nobles.

    ``reserved`` takes card ids or levels (secret cards); ``nobles`` must be on display and leave it.
    Raises ``ValueError`` when the supply cannot provide the tokens.
    """
    if tokens is not None:
        wanted = Tokens.of(tokens)
        board = state.board + state.players[seat].tokens - wanted
        if not board.is_valid():
            raise ValueError(f"the supply cannot give seat {seat} {wanted.describe()}")
        state = _set(replace(state, board=board), seat, tokens=wanted)
    nobles = tuple(nobles)
    missing = [n for n in nobles if n not in state.nobles_available]
    if missing:
        raise ValueError(f"nobles {missing} are not on display")
    me = state.players[seat]
    state = _set(
        state,
        seat,
        cards=me.cards + tuple(cards),
        reserved=me.reserved + tuple(_reserved(r) for r in reserved),
        nobles=me.nobles + nobles,
    )
    state = replace(state, nobles_available=tuple(n for n in state.nobles_available if n not in nobles))
    splendor.check_invariants(state)
    return state


def with_supply(state: SplendorState, holder: int, **counts: int) -> SplendorState:
    """The supply holds exactly ``counts`` of the kinds named; the difference goes to or comes from ``holder``."""
    wanted = state.board
    for kind, n in counts.items():
        wanted = wanted - Tokens(**{kind: wanted.get(kind)}) + Tokens(**{kind: n})
    held = state.players[holder].tokens + state.board - wanted
    return with_player(state, holder, tokens=held.to_dict())


def to_play(state: SplendorState, seat: int) -> SplendorState:
    """The same position with ``seat`` to act at the start of a turn."""
    return replace(state, current_player=seat, action_done=False)


def position(
    players: int = 2,
    *,
    to_act: int = ANA,
    first_player: int = ANA,
    nobles: Iterable[str] | None = None,
    seats: Mapping[int, Mapping[str, object]] | None = None,
    supply: Mapping[str, int] | None = None,
    holder: int | None = None,
) -> SplendorState:
    """One-line positions: ``position(seats={ANA: dict(tokens={"red": 3}, cards=["S1-25"])})``.

    ``seats`` maps a seat to ``with_player``'s keywords; ``supply`` then fixes the named supply
    counts, the difference going to ``holder`` (by default the last seat, which does not act in
    most tests); ``to_act`` is the seat to play.
    """
    state = new(players, first_player, nobles)
    for seat, spec in (seats or {}).items():
        state = with_player(state, seat, **spec)  # type: ignore[arg-type]
    if supply:
        state = with_supply(state, players - 1 if holder is None else holder, **supply)
    return to_play(state, to_act)


# ------------------------------------------------------------------------------ events


def take(seat: int, **tokens: int) -> TakeTokens:
    """S-2.1 / S-2.2: take gems from the supply."""
    return TakeTokens(player=seat, tokens=Tokens(**tokens))


def reserve(seat: int, card: str | None = None, *, level: int | None = None) -> Reserve:
    """S-2.3: a named card, or a secret card of ``level``."""
    return Reserve(player=seat, card=card, level=level)


def buy(seat: int, card: str, pay: Mapping[str, int] | None = None, *, from_reserve: bool = False) -> Purchase:
    """S-2.4: buy ``card`` paying ``pay`` (a token bag, gold included)."""
    return Purchase(player=seat, card=card, from_reserve=from_reserve, payment=Tokens.of(pay or {}))


def buy_paying_exactly(state: SplendorState, seat: int, card: str, *, from_reserve: bool = False) -> Purchase:
    """S-2.4: buy ``card`` with the payment the engine pre-fills (the test fails if unaffordable)."""
    payment, affordable = splendor.payment_for(state, seat, card)
    assert affordable, f"seat {seat} cannot afford {card}"
    return Purchase(player=seat, card=card, from_reserve=from_reserve, payment=payment)


def discard(seat: int, **tokens: int) -> Discard:
    """S-3.1."""
    return Discard(player=seat, tokens=Tokens(**tokens))


def take_noble(seat: int, noble: str) -> TakeNoble:
    """S-3.2."""
    return TakeNoble(player=seat, noble=noble)


def correct(
    seat: int, *, tokens: Mapping[str, int] | None = None, board: Mapping[str, int] | None = None, note: str = ""
) -> Correction:
    """A table fix of ``seat``'s tokens and/or the supply."""
    return Correction(
        player=seat,
        tokens=None if tokens is None else Tokens.of(tokens),
        board=None if board is None else Tokens.of(board),
        note=note,
    )


# ------------------------------------------------------------------------------ playing


def play(state: SplendorState, *events: Event) -> SplendorState:
    """Apply ``events`` in order, checking the invariants after each."""
    for event in events:
        state = splendor.apply(state, event)
        splendor.check_invariants(state)
    return state


def refused(state: SplendorState, event: Event) -> RuleError:
    """The ``RuleError`` the engine raises for ``event`` (the test fails if none is raised)."""
    with pytest.raises(RuleError) as info:
        splendor.apply(state, event)
    return info.value


def quiet_turn(state: SplendorState) -> SplendorState:
    """The player to act takes up to 3 different gems (as many colours as the supply has) and
    returns any surplus over 10 tokens: a turn that buys nothing."""
    seat = state.current_player
    colors = splendor.colors_in_supply(state)[: splendor.TAKE_THREE]
    state = play(state, take(seat, **dict.fromkeys(colors, 1)))
    pending = state.pending
    if pending is not None and pending.kind == "discard":
        held = state.players[seat].tokens
        back: dict[str, int] = {}
        for kind in colors:
            if sum(back.values()) < pending.count and held.get(kind):
                back[kind] = 1
        state = play(state, discard(seat, **back))
    return state


def alert_kinds(state: SplendorState) -> list[str]:
    """The kinds of the alerts the last event raised, in order."""
    return [a.kind for a in state.alerts]
