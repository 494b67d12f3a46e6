"""Every move the movement phase offers is one the rules accept (p.15-17, Blast markers p.25). Found by a
playout of ``aero odds`` on the demo game: a Tyrant 3.33 cm from a Blast marker was offered a 3.33 cm move as
one slowed by the marker, while the move's own shorter path, its end rounded to the table's units, stops a
unit short of touching it, so the rules refused it as short of the 5 cm minimum (Minimum Move Distance, p.16)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.core import RuleError
from aero_events.rulesets.battlefleet_gothic import movement
from aero_events.rulesets.battlefleet_gothic.state import BlastMarker

from .helpers import RULES, replace, ship, state_with, with_ship

#: The playout's position: Incendrius (a Tyrant, 5 damage, thrusters damaged, half its Speed to move at least)
#: and the Blast markers around it, in table units.
MARKERS = {"17": (126507, 74173), "18": (81173, 56949), "19": (75783, 57668), "20": (83525, 74480),
           "21": (81438, 73103), "22": (103155, 58840), "25": (99819, 80696), "26": (97357, 80260)}


def _edge_position():
    state = state_with(ship("imperial-3", "imperial", "tyrant", 0, 0, name="Incendrius"),
                       ship("chaos-1", "chaos", "slaughter", 10, 10))
    state = with_ship(state, "imperial-3", x=104929, y=79071, heading=31500, damage=5, criticals=("thrusters",),
                      last_move=18000)
    return replace(state, blast_markers={key: BlastMarker(x=x, y=y) for key, (x, y) in MARKERS.items()})


def _refused(state, ship_id):
    """The moves the movement phase offers ``ship_id`` that the rules refuse, with why."""
    ship_state = state.ships[ship_id]
    refused = []
    for command in movement.grid_commands(RULES, state, ship_state):
        try:
            movement.check_move(RULES, state, ship_state, command.legs, command.turns)
        except RuleError as err:
            refused.append((command.legs, command.turns, str(err)))
    return refused


def test_the_move_the_playout_was_refused_is_no_longer_offered():
    state = _edge_position()
    assert _refused(state, "imperial-3") == []
    assert all(command.legs != (3330,) for command in movement.grid_commands(RULES, state, state.ships["imperial-3"]))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 35_999), st.integers(-4_000, 4_000), st.integers(3_000, 12_000), st.integers(0, 3),
       st.sampled_from(["tyrant", "slaughter", "murder"]))
def test_every_move_offered_near_a_blast_marker_is_accepted(heading, offset, distance, damage, ship_class):
    """Ships of several Speeds heading at, past or beside a marker a few cm ahead (where the whole path and a
    shorter one may round differently): whatever the phase offers, the rules accept."""
    state = state_with(ship("imperial-1", "imperial", ship_class, 60, 60), ship("chaos-1", "chaos", "slaughter",
                                                                                 10, 10))
    state = with_ship(state, "imperial-1", heading=heading, damage=damage)
    mover = state.ships["imperial-1"]
    ahead, _ = movement.path_points(mover, (distance,), ())
    x, y = ahead[-1]
    state = replace(state, blast_markers={"1": BlastMarker(x=x + offset, y=y - offset)})
    assert _refused(state, "imperial-1") == []


def test_the_whole_straight_path_meets_the_marker_where_the_short_move_ends():
    """The case itself: the 5 cm straight path touches a marker at 3.33 cm; the 3.33 cm path, rounded, does not."""
    state = _edge_position()
    incendrius = state.ships["imperial-3"]
    whole, _ = movement.path_points(incendrius, (5000,), ())
    short, _ = movement.path_points(incendrius, (3330,), ())
    assert movement.first_blast_contact(RULES, state, incendrius, whole) == 3330
    assert movement.first_blast_contact(RULES, state, incendrius, short) is None
