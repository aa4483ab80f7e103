"""What the game screen shows, gathered from a game view: panels, sheets, previews, the log.

No rule is decided here: figures come from the state, choices from the rules' helpers
(``payment_for``, ``joker_colors``, ``stealable``, ``deck_left``) and previews from a dry-run
of ``apply``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from . import narrate
from .i18n import error_message, tr
from .rules import catalog, duel
from .rules.catalog import NO_COLOR, WILD
from .rules.errors import RuleError
from .rules.events import parse_event
from .rules.tokens import GEM_COLORS, PEARL, TOKEN_KINDS, Tokens, suggest_payment
from .service import GameView

#: Letters on every gem chip, so colour is never the only cue (UX.md).
LETTERS = {"white": "W", "blue": "U", "green": "G", "red": "R", "black": "K", "pearl": "P", "gold": "★",
           "wild": "✦", "none": "·"}
LEVELS = (1, 2, 3)
CARD_FILTERS = GEM_COLORS + (WILD, NO_COLOR)


def new_entry_id() -> str:
    """A fresh client key for one form (GAME-LOG.md ``entry_id``)."""
    return uuid.uuid4().hex


@dataclass
class Preview:
    """The outcome of a dry-run: ``text`` when the entry would be accepted, else ``error``."""

    text: str = ""
    error: str = ""
    ok: bool = False
    alerts: list[str] = field(default_factory=list)


def preview(view: GameView, data: dict[str, Any]) -> Preview:
    """Dry-run ``data`` on the game and describe what it would do (nothing is stored)."""
    try:
        event = parse_event(data, len(view.state.players))
        after = view.engine.apply(view.state, event)
    except RuleError as err:
        return Preview(error=error_message(err))
    return Preview(text=narrate.describe(event, view.state, after), ok=True)


def token_row(bag: Tokens, kinds: tuple[str, ...] = TOKEN_KINDS) -> list[dict[str, Any]]:
    """Chips for a token bag: kind, letter, count."""
    return [{"kind": k, "letter": LETTERS[k], "count": bag.get(k), "name": narrate.TOKEN_NAMES[k]} for k in kinds]


def panel(state: duel.DuelState, seat: int) -> dict[str, Any]:
    """One player's panel: route meters, tokens, privileges, reserve, royals."""
    p = state.players[seat]
    best, best_points = p.best_color
    return {
        "seat": seat,
        "name": p.name,
        "is_current": seat == state.current_player and state.winner is None,
        "prestige": p.prestige,
        "crowns": p.crowns,
        "best_color": best,
        "best_color_name": narrate.TOKEN_NAMES[best] if best else "",
        "best_points": best_points,
        "bonuses": [{"kind": c, "letter": LETTERS[c], "count": p.bonuses[c], "points": p.color_points[c]} for c in GEM_COLORS],
        "tokens": token_row(p.tokens),
        "token_total": p.tokens.total,
        "privileges": p.privileges,
        "reserved": [card_view(catalog.jewels()[r.card], p) if r.card else {"secret": True, "level": r.level}
                     for r in p.reserved],
        "royals": [catalog.royals()[r] for r in p.royals],
        "cards": len(p.cards),
    }


def card_view(card: catalog.JewelCard, buyer: duel.Player | None = None) -> dict[str, Any]:
    """A jewel card as drawn: colour, points, crowns, ability, printed cost and cost after bonuses."""
    out: dict[str, Any] = {
        "id": card.id,
        "level": card.level,
        "color": card.color,
        "letter": LETTERS[card.color],
        "bonus": card.bonus,
        "points": card.points,
        "crowns": card.crowns,
        "ability": card.ability,
        "ability_name": narrate.ABILITY_NAMES[card.ability],
        "cost": [(k, LETTERS[k], n) for k, n in card.cost.items() if n],
        "secret": False,
    }
    if buyer is not None:
        owed = duel.cost_after_bonuses(buyer, card)
        _payment, affordable = suggest_payment(owed, buyer.tokens)
        out["owed"] = [(k, LETTERS[k], n) for k, n in owed.items() if n]
        out["affordable"] = affordable and (not card.is_joker or bool(duel.joker_colors(buyer)))
    return out


def game_context(view: GameView) -> dict[str, Any]:
    """Everything the ``game`` block shows: panels (to act at the bottom), status, log, prompts."""
    state = view.state
    me = state.current_player
    pending = state.pending
    log = [narrate.describe(ev, before, after) for ev, before, after in duel.steps(view.row.setup, view.events)]
    winner = None
    if state.winner is not None:
        w = state.winner
        winner = {
            "name": state.players[w.player].name,
            "routes": [narrate.ROUTE_NAMES[r] for r in w.routes],
            "panel": panel(state, w.player),
            "other": panel(state, 1 - w.player),
        }
    return {
        "view": view,
        "game_id": view.row.id,
        "version": view.version,
        "state": state,
        "turn": state.turn,
        "finished": state.winner is not None,
        "top": panel(state, 1 - me),
        "bottom": panel(state, me),
        "current_name": state.players[me].name,
        "current": me,
        "extra_turn": state.extra_turn,
        "playing_extra_turn": state.playing_extra_turn,
        "pending": pending,
        "winner": winner,
        "alerts": [],
        "log": list(reversed(log)),
        "goals": {"prestige": duel.PRESTIGE_TO_WIN, "crowns": duel.CROWNS_TO_WIN, "color": duel.COLOR_POINTS_TO_WIN,
                  "tokens": duel.TOKEN_LIMIT, "reserved": duel.MAX_RESERVED},
        "board": token_row(state.board),
        "bag": token_row(state.bag),
        "board_total": state.board.total,
        "bag_total": state.bag.total,
        "privileges_supply": state.privileges_supply,
        "royals_available": [catalog.royals()[r] for r in state.royals_available],
        "entry_id": new_entry_id(),
        "letters": LETTERS,
        "token_names": narrate.TOKEN_NAMES,
    }


def picked(args: Any, name: str = "t") -> Tokens:
    """The tokens picked so far in a composing sheet (repeated query values ``t=red&t=red``)."""
    counts: dict[str, int] = {}
    for kind in args.getlist(name)[:20]:
        if kind in TOKEN_KINDS:
            counts[kind] = counts.get(kind, 0) + 1
    return Tokens(**counts)


def picker(source: Tokens, chosen: Tokens, limit: int, kinds: tuple[str, ...]) -> dict[str, Any]:
    """A token picker: chips of ``source`` minus what is chosen, and the chosen chips.

    Tapping a source chip adds one (while under ``limit``); tapping a chosen chip removes one.
    """
    chosen_list = [k for k, n in chosen.items() for _ in range(n)]
    chips = []
    for k in kinds:
        left = source.get(k) - chosen.get(k)
        chips.append({"kind": k, "letter": LETTERS[k], "left": left, "name": narrate.TOKEN_NAMES[k],
                      "add": chosen_list + [k], "can_add": left > 0 and chosen.total < limit})
    selected = []
    for i, k in enumerate(chosen_list):
        selected.append({"kind": k, "letter": LETTERS[k], "remove": chosen_list[:i] + chosen_list[i + 1:],
                         "name": narrate.TOKEN_NAMES[k]})
    return {"chips": chips, "selected": selected, "chosen": chosen, "limit": limit, "count": chosen.total}


def take_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """Take up to 3 tokens (D-5): the board as chips, the pick, the preview."""
    state = view.state
    chosen = picked(args)
    data = {"type": "take_tokens", "player": state.current_player, "tokens": chosen.to_dict(skip_zero=True)}
    return {"sheet": "take", "pick": picker(state.board, chosen, duel.MAX_TAKE, GEM_COLORS + (PEARL,)),
            "preview": preview(view, data) if chosen else None, "data": data}


def privileges_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """Use privileges (D-3.1): one gem or pearl from the board per privilege."""
    state = view.state
    me = state.players[state.current_player]
    chosen = picked(args)
    data = {"type": "use_privileges", "player": state.current_player, "tokens": chosen.to_dict(skip_zero=True)}
    return {"sheet": "privileges", "pick": picker(state.board, chosen, me.privileges, GEM_COLORS + (PEARL,)),
            "held": me.privileges, "preview": preview(view, data) if chosen else None, "data": data,
            "replenish": preview(view, {"type": "replenish", "player": state.current_player}),
            "after_replenish": state.replenished, "bag_empty": not state.bag}


def discard_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """Discard down to 10 (D-10): the player's own tokens as chips."""
    state = view.state
    seat = state.current_player
    pending = state.pending
    count = pending.count if pending is not None and pending.kind == "discard" else 0
    chosen = picked(args)
    data = {"type": "discard", "player": seat, "tokens": chosen.to_dict(skip_zero=True)}
    return {"sheet": "discard", "pick": picker(state.players[seat].tokens, chosen, count, TOKEN_KINDS),
            "count": count, "preview": preview(view, data) if chosen.total == count and count else None, "data": data}


def _int_arg(args: Any, name: str, choices: tuple[int, ...], default: int) -> int:
    try:
        value = int(args.get(name, default))
    except (TypeError, ValueError):
        return default
    return value if value in choices else default


def _catalogue_grid(state: duel.DuelState, level: int, color: str | None, buyer: duel.Player) -> list[dict[str, Any]]:
    taken = state.taken_cards()
    cards = [c for c in catalog.jewels_of_level(level) if c.id not in taken and (color is None or c.color == color)]
    return [card_view(c, buyer) for c in cards]


def buy_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """Purchase (D-7, D-8): level tabs or my reserve, colour filter, card grid, payment, joker, steal."""
    state = view.state
    seat = state.current_player
    me = state.players[seat]
    other = state.players[1 - seat]
    source = args.get("src", "1")
    color = args.get("color") if args.get("color") in CARD_FILTERS else None
    from_reserve = source == "reserve"
    level = _int_arg(args, "src", LEVELS, 1)
    ctx: dict[str, Any] = {"sheet": "buy", "src": "reserve" if from_reserve else str(level), "color": color,
                           "filters": [(c, LETTERS[c], narrate.TOKEN_NAMES[c]) for c in CARD_FILTERS],
                           "levels": LEVELS, "selected": None}
    if from_reserve:
        ctx["grid"] = [card_view(catalog.jewels()[r.card], me) for r in me.reserved if r.card]
        secret_levels = sorted({r.level for r in me.reserved if r.card is None})
        reveal = _int_arg(args, "reveal", tuple(secret_levels), 0) if secret_levels else 0
        ctx["secret_levels"] = secret_levels
        ctx["reveal"] = reveal
        ctx["reveal_grid"] = _catalogue_grid(state, reveal, color, me) if reveal else []
        ctx["reveal_filters"] = bool(reveal)
    else:
        ctx["grid"] = _catalogue_grid(state, level, color, me)
    card_id = args.get("card")
    if card_id in catalog.jewels():
        card = catalog.jewels()[card_id]
        owed = duel.cost_after_bonuses(me, card)
        payment, affordable = suggest_payment(owed, me.tokens)
        # The table may pay gold where it has the gem too: pay=<kind> moves one unit to gold.
        for kind in args.getlist("gold_for")[:10]:
            if kind in owed.to_dict() and payment.get(kind) > 0 and me.tokens.gold > payment.gold:
                payment = payment - Tokens(**{kind: 1}) + Tokens(gold=1)
        wild = args.get("wild") if args.get("wild") in GEM_COLORS else None
        jokers = duel.joker_colors(me) if card.is_joker else []
        if card.is_joker and wild is None and len(jokers) == 1:
            wild = jokers[0]
        steal_options = duel.stealable(other) if card.ability == catalog.STEAL_TOKEN else []
        steal = args.get("steal") if args.get("steal") in steal_options else None
        if steal is None and len(steal_options) == 1:
            steal = steal_options[0]
        data = {"type": "purchase", "player": seat, "card": card.id, "from_reserve": from_reserve,
                "payment": payment.to_dict(skip_zero=True)}
        if wild:
            data["wild_color"] = wild
        if steal:
            data["steal"] = steal
        ctx["selected"] = {
            "card": card_view(card, me),
            "payment": token_row(payment, tuple(k for k in TOKEN_KINDS if payment.get(k) or owed.get(k))),
            "gold_for": args.getlist("gold_for")[:10],
            "can_swap": [k for k in GEM_COLORS + (PEARL,) if payment.get(k) > 0 and me.tokens.gold > payment.gold],
            "joker_colors": [(c, LETTERS[c], narrate.TOKEN_NAMES[c]) for c in jokers],
            "wild": wild,
            "steal_options": [(k, LETTERS[k], narrate.TOKEN_NAMES[k]) for k in steal_options],
            "steal": steal,
            "affordable": affordable,
        }
        ctx["data"] = data
        ctx["preview"] = preview(view, data)
        if not affordable:
            ctx["preview"] = Preview(error=_("%(name)s cannot pay for %(card)s: it costs %(owed)s after bonuses.",
                                             name=me.name, card=card.id, owed=narrate.token_list(owed)))
    return ctx


def reserve_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """Reserve (D-6): a face-up card from the catalogue or a secret card of level N."""
    state = view.state
    seat = state.current_player
    me = state.players[seat]
    level = _int_arg(args, "src", LEVELS, 1)
    color = args.get("color") if args.get("color") in CARD_FILTERS else None
    ctx: dict[str, Any] = {"sheet": "reserve", "src": str(level), "color": color, "levels": LEVELS,
                           "filters": [(c, LETTERS[c], narrate.TOKEN_NAMES[c]) for c in CARD_FILTERS],
                           "grid": _catalogue_grid(state, level, color, me),
                           "decks": [(lv, state.deck_left(lv)) for lv in LEVELS], "selected": None}
    card_id = args.get("card")
    secret = _int_arg(args, "secret", LEVELS, 0)
    data: dict[str, Any] | None = None
    if card_id in catalog.jewels():
        data = {"type": "reserve", "player": seat, "card": card_id}
        ctx["selected"] = card_view(catalog.jewels()[card_id], me)
    elif secret:
        data = {"type": "reserve", "player": seat, "level": secret}
        ctx["selected"] = {"secret": True, "level": secret}
    if data is not None:
        ctx["data"] = data
        ctx["preview"] = preview(view, data)
    return ctx


def royal_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """The royal card due (D-9): available royals; DR-4 asks which token to steal."""
    state = view.state
    seat = state.current_player
    other = state.players[1 - seat]
    choice = args.get("royal") if args.get("royal") in state.royals_available else None
    royals = []
    for rid in state.royals_available:
        royal = catalog.royals()[rid]
        royals.append({"id": rid, "points": royal.points, "ability": royal.ability,
                       "ability_name": narrate.ABILITY_NAMES[royal.ability],
                       "needs_steal": royal.ability == catalog.STEAL_TOKEN and bool(duel.stealable(other))})
    return {"sheet": "royal", "royals": royals, "choice": choice,
            "steal_options": [(k, LETTERS[k], narrate.TOKEN_NAMES[k]) for k in duel.stealable(other)],
            "other_name": other.name}


def correction_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """A correction: one player's tokens and privileges, the board and the bag, pre-filled."""
    state = view.state
    seat = _int_arg(args, "p", (0, 1), state.current_player)
    p = state.players[seat]
    return {"sheet": "correction", "seat": seat, "names": [pl.name for pl in state.players],
            "tokens": token_row(p.tokens), "privileges": p.privileges,
            "board": token_row(state.board), "bag": token_row(state.bag)}


SHEETS = {
    "take": take_sheet,
    "buy": buy_sheet,
    "reserve": reserve_sheet,
    "privileges": privileges_sheet,
    "discard": discard_sheet,
    "royal": royal_sheet,
    "correction": correction_sheet,
}


def sheet_for(view: GameView, wanted: str | None) -> str:
    """The sheet to show: the prompt the rules raised (it cannot be left), else ``wanted``, else take."""
    pending = view.state.pending
    if pending is not None:
        return pending.kind
    if wanted in ("royal", "discard") or wanted not in SHEETS:
        return "take"
    return wanted


def alerts(view: GameView) -> list[dict[str, Any]]:
    """The alerts the last write raised (GAME-LOG.md kinds), translated."""
    return [{"kind": a.kind, "player": a.player, "message": tr(a.template, a.params)} for a in view.state.alerts]
