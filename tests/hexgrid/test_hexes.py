"""Hexes: axial coordinates, hex distance (range counting, p.22) and whole-picture rotation."""

import msgspec
import pytest
from hypothesis import given

from aero_events.hexgrid import DIRECTIONS, ORIGIN, Facing, Hex
from tests.hexgrid.strategies import facings, hexes, rotation_steps


@given(hexes)
def test_cube_coordinates_sum_to_zero(h):
    """``s`` is the third cube coordinate, ``-q - r``."""
    assert h.q + h.r + h.s == 0


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    """Counting hexes (p.22) is a metric: identity, symmetry and the triangle inequality."""
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(b) == b.distance(a) >= 0
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes, hexes)
def test_distance_is_half_the_cube_manhattan_distance(a, b):
    """Hex distance is ``(|dq| + |dr| + |ds|) // 2``, and that sum is always even."""
    total = abs(a.q - b.q) + abs(a.r - b.r) + abs(a.s - b.s)
    assert total % 2 == 0
    assert a.distance(b) == total // 2 == max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))


@given(hexes)
def test_neighbours_are_six_distinct_hexes_at_distance_one(h):
    """Each hex has six neighbours, one through each hexside (p.16)."""
    around = h.neighbours()
    assert len(set(around)) == 6
    assert all(h.distance(n) == 1 for n in around)
    assert around == tuple(h.neighbour(f) for f in Facing)


@given(hexes, facings)
def test_stepping_out_and_back_returns_home(h, facing):
    """Moving through a hexside then through the opposite one undoes the move."""
    assert h.neighbour(facing).neighbour(facing.opposite) == h
    assert h.neighbour(facing) == h + DIRECTIONS[facing]


def test_arithmetic_is_vector_arithmetic_not_tuple_arithmetic():
    """``+``, ``-``, unary ``-`` and ``*`` translate and scale instead of concatenating."""
    assert Hex(1, 2) + Hex(3, -4) == Hex(4, -2) == Hex(1, 2).add((3, -4))
    assert Hex(1, 2) - Hex(3, -4) == Hex(-2, 6) == Hex(1, 2).sub((3, -4))
    assert -Hex(1, -2) == Hex(-1, 2)
    assert Hex(1, -2) * 3 == 3 * Hex(1, -2) == Hex(3, -6) == Hex(1, -2).scaled(3)
    assert isinstance(Hex(0, 0) + Hex(1, 1), Hex)


@given(hexes, hexes)
def test_rotating_six_steps_is_the_identity(h, centre):
    """Six 60-degree turns bring every hex back; rotation steps work modulo six."""
    assert h.rotate(centre, 6) == h
    assert h.rotate(centre, 0) == h
    assert h.rotate(centre, 1).rotate(centre, 5) == h
    assert h.rotate(centre, -1) == h.rotate(centre, 5)


@given(hexes, hexes, hexes, rotation_steps)
def test_rotation_keeps_distances(a, b, centre, steps):
    """Turning a whole picture moves no hex closer to another, nor to the centre."""
    assert a.rotate(centre, steps).distance(b.rotate(centre, steps)) == a.distance(b)
    assert a.rotate(centre, steps).distance(centre) == a.distance(centre)
    assert centre.rotate(centre, steps) == centre


@given(hexes, facings, rotation_steps)
def test_rotation_turns_directions_clockwise(centre, facing, steps):
    """A neighbour through hexside f rotated by k steps is the neighbour through f turned k."""
    assert centre.neighbour(facing).rotate(centre, steps) == centre.neighbour(facing.turned(steps))


def test_hex_is_ordered_hashable_and_encoded_as_an_array():
    """Hexes sort by (q, r), key dicts and sets, and travel as ``[q, r]`` (msgspec)."""
    assert sorted([Hex(1, 0), Hex(0, 5), Hex(0, -1)]) == [Hex(0, -1), Hex(0, 5), Hex(1, 0)]
    assert {Hex(2, 3): "x"}[Hex(2, 3)] == "x"
    assert msgspec.json.encode(Hex(2, -3)) == b"[2,-3]"
    assert msgspec.json.decode(b"[2,-3]", type=Hex) == Hex(2, -3)
    assert Hex(0, 0) == ORIGIN


def test_hex_is_immutable():
    """A hex is a value: it cannot be changed in place."""
    with pytest.raises(AttributeError):
        Hex(0, 0).q = 1  # type: ignore[misc]
