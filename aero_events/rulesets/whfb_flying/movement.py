"""Host movement on the ground (this project's minimal host, README) and the Vanguard move.

* **Move**: a unit turns to a heading, then moves straight ahead. A ranked unit wheels about its inner front
  corner and the outer corner's travel counts against its move; skirmishers (every flyer: Special Rules) turn
  for free. Up to M, or 2M marching; no march with an enemy within 8" (the host's march block, without the
  Leadership test). A unit never moves through another unit on the ground, nor into a building, nor ends
  within 1" of an enemy unit on its level unless it charges; it stays on the table.
* **Reform**: instead of moving, a unit on the ground takes a new facing and a new number of files.
* **Vanguard** (Special Rules): before the first turn each flyer "may be used to make a normal move on the
  ground, or perform the Take off maneuver" (the take-off in place; spec gap: it is not a Movement turn's Take
  Off, so it gives no +1 to hit and no -1 Initiative).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError
from aero_events.table import FULL_TURN, INCH, bounds, centre, compare_gap, heading_towards

from .commands import EndVanguard, Move, Reform, VanguardMove
from .events import FlightMade, UnitMoved, VanguardEnded
from .geometry import (
    bounds_apart,
    boxes_apart,
    clear_of,
    clear_of_boxed,
    footprint,
    moved_straight,
    on_table,
    sweep,
    terrain_rect,
    wheel,
)
from .state import MOVEMENT, VANGUARD, GameState, UnitState

if TYPE_CHECKING:
    from .ruleset import WhfbFlyingRules

HOST = "Host: Movement"
SPECIAL = "Special Rules"


def own_unit(state: GameState, player: str, unit_id: str) -> UnitState:
    unit = state.units.get(unit_id)
    if unit is None:
        raise RuleError(f"no unit {unit_id!r}", rule=HOST)
    if unit.side != player:
        raise RuleError(f"{unit_id} is not {player}'s unit", rule=HOST)
    if not unit.in_play:
        raise RuleError(f"{unit_id} is out of the battle ({unit.status})", rule=HOST)
    return unit


def ready_to_move(state: GameState, player: str, unit_id: str) -> UnitState:
    """The unit may still make its move this Movement phase ("Each Flying unit may only perform one of the
    following Fly moves per movement phase"; host: one move per unit)."""
    if state.phase != MOVEMENT or state.active != player:
        raise RuleError("units move in their own side's Movement phase", rule=HOST)
    unit = own_unit(state, player, unit_id)
    if unit.moved:
        raise RuleError(f"{unit_id} has already moved this Movement phase "
                        "(one fly move per movement phase)", rule="Movement Phase")
    if state.engaged(unit_id):
        raise RuleError(f"{unit_id} is engaged in close combat", rule=HOST)
    if unit.fleeing:
        raise RuleError(f"{unit_id} is fleeing", rule=HOST)
    return unit


def others(rules: WhfbFlyingRules, state: GameState, unit: UnitState, in_air: bool, exclude=()) -> list:
    return [rect for other, rect, _ in placed(rules, state)
            if other.id != unit.id and other.in_air == in_air and other.id not in exclude]


#: The last state whose placed units were worked out, and them: ``legal_commands`` tries many moves in one
#: state, and a state never changes, so each unit's footprint is measured once per state, not once per try.
_placed_cache: list = [None, None, (), (), {}]


def placed(rules: WhfbFlyingRules, state: GameState) -> tuple:
    """(unit, footprint, bounding box) of every unit in play, in the state's order of units."""
    if _placed_cache[0] is not state or _placed_cache[1] is not rules:
        units = tuple((u, rect, bounds(rect)) for u in state.units.values() if u.in_play
                      for rect in (footprint(u, rules.profile(u)),))
        buildings = tuple((rect, bounds(rect)) for t in state.terrain if t.kind == "building"
                          for rect in (terrain_rect(t),))
        _placed_cache[:] = [state, rules, units, buildings, {}]
    return _placed_cache[2]


def _buildings(rules: WhfbFlyingRules, state: GameState) -> tuple:
    """(footprint, bounding box) of every building (they block ground units)."""
    placed(rules, state)
    return _placed_cache[3]


def _blockers(rules: WhfbFlyingRules, state: GameState, unit_id: str, in_air: bool, exclude: tuple) -> list:
    """(footprint, bounding box) of what a unit may not end on at its level: the other units at that level (but
    ``exclude``), and on the ground the buildings."""
    units = placed(rules, state)
    known = _placed_cache[4]
    key = ("blockers", unit_id, in_air, exclude)
    found = known.get(key)
    if found is None:
        found = [(rect, box) for other, rect, box in units
                 if other.id != unit_id and other.in_air == in_air and other.id not in exclude]
        if not in_air:
            found += _buildings(rules, state)
        known[key] = found
    return found


def check_position(rules: WhfbFlyingRules, state: GameState, unit: UnitState, pose, in_air: bool, *,
                   files: int | None = None, start_pose=None, rule: str = HOST, exclude=()) -> None:
    """A unit may end at ``pose`` (and, on the ground, get there from ``start_pose`` in a straight line).

    In the air (Movement Phase): "Flying units may Fly directly above a ground unit, but not be engaged with
    them": only other units in the air block it. On the ground other ground units and buildings block it."""
    profile = rules.profile(unit)
    rect = footprint(unit, profile, pose, files)
    if not on_table(rect, state):
        raise RuleError(f"{unit.id} would leave the table", rule=rule)
    units = placed(rules, state)
    blockers = _blockers(rules, state, unit.id, in_air, tuple(exclude))
    if not clear_of_boxed(rect, blockers):
        raise RuleError(f"{unit.id} cannot end on another unit{'' if in_air else ' or a building'} at its level",
                        rule=rule)
    if start_pose is not None and not in_air:
        start = footprint(unit, profile, start_pose, files)
        (x0, y0, x1, y1), (a0, b0, a1, b1) = bounds(start), bounds(rect)
        # the box around start and end holds both: a shape apart from it is apart from each, and cannot be swept
        box = (min(x0, a0), min(y0, b0), max(x1, a1), max(y1, b1))
        near = [b for b, b_box in blockers if not bounds_apart(box, b_box, 0)]
        if near and not clear_of(sweep(start, rect), near):
            raise RuleError(f"{unit.id} cannot move through another unit or a building on the ground", rule=rule)
    rect_box = bounds(rect)
    for enemy, other, other_box in units:
        if enemy.side != unit.side and enemy.in_air == in_air and enemy.id not in exclude \
                and not bounds_apart(rect_box, other_box, INCH) and compare_gap(rect, other, INCH) < 0:
            raise RuleError(f"{unit.id} cannot end within 1\" of {enemy.id} without charging it", rule=rule)


def ground_pose(rules: WhfbFlyingRules, unit: UnitState, heading: int, distance: int):
    """(start after the turn, end pose, allowance used): a wheel for a ranked unit, a free turn for skirmishers.
    """
    profile = rules.profile(unit)
    if profile.skirmishers:
        turned = unit.pose.turned((heading - unit.pose.heading) % FULL_TURN)
        cost = 0
    else:
        width = footprint(unit, profile).width
        turned, cost = wheel(unit.pose, width, heading)
    return turned, moved_straight(turned, heading, distance), cost + distance


def enemy_near(rules: WhfbFlyingRules, state: GameState, unit: UnitState, reach: int) -> bool:
    """Whether an enemy unit that is not fleeing is within ``reach`` of ``unit`` (the march block)."""
    placed(rules, state)
    known = _placed_cache[4]
    key = (unit.id, reach)
    if state.units.get(unit.id) is unit and key in known:
        return known[key]
    near = _enemy_near(rules, state, unit, reach)
    if state.units.get(unit.id) is unit:
        known[key] = near
    return near


def _enemy_near(rules: WhfbFlyingRules, state: GameState, unit: UnitState, reach: int) -> bool:
    rect = footprint(unit, rules.profile(unit))
    for enemy in state.units.values():
        if enemy.side != unit.side and enemy.in_play and not enemy.fleeing:
            other = footprint(enemy, rules.profile(enemy))
            if not boxes_apart(rect, other, reach) and compare_gap(rect, other, reach) <= 0:
                return True
    return False


def move(rules: WhfbFlyingRules, out, command: Move, dice: DiceCup) -> None:
    state = out.state
    unit = ready_to_move(state, command.player, command.unit)
    if unit.in_air:
        raise RuleError(f"{unit.id} is in the air: it makes one of the fly moves", rule="Movement Phase")
    if command.distance < 0:
        raise RuleError("a move cannot be negative", rule=HOST)
    m = rules.profile(unit).profile.M * INCH
    allowance = 2 * m if command.march else m
    if command.march and enemy_near(rules, state, unit, 8 * INCH):
        raise RuleError(f"{unit.id} cannot march with an enemy within 8\"", rule=HOST)
    turned, pose, used = ground_pose(rules, unit, command.heading % FULL_TURN, command.distance)
    if used > allowance:
        raise RuleError(f"{unit.id} may move {allowance / INCH:g}\" and this move needs {used / INCH:.2f}\"",
                        rule=HOST)
    check_position(rules, state, unit, pose, False, start_pose=turned)
    out.emit(UnitMoved(unit=unit.id, pose=pose, how="march" if command.march else "move", march=command.march,
                       path=(unit.pose.position, turned.position, pose.position)))


def reform(rules: WhfbFlyingRules, out, command: Reform, dice: DiceCup) -> None:
    state = out.state
    unit = ready_to_move(state, command.player, command.unit)
    if unit.in_air:
        raise RuleError(f"{unit.id} is in the air: it reforms with a Fly move", rule="Fly")
    if not 1 <= command.files <= unit.models:
        raise RuleError(f"{unit.id} has {unit.models} models: 1 to {unit.models} files", rule=HOST)
    pose = unit.pose.turned((command.heading - unit.pose.heading) % FULL_TURN)
    check_position(rules, state, unit, pose, False, files=command.files)
    out.emit(UnitMoved(unit=unit.id, pose=pose, how="reform", files=command.files, path=(unit.pose.position,)))


def vanguard(rules: WhfbFlyingRules, out, command: VanguardMove, dice: DiceCup) -> None:
    """Special Rules: "They also have Vanguard. Vanguard may be used to make a normal move on the ground, or
    perform the Take off maneuver." """
    state = out.state
    if state.phase != VANGUARD:
        raise RuleError("Vanguard moves are made before the first turn", rule=SPECIAL)
    from .turn import decider

    if decider(state) != command.player:
        raise RuleError(f"it is {decider(state)}'s Vanguard move", rule=SPECIAL)
    unit = own_unit(state, command.player, command.unit)
    profile = rules.profile(unit)
    if not profile.flyer:
        raise RuleError(f"{unit.id} has no Vanguard (only flyers do, in this host)", rule=SPECIAL)
    if unit.moved:
        raise RuleError(f"{unit.id} has made its Vanguard move", rule=SPECIAL)
    if command.take_off:
        check_position(rules, state, unit, unit.pose, True)
        out.emit(FlightMade(unit=unit.id, move="vanguard take off", in_air=True, pose=unit.pose,
                            path=(unit.pose.position,)))
        return
    if command.distance > profile.profile.M * INCH or command.distance < 0:
        raise RuleError(f"a Vanguard move is a normal move of up to {profile.profile.M}\"", rule=SPECIAL)
    turned, pose, _ = ground_pose(rules, unit, command.heading % FULL_TURN, command.distance)
    check_position(rules, state, unit, pose, False, start_pose=turned)
    out.emit(UnitMoved(unit=unit.id, pose=pose, how="vanguard", path=(unit.pose.position, pose.position)))


def end_vanguard(rules: WhfbFlyingRules, out, command: EndVanguard, dice: DiceCup) -> None:
    from .turn import decider

    if out.state.phase != VANGUARD or decider(out.state) != command.player:
        raise RuleError("not your Vanguard moves to end", rule=SPECIAL)
    out.emit(VanguardEnded(player=command.player))


HANDLERS = {Move: move, Reform: reform, VanguardMove: vanguard, EndVanguard: end_vanguard}


# ---------------------------------------------------------------- the choices offered (any value may be
# commanded)


def candidate_headings(rules: WhfbFlyingRules, state: GameState, unit: UnitState) -> list[int]:
    """The current facing, the four compass points and the way to each enemy (rounded to a degree)."""
    headings = {unit.pose.heading}
    headings.update(range(0, FULL_TURN, 9000))
    here = centre(footprint(unit, rules.profile(unit)))
    for enemy in state.units.values():
        if enemy.side != unit.side and enemy.in_play:
            there = centre(footprint(enemy, rules.profile(enemy)))
            if there != here:
                headings.add(round(heading_towards(there[0] - here[0], there[1] - here[1]), -2) % FULL_TURN)
    return sorted(headings)


class _Trial:
    """An emitter for trying a command: it folds an emitted event only when the handler reads the state after
    it (a move's checks all come before its one event, so most tries fold nothing)."""

    def __init__(self, state: GameState, evolve):
        self._state = state
        self._unapplied: list = []
        self._evolve = evolve

    @property
    def state(self) -> GameState:
        for event in self._unapplied:
            self._state = self._evolve(self._state, event)
        self._unapplied.clear()
        return self._state

    def emit(self, event) -> None:
        self._unapplied.append(event)


def legal_if(rules, state, handler, command) -> bool:
    try:
        handler(rules, _Trial(state, rules.evolve), command, None)
    except RuleError:
        return False
    return True


def legal_commands(rules: WhfbFlyingRules, state: GameState, player: str) -> list:
    from .turn import decider

    if state.pending is not None or state.reactions.pending or decider(state) != player:
        return []
    result: list = []
    if state.phase == VANGUARD:
        for unit in sorted(state.side(player), key=lambda u: u.id):
            if not rules.profile(unit).flyer or unit.moved:
                continue
            m = rules.profile(unit).profile.M * INCH
            options = [VanguardMove(player=player, unit=unit.id, heading=0, distance=0, take_off=True)]
            options += [VanguardMove(player=player, unit=unit.id, heading=h, distance=m)
                        for h in candidate_headings(rules, state, unit)]
            result += [c for c in options if legal_if(rules, state, vanguard, c)]
        result.append(EndVanguard(player=player))
        return result
    if state.phase != MOVEMENT or state.active != player:
        return []
    for unit in sorted(state.side(player), key=lambda u: u.id):
        if unit.moved or unit.in_air or unit.fleeing or state.engaged(unit.id):
            continue
        m = rules.profile(unit).profile.M * INCH
        for heading in candidate_headings(rules, state, unit):
            _, _, turning = ground_pose(rules, unit, heading, 0)
            for allowance, march in ((m, False), (m // 2, False), (2 * m, True)):
                distance = allowance - turning
                if distance < 0:
                    continue
                command = Move(player=player, unit=unit.id, heading=heading, distance=distance, march=march)
                if legal_if(rules, state, move, command):
                    result.append(command)
    return result
