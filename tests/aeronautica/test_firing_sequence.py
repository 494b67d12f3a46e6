"""The Firing phase sequence (rulebook p.14, p.20): who fires, in which order, and who may not fire.

Positions are axial offsets from the board's centre (see firing_helpers); the firer faces north, so its
Front Arc is straight up the board.
"""

from __future__ import annotations

from aero_events.rulesets.aeronautica.commands import FireWeapons, PassFiring
from aero_events.rulesets.aeronautica.events import (
    FiringPassed,
    Landed,
    PhaseBegan,
    SpinEntered,
    TookOff,
    VolleyDeclared,
    VolleyEnded,
)
from aero_events.rulesets.aeronautica.state import END, FIRING
from tests.aeronautica.firing_helpers import IMPERIUM, ORKS, Range, S, at, of_type, plane
from tests.aeronautica.helpers import N as NORTH
from tests.aeronautica.helpers import Plane, Table


def duel(first: str = IMPERIUM, initiative: str | None = None, **extra) -> Range:
    return Range(plane("imperium-1", "thunderbolt", at(0, 0)), plane("orks-1", "dakkajet", at(0, -5), S),
                 first=first, initiative=initiative, **extra)


def test_the_player_who_moved_first_fires_first_p20():
    """p.20: "The player that moved first in the Movement phase will also choose an aircraft and fire
    first" - even when the other player won the initiative."""
    game = duel(first=ORKS, initiative=IMPERIUM)
    assert game.state.to_act == ORKS
    assert game.legal(IMPERIUM) == []
    err = game.refused(FireWeapons(player=IMPERIUM, aircraft="imperium-1"))
    assert err.page == 20


def test_players_alternate_and_the_side_with_more_aircraft_fires_its_last_ones_one_after_another_p14():
    """p.14/p.20: players alternate choosing aircraft; once one side has fired its last eligible
    aircraft, the other fires its remaining aircraft one after another."""
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0)), plane("imperium-2", "thunderbolt", at(3, 0)),
                 plane("orks-1", "dakkajet", at(0, -12), S))
    game.fire("imperium-1")
    assert game.state.to_act == ORKS
    game.fire("orks-1")
    assert game.state.to_act == IMPERIUM  # orks have no aircraft left to fire
    game.fire("imperium-2")
    assert game.state.phase != FIRING  # every eligible aircraft has fired: the End phase ran


def test_an_aircraft_fires_once_per_firing_phase_p20():
    """p.20: players alternate "firing with each until all eligible aircraft have fired": once each."""
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0)), plane("imperium-2", "thunderbolt", at(3, 0)),
                 plane("orks-1", "dakkajet", at(0, -12), S), plane("orks-2", "dakkajet", at(3, -12), S))
    game.fire("imperium-1")
    game.fire("orks-1")
    assert game.aircraft("imperium-1").fired
    err = game.refused_fire("imperium-1")
    assert err.page == 20 and "already fired" in str(err)
    assert all(c.aircraft != "imperium-1" for c in game.legal(IMPERIUM) if isinstance(c, FireWeapons))


def test_passing_means_no_more_of_that_players_aircraft_fire_p14():
    """p.14: "until all aircraft that wish to fire have done so": a pass ends a player's firing; the
    other player then fires the rest of theirs consecutively."""
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0)), plane("imperium-2", "thunderbolt", at(3, 0)),
                 plane("orks-1", "dakkajet", at(0, -12), S), plane("orks-2", "dakkajet", at(3, -12), S))
    events = game.pass_(IMPERIUM)
    assert of_type(events, FiringPassed)[0].player == IMPERIUM
    assert game.state.to_act == ORKS
    game.fire("orks-1")
    assert game.state.to_act == ORKS
    assert game.legal(IMPERIUM) == []
    game.fire("orks-2")
    assert game.state.phase != FIRING


def test_the_phase_ends_when_both_players_have_passed_p14():
    game = duel()
    game.pass_(IMPERIUM)
    events = game.pass_(ORKS)
    assert PhaseBegan(phase=END) in events


def test_if_the_first_mover_has_nothing_that_may_fire_the_other_player_begins_p14():
    """The first mover's only aircraft landed (p.19): the opponent is the one to choose an aircraft."""
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0), status="landed", altitude=0, speed=0),
                 plane("orks-1", "dakkajet", at(0, -5), S))
    assert game.state.to_act == ORKS


def test_landed_aircraft_cannot_fire_p19():
    """p.19: "Landed aircraft cannot fire any weapons during the Firing phase."
    """
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0)), plane("imperium-2", "thunderbolt", at(4, 0)),
                 plane("orks-1", "dakkajet", at(0, -5), S))
    game.record(Landed(aircraft="imperium-1"))
    err = game.refused_fire("imperium-1")
    assert err.page == 19
    assert {c.aircraft for c in game.legal(IMPERIUM) if isinstance(c, FireWeapons)} == {"imperium-2"}


def test_an_aircraft_that_took_off_this_turn_cannot_fire_p19():
    """p.19: "The aircraft may not fire in the Firing phase of the turn in which it took off, but may do
    so in subsequent turns".
    """
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0)), plane("imperium-2", "thunderbolt", at(4, 0)),
                 plane("orks-1", "dakkajet", at(0, -5), S))
    game.record(TookOff(aircraft="imperium-1", speed=2))
    assert game.aircraft("imperium-1").took_off_turn == game.state.turn
    err = game.refused_fire("imperium-1")
    assert err.page == 19 and "took off" in str(err)
    later = Range(plane("imperium-1", "thunderbolt", at(0, 0), took_off_turn=1),
                  plane("orks-1", "dakkajet", at(0, -5), S), turn=2)
    later.fire("imperium-1")


def test_a_spinning_aircraft_cannot_fire_p29():
    """p.29: "Whilst in a Spin, an aircraft can do nothing else; it ... may not fire"."""
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0)), plane("imperium-2", "thunderbolt", at(4, 0)),
                 plane("orks-1", "dakkajet", at(0, -5), S))
    game.record(SpinEntered(aircraft="imperium-1"))
    err = game.refused_fire("imperium-1")
    assert err.page == 29


def test_destroyed_and_disengaged_aircraft_cannot_fire_p23():
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0), status="destroyed", structure=0),
                 plane("imperium-2", "thunderbolt", at(4, 0), status="disengaged"),
                 plane("imperium-3", "thunderbolt", at(8, 0)), plane("orks-1", "dakkajet", at(0, -5), S))
    for gone in ("imperium-1", "imperium-2"):
        assert game.refused_fire(gone).page == 20
    assert {c.aircraft for c in game.legal(IMPERIUM) if isinstance(c, FireWeapons)} == {"imperium-3"}


def test_holding_fire_uses_the_aircrafts_turn_and_fires_nothing_p20():
    game = duel()
    events = game.fire("imperium-1")
    declared = of_type(events, VolleyDeclared)[0]
    assert declared.shots == () and of_type(events, VolleyEnded)
    assert game.state.to_act == ORKS


def test_a_full_turn_moves_into_the_firing_phase_and_on_to_the_end_phase_p13_p14():
    """Through the real turn: after Movement the first mover fires first; both pass; the End phase runs
    and the next turn begins."""
    table = Table([Plane("thunderbolt", (8, 12), NORTH)], [Plane("dakkajet", (8, 4), 3, speed=5)])
    table.start_movement({"imperium-1": 1, "orks-1": 1}, first=ORKS)
    table.move("orks-1", stage_hexes=(1,), facings=(0,))
    table.move("imperium-1", stage_hexes=(1,), facings=(0,))
    assert table.state.phase == FIRING and table.state.to_act == ORKS
    table.apply(PassFiring(player=ORKS))
    table.apply(PassFiring(player=IMPERIUM))
    assert table.state.turn == 2
