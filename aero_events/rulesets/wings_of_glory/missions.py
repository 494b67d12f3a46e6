"""SCENARIO RULES: LEVEL BOMBING, DIVE BOMBING, FULL LOAD (dropping it), PHOTO RECONNAISSANCE, TORPEDOS, SHIPS,
MOTOR TORPEDO BOATS (MTB), BARRAGE BALLOONS (towed), and the scoring of a scenario.

The bomb phase (GAME TURN step 4, "Bomb or other action") comes after fire is resolved. Ships, MTBs and
towed balloons move at the end of the turn, then torpedoes ("Torpedo cards are moved after the ship
movement"): the text does not place these in the four phases; this is the scoping note's default.

Choices where the text is open:

* "Fly over the target" (bombing, photo reconnaissance): the centre of the target card lies in the region
  the base swept during this turn's card (movement.py).
* A torpedo's aspect: the hit counts as front or rear when the torpedo runs within 45 degrees of the
  ship's heading or its reverse, otherwise as a side hit. It is removed at the start of its sixth turn:
  after its fifth move (launch turn included).
* Scores (the scenario file's ``victory`` table): a plane shot down or crashed scores its damage points to
  the other side; a direct hit scores ``direct_hit``, a near miss half of it ("halved"); a ship sunk
  ``ship_sunk``; an AA gun or troops silenced ``silenced``; a good photograph brought home ``photo``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import Command, DiceCup, Modifier, RuleError

from . import pieces
from .commands import DropBombs, JettisonLoad, LaunchTorpedo, TakePhoto
from .events import BombDropped, LoadDropped, PhotoTaken, ShipMoved, TorpedoLaunched, TorpedoMoved
from .geometry import Pose, overlap, rectangle
from .state import BOMB, CRASHED, RETURNED, SHOT_DOWN, GameState, Torpedo, replace, with_plane, with_target

if TYPE_CHECKING:
    from .ruleset import WingsOfGloryRules
    from .turn import Emitter

TORPEDO_LIFE = 5


def _plane(state: GameState, command, rule: str):
    if state.phase != BOMB:
        raise RuleError("bombs, photographs and torpedoes wait for the bomb phase, after fire is resolved",
                        rule="GAME TURN", page=None)
    plane = state.planes.get(command.plane)
    if plane is None or plane.owner != command.player or not plane.in_play:
        raise RuleError(f"{command.player} has no plane {command.plane!r} in play", rule=rule, page=None)
    if command.player in state.done:
        raise RuleError("you have finished the bomb phase", rule="GAME TURN", page=None)
    return plane


def bombing_method(rules: WingsOfGloryRules, state: GameState, plane, target_id: str) -> str | None:
    """LEVEL BOMBING (a straight over the target) or DIVE BOMBING (a bomb dive card over it, ending at 1-2)."""
    if not plane.loaded or "bombs" not in pieces.profile(rules, plane).loads or target_id not in plane.over_targets:
        return None
    if plane.fired_fixed:
        return None
    if plane.executed == "straight" and not plane.illegal:
        return "level"
    if plane.executed == "dive_bomb" and plane.level in (1, 2):
        return "dive"
    return None


def drop_bombs(rules: WingsOfGloryRules, out: Emitter, command: DropBombs, dice: DiceCup) -> None:
    """LEVEL / DIVE BOMBING: a D6, -1 for a moving target, -2 for a wounded bombardier; 4+ direct hit (full),
    2+ near miss (halved). Bombers may not fire forward fixed guns in the turn they drop bombs."""
    state = out.state
    plane = _plane(state, command, "LEVEL BOMBING")
    target = state.targets.get(command.target)
    if target is None or target.side == plane.side or target.sunk:
        raise RuleError(f"no enemy target {command.target!r}", rule="LEVEL BOMBING", page=None)
    method = bombing_method(rules, state, plane, command.target)
    if method is None:
        if plane.fired_fixed:
            raise RuleError("the plane fired its forward fixed guns this turn", rule="LEVEL BOMBING",
                            page=None)
        raise RuleError("a loaded bomber must fly over the target with a straight (or a bomb dive card ending at "
                        "altitude 1 or 2)", rule="LEVEL BOMBING", page=None)
    modifiers = []
    if rules.catalogue.targets[target.kind].moving_target:
        modifiers.append(Modifier("moving target", -1))
    if pieces.bombardier_wounded(rules, plane):
        modifiers.append(Modifier("wounded bombardier", -2))
    roll = dice.roll(1, purpose=f"{method} bombing of {target.id}", roller=plane.owner, target=4,
                     modifiers=modifiers)
    out.emit(roll)
    score = roll.faces[0] + sum(m.value for m in modifiers)
    result = "direct" if score >= 4 else "near" if score >= 2 else "miss"
    prof = rules.catalogue.targets[target.kind]
    bomb_damage = {"direct": 2, "near": 1, "miss": 0}[result] if prof.sink_bomb_damage is not None else 0
    sunk = prof.sink_bomb_damage is not None and target.bomb_damage + bomb_damage >= prof.sink_bomb_damage
    out.emit(BombDropped(plane=plane.id, target_piece=target.id, method=method, result=result,
                         bomb_damage=bomb_damage, sunk=sunk))
    out.emit(LoadDropped(plane=plane.id))


def jettison(rules: WingsOfGloryRules, out: Emitter, command: JettisonLoad, dice: DiceCup) -> None:
    """FULL LOAD: once the bombs or drop tanks are dropped the restrictions end."""
    plane = _plane(out.state, command, "FULL LOAD")
    if not plane.loaded:
        raise RuleError(f"{plane.id} is not loaded", rule="FULL LOAD", page=None)
    out.emit(LoadDropped(plane=plane.id))


def take_photo(rules: WingsOfGloryRules, out: Emitter, command: TakePhoto, dice: DiceCup) -> None:
    """PHOTO RECONNAISSANCE: a straight over the target's centre; D6 (-2 wounded bombardier), 3+ a good one."""
    state = out.state
    plane = _plane(state, command, "PHOTO RECONNAISSANCE")
    if not pieces.profile(rules, plane).camera:
        raise RuleError(f"{plane.id} carries no camera", rule="PHOTO RECONNAISSANCE", page=None)
    if plane.executed != "straight" or plane.illegal or command.target not in plane.over_targets:
        raise RuleError("pass over the centre of the target card with a straight", rule="PHOTO RECONNAISSANCE",
                        page=None)
    if plane.photo == "taken":
        raise RuleError("the camera already holds a good photograph", rule="PHOTO RECONNAISSANCE",
                        page=None)
    modifiers = [Modifier("wounded bombardier", -2)] if pieces.bombardier_wounded(rules, plane) else []
    roll = dice.roll(1, purpose=f"photograph of {command.target}", roller=plane.owner, target=3, modifiers=modifiers)
    out.emit(roll)
    out.emit(PhotoTaken(plane=plane.id, target_piece=command.target,
                        good=roll.faces[0] + sum(m.value for m in modifiers) >= 3))


def launch_torpedo(rules: WingsOfGloryRules, out: Emitter, command: LaunchTorpedo, dice: DiceCup) -> None:
    """TORPEDOS: a straight at altitude one, no forward fixed guns; the card goes under the plane."""
    state = out.state
    plane = _plane(state, command, "TORPEDOS")
    if not pieces.profile(rules, plane).torpedo or not plane.loaded:
        raise RuleError(f"{plane.id} carries no torpedo", rule="TORPEDOS", page=None)
    if plane.executed != "straight" or plane.illegal or plane.level != 1 or plane.fired_fixed:
        raise RuleError("launch after a straight at altitude one, without firing forward fixed guns",
                        rule="TORPEDOS", page=None)
    torpedo_id = f"torpedo-{len(state.torpedoes) + 1}"
    out.emit(TorpedoLaunched(torpedo=torpedo_id, plane=plane.id, pose=plane.pose,
                             bombardier_wounded=pieces.bombardier_wounded(rules, plane)))
    out.emit(LoadDropped(plane=plane.id))


def end_of_turn_moves(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup) -> None:
    """SHIPS (1 inch a turn, straight ahead), MTBs, towed balloons, then torpedoes (TORPEDOS)."""
    speed = rules.catalogue.figures["ship_speed"]
    for piece in sorted(out.state.targets.values(), key=lambda t: t.id):
        if rules.catalogue.targets[piece.kind].moves and not piece.sunk:
            moved = piece.pose.moved(forward=speed)
            out.emit(ShipMoved(target_piece=piece.id, pose=moved))
            for towed in sorted(out.state.targets.values(), key=lambda t: t.id):
                if towed.towed_by == piece.id:  # towed balloons move with the ship
                    pose = Pose(towed.pose.x + moved.x - piece.pose.x, towed.pose.y + moved.y - piece.pose.y,
                                towed.pose.heading)
                    out.emit(ShipMoved(target_piece=towed.id, pose=pose))
    length = rules.catalogue.figures["torpedo_move"]
    for torpedo in sorted(out.state.torpedoes.values(), key=lambda t: t.id):
        move_torpedo(rules, out, dice, torpedo, length)


def move_torpedo(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup, torpedo: Torpedo, length: int) -> None:
    figures = rules.catalogue.figures
    end = torpedo.pose.moved(forward=length)
    run = rectangle(torpedo.pose, figures["card_width"], figures["card_length"] + length, length // 2)
    hit = None
    for piece in sorted(out.state.targets.values(), key=lambda t: t.id):
        if rules.catalogue.targets[piece.kind].moves and not piece.sunk \
                and overlap(run, pieces.target_card(rules, piece)):
            hit = piece
            break
    if hit is None:
        out.emit(TorpedoMoved(torpedo=torpedo.id, pose=end,
                              removed=out.state.turn - torpedo.launched_turn + 1 >= TORPEDO_LIFE))
        return
    relative = (torpedo.pose.heading - hit.pose.heading) % 18000
    end_on = relative <= 4500 or relative >= 13500
    modifiers = [Modifier("wounded bombardier", -2)] if torpedo.bombardier_wounded else []
    roll = dice.roll(1, purpose=f"torpedo {torpedo.id} against {hit.id}", roller=torpedo.owner,
                     target=5 if end_on else 2, modifiers=modifiers)
    out.emit(roll)
    score = roll.faces[0] + sum(m.value for m in modifiers)
    if score < (5 if end_on else 2):
        out.emit(TorpedoMoved(torpedo=torpedo.id, pose=end, hit_piece=hit.id, result="miss", removed=True))
        return
    effect = dice.roll(1, purpose=f"torpedo damage to {hit.id}", roller=torpedo.owner)
    out.emit(effect)
    face = effect.faces[0]
    bomb_damage = 1 if face <= 2 else 2 if face == 3 else 3 if face <= 5 else 0
    prof = rules.catalogue.targets[hit.kind]
    # MOTOR TORPEDO BOATS "can only be sunk by strafing": only ships take bomb damage or explode.
    sunk = prof.sink_bomb_damage is not None and (face == 6 or hit.bomb_damage + bomb_damage >= prof.sink_bomb_damage)
    if prof.sink_bomb_damage is None:
        bomb_damage = 0
    out.emit(TorpedoMoved(torpedo=torpedo.id, pose=end, hit_piece=hit.id, result="hit", bomb_damage=bomb_damage,
                          sunk=sunk, removed=True))


# ---------------------------------------------------------------- scoring


def scores(rules: WingsOfGloryRules, state: GameState) -> dict[str, int]:
    """Victory points per side from the scenario's table (module notes)."""
    table = state.victory
    sides = sorted(set(state.sides.values()))
    result = {side: 0 for side in sides}
    for plane in state.planes.values():
        others = [s for s in sides if s != plane.side]
        if plane.status in (SHOT_DOWN, CRASHED):
            for side in others:
                result[side] += pieces.profile(rules, plane).damage_points
        if plane.status == RETURNED and plane.photo == "taken":
            result[plane.side] += table.get("photo", 0)
    for piece in state.targets.values():
        if piece.side is None:
            continue
        for side in (s for s in sides if s != piece.side):
            result[side] += piece.hits * table.get("direct_hit", 0) // 2
            if piece.sunk:
                result[side] += table.get("ship_sunk", 0)
            if piece.silenced:
                result[side] += table.get("silenced", 0)
    return result


HANDLERS = {DropBombs: drop_bombs, JettisonLoad: jettison, TakePhoto: take_photo, LaunchTorpedo: launch_torpedo}


def legal_commands(rules: WingsOfGloryRules, state: GameState, player: str) -> list[Command]:
    from .commands import Done
    if state.phase != BOMB or player in state.done:
        return []
    commands: list[Command] = []
    for plane in state.planes_of(player):
        if not plane.in_play:
            continue
        prof = pieces.profile(rules, plane)
        for target_id in plane.over_targets:
            target = state.targets[target_id]
            if target.side not in (None, plane.side) and not target.sunk:
                if bombing_method(rules, state, plane, target_id):
                    commands.append(DropBombs(player=player, plane=plane.id, target=target_id))
                if prof.camera and plane.executed == "straight" and not plane.illegal and plane.photo != "taken":
                    commands.append(TakePhoto(player=player, plane=plane.id, target=target_id))
        if prof.torpedo and plane.loaded and plane.executed == "straight" and not plane.illegal \
                and plane.level == 1 and not plane.fired_fixed:
            commands.append(LaunchTorpedo(player=player, plane=plane.id))
    if not commands:
        return []
    return commands + [Done(player=player)]


def evolve(rules: WingsOfGloryRules, state: GameState, event) -> GameState | None:
    if isinstance(event, BombDropped):
        plane = state.planes[event.plane]
        state = with_plane(state, replace(plane, bombed=True))
        target = state.targets[event.target_piece]
        hits = {"direct": 2, "near": 1, "miss": 0}[event.result]
        return with_target(state, replace(target, hits=target.hits + hits,
                                          bomb_damage=target.bomb_damage + event.bomb_damage,
                                          sunk=target.sunk or event.sunk))
    if isinstance(event, LoadDropped):
        plane = state.planes[event.plane]
        return with_plane(state, replace(plane, loaded=False))
    if isinstance(event, PhotoTaken):
        plane = state.planes[event.plane]
        state = with_plane(state, replace(plane, photo="taken" if event.good else plane.photo))
        if event.good:
            target = state.targets[event.target_piece]
            state = with_target(state, replace(target, photographed=True))
        return state
    if isinstance(event, TorpedoLaunched):
        plane = state.planes[event.plane]
        torpedo = Torpedo(id=event.torpedo, owner=plane.owner, side=plane.side, pose=event.pose,
                          launched_turn=state.turn, bombardier_wounded=event.bombardier_wounded)
        return replace(state, torpedoes={**state.torpedoes, torpedo.id: torpedo})
    if isinstance(event, TorpedoMoved):
        torpedoes = dict(state.torpedoes)
        if event.removed:
            del torpedoes[event.torpedo]
        else:
            torpedoes[event.torpedo] = replace(torpedoes[event.torpedo], pose=event.pose)
        state = replace(state, torpedoes=torpedoes)
        if event.hit_piece is not None and event.result == "hit":
            target = state.targets[event.hit_piece]
            state = with_target(state, replace(target, bomb_damage=target.bomb_damage + event.bomb_damage,
                                               sunk=target.sunk or event.sunk))
        return state
    if isinstance(event, ShipMoved):
        return with_target(state, replace(state.targets[event.target_piece], pose=event.pose))
    return None

