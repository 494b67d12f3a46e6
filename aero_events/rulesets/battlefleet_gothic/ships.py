"""A ship's characteristics as damage and orders change them (p.4, p.11-12, p.23-25)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import geometry
from .data import CM, ShipClass, Weapon
from .state import BRACE_FOR_IMPACT, HALF_EFFECT_ORDERS, GameState, ShipState

if TYPE_CHECKING:
    from .ruleset import BattlefleetGothicRules

#: Which critical hit silences which weapon location (p.24).
LOCATION_CRITICALS = {"dorsal": "dorsal_armament", "starboard": "starboard_armament", "port": "port_armament",
                      "prow": "prow_armament", "keel": "dorsal_armament"}


def half(value: int) -> int:
    """Halved, rounding up (p.21, p.23)."""
    return (value + 1) // 2


def crippled(cls: ShipClass, ship: ShipState) -> bool:
    """Crippled once it has lost half its damage points (p.23): a Lunar (8 Hits) at 4 damage."""
    return ship.damage * 2 >= cls.hits


def base_radius(rules: BattlefleetGothicRules, cls: ShipClass) -> int:
    return round(rules.data.figure("base_radius_cm")[cls.base] * CM)


def shields(rules: BattlefleetGothicRules, cls: ShipClass, ship: ShipState) -> int:
    """Shields before Blast markers: 0 after Shields Collapse (p.24), halved when crippled (p.23)."""
    if ship.hulk or "shields_collapse" in ship.criticals:
        return 0
    return half(cls.shields) if crippled(cls, ship) else cls.shields


def turrets(cls: ShipClass, ship: ShipState) -> int:
    """Turrets, halved when crippled (p.23); hulks have none (p.26)."""
    if ship.hulk:
        return 0
    return half(cls.turrets) if crippled(cls, ship) else cls.turrets


def leadership(ship: ShipState) -> int:
    """Leadership after Bridge Smashed (-3, p.24)."""
    return ship.leadership - 3 * ship.criticals.count("bridge")


def speed(rules: BattlefleetGothicRules, cls: ShipClass, ship: ShipState) -> int:
    """Move distance in units before Blast markers: -5 cm crippled (p.23), -10 cm Thrusters once (p.24)."""
    value = cls.speed_cm * CM
    if crippled(cls, ship):
        value -= rules.data.length("crippled_slowdown_cm")
    if "thrusters" in ship.criticals:
        value -= rules.data.length("thrusters_slowdown_cm")
    return max(0, value)


def weapon_offline(ship: ShipState, weapon: Weapon) -> bool:
    """Armament Damaged criticals (p.24) silence a location until every one there is repaired."""
    return LOCATION_CRITICALS[weapon.location] in ship.criticals


def weapon_value(cls: ShipClass, ship: ShipState, weapon: Weapon) -> int:
    """Firepower or Strength after halving (rounding up, p.21, p.23): half for All Ahead Full, Burn Retros and
    Come to New Heading, half when braced, half when crippled; a crippled braced ship is halved again.

    Choice: each weapon system is halved on its own before fire is totalled or split (p.21 says fire is split
    "after halving"); the halvings multiply.
    """
    value = weapon.value
    if ship.order in HALF_EFFECT_ORDERS or ship.order == BRACE_FOR_IMPACT:
        value = half(value)
    if crippled(cls, ship):
        value = half(value)
    return value


def remaining(cls: ShipClass, ship: ShipState, weapon: Weapon) -> int:
    return max(0, weapon_value(cls, ship, weapon) - ship.weapons_used.get(weapon.id, 0))


def markers_touching(rules: BattlefleetGothicRules, state: GameState, position: tuple[int, int],
                     radius: int) -> list[int]:
    """Blast markers in contact with a base of ``radius`` at ``position`` (touching counts, p.6)."""
    reach = radius + rules.data.length("blast_marker_radius_cm")
    return [mid for mid, m in state.blast_markers.items() if geometry.within(position, m.position, reach)]


def ship_markers(rules: BattlefleetGothicRules, state: GameState, ship: ShipState) -> list[int]:
    return markers_touching(rules, state, ship.position, base_radius(rules, rules.ship_class(ship)))


def enemies_on_orders(state: GameState, side: str) -> bool:
    """Enemy Contacts (p.12): any enemy ship on special orders."""
    return any(s.order is not None and s.status == "active" for s in state.ships.values() if s.side != side)
