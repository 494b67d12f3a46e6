"""Range bands (p.22): Short 1-4, Medium 5-7, Long 8-10 hexes, counted hex by hex."""

import pytest
from hypothesis import given

from aero_events.hexgrid import MAX_RANGE, Hex, RangeBand, range_band, range_between
from tests.hexgrid.strategies import hexes


def test_each_distance_falls_in_its_rulebook_band():
    """1-4 Short, 5-7 Medium, 8-10 Long (p.22); the firer's own hex and 11+ are out of range."""
    expected = [None] + [RangeBand.SHORT] * 4 + [RangeBand.MEDIUM] * 3 + [RangeBand.LONG] * 3 + [None] * 5
    assert [range_band(d) for d in range(16)] == expected
    assert MAX_RANGE == 10


def test_bands_know_their_limits():
    """Each band names its nearest and furthest range in hexes."""
    assert [(b.shortest, b.longest) for b in RangeBand] == [(1, 4), (5, 7), (8, 10)]
    for band in RangeBand:
        assert all(range_band(d) is band for d in range(band.shortest, band.longest + 1))


def test_negative_distances_are_refused():
    """A distance is a count of hexes; a negative one is a bug upstream."""
    with pytest.raises(ValueError):
        range_band(-1)


@given(hexes, hexes)
def test_range_between_two_hexes_is_the_band_of_their_distance(a, b):
    """Range is measured by counting hexes from firer to target (p.22)."""
    assert range_between(a, b) is range_band(a.distance(b)) is range_between(b, a)


def test_range_between_examples():
    """Three hexes away is Short, seven is Medium, ten is Long, eleven is beyond range."""
    assert range_between(Hex(0, 0), Hex(3, -3)) is RangeBand.SHORT
    assert range_between(Hex(0, 0), Hex(-7, 2)) is RangeBand.MEDIUM
    assert range_between(Hex(0, 0), Hex(0, 10)) is RangeBand.LONG
    assert range_between(Hex(0, 0), Hex(11, -5)) is None
    assert range_between(Hex(2, 2), Hex(2, 2)) is None
