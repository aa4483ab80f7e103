"""Statistics for the history and player pages, from the games' listing summary.

Wins, routes, seats and turns come from ``Game.status``/``result``/``setup`` (written with the
event that finished the game), so no game is replayed here; royal cards taken are counted from
the applied ``take_royal`` events in one query. Duel-only figures (routes, first/second player,
turns to win, royal cards) count Duel games only; Splendor games count in games, wins and
head-to-head.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta


from sqlalchemy import and_, func, or_, select

from . import people
from .db import db
from .models import Event, Game, GamePlayer, Player
from .service import is_game_id

#: Games on one history page (a game night is never split: the page ends after the night of its
#: last game, so a page may hold a few more).
HISTORY_PAGE = 100
KINDS = ("duel", "splendor")
STATUSES = ("active", "finished", "deleted")
ROUTES = ("prestige", "crowns", "color")


@dataclass
class GameRecord:
    """One game as the history shows it: the row, the people per seat, the last activity."""

    row: Game
    people: list[Player]
    last_activity: datetime | None = None

    @property
    def id(self) -> str:
        """The game id."""
        return self.row.id

    @property
    def names(self) -> list[str]:
        """The people's current names per seat (as recorded when no seats are known)."""
        return [p.name for p in self.people] or list(self.row.setup.get("players", []))

    @property
    def winners(self) -> list[int]:
        """Winning seats (empty while active)."""
        return people.winner_seats(self.row) if self.row.status == "finished" else []

    @property
    def winner_names(self) -> list[str]:
        """The winners' names."""
        return [self.names[s] for s in self.winners if s < len(self.names)]

    @property
    def routes(self) -> list[str]:
        """Duel victory routes (``prestige``, ``crowns``, ``color``); empty otherwise."""
        return list(((self.row.result or {}).get("winner") or {}).get("routes", []))

    @property
    def score(self) -> int | None:
        """Splendor: the winning prestige (S-4); None otherwise (a Duel names its routes)."""
        winner = (self.row.result or {}).get("winner") or {}
        score = winner.get("prestige") if self.row.game == "splendor" else None
        return score if isinstance(score, int) and not isinstance(score, bool) else None

    @property
    def tie_break(self) -> bool:
        """Splendor: the win was decided by S-4's tie-break (someone else had as much prestige
        but more development cards). Known for games finished or imported since it was kept."""
        return bool((self.row.result or {}).get("tie_break")) and self.row.game == "splendor"

    @property
    def to_play(self) -> str | None:
        """While in progress (and not deleted): the name of the player to act (``to_play``)."""
        return to_play(self.row, self.names) if self.row.deleted_at is None else None

    @property
    def turns(self) -> int | None:
        """Turns played, for a finished game."""
        return (self.row.result or {}).get("turns")

    @property
    def duration(self) -> timedelta | None:
        """Start to finish, or to the last entry while active; None when unknown or under a minute."""
        end = self.row.finished or self.last_activity
        if end is None or (end - self.row.started).total_seconds() < 60:
            return None  # imported games carry no real times
        return end - self.row.started


def to_play(row: Game, names: list[str]) -> str | None:
    """The name (of ``names``, by seat) of the player to act in a game in progress, by its
    listing columns (``games.to_play``, ``games.turn``, written with its last entry); None for
    a finished game, or one whose columns are not written yet (``service.sync_standing``)."""
    seat = row.to_play
    if row.status != "active" or row.turn is None or seat is None:
        return None
    return names[seat] if 0 <= seat < len(names) else None


def history(player: int | None = None, kind: str | None = None, status: str | None = None,
            older: str | None = None, limit: int = HISTORY_PAGE, opponent: int | None = None,
            ) -> tuple[list[GameRecord], str | None]:
    """One page of games, newest first, filtered by person, game kind and status (``deleted``
    lists deleted ones): ``(records, last)``, ``last`` the id of the page's last game when older
    games follow (the next page is ``older=last``), else None. ``opponent``: only the games
    ``player`` played with that person too (head to head).

    ``older``: a game's id; the page starts after it (the games started before it, by start
    time then id), so games started meanwhile never shift a page. An unknown id gives the
    first page. The page holds ``limit`` games and the rest of its last game's night
    (``people.night_day``), so a night's tally is never cut in two (unless a night has more
    than twice ``limit`` games).

    Three queries whatever the number of games (four with ``older``): games, seats with people,
    last entries.
    """
    query = select(Game)
    query = query.where(Game.deleted_at.is_not(None) if status == "deleted" else Game.deleted_at.is_(None))
    if status in ("active", "finished"):
        query = query.where(Game.status == status)
    if kind in KINDS:
        query = query.where(Game.game == kind)
    if player is not None:
        query = query.where(Game.id.in_(select(GamePlayer.game_id).where(GamePlayer.player_id == player)))
        if opponent is not None:
            query = query.where(Game.id.in_(select(GamePlayer.game_id).where(GamePlayer.player_id == opponent)))
    cursor = db.session.execute(select(Game.started, Game.id).where(Game.id == older)).first() \
        if is_game_id(older) else None
    if cursor is not None:
        query = query.where(or_(Game.started < cursor.started, and_(Game.started == cursor.started, Game.id < cursor.id)))
    query = query.order_by(Game.started.desc(), Game.id.desc())
    rows = list(db.session.scalars(query.limit(2 * limit + 1)))  # a night may run on past the page
    more = len(rows) > limit
    if more:
        night, end = people.night_day(rows[limit - 1].started), limit
        while end < 2 * limit and end < len(rows) and people.night_day(rows[end].started) == night:
            end += 1
        more, rows = len(rows) > end, rows[:end]
    return records(rows), (rows[-1].id if more else None)


def record(game_id: str) -> GameRecord | None:
    """One game (deleted or not) as the history shows it; None for an unknown id."""
    row = db.session.get(Game, game_id) if isinstance(game_id, str) and len(game_id) <= 64 else None
    return records([row])[0] if row is not None else None


def records(rows: list[Game]) -> list[GameRecord]:
    """Wrap game rows with their people and last activity (two queries)."""
    ids = [r.id for r in rows]
    seats = people.seats_of(ids)
    last: dict[str, datetime] = {}
    if ids:
        query = select(Event.game_id, func.max(Event.created)).where(Event.game_id.in_(ids)).group_by(Event.game_id)
        last = {g: t for g, t in db.session.execute(query)}
    return [GameRecord(row=r, people=seats.get(r.id, []), last_activity=last.get(r.id)) for r in rows]


def rate(won: int, played: int) -> float | None:
    """``won / played`` or None when nothing was played."""
    return won / played if played else None


@dataclass
class Versus:
    """A head-to-head record against one opponent in one game (games both played, finished or not).

    Each finished game together counts once: ``wins`` (this player won, the opponent did not),
    ``losses`` (the other way round), ``shared`` (a classic Splendor win both share, S-4) or
    ``third_party`` (neither won: a third player of Splendor did)."""

    player: Player
    #: ``duel`` or ``splendor``: each game's record is kept apart ("who wins our Duels?").
    kind: str = "duel"
    games: int = 0
    finished: int = 0
    wins: int = 0
    losses: int = 0
    shared: int = 0
    third_party: int = 0


@dataclass
class PlayerStats:
    """Everything the player page shows (see the module docstring for what counts)."""

    player: Player
    games: int = 0
    finished: int = 0
    wins: int = 0
    duel_finished: int = 0
    duel_wins: int = 0
    routes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ROUTES, 0))
    first: list[int] = field(default_factory=lambda: [0, 0])
    second: list[int] = field(default_factory=lambda: [0, 0])
    turns_to_win: list[int] = field(default_factory=list)
    royals: int = 0
    versus: list[Versus] = field(default_factory=list)
    recent: list[GameRecord] = field(default_factory=list)
    by_kind: dict[str, list[int]] = field(default_factory=dict)
    #: Classic Splendor, finished games: ``{players at the table: [games, wins]}``, games begun
    #: as first player ``[games, wins]``, and wins shared with another player (S-4).
    splendor_tables: dict[int, list[int]] = field(default_factory=dict)
    splendor_first: list[int] = field(default_factory=lambda: [0, 0])
    splendor_shared: int = 0

    @property
    def splendor_first_rate(self) -> float | None:
        """Classic Splendor win rate when this player started."""
        return rate(self.splendor_first[1], self.splendor_first[0])

    @property
    def splendor_sizes(self) -> list[tuple[int, int, int, float | None]]:
        """Classic Splendor per table size: ``(players, finished games, wins, win rate)``."""
        return [(n, g, w, rate(w, g)) for n, (g, w) in sorted(self.splendor_tables.items())]

    @property
    def win_rate(self) -> float | None:
        """Wins over finished games."""
        return rate(self.wins, self.finished)

    @property
    def kinds(self) -> list[tuple[str, int, int, int, float | None]]:
        """Per kind of game played (``duel`` first): ``(kind, games, finished, wins, win rate)``."""
        return [(kind, *self.by_kind[kind], rate(self.by_kind[kind][2], self.by_kind[kind][1]))
                for kind in sorted(self.by_kind, key=lambda k: (k != "duel", k))]

    @property
    def first_rate(self) -> float | None:
        """Duel win rate when this player started."""
        return rate(self.first[1], self.first[0])

    @property
    def second_rate(self) -> float | None:
        """Duel win rate when the opponent started."""
        return rate(self.second[1], self.second[0])

    @property
    def average_turns_to_win(self) -> float | None:
        """Mean turns of the Duel games this player won."""
        return sum(self.turns_to_win) / len(self.turns_to_win) if self.turns_to_win else None


def player_stats(player: Player, recent: int = 20) -> PlayerStats:
    """The statistics of one person over every game not deleted (four queries, no replay)."""
    rows = list(db.session.scalars(
        select(Game).where(Game.deleted_at.is_(None),
                           Game.id.in_(select(GamePlayer.game_id).where(GamePlayer.player_id == player.id)))
        .order_by(Game.started.desc())
    ))
    recs = records(rows)
    out = PlayerStats(player=player, recent=recs[:recent])
    versus: dict[tuple[str, int], Versus] = {}
    duel_seats: dict[str, list[int]] = {}
    for rec in recs:
        row = rec.row
        mine = [s for s, p in enumerate(rec.people) if p.id == player.id]
        if not mine:
            continue
        out.games += 1
        kind = out.by_kind.setdefault(row.game, [0, 0, 0])  # games, finished, wins
        kind[0] += 1
        won = any(s in rec.winners for s in mine)
        finished = row.status == "finished"
        if finished:
            out.finished += 1
            kind[1] += 1
            out.wins += won
            kind[2] += won
        if row.game == "duel":
            if finished:  # (like every figure of the Duel section: a game still played counts none)
                duel_seats[row.id] = mine
                out.duel_finished += 1
                out.duel_wins += won
                started = row.setup.get("first_player") in mine
                bucket = out.first if started else out.second
                bucket[0] += 1
                bucket[1] += won
                if won:
                    for r in rec.routes:
                        if r in out.routes:
                            out.routes[r] += 1
                    if rec.turns:
                        out.turns_to_win.append(rec.turns)
        elif finished:  # classic Splendor
            size = out.splendor_tables.setdefault(len(row.setup.get("players", [])), [0, 0])
            size[0] += 1
            size[1] += won
            if row.setup.get("first_player") in mine:
                out.splendor_first[0] += 1
                out.splendor_first[1] += won
            out.splendor_shared += won and len(rec.winners) > 1
        for seat, other in enumerate(rec.people):
            # (an imported game of two names merged since: the other seat is this person's old name,
            # no opponent; a tester's head to head read "Tae-ho: 1 game, 1 – 0" on Tae's page)
            if other.id == player.id or (other.merged_into is not None and people.kept(other).id == player.id):
                continue
            v = versus.setdefault((row.game, other.id), Versus(player=other, kind=row.game))
            v.games += 1
            if finished:
                other_won = seat in rec.winners
                v.finished += 1
                v.wins += won and not other_won
                v.losses += other_won and not won
                v.shared += won and other_won
                v.third_party += not won and not other_won
    out.royals = royals_taken(duel_seats)
    out.versus = sorted(versus.values(), key=lambda v: (KINDS.index(v.kind), -v.games, v.player.name.lower()))
    return out


def royals_taken(seats_by_game: dict[str, list[int]]) -> int:
    """Royal cards taken by the given seats of the given games (applied ``take_royal`` events; the
    player page gives it the finished Duel games, as its other Duel figures count them)."""
    if not seats_by_game:
        return 0
    count = 0
    query = select(Event.game_id, Event.data).where(Event.game_id.in_(list(seats_by_game)), Event.undone.is_(False))
    for game_id, data in db.session.execute(query):
        if isinstance(data, dict) and data.get("type") == "take_royal" and data.get("player") in seats_by_game[game_id]:
            count += 1
    return count


@dataclass
class PlayerLine:
    """A row of the players list: ``games`` counts every game not deleted, ``playing`` those of
    them not finished yet (said beside the count, so that wins are read against finished games)."""

    player: Player
    games: int
    wins: int
    playing: int = 0

    @property
    def win_rate(self) -> float | None:
        """Wins over the finished games (0–1), None before the first game ends (``percent``
        says "–"), as the player page counts it."""
        return self.wins / self.finished if self.finished else None

    @property
    def finished(self) -> int:
        """The games of ``games`` that ended (the win rate's base, said beside it)."""
        return self.games - self.playing


def player_lines() -> list[PlayerLine]:
    """Every person with their games and wins (two queries), most games first."""
    everyone = people.players()
    counts = {pid: n for pid, n in db.session.execute(
        select(GamePlayer.player_id, func.count()).join(Game, Game.id == GamePlayer.game_id)
        .where(Game.deleted_at.is_(None)).group_by(GamePlayer.player_id)
    )}
    wins: Counter[int] = Counter()
    ended: Counter[int] = Counter()
    finished = db.session.execute(
        select(Game, GamePlayer.seat, GamePlayer.player_id).join(GamePlayer, GamePlayer.game_id == Game.id)
        .where(Game.deleted_at.is_(None), Game.status == "finished")
    )
    for row, seat, pid in finished:
        ended[pid] += 1
        if seat in people.winner_seats(row):
            wins[pid] += 1
    lines = [PlayerLine(player=p, games=counts.get(p.id, 0), wins=wins[p.id],
                        playing=counts.get(p.id, 0) - ended[p.id]) for p in everyone]
    return sorted(lines, key=lambda line: (-line.games, line.player.name.lower()))


def percent(value: float | None) -> str:
    """``67%`` or an en dash when there is no value; a half rounds up (5 of 8 is 63%, 3 of 8 38%:
    Python's ``round`` gave 62% and 38%, halves to the even number)."""
    if value is None:
        return "–"
    return f"{math.floor(round(value * 100, 6) + 0.5)}%"



def tenths(value: float | None) -> str:
    """``69.3`` (one decimal) or an en dash when there is no value; a half rounds up as
    ``percent``'s does (an average of 69.25 turns read "69.2")."""
    if value is None:
        return "–"
    tens = math.floor(round(value * 10, 6) + 0.5)
    return f"{tens // 10}.{tens % 10}"
