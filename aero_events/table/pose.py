"""Poses and rigid motions on the table.

A :class:`Pose` is where a piece is (``x``, ``y`` in centi-mm) and which way it faces (``heading`` in
centidegrees clockwise from north, in ``[0, 36000)``). Its local frame has ``right`` along +x and
``forward`` along +y when it faces north.

A :class:`Transform` is a rigid motion ``p -> rotate(p, turn) + (x, y)``: turn clockwise about the
origin, then translate. A pose *is* the transform from its local frame to the table, so a move given
in the piece's own frame (a Wings of Glory manoeuvre card: ``dx`` to the right, ``dy`` forward,
``dtheta`` clockwise, WINGS-OF-GLORY-DATA section 2) is ``pose.then(Transform(dx, dy, dtheta))``,
the same as ``pose.moved(forward=dy, right=dx, turn=dtheta)``; a motion of the whole picture is
``motion.apply_pose(pose)``.

Rounding: every rotated coordinate is rounded half-to-even to the centi-mm (see ``trig``), so
composing two transforms and applying the result can differ by one unit from applying them in turn.
Turns by multiples of 90 degrees are exact, and so is everything else (headings add exactly).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from aero_events.table.trig import COS, SIN, heading_towards, round_scaled
from aero_events.table.units import FULL_TURN

Point = tuple[int, int]
"""A point or vector on the table, ``(x, y)`` in centi-mm."""

Heading = Annotated[int, msgspec.Meta(ge=0, lt=FULL_TURN)]


def _turn(x: int, y: int, angle: int) -> tuple[int, int]:
    s = SIN[angle]
    c = COS[angle]
    return round_scaled(x * c + y * s), round_scaled(y * c - x * s)


class Pose(msgspec.Struct, frozen=True):
    """A piece's position ``(x, y)`` (centi-mm) and ``heading`` (centidegrees clockwise from north)."""

    x: int
    y: int
    heading: Heading = 0

    def __post_init__(self) -> None:
        if not 0 <= self.heading < FULL_TURN:
            raise ValueError(f"a heading must be in [0, 36000) centidegrees, got {self.heading}")

    @classmethod
    def at(cls, x: int, y: int, heading: int = 0) -> Pose:
        """A pose with ``heading`` normalised into ``[0, 36000)``."""
        return cls(x, y, heading % FULL_TURN)

    @property
    def position(self) -> Point:
        """``(x, y)``."""
        return (self.x, self.y)

    @property
    def transform(self) -> Transform:
        """The rigid motion from this pose's local frame to the table."""
        return Transform(self.x, self.y, self.heading)

    def moved(self, forward: int = 0, right: int = 0, turn: int = 0) -> Pose:
        """The pose after moving ``forward`` and ``right`` in its own frame, then turning ``turn``."""
        dx, dy = _turn(right, forward, self.heading)
        return Pose(self.x + dx, self.y + dy, (self.heading + turn) % FULL_TURN)

    def turned(self, turn: int) -> Pose:
        """The pose turned ``turn`` centidegrees clockwise in place."""
        return Pose(self.x, self.y, (self.heading + turn) % FULL_TURN)

    def then(self, local: Transform) -> Pose:
        """The pose after the move ``local`` given in this pose's own frame (``pose o local``)."""
        dx, dy = _turn(local.x, local.y, self.heading)
        return Pose(self.x + dx, self.y + dy, (self.heading + local.turn) % FULL_TURN)

    def to_world(self, local: Point) -> Point:
        """A point given in this pose's frame (``(right, forward)``) as a table point."""
        dx, dy = _turn(local[0], local[1], self.heading)
        return (self.x + dx, self.y + dy)

    def to_local(self, point: Point) -> Point:
        """A table point in this pose's frame, ``(right, forward)``, rounded."""
        return _turn(point[0] - self.x, point[1] - self.y, (FULL_TURN - self.heading) % FULL_TURN)


class Transform(msgspec.Struct, frozen=True):
    """A rigid motion: turn ``turn`` centidegrees clockwise about the origin, then shift by ``(x, y)``."""

    x: int = 0
    y: int = 0
    turn: Heading = 0

    def __post_init__(self) -> None:
        if not 0 <= self.turn < FULL_TURN:
            raise ValueError(f"a turn must be in [0, 36000) centidegrees, got {self.turn}")

    @classmethod
    def of(cls, x: int = 0, y: int = 0, turn: int = 0) -> Transform:
        """A transform with ``turn`` normalised into ``[0, 36000)`` (``-4500`` is 45 degrees left)."""
        return cls(x, y, turn % FULL_TURN)

    @classmethod
    def rotation_about(cls, centre: Point, turn: int) -> Transform:
        """Turning ``turn`` clockwise about ``centre`` (a wheel about a unit's front corner)."""
        turn %= FULL_TURN
        cx, cy = centre
        rx, ry = _turn(cx, cy, turn)
        return cls(cx - rx, cy - ry, turn)

    def apply(self, point: Point) -> Point:
        """Where this motion takes ``point``."""
        dx, dy = _turn(point[0], point[1], self.turn)
        return (self.x + dx, self.y + dy)

    def apply_vector(self, vector: Point) -> Point:
        """Where this motion takes a free vector (turned, not shifted)."""
        return _turn(vector[0], vector[1], self.turn)

    def apply_pose(self, pose: Pose) -> Pose:
        """Where this motion takes ``pose`` (position moved, heading turned)."""
        dx, dy = _turn(pose.x, pose.y, self.turn)
        return Pose(self.x + dx, self.y + dy, (pose.heading + self.turn) % FULL_TURN)

    def compose(self, inner: Transform) -> Transform:
        """``self o inner``: first ``inner``, then ``self``."""
        dx, dy = _turn(inner.x, inner.y, self.turn)
        return Transform(self.x + dx, self.y + dy, (self.turn + inner.turn) % FULL_TURN)

    def inverse(self) -> Transform:
        """The motion undoing this one (exact when ``turn`` is a multiple of 90 degrees)."""
        back = (FULL_TURN - self.turn) % FULL_TURN
        dx, dy = _turn(self.x, self.y, back)
        return Transform(-dx, -dy, back)


IDENTITY = Transform(0, 0, 0)
"""The motion that moves nothing."""


def bearing(origin: Point, target: Point) -> int:
    """The heading from ``origin`` to ``target`` in centidegrees, nearest table heading (``trig.heading_towards``)."""
    return heading_towards(target[0] - origin[0], target[1] - origin[1])


def relative_bearing(pose: Pose, target: Point) -> int:
    """Where ``target`` lies from ``pose``'s nose, in ``(-18000, 18000]``: positive right, negative left."""
    angle = (bearing((pose.x, pose.y), target) - pose.heading) % FULL_TURN
    return angle - FULL_TURN if angle > FULL_TURN // 2 else angle
