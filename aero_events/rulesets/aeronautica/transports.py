"""Landing zones (p.33), Transport Aircraft and Jump Troops (p.37).

Transport Aircraft (p.37): an aircraft with a Transport characteristic delivers its
cargo by landing (p.19) in a landing zone the scenario designates; "an aircraft with a
Transport characteristic of 2 may earn 2 Victory points for landing safely in a landing
zone" (``LandingZone.vp_per_point``, default 1). Landing zones (p.33): "an aircraft must
end its movement at Altitude 0 within the landing zone".

Jump Troops (p.37): "the aircraft must pass directly over the landing zone during the
Move and Manoeuvre step of the Movement phase. Once the aircraft has completed its
movement, before adjusting Altitude roll a D6 for each point of transport capacity being
dropped. If the result of the roll is higher than the aircraft's current Altitude and
Speed added together, the Jump Troops land safely within the landing zone and Victory
points are scored." Example: "an aircraft travelling at Altitude 2 and Speed 2 will need
to roll a 5 or a 6 ..., whereas a hovering aircraft at Altitude 1 will only fail to land
them safely on the roll of a 1."

The drop is a decision: :class:`DropJumpTroops`, offered at the aircraft's Adjust
Altitude step (that is, after its movement and before its Altitude changes). A hovering
aircraft has no Altitude step (p.16, p.18), so movement calls :func:`hover_drop_window`
after it hovers: over a landing zone it gets an Altitude step (where Altitude can only
hold at Speed 0) in which to drop.

Choices where the text is silent:

* "Pass directly over" is entering a hex of the zone during the move (the hexes of the
  path, those flown on through occupied hexes included); a hovering aircraft is over the
  zone it hovers in (the example of p.37).
* Each die scores for one point of cargo; dropped points are spent whether they land
  safely or not, and a drop may use only some of the cargo (``points``).
* A landed transport delivers its remaining cargo in the End phase of the turn it landed
  in a zone (or taxied into one: it ended its movement at Altitude 0 within it). A
  transport destroyed on the ground after landing that same turn (found as destroyed at
  Altitude 0 and Speed 0, which only a landed aircraft has) still delivers, because the
  troops left it as it landed.
* With several zones under the path, the first entered is the one the troops land in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from aero_events.core import Command, DiceCup, Event, RuleError
from aero_events.hexgrid import Hex

from .commands import DropJumpTroops
from .events import JumpTroopsDropped, JumpTroopsReady, TroopsDelivered
from .scenarios.format import LandingZone
from .state import ALTITUDE, DESTROYED, LANDED, MOVEMENT, AircraftState, GameState, with_aircraft

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules
    from .turn import Emitter

JUMP_TROOPS = "jump_troops"


def cargo_left(rules: AeronauticaRules, aircraft: AircraftState) -> int:
    """Points of transport capacity not yet delivered or dropped."""
    capacity = rules.profile(aircraft).transport or 0
    return max(0, capacity - aircraft.cargo_delivered)


def zone_at(state: GameState, player: str, hexes: tuple[Hex, ...]) -> LandingZone | None:
    """The first landing zone serving ``player`` that one of ``hexes`` (in order) lies in."""
    for hex in hexes:
        for zone in state.landing_zones:
            if zone.serves(player) and zone.contains(Hex(*hex)):
                return zone
    return None


def hexes_passed(aircraft: AircraftState) -> tuple[Hex, ...]:
    """The hexes the aircraft passed over this move (its own hex when it hovered in place)."""
    return aircraft.path or (aircraft.hex,)


def jump_safe_roll(aircraft: AircraftState) -> int:
    """The lowest D6 that lands a Jump Trooper safely: higher than Altitude + Speed (p.37)."""
    return aircraft.altitude + aircraft.speed + 1


def drop_zone(rules: AeronauticaRules, state: GameState, aircraft: AircraftState) -> LandingZone | None:
    """The zone ``aircraft`` may drop Jump Troops into now, if any (p.37)."""
    if state.phase != MOVEMENT or state.active != aircraft.id or state.step != ALTITUDE:
        return None
    if not rules.profile(aircraft).has_rule(JUMP_TROOPS) or cargo_left(rules, aircraft) <= 0:
        return None
    return zone_at(state, aircraft.owner, hexes_passed(aircraft))


def drop_jump_troops(rules: AeronauticaRules, out: Emitter, command: DropJumpTroops, dice: DiceCup) -> None:
    """Jump Troops (p.37): a D6 per point dropped; each higher than Altitude + Speed lands safely."""
    state = out.state
    aircraft = state.aircraft.get(command.aircraft)
    if aircraft is None or aircraft.owner != command.player:
        raise RuleError(f"{command.player} has no aircraft {command.aircraft!r}", rule="Jump Troops", page=37)
    if not rules.profile(aircraft).has_rule(JUMP_TROOPS):
        raise RuleError(f"{aircraft.id} carries no Jump Troops", rule="Jump Troops", page=37)
    left = cargo_left(rules, aircraft)
    if left <= 0:
        raise RuleError(f"{aircraft.id} has no cargo left to drop", rule="Jump Troops", page=37)
    if state.phase != MOVEMENT or state.active != aircraft.id or state.step != ALTITUDE:
        raise RuleError("Jump Troops drop once the aircraft has completed its movement, before adjusting "
                        "Altitude", rule="Jump Troops", page=37)
    zone = zone_at(state, aircraft.owner, hexes_passed(aircraft))
    if zone is None:
        raise RuleError(f"{aircraft.id} did not pass directly over a landing zone this move",
                        rule="Jump Troops", page=37)
    points = left if command.points is None else command.points
    if not 1 <= points <= left:
        raise RuleError(f"{aircraft.id} can drop 1 to {left} points of Jump Troops, not {points}",
                        rule="Jump Troops", page=37)
    needed = jump_safe_roll(aircraft)
    roll = dice.roll(points, purpose="jump troops", roller=aircraft.owner, target=needed)
    out.emit(roll)
    landed = sum(1 for face in roll.faces if face >= needed)
    out.emit(JumpTroopsDropped(aircraft=aircraft.id, zone=zone.name, points=points, landed=landed,
                               victory_points=landed * zone.vp_per_point))


def hover_drop_window(rules: AeronauticaRules, out: Emitter, aircraft_id: str) -> bool:
    """Movement's hook after a Hover (p.16, p.37): a hovering Jump Troops transport over a landing zone gets
    an Altitude step in which to drop before its move ends. True if the move goes on to that step."""
    state = out.state
    aircraft = state.aircraft[aircraft_id]
    if not rules.profile(aircraft).has_rule(JUMP_TROOPS) or cargo_left(rules, aircraft) <= 0:
        return False
    if zone_at(state, aircraft.owner, (aircraft.hex,)) is None:
        return False
    out.emit(JumpTroopsReady(aircraft=aircraft_id))
    return True


def landed_in_zone(aircraft: AircraftState) -> bool:
    """On the ground: landed, or destroyed on the ground after landing (Altitude 0 and Speed 0)."""
    return aircraft.status == LANDED or (aircraft.status == DESTROYED and aircraft.altitude == 0
                                         and aircraft.speed == 0 and not aircraft.ground_defence)


def deliver_landed_cargo(rules: AeronauticaRules, out: Emitter, order: list[str]) -> None:
    """End phase: transports that ended their movement at Altitude 0 in a landing zone deliver (p.33, p.37)."""
    if not out.state.landing_zones:
        return  # no landing zone: nothing to deliver to
    for player in order:
        for aircraft in out.state.side(player):
            if not landed_in_zone(aircraft):
                continue
            left = cargo_left(rules, aircraft)
            zone = zone_at(out.state, player, (aircraft.hex,))
            if left > 0 and zone is not None:
                out.emit(TroopsDelivered(aircraft=aircraft.id, zone=zone.name, points=left,
                                         victory_points=left * zone.vp_per_point))


HANDLERS = {DropJumpTroops: drop_jump_troops}


#: The phases in which :func:`legal_commands` may offer a command (the ruleset asks no other part).
COMMAND_PHASES: frozenset[str] = frozenset({MOVEMENT})
#: The Movement phase's steps at which :func:`legal_commands` may offer a command: the Adjust Altitude step (p.37;
#: a Hovering transport reaches it through JumpTroopsReady). The ruleset asks no other step.
COMMAND_STEPS: frozenset[str] = frozenset({ALTITUDE})


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list[Command]:
    """At the active transport's Adjust Altitude step over a zone: drop 1 to all of its Jump Troops. Without a
    landing zone, or at another step, there is nowhere to drop (:func:`drop_zone`): nothing is looked up."""
    if state.phase != MOVEMENT or state.active is None or state.step != ALTITUDE or not state.landing_zones:
        return []
    aircraft = state.aircraft[state.active]
    if aircraft.owner != player or drop_zone(rules, state, aircraft) is None:
        return []
    return [DropJumpTroops(player=player, aircraft=aircraft.id, points=n)
            for n in range(1, cargo_left(rules, aircraft) + 1)]


def _tally(state: GameState, player: str, points: int) -> dict[str, int]:
    return {**state.transport_vp, player: state.transport_vp.get(player, 0) + points}


def evolve(rules: AeronauticaRules, state: GameState, event: Event) -> GameState | None:
    replace = msgspec.structs.replace
    if isinstance(event, (TroopsDelivered, JumpTroopsDropped)):
        aircraft = state.aircraft[event.aircraft]
        state = with_aircraft(state, replace(aircraft, cargo_delivered=aircraft.cargo_delivered + event.points))
        return replace(state, transport_vp=_tally(state, aircraft.owner, event.victory_points))
    if isinstance(event, JumpTroopsReady):
        return replace(state, step=ALTITUDE)
    return None
