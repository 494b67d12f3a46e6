"""The host's ground and FLY movement and its charges (this project's own minimal host, README).

* **Movement**: a model that is not AIRBORNE moves once in its movement phase, in a straight line of up to its Move,
  facing the way it moved; it may not start within 3" of an enemy model (no retreats in this host) nor come within 3"
  of one on the way (AIRBORNE models and missiles, high above, do not count); it ends wholly on the table, clear of
  terrain and models. Without FLY it may not cross terrain; a model with FLY (the keyword, or its FLY mode) passes
  over terrain and models.
* **Running**: the move is declared with ``run``; a D6 is rolled and the model moves the distance asked for, or its
  Move plus the roll if that is less. A model that ran does not shoot or charge.
* **Charges**: in the charge phase a model within 12" of an enemy that did not run may declare a charge at it: roll
  2D6; if the roll in inches reaches the gap less 1/2", the model moves straight at its target and stops 1/2" from it;
  else it stays. The charge move ignores terrain (a simplification of this host).
* **MAY NOT RUN OR DECLARE CHARGES** (flight layer): AIRBORNE models move only by manoeuvres, never run and never
  charge; "They may only be charged by models with the FLY special rule".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError
from aero_events.table import Circle, distance, gap, gap_at_most, heading_towards, inches, scatter

from . import events as ev
from .actions import clear_of_everything, obstacles
from .commands import DeclareCharge, MoveModel
from .geometry import circles_within, sweep_within
from .state import ACTIVE, CHARGE, FLY, MOVEMENT, GameState, ModelState

if TYPE_CHECKING:
    from .ruleset import MillionColoredSunRules
    from .turn import Emitter

RULE = "Host: movement phase"
NO_GO = inches(3)
CHARGE_RANGE = inches(12)
CHARGE_STOP = inches("0.5")
MOVE_HEADINGS = tuple(range(0, 36000, 4500))
RUN_LIMIT = inches(6)  # a run adds at most a D6
RUN_OFFERED = inches(3)


def flies(rules: MillionColoredSunRules, model: ModelState) -> bool:
    return model.mode == FLY or rules.warscroll(model).has("FLY")


def ground_enemies(rules: MillionColoredSunRules, state: GameState, model: ModelState) -> list[ModelState]:
    return [m for m in state.models.values() if m.side != model.side and m.status == ACTIVE and not m.airborne
            and not rules.warscroll(m).missile]


class MoveCheck:
    """What a ground or FLY move of one model is checked against, gathered once for all the moves tried."""

    def __init__(self, rules: MillionColoredSunRules, state: GameState, model: ModelState):
        self.model = model
        self.state = state
        self.radius = rules.warscroll(model).base_radius
        self.enemies = sorted((e.id, e.position, rules.warscroll(e).base_radius)
                               for e in ground_enemies(rules, state, model))
        self.terrain = [] if flies(rules, model) else \
            [(t.name, (t.x, t.y), t.radius) for t in sorted(state.terrain.values(), key=lambda t: t.id)
             if not t.destroyed]
        self.obstacles = obstacles(rules, state, model.id)
        self.engaged = any(circles_within(model.position, self.radius, centre, other, NO_GO)
                           for _, centre, other in self.enemies)
        self._near: dict[int, tuple[list, list, list]] = {}

    def near(self, length: int) -> tuple[list, list, list]:
        """The enemies, terrain and obstacles a move of ``length`` could reach, in their order: a piece farther
        from the start than the move's length, its reach and 2 (the end point's rounding) cannot be met."""
        found = self._near.get(length)
        if found is None:
            (x, y), radius = self.model.position, self.radius

            def reachable(centre: tuple[int, int], other: int, limit: int = 0) -> bool:
                dx, dy = centre[0] - x, centre[1] - y
                return dx * dx + dy * dy <= (length + radius + other + limit + 2) ** 2

            found = ([e for e in self.enemies if reachable(e[1], e[2], NO_GO)],
                     [t for t in self.terrain if reachable(t[1], t[2])],
                     [o for o in self.obstacles if reachable(o[0], o[1])])
            self._near[length] = found
        return found

    def problem(self, heading: int, length: int) -> tuple[str, str] | None:
        """Why a move of ``length`` along ``heading`` is illegal (reason, heading), or None."""
        model, radius, state = self.model, self.radius, self.state
        if self.engaged:
            return f"{model.id} is within 3\" of an enemy and may not move", RULE
        start = model.position
        end = scatter(start, heading, length)
        if not (radius <= end[0] <= state.width - radius and radius <= end[1] <= state.height - radius):
            return "the move would leave the table", RULE
        enemies, terrain, obstacles = self.near(length) if length >= 0 else (self.enemies, self.terrain,
                                                                              self.obstacles)
        for enemy, centre, other in enemies:
            if sweep_within(start, end, radius, centre, other, NO_GO):
                return f"the move would come within 3\" of {enemy}", RULE
        for name, centre, other in terrain:
            if sweep_within(start, end, radius, centre, other):
                return f"the move would cross {name} (only FLY models pass over terrain)", RULE
        if any(circles_within(end, radius, centre, other) for centre, other in obstacles):
            return "the model would end atop terrain or another model", RULE
        return None


def move_problem(rules: MillionColoredSunRules, state: GameState, model: ModelState, heading: int,
                 length: int) -> tuple[str, str] | None:
    """Why a move of ``length`` along ``heading`` is illegal (reason, heading), or None."""
    return MoveCheck(rules, state, model).problem(heading, length)


def move(rules: MillionColoredSunRules, out: Emitter, command: MoveModel, dice: DiceCup) -> None:
    state = out.state
    if state.phase != MOVEMENT or state.active != command.player:
        raise RuleError("models move in their player's movement phase", rule=RULE)
    model = state.models.get(command.model)
    if model is None or model.side != command.player or model.status != ACTIVE:
        raise RuleError(f"{command.model} is not a model of {command.player} on the table", rule=RULE)
    if model.airborne:
        raise RuleError("AIRBORNE models move by manoeuvres and may not run", rule="MAY NOT RUN OR DECLARE CHARGES")
    if model.moved:
        raise RuleError(f"{model.id} has moved this phase", rule=RULE)
    scroll = rules.warscroll(model)
    if not 0 <= command.heading < 36000 or command.distance <= 0:
        raise RuleError("a move names a heading (0 to 35999) and a positive distance", rule=RULE)
    limit = scroll.move + (RUN_LIMIT if command.run else 0)
    if command.distance > limit:
        raise RuleError(f"{model.id} moves at most {scroll.move // 2540}\"" + (" plus a D6 running" if command.run
                                                                                 else ""), rule=RULE)
    problem = move_problem(rules, state, model, command.heading, command.distance)
    if problem:
        raise RuleError(problem[0], rule=problem[1])
    length = command.distance
    if command.run:
        roll = dice.d6(purpose=f"run: {model.id}", roller=model.side)
        out.emit(roll)
        length = min(length, scroll.move + inches(roll.faces[0]))
        if length != command.distance and move_problem(rules, state, model, command.heading, length):
            length = 0
    end = scatter(model.position, command.heading, length)
    out.emit(ev.ModelMoved(model=model.id, path=(model.position, end), heading=command.heading, run=command.run))


def charge_problem(rules: MillionColoredSunRules, state: GameState, command: DeclareCharge) -> tuple[str, str] | None:
    model = state.models.get(command.model)
    target = state.models.get(command.target)
    if model is None or model.side != command.player or model.status != ACTIVE:
        return f"{command.model} is not a model of {command.player} on the table", "Host: charge phase"
    if model.airborne:
        return "AIRBORNE models may not declare charges", "MAY NOT RUN OR DECLARE CHARGES"
    scroll = rules.warscroll(model)
    if scroll.missile or not any(w.kind == "melee" for w in scroll.weapons):
        return f"{model.id} has no melee weapon to charge with", "Host: charge phase"
    if model.ran or model.charged:
        return f"{model.id} ran or has charged this turn", "Host: charge phase"
    if target is None or target.side == model.side or target.status != ACTIVE or rules.warscroll(target).missile:
        return f"{command.target} is not an enemy model on the table", "Host: charge phase"
    if target.airborne and not rules.warscroll(model).has("FLY"):
        return "AIRBORNE models may only be charged by models with the FLY special rule", \
            "MAY NOT RUN OR DECLARE CHARGES"
    mine = Circle(model.position, scroll.base_radius)
    theirs = Circle(target.position, rules.warscroll(target).base_radius)
    if not gap_at_most(mine, theirs, CHARGE_RANGE):
        return f"{target.id} is more than 12\" away", "Host: charge phase"
    if gap_at_most(mine, theirs, CHARGE_STOP):
        return f"{model.id} is already engaged with {target.id}", "Host: charge phase"
    return None


def declare_charge(rules: MillionColoredSunRules, out: Emitter, command: DeclareCharge, dice: DiceCup) -> None:
    state = out.state
    if state.phase != CHARGE or state.active != command.player:
        raise RuleError("charges are declared in your charge phase", rule="Host: charge phase")
    problem = charge_problem(rules, state, command)
    if problem:
        raise RuleError(problem[0], rule=problem[1])
    model = state.models[command.model]
    target = state.models[command.target]
    radius = rules.warscroll(model).base_radius
    apart = gap(Circle(model.position, radius), Circle(target.position, rules.warscroll(target).base_radius))
    needed = apart - CHARGE_STOP
    roll = dice.roll(2, purpose=f"charge: {model.id} at {target.id}", roller=model.side)
    out.emit(roll)
    success = inches(roll.total) >= needed
    out.emit(ev.ChargeRolled(model=model.id, target=target.id, roll=roll.total, needed=-(-needed // 2540),
                             success=success))
    if success:
        heading = heading_towards(target.x - model.x, target.y - model.y)
        end = scatter(model.position, heading, max(0, needed))
        if distance(end, model.position) and clear_of_everything(rules, out.state, model.id, end, radius - 1):
            out.emit(ev.ModelMoved(model=model.id, path=(model.position, end), heading=heading, charge=True))


def ground_moves(rules: MillionColoredSunRules, state: GameState, player: str) -> Iterator[MoveModel]:
    """The moves offered: eight headings, half and full Move, and a run of Move + 3"."""
    for model in sorted(state.side(player), key=lambda m: m.id):
        if model.status != ACTIVE or model.airborne or model.moved or rules.warscroll(model).missile:
            continue
        move_length = rules.warscroll(model).move
        if not move_length:
            continue
        check = MoveCheck(rules, state, model)
        if check.engaged:
            continue
        for heading in MOVE_HEADINGS:
            for length, run in ((move_length // 2, False), (move_length, False), (move_length + RUN_OFFERED, True)):
                if check.problem(heading, length) is None:
                    yield MoveModel(player=player, model=model.id, heading=heading, distance=length, run=run)


def has_move(rules: MillionColoredSunRules, state: GameState, player: str) -> bool:
    return state.phase == MOVEMENT and state.active == player and \
        next(ground_moves(rules, state, player), None) is not None


def legal_commands(rules: MillionColoredSunRules, state: GameState, player: str) -> list:
    if state.active != player:
        return []
    options: list = []
    if state.phase == MOVEMENT:
        options.extend(ground_moves(rules, state, player))
    elif state.phase == CHARGE:
        enemies = sorted((m for m in state.models.values() if m.side != player and m.status == ACTIVE),
                         key=lambda m: m.id)
        for model in sorted(state.side(player), key=lambda m: m.id):
            if model.status != ACTIVE or model.charged:
                continue
            for target in enemies:
                command = DeclareCharge(player=player, model=model.id, target=target.id)
                if charge_problem(rules, state, command) is None:
                    options.append(command)
    return options


HANDLERS = {MoveModel: move, DeclareCharge: declare_charge}
