"""The end phase (p.31): damage control by both players, then the player whose turn it is removes D6 Blast
markers of their choice, never one touching a ship's base. Brace for Impact orders end here at the end of the
ship's next turn (p.12).

Choices, documented:

* Damage control is rolled for every capital ship with a critical or a fire (p.31: "capital ships roll"):
  one D6 per damage point remaining, halved (rounding up) with Blast markers in contact. Each 6 repairs one
  repairable critical, in this order: Fire!, Engine Room, Thrusters, Prow, Port, Starboard, Dorsal (fires
  first because they keep burning). The text leaves the choice to the player; this order is the default.
* A fire not put out causes one damage point and keeps burning (p.24); that damage rolls no critical.
* Which markers go is the phasing player's decision (a ``RemoveBlastMarkers`` command); ``legal_commands``
  offers two sets: those nearest the player's own ships first, and the oldest first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError

from . import damage, geometry
from . import events as ev
from . import ships as sh
from .commands import RemoveBlastMarkers
from .state import ACTIVE, BRACE_FOR_IMPACT, END, GameState, PendingRemoval

if TYPE_CHECKING:
    from .ruleset import BattlefleetGothicRules
    from .turn import Emitter

REPAIR_ORDER = ("fire", "engine_room", "thrusters", "prow_armament", "port_armament", "starboard_armament",
                "dorsal_armament")


def begin(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup) -> None:
    out.emit(ev.PhaseBegan(phase=END))
    damage_control(rules, out, dice)
    braced = tuple(sorted(s.id for s in out.state.ships.values()
                          if s.order == BRACE_FOR_IMPACT and s.brace_ends_turn == out.state.player_turn))
    if braced:
        out.emit(ev.OrdersRemoved(ships=braced))
    roll = dice.d6(purpose="blast marker removal", roller=out.state.active)
    out.emit(roll)
    out.emit(ev.BlastMarkerRemovalRolled(player=out.state.active, roll=roll.total,
                                         count=min(roll.total, len(removable(rules, out.state)))))


def damage_control(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup) -> None:
    """Damage Control (p.31) and fires (p.24), both players."""
    for ship_id in sorted(out.state.ships):
        ship = out.state.ships[ship_id]
        cls = rules.ship_class(ship)
        if ship.status != ACTIVE or not cls.capital:
            continue
        if not any(rules.critical_row(c).repairable for c in ship.criticals):
            continue
        count = cls.hits - ship.damage
        if sh.ship_markers(rules, out.state, ship):
            count = sh.half(count)
        roll = dice.roll(count, purpose="damage control", roller=ship.side, target=6)
        out.emit(roll)
        for _ in range(sum(1 for face in roll.faces if face == 6)):
            current = out.state.ships[ship_id].criticals
            fix = next((c for c in REPAIR_ORDER if c in current), None)
            if fix is None:
                break
            out.emit(ev.CriticalRepaired(ship=ship_id, critical=fix))
        fires = out.state.ships[ship_id].criticals.count("fire")
        if fires:
            damage.damage_points(rules, out, dice, ship_id, fires, "fire", criticals=False)


def removable(rules: BattlefleetGothicRules, state: GameState) -> list[int]:
    """Blast markers not in contact with any ship's base (p.31)."""
    marker_radius = rules.data.length("blast_marker_radius_cm")
    result = []
    for mid, marker in sorted(state.blast_markers.items(), key=lambda item: int(item[0])):
        touching = any(geometry.within(marker.position, s.position,
                                       marker_radius + sh.base_radius(rules, rules.ship_class(s)))
                       for s in state.ships.values() if s.on_table)
        if not touching:
            result.append(int(mid))
    return result


def remove_markers(rules: BattlefleetGothicRules, out: Emitter, command: RemoveBlastMarkers, dice: DiceCup) -> None:
    pending = out.state.pending
    if not isinstance(pending, PendingRemoval) or pending.player != command.player:
        raise RuleError("Blast markers are removed by the player whose turn it is in the end phase",
                        rule="Blast Marker Removal", page=31)
    allowed = set(removable(rules, out.state))
    if len(set(command.markers)) != len(command.markers) or len(command.markers) != pending.count:
        raise RuleError(f"remove exactly {pending.count} different Blast markers", rule="Blast Marker Removal",
                        page=31)
    if not set(command.markers) <= allowed:
        raise RuleError("Blast markers touching a ship's base may not be removed", rule="Blast Marker Removal",
                        page=31)
    out.emit(ev.BlastMarkersRemoved(markers=tuple(command.markers)))


HANDLERS = {RemoveBlastMarkers: remove_markers}


def legal_commands(rules: BattlefleetGothicRules, state: GameState, player: str) -> list:
    pending = state.pending
    if not isinstance(pending, PendingRemoval) or pending.player != player:
        return []
    candidates = removable(rules, state)
    own = [s.position for s in state.fleet(player) if s.on_table] or [(0, 0)]

    def nearness(mid: int) -> int:
        marker = state.blast_markers[str(mid)].position
        return min(geometry.distance_sq(marker, p) for p in own)

    options = []
    for ordered in (sorted(candidates, key=lambda m: (nearness(m), m)), candidates):
        chosen = tuple(sorted(ordered[: pending.count]))
        command = RemoveBlastMarkers(player=player, markers=chosen)
        if command not in options:
            options.append(command)
    return options
