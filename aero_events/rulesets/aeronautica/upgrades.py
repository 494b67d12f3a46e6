"""Aircraft upgrades in play (rulebook p.36-37 Imperial Navy, p.44-45 Orks), hooked into firing.

* **Flares or Chaff Launchers** (p.37) and **Belching Smoke** (p.44): "Once per game, if the aircraft
  is hit by a weapon with an Ammo characteristic of 1, 2 or 3, roll a D6. On a 6, the hit becomes a
  miss."
* **Infra-red Targeting** (p.37): under Night Fighting or Bad Weather, Medium range Firepower is not
  halved (see :func:`.weapons.firepower_dice`).
* **Imperial Ace** (p.37) and **Fly Boss** (p.45): "Once per game, this aircraft may choose to reroll
  a dice roll. However, all of the dice rolled must be re-rolled and the player must accept the result
  of the second roll."
* **Armoured Cockpit** (p.37) and **Extra Armour** (p.45): "When this aircraft suffers a damaging hit
  from enemy fire, roll a D6. On a 6, the damage is ignored".
* Ejector Seats (victory), Wazmek Speshul and Extra Armour's Max Speed (``profiles.apply_upgrades``) and
  Kustom Big Shootas (a weapon in ``AircraftState.weapons``) live elsewhere.

Choices where the text is silent:

* Decoys are used automatically the first time the aircraft is hit by a qualifying weapon (the text
  gives no choice), and are spent whatever the D6 shows. "The hit becomes a miss": on a 6 one hit of
  that weapon's hits becomes a miss, the others still roll for damage (a Bomb Creep or Autonomous
  weapon hit is one hit). An Autonomous weapon with Ammo 1-3 qualifies too.
* Armour rolls one D6 per damaging Damage dice; a 6 saves all the Structure that die would take
  (2 for Extra Damage). Only *enemy* fire is saved against: Bomb Creep from a friendly bomber, a
  friendly Autonomous weapon, crashing and Breaking Up are not (the latter are not fire at all).
* The re-roll is offered for the to-hit and Damage rolls an aircraft makes when it fires (including
  Tail Gunner return fire), and for the rolls the rules make for it (Stall and Spin recovery, the facing
  after a Spin, a Crash, Breaking Up, Ejector Seats, and its armour roll against a weapon's damage):
  see :mod:`.rerolls`. Decoy rolls, and armour rolls against Bomb Creep or an Autonomous weapon, are not
  offered (see :mod:`.rerolls`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, DiceRolled

from .events import DamageIgnored, DecoyLaunched
from .state import AircraftState

if TYPE_CHECKING:
    from .profiles import WeaponProfile
    from .turn import Emitter

FLARES = "flares_or_chaff_launchers"
BELCHING_SMOKE = "belching_smoke"
INFRA_RED = "infra_red_targeting"
IMPERIAL_ACE = "imperial_ace"
FLY_BOSS = "fly_boss"
ARMOURED_COCKPIT = "armoured_cockpit"
EXTRA_ARMOUR = "extra_armour"

DECOYS = (FLARES, BELCHING_SMOKE)
REROLLS = (IMPERIAL_ACE, FLY_BOSS)
ARMOUR = (ARMOURED_COCKPIT, EXTRA_ARMOUR)

#: Decoys and armour work on a 6 (p.37, p.44-45).
UPGRADE_ROLL = 6


def _first(aircraft: AircraftState, names: tuple[str, ...]) -> str | None:
    for name in names:
        if name in aircraft.upgrades:
            return name
    return None


def has_infra_red(aircraft: AircraftState) -> bool:
    """Infra-red Targeting (p.37)."""
    return INFRA_RED in aircraft.upgrades


def reroll_upgrade(aircraft: AircraftState) -> str | None:
    """The Imperial Ace / Fly Boss upgrade whose once-per-game re-roll is still unused (p.37, p.45)."""
    if aircraft.reroll_used:
        return None
    return _first(aircraft, REROLLS)


def decoy(out: Emitter, dice: DiceCup, target: AircraftState, weapon: WeaponProfile, hits: int, firer: str,
          weapon_index: int | None) -> bool:
    """Flares or Chaff Launchers / Belching Smoke (p.37, p.44): True when one of the ``hits`` became a miss
    (the firing part then rolls damage for the others)."""
    if hits <= 0 or target.decoy_used or weapon.ammo is None:
        return False
    upgrade = _first(target, DECOYS)
    if upgrade is None:
        return False
    roll = dice.d6(purpose=f"{upgrade} for {target.id}", roller=target.owner, target=UPGRADE_ROLL)
    out.emit(roll)
    negated = roll.faces[0] >= UPGRADE_ROLL
    out.emit(DecoyLaunched(aircraft=target.id, upgrade=upgrade, negated=negated, firer=firer,
                           weapon_index=weapon_index))
    return negated


def armour_saves(out: Emitter, dice: DiceCup, target: AircraftState, losses: list[int], enemy_fire: bool) -> int:
    """Armoured Cockpit / Extra Armour (p.37, p.45): a D6 per damaging hit, each 6 ignores that hit.

    ``losses`` holds the Structure each damaging Damage dice would take (1, or 2 for Extra Damage);
    returns the Structure actually lost.
    """
    roll = armour_roll(out, dice, target, losses, enemy_fire)
    return sum(losses) if roll is None else armour_result(out, target, losses, roll)


def armour_roll(out: Emitter, dice: DiceCup, target: AircraftState, losses: list[int] | tuple[int, ...],
                enemy_fire: bool) -> DiceRolled | None:
    """The armour roll (one D6 per damaging hit) if the target has armour and the fire is an enemy's."""
    upgrade = _first(target, ARMOUR)
    if upgrade is None or not enemy_fire or not losses:
        return None
    roll = dice.roll(len(losses), purpose=f"{upgrade} for {target.id}", roller=target.owner, target=UPGRADE_ROLL)
    out.emit(roll)
    return roll


def armour_result(out: Emitter, target: AircraftState, losses: list[int] | tuple[int, ...], roll: DiceRolled) -> int:
    """The Structure lost once the armour roll stands: each 6 saves what its damaging hit would take."""
    upgrade = _first(target, ARMOUR)
    saved = sum(loss for loss, face in zip(losses, roll.faces, strict=True) if face >= UPGRADE_ROLL)
    if saved and upgrade is not None:
        out.emit(DamageIgnored(aircraft=target.id, upgrade=upgrade, structure=saved))
    return sum(losses) - saved
