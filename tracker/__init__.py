"""tracker: the table companion for Splendor Duel. ``create_app`` builds the Flask app."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import pytz
from flask import Flask, Response, current_app, request
from flask.globals import request_ctx
from flask.templating import Environment as FlaskEnvironment
from flask_babel import Babel
from flask_migrate import Migrate
from flask_wtf.csrf import CSRFError, CSRFProtect, generate_csrf
from htmx_flask import Htmx
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError, ProgrammingError
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import InternalServerError, ServiceUnavailable

from .db import db, ping_after_idle

MIGRATIONS = str(Path(__file__).parent / "migrations")
LANGUAGES = ("en", "ko")

babel = Babel()
csrf = CSRFProtect()
#: Header of a refused htmx request's answer: a fresh CSRF token for the page (``_csrf_refused``).
CSRF_HEADER = "Tracker-CSRF"
migrate = Migrate()
htmx = Htmx()

def _secret_key(instance: Path) -> str:
    """The instance's secret key, generated into ``instance/secret_key`` on first run."""
    path = instance / "secret_key"
    if not path.exists():
        # Written aside, then linked into place: several gunicorn workers starting at once
        # all end up with the one key that was published first, never a half-written file.
        draft = instance / f".secret_key.{os.getpid()}.{secrets.token_hex(4)}"
        draft.write_text(secrets.token_hex(32))
        draft.chmod(0o600)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """SQLite: WAL journal, a busy timeout and enforced foreign keys on every connection."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=15000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


#: Endpoints whose bodies may exceed ``MAX_CONTENT_LENGTH``, by the config key of their limit.
LARGE_BODIES = {"history.import_file": "MAX_IMPORT_BYTES", "api.import_game": "MAX_IMPORT_BYTES"}


def _body_limit() -> None:
    """Raise this request's body limit where ``LARGE_BODIES`` says; runs before the CSRF check
    reads the form (the view raising it itself came too late: files over 1 MB got 413)."""
    key = LARGE_BODIES.get(request.endpoint or "")
    if key:
        request.max_content_length = current_app.config[key]


def _locale() -> str | None:
    """The language remembered by the switch (cookie ``lang``), else the browser's best match."""
    return pick_locale(request.cookies.get("lang"), request.accept_languages)


def pick_locale(chosen: str | None, accepted: LanguageAccept) -> str:
    """The language of a phone whose ``lang`` cookie is ``chosen`` (None: none) and whose browser
    accepts ``accepted`` (its parsed ``Accept-Language``): one of ``LANGUAGES``, "en" by default."""
    if chosen in LANGUAGES:
        return chosen  # type: ignore[return-value]
    return accepted.best_match(LANGUAGES) or "en"


def _timezone() -> str | None:
    """The phone's time zone (cookie ``tz``, an IANA name ``app.js`` reads from the browser), else
    ``BABEL_DEFAULT_TIMEZONE`` (UTC unless the instance sets e.g. ``Asia/Seoul``)."""
    chosen = request.cookies.get("tz")
    return chosen if chosen in pytz.all_timezones_set else None


#: What a database says when it cannot answer now but may in a moment (SQLite, PostgreSQL).
_UNAVAILABLE = ("database is locked", "database table is locked", "could not connect", "connection refused",
                "server closed the connection", "terminating connection", "statement timeout",
                "the database system is starting up", "the database system is shutting down", "timeout expired")


#: What the server's log says when the database has no tables: ``flask run`` started on a new
#: database file (``scripts/serve.sh`` migrates it first; a tester met a bare 500).
NOT_MIGRATED = "the database has no tables yet: run `flask --app tracker db upgrade` with the same DATABASE_URL (scripts/serve.sh runs it)"


def _unavailable(exc: OperationalError) -> bool:
    """Whether ``exc`` is the database being busy or out of reach (worth trying again), not a fault."""
    said = str(exc.orig or exc).lower()
    return bool(exc.connection_invalidated) or any(marker in said for marker in _UNAVAILABLE)


#: A plain dict's own attributes (``items``, ``get``…): read as attributes, not as keys.
_DICT_ATTRIBUTES = frozenset(dir(dict))


class _TemplateEnvironment(FlaskEnvironment):
    """Flask's Jinja environment, with ``p.name`` on a plain dict looked up as the key first.

    The screens' figures are dicts (``screen.panel``, ``card_view``): Jinja's ``getattr`` tries
    the attribute first and, on a dict, fails with ``AttributeError`` before it reads the key:
    a few hundred raised and caught exceptions per game screen (about 7% of its drawing). A dict's
    own attributes (``items``, ``get``…) still come first, so what a template reads is unchanged.
    """

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute in obj and attribute not in _DICT_ATTRIBUTES:
            return obj[attribute]
        return super().getattr(obj, attribute)


class _Tracker(Flask):
    """The app's Flask class: ``_TemplateEnvironment`` for its templates."""

    jinja_environment = _TemplateEnvironment


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: config (instance/config.py, DATABASE_URL, ``test_config``), extensions, blueprints.

    The instance folder is created on first run and holds the SQLite database and the secret key.
    """
    app = _Tracker(__name__, instance_relative_config=True)
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{instance / 'tracker.sqlite3'}",
        MAX_CONTENT_LENGTH=1024 * 1024,
        MAX_IMPORT_BYTES=16 * 1024 * 1024,  # a whole history file uploaded on the History page
        BABEL_DEFAULT_LOCALE="en",
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
        WTF_CSRF_TIME_LIMIT=None,
        WTF_CSRF_SSL_STRICT=False,
        ACCESS_CODE=None,
        NEAR_WIN_DISTANCE=2,
        POLL_SECONDS=2,
        RATELIMIT_STORAGE_URI="memory://",
        RATELIMIT_HEADERS_ENABLED=True,
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 365,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("DATABASE_URL"):
            app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
        if os.environ.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
        if os.environ.get("TRACKER_ACCESS_CODE"):
            app.config["ACCESS_CODE"] = os.environ["TRACKER_ACCESS_CODE"]
        # the shared screens (tracker/screens.py), and the rate limits' counters (README: across workers)
        for name in ("CACHE_TYPE", "CACHE_DIR", "CACHE_REDIS_URL", "RATELIMIT_STORAGE_URI"):
            if os.environ.get(name):
                app.config[name] = os.environ[name]
        if os.environ.get("TRACKER_HOSTS"):  # the host names it answers to (Flask's TRUSTED_HOSTS; README)
            app.config["TRUSTED_HOSTS"] = [h.strip() for h in os.environ["TRACKER_HOSTS"].split(",") if h.strip()]
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)

    db.init_app(app)
    if not str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite"):
        # a database server restarted: a worker's pooled connections are dead; one idle since
        # is tried before use, so a request gets a live one, not a 503 per worker (an operator)
        with app.app_context():
            ping_after_idle(db.engine)
    migrate.init_app(app, db, directory=MIGRATIONS)
    babel.init_app(app, locale_selector=_locale, timezone_selector=_timezone)
    from .i18n import install_template_gettext

    install_template_gettext(app)
    app.before_request(_body_limit)  # before CSRF reads the form
    csrf.init_app(app)
    htmx.init_app(app)
    from . import serving

    serving.init_app(app, locale=pick_locale)  # proxy headers, compression, fingerprinted long-cached static files
    from . import screens

    screens.init_app(app)  # game screens drawn once per version for all phones of a table

    from . import access, models  # noqa: F401  (models: tables known to Alembic)
    from .views import api, pages

    from . import cli

    cli.register(app)
    access.init_app(app)  # rate limits on the access-code and join-code forms
    app.before_request(access.check_access)
    app.register_blueprint(access.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    app.register_blueprint(pages.bp)
    pages.register_template_helpers(app)
    from .views import share

    app.register_blueprint(share.bp)
    csrf.exempt(share.watch_write)  # a spectator's write is refused with 403 whatever it carries
    from .views import history

    app.register_blueprint(history.bp)
    history.register_template_helpers(app)

    @app.errorhandler(400)
    @app.errorhandler(403)
    @app.errorhandler(404)
    @app.errorhandler(405)
    @app.errorhandler(413)
    @app.errorhandler(429)
    @app.errorhandler(500)
    def _http_error(exc):  # type: ignore[no-untyped-def]
        if request_ctx.url_adapter is None:  # no address can be built (a host Werkzeug refused): plain text
            return Response(f"{exc.code} {exc.name}\n", exc.code, mimetype="text/plain")
        if request.path.startswith("/api/"):
            return api.http_error(exc)
        return pages.error_page(exc)

    @app.errorhandler(CSRFError)
    def _csrf_refused(exc):  # type: ignore[no-untyped-def]
        # A phone whose session ended while its page stayed open (its session cookie lost): the
        # token its page sends matches none. An htmx request gets a fresh one (a new session) in
        # ``CSRF_HEADER`` and app.js takes it: a save is sent again at once, anything else is
        # said to need another tap. (Read by htmx alone: another site's form cannot set the
        # header that asks for it, nor read the answer.)
        resp = _http_error(exc)
        if request.headers.get("HX-Request") == "true":
            resp.headers[CSRF_HEADER] = generate_csrf()
        return resp

    @app.errorhandler(OperationalError)
    def _database_busy(exc):  # type: ignore[no-untyped-def]
        # The database could not answer in time (SQLite's busy timeout while a long export reads,
        # PostgreSQL unreachable): its transaction is rolled back, nothing half-written. Said as
        # 503 with Retry-After (a phone's app.js sends an entry again by itself), not as a 500.
        # Any other database error (a missing table: migrations not run) stays a 500, logged.
        try:
            db.session.rollback()  # at once: nothing of the failed write may ride on a later commit
        except OperationalError:
            pass  # the connection is gone: so is the transaction
        if not _unavailable(exc):
            app.logger.exception("database error", exc_info=exc)
            if "no such table" in str(exc.orig or exc).lower():  # SQLite's words for a database never migrated
                app.logger.error(NOT_MIGRATED)
            return _http_error(InternalServerError())
        app.logger.warning("database unavailable: %s", exc)
        return _http_error(ServiceUnavailable(retry_after=5))

    @app.errorhandler(ProgrammingError)
    def _database_statement_failed(exc):  # type: ignore[no-untyped-def]
        # PostgreSQL's words for a database never migrated ("relation … does not exist"): said in
        # the log as SQLite's are; any statement the database refused is a 500, logged
        app.logger.exception("database error", exc_info=exc)
        said = str(exc.orig or exc).lower()
        if "relation" in said and "does not exist" in said:
            app.logger.error(NOT_MIGRATED)
        return _http_error(InternalServerError())

    @app.after_request
    def _security_headers(response):  # type: ignore[no-untyped-def]
        # a strict CSP: scripts and styles only from our files; htmx's answers only the headers
        # that apply to a response swapped into the page (the page's own CSP governs it)
        htmx = request.headers.get("HX-Request") == "true"  # as htmx sends it (and request.htmx reads it)
        # a script, style sheet or icon a page loads: the page's own policy governs it (and it is
        # the same file whoever asks: no Vary on htmx)
        subresource = request.endpoint == "static" and response.mimetype in serving.SUBRESOURCE_TYPES
        for name, value in serving.EVERY_ANSWER_HEADERS if htmx or subresource else serving.SECURITY_HEADERS:
            response.headers.setdefault(name, value)
        if not subresource:
            response.headers.add("Vary", "HX-Request")
        if "Cache-Control" not in response.headers and not htmx:
            # A page is never taken from the browser's cache: Back to a game would show the
            # screen as first loaded (turn 1) until the next poll. The service worker keeps its
            # own copy for offline use. Nor is any other answer of ours kept by a cache on the way
            # (the API's games, an export, a QR code: a security tester); static files say their own.
            response.headers["Cache-Control"] = "no-store"
        if request.is_secure:
            # every cookie of ours only over HTTPS there (a game's id in ``last_game`` went out
            # over plain HTTP too: a security tester); plain HTTP, a phone on the café's Wi-Fi, keeps them
            cookies = response.headers.getlist("Set-Cookie")
            if any("; secure" not in c.lower() for c in cookies):
                response.headers.setlist("Set-Cookie", [c if "; secure" in c.lower() else c + "; Secure" for c in cookies])
        return response

    return app
