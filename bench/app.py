"""The app as the benchmark serves it: the real ``create_app()`` plus two baseline routes and a
``Server-Timing`` header with the time spent inside the app.

    gunicorn … 'bench.app:create()'

- ``GET /_bench/hello``: a bare "hello" (the floor of any request through Flask).
- ``POST /_bench/insert``: inserts one row into ``bench_rows`` in the same database and
  commits (the unavoidable cost of a write). ``bench/run.py`` creates the table beforehand.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable

from flask import Blueprint, Flask
from sqlalchemy import JSON, Column, DateTime, Integer, MetaData, Table, insert

from tracker import create_app, csrf
from tracker.db import db
from tracker.models import utcnow

bp = Blueprint("bench", __name__, url_prefix="/_bench")
metadata = MetaData()
rows = Table(
    "bench_rows", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("data", JSON),
    Column("created", DateTime),
)


@bp.get("/hello")
def hello() -> str:
    return "hello"


@bp.post("/insert")
def insert_row() -> tuple[str, int]:
    db.session.execute(insert(rows).values(data={"type": "take_tokens", "player": 0, "tokens": {"red": 1}},
                                           created=utcnow()))
    db.session.commit()
    return "", 204


class ServerTiming:
    """WSGI middleware: ``Server-Timing: app;dur=<ms>`` measured from the request's arrival in the
    app to its response headers (the body is rendered by then)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        start = time.perf_counter()

        def timed_start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            ms = (time.perf_counter() - start) * 1000
            headers.append(("Server-Timing", f"app;dur={ms:.3f}"))
            return start_response(status, headers, exc_info)

        return self.app(environ, timed_start_response)


def create() -> Flask:
    """``create_app()`` (``DATABASE_URL`` etc. from the environment) with the baseline routes.
    An access code set in ``instance/config.py`` is lifted: the benchmark's clients never enter it
    (every request would be a redirect to the access page)."""
    app = create_app()
    app.config["ACCESS_CODE"] = None
    app.register_blueprint(bp)
    csrf.exempt(bp)
    app.wsgi_app = ServerTiming(app.wsgi_app)  # type: ignore[method-assign]
    return app


__all__ = ["create", "ServerTiming", "metadata", "rows"]
