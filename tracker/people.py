"""Players as people and table sessions: the only module that knows the ``players``,
``game_players``, ``table_sessions`` and ``session_games`` tables.

A name typed at setup is matched to a person by its normalized form (case, width and spacing
ignored). The game's ``setup["players"]`` keeps the names as recorded (the log never changes);
``GamePlayer`` rows say which person sat in each seat, so renaming a person or merging two
changes what every page shows without touching a log.

Table sessions ("game nights") are either explicit (a ``TableSession`` started as "best of N",
later games joining it) or automatic: games on the same day between the same people.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Any, Callable, Iterable, Mapping, Sequence

from flask_babel import ngettext, to_user_timezone
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from .db import db
from .models import Event, Game, GamePlayer, Player, SessionGame, TableSession, utcnow
from .rules.errors import N_, RuleError
from .rules.text import MAX_NAME, name_refusal, person_key

#: Series lengths offered when a session is started on purpose.
BEST_OF = (3, 5, 7)
_DAY = timedelta(days=1)


# ------------------------------------------------------------------------------------ names


def clean_name(name: Any) -> str:
    """A display name as setup accepts it (1 to 40 visible characters); raises ``RuleError("bad_name")``."""
    refusal = name_refusal(name)
    if refusal is not None:
        raise RuleError("bad_name", refusal, max=MAX_NAME)
    return " ".join(name.split())


def _insert_player(name: str, key: str) -> None:
    """Insert a player unless its normalized name exists (safe against a concurrent insert)."""
    dialect = db.session.get_bind().dialect.name
    values = {"name": name, "normalized": key, "created": utcnow()}
    if dialect in ("sqlite", "postgresql"):
        if dialect == "sqlite":
            from sqlalchemy.dialects.sqlite import insert
        else:
            from sqlalchemy.dialects.postgresql import insert
        db.session.execute(insert(Player).values(**values).on_conflict_do_nothing(index_elements=["normalized"]))
    elif db.session.scalar(select(Player.id).where(Player.normalized == key)) is None:  # pragma: no cover
        db.session.add(Player(**values))
        db.session.flush()


def player_for(name: str) -> Player:
    """The person a typed name stands for, created on first use; an alias leads to the kept player."""
    text = " ".join(str(name).split()) or "?"
    key = person_key(text)
    player = db.session.scalar(select(Player).where(Player.normalized == key))
    if player is None:
        _insert_player(text[:MAX_NAME], key)
        player = db.session.scalar(select(Player).where(Player.normalized == key))
    return _kept(player)


def _key_of(name: Any) -> str:
    """The ``person_key`` of a name as typed (blanks inside it single, ends stripped)."""
    return person_key(" ".join(str(name).split()) or "?")


def same_name(a: Any, b: Any) -> bool:
    """Whether two names as typed are one name here (case, width and spacing aside)."""
    return _key_of(a) == _key_of(b)


def _named(name: str) -> Player | None:
    """The player row a typed name matches (a person, or an alias a merge or rename left), if any."""
    return _named_by_key(_key_of(name))


def _named_by_key(key: str) -> Player | None:
    return db.session.scalar(select(Player).where(Player.normalized == key))


def check_seats(names: Sequence[str]) -> None:
    """Refuse a new game whose seats are one person under two names: a name left by a merge or
    a rename (an alias) means its person here, so "Evie" and "Eve" after Evie was merged into Eve
    are one player (setup's own check, ``text.player_names``, tells names apart only by how they
    are written). Looks up, creates nothing. Raises ``RuleError("bad_setup")`` naming both."""
    seated: dict[int, str] = {}
    for name in names:
        typed = " ".join(str(name).split())
        player = _named(typed)
        if player is None:
            continue
        kept = _kept(player)
        if kept.id in seated:
            other = seated[kept.id]
            if kept.normalized not in (person_key(other), person_key(typed)):  # two other names of a third
                raise RuleError("bad_setup", N_("%(first)s and %(second)s are both names of %(person)s: each "
                                                "player needs a different name."),
                                first=other, second=typed, person=kept.name)
            alias = typed if person_key(other) == kept.normalized else other
            raise RuleError("bad_setup", N_("%(alias)s is another name of %(person)s: each player needs a "
                                            "different name."), alias=alias, person=kept.name)
        seated[kept.id] = typed


#: A game in progress is being played right now when its last entry, or its start, is this recent.
PLAYING_NOW = timedelta(minutes=30)


def namesakes_playing(names: Sequence[str], exclude: str | None = None) -> list[tuple[str, Game]]:
    """The names of a game about to start whose person is being played right now: seated in a
    game in progress (not deleted, an entry or its start within ``PLAYING_NOW``) among other
    people. A second "Min" typed at a café's other table is that same person for History and the
    players' figures (one name, one player: a tester's evening mixed two Mins' games), so the
    home form asks first. ``[(name as typed, that game)]``, each name once, the most recently
    played game; a game of exactly these people (the table playing on) and ``exclude`` (the game
    this phone is on) are none of them. Looks up, creates nothing (a few indexed queries)."""
    people = identities(names)
    known = {who: name for name, (kind, who) in zip(names, people) if kind == "person"}
    if not known:
        return []
    rows = db.session.execute(
        select(GamePlayer.player_id, Game)
        .join(Game, Game.id == GamePlayer.game_id)
        .where(GamePlayer.player_id.in_(list(known)), Game.status == "active", Game.deleted_at.is_(None))
    ).all()
    if not rows:
        return []
    games = {row.id: row for _pid, row in rows}
    last = dict(db.session.execute(
        select(Event.game_id, func.max(Event.created)).where(Event.game_id.in_(list(games)), Event.undone.is_(False))
        .group_by(Event.game_id)).all())
    since = utcnow() - PLAYING_NOW
    seats = seats_of(games)
    # (looked up again after those games: a name another request was just seating, as the same
    # form tapped twice at once, is its person by now; before, the game would read as other people)
    wanted = {who for _kind, who in identities(names)}
    played = {gid: max(row.started, last.get(gid) or row.started) for gid, row in games.items()}
    found: dict[int, Game] = {}
    for pid, row in rows:
        if played[row.id] < since or row.id == exclude or {p.id for p in seats[row.id]} == wanted:
            continue
        if pid not in found or played[row.id] > played[found[pid].id]:
            found[pid] = row
    return [(known[pid], row) for pid, row in found.items()]


def identities(names: Sequence[str], memo: dict[str, tuple[str, Any]] | None = None) -> list[tuple[str, Any]]:
    """Who each of ``names`` (as typed or recorded) is now, through renames and merges:
    ``("person", id)`` of the person a known name leads to (its own, or one a merge or a rename
    left), else ``("name", person_key)`` for a name nobody has. Two lists seat the same people
    when their identities match in any order ("Chloe" before her rename is "Chloé" after it).
    ``memo``, a dict the caller keeps, spares the lookup of a name seen before. Looks up,
    creates nothing."""
    memo = {} if memo is None else memo
    out = []
    for name in names:
        key = _key_of(name)
        if key not in memo:
            player = None if "\x00" in key else _named_by_key(key)
            memo[key] = ("person", _kept(player).id) if player is not None else ("name", key)
        out.append(memo[key])
    return out


def seat_of(key: str, names: Sequence[str]) -> int | None:
    """The seat of ``names`` (a game's recorded names) where the person whose name has the
    ``person_key`` ``key`` sits, found through renames and merges ("bena" finds Benedict, once
    Bena was renamed); None when nobody there is that person. Looks up, creates nothing. A key
    no name has (a cookie's NUL, which PostgreSQL's text refuses) is nobody's."""
    if "\x00" in key:
        return None
    direct = next((seat for seat, name in enumerate(names) if person_key(name) == key), None)
    if direct is not None:
        return direct
    row = db.session.scalar(select(Player).where(Player.normalized == key))
    if row is None:
        return None
    wanted = _kept(row).id
    for seat, name in enumerate(names):
        player = _named(name)
        if player is not None and _kept(player).id == wanted:
            return seat
    return None


def kept(player: Player) -> Player:
    """The person ``player`` is now: itself, or the player it was merged into (through any
    chain of merges). One query per merge followed; none for a player never merged."""
    return _kept(player)


def _kept(player: Player) -> Player:
    seen = set()
    while player.merged_into is not None and player.id not in seen:
        seen.add(player.id)
        player = db.session.get(Player, player.merged_into)
    return player


# ------------------------------------------------------------------------------ game seats


def attach(row: Game, payload: Mapping[str, Any] | None = None) -> None:
    """Record who sits in each seat of a new game (and the session it joins); no commit.

    Called by the service in the transaction that stores the game. ``payload`` may carry
    ``best_of`` (start a session, 3/5/7) or ``session`` (the id of an undecided session of
    the same people to continue); anything else there is ignored.
    """
    db.session.flush()
    names = row.setup.get("players", [])
    kept = [player_for(name) for name in names]
    typed = [_named(n) or k for n, k in zip(names, kept)]
    # One person under two names ("Eve" and "Evie", merged since: an imported log, or a merge
    # racing this game; a new game is refused before, ``check_seats``): the seat typed with the
    # person's own name (else the first) is the person, the others keep the old name typed, so
    # the person plays once.
    seats: list[Player] = []
    for i, person in enumerate(kept):
        twins = [j for j, other in enumerate(kept) if other.id == person.id]
        own = next((j for j in twins if typed[j].id == person.id), twins[0])
        seats.append(person if len(twins) == 1 or i == own else typed[i])  # (setup refuses one name twice)
    for seat, player in enumerate(seats):
        db.session.add(GamePlayer(game_id=row.id, seat=seat, player_id=player.id))
    if payload:
        _join_session(row, {p.id for p in seats}, payload)


def sync() -> int:
    """Attach every stored game that has no seats yet (games from before players existed).

    Returns how many games were attached. Idempotent; a concurrent sync is harmless.
    """
    missing = select(Game).where(~select(GamePlayer.game_id).where(GamePlayer.game_id == Game.id).exists())
    rows = list(db.session.scalars(missing))
    if not rows:
        return 0
    try:
        for row in rows:
            attach(row)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return 0
    return len(rows)


def seats_of(game_ids: Iterable[str]) -> dict[str, list[Player]]:
    """The people in each game's seats, in seat order (one query)."""
    ids = list(game_ids)
    out: dict[str, list[Player]] = {gid: [] for gid in ids}
    if not ids:
        return out
    query = (
        select(GamePlayer.game_id, Player)
        .join(Player, Player.id == GamePlayer.player_id)
        .where(GamePlayer.game_id.in_(ids))
        .order_by(GamePlayer.game_id, GamePlayer.seat)
    )
    for game_id, player in db.session.execute(query):
        out[game_id].append(player)
    return out


def display_names(row: Game) -> list[str]:
    """The names to show for a game's seats: the people's current names, else as recorded."""
    return names_of([row])[row.id]


def names_of(rows: Sequence[Game]) -> dict[str, list[str]]:
    """``{game id: the names to show for its seats}`` for ``rows`` (one query): the people's
    current names (after a rename or merge), else the names as recorded in the game's setup."""
    seats = seats_of(row.id for row in rows)
    out = {}
    for row in rows:
        recorded = list(row.setup.get("players", []))
        people = seats[row.id]
        out[row.id] = [p.name for p in people] if len(people) == len(recorded) else recorded
    return out


# ---------------------------------------------------------------------------------- people


def players() -> list[Player]:
    """Every person (aliases of merged players left out), by name."""
    return list(db.session.scalars(select(Player).where(Player.merged_into.is_(None)).order_by(func.lower(Player.name))))


def players_with_games(*, status: str | None = None, keep: int | None = None) -> list[Player]:
    """The people History's Player filter offers, by name: those with a game the Status filter
    lists (``status``: ``None`` every game not deleted, ``"active"`` or ``"finished"`` those not
    deleted in that status, ``"deleted"`` the deleted ones), and the person ``keep`` (an id: the
    one chosen) in any case. A person whose every game was deleted is left out, as on the
    Players page (a tester chose such a name and got "No games match.")."""
    played = select(GamePlayer.player_id).join(Game, Game.id == GamePlayer.game_id)
    if status == "deleted":
        played = played.where(Game.deleted_at.is_not(None))
    else:
        played = played.where(Game.deleted_at.is_(None))
        if status is not None:
            played = played.where(Game.status == status)
    shown = Player.id.in_(played)
    if keep is not None:
        shown = shown | (Player.id == keep)
    return list(db.session.scalars(select(Player).where(Player.merged_into.is_(None), shown)
                                   .order_by(func.lower(Player.name))))


def known_names(limit: int = 200) -> list[str]:
    """Names to suggest while typing a new game's players: those who played most recently first."""
    last = func.max(Game.started)
    query = (
        select(Player.name)
        .join(GamePlayer, GamePlayer.player_id == Player.id)
        .join(Game, Game.id == GamePlayer.game_id)
        .where(Player.merged_into.is_(None), Game.deleted_at.is_(None))
        .group_by(Player.id, Player.name)
        .order_by(last.desc(), func.lower(Player.name))
        .limit(limit)
    )
    return list(db.session.scalars(query))


def get(player_id: int) -> tuple[Player | None, bool]:
    """``(player, is_alias)``: the person with this id, or the kept player when it was merged."""
    player = db.session.get(Player, player_id)
    if player is None:
        return None, False
    kept = _kept(player)
    return kept, kept.id != player.id


def rename(player_id: int, new_name: Any) -> Player:
    """Give a person a new display name (shown everywhere; logs keep the names as recorded).
    The old name stays an alias: typed again, it means this person.

    Raises ``RuleError``: ``bad_name`` (not a name), ``name_taken`` (someone else has it:
    merge them instead, or choose another name when they sat at a game together; also when
    another rename or a new game took it at the same moment),
    ``not_found``.
    """
    for _attempt in range(2):  # a name taken meanwhile: asked again, it is refused as taken
        try:
            return _rename(player_id, new_name)
        except IntegrityError:
            db.session.rollback()
    raise RuleError("name_taken", N_("%(name)s is already a player: merge the two instead."), name=clean_name(new_name))


def _rename(player_id: int, new_name: Any) -> Player:
    player, _alias = get(player_id)
    if player is None:
        raise RuleError("not_found", N_("There is no such player."))
    name = clean_name(new_name)
    key = person_key(name)
    other = db.session.scalar(select(Player).where(Player.normalized == key, Player.id != player.id))
    if other is not None:
        holder = _kept(other)
        if holder.id != player.id:
            if _played_together(holder.id, player.id):  # two people: a merge would be refused too
                if other.merged_into is not None:
                    raise RuleError("name_taken", N_("%(name)s is already another name of %(holder)s, who sat at a "
                                                     "game with %(person)s: choose another name."),
                                    name=other.name, holder=holder.name, person=player.name)
                raise RuleError("name_taken", N_("%(name)s is another player, who sat at a game with %(person)s: "
                                                 "choose another name."), name=other.name, person=player.name)
            if other.merged_into is not None:
                raise RuleError("name_taken", N_("%(name)s is already another name of %(person)s: merge the two "
                                                 "instead."), name=other.name, person=holder.name)
            raise RuleError("name_taken", N_("%(name)s is already a player: merge the two instead."), name=other.name)
        if db.session.scalar(select(GamePlayer.game_id).where(GamePlayer.player_id == other.id).limit(1)):
            # an imported game seats this person under both names: that seat keeps the old name
            raise RuleError("name_taken", N_("%(name)s sits beside %(person)s in an imported game (one person "
                                             "under two names): choose another name."),
                            name=other.name, person=player.name)
        # The name is an old alias of this very person: it becomes the name again, and the alias
        # takes the name left, so every link to either (a history filter, a player page) still leads here.
        _trade_names(player, other, name)
    else:
        old_name, old_key = player.name, player.normalized
        player.name = name
        player.normalized = key
        if old_key != key:  # the old name, still typed at the table, keeps leading here (as a merge's does)
            db.session.flush()
            db.session.add(Player(name=old_name, normalized=old_key, created=utcnow(), merged_into=player.id))
    db.session.commit()
    return player


def _trade_names(player: Player, alias: Player, name: str) -> None:
    """``player`` takes ``name`` (whose key ``alias``, one of its other names, holds) and ``alias``
    the name ``player`` had: both rows stay, so both ids still lead to ``player``. Flushes, does not
    commit (the key is unique: the alias steps aside under a key no typed name has)."""
    old_name, old_key = player.name, player.normalized
    _forget(alias)  # (for a moment: it takes ``player``'s old key below)
    db.session.flush()
    player.name, player.normalized = name, person_key(name)
    db.session.flush()
    alias.name, alias.normalized = old_name, old_key
    db.session.flush()


def _played_together(a_id: int, b_id: int) -> bool:
    """Whether the people ``a_id`` and ``b_id`` sat at one game (two people, never one). One query."""
    a_games = select(GamePlayer.game_id).where(GamePlayer.player_id == a_id)
    return bool(db.session.scalar(select(func.count()).select_from(GamePlayer)
                                  .where(GamePlayer.player_id == b_id, GamePlayer.game_id.in_(a_games))))


def merge(keep_id: int, other_id: int, other_name: bool = False) -> Player:
    """Merge ``other`` into ``keep``: every seat of ``other`` moves to ``keep``.

    ``other`` stays as an alias, so its name still matches ``keep`` and its link still leads
    there. With ``other_name`` the person is called by ``other``'s name from then on (the alias
    keeps ``keep``'s old name; both ids still lead to the person). Raises ``RuleError("not_found")``, ``RuleError("same_player")`` or
    ``RuleError("played_together")`` (both sat at one game: two people, and a game would list
    the same person twice) or ``RuleError("already_merged")`` (another phone merged one of the
    two at the same moment).
    """
    keep, other = check_merge(keep_id, other_id)
    # Two phones merging these two the other way round at the same moment: the second merge
    # must not close a circle (each merged into the other, both gone from every list). The rows
    # are locked in id order (PostgreSQL), and the merge writes only while neither is merged
    # yet, checked by the write itself (SQLite, whose writes wait for each other).
    db.session.execute(select(Player.id).where(Player.id.in_([keep.id, other.id])).order_by(Player.id)
                       .with_for_update())
    still_kept = ~select(Player.id).where(Player.id == keep.id, Player.merged_into.is_not(None)).exists()
    done = db.session.execute(update(Player).where(Player.id == other.id, Player.merged_into.is_(None), still_kept)
                              .values(merged_into=keep.id).execution_options(synchronize_session=False))
    if done.rowcount != 1:
        db.session.rollback()
        raise RuleError("already_merged", N_("One of the two was merged meanwhile (on another phone): look at the "
                                             "players again."))
    db.session.execute(update(GamePlayer).where(GamePlayer.player_id == other.id).values(player_id=keep.id))
    db.session.execute(update(Player).where(Player.merged_into == other.id).values(merged_into=keep.id))
    if other_name:
        _trade_names(keep, other, other.name)
    db.session.commit()
    return keep


def aliases_of(player_id: int) -> list[Player]:
    """The other names that lead to this person (left by renames and merges), by name."""
    rows = db.session.scalars(select(Player).where(Player.merged_into == player_id, _not_forgotten()))
    return sorted(rows, key=lambda p: (p.normalized, p.id))


def _seated_as(player_id: int) -> bool:
    """Whether a game seats someone under this player row itself (an alias seated in an imported
    game: its name stays its person's)."""
    return db.session.scalar(select(GamePlayer.game_id).where(GamePlayer.player_id == player_id).limit(1)) is not None


#: How a forgotten name's key begins: no person key does (``person_key`` trims blanks).
FORGOTTEN = " "


def _forget(alias: Player) -> None:
    """Free an alias's name (``forget_alias``): the row stays, so its id still leads to the person,
    under a key no typed name has (``FORGOTTEN`` and its id; PostgreSQL refuses NUL). No commit."""
    alias.normalized = f"{FORGOTTEN}{alias.id}"


def _is_forgotten(alias: Player) -> bool:
    """Whether ``alias`` is a name ``_forget`` freed."""
    return alias.normalized.startswith(FORGOTTEN)


def _not_forgotten() -> Any:
    """Rows whose key a typed name can have: not a forgotten name's (``forget_alias`` keeps the row,
    so its id still leads to the person, under a ``FORGOTTEN`` key)."""
    return ~Player.normalized.startswith(FORGOTTEN)


def forget_alias(player_id: int, alias_id: Any) -> str:
    """Forget one of a person's other names (a rename's typo): typed at the table again, it
    is a new person's name. The person's games stay theirs. Returns the name forgotten.

    Raises ``RuleError``: ``not_found`` (no such person, or not one of their names),
    ``alias_seated`` (an imported game seats the person under that name: it is still theirs).
    """
    wanted = small_int(alias_id)
    alias = db.session.get(Player, wanted) if wanted is not None else None
    if alias is None or alias.merged_into != player_id or _is_forgotten(alias):
        raise RuleError("not_found", N_("That is not one of this player's names (forgotten already?)."))
    if _seated_as(alias.id):
        raise RuleError("alias_seated", N_("A game seats %(person)s as %(name)s, so that name stays theirs."),
                        person=_kept(alias).name, name=alias.name)
    name = alias.name
    # the name is free again; the row stays, so a link to its id (a merge may have left the
    # person's first id here, with their old name) still leads to the person
    _forget(alias)
    db.session.commit()
    return name


def merge_candidates(player_id: int) -> tuple[list[Player], int]:
    """The people ``merge`` would accept to merge into ``player_id``, by name, and how many
    others are left out because they sat at a game with them (``check_merge``'s
    ``played_together``: two people): ``(candidates, left_out)``. Two queries."""
    their_games = select(GamePlayer.game_id).where(GamePlayer.player_id == player_id)
    played_with = set(db.session.scalars(select(GamePlayer.player_id).where(GamePlayer.game_id.in_(their_games))))
    rows = [p for p in players() if p.id != player_id]
    candidates = [p for p in rows if p.id not in played_with]
    return candidates, len(rows) - len(candidates)


def check_merge(keep_id: int, other_id: int) -> tuple[Player, Player]:
    """The two players ``merge`` would join, ``(keep, other)``, when they may be joined; raises
    the ``RuleError`` ``merge`` documents otherwise (asked before the confirmation too)."""
    keep, _a = get(keep_id)
    other, _b = get(other_id)
    if keep is None or other is None:
        raise RuleError("not_found", N_("There is no such player."))
    if keep.id == other.id:
        raise RuleError("same_player", N_("Choose two different players to merge."))
    if _played_together(keep.id, other.id):
        raise RuleError("played_together", N_("%(keep)s and %(other)s played in the same game, so they are "
                                              "two people: they cannot be merged."),
                        keep=keep.name, other=other.name)
    return keep, other


# ---------------------------------------------------------------------------- table sessions


#: Largest id a form or payload may name (a 32-bit database integer).
MAX_ID = 2**31 - 1


def small_int(value: Any) -> int | None:
    """``value`` as a positive database id, or None (bad text, bool, float, out of range). Text
    is ASCII digits only: Python's ``int()`` also reads "٣" or "３" (a tester merged a player
    with an Arabic-Indic digit) and "1_0"."""
    if isinstance(value, str):
        value = value.strip()
        if not (value.isascii() and value.isdigit() and len(value) <= 10):
            return None
        number = int(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        return None
    return number if 0 < number <= MAX_ID else None


def _join_session(row: Game, people: set[int], payload: Mapping[str, Any]) -> None:
    """Put a new game in the session the payload names (if it is undecided, has these people
    and is of this game: a Duel is no game of a classic Splendor series) or in a new "best of N"
    session."""
    session_id = small_int(payload.get("session"))
    if session_id is not None:
        info = session_info(session_id)
        if (info is not None and not info.decided and set(info.people) == people
                and all(g.game == row.game for g in info.games)):
            db.session.add(SessionGame(game_id=row.id, session_id=session_id))
            return
    best_of = small_int(payload.get("best_of"))
    if best_of in BEST_OF:
        ts = TableSession(best_of=best_of, created=utcnow())
        db.session.add(ts)
        db.session.flush()
        db.session.add(SessionGame(game_id=row.id, session_id=ts.id))


@dataclass
class TableNight:
    """A table session: its games (oldest first), the people and the running tally.

    ``key`` is ``"s<id>"`` for an explicit session, ``"d<date>:<kind>:<ids>"`` for an automatic one.
    ``tally`` is ``[(player, wins)]`` in seat order of the first game; a win shared (classic
    Splendor, S-4) is no one's win there but counted in ``shared``, as head to head counts it.
    """

    key: str
    explicit: bool
    best_of: int | None
    day: date
    games: list[Game] = field(default_factory=list)
    people: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    wins: dict[int, int] = field(default_factory=dict)
    session_id: int | None = None
    shared: int = 0
    seated: dict[str, list[int]] = field(default_factory=dict)  # game id -> the person in each seat

    def count(self, row: Game) -> None:
        """Add a finished game's result to the tally (its seats' people from ``seated``, else the
        session's): one win for a sole winner, a shared win for several (S-4: nobody's alone, as
        head to head counts it); an unfinished game counts nothing."""
        if row.status != "finished":
            return
        seated = self.seated.get(row.id, self.people)
        winners = [seat for seat in winner_seats(row) if 0 <= seat < len(seated)]
        if len(winners) == 1:
            self.wins[seated[winners[0]]] = self.wins.get(seated[winners[0]], 0) + 1
        elif winners:
            self.shared += 1

    def before(self, game_id: str) -> "TableNight":
        """The session as it stood when the game ``game_id`` began: its games before that one
        and their tally (a "best of N" strip says the score before the game shown, also once
        that game is finished, in case its win is undone). The whole session if ``game_id`` is
        not among its games."""
        return self._first_games(game_id, 0)

    def through(self, game_id: str) -> "TableNight":
        """The session as it stood once the game ``game_id`` was over: its games up to that one,
        that one included, and their tally (a finished game's turn line says the series score its
        win made, the banner closed). The whole session if ``game_id`` is not among its games."""
        return self._first_games(game_id, 1)

    def _first_games(self, game_id: str, more: int) -> "TableNight":
        """The session of its games before ``game_id`` and ``more`` more (0 or 1), tallied again."""
        ids = [g.id for g in self.games]
        if game_id not in ids:
            return self
        first = replace(self, games=self.games[:ids.index(game_id) + more], wins={}, shared=0)
        for row in first.games:
            first.count(row)
        return first

    @property
    def tally(self) -> list[tuple[str, int]]:
        """``[(name, wins)]`` in seat order."""
        return [(n, self.wins.get(p, 0)) for p, n in zip(self.people, self.names)]

    @property
    def late(self) -> bool:
        """Whether a game of the session began after midnight (``after_midnight``): its day,
        the evening's, is then said to run late into the night."""
        return any(after_midnight(g.started) for g in self.games)

    @property
    def latest_day(self) -> date:
        """The game night (``night_day``, the reader's time zone) of the session's latest game."""
        return night_day(self.games[-1].started) if self.games else self.day

    @property
    def tonight(self) -> bool:
        """True while the session's latest game belongs to the current game night: a tally of an
        older night is named by its day."""
        return self.latest_day == night_day(utcnow())

    @property
    def decided(self) -> bool:
        """True when a best-of series has a winner (more than half the games won)."""
        return self.best_of is not None and any(w > self.best_of // 2 for w in self.wins.values())

    @property
    def overdecided(self) -> bool:
        """True when a best-of series' tally cannot have been played: two people with more than
        half the games, or a winner with more wins than deciding it took (a game counted that
        joined after the decision: ``leave_decided_series``)."""
        if self.best_of is None:
            return False
        needed = self.best_of // 2 + 1
        return sum(w >= needed for w in self.wins.values()) >= 2 or max(self.wins.values(), default=0) > needed

    @property
    def series_winner(self) -> str | None:
        """The name of who won a decided best-of series (None while it is undecided)."""
        if not self.decided:
            return None
        return next(n for n, w in self.tally if w > (self.best_of or 0) // 2)

    def next_game_args(self, after: str) -> dict[str, Any]:
        """The home page's query for the series' next game after the game ``after``: its game
        (``game=splendor`` for classic Splendor), every seat's name (``player0``…``player3``)
        and the session, for ``url_for("pages.home", **…)``."""
        args: dict[str, Any] = {f"player{i}": name for i, name in enumerate(self.names)}
        if self.games and self.games[-1].game == "splendor":
            args["game"] = "splendor"
        return {**args, "session": self.session_id, "after": after}

    @property
    def tally_text(self) -> str:
        """``Ana 2 – 1 Ben`` for two people; ``Ana 2 · Ben 1 · Cho 0`` for more; then the wins
        shared, if any (``· 1 shared win``, in the reader's language)."""
        t = self.tally
        text = f"{t[0][0]} {t[0][1]} – {t[1][1]} {t[1][0]}" if len(t) == 2 else " · ".join(f"{n} {w}" for n, w in t)
        if self.shared:
            text += " · " + ngettext("%(num)s shared win", "%(num)s shared wins", self.shared)
        return text


def winner_seats(row: Game) -> list[int]:
    """The winning seats of a finished game from its listing summary (Duel or Splendor shape)."""
    winner = (row.result or {}).get("winner") or {}
    if "player" in winner:
        return [winner["player"]]
    return list(winner.get("players", []))


#: A game night runs from this hour of the morning to the same hour the next morning, in the
#: reader's time zone: a game begun after midnight belongs to the evening it continues.
NIGHT_TURNS_AT = timedelta(hours=6)


def _local(started: datetime) -> datetime:
    """A stored time (naive UTC) in the reader's time zone (the ``tz`` cookie), naive; a time the
    zone cannot shift (year 9999) as it is."""
    try:
        return to_user_timezone(started).replace(tzinfo=None)
    except (OverflowError, ValueError):
        return started


def night_day(started: datetime) -> date:
    """The game night a game begun at ``started`` (naive UTC) belongs to: its local date in the
    reader's time zone (the ``tz`` cookie; see ``tracker._timezone``), before 6 a.m. the evening
    before."""
    return (_local(started) - NIGHT_TURNS_AT).date()


def after_midnight(started: datetime) -> bool:
    """True when a game begun at ``started`` (naive UTC) is on a later local date than its game
    night (``night_day``): played after midnight, so a row under the night's day says its date."""
    return _local(started).date() != night_day(started)


def group_sessions(rows: Sequence[Game], seats: Mapping[str, list[Player]]) -> list[TableNight]:
    """Group games into table sessions: explicit ones by their session, the others by game night
    (``night_day``: the reader's local evening) and people.

    ``rows`` in any order; sessions come newest first, their games oldest first.
    """
    links: dict[str, int] = {}
    best: dict[int, int | None] = {}
    if rows:
        links = {g: s for g, s in db.session.execute(
            select(SessionGame.game_id, SessionGame.session_id).where(SessionGame.game_id.in_([r.id for r in rows])))}
    if links:
        best = {s: b for s, b in db.session.execute(
            select(TableSession.id, TableSession.best_of).where(TableSession.id.in_(set(links.values()))))}
    nights: dict[str, TableNight] = {}
    for row in sorted(rows, key=lambda r: r.started):
        people = [p.id for p in seats.get(row.id, [])]
        sid = links.get(row.id)
        day = night_day(row.started)
        # one evening's games of one kind between the same people (a Duel and a Splendor game
        # of the same two are not one score)
        key = f"s{sid}" if sid is not None else f"d{day.isoformat()}:{row.game}:{','.join(map(str, sorted(people)))}"
        night = nights.get(key)
        if night is None:
            night = nights[key] = TableNight(key=key, explicit=sid is not None, best_of=best.get(sid),
                                             day=day, people=people,
                                             names=[p.name for p in seats.get(row.id, [])], session_id=sid)
        night.games.append(row)
        night.seated[row.id] = people
        night.count(row)
    return sorted(nights.values(), key=lambda n: n.games[-1].started, reverse=True)


def session_info(session_id: int) -> TableNight | None:
    """An explicit session with its games (deleted games left out) and tally; None if unknown
    (or not a database id at all, as a typed ``?session=`` may be)."""
    if small_int(session_id) is None or db.session.get(TableSession, session_id) is None:
        return None
    rows = list(db.session.scalars(
        select(Game).join(SessionGame, SessionGame.game_id == Game.id)
        .where(SessionGame.session_id == session_id, Game.deleted_at.is_(None))
    ))
    if not rows:
        ts = db.session.get(TableSession, session_id)
        return TableNight(key=f"s{session_id}", explicit=True, best_of=ts.best_of, day=ts.created.date(),
                          session_id=session_id)
    nights = group_sessions(rows, seats_of(r.id for r in rows))
    return nights[0] if nights else None


def series_of(game_id: str) -> TableNight | None:
    """The "best of N" series a game was started in, with its games and tally; None for a game
    outside any (one indexed read)."""
    sid = db.session.scalar(select(SessionGame.session_id).where(SessionGame.game_id == game_id))
    return session_info(sid) if sid is not None else None


def leave_decided_series(game_id: str) -> TableNight | None:
    """Take a game just restored (history's Restore) or just finished (its ending entry, when the
    series was decided meanwhile by its other games) out of its "best of N" series when counting
    it would break the series: two people with more than half of ``best_of`` wins, or a winner
    with more wins than the series needed. That happens when the series went on, and was decided,
    while the game was deleted (best of 3: game 1 Ana, game 2 Ben then deleted, games 3 Ben and
    4 Ana; game 2 restored read "Ana 2 – 2 Ben · Ana won the series"); also a game still in play
    restored into a series decided meanwhile (its win would break it). The game stays in History,
    a game of its night. Returns the series it left (its games and tally without it), else None;
    the caller commits."""
    def breaks(series: TableNight) -> bool:
        # (a game still in play, restored into a series decided meanwhile: its win would break it later)
        in_play = series.decided and any(g.id == game_id and g.status != "finished" for g in series.games)
        return series.overdecided or in_play

    return _leave_series_when(game_id, breaks)


def leave_replaced_series(game_id: str) -> TableNight | None:
    """Take a game just restored (history's Restore) out of its "best of N" series when it is
    still in play and the series went on without it: a later game of the series was started while
    it was deleted (an abandoned game 2, deleted, then a new game 2 played: restored, the old one
    renumbered the game the table was playing to "game 3", and the series held two games in play:
    an organiser). A finished game restored keeps its place (``leave_decided_series`` decides).
    The game stays in History, a game of its night. Returns the series it left (its games and
    tally without it), else None; the caller commits."""
    def replaced(series: TableNight) -> bool:
        ids = [g.id for g in series.games]  # (by their start)
        return game_id in ids and ids[-1] != game_id and series.games[ids.index(game_id)].status != "finished"

    return _leave_series_when(game_id, replaced)


def _leave_series_when(game_id: str, leaves: Callable[[TableNight], bool]) -> TableNight | None:
    """Take the game ``game_id`` out of its "best of N" series when ``leaves(series)`` says so;
    the series it left (tallied without it), else None. The caller commits."""
    link = db.session.get(SessionGame, game_id)
    if link is None:
        return None
    series = session_info(link.session_id)
    if series is None or series.best_of is None or not leaves(series):
        return None
    db.session.delete(link)
    db.session.flush()
    return session_info(link.session_id)


def night_of(game_id: str) -> TableNight | None:
    """The table session a game belongs to (explicit or automatic), or None for an unknown game."""
    row = db.session.get(Game, game_id)
    if row is None:
        return None
    sid = db.session.scalar(select(SessionGame.session_id).where(SessionGame.game_id == game_id))
    if sid is not None:
        return session_info(sid)
    # every game that may share its local night (whatever the zone: ±14 h, a day each way)
    same_day = list(db.session.scalars(
        select(Game).where(Game.deleted_at.is_(None), Game.started >= row.started - 2 * _DAY,
                           Game.started <= row.started + 2 * _DAY)
    ))
    seats = seats_of(r.id for r in same_day)
    for night in group_sessions(same_day, seats):
        if any(g.id == game_id for g in night.games):
            return night
    return None



# ------------------------------------------------------------------------- history backups


def series_places(game_ids: Sequence[str]) -> dict[str, tuple[int, int]]:
    """``{game id: (best_of, its number in the series)}`` for the games of ``game_ids`` played in
    a "best of N" series, numbered as the series strip numbers them (its games not deleted, by
    start); the home page's list tells a series' games from repeats (a café tester). One query."""
    ids = list(game_ids)
    if not ids:
        return {}
    sessions = select(SessionGame.session_id).where(SessionGame.game_id.in_(ids)).scalar_subquery()
    rows = db.session.execute(
        select(SessionGame.game_id, SessionGame.session_id, TableSession.best_of, Game.started)
        .join(TableSession, TableSession.id == SessionGame.session_id)
        .join(Game, Game.id == SessionGame.game_id)
        .where(SessionGame.session_id.in_(sessions), Game.deleted_at.is_(None), TableSession.best_of.is_not(None))
    ).all()
    counted: dict[int, int] = {}
    out = {}
    for game_id, session_id, best_of, _started in sorted(rows, key=lambda r: r.started):
        counted[session_id] = counted.get(session_id, 0) + 1
        if game_id in ids:
            out[game_id] = (best_of, counted[session_id])
    return out


def series_links() -> dict[str, tuple[int, int | None]]:
    """``{game id: (its session's id, best_of)}`` for every game of an explicit session (one query)."""
    links = db.session.execute(
        select(SessionGame.game_id, TableSession.id, TableSession.best_of)
        .join(TableSession, TableSession.id == SessionGame.session_id))
    return {game_id: (session_id, best_of) for game_id, session_id, best_of in links}


def backup_fields(game_ids: Sequence[str]) -> tuple[dict[str, dict[str, Any]], dict[str, str], list[str]]:
    """What a history backup keeps beside the game logs, so a restore shows the same people and
    series: per game ``{"people": [each seat's person, by current name], "series": {"id", "best_of"}}``
    (series only for a game of an explicit session), the aliases ``{typed name: person's
    name}`` left by merges and renames, and the other names forgotten since (``forget_alias``:
    their games stay their person's, the name typed again is a new person's), sorted (two
    queries and one per alias)."""
    seats = seats_of(game_ids)
    per_game: dict[str, dict[str, Any]] = {gid: {"people": [p.name for p in seats[gid]]} for gid in game_ids}
    for game_id, (session_id, best_of) in series_links().items():
        if game_id in per_game:
            per_game[game_id]["series"] = {"id": session_id, "best_of": best_of}
    others = db.session.scalars(select(Player).where(Player.merged_into.is_not(None))).all()
    aliases = {p.name: _kept(p).name for p in others if not _is_forgotten(p)}
    forgotten = sorted({p.name for p in others if _is_forgotten(p)})
    return per_game, aliases, forgotten


def restore_aliases(logs: Sequence[Mapping[str, Any]], aliases: Any) -> list[int]:
    """Before a backup's games are stored: each alias of the backup, and each seat whose typed
    name is not its person's (a rename), leads to that person here too, so the games attach to the
    same people (a person is made under the backup's display name first). A name this database
    already knows keeps its meaning (nothing is merged unasked); an alias that would seat one
    person twice at a game of the file, or whose person plays no game of it, is left out;
    malformed parts are ignored. Returns the ids of the alias rows added (``keep_restored_aliases``
    drops those no game the file stored needs). No commit."""
    games: list[list[tuple[str, str]]] = []  # per game: (typed name, person's name) by seat
    for log in logs:
        people = log.get("people") if isinstance(log, Mapping) else None
        typed = log.get("players") if isinstance(log, Mapping) else None
        if not isinstance(typed, list) or not all(isinstance(t, str) for t in typed):
            continue
        if not (isinstance(people, list) and len(people) == len(typed) and all(isinstance(p, str) for p in people)):
            people = typed
        games.append(list(zip(typed, people)))
    seated = {person_key(p) for game in games for _t, p in game}
    added: list[int] = []
    wanted: dict[str, str] = {}  # alias key -> person's name
    for alias, person in (aliases.items() if isinstance(aliases, Mapping) else ()):
        if isinstance(alias, str) and isinstance(person, str) and person_key(person) in seated \
                and person_key(alias) != person_key(person):  # "bob" for "Bob" is the person's own name
            wanted.setdefault(person_key(alias), person)
    for game in games:
        for typed, person in game:
            # (a name that is some person's own name in the backup stays theirs: two people who
            # swapped names, or a name passed on along a chain of renames, is no one's alias)
            if person_key(typed) != person_key(person) and person_key(typed) not in seated:
                wanted.setdefault(person_key(typed), person)
    for game in games:  # two seats of one game are two people: drop what would make them one
        typed_keys = {person_key(t) for t, _p in game}
        resolved = [person_key(wanted.get(person_key(t), t)) for t, _p in game]
        for typed, _p in game:
            target = person_key(wanted.get(person_key(typed), typed))
            if target != person_key(typed) and (target in typed_keys or resolved.count(target) > 1):
                wanted.pop(person_key(typed), None)
    names = {person_key(t): t for game in games for t, _p in game}
    for alias, person in aliases.items() if isinstance(aliases, Mapping) else ():
        if isinstance(alias, str):
            names.setdefault(person_key(alias), alias)
    for game in games:  # a person under the backup's display name ("Cleo", typed "cleo")
        for typed, person in game:
            if person_key(typed) == person_key(person) and not name_refusal(person) and not _known(person_key(person)):
                player_for(person)
    for key, person in wanted.items():
        alias = names.get(key)
        if alias is None or name_refusal(alias) or name_refusal(person) or _known(key):
            continue
        kept = player_for(person)
        row = Player(name=" ".join(alias.split())[:MAX_NAME], normalized=key, created=utcnow(), merged_into=kept.id)
        db.session.add(row)
        db.session.flush()
        added.append(row.id)
    for game in games:  # and whatever the file chains: never one person in two seats
        seats = [player_for(t) for t, _p in game if not name_refusal(t)]
        if len({p.id for p in seats}) < len(seats):
            for typed, _p in game:
                alias = db.session.scalar(select(Player).where(Player.normalized == person_key(typed),
                                                               Player.merged_into.is_not(None)))
                if alias is not None and person_key(typed) in wanted:
                    db.session.delete(alias)
                    added = [a for a in added if a != alias.id]
            db.session.flush()
    return added


def keep_restored_aliases(added: Sequence[int], created: Sequence[Game]) -> None:
    """After a backup's games are stored: the alias rows ``restore_aliases`` added (``added``,
    their ids) stay only for people who sit at a game the file stored (``created``). A backup of
    games stored here already brings back no name: a name forgotten since stays forgotten, and
    "Nothing new" changes nobody's names. No commit."""
    if not added:
        return
    seated = {_kept(p).id for players in seats_of([row.id for row in created]).values() for p in players}
    for alias_id in added:
        alias = db.session.get(Player, alias_id)
        if alias is not None and _kept(alias).id not in seated and not _seated_as(alias_id):
            db.session.delete(alias)
    db.session.flush()


def forget_restored(added: Sequence[int], forgotten: Any) -> None:
    """After a backup's games are stored: an alias row ``restore_aliases`` added (``added``, its
    ids) for a name the backup lists as forgotten (``forgotten``: names) is forgotten again, as
    ``forget_alias`` does, unless a game seats its person under it. The games typed with that name
    still lead to their person (it was forgotten with them theirs); typed at a new game, it is a
    new person (a club's restore brought back a forgotten "Dana": a new game's "Dana" went to
    Daniela). Names this database had before are left as they are; malformed parts are ignored.
    No commit."""
    if not added or not isinstance(forgotten, list):
        return
    keys = {person_key(name) for name in forgotten if isinstance(name, str) and not name_refusal(name)}
    for alias_id in added:
        alias = db.session.get(Player, alias_id)
        if alias is not None and alias.normalized in keys and not _seated_as(alias.id):
            _forget(alias)
    db.session.flush()


def seat_as_backed_up(row: Game, names: Any) -> None:
    """A backup's game just stored (``attach`` seated it by its typed names): each seat goes to
    the person the backup names for it (``people``, the person's name then) when the typed name
    leads to someone else here: a name renamed away, forgotten, then typed for a new person (by
    name alone, the first person's games went to the second), two people who swapped names. The
    game's seats are settled together, so a swap or a chain of renames comes out whole; ``names``
    that are malformed, or would seat one person twice, change nothing. No commit."""
    typed = row.setup.get("players", [])
    if not (isinstance(names, list) and len(names) == len(typed) and all(isinstance(n, str) for n in names)) \
            or any(name_refusal(n) for n in names):
        return
    seats = list(db.session.scalars(select(GamePlayer).where(GamePlayer.game_id == row.id)))
    if sorted(seat.seat for seat in seats) != list(range(len(names))):
        return
    wanted: dict[int, Any] = {}  # seat -> the person's id here, or the name of one to make
    for seat in seats:
        sitting = db.session.get(Player, seat.player_id)
        if sitting is None:
            return
        found = _named(names[seat.seat])
        person = _kept(found) if found is not None else None
        if person_key(sitting.name) == person_key(names[seat.seat]) \
                or (person is not None and _kept(sitting).id == person.id):
            wanted[seat.seat] = _kept(sitting).id  # already the person (or seated under their old name)
        else:
            wanted[seat.seat] = person.id if person is not None else names[seat.seat]
    people_wanted = [w if isinstance(w, int) else person_key(w) for w in wanted.values()]
    if len(set(people_wanted)) < len(people_wanted):
        return  # never one person in two seats
    for seat in seats:
        target = wanted[seat.seat]
        if isinstance(target, str):
            seat.player_id = player_for(target).id
        elif _kept(db.session.get(Player, seat.player_id)).id != target:
            seat.player_id = target
    db.session.flush()


def _known(key: str) -> bool:
    return db.session.scalar(select(Player.id).where(Player.normalized == key)) is not None


def restore_series(games: Mapping[str, Any]) -> None:
    """After a backup's games are stored (``games``: stored game id -> the backup's ``series``):
    the games the backup puts in one "best of N" series (``series.id``, N 3, 5 or 7) that seat
    the same people are one series here. A game already in a series here stays in it, and the
    series' other games join it (a backup restored where one of its games was imported before);
    anything else is left a game of its own. A series the file could not have played (two
    winners, or more wins than it needed) keeps the games that decided it, the later ones leave
    it. No commit."""
    seats = seats_of(list(games))
    stored = dict(db.session.execute(
        select(SessionGame.game_id, TableSession).join(TableSession, TableSession.id == SessionGame.session_id)
        .where(SessionGame.game_id.in_(list(games)))).all())
    wanted: dict[Any, list[str]] = {}
    touched: set[int] = set()
    for game_id, series in games.items():
        if not isinstance(series, Mapping):
            continue
        best_of, sid = series.get("best_of"), series.get("id")
        if isinstance(best_of, bool) or best_of not in BEST_OF or not isinstance(sid, (int, str)) or isinstance(sid, bool):
            continue
        wanted.setdefault((sid, best_of, frozenset(p.id for p in seats.get(game_id, []))), []).append(game_id)
    for (_sid, best_of, _people), game_ids in wanted.items():
        session = next((stored[g] for g in game_ids if g in stored and stored[g].best_of == best_of), None)
        for game_id in game_ids:
            if game_id in stored:
                continue
            if session is None:
                session = TableSession(best_of=best_of, created=utcnow())
                db.session.add(session)
                db.session.flush()
            db.session.add(SessionGame(game_id=game_id, session_id=session.id))
        if session is not None:
            touched.add(session.id)
    db.session.flush()
    # a file whose series could not have been played ("Zed 3 – 0 Yan" in a best of 3: a tester's
    # hand-made backup) keeps its games, the series only those it was decided by: latest first,
    # each game leaves as a restore's would (``leave_decided_series``)
    for sid in sorted(touched):
        night = session_info(sid)
        for game in reversed(night.games if night else []):
            leave_decided_series(game.id)
