"""FIRING, TARGETING, CLOUDS, FIRING WHILE CLIMBING AND DIVING, BLIND SPOTS FOR REAR GUNS, RANGE,
OVERLAPPING WHEN FIRING, TAILING, IMPROVED AIM, the fire sub-phases 3a/3b/3c (GAME TURN), Perfect Aim,
Sniper, Itchy Trigger Finger, Good at Escaping, STRAFING.

Geometry of a shot (FIRING, RANGE, TARGETING): from the altitude peg at the centre of the firer's base the
ruler must reach a point of the target's base inside the gun's firing cone; the range is the distance to
the nearest such point the ruler reaches without crossing another base at the shared altitude level (or a
cloud), plus one quarter of a ruler per level of altitude difference. Within two quarters is short range,
within four long range.

"Any point" is answered exactly by :func:`aero_events.table.sight.visible_point` (the shared geometry):
whether some point of the target base inside the cone and within the band's reach is reached by a ruler
(a line: ruler width 0, data R) that meets no obstacle. An obstacle the ruler only touches blocks it (the
shared package's closed-shape rule; the text's "crossing" differs only on the boundary).

Choices where the text is open:

* Overlapping planes (OVERLAPPING WHEN FIRING) still need the target base inside the gun's cone; the range
  is long, nothing blocks, and each may fire only one gun at the other.
* Clouds block a line of fire that crosses them when the cloud's level lies between the firer's and the
  target's levels (inclusive): "into, out of, through".
* The rear blind spot applies to guns in the ``rear`` arc.
* Good at Escaping is used whenever it can stop a tailing shot (it costs Recovery counters).
* Planes strafing an AA gun or troops are the planes that fire at it in the same fire phase.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import msgspec

from aero_events.core import Command, DiceCup, RuleError
from aero_events.table.sectors import any_point_in_sector
from aero_events.table.shapes import Polygon as TablePolygon
from aero_events.table.shapes import Sector
from aero_events.table.sight import visible_point

from . import damage, pieces
from .commands import Done, Fire, LaunchPac
from .events import Fired, GroundFire, PacLaunched, PlayerDone, SkillUsed
from .geometry import (
    Point,
    Pose,
    clip_to_piece,
    closest_point,
    crosses,
    distance2,
    front_edge,
    rear_edge,
    segments_touch,
    touches,
)
from .state import FIRE, GameState, PlaneState, Shot, TargetState, replace, with_plane, with_target

if TYPE_CHECKING:
    from .ruleset import WingsOfGloryRules
    from .turn import Emitter

class ShotOption(msgspec.Struct, frozen=True):
    band: str
    letters: str
    point: Point
    improved: str = ""
    tailing: bool = False


# ---------------------------------------------------------------- geometry of a shot


def target_shape(rules: WingsOfGloryRules, state: GameState, target_id: str):
    """(polygon, level, centre) of a plane's base or a ground target's card (STRAFING: altitude 1)."""
    if target_id in state.planes:
        plane = state.planes[target_id]
        return pieces.base(rules, plane), plane.level, (plane.pose.x, plane.pose.y)
    target = state.targets[target_id]
    return pieces.target_card(rules, target), 1, (target.pose.x, target.pose.y)


def blockers(rules: WingsOfGloryRules, state: GameState, firer: PlaneState, target_id: str, level: int) -> list:
    """TARGETING: bases of other planes at the same altitude level as firer and target (climb counters do not
    count); overlapping planes do not block each other's aim nor the aim of those firing at them."""
    if firer.level != level:
        return []
    around = {firer.id, target_id}
    for a, b in state.overlaps:
        if a in (firer.id, target_id):
            around.add(b)
        if b in (firer.id, target_id):
            around.add(a)
    return [pieces.base(rules, p) for p in sorted(state.planes.values(), key=lambda p: p.id)
            if p.in_play and p.level == level and p.id not in around]


def clouds_between(state: GameState, low: int, high: int) -> list:
    return [cloud.points for cloud in state.clouds if low <= cloud.level <= high]


def clear_line(start: Point, end: Point, obstacles: list) -> bool:
    return not any(crosses(start, end, polygon) for polygon in obstacles)


def reachable_point(rules: WingsOfGloryRules, firer: PlaneState, arc: str, polygon, obstacles: list,
                    reach: int | None) -> Point | None:
    """FIRING and TARGETING: a point of the target base inside the gun's cone, within ``reach`` of the peg, that
    the ruler reaches without meeting an obstacle (exact: :func:`aero_events.table.sight.visible_point`)."""
    return _reachable_point(rules.catalogue.arc_sectors[arc], firer.pose, tuple(polygon),
                            tuple(tuple(o) for o in obstacles), reach)


@functools.lru_cache(maxsize=1 << 14)
def _reachable_point(sectors: tuple[tuple[int, int], ...], pose: Pose, polygon: tuple[Point, ...],
                     obstacles: tuple[tuple[Point, ...], ...], reach: int | None) -> Point | None:
    """:func:`reachable_point` of one cone, target and obstacles: the same pieces in the same places give the
    same point, so it is worked out once per position (listing commands, a bot and ``decide`` all ask)."""
    apex = (pose.x, pose.y)
    target = TablePolygon(polygon)
    blocks = [TablePolygon(o) for o in obstacles]
    for bearing, half in sectors:
        sector = Sector.about(pose, bearing, half, reach)
        point = visible_point(apex, target, blocks, sector)
        if point is not None:
            return round(point[0]), round(point[1])
    return None


def nearest_in_cone(rules: WingsOfGloryRules, firer: PlaneState, arc: str, polygon) -> tuple[int, Point] | None:
    """RANGE: the squared distance from the peg to the nearest point of the base inside the cone, and that point
    (the part of the base inside the cone is a convex polygon, clipped exactly and rounded to 1/100 mm)."""
    return _nearest_in_cone(rules.catalogue.arcs[arc], firer.pose, tuple(polygon))


@functools.lru_cache(maxsize=1 << 14)
def _nearest_in_cone(arc_pieces: tuple[tuple[int, int], ...], pose: Pose,
                     polygon: tuple[Point, ...]) -> tuple[int, Point] | None:
    """:func:`nearest_in_cone` of one cone and base, worked out once per position."""
    apex = (pose.x, pose.y)
    best = None
    for piece in arc_pieces:
        region = clip_to_piece(polygon, apex, pose.heading, piece)
        if not region:
            continue
        point = closest_point(tuple(region), apex) if len(region) >= 3 else min(
            region, key=lambda p: (distance2(apex, p), p))
        candidate = (distance2(apex, point), point)
        if best is None or candidate < best:
            best = candidate
    return best


def in_cone(rules: WingsOfGloryRules, firer: PlaneState, arc: str, polygon) -> bool:
    target = TablePolygon(tuple(polygon))
    return any(any_point_in_sector(target, Sector.about(firer.pose, bearing, half))
               for bearing, half in rules.catalogue.arc_sectors[arc])


def rear_blind_spot(rules: WingsOfGloryRules, firer: PlaneState, target_polygon, target_centre: Point) -> bool:
    """BLIND SPOTS FOR REAR GUNS: the centre-to-centre ruler passes over the firer's rear edge and its first
    half touches the target card."""
    apex = (firer.pose.x, firer.pose.y)
    edge = rear_edge(pieces.base(rules, firer))
    if not segments_touch(apex, target_centre, edge[0], edge[1]):
        return False
    half = rules.catalogue.figures["ruler_length"] // 2
    dx, dy = target_centre[0] - apex[0], target_centre[1] - apex[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return True
    from math import isqrt
    length = isqrt(length2)
    if length <= half:
        end = target_centre
    else:
        end = (apex[0] + dx * half // length, apex[1] + dy * half // length)
    return touches(apex, end, target_polygon)


def overlapping(state: GameState, a: str, b: str) -> bool:
    return (a, b) in state.overlaps or (b, a) in state.overlaps


def tailing(rules: WingsOfGloryRules, state: GameState, tailer: PlaneState, tailed: PlaneState) -> bool:
    """TAILING, its five conditions (and NOVICE OR WOUNDED PILOT: may not tail)."""
    if tailer.loaded or pieces.pilot_impaired(tailer):
        return False                                                  # 5, and novice or wounded
    if tailer.level not in (tailed.level, tailed.level + 1):
        return False                                                  # 4
    a, b = (tailer.pose.x, tailer.pose.y), (tailed.pose.x, tailed.pose.y)
    if distance2(a, b) > rules.catalogue.figures["ruler_length"] ** 2:
        return False                                                  # 1
    front = front_edge(pieces.base(rules, tailer))
    rear = rear_edge(pieces.base(rules, tailed))
    if not (segments_touch(a, b, *front) and segments_touch(a, b, *rear)):
        return False                                                  # 2
    if tailer.level == tailed.level:                                  # 3
        for other in state.planes.values():
            if other.in_play and other.id not in (tailer.id, tailed.id) and other.level == tailer.level \
                    and crosses(a, b, pieces.base(rules, other)):
                return False
    return True


def escapes_tailing(state: GameState, tailer: PlaneState, tailed: PlaneState) -> bool:
    """Good at Escaping: the tailed ace refuses, unless the tailer's pilot has the same skill."""
    return pieces.skill_ready(state, tailed, 0, "good_at_escaping") and not pieces.has_skill(tailer, 0,
                                                                                              "good_at_escaping")


def improved_aim(rules: WingsOfGloryRules, state: GameState, plane: PlaneState, gun, target_id: str,
                 target_level: int, perfect_aim: bool) -> tuple[str, bool]:
    """IMPROVED AIM: (why the extra A token is due or "", whether the firer is tailing)."""
    prof = pieces.profile(rules, plane)
    is_tailing = False
    if target_id in state.planes:
        target = state.planes[target_id]
        is_tailing = tailing(rules, state, plane, target) and not escapes_tailing(state, plane, target)
    if not gun.fixed or prof.plane_class != "fighter" or pieces.pilot_impaired(plane):
        return "", is_tailing
    if plane.smoke > 0 or plane.flames > 0:
        return "", is_tailing
    if target_id in plane.targets_before:
        return "same target a second consecutive turn", is_tailing
    if target_level < plane.level or (target_level == plane.level and plane.executed in ("dive", "dive_bomb")):
        return "lower target" if target_level < plane.level else "same level after a dive", is_tailing
    if is_tailing:
        return "tailing position", is_tailing
    if perfect_aim and pieces.skill_ready(state, plane, gun.crew, "perfect_aim"):
        return "Perfect Aim", is_tailing
    return "", is_tailing


def shot_option(rules: WingsOfGloryRules, state: GameState, plane: PlaneState, gun_index: int, target_id: str,
                perfect_aim: bool = False) -> ShotOption | str:
    """Whether ``plane`` may fire gun ``gun_index`` at ``target_id`` now: a :class:`ShotOption`, or why not."""
    prof = pieces.profile(rules, plane)
    if not 0 <= gun_index < len(prof.guns):
        return f"{prof.name} has guns 0 to {len(prof.guns) - 1}"
    gun = prof.guns[gun_index]
    if gun.arc in plane.fired_arcs:
        return "FIRING: a plane fires once each round for each arc"
    if gun.crew in plane.fired_crew:
        return "FIRING: each crewman fires one gun a round"
    if not pieces.crew_can_fire(plane, gun.crew):
        return "Crew Hit: a wounded crewman may not fire"
    if plane.illegal and gun.crew == 0:
        return "ILLEGAL MANOEUVRES: the pilot may not fire this turn"
    if gun.fixed and plane.bombed:
        return "LEVEL BOMBING: bombers may not fire forward fixed guns in the turn they drop bombs"
    if target_id in state.planes:
        target = state.planes[target_id]
        if not target.in_play or target.side == plane.side:
            return "FIRING: the target must be an enemy plane in play"
    elif target_id in state.targets:
        target_piece = state.targets[target_id]
        piece_prof = rules.catalogue.targets[target_piece.kind]
        if target_piece.side == plane.side or target_piece.sunk or piece_prof.hazard:
            return "STRAFING: the target must be an enemy ground or naval target"
        if target_piece.silenced and piece_prof.sink_strafing_points is None:
            return "STRAFING: the target is silenced and counts as eliminated"
    else:
        return f"no target {target_id!r}"
    polygon, level, centre = target_shape(rules, state, target_id)
    if gun.fixed and plane.executed in ("climb", "immelmann") and level < plane.level:
        return "FIRING WHILE CLIMBING AND DIVING: a climbing plane's fixed guns may not fire at lower targets"
    if gun.fixed and plane.executed in ("dive", "split_s", "dive_bomb") and level > plane.level:
        return "FIRING WHILE CLIMBING AND DIVING: a diving plane's fixed guns may not fire at higher targets"
    if gun.arc == "rear" and level <= plane.level and rear_blind_spot(rules, plane, polygon, centre):
        return "BLIND SPOTS FOR REAR GUNS: the target sits in the blind spot behind the tail"
    if overlapping(state, plane.id, target_id):
        if target_id in plane.overlap_shots:
            return "OVERLAPPING WHEN FIRING: only one gun may fire at an overlapping target"
        if level > plane.level and not gun.fires_higher:
            return "OVERLAPPING WHEN FIRING: the lower plane needs a gun that can fire higher"
        if level < plane.level and not gun.fires_lower:
            return "OVERLAPPING WHEN FIRING: the higher plane needs a gun that can fire lower"
        if not in_cone(rules, plane, gun.arc, polygon):
            return "FIRING: no point of the target's base lies within the firing cone"
        band, point = "overlap", centre
    else:
        low, high = min(level, plane.level), max(level, plane.level)
        obstacles = blockers(rules, state, plane, target_id, level) + clouds_between(state, low, high)
        quarter = rules.catalogue.figures["ruler_length"] // 4
        steps = abs(level - plane.level)
        nearest = nearest_in_cone(rules, plane, gun.arc, polygon)
        if nearest is None:
            return "FIRING: no point of the target's base lies within the firing cone"
        reaches = [(name, quarter * (quarters - steps)) for name, quarters in (("short", 2), ("long", 4))
                   if steps <= quarters]
        if not reaches or nearest[0] > reaches[-1][1] ** 2:
            return "RANGE: the target is beyond four quarters of the ruler (one quarter added per altitude level)"
        apex = (plane.pose.x, plane.pose.y)
        limit = reaches[-1][1] ** 2
        obstacles = [o for o in obstacles if distance2(apex, closest_point(o, apex)) <= limit]
        point, band = None, ""
        for name, reach in reaches:
            if not obstacles:
                point = nearest[1] if nearest[0] <= reach * reach else None
            else:
                point = reachable_point(rules, plane, gun.arc, polygon, obstacles, reach)
            if point is not None:
                band = name
                break
        if point is None:
            return "TARGETING: every line to the target within range crosses another base or a cloud"
    letters = gun.short if band == "short" else gun.long
    if not letters:
        return f"RANGE: the {gun.name} has no tokens at long range"
    why, is_tailing = improved_aim(rules, state, plane, gun, target_id, level, perfect_aim)
    if why:
        letters += "A"
    return ShotOption(band="long" if band == "overlap" else band, letters=letters, point=point, improved=why,
                      tailing=is_tailing)


# ---------------------------------------------------------------- sub-phases


def crewman_subphase(state: GameState, plane: PlaneState, crewman: int) -> tuple[str, ...]:
    """GAME TURN 3a-3c: Itchy Trigger Finger aces may fire in 3a (or with the others), "normal" aircrew in
    3b, Novice or Wounded aircrew in 3c."""
    if crewman == 0 and pieces.pilot_impaired(plane):
        return ("3c",)
    if pieces.skill_ready(state, plane, crewman, "itchy_trigger_finger"):
        return ("3a", "3b")
    return ("3b",)


def fire(rules: WingsOfGloryRules, out: Emitter, command: Fire, dice: DiceCup) -> None:
    """FIRING: one gun at one eligible target; the tokens wait for the end of the sub-phase (DAMAGE)."""
    state = out.state
    if state.phase != FIRE or state.sniper is not None:
        raise RuleError("planes fire in the fire phase", rule="GAME TURN", page=None)
    plane = state.planes.get(command.plane)
    if plane is None or plane.owner != command.player:
        raise RuleError(f"{command.player} has no plane {command.plane!r}", rule="FIRING", page=None)
    if command.player in state.done:
        raise RuleError("you have finished firing in this part of the fire phase", rule="GAME TURN", page=None)
    if not plane.in_play:
        raise RuleError(f"{plane.id} was shot down earlier in the fire phase and may not fire", rule="GAME TURN",
                        page=None)
    prof = pieces.profile(rules, plane)
    if not 0 <= command.gun < len(prof.guns):
        raise RuleError(f"{prof.name} has guns 0 to {len(prof.guns) - 1}", rule="FIRING", page=None)
    gun = prof.guns[command.gun]
    if state.subphase not in crewman_subphase(state, plane, gun.crew):
        raise RuleError(f"the {prof.crew[gun.crew]} of {plane.id} fires in part "
                        f"{'/'.join(crewman_subphase(state, plane, gun.crew))} of the fire phase",
                        rule="GAME TURN", page=None)
    option = shot_option(rules, state, plane, command.gun, command.target, command.perfect_aim)
    if isinstance(option, str):
        rule = option.split(":")[0]
        raise RuleError(option.split(": ", 1)[-1], rule=rule, page=None)
    if command.sniper is not None:
        if command.target not in state.planes or not pieces.skill_ready(state, plane, gun.crew, "sniper"):
            raise RuleError("only a ready Sniper ace draws two tokens, at a plane", rule="Sniper", page=None)
        if command.sniper not in option.letters:
            raise RuleError(f"the shot's tokens are {option.letters}", rule="Sniper", page=None)
    if command.perfect_aim and option.improved != "Perfect Aim":
        raise RuleError("Perfect Aim adds an A token only where Improved Aim gives none and the ace is ready",
                        rule="Perfect Aim", page=None)
    out.emit(Fired(plane=plane.id, gun=command.gun, target=command.target, band=option.band, letters=option.letters,
                   improved_aim=option.improved, tailing=option.tailing,
                   skill="sniper" if command.sniper else "", start=(plane.pose.x, plane.pose.y), end=option.point))
    if state.subphase == "3a":
        out.emit(SkillUsed(plane=plane.id, crewman=gun.crew, skill="itchy_trigger_finger"))
    if option.improved == "Perfect Aim":
        out.emit(SkillUsed(plane=plane.id, crewman=gun.crew, skill="perfect_aim"))
    if command.target in state.planes:
        target = state.planes[command.target]
        if tailing(rules, state, plane, target) and escapes_tailing(state, plane, target):
            out.emit(SkillUsed(plane=target.id, crewman=0, skill="good_at_escaping"))
        if command.sniper:
            out.emit(SkillUsed(plane=plane.id, crewman=gun.crew, skill="sniper"))
            damage.start_sniper(rules, out, dice, plane, command.target, command.sniper, option.letters)
        else:
            damage.give_tokens(rules, out, dice, command.target, option.letters, cause=f"fire from {plane.id}")
    else:
        damage.damage_target(rules, out, dice, command.target, option.letters, plane.id)


def launch_pac(rules: WingsOfGloryRules, out: Emitter, command: LaunchPac, dice: DiceCup) -> None:
    """PARACHUTE AND CABLE: launched during any fire phase, once."""
    state = out.state
    pac = state.targets.get(command.pac)
    if state.phase != FIRE or pac is None or pac.kind != "pac" or pac.side != state.sides[command.player]:
        raise RuleError("your side launches its PAC during a fire phase", rule="PARACHUTE AND CABLE (PAC)",
                        page=None)
    if pac.launched:
        raise RuleError("the PAC can only be launched once", rule="PARACHUTE AND CABLE (PAC)",
                        page=None)
    out.emit(PacLaunched(target_piece=pac.id))


def done(rules: WingsOfGloryRules, out: Emitter, command: Done, dice: DiceCup) -> None:
    state = out.state
    if command.player in state.done or state.phase not in (FIRE, "bomb") or state.sniper is not None:
        raise RuleError("nothing to finish now", rule="GAME TURN", page=None)
    out.emit(PlayerDone(player=command.player))


HANDLERS = {Fire: fire, LaunchPac: launch_pac, Done: done}


def _shots(rules: WingsOfGloryRules, state: GameState, player: str):
    """(plane, gun index, gun, target, shot) of each shot ``player``'s planes may fire now, in the order offered."""
    for plane in state.planes_of(player):
        if not plane.in_play:
            continue
        prof = pieces.profile(rules, plane)
        targets = [p.id for p in sorted(state.planes.values(), key=lambda p: p.id)
                   if p.in_play and p.side != plane.side]
        targets += [t.id for t in sorted(state.targets.values(), key=lambda t: t.id)
                    if t.side is not None and t.side != plane.side and not t.sunk
                    and not rules.catalogue.targets[t.kind].hazard]
        for index, gun in enumerate(prof.guns):
            if state.subphase not in crewman_subphase(state, plane, gun.crew):
                continue
            for target in targets:
                option = shot_option(rules, state, plane, index, target)
                if not isinstance(option, str):
                    yield plane, index, gun, target, option


def fire_commands(rules: WingsOfGloryRules, state: GameState, player: str) -> list[Command]:
    commands: list[Command] = []
    for plane, index, gun, target, option in _shots(rules, state, player):
        commands.append(Fire(player=player, plane=plane.id, gun=index, target=target))
        if target in state.planes and pieces.skill_ready(state, plane, gun.crew, "sniper"):
            commands.extend(Fire(player=player, plane=plane.id, gun=index, target=target, sniper=letter)
                            for letter in sorted(set(option.letters)))
        if not option.improved and gun.fixed and pieces.skill_ready(state, plane, gun.crew, "perfect_aim"):
            aimed = shot_option(rules, state, plane, index, target, perfect_aim=True)
            if not isinstance(aimed, str) and aimed.improved == "Perfect Aim":
                commands.append(Fire(player=player, plane=plane.id, gun=index, target=target,
                                     perfect_aim=True))
    return commands


def has_commands(rules: WingsOfGloryRules, state: GameState, player: str) -> bool:
    """Whether :func:`legal_commands` offers ``player`` anything, found without listing every shot."""
    if state.phase != FIRE or state.sniper is not None or player in state.done:
        return False
    return (next(_shots(rules, state, player), None) is not None or bool(_pac_launches(state, player))
            or bool(damage.legal_commands(rules, state, player)))


def _pac_launches(state: GameState, player: str) -> list[Command]:
    side = state.sides[player]
    return [LaunchPac(player=player, pac=t.id) for t in sorted(state.targets.values(), key=lambda t: t.id)
            if t.kind == "pac" and t.side == side and not t.launched]


def legal_commands(rules: WingsOfGloryRules, state: GameState, player: str) -> list[Command]:
    if state.phase != FIRE or state.sniper is not None or player in state.done:
        return []
    commands = fire_commands(rules, state, player)
    commands += _pac_launches(state, player)
    luck = damage.legal_commands(rules, state, player)
    if not commands and not luck:
        return []
    return commands + luck + [Done(player=player)]


# ---------------------------------------------------------------- ground fire


def ground_fire(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup) -> None:
    """GROUND TROOPS and ANTI-AIRCRAFT GUNS fire, "simultaneous with all other types of fire" (in 3b)."""
    quarter = rules.catalogue.figures["ruler_length"] // 4
    for piece in sorted(out.state.targets.values(), key=lambda t: t.id):
        prof = rules.catalogue.targets[piece.kind]
        if prof.fire == "none" or piece.sunk or piece.side is None:
            continue
        if prof.fire == "troops":
            if piece.silenced:
                continue
            target = troops_target(rules, out.state, piece, quarter)
            if target is not None:
                out.emit(GroundFire(target_piece=piece.id, gun=0, plane=target, action="troops"))
                damage.give_tokens(rules, out, dice, target, "A", cause=f"GROUND TROOPS {piece.id}")
            continue
        for gun in range(len(prof.guns)):
            piece = out.state.targets[piece.id]
            counter = piece.counters[gun]
            if counter is not None and piece.counter_turns[gun] < out.state.turn:
                plane = out.state.planes.get(counter)
                if plane is not None and plane.in_play and not piece.silenced:
                    out.emit(GroundFire(target_piece=piece.id, gun=gun, plane=counter, action="counter_resolved"))
                    damage.give_tokens(rules, out, dice, counter, "C", cause=f"ANTI-AIRCRAFT GUNS {piece.id}")
                else:
                    out.emit(GroundFire(target_piece=piece.id, gun=gun, plane=counter, action="counter_returned"))
            elif counter is None and piece.counter_turns[gun] < out.state.turn and not piece.silenced:
                target = aa_target(rules, out, dice, piece, gun)
                if target is not None:
                    out.emit(GroundFire(target_piece=piece.id, gun=gun, plane=target, action="counter_placed"))


def _range_to(rules: WingsOfGloryRules, piece: TargetState, plane: PlaneState) -> int:
    return distance2((piece.pose.x, piece.pose.y), closest_point(pieces.base(rules, plane), (piece.pose.x,
                                                                                             piece.pose.y)))


def troops_target(rules: WingsOfGloryRules, state: GameState, piece: TargetState, quarter: int) -> str | None:
    """GROUND TROOPS: fire as an altitude-1 plane (all round, four quarters with one added per level of
    difference, even when overlapped); the nearest plane strafing them first, then the nearest."""
    options = []
    for plane in state.planes.values():
        if not plane.in_play or plane.side == piece.side:
            continue
        steps = plane.level - 1
        if steps > 4:
            continue
        reach = _range_to(rules, piece, plane)
        if reach <= (quarter * (4 - steps)) ** 2:
            options.append((plane.id not in piece.strafed_by, reach, plane.id))
    return min(options)[2] if options else None


def aa_target(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup, piece: TargetState, gun: int) -> str | None:
    """ANTI-AIRCRAFT GUNS: 360 degrees (a ship's gun: its half), two rulers, never a plane within half a ruler
    of a plane friendly to the gun; planes strafing the gun first, bombers before fighters, otherwise at
    random (a die among the tied)."""
    state = out.state
    figures = rules.catalogue.figures
    arc = rules.catalogue.targets[piece.kind].guns[gun]
    friends = [p for p in state.planes.values() if p.in_play and p.side == piece.side]
    ranked = []
    for plane in sorted(state.planes.values(), key=lambda p: p.id):
        if not plane.in_play or plane.side == piece.side:
            continue
        if _range_to(rules, piece, plane) > figures["aa_range"] ** 2:
            continue
        polygon = pieces.base(rules, plane)
        apex_plane = replace(plane, pose=piece.pose)
        if not in_cone(rules, apex_plane, arc, polygon):
            continue
        peg = (plane.pose.x, plane.pose.y)
        if any(distance2(peg, (f.pose.x, f.pose.y)) <= figures["aa_friendly_exclusion"] ** 2 for f in friends):
            continue
        priority = (plane.id not in piece.strafed_by, pieces.profile(rules, plane).plane_class != "bomber")
        ranked.append((priority, plane.id))
    if not ranked:
        return None
    best = min(priority for priority, _ in ranked)
    tied = [pid for priority, pid in ranked if priority == best]
    if len(tied) == 1:
        return tied[0]
    roll = dice.roll(1, sides=len(tied), purpose=f"AA target for {piece.id}", roller=None)
    out.emit(roll)
    return tied[roll.faces[0] - 1]


# ---------------------------------------------------------------- reducers


def evolve(rules: WingsOfGloryRules, state: GameState, event) -> GameState | None:
    if isinstance(event, Fired):
        plane = state.planes[event.plane]
        gun = pieces.profile(rules, plane).guns[event.gun]
        plane = replace(plane, fired_arcs=plane.fired_arcs + (gun.arc,), fired_crew=plane.fired_crew + (gun.crew,),
                        fired_fixed=plane.fired_fixed or gun.fixed,
                        targets_now=plane.targets_now + ((event.target,) if gun.fixed else ()),
                        overlap_shots=plane.overlap_shots + ((event.target,) if overlapping(state, plane.id,
                                                                                             event.target) else ()))
        state = with_plane(state, plane)
        if event.target in state.targets:
            target = state.targets[event.target]
            state = with_target(state, replace(target, strafed_by=target.strafed_by + (plane.id,)))
        shot = Shot(shooter=event.plane, target=event.target, start=event.start, end=event.end,
                    outcome=f"{event.band} {event.letters}")
        return replace(state, shots=state.shots + (shot,))
    if isinstance(event, SkillUsed):
        plane = state.planes[event.plane]
        crew = list(plane.crew)
        man = crew[event.crewman]
        crew[event.crewman] = replace(man, recovery=pieces.RECOVERY_COUNTERS,
                                      luck_used=man.luck_used or event.skill == "luck_of_the_devil")
        return with_plane(state, replace(plane, crew=tuple(crew)))
    if isinstance(event, GroundFire):
        piece = state.targets[event.target_piece]
        if event.action == "troops":
            return state
        counters, turns = list(piece.counters), list(piece.counter_turns)
        counters[event.gun] = event.plane if event.action == "counter_placed" else None
        turns[event.gun] = state.turn
        return with_target(state, replace(piece, counters=tuple(counters), counter_turns=tuple(turns)))
    if isinstance(event, PacLaunched):
        pac = state.targets[event.target_piece]
        return with_target(state, replace(pac, launched=True, phases_left=6))
    if isinstance(event, PlayerDone):
        return replace(state, done=state.done + (event.player,))
    return None
