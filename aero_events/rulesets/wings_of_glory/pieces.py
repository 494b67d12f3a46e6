"""Lookups shared by every part of the turn: profiles, cards, bases, climb rate, crew condition, aces."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import Card, PlaneProfile
from .geometry import Polygon, rectangle
from .state import GameState, PlaneState, TargetState

if TYPE_CHECKING:
    from .ruleset import WingsOfGloryRules

#: Engine Damage (SPECIAL DAMAGE): (engines, engine damage) -> effect. Rows the table does not list (4
#: engines, 1 damage) have no effect; any count past a "shot down" row is shot down.
ENGINE_TABLE: dict[tuple[int, int], str] = {
    (2, 1): "climb+1", (3, 1): "climb+1", (4, 2): "climb+1",
    (3, 2): "climb+2", (4, 3): "climb+2",
    (1, 1): "no_climb", (2, 2): "no_climb", (3, 3): "no_climb", (4, 4): "no_climb",
    (1, 2): "shot_down", (2, 3): "shot_down", (3, 4): "shot_down", (4, 5): "shot_down",
}

SKILLS = ("acrobatic", "good_at_escaping", "luck_of_the_devil", "perfect_aim", "sniper", "itchy_trigger_finger")
RECOVERY_COUNTERS = 4


def engine_effect(engines: int, damage: int) -> str:
    """The Engine Damage table's row for ``engines`` engines and ``damage`` engine-damage tokens."""
    if damage <= 0:
        return "none"
    if damage >= engines + 1:
        return "shot_down"
    return ENGINE_TABLE.get((engines, damage), "none")


def profile(rules: WingsOfGloryRules, plane: PlaneState) -> PlaneProfile:
    return rules.catalogue.planes[plane.profile]


def card(rules: WingsOfGloryRules, plane: PlaneState, number: int) -> Card:
    return rules.catalogue.decks[profile(rules, plane).deck].card(number)


def deck_size(rules: WingsOfGloryRules, plane: PlaneState) -> int:
    return len(rules.catalogue.decks[profile(rules, plane).deck].cards)


def straight_card(rules: WingsOfGloryRules, plane: PlaneState) -> Card:
    """ILLEGAL MANOEUVRES: the straight that replaces an illegal card (the deck's first straight, card 1)."""
    return next(c for c in rules.catalogue.decks[profile(rules, plane).deck].cards if c.kind == "straight")


def base(rules: WingsOfGloryRules, plane: PlaneState, pose=None) -> Polygon:
    """The plane's base (= its plane card, 44 x 67 mm or 89 x 67 mm for twins) as a polygon."""
    prof = profile(rules, plane)
    return rectangle(pose or plane.pose, rules.catalogue.base_width(prof), rules.catalogue.figures["base_length"])


def target_card(rules: WingsOfGloryRules, target: TargetState) -> Polygon:
    prof = rules.catalogue.targets[target.kind]
    return rectangle(target.pose, prof.width, prof.length)


def climb_rate(rules: WingsOfGloryRules, plane: PlaneState) -> int:
    """Climb: the plane's rate, +1 when loaded (FULL LOAD), +1 or +2 for engine damage (Engine Damage)."""
    prof = profile(rules, plane)
    rate = prof.climb_rate + (1 if plane.loaded else 0)
    effect = engine_effect(prof.engines, plane.engine)
    return rate + {"climb+1": 1, "climb+2": 2}.get(effect, 0)


def pilot_impaired(plane: PlaneState) -> bool:
    """NOVICE OR WOUNDED PILOT: a novice, or a pilot with a wound."""
    return plane.novice or (bool(plane.crew) and plane.crew[0].wounds >= 1)


def crew_can_fire(plane: PlaneState, crewman: int) -> bool:
    """Crew Hit: a wounded crewman other than the pilot may not fire; an incapacitated one does nothing."""
    wounds = plane.crew[crewman].wounds
    return wounds == 0 if crewman else wounds < 2


def has_skill(plane: PlaneState, crewman: int, skill: str) -> bool:
    return skill in plane.crew[crewman].skills


def skill_ready(state: GameState, plane: PlaneState, crewman: int, skill: str) -> bool:
    """ACES and RECOVERY: the crewman has ``skill`` and no Recovery counters stop him using it. A lucky
    pilot (LUCKY) uses Luck of the Devil once."""
    man = plane.crew[crewman]
    if skill == "luck_of_the_devil":
        if man.luck_used:
            return False
        if crewman == 0 and plane.lucky:
            return True
    if skill not in man.skills:
        return False
    return man.recovery == 0 and state.turn >= man.skill_ready_turn


def bombardier_wounded(rules: WingsOfGloryRules, plane: PlaneState) -> bool:
    """Crew Hit: the crewman who bombs (the bombardier, else the pilot) has a wound (-2 on missions)."""
    return plane.crew[profile(rules, plane).bombardier].wounds >= 1


def enemies(state: GameState, plane: PlaneState) -> list[PlaneState]:
    return [p for p in state.planes.values() if p.in_play and p.side != plane.side]
