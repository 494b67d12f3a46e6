"""The host's turn (this project's own minimal host, README): battle rounds of two player turns, each of Hero,
Movement, Shooting, Charge, Combat and Battleshock phases; battleshock; the battleplan's scoring and its end.

* **Battle rounds**: the battleplan's first player takes the first turn of round 1; each later round begins with a
  roll-off (a D6 each, ties rolled again) whose winner takes the first turn.
* **Phases** that leave the player nothing to decide pass by themselves; ``EndPhase`` ends one early, except the
  movement phase while an AIRBORNE model has still to fly (AIRBORNE MOVEMENT: each one flies a manoeuvre) and the
  Hero phase while a returning model waits to be placed.
* **Combat**: the player whose turn it is picks a model to fight first, then the players alternate; a player who has
  no model left to fight, or ends the phase, is done, and the other fights on with the rest.
* **Battleshock**: for each unit of several models that lost models this turn (slain or fled), a D6 plus the models
  lost; each point above the unit's Bravery makes one more model flee (the highest id first). Models of one-model
  units do not test.
* **The battleplan** (data/battleplans.json): at the end of each battle round the player with more models on the
  table that are not AIRBORNE within the objective's radius of its centre scores its points. The game ends after the
  last battle round, or at the end of a turn after which a side has no models left (missiles are not models of a
  force). Each enemy model slain or fled scores its points divided by the battleplan's divisor; an AIRBORNE model
  still off the board at the end "counts as destroyed for scenario purposes" (MOVING OFF THE BOARD). The higher
  score wins; equal scores are a draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError
from aero_events.core.emitter import Emitter
from aero_events.table import Circle, gap_at_most

from . import actions, attacks, flight
from . import events as ev
from .commands import EndPhase
from .state import (
    ACTIVE,
    BATTLESHOCK,
    COMBAT,
    FLED,
    GAME_OVER,
    HERO,
    MOVEMENT,
    OFF_TABLE,
    PHASES,
    SLAIN,
    GameState,
)

if TYPE_CHECKING:
    from .ruleset import MillionColoredSunRules


def decider(state: GameState) -> str | None:
    """Who decides now: the active player, or in the combat phase the player whose pick it is."""
    if state.phase == GAME_OVER:
        return None
    return state.combat_player if state.phase == COMBAT else state.active


def end_phase_problem(rules: MillionColoredSunRules, state: GameState, player: str) -> str | None:
    if decider(state) != player:
        return "it is not your phase to end"
    if state.phase == HERO and any(m.returning for m in state.side(player)):
        return "place your returning models first (MOVING OFF THE BOARD)"
    if state.phase == MOVEMENT and flight.must_fly(rules, state, player):
        waiting = ", ".join(m.id for m in flight.must_fly(rules, state, player))
        return f"each AIRBORNE model selects one manoeuvre to perform: {waiting} must fly (AIRBORNE MOVEMENT)"
    return None


def end_phase_command(rules: MillionColoredSunRules, out: Emitter, command: EndPhase, dice: DiceCup) -> None:
    problem = end_phase_problem(rules, out.state, command.player)
    if problem:
        raise RuleError(problem, rule="Host: the turn")
    if out.state.phase == COMBAT:
        finish_combat_picks(rules, out, command.player)
    else:
        next_phase(rules, out, dice)


def next_phase(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup) -> None:
    phase = out.state.phase
    if phase == BATTLESHOCK:
        end_of_turn(rules, out, dice)
        return
    following = PHASES[PHASES.index(phase) + 1]
    out.emit(ev.PhaseBegan(phase=following))
    if following == BATTLESHOCK:
        battleshock(rules, out, dice)


def after_fight(rules: MillionColoredSunRules, out: Emitter) -> None:
    """The combat pick passes to the other player if they have a model to fight and are not done."""
    state = out.state
    me = state.combat_player
    other = state.opponent(me)
    if other not in state.combat_done and attacks.eligible_fighters(rules, state, other):
        out.emit(ev.CombatPickPassed(player=other))
    elif me not in state.combat_done and attacks.eligible_fighters(rules, state, me):
        out.emit(ev.CombatPickPassed(player=me))
    else:
        out.emit(ev.CombatPickPassed(player=None))


def finish_combat_picks(rules: MillionColoredSunRules, out: Emitter, player: str) -> None:
    state = out.state
    other = state.opponent(player)
    if other not in state.combat_done and attacks.eligible_fighters(rules, state, other):
        out.emit(ev.CombatPickPassed(player=other, finished=player))
    else:
        out.emit(ev.CombatPickPassed(player=None, finished=player))


def battleshock(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup) -> None:
    state = out.state
    units: dict[str, list] = {}
    for model in state.models.values():
        if model.unit is not None:
            units.setdefault(model.unit, []).append(model)
    for unit in sorted(units):
        members = units[unit]
        lost = sum(1 for m in members if m.status in (SLAIN, FLED) and m.slain_turn == state.turn_number)
        standing = sorted((m for m in members if m.status == ACTIVE), key=lambda m: m.id, reverse=True)
        if not lost or not standing:
            continue
        bravery = rules.warscroll(standing[0]).bravery
        roll = dice.d6(purpose=f"battleshock: {unit}", roller=standing[0].side)
        out.emit(roll)
        flee = max(0, roll.faces[0] + lost - bravery)
        out.emit(ev.BattleshockTested(unit=unit, roll=roll.faces[0], slain=lost, bravery=bravery, flee=flee))
        for model in standing[:flee]:
            out.emit(ev.ModelFled(model=model.id))


def force_left(rules: MillionColoredSunRules, state: GameState, player: str) -> bool:
    return any(m.status in (ACTIVE, OFF_TABLE) and not rules.warscroll(m).missile for m in state.side(player))


def end_of_turn(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup) -> None:
    state = out.state
    if not all(force_left(rules, state, p) for p in state.players):
        end_game(rules, out, "a force has no models left")
        return
    if state.active == state.first:
        start_turn(rules, out, dice, state.opponent(state.active))
        return
    score_objective(rules, out)
    if state.round >= state.last_round:
        end_game(rules, out, f"battle round {state.round} of {state.last_round} is over")
        return
    while True:
        first_roll = dice.d6(purpose="roll-off for the first turn", roller=state.players[0])
        second_roll = dice.d6(purpose="roll-off for the first turn", roller=state.players[1])
        out.emit(first_roll)
        out.emit(second_roll)
        if first_roll.faces[0] != second_roll.faces[0]:
            break
    first = state.players[0] if first_roll.faces[0] > second_roll.faces[0] else state.players[1]
    out.emit(ev.BattleRoundBegan(round=state.round + 1, first=first,
                                 rolls={state.players[0]: first_roll.faces[0], state.players[1]: second_roll.faces[0]}))
    start_turn(rules, out, dice, first)


def start_turn(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup, player: str) -> None:
    out.emit(ev.PlayerTurnBegan(player=player, turn_number=out.state.turn_number + 1))
    actions.start_of_hero_phase(rules, out, dice)


def objective_holder(rules: MillionColoredSunRules, state: GameState) -> str | None:
    plan = rules.data.battleplans[state.battleplan]
    zone = Circle((plan.objective.x, plan.objective.y), plan.objective.radius)
    counts = {p: 0 for p in state.players}
    for model in state.models.values():
        if model.status == ACTIVE and not model.airborne and not rules.warscroll(model).missile and \
                gap_at_most(Circle(model.position, rules.warscroll(model).base_radius), zone, 0):
            counts[model.side] += 1
    first, second = state.players
    if counts[first] == counts[second]:
        return None
    return first if counts[first] > counts[second] else second


def score_objective(rules: MillionColoredSunRules, out: Emitter) -> None:
    holder = objective_holder(rules, out.state)
    if holder is not None:
        points = rules.data.battleplans[out.state.battleplan].objective.points
        out.emit(ev.ObjectiveScored(player=holder, points=points, reason=f"held the objective in round "
                                                                         f"{out.state.round}"))


def scores(rules: MillionColoredSunRules, state: GameState, final: bool) -> dict[str, int]:
    """Victory points: objective points plus enemy models slain or fled (and, at the end, off the board)."""
    divisor = rules.data.battleplans[state.battleplan].slain_points_divisor
    result = {}
    for player in state.players:
        total = state.vp.get(player, 0)
        for model in state.models.values():
            if model.side == player or rules.warscroll(model).missile:
                continue
            if model.status in (SLAIN, FLED) or (final and model.status == OFF_TABLE):
                total += rules.warscroll(model).points // divisor
        result[player] = total
    return result


def end_game(rules: MillionColoredSunRules, out: Emitter, reason: str) -> None:
    state = out.state
    totals = scores(rules, state, final=True)
    first, second = state.players
    winner = None if totals[first] == totals[second] else (first if totals[first] > totals[second] else second)
    out.emit(ev.GameEnded(winner=winner, scores=totals, reason=reason))


def advance(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup) -> None:
    """Pass every phase that leaves the deciding player nothing to choose."""
    from .ruleset import choices

    for _ in range(1000):
        state = out.state
        if state.phase == GAME_OVER:
            return
        player = decider(state)
        if player is not None and choices(rules, state, player):
            return
        if state.phase == COMBAT and player is not None:
            finish_combat_picks(rules, out, player)
            continue
        next_phase(rules, out, dice)
    raise RuntimeError("the turn did not settle")


def legal_commands(rules: MillionColoredSunRules, state: GameState, player: str) -> list:
    if end_phase_problem(rules, state, player) is None:
        return [EndPhase(player=player)]
    return []


HANDLERS = {EndPhase: end_phase_command}
