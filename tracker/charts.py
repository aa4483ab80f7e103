"""Line charts drawn on the server: the geometry of an SVG (no JavaScript, no inline style).

``line_chart`` turns per-turn values into polylines, axis ticks, a goal line and a marker at
the turn being replayed; ``templates/partials/chart.html`` draws it with presentation
attributes (``stroke``, ``fill``) and CSS classes, so the strict CSP holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

#: One stroke colour and dash pattern per seat, so lines differ without colour vision too.
SEAT_STROKES = ("#7b2d8e", "#c2620a", "#1f7a3a", "#1f5fbf")  # app.css --seat0..3
SEAT_DASHES = ("", "7 4", "2 3", "9 3 2 3")
WIDTH, HEIGHT = 360, 150
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 28, 34, 10, 22


@dataclass
class Line:
    """One player's series, ready to draw: ``points`` is the SVG ``points`` attribute."""

    seat: int
    name: str
    values: list[int]
    points: str
    stroke: str
    dash: str
    last: int
    dot_x: float = 0.0
    dot_y: float = 0.0
    value: int = 0


@dataclass
class Chart:
    """A whole chart: size, plot box, lines, ticks, goal line and replay marker."""

    key: str
    title: str
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    lines: list[Line] = field(default_factory=list)
    y_ticks: list[tuple[float, int]] = field(default_factory=list)
    x_ticks: list[tuple[float, int]] = field(default_factory=list)
    goal: tuple[float, int] | None = None
    marker: float | None = None
    marker_turn: int | None = None
    summary: str = ""


def _nice_step(top: int, target_ticks: int = 4) -> int:
    raw = max(1, top / target_ticks)
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if step >= raw:
            return step
    return int(raw)


def line_chart(key: str, title: str, names: Sequence[str], series: Sequence[Sequence[int]],
               goal: int | None = None, marker: int | None = None) -> Chart:
    """A chart of one value per turn for each player.

    ``series[seat][t]`` is the value at the end of turn ``t`` (``t = 0`` is the setup);
    ``goal`` draws the winning line; ``marker`` a vertical line at the turn being replayed.
    """
    turns = max((len(s) for s in series), default=1) - 1
    top_value = max([goal or 0] + [max(s) for s in series if s] + [1])
    step = _nice_step(top_value)
    y_max = -(-top_value // step) * step
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM

    def x(t: float) -> float:
        return round(left + (right - left) * (t / turns if turns else 0), 1)

    def y(v: float) -> float:
        return round(bottom - (bottom - top) * (v / y_max), 1)

    chart = Chart(key=key, title=title, width=WIDTH, height=HEIGHT, left=left, right=right, top=top, bottom=bottom)
    chart.y_ticks = [(y(v), v) for v in range(0, y_max + 1, step)]
    x_step = _nice_step(turns, 5) if turns else 1
    chart.x_ticks = [(x(t), t) for t in range(0, turns + 1, x_step)]
    if goal:
        chart.goal = (y(goal), goal)
    if marker is not None and 0 <= marker <= turns:
        chart.marker = x(marker)
        chart.marker_turn = marker
    for seat, values in enumerate(series):
        vals = list(values) or [0]
        pts = " ".join(f"{x(t)},{y(v)}" for t, v in enumerate(vals))
        chart.lines.append(Line(seat=seat, name=names[seat], values=vals, points=pts,
                                stroke=SEAT_STROKES[seat % len(SEAT_STROKES)], dash=SEAT_DASHES[seat % len(SEAT_DASHES)],
                                last=vals[-1]))
    at = marker if chart.marker is not None else turns
    for ln in chart.lines:
        t = min(at, len(ln.values) - 1)  # type: ignore[type-var]
        ln.value, ln.dot_x, ln.dot_y = ln.values[t], x(t), y(ln.values[t])
    chart.summary = ", ".join(f"{ln.name} {ln.value}" for ln in chart.lines)
    return chart
