"""The optional instance access code: every device enters it once before it sees anything else.

Set ``ACCESS_CODE`` in ``instance/config.py`` or the ``TRACKER_ACCESS_CODE`` environment
variable. A game's own link (``/games/<id>…``, ``/api/games/<id>…``) still opens that one game
without the code, since the unguessable id is the key to it; nothing else does. Attempts are
rate-limited per address (Flask-Limiter).
"""

from __future__ import annotations

import hmac
import re
from typing import Any
from urllib.parse import unquote, urlsplit

from flask import Blueprint, Flask, current_app, jsonify, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

bp = Blueprint("access", __name__)
limiter = Limiter(key_func=get_remote_address, default_limits=[])

#: Paths that belong to one game: its link is the key, no access code needed.
GAME_PATH = re.compile(r"^/((api/)?games/(?!import$)|watch/)[A-Za-z0-9_-]{16,64}(/|$)")
#: Open to every device: the app's shell (service worker, manifest, offline page) and the
#: display settings (cookies only, then back to a local page), so a phone holding only a
#: game's link can install the app and switch language or theme.
OPEN_PATHS = ("/static/", "/access", "/settings", "/sw.js", "/manifest.webmanifest", "/offline")


def init_app(app: Flask) -> None:
    """Install the limiter for the two rate-limited forms (the access code here, the join code in
    ``views.share``) without its check before every request.

    Flask-Limiter checks a decorated view's limits in the view's own wrapper; its global
    ``before_request`` check exists for application-wide and default limits, which this app does
    not set. That check cost about 90 µs of every request (a fifth of a bare "hello"), so it is
    taken out again; the limiter's after-request and teardown functions stay.
    """
    limiter.init_app(app)
    checks = app.before_request_funcs.get(None, [])
    if limiter._check_request_limit in checks:  # absent when RATELIMIT_ENABLED is False
        checks.remove(limiter._check_request_limit)


def required() -> bool:
    """True when this instance has an access code."""
    return bool(current_app.config.get("ACCESS_CODE"))


#: A path of this site to go back to: "/" then path and query characters only (no "//" or "/\\"
#: start, no space, tab, newline or backslash, which browsers may drop or read as "/").
LOCAL_PATH = re.compile(r"^/(?![/\\])[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*$")


def safe_next(target: str | None) -> str:
    """``target`` when it is a path of this app (``/games/…``, as ``request.path`` gives it: no
    proxy prefix), else the home page's ``/``: where a ``next`` parameter may send the browser
    (never another site: no open redirect). Redirect to ``next_url``'s answer."""
    if not target or not LOCAL_PATH.match(target) or urlsplit(target).netloc:
        return "/"
    if any(unquote(part) in (".", "..") for part in urlsplit(target).path.split("/")):
        # "/.//evil.com" is "//evil.com" once the browser drops its dot, "%2e" too (two testers)
        return "/"
    return target


def next_url(target: str | None) -> str:
    """The address to redirect to for a ``next`` parameter: ``safe_next`` under the app's path
    prefix (behind a proxy serving it under ``/club``, ``/games/…`` is ``/club/games/…``)."""
    return request.script_root + safe_next(target)


def code_mark() -> str:
    """What a device that gave the code keeps in its session: a keyed hash of the code (the session
    cookie is signed, not secret, so never the code itself). A new code no longer matches it, so
    changing the code (a phone lost) locks every device out until it enters the new one."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, str(current_app.config["ACCESS_CODE"]).encode(), "sha256").hexdigest()[:32]


def check_access():  # type: ignore[no-untyped-def]
    """``before_request``: let through open paths, one game's paths and devices that gave the code."""
    if not required() or request.path.startswith(OPEN_PATHS) or session.get("access") == code_mark():
        return None
    if GAME_PATH.match(request.path):
        return None
    if request.path.startswith("/api/"):
        body = {"error": {"code": "access_code_required",
                          "message": _("This instance needs its access code first."), "rule": ""}}
        return jsonify(body), 401
    return redirect(url_for("access.enter", next=request.full_path if request.query_string else request.path))


def _joined(code: str) -> Any:
    """A table's join code typed here (a new phone's first page is this one, and the other
    phone said "type the code on the home page"): that game opens, as its link would, without
    the access code (its link needs none; nothing else is unlocked); None for any other text."""
    from . import service

    game_id = service.resolve_code(code)
    if game_id is None or service.game_deleted(game_id):
        return None
    return redirect(url_for("pages.game", game_id=game_id, whose="ask"), code=303)


def refused(response: Any) -> bool:
    """Whether a rate-limited form's answer refused what was typed (a wrong access or join code):
    only those count against the limit, so a club behind one address is not locked out by its
    own phones entering the right code (``deduct_when`` of Flask-Limiter)."""
    return response.status_code >= 400


@bp.route("/access", methods=["GET", "POST"])
@limiter.limit("10 per minute;50 per hour", methods=["POST"], deduct_when=refused)
def enter():  # type: ignore[no-untyped-def]
    """The access-code page: one correct entry unlocks this device (a lasting session cookie)."""
    target = safe_next(request.values.get("next"))
    if not required():
        return redirect(next_url(target))
    error = None
    if request.method == "POST":
        code = request.form.get("code", "")
        if hmac.compare_digest(code.encode("utf-8", "replace"), str(current_app.config["ACCESS_CODE"]).encode()):
            session.permanent = True
            session["access"] = code_mark()
            return redirect(next_url(target), code=303)
        joined = _joined(code)
        if joined is not None:
            return joined
        error = _("That is not the access code.")
    status = 401 if error else 200
    # a wrong code stays in the field, to see what was mistyped (a join code copied off another phone)
    typed = request.form.get("code", "")[:64] if error else ""
    return render_template("access.html", error=error, next=target, typed=typed), status
