"""Plotly coordinates for hexes, paths and links: flat-top hexes, y up, from hexgrid.pixels.

Plotly draws many shapes fastest as ONE scatter trace whose pieces are separated by
``None``: every function here returns ``(xs, ys)`` lists in that form. Board outlines
are rounded to a thousandth of an inch (the HTML stays small; nobody sees the
difference); centres, where markers sit, are not rounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from aero_events.hexgrid import Board, Hex, pixel_centre, pixel_corners

Coords = tuple[list[float | None], list[float | None]]

_DECIMALS = 3


def centre(hex: Sequence[int]) -> tuple[float, float]:
    """Where a marker for something in ``hex`` goes: the hex's pixel centre."""
    return pixel_centre(Hex(hex[0], hex[1]))


def hex_polygons(hexes: Iterable[Sequence[int]]) -> Coords:
    """Closed outlines of ``hexes`` (7 points each, the first repeated), separated by None.

    Drawn as lines they outline the hexes; with ``fill="toself"`` each is filled.
    """
    xs: list[float | None] = []
    ys: list[float | None] = []
    for hex in hexes:
        corners = pixel_corners(Hex(hex[0], hex[1]))
        for x, y in (*corners, corners[0]):
            xs.append(round(x, _DECIMALS))
            ys.append(round(y, _DECIMALS))
        xs.append(None)
        ys.append(None)
    return xs, ys


def board_hexes(board: Board) -> list[Hex]:
    """The board's hexes in a stable order (column by column, north to south)."""
    return [board.from_offset(column, row) for column in range(board.columns)
            for row in range(board.rows_in_column(column))]


def board_extent(board: Board, margin_hexes: float = 1.0) -> tuple[tuple[float, float], tuple[float, float]]:
    """``((x_min, x_max), (y_min, y_max))`` of the board's hexes plus a margin (in hex widths)."""
    xs, ys = hex_polygons(board_hexes(board))
    x_values = [x for x in xs if x is not None]
    y_values = [y for y in ys if y is not None]
    pad = 2.0 * margin_hexes
    return (min(x_values) - pad, max(x_values) + pad), (min(y_values) - pad, max(y_values) + pad)


def polyline(hexes: Iterable[Sequence[int]]) -> Coords:
    """One line through the centres of ``hexes``, ending with a None separator."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for hex in hexes:
        x, y = centre(hex)
        xs.append(x)
        ys.append(y)
    xs.append(None)
    ys.append(None)
    return xs, ys


def segments(pairs: Iterable[tuple[Sequence[int], Sequence[int]]]) -> Coords:
    """One straight line per (from hex, to hex) pair, centre to centre, separated by None."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for start, end in pairs:
        (x0, y0), (x1, y1) = centre(start), centre(end)
        xs.extend((x0, x1, None))
        ys.extend((y0, y1, None))
    return xs, ys


def along(start: Sequence[int], end: Sequence[int], share: float) -> tuple[float, float]:
    """The point ``share`` of the way from ``start``'s centre to ``end``'s."""
    (x0, y0), (x1, y1) = centre(start), centre(end)
    return x0 + (x1 - x0) * share, y0 + (y1 - y0) * share
