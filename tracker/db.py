"""The Flask-SQLAlchemy handle, in its own module so models and app import it without cycles."""

import time
from typing import Any

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Engine, event, exc
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base of every model."""


db = SQLAlchemy(model_class=Base)


#: A pooled connection idle longer than this (seconds) is tried before use (``ping_after_idle``).
IDLE_PING_SECONDS = 0.5


def ping_after_idle(engine: Engine, idle: float = IDLE_PING_SECONDS) -> None:
    """Try a pooled connection before use when it lay idle more than ``idle`` seconds, as
    SQLAlchemy's ``pool_pre_ping`` does for every checkout: a database server restarted since
    closed it, and a request would fail with it (one 503 per worker: an operator). A connection
    in steady use (a busy night: a worker's next request within milliseconds) is not tried, which
    spares every request, quiet polls included, a round trip (about 0.1 ms). A failed try
    invalidates the pool and the checkout gets a new connection (SQLAlchemy's pessimistic recipe).
    """

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop("idle_since", None)
        if since is None or time.monotonic() - since <= idle:
            return
        try:
            alive = engine.dialect.do_ping(dbapi_connection)
        except Exception as err:  # what a closed connection raises depends on the driver
            raise exc.InvalidatePoolError() from err
        if not alive:
            raise exc.InvalidatePoolError()
