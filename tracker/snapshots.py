"""Folded games kept in a worker's memory, keyed by (game id, version): a cache, never the truth.

Every request still reads the game row; a snapshot is used only when its ``version`` is the one
the database gives in that request (``service.load``), or it is caught up with the events
stored since (one query for just those rows, when no undo happened in between). The database
stays the source of truth, so any number of gunicorn workers may each keep their own.

A snapshot also keeps the game log's sentences per language (``lines``) and the last few
``(event, before, after)`` steps, so a page narrates only the entries that are new.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable

#: Steps kept per snapshot to extend the log's sentences without a replay.
MAX_TAIL = 32

Step = tuple[Any, Any, Any]  # (event, state before, state after)


@dataclass
class Snapshot:
    """One game at one version: its applied events, the folded state and derived text.

    ``last_seq`` is the ``seq`` of the last applied event (0 when there is none). ``game`` and
    ``setup`` are the row's kind and setup (they never change), so a write at this very version
    needs no read of the game row. ``after_undo``: this version was written by an undo. ``tail``
    holds the steps of the last ``len(tail)`` events; ``lines`` maps a key (the language) to
    the log sentences of the first ``len(lines[key])`` events.
    """

    version: int
    last_seq: int
    events: tuple[Any, ...]
    state: Any
    game: str
    setup: Any
    tail: tuple[Step, ...] = ()
    lines: dict[Hashable, tuple[str, ...]] = field(default_factory=dict)
    after_undo: bool = False  # the version's write was an undo (it raised no alert)

    def extended(self, version: int, last_seq: int, steps: Iterable[Step]) -> "Snapshot":
        """The snapshot after appending ``steps`` (each ``(event, before, after)``) at ``version``."""
        steps = tuple(steps)
        return Snapshot(
            version=version,
            last_seq=last_seq,
            events=self.events + tuple(s[0] for s in steps),
            state=steps[-1][2] if steps else self.state,
            tail=(self.tail + steps)[-MAX_TAIL:],
            lines=dict(self.lines),
            game=self.game,
            setup=self.setup,
        )

    def without_last(self, version: int, last_seq: int, events: tuple[Any, ...], state: Any) -> "Snapshot":
        """The snapshot after an undo of the last event (``events``/``state``: the refolded game)."""
        n = len(events)
        return Snapshot(
            version=version,
            last_seq=last_seq,
            events=events,
            state=state,
            tail=self.tail[:-1],
            lines={k: v[:n] for k, v in self.lines.items()},
            game=self.game,
            setup=self.setup,
            after_undo=True,
        )

    def narrated(self, key: Hashable, describe: Callable[[Any, Any, Any], str], steps: Callable[[], Iterable[Step]]) -> list[str]:
        """``describe(event, before, after)`` for every event, oldest first; kept per ``key``.

        Only the sentences not yet known are made, from ``tail``; ``steps()`` (a full replay)
        is used when the tail does not reach back far enough.
        """
        n = len(self.events)
        known = self.lines.get(key, ())
        missing = n - len(known)
        if missing == 0:
            return list(known)
        if 0 < missing <= len(self.tail):
            lines = known + tuple(describe(*step) for step in self.tail[len(self.tail) - missing :])
        else:
            lines = tuple(describe(*step) for step in steps())
        self.lines[key] = lines
        return list(lines)


class SnapshotCache:
    """A bounded, thread-safe map of game id to its latest known ``Snapshot`` (least recently used go first)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[str, Snapshot] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Snapshot | None:
        """The snapshot kept for ``game_id`` (any version), if any."""
        with self._lock:
            snap = self._data.get(game_id)
            if snap is not None:
                self._data.move_to_end(game_id)
            return snap

    def put(self, game_id: str, snap: Snapshot) -> None:
        """Keep ``snap`` unless a newer version of the game is already kept."""
        if self.size <= 0:
            return
        with self._lock:
            old = self._data.get(game_id)
            if old is not None and old.version > snap.version:
                return
            self._data[game_id] = snap
            self._data.move_to_end(game_id)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def forget(self, game_id: str) -> None:
        """Drop what is kept for ``game_id`` (call it if a game is ever removed for good)."""
        with self._lock:
            self._data.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._data)
