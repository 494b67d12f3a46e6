"""Unit geometry on the table: footprints of ranks and files, sides and arcs, moves and wheels, the three range
methods (Shooting Phase), line of sight from and to the air, and cover.

All lengths are 1/100 mm (1 inch = 2540), headings 1/100 degree clockwise from north (``aero_events.table``).
"""

from __future__ import annotations

from functools import lru_cache

from aero_events.table import (
    FULL_TURN,
    INCH,
    OrientedRect,
    Pose,
    Segment,
    Transform,
    bounds,
    centre,
    compare_gap,
    crossed_obstacles,
    gap,
    gap_squared,
    overlaps,
    relative_bearing,
    swept_rect,
)

from .data import TerrainPiece, UnitProfile
from .state import GameState, UnitState

#: "Flying units Fly at a standard 10 inches above the ground while in the air" (Movement Phase).
FLIGHT_HEIGHT = 10 * INCH
SIDES = ("front", "right", "rear", "left")
_SIDE_TURN = {"front": 0, "right": 9000, "rear": 18000, "left": 27000}


def ranks(unit: UnitState) -> int:
    return -(-unit.models // unit.files)


def size(unit: UnitState, profile: UnitProfile) -> tuple[int, int]:
    """(width, length): ``files`` bases across, as many ranks as the models fill deep (a short rear rank counts
    whole: host simplification)."""
    files = min(unit.files, unit.models)
    return files * profile.base_width, ranks(unit) * profile.base_depth


def footprint(unit: UnitState, profile: UnitProfile, pose: Pose | None = None, files: int | None = None) -> OrientedRect:
    """The unit's rectangle: ``files`` bases wide, its ranks deep, behind the front-centre ``pose``."""
    return footprint_at(pose or unit.pose, min(files or unit.files, unit.models), unit.models, profile.base_width,
                        profile.base_depth)


@lru_cache(maxsize=4096)
def footprint_at(pose: Pose, files: int, models: int, base_width: int, base_depth: int) -> OrientedRect:
    """:func:`footprint` of ``models`` in ``files`` files of bases ``base_width`` by ``base_depth`` at ``pose``."""
    length = -(-models // max(1, files)) * base_depth
    return OrientedRect(pose.moved(forward=-length // 2), files * base_width, length)


def side_midpoint(rect: OrientedRect, side: str) -> tuple[int, int]:
    pose = rect.pose
    if side == "front":
        return pose.moved(forward=rect.length // 2).position
    if side == "rear":
        return pose.moved(forward=-(rect.length // 2)).position
    if side == "right":
        return pose.moved(right=rect.width // 2).position
    return pose.moved(right=-(rect.width // 2)).position


def side_segment(rect: OrientedRect, side: str):
    from aero_events.table import RectSide, Segment

    a, b = rect.side(RectSide(side))
    return Segment(a, b)


def side_length(rect: OrientedRect, side: str) -> int:
    return rect.width if side in ("front", "rear") else rect.length


def outward(rect: OrientedRect, side: str) -> int:
    return (rect.pose.heading + _SIDE_TURN[side]) % FULL_TURN


def arc_of(target: OrientedRect, point: tuple[int, int]) -> str:
    """Which side of ``target`` faces ``point`` (host arcs: the front 90 degrees, each flank, the rear 90
    degrees; an exact 45-degree boundary counts for the front or rear)."""
    bearing = relative_bearing(target.pose, point)
    if -4500 <= bearing <= 4500:
        return "front"
    if bearing >= 13500 or bearing <= -13500:
        return "rear"
    return "right" if bearing > 0 else "left"


def contact_pose(target: OrientedRect, side: str) -> Pose:
    """Where a charger's front-centre stands to touch ``side`` of ``target``, facing it (host: charges close the
    door and centre on the side charged)."""
    x, y = side_midpoint(target, side)
    return Pose(x, y, (outward(target, side) + FULL_TURN // 2) % FULL_TURN)


def moved_straight(pose: Pose, heading: int, distance: int) -> Pose:
    return Pose(pose.x, pose.y, heading % FULL_TURN).moved(forward=distance)


@lru_cache(maxsize=4096)
def wheel(pose: Pose, width: int, heading: int) -> tuple[Pose, int]:
    """A ranked unit wheels to ``heading`` about its inner front corner; returns the pose and the distance the
    outer corner travelled (the wheel's cost, width x angle in radians with pi = 355/113)."""
    turn = (heading - pose.heading) % FULL_TURN
    signed = turn - FULL_TURN if turn > FULL_TURN // 2 else turn
    if signed == 0:
        return pose, 0
    pivot = pose.moved(right=width // 2 if signed > 0 else -(width // 2)).position
    moved = Transform.rotation_about(pivot, signed).apply_pose(pose)
    cost = -(-(width * abs(signed) * 355) // (113 * 18000))
    return moved, cost


def clear_of(rect, others) -> bool:
    """Whether ``rect`` keeps clear of every shape in ``others``; touching is allowed (base contact). Shapes
    whose bounding boxes are apart are passed over without the exact test."""
    inner = OrientedRect(rect.pose, max(0, rect.width - 2), max(0, rect.length - 2)) \
        if isinstance(rect, OrientedRect) else rect
    x0, y0, x1, y1 = bounds(inner)
    for other in others:
        a0, b0, a1, b1 = bounds(other)
        if a0 > x1 or a1 < x0 or b0 > y1 or b1 < y0:
            continue
        if shapes_overlap(inner, other):
            return False
    return True


#: How many shape pairs :func:`shapes_overlap` and :func:`gap_compared` keep.
KEPT_PAIRS = 1 << 14


@lru_cache(maxsize=KEPT_PAIRS)
def shapes_overlap(first, second) -> bool:
    """``aero_events.table.overlaps``, kept by shape: the units that wait their turn stand where they stood, so a
    Movement phase's legal commands ask the same pairs of footprints (and moves) again after each unit moves."""
    return overlaps(first, second)


@lru_cache(maxsize=KEPT_PAIRS)
def gap_compared(first, second, limit: int) -> int:
    """``aero_events.table.compare_gap``, kept by shapes and limit (see :func:`shapes_overlap`)."""
    return compare_gap(first, second, limit)


def boxes_apart(first, second, margin: int) -> bool:
    """Whether the bounding boxes of two shapes are more than ``margin`` apart (then so are the shapes)."""
    return bounds_apart(bounds(first), bounds(second), margin)


def bounds_apart(first: tuple[int, int, int, int], second: tuple[int, int, int, int], margin: int) -> bool:
    """:func:`boxes_apart` of two bounding boxes already worked out (``aero_events.table.bounds``)."""
    x0, y0, x1, y1 = first
    a0, b0, a1, b1 = second
    return a0 - x1 > margin or x0 - a1 > margin or b0 - y1 > margin or y0 - b1 > margin


def sweep(start: OrientedRect, end: OrientedRect) -> object:
    """The area a footprint covers moving straight from ``start`` to ``end`` (same size)."""
    return swept_rect(start.pose, end.pose, start.width, start.length)


def on_table(rect: OrientedRect, state: GameState) -> bool:
    return all(0 <= x <= state.width and 0 <= y <= state.height for x, y in rect.corners())


def ground_gap(first, second) -> int:
    return gap(first, second)


# ---------------------------------------------------------------- Shooting Phase: three range methods


def vertical(shooter: UnitState, target: UnitState) -> int:
    """The height between the two: 10" between air and ground, none when both are at the same level (spec gap:
    "Intermediate range for air-to-air")."""
    return FLIGHT_HEIGHT if shooter.in_air != target.in_air else 0


@lru_cache(maxsize=KEPT_PAIRS)
def within_range(method: str, first, second, height: int, reach: int) -> bool:
    """Shooting Phase, the three methods players agree on:

    * ``basic``: "Measure the ground distance only";
    * ``intermediate``: "Add 10 inches to the basic ground distance" (when one of the two is in the air);
    * ``advanced``: "the triangular distance ... (a^2 + b^2 = c^2)", exactly: ground^2 + 10"^2 <= range^2.

    Kept by its arguments, as :func:`shapes_overlap` is: every shooter and caster is tried against every target
    in each state of a Shooting or Magic phase, most of them where they stood in the state before.
    """
    if method == "basic" or height == 0:
        return compare_gap(first, second, reach) <= 0
    if method == "intermediate":
        return reach >= height and compare_gap(first, second, reach - height) <= 0
    if method == "advanced":
        if reach < height:
            return False
        (n, d), radii = gap_squared(first, second)
        if radii:
            raise ValueError("advanced range measures between footprints without radii")
        return n <= (reach * reach - height * height) * d
    raise ValueError(f"unknown range method {method!r}")


def range_between(method: str, first, second, height: int) -> int:
    """The range by ``method`` in 1/100 mm, rounded (for narration and the bot; rules use :func:`within_range`).
    """
    ground = gap(first, second)
    if method == "basic" or height == 0:
        return ground
    if method == "intermediate":
        return ground + height
    from aero_events.table import round_sqrt

    return round_sqrt(ground * ground + height * height)


# ---------------------------------------------------------------- line of sight and cover


def line_of_sight(state: GameState, profiles, shooter: UnitState, target: UnitState) -> bool:
    """Fly (Shooting): from the air a unit sees ground units "unless obstructed by a Large Target, Building, or
    other aerial model. They can see over normal walls and fences"; "Ground unit may target them in return
    using the same principles". Air to air: other aerial units block. Ground to ground (host): other ground
    units and buildings block; forests and obstacles give cover only. Lines run centre to centre (host
    simplification)."""
    start = centre(footprint(shooter, profiles[shooter.profile]))
    end = centre(footprint(target, profiles[target.profile]))
    obstacles = []
    both_in_air = shooter.in_air and target.in_air
    either_in_air = shooter.in_air or target.in_air
    for unit in state.units.values():
        if unit.id in (shooter.id, target.id) or not unit.in_play:
            continue
        profile = profiles[unit.profile]
        if both_in_air:
            blocks = unit.in_air
        elif either_in_air:
            blocks = unit.in_air or profile.large_target
        else:
            blocks = not unit.in_air
        if blocks:
            obstacles.append(footprint(unit, profile))
    if not (shooter.in_air and target.in_air):
        obstacles.extend(terrain_rect(t) for t in state.terrain if t.kind == "building")
    return not line_crosses(start, end, obstacles)


def line_crosses(start: tuple[int, int], end: tuple[int, int], obstacles) -> bool:
    """Whether the line from ``start`` to ``end`` touches any of ``obstacles`` (``aero_events.table``'s
    ``crossed_obstacles`` is not empty): an obstacle whose bounding box is apart from the line's is passed over,
    and the exact test is kept by shapes (:func:`shapes_overlap`), as the same units look at each other again
    in each state of a Shooting phase."""
    line = Segment(start, end)
    x0, x1 = (start[0], end[0]) if start[0] <= end[0] else (end[0], start[0])
    y0, y1 = (start[1], end[1]) if start[1] <= end[1] else (end[1], start[1])
    for obstacle in obstacles:
        a0, b0, a1, b1 = bounds(obstacle)
        if a0 > x1 or a1 < x0 or b0 > y1 or b1 < y0:
            continue
        if shapes_overlap(line, obstacle):
            return True
    return False


def terrain_rect(piece: TerrainPiece) -> OrientedRect:
    return OrientedRect(Pose(piece.x, piece.y, piece.heading % FULL_TURN), piece.width, piece.length)


def cover(state: GameState, profiles, shooter: UnitState, target: UnitState) -> int:
    """The cover modifier (0, -1 soft, -2 hard) the target keeps. Host: terrain with cover that the line from the
    shooter crosses, or that the target stands in (not terrain the shooter stands in). Flying units: "the
    target still gains the cover bonus if the Flying shooter is more than 10 inches away (in ground
    distance)", and the Fly Summary Table: Fly "ignores cover from obstacles within 10 inches" (spec gap: read
    together, one rule); ground units shoot back "using the same principles". Two units in the air: no cover
    from the ground."""
    if shooter.in_air and target.in_air:
        return 0
    shooter_rect = footprint(shooter, profiles[shooter.profile])
    target_rect = footprint(target, profiles[target.profile])
    if (shooter.in_air or target.in_air) and compare_gap(shooter_rect, target_rect, FLIGHT_HEIGHT) <= 0:
        return 0
    start, end = centre(shooter_rect), centre(target_rect)
    best = 0
    for piece in state.terrain:
        if piece.cover >= 0:
            continue
        rect = terrain_rect(piece)
        if overlaps(rect, start):
            continue
        if crossed_obstacles(start, end, [rect]) or overlaps(rect, end):
            best = min(best, piece.cover)
    return best


def in_front_arc(shooter_rect: OrientedRect, point: tuple[int, int]) -> bool:
    return -4500 <= relative_bearing(shooter_rect.pose, point) <= 4500
