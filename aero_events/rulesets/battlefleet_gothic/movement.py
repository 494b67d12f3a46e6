"""The movement phase (p.14-17): basic moves, minimum move, turning, All Ahead Full, Burn Retros, Come to New
Heading, Lock On, Blast markers, the table edge, hulks drifting.

A move is straight legs with turns between them, measured from the stem (p.6). The rules checked:

* up to Speed (p.15), less 5 cm crippled (p.23), 10 cm with Thrusters Damaged (p.24), less 5 cm once when
  the base moves through any Blast marker, including one it touches when it sets off (p.25);
* at least half Speed, unless Burn Retros (0 to half Speed); a ship unable to move half its speed moves the
  maximum possible (p.16); All Ahead Full adds 4D6 cm and must move its full distance (p.16);
* one turn of at most 45 or 90 degrees (p.16) after 15 cm (battleship), 10 cm (cruiser) or 0 cm (escort)
  moved in this phase; Come to New Heading a second turn with the same spacing (p.17); Burn Retros may turn
  before moving (p.17); All Ahead Full and Lock On may not turn (p.16, p.21); Engine Room Damaged: no turns
  (p.24).

Choices where the text is silent, documented:

* Blast marker slow-down is found along the path: the allowance falls by 5 cm from the point where the base
  first touches a marker, so a move that meets a marker in its last 5 cm stops there (All Ahead Full
  included). Slowing does not lower the half-Speed minimum below what is left.
* A ship whose stem leaves the table has disengaged: it is out of the battle and scores nothing for either
  side (the text has no table edge rule; scenarios decide).
* Fighters on combat air patrol (p.29): ``MoveShip.screen`` names friendly waves of fighters in base contact
  that move with the ship (the same displacement); they do not move in this turn's ordnance phase.
* A ship that moves into a torpedo salvo is attacked at the point of contact (p.27); if that leaves it out of
  action it stops there. No Brace window opens for this (the special orders section allows Brace only in
  the ordnance phase or the opponent's turn, p.11).

``legal_commands`` offers a documented grid (continuous values are accepted by ``decide``): total distance in
whole centimetres from the minimum to the maximum (and the exact maximum), with the turn made either at the
earliest legal point or at the end of the move, by multiples of 15 degrees up to the ship's limit (a second
turn under Come to New Heading repeats the first, at the earliest point after it).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import msgspec

from aero_events.core import CommandProduct, DiceCup, RuleError, chain_commands

from . import events as ev
from . import geometry
from . import ships as sh
from .commands import MoveShip
from .data import CM, DEGREE
from .state import (
    ACTIVE,
    ALL_AHEAD_FULL,
    BLAZING_HULK,
    BURN_RETROS,
    COME_TO_NEW_HEADING,
    LOCK_ON,
    MOVEMENT,
    GameState,
    ShipState,
)

if TYPE_CHECKING:
    from .ruleset import BattlefleetGothicRules
    from .turn import Emitter


class MoveLimits:
    """What a ship may do this movement phase."""

    def __init__(self, full: int, minimum: int, turns: int, turn_limit: int, spacing: int, turn_first: bool,
                 exact: bool):
        self.full = full  # the allowance before any Blast marker slow-down
        self.minimum = minimum
        self.turns = turns
        self.turn_limit = turn_limit
        self.spacing = spacing
        self.turn_first = turn_first  # Burn Retros: a turn without moving first (p.17)
        self.exact = exact  # All Ahead Full: the full distance (p.16)


def limits(rules: BattlefleetGothicRules, ship: ShipState) -> MoveLimits:
    cls = rules.ship_class(ship)
    speed = sh.speed(rules, cls, ship)
    half_speed = cls.speed_cm * CM // 2
    order = ship.order
    turns = 1
    if order in (ALL_AHEAD_FULL, LOCK_ON) or "engine_room" in ship.criticals:
        turns = 0
    elif order == COME_TO_NEW_HEADING:
        turns = 2
    full = speed + (ship.extra_move if order == ALL_AHEAD_FULL else 0)
    if order == BURN_RETROS:
        full = min(full, half_speed)
        minimum = 0
    else:
        minimum = min(half_speed, full)
    spacing = rules.data.figure("turn_distance_cm")[cls.type] * CM
    return MoveLimits(full=full, minimum=minimum, turns=turns, turn_limit=cls.turn_degrees * DEGREE,
                      spacing=spacing, turn_first=order == BURN_RETROS, exact=order == ALL_AHEAD_FULL)


def path_points(ship: ShipState, legs: tuple[int, ...], turns: tuple[int, ...]) -> tuple[list[tuple[int, int]], int]:
    """The stem's points after each leg, and the final heading."""
    points = [ship.position]
    heading = ship.heading
    for index, leg in enumerate(legs):
        if index:
            heading = (heading + turns[index - 1]) % geometry.FULL_TURN
        dx, dy = geometry.forward(heading, leg)
        points.append((points[-1][0] + dx, points[-1][1] + dy))
    return points, heading


def first_blast_contact(rules: BattlefleetGothicRules, state: GameState, ship: ShipState,
                        points: list[tuple[int, int]]) -> int | None:
    """How far along the path the base first touches a Blast marker (0 if it starts touching one)."""
    reach = sh.base_radius(rules, rules.ship_class(ship)) + rules.data.length("blast_marker_radius_cm")
    travelled = 0
    best: int | None = None
    for a, b in itertools.pairwise(points):
        if a == b:
            continue
        for marker in state.blast_markers.values():
            contact = geometry.first_contact_along(a, b, marker.position, reach)
            if contact is not None and (best is None or travelled + contact < best):
                best = travelled + contact
        if best is not None:
            return best
        travelled += geometry.distance(a, b)
    return best


def allowance(rules: BattlefleetGothicRules, limit: MoveLimits, contact: int | None) -> int:
    """The distance allowed along a path that first touches a Blast marker at ``contact`` (p.25)."""
    if contact is None:
        return limit.full
    slowed = limit.full - rules.data.length("blast_slowdown_cm")
    return min(limit.full, max(contact, slowed))


def _move_contact(rules: BattlefleetGothicRules, state: GameState, ship: ShipState, legs: tuple[int, ...],
                  turns: tuple[int, ...], full: int) -> tuple[list[tuple[int, int]], int, int | None]:
    """A move's path, its final heading, and how far along it the base first touches a Blast marker (None: not
    within the move), p.25.

    Found on the move's own path; when that path meets none, on its course continued to the ship's ``full``
    move, as the moves offered measure it (:func:`_distances`): a move that ends where its course meets a marker
    ends in contact, though its end, rounded to the table's units, may stop a unit short of the marker's edge.
    A ship whose course meets a marker at once (its first contact, floored to the table's units, is 0) is
    slowed there as one already touching it is. (Without this a ship whose only moves end at a marker it is
    slowed by had none it could make: the rules refused the move the phase offered as short of the minimum,
    p.16.)"""
    total = sum(legs)
    points, heading = path_points(ship, legs, turns)
    if total:
        contact = first_blast_contact(rules, state, ship, points)
    else:  # a ship held in contact with markers could not move off without being slowed
        contact = 0 if sh.ship_markers(rules, state, ship) else None
    if contact is None and total < full and state.blast_markers:
        course, _ = path_points(ship, (*legs[:-1], legs[-1] + full - total), turns)
        contact = first_blast_contact(rules, state, ship, course)
    if contact is not None and contact > total:
        contact = None
    return points, heading, contact


def check_move(rules: BattlefleetGothicRules, state: GameState, ship: ShipState, legs: tuple[int, ...],
               turns: tuple[int, ...]) -> tuple[list[tuple[int, int]], int, bool]:
    """Check a move against p.15-17; returns the path, final heading and whether it met Blast markers."""
    limit = limits(rules, ship)
    if not legs or len(turns) != len(legs) - 1:
        raise RuleError("a move is straight legs with one turn between each two", rule="Basic Moves", page=16)
    if any(leg < 0 for leg in legs):
        raise RuleError("ships move straight ahead, never backwards", rule="Turning", page=16)
    real_turns = [t for t in turns if t % geometry.FULL_TURN]
    if len(real_turns) != len(turns):
        raise RuleError("a turn of 0 degrees is no turn", rule="Turning", page=16)
    if len(turns) > limit.turns:
        allowed = {0: "no turns", 1: "one turn", 2: "two turns"}[limit.turns]
        raise RuleError(f"{ship.name} may make {allowed} this move", rule="Turning", page=16)
    for index, turn in enumerate(turns):
        if abs(turn) > limit.turn_limit:
            raise RuleError(f"turns are at most {limit.turn_limit // DEGREE} degrees", rule="Turning", page=16)
        moved_since = legs[index]
        if moved_since < limit.spacing and not (index == 0 and limit.turn_first):
            raise RuleError(f"{ship.name} must move {limit.spacing // CM} cm before turning", rule="Turning", page=16)
    total = sum(legs)
    points, heading, contact = _move_contact(rules, state, ship, legs, turns, limit.full)
    maximum = allowance(rules, limit, contact)
    if total > maximum:
        raise RuleError(f"{ship.name} may move at most {maximum / CM:g} cm", rule="Move Distance", page=15)
    minimum = min(limit.minimum, maximum)
    if limit.exact and total != maximum:
        raise RuleError(f"All Ahead Full: {ship.name} must move its full {maximum / CM:g} cm",
                        rule="All Ahead Full", page=16)
    if total < minimum:
        raise RuleError(f"{ship.name} must move at least {minimum / CM:g} cm", rule="Minimum Move Distance", page=16)
    return points, heading, contact is not None and total > 0


def move_ship(rules: BattlefleetGothicRules, out: Emitter, command: MoveShip, dice: DiceCup) -> None:
    state = out.state
    if state.phase != MOVEMENT or state.pending is not None:
        raise RuleError("ships move in the movement phase", rule="The Movement Phase", page=15)
    ship = rules.own_ship(state, command.player, command.ship)
    if ship.status != ACTIVE or ship.moved:
        raise RuleError(f"{ship.name} has already moved", rule="Basic Moves", page=16)
    points, _heading, through = check_move(rules, state, ship, command.legs, command.turns)
    eligible = screening_waves(rules, state, ship)
    if len(set(command.screen)) != len(command.screen) or not set(command.screen) <= set(eligible):
        raise RuleError("only fighters in base contact may move with a friendly ship", rule="Fighter Rules",
                        page=29)
    leg_headings = [ship.heading]
    for turn in command.turns:
        leg_headings.append((leg_headings[-1] + turn) % geometry.FULL_TURN)
    travel(rules, out, dice, ship, points, leg_headings, through)
    moved = out.state.ships[ship.id]
    dx, dy = moved.x - ship.x, moved.y - ship.y
    for marker_id in command.screen:
        marker = out.state.ordnance.get(marker_id)
        if marker is not None and moved.status == ACTIVE:
            out.emit(ev.FightersScreened(marker=marker_id, ship=ship.id, x=marker.x + dx, y=marker.y + dy,
                                         turn=out.state.player_turn))


def screening_waves(rules: BattlefleetGothicRules, state: GameState, ship: ShipState) -> list[str]:
    """Friendly waves of fighters only, in base contact, that may move with the ship (p.29)."""
    craft = round(rules.data.ordnance["craft_marker_radius_cm"].value * CM)
    reach = sh.base_radius(rules, rules.ship_class(ship)) + craft
    return sorted(m.id for m in state.ordnance.values()
                  if m.side == ship.side and m.kind == "attack craft" and m.fighters and not m.bombers
                  and not m.assault_boats
                  and geometry.within(ship.position, m.position, reach))


def travel(rules, out, dice, ship: ShipState, points: list[tuple[int, int]], leg_headings: list[int],
           through: bool) -> None:
    """Move along the path, stopping for ordnance contacts (p.27) and at the table edge."""
    from . import attack_craft, damage, ordnance

    heading = leg_headings[-1]
    total = sum(geometry.distance(a, b) for a, b in itertools.pairwise(points))
    width, height = out.state.table
    # The table edge: the first leg end outside the table is where the stem left (the table is convex).
    for index, point in enumerate(points):
        if not (0 <= point[0] <= width and 0 <= point[1] <= height):
            out.emit(ev.ShipMoved(ship=ship.id, path=tuple(points[: index + 1]), x=point[0], y=point[1],
                                  heading=heading, distance=total, through_blast_markers=through))
            out.emit(ev.ShipLeftTable(ship=ship.id))
            return
    previous, next_index, travelled = points[0], 1, 0
    for at, marker_id, leg_index, where in ordnance.contacts_along(rules, out.state, ship, points):
        if out.state.ships[ship.id].status != ACTIVE or marker_id not in out.state.ordnance:
            continue
        segment = (previous, *points[next_index:leg_index], where)
        out.emit(ev.ShipMoved(ship=ship.id, path=segment, x=where[0], y=where[1],
                              heading=leg_headings[leg_index - 1], distance=at - travelled,
                              through_blast_markers=through, complete=False))
        previous, next_index, travelled = where, leg_index, at
        if out.state.ordnance[marker_id].kind == "torpedoes":
            ordnance.attack(rules, out, dice, marker_id, ship.id, reaction=False)
        else:
            attack_craft.attack(rules, out, dice, marker_id, ship.id)
        if out.state.ships[ship.id].status != ACTIVE:
            return
    out.emit(ev.ShipMoved(ship=ship.id, path=(previous, *points[next_index:]), x=points[-1][0], y=points[-1][1],
                          heading=heading, distance=total - travelled, through_blast_markers=through))
    if through and sh.shields(rules, rules.ship_class(ship), out.state.ships[ship.id]) == 0:
        from .shooting import offer_reaction

        if damage.brace_window(rules, out.state, out.state.ships[ship.id]) and offer_reaction(
                rules, out, ship.id, BLAST_MARKERS, BLAST_MARKERS):
            return  # Brace for Impact first (p.23); the roll follows the reaction (reactions.py)
        blast_marker_damage(rules, out, dice, ship.id)


BLAST_MARKERS = "blast markers"


def blast_marker_damage(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, ship_id: str) -> None:
    """A shieldless ship that moved through Blast markers suffers a point of damage on a 6, once per move
    (p.25); Brace for Impact saves it on a 4+ (p.23)."""
    from . import damage

    ship = out.state.ships[ship_id]
    roll = dice.d6(purpose="shieldless ship through blast markers", roller=ship.side, target=6)
    out.emit(roll)
    if roll.faces[0] != 6:
        return
    if not damage.brace_saves(out, dice, ship, 1):  # p.23: a braced ship saves "each hit it suffers" on a 4+
        return
    damage.damage_points(rules, out, dice, ship_id, 1, "blast markers")


def drift_hulks(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup) -> None:
    """Hulks of the player whose turn it is drift 4D6 cm forward; a Blast marker after each move; a blazing
    hulk rolls on the Catastrophic Damage table again (p.26)."""
    from . import damage

    for ship_id in sorted(out.state.ships):
        if out.state.pending is not None:
            return  # a Brace window for a blazing hulk's explosion: the rest drift after it (turn.advance)
        ship = out.state.ships[ship_id]
        if not ship.hulk or ship.side != out.state.active or ship_id in out.state.paths:
            continue
        roll = dice.roll(4, purpose="hulk drift", roller=ship.side)
        out.emit(roll)
        distance = roll.total * CM
        dx, dy = geometry.forward(ship.heading, distance)
        x, y = ship.x + dx, ship.y + dy
        out.emit(ev.HulkDrifted(ship=ship_id, x=x, y=y, distance=distance))
        width, height = out.state.table
        if not (0 <= x <= width and 0 <= y <= height):
            out.emit(ev.ShipDestroyed(ship=ship_id, reason="drifted off the table"))
            continue
        damage.place_blast_markers(rules, out, out.state.ships[ship_id], 1, towards=ship.heading + 18000,
                                   reason="hulk drift")
        if ship.status == BLAZING_HULK:
            damage.catastrophic(rules, out, dice, ship_id)


HANDLERS = {MoveShip: move_ship}


def grid(rules: BattlefleetGothicRules, state: GameState, ship: ShipState) -> list[MoveShip]:
    """The documented grid of moves (module docstring); every command in it is legal."""
    return list(grid_commands(rules, state, ship))


def grid_commands(rules: BattlefleetGothicRules, state: GameState, ship: ShipState) -> CommandProduct:
    """:func:`grid` as a lazy sequence: each move of the path grid (once per fighter screen), the command made
    only when it is read (a random bot reads one)."""
    player = ship.side
    screens = [()]
    eligible = tuple(screening_waves(rules, state, ship))
    if eligible:
        screens.append(eligible)  # with every fighter wave in contact, or none
    shapes = _path_shapes(rules, state, ship)
    ship_id = ship.id

    def build(shape: tuple, screen: tuple) -> MoveShip:
        return MoveShip(player=player, ship=ship_id, legs=shape[0], turns=shape[1], screen=screen)

    return CommandProduct(build, (shapes, screens))


_encode = msgspec.msgpack.Encoder().encode
_SHAPES_KEPT = 1024


def _path_shapes(rules: BattlefleetGothicRules, state: GameState, ship: ShipState) -> list[tuple]:
    """The (legs, turns) of every path in the grid, shortest first within each turn. They depend on the ship and
    the Blast markers only, so they are remembered by those (the other ships' grids are asked for again after each
    ship moves, with nothing of theirs changed)."""
    key = _encode((ship, state.blast_markers))
    known = rules.__dict__.setdefault("_path_shapes", {})
    shapes = known.get(key)
    if shapes is None:
        limit = limits(rules, ship)
        angles = [a * DEGREE for a in range(15, limit.turn_limit // DEGREE + 1, 15)]
        angles = [-a for a in reversed(angles)] + angles
        plans: list[tuple[str, int]] = [("straight", 0)]
        if limit.turns >= 1:
            plans += [("earliest", a) for a in angles] + [("end", a) for a in angles]
        shapes = [shape for kind, angle in plans for shape in _distances(rules, state, ship, limit, kind, angle)]
        if len(known) >= _SHAPES_KEPT:
            known.clear()
        known[key] = shapes
    return shapes


def _shape(limit: MoveLimits, kind: str, angle: int, total: int):
    if kind == "straight":
        return (total,), ()
    first = 0 if limit.turn_first else limit.spacing
    if kind == "end":
        if total < first or (total == 0 and not limit.turn_first):
            return None, None
        return (total, 0), (angle,)
    if total < first:
        return None, None
    if limit.turns == 2 and total - first >= limit.spacing:
        return (first, limit.spacing, total - first - limit.spacing), (angle, angle)
    return (first, total - first), (angle,)


def _distances(rules, state, ship, limit: MoveLimits, kind: str, angle: int) -> list[tuple]:
    """The (legs, turns) of each legal length of the path ``kind`` turning by ``angle``, shortest first."""
    legs, turns = _shape(limit, kind, angle, limit.full)
    if legs is None:
        return []
    points, _ = path_points(ship, legs, turns)
    contact = first_blast_contact(rules, state, ship, points) if limit.full else None
    maximum = allowance(rules, limit, contact)
    minimum = min(limit.minimum, maximum)
    if limit.exact:
        candidates = [maximum]
    else:
        candidates = list(range(-(-minimum // CM) * CM, maximum + 1, CM))
        if maximum not in candidates:
            candidates.append(maximum)
        if minimum not in candidates:
            candidates.insert(0, minimum)
    legal = []
    free = allowance(rules, limit, None)  # the allowance met at or before ``total`` is one of these two
    slowed = free if contact is None else allowance(rules, limit, contact)
    for total in candidates:  # the same arithmetic as check_move, on prefixes of the one path
        allowed = slowed if contact is not None and contact <= total else free
        if contact is not None and contact <= total < contact + CM:
            allowed = _allowance_at_edge(rules, state, ship, limit, kind, angle, total)
        if total > allowed or total < min(limit.minimum, allowed) or (limit.exact and total != allowed):
            continue
        shape = _shape(limit, kind, angle, total)
        if shape[0] is not None:
            legal.append(shape)
    return legal


def _allowance_at_edge(rules, state, ship, limit: MoveLimits, kind: str, angle: int, total: int) -> int:
    """The allowance of a move of ``total`` ending within a centimetre past where the whole path first touches a
    Blast marker, as :func:`check_move` finds it on the move's own shorter path: its end point is rounded to the
    table's units, so its base may stop a unit short of the contact the longer path met (found in a playout:
    a 3.33 cm move offered as slowed by a marker, refused as short of the 5 cm minimum, p.16)."""
    legs, turns = _shape(limit, kind, angle, total)
    if legs is None:
        return allowance(rules, limit, None)
    return allowance(rules, limit, _move_contact(rules, state, ship, legs, turns, limit.full)[2])


def legal_commands(rules: BattlefleetGothicRules, state: GameState, player: str) -> list:
    if state.phase != MOVEMENT or state.active != player or state.pending is not None:
        return []
    return chain_commands([grid_commands(rules, state, ship) for ship in state.fleet(player)
                           if ship.status == ACTIVE and not ship.moved])
