"""Where an aircraft is and which way it faces.

An aircraft's position on the table is its hex plus the hexside its base
faces (p.5, p.16): movement goes forward through the front hexside and
manoeuvres turn the base one hexside at a time. Fire Arcs (p.21) are measured
from this pose.
"""

from __future__ import annotations

from typing import NamedTuple

from aero_events.hexgrid.facing import _DELTAS, _FACINGS, Facing
from aero_events.hexgrid.hexes import Hex


class Pose(NamedTuple):
    """An aircraft's ``hex`` and ``facing``; msgspec encodes it as ``[[q, r], facing]``."""

    hex: Hex
    facing: Facing

    def forward(self, n: int = 1) -> Pose:
        """The pose after moving ``n`` hexes straight ahead through the front hexside (p.16)."""
        (q, r), facing = self
        dq, dr = _DELTAS[facing]
        return Pose(Hex(q + dq * n, r + dr * n), facing)

    def turned(self, steps: int) -> Pose:
        """The pose after turning ``steps`` hexsides in place; positive is clockwise (right)."""
        return Pose(self[0], _FACINGS[(self[1] + steps) % 6])

    def rotated(self, about: tuple[int, int], steps: int) -> Pose:
        """The pose after turning the whole picture ``steps`` x 60 degrees clockwise around ``about``."""
        return Pose(self[0].rotate(about, steps), _FACINGS[(self[1] + steps) % 6])

    def translated(self, delta: tuple[int, int]) -> Pose:
        """The pose shifted by the axial offset ``delta``, facing unchanged."""
        q, r = self[0]
        return Pose(Hex(q + delta[0], r + delta[1]), self[1])
