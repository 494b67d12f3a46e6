"""Table geometry as ``core.scene`` data, for drawing only (millimetre floats, degrees).

Rules never read these values back: a scene is a picture of the exact integer state. A circle,
rectangle or polygon becomes a scene footprint about an anchor (``footprint``/``anchor``) for a
``Piece`` or ``Marker``; any shape becomes an outline of table points for a ``Template``
(``outline``; round shapes are drawn with ``segments`` straight pieces per full turn).
"""

from __future__ import annotations

import math
from itertools import pairwise

from aero_events.core import scene
from aero_events.table.area import TableArea
from aero_events.table.pose import Point
from aero_events.table.shapes import Capsule, Circle, OrientedRect, Polygon, Sector, Segment, Shape
from aero_events.table.units import to_degrees, to_mm


def anchor(shape: Shape | Point) -> tuple[float, float, float]:
    """``(x, y, heading)`` in mm and degrees where a scene places ``footprint(shape)``."""
    if isinstance(shape, OrientedRect):
        pose = shape.pose
        return to_mm(pose.x), to_mm(pose.y), to_degrees(pose.heading)
    if isinstance(shape, Circle):
        return to_mm(shape.centre[0]), to_mm(shape.centre[1]), 0.0
    if isinstance(shape, tuple):
        return to_mm(shape[0]), to_mm(shape[1]), 0.0
    if isinstance(shape, Polygon):
        return 0.0, 0.0, 0.0
    raise TypeError(f"a {type(shape).__name__} has no scene footprint; draw its outline as a Template")


def footprint(shape: Shape | Point) -> scene.Shape:
    """The scene footprint of a circle, rectangle, polygon (about the table origin) or point."""
    if isinstance(shape, OrientedRect):
        return scene.Rect(width=to_mm(shape.width), length=to_mm(shape.length))
    if isinstance(shape, Circle):
        return scene.Circle(radius=to_mm(shape.radius))
    if isinstance(shape, tuple):
        return scene.Circle(radius=0.0)
    if isinstance(shape, Polygon):
        return scene.Polygon(points=tuple((to_mm(x), to_mm(y)) for x, y in shape.points))
    raise TypeError(f"a {type(shape).__name__} has no scene footprint; draw its outline as a Template")


def outline(shape: Shape | Sector, segments: int = 48) -> tuple[tuple[float, float], ...]:
    """The boundary of ``shape`` (or a sector with a radius) as table points in mm."""
    if isinstance(shape, OrientedRect):
        return tuple((to_mm(x), to_mm(y)) for x, y in shape.corners())
    if isinstance(shape, Polygon):
        return tuple((to_mm(x), to_mm(y)) for x, y in shape.points)
    if isinstance(shape, Segment):
        return (to_mm(shape.start[0]), to_mm(shape.start[1])), (to_mm(shape.end[0]), to_mm(shape.end[1]))
    if isinstance(shape, Circle):
        return _arc(to_mm(shape.centre[0]), to_mm(shape.centre[1]), to_mm(shape.radius), 0.0, 360.0, segments)
    if isinstance(shape, Capsule):
        return _capsule(shape, segments)
    if isinstance(shape, Sector):
        if shape.radius is None:
            raise ValueError("a sector without a radius has no outline; give it a drawing radius")
        apex = shape.apex
        x, y = to_mm(apex.x), to_mm(apex.y)
        half = to_degrees(shape.half_angle)
        heading = to_degrees(apex.heading)
        steps = max(2, round(segments * half / 180))
        arc = _arc(x, y, to_mm(shape.radius), heading - half, heading + half, steps, closed=False)
        return ((x, y), *arc) if half < 180 else arc
    raise TypeError(f"cannot outline a {type(shape).__name__}")


def _arc(x, y, radius, start, end, steps, closed=True):
    count = steps if closed else steps + 1
    span = end - start
    return tuple(
        (
            x + radius * math.sin(math.radians(start + span * i / steps)),
            y + radius * math.cos(math.radians(start + span * i / steps)),
        )
        for i in range(count)
    )


def _capsule(shape: Capsule, segments: int) -> tuple[tuple[float, float], ...]:
    """A one-point capsule as a circle, a one-leg capsule as a stadium (two half-circles joined)."""
    points = [(to_mm(x), to_mm(y)) for x, y in shape.path]
    radius = to_mm(shape.radius)
    if len(points) == 1:
        return _arc(points[0][0], points[0][1], radius, 0.0, 360.0, segments)
    if len(points) > 2:
        raise ValueError("a capsule along several legs has no single outline; draw capsule_legs(shape)")
    (ax, ay), (bx, by) = points
    heading = math.degrees(math.atan2(bx - ax, by - ay)) if (ax, ay) != (bx, by) else 0.0
    half = max(2, segments // 2)
    far_end = _arc(bx, by, radius, heading - 90, heading + 90, half, closed=False)
    near_end = _arc(ax, ay, radius, heading + 90, heading + 270, half, closed=False)
    return (*far_end, *near_end)


def capsule_legs(shape: Capsule) -> tuple[Capsule, ...]:
    """A capsule along a path as one capsule per leg (their union is the same region)."""
    if len(shape.path) == 1:
        return (shape,)
    return tuple(Capsule((a, b), shape.radius) for a, b in pairwise(shape.path))


def table(area: TableArea, name: str = "") -> scene.Table:
    """The scene table for ``area`` (an open table, no hexes)."""
    return scene.Table(width=to_mm(area.width), height=to_mm(area.height), name=name)
