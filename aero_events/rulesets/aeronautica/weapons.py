"""Weapons in action (rulebook p.21-26): Fire Arcs, range, Firepower dice, to-hit arithmetic, Damage,
and the weapon special rules (p.24-25).

* **Fire Arcs** (p.21): Front, Rear, Left Side, Right Side; All Round fires into every arc. A hex cut by
  the line between two arcs is in both. Up: only targets at the firer's Altitude or above; Down: at
  its Altitude or below. Directly Overhead: see :func:`.ground.directly_overhead_arcs`.
* **Range** (p.22): counted in hexes, Short 1-4, Medium 5-7, Long 8-10; Firepower is S-M-L dice.
* **Roll to Hit** (p.22): Air-to-Air always 5+; -1 if the target has a Stall or Spin token; -1 per
  level of Altitude difference. **Dice** (p.7): "A dice roll can never be modified to 0 or lower, and
  any natural roll of a 1 is always a fail, regardless of modifiers."
* **Damage** (p.23): each hit is rolled again against the weapon's Damage; each success is one damaging
  hit, one Structure point; **Extra Damage (X+)** (p.24): a Damage dice of X or more takes 2.
* **Ground Attack** (p.24): only against ground targets (Altitude 0), in a Bombing Run.
  **Aerial Attack** (p.24): only targets at Altitude 1+, never a Strafing Run. **Ground-to-Air Fire**
  (p.25): only used at Altitude 0, only at aircraft at Altitude 1+. **Effective Altitude (X)** (p.25):
  see :func:`.ground.ground_to_air_modifiers`. **Tail Gunner** and **Autonomous Weapons**: see
  :mod:`.firing` and :mod:`.autonomous`.
* **Night Fighting and Bad Weather** (p.33): :func:`firepower_dice`.

Choices where the text is silent:

* A target in the firer's own hex that is not Directly Overhead (two units on one level) is in no arc.
  A Directly Overhead target is at Short range (0 hexes counts as the nearest band).
* Every Ground-to-Air weapon picks its own target (p.28: "Any weapon with the Ground-to-Air special
  rule can target a single enemy aircraft"): the one-target-per-arc rule of p.21 does not bind it.
* A Ground Defence's weapons without Ground-to-Air Fire, fired at an aircraft, follow the Ground-to-Air
  rules too (p.28: "Ground Defences firing at enemy aircraft with any of their weapons"). A Ground
  Defence fires only at aircraft in the air: Air-to-Ground fire is made by aircraft (p.26).
* Night Fighting / Bad Weather: "may only fire at targets at Short and Medium range" (p.33) is read
  like being out of range (p.22): a Long range target gets no Firepower dice, and Ammo is still spent.
  Bad Weather applies when the *firer* is at or below the cloud level ("At this Altitude level or
  below, aircraft follow the Night Fighting rules"); ``RuleOptions(cloud_cover="either")`` also applies it
  when the target is (a ground target is at Altitude 0, so always below the clouds).
* Terrain Height (p.33): a ground target on terrain is still at Altitude 0 for targeting, but the
  terrain's level counts for the Bombing Run modifiers; a Ground Defence on terrain adds the level to
  its Effective Altitude.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aero_events.core import DiceCup, Modifier, RuleError
from aero_events.hexgrid import MAX_RANGE, Arc, Hex, Pose, RangeBand, arcs_containing, range_band

from .altitude import suffer_damage
from .ground import (
    STRAFING_ALTITUDE,
    Target,
    bombing_modifiers,
    damage_ground_target,
    directly_overhead_arcs,
    ground_to_air_modifiers,
)
from .scenarios.terrain import ground_defence_effective_altitude, ground_target_modifier_altitude
from .state import LANDED, AircraftState, GameState
from .upgrades import armour_saves, has_infra_red

if TYPE_CHECKING:
    from .profiles import WeaponProfile
    from .ruleset import AeronauticaRules, RuleOptions
    from .turn import Emitter

#: Air-to-Air, Strafing, Bombing and Ground-to-Air fire all hit on 5+ (p.22, p.26-28).
TO_HIT = 5

# Kinds of attack.
AIR = "air"  # p.21-23
STRAFING = "strafing"  # p.26
BOMBING = "bombing"  # p.27
GROUND_TO_AIR = "ground_to_air"  # p.28
AUTONOMOUS = "autonomous"  # p.25

FRONT, REAR, LEFT, RIGHT = "front", "rear", "left", "right"
OVERHEAD = "overhead"  # an aircraft Directly Overhead a Ground Defence: its All Round arc only (p.21)
#: An All Round weapon fires into every Fire Arc (p.21), and at an aircraft Directly Overhead.
ALL_ROUND = frozenset({FRONT, REAR, LEFT, RIGHT, OVERHEAD})

_ARC_NAMES = {Arc.FRONT: FRONT, Arc.REAR: REAR, Arc.LEFT: LEFT, Arc.RIGHT: RIGHT}
_SHORT, _MEDIUM = RangeBand.SHORT, RangeBand.MEDIUM
_NAMED: dict[frozenset[Arc], frozenset[str]] = {}


def _named(arcs: frozenset[Arc]) -> frozenset[str]:
    named = _NAMED.get(arcs)
    if named is None:
        named = _NAMED[arcs] = frozenset(_ARC_NAMES[a] for a in arcs if a in _ARC_NAMES)
    return named


#: id(weapon profile) -> (the profile, the names of its special rules): :func:`has_rule` without a scan. The
#: profile is kept with its names, so its id cannot be reused while the entry stands.
_RULE_NAMES: dict[int, tuple[Any, frozenset[str]]] = {}


def has_rule(weapon: WeaponProfile, rule: str) -> bool:
    """``weapon.has_rule(rule)`` (a weapon special rule, p.24-25), its rule names worked out once per profile."""
    entry = _RULE_NAMES.get(id(weapon))
    if entry is None or entry[0] is not weapon:
        special = getattr(weapon, "special_rules", None)
        if special is None:
            return weapon.has_rule(rule)
        if len(_RULE_NAMES) >= 4096:
            _RULE_NAMES.clear()
        entry = _RULE_NAMES[id(weapon)] = (weapon, frozenset(r.rule for r in special))
    return rule in entry[1]


# ---------------------------------------------------------------- who is where


def firing_altitude(aircraft: AircraftState) -> int:
    """The Altitude a unit fires from: 0 for a Ground Defence or a landed aircraft."""
    if aircraft.ground_defence or aircraft.status == LANDED:
        return 0
    return aircraft.altitude


def hex_arcs(firer: AircraftState, hex: Hex) -> frozenset[str]:
    """The firer's Fire Arcs containing another hex (p.21), boundary hexes in both; own hex in none."""
    return _named(arcs_containing(Pose(firer.hex, firer.facing), hex))


def target_arcs(firer: AircraftState, target: Target) -> frozenset[str]:
    """The firer's Fire Arcs containing ``target``, Directly Overhead included (p.21)."""
    overhead = directly_overhead_arcs(firer, target)
    if overhead is not None:
        return overhead
    return hex_arcs(firer, target.hex)


def arc_keys(weapon: WeaponProfile, index: int) -> frozenset[str]:
    """The Fire Arcs a weapon fires into (p.21). A Ground-to-Air weapon has an arc of its own
    (``g2a:<index>``): it picks its own target (p.28, see the module notes)."""
    if has_rule(weapon, "ground_to_air"):
        return frozenset({f"g2a:{index}"})
    if "all_round" in weapon.fire_arc.arcs:
        return ALL_ROUND
    return frozenset(weapon.fire_arc.arcs)


def reach(weapon: WeaponProfile, index: int, firer: AircraftState, target: Target,
          arcs: frozenset[str] | None = None) -> frozenset[str]:
    """The weapon's Fire Arcs through which it may fire at ``target`` (empty: not in its Fire Arc).
    ``arcs``: ``target_arcs(firer, target)``, when the caller has it (it is the same for every weapon)."""
    if has_rule(weapon, "ground_to_air"):
        return arc_keys(weapon, index)  # All Round (p.28), Directly Overhead included (p.21)
    return arc_keys(weapon, index) & (target_arcs(firer, target) if arcs is None else arcs)


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def band_at(hexes: int) -> RangeBand | None:
    """The range band (p.22) at ``hexes``; Directly Overhead (0) is Short; beyond 10, None."""
    if hexes == 0:
        return RangeBand.SHORT
    return range_band(hexes) if hexes <= MAX_RANGE else None


# ---------------------------------------------------------------- special rules and kinds of attack


def attack_kind(weapon: WeaponProfile, firer: AircraftState, target: Target) -> str:
    """Which firing rules a shot follows, refusing what the weapon special rules forbid (p.21, p.24-28)."""
    return attack_kind_at(weapon, firing_altitude(firer), target.altitude, target.on_ground)


def attack_kind_at(weapon: WeaponProfile, altitude: int, target_altitude: int, on_ground: bool) -> str:
    """:func:`attack_kind` from what it depends on: the firer's firing Altitude (:func:`firing_altitude`), the
    target's Altitude and whether the target is on the ground."""
    vertical = weapon.fire_arc.vertical
    if vertical == "up" and target_altitude < altitude:
        raise RuleError(f"{weapon.name} fires Up: it may only target the same Altitude or above",
                        rule="Fire Arcs: Up", page=21)
    if vertical == "down" and target_altitude > altitude:
        raise RuleError(f"{weapon.name} fires Down: it may only target the same Altitude or below",
                        rule="Fire Arcs: Down", page=21)
    if on_ground:
        if has_rule(weapon, "ground_to_air"):
            raise RuleError(f"{weapon.name} (Ground-to-Air Fire) may only target aircraft at Altitude 1 or above",
                            rule="Ground-to-Air Fire", page=25)
        if has_rule(weapon, "aerial_attack"):
            raise RuleError(f"{weapon.name} (Aerial Attack) can never target anything at Altitude 0",
                            rule="Aerial Attack", page=24)
        if altitude == 0:
            raise RuleError("Air-to-Ground fire is made by aircraft in the air", rule="Air-to-Ground Fire", page=26)
        if has_rule(weapon, "ground_attack"):
            return BOMBING
        if altitude != STRAFING_ALTITUDE:
            raise RuleError(f"a Strafing Run is made at Altitude {STRAFING_ALTITUDE}, not {altitude}",
                            rule="Strafing Run", page=26)
        return STRAFING
    if has_rule(weapon, "ground_attack"):
        raise RuleError(f"{weapon.name} (Ground Attack) can never target anything at Altitude 1 or above",
                        rule="Ground Attack", page=24)
    if has_rule(weapon, "ground_to_air"):
        if altitude != 0:
            raise RuleError(f"{weapon.name} (Ground-to-Air Fire) can only be used at Altitude 0",
                            rule="Ground-to-Air Fire", page=25)
        return GROUND_TO_AIR
    return GROUND_TO_AIR if altitude == 0 else AIR


def hit_requirements(state: GameState, attack: str, weapon: WeaponProfile, firer: AircraftState,
                     target: Target, *, options: RuleOptions | None = None,
                     band: RangeBand | None = None) -> tuple[int, tuple[Modifier, ...]]:
    """The score needed to hit and the modifiers (p.22, p.26-28).

    Air-to-Air fire needs 5+ (p.22); a rule variant may change it, for every range or per range band
    (``RuleOptions.air_to_air_to_hit`` and ``air_to_air_to_hit_by_range``, e.g. "4+ at Short range").
    """
    if attack == AIR:
        to_hit = TO_HIT
        if options is not None:
            to_hit = options.air_to_air_to_hit
            if band is not None:
                to_hit = options.air_to_air_to_hit_by_range.get(band.value, to_hit)
        modifiers = []
        if target.evading:
            modifiers.append(Modifier("target has a Stall or Spin token", -1))
        difference = abs(firer.altitude - target.altitude)
        if difference:
            modifiers.append(Modifier(f"{difference} Altitude level(s) of difference", -difference))
        return to_hit, tuple(modifiers)
    if attack == BOMBING:
        return TO_HIT, bombing_modifiers(firing_altitude(firer), ground_target_modifier_altitude(state, target.hex))
    if attack == GROUND_TO_AIR:
        # No Effective Altitude (X) printed: 0 by default, no modifier with no_effective_altitude="unlimited".
        rated = weapon.rule_value("effective_altitude")
        effective = None
        if rated is not None or options is None or options.no_effective_altitude == "zero":
            effective = ground_defence_effective_altitude(state, firer.hex, rated or 0)
        return TO_HIT, ground_to_air_modifiers(effective, target)
    return TO_HIT, ()  # a Strafing Run: 5+ (p.26)


# ---------------------------------------------------------------- dice


def night_rules_apply(state: GameState, firer: AircraftState, target: Target | None = None,
                      options: RuleOptions | None = None) -> bool:
    """Night Fighting everywhere; Bad Weather for a firer at or below the cloud level, or, with
    ``RuleOptions(cloud_cover="either")``, for a target at or below it (p.33, :func:`.weather.night_rules_apply`)."""
    if getattr(state, "night_fighting", False):
        return True
    if getattr(state, "cloud_level", None) is None:
        return False
    from .weather import night_rules_apply as weather_rules

    cloud_cover = options.cloud_cover if options is not None else "firer"
    return weather_rules(state, firing_altitude(firer), target.altitude if target is not None else None,
                         cloud_cover)


def firepower_dice(rules: AeronauticaRules | None, state: GameState, firer: AircraftState,
                   weapon: WeaponProfile, band: RangeBand | None, target: Target | None = None) -> int:
    """The Firepower dice for a weapon at a range band (p.22), under Night Fighting / Bad Weather (p.33):
    no Long range, Medium halved rounding up, unless the firer has Infra-red Targeting (p.37). Whether Bad
    Weather applies may depend on the target's Altitude (``RuleOptions.cloud_cover``)."""
    if band is None:
        return 0
    # The band's index in ``firepower`` (short, medium, long) by identity: an Enum member hashes in Python, so a
    # dict look-up by it costs a call.
    dice = weapon.firepower[0 if band is _SHORT else 1 if band is _MEDIUM else 2]
    if night_rules_apply(state, firer, target, rules.options if rules is not None else None):
        if band is RangeBand.LONG:
            return 0
        if band is RangeBand.MEDIUM and not has_infra_red(firer):
            return -(-dice // 2)
    return dice


def success(face: int, target: int, modifier: int = 0) -> bool:
    """A die scores when its modified result reaches the target; never below 1, a natural 1 fails (p.7)."""
    return face != 1 and max(1, face + modifier) >= target


def count_hits(faces: tuple[int, ...], target: int, modifier: int) -> int:
    """The dice that score (:func:`success`, p.7)."""
    return sum(1 for face in faces if success(face, target, modifier))


def can_hit(target: int, modifier: int) -> bool:
    """Whether any face could score (a 6 is not an automatic success, p.7, p.22)."""
    return success(6, target, modifier)


def damage_losses(faces: tuple[int, ...], weapon: WeaponProfile) -> list[int]:
    """Structure each Damage dice takes (p.23): 0, 1, or 2 at or above Extra Damage (X+) (p.24)."""
    extra = weapon.rule_value("extra_damage")
    losses = []
    for face in faces:
        if not success(face, weapon.damage):
            losses.append(0)
        elif extra is not None and face >= extra:
            losses.append(2)
        else:
            losses.append(1)
    return losses


def inflict(out: Emitter, dice: DiceCup, target_id: str, losses: list[int], *, by: str | None, cause: str) -> int:
    """Damaging hits on a target (p.23): armour rolls for an aircraft hit by enemy fire (p.37, p.45), then
    Structure lost, never below 0; at 0 it is shot down / destroyed. Returns the Structure lost."""
    damaging = [loss for loss in losses if loss]
    if not damaging:
        return 0
    aircraft = out.state.aircraft.get(target_id)
    if aircraft is not None:
        if not aircraft.in_play:
            return 0
        lost = armour_saves(out, dice, aircraft, damaging, enemy_fire=by is not None and by != aircraft.owner)
        if lost:
            suffer_damage(out, target_id, lost, cause)
        return lost
    lost = sum(damaging)
    damage_ground_target(out, target_id, lost, by)
    return lost
