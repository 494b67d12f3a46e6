"""Flight geometry on the table (``aero_events.table``): manoeuvre templates, Pilot Input, points along a flight
path, the nearest clear position (IGNORE OTHER MODELS), the rear arc, the board edges.

Choices where the text is silent (README, "gaps"):

* **Lateral movement and pivot** (AIRBORNE MOVEMENT): "forward" is along the model's heading at the start of the
  manoeuvre, "laterally" is perpendicular to that heading (right positive), and the pivot turns the model about its
  base centre at the end. The flight path is the polyline start -> after forward -> after lateral -> after Pilot
  Input.
* **Placed as closely as possible** (IGNORE OTHER MODELS): the nearest point, found by a ring search outwards in
  1 mm steps at 2-degree bearings (first bearing north, clockwise), where the base overlaps no terrain and no model.
* **Rear arc** (VULNERABLE TO TAIL ATTACKS): the sector behind the model, half-angle 45 degrees about its tail
  (90 degrees in all; option ``rear_arc_degrees``), from its base centre to the firer's base centre, boundary
  included.
* **Moving off the board**: a model has moved off the board when its base centre ends its move beyond an edge.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import pairwise

from aero_events.table import (
    CONTACT_SCALE,
    Capsule,
    Pose,
    Sector,
    distance,
    point_along,
    point_in_sector,
    point_segment_squared,
    scatter,
)

from .data import Manoeuvre

Point = tuple[int, int]
RING_STEP = 100  # 1 mm
RING_BEARINGS = tuple(range(0, 36000, 200))  # every 2 degrees, clockwise from north


@lru_cache(maxsize=1 << 14)
def manoeuvre_path(pose: Pose, manoeuvre: Manoeuvre) -> tuple[tuple[Point, ...], Pose]:
    """The flight path of ``manoeuvre`` flown from ``pose`` and the pose it ends in (AIRBORNE MOVEMENT). Cached:
    listing, the bots' look-ahead and ``decide`` fly the same manoeuvres from the same poses."""
    ahead = pose.moved(forward=manoeuvre.forward)
    points = [pose.position, ahead.position]
    end = ahead
    if manoeuvre.lateral:
        dx, dy = Pose(0, 0, pose.heading).moved(right=manoeuvre.lateral).position
        end = Pose(ahead.x + dx, ahead.y + dy, pose.heading)
        points.append(end.position)
    return tuple(points), end.turned(manoeuvre.pivot)


def with_pilot_input(points: tuple[Point, ...], end: Pose, heading: int | None,
                     length: int) -> tuple[tuple[Point, ...], Pose]:
    """PILOT INPUT: the model repositioned ``length`` along table ``heading``, its orientation kept."""
    if heading is None or length == 0:
        return points, end
    x, y = scatter(end.position, heading, length)
    return (*points, (x, y)), Pose(x, y, end.heading)


def point_at(points: Sequence[Point], along: int) -> Point:
    """The point ``along`` centi-mm from the start of the polyline; past its end, straight on along its last leg
    (a bomb's drift beyond the flight path, see flight.py)."""
    legs = [(a, b) for a, b in pairwise(points) if a != b]
    if not legs:
        return points[0]
    walked = 0
    for index, (a, b) in enumerate(legs):
        length = distance(a, b)
        last = index == len(legs) - 1
        if along <= walked + length or last:
            rest = along - walked
            delta = (b[0] - a[0], b[1] - a[1])
            if last and rest > length:
                delta = (delta[0] * rest // length, delta[1] * rest // length)
                return (a[0] + delta[0], a[1] + delta[1])
            return point_along(a, delta, rest * CONTACT_SCALE // length)
        walked += length
    return points[-1]


def leg_point(points: Sequence[Point], leg: int, fraction: int) -> Point:
    a, b = points[leg], points[leg + 1]
    return point_along(a, (b[0] - a[0], b[1] - a[1]), fraction)


def truncated(points: Sequence[Point], leg: int, fraction: int) -> tuple[Point, ...]:
    """The path up to ``fraction`` millionths of leg ``leg``."""
    return (*points[:leg + 1], leg_point(points, leg, fraction))


def swept(points: Sequence[Point], radius: int) -> Capsule:
    return Capsule(tuple(points), radius)


def circles_within(a: Point, a_radius: int, b: Point, b_radius: int, limit: int = 0) -> bool:
    """Whether two round bases are at most ``limit`` apart edge to edge (touching counts); exact integers."""
    dx, dy = a[0] - b[0], a[1] - b[1]
    reach = a_radius + b_radius + limit
    return dx * dx + dy * dy <= reach * reach


def sweep_within(start: Point, end: Point, radius: int, centre: Point, other_radius: int, limit: int = 0) -> bool:
    """Whether a round base moving straight from ``start`` to ``end`` comes at most ``limit`` from another base."""
    n, d = point_segment_squared(centre, start, end)
    reach = radius + other_radius + limit
    return n <= reach * reach * d


Disc = tuple[Point, int]
"""A round base or terrain piece as (centre, radius): the fast form of ``Circle`` for the hot paths."""


def nearest_clear(point: Point, radius: int, obstacles: Iterable[Disc], limit: int = 60 * 2540) -> Point:
    """IGNORE OTHER MODELS: ``point`` itself when a base of ``radius`` there overlaps none of ``obstacles``, else the
    nearest clear point by the ring search described above."""
    obstacles = tuple(obstacles)

    def clear(p: Point) -> bool:
        return not any(circles_within(p, radius, centre, other) for centre, other in obstacles)

    if clear(point):
        return point
    # no clear point lies nearer than the smallest push out of an obstacle the base overlaps
    start = min(max(0, other + radius - distance(point, centre)) for centre, other in obstacles
                if circles_within(point, radius, centre, other))
    ring = max(RING_STEP, (start // RING_STEP) * RING_STEP)
    while ring <= limit:
        for bearing in RING_BEARINGS:
            candidate = scatter(point, bearing, ring)
            if clear(candidate):
                return candidate
        ring += RING_STEP
    return point


def in_rear_arc(target: Pose, firer: Point, arc_degrees: int) -> bool:
    """VULNERABLE TO TAIL ATTACKS: whether ``firer`` (its base centre) lies in ``target``'s rear arc."""
    sector = Sector.about(target, 18000, arc_degrees * 50)
    return point_in_sector(firer, sector)


def off_board(point: Point, width: int, height: int) -> bool:
    """MOVING OFF THE BOARD: the base centre beyond an edge (a choice, see above)."""
    return not (0 <= point[0] <= width and 0 <= point[1] <= height)


def exit_point(points: Sequence[Point], width: int, height: int) -> Point:
    """Where a flight path leaves the table (for drawing the model at the edge): its end clamped to the table."""
    x, y = points[-1]
    return (min(max(x, 0), width), min(max(y, 0), height))


def edge_positions(edge: str, radius: int, width: int, height: int, step: int) -> list[Point]:
    """Base centres touching ``edge`` from inside, every ``step`` along it (MOVING OFF THE BOARD)."""
    if edge in ("north", "south"):
        y = height - radius if edge == "north" else radius
        return [(x, y) for x in range(radius, width - radius + 1, step)]
    x = width - radius if edge == "east" else radius
    return [(x, y) for y in range(radius, height - radius + 1, step)]


def touches_edge(point: Point, radius: int, edge: str, width: int, height: int) -> bool:
    """Whether a base of ``radius`` at ``point`` touches ``edge`` from inside the table."""
    x, y = point
    if not (radius <= x <= width - radius and radius <= y <= height - radius):
        return False
    return {"north": y == height - radius, "south": y == radius, "east": x == width - radius,
            "west": x == radius}[edge]
