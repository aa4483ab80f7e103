"""Shared fixtures: a fresh app per test on a database built by the migrations.

The schema is created once per session by Flask-Migrate (never ``create_all``) into a template
SQLite file; each test gets its own copy. ``TEST_DATABASE_URL`` switches to another database
(e.g. PostgreSQL), emptied before each test.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from flask_migrate import upgrade

from tracker import create_app
from tracker.db import db

def _config(uri: str, tmp: Path) -> dict:
    return {
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": uri,
        "WTF_CSRF_ENABLED": False,
    }


@pytest.fixture(scope="session")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """A migrated, empty SQLite database to copy for each test (None on another backend)."""
    if os.environ.get("TEST_DATABASE_URL"):
        app = create_app(_config(os.environ["TEST_DATABASE_URL"], tmp_path_factory.mktemp("pg")))
        with app.app_context():
            upgrade()
        return None
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    app = create_app(_config(f"sqlite:///{path}", path.parent))
    with app.app_context():
        upgrade()
        db.engine.dispose()
    return path


@pytest.fixture
def app(template_db: Path | None, tmp_path: Path):
    """A fresh app on a fresh, migrated database."""
    if template_db is None:
        uri = os.environ["TEST_DATABASE_URL"]
    else:
        target = tmp_path / "tracker.sqlite3"
        shutil.copy(template_db, target)
        uri = f"sqlite:///{target}"
    app = create_app(_config(uri, tmp_path))
    with app.app_context():
        if template_db is None:
            from tracker.models import Event, Game

            db.session.query(Event).delete()
            db.session.query(Game).delete()
            db.session.commit()
        yield app
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()
