"""Fleeing, rallying and Fly High (host, at the level the supplement needs; Fly High in Combat).

* **Flee** (host): 2D6" (Swiftstride: 3D6, the lowest discarded) directly away from the source of the danger.
  A unit whose footprint leaves the table has fled (out of the battle); one that would end on another unit at
  its level moves on in 1" steps until clear. A fleeing unit rallies at the start of its side's turn on 2D6 <=
  Ld, else flees again away from the nearest enemy.
* **Fly High**: "If a Flying unit needs to Flee for any reason while in the air, they must take a Fly High
  Test. Roll a D6. On a 4+ they Fly High and are immediately out of the game, similar to Fleeing Off the
  Table. If they fail the Fly High test, they Flee horizontally, like normal, through the air using the normal
  Swiftstride Rules."
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup
from aero_events.table import INCH, centre, distance, heading_towards

from . import attacks
from .events import FlewHigh, UnitFled
from .geometry import clear_of, footprint, moved_straight, on_table

if TYPE_CHECKING:
    from .ruleset import WhfbFlyingRules


def flee(rules: WhfbFlyingRules, out, dice: DiceCup, unit_id: str, away_from: tuple[int, int], *, reason: str) -> int:
    """The unit flees from ``away_from``; returns the distance fled (0 when it flew high)."""
    unit = out.state.units[unit_id]
    if unit.in_air and attacks.d6_test(out, dice, unit_id, "Fly High test", 4, roller=unit.side):
        out.emit(FlewHigh(unit=unit_id, reason=reason))
        for character in unit.with_characters(out.state):  # joined characters go with their unit
            out.emit(FlewHigh(unit=character.id, reason=f"with {unit_id}"))
        return 0
    profile = rules.profile(unit)
    rolled, _ = attacks.roll_distance(out, dice, 2, profile.flyer, purpose=f"flee: {unit_id}", roller=unit.side)
    start = footprint(unit, profile)
    middle = centre(start)
    heading = heading_towards(middle[0] - away_from[0], middle[1] - away_from[1]) \
        if middle != away_from else (unit.pose.heading + 18000) % 36000
    length = rolled * INCH
    pose = moved_straight(unit.pose, heading, length)
    others = [footprint(u, rules.profile(u)) for u in out.state.units.values()
              if u.id != unit_id and u.in_play and u.in_air == unit.in_air]
    while on_table(footprint(unit, profile, pose), out.state) and not clear_of(footprint(unit, profile, pose), others):
        length += INCH
        pose = moved_straight(unit.pose, heading, length)
    off = not on_table(footprint(unit, profile, pose), out.state)
    end = centre(footprint(unit, profile, pose))
    out.emit(UnitFled(unit=unit_id, pose=pose, distance=length, off_table=off, path=(middle, end)))
    for character in unit.with_characters(out.state):  # joined characters flee with their unit
        out.emit(UnitFled(unit=character.id, pose=pose, distance=length, off_table=off))
    return length


def nearest_enemy_point(rules: WhfbFlyingRules, state, unit) -> tuple[int, int] | None:
    here = centre(footprint(unit, rules.profile(unit)))
    enemies = [centre(footprint(e, rules.profile(e))) for e in state.units.values()
               if e.side != unit.side and e.in_play]
    if not enemies:
        return None
    return min(enemies, key=lambda p: (distance(here, p), p))
