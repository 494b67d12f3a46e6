"""A game's setup: the battleplan (data/battleplans.json), optionally with its forces and terrain replaced.

The models are set up as the battleplan deploys them, in their warscroll's starting mode (an AIRBORNE model starts
the game AIRBORNE). The battleplan's first player takes the first turn of battle round 1.
"""

from __future__ import annotations

import msgspec

from aero_events.core.errors import DataError

from .data import Deployment, GameData, Terrain
from .state import HERO, GameState, ModelState, TerrainState


class GameSetup(msgspec.Struct, frozen=True, kw_only=True):
    """``battleplan`` names the plan; ``models`` and ``terrain`` (when given) replace its own, ``last_round`` its
    length, ``first`` the player who takes the first turn."""

    battleplan: str = "skyfire"
    models: tuple[Deployment, ...] | None = None
    terrain: tuple[Terrain, ...] | None = None
    last_round: int | None = None
    first: str | None = None


def build_initial_state(setup: GameSetup, data: GameData) -> GameState:
    plan = data.battleplans.get(setup.battleplan)
    if plan is None:
        raise DataError(f"no battleplan {setup.battleplan!r} (there are {', '.join(data.battleplans)})",
                        source="setup", field="battleplan")
    models = {}
    for deployment in setup.models if setup.models is not None else plan.models:
        scroll = data.warscrolls.get(deployment.warscroll)
        if scroll is None:
            raise DataError(f"no warscroll {deployment.warscroll!r}", source="setup", location=deployment.id,
                            field="warscroll")
        if deployment.side not in plan.players:
            raise DataError(f"{deployment.side!r} is not a player of {plan.name}", source="setup",
                            location=deployment.id, field="side")
        models[deployment.id] = ModelState(id=deployment.id, side=deployment.side, warscroll=deployment.warscroll,
                                           x=deployment.x, y=deployment.y, heading=deployment.heading % 36000,
                                           mode=scroll.start_mode, unit=deployment.unit)
    terrain = {t.id: TerrainState(id=t.id, name=t.name, x=t.x, y=t.y, radius=t.radius, height=t.height,
                                  too_tall=t.too_tall)
               for t in (setup.terrain if setup.terrain is not None else plan.terrain)}
    first = setup.first or plan.players[0]
    if first not in plan.players:
        raise DataError(f"{first!r} is not a player of {plan.name}", source="setup", field="first")
    return GameState(battleplan=plan.id, players=plan.players, edges=dict(plan.edges), width=plan.width,
                     height=plan.height, last_round=setup.last_round or plan.last_round, models=models,
                     terrain=terrain, round=1, turn_number=1, first=first, active=first, phase=HERO,
                     vp={p: 0 for p in plan.players})
