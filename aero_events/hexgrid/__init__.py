"""Hex-grid geometry for Aeronautica Imperialis: hexes, facings, boards, Fire Arcs and ranges.

Conventions (fixed for the whole project):

* **Hexes** are FLAT-TOP, in axial coordinates ``Hex(q, r)`` with cube
  ``s = -q - r``. Distance is ``(|dq| + |dr| + |ds|) // 2``. ``Hex`` is a
  ``NamedTuple``: hashable, ordered by (q, r), and encoded by msgspec as ``[q, r]``.
* **Drawing** (Plotly, y pointing UP): the centre of hex (q, r) is
  ``x = 1.5*size*q``, ``y = -sqrt(3)*size*(r + q/2)``. On the table a hex is
  2 inches across the flats (p.9), so ``size`` (the circumradius) is
  ``2/sqrt(3)`` inches; see :mod:`aero_events.hexgrid.pixels`.
* **Facing**: an aircraft faces one of its six hexsides (p.5). ``Facing`` is an
  ``IntEnum`` numbered clockwise like a compass, N=0, NE=1, SE=2, S=3, SW=4,
  NW=5, bearing ``60*facing`` degrees clockwise from north. Axial steps:
  N=(0,-1), NE=(+1,-1), SE=(+1,0), S=(0,+1), SW=(-1,+1), NW=(-1,0). Turning
  right adds 1 (mod 6), left subtracts 1.
* **Pose** ``(hex, facing)`` is where an aircraft is and which way it points.
  ``rotate``/``rotated`` turn a whole picture in 60-degree steps clockwise.
* **Boards** (p.9, p.17): only complete hexes of the grid over the mat belong
  to the Area of Engagement; entering an incomplete edge hex is leaving it.
  Layout is flat-top "odd-q" offset (odd columns half a hex lower), column 0
  on the west edge, row 0 on the north edge.
* **Fire Arcs** (p.5, p.21) are measured from the hex centre by exact integer
  tests; a hex cut by the line between two arcs is in both for targeting but
  wholly within neither (Tailing, p.30). **Range bands** (p.22): Short 1-4,
  Medium 5-7, Long 8-10 hexes.

Rule code never uses floats or networkx on hot paths; the graphs from
``Board.graph()`` and ``Board.pose_graph()`` are for planning questions.
"""

from aero_events.hexgrid.arcs import (
    MAX_RANGE,
    Arc,
    RangeBand,
    arcs_containing,
    in_arc,
    range_band,
    range_between,
    wholly_within,
)
from aero_events.hexgrid.board import PRESET_SIZES_INCHES, Board, Edge
from aero_events.hexgrid.facing import Facing
from aero_events.hexgrid.hexes import DIRECTIONS, ORIGIN, Hex
from aero_events.hexgrid.pixels import HEX_ACROSS_FLATS_INCHES, HEX_SIZE_INCHES, pixel_centre, pixel_corners
from aero_events.hexgrid.pose import Pose

__all__ = [
    "DIRECTIONS",
    "HEX_ACROSS_FLATS_INCHES",
    "HEX_SIZE_INCHES",
    "MAX_RANGE",
    "ORIGIN",
    "PRESET_SIZES_INCHES",
    "Arc",
    "Board",
    "Edge",
    "Facing",
    "Hex",
    "Pose",
    "RangeBand",
    "arcs_containing",
    "in_arc",
    "pixel_centre",
    "pixel_corners",
    "range_band",
    "range_between",
    "wholly_within",
]
