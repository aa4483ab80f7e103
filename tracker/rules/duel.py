"""Splendor Duel: the state of a game and the one function that applies a table event to it.

``apply(state, event) -> state`` is pure: states and events are frozen, a new state comes back
or ``RuleError`` is raised and nothing changes. ``replay(setup, events)`` folds a whole log.
Every rule id below refers to ``RULES.md`` (D-1 … D-12).
"""

from __future__ import annotations

import operator
from functools import cache
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any, Callable, Iterable, Mapping, Sequence

from .common import (Alert, Holders, Reserved, balancing_counts, card_holder, card_taken, require_affordable, require_held,
                     require_in_supply)
from . import catalog
from .catalog import EXTRA_TURN, NO_COLOR, STEAL_TOKEN, TAKE_PRIVILEGE, TAKE_TOKEN, JewelCard
from .errors import N_, RuleError, refuse_totals_off
from .events import (
    Correction,
    Discard,
    Event,
    Purchase,
    Replenish,
    Reserve,
    TakeRoyal,
    TakeTokens,
    UsePrivileges,
    parse_event,
)
from .text import player_names
from .tokens import GEM_COLORS, GOLD, PEARL, TOKEN_KINDS, Tokens, payment_is_exact, single, suggest_payment

GAME = "duel"
SEATS = 2
#: D-1.1: every token of the game; the board holds them all at the start.
TOKEN_TOTALS = Tokens(white=4, blue=4, green=4, red=4, black=4, pearl=2, gold=3)
#: D-1.2: privilege scrolls in the game (D-3.3: supply + both players = 3).
PRIVILEGES = 3
#: D-6: most reserved cards a player may hold.
MAX_RESERVED = 3
#: D-5: most tokens one take may hold.
MAX_TAKE = 3
#: D-10: tokens a player may keep at the end of a turn.
TOKEN_LIMIT = 10
#: D-9: crown counts whose crossing gives a royal card.
CROWN_THRESHOLDS = (3, 6)
#: D-11.1, D-11.2, D-11.3: the three victory routes.
PRESTIGE_TO_WIN = 20
CROWNS_TO_WIN = 10
COLOR_POINTS_TO_WIN = 10
#: D-1.2 / D-6: jewel cards per level, and the face-up pyramid slots per level.
LEVEL_SIZES = {1: 30, 2: 24, 3: 13}
FACE_UP = {1: 5, 2: 4, 3: 3}


class Route(str, Enum):
    """A Splendor Duel victory route (D-11); the value is the name used in the API."""

    #: D-11.1: 20 or more prestige from jewel and royal cards.
    PRESTIGE = "prestige"
    #: D-11.2: 10 or more crowns.
    CROWNS = "crowns"
    #: D-11.3: 10 or more prestige on the cards of one colour.
    COLOR = "color"


@dataclass(frozen=True)
class Owned:
    """A jewel card a player bought, with the colour it counts as (a joker's chosen colour)."""

    card: str
    color: str

    @property
    def jewel(self) -> JewelCard:
        """The catalogue card."""
        return catalog.jewels()[self.card]


class _computed_once:
    """A derived value of a frozen object, computed on first use and then read straight from the
    instance ``__dict__`` (a non-data descriptor: the stored value shadows it, no call after)."""

    def __init__(self, func: Callable[[Any], Any]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


@dataclass(frozen=True)
class Player:
    """One seat: name, tokens held, privileges, cards bought, reserve and royal cards.

    Prestige, crowns, bonuses and colour points are derived from the cards (D-12).
    """

    name: str
    tokens: Tokens = Tokens()
    privileges: int = 0
    cards: tuple[Owned, ...] = ()
    reserved: tuple[Reserved, ...] = ()
    royals: tuple[str, ...] = ()

    @_computed_once
    def _totals(self) -> tuple[int, int, dict[str, int], dict[str, int], int]:
        """``(prestige, crowns, bonuses, color_points, royals_earned)`` from the cards and royal cards.

        Computed once per player value (the fields are frozen) and kept in the instance
        ``__dict__``, outside the dataclass fields (so equality, repr and hashing ignore it).
        """
        return _add_to_totals(_NO_TOTALS, self.cards, self.royals)

    @property
    def prestige(self) -> int:
        """Printed points of jewel cards plus royal cards (D-11.1)."""
        return self._totals[0]

    @property
    def crowns(self) -> int:
        """Crowns on the jewel cards bought (D-9)."""
        return self._totals[1]

    @property
    def bonuses(self) -> dict[str, int]:
        """Bonuses per gem colour: 1 or 2 a card, jokers on their chosen colour (D-7)."""
        return dict(self._totals[2])

    @property
    def color_points(self) -> dict[str, int]:
        """Printed points per colour, jokers on their colour; never points-only cards (D-11.3)."""
        return dict(self._totals[3])

    @property
    def best_color(self) -> tuple[str | None, int]:
        """``(colour, points)`` of the colour nearest to D-11.3; ``(None, 0)`` with no points."""
        points = self._totals[3]
        best = max(GEM_COLORS, key=lambda c: points[c])
        return (best, points[best]) if points[best] else (None, 0)

    @property
    def royals_earned(self) -> int:
        """Royal cards the crowns give a right to (D-9, D-12)."""
        return self._totals[4]

    @property
    def royal_due(self) -> bool:
        """True while a crossed crown threshold still waits for its royal card (D-9)."""
        return self.royals_earned > len(self.royals)

    def routes(self) -> tuple[str, ...]:
        """The victory routes this player meets now (D-11), in the order prestige, crowns, color."""
        prestige, crowns, _bonuses, points, _earned = self._totals
        met = []
        if prestige >= PRESTIGE_TO_WIN:
            met.append(Route.PRESTIGE.value)
        if crowns >= CROWNS_TO_WIN:
            met.append(Route.CROWNS.value)
        if max(points.values()) >= COLOR_POINTS_TO_WIN:  # the best colour's points (D-11.3)
            met.append(Route.COLOR.value)
        return tuple(met)


_NO_TOTALS: tuple[int, int, dict[str, int], dict[str, int], int] = (
    0, 0, dict.fromkeys(GEM_COLORS, 0), dict.fromkeys(GEM_COLORS, 0), 0
)


def _add_to_totals(
    totals: tuple[int, int, dict[str, int], dict[str, int], int], cards: Iterable[Owned], royals: Iterable[str]
) -> tuple[int, int, dict[str, int], dict[str, int], int]:
    """``Player._totals`` after adding ``cards`` and ``royals`` to the totals ``totals`` (not changed)."""
    prestige, crowns, bonuses, points, _earned = totals
    bonuses, points = dict(bonuses), dict(points)
    jewels = catalog.jewels()
    for o in cards:
        card = jewels[o.card]
        prestige += card.points
        crowns += card.crowns
        if o.color in bonuses:
            bonuses[o.color] += card.bonus
            points[o.color] += card.points
    if royals:
        all_royals = catalog.royals()
        prestige += sum(all_royals[r].points for r in royals)
    earned = 0
    for threshold in CROWN_THRESHOLDS:
        if crowns >= threshold:
            earned += 1
    return prestige, crowns, bonuses, points, earned


@dataclass(frozen=True)
class Pending:
    """The one choice the table owes next: ``royal`` or ``discard`` (with ``count``)."""

    kind: str
    player: int
    count: int = 0


@dataclass(frozen=True)
class Winner:
    """The winning seat and every route it met (D-11)."""

    player: int
    routes: tuple[str, ...]


@dataclass(frozen=True)
class DuelState:
    """The whole position of a Splendor Duel game after some events.

    ``turn`` counts turns from 1, extra turns included; ``round`` counts the first player's
    turns (an extra turn starts none: what the table calls a round); ``current_player`` is the seat to act
    (after the end, the seat that acted last). ``replenished``, ``action_done`` and
    ``extra_turn`` (another turn is owed after this one) describe the turn under way (D-2);
    ``playing_extra_turn`` says the turn under way is itself an extra turn (D-8).
    """

    players: tuple[Player, Player]
    first_player: int
    privileges_supply: int
    board: Tokens
    bag: Tokens
    royals_available: tuple[str, ...]
    current_player: int
    turn: int = 1
    round: int = 1
    replenished: bool = False
    action_done: bool = False
    extra_turn: bool = False
    playing_extra_turn: bool = False
    winner: Winner | None = None
    alerts: tuple[Alert, ...] = ()

    game = GAME

    @property
    def status(self) -> str:
        """``active`` or ``finished``."""
        return "finished" if self.winner else "active"

    @property
    def extra_turn_follows(self) -> bool:
        """True when the player to act plays again after this turn (D-8), which a route they
        already meet forbids: the turn then ends in their win (D-11, checked after the royal card
        and the discard still owed, which never lower a route)."""
        return self.extra_turn and not self.winner and not self.players[self.current_player].routes()

    @property
    def pending(self) -> Pending | None:
        """The royal card, then the discard, the player to act owes (D-2 steps 4–5)."""
        if self.winner or not self.action_done:
            return None
        me = self.players[self.current_player]
        if me._totals[4] > len(me.royals):  # me.royal_due
            return Pending("royal", self.current_player)
        total = me.tokens.total
        if total > TOKEN_LIMIT:
            return Pending("discard", self.current_player, total - TOKEN_LIMIT)
        return None

    def taken_cards(self) -> set[str]:
        """Named jewel cards no longer in the pyramid or a deck: bought or reserved by anyone."""
        taken = {o.card for p in self.players for o in p.cards}
        taken.update(r.card for p in self.players for r in p.reserved if r.card)
        return taken

    def cards_on_table(self, level: int) -> int:
        """Cards of ``level`` still in the pyramid or its deck (D-1.2, D-6): 30/24/13 minus the
        cards of that level bought or reserved (named or secret), by anyone."""
        jewels = catalog.jewels()
        bought = sum(1 for p in self.players for o in p.cards if jewels[o.card].level == level)
        reserved = sum(1 for p in self.players for r in p.reserved if r.level == level)  # named or secret
        return LEVEL_SIZES[level] - bought - reserved

    def deck_left(self, level: int) -> int:
        """Cards left in a level's deck (D-6): its size, minus face-up slots, bought and reserved.

        Negative once the deck is out and pyramid slots stay empty."""
        return self.cards_on_table(level) - FACE_UP[level]


# ---------------------------------------------------------------------------------- helpers

#: Field names of the dataclasses ``_replace`` copies (all set by ``__init__``, no ``__post_init__``).
_FIELDS: dict[type, frozenset[str]] = {cls: frozenset(f.name for f in fields(cls)) for cls in (DuelState, Player)}
#: Player changes that invalidate the derived totals cached by ``Player._totals``.
_CARD_FIELDS = frozenset(("cards", "royals"))


def _replace(obj: Any, **changes: Any) -> Any:
    """``dataclasses.replace`` for a ``DuelState`` or ``Player``, without re-running ``__init__``.

    These frozen dataclasses have no ``__post_init__`` and no ``init=False`` field, so a copy of
    the instance ``__dict__`` with ``changes`` applied is the same value ``replace`` builds;
    a player's cached totals are kept unless its cards or royal cards change.
    """
    cls = type(obj)
    names = _FIELDS.get(cls)
    if names is None or not names.issuperset(changes):
        return replace(obj, **changes)
    new = _new(cls)
    state = new.__dict__
    state.update(obj.__dict__)
    state.update(changes)
    if cls is Player and not _CARD_FIELDS.isdisjoint(changes):
        state.pop("_totals", None)
    return new


_new = object.__new__


def new_game(players: Sequence[str], first_player: int) -> DuelState:
    """The state at setup (D-1): all tokens on the board, the second player holds 1 privilege.

    ``players`` are the two names in seat order; ``first_player`` is 0 or 1.
    Raises ``RuleError("bad_setup")`` for anything else.
    """
    names = player_names(players, (SEATS,), "D-1")
    if type(first_player) is not int or first_player not in (0, 1):
        raise RuleError("bad_setup", N_("The first player is seat 0 or 1."), "D-1.3")
    second = 1 - first_player
    seats = tuple(Player(name=n, privileges=1 if i == second else 0) for i, n in enumerate(names))
    return DuelState(
        players=seats,  # type: ignore[arg-type]
        first_player=first_player,
        privileges_supply=PRIVILEGES - 1,
        board=TOKEN_TOTALS,
        bag=Tokens(),
        royals_available=tuple(catalog.royals()),
        current_player=first_player,
    )


def cost_after_bonuses(player: Player, card: JewelCard) -> Tokens:
    """What ``card`` costs ``player`` (D-7): printed cost minus bonuses, never below 0; pearls full."""
    bonuses = player._totals[2]
    cost = card.cost
    return Tokens(
        max(0, cost.white - bonuses["white"]),
        max(0, cost.blue - bonuses["blue"]),
        max(0, cost.green - bonuses["green"]),
        max(0, cost.red - bonuses["red"]),
        max(0, cost.black - bonuses["black"]),
        cost.pearl,
    )


def payment_for(state: DuelState, seat: int, card_id: str) -> tuple[Tokens, bool]:
    """The payment to pre-fill for ``seat`` buying ``card_id``: own tokens first, gold where needed.

    Returns ``(payment, affordable)``. Raises ``RuleError("unknown_card")`` (D-7).
    """
    player = state.players[seat]
    return suggest_payment(cost_after_bonuses(player, catalog.jewel(card_id)), player.tokens)


def joker_colors(player: Player) -> list[str]:
    """The colours a joker bought by ``player`` may join: those with a bonus already (D-7)."""
    return [c for c, n in player._totals[2].items() if n > 0]


def can_buy(player: Player, card: JewelCard) -> bool:
    """D-7: whether ``player`` can buy ``card`` now: its cost after bonuses covered by the tokens
    held (gold standing in for any), and for a joker a bonus colour for it to join."""
    _payment, affordable = suggest_payment(cost_after_bonuses(player, card), player.tokens)
    return affordable and (not card.is_joker or bool(joker_colors(player)))


#: The victory routes ``route_reach`` measures besides the colours (D-11.1, D-11.2).
REACH_ROUTES = ("prestige", "crowns")


def route_reach(state: DuelState, seat: int) -> dict[str, tuple[int, int]]:
    """D-11: how far the jewel cards still to come can take ``seat`` on each route, as
    ``{route: (most, all)}``: the most one card can bring and all of them together, for
    ``"prestige"``, ``"crowns"`` and each gem colour (the points that would count in it: cards of
    it, and jokers while ``seat`` holds a bonus of it to join, D-7). The cards still to come: those
    nobody has bought or named in a reserve, and those in ``seat``'s own reserve (a secret reserve,
    of either player, is one of the former). Royal cards (prestige by crowns) are left out. Pure:
    the near-win warning announces a route from as far as one card can bring it (7 crowns with the
    3-crown card still out, 7 red with a 4-point red card: one purchase wins), while enough is left."""
    player = state.players[seat]
    taken = state.taken_cards() - {r.card for r in player.reserved}
    joins = tuple(c for c, n in player.bonuses.items() if n > 0)
    most = dict.fromkeys(REACH_ROUTES + GEM_COLORS, 0)
    whole = dict(most)
    for cid, crowns, points, colors in _reach_gains():
        if cid in taken:
            continue
        if crowns:
            most["crowns"] = max(most["crowns"], crowns)
            whole["crowns"] += crowns
        if points:
            most["prestige"] = max(most["prestige"], points)
            whole["prestige"] += points
            for color in joins if colors is None else colors:  # a joker: the colours it may join
                most[color] = max(most[color], points)
                whole[color] += points
    return {route: (most[route], whole[route]) for route in most}


@cache
def _reach_gains() -> tuple[tuple[str, int, int, tuple[str, ...] | None], ...]:
    """Each jewel card as ``route_reach`` counts it: ``(id, crowns, prestige, colours)``, the
    colours its points count in (its own, none for a points-only card, None for a joker: those
    of the player's bonuses). Built once (the catalogue never changes): the near-win line asks
    ``route_reach`` for both players on every screen."""
    return tuple((cid, card.crowns, card.points,
                  None if card.is_joker else ((card.color,) if card.color in GEM_COLORS else ()))
                 for cid, card in catalog.jewels().items())


def winning_reserve(state: DuelState, seat: int) -> list[tuple[str, tuple[str, ...]]]:
    """D-11 with D-7: the named cards in ``seat``'s reserve it can pay for now whose purchase
    alone meets a victory route (a joker in the colour that serves best), as
    ``[(card id, routes met)]`` in reserve order; routes as in :meth:`Player.routes`. What an
    ability or a royal card would add is left out (a win it might bring is not promised). Pure:
    the near-win line asks it; a secret reserve is unknown until bought and never listed."""
    me = state.players[seat]
    out = []
    for r in me.reserved:
        if r.card is None:
            continue
        card = catalog.jewel(r.card)
        if not can_buy(me, card):
            continue
        colors = joker_colors(me) if card.is_joker else [card.color]
        best: tuple[str, ...] = ()
        for color in colors:
            routes = _replace(me, cards=me.cards + (Owned(card.id, color),)).routes()
            best = routes if len(routes) > len(best) else best
        if best:
            out.append((card.id, best))
    return out


def stealable(player: Player) -> list[str]:
    """Token kinds that can be stolen from ``player``: gems and pearls held, never gold (D-8)."""
    return [k for k in GEM_COLORS + (PEARL,) if player.tokens.get(k) > 0]


def _set_player(state: DuelState, seat: int, _state_changes: Mapping[str, Any] | None = None, **changes: Any) -> DuelState:
    """``state`` with ``changes`` made to one player (and ``_state_changes`` to the state itself)."""
    players = state.players
    player = _replace(players[seat], **changes)
    if seat == 0 and len(players) == 2:
        seats = (player, players[1])
    elif seat == 1 and len(players) == 2:
        seats = (players[0], player)
    else:
        listed = list(players)
        listed[seat] = player
        seats = tuple(listed)
    if _state_changes:
        return _replace(state, players=seats, **_state_changes)
    return _replace(state, players=seats)


def _alert(state: DuelState, kind: str, seat: int, template: str, **params: Any) -> DuelState:
    return _replace(state, alerts=state.alerts + (Alert(kind, seat, template, params),))


#: ``not_your_turn``'s sentence by the choice the player to act owes first (D-9, D-10), if any.
NOT_YOUR_TURN = {
    None: N_("It is %(name)s's turn."),
    "royal": N_("It is %(name)s's turn: %(name)s takes a royal card first."),
    "discard": N_("It is %(name)s's turn: %(name)s returns tokens first."),
}


def _name(state: DuelState, seat: int) -> str:
    return state.players[seat].name


def _gain_privilege(state: DuelState, seat: int, *, given: bool) -> DuelState:
    """D-3.2: a privilege from the supply, else from the opponent; nothing when holding all 3.

    ``given`` is True when the opponent's action causes the gain (D-4, D-5).
    """
    me, other = state.players[seat], state.players[1 - seat]
    if me.privileges >= PRIVILEGES:
        return state
    if state.privileges_supply > 0:
        state = _replace(state, privileges_supply=state.privileges_supply - 1)
        state = _set_player(state, seat, privileges=me.privileges + 1)
        if given:
            return _alert(
                state, "privilege_given", seat, N_("%(name)s gains a privilege from %(other)s's move."),
                name=me.name, other=other.name,
            )
        return _alert(state, "privilege_gained", seat, N_("%(name)s gains a privilege."), name=me.name)
    state = _set_player(state, 1 - seat, privileges=other.privileges - 1)
    state = _set_player(state, seat, privileges=me.privileges + 1)
    return _alert(
        state, "privilege_taken", seat, N_("%(name)s takes a privilege from %(other)s (the supply is empty)."),
        name=me.name, other=other.name,
    )


def _move(state: DuelState, seat: int, tokens: Tokens, *, from_board: bool = True, **changes: Any) -> DuelState:
    """Move ``tokens`` from the board to ``seat`` (``from_board``) or from ``seat`` to the bag
    (and make the state ``changes`` in the same step)."""
    me = state.players[seat]
    if from_board:
        return _set_player(state, seat, {"board": state.board - tokens, **changes}, tokens=me.tokens + tokens)
    return _set_player(state, seat, {"bag": state.bag + tokens, **changes}, tokens=me.tokens - tokens)


def _check_steal(state: DuelState, seat: int, steal: str | None) -> None:
    """D-8 steal_token, on a jewel card or a royal card (D-9 resolves the ability by D-8): required
    when the opponent holds a gem or pearl; never gold or a lacking kind. Refusals name D-8."""
    rule = "D-8"
    victim = state.players[1 - seat]
    if steal == GOLD:
        raise RuleError("gold_not_allowed", N_("Gold can never be stolen."), rule)
    options = stealable(victim)
    if steal is None:
        if options:
            raise RuleError(
                "steal_required", N_("Name the token to take from %(other)s."), rule, other=victim.name
            )
        return
    if steal not in options:
        raise RuleError(
            "steal_target", N_("%(other)s has no %(kind)s token to steal."), rule, other=victim.name, kind=steal
        )


def _steal(state: DuelState, seat: int, steal: str | None) -> DuelState:
    if steal is None:
        return state
    victim = 1 - seat
    state = _set_player(state, victim, tokens=state.players[victim].tokens - single(steal))
    return _set_player(state, seat, tokens=state.players[seat].tokens + single(steal))


def _require_board(state: DuelState, tokens: Tokens, rule: str) -> None:
    require_in_supply(state.board, tokens, rule)


def _require_main_phase(state: DuelState, rule: str) -> None:
    # Only reachable with nothing pending: a finished action with nothing pending ends the turn.
    if state.action_done:
        raise RuleError("bad_event", N_("This turn's action is already recorded."), rule)


# ---------------------------------------------------------------------------------- events


def _use_privileges(state: DuelState, ev: UsePrivileges) -> DuelState:
    """D-3.1: each privilege returned takes one gem or pearl from the board."""
    _require_main_phase(state, "D-3.1")
    me = state.players[ev.player]
    if state.replenished:
        raise RuleError(
            "privilege_after_replenish", N_("No privilege may be used after replenishing the board."), "D-3.1"
        )
    if ev.tokens.gold:
        raise RuleError("gold_not_allowed", N_("A privilege never takes gold."), "D-3.1")
    n = ev.tokens.total
    if n == 0:
        raise RuleError("bad_event", N_("Choose at least one token to take with a privilege."), "D-3.1")
    if n > me.privileges:
        raise RuleError(
            "not_enough_privileges", N_("Privileges to use: %(n)s; %(name)s holds %(held)s."), "D-3.1",
            name=me.name, held=me.privileges, n=n,
        )
    _require_board(state, ev.tokens, "D-3.1")
    return _set_player(
        state, ev.player, {"board": state.board - ev.tokens, "privileges_supply": state.privileges_supply + n},
        tokens=me.tokens + ev.tokens, privileges=me.privileges - n,
    )


def _replenish(state: DuelState, ev: Replenish) -> DuelState:
    """D-4: the bag empties onto the board and the opponent gains a privilege, at most once a
    turn: the bag is empty after it (``RuleError("bag_empty")``); tokens a correction put back in
    the bag since were missed by that replenish, and a second one would give a second privilege
    (``RuleError("replenish_twice")``)."""
    _require_main_phase(state, "D-4")
    if not state.bag:
        raise RuleError("bag_empty", N_("The bag is empty: there is nothing to replenish."), "D-4")
    if state.replenished:
        raise RuleError(
            "replenish_twice",
            N_("The board was already replenished this turn, so tokens left in the bag go onto it with Fix."),
            "D-4",
        )
    state = _replace(state, board=state.board + state.bag, bag=Tokens(), replenished=True)
    return _gain_privilege(state, 1 - ev.player, given=True)


def _take_tokens(state: DuelState, ev: TakeTokens) -> DuelState:
    """D-5: 1 to 3 gems or pearls; 3 of a colour or 2 pearls give the opponent a privilege."""
    _require_main_phase(state, "D-5")
    if ev.tokens.gold:
        raise RuleError("gold_not_allowed", N_("Gold is only taken by reserving a card."), "D-5")
    n = ev.tokens.total
    if n == 0:
        raise RuleError("bad_event", N_("Choose at least one token to take."), "D-5")
    if n > MAX_TAKE:
        raise RuleError("too_many_tokens", N_("Take at most 3 tokens, not %(n)s."), "D-5", n=n)
    _require_board(state, ev.tokens, "D-5")
    state = _move(state, ev.player, ev.tokens, action_done=True)
    if _take_gives_privilege(ev.tokens):
        state = _gain_privilege(state, 1 - ev.player, given=True)
    return state


def _take_gives_privilege(t: Tokens) -> bool:
    """D-5: a take of 3 tokens of one colour or of 2 pearls gives the opponent a privilege."""
    return MAX_TAKE in (t.white, t.blue, t.green, t.red, t.black) or t.pearl >= 2


def privilege_owed(event: Event) -> int | None:
    """The seat ``event`` gives a privilege to (D-3.2), or None: the opponent of a replenish
    (D-4) or of a take of 3 of one colour or 2 pearls (D-5); the buyer of a card, or the taker of
    a royal card, with the privilege ability (D-8, D-9). Whether that seat gains one (none past
    3) is the rules' when the event is applied; this only names who is owed it."""
    if isinstance(event, Replenish) or (isinstance(event, TakeTokens) and _take_gives_privilege(event.tokens)):
        return 1 - event.player
    if isinstance(event, Purchase) and catalog.jewel(event.card).ability == TAKE_PRIVILEGE:
        return event.player
    if isinstance(event, TakeRoyal) and catalog.royal(event.royal).ability == TAKE_PRIVILEGE:
        return event.player
    return None


def _reserve(state: DuelState, ev: Reserve) -> DuelState:
    """D-6: take 1 gold and reserve a named card or a deck's top card (secret)."""
    _require_main_phase(state, "D-6")
    card = catalog.jewel(ev.card) if ev.card is not None else None  # an unknown card is named first
    me = state.players[ev.player]
    if len(me.reserved) >= MAX_RESERVED:
        raise RuleError("reserve_limit", N_("%(name)s already holds 3 reserved cards."), "D-6", name=me.name)
    if not state.board.gold:
        raise RuleError("no_gold_on_board", N_("There is no gold on the board, so no card can be reserved."), "D-6")
    if card is not None:
        _require_in_pyramid(state, card, "D-6")
        entry = Reserved(level=card.level, card=card.id)
    else:
        assert ev.level is not None
        if state.deck_left(ev.level) <= 0:
            raise RuleError("deck_empty", N_("The level %(level)s deck is empty."), "D-6", level=ev.level)
        entry = Reserved(level=ev.level)
    gold = single(GOLD)
    return _set_player(
        state, ev.player, {"board": state.board - gold, "action_done": True},
        tokens=me.tokens + gold, reserved=me.reserved + (entry,),
    )


def _require_in_pyramid(state: DuelState, card: JewelCard, rule: str, buyer: int | None = None) -> None:
    """A face-up pyramid card (D-6, D-7): not bought or reserved, and its level still has a card
    out of the players' hands (once all 30/24/13 are bought or reserved, secret reserves
    included, no card of that level can be named from the pyramid).

    Raises ``RuleError("card_unavailable")``."""
    if _is_taken(state, card.id):
        raise taken_refusal(state, card.id, rule, buyer)
    players = state.players  # a cheap bound first: fewer cards out in all than the level holds
    if len(players[0].cards) + len(players[1].cards) + len(players[0].reserved) + len(players[1].reserved) \
            >= LEVEL_SIZES[card.level] and state.cards_on_table(card.level) <= 0:
        raise RuleError("card_unavailable", LEVEL_OUT, rule, level=card.level, size=LEVEL_SIZES[card.level])


#: Said when a card is named from a level whose every card is already bought or reserved.
LEVEL_OUT = N_("No level %(level)s card is left in the pyramid: all %(size)s are bought or reserved (secret reserves included).")


def _holders(state: DuelState) -> Holders:
    return ((p.name, [o.card for o in p.cards], p.reserved) for p in state.players)


def holder_of(state: DuelState, card_id: str) -> tuple[int, str, bool] | None:
    """Who bought or reserved jewel card ``card_id``: ``(seat, name, bought)``, or None (D-6, D-7;
    ``card_holder``)."""
    return card_holder(_holders(state), card_id)


def taken_refusal(state: DuelState, card_id: str, rule: str, buyer: int | None = None) -> RuleError:
    """The refusal of a jewel card a player already bought or reserved, naming who (D-6, D-7;
    ``buyer``: see ``card_taken``)."""
    return card_taken(_holders(state), card_id, rule, buyer)


def _is_taken(state: DuelState, card_id: str) -> bool:
    """``card_id in state.taken_cards()``, without building the set."""
    for p in state.players:
        for o in p.cards:
            if o.card == card_id:
                return True
        for r in p.reserved:
            if r.card == card_id:
                return True
    return False


def _reserved_index(state: DuelState, seat: int, card: JewelCard) -> int:
    """Which reserved entry a purchase from the reserve takes: the named card, else a secret one."""
    reserved = state.players[seat].reserved
    for i, r in enumerate(reserved):
        if r.card == card.id:
            return i
    if card.id in state.taken_cards():
        raise taken_refusal(state, card.id, "D-7")
    for i, r in enumerate(reserved):
        if r.card is None and r.level == card.level:
            return i
    raise RuleError(
        "not_reserved", N_("%(name)s has not reserved %(card)s."), "D-7", name=state.players[seat].name, card=card.id
    )


def _pay_and_take(
    state: DuelState, seat: int, payment: Tokens, owned: Owned, reserved: tuple[Reserved, ...]
) -> DuelState:
    """``payment`` moves from the seat to the bag, ``owned`` joins the seat's cards, its
    reserve becomes ``reserved`` and the action is done (one new state; the player's cached
    totals, when known, are carried over with the one card added)."""
    before = state.players[seat]
    state = _set_player(
        state, seat, {"bag": state.bag + payment, "action_done": True},
        tokens=before.tokens - payment, cards=before.cards + (owned,), reserved=reserved,
    )
    cached = before.__dict__.get("_totals")
    if cached is not None:
        state.players[seat].__dict__["_totals"] = _add_to_totals(cached, (owned,), ())
    return state


def _purchase(state: DuelState, ev: Purchase) -> DuelState:
    """D-7 then D-8: pay the cost after bonuses into the bag, take the card, resolve its ability."""
    _require_main_phase(state, "D-7")
    card = catalog.jewel(ev.card)
    me = state.players[ev.player]
    reserved = me.reserved
    if ev.from_reserve:
        i = _reserved_index(state, ev.player, card)
        reserved = reserved[:i] + reserved[i + 1 :]
    else:
        _require_in_pyramid(state, card, "D-7", ev.player)
    if card.is_joker:
        if not joker_colors(me):  # said first: no colour could be chosen
            # (one already reserved waits there: "it can still be reserved" read wrong, a tester)
            raise RuleError("joker_needs_bonus", N_(
                "A joker needs a card with a bonus already owned (a card with points only does not count); it waits "
                "in the reserve until then.") if ev.from_reserve else N_(
                "A joker needs a card with a bonus already owned (a card with points only does not count); it can "
                "still be reserved."), "D-7")
        if ev.wild_color is None:
            raise RuleError("bad_event", N_("Choose the colour the joker joins."), "D-7")
        if ev.wild_color not in joker_colors(me):
            raise RuleError(
                "joker_color", N_("%(name)s has no %(color)s card for the joker to join."), "D-7",
                name=me.name, color=ev.wild_color,
            )
        color = ev.wild_color
    else:
        if ev.wild_color is not None:
            raise RuleError("bad_event", N_("Only a joker takes a colour."), "D-7")
        color = card.color
    owed = cost_after_bonuses(me, card)
    if not payment_is_exact(owed, ev.payment):
        require_affordable(me.name, owed, me.tokens, "D-7")  # "cannot pay" says more than "not the cost"
        raise RuleError(
            "wrong_payment", N_("After bonuses, %(card)s costs %(owed)s (gold may replace any token), not %(paid)s."),
            "D-7", card=card.id, owed=owed, paid=ev.payment,
        )
    require_held(me.name, me.tokens, ev.payment, "D-7")
    if card.ability == STEAL_TOKEN:
        _check_steal(state, ev.player, ev.steal)
    elif ev.steal is not None:
        raise RuleError("bad_event", N_("There is no steal ability on %(card)s."), "D-8", card=card.id)

    crowns_before = me.crowns
    state = _pay_and_take(state, ev.player, ev.payment, Owned(card.id, color), reserved)
    if card.ability == TAKE_TOKEN and color != NO_COLOR and state.board.get(color):
        state = _move(state, ev.player, single(color))
    elif card.ability == TAKE_PRIVILEGE:
        state = _gain_privilege(state, ev.player, given=False)
    elif card.ability == STEAL_TOKEN:
        state = _steal(state, ev.player, ev.steal)
    elif card.ability == EXTRA_TURN:
        state = _replace(state, extra_turn=True)
    me = state.players[ev.player]
    if me.royal_due:
        state = _alert(
            state, "royal_due", ev.player, N_("%(name)s reaches %(crowns)s crowns (from %(before)s): choose a royal card."),
            name=me.name, crowns=me.crowns, before=crowns_before,
        )
    return state


def _take_royal(state: DuelState, ev: TakeRoyal) -> DuelState:
    """D-9: the royal card due after crossing 3 or 6 crowns, its ability at once."""
    royal = catalog.royal(ev.royal)  # an id no royal card has is a malformed entry, due or not
    pending = state.pending
    if pending is None or pending.kind != "royal":
        raise RuleError("no_royal_due", N_("No royal card is due."), "D-9")
    if royal.id not in state.royals_available:
        raise RuleError("royal_unavailable", N_("This royal card is already taken: %(card)s."), "D-9", card=royal.id)
    if royal.ability == STEAL_TOKEN:
        _check_steal(state, ev.player, ev.steal)
    elif ev.steal is not None:
        raise RuleError("bad_event", N_("There is no steal ability on %(card)s."), "D-9", card=royal.id)
    me = state.players[ev.player]
    state = _set_player(state, ev.player, royals=me.royals + (royal.id,))
    state = _replace(state, royals_available=tuple(r for r in state.royals_available if r != royal.id))
    if royal.ability == EXTRA_TURN:
        state = _replace(state, extra_turn=True)
    elif royal.ability == TAKE_PRIVILEGE:
        state = _gain_privilege(state, ev.player, given=False)
    elif royal.ability == STEAL_TOKEN:
        state = _steal(state, ev.player, ev.steal)
    return state


def _discard(state: DuelState, ev: Discard) -> DuelState:
    """D-10: return tokens of the player's choice to the bag until exactly 10 remain."""
    pending = state.pending
    if pending is None or pending.kind != "discard":
        raise RuleError("no_discard_due", N_("No discard is due."), "D-10")
    me = state.players[ev.player]
    require_held(me.name, me.tokens, ev.tokens, "D-10", returning=True)
    if ev.tokens.total != pending.count:
        raise RuleError(
            "wrong_discard", N_("To keep 10 tokens, return exactly %(count)s, not %(n)s."), "D-10",
            count=pending.count, n=ev.tokens.total,
        )
    return _move(state, ev.player, ev.tokens, from_board=False)


def _correct(state: DuelState, ev: Correction) -> DuelState:
    """A table fix of one player's tokens or privileges, the board or the bag (GAME-LOG.md).

    A correction never passes the turn by itself; but when it settles a pending discard (the
    player now holds 10 or fewer), the turn that was only waiting for that discard ends.
    """
    if ev.tokens is not None:
        state = _set_player(state, ev.player, tokens=ev.tokens)
    if ev.board is not None:
        state = _replace(state, board=ev.board)
    if ev.bag is not None:
        state = _replace(state, bag=ev.bag)
    if ev.privileges is not None:
        state = _set_player(state, ev.player, privileges=ev.privileges)
        supply = PRIVILEGES - sum(p.privileges for p in state.players)
        if supply < 0:
            other = state.players[1 - ev.player]
            raise RuleError(
                "invariant_broken",
                N_("Both players together can hold at most 3 privileges: %(other)s holds %(held)s, so %(name)s "
                   "can hold at most %(most)s (fix %(other)s's first)."), "D-3.3",
                other=other.name, held=other.privileges, name=state.players[ev.player].name,
                most=PRIVILEGES - other.privileges,
            )
        state = _replace(state, privileges_supply=supply)
    if ev.tokens is None and (ev.board is not None or ev.bag is not None):
        one, several = _FIX_ADVICE[(ev.board is not None, ev.bag is not None)]
        refuse_totals_off(_totals_off(state), one, several, "D-12")
    return state


#: The rule of each entry type, named by a malformed entry's refusal (``parse_event``); ``""``:
#: what is not an entry of a Duel turn at all (D-2).
ENTRY_RULES: dict[str, str] = {"": "D-2", "use_privileges": "D-3.1", "replenish": "D-4", "take_tokens": "D-5",
                               "reserve": "D-6", "purchase": "D-7", "take_royal": "D-9", "discard": "D-10",
                               "correction": "D-12", "steal": "D-8"}

HANDLERS: dict[type[Event], Callable[[DuelState, Any], DuelState]] = {
    UsePrivileges: _use_privileges,
    Replenish: _replenish,
    TakeTokens: _take_tokens,
    Reserve: _reserve,
    Purchase: _purchase,
    TakeRoyal: _take_royal,
    Discard: _discard,
}


def _totals_hold(state: DuelState) -> bool:
    """True when every total ``check_invariants`` checks holds (then it raises nothing).

    Spelled out for the two seats of Duel, with the token counts summed in C (``Tokens`` is a
    named tuple): it runs after every event of every replay.
    """
    players = state.players
    if len(players) != SEATS:
        return False
    p, q = players
    a, b, c, d = state.board, state.bag, p.tokens, q.tokens
    return (
        min(min(a), min(b), min(c), min(d), state.privileges_supply, p.privileges, q.privileges) >= 0
        and tuple(map(_add, map(_add, a, b), map(_add, c, d))) == TOKEN_TOTALS
        and state.privileges_supply + p.privileges + q.privileges == PRIVILEGES
        and len(p.reserved) <= MAX_RESERVED and len(q.reserved) <= MAX_RESERVED
        and len(p.royals) <= p._totals[4] and len(q.royals) <= q._totals[4]  # royals_earned
    )


_add = operator.add


def _totals_off(state: DuelState) -> list[tuple[str, int, int]]:
    """The token kinds whose totals do not hold (D-12): ``(kind, count, total)`` each."""
    off = []
    for kind in TOKEN_KINDS:
        counts = [state.board.get(kind), state.bag.get(kind)] + [p.tokens.get(kind) for p in state.players]
        if any(c < 0 for c in counts) or sum(counts) != TOKEN_TOTALS.get(kind):
            off.append((kind, sum(counts), TOKEN_TOTALS.get(kind)))
    return off



def fix_balancing(state: DuelState, ev: Correction) -> list[tuple[str, str, int, int]]:
    """D-12: the counts of the board, the bag or the corrected player's tokens, one at a time,
    that would make the totals of ``ev`` hold again, as ``[(part, kind, count now, count that
    balances)]`` (parts ``"board"``, ``"bag"``, ``"tokens"``; see ``common.balancing_counts``).
    Pure: the Fix sheet's one-tap "make it add up"."""
    me = state.players[ev.player]
    return balancing_counts({"board": ev.board, "bag": ev.bag, "tokens": ev.tokens},
                            {"board": state.board, "bag": state.bag, "tokens": me.tokens},
                            [p.tokens for p in state.players if p is not me], TOKEN_TOTALS, TOKEN_KINDS)

#: A fix that left a player's tokens alone and broke a total: what else to fix, by what it set
#: (the general refusal says "fix the board or the bag too", which was the part just fixed).
_FIX_ADVICE = {
    (True, False): (N_("The %(kind)s tokens would add up to %(n)s, not %(total)s: fix the bag or a player's tokens too."),
                    N_("Token totals would not hold (%(off)s): fix the bag or a player's tokens too.")),
    (False, True): (N_("The %(kind)s tokens would add up to %(n)s, not %(total)s: fix the board or a player's tokens too."),
                    N_("Token totals would not hold (%(off)s): fix the board or a player's tokens too.")),
    (True, True): (N_("The %(kind)s tokens would add up to %(n)s, not %(total)s: fix a player's tokens too."),
                   N_("Token totals would not hold (%(off)s): fix a player's tokens too.")),
}


def check_invariants(state: DuelState) -> None:
    """D-12: token totals per kind, privileges, reserve sizes, royal cards owned + due.

    Raises ``RuleError("invariant_broken")`` naming the token totals that do not hold (all of them), else the first other total that does not.
    """
    if _totals_hold(state):
        return  # the fast path: every check below would pass
    off = _totals_off(state)
    refuse_totals_off(off, N_("The %(kind)s tokens would add up to %(n)s, not %(total)s: fix the board or the bag too."),
                      N_("Token totals would not hold (%(off)s): fix the board or the bag too."), "D-12")
    privileges = [state.privileges_supply] + [p.privileges for p in state.players]
    if any(p < 0 for p in privileges) or sum(privileges) != PRIVILEGES:
        raise RuleError("invariant_broken", N_("The privileges would not add up to 3."), "D-3.3")
    for p in state.players:
        if len(p.reserved) > MAX_RESERVED:
            raise RuleError("invariant_broken", N_("A player can hold at most 3 reserved cards."), "D-12")
        if len(p.royals) > p.royals_earned:
            raise RuleError("invariant_broken", N_("More royal cards than crowns allow."), "D-12")


def _end_turn(state: DuelState) -> DuelState:
    """D-2 step 6: victory check for the player whose turn ends, then the next turn."""
    seat = state.current_player
    me = state.players[seat]
    prestige, crowns, _bonuses, points, _earned = me._totals
    near = prestige >= PRESTIGE_TO_WIN or crowns >= CROWNS_TO_WIN or max(points.values()) >= COLOR_POINTS_TO_WIN
    routes = me.routes() if near else ()
    if routes:
        state = _replace(state, winner=Winner(seat, routes))
        return _alert(state, "victory", seat, N_("%(name)s wins!"), name=me.name, routes=list(routes))
    nxt = seat if state.extra_turn else 1 - seat
    if state.extra_turn:
        state = _alert(state, "extra_turn", seat, N_("%(name)s plays an extra turn."), name=me.name)
    return _replace(
        state, current_player=nxt, turn=state.turn + 1, replenished=False, action_done=False, extra_turn=False,
        playing_extra_turn=state.extra_turn, round=state.round + (nxt == state.first_player and not state.extra_turn),
    )


def refuse_after_end(state: DuelState) -> None:
    """D-11: a won game takes no more entries. Raises ``RuleError("game_over")`` when ``state``
    has a winner, whatever the entry would have been (the contract's "any event after the game
    ended", also one that is no entry at all)."""
    if state.winner is not None:
        raise RuleError("game_over", N_("The game is over: no more entries (undo is still possible)."), "D-11")


def apply(state: DuelState, event: Event) -> DuelState:
    """Apply one table event (D-2 … D-11) and return the new state.

    The returned state's ``alerts`` are those this event raised. Raises ``RuleError`` (with the
    GAME-LOG.md code) when the event is not allowed; ``state`` is never changed.
    """
    refuse_after_end(state)
    before = state.pending
    if state.alerts:
        state = _replace(state, alerts=())
    if isinstance(event, Correction):
        if not 0 <= event.player < SEATS:
            raise RuleError("bad_event", N_("There is no such player."), "D-12")
        state = _correct(state, event)
    else:
        if event.player != state.current_player:
            # (what they owe first, when a prompt is theirs: the other phone shows it, the API does not)
            raise RuleError("not_your_turn", NOT_YOUR_TURN.get(before.kind if before else None, NOT_YOUR_TURN[None]),
                            "D-2", name=_name(state, state.current_player))
        handler = HANDLERS.get(type(event))
        if handler is None:
            raise RuleError("bad_event", N_("That entry does not exist in Splendor Duel."), "D-2")
        if before is not None:
            if before.kind == "royal" and not isinstance(event, TakeRoyal):
                raise RuleError("royal_required", N_("Choose the royal card first."), "D-9")
            if before.kind == "discard" and not isinstance(event, Discard):
                raise RuleError("discard_required", N_("Return tokens down to 10 first."), "D-10")
        state = handler(state, event)
    if not _totals_hold(state):  # the fast path of check_invariants
        check_invariants(state)
    after = state.pending
    if after is not None and after.kind == "discard" and after != before:
        state = _alert(
            state, "discard_due", after.player, N_("%(name)s holds %(total)s tokens: return %(count)s."),
            name=_name(state, after.player), total=state.players[after.player].tokens.total, count=after.count,
        )
    if state.action_done and after is None:
        state = _end_turn(state)
    return state


def start(setup: Mapping[str, Any]) -> DuelState:
    """The state at setup from a setup mapping (``players``, ``first_player``); see ``new_game``."""
    return new_game(setup.get("players"), setup.get("first_player"))  # type: ignore[arg-type]


def replay(setup: Mapping[str, Any], events: Iterable[Event | Mapping[str, Any]]) -> DuelState:
    """Fold a whole log: ``setup`` holds ``players`` and ``first_player``; events as objects or dicts.

    Raises ``RuleError`` at the first event that is refused.
    """
    state = start(setup)
    for ev in events:
        state = apply(state, ev if isinstance(ev, Event) else parse_event(ev, SEATS))
    return state


def steps(setup: Mapping[str, Any], events: Iterable[Event]) -> Iterable[tuple[Event, DuelState, DuelState]]:
    """Yield ``(event, state_before, state_after)`` for each event of a log (for the game log view)."""
    state = start(setup)
    for ev in events:
        after = apply(state, ev)
        yield ev, state, after
        state = after


def to_json(
    state: DuelState, translate: Callable[[str, Mapping[str, Any]], str] | None = None
) -> dict[str, Any]:
    """The state as GAME-LOG.md's JSON (without ``id`` and ``version``, which the service adds).

    ``translate(template, params)`` renders alert messages; English by default.
    """
    render = translate or (lambda t, p: t % dict(p))
    pending = state.pending
    return {
        "game": GAME,
        "status": state.status,
        "turn": state.turn,
        "current_player": state.current_player,
        "first_player": state.first_player,
        "playing_extra_turn": state.playing_extra_turn and not state.winner,
        "pending": None
        if pending is None
        else {"kind": pending.kind, "player": pending.player, **({"count": pending.count} if pending.kind == "discard" else {})},
        "players": [
            {
                "name": p.name,
                "prestige": p.prestige,
                "crowns": p.crowns,
                "color_points": p.color_points,
                "best_color": p.best_color[0],
                "bonuses": p.bonuses,
                "tokens": p.tokens.to_dict(),
                "token_total": p.tokens.total,
                "privileges": p.privileges,
                "reserved": [r.to_json() for r in p.reserved],
                "royals": sorted(p.royals),
                "cards": sorted(o.card for o in p.cards),
                "jokers": {o.card: o.color for o in p.cards if o.jewel.is_joker},
                "extra_turn": state.extra_turn and i == state.current_player and not state.winner,
            }
            for i, p in enumerate(state.players)
        ],
        "privileges_supply": state.privileges_supply,
        "board": state.board.to_dict(),
        "bag": state.bag.to_dict(),
        "royals_available": list(state.royals_available),
        "winner": None if state.winner is None else {"player": state.winner.player, "routes": list(state.winner.routes)},
        "alerts": [{"kind": a.kind, "player": a.player, "message": render(a.template, a.params)} for a in state.alerts],
    }
