"""Splendor (2–4 players): the state of a game and the one function that applies a table event to it.

The same public shape as ``duel``: ``new_game``, ``apply(state, event) -> state`` (pure: a new
state comes back or ``RuleError`` is raised and nothing changes), ``replay``, ``steps``,
``to_json``, ``check_invariants``. Every rule id below refers to ``RULES.md`` (S-1 … S-4).

The app sees no shuffled decks: any development card not yet bought or reserved may be on the
table, and a deck's top card is reserved as a secret ``{"level": n}`` named when bought.
"""

from __future__ import annotations

import json

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from .common import (Alert, Holders, Reserved, balancing_counts, card_holder, card_taken, require_affordable, require_held,
                     require_in_supply)
from . import catalog
from .catalog import DevelopmentCard, Noble
from .errors import N_, RuleError, refuse_totals_off
from .events import Correction, Discard, Event, Pass, Purchase, Reserve, TakeNoble, TakeTokens, parse_event
from .text import player_names
from .tokens import GEM_COLORS, GOLD, PEARL, Tokens, payment_is_exact, single, suggest_payment

GAME = "splendor"
#: S-1: the game is played by 2 to 4 players.
MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: S-1: gems per colour in the supply, by number of players.
GEMS_PER_COLOR = {2: 4, 3: 5, 4: 7}
#: S-1: gold tokens, whatever the number of players.
GOLD_TOKENS = 5
#: S-1: nobles on display = players + this.
EXTRA_NOBLES = 1
#: The refusals of a setup's nobles (S-1): an unknown noble, or not players + 1 different ones.
#: A form shows them at its nobles rather than at its top.
NOBLE_REFUSALS = (N_("There is no noble %(id)s: nobles are %(first)s to %(last)s."),
                  N_("Enter the %(n)s different nobles on display (players + 1)."))
#: S-2.1: gems of different colours in one take.
TAKE_THREE = 3
#: S-2.2: gems in a take of one colour, and the supply of that colour it needs beforehand.
TAKE_TWO = 2
TAKE_TWO_MIN_SUPPLY = 4
#: S-2.3: most reserved cards a player may hold.
MAX_RESERVED = 3
#: S-3.1: tokens (gold included) a player may keep at the end of a turn.
TOKEN_LIMIT = 10
#: S-4: prestige that starts the final round.
PRESTIGE_TO_END = 15
#: S-1 / S-2.3: development cards per level, and the face-up cards per level.
LEVEL_SIZES = {1: 40, 2: 30, 3: 20}
FACE_UP = 4
#: Token kinds of Splendor (no pearl), in the order every screen and export uses.
SPLENDOR_KINDS: tuple[str, ...] = GEM_COLORS + (GOLD,)
#: Longest player name accepted at setup.


def token_totals(seats: int) -> Tokens:
    """Every token of a game of ``seats`` players (S-1): 4/5/7 gems per colour, 5 gold, no pearl."""
    return Tokens(**dict.fromkeys(GEM_COLORS, GEMS_PER_COLOR[seats]), gold=GOLD_TOKENS)


def development_card(card_id: object) -> DevelopmentCard:
    """The development card with this id. Raises ``RuleError("unknown_card")`` for any other value."""
    card = catalog.development_cards().get(card_id) if isinstance(card_id, str) else None
    if card is None:
        raise RuleError("unknown_card", N_("There is no development card %(id)s."), "S-1", id=str(card_id)[:20])
    return card


def _as_typed(value: object) -> str:
    """A wrong id as the log spells it (``["x"]``, not Python's ``['x']``), at most 20 characters."""
    if isinstance(value, str):
        return value[:20]
    try:
        return json.dumps(value, ensure_ascii=False)[:20]
    except (TypeError, ValueError):
        return str(value)[:20]


def noble(noble_id: object) -> Noble:
    """The noble with this id. Raises ``RuleError("unknown_card")`` for any other value."""
    tile = catalog.nobles().get(noble_id) if isinstance(noble_id, str) else None
    if tile is None:
        raise RuleError("unknown_card", N_("There is no noble %(noble)s."), "S-1", noble=str(noble_id)[:20])
    return tile


@dataclass(frozen=True)
class Player:
    """One seat: name, tokens held, development cards bought (ids), reserve and nobles (ids).

    Prestige and bonuses are derived from the cards and nobles, never stored.
    """

    name: str
    tokens: Tokens = Tokens()
    cards: tuple[str, ...] = ()
    reserved: tuple[Reserved, ...] = ()
    nobles: tuple[str, ...] = ()

    @property
    def prestige(self) -> int:
        """Printed points of the cards bought plus the nobles' points (S-3.2, S-4)."""
        cards = catalog.development_cards()
        tiles = catalog.nobles()
        return sum(cards[c].points for c in self.cards) + sum(tiles[n].points for n in self.nobles)

    @property
    def bonuses(self) -> dict[str, int]:
        """One bonus per card bought, in the card's colour (S-2.4)."""
        out = dict.fromkeys(GEM_COLORS, 0)
        cards = catalog.development_cards()
        for c in self.cards:
            out[cards[c].color] += 1
        return out

    def qualifies_for(self, tile: Noble) -> bool:
        """True when the bonuses (never tokens) meet every requirement of ``tile`` (S-3.2)."""
        bonuses = self.bonuses
        return all(bonuses[c] >= tile.requires.get(c) for c in GEM_COLORS)


@dataclass(frozen=True)
class Pending:
    """The one choice the table owes next: ``discard`` (``count`` tokens), then ``noble`` (``choices``)."""

    kind: str
    player: int
    count: int = 0
    choices: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "player"}`` plus ``count`` (discard) or ``choices`` (noble)."""
        out: dict[str, Any] = {"kind": self.kind, "player": self.player}
        if self.kind == "discard":
            out["count"] = self.count
        else:
            out["choices"] = list(self.choices)
        return out


@dataclass(frozen=True)
class Winner:
    """The winning seats (several on a shared win), their prestige and purchased cards (S-4)."""

    players: tuple[int, ...]
    prestige: int
    cards: int

    def to_json(self) -> dict[str, Any]:
        """``{"players": [seats], "prestige": n, "cards": n}`` (GAME-LOG.md)."""
        return {"players": list(self.players), "prestige": self.prestige, "cards": self.cards}


@dataclass(frozen=True)
class SplendorState:
    """The whole position of a Splendor game after some events.

    ``board`` is the supply (gems and gold). ``turn`` counts every player's turns together from
    1; ``current_player`` is the seat to act (after the end, the seat that acted last).
    ``action_done`` says the turn under way has had its action (S-2) and only waits for its
    discard or noble choice (S-3). ``final_round`` is true once someone ended a turn with 15
    prestige (S-4).
    """

    players: tuple[Player, ...]
    first_player: int
    board: Tokens
    nobles_available: tuple[str, ...]
    current_player: int
    turn: int = 1
    action_done: bool = False
    final_round: bool = False
    winner: Winner | None = None
    alerts: tuple[Alert, ...] = ()

    game = GAME

    @property
    def round(self) -> int:
        """The round the table is in, from 1: every player plays once a round, from the first
        player on (S-4; there are no extra turns)."""
        return (self.turn - 1) // len(self.players) + 1

    @property
    def status(self) -> str:
        """``active`` or ``finished``."""
        return "finished" if self.winner else "active"

    @property
    def token_totals(self) -> Tokens:
        """Every token of this game (S-1)."""
        return token_totals(len(self.players))

    @property
    def last_seat(self) -> int:
        """The seat just before the start player: the round ends with its turn (S-4)."""
        return (self.first_player - 1) % len(self.players)

    @property
    def ends_with_this_turn(self) -> bool:
        """True while the last seat plays its turn of the final round, or reaches 15 on it with a
        choice still owed: the game ends once that turn does (S-4)."""
        if self.winner is not None or self.current_player != self.last_seat:
            return False
        return self.final_round or (self.action_done and self.players[self.current_player].prestige >= PRESTIGE_TO_END)

    @property
    def pending(self) -> Pending | None:
        """The discard, then the noble choice, the player to act owes (S-3.1, S-3.2)."""
        if self.winner or not self.action_done:
            return None
        seat = self.current_player
        me = self.players[seat]
        if me.tokens.total > TOKEN_LIMIT:
            return Pending("discard", seat, count=me.tokens.total - TOKEN_LIMIT)
        choices = self.eligible_nobles(seat)
        if len(choices) > 1:
            return Pending("noble", seat, choices=choices)
        return None

    def eligible_nobles(self, seat: int) -> tuple[str, ...]:
        """Nobles on display whose requirements ``seat``'s bonuses meet (S-3.2), in display order."""
        me = self.players[seat]
        tiles = catalog.nobles()
        return tuple(n for n in self.nobles_available if me.qualifies_for(tiles[n]))

    def taken_cards(self) -> set[str]:
        """Named development cards no longer on the table: bought or reserved by anyone."""
        taken = {c for p in self.players for c in p.cards}
        taken.update(r.card for p in self.players for r in p.reserved if r.card)
        return taken

    def secret_reserved(self, level: int) -> int:
        """Secret reserved cards of ``level``, all players together."""
        return sum(1 for p in self.players for r in p.reserved if r.card is None and r.level == level)

    def cards_on_table(self, level: int) -> int:
        """Cards of ``level`` still face up or in the deck: its size minus bought and reserved."""
        cards = catalog.development_cards()
        named = sum(1 for c in self.taken_cards() if cards[c].level == level)
        return LEVEL_SIZES[level] - named - self.secret_reserved(level)

    def deck_left(self, level: int) -> int:
        """Cards left in a level's deck (S-2.3): 40/30/20 minus 4 face up minus bought or reserved.

        Negative once the deck is out and face-up slots stay empty.
        """
        return self.cards_on_table(level) - FACE_UP


# ---------------------------------------------------------------------------------- setup


def new_game(players: Sequence[str], first_player: int, nobles: Sequence[str] | None = None) -> SplendorState:
    """The state at setup (S-1): the supply holds every token, ``nobles`` are on display.

    ``players`` are 2–4 names in seat order; ``first_player`` is one of their seats;
    ``nobles`` are the ids on display, exactly players + 1, distinct and known.
    Raises ``RuleError("bad_setup")`` for anything else.
    """
    names = player_names(players, tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)), "S-1")
    if type(first_player) is not int or not 0 <= first_player < len(names):
        raise RuleError("bad_setup", N_("The start player is one of the %(n)s seats."), "S-1", n=len(names))
    wanted = len(names) + EXTRA_NOBLES
    unknown = [n for n in nobles if not (isinstance(n, str) and n in catalog.nobles())] \
        if isinstance(nobles, (list, tuple)) else []
    if unknown:
        known = sorted(catalog.nobles())
        raise RuleError("bad_setup", NOBLE_REFUSALS[0], "S-1", id=_as_typed(unknown[0]), first=known[0], last=known[-1])
    if (
        not isinstance(nobles, (list, tuple))
        or len(nobles) != wanted
        or not all(isinstance(n, str) and n in catalog.nobles() for n in nobles)
        or len(set(nobles)) != wanted
    ):
        raise RuleError("bad_setup", NOBLE_REFUSALS[1], "S-1", n=wanted)
    return SplendorState(
        players=tuple(Player(name=n) for n in names),
        first_player=first_player,
        board=token_totals(len(names)),
        nobles_available=tuple(nobles),
        current_player=first_player,
    )


# ---------------------------------------------------------------------------------- helpers


def cost_after_bonuses(player: Player, card: DevelopmentCard) -> Tokens:
    """What ``card`` costs ``player`` (S-2.4): printed cost minus bonuses per colour, never below 0."""
    bonuses = player.bonuses
    return Tokens(**{c: max(0, card.cost.get(c) - bonuses[c]) for c in GEM_COLORS})


def payment_for(state: SplendorState, seat: int, card_id: str) -> tuple[Tokens, bool]:
    """The payment to pre-fill for ``seat`` buying ``card_id``: own gems first, gold where needed.

    Returns ``(payment, affordable)``. Raises ``RuleError("unknown_card")`` (S-2.4).
    """
    player = state.players[seat]
    return suggest_payment(cost_after_bonuses(player, development_card(card_id)), player.tokens)


def colors_in_supply(state: SplendorState) -> list[str]:
    """Gem colours with at least one token in the supply (S-2.1), never gold."""
    return _colors_in(state.board)


def _colors_in(board: Tokens) -> list[str]:
    return [c for c in GEM_COLORS if board.get(c) > 0]


def two_alike_allowed(board: Tokens) -> bool:
    """S-2.2: whether some colour has the 4 gems in the supply that taking 2 of it needs."""
    return any(board.get(c) >= TAKE_TWO_MIN_SUPPLY for c in GEM_COLORS)


def most_to_take(board: Tokens) -> int:
    """The most gems one take from the supply ``board`` can hold: 3 of different colours, 1 each
    of the colours left when fewer than 3 are (S-2.1's ruling), 2 alike from 4 (S-2.2); 0 when
    no gem is left."""
    return min(TAKE_THREE, max(len(_colors_in(board)), TAKE_TWO if two_alike_allowed(board) else 0))


def _set_player(state: SplendorState, seat: int, **changes: Any) -> SplendorState:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def _alert(state: SplendorState, kind: str, seat: int, template: str, **params: Any) -> SplendorState:
    return replace(state, alerts=state.alerts + (Alert(kind, seat, template, params),))


#: ``not_your_turn``'s sentence by the choice the player to act owes first (S-3.1, S-3.2), if any.
NOT_YOUR_TURN = {
    None: N_("It is %(name)s's turn."),
    "discard": N_("It is %(name)s's turn: %(name)s returns tokens first."),
    "noble": N_("It is %(name)s's turn: %(name)s chooses the noble who visits first."),
}


def _name(state: SplendorState, seat: int) -> str:
    return state.players[seat].name


def _take(state: SplendorState, seat: int, tokens: Tokens) -> SplendorState:
    """Move ``tokens`` from the supply to ``seat``."""
    state = replace(state, board=state.board - tokens)
    return _set_player(state, seat, tokens=state.players[seat].tokens + tokens)


def _give_back(state: SplendorState, seat: int, tokens: Tokens) -> SplendorState:
    """Move ``tokens`` from ``seat`` back to the supply (S-2.4, S-3.1)."""
    state = replace(state, board=state.board + tokens)
    return _set_player(state, seat, tokens=state.players[seat].tokens - tokens)


def _no_pearl(tokens: Tokens, rule: str) -> None:
    if tokens.pearl:
        raise RuleError("bad_event", N_("Splendor has no pearls."), rule)


def _require_held(state: SplendorState, seat: int, tokens: Tokens, rule: str, *, returning: bool = False) -> None:
    me = state.players[seat]
    require_held(me.name, me.tokens, tokens, rule, returning=returning)


def _holders(state: SplendorState) -> Holders:
    return ((p.name, p.cards, p.reserved) for p in state.players)


def holder_of(state: SplendorState, card_id: str) -> tuple[int, str, bool] | None:
    """Who bought or reserved development card ``card_id``: ``(seat, name, bought)``, or None
    (S-2.3, S-2.4; ``card_holder``)."""
    return card_holder(_holders(state), card_id)


def taken_refusal(state: SplendorState, card_id: str, rule: str, buyer: int | None = None) -> RuleError:
    """The refusal of a development card a player already bought or reserved, naming who (S-2.3,
    S-2.4; ``buyer``: see ``card_taken``)."""
    return card_taken(_holders(state), card_id, rule, buyer)


def _require_on_table(state: SplendorState, card: DevelopmentCard, rule: str, buyer: int | None = None) -> None:
    """A face-up card: not bought or reserved, and its level still has a card on the table.

    Raises ``RuleError("card_unavailable")``."""
    if card.id in state.taken_cards():
        raise taken_refusal(state, card.id, rule, buyer)
    if state.cards_on_table(card.level) <= 0:
        raise RuleError("card_unavailable", LEVEL_OUT, rule, level=card.level, size=LEVEL_SIZES[card.level])


#: Said when a card is named from a level whose every card is already bought or reserved.
LEVEL_OUT = N_("No level %(level)s card is left on the table: all %(size)s are bought or reserved (secret reserves included).")


# ---------------------------------------------------------------------------------- events


def can_add_to_take(board: Tokens, chosen: Tokens, color: str) -> bool:
    """Whether one more ``color`` gem can join the gems ``chosen`` so far, the pick still on its
    way to a legal take of the ``board`` (the supply): 3 of different colours (S-2.1), or 2 of
    one colour while the supply holds at least 4 (S-2.2); never gold. Neither token bag is
    changed."""
    if color not in GEM_COLORS:
        return False
    more = chosen + Tokens.of({color: 1})
    if more.total > TAKE_THREE or not board.covers(more):
        return False
    if more.get(color) == 1:
        return all(more.get(k) <= 1 for k in more.kinds())
    return more.total == TAKE_TWO and board.get(color) >= TAKE_TWO_MIN_SUPPLY


def _take_tokens(state: SplendorState, ev: TakeTokens) -> SplendorState:
    """S-2.1 / S-2.2: 3 gems of different colours, or 2 of one colour with 4 in the supply before.

    Fewer than 3 different gems only while fewer than 3 colours are in the supply; never gold.
    """
    tokens = ev.tokens
    if tokens.gold:
        raise RuleError("gold_not_allowed", N_("Gold is only taken by reserving a card."), "S-2")
    _no_pearl(tokens, "S-2.1")
    n = tokens.total
    if n == 0:
        raise RuleError("bad_event", N_("Choose the gems to take."), "S-2.1")
    if n > TAKE_THREE:
        raise RuleError("too_many_tokens", N_("Take at most 3 gems, not %(n)s."), "S-2.1", n=n)
    kinds = tokens.kinds()
    if len(kinds) == 1 and n == TAKE_TWO:
        color = kinds[0]
        if state.board.get(color) < TAKE_TWO_MIN_SUPPLY:
            raise RuleError(
                "take_two_needs_four",
                N_("Two %(color)s gems may be taken only with at least 4 in the supply (there are %(n)s)."),
                "S-2.2", color=color, n=state.board.get(color),
            )
    elif len(kinds) != n:
        raise RuleError(
            "take_three_distinct", N_("Take gems of different colours, or exactly 2 of one colour."), "S-2.1"
        )
    elif not state.board.covers(tokens):
        require_in_supply(state.board, tokens, "S-2.1", splendor=True)
    elif n < TAKE_THREE and len(colors_in_supply(state)) >= TAKE_THREE:
        raise RuleError(
            "take_three_count",
            N_("Take 3 gems of different colours: fewer only when fewer than 3 colours are left in the supply."),
            "S-2.1",
        )
    state = _take(state, ev.player, tokens)
    return replace(state, action_done=True)


def _reserve(state: SplendorState, ev: Reserve) -> SplendorState:
    """S-2.3: reserve a face-up card or a deck's top card (secret), and 1 gold if any is left."""
    card = development_card(ev.card) if ev.card is not None else None  # an unknown card is named first
    me = state.players[ev.player]
    if len(me.reserved) >= MAX_RESERVED:
        raise RuleError("reserve_limit", N_("%(name)s already holds 3 reserved cards."), "S-2.3", name=me.name)
    if card is not None:
        _require_on_table(state, card, "S-2.3")
        entry = Reserved(level=card.level, card=card.id)
    else:
        assert ev.level is not None
        if state.deck_left(ev.level) <= 0:
            raise RuleError("deck_empty", N_("The level %(level)s deck is empty."), "S-2.3", level=ev.level)
        entry = Reserved(level=ev.level)
    if state.board.gold:
        state = _take(state, ev.player, single(GOLD))
    state = _set_player(state, ev.player, reserved=me.reserved + (entry,))
    return replace(state, action_done=True)


def _reserved_index(state: SplendorState, seat: int, card: DevelopmentCard) -> int:
    """Which reserved entry a purchase from the reserve takes: the named card, else a secret one."""
    reserved = state.players[seat].reserved
    for i, r in enumerate(reserved):
        if r.card == card.id:
            return i
    if card.id in state.taken_cards():
        raise taken_refusal(state, card.id, "S-2.4")
    for i, r in enumerate(reserved):
        if r.card is None and r.level == card.level:
            return i
    raise RuleError(
        "not_reserved", N_("%(name)s has not reserved %(card)s."), "S-2.4", name=state.players[seat].name, card=card.id
    )


def _purchase(state: SplendorState, ev: Purchase) -> SplendorState:
    """S-2.4: pay the cost after bonuses (gold wild) back to the supply and take the card."""
    if ev.wild_color is not None or ev.steal is not None:
        raise RuleError("bad_event", N_("Splendor cards have no joker colour and no steal."), "S-2.4")
    card = development_card(ev.card)
    me = state.players[ev.player]
    reserved = me.reserved
    if ev.from_reserve:
        i = _reserved_index(state, ev.player, card)
        reserved = reserved[:i] + reserved[i + 1 :]
    else:
        _require_on_table(state, card, "S-2.4", ev.player)
    _no_pearl(ev.payment, "S-2.4")
    owed = cost_after_bonuses(me, card)
    if not payment_is_exact(owed, ev.payment):
        require_affordable(me.name, owed, me.tokens, "S-2.4")  # "cannot pay" says more than "not the cost"
        raise RuleError(
            "wrong_payment", N_("After bonuses, %(card)s costs %(owed)s (gold may replace any gem), not %(paid)s."),
            "S-2.4", card=card.id, owed=owed, paid=ev.payment,
        )
    _require_held(state, ev.player, ev.payment, "S-2.4")
    state = _give_back(state, ev.player, ev.payment)
    state = _set_player(state, ev.player, cards=me.cards + (card.id,), reserved=reserved)
    return replace(state, action_done=True)


def _discard(state: SplendorState, ev: Discard) -> SplendorState:
    """S-3.1: return tokens of the player's choice (gold included) to the supply until exactly 10 remain."""
    pending = state.pending
    if pending is None or pending.kind != "discard":
        raise RuleError("no_discard_due", N_("No discard is due."), "S-3.1")
    _no_pearl(ev.tokens, "S-3.1")
    _require_held(state, ev.player, ev.tokens, "S-3.1", returning=True)
    if ev.tokens.total != pending.count:
        raise RuleError(
            "wrong_discard", N_("To keep 10 tokens, return exactly %(count)s, not %(n)s."), "S-3.1",
            count=pending.count, n=ev.tokens.total,
        )
    return _give_back(state, ev.player, ev.tokens)


def _visit(state: SplendorState, seat: int, noble_id: str) -> SplendorState:
    """S-3.2: ``noble_id`` leaves the display for ``seat``'s nobles."""
    state = _set_player(state, seat, nobles=state.players[seat].nobles + (noble_id,))
    state = replace(state, nobles_available=tuple(n for n in state.nobles_available if n != noble_id))
    return _alert(
        state, "noble_visit", seat, N_("Noble %(noble)s visits %(name)s (+%(points)s prestige)."),
        noble=noble_id, name=_name(state, seat), points=catalog.nobles()[noble_id].points,
    )


def _take_noble(state: SplendorState, ev: TakeNoble) -> SplendorState:
    """S-3.2: the noble chosen when several qualify."""
    tile = noble(ev.noble)  # an id no noble has is a malformed entry, due or not
    pending = state.pending
    if pending is None or pending.kind != "noble":
        raise RuleError("no_noble_due", N_("No noble choice is due."), "S-3.2")
    if tile.id not in state.nobles_available:
        raise RuleError(
            "noble_not_eligible", N_("Noble %(noble)s is not on display in this game: choose one of %(choices)s."),
            "S-3.2", noble=tile.id, choices=", ".join(pending.choices),
        )
    if tile.id not in pending.choices:
        raise RuleError(
            "noble_not_eligible", N_("Noble %(noble)s cannot visit %(name)s now: choose one of %(choices)s."),
            "S-3.2", noble=tile.id, name=_name(state, ev.player), choices=", ".join(pending.choices),
        )
    return _visit(state, ev.player, tile.id)


def _correct(state: SplendorState, ev: Correction) -> SplendorState:
    """A table fix of one player's tokens and/or the supply (GAME-LOG.md); totals must still hold.

    Splendor has no bag and no privileges. A correction never passes the turn by itself; but
    when it settles a pending discard, the turn that was only waiting for it goes on (S-3).
    """
    if ev.privileges is not None or ev.bag is not None:
        raise RuleError("bad_event", N_("Splendor has no privileges and no bag: correct tokens or the supply."), "S-1")
    if any(bag is not None and bag.pearl for bag in (ev.tokens, ev.board)):
        raise RuleError("bad_event", N_("Splendor has no pearls: correct the gems and gold only."), "S-1")
    if ev.tokens is not None:
        state = _set_player(state, ev.player, tokens=ev.tokens)
    if ev.board is not None:
        state = replace(state, board=ev.board)
        if ev.tokens is None:  # the supply alone fixed: the rest of a total is in the players' hands
            refuse_totals_off(_totals_off(state), N_("The %(kind)s tokens would add up to %(n)s, not %(total)s: "
                                                     "fix a player's tokens too."),
                              N_("Token totals would not hold (%(off)s): fix a player's tokens too."), "S-1")
    return state


def _pass(state: SplendorState, ev: Pass) -> SplendorState:
    """S-2 ruling: a player who can take no action passes. Only when no gem is in the supply
    (S-2.1/S-2.2 impossible), they hold 3 reserved cards (S-2.3 impossible) and can pay for none
    of those named (S-2.4); that they can buy no face-up card, nor a secret reserve, is the
    table's word (the app sees neither)."""
    me = state.players[ev.player]
    if any(state.board.get(c) for c in GEM_COLORS):
        raise RuleError("pass_not_allowed", N_("%(name)s can still take gems: passing is only for a player who "
                                               "can take no action."), "S-2.1", name=me.name)
    if len(me.reserved) < MAX_RESERVED:
        raise RuleError("pass_not_allowed", N_("%(name)s can still reserve a card: passing is only for a player "
                                               "who can take no action."), "S-2.3", name=me.name)
    for r in me.reserved:  # S-2.4: a reserved card the player can pay for is an action they have
        if r.card and suggest_payment(cost_after_bonuses(me, development_card(r.card)), me.tokens)[1]:
            raise RuleError("pass_not_allowed", N_("%(name)s can buy a reserved card, %(card)s: passing is only "
                                                   "for a player who can take no action."), "S-2", name=me.name,
                            card=r.card)
    return replace(state, action_done=True)


#: The rule of each entry type, named by a malformed entry's refusal (``parse_event``); ``""``:
#: what is not an entry of a Splendor turn at all (S-2). A correction fixes the supply of S-1.
ENTRY_RULES: dict[str, str] = {"": "S-2", "take_tokens": "S-2.1", "reserve": "S-2.3", "purchase": "S-2.4",
                               "discard": "S-3.1", "take_noble": "S-3.2", "correction": "S-1"}

HANDLERS: dict[type[Event], Callable[[SplendorState, Any], SplendorState]] = {
    Pass: _pass,
    TakeTokens: _take_tokens,
    Reserve: _reserve,
    Purchase: _purchase,
    Discard: _discard,
    TakeNoble: _take_noble,
}
#: The event each pending choice waits for, and the error for any other (S-3).
REQUIRED = {
    "discard": (Discard, "discard_required", N_("Return tokens down to 10 first."), "S-3.1"),
    "noble": (TakeNoble, "noble_required", N_("Choose the noble who visits first."), "S-3.2"),
}


def _totals_off(state: SplendorState) -> list[tuple[str, int, int]]:
    """The token kinds whose totals do not hold (S-1): ``(kind, count, total)`` each."""
    totals = state.token_totals
    off = []
    for kind in SPLENDOR_KINDS + (PEARL,):
        counts = [state.board.get(kind)] + [p.tokens.get(kind) for p in state.players]
        if any(c < 0 for c in counts) or sum(counts) != totals.get(kind):
            off.append((kind, sum(counts), totals.get(kind)))
    return off



def fix_balancing(state: SplendorState, ev: Correction) -> list[tuple[str, str, int, int]]:
    """S-1: the counts of the supply (part ``"board"``) or the corrected player's tokens, one at a
    time, that would make the totals of ``ev`` hold again, as ``[(part, kind, count now, count
    that balances)]`` (see ``common.balancing_counts``). Pure: the Fix sheet's one-tap "make it
    add up"."""
    me = state.players[ev.player]
    return balancing_counts({"board": ev.board, "tokens": ev.tokens}, {"board": state.board, "tokens": me.tokens},
                            [p.tokens for p in state.players if p is not me], state.token_totals,
                            SPLENDOR_KINDS + (PEARL,))

def check_invariants(state: SplendorState) -> None:
    """Token totals per kind (supply + players = S-1 totals), reserves of 0–3, each card and noble once.

    Raises ``RuleError("invariant_broken")`` naming the token totals that do not hold (all of them), else the first other total that does not.
    """
    refuse_totals_off(_totals_off(state), N_("The %(kind)s tokens would add up to %(n)s, not %(total)s: fix the supply too."),
                      N_("Token totals would not hold (%(off)s): fix the supply too."), "S-1")
    named = [c for p in state.players for c in p.cards] + [r.card for p in state.players for r in p.reserved if r.card]
    if len(named) != len(set(named)):
        raise RuleError("invariant_broken", N_("A card cannot be in two places."), "S-1")
    if any(state.cards_on_table(level) < 0 for level in LEVEL_SIZES):
        raise RuleError("invariant_broken", N_("More cards of a level are out than the level holds."), "S-1")
    tiles = list(state.nobles_available) + [n for p in state.players for n in p.nobles]
    if len(tiles) != len(state.players) + EXTRA_NOBLES or len(tiles) != len(set(tiles)):
        raise RuleError("invariant_broken", N_("Each noble on display is either available or with one player."), "S-1")
    for p in state.players:
        if len(p.reserved) > MAX_RESERVED:
            raise RuleError("invariant_broken", N_("A player can hold at most 3 reserved cards."), "S-2.3")


def _winner(state: SplendorState) -> Winner:
    """S-4: most prestige; tie: fewest purchased cards; still tied: a shared win."""
    best = max(p.prestige for p in state.players)
    fewest = min(len(p.cards) for p in state.players if p.prestige == best)
    seats = tuple(i for i, p in enumerate(state.players) if p.prestige == best and len(p.cards) == fewest)
    return Winner(seats, best, fewest)


def beaten_on_cards(state: SplendorState) -> list[int]:
    """S-4's tie-break: the seats that ended with the winning prestige but lost on development
    cards (more cards than the winner), in seat order; ``[]`` while the game goes on or when
    the win was not decided by the tie-break."""
    winner = state.winner
    if winner is None:
        return []
    return [i for i, p in enumerate(state.players) if p.prestige == winner.prestige and i not in winner.players]


def reaching_the_end(state: SplendorState, seat: int) -> str:
    """S-4: what ``seat`` reaching 15 prestige says (a template of ``name`` and ``prestige``): the
    round is played to its end, or on the last seat's turn the game ends now."""
    if seat != state.last_seat:
        return N_("%(name)s has %(prestige)s prestige: the round is played to its end.")
    return N_("%(name)s has %(prestige)s prestige and plays last in the round: the game ends now.")


def _end_turn(state: SplendorState) -> SplendorState:
    """S-4 after S-3: note 15 prestige (final round); end the game after the last seat, else pass on."""
    seat = state.current_player
    me = state.players[seat]
    if not state.final_round and me.prestige >= PRESTIGE_TO_END:
        state = replace(state, final_round=True)
        state = _alert(state, "final_round", seat, reaching_the_end(state, seat), name=me.name, prestige=me.prestige)
    if state.final_round and seat == state.last_seat:
        winner = _winner(state)
        state = replace(state, winner=winner)
        names = ", ".join(_name(state, s) for s in winner.players)
        template = N_("%(names)s wins with %(prestige)s prestige!") if len(winner.players) == 1 else \
            N_("%(names)s share the win with %(prestige)s prestige!")
        return _alert(state, "victory", winner.players[0], template,
                      names=names, prestige=winner.prestige, players=list(winner.players))
    return replace(state, current_player=(seat + 1) % len(state.players), turn=state.turn + 1, action_done=False)


def _settle_turn(state: SplendorState, before: Pending | None, chose_noble: bool) -> SplendorState:
    """S-3 then S-4 once the action is done: discard due, then nobles, then the end of the turn."""
    after = state.pending
    if after is not None and after.kind == "discard":
        if after != before:
            state = _alert(
                state, "discard_due", after.player, N_("%(name)s holds %(total)s tokens: return %(count)s."),
                name=_name(state, after.player), total=state.players[after.player].tokens.total, count=after.count,
            )
        return state
    if not chose_noble:
        if after is not None:  # several nobles qualify: the player chooses (S-3.2)
            if after != before:
                state = _alert(
                    state, "noble_due", after.player, N_("Several nobles can visit %(name)s: choose one of %(choices)s."),
                    name=_name(state, after.player), choices=", ".join(after.choices),
                )
            return state
        eligible = state.eligible_nobles(state.current_player)
        if eligible:
            state = _visit(state, state.current_player, eligible[0])
    return _end_turn(state)


def refuse_after_end(state: SplendorState) -> None:
    """S-4: a finished game takes no more entries. Raises ``RuleError("game_over")`` when
    ``state`` has a winner (a shared win too), whatever the entry would have been (the
    contract's "any event after the game ended", also one that is no entry at all)."""
    if state.winner is not None:
        raise RuleError("game_over", N_("The game is over: no more entries (undo is still possible)."), "S-4")


def apply(state: SplendorState, event: Event) -> SplendorState:
    """Apply one table event (S-2 … S-4) and return the new state.

    The returned state's ``alerts`` are those this event raised. Raises ``RuleError`` (with the
    GAME-LOG.md code) when the event is not allowed; ``state`` is never changed.
    """
    refuse_after_end(state)
    before = state.pending
    state = replace(state, alerts=())
    if isinstance(event, Correction):
        if not 0 <= event.player < len(state.players):
            raise RuleError("bad_event", N_("There is no such player."), "S-1")
        state = _correct(state, event)
    else:
        if not 0 <= event.player < len(state.players) or event.player != state.current_player:
            # (what they owe first, when a prompt is theirs: the other phones show it, the API does not)
            raise RuleError("not_your_turn", NOT_YOUR_TURN.get(before.kind if before else None, NOT_YOUR_TURN[None]),
                            "S-1", name=_name(state, state.current_player))
        handler = HANDLERS.get(type(event))
        if handler is None:
            raise RuleError("bad_event", N_("That entry does not exist in Splendor."), "S-2")
        if before is not None:
            required, code, template, rule = REQUIRED[before.kind]
            if not isinstance(event, required):
                raise RuleError(code, template, rule)
        state = handler(state, event)
    check_invariants(state)
    if state.action_done:
        state = _settle_turn(state, before, isinstance(event, TakeNoble))
    return state


# ---------------------------------------------------------------------------------- logs


def start(setup: Mapping[str, Any]) -> SplendorState:
    """The state at setup from a setup mapping (``players``, ``first_player``, ``nobles``)."""
    return new_game(setup.get("players"), setup.get("first_player"), setup.get("nobles"))  # type: ignore[arg-type]


def replay(setup: Mapping[str, Any], events: Iterable[Event | Mapping[str, Any]]) -> SplendorState:
    """Fold a whole log: ``setup`` holds ``players``, ``first_player`` and ``nobles``; events as objects or dicts.

    Raises ``RuleError`` at the first event that is refused.
    """
    state = start(setup)
    seats = len(state.players)
    for ev in events:
        state = apply(state, ev if isinstance(ev, Event) else parse_event(ev, seats))
    return state


def steps(
    setup: Mapping[str, Any], events: Iterable[Event]
) -> Iterator[tuple[Event, SplendorState, SplendorState]]:
    """Yield ``(event, state_before, state_after)`` for each event of a log (for the game log view)."""
    state = start(setup)
    for ev in events:
        after = apply(state, ev)
        yield ev, state, after
        state = after


def _bag(tokens: Tokens) -> dict[str, int]:
    """A Splendor token bag as JSON: gems and gold, no pearl."""
    return {k: tokens.get(k) for k in SPLENDOR_KINDS}


def to_json(
    state: SplendorState, translate: Callable[[str, Mapping[str, Any]], str] | None = None
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
        "final_round": state.final_round,
        "pending": None if pending is None else pending.to_json(),
        "players": [
            {
                "name": p.name,
                "prestige": p.prestige,
                "bonuses": p.bonuses,
                "tokens": _bag(p.tokens),
                "token_total": p.tokens.total,
                "reserved": [r.to_json() for r in p.reserved],
                "cards": sorted(p.cards),
                "nobles": sorted(p.nobles),
            }
            for p in state.players
        ],
        "board": _bag(state.board),
        "nobles_available": list(state.nobles_available),
        "winner": None if state.winner is None else state.winner.to_json(),
        "alerts": [{"kind": a.kind, "player": a.player, "message": render(a.template, a.params)} for a in state.alerts],
    }
