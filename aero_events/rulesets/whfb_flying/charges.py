"""Charges: the host's ground charge, the Intercept (air to air) and the Swoop (air to ground), with the charged
unit's reaction in a reaction window (``core.orders``).

Host (README): a unit declares a charge on an enemy in its front arc; the charged unit reacts (hold, stand and
shoot, flee); the charge distance is rolled and compared with the gap to the side of the target the charger
stands in front of (front, flank or rear arc); on contact the charger is placed centred on that side, facing
it. Charges are declared and resolved one at a time (the host's simplification of "declare all, then move"). A
failed charge moves the highest die rolled towards the target, stopping 1" short. Ground charge: M + 2D6
(Swiftstride: 3D6, the lowest discarded). A charged unit that flees is destroyed if the charge reaches its new
position. Terror: a unit charged by a Terror-causing enemy takes a Panic test and flees as its reaction on a
failure. A unit already in combat may be charged on another side (a combat of several units, combat.py), one
charging unit a side. ``React`` also answers the challenge questions of the Close Combat phase (combat.py).

The supplement:

* Take Off/Land (Combat): "Units that have Taken Off during their last Movement turn cannot be charged by
  ground units. Units that have recently landed are eligible for a ground charge"; Fly, Soar: "A unit on the
  ground cannot engage in Close Combat with a unit in the air, except during a Swoop";
* Take Off/Land: "They cannot March or Charge this turn" (one fly move a phase: the unit has moved);
* Intercept: "An Air to Air Charge. 2M + D6"; before the blows each side that has a ranged attack and has not
  shot may shoot (the charged unit if it chose Stand and Shoot) "immediately before an air-to-air attack.
  Follow Initiative Order, including Charge bonuses for Initiative ... -1 to Hit Modifier in either direction.
  Aerial units can Stand and Shoot per se, unless they did a Take off on their last Movement turn"; equal
  Initiative shoots at once;
* Swoop: "An Air to Ground Charge ... M + D6 to the target flank"; "They must attack on an open flank"; "A
  ground unit being charged from an aerial unit can do a type of Stand and Shoot if available (with -1 To
  Hit)" (the -1 is the Stand and Shoot modifier: option ``swoop_stand_and_shoot_modifier``); "The charging
  unit may also shoot (or breath weapon) if it hasn't done so this turn with a +1 To Hit Modifier"; "Like
  Skirmishers, Flying models bunch together on the Swoop according to their formation" (the models that fit
  along the flank are in base contact); "They must take a Dangerous Terrain test if they Swoop into forests or
  other terrain with tall features ... They may Swoop onto rooftops without penalty" (terrain flag
  ``dangerous_for_swoop``; buildings are rooftops).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, Modifier, RuleError
from aero_events.core.orders import answer, current_window, open_window, reaction_choices
from aero_events.table import INCH, centre, gap, heading_towards, overlaps

from . import attacks
from .commands import Charge, Intercept, React, Swoop
from .events import ChargeDeclared, ChargeResolved, UnitDestroyed
from .falling import dangerous_terrain, side_is_open
from .fleeing import flee
from .geometry import (
    arc_of,
    boxes_apart,
    contact_pose,
    footprint,
    gap_compared,
    in_front_arc,
    moved_straight,
    side_length,
    side_segment,
    terrain_rect,
)
from .movement import check_position, ready_to_move
from .shooting import volley
from .state import GROUND, INTERCEPT, SWOOP, TAKE_OFF, GameState

if TYPE_CHECKING:
    from .ruleset import WhfbFlyingRules

HOST = "Host: Charges"
HOLD, STAND_AND_SHOOT, FLEE = "hold", "stand and shoot", "flee"


def _target(state: GameState, charger, target_id: str):
    target = state.units.get(target_id)
    if target is None or not target.in_play or target.side == charger.side:
        raise RuleError(f"{target_id} is not an enemy unit in the battle", rule=HOST)
    return target


def max_reach(rules: WhfbFlyingRules, unit, kind: str) -> int:
    m = rules.profile(unit).profile.M * INCH
    return {GROUND: m + 12 * INCH, INTERCEPT: 2 * m + 6 * INCH, SWOOP: m + 6 * INCH}[kind]


def check_charge(rules: WhfbFlyingRules, state: GameState, command) -> tuple:
    """The charger, target and kind of a charge command, or a RuleError saying why it may not be declared."""
    charger = ready_to_move(state, command.player, command.unit)
    target = _target(state, charger, command.target)
    profile = rules.profile(charger)
    charger_rect = footprint(charger, profile)
    target_rect = footprint(target, rules.profile(target))
    if isinstance(command, Charge):
        if charger.in_air:
            raise RuleError(f"{charger.id} is in the air: it charges with an Intercept or a Swoop",
                            rule="Movement Phase")
        if target.in_air:
            rule = "Take Off/Land (Combat)" if target.flight == TAKE_OFF else "Fly (Combat)"
            raise RuleError(f"{target.id} is in the air: a unit on the ground cannot engage in Close Combat with a unit "
                            "in the air, except during a Swoop", rule=rule)
        if not in_front_arc(charger_rect, centre(target_rect)):
            raise RuleError(f"{target.id} is not in {charger.id}'s front arc", rule=HOST)
        kind, reach_to = GROUND, target_rect
    elif isinstance(command, Intercept):
        if not (profile.flyer and charger.in_air) or not target.in_air:
            raise RuleError("Intercept is an Air to Air Charge: both units must be in the air", rule="Intercept")
        kind, reach_to = INTERCEPT, target_rect
    else:
        if not (profile.flyer and charger.in_air) or target.in_air:
            raise RuleError("Swoop is an Air to Ground Charge: a unit in the air on a unit on the ground",
                            rule="Swoop")
        if command.flank not in ("left", "right"):
            raise RuleError("a Swoop attacks a flank: left or right", rule="Swoop (Combat)")
        if not side_is_open(rules, state, target, command.flank):
            raise RuleError(f"{target.id}'s {command.flank} flank is not open: They must attack on an open flank",
                            rule="Swoop (Combat)")
        kind, reach_to = SWOOP, side_segment(target_rect, command.flank)
    side = command.flank if kind == SWOOP else arc_of(target_rect, centre(charger_rect))
    if side_taken(state, target.id, side):
        raise RuleError(f"{target.id}'s {side} is already in contact with an enemy unit (host: one charging unit a "
                        "side)", rule=HOST)
    reach = max_reach(rules, charger, kind)
    if boxes_apart(charger_rect, reach_to, reach) or gap_compared(charger_rect, reach_to, reach) > 0:
        raise RuleError(f"{target.id} is beyond {charger.id}'s longest possible charge", rule=_rule(kind))
    return charger, target, kind


def side_taken(state: GameState, unit_id: str, side: str) -> bool:
    """Whether an enemy unit is already in contact with that side of the unit (its front, if it charged)."""
    return any((c.target == unit_id and c.side == side) or (c.charger == unit_id and side == "front")
               for c in state.combats)


def _rule(kind: str) -> str:
    return {GROUND: HOST, INTERCEPT: "Intercept", SWOOP: "Swoop"}[kind]


def reactions_for(rules: WhfbFlyingRules, state: GameState, charger, target, kind: str) -> tuple[str, ...]:
    if target.fleeing:
        return (FLEE,)
    choices = [HOLD]
    profile = rules.profile(target)
    weapon = profile.missile_weapon()
    may_shoot = weapon is not None and not state.engaged(target.id) and not target.shot
    if target.in_air and target.flight == TAKE_OFF:
        may_shoot = False  # Intercept (Shooting): "unless they did a Take off on their last Movement turn"
    if may_shoot and kind != INTERCEPT:
        from .shooting import can_target

        may_shoot = can_target(rules, state, target, charger, weapon) is None
    if may_shoot:
        choices.append(STAND_AND_SHOOT)
    if not state.engaged(target.id):
        choices.append(FLEE)
    return tuple(choices)


def declare(rules: WhfbFlyingRules, out, command, dice: DiceCup) -> None:
    charger, target, kind = check_charge(rules, out.state, command)
    out.emit(ChargeDeclared(unit=charger.id, target=target.id, kind=kind, flank=getattr(command, "flank", "")))
    charger_profile, target_profile = rules.profile(charger), rules.profile(target)
    if charger_profile.terror and not target_profile.terror and not target.fleeing and not attacks.leadership_test(
            out, dice, target.id, "panic (Terror)", target_profile.profile.Ld, roller=target.side):
        resolve(rules, out, dice, FLEE)
        return
    choices = reactions_for(rules, out.state, charger, target, kind)
    if choices == (FLEE,):
        resolve(rules, out, dice, FLEE)
        return
    out.emit(open_window(out.state.reactions, decider=target.side, question=f"how {target.id} reacts to the charge "
                         f"of {charger.id}", choices=choices, rule=_rule(kind), resume="charge", subject=target.id,
                         interrupted=charger.side))


def react(rules: WhfbFlyingRules, out, command: React, dice: DiceCup) -> None:
    from .combat import ACCEPT, ISSUE, REPLY, answer_challenge

    window = current_window(out.state.reactions)
    if window is not None and window.resume in (ISSUE, REPLY, ACCEPT):
        answer_challenge(rules, out, command, dice)
        return
    out.emit(answer(out.state.reactions, command.player, command.choice))
    resolve(rules, out, dice, command.choice)


def _ended(out, charger, target, kind, reason: str, rolled=0) -> None:
    out.emit(ChargeResolved(unit=charger.id, target=target.id, kind=kind, distance=rolled, needed=0,
                            reached=False, pose=charger.pose, path=(charger.pose.position,), reason=reason))


def resolve(rules: WhfbFlyingRules, out, dice: DiceCup, choice: str) -> None:
    pending = out.state.pending
    kind = pending.kind
    state = out.state
    charger, target = state.units[pending.charger], state.units[pending.target]
    if choice == STAND_AND_SHOOT and kind != INTERCEPT:
        modifier = rules.options.swoop_stand_and_shoot_modifier if kind == SWOOP else -1
        volley(rules, out, dice, target.id, charger.id, attack="stand and shoot",
               modifiers=[Modifier("Stand and Shoot" + (" (Swoop)" if kind == SWOOP else ""), modifier)])
    elif choice == FLEE:
        flee(rules, out, dice, target.id, centre(footprint(charger, rules.profile(charger))),
             reason=f"fled from the charge of {charger.id}")
    state = out.state
    charger, target = state.units[pending.charger], state.units[pending.target]
    if not charger.in_play or charger.fleeing:
        _ended(out, charger, target, kind, "charger lost")
        return
    profile = rules.profile(charger)
    m = profile.profile.M
    if kind == GROUND:
        rolled, highest = attacks.roll_distance(out, dice, 2, profile.flyer, purpose=f"charge: {charger.id}",
                                                roller=charger.side)
        rolled += m
    else:
        roll = dice.d6(purpose=f"{kind}: {charger.id}", roller=charger.side)
        out.emit(roll)
        highest = roll.faces[0]
        rolled = (2 * m if kind == INTERCEPT else m) + highest
    charger_rect = footprint(charger, profile)
    if not target.in_play:
        _ended(out, charger, target, kind, "target gone", rolled * INCH)
        return
    target_rect = footprint(target, rules.profile(target))
    side = pending.flank if kind == SWOOP else arc_of(target_rect, centre(charger_rect))
    fled = choice == FLEE or target.fleeing
    needed = gap(charger_rect, target_rect if fled else side_segment(target_rect, side))
    reach = rolled * INCH
    if reach >= needed:
        pose = contact_pose(target_rect, side)
        contacts = 0
        if kind == SWOOP:
            from .combat import character_frontage

            # "Flying models bunch together": joined characters first, then the unit's models that still fit
            frontage = character_frontage(rules, state, charger)
            places = max(0, side_length(target_rect, side) - frontage) // profile.base_width
            contacts = min(charger.models, places if frontage else max(1, places))
        out.emit(ChargeResolved(unit=charger.id, target=target.id, kind=kind, distance=reach, needed=needed,
                                reached=not fled, pose=pose, side=side, contacts=contacts,
                                path=(charger.pose.position, pose.position), exit_heading=pose.heading,
                                reason="caught fleeing" if fled else ""))
        if fled:
            out.emit(UnitDestroyed(unit=target.id, reason=f"caught fleeing by {charger.id}"))
            for character in target.with_characters(out.state):
                out.emit(UnitDestroyed(unit=character.id, reason=f"caught with {target.id}"))
            return
        if kind == SWOOP:
            after_swoop_contact(rules, out, dice, charger.id, target.id)
        elif kind == INTERCEPT:
            intercept_shooting(rules, out, dice, charger.id, target.id, choice == STAND_AND_SHOOT)
        return
    failed_charge(rules, out, charger, target, kind, reach, needed, highest)


def failed_charge(rules, out, charger, target, kind, reach, needed, highest) -> None:
    profile = rules.profile(charger)
    start = centre(footprint(charger, profile))
    aim = centre(footprint(target, rules.profile(target)))
    heading = heading_towards(aim[0] - start[0], aim[1] - start[1])
    length = max(0, min(highest * INCH, needed - INCH))
    pose = moved_straight(charger.pose, heading, length)
    try:
        check_position(rules, out.state, charger, pose, charger.in_air, rule=HOST)
    except RuleError:
        pose = charger.pose
    out.emit(ChargeResolved(unit=charger.id, target=target.id, kind=kind, distance=reach, needed=needed,
                            reached=False, pose=pose, path=(charger.pose.position, pose.position)))


def after_swoop_contact(rules: WhfbFlyingRules, out, dice: DiceCup, charger_id: str, target_id: str) -> None:
    """Swoop: a Dangerous Terrain test in forests and tall features (not rooftops), then the flyer's own shot at
    +1."""
    state = out.state
    charger, target = state.units[charger_id], state.units[target_id]
    places = (footprint(charger, rules.profile(charger)), footprint(target, rules.profile(target)))
    combat = next(c for c in state.combats if c.charger == charger_id and c.target == target_id)
    if any(t.dangerous_for_swoop and t.kind != "building" and any(overlaps(terrain_rect(t), p) for p in places)
           for t in state.terrain):
        dangerous_terrain(rules, out, dice, charger_id, combat.contacts)
    charger = out.state.units[charger_id]
    if charger.in_play and not charger.shot and rules.profile(charger).missile_weapon() is not None:
        volley(rules, out, dice, charger_id, target_id, attack="swoop shot",
               modifiers=[Modifier("Swoop: shooting the ground unit", 1)], long_range=False)


def intercept_shooting(rules: WhfbFlyingRules, out, dice: DiceCup, charger_id: str, target_id: str,
                       target_shoots: bool) -> None:
    """Intercept (Shooting): shots before the air-to-air attack, in Initiative order, -1 to hit both ways."""
    from .combat import initiative

    state = out.state
    charger, target = state.units[charger_id], state.units[target_id]
    shooters = []
    if not charger.shot and rules.profile(charger).missile_weapon() is not None:
        shooters.append((initiative(rules, state, charger, charging=True), charger_id, target_id))
    if target_shoots and rules.profile(target).missile_weapon() is not None:
        shooters.append((initiative(rules, state, target, charging=False), target_id, charger_id))
    for step in sorted({i for i, _, _ in shooters}, reverse=True):
        results = []
        for value, shooter, aim in shooters:
            if value == step and out.state.units[shooter].in_play and out.state.units[aim].in_play:
                results.append((aim, volley(rules, out, dice, shooter, aim, attack="intercept shot", long_range=False,
                                            modifiers=[Modifier("Intercept", -1)], apply=False), shooter))
        from .falling import apply_wounds

        for aim, unsaved, shooter in results:
            apply_wounds(rules, out, dice, aim, unsaved, shooter)


HANDLERS = {Charge: declare, Intercept: declare, Swoop: declare, React: react}


def legal_commands(rules: WhfbFlyingRules, state: GameState, player: str) -> list:
    if state.reactions.pending:
        return [React(player=player, choice=choice) for choice in reaction_choices(state.reactions, player)]
    if state.phase != "movement" or state.active != player:
        return []
    result: list = []
    enemies = sorted((u for u in state.units.values() if u.side != player and u.in_play), key=lambda u: u.id)
    for unit in sorted(state.side(player), key=lambda u: u.id):
        if unit.moved or unit.fleeing or state.engaged(unit.id):
            continue
        for enemy in enemies:
            if not unit.in_air:
                options = [Charge(player=player, unit=unit.id, target=enemy.id)]
            elif enemy.in_air:
                options = [Intercept(player=player, unit=unit.id, target=enemy.id)]
            else:
                options = [Swoop(player=player, unit=unit.id, target=enemy.id, flank=f) for f in ("left", "right")]
            for command in options:
                try:
                    check_charge(rules, state, command)
                except RuleError:
                    continue
                result.append(command)
    return result

