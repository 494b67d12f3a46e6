"""The Area of Engagement: the complete hexes of a grid laid over a rectangle.

Games are played on a flat area marked with 2-inch hexes, roughly 3'x3',
4'x4' or 8'x4' (p.9). The grid runs over the edges of the mat, and an aircraft
that moves beyond the edge *or into an incomplete hex at the edge* Disengages
(p.17), so only hexes whose whole hexagon lies on the mat belong to the board.

Layout (flat-top, "odd-q" offset): column 0's west corner touches the west
edge, row 0 of even columns touches the north edge, and odd columns sit half a
hex (1 inch) lower. In table inches, measured east from the west edge and
south from the north edge, hex (q, r) has its centre at
``x = (2 + 3q)/sqrt(3)`` and ``y = 1 + 2r + q``; it reaches sqrt(3)*2/3 east and
west of that centre and 1 inch north and south. Hence, exactly in integers:

* column ``c`` is complete when ``(4 + 3c)**2 <= 3 * width**2``;
* a hex is complete vertically when ``0 <= 2r + q`` and ``2r + q + 2 <= height``,
  so even columns hold ``floor(height / 2)`` rows and odd columns one fewer
  whenever the height is an even number of inches.

Edges are named by compass (north at the top). Boards compare and hash by
value, so equal boards share their cached graphs.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from math import floor, sqrt
from typing import TYPE_CHECKING

from aero_events.hexgrid.facing import _DELTAS, Facing
from aero_events.hexgrid.hexes import Hex
from aero_events.hexgrid.pose import Pose

if TYPE_CHECKING:
    import networkx as nx

PRESET_SIZES_INCHES: dict[str, tuple[int, int]] = {"3x3": (36, 36), "4x4": (48, 48), "8x4": (96, 48)}
"""Rulebook Areas of Engagement (p.9) as (width, height) in inches, named in feet."""


class Edge(StrEnum):
    """A side of the Area of Engagement; north is the top (offset row 0)."""

    NORTH = "north"
    SOUTH = "south"
    EAST = "east"
    WEST = "west"


def _complete_columns(width: Fraction) -> int:
    """How many columns fit whole: column c fits when (4 + 3c)/sqrt(3) <= width, squared to stay exact."""
    limit = 3 * width * width
    count = max(0, floor((float(width) * sqrt(3.0) - 4) / 3) + 1)
    while count > 0 and (4 + 3 * (count - 1)) ** 2 > limit:
        count -= 1
    while (4 + 3 * count) ** 2 <= limit:
        count += 1
    return count


@dataclass(frozen=True)
class Board:
    """A rectangular Area of Engagement made of the complete hexes of a 2-inch grid (p.9, p.17).

    ``rows`` counts the hexes in an even column; odd columns hold
    ``odd_column_rows`` (one fewer on a mat an even number of inches tall,
    because their top and bottom hexes are cut by the edges).
    """

    name: str
    width_inches: float
    height_inches: float
    columns: int
    rows: int
    odd_column_rows: int

    def __post_init__(self) -> None:
        if self.columns < 1 or self.rows < 1 or self.odd_column_rows < 0:
            raise ValueError(f"board {self.name!r} has no complete hexes")

    @classmethod
    def from_inches(cls, width: float | Fraction, height: float | Fraction, name: str | None = None) -> Board:
        """The board of complete 2-inch hexes on a ``width`` x ``height`` inch mat (p.9, p.17)."""
        exact_width, exact_height = Fraction(width), Fraction(height)
        if exact_width <= 0 or exact_height <= 0:
            raise ValueError(f"a board needs a positive size, got {width} x {height} inches")
        return cls(
            name=name if name is not None else f"{width}x{height} in",
            width_inches=width,
            height_inches=height,
            columns=_complete_columns(exact_width),
            rows=max(0, floor(exact_height / 2)),
            odd_column_rows=max(0, floor((exact_height - 1) / 2)),
        )

    @classmethod
    def preset(cls, name: str) -> Board:
        """A rulebook Area of Engagement (p.9): ``"3x3"`` (36x36 in), ``"4x4"`` (48x48), ``"8x4"`` (96x48)."""
        try:
            width, height = PRESET_SIZES_INCHES[name]
        except KeyError:
            known = ", ".join(PRESET_SIZES_INCHES)
            raise ValueError(f"unknown board preset {name!r}; known presets: {known}") from None
        return cls.from_inches(width, height, name=name)

    @classmethod
    def rectangle(cls, columns: int, rows: int, name: str | None = None) -> Board:
        """A board of ``columns`` x ``rows`` offset hexes, all complete, on the smallest mat holding them."""
        if columns < 1 or rows < 1:
            raise ValueError(f"a board needs at least one column and one row, got {columns} x {rows}")
        return cls(
            name=name if name is not None else f"{columns}x{rows} hexes",
            width_inches=(3 * columns + 1) / sqrt(3.0),
            height_inches=2 * rows + (1 if columns > 1 else 0),
            columns=columns,
            rows=rows,
            odd_column_rows=rows,
        )

    # -- coordinates --------------------------------------------------------------------------------

    def to_offset(self, hex: Hex) -> tuple[int, int]:
        """The ``(column, row)`` of ``hex`` in this board's odd-q offset layout."""
        q, r = hex
        return q, r + (q - (q & 1)) // 2

    def from_offset(self, column: int, row: int) -> Hex:
        """The axial hex at offset ``(column, row)``."""
        return Hex(column, row - (column - (column & 1)) // 2)

    def rows_in_column(self, column: int) -> int:
        """How many complete hexes ``column`` holds (0 outside the board)."""
        if column < 0 or column >= self.columns:
            return 0
        return self.odd_column_rows if column & 1 else self.rows

    def contains(self, hex: Hex) -> bool:
        """Whether ``hex`` is a complete hex of the Area of Engagement; anything else is off the board."""
        q, r = hex
        if q < 0 or q >= self.columns:
            return False
        row = r + (q >> 1)
        return 0 <= row < (self.odd_column_rows if q & 1 else self.rows)

    __contains__ = contains

    @functools.cached_property
    def hexes(self) -> frozenset[Hex]:
        """Every complete hex of the board."""
        return frozenset(self._hexes_in_offset_order())

    def _hexes_in_offset_order(self) -> list[Hex]:
        return [
            self.from_offset(column, row)
            for column in range(self.columns)
            for row in range(self.rows_in_column(column))
        ]

    # -- edges -------------------------------------------------------------------------------------

    def edge_distance(self, hex: Hex, edge: Edge | str) -> int:
        """How many complete hexes lie between ``hex`` and ``edge`` along its column or row (0 = on it).

        Counted in the offset grid: rows for north/south, columns for
        east/west. Raises ``ValueError`` for a hex that is not on the board.
        """
        if not self.contains(hex):
            raise ValueError(f"{hex} is not on board {self.name!r}")
        side = Edge(edge)
        column, row = self.to_offset(hex)
        if side is Edge.NORTH:
            return row
        if side is Edge.SOUTH:
            return self.rows_in_column(column) - 1 - row
        if side is Edge.WEST:
            return column
        return self.columns - 1 - column

    def is_within(self, hex: Hex, edge: Edge | str, n: int) -> bool:
        """Whether ``hex`` is within ``n`` hexes of ``edge`` (deployment, p.34).

        True when the hex's offset row (north/south) or column (east/west) is
        one of the ``n`` nearest that edge, i.e. ``edge_distance < n``; so
        "within three hexes" is the three rows or columns along the edge.
        Hexes off the board are within nothing.
        """
        return self.contains(hex) and self.edge_distance(hex, edge) < n

    def hexes_within(self, edge: Edge | str, n: int) -> frozenset[Hex]:
        """All board hexes within ``n`` hexes of ``edge`` (e.g. a deployment zone, p.34)."""
        return frozenset(h for h in self.hexes if self.edge_distance(h, edge) < n)

    # -- graphs ------------------------------------------------------------------------------------

    def graph(self) -> nx.Graph:
        """The board's hexes joined to their on-board neighbours; built once per board, read-only."""
        return _hex_graph(self)

    def pose_graph(self) -> nx.DiGraph:
        """Directed graph of ``Pose`` states for reachability questions; built once per board, read-only.

        Edges carry ``move``: ``"forward"`` (one hex through the front hexside,
        only when the hex ahead is on the board), ``"turn_left"`` and
        ``"turn_right"`` (one hexside in place).
        """
        return _pose_graph(self)


@functools.cache
def _hex_graph(board: Board) -> nx.Graph:
    import networkx as nx

    graph = nx.Graph(board=board.name)
    hexes = board._hexes_in_offset_order()
    graph.add_nodes_from(hexes)
    for hex in hexes:
        q, r = hex
        for dq, dr in _DELTAS:
            neighbour = Hex(q + dq, r + dr)
            if board.contains(neighbour):
                graph.add_edge(hex, neighbour)
    return nx.freeze(graph)


@functools.cache
def _pose_graph(board: Board) -> nx.DiGraph:
    import networkx as nx

    graph = nx.DiGraph(board=board.name)
    for hex in board._hexes_in_offset_order():
        for facing in Facing:
            pose = Pose(hex, facing)
            graph.add_node(pose)
            graph.add_edge(pose, Pose(hex, facing.left()), move="turn_left")
            graph.add_edge(pose, Pose(hex, facing.right()), move="turn_right")
            ahead = pose.forward()
            if board.contains(ahead.hex):
                graph.add_edge(pose, ahead, move="forward")
    return nx.freeze(graph)
