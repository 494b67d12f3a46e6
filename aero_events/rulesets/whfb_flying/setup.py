"""A battle's setup: the scenario, the range method the players agreed on, and (for tests and custom battles) the
forces and terrain in place of the scenario's."""

from __future__ import annotations

from typing import Literal

import msgspec

from aero_events.core import DataError
from aero_events.table import Pose

from .data import Deployment, GameData, TerrainPiece
from .state import GameState, UnitState

RangeMethod = Literal["basic", "intermediate", "advanced"]


class GameSetup(msgspec.Struct, frozen=True, kw_only=True):
    """``range_method``: Shooting Phase, "Players agree upon the method they will both use, but be consistent
    throughout the game": one method for the whole game."""

    scenario: str = "pitched_battle"
    range_method: RangeMethod = "advanced"
    last_turn: int | None = None
    first: str | None = None
    forces: dict[str, tuple[Deployment, ...]] | None = None
    terrain: tuple[TerrainPiece, ...] | None = None


def build_initial_state(setup: GameSetup, data: GameData) -> GameState:
    scenario = data.scenarios.get(setup.scenario)
    if scenario is None:
        raise DataError(f"no scenario {setup.scenario!r}", source="setup", field="scenario")
    forces = setup.forces if setup.forces is not None else scenario.forces
    players = tuple(forces)
    if len(players) != 2:
        raise DataError("a battle has two sides", source="setup", field="forces")
    units = {}
    for side, deployments in forces.items():
        for unit in deployments:
            profile = data.units.get(unit.profile)
            if profile is None:
                raise DataError(f"no unit profile {unit.profile!r}", source="setup", location=unit.id, field="profile")
            if unit.id in units:
                raise DataError(f"two units are called {unit.id!r}", source="setup", location=unit.id, field="id")
            units[unit.id] = UnitState(id=unit.id, side=side, profile=unit.profile, models=unit.models,
                                       files=min(profile.files, unit.models),
                                       pose=Pose(unit.x, unit.y, unit.heading % 36000),
                                       points=profile.points * unit.models)
    for deployments in forces.values():
        for unit in deployments:
            if unit.joined:
                units[unit.id] = _deployed_inside(units, data, unit)
    first = setup.first or (scenario.first if scenario.first in players else players[0])
    return GameState(players=players, scenario=scenario.id, width=scenario.width, height=scenario.height,
                     last_turn=setup.last_turn or scenario.last_turn, range_method=setup.range_method,
                     terrain=setup.terrain if setup.terrain is not None else scenario.terrain, units=units, first=first)


def _deployed_inside(units: dict[str, UnitState], data: GameData, deployment: Deployment) -> UnitState:
    """Host: a character deployed inside a friendly unit starts as a character that joined it (Fly: "Unit joining
    is allowed")."""
    character = units[deployment.id]
    host = units.get(deployment.joined)
    if not data.units[character.profile].character or character.models != 1:
        raise DataError("only a character of one model deploys inside a unit", source="setup",
                        location=deployment.id, field="joined")
    if host is None or host.side != character.side or data.units[host.profile].character or host.id == character.id:
        raise DataError(f"{deployment.joined!r} is not a friendly unit (not a character) to deploy in", source="setup",
                        location=deployment.id, field="joined")
    return msgspec.structs.replace(character, joined=host.id, pose=host.pose)
