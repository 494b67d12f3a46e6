"""The commands of an Aeronautica game recorded before commands were recorded (the golden corpus).

Since issue 11 every applied command is stored as a ``CommandIssued`` event, and ``aero regress`` reads the
commands from those. Games recorded earlier (the corpus in ``replays/`` among them) have only their
*decision events*: each command left one saying what was chosen (``ai.ThrottleSet``, ``ai.ManoeuvreFlown``,
``ai.VolleyDeclared``...). :data:`DECISIONS` maps each decision event type to the command(s) that can have
produced it; the envelope's ``actor`` is the command's player. ``aero regress`` (``regress/decisions.py``)
tries these candidates in order at each command boundary and keeps the one whose decided events are exactly
the recorded ones, so a command is never guessed (``AeronauticaRules.legacy_command_candidates``).

Two decisions leave no event of their own and are read from the state instead:

* Adjust Altitude by 0 (p.18): at the Altitude step, any next event but a climb or dive, a landing,
  Rocket Boosters or a Jump Troops drop means the aircraft held its Altitude;
* who moves first (p.14): ``ai.FirstMoverChosen`` records the player who does move first, which is the
  other one when the chosen side had nothing to move; both choices are tried.

An event type that neither the table nor a command's consequences explain raises
:class:`~aero_events.core.interface.UnknownDecision`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aero_events.core import Command, Event
from aero_events.core.interface import DecisionPoint, UnknownDecision
from aero_events.hexgrid import DIRECTIONS

from .commands import (
    AcceptRoll,
    ActivateAircraft,
    AdjustAltitude,
    ChooseFirstMover,
    ChooseManoeuvre,
    DeclineManoeuvre,
    DropJumpTroops,
    FireWeapons,
    Hover,
    Land,
    LaunchAutonomous,
    ManoeuvrePlan,
    PassFiring,
    PlaceAircraft,
    PlaceReserve,
    RocketBoostOut,
    RollOff,
    SetThrottle,
    SteerAutonomous,
    TakeOff,
    Taxi,
    UseReroll,
)
from .events import Shot
from .state import ALTITUDE, MOVEMENT
from .turn import eligible_to_move

Recover = Callable[[Event, DecisionPoint], Sequence[Command]]


def _first_mover(event: Event, point: DecisionPoint) -> Sequence[Command]:
    """The chosen side, or the other one when the chosen side had nothing to move (p.14)."""
    state = point.state
    recorded, other = event.first, state.opponent(event.first)
    chosen_first = (recorded, other) if any(eligible_to_move(a) for a in state.side(recorded)) else (other, recorded)
    return [ChooseFirstMover(player=point.player, first=first) for first in chosen_first]


def _taxi(event: Event, point: DecisionPoint) -> Sequence[Command]:
    """Taxiing (p.19): the facing before the move is the direction of the hex entered (or unchanged)."""
    aircraft = point.state.aircraft[event.aircraft]
    if event.path:
        step = (event.path[0].q - aircraft.hex.q, event.path[0].r - aircraft.hex.r)
        before = DIRECTIONS.index(step) if step in DIRECTIONS else aircraft.facing
    else:
        before = aircraft.facing
    return [Taxi(player=point.player, aircraft=event.aircraft, facing_before=before, hexes=len(event.path),
                 facing_after=event.facing)]


def _launch(event: Event, point: DecisionPoint) -> Sequence[Command]:
    """An Autonomous weapon placed by itself (p.25): the placement is in the events that follow."""
    launched = point.following("ai.AutonomousLaunched")
    moved = point.following("ai.AutonomousMoved")
    if event.attack != "autonomous" or launched is None:
        return []
    hexes = len(moved.path) if moved is not None else 0
    shot = Shot(weapon_index=event.weapon_index, hex=launched.hex, facing=launched.facing, hexes=hexes)
    return [LaunchAutonomous(player=point.player, aircraft=event.aircraft, shot=shot)]


def _rocket_boost(event: Event, point: DecisionPoint) -> Sequence[Command]:
    if event.via != "rocket boosters":
        return []
    return [RocketBoostOut(player=point.player, aircraft=event.aircraft)]


#: Decision event type -> the commands that can have produced it (tried in order).
DECISIONS: dict[str, Recover] = {
    # The turn (p.13-14) and Movement (p.15-19).
    "ai.ManoeuvreChosen": lambda e, p: [ChooseManoeuvre(player=p.player, aircraft=e.aircraft, manoeuvre=e.manoeuvre)],
    "ai.ManoeuvreDeclined": lambda e, p: [DeclineManoeuvre(player=p.player, aircraft=e.aircraft)],
    "ai.FirstMoverChosen": _first_mover,
    "ai.AircraftActivated": lambda e, p: [ActivateAircraft(player=p.player, aircraft=e.aircraft)],
    "ai.ThrottleSet": lambda e, p: [SetThrottle(player=p.player, aircraft=e.aircraft, change=e.change)],
    "ai.ManoeuvreFlown": lambda e, p: [ManoeuvrePlan(player=p.player, aircraft=e.aircraft, side=e.side,
                                                     stage_hexes=e.stage_hexes, facings=e.facings)],
    "ai.Hovered": lambda e, p: [Hover(player=p.player, aircraft=e.aircraft, facing=e.facing)],
    "ai.Taxied": _taxi,
    "ai.TookOff": lambda e, p: [TakeOff(player=p.player, aircraft=e.aircraft)],
    # The end of a move (p.18-19, p.37).
    "ai.AltitudeChanged": lambda e, p: [AdjustAltitude(player=p.player, aircraft=e.aircraft, change=e.change)],
    "ai.Landed": lambda e, p: [Land(player=p.player, aircraft=e.aircraft)],
    "ai.AircraftDisengaged": _rocket_boost,
    "ai.JumpTroopsDropped": lambda e, p: [DropJumpTroops(player=p.player, aircraft=e.aircraft, points=e.points)],
    # Firing (p.20-28).
    "ai.FiringPassed": lambda e, p: [PassFiring(player=e.player)],
    "ai.VolleyDeclared": lambda e, p: [FireWeapons(player=p.player, aircraft=e.aircraft, shots=e.shots)],
    "ai.WeaponFired": _launch,
    "ai.RollAccepted": lambda e, p: [AcceptRoll(player=p.player, aircraft=e.aircraft)],
    "ai.RerollUsed": lambda e, p: [UseReroll(player=p.player, aircraft=e.aircraft)],
    "ai.AutonomousMoved": lambda e, p: [SteerAutonomous(player=p.player, weapon=e.weapon_id, turn_at=e.turn_at,
                                                        turn=e.turn)],
    # Set-up and reserves (p.33-34).
    "ai.SetUpRollOffWon": lambda e, p: [RollOff(player=p.player)],
    "ai.SetUpRollOffTied": lambda e, p: [RollOff(player=p.player)],
    "ai.AircraftPlaced": lambda e, p: [PlaceAircraft(player=p.player, aircraft=e.aircraft, hex=e.hex, facing=e.facing,
                                                     speed=e.speed, altitude=e.altitude)],
    "ai.ReservePlaced": lambda e, p: [PlaceReserve(player=p.player, aircraft=e.aircraft, hex=e.hex, facing=e.facing,
                                                   altitude=e.altitude)],
}

#: Decisions an aircraft can make at its Altitude step (p.18-19, p.37); anything else there is a hold.
ALTITUDE_STEP_DECISIONS = frozenset({"ai.AltitudeChanged", "ai.Landed", "ai.AircraftDisengaged",
                                     "ai.JumpTroopsDropped"})


def candidates(point: DecisionPoint) -> list[Command]:
    """The commands that may have produced the events starting at ``point`` (tried in order)."""
    state = point.state
    decision = point.decision
    # A roll waiting for AcceptRoll or UseReroll (Imperial Ace / Fly Boss, p.37, p.45) comes before anything
    # else, the Altitude step included: its decision event says which.
    awaiting_altitude = (state.phase == MOVEMENT and state.active is not None and state.step == ALTITUDE
                         and state.pending_roll is None)
    if awaiting_altitude and decision.type not in ALTITUDE_STEP_DECISIONS:
        return [AdjustAltitude(player=point.player, aircraft=state.active, change=0)]
    recover = DECISIONS.get(decision.type)
    if recover is None:
        raise UnknownDecision(
            f"event {decision.seq} (turn {decision.turn}, {decision.phase}) starts a command with "
            f"{decision.type}, which is not in the decision table of "
            "aero_events/rulesets/aeronautica/legacy_commands.py; if it is a new decision, add the command that "
            "produces it to DECISIONS")
    return list(recover(decision.event, point))
