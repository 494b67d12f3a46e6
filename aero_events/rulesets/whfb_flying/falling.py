"""Wounds taken, falling models and falling characters (Wounds, Characters).

Every unsaved wound goes through :func:`apply_wounds`: models are removed from the rear (host), then the
supplement's hooks run for a unit that was in the air:

* **Wounds**: "A Flying model suffering its final Wound will hit the ground per the scatter dice from the
  location where it was Wounded". Each model removed falls from the unit's centre; the scatter die gives the
  direction (a HIT lands directly below) and the distance is D6" (spec gap; option
  ``scatter_distance="artillery"``: 2, 4, 6, 8, 10 or a misfire, read as directly below). A ground unit whose
  footprint the model lands on takes "D6 S10 Hits from Monsters; D3 S6 Hits from Monstrous Beasts, Monstrous
  Cavalry, Monstrous Infantry, Cavalry and Chariots; 1 S4 Hit from Infantry, and War Beasts. Normal saves
  apply."
* **Characters**: a flying character with several Wounds that survives a wound rolls a D6 once per attack
  ("not for each wound"): 3+ stays in the air; 1-2 lands where the scatter dice put it from where it was
  engaged or wounded, tests Dangerous Terrain off open ground, is placed 1" from a friendly unit's nearest
  flank or in base contact with an enemy unit's nearest open flank (then cannot flee, and the enemy may fight
  it), else takes an immediate Panic test and on a failure flees on the ground from the source of the wound.
  It has -1 Initiative and -1 Combat Resolution "for falling from the air until its next turn" (applied
  wherever it lands: spec gap), and it does not count as having Landed for the +1 to hit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup
from aero_events.table import INCH, Pose, bounds, centre, overlaps, scatter

from . import attacks
from .events import AttackResolved, CharacterGrounded, CharacterReleased, ModelFell, UnitWounded
from .geometry import SIDES, contact_pose, footprint, outward, shapes_overlap, side_midpoint, terrain_rect

if TYPE_CHECKING:
    from .ruleset import WhfbFlyingRules

ARTILLERY_FACES = (2, 4, 6, 8, 10, 0)  # face 6 is the misfire: read as no scatter distance


def remaining_after(models: int, wounds_taken: int, per_model: int, wounds: int) -> tuple[int, int]:
    """(models, wounds on the wounded model) after ``wounds`` more wounds; models go from the rear."""
    left = models * per_model - wounds_taken - wounds
    if left <= 0:
        return 0, 0
    models_left = -(-left // per_model)
    return models_left, models_left * per_model - left


def apply_wounds(rules: WhfbFlyingRules, out, dice: DiceCup, unit_id: str, wounds: int, source: str) -> None:
    """Remove ``wounds`` from ``unit_id`` (wounded by ``source``: a unit id, or a text), then the falling hooks.
    """
    unit = out.state.units[unit_id]
    if wounds <= 0 or not unit.alive:  # alive: a character that joined a unit is wounded in a challenge
        return
    profile = rules.profile(unit)
    models, taken = remaining_after(unit.models, unit.wounds_taken, profile.profile.W, wounds)
    out.emit(UnitWounded(unit=unit_id, wounds=wounds, models=models, wounds_taken=taken,
                         models_lost=unit.models - models))
    if models == 0:
        for character in unit.with_characters(out.state):  # the unit is gone: its characters stand alone
            out.emit(CharacterReleased(character=character.id, unit=unit_id, pose=unit.pose, in_air=unit.in_air))
    if not unit.in_air:
        return
    for _ in range(unit.models - models):
        fall(rules, out, dice, unit_id, centre(footprint(unit, profile)))
    if models and profile.character and profile.profile.W > 1:
        stay_aloft(rules, out, dice, unit_id, source)


def scatter_point(rules: WhfbFlyingRules, out, dice: DiceCup, start: tuple[int, int], *, purpose: str,
                  roller: str) -> tuple[int, int]:
    """A point scattered from ``start``: the scatter die's direction, D6" (or the artillery die) on an arrow.
    """
    rolled = dice.scatter(purpose=purpose, roller=roller)
    out.emit(rolled)
    if rolled.hit:
        return start
    roll = dice.d6(purpose=f"{purpose}: distance", roller=roller)
    out.emit(roll)
    face = roll.faces[0]
    distance = ARTILLERY_FACES[face - 1] if rules.options.scatter_distance == "artillery" else face
    return scatter(start, rolled.direction, distance * INCH)


def fall(rules: WhfbFlyingRules, out, dice: DiceCup, unit_id: str, start: tuple[int, int]) -> None:
    """Wounds: a dead flying model hits the ground; a ground unit it lands on takes hits by its troop type."""
    unit = out.state.units[unit_id]
    profile = rules.profile(unit)
    landing = scatter_point(rules, out, dice, start, purpose=f"{unit_id} falls", roller=unit.side)
    struck = None
    for other in sorted(out.state.units.values(), key=lambda u: u.id):
        if other.in_play and not other.in_air and other.id != unit_id and \
                overlaps(footprint(other, rules.profile(other)), landing):
            struck = other
            break
    out.emit(ModelFell(unit=unit_id, start=start, landing=landing, struck=struck.id if struck else ""))
    if struck is None:
        return
    table = rules.data.falling[profile.troop_type]  # data/falling.json
    count, strength = table.hits, table.strength
    hits = attacks.roll_count(out, dice, count, purpose=f"falling hits on {struck.id}", roller=unit.side)
    target = rules.profile(struck)
    wounds = attacks.roll_wounds(out, dice, hits, strength, target.profile.T, purpose=f"to wound: falling {unit_id}",
                                 roller=unit.side)
    unsaved = attacks.roll_saves(out, dice, wounds, target.save, strength, purpose=f"saves: {struck.id}",
                                 roller=struck.side)
    out.emit(AttackResolved(attacker=unit_id, target=struck.id, attack="falling model", dice=hits, hits=hits,
                            wounds=wounds, unsaved=unsaved, start=start, end=landing))
    apply_wounds(rules, out, dice, struck.id, unsaved, unit_id)


def stay_aloft(rules: WhfbFlyingRules, out, dice: DiceCup, unit_id: str, source: str) -> None:
    """Characters: "On a 3+ it stays in the air. It fails on a 1 or 2." """
    unit = out.state.units[unit_id]
    if attacks.d6_test(out, dice, unit_id, "stay aloft", 3, roller=unit.side):
        return
    land_uncontrollably(rules, out, dice, unit_id, source)


def fallen_until(state, side: str) -> int:
    """The last player turn of the -1 I / -1 CR "until its next turn"."""
    return state.turn_count + 1 if state.active == side else state.turn_count


def land_uncontrollably(rules: WhfbFlyingRules, out, dice: DiceCup, unit_id: str, source: str) -> None:
    from .fleeing import flee

    state = out.state
    unit = state.units[unit_id]
    profile = rules.profile(unit)
    start = centre(footprint(unit, profile))
    engaged = [c for c in state.combats_of(unit_id)]
    landing = scatter_point(rules, out, dice, start, purpose=f"{unit_id} lands uncontrollably", roller=unit.side)
    for combat in engaged:  # an air combat ends: the character is on the ground
        from .events import CombatEnded

        out.emit(CombatEnded(charger=combat.charger, target=combat.target, reason=f"{unit_id} fell from the air"))
    pose = Pose(landing[0], landing[1], unit.pose.heading).moved(forward=footprint(unit, profile).length // 2)
    placed = footprint(unit, profile, pose)
    placement, engaged_with, side = "open ground", "", ""
    for other in sorted(out.state.units.values(), key=lambda u: u.id):
        if not other.in_play or other.in_air or other.id == unit_id:
            continue
        rect = footprint(other, rules.profile(other))
        if not overlaps(rect, placed):
            continue
        if other.side == unit.side:
            flank = nearest_side(rect, landing, ("left", "right"))
            x, y = side_midpoint(rect, flank)
            heading = outward(rect, flank)
            pose = Pose(x, y, heading).moved(forward=INCH + placed.length)  # its rear 1" from the flank
            placement = f"beside {other.id}"
        else:
            open_flanks = [s for s in ("left", "right") if side_is_open(rules, out.state, other, s)]
            open_sides = open_flanks or [s for s in SIDES if side_is_open(rules, out.state, other, s)]
            flank = nearest_side(rect, landing, tuple(open_sides) or SIDES)  # "the nearest open flank" 
            pose = contact_pose(rect, flank)
            placement, engaged_with, side = f"in base contact with {other.id}", other.id, flank
        break
    out.emit(CharacterGrounded(unit=unit_id, pose=pose, placement=placement,
                               fallen_until=fallen_until(out.state, unit.side), engaged_with=engaged_with, side=side,
                               path=(start, pose.position)))
    placed = footprint(out.state.units[unit_id], profile)
    if any(overlaps(terrain_rect(t), placed) for t in out.state.terrain if t.kind != "open"):
        dangerous_terrain(rules, out, dice, unit_id, 1)
        if not out.state.units[unit_id].in_play:
            return
    if engaged_with:
        return  # "The fallen model cannot Flee in this case."
    if not attacks.leadership_test(out, dice, unit_id, "panic", profile.profile.Ld, roller=unit.side):
        source_unit = out.state.units.get(source)
        away = centre(footprint(source_unit, rules.profile(source_unit))) if source_unit else start
        flee(rules, out, dice, unit_id, away, reason="failed its Panic test after falling")


def dangerous_terrain(rules: WhfbFlyingRules, out, dice: DiceCup, unit_id: str, models: int) -> None:
    """Host: a Dangerous Terrain test is a D6 per model; each 1 is a wound with no armour save."""
    unit = out.state.units[unit_id]
    roll = dice.roll(models, purpose=f"dangerous terrain: {unit_id}", roller=unit.side, target=2)
    out.emit(roll)
    failed = sum(1 for face in roll.faces if face == 1)
    from .events import TestTaken

    out.emit(TestTaken(unit=unit_id, test="dangerous terrain", passed=not failed, score=min(roll.faces), target=2))
    apply_wounds(rules, out, dice, unit_id, failed, "dangerous terrain")


def nearest_side(rect, point, sides) -> str:
    from aero_events.table import distance

    return min(sides, key=lambda s: (distance(side_midpoint(rect, s), point), SIDES.index(s)))


def side_is_open(rules: WhfbFlyingRules, state, unit, side: str) -> bool:
    """A side no unit on the ground is in base contact with (Swoop: "an open flank")."""
    from .geometry import side_segment

    segment = side_segment(footprint(unit, rules.profile(unit)), side)
    (sx, sy), (ex, ey) = segment.start, segment.end
    x0, x1 = (sx, ex) if sx <= ex else (ex, sx)
    y0, y1 = (sy, ey) if sy <= ey else (ey, sy)
    for other in state.units.values():
        if other.id == unit.id or not other.in_play or other.in_air:
            continue
        rect = footprint(other, rules.profile(other))
        a0, b0, a1, b1 = bounds(rect)
        if a0 > x1 or a1 < x0 or b0 > y1 or b1 < y0:
            continue  # bounding boxes apart: no point shared
        if shapes_overlap(rect, segment):
            return False
    return True

