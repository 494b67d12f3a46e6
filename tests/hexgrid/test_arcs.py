"""Fire Arcs (p.5, p.21): exact integer arc tests, boundary hexes and their symmetries."""

from math import atan2, cos, degrees, radians, sin

import pytest
from hypothesis import assume, given

from aero_events.hexgrid import (
    ORIGIN,
    Arc,
    Facing,
    Hex,
    Pose,
    RangeBand,
    arcs_containing,
    in_arc,
    pixel_centre,
    pixel_corners,
    range_between,
    wholly_within,
)
from tests.hexgrid.strategies import hexes, nearby_offsets, poses, rotation_steps

DIRECTIONAL = (Arc.FRONT, Arc.REAR, Arc.LEFT, Arc.RIGHT)
NORTH = Pose(ORIGIN, Facing.N)


def directional_arcs(firer: Pose, target: Hex) -> frozenset[Arc]:
    return arcs_containing(firer, target) - {Arc.ALL_ROUND}


def relative_bearing(firer: Pose, target: Hex) -> float:
    """Float bearing of the target centre from the firer's nose, in [-180, 180), clockwise positive."""
    fx, fy = pixel_centre(firer.hex)
    tx, ty = pixel_centre(target)
    bearing = degrees(atan2(tx - fx, ty - fy)) - firer.facing.bearing
    return (bearing + 180) % 360 - 180


def arcs_by_angle(bearing: float) -> frozenset[Arc]:
    """Front +-30, Rear beyond +-150, sides 30-150 degrees either way (p.21), boundaries closed."""
    arcs = set()
    if abs(bearing) <= 30:
        arcs.add(Arc.FRONT)
    if abs(bearing) >= 150:
        arcs.add(Arc.REAR)
    if 30 <= bearing <= 150:
        arcs.add(Arc.RIGHT)
    if -150 <= bearing <= -30:
        arcs.add(Arc.LEFT)
    return frozenset(arcs)


def on_a_boundary(bearing: float, tolerance: float = 1e-7) -> bool:
    return any(abs(abs(bearing) - edge) < tolerance for edge in (30, 150))


def mirror_across_heading(firer: Pose, target: Hex) -> Hex:
    """Reflect ``target`` in the line along the firer's heading (x -> -x in the firer's frame)."""
    q, r = (target - firer.hex).rotate(ORIGIN, -firer.facing)
    return Hex(-q, r + q).rotate(ORIGIN, firer.facing) + firer.hex


def test_straight_ahead_is_front_at_every_range_band():
    """A target dead ahead is in the Front Arc; 3 Short, 5 Medium, 8 Long, 11 out of range (p.22)."""
    for firer in (NORTH, Pose(Hex(4, -2), Facing.SW)):
        for distance, band in ((3, RangeBand.SHORT), (5, RangeBand.MEDIUM), (8, RangeBand.LONG), (11, None)):
            target = firer.forward(distance).hex
            assert directional_arcs(firer, target) == {Arc.FRONT}
            assert wholly_within(firer, target, Arc.FRONT)
            assert range_between(firer.hex, target) is band


def test_first_diagonal_hex_is_in_front_and_right_but_wholly_within_neither():
    """(1, -2) from a north-facing aircraft is cut by the Front/Right line (p.21)."""
    target = Hex(1, -2)
    assert arcs_containing(NORTH, target) == {Arc.FRONT, Arc.RIGHT, Arc.ALL_ROUND}
    assert in_arc(NORTH, target, Arc.FRONT) and in_arc(NORTH, target, Arc.RIGHT)
    assert not wholly_within(NORTH, target, Arc.FRONT)
    assert not wholly_within(NORTH, target, Arc.RIGHT)
    assert abs(relative_bearing(NORTH, target) - 30) < 1e-9


def test_adjacent_hexes_fall_one_per_end_arc_and_two_per_side():
    """Of the six neighbours only the one ahead is Front and the one behind Rear (60-degree arcs)."""
    expected = {
        Facing.N: {Arc.FRONT}, Facing.NE: {Arc.RIGHT}, Facing.SE: {Arc.RIGHT},
        Facing.S: {Arc.REAR}, Facing.SW: {Arc.LEFT}, Facing.NW: {Arc.LEFT},
    }
    for facing, arcs in expected.items():
        assert directional_arcs(NORTH, ORIGIN.neighbour(facing)) == arcs


def test_own_hex_is_in_no_arc():
    """The firer's own hex is not targetable through any arc, not even All Round."""
    for facing in Facing:
        firer = Pose(Hex(3, 3), facing)
        assert arcs_containing(firer, Hex(3, 3)) == frozenset()
        assert not any(in_arc(firer, Hex(3, 3), arc) for arc in Arc)
        assert not any(wholly_within(firer, Hex(3, 3), arc) for arc in Arc)


def test_tailing_position_example():
    """Directly behind a target facing the same way: target in Front, tailer wholly in its Rear (p.30)."""
    target = Pose(Hex(5, 5), Facing.NE)
    tailer = target.forward(-2)
    assert wholly_within(tailer, target.hex, Arc.FRONT)
    assert wholly_within(target, tailer.hex, Arc.REAR)
    assert range_between(tailer.hex, target.hex) is RangeBand.SHORT
    # (1, 1) behind a north-facing aircraft is on its Rear/Right line; turned to NE it is (-1, 2).
    on_the_line = Pose(target.hex + Hex(-1, 2), Facing.NE)
    assert directional_arcs(target, on_the_line.hex) == {Arc.REAR, Arc.RIGHT}
    assert in_arc(on_the_line, target.hex, Arc.FRONT)  # it may still shoot...
    assert not wholly_within(target, on_the_line.hex, Arc.REAR)  # ...but it is not Tailing


@given(poses, nearby_offsets, hexes, rotation_steps)
def test_rotating_and_translating_the_picture_keeps_every_answer(firer, offset, centre, steps):
    """Arcs and ranges depend only on the relative position, not where or which way the table is turned."""
    target = firer.hex + offset
    moved_firer = firer.rotated(centre, steps).translated(centre)
    moved_target = target.rotate(centre, steps) + centre
    assert arcs_containing(moved_firer, moved_target) == arcs_containing(firer, target)
    for arc in Arc:
        assert in_arc(moved_firer, moved_target, arc) == in_arc(firer, target, arc)
        assert wholly_within(moved_firer, moved_target, arc) == wholly_within(firer, target, arc)
    assert range_between(moved_firer.hex, moved_target) is range_between(firer.hex, target)


@given(poses, nearby_offsets)
def test_every_other_hex_is_in_at_least_one_arc(firer, offset):
    """The four arcs cover the whole table around the aircraft (p.21); All Round covers everything."""
    assume(offset != ORIGIN)
    target = firer.hex + offset
    assert 1 <= len(directional_arcs(firer, target)) <= 2
    assert Arc.ALL_ROUND in arcs_containing(firer, target)
    assert wholly_within(firer, target, Arc.ALL_ROUND)


@given(poses, nearby_offsets)
def test_front_and_rear_are_mirror_images(firer, offset):
    """A hex is in the Front Arc exactly when its point reflection through the firer is in the Rear."""
    target = firer.hex + offset
    reflected = firer.hex - offset
    assert in_arc(firer, target, Arc.FRONT) == in_arc(firer, reflected, Arc.REAR)
    assert wholly_within(firer, target, Arc.FRONT) == wholly_within(firer, reflected, Arc.REAR)
    assert in_arc(firer, target, Arc.LEFT) == in_arc(firer, reflected, Arc.RIGHT)


@given(poses, nearby_offsets)
def test_left_and_right_are_mirror_images(firer, offset):
    """Reflecting in the aircraft's heading swaps Left and Right and keeps Front and Rear."""
    target = firer.hex + offset
    mirrored = mirror_across_heading(firer, target)
    assert mirror_across_heading(firer, mirrored) == target
    for arc, mirror_arc in ((Arc.LEFT, Arc.RIGHT), (Arc.RIGHT, Arc.LEFT), (Arc.FRONT, Arc.FRONT),
                            (Arc.REAR, Arc.REAR)):
        assert in_arc(firer, target, arc) == in_arc(firer, mirrored, mirror_arc)
        assert wholly_within(firer, target, arc) == wholly_within(firer, mirrored, mirror_arc)


@given(poses, nearby_offsets)
def test_boundary_hexes_are_in_two_arcs_and_wholly_within_neither(firer, offset):
    """A hex cut by the line between arcs is targetable from both (p.21) but wholly in neither (p.30)."""
    target = firer.hex + offset
    arcs = directional_arcs(firer, target)
    for arc in DIRECTIONAL:
        assert in_arc(firer, target, arc) == (arc in arcs)
        assert wholly_within(firer, target, arc) == (arcs == {arc})
    if len(arcs) == 2:
        assert arcs in ({Arc.FRONT, Arc.LEFT}, {Arc.FRONT, Arc.RIGHT}, {Arc.REAR, Arc.LEFT},
                        {Arc.REAR, Arc.RIGHT})


@given(poses, nearby_offsets)
def test_float_angles_agree_with_the_integer_test(firer, offset):
    """The derivation 3|q| <= -(2r + q) matches bearings measured with trig from the hex centre (p.21)."""
    assume(offset != ORIGIN)
    target = firer.hex + offset
    bearing = relative_bearing(firer, target)
    if on_a_boundary(bearing):
        assert len(directional_arcs(firer, target)) == 2
    else:
        assert directional_arcs(firer, target) == arcs_by_angle(bearing)
        assert len(arcs_by_angle(bearing)) == 1


@pytest.mark.parametrize("facing", list(Facing))
def test_arc_lines_cut_exactly_the_boundary_hexes(facing):
    """The lines between arcs pass through a hex's interior only when they pass through its centre.

    Elsewhere they run along hexsides, so a hex is "intersected by the line
    between Fire Arcs" (p.21) exactly when the integer test hits equality.
    """
    firer = Pose(Hex(2, -1), facing)
    fx, fy = pixel_centre(firer.hex)
    lines = [radians(facing.bearing + 30), radians(facing.bearing + 150)]  # each line covers two arc edges
    for q in range(-12, 13):
        for r in range(-12, 13):
            target = firer.hex + Hex(q, r)
            if target == firer.hex:
                continue
            cut = False
            for angle in lines:
                sides = [(x - fx) * cos(angle) - (y - fy) * sin(angle) for x, y in pixel_corners(target)]
                cut = cut or (min(sides) < -1e-9 and max(sides) > 1e-9)
            assert cut == (len(directional_arcs(firer, target)) == 2), target


def test_arc_widths_match_the_rulebook_proportions():
    """Out to Long range the side arcs hold about twice the hexes of Front or Rear (120 vs 60 degrees)."""
    counts = dict.fromkeys(DIRECTIONAL, 0.0)
    for q in range(-10, 11):
        for r in range(-10, 11):
            target = Hex(q, r)
            if target == ORIGIN or ORIGIN.distance(target) > 10:
                continue
            arcs = directional_arcs(NORTH, target)
            for arc in arcs:
                counts[arc] += 1 / len(arcs)
    total = sum(counts.values())
    assert total == 330  # hexes within 10: 3*10*11
    assert counts[Arc.FRONT] == counts[Arc.REAR]
    assert counts[Arc.LEFT] == counts[Arc.RIGHT] == 2 * counts[Arc.FRONT]
