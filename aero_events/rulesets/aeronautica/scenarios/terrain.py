"""Terrain Height (rulebook p.33): terrain tall enough to reach the aircraft.

"Players may choose to use Terrain Height. In this case, any terrain may be designated
an Altitude level. ... Aircraft must be travelling at an Altitude level higher than the
terrain in order to pass over it; otherwise they will crash into it if any part of their
base touches any part of the terrain during the Movement phase. If this happens, all
remaining Structure is lost and the aircraft is immediately removed from play. Any
Ground Defences sited upon terrain with an Altitude level add that level to their
Effective Altitude (X). Any ground targets sited upon terrain with an Altitude level are
still classed as being at Altitude 0 for the purposes of targeting with Air-to-Ground
fire, whilst the Altitude of the terrain is used for the purposes of modifiers on the
Firepower dice." (p.33)

The terrain is set up with the game (``GameSetup.terrain``: :class:`TerrainFeature`
with its hexes and level) and kept in ``state.terrain``.

Choices where the text is silent:

* A base touches the terrain in every hex of the feature it enters; the check runs over
  the hexes entered during Move and Manoeuvre, in order (including hexes flown on through
  occupied ones, p.17), at the Altitude the aircraft has while it moves (its Altitude is
  adjusted only after moving, p.18). The first such hex is where it crashes.
* The hex an aircraft starts its move in is not checked again: it got there legally.
* An aircraft that dives, in the Adjust Altitude step, to the level of the terrain in the
  hex it ended in also touches it during the Movement phase: :func:`crash_after_altitude`
  is that check, for the Adjust Altitude step to call before the move ends.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import msgspec

from aero_events.core import Event, RuleError
from aero_events.hexgrid import Hex

from ..events import AircraftDestroyed, MovementEnded, TerrainCrashed
from ..state import DESTROYED, GameState, with_aircraft
from .format import TerrainFeature

if TYPE_CHECKING:
    from ..ruleset import AeronauticaRules
    from ..turn import Emitter

CRASH_CAUSE = "crashed into terrain"


def terrain_at(state: GameState, hex: Hex) -> TerrainFeature | None:
    """The tallest terrain feature covering ``hex``, if any."""
    best = None
    for feature in state.terrain:
        if hex in feature.hexes and (best is None or feature.level > best.level):
            best = feature
    return best


def terrain_level(state: GameState, hex: Hex) -> int:
    """The Altitude level of the terrain in ``hex`` (0 where there is none)."""
    feature = terrain_at(state, hex)
    return feature.level if feature else 0


def clears(altitude: int, level: int) -> bool:
    """Whether an aircraft at ``altitude`` passes over terrain of ``level``: it must be higher (p.33)."""
    return altitude > level


def first_terrain_hit(state: GameState, altitude: int, hexes: Iterable[Hex]) -> tuple[Hex, TerrainFeature] | None:
    """The first hex of ``hexes`` whose terrain an aircraft at ``altitude`` does not clear."""
    if not state.terrain:
        return None
    for hex in hexes:
        feature = terrain_at(state, Hex(*hex))
        if feature is not None and not clears(altitude, feature.level):
            return Hex(*hex), feature
    return None


def crash(out: Emitter, aircraft_id: str, hex: Hex, feature: TerrainFeature) -> None:
    """All remaining Structure is lost and the aircraft is removed from play (p.33)."""
    out.emit(TerrainCrashed(aircraft=aircraft_id, hex=hex, terrain=feature.name, level=feature.level))
    out.emit(AircraftDestroyed(aircraft=aircraft_id, cause=CRASH_CAUSE))


def crash_during_move(rules: AeronauticaRules, out: Emitter, aircraft_id: str, hexes: Iterable[Hex]) -> bool:
    """Movement's hook (p.33): after the flight is recorded, crash in the first terrain hex entered that the
    aircraft does not clear, and end its move. True if it crashed."""
    aircraft = out.state.aircraft[aircraft_id]
    hit = first_terrain_hit(out.state, aircraft.altitude, hexes)
    if hit is None:
        return False
    crash(out, aircraft_id, *hit)
    out.emit(MovementEnded(aircraft=aircraft_id))
    return True


def crash_after_altitude(rules: AeronauticaRules, out: Emitter, aircraft_id: str) -> bool:
    """After Adjust Altitude (p.18, p.33): an aircraft now at or below the terrain of its hex crashes.
    The caller ends the move as usual. True if it crashed."""
    aircraft = out.state.aircraft[aircraft_id]
    if aircraft.status == DESTROYED:
        return False
    hit = first_terrain_hit(out.state, aircraft.altitude, (aircraft.hex,))
    if hit is None:
        return False
    crash(out, aircraft_id, *hit)
    return True


def check_clear_of_terrain(state: GameState, aircraft_id: str, hex: Hex, altitude: int, rule: str) -> None:
    """Terrain Height (p.33): an aircraft must be at an Altitude higher than the terrain it is over, so it
    is never set up (or brought on from reserve) inside terrain as tall as its Altitude. Ground Defences are
    "sited upon terrain" and may be."""
    level = terrain_level(state, hex)
    if level and not clears(altitude, level):
        raise RuleError(f"{aircraft_id} at Altitude {altitude} would be inside the Altitude {level} terrain at "
                        f"{tuple(hex)}: it must be higher than the terrain", rule=f"{rule}: Terrain Height", page=33)

# ---------------------------------------------------------------- what the firing rules read


def ground_defence_effective_altitude(state: GameState, hex: Hex, effective_altitude: int) -> int:
    """A Ground Defence's Effective Altitude (X) (p.28) plus the level of the terrain it sits on (p.33)."""
    return effective_altitude + terrain_level(state, Hex(*hex))


def ground_target_modifier_altitude(state: GameState, hex: Hex) -> int:
    """The Altitude used for Firepower dice modifiers against a ground target on terrain (p.33); for
    targeting it stays at Altitude 0."""
    return terrain_level(state, Hex(*hex))


# ---------------------------------------------------------------- the part's contract

HANDLERS: dict = {}


#: The phases in which :func:`legal_commands` may offer a command: none (the ruleset never asks).
COMMAND_PHASES: frozenset[str] = frozenset()


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list:
    return []


def evolve(rules: AeronauticaRules, state: GameState, event: Event) -> GameState | None:
    if isinstance(event, TerrainCrashed):
        aircraft = state.aircraft[event.aircraft]
        return with_aircraft(state, msgspec.structs.replace(aircraft, hex=Hex(*event.hex)))
    return None
