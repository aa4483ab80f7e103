"""History, players and the game review: thin views over ``stats``, ``people``, ``review`` and
``archive``.

htmx requests get the block they target (``games`` of the history, ``replay`` of the review);
plain requests get the whole page built from the same templates.
"""

from __future__ import annotations

import json
from urllib.parse import quote
from datetime import date, datetime
from typing import Any

from flask import Blueprint, Flask, Response, abort, flash, get_flashed_messages, redirect, render_template, request, url_for
from babel.dates import get_datetime_format
from flask_babel import format_date, format_time, get_locale, to_user_timezone
from flask_babel import gettext as _
from jinja2_fragments.flask import render_block

from .. import archive, people, review, service, stats
from ..db import db
from ..i18n import error_message
from ..rules.errors import RuleError

bp = Blueprint("history", __name__)


def register_template_helpers(app: Flask) -> None:
    """Globals other templates use: names to suggest at a new game, a game's table session and series."""
    app.jinja_env.globals.update(
        known_players=people.known_names, table_night=people.night_of, table_series=people.series_of,
        table_session=people.session_info, after_midnight=people.after_midnight,
        best_of_choices=people.BEST_OF, percent=stats.percent, tenths=stats.tenths, duration=duration, when=when, day_name=day_name,
    )


def when(value: datetime, with_date: bool = True) -> str:
    """A stored time (naive UTC) as the reader reads times: in their language and time zone
    (the ``tz`` cookie, see ``tracker._timezone``), e.g. ``Nov 30, 2026, 9:17 PM`` / ``2026. 11. 30. 오후 9:17``; only the
    time with ``with_date`` False."""
    try:
        time_text = format_time(value, "short")
        if not with_date:
            return time_text
        joined = get_datetime_format("medium", locale=get_locale()).replace("'", "")  # "{1}, {0}" / "{1} {0}"
        return joined.replace("{0}", time_text).replace("{1}", format_date(value, "medium"))
    except (OverflowError, ValueError):  # a time the zone cannot shift (year 9999): shown as stored
        return value.isoformat(sep=" ", timespec="minutes") + " UTC"


def day_name(value: datetime | date) -> str:
    """The day a table session was played, in full (``Monday, November 30, 2026`` /
    ``2026년 11월 30일 월요일``); a stored time is taken in the reader's time zone first."""
    try:
        return format_date(value, "full")
    except (OverflowError, ValueError):  # a time the zone cannot shift (year 9999): shown as stored
        return value.isoformat()[:10]


def duration(value: Any) -> str:
    """``1 h 05 min`` / ``39 min`` / ``4 d 17 h`` (a game taken up again days later: "113 h
    50 min" read as a club organiser's typo) / an en dash."""
    if value is None:
        return "–"
    minutes = int(value.total_seconds() // 60)
    if minutes < 60:
        return _("%(m)s min", m=minutes)
    if minutes >= 24 * 60:
        return _("%(d)s d %(h)s h", d=minutes // (24 * 60), h=minutes % (24 * 60) // 60)
    return _("%(h)s h %(m)02d min", h=minutes // 60, m=minutes % 60)


def _is_htmx() -> bool:
    return bool(getattr(request, "htmx", False))


def _filters() -> dict[str, Any]:
    """The history's filters from the address: ``player`` and ``opponent`` (``with``) as people's
    ids (an alias's id: its person's), ``kind``, ``status``; ``unknown_player`` is an id given
    that is nobody's (the filter is then left out: everyone's games, said so)."""
    args = request.args
    player_id = people.small_int(args.get("player"))
    known = None
    if player_id is not None:  # a merged-away player's link (an alias) shows the kept player's games
        known, _alias = people.get(player_id)
        player_id = known.id if known is not None else None
    unknown = args.get("player") not in (None, "") and known is None
    opponent = people.small_int(args.get("with")) if known is not None else None
    if opponent is not None:  # head to head: the games of ``player`` with this person (an alias: the kept one)
        other, _alias = people.get(opponent)
        # an unknown person, or the player themselves (the Player filter changed to them): no such filter
        opponent = other.id if other is not None and other.id != player_id else None
    return {
        "player": player_id,
        "kind": args.get("kind") if args.get("kind") in stats.KINDS else None,
        "status": args.get("status") if args.get("status") in stats.STATUSES else None,
        "opponent": opponent,
        "unknown_player": unknown,
    }


def kept_filters(source: Any) -> dict[str, str]:
    """The history filters a page passes on (a Delete link, a confirm form, a Restore button), from
    ``source`` (request args or form, a ``Mapping``): ``player``, ``with``, ``kind``, ``status``
    with a value History takes, as strings; the rest left out. The History page a delete or a
    restore lands on is then the one it was made from."""
    out: dict[str, str] = {}
    for key in ("player", "with"):
        number = people.small_int(source.get(key))
        if number is not None:
            out[key] = str(number)
    if source.get("kind") in stats.KINDS:
        out["kind"] = source["kind"]
    if source.get("status") in stats.STATUSES:
        out["status"] = source["status"]
    return out


def _page_url(filters: dict[str, Any], older: str | None = None) -> str:
    """The history's address with these filters, from the game after ``older`` on (``opponent``
    is the address's ``with``)."""
    args = {("with" if k == "opponent" else k): v for k, v in filters.items() if v is not None and k != "unknown_player"}
    return url_for("history.history", **args, **({"older": older} if older else {}))


def _history_page(status: int = 200, **extra: Any):  # type: ignore[no-untyped-def]
    people.sync()
    service.sync_standing()
    f = _filters()
    after = request.args.get("older") or None
    records, last = stats.history(**{k: v for k, v in f.items() if k != "unknown_player"}, older=after)
    nights = people.group_sessions([r.row for r in records], {r.id: r.people for r in records})
    by_id = {r.id: r for r in records}
    everyone = people.players_with_games(status=f["status"], keep=f["player"])
    ctx = {"filters": f, "records": records, "nights": nights, "by_id": by_id, "players": everyone,
           "opponent": people.get(f["opponent"])[0] if f["opponent"] is not None else None,
           "all_their_games": _page_url({**f, "opponent": None}),
           "older_url": _page_url(f, last) if last else None, "newest_url": _page_url(f) if after else None,
           "kinds": stats.KINDS, "statuses": stats.STATUSES,
           "kept_filters": {k: str(v) for k, v in (("player", f["player"]), ("with", f["opponent"]), ("kind", f["kind"]),
                                                   ("status", f["status"])) if v is not None}, **extra}
    if _is_htmx() and request.method == "GET":
        # the address kept is the filters as taken: a head-to-head ``with`` dropped with its player is not kept
        return render_block("history.html", "games", **ctx, oob_players=True), status, {"HX-Push-Url": _page_url(f, after)}
    return render_template("history.html", **ctx), status


@bp.get("/history")
def history():  # type: ignore[no-untyped-def]
    """``GET /history``: every game, newest first, grouped into table sessions with their
    tallies; filters ``player``, ``with`` (head to head), ``kind``, ``status``; ``older=<id>``
    pages on. ``deleted``/``restored=<id>`` and ``imported=…`` say what the last action did. An
    htmx request gets the ``games`` block alone."""
    notice, notice_game = _delete_notice()
    imported = [people.small_int(request.args.get(k, "")) or 0
                for k in ("imported", "existing", "extended", "existing_deleted", "differ", "imported_deleted", "earlier")]
    # (only the counts an import sends: "?imported=abc" said "The file holds no game.", a tester)
    told = request.args.get("imported", "").strip()
    # (a restore's own notice: the game left a series decided without it; once, as a flash)
    said = get_flashed_messages(category_filter=["notice"]) if notice == "restored" else []
    return _history_page(notice=notice, notice_game=notice_game, restored_said=said[0] if said else None,
                         import_result=tuple(imported) if told == "0" or people.small_int(told) else None)


def _delete_notice() -> tuple[str | None, str | None]:
    """The notice the page after a delete or a restore gives (``?deleted=<id>``: "The game was
    deleted … Restore it", ``?restored=<id>``) and that game's id; nothing for an id that is no
    stored game, or one no longer so (a made-up ``?deleted=`` offered to restore nothing)."""
    for notice, deleted in (("deleted", True), ("restored", False)):
        game_id = request.args.get(notice)
        if game_id:
            row = service.game_row(game_id)
            if row is None or (row.deleted_at is not None) is not deleted:
                return None, None
            return notice, game_id
    return None, None


@bp.get("/history/<game_id>/delete")
def confirm_delete(game_id: str):  # type: ignore[no-untyped-def]
    """``GET /history/<id>/delete``: the page asking to confirm deleting a game; 404 for no game."""
    rec = stats.record(game_id)
    if rec is None:
        abort(404)
    return render_template("history_delete.html", rec=rec, kept_filters=kept_filters(request.args))


@bp.post("/history/<game_id>/delete")
def delete(game_id: str):  # type: ignore[no-untyped-def]
    """``POST /history/<id>/delete``: mark the game deleted (kept, restorable; out of the tallies
    and statistics), then 303 to History (with the filters the form passes on, ``kept_filters``)
    saying so with a Restore button; 404 for no game."""
    if archive.set_deleted(game_id, True) is None:
        abort(404)
    return redirect(url_for("history.history", **kept_filters(request.form), deleted=game_id), code=303)


@bp.post("/history/<game_id>/restore")
def restore(game_id: str):  # type: ignore[no-untyped-def]
    """``POST /history/<id>/restore``: bring a deleted game back; 303 to History (or to the game
    or its review when the form's ``next`` is ``game`` or ``review``); 404 for no game. A game
    whose "best of N" was decided without it leaves that series, said once where it lands
    (``people.leave_decided_series``), and so does one still in play whose series went on with a
    later game meanwhile (``people.leave_replaced_series``)."""
    if archive.set_deleted(game_id, False) is None:
        abort(404)
    series = people.leave_decided_series(game_id)
    if series is not None:
        db.session.commit()
        flash(_("It no longer counts in its best of %(n)s: the series was decided without it (%(tally)s).",
                n=series.best_of, tally=series.tally_text), "notice")
    elif (series := people.leave_replaced_series(game_id)) is not None:
        db.session.commit()
        flash(_("It no longer counts in its best of %(n)s: the series went on with a later game while it was "
                "deleted (%(tally)s).", n=series.best_of, tally=series.tally_text), "notice")
    if request.form.get("next") == "game":  # restored from the game's own screen: back to it
        return redirect(url_for("pages.game", game_id=game_id), code=303)
    if request.form.get("next") == "review":  # restored from its review: back to it, at the turn shown
        turn = (request.form.get("turn") or "").strip()
        shown = {"turn": int(turn)} if turn.isascii() and turn.isdigit() and len(turn) <= 6 else {}
        return redirect(url_for("history.game_review", game_id=game_id, **shown, restored=1), code=303)
    return redirect(url_for("history.history", **kept_filters(request.form), restored=game_id), code=303)


def _download(body: str, name: str, mimetype: str, ascii_name: str | None = None) -> Response:
    """A file to save: ``name`` as is when ASCII, else ``ascii_name`` for old browsers and
    ``name`` (UTF-8, RFC 6266 ``filename*``) for the others."""
    disposition = f'attachment; filename="{ascii_name or name}"'
    if ascii_name and ascii_name != name:
        disposition += f"; filename*=UTF-8''{quote(name, safe='')}"
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": disposition})


@bp.get("/history/export.json")
def export_json():  # type: ignore[no-untyped-def]
    """``GET /history/export.json``: the backup of every game, deleted ones too (format
    ``splendor-tracker-history/1``: game logs, names' aliases, series, next games), as a download."""
    data = service.export_history()
    return _download(json.dumps(data, ensure_ascii=False, indent=1), "splendor-history.json", "application/json")


@bp.get("/history/export.csv")
def export_csv():  # type: ignore[no-untyped-def]
    """``GET /history/export.csv``: one row per game (players, times in UTC, winner, routes,
    turns, nobles), UTF-8 with a byte-order mark for spreadsheets, as a download."""
    people.sync()
    # With a byte-order mark: a spreadsheet (Excel) then reads the names as UTF-8 (민준, not mojibake).
    return _download("\ufeff" + archive.history_csv(), "splendor-history.csv", "text/csv")


@bp.post("/history/import")
def import_file():  # type: ignore[no-untyped-def]
    """``POST /history/import`` (form field ``file``): import a game log or a whole history,
    all-or-nothing, games already stored skipped; 303 to History saying how many were imported,
    already there, extended. A file that is no such JSON, or a game that does not replay, is 422
    on History with the reason (nothing stored)."""
    # (its body may reach MAX_IMPORT_BYTES: see tracker.LARGE_BODIES)
    upload = request.files.get("file")
    try:
        data = archive.read_json(upload.read()) if upload else None  # read as the API reads it
    except archive.RepeatedName as exc:
        return _history_page(422, import_error=error_message(exc.refusal("bad_log")))
    except (ValueError, RecursionError):
        data = None
    if data is None:
        return _history_page(422, import_error=_("Choose a JSON file exported by this app (a game log or a whole history)."))
    try:
        done = service.import_any(data)
    except RuleError as err:
        return _history_page(422, import_error=error_message(err))
    # Post/redirect/get: reloading the page that says what was imported sends nothing again.
    return redirect(url_for("history.history", imported=done.created, existing=done.existing,
                            extended=done.extended or None, existing_deleted=done.deleted or None,
                            differ=done.differ or None, imported_deleted=done.created_deleted or None,
                            earlier=done.earlier or None), code=303)


# ------------------------------------------------------------------------------------ players


@bp.get("/players")
def players():  # type: ignore[no-untyped-def]
    """``GET /players``: every person with a game (games, those in progress, wins, win rate over
    the finished ones); people whose every game is deleted are only counted."""
    people.sync()
    lines = stats.player_lines()
    # people whose every game was deleted: not listed (they come back with a restored game)
    return render_template("players.html", lines=[line for line in lines if line.games],
                           hidden=sum(1 for line in lines if not line.games))


def _player(player_id: int) -> Any:
    player, alias = people.get(player_id)
    if player is None:
        abort(404)
    return player, alias


@bp.get("/players/<int(max=2147483647):player_id>")
def player(player_id: int):  # type: ignore[no-untyped-def]
    """``GET /players/<id>``: one person's statistics, other names, rename, merge; a merged-away
    id is 301 to the person kept; 404 for no such person."""
    people.sync()
    found, alias = _player(player_id)
    if alias:
        return redirect(url_for("history.player", player_id=found.id), code=301)
    return _player_page(found)


def _player_page(found: Any, status: int = 200, **extra: Any):  # type: ignore[no-untyped-def]
    said = get_flashed_messages(category_filter=["notice"])  # once: a reload does not say it again
    others, played_with = people.merge_candidates(found.id)
    ctx = {"s": stats.player_stats(found), "others": others, "played_with": played_with,
           "aliases": people.aliases_of(found.id), "kinds": stats.KINDS, "notice": said[0] if said else None,
           # a game deleted from here lands on this person's History (it landed on everyone's: a tester)
           "kept_filters": {"player": str(found.id)}, **extra}
    return render_template("player.html", **ctx), status


@bp.post("/players/<int(max=2147483647):player_id>/rename")
def rename(player_id: int):  # type: ignore[no-untyped-def]
    """``POST /players/<id>/rename`` (field ``name``): 303 back to the player; a name refused
    (empty, too long, another person's) is 422 on the player page with the reason."""
    found, _alias = _player(player_id)
    try:
        people.rename(found.id, request.form.get("name", ""))
    except RuleError as err:
        return _player_page(found, 422, rename_error=error_message(err))
    return redirect(url_for("history.player", player_id=found.id), code=303)


@bp.post("/players/<int(max=2147483647):player_id>/forget-name")
def forget_name(player_id: int):  # type: ignore[no-untyped-def]
    """Forget one of the person's other names (form field ``alias``: its player id)."""
    found, _alias = _player(player_id)
    try:
        name = people.forget_alias(found.id, request.form.get("alias"))
    except RuleError as err:
        return _player_page(found, 422, alias_error=error_message(err))
    flash(_("“%(name)s” is forgotten: typed again, it is a new player.", name=name), "notice")
    return redirect(url_for("history.player", player_id=found.id), code=303)


@bp.post("/players/<int(max=2147483647):player_id>/merge")
def merge(player_id: int):  # type: ignore[no-untyped-def]
    """``POST /players/<id>/merge`` (fields ``other``, ``confirm``, ``name``: ``other`` to go by the
    other person's name): merge the other person into this one (their games and names become this
    person's), after a confirmation page that asks which name to keep; 303 back to
    the player. No other person chosen, or one who shares a game with this one, is 422 with the reason."""
    found, _alias = _player(player_id)
    other_id = people.small_int(request.form.get("other"))
    other = people.get(other_id)[0] if other_id is not None else None
    if other is not None and other.id == found.id and other_id != found.id:  # merged meanwhile (another tab)
        return _player_page(found, 422, merge_error=_("These two are one player already: the merge was made."))
    if other is None or other.id == found.id:
        return _player_page(found, 422, merge_error=_("Choose the other player to merge into this one."))
    try:
        people.check_merge(found.id, other.id)
    except RuleError as err:
        return _player_page(found, 422, merge_error=error_message(err))
    if request.form.get("confirm") != "yes":
        keep_stats, other_stats = stats.player_stats(found), stats.player_stats(other)
        # the name offered first: the one with more games (the spelling the table has used most)
        return render_template("player_merge.html", keep=keep_stats, other=other_stats,
                               other_name_first=other_stats.games > keep_stats.games)
    try:
        people.merge(found.id, other.id, other_name=request.form.get("name") == "other")
    except RuleError as err:  # merged the other way round on another phone meanwhile
        return _player_page(people.get(found.id)[0] or found, 422, merge_error=error_message(err))
    return redirect(url_for("history.player", player_id=found.id), code=303)


# ------------------------------------------------------------------------------------- review


def _view(game_id: str) -> service.GameView:
    try:
        return service.load(game_id)
    except service.GameNotFound:
        abort(404)


@bp.get("/games/<game_id>/review")
def game_review(game_id: str):  # type: ignore[no-untyped-def]
    """``GET /games/<id>/review``: the game turn by turn (``turn=<n>``: the position after that
    turn); an htmx request gets the ``replay`` block alone; 404 for no game."""
    view = _view(game_id)
    people.sync()
    ctx = review.review_context(view, request.args.get("turn"))
    said = get_flashed_messages(category_filter=["notice"]) if request.args.get("restored") else []
    ctx["restored_said"] = said[0] if said else None
    if _is_htmx():
        return render_block("review.html", "replay", **ctx)
    return render_template("review.html", **ctx)


@bp.get("/games/<game_id>/export")
def game_export(game_id: str):  # type: ignore[no-untyped-def]
    """``GET /games/<id>/export``: the game's log (``splendor-tracker/1``) as a download named by
    its players and start; 404 for no game."""
    view = _view(game_id)
    log = service.export_log(game_id)
    started = to_user_timezone(view.row.started).replace(tzinfo=None)  # the day and time the table knows
    name, ascii_name = archive.filename(view.row, list(view.row.setup["players"]), started=started)
    return _download(json.dumps(log, ensure_ascii=False, indent=1), name, "application/json", ascii_name)
