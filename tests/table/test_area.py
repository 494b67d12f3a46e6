"""The table: inside/outside, edges crossed, wholly off, distance to the nearest edge."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aero_events.table import Circle, Edge, OrientedRect, Pose, TableArea, Transform, cm, mm
from tests.table.strategies import moved, shapes

TABLE = TableArea(cm(180), cm(120))  # a 6' x 4' table is about 180 x 120 cm


def test_points_on_the_edge_line_are_on_the_table_unless_strict():
    assert TABLE.contains_point((0, 0))
    assert not TABLE.contains_point((0, 0), inclusive=False)
    assert not TABLE.contains_point((-1, 5))


def test_a_base_touching_an_edge_is_on_the_table_and_crosses_nothing():
    touching = Circle((mm(16), cm(60)), mm(16))
    assert TABLE.contains(touching)
    assert TABLE.edges_crossed(touching) == frozenset()
    assert TABLE.distance_to_edge(touching) == 0


def test_a_base_over_a_corner_crosses_two_edges():
    """WoG: a plane whose base goes past the edge leaves the playing area (spec, Leaving the table)."""
    plane = OrientedRect(Pose(cm(180), cm(120), 4500), mm(44), mm(67))
    assert TABLE.edges_crossed(plane) == {Edge.NORTH, Edge.EAST}
    assert not TABLE.contains(plane)
    assert not TABLE.wholly_off(plane)
    assert TABLE.distance_to_edge(plane) < 0


def test_wholly_off_means_no_point_left_on_the_closed_table():
    assert TABLE.wholly_off(Circle((-mm(20), cm(60)), mm(16)))
    assert not TABLE.wholly_off(Circle((-mm(16), cm(60)), mm(16)))  # touching the west edge from outside
    assert TABLE.wholly_off(
        Circle((-mm(12), -mm(12)), mm(16))
    )  # by the corner: bounding box overlaps, disc not


def test_nearest_edge_and_edge_distances():
    ship = Circle((cm(10), cm(100)), mm(30))
    assert TABLE.edge_distances(ship) == {
        Edge.NORTH: cm(20) - mm(30),
        Edge.EAST: cm(170) - mm(30),
        Edge.SOUTH: cm(100) - mm(30),
        Edge.WEST: cm(10) - mm(30),
    }
    assert TABLE.nearest_edge(ship) == Edge.WEST
    assert TABLE.nearest_edge(TABLE.centre) == Edge.NORTH  # 60 cm from north and south: north first


def test_edges_are_segments_of_the_table_outline():
    assert TABLE.edge_segment(Edge.NORTH) == ((0, cm(120)), (cm(180), cm(120)))
    assert TABLE.edge_segment(Edge.WEST) == ((0, 0), (0, cm(120)))
    assert TABLE.polygon.points[0] == (0, 0)


def test_a_table_needs_a_positive_size():
    with pytest.raises(ValueError):
        TableArea(0, 10)


@given(shapes, st.sampled_from([0, 9000, 18000, 27000]))
def test_turning_a_square_table_with_its_pieces_keeps_the_answers(shape, turn):
    """Turning the whole picture (table included) a right angle maps edges to edges."""
    square = TableArea(cm(120), cm(120))
    centre = (cm(60), cm(60))
    spin = Transform.rotation_about(centre, turn)
    assert square.contains(moved(shape, spin)) == square.contains(shape)
    assert square.wholly_off(moved(shape, spin)) == square.wholly_off(shape)
    assert len(square.edges_crossed(moved(shape, spin))) == len(square.edges_crossed(shape))
    assert square.distance_to_edge(moved(shape, spin)) == square.distance_to_edge(shape)
