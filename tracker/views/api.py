"""The JSON API of GAME-LOG.md: thin views over ``service``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, make_response, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from .. import archive, service
from ..i18n import error_json, tr
from ..rules.errors import N_, RuleError

bp = Blueprint("api", __name__, url_prefix="/api")


def _error(status: int, code: str, message: str, rule: str = "", **extra: Any):  # type: ignore[no-untyped-def]
    return jsonify({"error": {"code": code, "message": message, "rule": rule}, **extra}), status


def _body(code: str = "bad_event", *, optional: bool = False) -> Any:
    """The JSON body of a write. Only ``application/json`` is accepted (a cross-site form cannot
    send it); anything else, or a body that does not parse, is answered 400 by ``_not_json``.
    JSON with an object that names a member twice is refused as ``code`` (422: ``bad_setup``,
    ``bad_event`` or ``bad_log``, as the endpoint's other malformed bodies are).
    ``optional``: an empty body counts as ``{}`` (undo), also sent with no ``Content-Type`` at
    all (``curl -X POST``): a cross-site request without one carries no cookie (they are
    ``SameSite=Lax``), so it can do nothing a direct request could not.
    """
    data = request.get_data(cache=True)
    limit = request.max_content_length  # the app's, or the larger one of an import (``LARGE_BODIES``)
    if limit and request.content_length is None and len(data) >= limit:
        abort(413)  # a chunked body is cut at the limit: too large, not malformed
    if optional and not request.content_type and not data:
        return {}
    if not request.is_json:
        raise _NotJson()
    if optional and not request.get_data(cache=True):
        return {}
    try:  # ``null`` is JSON: the caller says it is not an object
        return archive.read_json(request.get_data(cache=True))
    except archive.RepeatedName as exc:  # JSON, so not 400, but which of the two is meant?
        raise exc.refusal(code) from None
    except RecursionError:  # (valid or not: the parser gave up before it could tell)
        raise _NotJson(_("The request body is nested too deeply to be read as JSON (an entry or a game log "
                         "is a few levels deep).")) from None
    except ValueError:
        raise _NotJson() from None


@bp.before_request
def _not_from_another_site():  # type: ignore[no-untyped-def]
    """A write sent by another site's page is refused, 403 ``cross_site``, before it is read: a
    browser sends an empty undo from any page without asking first (no preflight), and a club's
    instance on its own network is reachable from the browsers of its players. The browser says
    where a request comes from (``Sec-Fetch-Site``; else ``Origin``, compared with this
    address); a request that says nothing (curl, scripts) is no page's."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        foreign = site in ("cross-site", "same-site")
    else:
        origin = request.headers.get("Origin")
        foreign = origin is not None and origin != f"{request.scheme}://{request.host}"
    if foreign:
        return _error(403, "cross_site", _("A page of another site cannot write to a game."))
    return None


class _NotJson(Exception):
    """A body that cannot be read as JSON; ``args[0]``, when given, says why (else: not JSON)."""


@bp.errorhandler(_NotJson)
def _not_json(exc: _NotJson):  # type: ignore[no-untyped-def]
    return _error(400, "bad_json", exc.args[0] if exc.args else _("The request body must be JSON (Content-Type: application/json)."))


@bp.errorhandler(RuleError)
def _rule_error(err: RuleError):  # type: ignore[no-untyped-def]
    return jsonify(error_json(err)), 422


@bp.errorhandler(service.GameNotFound)
def _not_found(_exc: Exception):  # type: ignore[no-untyped-def]
    return _error(404, "not_found", _("There is no game with this id."))


@bp.errorhandler(service.VersionConflict)
def _conflict(exc: service.VersionConflict):  # type: ignore[no-untyped-def]
    """409 ``version_conflict`` with the game's state. An ``expected_version`` ahead of the
    game's version was never its version (a typo, another game's): said so, not "another
    entry was recorded first"."""
    if exc.expected is not None and exc.expected > exc.view.version:
        message = _("This game is at version %(version)s: expected_version %(expected)s is ahead of it. "
                    "Send the version of the game's latest state.", version=exc.view.version, expected=exc.expected)
    else:
        message = _("Another entry was recorded first; check the game and try again.")
    return _error(409, "version_conflict", message, state=exc.view.to_json(tr))


@bp.errorhandler(HTTPException)
def http_error(exc: HTTPException):  # type: ignore[no-untyped-def]
    """Any HTTP error under /api as GAME-LOG.md's JSON error body: the message is the error
    page's sentence in the reader's language (``pages.ERROR_PAGES``), the error's own headers
    (``Allow``, ``Retry-After``) kept."""
    from .pages import ERROR_PAGES, with_error_headers

    code = "not_found" if exc.code == 404 else (exc.name or "error").lower().replace(" ", "_")
    sentence = ERROR_PAGES.get(exc.code or 500)
    resp = _error(exc.code or 500, code, _(sentence[1]) if sentence else (exc.description or exc.name))
    return with_error_headers(make_response(resp), exc)


@bp.post("/games")
def create_game():  # type: ignore[no-untyped-def]
    """``POST /api/games``: start a game from GAME-LOG.md's setup body (``game``, ``players``,
    ``first_player``, Splendor's ``nobles``); 201 with the game's state (version 0). A setup the
    rules refuse, or JSON that is no object, is 422 ``bad_setup`` (D-1, S-1); a body that is not
    JSON, 400 ``bad_json``."""
    view = service.create_game(_body("bad_setup"))
    return jsonify(view.to_json(tr)), 201


@bp.get("/games")
def list_games():  # type: ignore[no-untyped-def]
    """The games, newest first, ``service.API_PAGE`` at a time: when older games follow, the
    answer's ``Link`` header names the next page (``rel="next"``, ``?older=<last id>``); an
    ``older`` that is no game's id is 404 (an empty one: the first page). The body stays
    GAME-LOG.md's list."""
    rows = service.list_games(service.API_PAGE + 1, older=request.args.get("older") or None)
    resp = jsonify([service.game_summary(row) for row in rows[:service.API_PAGE]])
    if len(rows) > service.API_PAGE:
        resp.headers["Link"] = f'<{url_for("api.list_games", older=rows[service.API_PAGE - 1].id)}>; rel="next"'
    return resp


@bp.get("/games/<game_id>")
def game_state(game_id: str):  # type: ignore[no-untyped-def]
    """``GET /api/games/<id>``: the game's state at its latest version (GAME-LOG.md's state
    object: players, board, bag, turn, pending, alerts, winner); 404 ``not_found``."""
    return jsonify(service.load(game_id).to_json(tr))


@bp.post("/games/<game_id>/events")
def post_event(game_id: str):  # type: ignore[no-untyped-def]
    """``POST /api/games/<id>/events``: record one entry (a GAME-LOG.md event, with the optional
    ``expected_version`` and ``entry_id``); 200 with the new state and its ``alerts``. A stale
    ``expected_version`` is 409 ``version_conflict`` (with the state); an entry the rules refuse
    is 422 with its code and rule id (``RuleError``); a repeated ``entry_id`` stores nothing."""
    body = _body()
    if not isinstance(body, dict):
        service.require_game(game_id)  # (an unknown game is 404 whatever the body: GAME-LOG.md)
        raise RuleError("bad_event", N_("An entry must be a JSON object."))
    view = service.post_event(
        game_id, body, expected_version=body.get("expected_version"), entry_id=body.get("entry_id")
    )
    return jsonify(view.to_json(tr))


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):  # type: ignore[no-untyped-def]
    """``POST /api/games/<id>/undo``: take back the latest entry (an empty body or
    ``{"expected_version": n}``); 200 with the state before it. Nothing to undo is 422
    ``nothing_to_undo``; a stale version, 409 ``version_conflict``."""
    body = _body(optional=True)
    if not isinstance(body, dict):
        service.require_game(game_id)
        raise RuleError("bad_event", N_("An undo's body must be a JSON object (or empty)."))
    return jsonify(service.undo(game_id, expected_version=body.get("expected_version")).to_json(tr))


@bp.get("/games/<game_id>/log")
def game_log(game_id: str):  # type: ignore[no-untyped-def]
    """``GET /api/games/<id>/log``: the game's export (format ``splendor-tracker/1``: setup,
    every entry in order, the result); 404 ``not_found``."""
    return jsonify(service.export_log(game_id))


@bp.post("/games/import")
def import_game():  # type: ignore[no-untyped-def]
    """``POST /api/games/import``: store a ``splendor-tracker/1`` log by replaying it; 201 with
    the state of the game created, 200 when it is already stored (or entries were added to a
    stored game). A log that does not replay is 422 with the first refused entry's error and
    stores nothing."""
    view, outcome = service.import_log(_body("bad_log"))
    return jsonify(view.to_json(tr)), 201 if outcome == service.CREATED else 200
