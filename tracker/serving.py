"""Serving concerns for many tables at once: reverse proxy, compression, long-cached static files.

``init_app(app)`` (called by ``create_app``) sets up:

- **ProxyFix** when the app runs behind ``TRACKER_PROXIES`` reverse proxies (``PROXY_COUNT``;
  0, the default, trusts no ``X-Forwarded-*`` header): the client's address (rate limits),
  scheme, host, port and path prefix come from the proxy's headers.
- **Compression** of responses (Flask-Compress): brotli or gzip, whichever the client prefers,
  for HTML, htmx partials, JSON, CSS and JavaScript of 500 bytes or more.
- **Quiet polls**: a game screen's poll while nothing changed (``GET /games/<id>/poll?v=<the
  version it shows>``, ``d=1`` when it shows the game deleted, ``x=1`` when it offers the next game: a third of a busy night's requests) is answered 204 by ``QuietPolls``
  after one read of the game's version, without the Flask request around it.
- **Template URLs built once**: a template's ``url_for`` keeps what it built per path prefix,
  endpoint and values (``TemplateUrls``): a game screen asks for the same fifteen addresses
  every time it is drawn.
- **No indentation in pages**: the templates' own indentation (a line's leading blanks in
  their HTML, never inside an expression or a string) is dropped as they are compiled
  (``IndentFree``): it broke gzip's repeats, about 120 bytes of each entry's answer.
- **Fingerprinted static files**: ``url_for('static', filename='app.css')`` gives
  ``/static/app.<hash>.css`` (12 hex digits of the file's SHA-256). A fingerprinted URL is
  answered with ``Cache-Control: public, max-age=31536000, immutable``; the plain name still
  works (revalidated each time). Compressible files are compressed once per process at the
  highest brotli/gzip levels and served from memory, with ETag and 304 answers.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable
from urllib.parse import quote as url_quote

import brotli
import rcssmin
import rjsmin
from flask import Flask, Response, abort, current_app, has_request_context, request
from flask_compress import Compress
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.security import safe_join

from . import service
from .screen import VERSION_TEXT

#: Cache-Control of a fingerprinted static URL: its content never changes.
IMMUTABLE = "public, max-age=31536000, immutable"
#: Cache-Control of a static file asked for by its plain (or an outdated) name.
REVALIDATE = "no-cache"
#: Response types worth compressing (Flask-Compress for pages, precompressed static files).
COMPRESSIBLE = (
    "text/html", "text/css", "text/plain", "text/javascript", "application/javascript", "application/json",
    "application/manifest+json", "image/svg+xml",
)
MIN_SIZE = 500
FINGERPRINT = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{12})(?P<ext>\.[A-Za-z0-9]+)?$")

compress = Compress()

#: Headers every answer carries (``create_app``'s ``after_request``, ``QuietPolls``).
EVERY_ANSWER_HEADERS = (("X-Content-Type-Options", "nosniff"),)
#: Headers only a document heeds (what a browser opens as a page, not an htmx answer swapped
#: into one, which the page's own policy governs): sent with every answer but htmx's
#: (``HX-Request``), which saves about 250 bytes of each entry's answer and each poll.
DOCUMENT_HEADERS = (
    ("Content-Security-Policy",
     "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
)
#: What a page (or any answer a browser may open as one) carries.
SECURITY_HEADERS = (*EVERY_ANSWER_HEADERS, *DOCUMENT_HEADERS)
#: Static files a page loads into itself (``StaticFiles``), which the loading page's policy
#: governs, not their own: they carry ``EVERY_ANSWER_HEADERS`` only (a CSP, a referrer policy and
#: a frame rule apply to documents and workers, never to a script, style sheet or picture a page
#: loads), about 250 bytes less on each of the five files of a first visit. A type a browser
#: may open as a document that runs something (HTML, SVG) is not among them, nor is the service
#: worker (``/sw.js``, not a static file: a worker's script carries its own policy).
SUBRESOURCE_TYPES = frozenset({"text/css", "text/javascript", "application/javascript", "image/png"})


def init_app(app: Flask, locale: Callable[[str | None, LanguageAccept], str]) -> None:
    """Proxy headers, compression and fingerprinted static files for ``app`` (see the module);
    ``locale`` is the app's choice of language (``tracker.pick_locale``), for ``QuietPolls``."""
    # Inside ProxyFix: a poll answered early still sees the proxy's prefix, scheme and host.
    app.wsgi_app = QuietPolls(app, app.wsgi_app, locale)  # type: ignore[method-assign]
    app.wsgi_app = AcceptEncoding(app.wsgi_app)  # type: ignore[method-assign]
    app.wsgi_app = HostCheck(app.wsgi_app)  # type: ignore[method-assign]
    # the environment wins over instance/config.py, as for the database URL and the secret key
    count = int(os.environ.get("TRACKER_PROXIES") or app.config.get("PROXY_COUNT") or 0)
    if count:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=count, x_proto=count, x_host=count, x_port=count, x_prefix=count
        )
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "deflate"])
    app.config.setdefault("COMPRESS_MIMETYPES", list(COMPRESSIBLE))
    app.config.setdefault("COMPRESS_MIN_SIZE", MIN_SIZE)
    app.config.setdefault("COMPRESS_LEVEL", 6)
    app.config.setdefault("COMPRESS_BR_LEVEL", 4)
    compress.init_app(app)
    app.jinja_env.add_extension(IndentFree)
    app.jinja_env.globals["url_for"] = TemplateUrls(app)
    if app.static_folder and "static" in app.view_functions:
        assets = StaticFiles(Path(app.static_folder))
        app.extensions["tracker.static"] = assets
        app.url_defaults(assets.url_defaults)
        app.view_functions["static"] = assets.serve


class IndentFree(Extension):
    """A Jinja extension: an HTML template's text outside its tags loses each line's leading
    blanks ("\\n    <div>" is drawn "\\n<div>"). The newline stays, so the page reads the
    same (HTML folds a run of blanks into one); expressions, strings and translations are
    untouched (only ``data`` tokens are), and so is any template not named ``*.html`` (the
    service worker, the manifest). The templates have no ``<pre>`` or ``<textarea>`` whose
    text this would change."""

    LEADING = re.compile(r"\n[ \t]+")

    def filter_stream(self, stream: TokenStream) -> TokenStream | Any:
        """``stream`` with its ``data`` tokens' indentation dropped, for ``.html`` templates."""
        if not (stream.name or "").endswith(".html"):
            return stream
        return (
            Token(tok.lineno, tok.type, self.LEADING.sub("\n", tok.value)) if tok.type == "data" else tok
            for tok in stream
        )


class TemplateUrls:
    """A template's ``url_for``: Flask's, with each relative address kept once built, per path
    prefix (``request.script_root``, a proxy's ``X-Forwarded-Prefix``), endpoint and values.

    Only what always builds the same address is kept: an absolute endpoint (not ``.name``)
    without ``_external``, ``_scheme``, ``_anchor`` or ``_method`` and with hashable values;
    anything else is built each time. At most ``SIZE`` addresses are kept (then forgotten all
    at once). A value that belongs to the request being drawn (``per_request``) is added to the
    kept address each time. Raises what ``url_for`` raises (``BuildError``)."""

    SIZE = 20_000

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._built: dict[Any, str] = {}
        self._per_request: dict[str, tuple[str, Callable[[], Any]]] = {}

    def per_request(self, endpoint: str, name: str, value: Callable[[], Any]) -> None:
        """Every address of ``endpoint`` a template draws gets the query value ``name`` that
        ``value()`` gives while drawing (None: not added), unless the template names it."""
        self._per_request[endpoint] = (name, value)

    def __call__(self, endpoint: str, **values: Any) -> str:
        return self._with_request_value(endpoint, values, self._address(endpoint, values))

    def _with_request_value(self, endpoint: str, values: dict[str, Any], url: str) -> str:
        added = self._per_request.get(endpoint)
        if added is None or added[0] in values:
            return url
        value = added[1]()
        if value is None:
            return url
        return f"{url}{'&' if '?' in url else '?'}{url_quote(added[0])}={url_quote(str(value))}"

    def _address(self, endpoint: str, values: dict[str, Any]) -> str:
        if endpoint.startswith(".") or any(k.startswith("_") for k in values) or not has_request_context():
            return self.app.url_for(endpoint, **values)
        # (each value's type in the key: True and 1 are equal as keys but not in an address)
        key = (request.script_root, endpoint, *sorted((k, type(v), v) for k, v in values.items()))
        try:
            return self._built[key]
        except TypeError:  # a list among the values
            return self.app.url_for(endpoint, **values)
        except KeyError:
            pass
        url = self.app.url_for(endpoint, **values)
        if len(self._built) >= self.SIZE:
            self._built.clear()
        self._built[key] = url
        return url


class HostCheck:
    """WSGI middleware: a request whose host (``Host``, or the proxy's forwarded host) no address
    can be built on is answered ``400`` here, in plain text: a label of over 63 letters, an
    empty one, a name IDNA cannot spell. Flask would fail building its URL adapter (a 500), or
    answer Werkzeug's own 400 with an error page whose links cannot be built either."""

    def __init__(self, wsgi_app: Any) -> None:
        self.wsgi_app = wsgi_app

    @staticmethod
    def usable(host: str) -> bool:
        """Whether ``host`` (``name[:port]``; an IPv6 address in brackets) can be spelt in IDNA."""
        name = host if host.endswith("]") else host.rpartition(":")[0] if ":" in host else host
        try:
            name.encode("idna")
        except UnicodeError:
            return False
        return True

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if not self.usable(environ.get("HTTP_HOST") or environ.get("SERVER_NAME") or "localhost"):
            start_response("400 BAD REQUEST", [("Content-Type", "text/plain; charset=utf-8"), *SECURITY_HEADERS])
            return [b"400 Bad Request: the Host header names no host.\n"]
        return self.wsgi_app(environ, start_response)


class AcceptEncoding:
    """WSGI middleware: an ``Accept-Encoding`` with quality values is read once, as
    ``accepted_encoding`` reads it, and passed on as the one encoding taken (or ``identity``):
    Flask-Compress took ``gzip;q=0`` (and ``br;q=0``) for a yes and compressed the answer in
    the very encoding refused (a tester). A header without ``q=`` goes on as it is."""

    def __init__(self, wsgi_app: Any) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        accept = environ.get("HTTP_ACCEPT_ENCODING")
        if accept and "q=" in accept:
            environ["HTTP_ACCEPT_ENCODING"] = accepted_encoding(accept) or "identity"
        return self.wsgi_app(environ, start_response)


class QuietPolls:
    """WSGI middleware: ``GET /games/<id>/poll?v=<n>`` while the game is still at version ``n``
    is answered ``204 No Content`` after one read of the version (in autocommit: no BEGIN, no
    ROLLBACK), without building a Flask request (session, CSRF, rate limits, locale). So is an
    htmx poll one version behind whose screen the table's other phone kept (``_shared``: the
    kept bytes, in the phone's language and an encoding it takes). Anything else goes on to the
    app, which answers it as before (also ``pages.poll``'s 204 when this shortcut is off or the
    read fails).

    Both carry the app's ``EVERY_ANSWER_HEADERS`` (no document's: it is htmx's poll, never a
    page) and the ``Vary`` of its own answers.
    ``QUIET_POLLS = False`` in the config turns the shortcut off.
    """

    PATH = re.compile(r"^/games/([A-Za-z0-9_-]{16,64})/poll$")
    QUERY = re.compile(rf"^v=({VERSION_TEXT})(?:&n=[0-9]{{1,9}})?(&d=1)?(&x=1)?$")
    HEADERS = [*EVERY_ANSWER_HEADERS, ("Vary", "HX-Request, Accept-Encoding")]
    #: a kept screen is in the phone's language: its ``lang`` cookie, else its ``Accept-Language``
    SHARED_VARY = "HX-Request, Accept-Encoding, Accept-Language, Cookie"

    def __init__(self, app: Flask, wsgi_app: Any, locale: Callable[[str | None, LanguageAccept], str]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        #: the app's language for a ``lang`` cookie and an ``Accept-Language`` (``tracker.pick_locale``)
        self.locale = locale
        self._engine: Any = None

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("REQUEST_METHOD") == "GET" and self.app.config.get("QUIET_POLLS", True):
            path = self.PATH.match(environ.get("PATH_INFO", ""))
            query = self.QUERY.match(environ.get("QUERY_STRING", "")) if path else None
            head = self._head(path[1]) if query is not None else None
            version = head[0] if head is not None else None
            if head is not None and (head[1] != bool(query[2]) or head[2] != bool(query[3])):
                version = None  # deleted, restored or followed by a next game since: the app draws it
            if version is not None and version == int(query[1]):
                start_response("204 NO CONTENT", list(self.HEADERS))
                return []
            # the kept screen tells one write (its toast): a phone that missed more draws its own
            if version is not None and version == int(query[1]) + 1 and environ.get("HTTP_HX_REQUEST") == "true":
                shared = self._shared(environ, path[1], version)
                if shared is not None:
                    return shared(environ, start_response)
        return self.wsgi_app(environ, start_response)

    def _shared(self, environ: dict[str, Any], game_id: str, version: int) -> Any:
        """The kept screen of the game at ``version`` (``tracker/screens.py``) as the app would
        answer it, read before Flask builds a request: the kept bytes and headers with the
        headers every htmx answer carries. None (the app answers) when no screen is kept in the
        phone's language, the phone does not take the encoding it was kept in, or the path
        prefix is not plain ASCII."""
        from . import screens

        root = environ.get("SCRIPT_NAME", "").rstrip("/")
        if not root.isascii():
            return None
        locale = self.locale(parse_cookie(environ.get("HTTP_COOKIE")).get("lang"),
                             parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept))
        shared = screens.find_in(self.app, screens.key(self.app, game_id, locale, root), version)
        if shared is None or not shared.headers or shared.encoding != accepted_encoding(environ.get("HTTP_ACCEPT_ENCODING")):
            return None

        def answer(_environ: dict[str, Any], start_response: Any) -> list[bytes]:
            headers = [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(shared.body))),
                       *shared.headers, *EVERY_ANSWER_HEADERS, ("Vary", self.SHARED_VARY)]
            if shared.encoding:
                headers.append(("Content-Encoding", shared.encoding))
            start_response("200 OK", headers)
            return [shared.body]

        return answer

    def _head(self, game_id: str) -> tuple[int, bool, bool] | None:
        """The stored version of ``game_id``, whether it is deleted and whether it names a next
        game (None for an unknown game or a failed read)."""
        if self._engine is None:
            from .db import db

            with self.app.app_context():
                self._engine = db.engine
        try:
            with self._engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                found = conn.execute(service.HEAD_OF, {"game_id": game_id}).first()
                return None if found is None else (found[0], bool(found[1]), bool(found[2]))
        except Exception:  # noqa: BLE001 — the app answers instead, with its own error handling
            return None


@dataclass(frozen=True)
class Asset:
    """One static file as read: its bytes, content hash, type and compressed forms."""

    body: bytes
    digest: str
    mimetype: str
    mtime: float
    encoded: dict[str, bytes]


#: Minifiers of the static files served (rjsmin, rcssmin: comments and blanks only, nothing
#: renamed): app.js and app.css are written with their comments, half their gzip size.
MINIFIERS = {"text/javascript": rjsmin.jsmin, "application/javascript": rjsmin.jsmin, "text/css": rcssmin.cssmin}


def minified(filename: str, mimetype: str, body: bytes, debug: bool = False) -> bytes:
    """``body`` as served: a script or style sheet without its comments and blanks (one already
    ``.min.``, or any in debug mode, as written). Bytes in, bytes out (UTF-8)."""
    minify = MINIFIERS.get(mimetype)
    if minify is None or debug or ".min." in filename:
        return body
    return minify(body.decode("utf-8")).encode("utf-8")


#: The static files read so far in this process, by (folder, filename, debug): each app of a
#: process (the tests build hundreds) shares them, so a file is compressed once, not per app.
_READ: dict[tuple[str, str, bool], Asset] = {}
_READ_LOCK = threading.Lock()


class StaticFiles:
    """The files of the static folder, read, hashed and compressed once per process.

    In debug mode a file is read again when its modification time changes.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def asset(self, filename: str) -> Asset | None:
        """The static file ``filename`` (a path inside the folder), or None when there is none."""
        key = (str(self.folder), filename, current_app.debug)
        asset = _READ.get(key)
        if asset is not None and not current_app.debug:
            return asset
        path = safe_join(str(self.folder), filename)
        if path is None or not os.path.isfile(path):
            return None
        mtime = os.path.getmtime(path)
        if asset is not None and asset.mtime == mtime:
            return asset
        body = Path(path).read_bytes()
        mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        body = minified(filename, mimetype, body, current_app.debug)
        encoded: dict[str, bytes] = {}
        if mimetype in COMPRESSIBLE and len(body) >= MIN_SIZE:
            encoded["br"] = brotli.compress(body, quality=11)
            encoded["gzip"] = gzip.compress(body, compresslevel=9, mtime=0)
        asset = Asset(body, hashlib.sha256(body).hexdigest()[:12], mimetype, mtime, encoded)
        with _READ_LOCK:
            _READ[key] = asset
        return asset

    def url_defaults(self, endpoint: str, values: dict[str, Any]) -> None:
        """``url_for('static', filename=…)`` builds the fingerprinted name of an existing file."""
        if endpoint != "static" or "filename" not in values:
            return
        filename = values["filename"]
        asset = self.asset(filename)
        if asset is not None:
            stem, dot, ext = filename.rpartition(".")
            if not dot or "/" in ext:
                values["filename"] = f"{filename}.{asset.digest}"
            else:
                values["filename"] = f"{stem}.{asset.digest}.{ext}"

    def serve(self, filename: str) -> Response:
        """The ``static`` view: a fingerprinted name gets a year of caching, a plain one revalidates."""
        asset = self.asset(filename)
        cache_control = REVALIDATE
        if asset is None:
            match = FINGERPRINT.match(filename)
            if match is None:
                abort(404)
            asset = self.asset(match["stem"] + (match["ext"] or ""))
            if asset is None:
                abort(404)
            if match["hash"] == asset.digest:
                cache_control = IMMUTABLE
        encoding = _encoding(asset)
        body = asset.encoded[encoding] if encoding else asset.body
        response = Response(body, mimetype=asset.mimetype)
        if encoding:
            response.headers["Content-Encoding"] = encoding
        if asset.encoded:
            response.vary.add("Accept-Encoding")
        response.headers["Cache-Control"] = cache_control
        # (the ETag alone revalidates a plain name: no Last-Modified, 45 bytes of each file)
        response.set_etag(f"{asset.digest}-{encoding or 'identity'}")
        return response.make_conditional(request)


def _encoding(asset: Asset) -> str | None:
    """The precompressed form the client takes (brotli first), or None for the plain bytes."""
    if not asset.encoded:
        return None
    return accepted_encoding(request.headers.get("Accept-Encoding"))


def accepted_encoding(accept: str | None) -> str | None:
    """The encoding a client sending ``Accept-Encoding: <accept>`` takes of those this app
    writes: ``"br"``, else ``"gzip"``, else None (the bytes as they are)."""
    accepted = parse_accept_header(accept)
    for name in ("br", "gzip"):
        if accepted[name] > 0:
            return name
    return None


def encode(app: Flask, body: bytes, encoding: str | None) -> bytes:
    """``body`` compressed in ``encoding`` (``accepted_encoding``) at the levels Flask-Compress
    uses for ``app``'s answers (``COMPRESS_BR_LEVEL``, ``COMPRESS_LEVEL``); None: as it is."""
    if encoding == "br":
        return brotli.compress(body, quality=app.config["COMPRESS_BR_LEVEL"])
    if encoding == "gzip":
        return gzip.compress(body, compresslevel=app.config["COMPRESS_LEVEL"], mtime=0)
    return body


def static_fingerprint(app: Flask, filename: str) -> str | None:
    """The content hash in ``filename``'s URL (for tests and tools); None for a missing file."""
    assets: StaticFiles = app.extensions["tracker.static"]
    asset = assets.asset(filename)
    return asset.digest if asset else None
