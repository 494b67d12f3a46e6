"""Drawing geometry: flat-top hex centres and corners with y up, 2-inch hexes (p.9)."""

from math import hypot, isclose, sqrt

from hypothesis import given

from aero_events.hexgrid import HEX_ACROSS_FLATS_INCHES, HEX_SIZE_INCHES, Hex, pixel_centre, pixel_corners
from tests.hexgrid.strategies import facings, hexes


def test_default_size_makes_hexes_two_inches_across_flats():
    """A 2-inch hex (p.9) has circumradius 2/sqrt(3) inches."""
    assert HEX_ACROSS_FLATS_INCHES == 2
    assert isclose(HEX_SIZE_INCHES * sqrt(3), 2.0)


def test_centres_follow_the_project_formula_with_y_up():
    """``x = 1.5*size*q``, ``y = -sqrt(3)*size*(r + q/2)``: north is up the page."""
    assert pixel_centre(Hex(0, 0), 1.0) == (0.0, 0.0)
    x, y = pixel_centre(Hex(2, -3), 1.0)
    assert isclose(x, 3.0) and isclose(y, 2 * sqrt(3))
    assert pixel_centre(Hex(0, -1))[1] > 0  # the north neighbour is drawn above


@given(hexes, facings)
def test_neighbouring_centres_are_two_inches_apart(h, facing):
    """Adjacent hexes on the table are one 2-inch hex apart (p.9)."""
    (x1, y1), (x2, y2) = pixel_centre(h), pixel_centre(h.neighbour(facing))
    assert isclose(hypot(x2 - x1, y2 - y1), 2.0)


@given(hexes, facings)
def test_neighbours_share_exactly_two_corners(h, facing):
    """Neighbouring flat-top hexes share one hexside, i.e. two corners."""
    mine = {(round(x, 9), round(y, 9)) for x, y in pixel_corners(h)}
    theirs = {(round(x, 9), round(y, 9)) for x, y in pixel_corners(h.neighbour(facing))}
    assert len(mine & theirs) == 2


def test_corners_are_flat_top_and_one_size_from_the_centre():
    """Flat-top hexes have corners due east and west and a flat edge on top."""
    corners = pixel_corners(Hex(0, 0), 1.0)
    assert corners[0] == (1.0, 0.0) and corners[3] == (-1.0, 0.0)
    assert isclose(corners[1][1], corners[2][1])
    assert all(isclose(hypot(x, y), 1.0) for x, y in corners)
