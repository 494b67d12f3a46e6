"""Shapes on the table: circles, oriented rectangles, polygons, segments, capsules and sectors.

Every shape is a frozen msgspec Struct with a tag, so a union ``Shape`` encodes and decodes. Points are
plain ``(x, y)`` tuples of centi-mm; a bare point may stand wherever a shape is measured.

Each shape is a *core* (a point, a polyline, or a filled polygon with integer vertices) thickened by
an integer *radius*: a circle is a point thickened by its radius, a capsule (the region a round base
covers sliding along a path) a polyline thickened by the base's radius, a rectangle or polygon a
filled polygon thickened by nothing. The predicates in ``measure`` are exact on that description.

An :class:`OrientedRect` is, by definition, the filled quadrilateral of its four corners, each
rounded half-to-even to the centi-mm from the exact rotated corner (one rounding, see ``trig``); so
a rectangle turned by a multiple of 90 degrees is exact and any other is within 0.71 centi-mm of the
ideal one. Its ``width`` is across the heading and its ``length`` along it, like ``core.scene.Rect``.
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache

import msgspec

from aero_events.table.pose import Point, Pose
from aero_events.table.trig import COS, SIN
from aero_events.table.units import HALF_TURN

_SHIFT = 31  # corners are rotated from doubled half-sizes: (w * c) / 2**31 = (w / 2) * c / 2**30
_MASK = (1 << _SHIFT) - 1
_HALF = 1 << (_SHIFT - 1)


class Circle(msgspec.Struct, frozen=True, tag="circle"):
    """A round base or marker: every point within ``radius`` of ``centre`` (edge included)."""

    centre: tuple[int, int]
    radius: int

    def __post_init__(self) -> None:
        if self.radius < 0:
            raise ValueError(f"a radius cannot be negative, got {self.radius}")


class RectSide(Enum):
    """A side of an oriented rectangle, named from the piece's point of view (WoG front/rear edge)."""

    FRONT = "front"
    RIGHT = "right"
    REAR = "rear"
    LEFT = "left"


class OrientedRect(msgspec.Struct, frozen=True, tag="rect"):
    """A rectangular base or footprint ``width`` across by ``length`` along ``pose``'s heading, centred on it."""

    pose: Pose
    width: int
    length: int

    def __post_init__(self) -> None:
        if self.width < 0 or self.length < 0:
            raise ValueError(f"a rectangle cannot have a negative size, got {self.width} x {self.length}")

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Front-left, front-right, rear-right, rear-left corners (clockwise), rounded half-to-even."""
        pose = self.pose
        return _rect_corners(pose.x, pose.y, pose.heading, self.width, self.length)

    def side(self, which: RectSide) -> tuple[Point, Point]:
        """The two corners of one side, in the rectangle's clockwise order.

        FRONT is front-left -> front-right, RIGHT front-right -> rear-right, REAR rear-right ->
        rear-left, LEFT rear-left -> front-left (the rectangle's clockwise boundary).
        """
        corners = self.corners()
        index = _SIDE_INDEX[which]
        return corners[index], corners[(index + 1) % 4]


_SIDE_INDEX = {RectSide.FRONT: 0, RectSide.RIGHT: 1, RectSide.REAR: 2, RectSide.LEFT: 3}


@lru_cache(maxsize=8192)
def _rect_corners(x: int, y: int, heading: int, width: int, length: int) -> tuple[Point, Point, Point, Point]:
    s = SIN[heading]
    c = COS[heading]
    # local (right, forward) = (+-width/2, +-length/2); rotate(right, forward) = (r c + f s, f c - r s).
    # Opposite corners are negatives of each other and half-to-even rounding is odd-symmetric, so
    # four roundings give all eight coordinates.
    wc, ws, lc, ls = width * c, width * s, length * c, length * s
    rounded = []
    for value in (ls - wc, lc + ws, wc + ls, lc - ws):
        quotient = (value + _HALF) >> _SHIFT
        if value & _MASK == _HALF and quotient & 1:
            quotient -= 1
        rounded.append(quotient)
    a, b, c2, d = rounded
    return (x + a, y + b), (x + c2, y + d), (x - a, y - b), (x - c2, y - d)


class Polygon(msgspec.Struct, frozen=True, tag="polygon"):
    """A filled simple polygon (terrain, a template, a swept base) given by its corners in order."""

    points: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        if len(self.points) < 3:
            raise ValueError(f"a polygon needs at least 3 corners, got {len(self.points)}")


class Segment(msgspec.Struct, frozen=True, tag="segment"):
    """A straight line from ``start`` to ``end``: a ruler's edge, a line of fire, a torpedo's track."""

    start: tuple[int, int]
    end: tuple[int, int]


class Capsule(msgspec.Struct, frozen=True, tag="capsule"):
    """Every point within ``radius`` of the polyline ``path``: a round base swept along a move."""

    path: tuple[tuple[int, int], ...]
    radius: int

    def __post_init__(self) -> None:
        if not self.path:
            raise ValueError("a capsule needs at least one point on its path")
        if self.radius < 0:
            raise ValueError(f"a radius cannot be negative, got {self.radius}")


class Sector(msgspec.Struct, frozen=True, tag="sector"):
    """A fire arc: the points whose bearing from ``apex`` is within ``half_angle`` of its heading.

    ``half_angle`` is in centidegrees, 0 to 18000 (18000 is all round); ``radius`` optionally limits
    the reach (a weapon's range). See ``sectors`` for the boundary rule.
    """

    apex: Pose
    half_angle: int
    radius: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.half_angle <= HALF_TURN:
            raise ValueError(f"a half-angle must be within [0, 18000] centidegrees, got {self.half_angle}")
        if self.radius is not None and self.radius < 0:
            raise ValueError(f"a radius cannot be negative, got {self.radius}")

    @classmethod
    def about(cls, pose: Pose, bearing: int, half_angle: int, radius: int | None = None) -> Sector:
        """The arc centred ``bearing`` centidegrees clockwise from ``pose``'s heading (27000 = left side)."""
        return cls(pose.turned(bearing), half_angle, radius)


Shape = Circle | OrientedRect | Polygon | Segment | Capsule
"""Anything measured by ``measure``; a bare ``(x, y)`` point is accepted too."""

Core = tuple[bool, tuple[Point, ...], int]
"""``(filled, points, radius)``: a filled polygon or a polyline (one point for a dot), thickened."""


def core(shape: Shape | Point) -> Core:
    """The exact description of ``shape`` used by every predicate: ``(filled, points, radius)``."""
    kind = type(shape)
    if kind is Circle:
        return False, (shape.centre,), shape.radius
    if kind is OrientedRect:
        pose = shape.pose
        return True, _rect_corners(pose.x, pose.y, pose.heading, shape.width, shape.length), 0
    if kind is Polygon:
        return True, shape.points, 0
    if kind is tuple:
        return False, (shape,), 0
    if kind is Segment:
        return False, (shape.start, shape.end), 0
    if kind is Capsule:
        return False, shape.path, shape.radius
    raise TypeError(
        f"cannot measure a {kind.__name__}; expected a point or one of Circle, OrientedRect, "
        "Polygon, Segment, Capsule"
    )


def corners(shape: Shape | Point) -> tuple[Point, ...]:
    """The integer corners (or path points) of ``shape``'s core."""
    return core(shape)[1]


def bounds(shape: Shape | Point) -> tuple[int, int, int, int]:
    """The exact bounding box ``(min_x, min_y, max_x, max_y)`` of ``shape``."""
    if type(shape) is OrientedRect:
        pose = shape.pose
        return _rect_bounds(pose.x, pose.y, pose.heading, shape.width, shape.length)
    _, points, radius = core(shape)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs) - radius, min(ys) - radius, max(xs) + radius, max(ys) + radius


@lru_cache(maxsize=8192)
def _rect_bounds(x: int, y: int, heading: int, width: int, length: int) -> tuple[int, int, int, int]:
    points = _rect_corners(x, y, heading, width, length)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def centre(shape: Shape | Point) -> Point:
    """Where a piece is measured from: a circle's centre, a rectangle's pose, a point itself.

    For a polygon, segment or capsule path: the centroid of its corners (mean, rounded half-to-even).
    """
    kind = type(shape)
    if kind is Circle:
        return shape.centre
    if kind is OrientedRect:
        return (shape.pose.x, shape.pose.y)
    if kind is tuple:
        return shape
    points = core(shape)[1]
    return _mean([p[0] for p in points]), _mean([p[1] for p in points])


def _mean(values: list[int]) -> int:
    total = sum(values)
    count = len(values)
    quotient, remainder = divmod(total, count)
    if 2 * remainder > count or (2 * remainder == count and quotient & 1):
        quotient += 1
    return quotient


def convex_hull(points: list[Point] | tuple[Point, ...]) -> tuple[Point, ...]:
    """The convex hull of ``points``, clockwise from the leftmost (then lowest) point, no collinear points.

    Andrew's monotone chain in exact integers. Fewer than three distinct points come back as they are
    (deduplicated, sorted).
    """
    unique = sorted(set(points))
    if len(unique) < 3:
        return tuple(unique)

    def turn(o: Point, a: Point, b: Point) -> int:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in unique:
        while len(lower) >= 2 and turn(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(unique):
        while len(upper) >= 2 and turn(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    anticlockwise = lower[:-1] + upper[:-1]
    return (anticlockwise[0], *reversed(anticlockwise[1:]))


def hull(*shapes: Shape | Point) -> Polygon:
    """The convex hull of the corners of ``shapes`` (rectangles, polygons, points, segments) as a polygon.

    Round shapes (circles, capsules with a radius) are refused: their hull has curved sides.
    """
    points: list[Point] = []
    for shape in shapes:
        _, shape_points, radius = core(shape)
        if radius:
            raise ValueError("the hull of a round shape is not a polygon; sweep it with swept_circle instead")
        points.extend(shape_points)
    result = convex_hull(points)
    if len(result) < 3:
        raise ValueError("these shapes have no area: their hull is a point or a line")
    return Polygon(result)
