"""Poses and rigid transforms: manoeuvre cards as local transforms, whole-picture motions."""

import pytest
from hypothesis import given

from aero_events.table import IDENTITY, Pose, Transform, bearing, mm, relative_bearing
from tests.table.strategies import coordinates, headings, motions, poses, right_angle_motions


def test_a_pose_faces_north_by_default_and_refuses_an_unnormalised_heading():
    assert Pose(0, 0).heading == 0
    with pytest.raises(ValueError):
        Pose(0, 0, 36000)
    assert Pose.at(0, 0, -9000) == Pose(0, 0, 27000)


def test_wog_bank_card_is_a_rigid_transform_in_the_planes_frame():
    """WINGS-OF-GLORY-DATA section 2: a right bank moves the base 34.3 right, 112.1 forward, turns 33 deg."""
    bank = Transform(mm("34.3"), mm("112.1"), 3300)
    assert Pose(0, 0, 0).then(bank) == Pose(3430, 11210, 3300)
    # the same card flown facing east: forward is +x, right is -y
    assert Pose(1000, 2000, 9000).then(bank) == Pose(1000 + 11210, 2000 - 3430, 12300)
    assert Pose(0, 0, 0).moved(forward=mm("112.1"), right=mm("34.3"), turn=3300) == Pose(3430, 11210, 3300)


def test_a_left_card_mirrors_the_right_card():
    """Left cards: ex -> -ex, theta -> -theta (WINGS-OF-GLORY-DATA section 2)."""
    left_bank = Transform.of(-mm("34.3"), mm("112.1"), -3300)
    assert Pose(0, 0, 0).then(left_bank) == Pose(-3430, 11210, 32700)


def test_moving_forward_along_45_degrees_rounds_each_coordinate_half_to_even():
    assert Pose(0, 0, 4500).moved(forward=1000) == Pose(707, 707, 4500)


def test_rotation_about_a_front_corner_is_a_wheel():
    """WHFB wheel: the unit pivots about a front corner; the corner stays, the centre swings."""
    wheel = Transform.rotation_about((1000, 500), 9000)
    assert wheel.apply((1000, 500)) == (1000, 500)
    assert wheel.apply((0, 0)) == (500, 1500)
    assert wheel.apply_pose(Pose(0, 0, 0)) == Pose(500, 1500, 9000)


def test_local_and_world_points_round_trip_for_a_pose():
    pose = Pose(5000, -2000, 9000)
    assert pose.to_world((100, 300)) == (5300, -2100)
    assert pose.to_local((5300, -2100)) == (100, 300)


@given(poses, right_angle_motions, right_angle_motions)
def test_right_angle_transforms_compose_exactly(pose, first, second):
    assert second.compose(first).apply_pose(pose) == second.apply_pose(first.apply_pose(pose))
    assert first.inverse().apply_pose(first.apply_pose(pose)) == pose
    assert first.compose(first.inverse()) == IDENTITY


@given(poses, motions, motions)
def test_any_transforms_compose_within_a_unit_of_rounding(pose, first, second):
    once = second.compose(first).apply_pose(pose)
    twice = second.apply_pose(first.apply_pose(pose))
    assert once.heading == twice.heading
    assert abs(once.x - twice.x) <= 2 and abs(once.y - twice.y) <= 2
    back = first.inverse().apply_pose(first.apply_pose(pose))
    assert back.heading == pose.heading
    assert abs(back.x - pose.x) <= 2 and abs(back.y - pose.y) <= 2


@given(poses, coordinates, coordinates, headings)
def test_a_card_played_from_a_moved_picture_lands_on_the_moved_result(pose, dx, dy, turn):
    """pose o card, then the whole picture turned a right angle == the turned pose o card (exact)."""
    card = Transform(dx, dy, turn)
    picture = Transform(123, -456, 27000)
    assert picture.apply_pose(pose.then(card)) == picture.apply_pose(pose).then(card)


def test_bearings_are_clockwise_from_north_and_relative_to_the_nose():
    assert bearing((0, 0), (100, 100)) == 4500
    assert relative_bearing(Pose(0, 0, 9000), (0, 100)) == -9000  # north is to an east-facing plane's left
    assert relative_bearing(Pose(0, 0, 9000), (-100, 0)) == 18000
