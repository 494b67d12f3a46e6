"""The ordnance phase (p.27-30): launching and reloading, moving ordnance, torpedoes, premature detonation,
turrets, ordnance and Blast markers.

Both players' ordnance moves in every ordnance phase, the player whose turn it is first (p.27). Torpedoes
move straight ahead their full speed every ordnance phase until they detonate or leave the table (p.28).
A salvo that touches a ship's base (friend or foe) attacks it: the target's turrets fire first (a D6 per
turret, 4+ removes one torpedo; +1 turret per friendly ship in base contact, p.29), then a D6 per remaining
Strength, each equal to or beating the Armour scores a damage point, shields ignored (p.28); the salvo loses
a point of Strength per hit and moves on. A salvo moving through Blast markers is removed on a 6, rolled once
per move (p.28); one that hits another torpedo salvo, or a hulk, detonates (p.26, p.28).

Choices, documented:

* A salvo is a segment 2.5 cm wide across its heading (data page §4); another salvo it may meet counts as a
  circle of that width. It never attacks the ship that launched it, nor a ship it has already attacked.
* The Armour used is that of the quadrant the salvo touches from (its position at contact).
* Launched salvoes start on the stem heading anywhere inside the weapon's arc (the 90-degree quadrant).
  Strength is halved (rounding up) when braced (p.23) and when crippled (p.23); other orders do not (p.21).
* The target's owner decides in a reaction window before the dice: Brace for Impact (p.23) and whether the
  turrets fire at this salvo, which commits them against torpedoes for the phase (p.29).
* Attack craft are in ``attack_craft.py``.
* Boarding torpedoes (p.28; the kind "boarding" of ``ordnance.json`` ``torpedo_kinds``): at the start of
  every ordnance phase after the one of their launch turn, before any ordnance moves, their player turns each
  salvo by up to 45 degrees (``SteerTorpedoes``, the phasing player's salvoes first) and elects whether it
  ignores hulks; they pass friendly ships and attack the first enemy ship they touch: its turrets fire as
  against any salvo (p.29), then each torpedo left makes a hit-and-run raid (``hit_and_run.py``) and the salvo
  is spent. The raid is not in the text: boarding torpedoes are launched only under
  ``RuleOptions(hit_and_run=True)``. Any ship with torpedo tubes may load them (the fleet lists that restrict
  them are not in the text).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError

from . import damage, geometry
from . import events as ev
from . import ships as sh
from .commands import LaunchTorpedoes, SteerTorpedoes
from .data import CM
from .shooting import can_brace
from .state import ACTIVE, BRACE_FOR_IMPACT, ORDNANCE, SHOOTING, GameState, OrdnanceMarker, ShipState

if TYPE_CHECKING:
    from .ruleset import BattlefleetGothicRules
    from .turn import Emitter

ARC_CENTRES = {"front": 0, "right": 9000, "rear": 18000, "left": 27000}


def torpedo_weapon(cls):
    return next((w for w in cls.weapons if w.kind == "torpedoes"), None)


def salvo_strength(cls, ship: ShipState, weapon) -> int:
    strength = weapon.value
    if ship.order == BRACE_FOR_IMPACT:
        strength = sh.half(strength)
    if sh.crippled(cls, ship):
        strength = sh.half(strength)
    return strength


def can_launch(rules: BattlefleetGothicRules, ship: ShipState) -> bool:
    cls = rules.ship_class(ship)
    weapon = torpedo_weapon(cls)
    return (weapon is not None and ship.status == ACTIVE and ship.ordnance_loaded
            and not sh.weapon_offline(ship, weapon))


def launch_torpedoes(rules: BattlefleetGothicRules, out: Emitter, command: LaunchTorpedoes, dice: DiceCup) -> None:
    """Launching Ordnance (p.27): the marker goes on the base; it moves in the ordnance phase."""
    state = out.state
    if state.phase != SHOOTING or state.active != command.player or state.pending is not None:
        raise RuleError("ordnance is launched in the shooting phase", rule="Launching Ordnance", page=27)
    ship = rules.own_ship(state, command.player, command.ship)
    cls = rules.ship_class(ship)
    try:
        weapon = cls.weapon(command.weapon)
    except KeyError:
        raise RuleError(f"{ship.name} has no weapon {command.weapon!r}", rule="Armament", page=4) from None
    if weapon.kind != "torpedoes":
        raise RuleError(f"{command.weapon} does not launch torpedoes", rule="Torpedo Rules", page=28)
    if not ship.ordnance_loaded:
        raise RuleError(f"{ship.name} must Reload Ordnance first", rule="Reload Ordnance", page=27)
    if ship.status != ACTIVE or sh.weapon_offline(ship, weapon):
        raise RuleError(f"{ship.name} cannot launch now", rule="Critical Hits", page=24)
    relative = (command.heading - ship.heading) % geometry.FULL_TURN
    if not any(_angle_within(relative, ARC_CENTRES[arc], 4500) for arc in weapon.arcs):
        raise RuleError("the salvo heads out inside the weapon's fire arc", rule="Torpedo Rules", page=28)
    kind = torpedo_kind(rules, command.kind)
    if kind["hit_and_run"] and not rules.options.hit_and_run:
        raise RuleError(f"{command.kind} torpedoes make hit-and-run raids, which are in the Advanced Rules the "
                        "text lacks (option hit_and_run)", rule="Boarding Torpedoes", page=28)
    if command.ignore_hulks and not kind["may_ignore_hulks"]:
        raise RuleError("only boarding torpedoes may ignore hulks", rule="Boarding Torpedoes", page=28)
    marker = f"torpedoes-{state.next_id}"
    out.emit(ev.OrdnanceLaunched(marker=marker, side=ship.side, kind="torpedoes", launcher=ship.id, x=ship.x,
                                 y=ship.y, heading=command.heading % geometry.FULL_TURN,
                                 strength=salvo_strength(cls, ship, weapon), speed=weapon.range_cm * CM,
                                 turn=state.player_turn, torpedo_kind=command.kind,
                                 ignore_hulks=command.ignore_hulks))


def torpedo_kind(rules: BattlefleetGothicRules, name: str) -> dict:
    """A torpedo kind of ``ordnance.json`` (standard, boarding: p.28)."""
    kinds = rules.data.ordnance["torpedo_kinds"].value
    if name not in kinds:
        raise RuleError(f"there are no {name!r} torpedoes (kinds: {', '.join(sorted(kinds))})",
                        rule="Torpedo Rules", page=28)
    return kinds[name]


def to_steer(rules: BattlefleetGothicRules, state: GameState) -> OrdnanceMarker | None:
    """The next salvo whose player must decide its turn at the start of this ordnance phase (p.28): one that
    may steer, was not launched this turn, and has not moved or decided yet this phase."""
    if state.phase != ORDNANCE or state.pending is not None:
        return None
    for marker in sorted(state.ordnance.values(), key=lambda m: (m.side != state.active, m.id)):
        if (marker.kind == "torpedoes" and not marker.steered and marker.travelled == 0 and not marker.done
                and marker.launched_turn != state.player_turn
                and torpedo_kind(rules, marker.torpedo_kind)["steer_degrees"]):
            return marker
    return None


def steer(rules: BattlefleetGothicRules, out: Emitter, command: SteerTorpedoes, dice: DiceCup) -> None:
    """Boarding torpedoes "can turn up to 45 degrees at the start of the ordnance phase. They cannot turn 45
    degrees in the same turn they are launched. They may elect to ignore hulks" (p.28)."""
    marker = to_steer(rules, out.state)
    if marker is None or marker.id != command.marker or marker.side != command.player:
        raise RuleError("that salvo does not turn now: boarding torpedoes turn at the start of the ordnance "
                        "phase, not in their launch turn", rule="Boarding Torpedoes", page=28)
    limit = torpedo_kind(rules, marker.torpedo_kind)["steer_degrees"] * 100
    if abs(command.turn) > limit:
        raise RuleError(f"boarding torpedoes turn up to {limit // 100} degrees", rule="Boarding Torpedoes", page=28)
    out.emit(ev.TorpedoesSteered(marker=marker.id, heading=(marker.heading + command.turn) % geometry.FULL_TURN,
                                 ignore_hulks=command.ignore_hulks))


def _angle_within(angle: int, centre: int, half_width: int) -> bool:
    difference = (angle - centre + 18000) % geometry.FULL_TURN - 18000
    return abs(difference) <= half_width


HANDLERS = {LaunchTorpedoes: launch_torpedoes, SteerTorpedoes: steer}


def legal_commands(rules: BattlefleetGothicRules, state: GameState, player: str) -> list:
    """Launch headings offered: the weapon's arc centre and 15 and 30 degrees either side (a grid), of each
    torpedo kind in play (boarding only under the ``hit_and_run`` option, ignoring hulks). Steering: -45 to
    +45 degrees by 15, ignoring hulks (an election that only loses a salvo is not offered)."""
    salvo = to_steer(rules, state)
    if salvo is not None:
        if salvo.side != player:
            return []
        limit = torpedo_kind(rules, salvo.torpedo_kind)["steer_degrees"] * 100
        return [SteerTorpedoes(player=player, marker=salvo.id, turn=turn, ignore_hulks=True)
                for turn in range(-limit, limit + 1, 1500)]
    if state.phase != SHOOTING or state.active != player or state.pending is not None or state.shooting_done:
        return []
    kinds = [name for name, kind in sorted(rules.data.ordnance["torpedo_kinds"].value.items())
             if rules.options.hit_and_run or not kind["hit_and_run"]]
    commands = []
    for ship in sorted(state.fleet(player), key=lambda s: s.id):
        if not can_launch(rules, ship):
            continue
        weapon = torpedo_weapon(rules.ship_class(ship))
        for arc in weapon.arcs:
            for offset in (-3000, -1500, 0, 1500, 3000):
                heading = (ship.heading + ARC_CENTRES[arc] + offset) % geometry.FULL_TURN
                for kind in kinds:
                    ignore = rules.data.ordnance["torpedo_kinds"].value[kind]["may_ignore_hulks"]
                    commands.append(LaunchTorpedoes(player=player, ship=ship.id, weapon=weapon.id, heading=heading,
                                                    kind=kind, ignore_hulks=ignore))
    return commands


# ---------------------------------------------------------------- contacts

def half_width(rules: BattlefleetGothicRules) -> int:
    return rules.data.length("torpedo_width_cm") // 2


def contacts_along(rules: BattlefleetGothicRules, state: GameState, ship: ShipState, points
                   ) -> list[tuple[int, str, int, tuple[int, int]]]:
    """Ordnance a moving base touches (p.6, p.27): torpedo salvoes (friend or foe, p.28; boarding torpedoes
    only the enemy's) and enemy waves with bombers or assault boats (fighters do nothing to ships, p.29); as
    (distance along the path, marker, leg index, point)."""
    radius = sh.base_radius(rules, rules.ship_class(ship))
    craft = round(rules.data.ordnance["craft_marker_radius_cm"].value * CM)
    found = []
    for marker in state.ordnance.values():
        if ship.id in marker.attacked:
            continue
        if marker.kind != "torpedoes" and (marker.side == ship.side or not (marker.bombers or marker.assault_boats)):
            continue
        if (marker.kind == "torpedoes" and marker.side == ship.side
                and not torpedo_kind(rules, marker.torpedo_kind)["attacks_friends"]):
            continue
        ends = geometry.segment_ends(marker.position, marker.heading, half_width(rules))
        travelled = 0
        for index, (a, b) in enumerate(itertools.pairwise(points), start=1):
            length = geometry.distance(a, b)
            if marker.kind == "torpedoes":
                at = geometry.first_contact_with_segment(a, b, radius, ends)
            else:
                at = geometry.first_contact_along(a, b, marker.position, radius + craft)
            if at is not None:
                found.append((travelled + at, marker.id, index, geometry.point_along(a, b, at)))
                break
            travelled += length
    return sorted(found)


# ---------------------------------------------------------------- the ordnance phase

def next_marker(state: GameState) -> OrdnanceMarker | None:
    """The phasing player's ordnance moves first (p.27)."""
    order = sorted(state.ordnance.values(), key=lambda m: (m.side != state.active, m.id))
    return next((m for m in order if not m.done), None)


def run_phase(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup) -> bool:
    """Move ordnance until the phase is over (True) or a reaction window opens (False)."""
    while True:
        if out.state.pending is not None or to_steer(rules, out.state) is not None:
            return False  # a reaction, or a boarding salvo's turn at the start of the phase (p.28)
        marker = next_marker(out.state)
        if marker is None:
            return True
        if marker.kind != "torpedoes":
            return False  # a wave of attack craft: its player moves it (attack_craft.py)
        step(rules, out, dice, marker)


def step(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, marker: OrdnanceMarker) -> None:
    """Move ``marker`` to its next event (a contact, a Blast marker, the table edge) or its full move."""
    state = out.state
    remaining = marker.speed - marker.travelled
    width = half_width(rules)
    events: list[tuple[int, int, str, str]] = []  # (distance, priority, kind, what)
    kind = torpedo_kind(rules, marker.torpedo_kind)
    for ship in state.ships.values():
        if not ship.on_table or ship.id in marker.attacked:
            continue
        if ship.side == marker.side and not kind["attacks_friends"] and not ship.hulk:
            continue  # boarding torpedoes attack enemy ships (p.28)
        if ship.hulk and marker.ignore_hulks:
            continue  # elected to ignore hulks (p.28)
        reach = sh.base_radius(rules, rules.ship_class(ship))
        at = geometry.swept_segment_contact(marker.position, marker.heading, remaining, width, ship.position, reach)
        if at is not None:
            events.append((at, 1, "hulk" if ship.hulk else "ship", ship.id))
    for other in state.ordnance.values():
        if other.id == marker.id or other.id in marker.attacked:
            continue
        if other.kind != "torpedoes" and (other.side == marker.side or not other.fighters):
            continue  # only enemy fighters stop a salvo (p.29); bombers let it pass
        at = geometry.swept_segment_contact(marker.position, marker.heading, remaining, width, other.position, width)
        if at is not None:
            events.append((at, 0, other.kind, other.id))
    if not marker.blast_checked:
        bm_radius = rules.data.length("blast_marker_radius_cm")
        hits = [geometry.swept_segment_contact(marker.position, marker.heading, remaining, width, m.position,
                                               bm_radius) for m in state.blast_markers.values()]
        hits = [h for h in hits if h is not None]
        if hits:
            events.append((min(hits), 2, "blast", ""))
    table_w, table_h = state.table
    dx, dy = geometry.forward(marker.heading, remaining)
    end = (marker.x + dx, marker.y + dy)
    if not (0 <= end[0] <= table_w and 0 <= end[1] <= table_h):
        events.append((_edge_distance(marker, remaining, state.table), 3, "edge", ""))
    events.sort()
    if not events:
        out.emit(ev.OrdnanceMoved(marker=marker.id, x=end[0], y=end[1], travelled=marker.speed, done=True,
                                  blast_checked=marker.blast_checked))
        return
    at, _, kind, what = events[0]
    dx, dy = geometry.forward(marker.heading, at)
    out.emit(ev.OrdnanceMoved(marker=marker.id, x=marker.x + dx, y=marker.y + dy, travelled=marker.travelled + at,
                              done=False, blast_checked=marker.blast_checked or kind == "blast"))
    if kind == "edge":
        out.emit(ev.OrdnanceRemoved(marker=marker.id, reason="left the table"))
    elif kind == "torpedoes":
        out.emit(ev.OrdnanceRemoved(marker=marker.id, reason="hit another torpedo salvo"))
        if what in out.state.ordnance:
            out.emit(ev.OrdnanceRemoved(marker=what, reason="hit by another torpedo salvo"))
    elif kind == "attack craft":
        from .attack_craft import lose

        out.emit(ev.OrdnanceRemoved(marker=marker.id, reason="intercepted by fighters"))
        lose(out, what, 1, 0, "fighters intercepted a torpedo salvo")
    elif kind == "hulk":
        out.emit(ev.OrdnanceRemoved(marker=marker.id, reason="struck a hulk"))
    elif kind == "blast":
        roll = dice.d6(purpose="ordnance through blast markers", roller=marker.side, target=6)
        out.emit(roll)
        if roll.faces[0] == 6:  # once per move (p.28): blast_checked is set by the move above
            out.emit(ev.OrdnanceRemoved(marker=marker.id, reason="destroyed in Blast markers"))
    else:
        target = out.state.ships[what]
        turrets = sh.turrets(rules.ship_class(target), target) > 0 and target.turrets_against in (None, "torpedoes")
        if not offer(rules, out, marker.id, what, turrets):
            attack(rules, out, dice, marker.id, what, reaction=False, fire_turrets=turrets)


def _edge_distance(marker: OrdnanceMarker, remaining: int, table: tuple[int, int]) -> int:
    low, high = 0, remaining
    while low < high:
        middle = (low + high + 1) // 2
        dx, dy = geometry.forward(marker.heading, middle)
        x, y = marker.x + dx, marker.y + dy
        if 0 <= x <= table[0] and 0 <= y <= table[1]:
            low = middle
        else:
            high = middle - 1
    return low + 1


def offer(rules: BattlefleetGothicRules, out: Emitter, marker_id: str, ship_id: str, turrets: bool,
          kind: str = "torpedoes") -> bool:
    """A reaction window for the ship about to be attacked (Brace p.23, turrets p.29)."""
    from .shooting import offer_reaction

    if not rules.options.brace_reactions and not turrets:
        return False
    ship = out.state.ships[ship_id]
    brace = can_brace(out.state, ship, marker_id)
    if not brace and not turrets:
        return False
    return offer_reaction(rules, out, ship_id, marker_id, kind, target=ship_id, turrets=turrets)


def attack(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, marker_id: str, ship_id: str,
           reaction: bool, fire_turrets: bool = True) -> None:
    """A torpedo attack (p.28) after the target's turrets (p.29)."""
    marker = out.state.ordnance.get(marker_id)
    ship = out.state.ships[ship_id]
    if marker is None or not ship.on_table:
        return
    cls = rules.ship_class(ship)
    strength = marker.strength
    turret_count = sh.turrets(cls, ship)
    if fire_turrets and turret_count and ship.turrets_against in (None, "torpedoes"):
        massed = sum(1 for other in out.state.ships.values()
                     if other.id != ship.id and other.side == ship.side and other.status == ACTIVE
                     and geometry.within(ship.position, other.position,
                                         sh.base_radius(rules, cls) + sh.base_radius(rules, rules.ship_class(other))))
        roll = dice.roll(turret_count + massed, purpose="turrets", roller=ship.side, target=4)
        out.emit(roll)
        hits = sum(1 for face in roll.faces if face >= 4)
        out.emit(ev.TurretsFired(ship=ship_id, marker=marker_id, turrets=turret_count + massed, hits=hits,
                                 against="torpedoes"))
        strength = max(0, strength - hits)
        if strength == 0:
            out.emit(ev.OrdnanceRemoved(marker=marker_id, reason="shot down by turrets"))
            return
    if torpedo_kind(rules, marker.torpedo_kind)["hit_and_run"]:
        from .hit_and_run import raid_rule, raids

        out.emit(ev.ShotRecorded(shooter=marker_id, target=ship_id, start=marker.position, end=ship.position,
                                 outcome="boarded"))
        out.emit(ev.OrdnanceRemoved(marker=marker_id, reason="boarded"))
        raids(rules, out, dice, marker_id, marker.side, ship_id, strength * raid_rule(rules)["raids_per_torpedo"])
        return
    needed = cls.armour_front if geometry.aspect_quadrant(ship.position, ship.heading, marker.position) == "front" \
        else cls.armour
    roll = dice.roll(strength, purpose="torpedo attack", roller=marker.side, target=needed)
    out.emit(roll)
    hits = sum(1 for face in roll.faces if face >= needed)
    out.emit(ev.TorpedoAttack(marker=marker_id, ship=ship_id, strength=strength, needed=needed, hits=hits))
    out.emit(ev.ShotRecorded(shooter=marker_id, target=ship_id, start=marker.position, end=ship.position,
                             outcome="hit" if hits else "miss"))
    left = strength - hits
    if left <= 0:
        out.emit(ev.OrdnanceRemoved(marker=marker_id, reason="spent"))
    else:
        out.emit(ev.SalvoWeakened(marker=marker_id, strength=left, attacked=(*marker.attacked, ship_id)))
    damage.resolve_hits(rules, out, dice, ship_id, hits, "torpedo", marker.position, marker_id)


def in_phase(state: GameState) -> bool:
    return state.phase == ORDNANCE
