"""Poses: an aircraft's hex and facing, moved forward and turned (p.16)."""

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from aero_events.hexgrid import Facing, Hex, Pose
from tests.hexgrid.strategies import hexes, poses, rotation_steps


def test_forward_moves_through_the_front_hexside():
    """Moving straight ahead goes through the hexside the aircraft faces (p.16)."""
    assert Pose(Hex(0, 0), Facing.N).forward() == Pose(Hex(0, -1), Facing.N)
    assert Pose(Hex(2, 1), Facing.SE).forward(3) == Pose(Hex(5, 1), Facing.SE)
    assert Pose(Hex(0, 0), Facing.SW).forward(2) == Pose(Hex(-2, 2), Facing.SW)


@given(poses, st.integers(0, 15))
def test_forward_n_is_n_single_steps_and_n_hexes_away(pose, n):
    """``forward(n)`` equals n moves of one hex and ends n hexes from the start."""
    stepped = pose
    for _ in range(n):
        stepped = stepped.forward()
    assert pose.forward(n) == stepped
    assert pose.forward(n).hex.distance(pose.hex) == n
    assert pose.forward(n).facing is pose.facing


@given(poses, rotation_steps)
def test_turning_keeps_the_hex_and_turns_the_facing(pose, steps):
    """Turning in place changes only the facing (p.16)."""
    turned = pose.turned(steps)
    assert turned.hex == pose.hex
    assert turned.facing is pose.facing.turned(steps)


@given(poses, hexes, rotation_steps)
def test_rotating_the_picture_commutes_with_moving_forward(pose, centre, steps):
    """Rotating then flying straight lands where flying straight then rotating does."""
    assert pose.rotated(centre, steps).forward(2) == pose.forward(2).rotated(centre, steps)
    assert pose.rotated(pose.hex, steps) == pose.turned(steps)


@given(poses, hexes)
def test_translating_moves_the_hex_and_keeps_the_facing(pose, delta):
    """A translation shifts the hex by the offset and leaves the facing alone."""
    moved = pose.translated(delta)
    assert moved == Pose(pose.hex + delta, pose.facing)
    assert moved.forward() == pose.forward().translated(delta)


def test_pose_encodes_as_nested_arrays():
    """A pose travels in event streams as ``[[q, r], facing]``."""
    pose = Pose(Hex(3, -1), Facing.NW)
    assert msgspec.json.encode(pose) == b"[[3,-1],5]"
    decoded = msgspec.json.decode(b"[[3,-1],5]", type=Pose)
    assert decoded == pose
    assert isinstance(decoded.hex, Hex) and decoded.facing is Facing.NW
