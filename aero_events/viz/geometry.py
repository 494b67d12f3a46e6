"""Plotly coordinates for scenes: hex outlines, shapes at a pose, polylines, segments, in table millimetres.

Plotly draws many shapes fastest as ONE scatter trace whose pieces are separated by ``None``: every
function here returns ``(xs, ys)`` lists in that form. Outlines are rounded to a hundredth of a
millimetre (the HTML stays small; nobody sees the difference); centres are not rounded.

Headings are degrees clockwise from north (y up), as in :mod:`aero_events.core.scene`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import cos, radians, sin, sqrt

from aero_events.core.scene import Circle, Polygon, Rect, Shape, Table

Coords = tuple[list[float | None], list[float | None]]
Point = tuple[float, float]

_DECIMALS = 2
_CIRCLE_POINTS = 24


def hex_corners(x: float, y: float, size: float, flat_top: bool = True) -> list[Point]:
    """The six corners of a hex of circumradius ``size`` centred on ``(x, y)``."""
    start = 0.0 if flat_top else 30.0
    return [(x + size * cos(radians(start + 60 * k)), y + size * sin(radians(start + 60 * k))) for k in range(6)]


def polygons(outlines: Iterable[Sequence[Point]]) -> Coords:
    """Closed outlines (the first point repeated), separated by None: lines, or filled with ``fill="toself"``."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for outline in outlines:
        if not outline:
            continue
        for x, y in (*outline, outline[0]):
            xs.append(round(x, _DECIMALS))
            ys.append(round(y, _DECIMALS))
        xs.append(None)
        ys.append(None)
    return xs, ys


def table_hexes(table: Table) -> Coords:
    """Every hex of a hex table as one set of outlines."""
    return polygons(hex_corners(cell.x, cell.y, table.hex_size, table.flat_top) for cell in table.cells)


def table_edge(table: Table) -> Coords:
    """The table's edge: its rectangle."""
    return polygons([((0.0, 0.0), (table.width, 0.0), (table.width, table.height), (0.0, table.height))])


def rotate(point: Point, heading: float) -> Point:
    """``point`` (relative to an anchor, with y along the heading) turned to ``heading`` degrees clockwise
    from north."""
    angle = radians(heading)
    px, py = point
    return px * cos(angle) + py * sin(angle), -px * sin(angle) + py * cos(angle)


def shape_outline(shape: Shape, x: float, y: float, heading: float = 0.0) -> list[Point]:
    """The outline of ``shape`` anchored at ``(x, y)`` and turned to ``heading``."""
    if isinstance(shape, Circle):
        return [(x + shape.radius * cos(2 * 3.141592653589793 * k / _CIRCLE_POINTS),
                 y + shape.radius * sin(2 * 3.141592653589793 * k / _CIRCLE_POINTS)) for k in range(_CIRCLE_POINTS)]
    if isinstance(shape, Rect):
        w, h = shape.width / 2, shape.length / 2
        corners: Sequence[Point] = ((-w, -h), (w, -h), (w, h), (-w, h))
    elif isinstance(shape, Polygon):
        corners = shape.points
    else:  # pragma: no cover - Shape is a closed union
        raise TypeError(f"unknown shape {shape!r}")
    return [(x + dx, y + dy) for dx, dy in (rotate(point, heading) for point in corners)]


def polyline(points: Iterable[Point]) -> Coords:
    """One line through ``points``, ending with a None separator."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for x, y in points:
        xs.append(x)
        ys.append(y)
    xs.append(None)
    ys.append(None)
    return xs, ys


def segments(pairs: Iterable[tuple[Point, Point]]) -> Coords:
    """One straight line per (start, end) pair, separated by None."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for (x0, y0), (x1, y1) in pairs:
        xs.extend((x0, x1, None))
        ys.extend((y0, y1, None))
    return xs, ys


def along(start: Point, end: Point, share: float) -> Point:
    """The point ``share`` of the way from ``start`` to ``end``."""
    return start[0] + (end[0] - start[0]) * share, start[1] + (end[1] - start[1]) * share


def extent(table: Table) -> tuple[tuple[float, float], tuple[float, float]]:
    """``((x_min, x_max), (y_min, y_max))`` to show: the table plus a margin (half a hex, or 2%)."""
    margin = table.hex_size * 0.6 if table.hex_size else 0.02 * max(table.width, table.height)
    return (-margin, table.width + margin), (-margin, table.height + margin)


def inner_radius(table: Table) -> float:
    """Centre to the middle of a side of the table's hexes (0 on an open table)."""
    return table.hex_size * sqrt(3.0) / 2
