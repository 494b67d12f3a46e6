"""What can be fired at, and the ground war (rulebook p.21, p.24-28).

* **Targets** (p.21, p.24, p.26): enemy aircraft in the air; and at Altitude 0 the *ground targets*:
  "any Ground Defence, landed aircraft, or any ground target as described by a scenario" (p.24).
  Landed aircraft "are vulnerable to Air-to-Ground fire as if they were Ground Defences" (p.19).
* **Directly Overhead** (p.21): an aircraft in the hex of a Ground Defence or ground target is within
  the ground unit's All Round Fire Arc, and the ground unit is within the aircraft's Rear Fire Arc.
* **Strafing Run** (p.26): from Altitude 1 only, 5+ to hit; **Bombing Run** (p.27): Ground Attack
  weapons, 5+ with +1 for one level of Altitude difference, -1 for three, -2 for four or more.
* **Bomb Creep** (p.27): after a Bombing Run scores hits, a D6 for every other Altitude 0 target in a
  hex adjacent to its target, friend or foe; 4+ hits it, and one Damage dice is rolled against it.
* **Ground-to-Air Fire** (p.28): 5+, -1 if the target has a Stall or Spin token, -1 per level the
  target is above the weapon's Effective Altitude.
* **Ground Defences** (p.8, p.28) are ``AircraftState`` entries with ``ground_defence`` set: static
  at Altitude 0, chosen to fire "as if it was another aircraft in their force" (p.28).

Choices where the text is silent:

* A scenario ground target whose ``owner`` is None may be fired at by either player; one with an
  owner only by that owner's opponent. Bomb Creep hits whatever is adjacent (p.27 "friendly or enemy").
* Bomb Creep rolls for targets in the six adjacent hexes only; another ground unit sharing the
  bombed target's hex is not "within a hex adjacent" and is not rolled for.
* A hit turned into a miss by Flares or Chaff / Belching Smoke is no "successful hit": no Bomb Creep.
* A Ground-to-Air weapon without an Effective Altitude counts as Effective Altitude 0 (so -1 per level
  above the ground, as Air-to-Air fire would count it from Altitude 0): ``RuleOptions.no_effective_altitude``
  "zero", the default; "unlimited" gives such a weapon no Altitude modifier at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import msgspec

from aero_events.core import Modifier

from .events import GroundTargetDamaged, GroundTargetDestroyed
from .state import FLYING, LANDED, AircraftState, GameState

if TYPE_CHECKING:
    from .turn import Emitter

# What a target is.
AIRCRAFT = "aircraft"  # in the air, Altitude 1+
LANDED_AIRCRAFT = "landed"  # p.19: a ground target
GROUND_DEFENCE = "ground_defence"  # p.8, p.28: a ground target
GROUND_TARGET = "ground_target"  # a scenario's objective (p.24, p.33)

#: Bomb Creep hits on 4+ (p.27).
BOMB_CREEP_ROLL = 4
#: A Strafing Run is made from Altitude 1 only (p.26).
STRAFING_ALTITUDE = 1


class Target(NamedTuple):
    """Anything a weapon may be fired at: its id, side (None: nobody's), hex and Altitude.

    ``evading``: a Stall or Spin token is on it (-1 to hit, p.22, p.28).
    """

    id: str
    owner: str | None
    hex: tuple[int, int]
    altitude: int
    kind: str
    evading: bool = False

    @property
    def on_ground(self) -> bool:
        """At Altitude 0: a ground target for Strafing and Bombing Runs (p.24, p.26)."""
        return self.altitude == 0


def aircraft_target(aircraft: AircraftState) -> Target:
    """An aircraft (or Ground Defence) as a target."""
    if aircraft.ground_defence:
        kind, altitude = GROUND_DEFENCE, 0
    elif aircraft.status == LANDED:
        kind, altitude = LANDED_AIRCRAFT, 0
    else:
        kind, altitude = AIRCRAFT, aircraft.altitude
    return Target(aircraft.id, aircraft.owner, aircraft.hex, altitude, kind,
                  aircraft.stalled or aircraft.spinning)


def ground_target_alive(state: GameState, target_id: str) -> bool:
    if target_id in state.ground_targets_destroyed:
        return False
    return any(t.id == target_id and t.structure > 0 for t in state.ground_targets)


#: id(aircraft state) -> (that state, its :func:`aircraft_target`): an aircraft unchanged from one game state
#: to the next is the same object, so its target is looked up, not built again. The state is kept with its
#: target, so its id cannot be reused while the entry stands.
_TARGET_OF: dict[int, tuple[AircraftState, Target]] = {}


def _target_of(aircraft: AircraftState) -> Target:
    entry = _TARGET_OF.get(id(aircraft))
    if entry is not None and entry[0] is aircraft:
        return entry[1]
    target = aircraft_target(aircraft)
    if len(_TARGET_OF) >= 1 << 14:
        _TARGET_OF.clear()
    _TARGET_OF[id(aircraft)] = (aircraft, target)
    return target


def all_targets(state: GameState) -> list[Target]:
    """Every target in play: aircraft flying or landed, Ground Defences, scenario ground targets."""
    found = []
    kept = _TARGET_OF.get
    for a in state.aircraft.values():
        if a.status != FLYING and a.status != LANDED:  # not AircraftState.in_play
            continue
        entry = kept(id(a))  # _target_of, its look-up written out
        found.append(entry[1] if entry is not None and entry[0] is a else _target_of(a))
    if state.ground_targets:
        destroyed = state.ground_targets_destroyed
        found.extend(Target(t.id, t.owner, t.hex, 0, GROUND_TARGET) for t in state.ground_targets
                     if t.structure > 0 and t.id not in destroyed)
    return found


def find_target(state: GameState, target_id: str) -> Target | None:
    """The target called ``target_id`` if it is in play."""
    aircraft = state.aircraft.get(target_id)
    if aircraft is not None:  # its aircraft_target, looked up while the aircraft is unchanged (_target_of)
        return _target_of(aircraft) if aircraft.in_play else None
    if ground_target_alive(state, target_id):
        target = next(t for t in state.ground_targets if t.id == target_id)
        return Target(target.id, target.owner, target.hex, 0, GROUND_TARGET)
    return None


def is_enemy(target: Target, player: str) -> bool:
    """Weapons target enemy aircraft (p.21); a nobody's ground target may be attacked by either side."""
    return target.owner != player


def directly_overhead_arcs(firer: AircraftState, target: Target) -> frozenset[str] | None:
    """Directly Overhead (p.21), for a target in the firer's own hex.

    An aircraft over a ground unit has it in its Rear Fire Arc; a Ground Defence has the aircraft over
    it in its All Round Fire Arc (``"overhead"``: reached only by All Round weapons). None: not
    in the same hex; an empty set: no arc reaches it (two units on the same level).
    """
    if firer.hex != target.hex:
        return None
    firer_on_ground = firer.ground_defence or firer.status == LANDED or firer.altitude == 0
    if target.on_ground and not firer_on_ground:
        return frozenset({"rear"})
    if firer_on_ground and not target.on_ground:
        return frozenset({"overhead"})
    return frozenset()


# ---------------------------------------------------------------- to-hit modifiers


def bombing_modifiers(firer_altitude: int, target_altitude: int = 0) -> tuple[Modifier, ...]:
    """Bombing Run (p.27): +1 for one level of Altitude difference, none for two, -1 for three, -2 for
    four or more."""
    difference = abs(firer_altitude - target_altitude)
    if difference == 1:
        return (Modifier("Bombing Run from one Altitude level above", 1),)
    if difference == 3:
        return (Modifier("Bombing Run from three Altitude levels above", -1),)
    if difference >= 4:
        return (Modifier(f"Bombing Run from {difference} Altitude levels above", -2),)
    return ()


def ground_to_air_modifiers(effective_altitude: int | None, target: Target) -> tuple[Modifier, ...]:
    """Ground-to-Air Fire (p.28): -1 for a Stall or Spin token, -1 per level the target is above the
    weapon's Effective Altitude. None: no Effective Altitude and no such modifier
    (``RuleOptions(no_effective_altitude="unlimited")``; by default a weapon without one is passed as 0, see
    the module notes)."""
    modifiers = []
    if target.evading:
        modifiers.append(Modifier("target has a Stall or Spin token", -1))
    above = 0 if effective_altitude is None else target.altitude - effective_altitude
    if above > 0:
        modifiers.append(Modifier(f"target {above} Altitude level(s) above the Effective Altitude", -above))
    return tuple(modifiers)


# ---------------------------------------------------------------- Bomb Creep and damage to ground targets


def bomb_creep_victims(state: GameState, target: Target) -> list[Target]:
    """Every other Altitude 0 target in a hex adjacent to a Bombing Run's target (p.27), friend or foe,
    in a fixed order (by id)."""
    tq, tr = target.hex
    victims = []
    for other in all_targets(state):
        if other.id == target.id or not other.on_ground:
            continue
        dq, dr = other.hex[0] - tq, other.hex[1] - tr
        if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 == 1:
            victims.append(other)
    return sorted(victims, key=lambda t: t.id)


def damage_ground_target(out: Emitter, target_id: str, structure_lost: int, by: str | None) -> None:
    """A scenario ground target loses Structure (p.26-27); at 0 it is destroyed (never below 0)."""
    target = next(t for t in out.state.ground_targets if t.id == target_id)
    structure = max(0, target.structure - structure_lost)
    out.emit(GroundTargetDamaged(target=target_id, hits=structure_lost, structure=structure))
    if structure == 0:
        out.emit(GroundTargetDestroyed(target=target_id, by=by))


# ---------------------------------------------------------------- reducers


def evolve_ground_target_damaged(state: GameState, event: GroundTargetDamaged) -> GameState:
    targets = tuple(msgspec.structs.replace(t, structure=event.structure) if t.id == event.target else t
                    for t in state.ground_targets)
    return msgspec.structs.replace(state, ground_targets=targets)


def evolve_ground_target_destroyed(state: GameState, event: GroundTargetDestroyed) -> GameState:
    """The same record the victory rules keep (target -> the player who destroyed it)."""
    return msgspec.structs.replace(state, ground_targets_destroyed={**state.ground_targets_destroyed,
                                                                    event.target: event.by})
