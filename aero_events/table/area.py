"""The playing area: a ``width`` x ``height`` rectangle with its south-west corner at the origin.

Edges are named by compass side with north up the table (+y): the NORTH edge is ``y = height``, EAST
``x = width``, SOUTH ``y = 0``, WEST ``x = 0``. The table is closed: a base touching an edge line
is still on the table, and a shape *crosses* an edge only when some point of it lies strictly
beyond that line. All tests are exact (a shape's bounding box is attained by the shape, see
``shapes.bounds``).
"""

from __future__ import annotations

from enum import Enum

import msgspec

from aero_events.table.measure import overlaps
from aero_events.table.pose import Point
from aero_events.table.shapes import Polygon, Shape, bounds


class Edge(Enum):
    """A table edge, by compass side (north is up the table)."""

    NORTH = "north"
    EAST = "east"
    SOUTH = "south"
    WEST = "west"


_EDGE_ORDER = (Edge.NORTH, Edge.EAST, Edge.SOUTH, Edge.WEST)


class TableArea(msgspec.Struct, frozen=True):
    """The table: x from 0 to ``width``, y from 0 to ``height`` (centi-mm)."""

    width: int
    height: int

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"a table needs a positive size, got {self.width} x {self.height}")

    @property
    def polygon(self) -> Polygon:
        """The table as a polygon (clockwise from the south-west corner)."""
        return Polygon(((0, 0), (0, self.height), (self.width, self.height), (self.width, 0)))

    @property
    def centre(self) -> Point:
        """The middle of the table, rounded down to the centi-mm."""
        return (self.width // 2, self.height // 2)

    def edge_segment(self, edge: Edge) -> tuple[Point, Point]:
        """The two corners of ``edge``, clockwise around the table."""
        w, h = self.width, self.height
        return {
            Edge.NORTH: ((0, h), (w, h)),
            Edge.EAST: ((w, h), (w, 0)),
            Edge.SOUTH: ((w, 0), (0, 0)),
            Edge.WEST: ((0, 0), (0, h)),
        }[edge]

    def contains_point(self, point: Point, inclusive: bool = True) -> bool:
        """Whether ``point`` is on the table; on an edge line counts unless ``inclusive`` is False."""
        x, y = point
        if inclusive:
            return 0 <= x <= self.width and 0 <= y <= self.height
        return 0 < x < self.width and 0 < y < self.height

    def contains(self, shape: Shape | Point) -> bool:
        """Whether all of ``shape`` is on the table (touching an edge allowed)."""
        min_x, min_y, max_x, max_y = bounds(shape)
        return min_x >= 0 and min_y >= 0 and max_x <= self.width and max_y <= self.height

    def edges_crossed(self, shape: Shape | Point) -> frozenset[Edge]:
        """The edges ``shape`` reaches strictly beyond (a base leaving the playing area)."""
        min_x, min_y, max_x, max_y = bounds(shape)
        crossed = set()
        if max_y > self.height:
            crossed.add(Edge.NORTH)
        if max_x > self.width:
            crossed.add(Edge.EAST)
        if min_y < 0:
            crossed.add(Edge.SOUTH)
        if min_x < 0:
            crossed.add(Edge.WEST)
        return frozenset(crossed)

    def wholly_off(self, shape: Shape | Point) -> bool:
        """Whether no point of ``shape`` is on the (closed) table: the piece has left it entirely."""
        return not overlaps(shape, self.polygon)

    def edge_distances(self, shape: Shape | Point) -> dict[Edge, int]:
        """For each edge, how far inside it ``shape`` stays (negative by how far it crosses it)."""
        min_x, min_y, max_x, max_y = bounds(shape)
        return {
            Edge.NORTH: self.height - max_y,
            Edge.EAST: self.width - max_x,
            Edge.SOUTH: min_y,
            Edge.WEST: min_x,
        }

    def distance_to_edge(self, shape: Shape | Point) -> int:
        """How far ``shape`` stays inside the nearest edge (exact; negative when it crosses one)."""
        return min(self.edge_distances(shape).values())

    def nearest_edge(self, shape: Shape | Point) -> Edge:
        """The edge ``shape`` is nearest to; ties go north, east, south, west in that order."""
        distances = self.edge_distances(shape)
        return min(_EDGE_ORDER, key=lambda edge: distances[edge])
