"""The Hero phase of the flight layer: AIRBORNE ACTIONS, returning from off the board, missiles' fuel.

* **AIRBORNE ACTIONS**: each AIRBORNE model may take one action in its Hero phase; with any Blast Markers, only
  RECOVER. The action lasts "until your next Hero phase" (EVADE, LOCK-ON) or for this turn's movement phase (PERFORM
  RED MANUEVER, BOMBING RUN); all end as the player's next Hero phase begins (``EffectsExpired``).
* **SHIFT MOVEMENT MODE**: AIRBORNE -> another mode of the warscroll; a model not AIRBORNE but with AIRBORNE among its
  modes may use it to become AIRBORNE (the only action open to it).
* **PERFORM RED MANUEVER**: the model "gains a Blast Marker": when the action is declared (default) or when the Red
  manoeuvre is flown (option ``red_marker="flown"``); players read the paragraph both ways.
* **LAUNCH ORDNANCE**: the missile marker is placed ahead of the model's base, ``placement_forward`` beyond its front
  edge, facing as the model faces ("as described by the model's Warscroll": the example warscrolls' data).
* **MOVING OFF THE BOARD**: a model that left in the player turn numbered ``t`` stays off for that player's next turn
  (``t + 2``); from the turn after (``t + 4``) a D6 is rolled at the start of each of its Hero phases: on a 3+ it is
  placed touching any of its player's board edges (battleplan data), facing any direction, before any action.
* **MISSILES** fuel: at the start of the Hero phase, a D6 for each missile its player controls that started the turn
  on the board (launched in an earlier turn): on a 3+ it runs out of fuel and explodes (the 3" blast, damage.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError

from . import damage
from . import events as ev
from .commands import ChooseAction, PlaceReturning
from .geometry import Disc, circles_within, edge_positions, touches_edge
from .state import (
    ACTIONS,
    ACTIVE,
    AIRBORNE,
    BOMBING_RUN,
    HERO,
    LAUNCH_ORDNANCE,
    OFF_TABLE,
    RECOVER,
    RED_MANOEUVRE,
    SHIFT_MODE,
    GameState,
    ModelState,
)

if TYPE_CHECKING:
    from .ruleset import MillionColoredSunRules
    from .turn import Emitter

RULE = "AIRBORNE ACTIONS"


def action_problem(rules: MillionColoredSunRules, state: GameState, command: ChooseAction) -> tuple[str, str] | None:
    """Why ``command`` is illegal, as (reason, heading), or None."""
    model = state.models.get(command.model)
    if model is None or model.side != command.player or model.status != ACTIVE:
        return f"{command.model} is not a model of {command.player} on the table", RULE
    scroll = rules.warscroll(model)
    if scroll.missile:
        return "missiles may not perform actions", "MISSILES"
    if command.action not in ACTIONS:
        return f"{command.action!r} is not an AIRBORNE action", RULE
    if model.action is not None:
        return f"{model.id} has taken its action this Hero phase ({model.action})", RULE
    if not model.airborne:
        if AIRBORNE not in scroll.modes:
            return f"{model.id} is not AIRBORNE", RULE
        if command.action != SHIFT_MODE or command.mode != AIRBORNE:
            return f"{model.id} is not AIRBORNE: it may only shift to AIRBORNE", "SHIFT MOVEMENT MODE"
    if model.blast_markers and command.action != RECOVER:
        return f"{model.id} has a Blast Marker: the only action it may select is RECOVER", RULE
    if command.action == SHIFT_MODE:
        if command.mode not in scroll.modes or command.mode == model.mode:
            return f"{model.id} cannot shift to {command.mode!r} (its modes: {', '.join(scroll.modes)})", \
                "SHIFT MOVEMENT MODE"
    elif command.mode is not None:
        return "only SHIFT MOVEMENT MODE names a mode", RULE
    if command.action == RED_MANOEUVRE and not scroll.red:
        return f"{scroll.name} lists no Red manoeuvre", "PERFORM RED MANUEVER"
    if command.action == LAUNCH_ORDNANCE and model.missiles_launched >= scroll.ordnance.missiles:
        return f"{model.id} has no missile left to launch", "LAUNCH ORDNANCE"
    if command.action == BOMBING_RUN and model.bombs_dropped >= scroll.bombs:
        return f"{model.id} has no bomb left", "BOMBING RUN"
    return None


def choose_action(rules: MillionColoredSunRules, out: Emitter, command: ChooseAction, dice: DiceCup) -> None:
    state = out.state
    if state.phase != HERO or state.active != command.player:
        raise RuleError("actions are taken in your own Hero phase", rule=RULE)
    if any(m.returning for m in state.side(command.player)):
        raise RuleError("place your returning models first", rule="MOVING OFF THE BOARD")
    problem = action_problem(rules, state, command)
    if problem:
        raise RuleError(problem[0], rule=problem[1])
    model = state.models[command.model]
    out.emit(ev.ActionTaken(model=model.id, action=command.action, mode=command.mode))
    if command.action == RECOVER:
        out.emit(ev.Recovered(model=model.id, unjammed=model.jammed))
    elif command.action == SHIFT_MODE:
        out.emit(ev.ModeShifted(model=model.id, mode=command.mode))
    elif command.action == RED_MANOEUVRE and rules.options.red_marker == "declared":
        out.emit(ev.BlastMarkerGained(model=model.id, reason="Perform Red Manoeuvre"))
    elif command.action == LAUNCH_ORDNANCE:
        launch(rules, out, model)


def launch(rules: MillionColoredSunRules, out: Emitter, model: ModelState) -> None:
    scroll = rules.warscroll(model)
    missile_radius = rules.data.warscrolls["missile"].base_radius
    pose = model.pose.moved(forward=scroll.base_radius + scroll.ordnance.placement_forward + missile_radius)
    state = out.state
    out.emit(ev.MissileLaunched(missile=f"missile-{state.next_missile}", model=model.id, side=model.side, x=pose.x,
                                y=pose.y, heading=pose.heading, turn_number=state.turn_number))


def start_of_hero_phase(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup) -> None:
    """What the Hero phase begins with: actions expire, missiles' fuel rolls, off-board models' return rolls."""
    player = out.state.active
    out.emit(ev.EffectsExpired(player=player))
    for model in sorted(out.state.side(player), key=lambda m: m.id):
        current = out.state.models[model.id]
        if current.status != ACTIVE or not rules.warscroll(current).missile:
            continue
        if current.launched_turn is not None and current.launched_turn < out.state.turn_number:
            roll = dice.d6(purpose=f"fuel: {current.id}", roller=player, target=3)
            out.emit(roll)
            if roll.faces[0] >= 3:
                damage.explode(rules, out, dice, current.id, current.position, "fuel")
    for model in sorted(out.state.side(player), key=lambda m: m.id):
        if model.status == OFF_TABLE and model.left_turn is not None \
                and out.state.turn_number >= model.left_turn + 4:
            roll = dice.d6(purpose=f"return to the board: {model.id}", roller=player, target=3)
            out.emit(roll)
            out.emit(ev.ReturnRolled(model=model.id, roll=roll.faces[0], returns=roll.faces[0] >= 3))


def return_problem(rules: MillionColoredSunRules, state: GameState, command: PlaceReturning) -> str | None:
    model = state.models.get(command.model)
    if model is None or model.side != command.player or not model.returning:
        return f"{command.model} is not a model of {command.player} returning to the board"
    if not 0 <= command.heading < 36000:
        return "a heading is 0 to 35999 hundredths of a degree"
    radius = rules.warscroll(model).base_radius
    point = (command.x, command.y)
    if not any(touches_edge(point, radius, edge, state.width, state.height) for edge in state.edges[command.player]):
        return f"a returning model is placed touching one of {command.player}'s board edges " \
               f"({', '.join(state.edges[command.player])})"
    if not clear_of_everything(rules, state, model.id, point, radius):
        return "the model would be placed atop terrain or another model"
    return None


def clear_of_everything(rules: MillionColoredSunRules, state: GameState, model_id: str, point, radius: int) -> bool:
    return not any(circles_within(point, radius, centre, other) for centre, other in obstacles(rules, state, model_id))


def obstacles(rules: MillionColoredSunRules, state: GameState, model_id: str) -> list[Disc]:
    """Terrain standing and other models on the table: what a model may not end its move atop."""
    shapes = [((t.x, t.y), t.radius) for t in sorted(state.terrain.values(), key=lambda t: t.id) if not t.destroyed]
    shapes += [(m.position, rules.warscroll(m).base_radius)
               for m in sorted(state.models.values(), key=lambda m: m.id) if m.status == ACTIVE and m.id != model_id]
    return shapes


def place_returning(rules: MillionColoredSunRules, out: Emitter, command: PlaceReturning, dice: DiceCup) -> None:
    if out.state.phase != HERO or out.state.active != command.player:
        raise RuleError("returning models are placed at the start of your Hero phase", rule="MOVING OFF THE BOARD")
    problem = return_problem(rules, out.state, command)
    if problem:
        raise RuleError(problem, rule="MOVING OFF THE BOARD")
    out.emit(ev.ModelReturned(model=command.model, x=command.x, y=command.y, heading=command.heading))


def legal_commands(rules: MillionColoredSunRules, state: GameState, player: str) -> list:
    if state.phase != HERO or state.active != player:
        return []
    returning = sorted(m.id for m in state.side(player) if m.returning)
    if returning:
        model = state.models[returning[0]]
        radius = rules.warscroll(model).base_radius
        options = []
        for edge in state.edges[player]:
            for point in edge_positions(edge, radius, state.width, state.height, rules.options.return_step):
                if clear_of_everything(rules, state, model.id, point, radius):
                    options.extend(PlaceReturning(player=player, model=model.id, x=point[0], y=point[1], heading=h)
                                   for h in range(0, 36000, 4500))
        return options
    options = []
    for model in sorted(state.side(player), key=lambda m: m.id):
        if model.status != ACTIVE or model.action is not None:
            continue
        scroll = rules.warscroll(model)
        for action in ACTIONS:
            modes = [m for m in scroll.modes if m != model.mode] if action == SHIFT_MODE else [None]
            for mode in modes:
                command = ChooseAction(player=player, model=model.id, action=action, mode=mode)
                if action_problem(rules, state, command) is None:
                    options.append(command)
    return options


HANDLERS = {ChooseAction: choose_action, PlaceReturning: place_returning}
