"""The End phase sequence (rulebook p.29-30): 1. Stalled aircraft, 2. Recovering from a Spin,
3. Determine Tailing, 4. Ending the Game; Ejector Seats (p.37) rolled for aircraft destroyed on the way.

Positions are offset (column, row) on a 16x16 board of complete hexes; north is row 0.
"""

from __future__ import annotations

from aero_events.core import GameSession, ManualDice
from aero_events.rulesets.aeronautica.commands import ChooseFirstMover, PassFiring
from aero_events.rulesets.aeronautica.events import (
    AircraftDestroyed,
    EjectorSeatsRolled,
    GameEnded,
    SpinEntered,
    SpinFell,
    StallRecovered,
    TailingDetermined,
    TurnEnded,
    VictoryPointsScored,
)
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.setup import GameSetup, SideSetup
from aero_events.rulesets.aeronautica.state import DESTROYED, FIRING, TAILING_FIRE
from tests.aeronautica.helpers import IMPERIUM, ORKS, N, Plane, S, Table, make_rules, of_type, one, placement

STRAIGHT = {"stage_hexes": (1,), "facings": (0,)}
BOARD = "16x16h"


def finish_firing(table: Table) -> list:
    events: list = []
    while table.state.phase in (FIRING, TAILING_FIRE) and table.state.to_act is not None:
        events += table.apply(PassFiring(player=table.state.to_act))
    return events


def stalled_behind_a_dakkajet(imperium_altitude: int) -> Table:
    """Turn 1 played to its Firing phase: imperium-1 throttled below Min Speed (Stalled, p.15) and crawled one
    hex north; orks-1 flew four hexes north at Altitude 4 and is 6 hexes ahead of it."""
    table = Table([Plane("thunderbolt", (8, 12), facing=N, speed=2, altitude=imperium_altitude)],
                  [Plane("dakkajet", (8, 9), facing=N, speed=4, altitude=4)], board=BOARD)
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    table.move("imperium-1", throttle=-1, **STRAIGHT)
    assert table.aircraft("imperium-1").stalled
    table.move("orks-1", **STRAIGHT)
    return table


def test_tailing_is_determined_after_stall_recovery_p29_p30():
    # At Altitude 2 imperium-1 is two levels below orks-1; recovering from its Stall puts it at its Max
    # Altitude 5 (p.29), one level above: step 3 sees the recovered aircraft and finds it Tailing.
    table = stalled_behind_a_dakkajet(imperium_altitude=2)
    table.dice.enter([3])  # Handling 3+: recovered
    events = finish_firing(table)
    recovered = one(events, StallRecovered)
    assert recovered.altitude == 5
    tailing = of_type(events, TailingDetermined)
    assert tailing[0] == TailingDetermined(aircraft="imperium-1", target="orks-1")
    assert events.index(recovered) < events.index(tailing[0]) < events.index(one(events, TurnEnded))


def test_an_aircraft_that_falls_into_a_spin_does_not_tail_p29_p30():
    table = stalled_behind_a_dakkajet(imperium_altitude=4)  # same Altitude: it would tail if it flew on
    table.dice.enter([2])  # fails Handling 3+: falls into a Spin
    events = finish_firing(table)
    assert one(events, SpinEntered).aircraft == "imperium-1"
    assert TailingDetermined(aircraft="imperium-1", target=None) in of_type(events, TailingDetermined)


def test_a_spin_crash_is_followed_by_ejector_seats_then_ending_the_game_p29_p37_p31():
    force = ForceList(name="ejector", faction="imperial_navy",
                      aircraft=(AircraftEntry(aircraft="thunderbolt", upgrades=("ejector_seats",)),))
    orks = ForceList(name="orks", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),))
    setup = GameSetup(sides=(
        SideSetup(player=IMPERIUM, force=force,
                  placements=(placement(BOARD, Plane("thunderbolt", (8, 12), speed=2, altitude=1)),)),
        SideSetup(player=ORKS, force=orks,
                  placements=(placement(BOARD, Plane("dakkajet", (3, 2), facing=S, speed=4)),))),
        board=BOARD, check_points=False)
    table = Table.__new__(Table)
    table.rules, table.dice = make_rules(), ManualDice()
    table.session = GameSession(table.rules, setup, dice=table.dice, game_id="test")
    # Turn 1: imperium-1 Stalls (Speed 1 below Min Speed 2) and fails to recover (D6 1): a Spin.
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    table.move("imperium-1", throttle=-1, **STRAIGHT)
    table.move("orks-1", **STRAIGHT)
    table.dice.enter([1])
    assert one(finish_firing(table), SpinEntered)
    # Turn 2: it cannot choose a manoeuvre or move (p.13); in the End phase it fails again (D6 1), falls to
    # Altitude 0 and crashes (p.29); then Ejector Seats (D6 5: the crew escape), then the game ends with
    # only the orks left flying.
    table.choose({"orks-1": 1})
    finish_firing(table)
    table.apply(ChooseFirstMover(player=table.state.initiative, first=ORKS))
    table.move("orks-1", **STRAIGHT)
    table.dice.enter([1, 5])
    events = finish_firing(table)
    order = [type(e) for e in events if type(e) in (SpinFell, AircraftDestroyed, EjectorSeatsRolled, TurnEnded,
                                                     VictoryPointsScored, GameEnded)]
    assert order == [SpinFell, AircraftDestroyed, EjectorSeatsRolled, TurnEnded, VictoryPointsScored,
                     VictoryPointsScored, GameEnded]
    assert table.aircraft("imperium-1").status == DESTROYED and table.aircraft("imperium-1").crew_escaped
    orks_report = next(r for r in of_type(events, VictoryPointsScored) if r.player == ORKS)
    assert orks_report.aircraft[0].victory_points == 18  # 75% of 23 (Thunderbolt 21 + Ejector Seats 2)
    assert "last aircraft flying" in one(events, GameEnded).reason


def test_the_end_phase_asks_the_players_nothing_p29():
    table = stalled_behind_a_dakkajet(imperium_altitude=2)
    table.dice.enter([3])
    finish_firing(table)
    # The End phase ran by itself: the next turn's Choose Manoeuvres phase is waiting.
    assert table.state.turn == 2 and table.state.phase == "choose_manoeuvres"
