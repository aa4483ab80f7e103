"""HTML pages and htmx partials: home, new game, the game screen, its sheets, entries and undo.

Views parse the form, call ``service`` and render; htmx requests get the ``game`` block or a
sheet partial, plain requests the full page built from the same templates.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import secrets
from typing import Any, Sequence
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

from flask import Blueprint, Flask, abort, current_app, flash, g, get_flashed_messages, redirect, render_template, request, url_for
from flask.globals import request_ctx
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import ngettext
from htmx_flask import make_response
from jinja2 import pass_context
from jinja2_fragments.flask import render_block
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException

from .. import access, archive, narrate, people, screen, screens, service, serving, stats, widgets
from ..i18n import error_message
from ..rules import catalog, splendor
from ..rules.errors import N_, RuleError
from ..rules.text import name_refusal, person_key
from ..rules.tokens import TOKEN_KINDS

bp = Blueprint("pages", __name__)


@bp.record_once
def _sheet_version(state: Any) -> None:
    """Every sheet link a game screen draws says the version it was drawn at (``v``), as app.js
    adds it to a tap: a page without JavaScript opened again by Back after a save (the tokens of
    the move just saved in its address) leads to the game as it is, never to the same pick
    offered to the next player with a save button (a tester recorded a take twice so)."""
    state.app.jinja_env.globals["url_for"].per_request("pages.sheet", "v", lambda: g.get("sheet_version"))
#: The version a game screen response shows (also in its ``data-version``), for clients that
#: follow a game without reading the HTML (e.g. bench/load.lua).
VERSION_HEADER = "Tracker-Version"


def register_template_helpers(app: Flask) -> None:
    """Globals the templates use: the locale, the chip letters."""
    app.jinja_env.globals.update(get_locale=get_locale, letters=screen.LETTERS, chip=screen.chip, chips=screen.chips, chip_legend=screen.chip_legend,
                                 poll_marks=screen.poll_marks,
                                 pips=screen.pips, card_label=screen.card_label, noble_label=screen.noble_label, readonly=False,
                                 rule_label=narrate.rule_label, slash_breaks=screen.slash_breaks,
                                 mine_seat=pass_context(mine_seat), seats_taken=seats_taken, seats_mark=seats_mark,
                                 meter=widgets.meter, short_label=widgets.short_label, royal_card=widgets.royal_card,
                                 mini_card=widgets.mini_card, tap_again=TAP_AGAIN_NOTICE)  # app.js says it too (alerts' data-tap-again)


def _is_htmx() -> bool:
    return bool(getattr(request, "htmx", False))


def _view(game_id: str) -> service.GameView:
    try:
        return service.load(game_id)
    except service.GameNotFound:
        abort(404)


def _game_context(view: service.GameView, sheet: str | None = None, args: Any = None, **extra: Any) -> dict[str, Any]:
    g.sheet_version = view.version  # the sheet links' ``v`` (``_sheet_version``)
    ctx = screen.game_context(view)
    args = args if args is not None else request.args
    pending = view.state.pending
    if "plan" in args and pending is not None and mine_seat(ctx) == pending.player:
        # this phone's own player owes the prompt: theirs to answer, not another seat's plan
        args = MultiDict(args)
        args.pop("plan")
    name = screen.sheet_for(view, sheet, args)
    if name == "correction" and "p" not in args and mine_seat(ctx) is not None:
        # one phone each: the Fix sheet opens on this phone's player ("At the bottom"), not the player to act
        args = MultiDict(args)
        args["p"] = str(mine_seat(ctx))
    ctx["sheet"] = screen.SHEETS[name](view, args)
    ctx.update(extra)
    return ctx


def _render_game(view: service.GameView, status: int = 200, *, announce: bool = True, done: str = "",
                 shared: bool | None = None, sheet: tuple[str | None, Any] = (None, None),
                 **extra: Any):  # type: ignore[no-untyped-def]
    """The screen after a write; ``announce`` shows the alerts the write raised (toasts, ``HX-Trigger``),
    ``done`` the sentence of the entry just recorded (a short toast).

    ``shared``: the screen is the one every phone of the table sees at this version, so it is
    drawn once without any phone's own values and kept for the other phones' polls (``screens``), toasts
    and notice included (an undo's notice reaches both phones). By default an announced screen
    with no notice or error is; a finished or deleted game's never is (htmx only).

    ``sheet``: the sheet to draw and its query (``screen.sheet_of_entry``), else the default one.
    """
    name, args = sheet
    ctx = _game_context(view, name, args=args if args is not None else MultiDict(), done=done, **extra)
    ctx["alerts"] = screen.alerts(view) if announce else []
    if not _is_htmx():
        return _game_response(render_template(ctx["template"], **ctx), view.row.id, view.version, [], status)
    if shared is None:
        shared = announce and not any(extra.values())
    if status == 200 and shared and not ctx["finished"] and not ctx["deleted"]:
        ctx.update(screens.shareable())
        html = render_block(ctx["template"], "game", **ctx)
        encoding = serving.accepted_encoding(request.headers.get("Accept-Encoding"))
        kept = screens.Shared(view.version, html, ctx["alerts"], encoding=encoding,
                              body=serving.encode(current_app, html.encode(), encoding))
        resp = _shared_response(kept, view.row.id)
        screens.keep(view.row.id, dataclasses.replace(kept, headers=tuple(
            (name, resp.headers[name]) for name in SHARED_HEADERS if name in resp.headers)))
        return resp
    return _game_response(render_block(ctx["template"], "game", **ctx), view.row.id, view.version, ctx["alerts"], status)


#: The headers of a shared screen's answer that a poll answered with it repeats (``QuietPolls``).
SHARED_HEADERS = ("HX-Trigger", "HX-Replace-Url", VERSION_HEADER)


def _shared_response(kept: screens.Shared, game_id: str):  # type: ignore[no-untyped-def]
    """The answer made of a shared screen: its bytes as kept when this client takes their
    encoding (Flask-Compress leaves an encoded answer alone), else its HTML (compressed as any)."""
    resp = _game_response(kept.html, game_id, kept.version, kept.alerts)
    if kept.encoding is not None and serving.accepted_encoding(request.headers.get("Accept-Encoding")) == kept.encoding:
        resp.set_data(kept.body)
        resp.headers["Content-Encoding"] = kept.encoding
    return resp


def _felt(alert: dict[str, Any]) -> dict[str, Any]:
    """An alert as ``HX-Trigger`` carries it (app.js beeps for its ``kind``): its kind, player and
    sentence, and for one told again after a prompt (``earlier``) the entry count it was raised
    at (a phone that showed it then does not beep again); the rest is the screen's. Headers go
    uncompressed: every byte counts on the entry's answer."""
    felt = {"kind": alert["kind"], "player": alert["player"], "message": alert["message"]}
    if alert.get("earlier"):
        felt.update(at=alert["at"], earlier=True)
    return felt


def _game_response(body: str, game_id: str, version: int, alerts: list[dict[str, Any]],
                   status: int = 200):  # type: ignore[no-untyped-def]
    """A game screen answer: the alerts as ``HX-Trigger`` and the game's own address as
    ``HX-Replace-Url`` (htmx: the new screen shows the default sheet, whatever sheet the address
    had named), the version as a header."""
    if _is_htmx():
        felt = [_felt(a) for a in alerts]
        resp = make_response(body, status, trigger={"tracker:alerts": felt} if felt else None,
                             replace_url=url_for("pages.game", game_id=game_id))
    else:
        resp = make_response(body, status)
    resp.headers[VERSION_HEADER] = str(version)
    return resp


@bp.get("/")
def home():  # type: ignore[no-untyped-def]
    """``GET /``: the new-game form (pre-filled from ``game``, ``player0``–``player3``; ``after=<id>``
    a finished game whose table plays again: who starts next, or the game it already started),
    the join form and the latest games."""
    prefill = MultiDict({k: request.args.get(k, "")[:40] for k in ("game", "player0", "player1", "player2", "player3")})
    # the finished game this one follows: who starts next, or the game the table already plays
    plan = service.plan_next_game(request.args.get("after", "")[:64], [prefill[f"player{i}"] for i in range(4)])
    prefill["after"] = plan.after
    if plan.first is not None:  # suggested: the table can still choose
        prefill["first"] = str(plan.first)
    next_starter = prefill[f"player{plan.first}"] if plan.first is not None else ""
    return _home(prefill, last_starter=plan.last_starter, next_starter=next_starter or None, started=plan.started,
                 playing=plan.playing)


def _where_it_stands(row: Any, names: list[str]) -> dict[str, Any]:
    """A game in progress on the home page: whose turn (``to_play``, a name) and which turn
    (``turn``): games of the same people, a café's tables, told apart at a glance (a tester saw
    four identical "Ana · Ben … resume"). A finished game: nothing."""
    name = stats.to_play(row, names)
    return {"to_play": name, "turn": row.turn} if name is not None else {}


def _home(form: Any, error: str | None = None, status: int = 200, *, join_error: str | None = None,
          last_starter: str | None = None, next_starter: str | None = None, started: str | None = None,
          playing: str | None = None, at_nobles: bool = False,
          namesakes: list[dict[str, Any]] | None = None):  # type: ignore[no-untyped-def]
    """The home page: ``error`` is shown at the new-game form (at its nobles when ``at_nobles``),
    ``join_error`` at the join form;
    ``last_starter`` names who started the game the table just finished and ``next_starter`` the
    player suggested to start this one (named, not "the next player": a tester); ``started`` is the id
    of the next game this table already started (the form then leads to it); ``playing`` a game
    the same people began since from this page, still in progress (mentioned, not imposed);
    ``namesakes`` the names typed that are in another game being played (``people.namesakes_playing``:
    ``{"name", "players", "turn"}`` each), asked about before the game starts."""
    service.sync_standing()
    rows = service.list_games(limit=20)
    names = people.names_of(rows)  # as History shows them: a rename or merge shows at once
    series = people.series_places([row.id for row in rows])  # (a series' games told from repeats)
    games = [{**service.game_summary(row, names[row.id]), "started_at": row.started, "series": series.get(row.id),
              **_where_it_stands(row, names[row.id])} for row in rows]
    nobles = [screen.noble_view(n) for n in catalog.nobles()]
    return render_template("home.html", games=games, error=error, join_error=join_error, form=form,
                           nobles=nobles, last_starter=last_starter, next_starter=next_starter, started=started,
                           playing=playing, at_nobles=at_nobles, namesakes=namesakes, start_key=secrets.token_urlsafe(16),
                           current=_current_game()), status


#: Cookie: the game in progress this phone last opened (its screen), and for how long it is kept.
LAST_GAME, LAST_GAME_HOURS = "last_game", 12


def _current_game() -> dict[str, Any] | None:
    """The game in progress this phone last opened (``LAST_GAME``), as the home page lists a game,
    while it is neither finished nor deleted; None otherwise (one indexed read)."""
    row = service.game_row(request.cookies.get(LAST_GAME, "")[:64])
    if row is None or row.status != "active" or row.deleted_at is not None:
        return None
    return service.game_summary(row, people.names_of([row])[row.id])


@bp.post("/games")
def create_game():  # type: ignore[no-untyped-def]
    """``POST /games``: start a game from the home form (``game``, ``player0``–``3``, ``first``
    or ``random``, Splendor's ``noble`` list, ``best_of``, ``after``) and 303 to its screen. A
    setup the rules refuse (D-1, S-1), no starting player or a ``best_of`` other than none, 3, 5
    or 7 is 422 on the form with the reason;
    a table's next game already started by the other phone leads to that game."""
    form = request.form
    if form.get("game", "duel") not in ("duel", "splendor"):  # never a Duel started unasked
        return _home(form, _("Choose the game: Splendor Duel or Splendor."), 422)
    kind = "splendor" if form.get("game") == "splendor" else "duel"
    fields = [form.get(f"player{i}", "") for i in range(4 if kind == "splendor" else 2)]
    # Splendor: the name fields left empty are skipped; the start player is the one whose field
    # was chosen, wherever the empty fields are (the seats close up, play order kept).
    seats = [i for i, n in enumerate(fields) if n.strip()] if kind == "splendor" else list(range(len(fields)))
    names = [fields[i] for i in seats]
    first = form.get("first", "0")
    if first == "random":
        first_player = secrets.randbelow(max(len(names), 1))
    elif first in ("0", "1", "2", "3") and int(first) in seats:
        first_player = seats.index(int(first))
    elif len(names) < 2:
        first_player = 0  # too few players: the setup's own refusal says so
    elif first in ("0", "1", "2", "3") and int(first) < len(fields):
        return _home(form, _("The player chosen to start has no name: fill in that name or choose another."), 422)
    else:  # e.g. "Fourth" left chosen when the form went back to Duel: never a silent first player
        return _home(form, _("Choose who starts among the players named."), 422)
    if form.get("best_of", "") not in ("", *(str(n) for n in people.BEST_OF)):  # the form offers no other
        return _home(form, _("Choose one game, or a series: best of 3, 5 or 7."), 422)
    # a name already in another game being played is that person here: asked once (the form sent
    # again with the names it asked about, unchanged, starts the game); this phone's own game is
    # not asked about (the same table choosing another game)
    asked = form.getlist("namesake_ok")
    namesakes = [(name, row) for name, row in people.namesakes_playing(names, exclude=request.cookies.get(LAST_GAME))
                 if not any(people.same_name(name, a) for a in asked)]
    if namesakes:
        shown = people.names_of([row for _name, row in namesakes])
        return _home(form, namesakes=[{"name": name.strip(), "players": " · ".join(shown[row.id]),
                                       "turn": row.turn if row.version else None}  # (no entry yet: just started)
                                      for name, row in namesakes])
    payload: dict[str, Any] = {"game": kind, "players": names, "first_player": first_player,
                               "best_of": form.get("best_of"), "session": form.get("session")}
    if kind == "splendor":
        payload["nobles"] = form.getlist("noble")[:10]
    try:
        view = service.create_game(payload, after=form.get("after") or None, start_key=_start_key(form))
    except service.FormAlreadyStarted as started:  # a double tap: the game the first tap started
        return redirect(url_for("pages.game", game_id=started.game_id), code=303)
    except service.NextGameStarted as started:  # the other phone started this table's next game first
        flash(_("This table's next game was already started: you are in it."), "notice")
        return redirect(url_for("pages.game", game_id=started.game_id), code=303)
    except RuleError as err:  # the nobles' refusal at the nobles (a tester looked for it there)
        return _home(form, error_message(err), 422, at_nobles=err.template in splendor.NOBLE_REFUSALS)
    resp = redirect(url_for("pages.game", game_id=view.row.id), code=303)
    if cookie_seat(names) is not None and not service.follows_a_game(view.row.id):
        # This phone is one player's (one phone each, from an earlier game): a game started on it
        # may be one phone for all this time (a tester's classic game hid two players' turns
        # behind "on their own phone"). Its first screen asks, the answer already marked; a
        # table's next game keeps what the table chose.
        resp.set_cookie(ASK_WHOSE, view.row.id, max_age=60 * 60, samesite="Lax", httponly=True)
    return resp


def _start_key(form: Any) -> str | None:
    """The new-game form's ``start_key`` (a key drawn with each home page) hashed with every
    field the form posts: the same form posted twice gives the same key, the form changed and
    posted again (after the phone's Back) another; None when the form has no key."""
    key = form.get("start_key", "")
    if not key:
        return None
    fields = sorted((name, form.getlist(name)) for name in form if name != "csrf_token")
    return hashlib.sha256(json.dumps(fields, ensure_ascii=False).encode()).hexdigest()


@bp.get("/games/<game_id>")
def game(game_id: str):  # type: ignore[no-untyped-def]
    """The game screen. ``done=<version>`` / ``undone=<version>`` (where a plain form post of an
    entry or an undo leads): while the game is still at that version, the screen says what was
    recorded or undone, with the alerts it raised, as the htmx answer does."""
    view = _view(game_id)
    args = request.args
    if screen.seen_version(args) not in (None, view.version):
        # a sheet's address kept from an earlier position: the game as it is now, at its own address
        if not _is_htmx():
            return redirect(url_for("pages.game", game_id=game_id), code=303)
        args = MultiDict()
    if _is_htmx() and args.get("part") == "whose":
        # the "Whose phone is this?" question, asked again while it shows: redrawn only when the
        # seats other phones have taken differ from those it shows (``seats``)
        if seats_mark(seats_taken(game_id)) == args.get("seats"):
            return "", 204
        ctx = _game_context(view, None, MultiDict())
        return render_block(ctx["template"], "whose_phone", **ctx)
    ctx = _game_context(view, args.get("sheet"), args)
    if _is_htmx():
        return render_block(ctx["template"], "game", **ctx)
    if view.events and screen.whole_number(request.args.get("done", "")) == view.version:
        ctx.update(alerts=screen.alerts(view), **entry_news(view))
    elif screen.whole_number(request.args.get("undone", "")) == view.version:
        ctx.update(undo_news(view))
    else:
        said = get_flashed_messages(category_filter=["notice"])  # once: a reload does not say it again
        if said:
            ctx.update(announce=False, notice=said[0])
    resp = make_response(render_template(ctx["template"], **ctx))
    if not ctx["finished"] and not ctx["deleted"]:
        # the home page leads back to it first (the phone's Back, or the browser opened again)
        resp.set_cookie(LAST_GAME, game_id, max_age=LAST_GAME_HOURS * 3600, samesite="Lax", httponly=True)
        seat = mine_seat(ctx)
        if seat is not None:  # a phone already this player's (an earlier game): the seat is taken
            service.claim_seat(game_id, _phone_id(), seat)
            resp.set_cookie(PHONE, _phone_id(), max_age=YEAR, samesite="Lax", httponly=True)
    return resp


@bp.get("/games/<game_id>/log")
def game_log(game_id: str):  # type: ignore[no-untyped-def]
    """The whole game log (the screen shows its latest lines): the log drawer, open."""
    ctx = _game_context(_view(game_id), log_all=True)
    if _is_htmx():
        return render_template("partials/log.html", **ctx)
    return render_template(ctx["template"], **ctx)


@bp.get("/games/<game_id>/fix-preview")
def fix_preview(game_id: str):  # type: ignore[no-untyped-def]
    """What the Fix form would record with the counts typed so far (its fields in the query;
    nothing is stored): the "Saving will record: …" line other sheets show, or the reason the
    fix would be refused, or nothing while no count differs from the table. htmx only."""
    if not _is_htmx():
        abort(404)
    view = _view(game_id)
    if view.row.deleted_at is not None:  # the save would be refused: said before it is tapped
        return render_template("partials/fix_preview.html", preview=screen.Preview(error=_(
            "This game was deleted. Restore it from the history to record in it again.")))
    try:
        data = form_event(request.args)
    except RuleError as err:
        return render_template("partials/fix_preview.html", preview=screen.Preview(error=error_message(err)))
    if not data.get("set"):  # nothing typed differs from the table (yet)
        return render_template("partials/fix_preview.html", preview=None)
    preview = screen.preview(view, data)
    balancing = screen.fix_balancing(view, data) if preview.code == "invariant_broken" else []
    transfers = screen.fix_transfers(view, data) if preview.code == "invariant_broken" else []
    return render_template("partials/fix_preview.html", preview=preview, balancing=balancing, transfers=transfers,
                           game_id=game_id)


@bp.get("/games/<game_id>/sheet/<name>")
def sheet(game_id: str, name: str):  # type: ignore[no-untyped-def]
    """One entry sheet (take, buy, reserve…) drawn for the sheet's own query (picked tokens, the
    card, the payment); the whole game page without htmx. An htmx tap says the version its
    screen shows (``v``, and ``n`` entries): if the game moved on, the answer is the new screen
    (``HX-Retarget: #game``) with the news a poll would bring."""
    if name not in screen.SHEETS:
        abort(404)
    view = _view(game_id)
    seen = screen.seen_version(request.args)  # the version of the screen tapped on (app.js adds v and n)
    stale = seen is not None and seen != view.version
    if stale or view.state.winner is not None:
        # Another phone wrote since (a tap on the old screen; without JavaScript, Back to a sheet of
        # a move since saved), or the game is over (its address offered "Take 3", refused at the
        # save): the game as it is, never a sheet and save button for a position it was not drawn for.
        if not _is_htmx():
            return redirect(url_for("pages.game", game_id=game_id), 303)
        news: dict[str, Any] = {"announce": False}
        if stale:  # with its news, as a poll would bring it; the tap itself did nothing: said so
            news = poll_news(view, seen, request.args.get("n", ""))
            news.setdefault("notice", _(TAP_AGAIN_NOTICE))  # (an undo's notice says it all)
        # a tap in a plan of one's own purchase keeps the plan open on the new screen, what it
        # browsed (level, colour) kept, the card tapped not (a plan closed under a prompt the
        # other player's entry had just raised, with no way back to it until answered: a tester)
        planned = name == "buy" and screen.plan_seat(view, request.args) is not None
        browsed = MultiDict([(k, request.args[k]) for k in ("plan", "src", "color") if k in request.args])
        resp = _render_game(view, sheet=("buy", browsed) if planned else (None, None), **news)
        resp.headers["HX-Retarget"] = "#game"
        resp.headers["HX-Reswap"] = "outerHTML"
        return resp
    ctx = _game_context(view, name)
    if _is_htmx():
        resp = make_response(render_template("partials/entry.html", **ctx))
        # a tap inside the sheet, not its tab (but Take's last pick put down names the plain address)
        if name in PICKS_ARE_A_STEP or any(key not in ("v", "n") for key in request.args):
            # Opened by a reserved card in the panel from the game's plain screen it is a step Back
            # closes, as a tab's is; any other tap (inside a sheet, or app.js reopening the sheet
            # after the other phone's entry) takes the current step's place.
            # so is a plan opened from the waiting line ("Plan my purchase")
            # The first token picked on the Take sheet (or the discard prompt, the game's plain
            # screen too) is one too: the phone's back gesture puts the picks down (it left the
            # game, picks and all: a tester on Android).
            # (app.js opening the picks again on a screen the other phone's Fix redrew is no first pick)
            trigger = request.headers.get("HX-Trigger", "")
            # So is a royal card chosen before its token to steal (the prompt on the plain screen):
            # Back leads to the cards again (it left the game: a tester).
            opened = ((trigger.startswith(("reserved-", "plan-link-")) or (name in PICKS_ARE_A_STEP and trigger.startswith("add-"))
                       or (name == "royal" and trigger.startswith("royal-choose-")))
                      and _plain_address(request.headers.get("HX-Current-URL")))
            resp.headers["HX-Push-Url" if opened else "HX-Replace-Url"] = sheet_address(game_id, name, request.args)
        return resp
    return render_template(ctx["template"], **ctx)


#: The sheets the game's plain address shows by itself (Take, or the discard the rules raised)
#: whose first token picked is a step of the phone's history (Back puts the picks down).
PICKS_ARE_A_STEP = ("take", "discard")


def _plain_address(url: str | None) -> bool:
    """Whether the browser's address (htmx's ``HX-Current-URL``) is a page without a query (the
    game's plain screen); an address that cannot be read is not (never a 500)."""
    try:
        return url is not None and urlsplit(url).query == ""
    except ValueError:
        return False


def sheet_address(game_id: str, name: str, args: Any) -> str:
    """The game page's address showing sheet ``name`` as the tap with query ``args`` drew it (the
    card chosen, the tokens picked…), put in the address bar by each tap inside a sheet so that a
    reload, or a phone woken from sleep, opens the same sheet in the same state. It keeps the
    version the sheet was drawn at (``v``): at any other version the page leads to the game's
    own address, the game as it is (see ``game``)."""
    query = [(key, value) for key, value in args.items(multi=True) if key not in ("n", "sheet", "v")]
    if screen.seen_version(args) is not None:  # once (a link's own and app.js's, the same version)
        query.append(("v", str(screen.seen_version(args))))
    if name in PICKS_ARE_A_STEP and all(key == "v" for key, _value in query):
        query = []  # nothing picked: the game's own address (which shows that sheet)
    elif name != "take":
        query.insert(0, ("sheet", name))
    address = url_for("pages.game", game_id=game_id)
    return f"{address}?{urlencode(query)}" if query else address


#: A number a phone's number field accepts (``<input type="number">``): digits (leading zeros
#: too), a decimal part, an exponent (``004``, ``2.0``, ``1e1``); whole values only are counts.
_BROWSER_NUMBER = re.compile(r"[0-9]{1,20}(\.[0-9]{0,20})?([eE][+-]?[0-9]{1,2})?")
#: What a correction form's count field holds, in the refusal when it is not a count.
_FIELD_MESSAGES = {
    "tokens": N_("Tokens held, %(kind)s: type a whole number from %(low)s to %(high)s."),
    "board": N_("Board, %(kind)s: type a whole number from %(low)s to %(high)s."),
    # classic Splendor's form names the board "supply" (its hidden ``board_label``)
    "supply": N_("Supply, %(kind)s: type a whole number from %(low)s to %(high)s."),
    "bag": N_("Bag, %(kind)s: type a whole number from %(low)s to %(high)s."),
    "privileges": N_("Privileges: type a whole number from %(low)s to %(high)s."),
}


def _int_field(form: Any, name: str, low: int, high: int) -> int:
    """A count typed in a correction form's field ``name`` (``tokens-red``, ``privileges``…): a
    whole number from ``low`` to ``high`` as the phone's number field accepts it (empty is 0).

    Raises ``RuleError("bad_event")`` naming the field as the form labels it.
    """
    raw = form.get(name, "0").strip() or "0"
    number = float(raw) if _BROWSER_NUMBER.fullmatch(raw) else None
    value = int(number) if number is not None and number.is_integer() else None
    if value is None or not low <= value <= high:
        prefix, _, kind = name.removeprefix("orig-").rpartition("-")
        where = prefix or kind
        if where == "board" and form.get("board_label") == "supply":
            where = "supply"
        raise RuleError("bad_event", _FIELD_MESSAGES.get(where, _FIELD_MESSAGES["tokens"]),
                        kind=kind, low=low, high=high)
    return value


def _bag_fields(form: Any, prefix: str) -> dict[str, int]:
    return {k: _int_field(form, f"{prefix}-{k}", 0, 99) for k in TOKEN_KINDS if f"{prefix}-{k}" in form or k != "pearl"}


def form_event(form: Any) -> dict[str, Any]:
    """The GAME-LOG.md event a form posts: a composed ``event`` JSON field, or correction fields.
    Raises ``RuleError("bad_event")`` when ``event`` is not a JSON object.

    A correction form carries the values it was built with (``orig-…``); only the parts the
    table changed are sent, so the log says what was fixed.
    """
    if form.get("type") == "correction":
        fixed: dict[str, Any] = {}
        for prefix in ("tokens", "board", "bag"):
            if not any(key.startswith(f"{prefix}-") for key in form):
                continue
            bag = _bag_fields(form, prefix)
            if f"orig-{prefix}-white" not in form or bag != _bag_fields(form, f"orig-{prefix}"):
                fixed[prefix] = bag
        if "privileges" in form:
            privileges = _int_field(form, "privileges", 0, 3)
            if "orig-privileges" not in form or privileges != _int_field(form, "orig-privileges", 0, 3):
                fixed["privileges"] = privileges
        player = form.get("player", "")
        seat = screen.whole_number(player)
        # The seat is judged by the event's parser, which knows the game's seats (0–1 in Duel).
        return {"type": "correction", "player": player if seat is None else seat, "set": fixed,
                "note": form.get("note", "")}
    try:
        data = archive.read_json(form.get("event", ""))  # as the API reads it (no NaN, no name twice)
    except archive.RepeatedName as exc:
        raise exc.refusal("bad_event") from None
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):  # (a number, list or string is JSON too: no entry either)
        raise RuleError("bad_event", N_("An entry must be a JSON object."))
    return data


def _expected_version(form: Any) -> int | None:
    """The version a form was built on; absent means none. Raises ``RuleError`` when malformed."""
    raw = form.get("expected_version", "")
    if raw == "":
        return None
    version = screen.whole_number(raw)
    if version is None and isinstance(raw, str) and raw.isascii() and raw.isdigit():
        return 10 ** 9  # a whole number past any game's version: ahead of it (409), as the JSON API says
    if version is None:
        raise RuleError("bad_event", N_("expected_version must be a whole number."))
    return version


UNDONE_NOTICE = N_("The last entry was undone.")
UNDONE_ENTRY_NOTICE = N_("Undone: %(entry)s")
UNDONE_SEVERAL_NOTICE = N_("The last %(n)s entries were undone.")
UNDONE_ENTRIES_NOTICE = N_("%(n)s entries undone: %(entries)s")
#: (when the writes cannot be told one by one, each named: "entries undone 1, entered 5" was
#: hard to read, a tester)
MIXED_NOTICE = N_("Since this screen, entries recorded: %(entered)s, undone: %(undone)s. The game log names "
                  "them.")  # (app.js: "On another phone:")
#: (not "recorded this first": the other phone's entry may be another one, a Fix of another
#: player, and a tester was pointed to undoing it; what to do with one's own is said too)
CONFLICT_NOTICE = N_("Not recorded, because another phone recorded an entry first: %(entry)s The screen is up to "
                     "date: if yours still needs recording, make it again; if theirs did not happen, undo it.")
OVER_CONFLICT_NOTICE = N_("Not recorded, because another phone recorded an entry first: %(entry)s The game is over; "
                          "nothing more is recorded.")
UNDO_CONFLICT_NOTICE = N_("The game changed on another phone first, so nothing was undone. "
                          "The screen is up to date; check and try again.")
UNDO_CONFLICT_ENTRY_NOTICE = N_("Another phone recorded an entry first, so nothing was undone: %(entry)s "
                                "The screen is up to date; check and try again.")
#: A tap aimed at the screen before the other phone's entry: the new screen comes instead (also
#: said by app.js, from the alerts' ``data-tap-again``, for a tap the redraw guard drops).
TAP_AGAIN_NOTICE = N_("The screen just changed with a new entry: tap again on what it shows now.")
#: (the first undo may be this phone's own, its answer lost and the tap made again: a tester with
#: one phone read "Another phone undid that entry first")
UNDO_TWICE_NOTICE = N_("That entry was undone already (by a tap whose answer was lost, or on another phone); "
                       "nothing more was undone.")
UNDONE_FIRST_ENTRY_NOTICE = N_("Another phone undid an entry first, so this was not recorded. Undone: %(entry)s "
                               "The screen is up to date; check and try again.")
UNDONE_FIRST_NOTICE = N_("Another phone undid an entry first, so this was not recorded. "
                         "The screen is up to date; check and try again.")


#: Several writes since the phone's screen (a phone that entered the other player's turn, then
#: its own: the notice named the last, and a tester made his turn, recorded for him, again).
CONFLICT_ENTRIES_NOTICE = N_("Not recorded, because another phone recorded %(n)s entries first: %(entries)s The screen "
                             "is up to date: if yours still needs recording, make it again; if theirs did not happen, "
                             "undo it.")
OVER_CONFLICT_ENTRIES_NOTICE = N_("Not recorded, because another phone recorded %(n)s entries first: %(entries)s The "
                                  "game is over; nothing more is recorded.")
UNDO_CONFLICT_ENTRIES_NOTICE = N_("Another phone recorded %(n)s entries first, so nothing was undone: %(entries)s "
                                  "The screen is up to date; check and try again.")
UNDONE_FIRST_ENTRIES_NOTICE = N_("Another phone undid %(n)s entries first, so this was not recorded. Undone: "
                                 "%(entries)s The screen is up to date; check and try again.")
MIXED_CONFLICT_NOTICE = N_("Not recorded, because the game changed on another phone first (entries recorded: "
                           "%(entered)s, undone: %(undone)s; the game log names them). The screen is up to date; "
                           "check and try again.")
UNDO_MIXED_CONFLICT_NOTICE = N_("The game changed on another phone first, so nothing was undone (entries recorded: "
                                "%(entered)s, undone: %(undone)s; the game log names them). The screen is up to "
                                "date; check and try again.")
#: The same, each entry named (``mixed_changes``): a tester could not check "entries undone 1,
#: entered 1" against the table.
CHANGED_CONFLICT_NOTICE = N_("Not recorded, because the game changed on another phone first. %(changes)s The screen "
                            "is up to date; check and try again.")
UNDO_CHANGED_CONFLICT_NOTICE = N_("The game changed on another phone first, so nothing was undone. %(changes)s The "
                                  "screen is up to date; check and try again.")
MIXED_NAMED_NOTICE = N_("Since this screen, undone: %(undone)s Entered: %(entered)s")
MIXED_UNDONE_NOTICE = N_("Since this screen, undone: %(undone)s")
MIXED_ENTERED_NOTICE = N_("Since this screen, entered: %(entered)s")
MIXED_NOTHING_NOTICE = N_("Since this screen, entries were recorded and undone again: the game is as this screen "
                          "showed it.")
OVER_CHANGED_CONFLICT_NOTICE = N_("Not recorded, because the game changed on another phone first. %(changes)s The "
                                  "game is over; nothing more is recorded.")
UNDO_UNDONE_ENTRIES_NOTICE = N_("Another phone undid %(n)s entries first, so nothing more was undone. Undone: "
                                "%(entries)s The screen is up to date; check and try again.")


#: A write sent with a version the game never reached (a screen of a database restored to an
#: older copy since, or a request made by hand): no other phone is to blame.
AHEAD_NOTICE = N_("Nothing was recorded: this screen showed the game further on than it is now. The screen is up "
                  "to date; check and try again.")


def _conflict_notice(view: service.GameView, undoing: bool, expected: Any = None) -> str:
    """What a phone whose write lost the race is told: what the other phone did, if it can be told
    (``expected``: the version the phone sent; ahead of the game's, no other phone did anything)."""
    if isinstance(expected, int) and expected > view.version:
        return _(AHEAD_NOTICE)
    several = _several_writes_notice(view, undoing, view.version - expected) if isinstance(expected, int) else None
    if several:
        return several
    if service.last_write_was_undo(view.row.id):
        undone = None if undoing else service.last_undone(view)
        if undone:  # which entry went: the player knows whether theirs still stands (and the privileges it moved)
            entry = narrate.describe(undone[0], view.state, undone[1], consequences=False)
            return " ".join(filter(None, (_(UNDONE_FIRST_ENTRY_NOTICE, entry=entry), privileges_now(view.state, undone[1]))))
        return _(UNDO_TWICE_NOTICE if undoing else UNDONE_FIRST_NOTICE)
    last = screen.last_entry(view)  # what got in first: the player knows whether to try again
    if undoing:
        return _(UNDO_CONFLICT_ENTRY_NOTICE, entry=last) if last else _(UNDO_CONFLICT_NOTICE)
    if last and view.state.winner is not None:  # nothing is left to try again
        return _(OVER_CONFLICT_NOTICE, entry=last)
    return _(CONFLICT_NOTICE, entry=last) if last else _("Another phone recorded an entry first; check and try again.")


def _several_writes_notice(view: service.GameView, undoing: bool, missed: int) -> str | None:
    """The conflict notice of ``missed`` > 1 writes since the phone's screen (``writes_since``):
    each entry recorded, up to ``MISSED_TOLD`` of the latest (with what they caused: a privilege
    given) and how many before them; each entry undone; or both, named, with the privileges as
    they now are (a tester was told only the last entry, or none of the privileges an undo moved
    back, or "undid an entry" of four). None for one write, or writes that cannot be told apart
    (the single-write notices then)."""
    if missed < 2:
        return None
    kinds = service.writes_since(view, missed)
    if kinds is None:
        return None
    undone, entered = kinds
    if undone == entered == 1 and service.last_write_was_undo(view.row.id):
        return None  # an entry and its undo: told as the undo (the single-write notice), as a poll does
    over = view.state.winner is not None
    if not undone:
        entries = _entered_sentences(view, entered)
        if undoing:
            return _(UNDO_CONFLICT_ENTRIES_NOTICE, n=entered, entries=entries)
        return _(OVER_CONFLICT_ENTRIES_NOTICE if over else CONFLICT_ENTRIES_NOTICE, n=entered, entries=entries)
    if not entered:
        taken = service.undone_lately(view, undone)
        if not taken:
            return None
        entries = _undone_sentences(taken)
        said = _(UNDO_UNDONE_ENTRIES_NOTICE if undoing else UNDONE_FIRST_ENTRIES_NOTICE, n=undone, entries=entries)
        return " ".join(filter(None, (said, privileges_now(view.state, taken[-1][2]))))
    told = service.writes_told(view, undone, entered)
    if told is not None:
        said = _(UNDO_CHANGED_CONFLICT_NOTICE if undoing else OVER_CHANGED_CONFLICT_NOTICE if over
                 else CHANGED_CONFLICT_NOTICE, changes=mixed_changes(view, told))
    else:
        said = _(UNDO_MIXED_CONFLICT_NOTICE if undoing else MIXED_CONFLICT_NOTICE, undone=undone, entered=entered)
    return " ".join(filter(None, (said, mixed_privileges(view, told))))


def more_before(count: int) -> str:
    """Said before the last ``MISSED_TOLD`` of ``count`` entries named: how many more came before
    them ("1 earlier one, then:"; a tester was told "4 entries" and read 3, his own turn left
    out; "1 more before these." read as coming after them, a re-tester); "" when all are named."""
    extra = count - MISSED_TOLD
    return ngettext("%(num)s earlier one, then:", "%(num)s earlier ones, then:", extra) if extra > 0 else ""


def _undone_sentences(steps: Sequence[tuple[Any, Any, Any]]) -> str:
    """Entries undone, named as they had been played (``(event, before, after)`` steps, without
    what they had caused): the last ``MISSED_TOLD``, how many more before them first."""
    return " ".join(filter(None, (more_before(len(steps)), *(
        narrate.describe(ev, before, after, consequences=False) for ev, before, after in steps[-MISSED_TOLD:]))))


def _entered_sentences(view: service.GameView, count: int, *, alerts_shown: bool = False) -> str:
    """The game's last ``count`` entries named (the last ``MISSED_TOLD``, how many more before
    them first), with what they caused, or, ``alerts_shown`` (a poll's screen shows the latest
    entry's alerts as toasts of their own), the latest without its alerts, as its toast says it."""
    told = min(count, MISSED_TOLD)
    latest = [text for _seat, text in screen.entries_told(view, told)] if alerts_shown and told \
        else screen.last_entries(view, told)
    return " ".join(filter(None, (more_before(count), *latest)))


def mixed_changes(view: service.GameView, told: service.WritesTold, *, alerts_shown: bool = False) -> str:
    """Undos and entries told at once (``service.writes_told``), each entry named: those taken
    back of the ones the phone showed, then those in force now that it did not show ("Since this
    screen, undone: Ana took 3 red. Entered: Ana took 1 blue."); entries made and undone again,
    which changed nothing, as such. ``alerts_shown``: as ``_entered_sentences``."""
    gone = _undone_sentences(told.undone)
    new = _entered_sentences(view, told.entered, alerts_shown=alerts_shown) if told.entered else ""
    if gone and new:
        return _(MIXED_NAMED_NOTICE, undone=gone, entered=new)
    if gone:
        return _(MIXED_UNDONE_NOTICE, undone=gone)
    if new:
        return _(MIXED_ENTERED_NOTICE, entered=new)
    # (every entry made since was undone again: "entries undone 2, entered 2" read as a change, a tester)
    return _(MIXED_NOTHING_NOTICE)


def _write(game_id: str, action: Any, notice: Any = None, entry: Any = None):  # type: ignore[no-untyped-def]
    """Run a write (an entry, or an undo when ``notice`` is given: ``notice(view)`` is what both
    phones are told after it) and answer with the screen, a 409 notice or the rule error; a
    refused ``entry`` (the event posted) is drawn again on its sheet without JavaScript."""
    try:
        view = action()
    except service.GameNotFound:
        abort(404)
    except service.VersionConflict as exc:
        return _render_game(exc.view, 409, announce=False,
                            notice=_conflict_notice(exc.view, notice is not None, exc.expected))
    except RuleError as err:
        return _rule_error(game_id, err, entry)
    if view.repeat in ("earlier", "undone"):
        # the same save sent again (a lost answer, Back and save): its entry is not the last one
        # now, so the last one's toast would name another move (a tester saw "✓ Uma took…")
        latest = screen.last_entry(view)  # what came after it (the other phone's, while this one was away)
        said = (_("This entry was already recorded, then undone: nothing was recorded now.") if view.repeat == "undone"
                else _("This entry was already recorded: nothing was recorded again. The latest entry since: %(entry)s",
                       entry=latest) if latest
                else _("This entry was already recorded: nothing was recorded again."))
        if not _is_htmx():
            flash(said, "notice")
            return redirect(url_for("pages.game", game_id=game_id), code=303)
        return _render_game(view, announce=False, notice=said)
    if not _is_htmx():  # the page it leads to says what happened, as the htmx answer does
        told = {"undone": view.version} if notice is not None else {"done": view.version}
        return redirect(url_for("pages.game", game_id=game_id, **told), code=303)
    if notice is not None:  # an undo: its notice is what the other phone sees too
        return _render_game(view, announce=False, notice=notice(view), shared=True)
    then = request.form.get("then", "")
    if then and view.events and view.events[-1].type == "correction" and view.state.winner is None:
        # the first of two fixes ("Fix Ben first") saved: the second, its counts typed, on this phone
        return _render_game(view, done=screen.entry_toast(view), shared=False,
                            sheet=("correction", MultiDict(parse_qsl(then[:1000]))))
    return _render_game(view, done=screen.entry_toast(view))


@bp.get("/games/<game_id>/events")
@bp.get("/games/<game_id>/undo")
def write_address(game_id: str):  # type: ignore[no-untyped-def]
    """A write's address opened as a page: a refused save or undo without JavaScript leaves the
    browser there, and reopening the tab asked it with GET ("cannot be opened that way"); it
    leads to the game as it is."""
    _view(game_id)  # 404 for no such game
    return redirect(url_for("pages.game", game_id=game_id), code=303)


@bp.post("/games/<game_id>/events")
def post_event(game_id: str):  # type: ignore[no-untyped-def]
    """``POST /games/<id>/events`` (fields ``event`` as GAME-LOG.md JSON, ``expected_version``,
    ``entry_id``): record the entry. htmx: the new screen (alerts in ``HX-Trigger``); 409 with
    the screen and a notice when another phone wrote first; 422 with the rule's reason (the
    screen unchanged). Without JavaScript: 303 to the game saying what was recorded."""
    form = request.form
    posted: dict[str, Any] = {}

    def write() -> service.GameView:
        posted["event"] = form_event(form)
        return service.post_event(game_id, posted["event"], expected_version=_expected_version(form),
                                  entry_id=form.get("entry_id") or None)

    return _write(game_id, write, entry=posted)


#: The id of an entry form that is one of several on its sheet (``ui.entry_form``'s ``one_of``).
ONE_OF_FORM = re.compile(r"entry-form-([A-Za-z0-9_-]{1,40})")


def _rule_error(game_id: str, err: RuleError, entry: Any = None):  # type: ignore[no-untyped-def]
    """A refused write: htmx gets the refusal in the sheet (its choices stay); a plain form gets
    the game screen with the refusal, on the sheet the refused ``entry`` (``{"event": …}``) was
    composed on."""
    message = error_message(err)
    if err.code == "game_deleted" and _is_htmx():  # a screen of a game deleted since: show it as it is now
        return _render_game(_view(game_id), 409, announce=False, notice=message)
    if _is_htmx():
        # the refused form's own place when it is one of several (a noble, a royal card: ``one_of``)
        one_of = ONE_OF_FORM.fullmatch(request.headers.get("HX-Trigger") or "")
        return make_response(
            render_template("partials/error.html", message=message, rule=err.rule), 422,
            retarget=f"#entry-error-{one_of[1]}" if one_of else "#entry-error", reswap="innerHTML",
        )
    view = _view(game_id)
    event = entry.get("event") if isinstance(entry, dict) else None
    sheet = screen.sheet_of_entry(view, event) if event is not None and view.state.winner is None else (None, None)
    return _render_game(view, 422, announce=False, error=message, error_rule=err.rule, sheet=sheet)


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):  # type: ignore[no-untyped-def]
    """Undo the last entry (UX.md: one tap plus a confirmation). htmx asks on the phone
    (``hx-confirm``); a plain form post without ``confirmed=1`` gets the screen asking first,
    and nothing is undone until that confirmation is posted. So does an htmx undo of a finished
    game whose table has started its next game since the phone's screen was drawn (its question
    did not say so: the form's ``following=1`` says it did)."""
    before = _view(game_id)
    try:
        expected = _expected_version(request.form)
    except RuleError as err:
        return _rule_error(game_id, err)
    # a phone whose question was drawn before the table started its next game (its poll had not yet
    # brought the screen saying so) is asked again, saying so (a tester undid a win unaware)
    stale_question = (before.state.winner is not None and request.form.get("following") != "1"
                      and service.next_game(before.row) is not None)
    if (not _is_htmx() or stale_question) and request.form.get("confirmed") != "1" and before.events:
        if expected is not None and expected != before.version:  # the question would name another entry
            return _render_game(before, 409, announce=False, notice=_conflict_notice(before, True))
        return _render_game(before, announce=False, confirm_undo=request.form.get("expected_version", ""))

    seen = before.version  # read now: the row object is refreshed by the write

    def notice(after: service.GameView) -> str:
        """"Undone: <the entry>" when this undo took back ``before``'s last entry."""
        if after.version != seen + 1 or not before.events:
            return _(UNDONE_NOTICE)
        return undone_notice(before.events[-1], after.state, before.state)

    return _write(game_id, lambda: service.undo(game_id, expected_version=expected), notice=notice)


def undone_notice(event: Any, without: Any, with_it: Any) -> str:
    """The notice of an undo: the entry taken back, without what it had caused (its alerts, a
    win), then each player's privileges it moves back (D-3: a refill's privilege to the
    opponent went back with no word, a tester saw Ana's scroll vanish)."""
    entry = _(UNDONE_ENTRY_NOTICE, entry=narrate.describe(event, without, with_it, consequences=False))
    return " ".join(filter(None, (entry, privileges_now(without, with_it))))


#: An undo's notice: every player's privileges once it moved some back (Duel).
PRIVILEGES_NOW = N_("Privileges now: %(counts)s.")


def mixed_privileges(view: service.GameView, told: service.WritesTold | None) -> str | None:
    """D-3 after undos and entries told at once (``told``, None when they cannot be told apart):
    the privileges as they now are when the writes moved some, or when any of them moved one
    though the counts end where they began (its toast says "Ben gains a privilege" while an undo
    among them took one back: counted alone, the table handed over a second scroll, a tester)."""
    if getattr(view.state.players[0], "privileges", None) is None:
        return None  # classic Splendor
    moved = privileges_now(view.state, told.before) if told is not None else None
    return moved or (_privileges_said(view.state) if _privileges_touched(view, told) else None)


def _privileges_touched(view: service.GameView, told: Any) -> bool:
    """Whether any of the writes told moved a privilege on its own, though the counts end where
    they began (an undo of a take that gave one, and another that gives one again; any entry
    after it): its sentence says "Ben gains a privilege" (a tester's table handed over another
    scroll). Told as touched when the writes cannot be told apart."""
    if told is None:
        return True
    if any(a.privileges != b.privileges for _ev, before, after in told.undone
           for a, b in zip(before.players, after.players)):
        return True
    for _event, before, after in service.recent_steps(view, told.entered):
        if any(a.privileges != b.privileges for a, b in zip(before.players, after.players)):
            return True
    return False


def privileges_now(without: Any, with_it: Any) -> str | None:
    """D-3: after undos (or undos and entries told in one poll) that moved privileges (a
    privilege gained, taken, used), each player's count as it now is ("Privileges now: Ana 0,
    Ben 1."; said as what is, the entry's own sentence saying what it had done: "prestige 0 → 2"
    beside "1 → 0" read as one direction, a tester); None when none moved, and in classic
    Splendor (no privileges). ``without``: the state now; ``with_it``: the state before the
    writes told (the one the undos took back)."""
    now, then = without.players, with_it.players
    if getattr(now[0], "privileges", None) is None or all(a.privileges == b.privileges for a, b in zip(now, then)):
        return None
    return _privileges_said(without)


def _privileges_said(state: Any) -> str:
    """"Privileges now: Ana 0, Ben 1." for a Duel ``state``."""
    return _(PRIVILEGES_NOW, counts=", ".join(f"{p.name} {p.privileges}" for p in state.players))


#: The title and sentence of each HTTP error page a phone can meet (translated when shown).
ERROR_PAGES: dict[int, tuple[str, str]] = {
    400: (N_("That did not work"),
          N_("The page was too old or the request incomplete. Go back, reload the page and try again.")),
    404: (N_("Nothing here"),
          N_("This link leads to no game or page: it may be mistyped or cut short. Check it, or start again from the home page.")),
    403: (N_("Watching only"), N_("This is a spectator link: it shows the game but records nothing.")),
    405: (N_("Nothing here"), N_("This address cannot be opened that way.")),
    413: (N_("Too large"), N_("That was more than the tracker accepts at once.")),
    429: (N_("Too many attempts"), N_("Too many wrong codes came from this network: wait a few minutes, then try again.")),
    # (not only "busy": PostgreSQL down said "busy with other tables", an operator tester)
    503: (N_("Busy"), N_("The tracker's database did not answer in time (busy with other tables, or down) and "
                         "nothing was recorded: try again in a moment.")),
    500: (N_("Something went wrong"),
          N_("The tracker could not finish this. Nothing half-done was kept: reload the game and check its last entry.")),
}


#: The sentence of a 413 on the History page's import: how much one file may weigh.
IMPORT_TOO_LARGE = N_("The file is larger than %(mb)s MB, the most one import takes: choose the JSON file this "
                      "app exported (History, Export).")


#: Where an address forms post to leads when it is opened (a reload or a reopened tab of the page
#: a refused form drew there, a copied link): the page whose form posts there (endpoint, anchor).
FORM_PAGES: dict[str, tuple[str, str | None]] = {
    "pages.create_game": ("pages.home", None),
    "pages.post_event": ("pages.game", None),
    "pages.undo": ("pages.game", None),
    "share.renew_watch": ("share.share", None),
    "share.join": ("pages.home", "join"),
    "history.restore": ("history.history", None),
    "history.import_file": ("history.history", "transfer"),
    "history.rename": ("history.player", None),
    "history.forget_name": ("history.player", None),
    "history.merge": ("history.player", None),
}


def _form_page() -> str | None:
    """The address of the page whose form posts to this request's address (``FORM_PAGES``), for
    a GET or HEAD of it; None for anything else."""
    if request.method not in ("GET", "HEAD") or request_ctx.url_adapter is None:
        return None
    try:
        endpoint, args = request_ctx.url_adapter.match(request.path, method="POST")
    except HTTPException:
        return None
    target = FORM_PAGES.get(endpoint)
    if target is None:
        return None
    wanted = next(current_app.url_map.iter_rules(target[0])).arguments  # (the page's own part of the address)
    return url_for(target[0], **{k: v for k, v in args.items() if k in wanted}, _anchor=target[1])


def error_page(exc: HTTPException):  # type: ignore[no-untyped-def]
    """A page-side HTTP error (``exc``: 400, 403, 404, 405, 413, 429, 500 or 503) as a page of the app, in
    the reader's language, with the way home, and the error's status and headers
    (``Allow``, ``Retry-After``). A file too large to import says the most it may weigh. An
    address forms post to, opened (405), leads to the page of its form (``FORM_PAGES``)."""
    from .. import LARGE_BODIES

    code = exc.code or 500
    if code == 405:
        page = _form_page()
        if page is not None:
            return redirect(page, code=303)
    title, message = ERROR_PAGES.get(code, ERROR_PAGES[500])
    text = _(message)
    if code == 413 and request.endpoint in LARGE_BODIES:
        text = _(IMPORT_TOO_LARGE, mb=current_app.config[LARGE_BODIES[request.endpoint]] // (1024 * 1024))
    return with_error_headers(make_response(render_template("error.html", status=code, title=_(title),
                                                             message=text), code), exc)


def with_error_headers(resp: Any, exc: HTTPException) -> Any:
    """``resp`` with the headers ``exc`` asks for (``Allow`` of a 405, ``Retry-After`` of a 429),
    its own content type kept (an error page, or the API's JSON)."""
    for name, value in exc.get_headers():
        if name.lower() != "content-type":
            resp.headers[name] = value
    return resp


__all__ = ["bp", "register_template_helpers", "form_event", "error_page", "with_error_headers", "poll_news",
           "shared_screen"]


@bp.get("/games/<game_id>/poll")
def poll(game_id: str):  # type: ignore[no-untyped-def]
    """Live sync: 204 with no body while the game is still at version ``v``; else the fresh
    game block with the alerts of the latest write (one cheap query when nothing changed)."""
    row = service.game_head(game_id)  # one read: the version, and the row a changed screen needs
    if row is None:
        abort(404)
    # Deleted, restored or followed by the table's next game since this screen was drawn (none
    # of these changes the version): the screen is drawn again.
    if screen.marks_changed(row, request.args):
        return _render_game(service.load_row(row), announce=False)
    seen = screen.seen_version(request.args)
    if seen == row.version:
        return "", 204
    # the screen's toast still tells entries an earlier poll brought (app.js: ``since``, ``sn``,
    # the version and entries before them): another phone's entries a second or two apart are
    # told together, the second's toast no longer replacing the first's unread (a tester)
    # (entries only, all of them: an undo among them is told as the undo it is)
    since, since_n = screen.whole_number(request.args.get("since", "")), screen.whole_number(request.args.get("sn", ""))
    shown = screen.whole_number(request.args.get("n", ""))
    # (an undo among those the toast up tells too: its notice, its privileges said, gave way within
    # 2 s to the toast of the entry made after it, and the table never read that a scroll had gone
    # back: a tester; an undo since it is told as the undo it is, below)
    view = None
    if since is not None and since_n is not None and shown is not None and seen is not None \
            and since < seen < row.version and row.version - since <= MISSED_TOLD:
        view = service.load_row(row)
        news = poll_news(view, since, str(since_n)) if len(view.events) - shown == row.version - seen else None
        if news:
            return _render_game(view, **news, shared=False)
    # the kept screen tells the one write it was drawn after: a phone that missed more draws its
    # own (and keeps it to itself: its toast tells several)
    one_behind = seen == row.version - 1
    shared = shared_screen(row.id, row.version) if _is_htmx() and one_behind else None
    if shared is not None:
        return shared
    view = view or service.load_row(row)
    return _render_game(view, **poll_news(view, seen, request.args.get("n", "")), shared=None if one_behind else False)


#: Entries a poll's toast tells at most when the phone missed several (a purchase and the noble
#: it chose, a take and the tokens returned, a phone offline for a few turns).
MISSED_TOLD = 3


def poll_news(view: service.GameView, seen: int | None, count: str) -> dict[str, Any]:
    """How a poll's freshly drawn screen tells the writes the phone missed (version ``seen``
    with ``count`` entries, ``n`` of the poll): an entry's toast, or the undo's notice without
    the alerts of the entry now last; up to ``MISSED_TOLD`` entries recorded since, in one toast
    (a phone whose poll fell between a purchase and its noble was told nothing), or up to as many
    undos, each entry taken back named (two undos in one poll were told nothing: a tester).
    More undos than that: how many. Undos and entries mixed: how many of each (which entries
    are new cannot be told apart from the ones an undo left: a tester was told nothing at all),
    with the alerts of the latest write. Nothing special when the poll did not say."""
    shown = screen.whole_number(count)
    if seen is None or shown is None or view.version <= seen:
        return {}
    missed = view.version - seen
    if missed == 1 and len(view.events) == shown - 1:
        return undo_news(view)
    if 1 < missed and len(view.events) == shown - missed:  # undos only: each one told
        undone = service.undone_lately(view, missed)
        if undone and missed <= MISSED_TOLD:  # (how many, first: "Undone: Ben took 1 blue. Ana took 1 black." read as one undo and a new entry)
            entries = " ".join(narrate.describe(ev, before, after, consequences=False) for ev, before, after in undone)
            notice = _(UNDONE_ENTRIES_NOTICE, n=missed, entries=entries)
        else:
            notice = _(UNDONE_SEVERAL_NOTICE, n=missed)
        # (the privileges they moved back, also of more undos than are named: a tester)
        moved = privileges_now(view.state, undone[-1][2]) if undone else None
        return {"announce": False, "notice": " ".join(filter(None, (notice, moved)))}
    if len(view.events) == shown + missed:  # entries only (an undo takes one away)
        told = screen.entries_told(view, min(missed, MISSED_TOLD))
        if missed > MISSED_TOLD:  # (the earliest were dropped unsaid, a privilege they gave with them: a tester)
            told = [(None, ngettext("%(num)s earlier entry is in the game log.", "%(num)s earlier entries are in "
                                    "the game log.", missed - MISSED_TOLD)), *told]
        # several: each sentence marked with its seat, for the phone to say which were its own player's
        return {"done": " ".join(text for _seat, text in told), "done_parts": told if len(told) > 1 else []}
    if missed == 2 and len(view.events) == shown and service.last_write_was_undo(view.row.id):
        # an entry and its undo within one poll: told as the undo, naming the entry taken back
        # (it read "entries undone 1, entered 1": a tester)
        return undo_news(view)
    # every write since is one entry (+1) or one undo (−1): how many of each follows from the counts
    undone, odd = divmod(missed - (len(view.events) - shown), 2)
    if not odd and 0 < undone < missed:
        # (what they moved of the privileges, as after undos alone: an undo's privilege went
        # back unsaid when an entry came in the same poll, a tester)
        told = service.writes_told(view, undone, missed - undone)
        said = (mixed_changes(view, told, alerts_shown=True) if told is not None
                else _(MIXED_NOTICE, undone=undone, entered=missed - undone))
        return {"notice": " ".join(filter(None, (said, mixed_privileges(view, told))))}
    return {}


def entry_news(view: service.GameView) -> dict[str, Any]:
    """A screen telling the entry just recorded: its toast."""
    return {"done": screen.entry_toast(view)}


def undo_news(view: service.GameView) -> dict[str, Any]:
    """A screen telling the undo just made: its notice naming the entry taken back, and none of
    the alerts of the entry now last."""
    undone = service.last_undone(view)
    notice = undone_notice(undone[0], view.state, undone[1]) if undone else _(UNDONE_NOTICE)
    return {"announce": False, "notice": notice}


def shared_screen(game_id: str, version: int):  # type: ignore[no-untyped-def]
    """The answer to a poll from the screen kept for ``version`` (drawn by the phone that wrote
    it, or an earlier poll): no fold, no drawing; None when none is kept (``tracker/screens.py``)."""
    shared = screens.find(game_id, version)
    if shared is None:
        return None
    return _shared_response(shared, game_id)


def _table_flipped(game_id: str) -> str | None:
    """UX.md table mode, the turn line's one tap (``table=flip``): off when this phone has it on;
    else on with the second name's side across, or "turned" (the first name's side across) on
    the phone of the game's second player (``mine``), who keeps their own side. The link is in
    the screen every phone of the table shares (``screens``), so it names no phone's state.
    None (nothing changes) for a game of three or four, which has no such button (a crafted
    link turned the phone's own player off, a tester)."""
    if request.cookies.get("table") in ("on", "turned"):
        return "off"
    names = service.player_names(game_id)
    if names is not None and len(names) != 2:
        return None
    return "turned" if names is not None and cookie_seat(names) == 1 else "on"


SETTINGS = {"theme": ("system", "light", "dark"), "lang": ("auto", "en", "ko"), "sound": ("off", "on"),
            "table": ("off", "on", "turned")}
YEAR = 60 * 60 * 24 * 365
#: Cookie: the game whose share sheet this phone opened; back on that game it is asked whose
#: phone it is (``partials/whose_phone.html``) until it answers here.
ASK_WHOSE = "ask_whose"
#: Cookie: the game this phone last said whose phone it is in (a player, or everyone's): back from
#: that game's share sheet it is not asked again (a tester's sharing phone was, having answered).
WHOSE_ANSWERED = "whose_answered"
#: Cookie: this phone's own random id, kept with the seat it took in a game (``service.claim_seat``).
PHONE = "phone"
_PHONE_ID = re.compile(r"[A-Za-z0-9_-]{16,32}")


def _phone_id() -> str:
    """This phone's id (its ``phone`` cookie), or a new one when it has none (or a forged one):
    the same one all through a request."""
    kept = request.environ
    if "tracker.phone" not in kept:
        cookie = request.cookies.get(PHONE, "")
        kept["tracker.phone"] = cookie if _PHONE_ID.fullmatch(cookie) else secrets.token_urlsafe(16)
    return str(kept["tracker.phone"])


def seats_taken(game_id: str) -> set[int]:
    """For "Whose phone is this?": the seats of ``game_id`` another phone has taken."""
    kept = request.cookies.get(PHONE, "")
    return service.seats_taken(game_id, kept if _PHONE_ID.fullmatch(kept) else None)


def seats_mark(taken: set[int]) -> str:
    """The seats taken as the question's check sends them back (``seats``): "02", or "-"."""
    return "".join(map(str, sorted(taken))) or "-"


#: Cookie: whose phone this was (the ``mine`` cookie's value) while table mode is on; table mode
#: turned off gives it back.
MINE_PARKED = "mine_parked"


def cookie_seat(names: Sequence[str]) -> int | None:
    """The seat among ``names`` of the person this phone's ``mine`` cookie names (its player,
    one phone each), or None (no cookie, nobody of that name there)."""
    mine = request.cookies.get("mine")
    return people.seat_of(unquote(mine)[:200], names) if mine else None


def mine_seat(context: Any) -> int | None:
    """The seat of this phone's own player (one phone each): the person named by its ``mine``
    cookie (a person's key: "Ben" is Ben in every game, whatever his seat, and after a rename),
    or None (none named, or not a player of this game; no game on this page). A Duel keeps their
    panel at the bottom; a Duel and a classic Splendor game of 2–4 wait behind "plays on their
    phone" while another player acts."""
    state = context.get("state")
    duel_page = context.get("top") is not None
    splendor_page = context.get("template") == "splendor.html"
    if state is None or not (duel_page or splendor_page):
        return None
    kept = request.environ  # asked by the page's body and by its settings: looked up once a request
    if "tracker.mine_seat" not in kept:
        kept["tracker.mine_seat"] = cookie_seat([p.name for p in state.players])
    return kept["tracker.mine_seat"]


@bp.get("/settings")
def settings():  # type: ignore[no-untyped-def]
    """Remember a display choice on this device (cookies), then go back: theme, language,
    alert sound, table mode, and whose panel stays at the bottom of a Duel (``mine``: this
    phone's player by name, or empty: the player to act). Table mode (one phone between the
    players) and ``mine`` (one phone each) exclude each other: choosing one turns the other off;
    table mode turned off again gives the phone back to the player it was (``MINE_PARKED``).
    ``mine`` with ``game`` (the "Whose phone is this?" answer) keeps the seat taken for the next
    phone asked (``service.claim_seat``); a seat another phone took since the question was drawn
    leads back to it, asking again (``taken=<seat>``), unless ``again=1`` (the answer knew)."""
    resp = redirect(access.next_url(request.args.get("next")), code=303)
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        # a link on another site setting this phone's player or table mode (a prank from the
        # next table: a security tester): followed, nothing changed (a scanned QR code is "none")
        return resp
    mine = request.args.get("mine")  # "" (no name is empty): the player to act
    answered = request.args.get("game", "")
    answering = mine is not None and service.is_game_id(answered) and (mine == "" or name_refusal(mine) is None)
    # the seat the answer takes in that game (None: "Everyone's", or nobody of that name there)
    seat = service.seat_in(answered, person_key(" ".join(mine.split()))) if answering and mine else None
    if seat is not None and request.args.get("again") != "1" and seat in seats_taken(answered):
        # another phone took that seat after the question was drawn (both phones answering at
        # once, a tester): asked again, saying so; a seat the question named taken is not
        return redirect(url_for("pages.game", game_id=answered, whose="ask", taken=seat), code=303)
    table = request.args.get("table")
    if table == "flip":  # the turn line's "⟲ Table": its screen is every phone's, so the phone's own cookies decide
        table = _table_flipped(request.args.get("game", ""))
    for name, allowed in SETTINGS.items():
        value = table if name == "table" else request.args.get(name)
        if value in allowed:
            resp.set_cookie(name, value, max_age=YEAR, samesite="Lax", httponly=True)
    if mine is not None or table is not None:  # answered: not asked again
        resp.delete_cookie(ASK_WHOSE, samesite="Lax", httponly=True)
    if mine is not None and service.is_game_id(answered):  # (its share sheet then asks nothing)
        resp.set_cookie(WHOSE_ANSWERED, answered, max_age=YEAR, samesite="Lax", httponly=True)
        if answering:  # (a refused name changes nothing)
            # the seat it took, told to the next phone asked (two phones had both taken Ben's: a tester)
            resp.set_cookie(PHONE, _phone_id(), max_age=YEAR, samesite="Lax", httponly=True)
            service.claim_seat(answered, _phone_id(), seat)
    if mine == "" or table in ("on", "turned"):
        resp.delete_cookie("mine", samesite="Lax", httponly=True)
        # table mode for a while (a game on one phone): whose phone this is comes back when it ends
        # (a tester's phone, table mode on then off, then showed the other player's discard)
        had = request.cookies.get("mine")
        if mine is None and had:
            resp.set_cookie(MINE_PARKED, had, max_age=YEAR, samesite="Lax", httponly=True)
        elif mine == "":
            resp.delete_cookie(MINE_PARKED, samesite="Lax", httponly=True)
    elif isinstance(mine, str) and name_refusal(mine) is None:
        resp.set_cookie("mine", quote(person_key(" ".join(mine.split()))), max_age=YEAR, samesite="Lax", httponly=True)
        resp.set_cookie("table", "off", max_age=YEAR, samesite="Lax", httponly=True)
        resp.delete_cookie(MINE_PARKED, samesite="Lax", httponly=True)
    elif table == "off" and mine is None and request.cookies.get(MINE_PARKED):
        resp.set_cookie("mine", request.cookies[MINE_PARKED][:600], max_age=YEAR, samesite="Lax", httponly=True)
        resp.delete_cookie(MINE_PARKED, samesite="Lax", httponly=True)
    return resp


@bp.get("/sw.js")
def service_worker():  # type: ignore[no-untyped-def]
    """The service worker, served from the root so it may cache the whole app's shell."""
    assets = "".join(url_for("static", filename=f) for f in ("app.css", "app.js", "htmx.min.js"))
    version = hashlib.sha256(assets.encode()).hexdigest()[:12]  # fingerprinted names change with content
    resp = make_response(render_template("sw.js", version=version))
    resp.headers["Content-Type"] = "text/javascript; charset=utf-8"
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/manifest.webmanifest")
def manifest():  # type: ignore[no-untyped-def]
    """The web app manifest (installable app: name, icons, colours)."""
    resp = make_response(render_template("manifest.webmanifest"))
    resp.headers["Content-Type"] = "application/manifest+json"
    return resp


@bp.get("/offline")
def offline():  # type: ignore[no-untyped-def]
    """The page the service worker shows when a page is asked for without a network."""
    return render_template("offline.html")
