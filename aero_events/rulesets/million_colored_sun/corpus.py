"""The golden corpus plan for Million-Colored Sun (``aero corpus --ruleset million-colored-sun``,
``replays/million-colored-sun/``): the flight layer's rules and the host's that the corpus games must show,
each by the event that shows it. The search, files and checks are the tool's (``aero_events/regress/corpus.py``)."""

from __future__ import annotations

import msgspec

from aero_events.core.interface import CorpusPlan, CorpusScenario, event_corpus
from aero_events.table import inches

from .data import Terrain
from .setup import GameSetup

#: Event tag -> the rule it shows (headings of seeds/001; the host's parts are this project's own).
ITEMS = {
    "mcs.ModelFlew": "manoeuvres (Movement Phase)",
    "mcs.ActionTaken": "one action a Hero phase (Hero Phase)",
    "mcs.ModeShifted": "Shift Mode (Hero Phase)",
    "mcs.Recovered": "Recover (Hero Phase)",
    "mcs.BlastMarkerGained": "Blast Markers (Hero Phase)",
    "mcs.InitiativeTested": "Initiative against wounds (Special Rules)",
    "mcs.ModelLeftBoard": "moving off the board (Moving Off The Board)",
    "mcs.CollisionWithTerrain": "collision with terrain (Collision)",
    "mcs.MissileLaunched": "missiles launched (Launch Ordnance)",
    "mcs.MissileTriggered": "the 1-inch missile trigger (Missiles)",
    "mcs.MissileExploded": "missile explosions and the 3-inch blast (Missiles)",
    "mcs.BombDropped": "bombs: drop point, drift and blast (Bombs)",
    "mcs.AttacksMade": "host: attacks (hit, wound, save, damage)",
    "mcs.ChargeRolled": "host: charges",
    "mcs.BattleshockTested": "host: battleshock",
    "mcs.ObjectiveScored": "host: the battleplan's objectives",
    "mcs.GameEnded": "host: the battleplan's result",
}

#: A cliff too tall to fly over (COLLISION) right across the azure fighter's flight path: 8" ahead of its
#: start (20", 2"), 6" in radius, so no manoeuvre of its first Movement phase passes it by.
CLIFF = Terrain(id="cliff", name="Cliff Face", x=inches(20), y=inches(12), radius=inches(6), height=inches(20),
                too_tall=True)


def _skyfire_with_cliff(rules) -> GameSetup:
    plan = rules.data.battleplans["skyfire"]
    return GameSetup(battleplan="skyfire", terrain=(*plan.terrain, CLIFF))


def plan(rules) -> CorpusPlan:
    base = event_corpus(rules, ITEMS, (("skyfire", ("ace", "random")), ("skyfire", ("ace", "ace"))))
    cliff = CorpusScenario(
        name="million-colored-sun-skyfire-cliff-random-random", ruleset=rules.name,
        description="Skyfire over the Ford with a cliff too tall to fly over across the azure fighter's path "
                    "(Collision; random against random)",
        build=_skyfire_with_cliff, bots=("random", "random"), players=tuple(rules.data.battleplans["skyfire"].players),
        targets=frozenset({ITEMS["mcs.CollisionWithTerrain"]}))
    return msgspec.structs.replace(base, scenarios=(*base.scenarios, cliff))
