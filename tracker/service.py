"""The only module that joins the database and the rules: load, fold, apply, append, commit.

Every write (an event or an undo) raises the game's ``version`` by one with a conditional
UPDATE (``WHERE version = seen``), so two phones can never both write the same version; the
``(game_id, seq)`` and ``(game_id, entry_id)`` unique constraints back it up.
"""

from __future__ import annotations

import random
import re
import secrets
import time
import unicodedata
from collections import deque
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from flask import current_app
from sqlalchemy import and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.util import identity_key
from sqlalchemy.orm.attributes import set_committed_value

from . import archive, people
from .db import db
from .snapshots import MAX_TAIL, Snapshot, SnapshotCache
from .models import Event, Game, JoinCode, PhoneClaim, utcnow
from .rules import duel, splendor
from .rules.errors import N_, Phrase, RuleError
from .rules.common import refuse_unchanged_correction
from .rules.events import Correction
from .rules.events import Event as RuleEvent
from .rules.events import event_to_dict, parse_event
from .rules.text import clean_text, person_key

LOG_FORMAT = "splendor-tracker/1"
HISTORY_FORMAT = "splendor-tracker-history/1"
#: Engines by game kind (GAME-LOG.md ``game``).
ENGINES = {"duel": duel, "splendor": splendor}
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{22,64}")


def is_game_id(value: Any) -> bool:
    """True for a string shaped like a game (or spectator) id; anything else is never looked up
    (PostgreSQL refuses NUL bytes in text, so a raw lookup of ``"…%00"`` would fail loudly)."""
    return isinstance(value, str) and ID_PATTERN.fullmatch(value) is not None
MAX_ENTRY_ID = 64
#: The longest ``id`` an imported log may have (GAME-LOG.md sets no form; ours are 32 characters).
MAX_LOG_ID = 128
#: How often a write without ``expected_version`` retries after losing a race (with a short,
#: growing, jittered pause between tries).
RETRIES = 25


class GameNotFound(LookupError):
    """No game has this id (404 ``not_found``)."""


class VersionConflict(Exception):
    """``expected_version`` is not the current version (409); ``view`` is the fresh game,
    ``expected`` the version the write was sent with (None: sent without one)."""

    def __init__(self, view: "GameView", expected: int | None = None) -> None:
        super().__init__("version_conflict")
        self.view = view
        self.expected = expected


@dataclass(frozen=True)
class GameView:
    """A game as loaded: its row, the applied events (rule objects) and the folded state.

    ``after_undo``: the game's last write (its ``version``) was an undo, which raises no alert:
    the state's alerts, those of the entry now last, are not the last write's (GAME-LOG.md).
    """

    row: Game
    events: tuple[RuleEvent, ...]
    state: Any
    after_undo: bool = False
    #: ``post_event`` with an ``entry_id`` already stored (nothing stored now): where that entry
    #: is: ``"last"`` (the last entry), ``"earlier"`` (others came after it) or ``"undone"``.
    repeat: str = ""

    @property
    def version(self) -> int:
        """The game's write counter (GAME-LOG.md ``version``)."""
        return self.row.version

    @property
    def engine(self) -> Any:
        """The rules module of this game's kind."""
        return ENGINES[self.row.game]

    def to_json(self, translate: Callable[[str, Mapping[str, Any]], str] | None = None) -> dict[str, Any]:
        """The state as GAME-LOG.md JSON, with ``id`` and ``version``; no ``alerts`` after an undo;
        ``deleted: true`` added while the game is deleted from the history (its ``status`` stays
        what its play made it; writes are refused with ``game_deleted`` until it is restored)."""
        data = {"id": self.row.id, "version": self.row.version, **self.engine.to_json(self.state, translate)}
        if self.after_undo:
            data["alerts"] = []
        if self.row.deleted_at is not None:
            data["deleted"] = True
        return data


def new_id() -> str:
    """A random URL-safe game id of about 192 bits (32 characters) that starts with a letter or
    digit: an id starting with ``-`` reads as an option on a command line and as a formula in a
    spreadsheet (the CSV export quotes it, one id in 32)."""
    while True:
        game_id = secrets.token_urlsafe(24)
        if game_id[0].isalnum():
            return game_id


def _engine(kind: Any) -> Any:
    engine = ENGINES.get(kind) if isinstance(kind, str) else None
    if engine is None:
        if isinstance(kind, str):
            raise RuleError("bad_setup", N_("Unknown game: %(game)s. Choose duel or splendor."), game=kind[:20])
        raise RuleError("bad_setup", N_("The game must be named: duel or splendor."))
    return engine


def _setup(payload: Mapping[str, Any]) -> tuple[str, dict[str, Any], Any]:
    """Validate a setup body; returns ``(kind, setup, initial_state)``."""
    if not isinstance(payload, Mapping):
        raise RuleError("bad_setup", N_("A new game needs a JSON object."))
    if "game" not in payload:
        raise RuleError("bad_setup", N_("Say which game: duel or splendor."))
    kind = payload["game"]
    engine = _engine(kind)
    if kind == "duel" and payload.get("nobles") is not None:
        raise RuleError("bad_setup", N_("Splendor Duel has no nobles: leave them out (null)."), "D-1")
    state = engine.start(payload)
    nobles = getattr(state, "nobles_available", None)
    setup = {"players": [p.name for p in state.players], "first_player": state.first_player,
             "nobles": list(nobles) if nobles is not None else None}
    return kind, setup, state


#: The game's version by id (``:game_id``): one indexed read, built once.
VERSION_OF = select(Game.version).where(Game.id == bindparam("game_id"))
#: The game's version and whether it is deleted, by id (``:game_id``): what a poll compares.
HEAD_OF = select(Game.version, Game.deleted_at.is_not(None), Game.next_game_id.is_not(None)).where(
    Game.id == bindparam("game_id"))


#: When the game's latest entry was stored and its latest undo made (``:game_id``).
LAST_WRITES = select(func.max(Event.created), func.max(Event.undone_at)).where(Event.game_id == bindparam("game_id"))


def last_write_was_undo(game_id: str) -> bool:
    """True when the game's latest write was an undo (a later entry would be newer); for telling
    a phone whose write lost the race what the other phone did."""
    if not is_game_id(game_id):
        return False
    created, undone = db.session.execute(LAST_WRITES, {"game_id": game_id}).one()
    return undone is not None and (created is None or undone >= created)


def last_undone(view: GameView) -> tuple[RuleEvent, Any] | None:
    """The entry the game's latest undo took back and the state it had led to, for telling a
    phone that missed the undo what went: ``(event, state_with_it)``; None when there is none
    or it no longer follows the game as it stands (a later undo or entry). ``undone_lately``'s
    single case."""
    undone = undone_lately(view, 1)
    return (undone[0][0], undone[0][2]) if undone else None


def undone_lately(view: GameView, count: int) -> list[tuple[RuleEvent, Any, Any]] | None:
    """The ``count`` entries the game's latest undos took back, in the order they had been
    played, each with the state before and after it: ``[(event, before, after), …]`` (a phone
    that missed several undos in one poll is told each). None when they are not the entries
    that followed the game as it stands (an entry made in between)."""
    rows = list(db.session.scalars(select(Event).where(Event.game_id == view.row.id, Event.undone.is_(True))
                                   .order_by(Event.undone_at.desc().nulls_last(), Event.seq.desc()).limit(count)))
    rows.sort(key=lambda r: r.seq)
    # they follow the game as it stands: stored after its last entry in force (an entry stored
    # since comes after them). Not by position: an entry undone earlier in the game keeps its
    # seq, and an undo after it was told as "The last entry was undone." (a tester)
    last_kept = db.session.scalar(select(func.coalesce(func.max(Event.seq), 0))
                                  .where(Event.game_id == view.row.id, Event.undone.is_(False)))
    if len(rows) != count or rows[0].seq <= last_kept:
        return None
    told, state = [], view.state
    try:
        for row in rows:
            event = parse_event(row.data, len(view.row.setup["players"]))
            after = view.engine.apply(state, event)
            told.append((event, state, after))
            state = after
    except RuleError:
        return None
    return told


def writes_since(view: GameView, missed: int) -> tuple[int, int] | None:
    """The game's last ``missed`` writes as ``(undos, entries)``, told apart by when each was
    made (an entry's ``created``, an undo's ``undone_at``), for telling a phone whose write lost
    the race what the others did (its form says the version it was drawn at, not what it showed).
    None when they cannot be told apart (two writes at one moment: an import's entries)."""
    if missed <= 0:
        return (0, 0)
    made = list(db.session.scalars(select(Event.created).where(Event.game_id == view.row.id)
                                   .order_by(Event.created.desc()).limit(missed + 1)))
    undos = list(db.session.scalars(select(Event.undone_at).where(Event.game_id == view.row.id,
                                                                  Event.undone_at.is_not(None))
                                    .order_by(Event.undone_at.desc()).limit(missed + 1)))
    moments = sorted([(t, "entry") for t in made] + [(t, "undo") for t in undos], reverse=True)
    if len(moments) < missed:
        return None
    if len(moments) > missed and moments[missed][0] == moments[missed - 1][0]:
        return None  # the oldest write told shares its moment with one before it
    kinds = [kind for _moment, kind in moments[:missed]]
    return kinds.count("undo"), kinds.count("entry")


class WritesTold(NamedTuple):
    """What a phone that missed some undos and entries is told (``writes_told``): the state
    before them, the entries it showed that are gone now (``undone``: ``(event, before, after)``
    steps, in the order they had been played) and how many of the entries in force now came
    since (``entered``: the last ones)."""

    before: Any
    undone: list[tuple[RuleEvent, Any, Any]]
    entered: int


def writes_told(view: GameView, undone: int, entered: int) -> WritesTold | None:
    """What the game's last ``undone + entered`` writes did, ``undone`` of them undos and
    ``entered`` entries in any order, for telling a phone that missed them (D-3: the privileges
    too): the state before them (the entries in force then: those in force now, without the
    ``entered`` latest stored, with the ``undone`` latest taken back), the entries the phone
    showed that the undos took back (an undo takes the last entry in force, so they are the last
    ones it showed) and how many entries in force now it did not show. None when that does not
    add up (a write of another kind, an entry that no longer replays)."""
    game_id = view.row.id
    created = set(db.session.scalars(select(Event.seq).where(Event.game_id == game_id)
                                     .order_by(Event.seq.desc()).limit(entered))) if entered else set()
    taken_back = list(db.session.scalars(
        select(Event).where(Event.game_id == game_id, Event.undone.is_(True))
        .order_by(Event.undone_at.desc().nulls_last(), Event.seq.desc()).limit(undone))) if undone else []
    if len(created) != entered or len(taken_back) != undone:
        return None
    applied = _applied_rows(game_id)
    rows = [r for r in applied if r.seq not in created]
    gone = {r.seq for r in taken_back if r.seq not in created}
    rows += [r for r in taken_back if r.seq in gone]
    rows.sort(key=lambda r: r.seq)
    if len(rows) != len(view.events) - entered + undone:
        return None
    seats = len(view.row.setup["players"])
    try:
        folded = list(view.engine.steps(view.row.setup, [parse_event(r.data, seats) for r in rows]))
    except RuleError:
        return None
    before = folded[-1][2] if folded else view.engine.start(view.row.setup)
    taken = [step for step, r in zip(folded, rows) if r.seq in gone]
    return WritesTold(before, taken, sum(1 for r in applied if r.seq in created))


def current_version(game_id: str) -> int | None:
    """The game's version (one indexed read, no replay); None for an unknown game."""
    if not is_game_id(game_id):
        return None
    return db.session.scalar(VERSION_OF, {"game_id": game_id})


def _applied_rows(game_id: str) -> list[Event]:
    return list(
        db.session.scalars(select(Event).where(Event.game_id == game_id, Event.undone.is_(False)).order_by(Event.seq))
    )


def _fold(row: Game, rows: list[Event]) -> GameView:
    engine = ENGINES[row.game]
    events = tuple(parse_event(r.data, len(row.setup["players"])) for r in rows)
    return GameView(row=row, events=events, state=engine.replay(row.setup, events))


def game_row(game_id: str) -> Game | None:
    """The game's row (one indexed read, no replay); None for an unknown id."""
    return db.session.get(Game, game_id) if is_game_id(game_id) else None


def game_head(game_id: str) -> Game | None:
    """The game's row as a plain ``Game`` copy, not tracked by the session (one indexed read,
    without the ORM's identity bookkeeping; for a read-only request such as a poll); None for
    an unknown id. ``load_row`` folds it like a tracked row."""
    if not is_game_id(game_id):
        return None
    games = Game.__table__
    found = db.session.execute(select(*games.c).where(games.c.id == game_id)).first()
    return Game(**found._asdict()) if found is not None else None


def load_row(row: Game) -> GameView:
    """``load`` for a row already read in this request (tracked or a ``game_head`` copy)."""
    return _load_folded(row)


def load(game_id: str) -> GameView:
    """The game with its applied events folded into a state. Raises ``GameNotFound``.

    The game row (its version) is read before the events, so a write landing in between can
    only make the version look older than the events, never newer: a write based on such a
    view fails its conditional version bump instead of storing a wrongly checked event.
    """
    row = game_row(game_id)
    if row is None:
        raise GameNotFound(game_id)
    return _load_folded(row)


#: Folded games kept per worker (``SNAPSHOT_CACHE_SIZE`` games, 0 to keep none).
SNAPSHOT_CACHE_SIZE = 1024


#: ``db.session.info`` key set while a whole file is imported: its games are only flushed until
#: the file is committed, so no snapshot is kept or read meanwhile (a file refused late left a
#: game's flushed entries in the cache, and later entries were judged against them).
IMPORTING = "tracker.importing"
_NO_SNAPSHOTS = SnapshotCache(0)


def _snapshots() -> SnapshotCache:
    """This app's snapshot cache (one per app, so two apps never share a game id's past); an
    empty one that keeps nothing while a file is imported (``IMPORTING``)."""
    if db.session.info.get(IMPORTING):
        return _NO_SNAPSHOTS
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    cache = app.extensions.get("tracker.snapshots")
    if cache is None:
        cache = app.extensions.setdefault(
            "tracker.snapshots", SnapshotCache(app.config.get("SNAPSHOT_CACHE_SIZE", SNAPSHOT_CACHE_SIZE))
        )
    return cache


def _rows_after(game_id: str, after: int) -> list[Any]:
    """The applied events with ``seq > after`` as ``(seq, data, version)`` rows, ``version`` being
    the game's version read by the same statement (so the rows and it are one snapshot)."""
    query = (
        select(Event.seq, Event.data, Game.version)
        .join(Game, Game.id == Event.game_id)
        .where(Event.game_id == game_id, Event.undone.is_(False), Event.seq > after)
        .order_by(Event.seq)
    )
    return list(db.session.execute(query))


def _all_rows(game_id: str) -> list[Any]:
    """Every stored event of the game, undone ones included (few), as ``(seq, data, undone,
    version)`` rows in ``seq`` order, ``version`` the game's, read by the same statement."""
    query = (
        select(Event.seq, Event.data, Event.undone, Game.version)
        .join(Game, Game.id == Event.game_id)
        .where(Event.game_id == game_id)
        .order_by(Event.seq)
    )
    return list(db.session.execute(query))


def _load_folded(row: Game) -> GameView:
    """The game folded, from this worker's snapshot when it is at ``row.version``, caught up
    when only entries were added since (no undo), else folded from all its events.

    A snapshot is kept only when the events were read at ``row.version`` (a write that lands
    between the two reads makes the rows' version differ; the view is then used, not kept).
    """
    cache = _snapshots()
    snap = cache.get(row.id)
    if snap is not None and snap.version == row.version:
        return GameView(row=row, events=snap.events, state=snap.state, after_undo=snap.after_undo)
    engine = ENGINES[row.game]
    seats = len(row.setup["players"])
    if snap is not None and snap.version < row.version:
        caught = _caught_up(row.id, snap, row.version)
        if caught is not None:
            return GameView(row=row, events=caught.events, state=caught.state)
    every = _all_rows(row.id)
    rows = [r for r in every if not r.undone]
    after_undo = bool(every) and every[-1].undone  # the last entry stored is undone: an undo wrote last
    events = tuple(parse_event(r.data, seats) for r in rows)
    # the last steps kept too: the next entries' toasts and the log's new lines need no replay
    tail = tuple(deque(engine.steps(row.setup, events), maxlen=MAX_TAIL))
    state = tail[-1][2] if tail else engine.replay(row.setup, events)
    view = GameView(row=row, events=events, state=state, after_undo=after_undo)
    if all(r.version == row.version for r in every) and (every or row.version == 0):
        cache.put(row.id, Snapshot(row.version, rows[-1].seq if rows else 0, events, view.state,
                                   game=row.game, setup=row.setup, tail=tail, after_undo=after_undo))
    return view


def narrated(view: GameView, describe: Callable[[Any, Any, Any], str], key: Any) -> list[str]:
    """``describe(event, before, after)`` for each applied event, oldest first (the game log).

    The sentences are kept with the game's snapshot per ``key`` (the language), so a page
    narrates only the entries that are new; without a snapshot of this very view, every event
    is replayed and described. A view whose players carry other names than its setup (a
    finished game's players renamed since, ``screen.named_now``) is replayed under them.
    """
    names = [p.name for p in view.state.players]
    if names != list(view.row.setup.get("players", ())):
        setup = dict(view.row.setup, players=names)
        return [describe(*step) for step in view.engine.steps(setup, view.events)]
    snap = _snapshots().get(view.row.id)
    steps = lambda: view.engine.steps(view.row.setup, view.events)  # noqa: E731
    if snap is not None and snap.events is view.events:
        return snap.narrated(key, describe, steps)
    return [describe(*step) for step in steps()]


def recent_steps(view: GameView, count: int) -> list[tuple[RuleEvent, Any, Any]]:
    """The last ``count`` entries as ``(event, before, after)`` steps, oldest first: from the
    game's snapshot when it is of this very view and reaches back so far, else folded."""
    if count <= 0:
        return []
    snap = _snapshots().get(view.row.id)
    if snap is not None and snap.events is view.events and len(snap.tail) >= count:
        return list(snap.tail[-count:])
    return list(view.engine.steps(view.row.setup, view.events))[-count:]


def recent_states(view: GameView, count: int) -> list[tuple[int, Any]]:
    """The states after each of the ``count`` entries before the last one (fewer in a shorter
    game), oldest first, as ``(entries, state)`` pairs: ``entries`` the number of entries once
    that one was made. Taken from the game's snapshot (its last steps) when it is of this very
    view and reaches back so far, else folded from the game's start."""
    events = view.events
    n = len(events)
    first = max(0, n - 1 - count)  # the index of the oldest entry wanted
    snap = _snapshots().get(view.row.id)
    if snap is not None and snap.events is events and len(snap.tail) >= n - first:
        steps = snap.tail[len(snap.tail) - (n - first):]  # (event, before, after) of events[first:]
        return [(first + k + 1, step[2]) for k, step in enumerate(steps[:-1])]
    folded = view.engine.steps(view.row.setup, events[:-1])
    return [(i + 1, after) for i, (_event, _before, after) in enumerate(folded) if i >= first]


def _remember_write(row: Game, events: tuple[RuleEvent, ...], before: Any, seq: int, event: RuleEvent,
                    state: Any) -> tuple[RuleEvent, ...]:
    """Keep the game after our own committed write as its snapshot: ``row`` as the write left it,
    ``events``/``before`` the game it was judged on, ``event`` stored as ``seq`` giving ``state``.
    Returns the events now applied."""
    cache = _snapshots()
    snap = cache.get(row.id)
    if snap is not None and snap.events is events:
        snap = snap.extended(row.version, seq, [(event, before, state)])
    else:
        snap = Snapshot(row.version, seq, events + (event,), state, game=row.game, setup=row.setup)
    cache.put(row.id, snap)
    return snap.events


def _remember_undo(game_id: str, view: GameView, version: int, last_seq: int, folded: GameView) -> None:
    """Keep the game after our own committed undo; ``last_seq``: the last applied event left."""
    cache = _snapshots()
    snap = cache.get(game_id)
    if snap is not None and snap.events is view.events:
        cache.put(game_id, snap.without_last(version, last_seq, folded.events, folded.state))
    else:
        cache.put(game_id, Snapshot(version, last_seq, folded.events, folded.state,
                                    game=view.row.game, setup=view.row.setup, after_undo=True))


class NextGameStarted(Exception):
    """The table's next game was started meanwhile (the other phone, a moment before): this
    phone joins ``game_id`` instead of starting a second one."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id


class FormAlreadyStarted(NextGameStarted):
    """The same new-game form was posted before (a double tap on "Start the game", a tap again
    over slow Wi-Fi): ``game_id`` is the game it started, not yet played."""


def create_game(payload: Mapping[str, Any], *, after: str | None = None, start_key: str | None = None) -> GameView:
    """Create a game from ``{"game", "players", "first_player"}``. Raises ``RuleError("bad_setup")``.

    ``start_key``: the new-game form's key and fields, hashed (64 characters; ``Game.start_key``).
    Raises ``FormAlreadyStarted`` when a game was started with it and nothing is recorded in it
    yet, also for two posts at the same instant (the column's unique index decides); a game
    played since (the form brought back by the phone's Back) hands the key to the new game.

    ``after``: the finished game whose table starts this one ("New game, same players"); when
    the same people sit down again it names this game as its next (``Game.next_game_id``;
    once, unless that game was deleted), so the other phones still on it are offered the new
    game. A form left open since the table went on counts from the table's latest game
    (``table_latest``). Raises ``NextGameStarted`` when that game is still being played by the
    same people, or when the other phone linked its own next game first (a compare-and-set on
    ``next_game_id``: two phones tapping "Start" together make one game, never two). An
    ``after`` that is not such a game is ignored.
    """
    kind, setup, state = _setup(payload)
    people.check_seats(setup["players"])
    previous = table_latest(after)
    if previous is not None and previous.status != "finished" and previous.id != after \
            and previous.deleted_at is None and _same_people(previous.setup["players"], setup["players"]):
        raise NextGameStarted(previous.id)
    if start_key is not None:
        earlier = db.session.scalar(select(Game).where(Game.start_key == start_key))
        if earlier is not None and earlier.version == 0 and earlier.deleted_at is None:
            raise FormAlreadyStarted(earlier.id)
        if earlier is not None:  # played (or deleted) since: the key passes to the new game
            db.session.execute(update(Game).where(Game.id == earlier.id, Game.start_key == start_key)
                               .values(start_key=None), execution_options={"synchronize_session": False})
    row = Game(id=new_id(), game=kind, setup=setup, version=0, started=utcnow(), start_key=start_key, **_summary(state))
    db.session.add(row)
    if start_key is not None:
        try:
            db.session.flush()
        except IntegrityError:  # the same form's other post, a moment before: its game
            db.session.rollback()
            started = db.session.scalar(select(Game.id).where(Game.start_key == start_key))
            if started is None:  # pragma: no cover — the unique index refused it for that game
                raise
            raise FormAlreadyStarted(started) from None
    people.attach(row, payload)
    if previous is not None and previous.status == "finished" and previous.deleted_at is None \
            and next_game(previous) is None and _same_people(previous.setup["players"], setup["players"]):
        seen = previous.next_game_id  # None, or a game deleted since
        swap = update(Game).where(Game.id == previous.id, Game.next_game_id.is_(None) if seen is None
                                  else Game.next_game_id == seen).values(next_game_id=row.id)
        try:
            linked = db.session.execute(swap, execution_options={"synchronize_session": False}).rowcount == 1
        except OperationalError:  # SQLite: our snapshot is older than the other phone's commit
            linked = False
        if not linked:
            db.session.rollback()
            following = next_game(game_row(previous.id))
            if following is not None:
                raise NextGameStarted(following)
            raise RuleError("bad_setup", N_("Two games were started at once: try again."))
    db.session.commit()
    return GameView(row=row, events=(), state=state)


def table_latest(after: str | None) -> Game | None:
    """The latest game of the table that played ``after``: the end of its chain of next games
    (``after``'s own row when none followed); None for no such game."""
    row = game_row(after) if after else None
    seen: set[str] = set()
    while row is not None and row.id not in seen and len(seen) < 1000:
        seen.add(row.id)
        following = next_game(row)
        if following is None:
            break
        row = game_row(following)
    return row



def follows_a_game(game_id: str) -> bool:
    """Whether ``game_id`` is a table's next game: some game names it as its ``next_game_id``
    (``create_game`` with an ``after`` it accepted)."""
    return db.session.scalar(select(Game.id).where(Game.next_game_id == game_id).limit(1)) is not None

@dataclass(frozen=True)
class NextGamePlan:
    """What the new-game form offers a table coming from a finished game: ``after`` (its latest
    game, a form kept open since included), ``started`` (the game it is already playing, to
    join) or else ``first`` (the seat suggested to start, as typed) and ``last_starter``."""

    after: str
    started: str | None = None
    first: int | None = None
    last_starter: str | None = None
    #: a game these people started since, outside the table's chain (a game begun from the home
    #: page), still in progress: the form mentions it, and may still start another
    playing: str | None = None


def plan_next_game(after: str, names: list[str]) -> NextGamePlan:
    """The form's plan for the table that played ``after`` with the people ``names`` (as typed,
    empty ones allowed): the table's latest game (one walk of its chain) is either still being
    played by these people (join it) or finished, and the start passes to its next seat (two
    players alternate; in a Duel the other one takes the privilege, D-1.3)."""
    latest = table_latest(after)
    if latest is None or latest.deleted_at is not None or not _same_people(latest.setup["players"], names):
        return NextGamePlan(after)
    if latest.status != "finished":
        return NextGamePlan(after, started=latest.id) if latest.id != after else NextGamePlan(after)
    # the same people may have played since without "New game, same players" (an older game's
    # banner opened later): who starts passes on from their latest game of this kind
    since = _games_since(latest, names)
    playing = next((row.id for row in since if row.status != "finished"), None)
    last = next((row for row in since if row.game == latest.game), latest)
    seated = last.setup["players"]
    first = last.setup.get("first_player", 0)
    memo: dict[str, Any] = {}
    following, starter = people.identities([seated[(first + 1) % len(seated)], seated[first]], memo)
    typed = people.identities(names, memo)
    # (who started named as the form names them: "jiwoo started the last game" beside "Jiwoo", a tester)
    return NextGamePlan(latest.id, first=typed.index(following), last_starter=names[typed.index(starter)],
                        playing=playing)


def _games_since(row: Game, names: Sequence[str], limit: int = 200) -> list[Game]:
    """Games not deleted that seat exactly the people ``names`` and started after ``row``,
    newest first (one query over the latest ``limit`` games)."""
    rows = db.session.scalars(select(Game).where(Game.deleted_at.is_(None), Game.started > row.started)
                              .order_by(Game.started.desc()).limit(limit))
    memo: dict[str, Any] = {}
    return [r for r in rows if _same_people(r.setup["players"], names, memo)]


def _same_people(one: Sequence[str], other: Sequence[str], memo: dict[str, Any] | None = None) -> bool:
    """True when two lists of names (empty ones skipped) seat the same people, in any order,
    through renames and merges (``people.identities``; a tester's rematch after renaming Chloe
    to Chloé was no longer the same table). ``memo``: see ``people.identities``."""
    memo = {} if memo is None else memo
    return (sorted(people.identities([n for n in one if n.strip()], memo))
            == sorted(people.identities([n for n in other if n.strip()], memo)))


def next_game(row: Game) -> str | None:
    """The id of the game the table started after this one, while that game is not deleted."""
    if row.next_game_id is None:
        return None
    following = game_row(row.next_game_id)
    return following.id if following is not None and following.deleted_at is None else None


def _summary(state: Any) -> dict[str, Any]:
    """The listing columns a state implies (status, result, finished; while in progress the
    turn and the seat to act, what History says of it)."""
    if state.status != "finished":
        return {"status": "active", "result": None, "finished": None, "turn": state.turn, "to_play": state.current_player}
    winner = ENGINES[state.game].to_json(state)["winner"]
    result = {"winner": winner, "turns": state.turn}
    if state.game == "splendor" and splendor.beaten_on_cards(state):
        result["tie_break"] = True  # S-4: History says the win came from fewer development cards
    return {"status": "finished", "result": result, "finished": utcnow(), "turn": None, "to_play": None}


_GAMES = Game.__table__
_EVENTS = Event.__table__


def _bump_statement(finished: bool) -> Any:
    """``UPDATE games … WHERE id = :game_id AND version = :seen AND deleted_at IS NULL RETURNING *`` with the listing
    summary; built once (Core, bound parameters), so a write spends no time composing SQL.
    ``finished``: keep the first end of a game already finished (``coalesce``)."""
    end = bindparam("new_finished", type_=_GAMES.c.finished.type)
    return (
        update(_GAMES)
        .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("seen"),
               _GAMES.c.deleted_at.is_(None))  # a deleted game takes no entry (see ``_refuse_deleted``)
        .values(version=bindparam("new_version"), status=bindparam("new_status"),
                result=bindparam("new_result", type_=_GAMES.c.result.type),
                turn=bindparam("new_turn", type_=_GAMES.c.turn.type), to_play=bindparam("new_to_play", type_=_GAMES.c.to_play.type),
                finished=func.coalesce(_GAMES.c.finished, end) if finished else end)
        .returning(*_GAMES.c)
    )


_BUMP = {False: _bump_statement(False), True: _bump_statement(True)}
#: ``INSERT INTO events … RETURNING seq``, ``seq`` the game's next one, computed by the statement.
_INSERT_EVENT = (
    insert(_EVENTS)
    .values(game_id=bindparam("game_id"),
            seq=select(func.coalesce(func.max(_EVENTS.c.seq), 0) + 1)
            .where(_EVENTS.c.game_id == bindparam("game_id")).scalar_subquery(),
            entry_id=bindparam("entry_id"), data=bindparam("data", type_=_EVENTS.c.data.type), undone=False,
            created=bindparam("created", type_=_EVENTS.c.created.type))
    .returning(_EVENTS.c.seq)
)


def _bump(game_id: str, seen: int, state: Any) -> Game | None:
    """Raise the version from ``seen`` by one, only if nobody else did, and write the listing
    summary; returns the game row as updated (None when the version was no longer ``seen``)."""
    summary = _summary(state)
    found = db.session.execute(_BUMP[summary["finished"] is not None], {
        "game_id": game_id, "seen": seen, "new_version": seen + 1, "new_status": summary["status"],
        "new_result": summary["result"], "new_finished": summary["finished"],
        "new_turn": summary["turn"], "new_to_play": summary["to_play"],
    }).first()
    if found is None:
        return None
    row = db.session.identity_map.get(identity_key(Game, game_id))
    if row is None:
        return Game(**found._asdict())  # a plain copy of the row as updated (not added to the session)
    for key, value in found._asdict().items():  # the game was read in this request: bring it up to date
        set_committed_value(row, key, value)
    return row


def _check_write_args(game_id: str, expected_version: Any, entry_id: Any = None) -> None:
    """Refuse a malformed ``expected_version`` or ``entry_id`` (``RuleError("bad_event")``) before
    anything is read, except for a game that does not exist: ``GameNotFound`` first, as any write
    to it answers (the refusal is then read for that game alone)."""
    try:
        _check_write_fields(expected_version, entry_id)
    except RuleError:
        require_game(game_id)
        raise


def require_game(game_id: str) -> None:
    """Raise ``GameNotFound`` unless a game ``game_id`` is stored (one indexed read): a write
    refused for its body answers 404 first when its game does not exist (GAME-LOG.md)."""
    if not is_game_id(game_id) or db.session.scalar(select(Game.id).where(Game.id == game_id)) is None:
        raise GameNotFound(game_id)


def _check_write_fields(expected_version: Any, entry_id: Any) -> None:
    if expected_version is not None and (
        isinstance(expected_version, bool) or not isinstance(expected_version, int) or expected_version < 0
    ):
        raise RuleError("bad_event", N_("expected_version must be a whole number."))
    if entry_id is not None and (
        not isinstance(entry_id, str) or len(entry_id) > MAX_ENTRY_ID or clean_text(entry_id, MAX_ENTRY_ID) is None
    ):
        raise RuleError("bad_event", N_("entry_id must be a text of at most 64 characters, "
                                        "with no control or invisible character (a tab, a zero-width space)."))


def _pause(attempt: int) -> None:
    """Back off a little before retrying a write that lost a race (none before the first try)."""
    if attempt:
        time.sleep(random.uniform(0, 0.002 * min(attempt, 10)))


def _moved(game_id: str, seen: int) -> bool:
    """True when the game's version is no longer ``seen`` (read afresh, outside our snapshot)."""
    db.session.rollback()
    if not is_game_id(game_id):
        return None
    return db.session.scalar(select(Game.version).where(Game.id == game_id)) != seen


def _refuse_deleted(view: GameView) -> None:
    """A deleted game records nothing until it is restored: raises ``RuleError("game_deleted")``
    (a second phone still showing it would otherwise write into a game gone from the history)."""
    if view.row.deleted_at is not None:
        raise RuleError("game_deleted", N_("This game was deleted. Restore it from the history to record in it again."))


def _conflict(game_id: str, expected: int | None = None) -> VersionConflict:
    """What a write that did not land raises: ``VersionConflict`` with the game as it is now
    (or ``RuleError("game_deleted")`` when it was deleted meanwhile)."""
    view = load(game_id)
    _refuse_deleted(view)
    return VersionConflict(view, expected)


def _repeated(view: GameView, entry_id: str | None) -> GameView | None:
    """The game saying where the stored entry of ``entry_id`` is (``GameView.repeat``), or None
    when no entry of the game has that ``entry_id`` (or there is none): ``view``, or the game read
    again when a write landed since ``view`` was read (the entry itself, sent twice at once)."""
    if entry_id is None:
        return None
    row = db.session.execute(select(Event.seq, Event.undone).where(Event.game_id == view.row.id,
                                                                   Event.entry_id == entry_id)).first()
    if row is None:
        return None
    if current_version(view.row.id) != view.version:  # stored by a request that committed after ``view`` was read
        if view.row in db.session:
            db.session.expire(view.row)
        view = load(view.row.id)
    if row.undone:
        return replace(view, repeat="undone")
    last = db.session.scalar(select(func.max(Event.seq)).where(Event.game_id == view.row.id, Event.undone.is_(False)))
    return replace(view, repeat="last" if row.seq == last else "earlier")


#: The most entries a game keeps (a whole Duel is about 90, a 4-player Splendor about 200): a
#: game or a log beyond it is refused, never stored (a 100,000-entry log slowed every export).
MAX_ENTRIES = 2000


def post_event(
    game_id: str, data: Any, *, expected_version: Any = None, entry_id: Any = None
) -> GameView:
    """Apply one event and store it; returns the new game view.

    A repeated ``entry_id`` stores nothing and returns the current game, saying where that
    entry is (``GameView.repeat``); an empty one is no ``entry_id`` (as a form's empty field: a
    client sending ``""`` with every entry would otherwise see all but its first dropped). Raises
    ``GameNotFound``, ``VersionConflict`` (stale ``expected_version``) or ``RuleError``
    (nothing stored; ``game_deleted`` for a deleted game).

    With ``expected_version`` and this worker's snapshot of the game at that version, the
    write is two statements and a commit (``_write_on_snapshot``); anything unusual (a stale
    version, a refused entry, a repeated ``entry_id``, no snapshot) takes the checked path.
    """
    _check_write_args(game_id, expected_version, entry_id)
    entry_id = entry_id or None
    if expected_version is not None:
        view = _write_on_snapshot(game_id, data, expected_version, entry_id)
        if view is not None:
            return view
    for attempt in range(RETRIES):
        _pause(attempt)
        view = load(game_id)
        repeated = _repeated(view, entry_id)
        if repeated is not None:
            return repeated
        _refuse_deleted(view)
        if expected_version is not None and expected_version != view.version:
            raise VersionConflict(view, expected_version)
        view.engine.refuse_after_end(view.state)  # "any event after the game ended", a malformed one too
        event = parse_event(data, len(view.row.setup["players"]), view.engine.ENTRY_RULES)
        try:
            if isinstance(event, Correction):
                refuse_unchanged_correction(view.state, event, view.engine.ENTRY_RULES["correction"])
            state = view.engine.apply(view.state, event)
        except RuleError:
            if not _moved(game_id, view.version):
                raise
            # Another phone wrote while we read: judge the entry again on the fresh game.
            if expected_version is not None:
                raise _conflict(game_id, expected_version) from None
            continue
        stored = _store(game_id, view.version, view.events, view.state, event, state, entry_id)
        if stored is not None:
            return stored
        repeated = _repeated(view, entry_id)  # (stored by another request meanwhile: the fresh game)
        if repeated is not None:
            return repeated
        if expected_version is not None:
            raise _conflict(game_id, expected_version)
    raise _conflict(game_id, expected_version)


def _store(game_id: str, seen: int, events: tuple[RuleEvent, ...], before: Any, event: RuleEvent, state: Any,
           entry_id: str | None) -> GameView | None:
    """Store ``event`` (judged on the game at version ``seen``: ``events`` folded into ``before``,
    giving ``state``): the conditional version bump returning the row, the insert, the commit and
    the worker's snapshot. None, rolled back, when the version had moved on or a unique
    constraint refused the row (a repeated ``entry_id``). The entry that ends a game of a "best of
    N" series decided meanwhile by its other games takes it out of the series
    (``people.leave_decided_series``: two games in progress at once, the abandoned one finished
    later, read "Ana 2 – 2 Ben"). Raises ``RuleError("too_many_entries")``
    for a game holding ``MAX_ENTRIES`` already."""
    if len(events) >= MAX_ENTRIES:
        raise RuleError("too_many_entries", N_("A game keeps at most %(n)s entries: this one is full."), n=MAX_ENTRIES)
    row = _bump(game_id, seen, state)
    if row is None:
        db.session.rollback()
        return None
    try:
        seq = _insert_event(game_id, entry_id, event)
        _commit_keeping(row)
    except IntegrityError:
        db.session.rollback()
        return None
    if state.status == "finished" and before.status != "finished" and people.leave_decided_series(game_id):
        _commit_keeping(row)  # a series decided while this game was played: it no longer counts there
    return GameView(row=row, events=_remember_write(row, events, before, seq, event, state), state=state)


def _snapshot_at(game_id: str, version: int) -> Snapshot | None:
    """This worker's snapshot of the game at exactly ``version``: as kept, or caught up with the
    entries stored since (one query) when the database is at ``version`` and no undo happened
    in between; None otherwise (the caller takes the checked path)."""
    if not is_game_id(game_id):
        return None
    cache = _snapshots()
    snap = cache.get(game_id)
    if snap is None or snap.version > version:
        return None
    if snap.version == version:
        return snap
    return _caught_up(game_id, snap, version)


def _caught_up(game_id: str, snap: Snapshot, version: int) -> Snapshot | None:
    """``snap`` extended with the entries stored since (one query), kept and returned when the
    database is at ``version`` and only entries were written since; None otherwise (an undo, a
    write landing meanwhile, or a stored entry the rules refuse: the caller folds afresh)."""
    rows = _rows_after(game_id, snap.last_seq)
    # One write = one version: as many new applied events as versions means no undo since.
    if len(rows) != version - snap.version or any(r.version != version for r in rows):
        return None
    engine, seats = ENGINES[snap.game], len(snap.setup["players"])
    try:
        steps, state = [], snap.state
        for r in rows:
            event = parse_event(r.data, seats)
            after = engine.apply(state, event)
            steps.append((event, state, after))
            state = after
    except RuleError:
        return None
    snap = snap.extended(version, rows[-1].seq, steps)
    _snapshots().put(game_id, snap)
    return snap


def _write_on_snapshot(game_id: str, data: Any, expected_version: int, entry_id: str | None) -> GameView | None:
    """The common write: the entry is judged on this worker's snapshot at ``expected_version``,
    then the version bump (``WHERE version = expected``, returning the row) and the insert
    are the only statements. None, with nothing stored, whenever the checked path must decide
    (no snapshot, a refused entry, a lost race, a repeated ``entry_id``)."""
    snap = _snapshot_at(game_id, expected_version)
    if snap is None:
        return None
    try:
        event = parse_event(data, len(snap.setup["players"]))
        state = ENGINES[snap.game].apply(snap.state, event)
    except RuleError:
        return None  # judged again on the game as stored: a stale phone gets a conflict
    return _store(game_id, snap.version, snap.events, snap.state, event, state, entry_id)


def _insert_event(game_id: str, entry_id: str | None, event: RuleEvent) -> int:
    """Insert the event as the game's next ``seq`` (computed by the same statement); returns it.
    Runs after the version bump, whose row lock keeps any other writer of the game out."""
    return db.session.execute(_INSERT_EVENT, {
        "game_id": game_id, "entry_id": entry_id, "data": event_to_dict(event), "created": utcnow(),
    }).scalar_one()


def _commit_keeping(row: Game) -> None:
    """Commit without expiring ``row``: it holds what the bump returned, so the view needs no
    re-read of the game."""
    session = db.session()
    keep = session.expire_on_commit
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = keep


def undo(game_id: str, *, expected_version: Any = None) -> GameView:
    """Mark the last applied event undone (kept for the record) and refold.

    Raises ``GameNotFound``, ``VersionConflict`` or ``RuleError`` (``nothing_to_undo``,
    ``game_deleted``).
    """
    _check_write_args(game_id, expected_version)
    for attempt in range(RETRIES):
        _pause(attempt)
        view = load(game_id)
        _refuse_deleted(view)
        if expected_version is not None and expected_version != view.version:
            raise VersionConflict(view, expected_version)
        rows = _applied_rows(game_id)
        if not rows:
            raise RuleError("nothing_to_undo", N_("There is no entry to undo."))
        rows[-1].undone = True
        rows[-1].undone_at = utcnow()
        folded = _fold(view.row, rows[:-1])
        seen, last_seq = view.version, (rows[-2].seq if len(rows) > 1 else 0)
        row = _bump(game_id, seen, folded.state)
        if row is None:
            db.session.rollback()
            if expected_version is not None:
                raise _conflict(game_id, expected_version)
            continue
        _commit_keeping(row)
        _remember_undo(game_id, view, seen + 1, last_seq, folded)
        return GameView(row=row, events=folded.events, state=folded.state, after_undo=True)
    raise _conflict(game_id, expected_version)


def _iso(value: datetime | None) -> str | None:
    return value.strftime("%Y-%m-%dT%H:%M:%SZ") if value else None


def export_log(game_id: str) -> dict[str, Any]:
    """The game as a GAME-LOG.md ``splendor-tracker/1`` log (undone events left out)."""
    view = load(game_id)
    return _log_of(view)


def _log_of(view: GameView) -> dict[str, Any]:
    row, state = view.row, view.state
    result = None
    if state.status == "finished":
        result = {"winner": view.to_json()["winner"], "turns": state.turn}
    # (a game stored before future starts were taken as "now" may have finished before its start:
    # its log says it started when it finished, so that it still imports)
    started = row.started if row.finished is None or row.started is None else min(row.started, row.finished)
    return {
        "format": LOG_FORMAT,
        "id": row.id,
        "started": _iso(started),
        "finished": _iso(row.finished),
        "game": row.game,
        "players": list(row.setup["players"]),
        "first_player": row.setup["first_player"],
        "nobles": row.setup.get("nobles"),
        "events": [event_to_dict(e) for e in view.events],
        "result": result,
        **_keys_of(row),
    }


def _keys_of(row: Game) -> dict[str, Any]:
    """``{"import_keys": {...}}`` for a game imported without our id (``content``: its content's
    hash, ``id``: another tool's id's), else ``{}``: its export, imported elsewhere, is found there
    by the file it came from (and that file by it), never stored twice (a breaker)."""
    keys = {name: key for name, key in (("content", row.import_key), ("id", row.log_id_key)) if key}
    return {"import_keys": keys} if keys else {}


def _parse_time(value: Any) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str) or not (value.isascii() and value.isprintable()):
        # (Python reads "19:02:11\x00Z" as a time: a NUL is no part of ISO 8601)
        raise RuleError("bad_log", N_("Times in a log are ISO 8601 texts."))
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if parsed.tzinfo is not None:
            parsed = parsed.astimezone(timezone.utc).replace(tzinfo=None)
    except (ValueError, OverflowError) as exc:
        raise RuleError("bad_log", N_("Times in a log are ISO 8601 texts.")) from exc
    if not EARLIEST_TIME <= parsed <= utcnow() + timedelta(days=1):  # a day of clock skew at most
        raise RuleError("bad_log", N_("A game's times lie between the year 2000 and today."))
    return parsed


#: The earliest start or end a log may give a game (anything before is a typo or a forgery).
EARLIEST_TIME = datetime(2000, 1, 1)


#: Refusals that mean an entry is malformed (GAME-LOG.md: "malformed body or field, unknown
#: type/kind/id"; every refusal of ``parse_event`` is ``bad_event``), not that the rules refuse
#: it: in an imported log they make it ``bad_log``.
MALFORMED = frozenset(("bad_event", "unknown_card"))


def _replay_log(log: Any) -> tuple[str, dict[str, Any], Any, list[RuleEvent]]:
    """Check and replay a log: ``(kind, setup, final_state, events)``; raises ``RuleError``."""
    if isinstance(log, Mapping) and log.get("format") == HISTORY_FORMAT:
        raise RuleError("bad_log", N_("This is a whole-history backup, not one game's log: import it on the "
                                      "History page."))
    if not isinstance(log, Mapping) or log.get("format") != LOG_FORMAT:
        raise RuleError("bad_log", N_("This is not a splendor-tracker/1 game log."))
    events = log.get("events")
    if not isinstance(events, list):
        raise RuleError("bad_log", N_("A game log needs a list of events."))
    if len(events) > MAX_ENTRIES:
        raise RuleError("bad_log", N_("A game keeps at most %(n)s entries; this log has %(count)s."),
                        n=MAX_ENTRIES, count=len(events))
    if log.get("id") is not None and not isinstance(log.get("id"), str):
        raise RuleError("bad_log", N_("A game log's id is text (or left out)."))
    if log.get("id") is not None and (len(log["id"]) > MAX_LOG_ID or clean_text(log["id"], MAX_LOG_ID) is None):
        # (it is said back in refusals and kept as a key: no 100,000 characters, no NUL)
        raise RuleError("bad_log", N_("A game log's id is a text of at most %(n)s characters, with no control or "
                                      "invisible character."), n=MAX_LOG_ID)
    try:
        kind, setup, state = _setup(log)
    except RuleError as exc:
        raise RuleError("bad_log", exc.template, exc.rule, **exc.params) from exc
    result = log.get("result")
    turns = result.get("turns") if isinstance(result, Mapping) else None
    if result is not None and (not isinstance(turns, int) or isinstance(turns, bool)):  # ("7", 7.0, true: no count)
        raise RuleError("bad_log", N_("A log's result is null or an object with winner and turns (a whole number)."))
    engine = ENGINES[kind]
    parsed = []
    for i, data in enumerate(events, start=1):
        try:
            ev = parse_event(data, len(setup["players"]), engine.ENTRY_RULES)
            state = engine.apply(state, ev)
        except RuleError as exc:
            if exc.code in MALFORMED:  # not an entry at all, or an id no catalogue knows: malformed
                raise RuleError(
                    "bad_log", N_("Event %(n)s of the log is malformed: %(reason)s"), exc.rule, n=i, reason=exc
                ) from exc
            if exc.code == "game_over":  # (a refusal at the table says undo is still possible: not in a file)
                raise RuleError("import_mismatch", N_("Event %(n)s of the log comes after the game was won: "
                                                      "a finished game takes no more entries."),
                                exc.rule, n=i) from exc
            raise RuleError(
                "import_mismatch", N_("Event %(n)s of the log is refused: %(reason)s"), exc.rule, n=i, reason=exc
            ) from exc
        parsed.append(ev)
    expected = log.get("result")
    actual = None
    if state.status == "finished":
        actual = {"winner": engine.to_json(state)["winner"], "turns": state.turn}
    if actual is None and expected is not None:
        raise RuleError("import_mismatch", N_("Replaying the log gives no winner yet, so its result must be null; "
                                              "it records %(recorded)s."),
                        "S-4" if kind == "splendor" else "D-11", recorded=_result_text(setup["players"], expected))
    if not _same_result(expected, actual):
        raise RuleError("import_mismatch", N_("Replaying the log does not give its recorded result: it records "
                                              "%(recorded)s, the replay gives %(replayed)s."),
                        "S-4" if kind == "splendor" else "D-11",
                        recorded=_result_text(setup["players"], expected), replayed=_result_text(setup["players"], actual))
    return kind, setup, state, parsed


def _same_result(recorded: Any, replayed: dict[str, Any] | None) -> bool:
    """True when a log's ``result`` says what its replay gives: the same ``winner`` fields and
    ``turns`` (GAME-LOG.md: fields may be added freely; added ones are not compared)."""
    if recorded is None or replayed is None:
        return recorded is None and replayed is None
    winner = recorded.get("winner")
    return (isinstance(winner, Mapping) and _same_value(recorded.get("turns"), replayed["turns"])
            and all(_same_value(winner.get(k), v) for k, v in replayed["winner"].items()))


def _same_value(recorded: Any, replayed: Any) -> bool:
    """JSON equality as a log means it: a number is not a bool and a whole number is not a
    float (``false`` or ``0.0`` for seat 0 are refused, as the events refuse them)."""
    if isinstance(recorded, list) and isinstance(replayed, list):
        return len(recorded) == len(replayed) and all(map(_same_value, recorded, replayed))
    return type(recorded) is type(replayed) and recorded == replayed


def _result_text(players: Sequence[str], result: Any) -> Phrase:
    """A result in words for an import refusal: 'Ana won after 31 turns', 'Ana won by 10 crowns
    after 31 turns' (a Duel result naming its routes), 'no winner yet'."""
    if not isinstance(result, Mapping):
        return Phrase(N_("no winner yet"))
    winner = result.get("winner")
    names = winner_names(list(players), winner) if isinstance(winner, Mapping) else []
    turns = result.get("turns")  # (a whole number: ``_replay_log`` refuses any other as bad_log)
    if not names:
        return Phrase(N_("no known winner after %(n)s turns"), n=turns)
    routes = winner.get("routes")
    if isinstance(routes, list) and routes and all(isinstance(r, str) for r in routes):  # Duel: D-11's routes
        return Phrase(N_("%(names)s won by %(routes)s after %(n)s turns"), names=" & ".join(names),
                      routes=tuple(r[:20] for r in routes[:3]), n=turns)
    prestige, cards = winner.get("prestige"), winner.get("cards")
    if isinstance(prestige, int) and isinstance(cards, int):  # Splendor: S-4's prestige, then fewest cards
        return Phrase(N_("%(names)s won with %(prestige)s prestige and %(cards)s cards after %(n)s turns"),
                      names=" & ".join(names), prestige=prestige, cards=cards, n=turns)
    return Phrase(N_("%(names)s won after %(n)s turns"), names=" & ".join(names), n=turns)


#: What an import did with a log: stored a new game, found it stored already, or found an
#: earlier export of it stored and added the entries the log has beyond it.
CREATED, STORED, EXTENDED = "created", "stored", "extended"
#: ``STORED`` told apart: the log's entries are the stored game's as they stood at some earlier
#: moment, since played otherwise here (entries undone, others recorded): kept as it is here.
STORED_EARLIER = "stored_earlier"


def import_log(log: Any, *, commit: bool = True, skip_deleted: bool = False,
               others: frozenset[str] = frozenset()) -> tuple[GameView, str]:
    """Store a game from its log; returns ``(view, outcome)``, ``outcome`` one of ``CREATED``,
    ``STORED`` (the log's game is stored already: its id, or the same game spelled otherwise; a
    log with no id, no ``started`` and no entry is never found again: each is a new game)
    and ``EXTENDED`` (the stored game is the beginning of the log, an export made earlier in
    the game: the log's later entries are added to it, one version each, as if recorded).

    With ``commit`` False the game is only flushed: the caller commits a whole file at once.
    ``skip_deleted``: a log with more entries of a game deleted here leaves it as it is (``STORED``).
    ``others``: the ids of the games of the backup this log is part of: games apart from it.
    Raises ``RuleError``: ``bad_log`` (malformed: its setup, id or an event that is no entry at
    all), ``import_mismatch`` (an event the rules refuse, or a replay whose outcome differs from
    ``result``), ``game_deleted`` (the log would add entries to a stored game that was deleted).
    """
    kind, setup, state, parsed = _replay_log(log)  # a stored id does not spare the checks
    logged_start = _parse_time(log.get("started"))
    finished = _parse_time(log.get("finished")) if state.status == "finished" else None  # in play: no end yet
    # a log that says when it finished but not when it started (both optional): it is listed at
    # its finish, not "now" (which would be after it finished); a time ahead of this server's
    # clock (a phone's skew, up to a day) is taken as now: a game stored as starting later would
    # finish here before it started, and its backup would no longer restore (a tester)
    now = utcnow()
    if finished is not None:
        finished = min(finished, now)
    started = min(logged_start, now) if logged_start is not None else (finished if finished is not None else now)
    if finished is not None and finished < started:
        raise RuleError("bad_log", N_("A game cannot finish before it started."))
    events = [event_to_dict(ev) for ev in parsed]
    # (an id of blanks names nothing: the log has no id)
    log_id, import_key, foreign_key = log.get("id"), None, None
    if isinstance(log_id, str) and not log_id.strip():
        log_id = None
    if log_id is not None and not is_game_id(log_id):
        # an id this app never gives (short, or another tool's: "ex-duel-1012"; GAME-LOG.md sets no
        # form): the game gets an id of ours, and the log's id is kept as its key, so a second log
        # under it is that game again (or refused, when its players or entries differ); a game
        # stored before the key was kept is still found by its content
        foreign_key = archive.foreign_id_key(log_id)
        stored_id = db.session.scalar(select(Game.id).where(Game.log_id_key == foreign_key))
        if stored_id is not None:
            _check_same_game(stored_id, kind, setup, log_id)
            return _extend(stored_id, parsed, events, state, finished, commit, skip_deleted,
                           start_given=logged_start is not None, log_id=log_id)
        log_id = None
    own_id = log_id  # an id of this app's form: the game keeps it when it is new here
    if log_id is not None:
        stored = db.session.get(Game, log_id)
        if stored is not None:
            _check_same_game(log_id, kind, setup, log_id)
            return _extend(log_id, parsed, events, state, finished, commit, skip_deleted,
                           start_given=logged_start is not None, log_id=log_id)
    keyed = _found_by_keys(log.get("import_keys"), kind, setup, others)
    if keyed is not None:  # another instance's export of a game imported here from the same file
        return _extend(keyed, parsed, events, state, finished, commit, skip_deleted,
                       start_given=logged_start is not None)
    if own_id is None and not events and logged_start is None:
        # no id, no entry, no start: nothing tells this table from another that sat down with
        # the same names (a setup sent twice is two games, never one table's game moved on)
        log_id = new_id()
    elif events or logged_start is not None:
        # the same game, however its file spells it, or the export of a stored game without its id
        # (or with an id of ours unknown here: the same log imported before without it, a tester)
        content_key = archive.log_key(kind, setup, events, logged_start)
        import_key = content_key if own_id is None else None
        keys = (content_key, archive.log_key(kind, setup, events, logged_start, exact=True), archive.legacy_log_key(log))
        stored_id = _imported_as(keys)
        if stored_id is None and logged_start is not None:
            stored_id = _stored_same_game(kind, setup, events, logged_start, others)
        if stored_id is not None:
            found = _extend(stored_id, parsed, events, state, finished, commit, skip_deleted,
                            start_given=logged_start is not None)
            if foreign_key is not None:  # the game stored without that id: from now on the id finds it too
                db.session.execute(update(Game).where(Game.id == stored_id, Game.log_id_key.is_(None))
                                   .values(log_id_key=foreign_key))
                if commit:
                    db.session.commit()
                else:
                    db.session.flush()
            return found
        if own_id is None:
            log_id = new_id()  # the key finds the game again; the id stays unguessable
    summary = _summary(state)
    if summary["finished"] is not None:  # when it ended is the log's to say: unknown is not "now"
        summary["finished"] = finished
    row = Game(id=log_id, game=kind, setup=setup, version=_restored_version(log, len(parsed)), started=started,
               import_key=import_key, log_id_key=foreign_key, **summary)
    db.session.add(row)
    for seq, ev in enumerate(parsed, start=1):
        db.session.add(Event(game_id=row.id, seq=seq, data=events[seq - 1], created=started))
    try:
        people.attach(row)
        _restore_keys(row, log.get("import_keys"))  # (the file it came from finds it here too)
        if commit:
            db.session.commit()
        else:
            db.session.flush()
    except IntegrityError:
        if not commit:  # the caller's file: it rolls back the whole of it
            raise
        db.session.rollback()
        stored_id = (db.session.scalar(select(Game.id).where(Game.log_id_key == foreign_key)) if foreign_key
                     else _imported_as((import_key,)) if import_key else log_id)
        if stored_id is not None and db.session.get(Game, stored_id) is not None:
            if foreign_key is not None:  # another log under the same id at the same moment
                _check_same_game(stored_id, kind, setup, str(log.get("id")))
            return load(stored_id), STORED  # the same log imported at the same moment
        raise
    return GameView(row=row, events=tuple(parsed), state=state), CREATED


def _imported_as(keys: Sequence[str]) -> str | None:
    """The id of the game an id-less log with one of these content ``keys`` was imported as (its
    ``import_key``; before that column, the key was the id itself); None when none was."""
    return db.session.scalar(select(Game.id).where(or_(Game.import_key.in_(keys), Game.id.in_(keys))).limit(1))


#: The highest ``version`` a backup's log may give its game (``_restored_version``).
MAX_RESTORED_VERSION = 2_000_000_000


def _restored_version(log: Mapping[str, Any], entries: int) -> int:
    """The version a game imported with ``entries`` entries starts at: the ``version`` a history
    backup gives it (``export_history``: its writes, undos included) when that is a whole number
    from ``entries`` to ``MAX_RESTORED_VERSION``, else ``entries`` (a plain game log has none). A
    restored game keeps counting from where it was: its version "only grows" (GAME-LOG.md), so a
    phone still showing it from before the move is told of every entry after (restored at the
    count of its entries, it went back from 9 to 5, and a phone at version 9 was told "nothing
    changed" four entries later: two testers)."""
    version = log.get("version")
    if type(version) is int and entries <= version <= MAX_RESTORED_VERSION:
        return version
    return entries


def _extend(game_id: str, parsed: list[RuleEvent], events: list[dict[str, Any]], state: Any,
            finished: datetime | None, commit: bool, skip_deleted: bool = False,
            start_given: bool = True, log_id: str | None = None, tries: int = 3) -> tuple[GameView, str]:
    """The stored game a log records, by its entries: as it is (``STORED``) when they are its
    entries as they stand or as they stood at some moment (an export made earlier, before
    undos: what the table took back stays undone, whatever it recorded since); with the log's
    later entries added (``EXTENDED``) when they continue its entries as they stand: one version
    and one event row each, the listing summary of the log's final ``state`` (``finished`` as
    the log says, never before the stored start: a log that gives no start finishes then).

    A deleted game records nothing until it is restored: ``RuleError("game_deleted")``, or
    ``STORED`` with ``skip_deleted`` (a whole file goes on without it). Raises
    ``RuleError("import_mismatch")`` for entries the game never had in that order (it was played
    otherwise since: entries undone, others recorded) or that go on with an entry the table
    undid here (an earlier export played on elsewhere), ``RuleError("bad_log")`` for such
    entries that never began as it did under the log's ``log_id`` (another game), for a
    ``finished`` before the stored game's start. A write landing meanwhile has the log judged
    again on the game as it then is (``tries`` times in all); ``VersionConflict`` when writes
    keep landing, or at once when not committing (a whole file's transaction is lost)."""
    view = load(game_id)
    stored, version = len(view.events), view.version  # (the version these entries are at, read once)
    current = [event_to_dict(ev) for ev in view.events]
    if events == current[:len(events)]:
        return view, STORED
    was, began = _was_once(game_id, events)
    if was:  # (said apart: "Nothing new" misled a player restoring a backup made before undos, a tester)
        return view, STORED_EARLIER
    if view.row.deleted_at is not None and skip_deleted:
        return view, STORED
    _refuse_deleted(view)
    if events[:stored] != current:
        if not began and log_id is not None:  # the log's id names a game that never began so
            raise _another_game(log_id)
        raise PlayedOtherwise()
    if _undid(game_id, events[stored]) and _was_once(game_id, events[:stored + 1])[0]:
        # its next entry is one the table took back here (an export made before the undo, played
        # on elsewhere): adding the log's entries would bring it back (a breaker); (an entry
        # stored meanwhile by the same file sent at once is no undo: that import is told STORED)
        raise PlayedOtherwise()
    last = db.session.scalar(select(func.coalesce(func.max(Event.seq), 0)).where(Event.game_id == game_id))
    summary = _summary(state)
    if summary["finished"] is not None:
        if finished is not None and finished < view.row.started:
            if start_given:
                raise RuleError("bad_log", N_("A game cannot finish before it started."))
            finished = view.row.started  # (its start here is when it was first imported)
        summary["finished"] = finished
    added = len(parsed) - stored
    bumped = db.session.execute(
        update(Game).where(Game.id == game_id, Game.version == version)
        .values(version=version + added, **summary).execution_options(synchronize_session=False)
    ).rowcount
    if bumped != 1:
        db.session.rollback()
        if commit and tries > 1:
            # a write landed meanwhile (the same file sent twice at once, a phone's entry or undo):
            # the log is judged again on the game as it is now (stored, or played otherwise: a
            # 409 told the importer of an expected_version it never sent, a breaker)
            return _extend(game_id, parsed, events, state, finished, commit, skip_deleted, start_given, log_id,
                           tries=tries - 1)
        raise _conflict(game_id)
    now = utcnow()
    db.session.add_all(Event(game_id=game_id, seq=last + i, data=events[stored + i - 1], created=now)
                       for i in range(1, added + 1))
    db.session.expire(view.row)
    if commit:
        db.session.commit()
        return load(game_id), EXTENDED  # as stored: its names and nobles as first recorded
    db.session.flush()
    return GameView(row=db.session.get(Game, game_id), events=tuple(parsed), state=state), EXTENDED


def _same_setup(stored: Mapping[str, Any], logged: Mapping[str, Any]) -> bool:
    """True when two setups are one table's: the same start player, the same players seat by
    seat as people are told apart (``person_key``: "ana" is Ana), the same nobles dealt in
    any order (no entry depends on their order)."""
    def nobles(setup: Mapping[str, Any]) -> Any:
        dealt = setup.get("nobles")
        return sorted(dealt, key=str) if isinstance(dealt, list) else dealt

    players = [stored.get("players") or [], logged.get("players") or []]
    return (stored.get("first_player") == logged.get("first_player") and nobles(stored) == nobles(logged)
            and len(players[0]) == len(players[1])
            and all(isinstance(a, str) and isinstance(b, str) and person_key(a) == person_key(b)
                    for a, b in zip(*players)))


#: ``import_mismatch``: a log of a stored game whose entries it never had in that order.
PLAYED_OTHERWISE = N_("This log's game is stored here already and has been played differently since (entries undone "
                      "and others recorded): nothing is imported.")


class PlayedOtherwise(RuleError):
    """``RuleError("import_mismatch", PLAYED_OTHERWISE)``: the stored game a log records has been
    played otherwise (here or in the file); a whole-history import keeps it as it is and goes on."""

    def __init__(self) -> None:
        super().__init__("import_mismatch", PLAYED_OTHERWISE)


def _undid(game_id: str, entry: dict[str, Any]) -> bool:
    """Whether the table undid an entry ``entry`` (as stored) in game ``game_id`` (one read of
    its undone rows, few)."""
    return any(data == entry for data in db.session.scalars(
        select(Event.data).where(Event.game_id == game_id, Event.undone.is_(True))))


def _was_once(game_id: str, events: list[dict[str, Any]]) -> tuple[bool, bool]:
    """Whether ``events`` were at some moment the entries of stored game ``game_id`` (an export
    made before undos), and whether they began as it did at some moment (the same first entry:
    the same game, played otherwise since), as ``(was, began)``: its rows replayed in time (each
    recorded at ``created``, each undone at ``undone_at``), the entries in force after each step
    compared with them."""
    rows = db.session.execute(select(Event.seq, Event.data, Event.created, Event.undone, Event.undone_at)
                              .where(Event.game_id == game_id).order_by(Event.seq)).all()
    data = {row.seq: row.data for row in rows}
    # each entry recorded after the one before it (an imported game's entries carry its start,
    # which a skewed clock may have put after entries recorded here), each undo after its entry;
    # an undo with no time, from before it was kept: taken back at once, the latest first
    steps: list[tuple[Any, int, int]] = []
    when = None
    for row in rows:
        when = row.created if when is None or row.created > when else when
        steps.append((when, 0, row.seq))
        if row.undone:
            undone = row.undone_at if row.undone_at is not None and row.undone_at > when else when
            steps.append((undone, 1, -row.seq))
    steps.sort()
    in_force: list[int] = []
    began = not events
    for _when, undo, seq in steps:
        if undo:
            if -seq in in_force:
                in_force.remove(-seq)
        else:
            in_force.append(seq)
        began = began or (len(in_force) == 1 and data[in_force[0]] == events[0])
        if len(in_force) == len(events) and [data[n] for n in in_force] == events:
            return True, True
    return False, began


def _check_same_game(game_id: str, kind: str, setup: Mapping[str, Any], log_id: str) -> None:
    """Refuse (``RuleError("bad_log")``) a log whose ``id`` names the stored game ``game_id`` when
    that game is another one: another kind of game, other players (its entries are
    ``_extend``'s to judge)."""
    stored = db.session.get(Game, game_id)
    if stored is not None and not (stored.game == kind and _same_setup(stored.setup, setup)):
        raise _another_game(log_id)


def _another_game(log_id: str) -> RuleError:
    """The refusal of a log whose ``id`` names a stored game that is another one."""
    shown = log_id if len(log_id) <= 40 else log_id[:39] + "…"
    return RuleError("bad_log", N_("Another game is stored under this log's id (%(id)s): its players or "
                                   "entries differ. Remove the id to import this log as a game of its own."),
                     id=shown)


def _same_game(row: Game, kind: str, setup: Mapping[str, Any], events: list[dict[str, Any]]) -> bool:
    """True when stored ``row`` records the game of a log: the same kind and setup
    (``_same_setup``), and the entries of one the beginning of the other's (a log exported
    earlier or later in the game), or entries that began as the game's did at some moment (a
    log exported before undos: ``_extend`` then says whether it adds anything)."""
    if row.game != kind or not _same_setup(row.setup, setup):
        return False
    stored = [event_to_dict(ev) for ev in load(row.id).events]
    shorter = min(len(stored), len(events))
    return stored[:shorter] == events[:shorter] or _was_once(row.id, events)[1]


def _stored_same_game(kind: str, setup: Mapping[str, Any], events: list[dict[str, Any]], started: datetime,
                      others: frozenset[str] = frozenset()) -> str | None:
    """The id of a stored game that an id-less log records (see ``_same_game``), found by its
    start: an export gives it to the second, the database keeps a finer time. ``others``: the
    ids of a backup's games (this log's own id, stored, was found before), never this log's
    game, however alike (a backup's games started in one second, their entries each the
    beginning of the next's, were restored as one game: a tester)."""
    second = started.replace(microsecond=0)  # (a file may give a fraction of it)
    rows = db.session.scalars(select(Game).where(
        Game.game == kind, Game.started >= second, Game.started < second + timedelta(seconds=1)))
    return next((row.id for row in rows if row.id not in others and _same_game(row, kind, setup, events)), None)


#: Games in one page of ``GET /api/games``.
API_PAGE = 500


def list_games(limit: int = API_PAGE, older: str | None = None) -> list[Game]:
    """Games newest first (start time, then id), deleted ones left out (the listing summary; no
    replay): at most ``limit``.

    ``older``: a game's id (deleted or not); the list starts after it, with the games started
    before it, so games started meanwhile never shift a page. Raises ``GameNotFound`` for an
    ``older`` that is no game's id.
    """
    query = select(Game).where(Game.deleted_at.is_(None))
    if older is not None:
        cursor = db.session.execute(select(Game.started, Game.id).where(Game.id == older)).first() \
            if is_game_id(older) else None
        if cursor is None:
            raise GameNotFound(str(older)[:64])
        query = query.where(or_(Game.started < cursor.started, and_(Game.started == cursor.started, Game.id < cursor.id)))
    return list(db.session.scalars(query.order_by(Game.started.desc(), Game.id.desc()).limit(limit)))


def game_summary(row: Game, names: list[str] | None = None) -> dict[str, Any]:
    """A game in the API list (GAME-LOG.md): id, game, players, status, winner, started, finished.
    ``names``: the seats' names to give (the home page's: the people's current names); by
    default the names as recorded in the game, as its log and state give them."""
    winner = (row.result or {}).get("winner")
    players = list(row.setup["players"]) if names is None else list(names)
    return {
        "id": row.id,
        "game": row.game,
        "players": players,
        "status": row.status,
        "winner": winner,
        "winner_names": winner_names(players, winner),
        "started": _iso(row.started),
        "finished": _iso(row.finished),
    }


def winner_names(players: list[str], winner: dict[str, Any] | None) -> list[str]:
    """The winners' names from either winner shape (Duel ``player``, Splendor ``players``)."""
    if not winner:
        return []
    seats = winner.get("players", [winner.get("player")])
    if not isinstance(seats, list):  # a tampered log's winner, quoted in its refusal
        return []
    return [players[s] for s in seats if isinstance(s, int) and not isinstance(s, bool) and 0 <= s < len(players)]


def export_history() -> dict[str, Any]:
    """Every stored game as one backup: ``{"format": HISTORY_FORMAT, "games": [log, …]}``.

    Deleted games are included with ``"deleted": true`` so a restore keeps them restorable.
    Beside GAME-LOG.md's fields (which allow more), each log says its game's ``version`` (its
    writes, undos included: ``_restored_version``), who sat in each seat by the person's current
    name (``people``), its "best of N" series (``series``: ``id``, ``best_of``) and the game its
    table started next (``next_game``); ``aliases`` maps the names merges and
    renames left to their person, ``forgotten`` the other names forgotten since (a restore forgets
    them again): a restore shows the same players, series and figures.
    ``import_keys`` (``content``, ``id``) are the keys an import without our id found the game
    by (its content's hash, another tool's id): after a restore the same file is still found.
    """
    rows = db.session.scalars(select(Game).order_by(Game.started)).all()
    per_game, aliases, forgotten = people.backup_fields([row.id for row in rows])
    games = []
    for row in rows:
        log = _log_of(_fold(row, _applied_rows(row.id)))
        log["version"] = row.version  # (undos included: a restore keeps counting from it)
        if row.deleted_at is not None:
            log["deleted"] = True
        log.update(per_game[row.id])
        if row.next_game_id:
            log["next_game"] = row.next_game_id
        games.append(log)  # (with its ``import_keys``: found again when it comes without our id)
    return {"format": HISTORY_FORMAT, "exported": _iso(utcnow()), "aliases": aliases, "forgotten": forgotten,
            "games": games}


def _in_file(exc: RuleError, n: int, log: Any) -> RuleError:
    """A backup's refusal of its ``n``-th game, named by its place, players and start date (a
    backup of 200 games is not counted by hand): "Game 12 of the file (Ana · Ben, 2026-11-30): …"."""
    players = log.get("players") if isinstance(log, Mapping) else None
    started = log.get("started") if isinstance(log, Mapping) else None
    names = " · ".join(p[:40] if isinstance(p, str) else "?" for p in players[:4]) if isinstance(players, list) else ""
    try:
        day = date.fromisoformat(started[:10]).isoformat() if isinstance(started, str) and started[:10].isascii() else ""
    except ValueError:
        day = ""
    if names:
        return RuleError(exc.code, N_("Game %(n)s of the file (%(game)s): %(reason)s"), exc.rule, n=n,
                         game=f"{names}, {day}" if day else names, reason=exc)
    return RuleError(exc.code, N_("Game %(n)s of the file: %(reason)s"), exc.rule, n=n, reason=exc)


class ImportResult(NamedTuple):
    """What ``import_any`` did: games ``created``, found ``existing`` (of which ``deleted`` are
    deleted here: the file does not bring them back, Restore does), stored games ``extended``
    with the file's later entries, stored games a backup has with other entries (``differ``:
    played otherwise here or in the file; kept as they are here, the rest of the file imported),
    and of the games ``created``, those a backup marks deleted (``created_deleted``: stored under
    "deleted", as the backup had them); of the ``existing``, those the file has as they stood
    before the table undid entries here (``earlier``: ``STORED_EARLIER``, kept as they are here)."""

    created: int
    existing: int
    extended: int
    deleted: int = 0
    differ: int = 0
    created_deleted: int = 0
    earlier: int = 0


#: Entries one import may replay and store, all its games together (a club's history of a thousand
#: Duel games holds about 70,000).
MAX_IMPORT_ENTRIES = 100_000


def import_any(data: Any, *, capped: bool = True) -> ImportResult:
    """Import one game log or a whole history backup (see ``ImportResult``). ``capped``: the
    whole file holds at most ``MAX_IMPORT_ENTRIES`` entries (a web request's cap; the command
    line restores a backup of any size).

    Every log is checked first; if any does not replay, nothing is imported and its
    ``RuleError`` (``bad_log`` / ``import_mismatch``; ``game_deleted``, ``version_conflict``
    when a game the file continues was deleted or written to meanwhile) names it. A file whose
    games or people another import stored at the same moment is imported again over what that
    one stored (``version_conflict`` if it collides twice).
    """
    for _attempt in range(2):
        try:
            return _import_any(data, MAX_IMPORT_ENTRIES if capped else None)
        except IntegrityError:
            pass  # rolled back: the other import's games and people are there now
    raise RuleError("version_conflict", N_("Another import stored the same games at the same moment. Import the "
                                           "file again."))


def _import_any(data: Any, max_entries: int | None) -> ImportResult:
    backup = isinstance(data, Mapping) and data.get("format") == HISTORY_FORMAT
    logs = data.get("games") if backup else [data]
    if not isinstance(logs, list):
        raise RuleError("bad_log", N_("A history file needs a list of games."))
    # every entry is replayed and stored in this one request: a file of hundreds of games of
    # 2000 entries each held a worker for minutes (a security tester); a club's history is far less
    entries = sum(len(log["events"]) for log in logs if isinstance(log, Mapping) and isinstance(log.get("events"), list))
    # (the command line restores a backup of any size: a club's history past the cap, exported
    # whole by ``flask export``, could not be restored, an adversarial tester)
    if max_entries is not None and entries > max_entries:
        raise RuleError("bad_log", N_("A file imports at most %(max)s entries at once; this one has %(n)s. Import "
                                      "its games in parts (two files of half its games each)."), max=f"{max_entries:,}", n=f"{entries:,}")
    for i, log in enumerate(logs, start=1):
        try:
            check_log(log)
        except RuleError as exc:
            if not backup:  # a single log: its own refusal, no "game 1 of the file"
                raise
            raise _in_file(exc, i, log) from exc
    created = existing = extended = deleted = differ = created_deleted = earlier = 0
    series: dict[str, Any] = {}
    same_second: dict[Any, int] = {}
    made: list[tuple[Game, Any]] = []
    stored: list[Game] = []
    aliases: list[int] = []
    db.session.info[IMPORTING] = True
    try:  # the whole file or nothing
        if backup:  # a history backup's people: its aliases and renames lead to the same persons here
            aliases = people.restore_aliases(logs, data.get("aliases"))
        # a backup's games are games apart, each with its id: one is never found as another (a
        # log's own id, stored here, finds its game before any other is looked for)
        others = frozenset(log.get("id") for log in logs if backup and is_game_id(log.get("id")))
        for i, log in enumerate(logs, start=1):
            try:
                view, outcome = import_log(log, commit=False, skip_deleted=True, others=others)
            except PlayedOtherwise:
                if not backup:
                    raise
                # a game played otherwise here or in the file (a backup of another phone's
                # history, taken at another moment): kept as it is here, the file goes on
                differ += 1
                continue
            except RuleError as exc:
                if not backup:
                    raise
                raise _in_file(exc, i, log) from exc
            except VersionConflict:
                raise RuleError("version_conflict", N_("Game %(n)s of the file: a phone recorded in it while the file "
                                                       "was imported. Import the file again."), n=i) from None
            if outcome == EXTENDED:
                extended += 1
            elif outcome == CREATED:
                created += 1
                stored.append(view.row)
                if backup:  # in the file's order; who sat there, as the backup says (a name may lead elsewhere here)
                    _keep_file_order(view.row, same_second)
                    people.seat_as_backed_up(view.row, log.get("people"))
                if log.get("deleted") is True:
                    view.row.deleted_at = utcnow()
                    created_deleted += 1
            else:
                existing += 1
                earlier += outcome == STORED_EARLIER
                # (a game the file marks deleted too is as it should be: no call to restore it, a tester)
                deleted += view.row.deleted_at is not None and log.get("deleted") is not True
            if backup:  # a game stored before (say, imported alone) joins its series and next game too
                _restore_keys(view.row, log.get("import_keys"))
                if log.get("series") is not None:
                    series[view.row.id] = log["series"]
                made.append((view.row, log.get("next_game")))
        people.keep_restored_aliases(aliases, stored)
        people.forget_restored(aliases, data.get("forgotten"))
        people.restore_series(series)
        for row, next_id in made:  # the game each table started next, when it came along
            _restore_next_game(row, next_id)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    finally:
        db.session.info.pop(IMPORTING, None)
    return ImportResult(created, existing, extended, deleted, differ, created_deleted, earlier)


def _keep_file_order(row: Game, seen: dict[Any, int]) -> None:
    """A backup's game stored with the same start as one stored before it from the file (a log's
    times are whole seconds; the backup lists its games by their start) starts a microsecond later
    for each: History and a series number them as the file's order does (two games imported in
    the same second swapped places after a restore, a series' #1 and #2 with them: a tester).
    ``seen``: this file's starts so far, and how many games had each."""
    if row.started is None:
        return
    n = seen.get(row.started, 0)
    seen[row.started] = n + 1
    if n:
        row.started = row.started + timedelta(microseconds=n)


#: The shape of a key ``archive.log_key`` or ``archive.foreign_id_key`` gives.
IMPORT_KEY = re.compile(r"log-[A-Za-z0-9_-]{28}")


def _found_by_keys(keys: Any, kind: str, setup: Mapping[str, Any], others: frozenset[str]) -> str | None:
    """The stored game a log's ``import_keys`` name by another tool's id (its export elsewhere of
    a game first imported from that tool's file), when it is the same table's (kind, players and
    start player, nobles); None otherwise. (The content key is no identity: the same entries
    with another start are another evening's game; it finds the game only as ``_restore_keys``
    keeps it, for the file itself.)"""
    key = keys.get("id") if isinstance(keys, Mapping) else None
    if not isinstance(key, str) or not IMPORT_KEY.fullmatch(key):
        return None
    row = db.session.scalars(select(Game).where(Game.log_id_key == key).limit(1)).first()
    if row is not None and row.id not in others and row.game == kind and _same_setup(row.setup, setup):
        return row.id
    return None


def _restore_keys(row: Game, keys: Any) -> None:
    """A backup's ``import_keys`` of one of its games (``content``: ``Game.import_key``, ``id``:
    ``Game.log_id_key``): each kept where the game has none and no other game here holds it, so
    the id-less file (or another tool's id) it was imported from is found again after a restore,
    not stored twice. Anything else in the field is ignored."""
    if not isinstance(keys, Mapping):
        return
    for name, column in (("content", Game.import_key), ("id", Game.log_id_key)):
        key = keys.get(name)
        if not isinstance(key, str) or not IMPORT_KEY.fullmatch(key) or getattr(row, column.key) is not None:
            continue
        if db.session.scalar(select(Game.id).where(column == key).limit(1)) is None:
            setattr(row, column.key, key)
            db.session.flush()


def _restore_next_game(row: Game, next_id: Any) -> None:
    """A backup's ``next_game`` of one of its games: kept when it names another stored game
    of the same people, started after it (a table's next game), else ignored."""
    if not isinstance(next_id, str) or not is_game_id(next_id) or next_id == row.id or row.next_game_id:
        return
    following = db.session.get(Game, next_id)
    if following is None or following.started < row.started:
        return
    seats = people.seats_of([row.id, next_id])
    if {p.id for p in seats[row.id]} == {p.id for p in seats[next_id]}:
        row.next_game_id = next_id


def check_log(log: Any) -> Any:
    """Replay a log without storing it; returns the final state or raises ``RuleError``."""
    return _replay_log(log)[2]


# ----------------------------------------------------------------------- joining and watching

#: Join codes: 6 characters without look-alikes (no 0/O, 1/I/L), valid for 15 minutes.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
CODE_MINUTES = 15


def join_code(game_id: str) -> JoinCode:
    """A join code for the game: the current one while it has 5+ minutes left, else a new one."""
    now = utcnow()
    current = db.session.scalars(
        select(JoinCode).where(JoinCode.game_id == game_id, JoinCode.expires_at > now + timedelta(minutes=5))
        .order_by(JoinCode.expires_at.desc())
    ).first()
    if current is not None:
        return current
    db.session.execute(JoinCode.__table__.delete().where(JoinCode.expires_at <= now))
    for _ in range(10):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if db.session.get(JoinCode, code) is None:
            row = JoinCode(code=code, game_id=game_id, expires_at=now + timedelta(minutes=CODE_MINUTES))
            db.session.add(row)
            db.session.commit()
            return row
    raise RuntimeError("no free join code")  # pragma: no cover - 31**6 codes


#: What a join code may be typed with between its characters ("25G-3XW", "25G.3XW").
_CODE_SEPARATORS = frozenset("-‐‑‒–—―._·・")


def resolve_code(code: Any) -> str | None:
    """The game a typed join code opens, or None (unknown or expired). Case, width (a Korean
    keyboard's full-width letters), spaces, dashes and dots ignored ("25G-3XW", "9 T N 8 N X")."""
    if not isinstance(code, str):
        return None
    # separators dropped; any other character (a Hangul letter typed by mistake) is a wrong code
    code = "".join(ch for ch in unicodedata.normalize("NFKC", code)
                   if not (ch.isspace() or ch in _CODE_SEPARATORS or unicodedata.category(ch) == "Cf")).upper()
    if not (code.isascii() and code.isalnum()):
        return None
    if len(code) != CODE_LENGTH:
        return None
    row = db.session.get(JoinCode, code)
    if row is None or row.expires_at <= utcnow():
        return None
    return row.game_id


def game_deleted(game_id: str) -> bool:
    """True when the game was deleted (or is gone): a join code given before is then refused,
    since the phone joining would find a game its table put away, with its Restore button."""
    row = game_row(game_id)
    return row is None or row.deleted_at is not None


def spectator_id(game_id: str) -> str:
    """The game's read-only key, made on first use. Raises ``GameNotFound``."""
    row = game_row(game_id)
    if row is None:
        raise GameNotFound(game_id)
    if row.spectator_id is None:
        # written only while still none: two phones opening Share at once show the same link
        db.session.execute(update(Game).where(Game.id == row.id, Game.spectator_id.is_(None))
                           .values(spectator_id=new_id()).execution_options(synchronize_session=False))
        db.session.commit()
        db.session.refresh(row)
    return row.spectator_id


def renew_spectator_id(game_id: str) -> str:
    """Give the game a new read-only key and return it; the old spectator link then shows
    nothing (a link posted where it should not be). Raises ``GameNotFound``."""
    row = game_row(game_id)
    if row is None:
        raise GameNotFound(game_id)
    row.spectator_id = new_id()
    db.session.commit()
    return row.spectator_id


def game_id_for_spectator(sid: str) -> str:
    """The game a spectator key shows. Raises ``GameNotFound``."""
    found = db.session.scalar(select(Game.id).where(Game.spectator_id == sid)) if is_game_id(sid) else None
    if found is None:
        raise GameNotFound(sid)
    return found


def sync_standing() -> int:
    """Write the listing's turn and seat to act (``_summary``) of every game in progress stored
    before they were kept (``games.turn`` NULL), from its replay, as ``people.sync`` attaches
    old games' seats: History then says whose turn it is in each (a tester: it said nothing for
    them while the home page said "Ana's turn · Turn 19"). One query when none is left; a game
    written meanwhile keeps what its write stored. Returns how many were written."""
    rows = list(db.session.scalars(select(Game).where(Game.status == "active", Game.turn.is_(None))))
    for row in rows:
        state = load_row(row).state
        db.session.execute(update(Game).where(Game.id == row.id, Game.version == row.version)
                           .values(turn=state.turn, to_play=state.current_player)
                           .execution_options(synchronize_session=False))
    if rows:
        db.session.commit()
    return len(rows)


def player_names(game_id: str) -> list[str] | None:
    """The names game ``game_id`` was set up with, in seat order; None for no such game."""
    row = db.session.get(Game, game_id) if is_game_id(game_id) else None
    return list(row.setup["players"]) if row is not None else None


def seat_in(game_id: str, key: str) -> int | None:
    """The seat of game ``game_id`` where the person whose ``person_key`` is ``key`` sits
    (through renames and merges, ``people.seat_of``); None for nobody there or no such game."""
    names = player_names(game_id)
    return people.seat_of(key, names) if names is not None else None


def claim_seat(game_id: str, phone: str, seat: int | None) -> None:
    """One phone each: ``phone`` (the random id of its ``phone`` cookie) is ``seat``'s in game
    ``game_id`` (it answered "Whose phone is this?", or it was that player's already from an
    earlier game); None ("Everyone's") takes its earlier seat back. Writes only when that is
    news (one indexed read otherwise); two writes racing keep one (never an error)."""
    kept = db.session.scalar(select(PhoneClaim.seat).where(PhoneClaim.game_id == game_id, PhoneClaim.phone == phone))
    if kept == seat:
        return
    try:
        db.session.execute(delete(PhoneClaim).where(PhoneClaim.game_id == game_id, PhoneClaim.phone == phone))
        if seat is not None:
            db.session.add(PhoneClaim(game_id=game_id, phone=phone, seat=seat))
        db.session.commit()
    except IntegrityError:
        db.session.rollback()


def seats_taken(game_id: str, phone: str | None) -> set[int]:
    """The seats of game ``game_id`` that a phone other than ``phone`` answered "Whose phone is
    this?" with (``claim_seat``): what the question tells a phone joining the game."""
    query = select(PhoneClaim.seat).where(PhoneClaim.game_id == game_id)
    if phone:
        query = query.where(PhoneClaim.phone != phone)
    return set(db.session.scalars(query))
