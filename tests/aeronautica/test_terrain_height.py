"""Terrain Height (rulebook p.33): an aircraft must be higher than the terrain to pass over it, or it
crashes (all remaining Structure lost, removed from play); Ground Defences on terrain add its level to
their Effective Altitude; ground targets on it use its level for Firepower modifiers.

Positions are offset (column, row) on a 16x16 board of complete hexes; north is row 0.
"""

from __future__ import annotations

import msgspec

from aero_events.core import GameSession, ManualDice
from aero_events.hexgrid import Hex
from aero_events.rulesets.aeronautica.events import (
    AircraftDestroyed,
    AircraftDisengaged,
    ManoeuvreFlown,
    MovementEnded,
    TerrainCrashed,
)
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.scenarios.format import TerrainFeature
from aero_events.rulesets.aeronautica.scenarios.terrain import (
    crash_after_altitude,
    ground_defence_effective_altitude,
    ground_target_modifier_altitude,
    terrain_level,
)
from aero_events.rulesets.aeronautica.setup import GameSetup, SideSetup
from aero_events.rulesets.aeronautica.state import DESTROYED, FLYING, with_aircraft
from aero_events.rulesets.aeronautica.turn import Emitter
from tests.aeronautica.helpers import (
    IMPERIUM,
    ORKS,
    N,
    Plane,
    S,
    Table,
    hex_at,
    make_rules,
    of_type,
    one,
    placement,
)

BOARD = "16x16h"
STRAIGHT = {"stage_hexes": (1,), "facings": (0,)}
HILL = TerrainFeature(name="hill", level=2, hexes=(hex_at(BOARD, 8, 10), hex_at(BOARD, 9, 10)))
SPIRE = TerrainFeature(name="hive spire", level=4, hexes=(hex_at(BOARD, 8, 1),))


def over_terrain(altitude: int, at=(8, 12), speed: int = 4, terrain=(HILL,)) -> Table:
    imperium = ForceList(name="i", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),))
    orks = ForceList(name="o", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),))
    setup = GameSetup(sides=(
        SideSetup(player=IMPERIUM, force=imperium,
                  placements=(placement(BOARD, Plane("thunderbolt", at, facing=N, speed=speed, altitude=altitude)),)),
        SideSetup(player=ORKS, force=orks, placements=(placement(BOARD, Plane("dakkajet", (2, 2), facing=S)),))),
        board=BOARD, check_points=False, terrain=tuple(terrain))
    table = Table.__new__(Table)
    table.rules, table.dice = make_rules(), ManualDice()
    table.session = GameSession(table.rules, setup, dice=table.dice, game_id="terrain")
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    return table


def test_an_aircraft_not_higher_than_the_terrain_crashes_into_it_p33():
    table = over_terrain(altitude=2)  # a level 2 hill two hexes ahead; four hexes to fly
    events = table.move("imperium-1", **STRAIGHT)
    crash = one(events, TerrainCrashed)
    assert (crash.hex, crash.terrain, crash.level) == (hex_at(BOARD, 8, 10), "hill", 2)
    assert one(events, AircraftDestroyed).cause == "crashed into terrain"
    kinds = [type(e) for e in events]
    assert kinds.index(ManoeuvreFlown) < kinds.index(TerrainCrashed) < kinds.index(AircraftDestroyed) \
        < kinds.index(MovementEnded)
    crashed = table.aircraft("imperium-1")
    assert (crashed.status, crashed.structure, crashed.hex) == (DESTROYED, 0, hex_at(BOARD, 8, 10))
    assert table.state.active is None and table.state.to_act == ORKS  # its move is over


def test_an_aircraft_higher_than_the_terrain_passes_over_it_p33():
    table = over_terrain(altitude=3)
    events = table.move("imperium-1", **STRAIGHT)
    assert not of_type(events, TerrainCrashed)
    assert table.aircraft("imperium-1").status == FLYING
    assert table.aircraft("imperium-1").hex == hex_at(BOARD, 8, 8)


def test_the_crash_comes_before_flying_off_the_edge_p33_p17():
    table = over_terrain(altitude=3, at=(8, 3), speed=6, terrain=(SPIRE,))  # the spire stands in row 1
    events = table.move("imperium-1", **STRAIGHT)
    assert one(events, TerrainCrashed).hex == hex_at(BOARD, 8, 1)
    assert not of_type(events, AircraftDisengaged)


def test_terrain_without_a_level_in_the_path_changes_nothing():
    table = over_terrain(altitude=1, at=(3, 12), terrain=(HILL,))
    assert not of_type(table.move("imperium-1", **STRAIGHT), TerrainCrashed)


def test_diving_into_the_terrain_of_its_own_hex_crashes_p33():
    table = over_terrain(altitude=3)
    table.move("imperium-1", **STRAIGHT)  # now over (8, 8), clear of the hill
    state = table.state
    dived = msgspec.structs.replace(state.aircraft["imperium-1"], hex=hex_at(BOARD, 8, 10), altitude=2)
    out = Emitter(with_aircraft(state, dived), table.rules.evolve)
    assert crash_after_altitude(table.rules, out, "imperium-1")
    assert [type(e) for e in out.events] == [TerrainCrashed, AircraftDestroyed]
    safe = Emitter(with_aircraft(state, msgspec.structs.replace(dived, altitude=3)), table.rules.evolve)
    assert not crash_after_altitude(table.rules, safe, "imperium-1")


def test_ground_defences_on_terrain_add_its_level_to_their_effective_altitude_p33():
    table = over_terrain(altitude=3)
    state = table.state
    assert terrain_level(state, hex_at(BOARD, 9, 10)) == 2
    assert terrain_level(state, hex_at(BOARD, 0, 0)) == 0
    assert ground_defence_effective_altitude(state, hex_at(BOARD, 8, 10), 3) == 5
    assert ground_defence_effective_altitude(state, Hex(0, 0), 3) == 3
    assert ground_target_modifier_altitude(state, hex_at(BOARD, 8, 10)) == 2
