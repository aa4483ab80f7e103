"""Shared fixtures: a fresh app per test on a database built by the migrations.

The schema is created once per session and backend by Flask-Migrate (never ``create_all``).
SQLite: each test copies a migrated template file. PostgreSQL (when ``TEST_POSTGRES_URL`` is
set, as ``scripts/test.sh`` does): one migrated database, emptied before each test. Every test
that takes ``app`` or ``client`` runs on each backend, but those of what the screens draw.
"""

from __future__ import annotations

import atexit
import os
import shutil
from pathlib import Path

import tempfile

import pytest
from flask import Flask
from flask_migrate import upgrade
from jinja2 import FileSystemBytecodeCache
from sqlalchemy import text
from werkzeug.routing import Rule

from appconfig import app_config

from tracker import create_app
from tracker.db import db

# Every test builds its own app, and each app's Jinja environment compiled every template it drew
# again (more than half of a page test's time): the apps of one test process share the compiled
# templates. Jinja keys them by the template's source, so an edited template is compiled anew.
_COMPILED = tempfile.mkdtemp(prefix="tracker-jinja-")
atexit.register(shutil.rmtree, _COMPILED, ignore_errors=True)
Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": FileSystemBytecodeCache(_COMPILED)}

# Likewise each app's URL map compiled two Python functions per route (Werkzeug's URL builders,
# through ``ast`` and ``compile()``: 80% of building an app, 25 ms a test). A builder depends only
# on its rule's text, parsed parts and defaults, so the test process keeps one per rule. (Left
# alone if a Werkzeug release renames the method.)
_BUILD = getattr(Rule, "_compile_builder", None)
_BUILDERS: dict[tuple, object] = {}


def _kept_builder(self: Rule, append_unknown: bool = True):  # type: ignore[no-untyped-def]
    trace = getattr(self, "_trace", None)
    if trace is None:
        return _BUILD(self, append_unknown)  # type: ignore[misc]
    key = (self.rule, tuple(trace), repr(sorted((self.defaults or {}).items())), append_unknown)
    found = _BUILDERS.get(key)
    if found is None:
        found = _BUILDERS[key] = _BUILD(self, append_unknown)  # type: ignore[misc]
    return found


if _BUILD is not None:
    Rule._compile_builder = _kept_builder  # type: ignore[method-assign]

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_POSTGRES_URL") else [])


def migrate(uri: str) -> None:
    """Run every migration on ``uri``."""
    app = create_app(app_config(uri))
    with app.app_context():
        upgrade()
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated, empty SQLite database to copy for each test."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """A fresh database on the throwaway PostgreSQL server, migrated once."""
    from sqlalchemy import create_engine

    base = os.environ["TEST_POSTGRES_URL"]
    name = f"tracker_test_{os.getpid()}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    url = base.rsplit("/", 1)[0] + "/" + name
    migrate(url)
    return url


@pytest.fixture(scope="session")
def postgres_emptier(postgres_url: str):
    """One connection pool of the test process to the test database, that empties it before each
    test (an app built for that alone cost a PostgreSQL test more than its own run)."""
    from sqlalchemy import create_engine

    engine = create_engine(postgres_url, pool_size=1)
    yield engine
    engine.dispose()


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty migrated database on the backend this test runs on."""
    backend = getattr(request, "param", "sqlite")
    if backend == "postgresql":
        url = request.getfixturevalue("postgres_url")
        with request.getfixturevalue("postgres_emptier").begin() as conn:
            conn.execute(text("TRUNCATE events, games, players, table_sessions RESTART IDENTITY CASCADE"))
        return url
    target = tmp_path / "tracker.sqlite3"
    shutil.copy(request.getfixturevalue("sqlite_template"), target)
    return f"sqlite:///{target}"


#: Modules that test what the screens draw and say (sheets, previews, refusals, translations,
#: colours): they store and read through the same calls as every other test, so they run on
#: SQLite only; everything that stores, lists, imports, merges or races runs on both backends.
SCREEN_MODULES = frozenset({
    "test_best_colour_ties", "test_buy_grid_order", "test_contrast", "test_i18n", "test_level_out", "test_pages",
    "test_preview_follows", "test_refusals_name_cards_in_words", "test_refusals_say_what_is_short",
    "test_reserve_sheet_when_full", "test_reserved_in_panel", "test_review", "test_sheet_address",
    "test_splendor_pages", "test_table_feedback", "test_template_urls", "test_plan_purchase",
    # refusals before anything is stored, and flows whose storage the API's tests run on both
    "test_malformed_entries_name_their_rule", "test_access_code", "test_splendor_api",
})

#: Tests of other modules that run on SQLite only, for the same reason: the fuzzing of the form
#: endpoints and the pages goes through the service the JSON API's fuzzing runs on both backends;
#: static files, compression, proxy headers and the screen cache's folder are the web layer's.
SCREEN_TESTS = frozenset({
    "test_fuzz_form_endpoints", "test_fuzz_pages_and_sheets",
    "test_pages_link_fingerprinted_static_files", "test_a_fingerprinted_file_is_cached_for_a_year",
    "test_the_plain_name_and_an_outdated_fingerprint_revalidate", "test_static_files_answer_304_to_their_etag",
    "test_static_files_are_served_precompressed", "test_unknown_or_escaping_static_paths_are_404",
    "test_the_service_worker_precaches_the_fingerprinted_files", "test_pages_and_partials_are_compressed",
    "test_json_is_compressed_and_small_answers_are_not", "test_one_entry_answer_stays_small_on_the_wire",
    "test_behind_a_proxy_the_forwarded_scheme_host_and_address_are_used",
    "test_without_a_proxy_forwarded_headers_are_ignored",
    "test_tracker_proxies_wins_over_proxy_count_as_the_other_variables_do",
    "test_a_file_cache_folder_others_may_write_to_is_refused",
    "test_the_default_folder_is_private_and_named_from_the_secret", "test_a_host_no_address_can_be_built_on_is_a_plain_400",
    "test_behind_a_proxy_with_a_prefix_every_address_keeps_it", "test_a_connection_opened_ahead_and_left_silent_holds_no_worker",
})


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run every database test once per backend (``[sqlite]``, ``[postgresql]``); the tests of
    what the screens draw (``SCREEN_MODULES``, ``SCREEN_TESTS``) on SQLite only."""
    if "database_url" in metafunc.fixturenames:
        screen_only = (metafunc.module.__name__.rpartition(".")[2] in SCREEN_MODULES
                       or metafunc.function.__name__ in SCREEN_TESTS)
        metafunc.parametrize("database_url", BACKENDS[:1] if screen_only else BACKENDS, indirect=True)


@pytest.fixture
def app(database_url: str):
    """A fresh app on a fresh, migrated database."""
    app = create_app(app_config(database_url))
    with app.app_context():
        yield app
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


#: The longest tests (whole games tapped in Chromium, half a minute each) go first: the two workers
#: take the rest as they come, so no long test is left alone at the end of the run.
LONGEST_FIRST = ("test_a_complete_game_is_tapped_to_the_victory_banner_with_an_undo",
                 "test_a_three_player_game_is_tapped_to_the_final_ranking")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the run: the longest tests, then the browser tests, then the rest as collected."""
    def rank(item: pytest.Item) -> int:
        if getattr(item, "originalname", item.name) in LONGEST_FIRST:
            return 0
        return 1 if "browser/" in item.nodeid else 2
    items.sort(key=rank)  # (stable: the order within each rank is kept)
