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

from functools import lru_cache
from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError
from aero_events.table import (
    FULL_TURN,
    INCH,
    OrientedRect,
    bounds,
    centre,
    heading_towards,
)

from .commands import EndVanguard, Move, Reform, VanguardMove
from .events import FlightMade, UnitMoved, VanguardEnded
from .geometry import (
    boxes_apart,
    clear_of,
    footprint,
    footprint_at,
    gap_compared,
    moved_straight,
    shapes_overlap,
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
    problem = position_problem(rules, state, unit, pose, in_air, files=files, start_pose=start_pose,
                               exclude=exclude)
    if problem is not None:
        raise RuleError(problem, rule=rule)


def position_problem(rules: WhfbFlyingRules, state: GameState, unit: UnitState, pose, in_air: bool, *,
                     files: int | None = None, start_pose=None, exclude=()) -> str | None:
    """Why the unit may not end at ``pose`` (:func:`check_position`), or ``None`` when it may: the same tests
    without raising, so that ``legal_commands`` can try many moves without building an error for each."""
    profile = rules.profile(unit)
    shapes = _end_shapes(pose, start_pose if not in_air else None, min(files or unit.files, unit.models),
                         unit.models, profile.base_width, profile.base_depth)
    rect, rect_box, inner, start, box = shapes
    width, height = state.width, state.height
    x0, y0, x1, y1 = rect_box
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
        return f"{unit.id} would leave the table"
    exclude = tuple(exclude)
    blockers = _blockers(rules, state, unit.id, in_air, exclude)
    for other, (a0, b0, a1, b1) in blockers:
        if a0 > x1 or a1 < x0 or b0 > y1 or b1 < y0:
            continue  # apart from the whole footprint's box, so from the smaller one tested
        if shapes_overlap(inner, other):
            return f"{unit.id} cannot end on another unit{'' if in_air else ' or a building'} at its level"
    if start is not None:
        # the box around start and end holds both: a shape apart from it is apart from each, and cannot be swept
        x0, y0, x1, y1 = box
        near = [b for b, (a0, b0, a1, b1) in blockers if not (a0 > x1 or a1 < x0 or b0 > y1 or b1 < y0)]
        if near and not clear_of(_swept(start, rect), near):
            return f"{unit.id} cannot move through another unit or a building on the ground"
    x0, y0, x1, y1 = rect_box
    for enemy_id, other, (a0, b0, a1, b1) in _enemies_at(rules, state, unit.side, in_air, exclude):
        if a0 - x1 > INCH or x0 - a1 > INCH or b0 - y1 > INCH or y0 - b1 > INCH:
            continue
        if gap_compared(rect, other, INCH) < 0:
            return f"{unit.id} cannot end within 1\" of {enemy_id} without charging it"
    return None


def _enemies_at(rules: WhfbFlyingRules, state: GameState, side: str, in_air: bool, exclude: tuple) -> list:
    """(id, footprint, bounding box) of the enemy units of ``side`` in play at its level (but ``exclude``), in
    the state's order of units: what a unit may not end within 1" of. Kept with the state's placed units."""
    units = placed(rules, state)
    known = _placed_cache[4]
    key = ("enemies", side, in_air, exclude)
    found = known.get(key)
    if found is None:
        found = [(enemy.id, rect, box) for enemy, rect, box in units
                 if enemy.side != side and enemy.in_air == in_air and enemy.id not in exclude]
        known[key] = found
    return found


@lru_cache(maxsize=8192)
def _swept(start, end):
    """``geometry.sweep``, kept by its two footprints (see :func:`_end_shapes`)."""
    return sweep(start, end)


@lru_cache(maxsize=1 << 14)
def _end_shapes(pose, start_pose, files: int, models: int, base_width: int, base_depth: int) -> tuple:
    """What :func:`position_problem` measures of one footprint at ``pose`` (from ``start_pose`` when it moves
    on the ground), which depends on the unit's size and the poses only: (footprint, its bounding box (on the
    table when the box is), the footprint 1 less all round that may touch others (geometry.clear_of), the
    footprint at the start or ``None``, the box around start and end or ``None``). A unit that waits is tried at the same poses
    in every state of a Movement phase, so the shapes are kept rather than measured again."""
    rect = footprint_at(pose, files, models, base_width, base_depth)
    rect_box = bounds(rect)
    inner = OrientedRect(rect.pose, max(0, rect.width - 2), max(0, rect.length - 2))
    start = box = None
    if start_pose is not None:
        start = footprint_at(start_pose, files, models, base_width, base_depth)
        (x0, y0, x1, y1), (a0, b0, a1, b1) = bounds(start), rect_box
        box = (min(x0, a0), min(y0, b0), max(x1, a1), max(y1, b1))
    return rect, rect_box, inner, start, box


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
            if not boxes_apart(rect, other, reach) and gap_compared(rect, other, reach) <= 0:
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
                headings.add(_degree_towards(there[0] - here[0], there[1] - here[1]))
    return sorted(headings)


@lru_cache(maxsize=4096)
def _degree_towards(dx: int, dy: int) -> int:
    """The heading of ``(dx, dy)`` rounded to a degree, kept: the units that wait stand where they stood."""
    return round(heading_towards(dx, dy), -2) % FULL_TURN


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
        result += ground_moves(rules, state, player, unit)
    return result


def ground_moves(rules: WhfbFlyingRules, state: GameState, player: str, unit: UnitState) -> list[Move]:
    """The legal ``Move`` commands offered to one unit that may move on the ground: for each candidate heading,
    a move of M, of M/2 and a march of 2M, each less the wheel's cost, the ones :func:`move` would accept.

    The same tests as :func:`move` (Host: Movement), with what is the same for every candidate worked out once:
    the unit's own checks (``legal_commands`` only asks for units in play, not moved, fleeing nor engaged, on
    the ground, in their side's Movement phase), the march block, and each heading's wheel. A move's length
    never exceeds its allowance here (the wheel's cost is taken off it)."""
    profile = rules.profile(unit)
    march_blocked = enemy_near(rules, state, unit, 8 * INCH)
    wheel_width = None if profile.skirmishers else footprint(unit, profile).width
    tries = _ground_tries(unit.pose, wheel_width, profile.profile.M * INCH,
                          tuple(candidate_headings(rules, state, unit)))
    unit_id = unit.id
    return [Move(player=player, unit=unit_id, heading=heading, distance=distance, march=march)
            for heading, distance, march, turned, pose in tries
            if not (march and march_blocked)
            and position_problem(rules, state, unit, pose, False, start_pose=turned) is None]


@lru_cache(maxsize=4096)
def _ground_tries(pose, wheel_width: int | None, m: int, headings: tuple[int, ...]) -> tuple:
    """(heading, distance, march, pose after the turn, end pose) of each move :func:`ground_moves` tries, in its
    order: the turn of :func:`ground_pose` (a wheel of ``wheel_width``, or a skirmishers' free turn when it is
    ``None``) and M, M/2 and 2M marching less the turn's cost, those that are not negative. They depend on the
    unit's pose, size and move only, so they are kept for the states in which the unit waits."""
    tries = []
    for heading in headings:
        if wheel_width is None:
            turned, turning = pose.turned((heading - pose.heading) % FULL_TURN), 0
        else:
            turned, turning = wheel(pose, wheel_width, heading)
        for allowance, march in ((m, False), (m // 2, False), (2 * m, True)):
            distance = allowance - turning
            if distance >= 0:
                tries.append((heading, distance, march, turned, moved_straight(turned, heading, distance)))
    return tuple(tries)
