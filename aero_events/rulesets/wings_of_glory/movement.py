"""MOVEMENT, ALTITUDE, Dive, Climb, Immelmann turn, Split-S, ILLEGAL MANOEUVRES, LEAVING THE PLAYING AREA,
OVERLAPPING DURING MOVEMENT, Collisions, FUEL, BARRAGE BALLOONS and PARACHUTE AND CABLE crossings.

All planes move at once (GAME TURN: "Players perform each of these phases simultaneously"): each move is
computed from the state before any plane moved. A card is a rigid transform of the base (data.py); the
base's *swept region* is the convex hull of the base where it started, the card laid on its front blue
line, and the base where it ended: what a plane crosses (balloons, PAC) and flies over (bombing, photo
reconnaissance) during the move is what meets that region.

Choices where the text is open (documented, options where players disagree):

* Dive, "remove all or none" climb counters: option ``dive_climb_counters`` "keep" (default) or "remove".
* A plane at its ceiling gains no climb counter from a climb or an Immelmann (Climb: "No plane can climb
  above its maximum altitude").
* Leaving the playing area: the base's centre (the peg) ends outside the table.
* "If [overlap] is not possible, replace one of the models with its plane card": two models cannot stand
  overlapping when their pegs are closer than ``stand_clearance`` (components.json, a reconstruction).
* Collision tokens are drawn face up (both players must see whether one is a 0); a token that is not
  cancelled goes face down on the plane and counts its points only.
* A Split-S uses the Immelmann card: it costs two fuel points like an Immelmann.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup
from aero_events.core.orders import discard, reveal
from aero_events.core.pools import put_back
from aero_events.table.area import Edge, TableArea

from . import damage, pieces
from .data import Card
from .events import (
    CardRevealed,
    IllegalManoeuvre,
    PacCounted,
    PlaneMoved,
    PlaneOut,
    PlanesOverlap,
    SkillUsed,
)
from .geometry import Pose, contains, convex_hull, overlap, rectangle, within
from .planning import immelmann_kind, sequence_problem
from .state import CRASHED, OUT, RETURNED, SHOT_DOWN, GameState, PlaneState, replace, with_plane

if TYPE_CHECKING:
    from .ruleset import WingsOfGloryRules
    from .turn import Emitter


def executed_kind(rules: WingsOfGloryRules, plane: PlaneState, card: Card) -> str:
    """What the card does when flown: its kind, or "split_s" for an Immelmann card flown after a stall."""
    if card.kind == "immelmann":
        previous = [pieces.card(rules, plane, n) for n in plane.flown]
        return immelmann_kind(previous) or "immelmann"
    return card.kind


def altitude_after(rules: WingsOfGloryRules, plane: PlaneState, kind: str) -> tuple[int, int]:
    """(level, climb counters) after flying a card of ``kind`` (Dive, Climb, Immelmann turn, Split-S)."""
    level, climb = plane.level, plane.climb
    rate = pieces.climb_rate(rules, plane)
    ceiling = pieces.profile(rules, plane).ceiling
    if kind in ("climb", "immelmann"):
        if level < ceiling:
            climb += 1
            if climb >= rate:
                level, climb = level + 1, 0
    elif kind in ("dive", "dive_bomb"):
        level -= 1
        if rules.options.dive_climb_counters == "remove":
            climb = 0
    elif kind == "split_s":
        if climb > 0:
            climb -= 1
        else:
            level, climb = level - 1, rate - 1
    return level, climb


def fuel_cost(kind: str) -> int:
    """FUEL: one point a manoeuvre; dives use none; a climb or an Immelmann (card) uses two."""
    if kind in ("dive", "dive_bomb"):
        return 0
    if kind in ("climb", "immelmann", "split_s"):
        return 2
    return 1


def card_polygon(rules: WingsOfGloryRules, plane: PlaneState, card: Card):
    """MOVEMENT: the card laid with its arrow's base line on the plane's front blue line."""
    figures = rules.catalogue.figures
    return rectangle(plane.pose, figures["card_width"], figures["card_length"], card.card_forward, card.card_right)


def move_plane(rules: WingsOfGloryRules, plane: PlaneState, card: Card) -> tuple[Pose, tuple, tuple]:
    """The pose after the card, the path of the peg (start, card centre, end) and the swept region."""
    end = plane.pose.then(card.move)
    laid = card_polygon(rules, plane, card)
    swept = convex_hull(pieces.base(rules, plane) + laid + pieces.base(rules, plane, end))
    middle = plane.pose.to_world((card.card_right, card.card_forward))
    return end, ((plane.pose.x, plane.pose.y), middle, (end.x, end.y)), swept


def table_edge_left(state: GameState, pose: Pose) -> str | None:
    """LEAVING THE PLAYING AREA: the edge the peg ended beyond (None: still on the table; on the edge is on).
    Beyond a corner, south and north come before west and east."""
    crossed = TableArea(*state.table).edges_crossed(pose.position)
    return next((edge.value for edge in (Edge.SOUTH, Edge.NORTH, Edge.WEST, Edge.EAST) if edge in crossed), None)


def resolve_movement(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup) -> None:
    """Step 2 of GAME TURN: reveal, move every plane at once, then what the moves caused."""
    before = out.state
    flying = [p for p in sorted(before.planes.values(), key=lambda p: p.id) if p.in_play]
    flown: dict[str, Card] = {}
    oldest = before.orders[0]
    # the planes in play turn their first-slot cards face up together; the cards of planes out of play are
    # put aside unseen
    gone = [slot for slot in oldest.sealed if slot not in oldest.revealed and slot not in oldest.discarded
            and not before.planes[slot].in_play]
    out.emit(reveal(oldest, [p.id for p in flying], rule="MOVEMENT", page=None))
    if gone:
        out.emit(discard(out.state.orders[0], gone, rule="MOVEMENT", page=None))
    for plane in flying:
        card = pieces.card(rules, plane, oldest.sealed[plane.id].order)
        kind = executed_kind(rules, plane, card)
        out.emit(CardRevealed(plane=plane.id, card=card.number, executed=kind))
        previous = [pieces.card(rules, plane, n) for n in plane.flown]
        problem = sequence_problem(rules, out.state, out.state.planes[plane.id], card, previous, planning=False)
        if problem is not None:
            straight = pieces.straight_card(rules, plane)
            out.emit(IllegalManoeuvre(plane=plane.id, card=card.number, straight=straight.number, reason=problem))
            card = straight
        elif previous and previous[-1].kind == "immelmann" and card.kind != "straight":
            # Acrobatic Pilot: "Place recovery counters when the non-straight manoeuvre is carried out."
            out.emit(SkillUsed(plane=plane.id, crewman=0, skill="acrobatic"))
        flown[plane.id] = card
    for plane in flying:
        plane = out.state.planes[plane.id]
        card = flown[plane.id]
        kind = "straight" if plane.illegal else executed_kind(rules, plane, card)
        pose, path, swept = move_plane(rules, plane, card)
        level, climb = altitude_after(rules, plane, kind)
        fuel = None if plane.fuel is None else max(0, plane.fuel - fuel_cost(kind))
        over = tuple(t.id for t in sorted(out.state.targets.values(), key=lambda t: t.id)
                     if contains(swept, (t.pose.x, t.pose.y)))
        out.emit(PlaneMoved(plane=plane.id, card=card.number, executed=kind, pose=pose, level=level, climb=climb,
                            fuel=fuel, path=path, swept=swept, over_targets=over))
    for plane in flying:
        plane = out.state.planes[plane.id]
        if plane.level < 1:
            out.emit(PlaneOut(plane=plane.id, status=CRASHED, reason="Dive: dived below level 1 into the ground"))
            continue
        edge = table_edge_left(out.state, plane.pose)
        if edge is not None:
            if out.state.fuel_rule and plane.fuel is not None and edge != plane.own_edge:
                out.emit(PlaneOut(plane=plane.id, status=SHOT_DOWN,
                                  reason=f"FUEL: left the playing area by the {edge} edge, not its own"))
            elif out.state.fuel_rule and plane.fuel is not None:
                out.emit(PlaneOut(plane=plane.id, status=RETURNED, reason=f"FUEL: left by its own ({edge}) edge"))
            else:
                out.emit(PlaneOut(plane=plane.id, status=OUT, reason=f"LEAVING THE PLAYING AREA: ended beyond the "
                                                                     f"{edge} edge"))
            continue
        if out.state.fuel_rule and plane.fuel == 0:
            out.emit(PlaneOut(plane=plane.id, status=SHOT_DOWN, reason="FUEL: no fuel left on the table"))
    for plane in flying:
        if out.state.planes[plane.id].illegal:
            damage.give_tokens(rules, out, dice, plane.id, "A", cause="ILLEGAL MANOEUVRES: stress on the structure")
    cross_hazards(rules, out, dice, [p.id for p in flying])
    overlaps_and_collisions(rules, out, dice)
    count_pac(out)
    damage.resolve_all(rules, out, dice)


def cross_hazards(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup, moved: list[str]) -> None:
    """BARRAGE BALLOONS / PARACHUTE AND CABLE: crossing the card at altitude 1 or 2 costs four C tokens."""
    for plane_id in moved:
        plane = out.state.planes[plane_id]
        if not plane.in_play or plane.level > 2:
            continue
        for target in sorted(out.state.targets.values(), key=lambda t: t.id):
            prof = rules.catalogue.targets[target.kind]
            if not prof.hazard or (target.kind == "pac" and target.phases_left <= 0):
                continue
            if overlap(plane.swept, pieces.target_card(rules, target)):
                heading = "BARRAGE BALLOONS" if target.kind == "balloon" else "PARACHUTE AND CABLE (PAC)"
                damage.give_tokens(rules, out, dice, plane_id, "CCCC", cause=f"{heading}: crossed {target.id}")


def overlaps_and_collisions(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup) -> None:
    """OVERLAPPING DURING MOVEMENT and Collisions (conditions 1-3 are read together: all must hold)."""
    flying = [p for p in sorted(out.state.planes.values(), key=lambda p: p.id) if p.in_play]
    clearance = rules.catalogue.figures["stand_clearance"]
    for i, first in enumerate(flying):
        for second in flying[i + 1:]:
            if not overlap(pieces.base(rules, first), pieces.base(rules, second)):
                continue
            replaced = within((first.pose.x, first.pose.y), (second.pose.x, second.pose.y), clearance - 1)
            out.emit(PlanesOverlap(first=first.id, second=second.id, replaced=replaced))
            if replaced and first.level == second.level and (first.climb > 0) == (second.climb > 0):
                collide(rules, out, dice, first.id, second.id)


def collide(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup, first: str, second: str) -> None:
    """Collisions: a B token for each plane; a 0 on either cancels both; otherwise points only."""
    drawn = damage.draw_tokens(rules, out, dice, "BB", owner=None, purpose=f"Collision of {first} and {second}")
    if len(drawn) < 2:
        return
    if any(rules.catalogue.tokens[t].points == 0 for t in drawn):
        out.emit(put_back(dice, out.state.pools["B"], drawn, purpose="Collision: a 0 cancels both"))
        return
    for plane_id, token in zip((first, second), drawn, strict=True):
        damage.emit_taken(out, out.state.planes[plane_id], [token], damage.POINTS, "Collision")


def count_pac(out: Emitter) -> None:
    """PARACHUTE AND CABLE: it remains for six movement phases after its launch."""
    for target in sorted(out.state.targets.values(), key=lambda t: t.id):
        if target.kind == "pac" and target.phases_left > 0:
            out.emit(PacCounted(target_piece=target.id, phases_left=target.phases_left - 1))


def evolve(rules: WingsOfGloryRules, state: GameState, event) -> GameState | None:
    if isinstance(event, CardRevealed):
        plane = state.planes[event.plane]
        return with_plane(state, replace(plane, executed=event.executed, illegal=False))
    if isinstance(event, IllegalManoeuvre):
        plane = state.planes[event.plane]
        return with_plane(state, replace(plane, illegal=True, executed="straight"))
    if isinstance(event, PlaneMoved):
        plane = state.planes[event.plane]
        crew = tuple(_discard_recovery(man, state.turn) for man in plane.crew)
        plane = replace(plane, pose=event.pose, level=event.level, climb=event.climb, fuel=event.fuel,
                        executed=event.executed, flown=plane.flown + (event.card,), path=event.path,
                        swept=event.swept, over_targets=event.over_targets, crew=crew)
        return with_plane(state, plane)
    if isinstance(event, PlaneOut):
        plane = state.planes[event.plane]
        return with_plane(state, replace(plane, status=event.status, pending=()))
    if isinstance(event, PlanesOverlap):
        planes = dict(state.planes)
        if event.replaced:
            planes[event.second] = replace(planes[event.second], replaced_by_card=True)
        return replace(state, planes=planes, overlaps=state.overlaps + ((event.first, event.second),))
    if isinstance(event, PacCounted):
        target = state.targets[event.target_piece]
        return replace(state, targets={**state.targets, target.id: replace(target, phases_left=event.phases_left)})
    return None


def _discard_recovery(man, turn: int):
    """RECOVERY: one counter is discarded after each manoeuvre executed; no skill until after the end of the
    turn in which the last is discarded."""
    if man.recovery <= 0:
        return man
    left = man.recovery - 1
    return replace(man, recovery=left, skill_ready_turn=turn + 1 if left == 0 else man.skill_ready_turn)


HANDLERS: dict = {}


def legal_commands(rules, state, player) -> list:
    return []
