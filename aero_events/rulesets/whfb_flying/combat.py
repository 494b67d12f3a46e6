"""Close combat (Combat), on the host's close combat (README).

Host: every combat is fought once in each Close Combat phase, in the order the charges were made. Blows go in
Initiative steps, highest first; equal Initiative strikes at once. Models in base contact attack with their
Attacks, the rank (or file) behind them with one supporting attack each. To hit by WS against WS, to wound by
S against T, armour saves. Combat resolution: unsaved wounds caused, +1 per full rank of five or more behind
the first (at most +3), +1 for a charger on a flank, +2 on the rear. The loser takes a break test on 2D6
against Ld minus the difference (Steadfast, more ranks than the winner: unmodified Ld); a unit that breaks
flees from the winner, which pursues (2D6, Swiftstride 3D6 less the lowest) and destroys it if it rolls at
least the distance fled. Fear: a unit in combat with a Fear- or Terror-causing enemy that causes neither tests
Ld at the start of each round and fights at WS 1 on a failure.

The supplement:

* Combat: "Ground units cannot attack Flying units except with ranged attacks, or during the Swoop attack"
  (charges enforce it: only Intercepts reach units in the air);
* Take Off/Land: "A model who made such moves on its previous Movement turn has -1 Initiative for Close
  Combat";
* Intercept: "The entire unit(s) may engage in aerial Close Combat following normal Initiative order (all
  models are allowed to strike.) +1 Initiative for Charging units ... No Extra Ranks for Combat Resolution.
  Flank bonuses still apply."
* Swoop: "After the blows, the Flying units continue to Swoop back up into the air beyond the flank of the
  target. The target unit may strike back, like normal ... Flying units gain +1 Initiative ... can only attack
  enemy models they are in base contact with ... Supporting Attacks rules still apply ... Fear/Terror rules
  apply in both directions. Add +1 to Combat Resolution for the Flying units." The +1 stands for the host's
  flank bonus (a Swoop always strikes a flank; "Flank bonuses still apply" is said of the Intercept only). The
  exit: "M + D6 beyond the unit on the opposite flank"; where that place is taken or off the table, the exit
  is shortened 1" at a time, and if no place beyond is free the flyers hover above the target (spec gap: a
  blocked Swoop).
* Fly High (Combat): a flyer that breaks while in the air takes the Fly High test (fleeing.py).
* Characters: a fallen character has -1 I and -1 CR until its next turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup
from aero_events.table import INCH, centre, gap, heading_towards

from . import attacks
from .events import AttackResolved, CombatEnded, CombatResolved, UnitDestroyed, UnitMoved
from .falling import apply_wounds
from .fleeing import flee
from .geometry import footprint, moved_straight, ranks, side_length
from .movement import check_position
from .state import GROUND, INTERCEPT, LAND, SWOOP, TAKE_OFF, Combat, GameState, UnitState

if TYPE_CHECKING:
    from .ruleset import WhfbFlyingRules


def initiative(rules: WhfbFlyingRules, state: GameState, unit: UnitState, *, charging: bool = False,
               kind: str = INTERCEPT) -> int:
    value = rules.profile(unit).profile.I
    if charging and kind in (INTERCEPT, SWOOP):
        value += 1  # Intercept: "+1 Initiative for Charging units"; Swoop: "+1 Initiative"
    if unit.flight in (TAKE_OFF, LAND) and not unit.fell:
        value -= 1  # Take Off/Land (Combat)
    if unit.fallen_until >= state.turn_count and unit.fell:
        value -= 1  # Characters: "-1 Initiative ... for falling from the air until its next turn"
    return value


def _in_contact(count_across: int, base: int, contact: int, limit: int) -> int:
    return max(1, min(limit, count_across, -(-contact // base)))


def fighters(rules: WhfbFlyingRules, state: GameState, combat: Combat, unit: UnitState,
             enemy: UnitState) -> tuple[int, int]:
    """(models in base contact, models giving supporting attacks)."""
    profile, enemy_profile = rules.profile(unit), rules.profile(enemy)
    if unit.models == 1:
        return 1, 0
    if combat.kind == INTERCEPT:
        return unit.models, 0  # "all models are allowed to strike"
    if combat.kind == SWOOP and unit.id == combat.charger:
        return combat.contacts, 0  # "can only attack enemy models they are in base contact with"
    unit_rect, enemy_rect = footprint(unit, profile), footprint(enemy, enemy_profile)
    if unit.id == combat.charger:
        target_rect = enemy_rect
        contact = min(unit_rect.width, side_length(target_rect, combat.side if combat.side in
                                                   ("front", "rear", "left", "right") else "front"))
        front = _in_contact(unit.files, profile.base_width, contact, unit.models)
        return front, min(front, unit.models - front) if ranks(unit) > 1 else 0
    charger_rect = enemy_rect
    side = combat.side if combat.side in ("front", "rear", "left", "right") else "front"
    if combat.kind == SWOOP:
        contact = combat.contacts * enemy_profile.base_width
    else:
        contact = charger_rect.width
    if side in ("left", "right"):
        front = _in_contact(ranks(unit), profile.base_depth, contact, unit.models)
        support = min(front, unit.models - front) if unit.files > 1 else 0
    elif side == "front":
        front = _in_contact(unit.files, profile.base_width, contact, unit.models)
        support = min(front, unit.models - front) if ranks(unit) > 1 else 0
    else:
        front, support = _in_contact(unit.files, profile.base_width, contact, unit.models), 0
    return front, support


def rank_bonus(rules: WhfbFlyingRules, unit: UnitState) -> int:
    """Host: +1 per full rank of five or more models behind the first, at most +3; none for skirmishers."""
    if rules.profile(unit).skirmishers or unit.files < 5 or unit.in_air:
        return 0
    return max(0, min(3, unit.models // unit.files - 1))


def fight_all(rules: WhfbFlyingRules, out, dice: DiceCup) -> None:
    """The Close Combat phase: every combat not yet fought this phase fights a round."""
    while True:
        state = out.state
        waiting = [c for c in state.combats if c.fought_turn != state.turn_count]
        if not waiting:
            return
        fight_round(rules, out, dice, waiting[0])


def fight_round(rules: WhfbFlyingRules, out, dice: DiceCup, combat: Combat) -> None:
    state = out.state
    a, b = state.units[combat.charger], state.units[combat.target]
    ws_one: set[str] = set()
    for unit, enemy in ((a, b), (b, a)):
        mine, theirs = rules.profile(unit), rules.profile(enemy)
        causes_fear = theirs.fear or theirs.terror
        if causes_fear and not (mine.fear or mine.terror) and not attacks.leadership_test(
                out, dice, unit.id, "fear", mine.profile.Ld, roller=unit.side):
            ws_one.add(unit.id)
    # Who strikes: each unit, and each character that joined it (host: it fights beside the unit with its own
    # profile; the enemy's blows go to the unit). (striker, its unit, the enemy unit, Initiative)
    strikers = [(a.id, a.id, b.id, initiative(rules, state, a, charging=combat.first_round, kind=combat.kind)),
                (b.id, b.id, a.id, initiative(rules, state, b))]
    for owner, enemy_id, charging in ((a, b.id, combat.first_round), (b, a.id, False)):
        for character in owner.with_characters(state):
            strikers.append((character.id, owner.id, enemy_id,
                             initiative(rules, state, character, charging=charging, kind=combat.kind)))
    counts = {a.id: fighters(rules, state, combat, a, b), b.id: fighters(rules, state, combat, b, a)}
    caused = {a.id: 0, b.id: 0}
    for step in sorted({i for *_, i in strikers}, reverse=True):
        results = []
        for striker_id, owner_id, enemy_id, value in strikers:
            striker, enemy = out.state.units[striker_id], out.state.units[enemy_id]
            if value != step or not striker.alive or not out.state.units[owner_id].in_play or not enemy.in_play:
                continue
            profile, enemy_profile = rules.profile(striker), rules.profile(enemy)
            if striker_id == owner_id:
                front, support = counts[striker_id]
                front = min(front, striker.models)
                support = min(support, striker.models - front)
                blows = front * profile.profile.A + support
            else:
                blows = profile.profile.A
            ws = 1 if owner_id in ws_one else profile.profile.WS
            enemy_ws = 1 if enemy_id in ws_one else enemy_profile.profile.WS
            score = attacks.combat_score(ws, enemy_ws)
            hits = attacks.roll_hits(out, dice, blows, score, purpose=f"to hit: {striker_id} strikes {enemy_id}",
                                     roller=striker.side)
            wounds = attacks.roll_wounds(out, dice, hits, profile.profile.S, enemy_profile.profile.T,
                                         purpose=f"to wound: {striker_id} strikes {enemy_id}", roller=striker.side)
            unsaved = attacks.roll_saves(out, dice, wounds, enemy_profile.save, profile.profile.S,
                                         purpose=f"armour saves: {enemy_id}", roller=enemy.side)
            fear = ("fear: WS 1",) if owner_id in ws_one else ()
            out.emit(AttackResolved(attacker=striker_id, target=enemy_id, attack=f"close combat ({combat.kind})",
                                    dice=blows, hits=hits, wounds=wounds, unsaved=unsaved, to_hit=score,
                                    modifiers=(f"Initiative {step}", *fear)))
            results.append((enemy_id, unsaved, owner_id))
        for enemy_id, unsaved, owner_id in results:
            caused[owner_id] += unsaved
            apply_wounds(rules, out, dice, enemy_id, unsaved, owner_id)
    resolve(rules, out, dice, combat, caused)


def resolve(rules: WhfbFlyingRules, out, dice: DiceCup, combat: Combat, caused: dict[str, int]) -> None:
    state = out.state
    a, b = state.units[combat.charger], state.units[combat.target]
    scores, details = dict(caused), []
    for unit in (a, b):
        if combat.kind != INTERCEPT:
            bonus = rank_bonus(rules, unit)
            if bonus:
                scores[unit.id] += bonus
                details.append(f"{unit.id} +{bonus} ranks")
        if unit.fell and unit.fallen_until >= state.turn_count:
            scores[unit.id] -= 1
            details.append(f"{unit.id} -1 fell from the air")
    if combat.kind in (GROUND, INTERCEPT) and combat.side in ("left", "right", "rear"):
        bonus = 2 if combat.side == "rear" else 1
        scores[a.id] += bonus
        details.append(f"{a.id} +{bonus} {combat.side}")
    if combat.kind == SWOOP:
        scores[a.id] += 1
        details.append(f"{a.id} +1 Swoop")
    winner = a.id if scores[a.id] > scores[b.id] else b.id if scores[b.id] > scores[a.id] else None
    out.emit(CombatResolved(charger=a.id, target=b.id, scores=scores, winner=winner, details=tuple(details)))
    if winner is not None:
        loser = b.id if winner == a.id else a.id
        break_test(rules, out, dice, combat, winner, loser, abs(scores[a.id] - scores[b.id]))
    if combat.kind == SWOOP:
        still = out.state.units[a.id]
        if any(c.charger == a.id and c.target == b.id for c in out.state.combats):
            out.emit(CombatEnded(charger=a.id, target=b.id, reason="the Swoop passes on"))
        if still.in_play and not still.fleeing:
            swoop_exit(rules, out, dice, combat)


def steadfast(rules: WhfbFlyingRules, loser: UnitState, winner: UnitState) -> bool:
    """Host Steadfast: more ranks than the winner. Special Rules: flyers "cannot be Steadfast"."""
    if rules.profile(loser).flyer:
        return False
    return max(1, loser.models // loser.files) > max(1, winner.models // winner.files)


def break_test(rules: WhfbFlyingRules, out, dice: DiceCup, combat: Combat, winner_id: str, loser_id: str,
               difference: int) -> None:
    state = out.state
    loser, winner = state.units[loser_id], state.units[winner_id]
    if not loser.in_play or loser.fleeing:
        return
    # host: a unit uses the highest Leadership among it and the characters that joined it
    ld = max(rules.profile(u).profile.Ld for u in (loser, *loser.with_characters(state)))
    target = ld if steadfast(rules, loser, winner) else ld - difference
    if attacks.leadership_test(out, dice, loser_id, "break", target, roller=loser.side):
        return
    winner_centre = centre(footprint(winner, rules.profile(winner)))
    fled = flee(rules, out, dice, loser_id, winner_centre, reason=f"broke from combat with {winner_id}")
    pursue(rules, out, dice, combat, winner_id, loser_id, fled)


def pursue(rules: WhfbFlyingRules, out, dice: DiceCup, combat: Combat, winner_id: str, loser_id: str,
           fled: int) -> None:
    """Host pursuit; Swoop: the flyers "continue to Swoop back up into the air" instead of pursuing, and a unit
    on the ground cannot pursue a unit in the air."""
    state = out.state
    winner, loser = state.units[winner_id], state.units[loser_id]
    if not winner.in_play or winner.fleeing or state.engaged(winner_id) or combat.kind == SWOOP:
        return
    if winner.in_air != loser.in_air and loser.in_play:
        return
    profile = rules.profile(winner)
    rolled, _ = attacks.roll_distance(out, dice, 2, profile.flyer, purpose=f"pursuit: {winner_id}",
                                      roller=winner.side)
    reach = rolled * INCH
    if loser.in_play and reach >= fled:
        out.emit(UnitDestroyed(unit=loser_id, reason=f"caught by the pursuit of {winner_id}"))
        for character in loser.with_characters(out.state):
            out.emit(UnitDestroyed(unit=character.id, reason=f"caught with {loser_id}"))
    loser = out.state.units[loser_id]
    start = centre(footprint(winner, profile))
    aim = centre(footprint(loser, rules.profile(loser)))
    if aim == start:
        return
    heading = heading_towards(aim[0] - start[0], aim[1] - start[1])
    length = min(reach, gap(footprint(winner, profile), footprint(loser, rules.profile(loser)))
                 if loser.in_play else reach)
    for step in range(length, -1, -INCH):
        pose = moved_straight(winner.pose, heading, step)
        if not position_free(rules, out.state, winner, pose, exclude=(loser_id,)):
            continue
        if step:
            out.emit(UnitMoved(unit=winner_id, pose=pose, how="pursuit", path=(winner.pose.position, pose.position),
                               counts_as_move=False))
        return


def position_free(rules: WhfbFlyingRules, state: GameState, unit: UnitState, pose, exclude=()) -> bool:
    """Whether the unit may stand at ``pose`` at its level (movement.check_position without the error)."""
    from aero_events.core import RuleError

    try:
        check_position(rules, state, unit, pose, unit.in_air, exclude=exclude)
    except RuleError:
        return False
    return True


def swoop_exit(rules: WhfbFlyingRules, out, dice: DiceCup, combat: Combat) -> None:
    """Swoop: "M + D6 beyond the unit on the opposite flank" (the rear of the flyers that far beyond it)."""
    state = out.state
    flyer, target = state.units[combat.charger], state.units[combat.target]
    profile = rules.profile(flyer)
    roll = dice.d6(purpose=f"swoop exit: {flyer.id}", roller=flyer.side)
    out.emit(roll)
    beyond = (profile.profile.M + roll.faces[0]) * INCH
    across = footprint(target, rules.profile(target)).width
    length = footprint(flyer, profile).length
    pose = None
    for extra in range(beyond, -1, -INCH):
        candidate = moved_straight(flyer.pose, combat.exit_heading, across + length + extra)
        if position_free(rules, state, flyer, candidate):
            pose = candidate
            break
    if pose is None:
        pose = moved_straight(flyer.pose, combat.exit_heading, (across + length) // 2)
    out.emit(UnitMoved(unit=flyer.id, pose=pose, how="swoop exit", path=(flyer.pose.position, pose.position),
                       counts_as_move=False))
