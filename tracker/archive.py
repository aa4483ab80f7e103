"""Export and import helpers beyond the service's logs: file names, the CSV of all games, and
the key that makes an id-less log import only once.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import re
import unicodedata
from datetime import datetime
from typing import Any, Mapping

from sqlalchemy import select

from . import people
from .db import db
from .models import Game
from .rules.errors import N_, RuleError
from .rules.text import person_key

#: Seats given columns in the CSV (Splendor has up to 4 players).
CSV_SEATS = 4
#: The fields ``legacy_log_key`` hashed (``id`` aside, which an id-less log lacks).
KEY_FIELDS = ("format", "game", "players", "first_player", "nobles", "events", "started", "finished", "result")


def read_json(raw: bytes | str) -> Any:
    """The JSON of a request body or an uploaded file (a game log, a history backup): UTF-8 with
    or without its byte-order mark, UTF-16 or UTF-32 (as RFC 8259's readers detect them). An
    integer of thousands of digits is still JSON, and becomes an infinite float that every field
    refuses as not a whole number in its range (422). Raises ``ValueError`` (a body that is not
    JSON, or not text, or ``NaN``/``Infinity``, which Python's reader takes but RFC 8259 has no
    such value), ``RepeatedName`` (an object naming one member twice: which one is meant is
    anyone's guess, RFC 8259 §4) or ``RecursionError`` (nested too deep)."""
    if isinstance(raw, bytes) and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    return json.loads(raw, parse_int=_whole_number, parse_constant=_no_constant, object_pairs_hook=_unique_names)


class RepeatedName(ValueError):
    """A JSON object names one member twice (``{"red": 1, "red": 3}``); ``name`` is that name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"the name {name!r} is given twice in one object")
        self.name = name

    def refusal(self, code: str) -> RuleError:
        """The refusal of a request whose JSON this is: ``code`` (``bad_event``, ``bad_setup``,
        ``bad_log``) with a sentence naming the member (its first 64 characters), for a 422."""
        return RuleError(code, N_('The JSON gives "%(name)s" twice in one object: give each name once.'),
                         name=self.name[:64])


def _unique_names(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for name, _value in pairs:
            if name in seen:
                raise RepeatedName(name)
            seen.add(name)
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (RFC 8259)")


def _whole_number(digits: str) -> int | float:
    if len(digits) > 40:
        return float("-inf") if digits.startswith("-") else float("inf")
    return int(digits)


def log_key(kind: str, setup: Mapping[str, Any], events: list[dict[str, Any]], started: datetime | None,
            *, exact: bool = False) -> str:
    """A stable game id for a checked log that has none: 32 URL-safe characters hashed from the
    game it records (its kind, setup, events as ``event_to_dict`` writes them, start time in UTC
    seconds), so however the file spells them (key order, a time zone, fields added to an event,
    the names' case, the nobles' order) the same game gets the same id and a second import is a
    no-op; two different games (other people, events or start time) get different ids.

    ``exact``: the names and nobles as the file gives them (the key of logs imported before
    names and nobles were told apart as people and tiles are; still looked up)."""
    fixed = {k: setup.get(k) for k in SETUP_FIELDS}
    if not exact:
        players, nobles = fixed.get("players"), fixed.get("nobles")
        if isinstance(players, list) and all(isinstance(n, str) for n in players):
            fixed["players"] = [person_key(n) for n in players]
        if isinstance(nobles, list):
            fixed["nobles"] = sorted(nobles, key=str)
    content = {"game": kind, "setup": fixed, "events": events,
               "started": started.strftime("%Y-%m-%dT%H:%M:%S") if started else None}
    return _hashed(content)


def legacy_log_key(log: Mapping[str, Any]) -> str:
    """The id an id-less log was stored under before ``log_key`` (hashed from the file's own
    spelling of its fields): a file imported then is still found, not stored twice."""
    return _hashed({k: log.get(k) for k in KEY_FIELDS})


#: The setup fields that tell one game from another (Splendor's nobles; None in a Duel).
SETUP_FIELDS = ("players", "first_player", "nobles")


def foreign_id_key(log_id: str) -> str:
    """The key (``Game.log_id_key``) of a log whose ``id`` is another tool's ("custom-1", not
    shaped as ours): a second log under that id finds the game, as GAME-LOG.md says a stored id
    is never imported twice. 32 URL-safe characters, apart from every content key."""
    return _hashed({"foreign_id": log_id})


def _hashed(content: Mapping[str, Any]) -> str:
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, default=str)
    # "surrogatepass": a malformed name must still hash; the import then refuses it (bad_log).
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    return "log-" + base64.urlsafe_b64encode(digest[:21]).decode()


def filename(row: Game, names: list[str], ext: str = "json", started: datetime | None = None) -> tuple[str, str]:
    """A game's file names: ``(name, ascii_name)``, e.g. ``splendor-duel-2026-11-29-1903-민준-ben.json``
    and ``splendor-duel-2026-11-29-1903-ben.json``: kind, start date and time (``started``, the
    reader's local time, else the stored UTC one: two games of one table and day get two files)
    and the player names, in the first their letters, digits and marks of any script (a vowel
    sign, a virama), in the second only ASCII letters and digits (the header's plain ``filename``)."""
    when = started or row.started
    kind = "splendor-duel" if row.game == "duel" else "splendor"
    stem = f"{kind}-{when:%Y-%m-%d-%H%M}"

    def slug(keep: Any) -> str:
        words = ("".join(ch if keep(ch) else "-" for ch in unicodedata.normalize("NFKC", n).casefold()) for n in names)
        text = re.sub(r"-+", "-", "-".join(words)).strip("-")
        return text[:60].strip("-") or "game"

    def any_script(ch: str) -> bool:
        return unicodedata.category(ch)[0] in "LNM"

    def ascii_only(ch: str) -> bool:
        return ch in "abcdefghijklmnopqrstuvwxyz0123456789"

    return f"{stem}-{slug(any_script)}.{ext}", f"{stem}-{slug(ascii_only)}.{ext}"


def _figures(row: Game) -> list[dict[str, Any]]:
    """Each seat's final prestige, crowns, cards bought and best colour (a replay); empty for an
    unknown kind."""
    from . import service  # the service imports this module

    if row.game not in service.ENGINES:
        return []
    view = service.load(row.id)
    out = []
    for p in view.engine.to_json(view.state)["players"]:
        best = p.get("best_color")
        points = p.get("color_points") or {}
        # colours tied for the best (D-11.3) all named, as the review names them: "white/blue"
        tied = "/".join(c for c in points if best and points[c] == points[best])
        out.append({"prestige": p.get("prestige"), "crowns": p.get("crowns", ""), "cards": len(p.get("cards") or ()),
                    "best_color": tied, "best_points": points.get(best, 0) if best else
                    ("" if "color_points" not in p else 0)})
    return out


#: A cell a spreadsheet would read as a formula starts with one of these (OWASP's CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """A text cell as a spreadsheet must show it: a name typed as ``=1+2`` or ``@SUM(A1)`` gets a
    leading apostrophe so it is read as text, never run as a formula. Numbers are kept."""
    return "'" + value if isinstance(value, str) and value.startswith(_FORMULA_START) else value


def history_csv() -> str:
    """Every game not deleted, oldest first, one CSV row each: start and end (UTC), players,
    winner, routes, turns, the nobles dealt (classic Splendor) and each seat's final prestige,
    crowns, best colour and cards bought (Splendor's tie-break; blank where a game has none);
    last, the "best of N" series a game was played in (``series``: its number, ``series_best_of``)."""
    rows = list(db.session.scalars(select(Game).where(Game.deleted_at.is_(None)).order_by(Game.started)))
    seats = people.seats_of(r.id for r in rows)
    series = people.series_links()
    out = io.StringIO()
    writer = csv.writer(out)
    # Times in UTC (the column says so; a spreadsheet still reads them as dates).
    header = ["id", "date_utc", "finished_utc", "game", "status", "players", "winner", "routes", "turns", "nobles"]
    for n in range(1, CSV_SEATS + 1):
        header += [f"p{n}_name", f"p{n}_prestige", f"p{n}_crowns", f"p{n}_best_colour", f"p{n}_best_colour_points",
                   f"p{n}_cards"]
    writer.writerow(header + ["series", "series_best_of"])
    for row in rows:
        names = [p.name for p in seats.get(row.id, [])] or list(row.setup.get("players", []))
        winners = people.winner_seats(row) if row.status == "finished" else []
        routes = ((row.result or {}).get("winner") or {}).get("routes", [])
        line = [row.id, f"{row.started:%Y-%m-%d %H:%M}", f"{row.finished:%Y-%m-%d %H:%M}" if row.finished else "",
                row.game, row.status, " · ".join(names), " · ".join(names[s] for s in winners if s < len(names)),
                " ".join(routes), (row.result or {}).get("turns", ""), " ".join(row.setup.get("nobles") or ())]
        figures = _figures(row)
        for seat in range(CSV_SEATS):
            if seat < len(names):
                f = figures[seat] if seat < len(figures) else {}
                line += [names[seat], f.get("prestige", ""), f.get("crowns", ""), f.get("best_color", ""),
                         f.get("best_points", ""), f.get("cards", "")]
            else:
                line += ["", "", "", "", "", ""]
        line += list(series.get(row.id, ("", "")))
        writer.writerow([_cell(v) for v in line])
    return out.getvalue()


def set_deleted(game_id: str, deleted: bool) -> Game | None:
    """Mark a game deleted (kept, listed under deleted games) or restore it; None if unknown.

    Nothing is ever removed: a deleted game keeps its events and comes back as it was.
    """
    from .models import utcnow

    row = db.session.get(Game, game_id)
    if row is None:
        return None
    if deleted and row.deleted_at is None:
        row.deleted_at = utcnow()
    elif not deleted:
        row.deleted_at = None
    db.session.commit()
    return row
