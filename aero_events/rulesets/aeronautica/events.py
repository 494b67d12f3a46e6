"""The events of Aeronautica Imperialis: facts, past tense, one per thing that happened.

Decisions are events (DESIGN.md contract 2): a manoeuvre chosen, a throttle
setting, the path flown, an altitude change. Dice are core ``DiceRolled`` events
placed just before the event that reads them.
"""

from __future__ import annotations

from typing import ClassVar

from aero_events.core import Event, SecretEvent
from aero_events.hexgrid import Hex

PREFIX = "ai."


class TurnBegan(Event, frozen=True, tag="ai.TurnBegan"):
    """A new turn begins with the Choose Manoeuvres phase (p.13)."""

    turn: int


class PhaseBegan(Event, frozen=True, tag="ai.PhaseBegan"):
    phase: str


class ManoeuvreChosen(SecretEvent, frozen=True, tag="ai.ManoeuvreChosen"):
    """A Manoeuvre token placed face down (p.13); only its owner sees the number."""

    secret_fields: ClassVar[tuple[str, ...]] = ("manoeuvre",)
    aircraft: str
    manoeuvre: int


class InitiativeWon(Event, frozen=True, tag="ai.InitiativeWon"):
    """The winner of the Initiative roll (p.13), or of the Underdog rule (p.34)."""

    player: str
    reason: str = "roll"


class InitiativeTied(Event, frozen=True, tag="ai.InitiativeTied"):
    """Both Initiative dice showed the same: they are re-rolled (p.13)."""


class FirstMoverChosen(Event, frozen=True, tag="ai.FirstMoverChosen"):
    """The initiative winner decides which player moves first (p.14)."""

    chooser: str
    first: str


class AircraftActivated(Event, frozen=True, tag="ai.AircraftActivated"):
    """A player chose this aircraft to move next (p.14)."""

    aircraft: str


class ManoeuvreRevealed(Event, frozen=True, tag="ai.ManoeuvreRevealed"):
    """The Manoeuvre token turned over (p.14); checked against its commitment. None: no token."""

    aircraft: str
    manoeuvre: int | None
    salt: str | None


class ThrottleSet(Event, frozen=True, tag="ai.ThrottleSet"):
    """Speed changed by the Throttle step (p.15): ``change`` within the Throttle value."""

    aircraft: str
    change: int
    speed: int


class ManoeuvreFlown(Event, frozen=True, tag="ai.ManoeuvreFlown"):
    """The Ace Manoeuvre as flown (p.16-17): the choices and every hex entered, in order.

    ``path`` holds the hexes entered by the manoeuvre and remaining movement;
    ``pushed`` the extra hexes flown on through occupied hexes (p.17 step 6).
    ``completed`` is False when the aircraft was too slow to fly it (it flew
    straight ahead and Stalls, p.17).
    """

    aircraft: str
    manoeuvre: int | None
    side: str | None
    stage_hexes: tuple[int, ...]
    facings: tuple[int, ...]
    path: tuple[Hex, ...]
    pushed: tuple[Hex, ...]
    hex: Hex
    facing: int
    completed: bool = True


class Hovered(Event, frozen=True, tag="ai.Hovered"):
    """At Speed 0 a hovering aircraft stays put and may face any direction (p.16)."""

    aircraft: str
    facing: int


class Stalled(Event, frozen=True, tag="ai.Stalled"):
    """The aircraft Stalled (p.17-18): a Stall token is placed beside it."""

    aircraft: str
    reason: str


class AltitudeChanged(Event, frozen=True, tag="ai.AltitudeChanged"):
    """A climb (Speed -1) or dive (Speed +1) after the manoeuvre (p.18)."""

    aircraft: str
    change: int
    altitude: int
    speed: int


class CrashAvoided(Event, frozen=True, tag="ai.CrashAvoided"):
    """A dive to Altitude 0 pulled out (D6 3+, p.19): the aircraft stays at Altitude 1."""

    aircraft: str


class BrokeUp(Event, frozen=True, tag="ai.BrokeUp"):
    """Breaking Up check (p.19) after ending movement above Max Speed; Speed set to Max Speed.

    ``damaged`` when the D6 showed 1-2 (one damaging hit follows).
    """

    aircraft: str
    damaged: bool
    speed: int


class DamageSuffered(Event, frozen=True, tag="ai.DamageSuffered"):
    """Damaging hits reduce Structure (p.10, p.23)."""

    aircraft: str
    hits: int
    structure: int
    cause: str


class AircraftDestroyed(Event, frozen=True, tag="ai.AircraftDestroyed"):
    """Shot down, crashed or broken up: removed from play (p.19, p.23)."""

    aircraft: str
    cause: str


class AircraftDisengaged(Event, frozen=True, tag="ai.AircraftDisengaged"):
    """The aircraft left the Area of Engagement (p.17): ``how`` is accidental or voluntary."""

    aircraft: str
    how: str
    exit_hex: Hex | None
    via: str = "edge"


class Landed(Event, frozen=True, tag="ai.Landed"):
    """Altitude and Speed reduced to 0 at the end of a landing (p.19)."""

    aircraft: str


class Taxied(Event, frozen=True, tag="ai.Taxied"):
    """A landed aircraft taxied at Speed 1, turning freely before and after (p.19)."""

    aircraft: str
    path: tuple[Hex, ...]
    hex: Hex
    facing: int


class TookOff(Event, frozen=True, tag="ai.TookOff"):
    """A landed aircraft took off: Speed set to Min Speed, then Altitude 1 after moving (p.19)."""

    aircraft: str
    speed: int


class MovementEnded(Event, frozen=True, tag="ai.MovementEnded"):
    """The aircraft's Movement phase sequence is complete (p.15)."""

    aircraft: str


class FiringPassed(Event, frozen=True, tag="ai.FiringPassed"):
    """A player has no more aircraft that wish to fire this phase (p.14)."""

    player: str


class TurnEnded(Event, frozen=True, tag="ai.TurnEnded"):
    turn: int


class GameEnded(Event, frozen=True, tag="ai.GameEnded"):
    """The game is over (p.31): ``winner`` None for a draw."""

    reason: str
    winner: str | None


class StallRecovered(Event, frozen=True, tag="ai.StallRecovered"):
    """D6 >= Handling: Speed -1 (not below Min Speed), Altitude at Max Altitude (p.29)."""

    aircraft: str
    speed: int
    altitude: int


class SpinEntered(Event, frozen=True, tag="ai.SpinEntered"):
    """A Stalled aircraft failed to recover and falls into a Spin (p.29)."""

    aircraft: str


class SpinRecovered(Event, frozen=True, tag="ai.SpinRecovered"):
    """D6 >= Handling: Speed set to Max Speed, facing set by a D6 (p.29)."""

    aircraft: str
    speed: int
    facing: int


class SpinFell(Event, frozen=True, tag="ai.SpinFell"):
    """Still spinning: the aircraft loses one Altitude level (p.29); at 0 it crashes."""

    aircraft: str
    altitude: int
