"""Database tables: a game's setup and its append-only events. No derived totals are stored.

``Game.status``, ``result`` and ``finished`` are a listing summary written in the same
transaction as the event that changes them; the truth is always the replay of the events.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import db
from .rules.text import MAX_KEY


def utcnow() -> datetime:
    """The current UTC time, without tzinfo (stored as UTC in every backend)."""
    return datetime.now(timezone.utc).replace(tzinfo=None)


class Game(db.Model):  # type: ignore[name-defined,misc]
    """One recorded game: ``id`` is the unguessable key in its link (>= 128 random bits).

    ``setup`` holds ``players`` (names in seat order), ``first_player`` and ``nobles``.
    ``version`` counts every accepted write (events and undos); it only grows.
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="active")
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    finished: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    #: Listing summary of a game in progress, written with ``status``: its turn (1 at the start)
    #: and the seat to act; None once it is finished (and for games stored before they were kept).
    turn: Mapped[int | None] = mapped_column(Integer, nullable=True)
    to_play: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The read-only key (>= 128 random bits) of the spectator link; never reveals ``id``.
    spectator_id: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True, index=True)
    #: The game the same table started from this one's victory banner ("New game, same players"):
    #: the other phones, still on this finished game, are offered it.
    next_game_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: An id-less imported log's content key (``archive.log_key``): how a second import of the
    #: same game finds it. Never the id (a key anyone who saw the game could compute is no key);
    #: games imported before this column have their key as id, and here too.
    import_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True, index=True)
    #: An imported log's own id when it is another tool's ("custom-1"), hashed
    #: (``archive.foreign_id_key``): a second log under that id finds this game.
    log_id_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True, index=True)
    #: The new-game form's key and fields, hashed (``service.create_game``'s ``start_key``): the
    #: same form posted again (a double tap) finds this game instead of starting a second one.
    start_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True, index=True)

    events: Mapped[list["Event"]] = relationship(
        back_populates="game_row", order_by="Event.seq", cascade="all, delete-orphan", lazy="raise"
    )


class Event(db.Model):  # type: ignore[name-defined,misc]
    """One table event as GAME-LOG.md JSON. ``seq`` numbers a game's events from 1, gap-free.

    Undo sets ``undone`` (the row is kept for the record). ``entry_id`` is the client's key
    that makes a repeated submission a no-op.
    """

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_events_game_seq"),
        UniqueConstraint("game_id", "entry_id", name="uq_events_game_entry"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    entry_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    undone_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    game_row: Mapped[Game] = relationship(back_populates="events")


# ------------------------------------------------------------------ people and table sessions
# Written only by ``tracker/people.py``. ``Game.setup["players"]`` keeps the names as recorded;
# these rows say which person sat in each seat, so a rename or a merge never touches a log.


class Player(db.Model):  # type: ignore[name-defined,misc]
    """A person at the table. ``name`` is shown everywhere; ``normalized`` is what typed names match.

    A merged player keeps its row as an alias of the kept one (``merged_into``): its name still
    matches and its link still leads to the kept player, while its games moved.
    """

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    normalized: Mapped[str] = mapped_column(String(MAX_KEY), unique=True)
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    merged_into: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)


class GamePlayer(db.Model):  # type: ignore[name-defined,misc]
    """Who sat in ``seat`` of a game (seats as in ``Game.setup["players"]``)."""

    __tablename__ = "game_players"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)


class TableSession(db.Model):  # type: ignore[name-defined,misc]
    """A game night started on purpose ("best of 3"); automatic ones are derived, not stored."""

    __tablename__ = "table_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    best_of: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class SessionGame(db.Model):  # type: ignore[name-defined,misc]
    """A game played as part of an explicit table session."""

    __tablename__ = "session_games"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("table_sessions.id", ondelete="CASCADE"), index=True)


class JoinCode(db.Model):  # type: ignore[name-defined,misc]
    """A short code another phone types on the home page to open a game; expires quickly."""

    __tablename__ = "join_codes"

    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime)


class PhoneClaim(db.Model):  # type: ignore[name-defined,misc]
    """A phone that answered "Whose phone is this?" for a game: the seat it took (one phone
    each). Another phone asked the same question is told which seats are taken; the answer is
    never refused (a phone may be replaced). ``phone`` is the random id of the ``phone`` cookie."""

    __tablename__ = "phone_claims"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    phone: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    claimed: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
