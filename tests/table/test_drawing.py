"""Table shapes drawn as scene data: millimetre floats and degrees, for pictures only."""

import math

import pytest

from aero_events.core import scene
from aero_events.table import Capsule, Circle, OrientedRect, Polygon, Pose, Sector, Segment, TableArea, cm, mm
from aero_events.table.drawing import anchor, capsule_legs, footprint, outline, table


def test_a_rectangular_base_is_a_scene_rect_at_its_pose():
    base = OrientedRect(Pose(mm(100), mm(50), 4500), mm(44), mm(67))
    assert anchor(base) == (100.0, 50.0, 45.0)
    assert footprint(base) == scene.Rect(width=44.0, length=67.0)


def test_a_round_base_is_a_scene_circle_at_its_centre():
    assert anchor(Circle((mm(10), mm(20)), mm(16))) == (10.0, 20.0, 0.0)
    assert footprint(Circle((0, 0), mm(16))) == scene.Circle(radius=16.0)
    assert footprint(Polygon(((0, 0), (100, 0), (0, 100)))) == scene.Polygon(points=((0, 0), (1, 0), (0, 1)))


def test_outlines_are_table_points_in_mm():
    assert outline(OrientedRect(Pose(0, 0, 0), 200, 400)) == (
        (-1.0, 2.0),
        (1.0, 2.0),
        (1.0, -2.0),
        (-1.0, -2.0),
    )
    assert outline(Segment((0, 0), (100, 0))) == ((0.0, 0.0), (1.0, 0.0))
    ring = outline(Circle((0, 0), mm(10)), segments=12)
    assert len(ring) == 12 and all(math.isclose(math.hypot(x, y), 10.0) for x, y in ring)
    stadium = outline(Capsule(((0, 0), (0, mm(100))), mm(5)), segments=8)
    assert all(-5.0 - 1e-9 <= x <= 5.0 + 1e-9 and -5.0 - 1e-9 <= y <= 105.0 + 1e-9 for x, y in stadium)


def test_a_fire_arc_outline_starts_at_the_apex_and_sweeps_its_cone():
    cone = outline(Sector(Pose(0, 0, 0), 3500, mm(200)), segments=36)
    assert cone[0] == (0.0, 0.0)
    left, right = cone[1], cone[-1]
    assert math.isclose(math.degrees(math.atan2(left[0], left[1])), -35.0)
    assert math.isclose(math.degrees(math.atan2(right[0], right[1])), 35.0)
    with pytest.raises(ValueError):
        outline(Sector(Pose(0, 0, 0), 3500))


def test_a_capsule_along_several_legs_is_drawn_leg_by_leg():
    path = Capsule(((0, 0), (0, 100), (100, 100)), 10)
    with pytest.raises(ValueError):
        outline(path)
    assert capsule_legs(path) == (Capsule(((0, 0), (0, 100)), 10), Capsule(((0, 100), (100, 100)), 10))


def test_the_table_area_becomes_an_open_scene_table():
    assert table(TableArea(cm(180), cm(120)), "6 by 4") == scene.Table(
        width=1800.0, height=1200.0, name="6 by 4"
    )
