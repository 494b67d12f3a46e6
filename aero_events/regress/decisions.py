"""Recovering the commands of a recorded Aeronautica game from its events.

Decisions are events (DESIGN.md, contract 2): each command leaves a *decision event* saying what was
chosen (``ai.ThrottleSet``, ``ai.ManoeuvreFlown``, ``ai.VolleyDeclared``...). :data:`DECISIONS` maps each
decision event type to the command(s) that can have produced it; the envelope's ``actor`` is the
command's player.

Command boundaries are not recorded, so :func:`recover_decisions` finds them by playing the game again
under its own ruleset: at each boundary it reads the next events, asks the table for the command, decides
that command with the recorded dice and salts, and accepts it only if the rules produce exactly the
recorded events (checkpoint hashes included); the next boundary is where those events end. So a command
is never guessed: the recovery is also a proof that the record replays under its own rules, and a
record it cannot explain fails loudly (:class:`RecoveryError`), naming the seq, turn, phase and event.

Two decisions leave no event of their own and are read from the state instead:

* Adjust Altitude by 0 (p.18): at the Altitude step, any next event but a climb or dive, a landing,
  Rocket Boosters or a Jump Troops drop means the aircraft held its Altitude;
* who moves first (p.14): ``ai.FirstMoverChosen`` records the player who does move first, which is the
  other one when the chosen side had nothing to move; both choices are tried.

An event type that neither the table nor a command's consequences explain raises
:class:`UnknownDecision`: a new command (e.g. from a new part of the rules) must be added to
:data:`DECISIONS` before its games can be re-run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from aero_events.core import (
    AeroError,
    Command,
    DiceCup,
    DiceRolled,
    Envelope,
    Event,
    RuleError,
    StateCheckpoint,
)
from aero_events.core.errors import DiceError
from aero_events.hexgrid import DIRECTIONS
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.commands import (
    AcceptRoll,
    ActivateAircraft,
    AdjustAltitude,
    ChooseFirstMover,
    ChooseManoeuvre,
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
from aero_events.rulesets.aeronautica.events import Shot
from aero_events.rulesets.aeronautica.state import ALTITUDE, MOVEMENT, GameState
from aero_events.rulesets.aeronautica.turn import eligible_to_move

from .describe import describe_command, event_at
from .tape import RecordedSalts, RegressionDice, recorded_faces, recorded_salts


class UnknownDecision(AeroError):
    """A recorded event that starts a command but is not in the decision table."""


class RecoveryError(AeroError):
    """A recorded game that does not replay under its own ruleset from the commands the table recovers."""


@dataclass(frozen=True)
class DecisionPoint:
    """A command boundary of a recorded game: the state there and the recorded events that follow."""

    state: GameState
    envelopes: Sequence[Envelope]
    start: int

    def _events(self) -> list[Envelope]:
        return [env for env in self.envelopes[self.start:] if type(env.event) is not StateCheckpoint]

    @property
    def decision(self) -> Envelope:
        """The first event of the command that is not a die: its decision event (or first consequence)."""
        for env in self.envelopes[self.start:]:
            if type(env.event) not in (DiceRolled, StateCheckpoint):
                return env
        raise RecoveryError(f"the record ends with dice that no event reads (after seq "
                            f"{self.envelopes[self.start].seq})")

    @property
    def player(self) -> str:
        actor = self.envelopes[self.start].actor
        if actor is None:
            env = self.envelopes[self.start]
            raise RecoveryError(f"event {env.seq} ({env.type}, turn {env.turn}, {env.phase}) starts a command "
                                "but names no player")
        return actor

    def following(self, type_name: str) -> Event | None:
        """The first event of ``type_name`` after the decision event, if any."""
        seen_decision = False
        for env in self.envelopes[self.start:]:
            if seen_decision and env.type == type_name:
                return env.event
            if type(env.event) not in (DiceRolled, StateCheckpoint):
                seen_decision = True
        return None


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
    awaiting_altitude = state.phase == MOVEMENT and state.active is not None and state.step == ALTITUDE
    if awaiting_altitude and decision.type not in ALTITUDE_STEP_DECISIONS:
        return [AdjustAltitude(player=point.player, aircraft=state.active, change=0)]
    recover = DECISIONS.get(decision.type)
    if recover is None:
        raise UnknownDecision(
            f"event {decision.seq} (turn {decision.turn}, {decision.phase}) starts a command with "
            f"{decision.type}, which is not in the decision table of aero_events/regress/decisions.py; if it is a "
            "new decision, add the command that produces it to DECISIONS")
    return list(recover(decision.event, point))


@dataclass(frozen=True)
class RecordedDecision:
    """One recovered command, where its events lie in the record (seqs) and when it was given."""

    index: int
    command: Command
    first_seq: int
    last_seq: int
    turn: int
    phase: str

    def describe(self) -> str:
        return describe_command(self.command)


@dataclass(frozen=True)
class Recovery:
    """The commands of a recorded game, and the states its record passes through at each boundary."""

    decisions: tuple[RecordedDecision, ...]
    final_state: GameState
    initial_state: GameState


def _same(decided: Sequence[Event], plain: Sequence[Envelope], start: int) -> int | None:
    """Index of the first decided event that differs from the record's events from ``plain[start]``
    (None: all equal)."""
    for index, event in enumerate(decided):
        if start + index >= len(plain) or plain[start + index].event != event:
            return index
    return None


def recover_decisions(rules: AeronauticaRules, setup: object, envelopes: Sequence[Envelope]) -> Recovery:
    """The commands that produced ``envelopes`` (one line of play from its start) under ``rules``.

    Each command is decided with the recorded dice and salts and must reproduce the recorded events and
    checkpoint hashes exactly; otherwise :class:`RecoveryError` says where and how the record differs.
    """
    initial = rules.initial_state(setup)
    state = initial
    tape = RegressionDice(recorded_faces(envelopes), seed="recovery")
    salts = RecordedSalts(recorded_salts(envelopes), seed="recovery")
    roll_index = 0
    decisions: list[RecordedDecision] = []
    position = 0
    count = len(envelopes)
    # The record without its checkpoints, and for each envelope the index of the first such event from it on.
    plain = [env for env in envelopes if type(env.event) is not StateCheckpoint]
    plain_index, seen = [], 0
    for env in envelopes:
        plain_index.append(seen)
        seen += type(env.event) is not StateCheckpoint
    while True:
        position = _check_checkpoints(rules, state, envelopes, position)
        if position >= count:
            break
        point = DecisionPoint(state, envelopes, position)
        next_plain = plain_index[position]
        problems: list[str] = []
        accepted: tuple[Command, list[Event]] | None = None
        for command in candidates(point):
            dice_at, salt_at = tape.position, salts.position
            cup = DiceCup(tape, roll_index)
            cup.salts = salts  # type: ignore[attr-defined]
            try:
                decided = rules.decide(state, command, cup)
            except (RuleError, DiceError) as err:
                problems.append(f"{describe_command(command)} is refused: {err}")
                tape._pos, salts._next = dice_at, salt_at
                continue
            differs = _same(decided, plain, next_plain)
            if differs is None:
                accepted = (command, decided)
                roll_index = cup.next_index
                break
            shown = plain[next_plain + differs] if next_plain + differs < len(plain) else None
            problems.append(f"{describe_command(command)} decides {event_at(decided[differs])} where the record has "
                            + (f"seq {shown.seq}: {event_at(shown.event)}" if shown else "no more events"))
            tape._pos, salts._next = dice_at, salt_at
        if accepted is None:
            start = envelopes[position]
            raise RecoveryError(
                f"the record does not replay under {rules.name} from seq {start.seq} (turn {start.turn}, "
                f"{start.phase}): " + ("; ".join(problems) or "no command fits"))
        command, decided = accepted
        first_seq = envelopes[position].seq
        state, position = _fold_recorded(rules, state, envelopes, position, len(decided))
        decisions.append(RecordedDecision(index=len(decisions), command=command, first_seq=first_seq,
                                          last_seq=envelopes[position - 1].seq, turn=envelopes[position - 1].turn,
                                          phase=envelopes[position - 1].phase))
    return Recovery(decisions=tuple(decisions), final_state=state, initial_state=initial)


def _check_checkpoints(rules: AeronauticaRules, state: GameState, envelopes: Sequence[Envelope],
                       position: int) -> int:
    """Step over checkpoints at ``position``, checking each one's hash; return the next position."""
    while position < len(envelopes) and type(envelopes[position].event) is StateCheckpoint:
        checkpoint = envelopes[position]
        actual = rules.state_hash(state)
        if actual != checkpoint.event.state_hash:
            raise RecoveryError(f"at seq {checkpoint.seq} (turn {checkpoint.turn}) the state replayed under "
                                f"{rules.name} hashes to {actual[:12]}, the record says "
                                f"{checkpoint.event.state_hash[:12]}")
        position += 1
    return position


def _fold_recorded(rules: AeronauticaRules, state: GameState, envelopes: Sequence[Envelope], position: int,
                   events: int) -> tuple[GameState, int]:
    """Fold ``events`` recorded events from ``position`` (checking the checkpoints among them)."""
    folded = 0
    while folded < events:
        position = _check_checkpoints(rules, state, envelopes, position)
        state = rules.evolve(state, envelopes[position].event)
        position += 1
        folded += 1
    # A checkpoint recorded right after the command's last event belongs to the same command.
    return state, _check_checkpoints(rules, state, envelopes, position)


def commands_from_events(envelopes: Sequence[Envelope], rules: AeronauticaRules, setup: object) -> list[Command]:
    """The commands that produced a recorded line of play, in order (see :func:`recover_decisions`)."""
    return [decision.command for decision in recover_decisions(rules, setup, envelopes).decisions]
