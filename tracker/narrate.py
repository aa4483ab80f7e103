"""Plain-words sentences for the game log and the preview line (translated).

Presentation only: every figure comes from the states the rules computed before and after.
"""

from __future__ import annotations

import functools
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext as _lp
from flask_babel import ngettext, pgettext

from .i18n import letter_list, noble_name, tr
from .rules import catalog, duel, splendor
from .rules.events import (
    Correction,
    Discard,
    Event,
    Purchase,
    Pass,
    Replenish,
    Reserve,
    TakeNoble,
    TakeRoyal,
    TakeTokens,
    UsePrivileges,
)
from .rules.tokens import Tokens

TOKEN_NAMES = {
    "white": _l("white"),
    "blue": _l("blue"),
    "green": _l("green"),
    "red": _l("red"),
    "black": _l("black"),
    "pearl": _l("pearl"),
    "gold": _l("gold"),
    "wild": _l("joker"),
    "none": _l("colourless"),
}

#: Alerts that ask for the table's next entry (GAME-LOG.md kinds): the screen shows them as its
#: prompt, and the log line after says how each was answered.
PROMPT_ALERTS = ("royal_due", "discard_due", "noble_due")

ROUTE_NAMES = {
    "prestige": _l("20 prestige"),
    "crowns": _l("10 crowns"),
    "color": _l("10 prestige in one colour"),
}

#: The rulebook section each rule id (RULES.md) belongs to, as the players' rulebook names it:
#: a refusal says "(buying a card)", not an id that only RULES.md explains (two first-time
#: testers read "D-7" as jargon). Looked up by the whole id ("S-2.1"), else by its section
#: ("D-7.2" → "D-7").
RULE_TITLES = {
    "D-1": _lp("rule", "components and setup"),
    "D-2": _lp("rule", "a turn's order"),
    "D-3": _lp("rule", "privileges"),
    "D-4": _lp("rule", "replenishing the board"),
    "D-5": _lp("rule", "taking tokens"),
    "D-6": _lp("rule", "reserving a card"),
    "D-7": _lp("rule", "buying a card"),
    "D-8": _lp("rule", "card abilities"),
    "D-9": _lp("rule", "royal cards"),
    "D-10": _lp("rule", "10 tokens at most"),
    "D-11": _lp("rule", "victory"),
    "D-12": _lp("rule", "the game's totals"),
    "S-1": _lp("rule", "setup: the pieces and players"),
    "S-2": _lp("rule", "one action per turn"),
    "S-2.1": _lp("rule", "taking 3 different gems"),
    "S-2.2": _lp("rule", "taking 2 gems of one colour"),
    "S-2.3": _lp("rule", "reserving a card"),
    "S-2.4": _lp("rule", "buying a card"),
    "S-3": _lp("rule", "end of turn"),
    "S-3.1": _lp("rule", "10 tokens at most"),
    "S-3.2": _lp("rule", "nobles"),
    "S-4": _lp("rule", "end of the game"),
}


def parts_separator() -> str:
    """What stands between the parts of one sentence ("paid 3 red; crowns 0 → 1"): "; " in
    English, " · " in Korean (a semicolon is no Korean punctuation: a Korean tester)."""
    return pgettext("between the parts of a sentence", "; ")


def rule_label(rule: str | None) -> str:
    """A refusal's rule id as the players read it: ``"D-7"`` → ``"buying a card"`` in the
    current language (RULE_TITLES); ``""`` for an id without a title, or none (the id itself
    stays in the API's error and the page's ``data-rule``)."""
    if not rule:
        return ""
    title = RULE_TITLES.get(rule) or RULE_TITLES.get(rule.split(".")[0])
    return str(title) if title else ""


ABILITY_NAMES = {
    "extra_turn": _l("extra turn"),
    "take_token": _l("take a token"),
    "take_privilege": _l("take a privilege"),
    "steal_token": _l("steal a token"),
    "none": "",
}


def token_list(bag: Tokens) -> str:
    """``2 red, 1 pearl`` in the current language."""
    parts = [ngettext("%(num)s pearl", "%(num)s pearls", n) if k == "pearl" else _("%(n)s %(kind)s", n=n, kind=TOKEN_NAMES[k])
             for k, n in bag.items() if n]
    return ", ".join(parts) if parts else _("nothing")


def _card(card_id: str):  # type: ignore[no-untyped-def]
    return catalog.jewels().get(card_id) or catalog.development_cards()[card_id]


@functools.cache
def _LOOKALIKES() -> frozenset[str]:  # noqa: N802 — a constant made on first use
    """Ids of the cards whose words (level, colour, bonuses, prestige, crowns, ability) another
    card of the same game shares."""
    out: set[str] = set()
    for cards in (catalog.jewels(), catalog.development_cards()):
        groups: dict[tuple[Any, ...], list[str]] = {}
        for card in cards.values():
            key = (card.level, card.color, getattr(card, "bonus", 1), card.points, getattr(card, "crowns", 0),
                   getattr(card, "ability", "none"))
            groups.setdefault(key, []).append(card.id)
        out.update(card_id for ids in groups.values() if len(ids) > 1 for card_id in ids)
    return frozenset(out)


def card_summary(card_id: str) -> str:
    """``a level-2 red card (2 prestige, 1 crown)``, ``… (2 bonuses, 1 prestige)`` — Duel jewel or Splendor card, as the table
    sees it (its catalogue id, D2-14, means nothing to players: it stays in the log's JSON); a
    card another one reads the same as adds its printed cost (``costs 2 white, 2 blue, 1 black,
    1 pearl``: in words, "U2 K1" read out meant nothing, an accessibility tester), so two
    reserves of two such cards are told apart in the log."""
    card = _card(card_id)
    # (a card of two bonuses said so: "a level-2 black card (1 prestige)" read as one bonus, a tester)
    extras = [_("2 bonuses")] if getattr(card, "bonus", 1) == 2 else []
    if card.points:
        extras.append(ngettext("%(num)s prestige", "%(num)s prestige", card.points))
    if getattr(card, "crowns", 0):
        extras.append(ngettext("%(num)s crown", "%(num)s crowns", card.crowns))
    if getattr(card, "ability", "none") != "none":
        extras.append(str(ABILITY_NAMES[card.ability]))
    if card_id in _LOOKALIKES():  # another card reads the same: its printed cost tells them apart
        extras.append(_("costs %(cost)s", cost=token_list(card.cost)))
    detail = f" ({', '.join(extras)})" if extras else ""
    if card_id in catalog.jewels():
        said = _("a level-%(level)s %(color)s card", level=card.level, color=TOKEN_NAMES[card.color])
    else:  # a development card of classic Splendor: its own word in Korean (GLOSSARY.md)
        said = pgettext("splendor", "a level-%(level)s %(color)s card", level=card.level, color=TOKEN_NAMES[card.color])
    return said + detail


def card_words(card_id: str) -> str:
    """Any card id as the table sees the card: a jewel or development card by ``card_summary``,
    a royal card as ``a royal card (2 prestige, take a privilege)``; an id that names no card
    (quoted from a bad entry) as it is."""
    if card_id in catalog.jewels() or card_id in catalog.development_cards():
        return card_summary(card_id)
    royal = catalog.royals().get(card_id)
    if royal is None:
        return card_id
    extras = [ngettext("%(num)s prestige", "%(num)s prestige", royal.points)]
    if ABILITY_NAMES.get(royal.ability):
        extras.append(str(ABILITY_NAMES[royal.ability]))
    return _("a royal card (%(detail)s)", detail=", ".join(extras))


def _player_change(before: Any, after: Any, seat: int) -> str:
    """What changed on a player's route meters: ``prestige 9 → 11, crowns 2 → 3``."""
    b, a = before.players[seat], after.players[seat]
    parts = []
    if not hasattr(a, "crowns"):  # classic Splendor: its own word for prestige in Korean (GLOSSARY.md)
        visiting = sum(catalog.nobles()[n].points for n in a.nobles[len(b.nobles):])
        if visiting:  # the noble's points are in the total: said so, or it reads as if they came on top
            parts.append(pgettext("splendor", "prestige %(a)s → %(b)s (the noble's %(n)s included)",
                                  a=b.prestige, b=a.prestige, n=visiting))
        elif a.prestige != b.prestige:
            parts.append(pgettext("splendor", "prestige %(a)s → %(b)s", a=b.prestige, b=a.prestige))
        return ", ".join(parts)
    if a.prestige != b.prestige:
        parts.append(_("prestige %(a)s → %(b)s", a=b.prestige, b=a.prestige))
    if a.crowns != b.crowns:
        parts.append(_("crowns %(a)s → %(b)s", a=b.crowns, b=a.crowns))
    before_points, after_points = b.color_points, a.color_points
    for color, points in after_points.items():  # every colour's points that moved (D-11.3's route)
        if points != before_points[color]:
            parts.append(_("%(color)s points %(a)s → %(b)s", color=TOKEN_NAMES[color], a=before_points[color], b=points))
    return ", ".join(parts)


def _bag_change(old: Tokens, new: Tokens) -> str:
    """What a correction changed in one bag: ``blue 1 → 2, red 2 → 1``."""
    return ", ".join(_("%(color)s %(a)s → %(b)s", color=TOKEN_NAMES[k], a=n, b=new.get(k))
                     for k, n in old.items() if n != new.get(k))


def describe(event: Event, before: Any, after: Any, *, consequences: bool = True) -> str:
    """One sentence for an applied event, with what it caused (alerts the rules raised, the
    win) unless ``consequences`` is False (an undo's notice names the entry, not its effects)."""
    who = before.players[event.player].name
    if isinstance(event, TakeTokens):
        text = _("%(name)s took %(tokens)s.", name=who, tokens=token_list(event.tokens))
    elif isinstance(event, UsePrivileges):
        text = ngettext("%(name)s used %(num)s privilege for %(tokens)s.", "%(name)s used %(num)s privileges for %(tokens)s.",
                        event.tokens.total, name=who, tokens=token_list(event.tokens))
    elif isinstance(event, Replenish):
        # what came back from the bag, all of it (D-4: the whole bag goes on the board), as the
        # table sees it (the refill's preview said nothing of it: a first-time tester)
        text = (_("%(name)s replenished the board from the bag: %(tokens)s.", name=who, tokens=token_list(before.bag))
                if before.bag else _("%(name)s replenished the board.", name=who))
    elif isinstance(event, Pass):
        text = _("%(name)s could take no action and passed.", name=who)
    elif isinstance(event, Reserve):
        gold = after.players[event.player].tokens.gold > before.players[event.player].tokens.gold
        if event.card and gold:
            text = _("%(name)s reserved %(card)s and took a gold.", name=who, card=card_summary(event.card))
        elif event.card:
            text = _("%(name)s reserved %(card)s (no gold left to take).", name=who, card=card_summary(event.card))
        elif gold:
            text = _("%(name)s reserved a secret level-%(level)s card and took a gold.", name=who, level=event.level)
        else:
            text = _("%(name)s reserved a secret level-%(level)s card (no gold left to take).", name=who, level=event.level)
    elif isinstance(event, Purchase):
        if event.from_reserve and not any(r.card == event.card for r in before.players[event.player].reserved):
            # named only now: it was one of the secret cards reserved from a deck (a tester looked for it)
            text = _("%(name)s bought %(card)s from the reserve (the secret card)", name=who,
                     card=card_summary(event.card))
        elif event.from_reserve:
            text = _("%(name)s bought %(card)s from the reserve", name=who, card=card_summary(event.card))
        else:
            text = _("%(name)s bought %(card)s", name=who, card=card_summary(event.card))
        if event.wild_color:
            text += " " + _("joined to %(color)s", color=TOKEN_NAMES[event.wild_color])
        text += " " + (_("paying %(tokens)s", tokens=token_list(event.payment)) if event.payment.total
                       else _("for free"))
        other = before.players[1 - event.player].name if len(before.players) == 2 else ""
        card = _card(event.card)
        if event.steal:
            text += _(", stealing 1 %(kind)s from %(other)s", kind=TOKEN_NAMES[event.steal], other=other)
        elif getattr(card, "ability", "none") == "steal_token":
            text += _(" (nothing to steal: %(other)s holds no gem or pearl)", other=other)
        if getattr(card, "ability", "none") == "take_token":
            gained = after.players[event.player].tokens.get(card.color) - (
                before.players[event.player].tokens.get(card.color) - event.payment.get(card.color))
            if gained:
                text += _(", taking 1 %(kind)s from the board", kind=TOKEN_NAMES[card.color])
            else:
                text += _(" (no %(kind)s left on the board to take)", kind=TOKEN_NAMES[card.color])
        change = _player_change(before, after, event.player)
        text += (f"{parts_separator()}{change}." if change else ".")
    elif isinstance(event, TakeRoyal):
        royal = catalog.royals()[event.royal]
        ability = ABILITY_NAMES[royal.ability]
        text = _("%(name)s took a royal card (%(points)s prestige%(ability)s).",
                 name=who, points=royal.points, ability=f", {ability}" if ability else "")
        other = before.players[1 - event.player].name
        if event.steal:
            text += " " + _("%(name)s stole 1 %(kind)s from %(other)s.", name=who, kind=TOKEN_NAMES[event.steal], other=other)
        elif royal.ability == "steal_token":
            text += " " + _("Nothing to steal: %(other)s holds no gem or pearl.", other=other)
    elif isinstance(event, TakeNoble):
        text = _("%(name)s welcomed noble %(noble)s (+3 prestige).", name=who, noble=noble_name(event.noble))
    elif isinstance(event, Discard):
        if getattr(before, "game", "duel") == "splendor":  # classic Splendor has no bag (S-3.1)
            text = _("%(name)s returned %(tokens)s to the supply.", name=who, tokens=token_list(event.tokens))
        else:
            text = _("%(name)s returned %(tokens)s to the bag.", name=who, tokens=token_list(event.tokens))
    elif isinstance(event, Correction):
        # What the fix changed (a field set to what it already was is left out).
        fixed = []
        me_before, me_after = before.players[event.player], after.players[event.player]
        if event.tokens is not None and me_before.tokens != me_after.tokens:
            fixed.append(_("tokens: %(tokens)s", tokens=_bag_change(me_before.tokens, me_after.tokens)))
        if event.privileges is not None and me_before.privileges != me_after.privileges:
            fixed.append(_("privileges: %(n)s", n=_("%(a)s → %(b)s", a=me_before.privileges, b=me_after.privileges)))
            if before.privileges_supply != after.privileges_supply:  # the supply holds the rest (D-3.3)
                fixed.append(_("privileges in supply: %(n)s",
                               n=_("%(a)s → %(b)s", a=before.privileges_supply, b=after.privileges_supply)))
        if event.board is not None and before.board != after.board:
            if getattr(before, "game", "duel") == "splendor":  # classic Splendor's tokens lie in the supply
                fixed.append(_("supply: %(tokens)s", tokens=_bag_change(before.board, after.board)))
            else:
                fixed.append(_("board: %(tokens)s", tokens=_bag_change(before.board, after.board)))
        if event.bag is not None and before.bag != after.bag:
            fixed.append(_("bag: %(tokens)s", tokens=_bag_change(before.bag, after.bag)))
        # (classic Splendor's players hold no privileges)
        if me_before.tokens != me_after.tokens or getattr(me_before, "privileges", 0) != getattr(me_after, "privileges", 0):
            text = _("Correction for %(name)s: %(what)s.", name=who, what=parts_separator().join(fixed))
        else:  # the board, the bag or nothing: no player's counts (a tester read "for Ben" as Ben's tokens)
            text = _("Correction of the table: %(what)s.", what=parts_separator().join(fixed) or _("no change"))
        if event.note:
            text += f" “{event.note}”"
        if after.turn != before.turn and after.winner is None:
            # it settled the tokens owed back (D-10, S-3.1): the turn waiting for them is over
            ended, nxt = before.players[before.current_player].name, after.players[after.current_player].name
            if after.current_player == before.current_player:  # an extra turn: its alert says so
                text += " " + _("That settles the tokens to return: %(name)s's turn is over.", name=ended)
            else:
                text += " " + _("That settles the tokens to return: %(name)s's turn is over, %(next)s plays.",
                                name=ended, next=nxt)
    else:  # pragma: no cover - every Duel event is handled above
        text = event.type
    if not consequences:
        return text
    if getattr(before, "game", "duel") == "duel":
        owed = duel.privilege_owed(event)
        if owed is not None and before.players[owed].privileges >= duel.PRIVILEGES:  # D-3.2: none past 3
            text += " " + _("%(name)s already holds all 3 privileges: no privilege to gain.",
                            name=before.players[owed].name)
    # The alerts the entry raised, but not the ones its own sentence already says, nor the
    # prompts (a royal card or a discard due: the next entry in the log says how it was answered).
    said = ("victory", "noble_visit") + PROMPT_ALERTS if isinstance(event, TakeNoble) else ("victory",) + PROMPT_ALERTS
    consequences = [tr(a.template, a.params) for a in after.alerts if a.kind not in said]
    if after.winner is not None:
        consequences.append(victory_sentence(after))
    return " ".join([text] + consequences)


def preview_sentence(event: Event, before: Any, after: Any) -> str:
    """What saving an entry would record and what then follows, for the preview: ``describe``'s
    sentence, then the prompts the entry raises (a royal card to choose, D-9; tokens to return,
    D-10/S-3.1, and the noble the bonuses then call, S-3.2; a noble to choose, S-3.2), which the
    log leaves to the next entry, and in a Duel
    the win such a prompt only delays: the routes met now still hold when the turn ends (D-11 is
    checked after D-9 and D-10, which never lower them)."""
    parts = [describe(event, before, after)]
    if isinstance(event, Replenish) and after.players[event.player].privileges:  # D-2: privileges come first
        parts.append(_("%(name)s can use no privilege after that this turn.", name=after.players[event.player].name))
    pending = after.pending
    if pending is not None and any(a.kind in PROMPT_ALERTS for a in after.alerts):
        name = after.players[pending.player].name
        # the nobles to come: those of the choice owed, or after tokens go back those the bonuses
        # already call (S-3.2 after S-3.1: a tester's noble visited unannounced after the return)
        nobles = pending.choices if pending.kind == "noble" else \
            after.eligible_nobles(pending.player) if pending.kind == "discard" and hasattr(after, "eligible_nobles") else ()
        if pending.kind == "royal":  # (the crowns that earned it are in the sentence already)
            parts.append(_("Then %(name)s chooses a royal card.", name=name))
        elif pending.kind == "discard":
            parts.append(ngettext("Then %(name)s returns %(num)s token, down to 10.",
                                  "Then %(name)s returns %(num)s tokens, down to 10.", pending.count, name=name))
        if len(nobles) == 1:
            parts.append(_("Then noble %(noble)s visits %(name)s.", noble=noble_name(nobles[0]), name=name))
            parts += _noble_reaches_the_end(after, pending.player, nobles[0])
        elif nobles:
            parts.append(_("Then %(name)s chooses the noble who visits: %(nobles)s.", name=name,
                           nobles=", ".join(noble_name(n) for n in nobles)))
    if pending is not None and getattr(after, "ends_with_this_turn", False):
        parts.append(_("The game ends with this turn."))  # S-4: the last turn of the final round
    if after.winner is None and pending is not None and pending.kind in ("royal", "discard"):
        player = after.players[pending.player]
        routes = player.routes() if hasattr(player, "routes") else ()
        if routes:
            parts.append(_("%(name)s then wins by reaching %(routes)s, once this turn ends.", name=player.name,
                           routes=", ".join(str(ROUTE_NAMES[r]) for r in routes)))
    return " ".join(parts)


def _noble_reaches_the_end(after: Any, seat: int, noble: str) -> list[str]:
    """S-4 in a preview: the sentence ``_end_turn`` will say when the noble that visits ``seat``
    once its tokens are back brings it to 15 prestige (the final round begins, or the game ends
    now on the last seat's turn); the preview said the visit and not the end (a tester)."""
    if getattr(after, "final_round", True):
        return []  # a Duel, or the final round already on: "The game ends with this turn" says it
    me = after.players[seat]
    prestige = me.prestige + catalog.nobles()[noble].points
    if prestige < splendor.PRESTIGE_TO_END:
        return []
    return [tr(splendor.reaching_the_end(after, seat), {"name": me.name, "prestige": prestige})]


def victory_sentence(state: Any) -> str:
    """How a finished game's log says who won (D-11 routes in Duel; prestige, or a shared win,
    in classic Splendor); '' while the game goes on."""
    winner = state.winner
    if winner is None:
        return ""
    if hasattr(winner, "routes"):
        routes = ", ".join(str(ROUTE_NAMES[r]) for r in winner.routes)
        return _("%(name)s wins by reaching %(routes)s!", name=state.players[winner.player].name, routes=routes)
    if len(winner.players) == 1:
        name = state.players[winner.players[0]].name
        tied = [state.players[i].name for i in splendor.beaten_on_cards(state)]
        if tied:  # S-4's tie-break said where the win is told (the preview of the entry that ends the game too)
            return _("Game over: %(name)s wins with %(p)s prestige, tied with %(others)s but with fewer "
                     "development cards (%(n)s).", name=name, p=winner.prestige, others=", ".join(tied), n=winner.cards)
        return _("Game over: %(name)s wins with %(p)s prestige.", name=name, p=winner.prestige)
    names = ", ".join(state.players[s].name for s in winner.players)
    return _("Game over: %(names)s share the win with %(p)s prestige.", names=names, p=winner.prestige)
