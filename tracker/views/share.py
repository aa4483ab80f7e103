"""Two phones and spectators: the share sheet (link, QR, 6-character code), joining by code,
and the read-only spectator view whose writes are refused with 403."""

from __future__ import annotations

import io
import math

import segno
from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from jinja2_fragments.flask import render_block
from werkzeug.datastructures import MultiDict

from .. import access, screen, service
from ..access import limiter, refused
from ..models import utcnow
from .pages import ASK_WHOSE, WHOSE_ANSWERED, cookie_seat

bp = Blueprint("share", __name__)


def _qr_svg(url: str) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, dark="#1d1b19", light="#ffffff", xmldecl=False)
    return out.getvalue()


@bp.get("/games/<game_id>/share")
def share(game_id: str):  # type: ignore[no-untyped-def]
    """The share sheet: the game's link and QR, a join code with the minutes it is still valid
    (15 when new; none for a finished game, whose link shows its result), the spectator link.
    Marks this phone (cookie ``ASK_WHOSE``, an hour) to be asked whose phone it is back on the
    game, until it answers (``pages.settings``); a phone that answered in this game already
    (cookie ``WHOSE_ANSWERED``), or whose player (``mine``) sits in it, is not asked again."""
    try:
        sid = service.spectator_id(game_id)
    except service.GameNotFound:
        abort(404)
    row = service.game_row(game_id)  # (the row spectator_id just read)
    players = row.setup["players"]
    # a finished game records nothing more: its link shows the result, and no join code is given
    finished = row.status == "finished"
    code = None if finished else service.join_code(game_id)
    # (a phone whose player sits in this game knows whose it is: "New game, same players" keeps
    # it, and back from sharing that game it was asked again, a tester)
    answered = request.cookies.get(WHOSE_ANSWERED) == game_id or cookie_seat(players) is not None
    ctx = {
        "game_id": game_id,
        "names": " · ".join(players),
        # the phones still to join, at most: one in a Duel, up to three at a Splendor table
        "others": max(1, len(players) - 1),
        "play_url": url_for("pages.game", game_id=game_id, whose="ask", _external=True),
        # this phone said whose it is in this game already: back on it, nothing is asked
        "back_url": url_for("pages.game", game_id=game_id, **({} if answered else {"whose": "ask"})),
        "watch_url": url_for("share.watch", sid=sid, _external=True),
        "watch_qr": url_for("share.watch_qr", sid=sid),
        "renewed": request.args.get("renewed") == "1",
        "access_code": access.required(),  # the join form sits behind it; the links do not
        "finished": finished,
        "code": code.code if code else None,
        # the minutes the code still has (a code is given again while it has 5 or more left)
        "minutes": max(1, math.ceil((code.expires_at - utcnow()).total_seconds() / 60)) if code else 0,
    }
    if getattr(request, "htmx", False):
        resp = make_response(render_block("share.html", "share", **ctx))
    else:
        resp = make_response(render_template("share.html", **ctx))
    # this phone brings others to the game: back on it (its link, or the phone's Back), it is
    # asked whose phone it is, as a phone that joins is (a tester's first phone never was)
    if not answered:
        resp.set_cookie(ASK_WHOSE, game_id, max_age=60 * 60, samesite="Lax", httponly=True)
    return resp


@bp.post("/games/<game_id>/share/watch")
def renew_watch(game_id: str):  # type: ignore[no-untyped-def]
    """A new spectator link for the game: the old one stops showing it (its open screens are told
    at their next poll). Back to the share sheet with the new link."""
    try:
        service.renew_spectator_id(game_id)
    except service.GameNotFound:
        abort(404)
    return redirect(url_for("share.share", game_id=game_id, renewed=1), code=303)


@bp.get("/games/<game_id>/qr.svg")
def game_qr(game_id: str):  # type: ignore[no-untyped-def]
    """The QR code of the game's own link (joining phones can record entries)."""
    if service.current_version(game_id) is None:
        abort(404)
    resp = make_response(_qr_svg(url_for("pages.game", game_id=game_id, whose="ask", _external=True)))
    resp.headers["Content-Type"] = "image/svg+xml"
    return resp


@bp.get("/watch/<sid>/qr.svg")
def watch_qr(sid: str):  # type: ignore[no-untyped-def]
    """The QR code of the spectator link."""
    try:
        service.game_id_for_spectator(sid)
    except service.GameNotFound:
        abort(404)
    resp = make_response(_qr_svg(url_for("share.watch", sid=sid, _external=True)))
    resp.headers["Content-Type"] = "image/svg+xml"
    return resp


@bp.post("/join")
@limiter.limit("10 per minute;60 per hour", deduct_when=refused)
def join():  # type: ignore[no-untyped-def]
    """Open the game a typed join code belongs to; an unknown or expired code is refused."""
    game_id = service.resolve_code(request.form.get("code"))
    message = None
    if game_id is None:
        message = _("That code is unknown or has expired: ask for the code on the other phone.")
    elif service.game_deleted(game_id):
        message = _("That code's game was deleted on the phone that shared it: "
                    "it can be restored there, from History.")
    if message is not None:
        from .pages import _home

        typed = request.form.get("code", "")
        # the code typed stays in the field (to see what was mistyped), as the new-game form keeps its names
        return _home(MultiDict({"code": typed[:16] if isinstance(typed, str) else ""}), status=422,
                     join_error=message)
    return redirect(url_for("pages.game", game_id=game_id, whose="ask"), code=303)  # whose phone is it?


def _watch_context(sid: str) -> dict:
    try:
        view = service.load(service.game_id_for_spectator(sid))
    except service.GameNotFound:
        # a spectator link opened after the table made a new one (or mistyped): said as such, 404
        abort(make_response(render_template(
            "error.html", status=404, title=_("Nothing to watch here"),
            message=_("This spectator link shows no game: the table may have made a new one. Ask them for the new link.")),
            404))
    ctx = screen.game_context(view)
    # The table's next game is followed by its own spectator link (never its id: a write key).
    following = ctx.get("following")
    # Nothing on a spectator's page may reveal the game's id, which is its write key.
    ctx.update(readonly=True, game_id=None, sid=sid, sheet=None, following=None,
               following_watch=url_for("share.watch", sid=service.spectator_id(following)) if following else None,
               # a screen that watched the game end (told by its poll) follows the table a minute
               # later; a finished game's link opened afterwards stays on that game
               follow_after=60 if following and getattr(request, "htmx", False) else None,
               poll_url=url_for("share.watch_poll", sid=sid, v=view.version, n=len(view.events),
                                **screen.poll_marks(view.row)),
               log_url=url_for("share.watch_log", sid=sid))
    return ctx


@bp.get("/watch/<sid>")
def watch(sid: str):  # type: ignore[no-untyped-def]
    """The game read-only: panels, log, alerts; no entry controls, no undo."""
    ctx = _watch_context(sid)
    if getattr(request, "htmx", False):
        return render_block(ctx["template"], "game", **ctx)
    return render_template(ctx["template"], **ctx)


@bp.get("/watch/<sid>/review")
def watch_review(sid: str):  # type: ignore[no-untyped-def]
    """A spectator's review of the game (turn by turn, the position after any turn, the charts),
    as History's review shows it but without anything that reveals the game's id."""
    from .. import people, review

    view = _watch_context(sid)["view"]
    people.sync()
    ctx = review.review_context(view, request.args.get("turn"), sid=sid)
    if getattr(request, "htmx", False):
        return render_block("review.html", "replay", **ctx)
    return render_template("review.html", **ctx)


@bp.get("/watch/<sid>/log")
def watch_log(sid: str):  # type: ignore[no-untyped-def]
    """The whole game log for spectators (the log drawer, open)."""
    ctx = dict(_watch_context(sid), log_all=True)
    if getattr(request, "htmx", False):
        return render_template("partials/log.html", **ctx)
    return render_template(ctx["template"], **ctx)


@bp.get("/watch/<sid>/poll")
def watch_poll(sid: str):  # type: ignore[no-untyped-def]
    """Live sync for spectators: 204 while unchanged, else the read-only game block."""
    try:
        game_id = service.game_id_for_spectator(sid)
    except service.GameNotFound:
        # the screen polling was open on this link: the table has made a new one since (410, which
        # the game screen swaps in, says so; its poller ends with it)
        return render_template("partials/watch_gone.html"), 410
    seen = screen.seen_version(request.args)
    head = service.game_head(game_id)
    # deleted, restored or followed by a next game since (the version stays): drawn again, no news
    marked = head is not None and screen.marks_changed(head, request.args)
    if head is not None and not marked and seen == head.version:
        return "", 204
    from .pages import poll_news

    ctx = _watch_context(sid)
    # the toast of what was recorded, or the undo
    news = {"announce": False} if marked else poll_news(ctx["view"], seen, request.args.get("n", ""))
    ctx.update(done=news.get("done", ""), done_parts=news.get("done_parts", []), notice=news.get("notice"))
    ctx["alerts"] = screen.alerts(ctx["view"]) if news.get("announce", True) else []
    return render_block(ctx["template"], "game", **ctx)


@bp.route("/watch/<sid>/<path:_rest>", methods=["POST", "PUT", "PATCH", "DELETE"])
@bp.route("/watch/<sid>", methods=["POST", "PUT", "PATCH", "DELETE"])
def watch_write(sid: str, _rest: str = ""):  # type: ignore[no-untyped-def]
    """A spectator link never writes."""
    abort(403)


@bp.get("/watch/<sid>/<path:_rest>")
def watch_elsewhere(sid: str, _rest: str):  # type: ignore[no-untyped-def]
    """Any other page under a spectator link does not exist (404; the write route above made it
    "cannot be opened that way", 405)."""
    abort(404)
