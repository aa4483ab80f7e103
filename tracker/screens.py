"""Game screens drawn once per version and shared by every phone of the table (Flask-Caching).

An entry's answer is the game screen at the new version; a moment later the other phone's poll
asks for that same screen. Both were drawn in full (2–3 ms each). Now the first drawing is kept
in a cache all workers share, and the poll that finds the version it needs sends it as it is.

What is kept, per game, language and path prefix (one cache key, overwritten as the game goes
on): the ``game`` block's HTML at one version, compressed once (in the encoding the phone that
made the entry takes), the headers of that version's answer (its alerts as ``HX-Trigger``) and
nothing that belongs to one phone: the screen's forms carry an empty CSRF token and an empty
``entry_id``, which ``app.js`` fills in as the screen arrives (the token the page's body sends
with every htmx request, a fresh key per form). So a poll that finds the version it needs is
answered with the kept bytes as they are, before Flask builds a request (``serving.QuietPolls``).
A kept screen is used only for the version the database gives in that very request, so an old
or missing one costs a drawing, never a wrong screen. Only the screen everybody sees after a
write is kept: not a conflict notice, an error, a spectator's screen or a finished game's (its
victory banner shows the table's series, which other games change).

Keys carry a fingerprint of the code, templates and translations that draw the screen, so a new
release never serves a screen drawn by the old one, even from a cache that outlived a restart.

Configuration (Flask-Caching's own settings, also read from the environment by ``create_app``):
``CACHE_TYPE`` ``FileSystemCache`` (the default: ``CACHE_DIR``, shared by all workers of one
host, which must be private to the app's user; default a folder in memory,
``/dev/shm/tracker-screens-<secret-derived name>``, else ``instance/screens``), ``RedisCache``
with ``CACHE_REDIS_URL`` for several hosts, ``SimpleCache`` (one process) or ``NullCache`` (none).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request
from flask_babel import get_locale
from flask_caching import Cache
from flask_caching.backends.filesystemcache import FileSystemCache

cache = Cache()

#: Seconds a kept screen lives without being drawn again (a game nobody looks at).
TIMEOUT = 15 * 60
#: Screens a file cache keeps before it prunes (games × languages in play at once).
THRESHOLD = 5000


@dataclass(frozen=True)
class Shared:
    """A kept game screen: ``html`` at ``version`` (no phone's own values), its ``alerts``, the
    htmx ``headers`` of its answer (``HX-Trigger``, ``HX-Replace-Url``, the version) and ``body``,
    the HTML as sent in ``encoding`` (``"br"``, ``"gzip"`` or None: UTF-8 as it is)."""

    version: int
    html: str
    alerts: list[dict[str, Any]]
    headers: tuple[tuple[str, str], ...] = ()
    encoding: str | None = None
    body: bytes = b""


@dataclass(frozen=True)
class _Setup:
    """Per app: the release fingerprint that keys carry."""

    release: str


#: The code's fingerprint by the files' names, sizes and times (read once per process while
#: they stay the same: a test run builds an app per test).
_CODE_DIGESTS: dict[tuple[tuple[str, int, int], ...], bytes] = {}


def _code_digest() -> bytes:
    """SHA-256 of the package's code, templates, translations, scripts, styles and catalogues."""
    root = Path(__file__).parent
    files = [path for path in sorted(root.rglob("*"))
             if path.suffix in {".py", ".html", ".mo", ".js", ".css", ".csv"} and "__pycache__" not in path.parts]
    key = tuple((str(path.relative_to(root)), path.stat().st_size, path.stat().st_mtime_ns) for path in files)
    found = _CODE_DIGESTS.get(key)
    if found is None:
        digest = hashlib.sha256()
        for path in files:
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
        found = _CODE_DIGESTS[key] = digest.digest()
    return found


def _release(app: Flask) -> str:
    """A fingerprint of what draws a screen: the package's code, templates, translations, the
    settings the screen shows and the database it reads."""
    digest = hashlib.sha256(_code_digest())
    for name in ("POLL_SECONDS", "NEAR_WIN_DISTANCE", "SQLALCHEMY_DATABASE_URI"):  # the database too:
        digest.update(f"{name}={app.config.get(name)!r}".encode())  # two instances never share a key
    return digest.hexdigest()[:16]


def default_dir(app: Flask) -> Path:
    """Where a file cache keeps screens by default: in memory (``/dev/shm``; keeping one takes
    ~80 µs there against 300–400 µs on this machine's disk), in a folder whose name other users
    of the host cannot guess (derived from ``SECRET_KEY``, the instance and the database); else
    ``instance/screens``."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        seed = f"{app.instance_path}|{app.config.get('SQLALCHEMY_DATABASE_URI')}".encode()
        name = hmac.new(str(app.config["SECRET_KEY"]).encode(), seed, hashlib.sha256).hexdigest()[:20]
        return shm / f"tracker-screens-{name}"
    return Path(app.instance_path) / "screens"


def private_dir(path: Path) -> bool:
    """Create ``path`` for this user only (mode 0700), or accept it when it already is a folder
    (not a link) owned by this user that nobody else may write to. A file cache unpickles what
    it reads, so a folder others can write to would let them run code in the app."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o022


FILE_CACHE = ("FileSystemCache", "flask_caching.backends.FileSystemCache",
              "flask_caching.backends.filesystemcache.FileSystemCache", "tracker.screens.ScreenFiles")


class ScreenFiles(FileSystemCache):
    """Flask-Caching's file cache (what ``CACHE_TYPE`` ``FileSystemCache`` gives), which checks
    whether it holds more than ``CACHE_THRESHOLD`` screens once every ``PRUNE_EVERY`` screens a
    process keeps, not before each: cachelib reads its count file twice for that check, a third
    of the cost of keeping an entry's screen. It holds at most ``PRUNE_EVERY`` more screens per
    worker than its threshold before it prunes."""

    PRUNE_EVERY = 32
    _keeps = 0

    def _prune(self) -> None:
        self._keeps += 1
        if self._keeps % self.PRUNE_EVERY == 1:
            super()._prune()


def init_app(app: Flask) -> None:
    """Set up the shared screens for ``app`` (default: a file cache in ``default_dir``).

    Raises ``RuntimeError`` when a configured ``CACHE_DIR`` is not private to this user; an
    unusable default folder falls back to ``instance/screens``, then to no cache (logged).
    """
    app.config.setdefault("CACHE_TYPE", "FileSystemCache")
    if app.config["CACHE_TYPE"] in FILE_CACHE:
        if app.config.get("CACHE_DIR"):
            if not private_dir(Path(app.config["CACHE_DIR"])):
                raise RuntimeError(f"CACHE_DIR {app.config['CACHE_DIR']} must be a folder of this user that "
                                   "nobody else may write to (its files are unpickled)")
        else:
            for candidate in (default_dir(app), Path(app.instance_path) / "screens"):
                if private_dir(candidate):
                    app.config["CACHE_DIR"] = str(candidate)
                    break
            else:
                app.logger.warning("no private folder for the shared screens: each phone's screen is drawn")
                app.config["CACHE_TYPE"] = "NullCache"
    if app.config["CACHE_TYPE"] in FILE_CACHE:
        app.config["CACHE_TYPE"] = "tracker.screens.ScreenFiles"
    app.config.setdefault("CACHE_DEFAULT_TIMEOUT", TIMEOUT)
    app.config.setdefault("CACHE_THRESHOLD", THRESHOLD)
    app.config.setdefault("CACHE_KEY_PREFIX", "tracker-screen:")
    cache.init_app(app)
    app.extensions["tracker.screens"] = _Setup(_release(app))


def key(app: Flask, game_id: str, locale: str, script_root: str) -> str:
    """The cache key of ``game_id``'s screen in ``locale`` under the path prefix ``script_root``
    (a proxy's ``X-Forwarded-Prefix``), for ``app``'s release. Needs no request."""
    return f"{app.extensions['tracker.screens'].release}:{game_id}:{locale}:{script_root}"


def _key(game_id: str) -> str:
    return key(current_app, game_id, str(get_locale()), request.script_root)


def shareable() -> dict[str, Any]:
    """Template context that draws a shareable screen: its forms' ``csrf_token()`` and
    ``entry_id`` are empty (``app.js`` fills them in on each phone)."""
    return {"csrf_token": lambda: "", "entry_id": lambda: ""}


def keep(game_id: str, shared: Shared) -> None:
    """Keep the screen drawn with ``shareable()`` for the other phones. A failing cache (a
    full disk, Redis gone) is logged and costs only the saving, never the answer."""
    try:
        cache.set(_key(game_id), shared)
    except Exception:  # noqa: BLE001 — any backend's error: the other phone draws its own screen
        current_app.logger.warning("could not keep the screen of a game", exc_info=True)


def find(game_id: str, version: int) -> Shared | None:
    """The kept screen of ``game_id`` at exactly ``version`` in this request's language, or None
    (also when the cache fails: the caller draws the screen)."""
    return find_in(current_app, _key(game_id), version)


def find_in(app: Flask, cache_key: str, version: int) -> Shared | None:
    """The screen ``app`` keeps under ``cache_key`` (``key``) if it is at exactly ``version``,
    else None (also when the cache fails). Needs no app context: ``QuietPolls`` asks it before
    Flask builds a request."""
    try:
        shared = app.extensions["cache"][cache].get(cache_key)
    except Exception:  # noqa: BLE001
        app.logger.warning("could not read a kept screen", exc_info=True)
        return None
    if isinstance(shared, Shared) and shared.version == version:
        return shared
    return None


__all__ = ["cache", "Shared", "init_app", "shareable", "keep", "find", "find_in", "key", "default_dir", "private_dir", "TIMEOUT",
           "THRESHOLD"]
