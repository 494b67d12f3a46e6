"""Speed work (issue 18, session 12) that must not change a rule: a path passes over the Blast markers whose centre
is more than the reach beyond the box around a leg without the exact search (Blast markers, p.25); the contact
found is the exact one of ``aero_events.table.motion`` for every leg and marker."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.rulesets.battlefleet_gothic import geometry
from aero_events.table import Circle, motion


def plain_contact(a, b, centre, reach):
    """first_contact_along without the short cut."""
    fraction = motion.first_contact(a, (b[0] - a[0], b[1] - a[1]), Circle(centre, reach))
    return None if fraction is None else fraction * geometry.distance(a, b) // motion.CONTACT_SCALE


coordinate = st.integers(-60_000, 60_000)


@settings(max_examples=600, deadline=None)
@given(coordinate, coordinate, coordinate, coordinate, coordinate, coordinate, st.integers(0, 30_000))
def test_the_first_contact_along_a_leg_is_the_exact_one(ax, ay, bx, by, cx, cy, reach):
    """Any leg, marker and reach; and markers just inside and just beyond the box around the leg."""
    a, b = (ax, ay), (bx, by)
    assert geometry.first_contact_along(a, b, (cx, cy), reach) == plain_contact(a, b, (cx, cy), reach)
    for centre in ((max(ax, bx) + reach, cy), (max(ax, bx) + reach + 1, cy), (cx, min(ay, by) - reach),
                   (cx, min(ay, by) - reach - 1), (ax + reach, ay + reach)):
        assert geometry.first_contact_along(a, b, centre, reach) == plain_contact(a, b, centre, reach)


def test_a_marker_touching_the_box_corner_is_found_or_not_as_exactly():
    """A marker diagonally off the end of a leg: within the box test, the exact search decides (no contact at a
    distance of reach * sqrt(2)); a marker on the leg's end is met at its length."""
    a, b = (0, 0), (10_000, 0)
    assert geometry.first_contact_along(a, b, (10_000 + 3_000, 3_000), 3_000) is None
    assert geometry.first_contact_along(a, b, (10_000 + 3_000, 0), 3_000) == 10_000
    assert geometry.first_contact_along(a, b, (5_000, 2_999), 3_000) == plain_contact(a, b, (5_000, 2_999), 3_000)
