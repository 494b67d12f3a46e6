"""The geometry players would accept: rigid card moves, overlaps, rulers over bases, cones, swept regions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.rulesets.wings_of_glory import WingsOfGloryRules
from aero_events.rulesets.wings_of_glory.geometry import (
    Pose,
    Transform,
    arc_pieces,
    clip_to_piece,
    contains,
    convex_hull,
    crosses,
    overlap,
    rectangle,
    touches,
)
from aero_events.table.sectors import any_point_in_sector, point_in_sector
from aero_events.table.shapes import Polygon as TablePolygon
from aero_events.table.shapes import Sector

RULES = WingsOfGloryRules()
coords = st.integers(-50_000, 50_000)
headings = st.integers(0, 35_999)


def test_a_card_move_is_a_rigid_transform_of_the_base():
    """MOVEMENT: the same card from any pose moves the base by the same amount in the base's own frame."""
    east = Pose(10_000, 10_000, 9_000).then(Transform(3_430, 11_210, 3_300))
    assert (east.x, east.y, east.heading) == (10_000 + 11_210, 10_000 - 3_430, 12_300)


def test_bases_touching_edge_to_edge_do_not_overlap():
    a = rectangle(Pose(0, 0, 0), 4_400, 6_700)
    assert not overlap(a, rectangle(Pose(4_400, 0, 0), 4_400, 6_700))
    assert overlap(a, rectangle(Pose(4_399, 0, 0), 4_400, 6_700))


def test_a_ruler_grazing_a_corner_does_not_cross_the_base():
    """TARGETING: the ruler must cross another base to be blocked."""
    base = rectangle(Pose(0, 0, 0), 4_400, 6_700)
    assert not crosses((-2_200, -10_000), (-2_200, 10_000), base)
    assert crosses((-2_199, -10_000), (-2_199, 10_000), base)
    assert touches((-2_200, -10_000), (-2_200, 10_000), base)


def test_cone_edges_are_inside():
    """FIRING: a point on the edge of the 35 degree cone is within it; a base touching the cone's edge is in
    the arc (the shared table's closed sectors, built from the data's arcs)."""
    (bearing, half), = RULES.catalogue.arc_sectors["front"]
    assert (bearing, half) == (0, 3_500)
    north, east = Sector.about(Pose(0, 0, 0), bearing, half), Sector.about(Pose(0, 0, 9_000), bearing, half)
    assert point_in_sector((0, 1_000), north) and point_in_sector((1_000, 0), east)
    assert not point_in_sector((1_000, 1_000), north)
    edge = Pose(0, 0, 3_500).then(Transform(0, 10_000, 0))
    assert point_in_sector(edge.position, north)
    touching = rectangle(Pose(edge.x + 2_200, edge.y - 3_350, 0), 4_400, 6_700)  # its front-left corner on the edge
    assert edge.position in touching and any_point_in_sector(TablePolygon(touching), north)
    clear = rectangle(Pose(edge.x + 2_201, edge.y - 3_350, 0), 4_400, 6_700)
    assert not any_point_in_sector(TablePolygon(clear), north)


def test_a_turret_arc_is_split_into_convex_pieces():
    assert arc_pieces([(3_500, 32_500)]) == ((3_500, 21_500), (21_500, 32_500))


@settings(max_examples=60, deadline=None)
@given(coords, coords, headings, coords, coords, headings, st.integers(-20, 20), st.integers(-20, 20),
       st.integers(0, 3))
def test_overlap_and_crossing_survive_moving_the_whole_picture(x1, y1, h1, x2, y2, h2, tx, ty, quarter):
    """A rigid motion of the whole picture (quarter turns and shifts, exact in integers) keeps every answer."""
    def move(point):
        x, y = point
        for _ in range(quarter):
            x, y = y, -x
        return x + tx * 1_000, y + ty * 1_000

    a = rectangle(Pose(x1, y1, h1), 4_400, 6_700)
    b = rectangle(Pose(x2, y2, h2), 8_900, 6_700)
    moved_a, moved_b = tuple(map(move, a)), tuple(map(move, b))
    assert overlap(a, b) == overlap(moved_a, moved_b)
    start, end = (x1, y1), (x2, y2)
    assert crosses(start, end, a) == crosses(move(start), move(end), moved_a)


@settings(max_examples=60, deadline=None)
@given(coords, coords, headings, headings)
def test_the_part_of_a_base_in_a_cone_lies_in_the_base(x, y, h, aim):
    base = rectangle(Pose(x, y, h), 4_400, 6_700)
    for piece in arc_pieces([(-3_500, 3_500)]):
        for point in clip_to_piece(base, (0, 0), aim, piece):
            grown = convex_hull([(px + dx, py + dy) for px, py in base for dx in (-2, 2) for dy in (-2, 2)])
            assert contains(grown, point)
