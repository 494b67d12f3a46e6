"""The fly moves that are not charges (Movement Phase): Take Off/Land, Fly, Soar and Fly High.

* Movement Phase: "Flying units start the battle at their deployed positions on the ground"; in the air they
  are "at a standard 10 inches above the ground"; they "may Fly directly above a ground unit, but not be
  engaged with them"; "Each Flying unit may only perform one of the following Fly moves per movement phase."
  In the air a unit moves in any direction and ends facing the way it flew (Skirmishers).
* Take Off/Land: "They reach 10 inches above the ground. They cannot March or Charge this turn. They can Fly
  or move on the ground at their normal M value on the same turn, in either order."
* Fly: "Similar to normal Movements on the ground ... Unit joining is allowed. Unit reform is allowed."
* Soar: "Similar to Marching on the ground. Flies at 2M. No Unit reforms or joining allowed."
* Leaving a unit (host, for Fly's "Unit joining is allowed"): a character that joined a unit may leave it in a
  later Movement phase of its side, before the unit moves (8th-edition style): it moves out up to M on its
  own, a Fly move when the unit is in the air (its fly move of the phase: "one of the following Fly moves per
  movement phase"), and must end clear of the unit. Not while the unit is engaged or fleeing.
* Fly High: "Similar to Fleeing off the table. Fleeing units climb high out of the battle and are removed from
  the game" (spec gap: a move any unit in the air may choose, besides the Fly High test of a fleeing unit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from aero_events.core import DiceCup, RuleError
from aero_events.table import FULL_TURN, INCH, compare_gap

from .commands import Fly, FlyHigh, Land, LeaveUnit, Soar, TakeOff
from .events import CharacterJoined, CharacterLeft, FlewHigh, FlightMade
from .geometry import footprint, moved_straight
from .movement import candidate_headings, check_position, legal_if, ready_to_move
from .state import FLY, FLY_HIGH, LAND, MOVEMENT, SOAR, TAKE_OFF, GameState

if TYPE_CHECKING:
    from .ruleset import WhfbFlyingRules


def flyer(rules: WhfbFlyingRules, state: GameState, player: str, unit_id: str, *, in_air: bool, rule: str):
    unit = ready_to_move(state, player, unit_id)
    if not rules.profile(unit).flyer:
        raise RuleError(f"{unit_id} cannot fly", rule="Movement Phase")
    if unit.in_air != in_air:
        raise RuleError(f"{unit_id} is {'on the ground' if in_air else 'in the air'}", rule=rule)
    return unit


def _distance(rules, unit, distance: int, factor: int, rule: str) -> None:
    m = rules.profile(unit).profile.M * INCH
    if not 0 <= distance <= factor * m:
        raise RuleError(f"{unit.id} moves up to {factor * m / INCH:g}\" with {rule}", rule=rule)


def take_off(rules: WhfbFlyingRules, out, command: TakeOff, dice: DiceCup) -> None:
    """Take Off/Land: reach 10"; a move of up to M on the ground before it, or in the air after it."""
    state = out.state
    unit = flyer(rules, state, command.player, command.unit, in_air=False, rule="Take Off/Land")
    _distance(rules, unit, command.distance, 1, "Take Off/Land")
    heading = command.heading % FULL_TURN if command.distance else unit.pose.heading
    end = moved_straight(unit.pose, heading, command.distance)
    if command.ground_first:
        check_position(rules, state, unit, end, False, start_pose=unit.pose.turned((heading - unit.pose.heading)
                                                                                    % FULL_TURN), rule="Take Off/Land")
    check_position(rules, state, unit, end, True, rule="Take Off/Land")
    out.emit(FlightMade(unit=unit.id, move=TAKE_OFF, in_air=True, pose=end, path=(unit.pose.position, end.position)))


def land(rules: WhfbFlyingRules, out, command: Land, dice: DiceCup) -> None:
    """Take Off/Land: leave 10"; a Fly move before landing, or a ground move after it (``ground_first``)."""
    state = out.state
    unit = flyer(rules, state, command.player, command.unit, in_air=True, rule="Take Off/Land")
    _distance(rules, unit, command.distance, 1, "Take Off/Land")
    heading = command.heading % FULL_TURN if command.distance else unit.pose.heading
    end = moved_straight(unit.pose, heading, command.distance)
    if command.ground_first:
        check_position(rules, state, unit, unit.pose, False, rule="Take Off/Land")
        check_position(rules, state, unit, end, False, rule="Take Off/Land",
                       start_pose=unit.pose.turned((heading - unit.pose.heading) % FULL_TURN))
    else:
        check_position(rules, state, unit, end, True, rule="Take Off/Land")
        check_position(rules, state, unit, end, False, rule="Take Off/Land")
    out.emit(FlightMade(unit=unit.id, move=LAND, in_air=False, pose=end, path=(unit.pose.position, end.position)))


def fly(rules: WhfbFlyingRules, out, command: Fly, dice: DiceCup) -> None:
    """Fly: up to M in the air; "Unit reform is allowed" (``files``); "Unit joining is allowed" (``join``)."""
    state = out.state
    unit = flyer(rules, state, command.player, command.unit, in_air=True, rule="Fly")
    _distance(rules, unit, command.distance, 1, "Fly")
    if command.join:
        join(rules, out, unit, command)
        return
    files = command.files or unit.files
    if not 1 <= files <= unit.models:
        raise RuleError(f"{unit.id} has {unit.models} models: 1 to {unit.models} files", rule="Fly")
    end = moved_straight(unit.pose, command.heading, command.distance)
    check_position(rules, state, unit, end, True, files=files, rule="Fly")
    out.emit(FlightMade(unit=unit.id, move=FLY, in_air=True, pose=end, path=(unit.pose.position, end.position),
                        files=files if files != unit.files else 0))


def join(rules: WhfbFlyingRules, out, character, command: Fly) -> None:
    """Fly: "Unit joining is allowed": a flying character (one model) flies into a friendly unit in the air that is
    within its move and not engaged, and joins it (host: it then moves, fights and flees with the unit)."""
    state = out.state
    profile = rules.profile(character)
    host = state.units.get(command.join)
    if not profile.character or character.models != 1:
        raise RuleError(f"{character.id} is not a character: only characters join units", rule="Fly")
    if host is None or host.side != character.side or not host.in_play or host.id == character.id:
        raise RuleError(f"{command.join!r} is not a friendly unit in the battle", rule="Fly")
    if rules.profile(host).character or not host.in_air or state.engaged(host.id) or host.fleeing:
        raise RuleError(f"{host.id} cannot be joined: a unit (not a character) in the air, not engaged or fleeing",
                        rule="Fly")
    if compare_gap(footprint(character, profile), footprint(host, rules.profile(host)), command.distance) > 0:
        raise RuleError(f"{host.id} is beyond {command.distance / INCH:g}\" of {character.id}", rule="Fly")
    out.emit(FlightMade(unit=character.id, move=FLY, in_air=True, pose=host.pose,
                        path=(character.pose.position, host.pose.position)))
    out.emit(CharacterJoined(character=character.id, unit=host.id))


def soar(rules: WhfbFlyingRules, out, command: Soar, dice: DiceCup) -> None:
    """Soar: up to 2M in the air; "No Unit reforms or joining allowed"."""
    state = out.state
    unit = flyer(rules, state, command.player, command.unit, in_air=True, rule="Soar")
    _distance(rules, unit, command.distance, 2, "Soar")
    if (command.files and command.files != unit.files) or command.join:
        raise RuleError("No Unit reforms or joining allowed when Soaring", rule="Soar")
    end = moved_straight(unit.pose, command.heading, command.distance)
    check_position(rules, state, unit, end, True, rule="Soar")
    out.emit(FlightMade(unit=unit.id, move=SOAR, in_air=True, pose=end, path=(unit.pose.position, end.position)))


def fly_high(rules: WhfbFlyingRules, out, command: FlyHigh, dice: DiceCup) -> None:
    """Fly High: the unit climbs out of the battle, as if it fled off the table."""
    unit = flyer(rules, out.state, command.player, command.unit, in_air=True, rule="Fly High")
    out.emit(FlightMade(unit=unit.id, move=FLY_HIGH, in_air=True, pose=unit.pose, path=(unit.pose.position,)))
    out.emit(FlewHigh(unit=unit.id, reason="chose to Fly High"))
    for character in unit.with_characters(out.state):
        out.emit(FlewHigh(unit=character.id, reason=f"with {unit.id}"))


LEAVING = "Host: Characters leaving units"


def leave_unit(rules: WhfbFlyingRules, out, command: LeaveUnit, dice: DiceCup) -> None:
    """Host: a joined character leaves its unit before the unit moves and moves up to M on its own (a Fly move
    in the air), ending clear of the unit."""
    state = out.state
    if state.phase != MOVEMENT or state.active != command.player:
        raise RuleError("characters leave units in their side's Movement phase", rule=LEAVING)
    character = state.units.get(command.unit)
    if character is None or character.side != command.player or not character.alive or not character.joined:
        raise RuleError(f"{command.unit!r} is not a character of {command.player}'s in a unit", rule=LEAVING)
    host = state.units[character.joined]
    if character.moved:
        raise RuleError(f"{character.id} has made its move this phase (it joined {host.id} this phase)",
                        rule="Movement Phase")
    if host.moved:
        raise RuleError(f"{host.id} has moved: a character leaves a unit before the unit moves", rule=LEAVING)
    if state.engaged(host.id) or host.fleeing:
        raise RuleError(f"{host.id} is engaged or fleeing: its characters cannot leave it", rule=LEAVING)
    rule = "Fly" if host.in_air else LEAVING
    _distance(rules, character, command.distance, 1, rule)
    heading = command.heading % FULL_TURN
    alone = replace(character, joined="", pose=host.pose, in_air=host.in_air)
    end = moved_straight(host.pose, heading, command.distance)
    check_position(rules, state, alone, end, host.in_air, rule=rule)
    if not host.in_air:
        check_position(rules, state, alone, end, False, start_pose=host.pose.turned((heading - host.pose.heading)
                                                                                     % FULL_TURN),
                       exclude=(host.id,), rule=rule)
    out.emit(CharacterLeft(character=character.id, unit=host.id, pose=end, in_air=host.in_air,
                           path=(host.pose.position, end.position)))


HANDLERS = {TakeOff: take_off, Land: land, Fly: fly, Soar: soar, FlyHigh: fly_high, LeaveUnit: leave_unit}


def legal_commands(rules: WhfbFlyingRules, state: GameState, player: str) -> list:
    from .turn import decider

    if state.phase != "movement" or state.active != player or state.reactions.pending or decider(state) != player:
        return []
    result: list = []
    for unit in sorted(state.side(player), key=lambda u: u.id):
        if not rules.profile(unit).flyer or unit.moved or unit.fleeing or state.engaged(unit.id):
            continue
        m = rules.profile(unit).profile.M * INCH
        headings = candidate_headings(rules, state, unit)
        if unit.in_air:
            options = [Fly(player=player, unit=unit.id, heading=h, distance=d) for h in headings for d in (m, m // 2)]
            options += [Soar(player=player, unit=unit.id, heading=h, distance=2 * m) for h in headings]
            options += [Land(player=player, unit=unit.id), FlyHigh(player=player, unit=unit.id)]
            options += [Land(player=player, unit=unit.id, heading=h, distance=m) for h in headings]
            if rules.profile(unit).character:
                options += [Fly(player=player, unit=unit.id, heading=0, distance=m, join=host.id)
                            for host in state.side(player) if host.id != unit.id and host.in_air]
            result += [c for c in options if legal_if(rules, state, HANDLERS[type(c)], c)]
        else:
            options = [TakeOff(player=player, unit=unit.id)]
            options += [TakeOff(player=player, unit=unit.id, heading=h, distance=m) for h in headings]
            result += [c for c in options if legal_if(rules, state, take_off, c)]
    for character in sorted(state.units.values(), key=lambda u: u.id):
        if character.side == player and character.joined and character.alive and not character.moved:
            host = state.units[character.joined]
            m = rules.profile(character).profile.M * INCH
            options = [LeaveUnit(player=player, unit=character.id, heading=h, distance=m)
                       for h in candidate_headings(rules, state, host)]
            result += [c for c in options if legal_if(rules, state, leave_unit, c)]
    return result
