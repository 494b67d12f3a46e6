"""The golden corpus plan for the alternate flying rules (``aero corpus --ruleset whfb-flying``,
``replays/whfb-flying/``): the supplement's rules and the host's that the corpus games must show, each by the
event that shows it. The search, files and checks are the tool's (``aero_events/regress/corpus.py``)."""

from __future__ import annotations

import msgspec

from aero_events.core.interface import CorpusPlan, CorpusScenario, event_corpus
from aero_events.table import INCH

from .setup import GameSetup

#: Event tag -> the rule it shows (headings of seeds/004; the host's parts are this project's own).
ITEMS = {
    "whfb.FlightMade": "the flight moves (Movement Phase)",
    "whfb.FlewHigh": "Fly High (Movement Phase, Combat)",
    "whfb.ModelFell": "falling models (Wounds)",
    "whfb.CharacterGrounded": "characters (Characters)",
    "whfb.VanguardEnded": "Vanguard (Special Rules)",
    "ScatterRolled": "scatter of a falling model (Wounds)",
    "whfb.ChargeDeclared": "host: charges",
    "ReactionChosen": "host: charge reactions",
    "whfb.AttackResolved": "host: shooting and close combat attacks",
    "whfb.CombatResolved": "host: combat resolution",
    "whfb.UnitFled": "host: break tests and fleeing",
    "whfb.UnitDestroyed": "host: units destroyed",
    "whfb.GameEnded": "host: the battle's result",
}

#: The flying character (the Lord on Wyvern, several Wounds) and how far in front of the archers it starts.
FLYING_CHARACTER = "s-wyvern"
ARCHERS = "n-archers"
AHEAD = 14 * INCH


def _wyvern_under_the_bows(rules) -> GameSetup:
    """The pitched battle with the Lord on Wyvern deployed 14" in front of the enemy archers and wizard, facing
    them: shot and charged at once, a wounded flying character that may fall from the air (Characters)."""
    scenario = rules.data.scenarios["pitched_battle"]
    archers = next(unit for units in scenario.forces.values() for unit in units if unit.id == ARCHERS)
    forces = {side: tuple(msgspec.structs.replace(unit, x=archers.x, y=archers.y + AHEAD)
                          if unit.id == FLYING_CHARACTER else unit for unit in units)
              for side, units in scenario.forces.items()}
    return GameSetup(scenario=scenario.id, range_method="advanced", forces=forces)


def plan(rules) -> CorpusPlan:
    base = event_corpus(rules, ITEMS, (("pitched_battle", ("general", "random")),
                                       ("pitched_battle", ("general", "general"))))
    players = tuple(rules.data.scenarios["pitched_battle"].forces)
    grounded = CorpusScenario(
        name="whfb-flying-wyvern-under-the-bows-general-general", ruleset=rules.name,
        description="Pitched battle over the ford with the Lord on Wyvern (a flying character) deployed in front "
                    "of the enemy archers and wizard (general against general)",
        build=_wyvern_under_the_bows, bots=("general", "general"), players=players,
        targets=frozenset({ITEMS["whfb.CharacterGrounded"]}))
    return msgspec.structs.replace(base, scenarios=(*base.scenarios, grounded))
