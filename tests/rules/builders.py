"""Builders for Splendor Duel positions and events, so each test sets up a table in a line or two.

Every position they return passes ``duel.check_invariants`` (D-12): tokens handed to a player
come off the board (then the bag), tokens put in the bag come off the board, and the
privilege supply is always 3 minus what both players hold.

Only ``tracker.rules`` is imported here: these tests never touch Flask or a database.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Mapping

import pytest

from tracker.rules import catalog, duel
from tracker.rules.duel import DuelState, Owned, Reserved
from tracker.rules.errors import RuleError
from tracker.rules.events import (
    Correction,
    Discard,
    Event,
    Purchase,
    Replenish,
    Reserve,
    TakeRoyal,
    TakeTokens,
    UsePrivileges,
)
from tracker.rules.tokens import TOKEN_KINDS, Tokens

NAMES = ("Ana", "Ben")
ANA, BEN = 0, 1

CardSpec = str  # "D1-04", or "D3-12:red" for a joker placed on red


# ------------------------------------------------------------------------------ positions


def new(first_player: int = ANA) -> DuelState:
    """A fresh game for Ana (seat 0) and Ben (seat 1), ``first_player`` to start (D-1)."""
    return duel.new_game(list(NAMES), first_player)


def owned(spec: CardSpec) -> Owned:
    """``"D1-04"`` → that card in its own colour; ``"D3-12:red"`` → a joker placed on red."""
    card_id, _, color = spec.partition(":")
    card = catalog.jewel(card_id)
    if card.is_joker and not color:
        raise ValueError(f"say which colour joker {card_id} sits on: '{card_id}:red'")
    return Owned(card_id, color or card.color)


def reserved(spec: str | int) -> Reserved:
    """``"D2-05"`` → a named reserved card; ``3`` → a secret card of level 3."""
    if isinstance(spec, int):
        return Reserved(level=spec)
    return Reserved(level=catalog.jewel(spec).level, card=spec)


def _with_tokens(state: DuelState, seat: int, wanted: Tokens) -> DuelState:
    """Give ``seat`` exactly ``wanted``: surplus back to the board, shortfall from board then bag."""
    held = state.players[seat].tokens
    board, bag = state.board, state.bag
    for kind in TOKEN_KINDS:
        delta = wanted.get(kind) - held.get(kind)
        if delta <= 0:
            board = board + Tokens(**{kind: -delta})
            continue
        from_board = min(delta, board.get(kind))
        from_bag = delta - from_board
        if from_bag > bag.get(kind):
            raise ValueError(f"there are not {wanted.get(kind)} {kind} tokens for seat {seat}")
        board = board - Tokens(**{kind: from_board})
        bag = bag - Tokens(**{kind: from_bag})
    state = replace(state, board=board, bag=bag)
    return _set(state, seat, tokens=wanted)


def _set(state: DuelState, seat: int, **changes: object) -> DuelState:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def with_player(
    state: DuelState,
    seat: int,
    *,
    tokens: Mapping[str, int] | None = None,
    privileges: int | None = None,
    cards: Iterable[CardSpec] = (),
    reserved_cards: Iterable[str | int] = (),
    royals: Iterable[str] = (),
) -> DuelState:
    """``state`` with ``seat`` holding exactly ``tokens``/``privileges`` and owning more cards.

    Cards, reserved cards and royals are added to what the seat already has; royals leave
    ``royals_available``. Raises ``ValueError`` when the totals cannot be kept (D-12).
    """
    if tokens is not None:
        state = _with_tokens(state, seat, Tokens.of(tokens))
    if privileges is not None:
        other = state.players[1 - seat].privileges
        if privileges + other > duel.PRIVILEGES:
            raise ValueError("both players together hold at most 3 privileges")
        state = _set(state, seat, privileges=privileges)
        state = replace(state, privileges_supply=duel.PRIVILEGES - privileges - other)
    me = state.players[seat]
    state = _set(
        state,
        seat,
        cards=me.cards + tuple(owned(c) for c in cards),
        reserved=me.reserved + tuple(reserved(r) for r in reserved_cards),
        royals=me.royals + tuple(royals),
    )
    state = replace(state, royals_available=tuple(r for r in state.royals_available if r not in royals))
    duel.check_invariants(state)
    return state


def with_bag(state: DuelState, **counts: int) -> DuelState:
    """Move ``counts`` from the board into the bag (as if paid earlier)."""
    moved = Tokens(**counts)
    state = replace(state, board=state.board - moved, bag=state.bag + moved)
    duel.check_invariants(state)
    return state


def with_board(state: DuelState, **counts: int) -> DuelState:
    """Leave exactly ``counts`` on the board (missing kinds 0); the rest goes into the bag."""
    wanted = Tokens(**counts)
    surplus = state.board - wanted
    if not surplus.is_valid():
        raise ValueError("the board does not hold that many")
    return with_bag(state, **surplus.to_dict(skip_zero=True))


def to_play(state: DuelState, seat: int) -> DuelState:
    """The same position with ``seat`` to act at the start of a turn."""
    return replace(state, current_player=seat, replenished=False, action_done=False, extra_turn=False)


def position(
    *,
    to_act: int = ANA,
    first_player: int = ANA,
    ana: Mapping[str, object] | None = None,
    ben: Mapping[str, object] | None = None,
    bag: Mapping[str, int] | None = None,
) -> DuelState:
    """One-line positions: ``position(ana=dict(tokens={"red": 3}, cards=["D1-04"]))``.

    ``ana``/``ben`` take ``with_player``'s keywords; ``bag`` moves tokens from the board to the
    bag first; ``to_act`` is the seat to play.
    """
    state = new(first_player)
    if bag:
        state = with_bag(state, **bag)
    specs = [dict(ana or {}), dict(ben or {})]
    held = [spec.pop("privileges", p.privileges) for spec, p in zip(specs, state.players)]
    state = with_privileges(state, *held)  # type: ignore[arg-type]
    for seat, spec in enumerate(specs):
        if spec:
            state = with_player(state, seat, **spec)  # type: ignore[arg-type]
    return to_play(state, to_act)


def with_privileges(state: DuelState, ana: int, ben: int) -> DuelState:
    """Both players' privileges at once; the supply holds the rest of the 3 (D-3.3)."""
    if ana + ben > duel.PRIVILEGES:
        raise ValueError("both players together hold at most 3 privileges")
    state = _set(_set(state, ANA, privileges=ana), BEN, privileges=ben)
    state = replace(state, privileges_supply=duel.PRIVILEGES - ana - ben)
    duel.check_invariants(state)
    return state


# ------------------------------------------------------------------------------ events


def take(seat: int, **tokens: int) -> TakeTokens:
    """D-5: take tokens from the board."""
    return TakeTokens(player=seat, tokens=Tokens(**tokens))


def use(seat: int, **tokens: int) -> UsePrivileges:
    """D-3.1: one privilege per token taken."""
    return UsePrivileges(player=seat, tokens=Tokens(**tokens))


def replenish(seat: int) -> Replenish:
    """D-4."""
    return Replenish(player=seat)


def reserve(seat: int, card: str | None = None, *, level: int | None = None) -> Reserve:
    """D-6: a named card, or a secret card of ``level``."""
    return Reserve(player=seat, card=card, level=level)


def buy(
    seat: int,
    card: str,
    pay: Mapping[str, int] | None = None,
    *,
    from_reserve: bool = False,
    wild: str | None = None,
    steal: str | None = None,
) -> Purchase:
    """D-7: buy ``card`` paying ``pay`` (a token bag, gold included)."""
    return Purchase(
        player=seat, card=card, from_reserve=from_reserve, payment=Tokens.of(pay or {}), wild_color=wild, steal=steal
    )


def take_royal(seat: int, royal: str, steal: str | None = None) -> TakeRoyal:
    """D-9."""
    return TakeRoyal(player=seat, royal=royal, steal=steal)


def discard(seat: int, **tokens: int) -> Discard:
    """D-10."""
    return Discard(player=seat, tokens=Tokens(**tokens))


def correct(
    seat: int,
    *,
    tokens: Mapping[str, int] | None = None,
    privileges: int | None = None,
    board: Mapping[str, int] | None = None,
    bag: Mapping[str, int] | None = None,
    note: str = "",
) -> Correction:
    """A table fix of ``seat``'s tokens or privileges, the board or the bag."""
    return Correction(
        player=seat,
        tokens=None if tokens is None else Tokens.of(tokens),
        privileges=privileges,
        board=None if board is None else Tokens.of(board),
        bag=None if bag is None else Tokens.of(bag),
        note=note,
    )


# ------------------------------------------------------------------------------ playing


def play(state: DuelState, *events: Event) -> DuelState:
    """Apply ``events`` in order, checking D-12 after each."""
    for event in events:
        state = duel.apply(state, event)
        duel.check_invariants(state)
    return state


def refused(state: DuelState, event: Event) -> RuleError:
    """The ``RuleError`` the engine raises for ``event`` (the test fails if none is raised)."""
    with pytest.raises(RuleError) as info:
        duel.apply(state, event)
    return info.value


def alerts(state: DuelState) -> list[tuple[str, int]]:
    """The last event's alerts as ``(kind, player)`` pairs."""
    return [(a.kind, a.player) for a in state.alerts]


def tokens_of(state: DuelState, seat: int) -> dict[str, int]:
    """A player's tokens without zero counts."""
    return state.players[seat].tokens.to_dict(skip_zero=True)


def board(state: DuelState) -> dict[str, int]:
    """The board without zero counts."""
    return state.board.to_dict(skip_zero=True)


def bag(state: DuelState) -> dict[str, int]:
    """The bag without zero counts."""
    return state.bag.to_dict(skip_zero=True)
