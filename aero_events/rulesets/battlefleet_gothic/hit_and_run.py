"""Hit-and-run raids: what boarding torpedoes (p.28) and assault boats (p.30) do to a ship.

The text refers the raid to the Advanced Rules ("Hit-and-run attacks are discussed in the Advanced Rules
section", p.28; "detailed in the Advanced Rules", p.30), which it does not contain. Default (the spec's):
the raid is absent, so boarding torpedoes and assault boats cannot be launched. ``RuleOptions(hit_and_run=
True)`` plays the reading in ``ordnance.json`` ``hit_and_run_raid`` (marked a reconstruction there):

* each raid rolls a D6; on ``success_on`` or more (4+) the target suffers one critical hit: 2D6 on the
  Critical Hits table (p.24), an escort being destroyed by any critical (p.24); the raid does no damage point
  of its own (the critical's extra damage applies, p.24);
* Brace for Impact saves the critical on a 4+ (p.23: the save "includes Critical Damage from any Hit and Run
  attacks");
* a raid against a hulk or a ship no longer on the table does nothing (there is no crew left to fight).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup

from . import damage
from . import events as ev
from .state import ACTIVE

if TYPE_CHECKING:
    from .ruleset import BattlefleetGothicRules
    from .turn import Emitter


def raid_rule(rules: BattlefleetGothicRules) -> dict:
    return rules.data.ordnance["hit_and_run_raid"].value


def raids(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, raider: str, side: str, ship_id: str,
          count: int) -> None:
    """``count`` hit-and-run raids by ``raider`` (a salvo or a wave of ``side``) against ``ship_id``."""
    needed = raid_rule(rules)["success_on"]
    for _ in range(count):
        ship = out.state.ships[ship_id]
        if ship.status != ACTIVE:
            return
        roll = dice.d6(purpose="hit-and-run raid", roller=side, target=needed)
        out.emit(roll)
        success = roll.faces[0] >= needed
        out.emit(ev.HitAndRunRaid(raider=raider, ship=ship_id, roll=roll.faces[0], needed=needed, success=success))
        if not success:
            continue
        if not damage.brace_saves(out, dice, ship, 1):
            continue
        damage.critical_hit(rules, out, dice, ship_id)
