"""Every move the movement phase offers is one the rules accept, and a ship slowed by a Blast marker always has
one (p.15-17, Blast markers p.25). Found by a playout of ``aero odds`` on the demo game: a Tyrant whose course
meets a marker 3.33 cm ahead was offered a 3.33 cm move, slowed by the marker, while the move's own path, its end
rounded to the table's units, stops a unit short of the marker's edge, so the rules refused it as short of the
5 cm minimum (Minimum Move Distance, p.16), and the bot had nothing else to move. The rules now measure the
contact along the ship's course as the offers do (``movement._move_contact``)."""

from __future__ import annotations

import pytest
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


def test_the_move_the_playout_was_refused_is_offered_and_accepted():
    state = _edge_position()
    assert _refused(state, "imperial-3") == []
    offered = [command.legs for command in movement.grid_commands(RULES, state, state.ships["imperial-3"])]
    assert offered == [(3330,)]  # slowed by the marker to where it meets it: the one move it has
    incendrius = state.ships["imperial-3"]
    _, _, met = movement.check_move(RULES, state, incendrius, (3330,), ())
    assert met  # it ends in contact with the marker


@pytest.mark.parametrize("seed", [2, 9])
def test_the_corpus_cruiser_clash_is_played_to_its_end_by_broadside_bots(seed):
    """Seeds whose games met the edge of a marker: one a move ending there (seed 2), one a ship whose course meets
    a marker at once, slowed to nothing (seed 9). Both stopped with a refused move or a bot with no move."""
    from aero_events.bots import make_bot, play
    from aero_events.core import GameSession, SeededDice
    from aero_events.rulesets.battlefleet_gothic.corpus import SCENARIOS

    session = GameSession(RULES, SCENARIOS[0].build(RULES), dice=SeededDice(seed))
    play(session, {player: make_bot(RULES, "broadside", f"{seed}:{player}") for player in RULES.players(session.state)},
         max_commands=20_000)
    assert session.is_over()


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
