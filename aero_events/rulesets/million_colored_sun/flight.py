"""AIRBORNE MOVEMENT: manoeuvres, Pilot Input, collisions, moving off the board, bombs, and missiles' flight.

* **AIRBORNE MOVEMENT**: in the movement phase each AIRBORNE model flies exactly one manoeuvre its warscroll lists,
  exactly as described (the templates of data/manoeuvres.json, geometry.manoeuvre_path); a Red one only after PERFORM
  RED MANUEVER. The phase does not end before every AIRBORNE model of the player (missiles included) has flown.
* **PILOT INPUT**: after the manoeuvre the model may be repositioned in any direction, its orientation kept: up to 3"
  (default; option ``pilot_input="exact"``: exactly 3"). A missile has no pilot: no Pilot Input (option
  ``missile_pilot_input``).
* **IGNORE OTHER MODELS**: the flight passes over models and terrain; a model ending atop terrain or a model is
  placed at the nearest clear point (geometry.nearest_clear).
* **COLLISION**: each piece of terrain too tall to fly over that the model's base passes through on its flight path
  inflicts D6 mortal wounds. Too tall: decided before the game (battleplan ``too_tall``), or with the option
  ``stand_height``, terrain higher than the model's stand (terrain exactly as high as the stand is flown over).
* **MOVING OFF THE BOARD**: a model whose base centre ends beyond an edge is set aside (actions.py brings it back).
  A missile that leaves the board is lost (a choice: the text gives missiles no way back).
* **BOMBS / BOMBING RUN**: with the BOMBING RUN action the player chooses a point of the flight path (``bomb_at``,
  distance from its start); the counter moves D6" forward along the path (beyond its end, straight on along its last
  leg: a choice); every model within 3" of that point which is not AIRBORNE and has no FLY suffers D6 mortal wounds,
  with no Initiative test, and all terrain within 3" is destroyed. One bomb per Bombing Run.
* **MISSILES**: in the movement phase after its player's other AIRBORNE models; Cruise 20", Bank or Hard Turn. Each
  enemy model whose base the flight path comes within 1" of, in the order the path reaches them, tests Initiative at
  -1 (Behemoths always fail): a failure explodes the missile there (D6 mortal wounds to that model, the 3" blast to
  the others); a pass lets the missile fly on. Homing tests come before the missile's own collisions with terrain.
  Other missiles are counters and do not set a missile off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, Modifier, RuleError
from aero_events.core.emitter import Emitter
from aero_events.table import Circle, first_contact_on_path, gap_at_most, inches, overlaps, path_length

from . import damage
from . import events as ev
from .actions import obstacles
from .commands import FlyManoeuvre
from .geometry import (
    exit_point,
    leg_point,
    manoeuvre_path,
    nearest_clear,
    off_board,
    point_at,
    swept,
    truncated,
    with_pilot_input,
)
from .state import ACTIVE, MOVEMENT, GameState, ModelState

if TYPE_CHECKING:
    from .ruleset import MillionColoredSunRules

RULE = "AIRBORNE MOVEMENT"
PILOT_INPUT = inches(3)
MISSILE_TRIGGER = inches(1)
BOMB_BLAST = inches(3)
PILOT_HEADINGS = tuple(range(0, 36000, 4500))


def must_fly(rules: MillionColoredSunRules, state: GameState, player: str) -> list[ModelState]:
    """The player's AIRBORNE models (missiles last) that have not flown this movement phase."""
    waiting = [m for m in state.side(player) if m.status == ACTIVE and m.airborne and not m.moved]
    return sorted(waiting, key=lambda m: (rules.warscroll(m).missile, m.id))


def fly_problem(rules: MillionColoredSunRules, state: GameState, command: FlyManoeuvre) -> tuple[str, str] | None:
    model = state.models.get(command.model)
    if model is None or model.side != command.player or model.status != ACTIVE:
        return f"{command.model} is not a model of {command.player} on the table", RULE
    if not model.airborne:
        return f"{model.id} is not AIRBORNE", RULE
    if model.moved:
        return f"{model.id} has flown its manoeuvre this movement phase", RULE
    scroll = rules.warscroll(model)
    if scroll.missile and any(not rules.warscroll(m).missile for m in must_fly(rules, state, command.player)):
        return "missiles move after their player's other AIRBORNE models", "MISSILES"
    if command.manoeuvre not in scroll.manoeuvres:
        return (f"{scroll.name} cannot perform {command.manoeuvre!r} (its warscroll lists "
                f"{', '.join(scroll.manoeuvres)})"), "MISSILES" if scroll.missile else RULE
    if command.manoeuvre in scroll.red and not model.red_ready:
        return f"{command.manoeuvre} is a Red manoeuvre: declare PERFORM RED MANUEVER in the Hero phase first", RULE
    if command.pilot_heading is not None:
        if scroll.missile and not rules.options.missile_pilot_input:
            return "a missile has no pilot to give Pilot Input", "PILOT INPUT"
        if not 0 <= command.pilot_heading < 36000:
            return "a heading is 0 to 35999 hundredths of a degree", "PILOT INPUT"
        exact = rules.options.pilot_input == "exact"
        if command.pilot_distance > PILOT_INPUT or command.pilot_distance < 0 or \
                (exact and command.pilot_distance != PILOT_INPUT):
            return f"Pilot Input repositions the model {'exactly' if exact else 'up to'} 3\"", "PILOT INPUT"
    elif command.pilot_distance:
        return "Pilot Input needs a direction", "PILOT INPUT"
    if command.bomb_at is not None:
        if not model.bombing_run or model.bombs_dropped >= scroll.bombs:
            return f"{model.id} did not select the BOMBING RUN action (or has no bomb)", "BOMBS"
        points, _ = flight_path(rules, model, command)
        if not 0 <= command.bomb_at <= path_length(points):
            return "the bomb is dropped at a point of the model's movement", "BOMBS"
    return None


def flight_path(rules: MillionColoredSunRules, model: ModelState, command: FlyManoeuvre):
    points, end = manoeuvre_path(model.pose, rules.data.manoeuvres[command.manoeuvre])
    return with_pilot_input(points, end, command.pilot_heading, command.pilot_distance)


def fly(rules: MillionColoredSunRules, out: Emitter, command: FlyManoeuvre, dice: DiceCup) -> None:
    state = out.state
    if state.phase != MOVEMENT or state.active != command.player:
        raise RuleError("AIRBORNE models fly in their player's movement phase", rule=RULE)
    problem = fly_problem(rules, state, command)
    if problem:
        raise RuleError(problem[0], rule=problem[1])
    model = state.models[command.model]
    scroll = rules.warscroll(model)
    points, end = flight_path(rules, model, command)
    pilot = None if command.pilot_heading is None else (end.x - points[-2][0], end.y - points[-2][1])
    homing: list = []  # a missile's homing tests, told after its flight (they change nothing in the state)

    def flew(event: ev.ModelFlew) -> None:
        out.emit(event)
        for each in homing:
            out.emit(each)

    if scroll.missile:
        tests = Emitter(out.state, rules.evolve)
        points, struck = home(rules, tests, dice, model, points)
        homing = tests.events
        if struck is not None:
            target_id, point = struck
            flew(ev.ModelFlew(model=model.id, manoeuvre=command.manoeuvre, path=points, x=point[0], y=point[1],
                              heading=end.heading))
            damage.explode(rules, out, dice, model.id, point, "target", struck=target_id)
            return
    if off_board(end.position, state.width, state.height):
        edge = exit_point(points, state.width, state.height)
        flew(ev.ModelFlew(model=model.id, manoeuvre=command.manoeuvre, path=points, x=edge[0], y=edge[1],
                          heading=end.heading, pilot_input=pilot))
        flown_effects(rules, out, dice, model, command, points)
        if out.state.models[model.id].status == ACTIVE:
            if scroll.missile:
                out.emit(ev.MissileLost(missile=model.id))
            else:
                out.emit(ev.ModelLeftBoard(model=model.id, x=edge[0], y=edge[1], turn_number=out.state.turn_number))
        return
    placed = nearest_clear(end.position, scroll.base_radius, obstacles(rules, state, model.id))
    flew(ev.ModelFlew(model=model.id, manoeuvre=command.manoeuvre, path=points, x=placed[0], y=placed[1],
                      heading=end.heading, pilot_input=pilot, placed_from=end.position if placed != end.position else None))
    flown_effects(rules, out, dice, model, command, points)


def flown_effects(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup, model: ModelState,
                  command: FlyManoeuvre, points) -> None:
    """After the flight: the Red manoeuvre's Blast Marker (option), the bomb, then collisions along the path."""
    scroll = rules.warscroll(model)
    if command.manoeuvre in scroll.red and rules.options.red_marker == "flown":
        out.emit(ev.BlastMarkerGained(model=model.id, reason="Red manoeuvre flown"))
    if command.bomb_at is not None:
        drop_bomb(rules, out, dice, model, points, command.bomb_at)
    for terrain in collisions(rules, out.state, model, points):
        if out.state.models[model.id].status != ACTIVE:
            break
        out.emit(ev.CollisionWithTerrain(model=model.id, terrain=terrain))
        damage.mortal_wounds(rules, out, dice, model.id, f"collision with {terrain}", None)


def too_tall(rules: MillionColoredSunRules, model: ModelState, terrain) -> bool:
    """COLLISION: decided before the game, or (optional rule) higher than the model's stand."""
    if rules.options.stand_height:
        stand = rules.warscroll(model).stand_height
        return stand is not None and terrain.height > stand
    return terrain.too_tall


def collisions(rules: MillionColoredSunRules, state: GameState, model: ModelState, points) -> list[str]:
    sweep = swept(points, rules.warscroll(model).base_radius)
    return [t.id for t in sorted(state.terrain.values(), key=lambda t: t.id)
            if not t.destroyed and too_tall(rules, model, t) and overlaps(sweep, t.shape)]


def drop_bomb(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup, model: ModelState, points,
              bomb_at: int) -> None:
    drop = point_at(points, bomb_at)
    roll = dice.d6(purpose=f"bomb drift: {model.id}", roller=model.side)
    out.emit(roll)
    drift = roll.faces[0]
    x, y = point_at(points, bomb_at + inches(drift))
    out.emit(ev.BombDropped(model=model.id, drop=drop, drift=drift, x=x, y=y))
    blast = Circle((x, y), BOMB_BLAST)
    for target in sorted(out.state.models.values(), key=lambda m: m.id):
        if target.status != ACTIVE or target.airborne or target.mode == "fly" or rules.warscroll(target).has("FLY"):
            continue
        if gap_at_most(Circle(target.position, rules.warscroll(target).base_radius), blast, 0):
            damage.mortal_wounds(rules, out, dice, target.id, f"bomb of {model.id}", model.side)
    for terrain in sorted(out.state.terrain.values(), key=lambda t: t.id):
        if not terrain.destroyed and gap_at_most(terrain.shape, blast, 0):
            out.emit(ev.TerrainDestroyed(terrain=terrain.id))


def home(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup, missile: ModelState, points):
    """MISSILES: the homing tests along the path (emitted to ``out``, which the caller places after the flight);
    returns the path flown and, when the missile exploded, the model that set it off and where."""
    reach = Circle(missile.position, rules.warscroll(missile).base_radius + MISSILE_TRIGGER)
    met = []
    for target in out.state.models.values():
        if target.status != ACTIVE or target.side == missile.side or rules.warscroll(target).missile:
            continue
        contact = first_contact_on_path(reach, points, Circle(target.position, rules.warscroll(target).base_radius))
        if contact is not None:
            met.append((contact, target.id))
    for (leg, fraction), target_id in sorted(met):
        target = out.state.models[target_id]
        point = leg_point(points, leg, fraction)
        out.emit(ev.MissileTriggered(missile=missile.id, target=target_id, x=point[0], y=point[1]))
        behemoth = rules.warscroll(target).has("BEHEMOTH")
        if not damage.initiative_test(rules, out, dice, target, f"missile {missile.id}", (Modifier("homing", -1),),
                                      automatic_fail=behemoth):
            return truncated(points, leg, fraction), (target_id, point)
    return points, None


def legal_commands(rules: MillionColoredSunRules, state: GameState, player: str) -> list:
    if state.phase != MOVEMENT or state.active != player:
        return []
    options = []
    for model in must_fly(rules, state, player):
        scroll = rules.warscroll(model)
        if scroll.missile and any(not rules.warscroll(m).missile for m in must_fly(rules, state, player)):
            continue
        pilots: list[tuple[int | None, int]] = [(None, 0)]
        if not scroll.missile or rules.options.missile_pilot_input:
            pilots += [(h, PILOT_INPUT) for h in PILOT_HEADINGS]
        for name in scroll.manoeuvres:
            if name in scroll.red and not model.red_ready:
                continue
            for heading, length in pilots:
                command = FlyManoeuvre(player=player, model=model.id, manoeuvre=name, pilot_heading=heading,
                                       pilot_distance=length)
                options.append(command)
                if model.bombing_run and model.bombs_dropped < scroll.bombs:
                    total = path_length(flight_path(rules, model, command)[0])
                    options.extend(FlyManoeuvre(player=player, model=model.id, manoeuvre=name, pilot_heading=heading,
                                                pilot_distance=length, bomb_at=at)
                                   for at in range(0, total + 1, rules.options.bomb_step))
    return options


HANDLERS = {FlyManoeuvre: fly}
