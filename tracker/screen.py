"""What the game screen shows, gathered from a game view: panels, sheets, previews, the log.

No rule is decided here: figures come from the state, choices from the rules' helpers
(``payment_for``, ``joker_colors``, ``stealable``, ``deck_left``) and previews from a dry-run
of ``apply``.
"""

from __future__ import annotations

import functools
import json
import re
import uuid
import zlib
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import urlencode

from flask import current_app, g, url_for
from jinja2 import pass_context
from markupsafe import Markup, escape
from flask_babel import get_locale, get_translations, pgettext
from flask_babel import gettext as _

from flask_babel import lazy_gettext as _l

from . import narrate, people, service
from .i18n import error_message, render_translations, plain_gettext, plain_ngettext, tr
from .rules import catalog, duel, splendor
from .rules.catalog import NO_COLOR, WILD
from .rules.errors import RuleError
from .rules.events import event_to_dict, parse_event
from .rules.tokens import GEM_COLORS, PEARL, TOKEN_KINDS, Tokens, suggest_payment
from .service import GameView

class _Letters(dict):
    """Chip letters in the reader's language: W U G R K P ★ in English, 흰 파 초 빨 검 진 금 in
    Korean (UX.md). Looked up at render time, so one mapping serves every request."""

    KOREAN = {"white": "흰", "blue": "파", "green": "초", "red": "빨", "black": "검", "pearl": "진", "gold": "금"}

    def __init__(self, letters: dict[str, str]) -> None:
        super().__init__(letters)
        self._plain = dict(letters)
        self._korean = {**letters, **self.KOREAN}

    def __getitem__(self, kind: str) -> str:
        return self.table()[kind]

    def table(self) -> dict[str, str]:
        """The letters of this request's language as a plain dict (one locale lookup): what a
        screen puts in its template context as ``letters``."""
        return self._korean if str(get_locale()) == "ko" else self._plain


#: Letters on every gem chip, so colour is never the only cue (UX.md).
LETTERS = _Letters({"white": "W", "blue": "U", "green": "G", "red": "R", "black": "K", "pearl": "P", "gold": "★",
                    "wild": "✦", "none": "·"})


class _Names:
    """Names in the reader's language from a table of lazy ones (``narrate``'s): one plain dict
    per language, made on first use ("red" / "빨간색"). A lazy name is translated again each
    time it is shown (two Flask-Babel lookups a time); a screen shows dozens."""

    def __init__(self, source: Mapping[str, Any]) -> None:
        self._source = source
        self._tables: dict[str, dict[str, str]] = {}

    def table(self) -> dict[str, str]:
        """The names of this request's language as a plain dict."""
        locale = str(get_locale())
        found = self._tables.get(locale)
        if found is None:
            found = self._tables[locale] = {key: str(name) for key, name in self._source.items()}
        return found


#: Token kinds' names (the chips' spoken labels, a best colour, a token to steal).
CHIP_NAMES = _Names(narrate.TOKEN_NAMES)
#: Card and royal card abilities' names ("extra turn").
ABILITY_NAMES = _Names(narrate.ABILITY_NAMES)


@functools.lru_cache(maxsize=4096, typed=True)  # a screen draws ~45 chips, nearly all seen before
def _chip_html(kind: str, text: Any, extra: str, letter: str, name: str, spoken: str = "") -> str:
    count = "" if text == "" else f"<i>{escape(text)}</i>"
    label = spoken or (name if text == "" else f"{name} {text}")
    return (f'<span class="chip gem-{escape(kind)} {escape(extra)}" role="img" aria-label="{escape(label)}" '
            f'title="{escape(name)}"><b>{escape(letter)}</b>{count}</span>')


def _names(context: Any) -> dict[str, str]:
    return context.get("chip_names") or CHIP_NAMES.table()


def slash_breaks(text: Any) -> Markup:
    """``text`` escaped, a line allowed to break after each "/": colours tied for the best
    ("white/blue/red/black") fit a narrow column whole, one per line if need be, instead of cut
    ("whi…") or broken mid-word ("re/d")."""
    return Markup("/<wbr>").join(escape(part) for part in str(text).split("/"))


@pass_context
def chip(context: Any, kind: str, text: Any, extra: str = "") -> Markup:
    """A gem chip as HTML: ``<span class="chip gem-red small" role="img" aria-label="red 3"
    title="red"><b>R</b><i>3</i></span>`` (letter and name from the context's ``letters`` and
    ``chip_names``, in the reader's language; no ``<i>`` when ``text`` is ""). A template
    global: a game screen draws about forty of them, so it is plain Python, not a macro."""
    return Markup(_chip_html(kind, text, extra, context["letters"][kind], _names(context).get(kind, kind)))


@pass_context
def chip_legend(context: Any) -> Markup:
    """Each token kind's chip beside its name, in the reader's language ("U blue", "K black":
    letters a first-time player could not guess), as ``<span class="legend-item">`` items; on a
    classic Splendor page without the pearl, which only Splendor Duel has (a tester)."""
    letters = context["letters"]
    names = _names(context)
    kinds = [k for k in TOKEN_KINDS if k != PEARL] if context.get("template") == "splendor.html" else TOKEN_KINDS
    return Markup("".join(
        f'<span class="legend-item">{_chip_html(kind, "", "small", letters[kind], names.get(kind, kind))} '
        f'{escape(names.get(kind, kind))}</span>'
        for kind in kinds
    ))


@pass_context
def chips(context: Any, items: Any, extra: str = "") -> Markup:
    """A row of chips, one per ``{"kind", "count"}`` item (``extra`` classes, plus ``zero``
    for a count of 0), in one call: ``{{ chips(p.tokens, "small") }}``."""
    letters = context["letters"]
    names = _names(context)
    return Markup("".join(
        _chip_html(i["kind"], i["count"], (f"{extra} zero" if extra else "zero") if not i["count"] else extra,
                   letters[i["kind"]], names.get(i["kind"], i["kind"]))
        for i in items
    ))


@pass_context
def pips(context: Any, items: Any, extra: str = "pip") -> Markup:
    """A card's cost as one row of chips, one per ``(kind, text)`` pair of ``card_view``'s
    ``pips`` (``"6→3"`` where bonuses lower it), in one call: ``{{ pips(c.pips) }}``."""
    letters = context["letters"]
    names = _names(context)
    translations = render_translations(context)
    # a cost the bonuses cover whole ("2→0") drawn as a token count of 0 is (outlined): what is
    # left to pay stands out (a tester read "K1→0" as one more colour to pay)
    return Markup("".join(_chip_html(kind, text, f"{extra} zero" if str(text).endswith("→0") else extra, letters[kind],
                                     names.get(kind, kind), _spoken_cost(translations, names, kind, text))
                          for kind, text in items))


def _spoken_cost(translations: Any, names: Mapping[str, str], kind: str, text: Any) -> str:
    """A lowered cost as a screen reader should say it: "green 2 (0 after bonuses)" (it read
    "green 2 right arrow 0"); "" for a cost as printed. ``translations``: the render's."""
    printed, arrow, now = str(text).partition("→")
    if not arrow:
        return ""
    # (in brackets: "costs blue 2, green 2, 0 after bonuses, pearl 1" read the lowered cost as an
    # item of its own, an accessibility tester)
    return plain_gettext(translations, "%(color)s %(printed)s (%(now)s after bonuses)",
                         color=names.get(kind, kind), printed=printed, now=now)


@pass_context
def card_label(context: Any, c: Mapping[str, Any]) -> str:
    """A card of ``card_view`` as a screen reader should say it: "white card, 1 crown, take a
    token, costs blue 3, affordable" (its letter, glyphs and bare numbers said nothing; its
    catalogue id means nothing to a player)."""
    names = _names(context)
    t = render_translations(context)
    parts = [plain_gettext(t, "%(color)s card", color=names.get(c["color"], c["color"]))]
    if c.get("bonus") == 2:  # (drawn as a doubled letter, "WW": not said, a tester)
        parts.append(plain_gettext(t, "2 bonuses"))
    if c["points"]:
        parts.append(plain_ngettext(t, "%(num)s prestige", "%(num)s prestige", c["points"]))
    if c["crowns"]:
        parts.append(plain_ngettext(t, "%(num)s crown", "%(num)s crowns", c["crowns"]))
    if c["ability_name"]:
        parts.append(str(c["ability_name"]))
    cost = ", ".join(_spoken_cost(t, names, kind, text) or f"{names.get(kind, kind)} {text}" for kind, text in c["pips"])
    parts.append(plain_gettext(t, "costs %(cost)s", cost=cost) if cost else plain_gettext(t, "free"))
    if c.get("affordable"):
        parts.append(plain_gettext(t, "affordable"))
    return ", ".join(parts)


@pass_context
def noble_label(context: Any, n: Mapping[str, Any]) -> str:
    """A noble of ``noble_view`` as a screen reader should say it: "3 prestige, needs green 4,
    red 4" (each button of the noble choice said only its label, alike: a tester; S-3.2)."""
    names = _names(context)
    t = render_translations(context)
    needs = ", ".join(f"{names.get(kind, kind)} {count}" for kind, _letter, count in n["needs"])
    return plain_gettext(t, "%(n)s prestige, needs %(needs)s", n=n["points"], needs=needs)


LEVELS = (1, 2, 3)
#: Log sentences a game screen shows before "Show all" (keeps every response small as games grow).
LOG_LINES = 20


@dataclass(frozen=True)
class Kind:
    """What the screen needs to know about one game kind (Duel or Splendor)."""

    engine: Any
    cards: Any  # () -> {id: card}
    token_kinds: tuple[str, ...]
    take_kinds: tuple[str, ...]
    filters: tuple[str, ...]
    actions: tuple[tuple[str, Any], ...]
    max_take: int
    template: str

    def card(self, card_id: Any) -> Any:
        """The catalogue card with this id, or None."""
        return self.cards().get(card_id) if isinstance(card_id, str) else None

    def level(self, level: int) -> list[Any]:
        """The cards of one level in catalogue order."""
        return [c for c in self.cards().values() if c.level == level]

    def action_labels(self) -> list[tuple[str, str]]:
        """The entry tabs as ``(key, label)``, labels in the reader's language (``_Names``)."""
        return list(_ACTION_NAMES[self.template].table().items())


KINDS = {
    "duel": Kind(duel, catalog.jewels, TOKEN_KINDS, GEM_COLORS + (PEARL,), GEM_COLORS + (WILD, NO_COLOR),
                 (("take", _l("Take")), ("buy", _l("Buy")), ("reserve", _l("Reserve")),
                  ("privileges", _l("Privilege · Refill")), ("correction", _l("Fix"))), duel.MAX_TAKE, "game.html"),
    "splendor": Kind(splendor, catalog.development_cards, GEM_COLORS + ("gold",), GEM_COLORS, GEM_COLORS,
                     (("take", _l("Take")), ("buy", _l("Buy")), ("reserve", _l("Reserve")), ("correction", _l("Fix"))),
                     splendor.TAKE_THREE, "splendor.html"),
}
#: Each kind's entry tabs in the reader's language, one table per language (``Kind.action_labels``).
_ACTION_NAMES = {k.template: _Names(dict(k.actions)) for k in KINDS.values()}


def kind_of(view: GameView) -> Kind:
    """The screen adapter of this game's kind."""
    return KINDS[view.row.game]


#: A number as a phone sends it (a poll's ``v`` and ``n``, a form's ``expected_version`` or
#: counts): ASCII digits only (``int()`` would also take "٣", "1_0" or " 3").
VERSION_TEXT = r"[0-9]{1,9}"
_NUMBER = re.compile(VERSION_TEXT)


def whole_number(raw: Any) -> int | None:
    """``raw`` as a whole number when it is ``VERSION_TEXT`` (1–9 ASCII digits), else None."""
    return int(raw) if isinstance(raw, str) and _NUMBER.fullmatch(raw) else None


def poll_marks(row: Any) -> dict[str, int | None]:
    """What a screen's poll says of it beside its version, for the changes that keep the version
    (a deletion, a restore, the table's next game): ``d=1`` shown deleted, ``x=1`` shown followed
    by a next game (``None``: left out of the address)."""
    return {"d": 1 if row.deleted_at is not None else None, "x": 1 if row.next_game_id is not None else None}


def marks_changed(row: Any, args: Any) -> bool:
    """Whether the game ``row`` was deleted, restored or followed by a next game since the poll's
    screen was drawn (its ``d``/``x``, see ``poll_marks``): the screen is drawn again then."""
    return (row.deleted_at is not None) != (args.get("d") == "1") \
        or (row.next_game_id is not None) != (args.get("x") == "1")


def seen_version(args: Any) -> int | None:
    """The version a poll or a tap says its screen shows (``?v=<n>``; the last one when a link
    drawn with its own is sent with app.js's too), else None."""
    said = args.getlist("v") if hasattr(args, "getlist") else [args.get("v", "")]
    return whole_number(said[-1] if said else "")


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
    #: Not refused but not complete either: a pick more taps would make legal (said neutrally).
    hint: str = ""
    #: The refusal's code and rule id (``RuleError.code``, ``.rule``: "D-7") when refused.
    code: str = ""
    rule: str = ""
    #: Accepted, the entry would end the game (D-11, S-4).
    ends_game: bool = False


def preview(view: GameView, data: dict[str, Any]) -> Preview:
    """Dry-run ``data`` on the game and describe what it would do (nothing is stored)."""
    try:
        event = parse_event(data, len(view.state.players))
        after = view.engine.apply(view.state, event)
    except RuleError as err:
        return Preview(error=error_message(err), code=err.code, rule=err.rule or "")
    return Preview(text=narrate.preview_sentence(event, view.state, after), ok=True, ends_game=after.winner is not None)


def token_row(bag: Tokens, kinds: tuple[str, ...] = TOKEN_KINDS) -> list[dict[str, Any]]:
    """Chips for a token bag: kind, letter, count."""
    letters = LETTERS.table()  # one locale lookup for the whole function
    return [{"kind": k, "letter": letters[k], "count": bag.get(k), "name": narrate.TOKEN_NAMES[k]} for k in kinds]


def winning_seats(winner: Any) -> tuple[int, ...]:
    """The seats a winner names: Duel's one ``player``, Splendor's ``players`` (a shared win)."""
    return (winner.player,) if hasattr(winner, "player") else tuple(winner.players)


def panel(state: duel.DuelState, seat: int) -> dict[str, Any]:
    """One player's panel: route meters, tokens, privileges, reserve, royals."""
    letters = LETTERS.table()  # one locale lookup for the whole function
    p = state.players[seat]
    best, best_points = p.best_color
    points = p.color_points
    tied = [c for c in GEM_COLORS if points[c] == best_points] if best else []
    all_five = len(tied) == len(GEM_COLORS)
    return {
        "seat": seat,
        "name": p.name,
        "is_current": seat == state.current_player and state.winner is None,
        "is_winner": state.winner is not None and seat in winning_seats(state.winner),
        "prestige": p.prestige,
        "crowns": p.crowns,
        "best_color": best,
        # every colour tied for the best is named (D-11.3 is as near in each): "white/blue/red";
        # all five are said so (the five names filled four lines of a 320-px victory table)
        "best_color_name": _("all five") if all_five else "/".join(CHIP_NAMES.table()[c] for c in tied),
        # three or four tied are shown by their letters ("W/U/G/R"; named whole they took three
        # lines of the panel's narrow column, and of the victory table: a tester), read out by name
        "best_color_letters": "/".join(letters[c] for c in tied) if 3 <= len(tied) < len(GEM_COLORS) else "",
        "best_points": best_points,
        "best_color_tied": len(tied) > 1,
        "best_all_five": all_five,
        "bonuses": [{"kind": c, "letter": letters[c], "count": p.bonuses[c], "points": points[c]} for c in GEM_COLORS],
        "tokens": token_row(p.tokens),
        "token_total": p.tokens.total,
        "privileges": p.privileges,
        "reserved": reserved_views(p, catalog.jewels()),
        "royals": [royal_view(r) for r in p.royals],
        "cards": len(p.cards),
    }


def card_view(card: Any, buyer: Any = None) -> dict[str, Any]:
    """A card as drawn (Duel jewel or Splendor development card): colour, points, crowns,
    ability, printed cost and, for ``buyer``, the cost after bonuses and whether it is affordable."""
    letters = LETTERS.table()  # one locale lookup for the whole function
    ability = getattr(card, "ability", "none")
    out: dict[str, Any] = {
        "id": card.id,
        "level": card.level,
        "color": card.color,
        "letter": letters[card.color],
        "bonus": getattr(card, "bonus", 1),
        "points": card.points,
        "crowns": getattr(card, "crowns", 0),
        "ability": ability,
        "ability_name": ABILITY_NAMES.table()[ability],
        # the cost pips as printed (how the table finds the card); "6→3" where bonuses lower it
        "pips": [(k, n) for k, n in card.cost.items() if n],
        "secret": False,
    }
    if buyer is not None:
        is_jewel = isinstance(card, catalog.JewelCard)
        owed = (duel if is_jewel else splendor).cost_after_bonuses(buyer, card)
        out["pips"] = [(k, n if owed.get(k) == n else f"{n}→{owed.get(k)}") for k, n in card.cost.items() if n]
        out["affordable"] = duel.can_buy(buyer, card) if is_jewel else suggest_payment(owed, buyer.tokens)[1]
    return out


def royal_view(royal_id: str) -> dict[str, Any]:
    """A royal card as printed (D-1.2): id, prestige, ability and its name."""
    royal = catalog.royals()[royal_id]
    return {"id": royal_id, "points": royal.points, "ability": royal.ability,
            "ability_name": ABILITY_NAMES.table()[royal.ability]}


def reserved_views(player: Any, cards: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A player's reserved cards as a panel draws them (D-6, S-2.3): each named one as
    ``card_view`` for that player (its cost after their bonuses, a tick when affordable), a
    secret one as ``{"secret": True, "level": n}``; ``cards`` the game's catalogue by id."""
    return [card_view(cards[r.card], player) if r.card else {"secret": True, "level": r.level}
            for r in player.reserved]


def _steal_choice(args: Any, stealable: Sequence[str]) -> tuple[str | None, str | None]:
    """The token to steal a sheet's query names (D-8, DR-4), ``(steal, gone)``: ``steal`` the
    one named while the other player holds it (else the only one they hold); ``gone`` a kind
    named that they no longer hold (another phone's Fix or entry meanwhile): then nothing is
    chosen for the player (a tester's "black", gone, became "white" without a word)."""
    asked = args.get("steal")
    if asked in stealable:
        return asked, None
    if asked in GEM_COLORS + (PEARL,):
        return None, asked
    return (stealable[0] if len(stealable) == 1 else None), None


def _steal_gone(victim: Any, kind: str | None) -> str:
    """What a sheet says of a token to steal that its holder no longer has ("" for none)."""
    if kind is None:
        return ""
    return _("%(other)s no longer holds %(kind)s: name the token to steal again.", other=victim.name,
             kind=narrate.TOKEN_NAMES[kind])


def steal_options(letters: Mapping[str, str], victim: Any, kinds: Sequence[str]) -> list[tuple[str, str, str, int]]:
    """The tokens a steal may take (D-8, DR-4), each as ``(kind, letter, name, count held)``."""
    names = CHIP_NAMES.table()
    return [(k, letters[k], names[k], victim.tokens.get(k)) for k in kinds]


def last_entry(view: GameView) -> str:
    """The plain-words sentence of the last applied entry ('' when there is none), a finished
    game's under its players' names of now (``named_now``)."""
    return " ".join(last_entries(view, 1))


def last_entries(view: GameView, count: int) -> list[str]:
    """The log sentences of the last ``count`` applied entries, oldest first, with what each
    caused (a privilege given), as ``last_entry`` says the last one."""
    if not view.events or count < 1:
        return []
    return service.narrated(named_now(view), narrate.describe, str(get_locale()))[-count:]


def entry_toast(view: GameView) -> str:
    """The short toast after an entry: its log sentence without the alerts it raised, which
    have toasts of their own, nor the victory the banner says ('' when there is no entry)."""
    view = named_now(view)  # the entry that ends a game is told under the names its banner shows
    text = last_entry(view)
    for alert in own_alerts(view):  # (not those re-told from under a prompt: not in this sentence)
        text = text.replace(" " + alert["message"], "")
    won = narrate.victory_sentence(view.state)
    return text.replace(" " + won, "") if won else text


def entries_told(view: GameView, count: int) -> list[tuple[int | None, str]]:
    """The toast of the last ``count`` entries, oldest first (a phone that missed a purchase and
    the noble it chose is told both), as ``(seat, sentence)`` pairs: the seat the entry names
    (``None`` for an entry of no player), the earlier ones' log sentences, then ``entry_toast``.
    A phone marks the ones of its own player as made on another phone (app.js)."""
    earlier = service.narrated(named_now(view), narrate.describe, str(get_locale()))[-count:-1] if count > 1 else []
    texts = [*earlier, entry_toast(view)]
    seats = [getattr(event, "player", None) for event in view.events[-len(texts):]]
    return list(zip(seats, texts))


def near_wins(view: GameView, seat: int) -> list[str]:
    """Near-win warnings for one player, per route, within ``NEAR_WIN_DISTANCE`` of it (UX.md;
    D-11, S-4: in classic Splendor only before the final round)."""
    distance = current_app.config.get("NEAR_WIN_DISTANCE", 2)
    state = view.state
    p = state.players[seat]
    out = []
    if view.row.game == "duel":
        # a reserved card they can pay for now that wins by itself (a tester's player missed one);
        # its line says the route already, so that route's "N more to win" is not said too (a
        # tester read the two as two warnings); a colour's line stays (the card's may be another colour)
        winning = duel.winning_reserve(state, seat)
        said_by_card = {route for _card, routes in winning for route in routes}
        # each route from as far as one card still to come can bring it (7 crowns with the 3-crown
        # card out; 7 red with a 4-point red card: a tester's table was not warned), while enough
        # is left; prestige within ``distance`` all the same (royal cards bring it too)
        reach = duel.route_reach(state, seat)

        def reachable(route: str, left: int) -> bool:
            most, whole = reach[route]
            return 0 < left <= (max(distance, most) if distance else 0) \
                and (whole >= left or (route == "prestige" and left <= distance))

        left = duel.PRESTIGE_TO_WIN - p.prestige
        if "prestige" not in said_by_card and reachable("prestige", left):
            out.append(_("%(name)s: %(n)s prestige — %(left)s more to win", name=p.name, n=p.prestige, left=left))
        left = duel.CROWNS_TO_WIN - p.crowns
        if "crowns" not in said_by_card and reachable("crowns", left):
            out.append(_("%(name)s: %(n)s crowns — %(left)s more to win", name=p.name, n=p.crowns, left=left))
        # the nearest colour the cards to come can complete (the best colour first)
        colors = p.color_points
        near_color = next((c for c in sorted(colors, key=lambda c: -colors[c]) if colors[c]
                           and reachable(c, duel.COLOR_POINTS_TO_WIN - colors[c])), None)
        if near_color is not None:
            points = colors[near_color]
            out.append(_("%(name)s: %(n)s in %(color)s — %(left)s more in %(color)s to win", name=p.name, n=points,
                         color=narrate.TOKEN_NAMES[near_color], left=duel.COLOR_POINTS_TO_WIN - points))
        for card_id, routes in winning:
            said = {"name": p.name, "card": narrate.card_summary(card_id),
                    "routes": ", ".join(str(narrate.ROUTE_NAMES[r]) for r in routes)}
            if seat == state.current_player:
                out.append(_("%(name)s can win now: buying %(card)s from the reserve reaches %(routes)s", **said))
            else:  # on their own turn, if they still hold what pays for it
                out.append(_("%(name)s can win on their turn: buying %(card)s from the reserve reaches %(routes)s",
                             **said))
    elif not state.final_round and 0 < splendor.PRESTIGE_TO_END - p.prestige <= distance:
        # once the final round is on, reaching 15 starts nothing: the banner says who plays still
        out.append(pgettext("splendor", "%(name)s: %(n)s prestige — %(left)s more starts the final round", name=p.name,
                            n=p.prestige, left=splendor.PRESTIGE_TO_END - p.prestige))
    return out if state.winner is None else []


def _common(view: GameView) -> dict[str, Any]:
    """What every game screen shows: ids, version, turn, whose turn, the log, the entry tabs."""
    state = view.state
    kind = kind_of(view)
    log = service.narrated(view, narrate.describe, str(get_locale()))  # kept per version: no replay
    return {
        "view": view,
        "game_id": view.row.id,
        "version": view.version,
        "state": state,
        "turn": state.turn,
        "round": state.round,  # Duel: extra turns start none (D-8); Splendor: once round the table (S-4)
        # the last entry's type: the other phone's fix keeps what this phone picked, any entry else does not
        "last_type": view.events[-1].type if view.events else "",
        # table mode turns what concerns one player to face them: the last entry's undo and toasts
        # to whoever made it, the victory banner to a single winner
        "last_player": view.events[-1].player if view.events else "",
        "winner_seat": _single_winner(state.winner),
        "finished": state.winner is not None,
        # who won, for the undo that would reopen the game ("Ana", "Ana & Ben")
        "winner_label": " & ".join(state.players[s].name for s in winning_seats(state.winner)) if state.winner else "",
        "deleted": view.row.deleted_at is not None,
        # the game the table started after this finished one: offered instead of starting another
        "following": service.next_game(view.row) if view.row.next_game_id and state.winner is not None else None,
        "current_name": state.players[state.current_player].name,
        "current": state.current_player,
        "pending": state.pending,
        "alerts": [],
        "log": list(reversed(log)),
        "log_lines": LOG_LINES,
        "log_all": False,
        "log_url": url_for("pages.game_log", game_id=view.row.id),
        "board": token_row(state.board, kind.token_kinds),
        "board_total": state.board.total,
        "entry_id": new_entry_id,  # called by each form: one key per form (two royal cards are two entries)
        "letters": LETTERS.table(),
        "chip_names": CHIP_NAMES.table(),
        "i18n": get_translations(),
        "token_names": narrate.TOKEN_NAMES,
        "actions": kind.action_labels(),
        "template": kind.template,
        "near": {seat: near_wins(view, seat) for seat in range(len(state.players))},
        "plan_seats": plan_seats(state),
        "poll_seconds": current_app.config.get("POLL_SECONDS", 2),
    }


def _single_winner(winner: Any) -> int | str:
    """The seat of a game's one winner (Duel, or Splendor without a shared win), else ''."""
    if winner is None:
        return ""
    seats = winning_seats(winner)
    return seats[0] if len(seats) == 1 else ""


def game_context(view: GameView) -> dict[str, Any]:
    """Everything the ``game`` block shows, for the game's kind."""
    view = named_now(view)
    if view.row.game == "splendor":
        return splendor_context(view)
    return duel_context(view)


def named_now(view: GameView) -> GameView:
    """A finished game's view with its players under their names of now (renamed on the Players
    page since), as History and the review show them: its banner, panels, alerts and "New game,
    same players" agree with the night's tally; its log says them too (``service.narrated``).
    The exported log keeps the names as recorded. A game in progress is drawn as recorded (its
    screen is drawn on every entry; a rename mid-game shows once it ends). For a finished game:
    one query, and a replay under the new names when there are any, once per request (``g``);
    the view itself is unchanged."""
    if view.state.winner is None:
        return view
    kept = g.setdefault("tracker_named_now", {})
    key = (view.row.id, view.version)
    if key not in kept:
        now = people.display_names(view.row)
        renamed = now != list(view.row.setup.get("players", ()))
        kept[key] = replace(view, state=view.engine.replay(dict(view.row.setup, players=now), view.events)) \
            if renamed else None
    return kept[key] or view


def duel_context(view: GameView) -> dict[str, Any]:
    """The Duel screen: both panels (the player to act at the bottom), status, prompts."""
    state = view.state
    me = state.current_player
    winner = None
    if state.winner is not None:
        w = state.winner
        winner = {
            "name": state.players[w.player].name,
            "routes": [narrate.ROUTE_NAMES[r] for r in w.routes],
            # the banner's mark: ♛ for a win by crowns alone (D-11.2), else the winner's ★ of
            # History and classic Splendor (♛ over a prestige win read as a crowns win)
            "mark": "♛" if list(w.routes) == [duel.Route.CROWNS.value] else "★",
            "panel": panel(state, w.player),
            "other": panel(state, 1 - w.player),
        }
    return {
        **_common(view),
        "top": panel(state, 1 - me),
        "bottom": panel(state, me),
        "extra_turn": state.extra_turn_follows,
        "playing_extra_turn": state.playing_extra_turn,
        "winner": winner,
        "goals": {"prestige": duel.PRESTIGE_TO_WIN, "crowns": duel.CROWNS_TO_WIN, "color": duel.COLOR_POINTS_TO_WIN,
                  "tokens": duel.TOKEN_LIMIT, "reserved": duel.MAX_RESERVED},
        "bag": token_row(state.bag),
        "bag_total": state.bag.total,
        "privileges_supply": state.privileges_supply,
        "royals_available": [royal_view(r) for r in state.royals_available],
    }


def picked(args: Any, name: str = "t") -> Tokens:
    """The tokens picked so far in a composing sheet (repeated query values ``t=red&t=red``)."""
    counts: dict[str, int] = {}
    for kind in args.getlist(name)[:20]:
        if kind in TOKEN_KINDS:
            counts[kind] = counts.get(kind, 0) + 1
    return Tokens(**counts)


def sheet_of_entry(view: GameView, event: Any) -> tuple[str | None, Any]:
    """The sheet, and its query, an entry ``event`` (a GAME-LOG.md dict as a form posted it) is
    composed on: a purchase's card chosen (``buy``), a reserve's card or secret level
    (``reserve``), the tokens picked (``take``); ``(None, MultiDict())`` for anything else or an
    entry that names nothing this game has. A refused save without JavaScript draws it again with
    its refusal (D-6, D-7, S-2), as the htmx sheet keeps its choices."""
    from werkzeug.datastructures import MultiDict

    if not isinstance(event, Mapping):
        return None, MultiDict()
    kind = kind_of(view)
    card = kind.card(event.get("card")) if isinstance(event.get("card"), str) else None
    if event.get("type") == "purchase" and card is not None:
        source = "reserve" if event.get("from_reserve") is True else str(card.level)
        return "buy", MultiDict([("src", source), ("card", card.id)])
    if event.get("type") == "reserve":
        if card is not None:
            return "reserve", MultiDict([("src", str(card.level)), ("card", card.id)])
        if event.get("level") in LEVELS:
            return "reserve", MultiDict([("secret", str(event["level"]))])
    tokens = event.get("tokens")
    if event.get("type") == "take_tokens" and isinstance(tokens, Mapping):
        kinds = [k for k in TOKEN_KINDS for _ in range(min(3, tokens.get(k, 0)) if isinstance(tokens.get(k), int) else 0)]
        return "take", MultiDict([("t", k) for k in kinds])
    return None, MultiDict()


def _pick_query(kinds: list[str]) -> str:
    """The query string of a composing sheet with these tokens picked (kinds are plain words)."""
    return "&".join(f"t={k}" for k in kinds)


def picker(source: Tokens, chosen: Tokens, limit: int, kinds: tuple[str, ...],
           allows: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """A token picker: chips of ``source`` minus what is chosen, and the chosen chips.

    Tapping a source chip adds one (while under ``limit`` and, with ``allows``, while
    ``allows(kind)`` says the pick can go on with it); tapping a chosen chip removes one:
    ``add``/``remove`` are the query strings of the sheet after that tap (``t=red&t=blue``).
    """
    letters = LETTERS.table()  # one locale lookup for the whole function
    chosen_list = [k for k, n in chosen.items() for _ in range(n)]
    chips = []
    for k in kinds:
        left = max(0, source.get(k) - chosen.get(k))  # (a stale sheet picked more than the board holds)
        chips.append({"kind": k, "letter": letters[k], "left": left, "name": narrate.TOKEN_NAMES[k],
                      "add": _pick_query(chosen_list + [k]), "can_add": left > 0 and chosen.total < limit and (allows is None or allows(k))})
    selected = []
    for i, k in enumerate(chosen_list):
        selected.append({"kind": k, "letter": letters[k], "remove": _pick_query(chosen_list[:i] + chosen_list[i + 1:]),
                         "name": narrate.TOKEN_NAMES[k]})
    return {"chips": chips, "selected": selected, "chosen": chosen, "limit": limit, "count": chosen.total}


def take_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """Take up to 3 tokens (D-5): the board as chips, the pick, the preview."""
    state = view.state
    kind = kind_of(view)
    chosen = picked(args)
    data = {"type": "take_tokens", "player": state.current_player, "tokens": chosen.to_dict(skip_zero=True)}
    said = preview(view, data) if chosen else None
    if said is not None and not said.ok and _completes(view, data, chosen, kind.max_take, kind.take_kinds):
        # one red of Splendor's "3 different or 2 alike" is no mistake yet: say how to go on (S-2.1)
        said = Preview(hint=_take_hint(view, data, chosen))
    # Splendor's chips stop at a pick no gem can complete (a third red, red after red and blue: S-2.1/2.2)
    allows = (lambda k: splendor.can_add_to_take(state.board, chosen, k)) if view.row.game == "splendor" else None
    limit = kind.max_take
    if allows is not None:  # two colours left and none at 4: a take is 2 at most ("1/2", not "1/3")
        limit = splendor.most_to_take(state.board) or limit
    if allows is not None and chosen.total and not any(allows(k) for k in kind.take_kinds):
        limit = chosen.total  # a whole take (2 alike, S-2.2): "2/2", not "2/3" (a tester looked for a third)
    out = {"sheet": "take", "pick": picker(state.board, chosen, limit, kind.take_kinds, allows),
           "preview": said, "data": data, "pass": None, "splendor": view.row.game == "splendor",
           # D-6, S-2.3: with three reserved cards, or (Duel) no gold on the board, an empty board
           # leaves buying (the hint says so; a tester read "or reserve" on a board without gold)
           "cannot_reserve": len(state.players[state.current_player].reserved) >= duel.MAX_RESERVED
           or (view.row.game == "duel" and not state.board.get("gold"))}
    if view.row.game == "splendor":  # the rules say when a player can take no action (S-2 ruling)
        # S-2.1's ruling: with fewer than 3 colours in the supply, fewer than 3 gems (the heading
        # said "3 different gems" with two colours left: a tester); S-2.2: 2 alike from 4
        out["colours_left"] = len(splendor.colors_in_supply(state))
        out["two_alike"] = splendor.two_alike_allowed(state.board)
        passing = {"type": "pass", "player": state.current_player}
        allowed = preview(view, passing)
        out["pass"] = {"data": passing, "preview": allowed} if allowed.ok else None
    return out


def _take_hint(view: GameView, data: dict[str, Any], chosen: Tokens) -> str:
    """How an incomplete take goes on (S-2.1, S-2.2): one more colour, two more, or the same
    colour again when the supply allows 2 alike."""
    kinds = [k for k in TOKEN_KINDS if chosen.get(k)]
    if len(kinds) > 1:
        return _("Go on: one more colour.")
    doubled = Tokens.of({kinds[0]: 2}).to_dict(skip_zero=True)
    if preview(view, {**data, "tokens": doubled}).ok:
        return _("Go on: two more colours, or one more %(color)s for 2 alike.", color=narrate.TOKEN_NAMES[kinds[0]])
    supply = view.state.board.get(kinds[0])
    if view.row.game == "splendor" and supply < splendor.TAKE_TWO_MIN_SUPPLY:
        # why its chip went grey: 2 alike need 4 of that colour in the supply (S-2.2)
        return _("Go on: two more colours (2 alike need at least 4 %(color)s in the supply; there are %(n)s).",
                 color=narrate.TOKEN_NAMES[kinds[0]], n=supply)
    return _("Go on: two more colours.")


def _completes(view: GameView, data: dict[str, Any], chosen: Tokens, most: int, kinds: Sequence[str]) -> bool:
    """True when ``chosen`` (refused as it is) becomes a legal take with more tokens, up to
    ``most`` (S-2.1: one gem, or two of different colours, on the way to three)."""
    if chosen.total >= most:
        return False
    for kind in kinds:
        more = chosen + Tokens.of({kind: 1})
        if preview(view, {**data, "tokens": more.to_dict(skip_zero=True)}).ok \
                or _completes(view, data, more, most, kinds):
            return True
    return False


def privileges_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """Use privileges (D-3.1): one gem or pearl from the board per privilege."""
    state = view.state
    me = state.players[state.current_player]
    chosen = picked(args)
    data = {"type": "use_privileges", "player": state.current_player, "tokens": chosen.to_dict(skip_zero=True)}
    return {"sheet": "privileges", "pick": picker(state.board, chosen, me.privileges, GEM_COLORS + (PEARL,)),
            "held": me.privileges, "preview": preview(view, data) if chosen else None, "data": data,
            "replenish": preview(view, {"type": "replenish", "player": state.current_player}),
            # said only to a holder: one with none has no privilege to use anyway
            "after_replenish": state.replenished and me.privileges > 0, "bag_empty": not state.bag,
            "rule": "D-3.1"}  # GAME-LOG.md's rule of privilege_after_replenish (duel.py)


def discard_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """Discard down to 10 (D-10): the player's own tokens as chips."""
    state = view.state
    seat = state.current_player
    pending = state.pending
    count = pending.count if pending is not None and pending.kind == "discard" else 0
    chosen = picked(args)
    data = {"type": "discard", "player": seat, "tokens": chosen.to_dict(skip_zero=True)}
    return {"sheet": "discard", "pick": picker(state.players[seat].tokens, chosen, count, kind_of(view).token_kinds),
            "count": count, "preview": preview(view, data) if chosen.total == count and count else None, "data": data}


def _int_arg(args: Any, name: str, choices: tuple[int, ...], default: int) -> int:
    try:
        value = int(args.get(name, default))
    except (TypeError, ValueError):
        return default
    return value if value in choices else default


def _opening_level(args: Any, state: Any) -> int:
    """The level tab a Buy or Reserve sheet shows: the one asked (``src``), else the first level
    with a card still on the table (D-6, S-2.3; late in a game level 1 can be out, and every
    purchase opened on its empty tab, a tester), else level 1."""
    if "src" in args:
        return _int_arg(args, "src", LEVELS, 1)
    return next((lv for lv in LEVELS if state.cards_on_table(lv) > 0), 1)


def _catalogue_grid(kind: Kind, state: Any, level: int, color: str | None, buyer: Any) -> list[dict[str, Any]]:
    """The catalogue cards of ``level`` a player may name: not bought or reserved by anyone, in
    ``color`` when given (the pyramid's callers show none once the level is out, D-6, S-2.3)."""
    taken = state.taken_cards()
    cards = [c for c in kind.level(level) if c.id not in taken and (color is None or c.color == color)]
    return [card_view(c, buyer) for c in cards]


def _payable_first(grid: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A buy grid with the cards the buyer can pay for first (a purchase is one of them: a level
    lists every card not yet taken, 30 or so, the pyramid's 4 among them), catalogue order kept
    within each part."""
    return sorted(grid, key=lambda c: not c.get("affordable"))


def plan_seat(view: GameView, args: Any) -> int | None:
    """The seat whose purchase the Buy sheet plans (``plan=<seat>`` in ``args``): one phone each,
    while another player acts, a player looks at the cards with the costs after their own
    bonuses and tokens (D-7.1, S-2.4), also while the player to act answers a prompt (a royal
    card, tokens to return, a noble: the plan stayed closed until then, a tester). None, the sheet
    is the player to act's: no such seat, the seat to act itself, the seat a prompt waits for, or
    the game over."""
    seat = whole_number(args.get("plan"))
    return seat if seat in plan_seats(view.state) else None


def plan_seats(state: Any) -> list[int]:
    """The seats that may plan a purchase now (``plan_seat``; the waiting line's "Plan my
    purchase" links): every seat but the one to act and the one a prompt waits for; none once
    the game is over."""
    if state.winner is not None:
        return []
    waited_for = state.pending.player if state.pending else None
    return [s for s in range(len(state.players)) if s not in (state.current_player, waited_for)]


def card_gone_sentence(engine: Any, state: Any, card_id: str) -> str:
    """What became of a named card no longer on the table (``engine``, ``duel`` or ``splendor``,
    says who holds it in ``state``: its ``holder_of``): "Ben reserved the card being planned: a
    level-2 red card (…)." (or bought); "The card being planned is gone: …" if no player holds it."""
    said = narrate.card_summary(card_id)
    held = engine.holder_of(state, card_id)
    if held is None:
        return _("The card being planned is gone: %(card)s.", card=said)
    _seat, name, bought = held
    if bought:
        return _("%(name)s bought the card being planned: %(card)s.", card=said, name=name)
    return _("%(name)s reserved the card being planned: %(card)s.", card=said, name=name)


def buy_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """Purchase (D-7, D-8, S-2.4): level tabs or my reserve, colour filter, card grid, payment,
    and in Duel the joker's colour and the token to steal. With ``plan=<seat>`` (``plan_seat``)
    it is that player's plan: their costs, their reserve, what they would pay, nothing to save
    (``plan`` names them, ``plan_args`` carries the seat into the sheet's own links; ``browse_args``
    those and the secret level whose candidates are shown, for the links that keep to them)."""
    letters = LETTERS.table()  # one locale lookup for the whole function
    state = view.state
    kind = kind_of(view)
    planner = plan_seat(view, args)
    seat = state.current_player if planner is None else planner
    me = state.players[seat]
    other = state.players[1 - seat] if len(state.players) == 2 else None
    source = args.get("src", "1")
    color = args.get("color") if args.get("color") in kind.filters else None
    from_reserve = source == "reserve"
    level = _opening_level(args, state)
    ctx: dict[str, Any] = {"sheet": "buy", "src": "reserve" if from_reserve else str(level), "color": color,
                           "filters": [(c, letters[c], narrate.TOKEN_NAMES[c]) for c in kind.filters],
                           "levels": LEVELS, "selected": None,
                           "plan": {"seat": seat, "name": me.name} if planner is not None else None,
                           "plan_args": {"plan": seat} if planner is not None else {}}
    reserved = [card_view(kind.card(r.card), me) for r in me.reserved if r.card]
    # a reserved card the buyer can pay for marks the My reserve tab (the sheet opens on a level)
    ctx["reserve_payable"] = any(c["affordable"] for c in reserved)
    if from_reserve:
        ctx["grid"] = reserved
        secret_levels = sorted({r.level for r in me.reserved if r.card is None})
        # the first secret card's level grid open from the start (which card is it?)
        reveal = _int_arg(args, "reveal", tuple(secret_levels), secret_levels[0]) if secret_levels else 0
        ctx["secret_levels"] = secret_levels
        ctx["reveal"] = reveal
        ctx["reveal_grid"] = _payable_first(_catalogue_grid(kind, state, reveal, color, me)) if reveal else []
        ctx["reveal_filters"] = bool(reveal)
        # (a filter, a card chosen and "other card" keep to that level: they came back to level 1's, a helper)
        ctx["browse_args"] = {**ctx["plan_args"], "reveal": reveal} if reveal else ctx["plan_args"]
    else:
        ctx["level_out"] = state.cards_on_table(level) <= 0
        ctx["grid"] = [] if ctx["level_out"] else _payable_first(_catalogue_grid(kind, state, level, color, me))
    card = kind.card(args.get("card"))
    if card is not None and "plan" in args and card.id in state.taken_cards() \
            and card.id not in {r.card for r in me.reserved}:
        # a plan kept across the others' entries, or carried into the real sheet once the
        # planner's turn came: the card it looked at went to someone (no refusal to offer),
        # said (it vanished from the plan without a word: a tester)
        ctx["card_gone"] = card_gone_sentence(kind.engine, state, card.id)
        card = None
    if card is not None:
        owed = kind.engine.cost_after_bonuses(me, card)
        payment, affordable = suggest_payment(owed, me.tokens)
        # The table may pay gold where it has the gem too: gold_for=<kind> moves one unit to gold.
        for paid in args.getlist("gold_for")[:10]:
            if paid in owed.to_dict() and payment.get(paid) > 0 and me.tokens.gold > payment.gold:
                payment = payment - Tokens(**{paid: 1}) + Tokens(gold=1)
        wild = args.get("wild") if args.get("wild") in GEM_COLORS else None
        is_joker = getattr(card, "is_joker", False)
        jokers = duel.joker_colors(me) if is_joker else []
        if is_joker and wild is None and len(jokers) == 1:
            wild = jokers[0]
        stealable = duel.stealable(other) if getattr(card, "ability", "") == catalog.STEAL_TOKEN else []
        steal, steal_gone = _steal_choice(args, stealable)
        data = {"type": "purchase", "player": seat, "card": card.id, "from_reserve": from_reserve,
                "payment": payment.to_dict(skip_zero=True)}
        if wild:
            data["wild_color"] = wild
        if steal:
            data["steal"] = steal
        ctx["selected"] = {
            "card": card_view(card, me),
            "payment": token_row(payment, tuple(k for k in TOKEN_KINDS if payment.get(k))),
            # What the gold in the payment stands for: the owed tokens it replaces, by kind.
            "gold_covers": token_row(owed - payment, tuple(k for k in GEM_COLORS + (PEARL,) if payment.get(k) < owed.get(k)))
            if affordable and payment.gold else [],
            "gold_for": args.getlist("gold_for")[:10],
            "can_swap": [k for k in GEM_COLORS + (PEARL,) if payment.get(k) > 0 and me.tokens.gold > payment.gold],
            "joker_colors": [(c, letters[c], narrate.TOKEN_NAMES[c]) for c in jokers],
            "wild": wild,
            "steal_options": steal_options(letters, other, stealable),
            "steal": steal,
            "steal_gone": _steal_gone(other, steal_gone) if stealable else "",
            # (a joker with no bonus colour to join is not bought, whatever the tokens: no payment shown)
            "affordable": affordable and (not is_joker or bool(jokers)),
            # a card of a level the buyer holds a secret card of, tapped on its level's tab: it may be
            # that card (a tester's buy of it from the level tab left the secret card in the reserve)
            "secret_level": card.level if not from_reserve and card.level in
            {r.level for r in me.reserved if r.card is None} else None,
            "secret_count": sum(1 for r in me.reserved if r.card is None and r.level == card.level),
        }
        ctx["data"] = data
        if planner is not None:  # a plan: what it would cost, nothing to save or choose yet
            missing = {k: max(0, owed.get(k) - me.tokens.get(k)) for k in GEM_COLORS + (PEARL,)}
            ctx["selected"].update(joker_colors=[], steal_options=[], can_swap=[],
                                   # what the planner's tokens lack, by kind, and in all once their gold is spent
                                   missing=token_row(Tokens(**missing), tuple(k for k in missing if missing[k])),
                                   short=max(0, sum(missing.values()) - me.tokens.gold))
            ctx["preview"] = None
            return ctx
        ctx["preview"] = preview(view, data)
        # A choice still to tap (the joker's colour, the token to steal) is asked, not refused:
        # said neutrally when making it is all the entry lacks.
        choices = []  # (field, a value to try, what to ask)
        if is_joker and not wild and jokers:
            choices.append(("wild_color", jokers[0], _("Choose the colour the joker joins.")))
        if other is not None and stealable and not steal:
            choices.append(("steal", stealable[0], _("Name the token to take from %(other)s.", other=other.name)))
        if choices and not ctx["preview"].ok:
            # with the choices made: the entry goes through (ask for them), or the refusal that
            # remains is the reason to say (a joker its buyer cannot pay for: "cannot pay")
            chosen = preview(view, {**data, **{f: v for f, v, _ask in choices}})
            ctx["preview"] = Preview(hint=" ".join(ask for _f, _v, ask in choices)) if chosen.ok else chosen
    return ctx


def reserve_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """Reserve (D-6): a face-up card from the catalogue or a secret card of level N."""
    letters = LETTERS.table()  # one locale lookup for the whole function
    state = view.state
    kind = kind_of(view)
    seat = state.current_player
    me = state.players[seat]
    level = _opening_level(args, state)
    color = args.get("color") if args.get("color") in kind.filters else None
    level_out = state.cards_on_table(level) <= 0  # D-6, S-2.3: no card of that level is left to name
    ctx: dict[str, Any] = {"sheet": "reserve", "src": str(level), "color": color, "levels": LEVELS,
                           "filters": [(c, letters[c], narrate.TOKEN_NAMES[c]) for c in kind.filters],
                           "grid": [] if level_out else _catalogue_grid(kind, state, level, color, None),  # as printed
                           "level_out": level_out,
                           "decks": [(lv, max(0, state.deck_left(lv))) for lv in LEVELS], "selected": None,
                           "gold": state.board.gold > 0,
                           # D-6: a Duel reserve takes a gold; said before a card is tapped
                           "no_gold": view.row.game == "duel" and not state.board.gold,
                           "rule": "D-6" if view.row.game == "duel" else "S-2.3",  # reserving (full, no gold)
                           # D-6, S-2.3: three reserved cards already: said at once, no grid to tap
                           "full": len(me.reserved) >= duel.MAX_RESERVED}
    card = kind.card(args.get("card"))
    secret = _int_arg(args, "secret", LEVELS, 0)
    data: dict[str, Any] | None = None
    if card is not None:
        data = {"type": "reserve", "player": seat, "card": card.id}
        ctx["selected"] = card_view(card, me)
    elif secret:
        data = {"type": "reserve", "player": seat, "level": secret}
        ctx["selected"] = {"secret": True, "level": secret}
    if data is not None:
        ctx["data"] = data
        ctx["preview"] = preview(view, data)
    return ctx


def royal_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """The royal card due (D-9): available royals, each with what taking it records; DR-4 asks
    which token to steal (``steal``), then shows what taking it records (``steal_preview``)
    above its save. Once a card is chosen (``royal``), the others only choose (no save of their
    own under the thumb)."""
    letters = LETTERS.table()  # one locale lookup for the whole function
    state = view.state
    seat = state.current_player
    other = state.players[1 - seat]
    choice = args.get("royal") if args.get("royal") in state.royals_available else None
    stealable = duel.stealable(other)
    royals = []
    for rid in state.royals_available:
        royal = royal_view(rid)
        royal["needs_steal"] = royal["ability"] == catalog.STEAL_TOKEN and bool(stealable)
        # what taking it records and causes (a privilege from the other player, the win…)
        royal["preview"] = None if royal["needs_steal"] else \
            preview(view, {"type": "take_royal", "player": seat, "royal": rid})
        royals.append(royal)
    # DR-4: the token chosen, then what taking the card records (said before it happens, as a buy's steal)
    steals = any(r["id"] == choice and r["needs_steal"] for r in royals)
    steal, steal_gone = _steal_choice(args, stealable) if steals else (None, None)
    steal_preview = preview(view, {"type": "take_royal", "player": seat, "royal": choice, "steal": steal}) \
        if steal else None
    return {"sheet": "royal", "royals": royals, "choice": choice, "choice_steals": steals,
            "steal_options": steal_options(letters, other, stealable), "steal": steal, "steal_preview": steal_preview,
            "steal_gone": _steal_gone(other, steal_gone) if stealable else "",
            "steal_name": CHIP_NAMES.table().get(steal, "") if steal else "",
            "other_name": other.name}


def board_name(view: GameView) -> str:
    """What the Fix sheet calls the tokens on the table: Duel's "board", classic Splendor's "supply"."""
    return _("board") if view.row.game == "duel" else _("supply")


def correction_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """A correction: one player's tokens and privileges, the board and the bag, pre-filled with
    the table's counts, or with counts the address gives (``tokens-red=2``, ``board-red=1``,
    ``bag-…``, whole numbers 0–99, and ``note``): the board and bag typed before a switch of
    player, or a suggested first fix (``fix_transfers``). ``typed`` says some were given."""
    state = view.state
    kinds = kind_of(view).token_kinds
    seat = _int_arg(args, "p", tuple(range(len(state.players))), state.current_player)
    p = state.players[seat]
    duel_game = view.row.game == "duel"
    rows = {"tokens": token_row(p.tokens, kinds), "board": token_row(state.board, kinds),
            "bag": token_row(state.bag) if duel_game else None}
    typed = False
    for prefix, row in rows.items():
        for chip in row or ():
            count = whole_number(args.get(f"{prefix}-{chip['kind']}", ""))
            chip["table"] = chip["count"]  # the count the table has (the field's orig-…)
            if count is not None and 0 <= count <= 99 and count != chip["count"]:
                chip["count"], typed = count, True
    note = str(args.get("note", ""))[:500]
    privileges = whole_number(args.get("privileges", "")) if duel_game else None
    if privileges is not None and 0 <= privileges <= 3 and privileges != p.privileges:
        typed = True
    else:
        privileges = p.privileges if duel_game else None
    return {"sheet": "correction", "seat": seat, "names": [pl.name for pl in state.players],
            "privileges_table": p.privileges if duel_game else None,
            "then": str(args.get("then", ""))[:1000],
            "tokens": rows["tokens"], "privileges": privileges,
            "board": rows["board"], "bag": rows["bag"], "note": note, "typed": typed or bool(note),
            "board_name": board_name(view)}


def fix_transfers(view: GameView, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A correction refused for its totals that gives its player tokens another player holds:
    the token may have gone to that player by mistake (a steal, a privilege entered for the
    wrong one). One correction fixes one player (GAME-LOG.md), so the way is two fixes: first
    the other player's count down, the board taking the tokens back; then this one's, from the
    board. For each such kind and holder: ``{"seat", "name", "kind", "args"}``, ``args`` the Fix
    sheet's address for that first fix (``p``, the holder's and the board's counts, the note)."""
    state = view.state
    try:
        event = parse_event(dict(data), len(state.players))
    except RuleError:
        return []
    if event.type != "correction" or event.tokens is None:
        return []
    me = state.players[event.player]
    # once the first fix is saved, this player's sheet again, with the counts typed for them
    then = urlencode({"p": event.player, **{f"tokens-{k}": n for k, n in event.tokens.to_dict().items()},
                      **({"privileges": event.privileges} if getattr(event, "privileges", None) is not None else {}),
                      **({"note": data.get("note")} if data.get("note") else {})})
    out = []
    for kind in TOKEN_KINDS:
        gained = event.tokens.get(kind) - me.tokens.get(kind)
        for seat, other in enumerate(state.players):
            held = other.tokens.get(kind)
            if seat == event.player or gained <= 0 or held <= 0:
                continue
            moved = min(gained, held)
            out.append({"seat": seat, "name": other.name, "kind": kind, "count": moved, "kind_name": narrate.TOKEN_NAMES[kind],
                        "board": board_name(view),
                        "args": {"p": seat, f"tokens-{kind}": held - moved, f"board-{kind}": state.board.get(kind) + moved,
                                 **({"note": data.get("note")} if data.get("note") else {}), "then": then}})
    return out


def fix_balancing(view: GameView, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The Fix sheet's one-tap ways to make a correction refused for its token totals acceptable
    (D-12, S-1): for ``data`` (a correction as ``pages.form_event`` reads the form), the counts of
    one part the table did not retype (the board, the bag, the player's tokens) that restore
    every total broken, as ``{"set": {"board-blue": 2}, "label": "board, blue: 1 → 2"}`` (the
    form's inputs and their counts; several when several kinds are off). Only what the rules
    then accept is offered (a refusal of the privileges too offers nothing); empty when the
    entry is no correction the parser takes."""
    state = view.state
    try:
        event = parse_event(dict(data), len(state.players))
    except RuleError:
        return []
    if event.type != "correction":
        return []
    found = view.engine.fix_balancing(state, event)
    kinds = list(dict.fromkeys(kind for _part, kind, _old, _new in found))
    by_part: dict[str, list[tuple[str, int, int]]] = {}
    for part, kind, old, new in found:
        by_part.setdefault(part, []).append((kind, old, new))
    # one kind off: each part that restores it; several: a part that restores them all at once,
    # else each kind from the first part that can give it, together (white only from the bag,
    # pearls only from the board: nothing was offered, a tester)
    options = [[change] for change in found] if len(kinds) == 1 else \
        [[(part, *change) for change in changes] for part, changes in by_part.items() if len(changes) == len(kinds)]
    if len(kinds) > 1 and not options:  # (a part the fix leaves alone first)
        typed = data.get("set", {})
        ranked = sorted(found, key=lambda change: change[0] in typed)
        options = [[next(change for change in ranked if change[1] == kind) for kind in kinds]]
    names = {"tokens": state.players[event.player].name,
             "board": board_name(view), "bag": _("bag")}
    chips = CHIP_NAMES.table()
    out = []
    for option in options:
        fixed = {key: dict(value) if isinstance(value, dict) else value for key, value in data.get("set", {}).items()}
        for part, kind, _old, new in option:
            fixed.setdefault(part, getattr(state, part).to_dict() if part != "tokens"
                             else state.players[event.player].tokens.to_dict())[kind] = new
        try:
            view.engine.apply(state, parse_event({**data, "set": fixed}, len(state.players)))
        except RuleError:
            continue
        out.append({"set": {f"{part}-{kind}": new for part, kind, _old, new in option},
                    "label": narrate.parts_separator().join(_("%(part)s, %(kind)s: %(old)s → %(new)s", part=names[part],
                                         kind=chips.get(kind, kind), old=old, new=new)
                                       for part, kind, old, new in option)})
    return out


def noble_sheet(view: GameView, args: Any) -> dict[str, Any]:
    """The noble choice when several qualify at the end of a turn (S-3.2)."""
    state = view.state
    pending = state.pending
    choices = list(pending.choices) if pending is not None and pending.kind == "noble" else []
    nobles = [noble_view(n) for n in choices]
    for n in nobles:  # what saving records, the game's end too (S-4), as every other save says
        n["preview"] = preview(view, {"type": "take_noble", "player": pending.player, "noble": n["id"]})
    # a choice that ends the game (the final round's last turn) leaves no later turn for the
    # others to visit on (a tester)
    last_turn = any(n["preview"].ends_game for n in nobles)
    return {"sheet": "noble", "nobles": nobles, "last_turn": last_turn}


def noble_view(noble_id: str, bonuses: dict[str, int] | None = None) -> dict[str, Any]:
    """A noble tile: its prestige, its bonus requirements and, for ``bonuses``, what is missing."""
    letters = LETTERS.table()  # one locale lookup for the whole function
    noble = catalog.nobles()[noble_id]
    needs = [(k, letters[k], n) for k, n in noble.requires.items() if n]
    out: dict[str, Any] = {"id": noble_id, "points": noble.points, "needs": needs}
    if bonuses is not None:
        out["missing"] = sum(max(0, n - bonuses.get(k, 0)) for k, _letter, n in needs)
    return out


def splendor_panel(state: splendor.SplendorState, seat: int) -> dict[str, Any]:
    """One Splendor player: prestige, bonuses, tokens, reserve, nobles, and the nobles nearest
    (two, or one at four players; every noble already reached, S-3.2: a choice of two showed one,
    and every noble as near as the nearest when one bonus short)."""
    letters = LETTERS.table()  # one locale lookup for the whole function
    p = state.players[seat]
    bonuses = p.bonuses
    shown = 2 if len(state.players) < 4 else 1  # four panels and the token chips fit one phone screen
    near = sorted((noble_view(n, bonuses) for n in state.nobles_available), key=lambda n: n["missing"])
    # (and every noble as near as the nearest when it is one bonus away: one purchase may then
    # bring a choice between them, S-3.2; four panels showed one, and the choice came unwarned, a tester)
    close = sum(1 for n in near if n["missing"] == near[0]["missing"]) if near and near[0]["missing"] <= 1 else 0
    near = near[:max(shown, close)]
    return {
        "seat": seat,
        "name": p.name,
        "is_current": seat == state.current_player and state.winner is None,
        "is_winner": state.winner is not None and seat in winning_seats(state.winner),
        "is_start": seat == state.first_player,  # S-4: every round starts with them, the last ends before them
        "prestige": p.prestige,
        "bonuses": [{"kind": c, "letter": letters[c], "count": bonuses[c]} for c in GEM_COLORS],
        "tokens": token_row(p.tokens, KINDS["splendor"].token_kinds),
        "token_total": p.tokens.total,
        "reserved": reserved_views(p, catalog.development_cards()),
        "nobles": [noble_view(n) for n in p.nobles],
        "near": near,
        "cards": len(p.cards),
    }


def ranking(state: splendor.SplendorState) -> list[dict[str, Any]]:
    """Players by final standing (S-4): most prestige, then fewest development cards."""
    order = sorted(range(len(state.players)), key=lambda s: (-state.players[s].prestige, len(state.players[s].cards)))
    winners = set(state.winner.players) if state.winner is not None else set()
    standing = {s: (-state.players[s].prestige, len(state.players[s].cards)) for s in order}
    return [{"seat": s, "name": state.players[s].name, "prestige": state.players[s].prestige,
             "cards": len(state.players[s].cards), "winner": s in winners,
             "rank": 1 + sum(1 for t in order if standing[t] < standing[s])}  # a tie shares its rank
            for s in order]


def final_round_leader(state: splendor.SplendorState) -> dict[str, Any] | None:
    """S-4 during the final round: who would win were it over now, for the players still to
    play (a tester: two players on 15, the banner alone told who led on fewer cards). ``{"names":
    [...], "prestige": n, "cards": n, "by_cards": bool}``: one name, or several level on both
    (a shared win so far); ``by_cards`` when the lead is on the fewest cards over a prestige tie.
    None before the final round and once the game is over."""
    if not state.final_round or state.winner is not None:
        return None
    standing = ranking(state)
    first = [r for r in standing if r["rank"] == 1]
    tied = [r for r in standing if r["prestige"] == first[0]["prestige"]]
    return {"names": [r["name"] for r in first], "prestige": first[0]["prestige"], "cards": first[0]["cards"],
            "by_cards": len(first) == 1 and len(tied) > 1}


def splendor_context(view: GameView) -> dict[str, Any]:
    """The Splendor screen: 2–4 compact panels in seat order, nobles on display, final round, ranking."""
    state = view.state
    still = []
    if state.final_round and state.winner is None:
        seat = state.current_player
        while True:
            still.append(state.players[seat].name)
            if seat == state.last_seat:
                break
            seat = (seat + 1) % len(state.players)
    tie_note = None
    leader = final_round_leader(state) if still else None
    if state.winner is not None:
        top = ranking(state)
        tied = [r for r in top if r["prestige"] == top[0]["prestige"]]
        if len(tied) > 1:
            tie_note = {"prestige": top[0]["prestige"], "shared": len(state.winner.players) > 1,
                        "tied": tied, "cards": state.winner.cards}
    return {
        **_common(view),
        "panels": [splendor_panel(state, s) for s in range(len(state.players))],
        "nobles_available": [noble_view(n) for n in state.nobles_available],
        "final_round": state.final_round,
        "still_to_play": still,
        "leader": leader,
        "ranking": ranking(state) if state.winner is not None else [],
        "tie_note": tie_note,
        "winner_names": [state.players[s].name for s in state.winner.players] if state.winner else [],
        "goals": {"prestige": splendor.PRESTIGE_TO_END, "tokens": splendor.TOKEN_LIMIT,
                  "reserved": splendor.MAX_RESERVED},
    }


SHEETS = {
    "noble": noble_sheet,
    "take": take_sheet,
    "buy": buy_sheet,
    "reserve": reserve_sheet,
    "privileges": privileges_sheet,
    "discard": discard_sheet,
    "royal": royal_sheet,
    "correction": correction_sheet,
}


def sheet_for(view: GameView, wanted: str | None, args: Any = None) -> str:
    """The sheet to show: the prompt the rules raised (no other action can be entered before
    it), or the Fix sheet opened from it (the counts behind the prompt may be wrong: 12 tokens on
    the screen, 10 in the player's hand), or another player's plan of their purchase (``args``
    with ``plan``: nothing is entered from it), else ``wanted`` when it is one of this game's entry
    tabs, else take."""
    pending = view.state.pending
    if pending is not None:
        if wanted == "buy" and args is not None and plan_seat(view, args) is not None:
            return "buy"
        return "correction" if wanted == "correction" else pending.kind
    if wanted not in {key for key, _label in kind_of(view).actions}:
        return "take"
    return wanted


def alerts(view: GameView) -> list[dict[str, Any]]:
    """The alerts the last write raised (GAME-LOG.md kinds), translated: those the entries before
    it raised under the prompt it answered (``raised_under_prompts``, ``earlier`` True), then its
    own (``own_alerts``). Each dict: ``kind``, ``player``, ``message``, ``toast``, ``said``, ``at``
    (the entry that raised it, ``raised_at``: a phone that already showed
    an earlier one as a toast, the other player's phone waiting beside the prompt, shows it no
    second time; app.js) and ``earlier``. None after an undo (it raises none: the state's are the
    entry's now last)."""
    if view.after_undo:
        return []
    return [{"kind": a.kind, "player": a.player, "message": tr(a.template, a.params), "toast": True, "said": True,
             "at": raised_at(view, at), "earlier": True}
            for at, a in raised_under_prompts(view)] + own_alerts(view)


def raised_at(view: GameView, count: int) -> str:
    """Which entry raised an alert, as a screen marks it (``"<count>.<crc>"``): the number of
    entries once it was made, and a checksum of that entry, so that another entry made in its
    place after an undo (3 red where 3 green was undone) is not taken for it by a phone that
    showed the first one's alert (app.js)."""
    entry = json.dumps(event_to_dict(view.events[count - 1]), sort_keys=True)
    return f"{count}.{zlib.crc32(entry.encode()):08x}"


def own_alerts(view: GameView) -> list[dict[str, Any]]:
    """The alerts the last entry itself raised, translated. ``toast`` is False for one the screen
    states itself (a prompt still due, the victory banner, the visit of the noble just chosen,
    which the entry's own toast says): it is felt and read out, not drawn over the screen;
    ``said`` is False for one the entry's toast says in other words (that visit: read out twice,
    a screen reader user heard). None after an undo."""
    if view.after_undo:
        return []
    state = view.state
    stated = (("victory",) if state.winner is not None else ()) + (narrate.PROMPT_ALERTS if state.pending else ())
    told: tuple[str, ...] = ()
    if view.events and view.events[-1].type == "take_noble":  # the entry's own toast says the visit
        stated += ("noble_visit",)
        told = ("noble_visit",)
    # the win of a player renamed meanwhile is told under the name of now
    at = raised_at(view, len(view.events)) if view.events else "0"
    return [{"kind": a.kind, "player": a.player, "message": tr(a.template, a.params), "toast": a.kind not in stated,
             "said": a.kind not in told, "at": at, "earlier": False}
            for a in named_now(view).state.alerts]


def raised_under_prompts(view: GameView) -> list[Any]:
    """When the last entry answered a prompt (a discard, a royal card, a noble) and the turn has
    no prompt left: the alerts the entries before it in the turn raised together with their
    prompt, which the prompt hid (a tester: "Tara gains a privilege", from Omar's take of 3 green,
    was never shown: his discard came first, then its own toast). Oldest first, each as
    ``(entries, alert)``: the number of entries once the entry that raised it was made; the
    prompts' own alerts left out. Empty otherwise."""
    events = view.events
    if view.after_undo or not events or view.state.pending is not None \
            or events[-1].type not in ("discard", "take_royal", "take_noble"):
        return []
    hidden: list[tuple[int, Any]] = []
    # (the states after the last few entries before this one: from the game's snapshot, no replay)
    for at, earlier in reversed(service.recent_states(view, 5)):  # back through the entries answered in turn, while a prompt was due
        if earlier.pending is None:
            break
        hidden = [(at, a) for a in earlier.alerts if a.kind not in narrate.PROMPT_ALERTS] + hidden
    return hidden
