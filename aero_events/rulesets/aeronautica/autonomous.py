"""Autonomous Weapons (rulebook p.25): self-propelled guided missiles or bombs.

* **Firing** (Firing phase only): the weapon is placed in a hex immediately adjacent to the firer, in
  one of its listed Fire Arcs, facing a way its player chooses; at most two per firer per Firing
  phase; no target needed. It then moves up to six hexes in a straight line directly away from the
  firer.
* **Moving**: from the next turn on, at the end of each Movement phase, after all aircraft have moved,
  D3+3 hexes in the same direction, turning once to the left or right at most. Leaving the Area of
  Engagement removes it.
* **Hitting**: at the end of any Firing phase, adjacent to any other aircraft: a D6, 2+ hits (ignoring
  Altitude), one Damage dice with the weapon's Damage, and the weapon is removed; a 1 misses and it
  flies on.

Commands: ``LaunchAutonomous`` places one weapon as part of its aircraft's firing (or ``FireWeapons``
carries the placements in its shots); ``SteerAutonomous`` flies it its D3+3 hexes.

Choices where the text is silent (its diagrams RW25.1 and RW25.2 are lost):

* The facing on placement is one of the three hexsides pointing away from the firer (the one straight
  out from it and the two either side), so that every hex of the straight line is further from the
  firer ("directly away"). The player chooses how far (0-6 hexes) it first moves.
* The D3+3 move happens when the Firing phase opens (the Movement phase is over, nothing else happens
  in between), weapon by weapon in launch order; the D3 is rolled first, then the owner steers it:
  straight on, or one 60-degree turn left or right after any number of hexes (0 to all of them).
* "Any Firing phase" is the Firing phase of each turn (not the Tailing Fire phase, which is not
  called a Firing phase, p.13). "Adjacent" includes the weapon's own hex. "Any other aircraft" is any
  aircraft (p.8: Ground Defences included) other than the weapon itself (p.25 calls it an "Autonomous
  aircraft"), friend or foe, the aircraft that fired it included (``RuleOptions(autonomous_hits_firer=False)``
  spares the firer); the weapon attacks one: an enemy before a friend, then the lowest id.
* A hit turned into a miss by Flares or Chaff / Belching Smoke (the weapon's Ammo is 1-3) leaves the
  weapon flying, as a miss does. Armour rolls apply when it is an enemy's weapon.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from aero_events.core import Command, DiceCup, RuleError

from .commands import SteerAutonomous
from .events import (
    AutonomousAttacked,
    AutonomousDistanceRolled,
    AutonomousLaunched,
    AutonomousMoved,
    AutonomousRemoved,
    DamageRolled,
    Shot,
)
from .state import FIRING, AircraftState, AutonomousWeapon, GameState
from .upgrades import decoy
from .weapons import ALL_ROUND, OVERHEAD, arc_keys, damage_losses, distance, hex_arcs, inflict, success

if TYPE_CHECKING:
    from .profiles import WeaponProfile
    from .ruleset import AeronauticaRules
    from .turn import Emitter

#: At most two Autonomous weapons per firer in one Firing phase (p.25).
MAX_PER_PHASE = 2
#: The first move: up to six hexes (p.25).
FIRST_MOVE = 6
#: D3+3 hexes each later turn (p.25).
LATER_MOVE_BONUS = 3
#: Hits on 2+ (p.25).
HIT_ROLL = 2


def placements(rules: AeronauticaRules, state: GameState, firer: AircraftState, weapon: WeaponProfile,
               index: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """Each hex an Autonomous weapon may be placed in (adjacent, in one of its Fire Arcs, on the Area of
    Engagement) with the facings allowed there."""
    keys = arc_keys(weapon, index) - {OVERHEAD}
    board = rules.board(state)
    found = {}
    for direction in range(6):
        hex = firer.hex.neighbour(direction)
        if not board.contains(hex):
            continue
        if keys == ALL_ROUND - {OVERHEAD} or keys & hex_arcs(firer, hex):
            found[hex] = ((direction - 1) % 6, direction, (direction + 1) % 6)
    return found


def check_launch(rules: AeronauticaRules, state: GameState, firer: AircraftState, weapon: WeaponProfile,
                 shot: Shot) -> None:
    """Refuse a placement p.25 does not allow."""
    if shot.target is not None:
        raise RuleError("an Autonomous weapon is placed, not aimed: firing it does not require a target",
                        rule="Autonomous Weapons", page=25)
    if shot.hex is None or shot.facing is None or shot.hexes is None:
        raise RuleError("an Autonomous weapon needs a hex, a facing and how far it first moves",
                        rule="Autonomous Weapons", page=25)
    allowed = placements(rules, state, firer, weapon, shot.weapon_index)
    facings = allowed.get(tuple(shot.hex))
    if facings is None:
        raise RuleError(f"{weapon.name} is placed in a hex adjacent to {firer.id} within its Fire Arc "
                        f"({', '.join(weapon.fire_arc.arcs)})", rule="Autonomous Weapons", page=25)
    if shot.facing not in facings:
        raise RuleError(f"facing {shot.facing} does not point away from {firer.id}", rule="Autonomous Weapons",
                        page=25)
    if not 0 <= shot.hexes <= FIRST_MOVE:
        raise RuleError(f"an Autonomous weapon first moves up to {FIRST_MOVE} hexes, not {shot.hexes}",
                        rule="Autonomous Weapons", page=25)


def launch_options(rules: AeronauticaRules, state: GameState, firer: AircraftState, weapon: WeaponProfile,
                   index: int) -> list[Shot]:
    """Every placement, facing and first move that stays on the Area of Engagement."""
    board = rules.board(state)
    options = []
    for hex, facings in sorted(placements(rules, state, firer, weapon, index).items()):
        for facing in facings:
            here = hex
            for hexes in range(FIRST_MOVE + 1):
                if hexes:
                    here = here.neighbour(facing)
                    if not board.contains(here):
                        break  # leaving the board only wastes the weapon: not offered
                options.append(Shot(weapon_index=index, hex=hex, facing=facing, hexes=hexes))
    return options


def launch(rules: AeronauticaRules, out: Emitter, firer: AircraftState, weapon: WeaponProfile, shot: Shot) -> None:
    """Place the weapon and fly its first move (p.25)."""
    weapon_id = f"{firer.id}/auto-{out.state.autonomous_launched + 1}"
    out.emit(AutonomousLaunched(weapon_id=weapon_id, owner=firer.owner, firer=firer.id, weapon=weapon.id,
                                weapon_index=shot.weapon_index, hex=shot.hex, facing=shot.facing))
    fly(rules, out, weapon_id, shot.hexes or 0, 0, 0)


def fly(rules: AeronauticaRules, out: Emitter, weapon_id: str, hexes: int, turn_at: int, turn: int) -> None:
    """Move straight on, turning once after ``turn_at`` hexes; off the board it is removed (p.25)."""
    weapon = out.state.autonomous[weapon_id]
    board = rules.board(out.state)
    hex, facing, path = weapon.hex, weapon.facing, []
    for step in range(hexes):
        if turn and step == turn_at:
            facing = (facing + turn) % 6
        hex = hex.neighbour(facing)
        path.append(hex)
        if not board.contains(hex):
            out.emit(AutonomousMoved(weapon_id=weapon_id, path=tuple(path), hex=hex, facing=facing,
                                     turn_at=turn_at, turn=turn))
            out.emit(AutonomousRemoved(weapon_id=weapon_id, reason="left the Area of Engagement"))
            return
    if turn and turn_at == hexes:
        facing = (facing + turn) % 6
    out.emit(AutonomousMoved(weapon_id=weapon_id, path=tuple(path), hex=hex, facing=facing, turn_at=turn_at,
                             turn=turn))


def move_weapons(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> bool:
    """Roll the D3+3 of the next weapon to move; True when none is left to move or steer (p.25)."""
    state = out.state
    for weapon in state.autonomous.values():
        if weapon.pending_hexes is not None:
            return False
        if weapon.launched_turn < state.turn and weapon.moved_turn < state.turn:
            roll = dice.d3(purpose=f"Autonomous weapon {weapon.id} travels D3+3", roller=weapon.owner)
            out.emit(roll)
            out.emit(AutonomousDistanceRolled(weapon_id=weapon.id, hexes=roll.values[0] + LATER_MOVE_BONUS))
            return False
    return True


def steer(rules: AeronauticaRules, out: Emitter, command: SteerAutonomous, dice: DiceCup) -> None:
    """The owner flies the weapon its D3+3 hexes, turning once at most (p.25)."""
    weapon = out.state.autonomous.get(command.weapon)
    if weapon is None or weapon.owner != command.player:
        raise RuleError(f"{command.player} has no Autonomous weapon {command.weapon!r}",
                        rule="Autonomous Weapons", page=25)
    if weapon.pending_hexes is None:
        raise RuleError(f"{weapon.id} moves at the end of the Movement phase, after its D3+3 is rolled",
                        rule="Autonomous Weapons", page=25)
    hexes = weapon.pending_hexes
    if command.turn not in (-1, 0, 1):
        raise RuleError("an Autonomous weapon may turn once to the left (-1) or right (+1)",
                        rule="Autonomous Weapons", page=25)
    if not 0 <= command.turn_at <= hexes or (command.turn == 0 and command.turn_at != 0):
        raise RuleError(f"the turn comes after 0 to {hexes} hexes (turn_at 0 when flying straight)",
                        rule="Autonomous Weapons", page=25)
    fly(rules, out, weapon.id, hexes, command.turn_at, command.turn)


def steer_commands(state: GameState, player: str) -> list[Command]:
    for weapon in state.autonomous.values():
        if weapon.pending_hexes is not None:
            if weapon.owner != player:
                return []
            hexes = weapon.pending_hexes
            options: list[Command] = [SteerAutonomous(player=player, weapon=weapon.id)]
            options += [SteerAutonomous(player=player, weapon=weapon.id, turn_at=at, turn=turn)
                        for turn in (-1, 1) for at in range(hexes + 1)]
            return options
    return []


def awaiting_steer(state: GameState) -> bool:
    return any(w.pending_hexes is not None for w in state.autonomous.values())


def attacks(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> None:
    """End of the Firing phase (p.25): each weapon adjacent to an aircraft rolls to hit it (2+)."""
    if out.state.phase != FIRING:
        return
    for weapon_id in list(out.state.autonomous):
        weapon = out.state.autonomous.get(weapon_id)
        if weapon is None:
            continue
        # "adjacent to any other aircraft" (p.25): other than the weapon, so its firer too, unless
        # RuleOptions(autonomous_hits_firer=False) spares it.
        spared = None if rules.options.autonomous_hits_firer else weapon.firer
        victims = [a for a in out.state.aircraft.values()
                   if a.in_play and a.id != spared and distance(a.hex, weapon.hex) <= 1]
        if not victims:
            continue
        victim = min(victims, key=lambda a: (a.owner == weapon.owner, a.id))
        roll = dice.d6(purpose=f"Autonomous weapon {weapon.id} at {victim.id}", roller=weapon.owner,
                       target=HIT_ROLL)
        out.emit(roll)
        hit = success(roll.faces[0], HIT_ROLL)
        out.emit(AutonomousAttacked(weapon_id=weapon.id, target=victim.id, hit=hit))
        if not hit:
            continue
        profile = rules.catalogue.weapons[weapon.weapon]
        if decoy(out, dice, out.state.aircraft[victim.id], profile, 1, weapon.firer, weapon.weapon_index):
            continue
        damage = dice.roll(1, purpose=f"damage: {profile.name} at {victim.id}", roller=weapon.owner,
                           target=profile.damage)
        out.emit(damage)
        losses = damage_losses(damage.faces, profile)
        out.emit(DamageRolled(aircraft=weapon.firer, weapon_index=weapon.weapon_index, weapon=profile.id,
                              target=victim.id, damaging=sum(1 for x in losses if x), structure=sum(losses),
                              kind="autonomous"))
        inflict(out, dice, victim.id, losses, by=weapon.owner, cause=f"hit by {profile.name}")
        out.emit(AutonomousRemoved(weapon_id=weapon.id, reason="hit"))


# ---------------------------------------------------------------- reducers


def evolve_launched(state: GameState, event: AutonomousLaunched) -> GameState:
    weapon = AutonomousWeapon(id=event.weapon_id, owner=event.owner, firer=event.firer, weapon=event.weapon,
                              weapon_index=event.weapon_index, hex=event.hex, facing=event.facing,
                              launched_turn=state.turn, moved_turn=state.turn)
    return msgspec.structs.replace(state, autonomous={**state.autonomous, weapon.id: weapon},
                                   autonomous_launched=state.autonomous_launched + 1)


def evolve_distance(state: GameState, event: AutonomousDistanceRolled) -> GameState:
    weapon = msgspec.structs.replace(state.autonomous[event.weapon_id], pending_hexes=event.hexes)
    return msgspec.structs.replace(state, autonomous={**state.autonomous, weapon.id: weapon})


def evolve_moved(state: GameState, event: AutonomousMoved) -> GameState:
    weapon = msgspec.structs.replace(state.autonomous[event.weapon_id], hex=event.hex, facing=event.facing,
                                     moved_turn=state.turn, pending_hexes=None)
    return msgspec.structs.replace(state, autonomous={**state.autonomous, weapon.id: weapon})


def evolve_removed(state: GameState, event: AutonomousRemoved) -> GameState:
    remaining = {key: w for key, w in state.autonomous.items() if key != event.weapon_id}
    return msgspec.structs.replace(state, autonomous=remaining)


def evolve_attacked(state: GameState, event: AutonomousAttacked) -> GameState:
    return state
