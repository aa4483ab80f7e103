"""Browser fixtures: Debian's Chromium driven by Playwright, the app served from a thread."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from driver import SCALE
from werkzeug.serving import make_server

from tracker import create_app
from tracker.db import db

#: Debian's Chromium in its old headless build (package ``chromium-headless-shell``, which
#: scripts/test.sh installs): the same engine without the full browser's windowing, half the CPU
#: per test on two cores (the whole browser suite 248 s against 452 s on 2026-12-06). Debian's
#: ``chromium`` where the shell is missing; ``TRACKER_CHROMIUM`` names another.
CHROMIUM = os.environ.get("TRACKER_CHROMIUM") or next(
    (path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if os.path.exists(path)),
    "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).parents[2] / "test-artifacts"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's Chromium (never a downloaded browser) with the flags this machine needs."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """A phone: 390x844, touch (``driver.SCALE``)."""
    return {**browser_context_args, "viewport": PHONE, "has_touch": True, "device_scale_factor": SCALE}


#: The phones' poll in the browser tests: every second, not the served 2 s (the two-phone tests
#: wait for the other phone's poll at almost every step). A test of the poll's own timing marks
#: itself ``@pytest.mark.poll_seconds(2)``.
POLL_SECONDS = 1


@pytest.fixture
def live_server(request, tmp_path, sqlite_template):
    """The app on a free loopback port, on a fresh migrated SQLite file (a copy of the one the
    migrations built for this test process); yields its base URL."""
    database = tmp_path / "b.sqlite3"
    shutil.copy(sqlite_template, database)
    marker = request.node.get_closest_marker("poll_seconds")
    app = create_app({"TESTING": True, "SECRET_KEY": "browser", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
                      "CACHE_DIR": str(tmp_path / "screens"),  # the file cache the phones share, as served
                      "POLL_SECONDS": marker.args[0] if marker else POLL_SECONDS})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # (its shutdown waits for the serving loop's next look: every 0.05 s, not Werkzeug's 0.5)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(autouse=True)
def _close_phones(browser):
    """Every browser context a test opened (its phones) is closed when it ends: one left open
    kept its page polling and its service worker running for the rest of the run, up to 160
    renderers at once, and Chromium's CPU is what the browser tests wait for."""
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            context.close()


@pytest.fixture
def shots():
    """Where screenshots go (test-artifacts/, ignored by git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
