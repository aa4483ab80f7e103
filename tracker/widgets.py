"""The player panel's small widgets as template globals in plain Python: route meters, shortened
labels, royal cards and reserved cards.

A game screen draws each of them several times in each of its two panels (six meters, four
short labels, a few royal and reserved cards) and a Jinja macro costs about four times what the
same markup costs built here: as macros they were a large part of the panels' drawing. Each
draws exactly what its macro in ``macros/ui.html`` drew (804 screens of the example games, in
English and Korean, compared byte for byte when they moved here), escaped as
a template's ``{{ … }}`` escapes, translated with the render's translations
(``i18n.render_translations``) and formatted as the templates' ``_()`` formats (the variables
escaped as they are put in). A translated string is never written inside an f-string: Babel's
extraction (``scripts/i18n.sh``, keywords ``markup_gettext`` …) does not look into one.
"""

from __future__ import annotations

from typing import Any, Mapping

from jinja2 import pass_context
from markupsafe import Markup, escape

from .i18n import markup_gettext, markup_ngettext, markup_pgettext, render_translations
from .screen import card_label, pips


@pass_context
def meter(context: Any, label: Any, value: int, goal: int, cls: str, detail: Any = "", shown: Any = "") -> Markup:
    """A route's meter (``role="meter"``): ``label``, ``value`` of ``goal`` as a bar and in figures,
    read out as "9 of 10" (with ``detail``, "9 of 10, blue"); ``shown``: the detail as the eye
    reads it, when shorter ("W/U/G/R"). ``cls``: the meter's classes (``m-prestige`` …). The
    three Duel routes of D-2 (20 prestige, 10 crowns, 10 in one colour)."""
    t = render_translations(context)
    if detail:
        valuetext = markup_gettext(t, "%(value)s of %(goal)s, %(detail)s", value=value, goal=goal, detail=Markup(detail).striptags())
        small = markup_pgettext(t, "meter detail", "%(detail)s", detail=shown or detail)
        small = f" <small>{small}</small>"
    else:
        valuetext = markup_gettext(t, "%(value)s of %(goal)s", value=value, goal=goal)
        small = ""
    value_, goal_ = escape(value), escape(goal)
    return Markup(
        f'\n<div class="meter {escape(cls)}" role="meter" aria-valuenow="{value_}" aria-valuemin="0" '
        f'aria-valuemax="{goal_}" aria-label="{escape(label)}"\naria-valuetext="{valuetext}">\n'
        f'<span class="meter-label">{escape(label)}{small}</span>\n'
        f'<progress max="{goal_}" value="{escape(min(value, goal))}" aria-hidden="true"></progress>\n'
        f'<span class="meter-value"><b>{value_}</b>/{goal_}</span>\n</div>'
    )


def short_label(short: Any, whole: Any) -> Markup:
    """A word shortened on screen ("res"), read out whole ("reserved"): a title is never reached
    by a phone's screen reader."""
    return Markup(f'\n<span aria-hidden="true">{escape(short)}</span><span class="visually-hidden">{escape(whole)}</span>')


@pass_context
def royal_card(context: Any, r: Mapping[str, Any], owned: bool = False) -> Markup:
    """A royal card (D-9) of ``screen.royal_view``: its prestige ("3 pts": a bare "3" beside "royal
    cards left" read as a count of cards) and ability, its id on a long press; ``owned`` on a
    player's own line of royal cards (apart from the reserved cards, which it was read as one
    of), else still to come on the table line. Read out as "royal card: 2 prestige, extra turn."
    (an aria-label on a ``<b>`` is not read, and the cards ran together: an accessibility tester)."""
    t = render_translations(context)
    name = markup_gettext(t, "royal card")
    ability = r.get("ability_name")
    ability_said = f", {escape(ability)}" if ability else ""
    ability_shown = f' <small aria-hidden="true">{escape(ability)}</small>' if ability else ""
    rid = escape(r["id"])
    prestige = markup_ngettext(t, "%(num)s prestige", "%(num)s prestige", r["points"])
    points = markup_ngettext(t, "%(num)s pt", "%(num)s pts", r["points"])
    return Markup(
        f'<span class="mini-card royal" data-royal-id="{rid}" title="{f"{name} " if owned else ""}{rid}">'
        f'<span class="visually-hidden">{name}: {prestige}{ability_said}.</span>'
        f'<b aria-hidden="true">{points}</b>{ability_shown}</span>'
    )


@pass_context
def mini_card(context: Any, r: Mapping[str, Any], buy: Any = "", n: int = 0) -> Markup:
    """A reserved card in a player's panel (D-6, S-2.3), as the table sees it: colour letter,
    points, crowns, its cost after the player's bonuses and a tick when affordable (its catalogue
    id on a long press); a secret one (``{"secret": True, "level": n}``) by its level only.
    ``buy``: a link opening the Buy sheet on it (a secret one on its level's grid, to say which
    card it is), ``id="reserved-<n>"`` (the server makes a sheet opened by it a step Back closes)."""
    t = render_translations(context)
    secret = r.get("secret")
    tag = "a" if buy else "span"
    kind = "secret" if secret else f"color-{escape(r.get('color', ''))}"
    out = [f'\n<{tag} class="mini-card {kind}"']
    if buy:
        query = {"reveal": r["level"]} if secret else {"card": r["id"]}
        url_for = context["url_for"]
        game_id = context["game_id"]
        label = markup_gettext(t, "Buy the secret level-%(n)s card", n=r["level"]) if secret else markup_gettext(t, "Buy: %(card)s", card=card_label(context, r))
        out.append(f' data-buy-reserved="1" id="reserved-{escape(n)}"\naria-label="{label}"\n'
                   f'href="{escape(url_for("pages.game", game_id=game_id, sheet="buy", src="reserve", **query))}"\n'
                   f'hx-get="{escape(url_for("pages.sheet", game_id=game_id, name="buy", src="reserve", **query))}" '
                   f'hx-target="#sheet" hx-swap="innerHTML show:#sheet:top"')
    else:
        said = markup_gettext(t, "secret level-%(n)s card", n=r["level"]) if secret else escape(card_label(context, r))
        out.append(f' role="img" aria-label="{said}"')
    if secret:
        title = markup_gettext(t, "secret level-%(n)s card", n=r["level"])
        level = markup_gettext(t, "Level %(n)s", n=r["level"])
        out.append(f' title="{title}">? <small>{level}</small>')
    else:
        rid = escape(r["id"])
        letter = escape(r["letter"])
        out.append(f' data-card="{rid}" title="{rid}">')
        if r["color"] == "none":
            # points only: the grid's grey "·", and no colour letter to read (a tester: the box
            # looked broken without a chip)
            prestige = markup_ngettext(t, "%(num)s prestige", "%(num)s prestige", r["points"])
            out.append(f'<b class="chip small gem-none" aria-hidden="true">{letter}</b> <b>{prestige}</b>')
        else:
            out.append(f'<b class="chip small gem-{escape(r["color"])}">{letter}{letter if r.get("bonus") == 2 else ""}</b>')
            if r["points"]:
                points = markup_ngettext(t, "%(num)s pt", "%(num)s pts", r["points"])
                out.append(f" {points}")
    if r.get("crowns"):
        out.append(f' <span class="crowns">{"♛" * r["crowns"]}</span>')
    if r.get("ability_name"):
        out.append(f' <small>{escape(r["ability_name"])}</small>')
    if r.get("pips"):
        title = markup_gettext(t, "cost after this player’s bonuses")
        out.append(f' <span class="mini-cost" title="{title}">{pips(context, r["pips"])}</span>')
    if r.get("affordable"):
        said = markup_gettext(t, "affordable")
        out.append(f' <span class="mini-tick" aria-label="{said}">✓</span>')
    out.append(f"</{tag}>")
    return Markup("".join(out))


__all__ = ["meter", "short_label", "royal_card", "mini_card"]
