"""The golden corpus plan for the alternate flying rules (``aero corpus --ruleset whfb-flying``,
``replays/whfb-flying/``): the supplement's rules and the host's that the corpus games must show, each by the
event that shows it. The search, files and checks are the tool's (``aero_events/regress/corpus.py``)."""

from __future__ import annotations

import msgspec

from aero_events.core.interface import CorpusPlan, CorpusScenario, event_corpus
from aero_events.table import INCH

from .events import CombatResolved
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
    "whfb.TemplatePlaced": "direct damage spells by the shooting rules (Magic Phase)",
    "whfb.ChallengeIssued": "host: challenges",
    "whfb.UnitFled": "host: break tests and fleeing",
    "whfb.UnitDestroyed": "host: units destroyed",
    "whfb.GameEnded": "host: the battle's result",
}

#: Shown by a combat resolution of more than two units (no event type of its own).
MULTIPLE = "combats of more than two units (Intercept (Combat): \"If multiple units are in battle\")"

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


def _characters_in_units(rules) -> GameSetup:
    """The pitched battle with a Captain on Pegasus deployed inside the Pegasus Knights and the Lord on Wyvern
    inside the Harpies: when the two units fight, a challenge may be issued (host challenges)."""
    scenario = rules.data.scenarios["pitched_battle"]
    forces = {}
    for side, units in scenario.forces.items():
        placed = []
        for unit in units:
            if unit.id == FLYING_CHARACTER:
                unit = msgspec.structs.replace(unit, joined="s-harpies")
            placed.append(unit)
            if unit.id == "n-pegasi":
                placed.append(msgspec.structs.replace(unit, id="n-captain", profile="pegasus_captain", models=1,
                                                      joined=unit.id))
        forces[side] = tuple(placed)
    return GameSetup(scenario=scenario.id, range_method="advanced", forces=forces)


def plan(rules) -> CorpusPlan:
    base = event_corpus(rules, ITEMS, (("pitched_battle", ("general", "random")),
                                       ("pitched_battle", ("general", "general"))),
                        required=(*ITEMS.values(), MULTIPLE))
    by_events = base.coverage

    def coverage(rules_, initial, envelopes) -> set[str]:
        found = by_events(rules_, initial, envelopes)
        if any(isinstance(env.event, CombatResolved) and len(env.event.units) > 2 for env in envelopes):
            found.add(MULTIPLE)
        return found

    players = tuple(rules.data.scenarios["pitched_battle"].forces)
    grounded = CorpusScenario(
        name="whfb-flying-wyvern-under-the-bows-general-general", ruleset=rules.name,
        description="Pitched battle over the ford with the Lord on Wyvern (a flying character) deployed in front "
                    "of the enemy archers and wizard (general against general)",
        build=_wyvern_under_the_bows, bots=("general", "general"), players=players,
        targets=frozenset({ITEMS["whfb.CharacterGrounded"]}))
    pitched = rules.scenarios()["pitched_battle"]
    magic = CorpusScenario(
        name="whfb-flying-pitched_battle-magic-general-random", ruleset=rules.name,
        description="Pitched battle over the ford, a game in which a wizard's direct damage spell is cast by the "
                    "shooting rules (general against random)",
        build=lambda rules: pitched.build(dict(pitched.default_options), 0), bots=("general", "random"),
        players=players, targets=frozenset({ITEMS["whfb.TemplatePlaced"]}))
    joined = CorpusScenario(
        name="whfb-flying-characters-in-units-general-general", ruleset=rules.name,
        description="Pitched battle over the ford with a Captain on Pegasus inside the Pegasus Knights and the Lord on "
                    "Wyvern inside the Harpies: challenges and combats of several units (general against general)",
        build=_characters_in_units, bots=("general", "general"), players=players,
        targets=frozenset({ITEMS["whfb.ChallengeIssued"], MULTIPLE}))
    return msgspec.structs.replace(base, scenarios=(*base.scenarios, grounded, magic, joined), coverage=coverage)
