"""What the review page shows: the log turn by turn in plain words, the position after any
turn (both players' panels as they were), and per-turn charts.

Everything comes from one replay of the applied events (``engine.steps``); the players are
shown under their current names once the game is over (a renamed person reads as renamed in
old games too), and a game still in progress under the names its screen shows, as recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from flask_babel import pgettext
from flask_babel import lazy_gettext as _l

from . import charts, narrate, people, screen
from .rules import catalog, duel, splendor
from .rules.errors import RuleError
from .rules.tokens import GEM_COLORS, TOKEN_KINDS
from .service import GameView

KIND_NAMES = {"duel": _l("Splendor Duel"), "splendor": _l("Splendor")}
#: Splendor's prestige goal (S-4), for the chart's goal line.
SPLENDOR_PRESTIGE = 15


@dataclass
class Turn:
    """One turn: its number, whose turn it was (the seat to act when it began: a correction
    made before that player's first entry belongs to their turn too), its sentences, the
    position after it, and ``going``: the game's last turn, not yet ended (a pending discard or
    royal card, a privilege used before the main action, or a correction alone)."""

    number: int
    seat: int | None
    name: str
    lines: list[str] = field(default_factory=list)
    after: Any = None
    going: bool = False


def _sentence(event: Any, before: Any, after: Any) -> str:
    """The plain-words sentence of an event (the same narration as the game log, both games)."""
    return narrate.describe(event, before, after)


def _replay(view: GameView, names: list[str]) -> tuple[Any, list[Turn]]:
    """The setup state and the turns, replayed under ``names``."""
    setup = dict(view.row.setup, players=names)
    try:
        start = view.engine.replay(setup, ())
        steps = list(view.engine.steps(setup, view.events))
    except RuleError:
        # Setup refuses these names (two seats merged into one person): use them as recorded.
        setup = view.row.setup
        start = view.engine.replay(setup, ())
        steps = list(view.engine.steps(setup, view.events))
    turns: list[Turn] = []
    for event, before, after in steps:
        if not turns or turns[-1].number != before.turn:
            seat = before.current_player
            turns.append(Turn(number=before.turn, seat=seat, name=before.players[seat].name))
        turn = turns[-1]
        turn.lines.append(_sentence(event, before, after))
        turn.after = after
    if turns:
        last = turns[-1].after
        turns[-1].going = last.winner is None and last.turn == turns[-1].number
    return start, turns


def _splendor_panel(state: Any, seat: int) -> dict[str, Any]:
    p = state.players[seat]
    return {
        "seat": seat, "name": p.name, "prestige": p.prestige,
        "bonuses": [{"kind": c, "letter": screen.LETTERS[c], "count": p.bonuses[c]} for c in GEM_COLORS],
        "tokens": screen.token_row(p.tokens, GEM_COLORS + ("gold",)),
        "token_total": p.tokens.total, "cards": len(p.cards), "nobles": len(p.nobles),
        # which cards were reserved, as the game screen shows them (a tester's review said only "res 2")
        "reserved": screen.reserved_views(p, catalog.development_cards()),
        "noble_tiles": [screen.noble_view(n) for n in p.nobles], "is_current": False,
        # S-4: the winner's panel framed as in a Duel (a shared win frames each)
        "is_winner": state.winner is not None and seat in screen.winning_seats(state.winner),
    }


def panels(state: Any) -> list[dict[str, Any]]:
    """Every player's panel in a position (Duel: the game screen's panel)."""
    if state.game == "duel":
        return [dict(screen.panel(state, seat), is_current=False) for seat in range(len(state.players))]
    return [_splendor_panel(state, seat) for seat in range(len(state.players))]


def _series(start: Any, turns: list[Turn], pick: Any) -> list[list[int]]:
    states = [start] + [t.after for t in turns]
    return [[pick(s.players[seat]) for s in states] for seat in range(len(start.players))]


def review_context(view: GameView, at: Any = None, sid: str | None = None) -> dict[str, Any]:
    """The review of a game, positioned after turn ``at`` (default: the last turn; 0 = setup).
    ``sid``: a spectator's review, reached from their link, whose page must not reveal the
    game's id (its write key): ``game_id`` is None and its own links are ``/watch/<sid>/review``."""
    row = view.row
    # (a game in progress: its screen's names until it ends, as for a rename or merge meanwhile)
    names = people.display_names(row) if view.state.status == "finished" else list(row.setup.get("players", []))
    start, turns = _replay(view, names)
    last = turns[-1].number if turns else 0
    numbers = [0] + [t.number for t in turns]
    try:
        wanted = int(at) if at not in (None, "") and str(at).isascii() else last  # (not "３" or "٣")
    except (TypeError, ValueError):
        wanted = last
    wanted = min(max(wanted, 0), last)
    index = max(i for i, n in enumerate(numbers) if n <= wanted)
    position = start if index == 0 else turns[index - 1].after
    current = None if index == 0 else turns[index - 1]
    names = [p.name for p in start.players]
    if row.game == "duel":
        chart_list = [
            charts.line_chart("prestige", _("Prestige"), names, _series(start, turns, lambda p: p.prestige),
                              duel.PRESTIGE_TO_WIN, numbers[index]),
            charts.line_chart("crowns", _("Crowns"), names, _series(start, turns, lambda p: p.crowns),
                              duel.CROWNS_TO_WIN, numbers[index]),
            charts.line_chart("color", _("Best colour"), names, _series(start, turns, lambda p: p.best_color[1]),
                              duel.COLOR_POINTS_TO_WIN, numbers[index]),
        ]
        goals = {"prestige": duel.PRESTIGE_TO_WIN, "crowns": duel.CROWNS_TO_WIN, "color": duel.COLOR_POINTS_TO_WIN,
                 "tokens": duel.TOKEN_LIMIT, "reserved": duel.MAX_RESERVED}
    else:
        chart_list = [charts.line_chart("prestige", pgettext("splendor", "Prestige"), names,
                                        _series(start, turns, lambda p: p.prestige), SPLENDOR_PRESTIGE, numbers[index])]
        goals = {"prestige": SPLENDOR_PRESTIGE, "tokens": splendor.TOKEN_LIMIT}
    winner = view.to_json().get("winner") if view.state.status == "finished" else None
    winners = people.winner_seats(row) if winner else []
    return {
        "view": view,
        "game_id": None if sid else row.id,
        "sid": sid,
        "review_endpoint": "share.watch_review" if sid else "history.game_review",
        "review_args": {"sid": sid} if sid else {"game_id": row.id},
        "kind": row.game,
        "kind_name": KIND_NAMES.get(row.game, row.game),
        "row": row,
        "names": names,
        "seat_people": people.seats_of([row.id])[row.id],
        "winner_names": [names[s] for s in winners if s < len(names)],
        "routes": [narrate.ROUTE_NAMES[r] for r in (winner or {}).get("routes", []) if r in narrate.ROUTE_NAMES],
        "score": (winner or {}).get("prestige") if row.game == "splendor" else None,  # S-4: the winning prestige
        "tie_break": bool(winner) and row.game == "splendor" and bool(splendor.beaten_on_cards(view.state)),
        "finished": winner is not None,
        "turns": turns,
        "last": last,
        "at": numbers[index],
        "prev": numbers[index - 1] if index > 0 else None,
        "next": numbers[index + 1] if index + 1 < len(numbers) else None,
        "current": current,
        # the last step of a game in progress whose turn has ended: who plays next (the heading
        # said "in progress, turn 19" over "18 / 18", nothing said whose turn it was: a tester)
        "to_act": (names[view.state.current_player] if winner is None and numbers[index] == last and current
                   and not current.going and view.state.current_player < len(names) else None),
        "panels": [dict(p, is_current=current is not None and p["seat"] == current.seat) for p in panels(position)],
        "goals": goals,
        "charts": chart_list,
        "letters": screen.LETTERS,
        # the table at that moment: classic Splendor's nobles still on display, supply and final
        # round (S-4); Duel's board, bag, privileges in supply and royal cards still to come (a
        # tester looked for the board around a correction)
        "table": {
            "board": screen.token_row(position.board, TOKEN_KINDS),
            "bag_total": position.bag.total,
            "privileges_supply": position.privileges_supply,
            "royals": [screen.royal_view(r) for r in position.royals_available],
        } if row.game == "duel" else {
            "nobles": [screen.noble_view(n) for n in position.nobles_available],
            "supply": screen.token_row(position.board, GEM_COLORS + ("gold",)),
            "final_round": position.final_round and position.winner is None,
        },
    }
