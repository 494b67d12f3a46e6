"""Continuous table geometry, deterministic to the byte: poses, shapes, arcs, distances, moves.

For the open-table rulesets (Wings of Glory, Battlefleet Gothic, A Million Coloured Sun, WHFB flying);
``hexgrid`` stays the geometry of Aeronautica's hexes. Conventions (fixed for the whole project):

* **Units.** Lengths are ``int`` hundredths of a millimetre (``CENTI_MM = 1``; ``mm(x)``, ``cm(x)``,
  ``inches(x)`` convert exactly, 1 inch = 2540). Angles are ``int`` hundredths of a degree
  (``DEGREE = 100``); headings are normalised to ``[0, 36000)``. Floats never enter rules state:
  ``to_mm``/``to_degrees`` are for drawing (``core.scene`` uses mm floats).
* **Axes.** ``x`` grows to the right (east), ``y`` up the table (north). Heading 0 faces north (+y),
  angles grow **clockwise** (9000 faces east). A piece's own frame is ``(right, forward)``.
* **Trigonometry** (``trig``): a committed table of ``round(sin * 2**30)`` for every centidegree,
  computed once with exact decimal arithmetic by ``make_sine_table.py`` and checked by a test
  (regenerated, compared with ``math.sin`` within 1 unit, SHA-256); no libm at runtime. A rotated
  coordinate is exact integer arithmetic divided by ``2**30`` and rounded **half-to-even**; turns by
  multiples of 90 degrees are exact.
* **Poses and motions** (``pose``): ``Pose(x, y, heading)``; ``Transform(x, y, turn)`` turns
  clockwise about the origin then shifts; ``pose.then(Transform(dx, dy, dtheta))`` plays a
  manoeuvre card given in the piece's frame; ``Transform.apply_pose`` moves a whole picture.
* **Shapes** (``shapes``): ``Circle``, ``OrientedRect`` (width across, length along the heading;
  its corners rounded once), ``Polygon``, ``Segment``, ``Capsule`` (a polyline thickened: a round
  base swept along a move), ``Sector`` (a fire arc). Shapes are closed: edges count as inside, so
  touching bases overlap (base contact) at distance 0.
* **Distances** (``measure``) are edge to edge, exact as squared fractions; ``gap`` rounds the
  root to the nearest centi-mm; prefer ``gap_at_most``/``compare_gap`` for range rules (no
  rounding). Centre-to-centre: ``distance(centre(a), centre(b))``.
* **Arcs** (``sectors``): exact sign tests against the table directions of the two boundary rays;
  on a boundary ray or at exactly the range counts as inside unless ``inclusive=False``;
  ``any_point_in_sector`` (WoG: any point of the base) is closed, ``centre_in_sector`` (BFG stem).
* **Moves** (``motion``): swept capsules and hulls, first contact in millionths of the move
  (``CONTACT_SCALE``, the smallest fraction at which the shapes touch), lines of fire past obstacles,
  scatter offsets.
* **Sight** (``sight``): ``visible_point`` finds a point of a target that a ruler from a point
  reaches without touching polygonal obstacles (WoG blocking), exactly, within an optional arc.
* **Table** (``area``): ``TableArea(width, height)`` with its south-west corner at the origin,
  edges by compass (NORTH is ``y = height``); touching an edge is still on the table.
* **Placement** (``placement``): ``nearest_free_position`` searches a grid around a point, nearest
  first, ties clockwise from north (MCS "reposition the minimum distance").
* **Drawing** (``aero_events.table.drawing``, not imported here): shapes as ``core.scene`` footprints
  and outlines in mm floats, for pictures only.

Invariance: a rigid motion of the whole picture by a multiple of 90 degrees keeps every answer
exactly; any other rotation moves each point by at most 0.71 centi-mm (rounding), so a gap changes
by at most 3 centi-mm and only answers that close to a boundary can flip. Rounded distances are a
metric within 1 centi-mm (triangle inequality), exact comparisons are exact.

Hot paths use plain ints and tuples; no networkx, no floats. Fractions appear only off the hot path
(``segment_crossing``, ``visible_point``).
"""

from aero_events.table.area import Edge, TableArea
from aero_events.table.measure import (
    compare_gap,
    contains,
    distance,
    distance_squared,
    gap,
    gap_at_most,
    gap_squared,
    orientation,
    overlaps,
    point_in_polygon,
    point_segment_squared,
    round_sqrt,
    segment_crossing,
    segments_intersect,
)
from aero_events.table.motion import (
    CONTACT_SCALE,
    crossed_obstacles,
    first_contact,
    first_contact_on_path,
    first_contacts,
    line_blocked,
    path_length,
    path_points,
    point_along,
    scatter,
    swept_circle,
    swept_circle_path,
    swept_rect,
    swept_rect_path,
    trace,
)
from aero_events.table.placement import nearest_free_position, search_order
from aero_events.table.pose import IDENTITY, Point, Pose, Transform, bearing, relative_bearing
from aero_events.table.sectors import any_point_in_sector, centre_in_sector, point_in_sector, wholly_in_sector
from aero_events.table.shapes import (
    Capsule,
    Circle,
    OrientedRect,
    Polygon,
    RectSide,
    Sector,
    Segment,
    Shape,
    bounds,
    centre,
    convex_hull,
    corners,
    hull,
)
from aero_events.table.sight import can_see, visible_point
from aero_events.table.trig import COS, SCALE, SIN, direction, heading_towards, rotate
from aero_events.table.units import (
    CENTI_MM,
    CENTIDEGREE,
    CM,
    DEGREE,
    FULL_TURN,
    HALF_TURN,
    INCH,
    MM,
    QUARTER_TURN,
    cm,
    degrees,
    heading,
    inches,
    mm,
    normalise,
    signed_angle,
    to_degrees,
    to_mm,
)

__all__ = [
    "CENTIDEGREE",
    "CENTI_MM",
    "CM",
    "CONTACT_SCALE",
    "COS",
    "DEGREE",
    "FULL_TURN",
    "HALF_TURN",
    "IDENTITY",
    "INCH",
    "MM",
    "QUARTER_TURN",
    "SCALE",
    "SIN",
    "Capsule",
    "Circle",
    "Edge",
    "OrientedRect",
    "Point",
    "Polygon",
    "Pose",
    "RectSide",
    "Sector",
    "Segment",
    "Shape",
    "TableArea",
    "Transform",
    "any_point_in_sector",
    "bearing",
    "bounds",
    "can_see",
    "centre",
    "centre_in_sector",
    "cm",
    "compare_gap",
    "contains",
    "convex_hull",
    "corners",
    "crossed_obstacles",
    "degrees",
    "direction",
    "distance",
    "distance_squared",
    "first_contact",
    "first_contact_on_path",
    "first_contacts",
    "gap",
    "gap_at_most",
    "gap_squared",
    "heading",
    "heading_towards",
    "hull",
    "inches",
    "line_blocked",
    "mm",
    "nearest_free_position",
    "normalise",
    "orientation",
    "overlaps",
    "path_length",
    "path_points",
    "point_along",
    "point_in_polygon",
    "point_in_sector",
    "point_segment_squared",
    "relative_bearing",
    "rotate",
    "round_sqrt",
    "scatter",
    "search_order",
    "segment_crossing",
    "segments_intersect",
    "signed_angle",
    "swept_circle",
    "swept_circle_path",
    "swept_rect",
    "swept_rect_path",
    "to_degrees",
    "to_mm",
    "trace",
    "visible_point",
    "wholly_in_sector",
]
