"""What players ask to do, one command per decision the rulebook gives them."""

from __future__ import annotations

from aero_events.core import Command


class ChooseManoeuvre(Command, frozen=True, tag="ChooseManoeuvre"):
    """Place a Manoeuvre token face down for an eligible aircraft (Choose Manoeuvres phase, p.13)."""

    aircraft: str
    manoeuvre: int


class ChooseFirstMover(Command, frozen=True, tag="ChooseFirstMover"):
    """The initiative winner decides who moves first (p.14)."""

    first: str


class ActivateAircraft(Command, frozen=True, tag="ActivateAircraft"):
    """Choose an aircraft to move; its token is turned over (p.14)."""

    aircraft: str


class SetThrottle(Command, frozen=True, tag="SetThrottle"):
    """Change Speed by at most the Throttle value (p.15); 0 keeps it."""

    aircraft: str
    change: int


class ManoeuvrePlan(Command, frozen=True, tag="FlyManoeuvre"):
    """Fly the revealed Ace Manoeuvre one way (p.16-17): the side, the hexes each stage uses,
    and the facing value chosen at the end of each stage (in the table's vocabulary).

    An empty plan flies straight ahead: the only choice for an aircraft too slow to
    complete its manoeuvre (it Stalls) or with no Manoeuvre token (p.13).
    """

    aircraft: str
    side: str | None = None
    stage_hexes: tuple[int, ...] = ()
    facings: tuple[int, ...] = ()


class Hover(Command, frozen=True, tag="Hover"):
    """At Speed 0, stay in the hex and face any direction (p.16)."""

    aircraft: str
    facing: int


class AdjustAltitude(Command, frozen=True, tag="AdjustAltitude"):
    """Climb (+) or dive (-) after moving (p.18); 0 holds Altitude."""

    aircraft: str
    change: int


class Land(Command, frozen=True, tag="Land"):
    """Land at the end of movement: Manoeuvre 1, Altitude 1, Min Speed (p.19)."""

    aircraft: str


class RocketBoostOut(Command, frozen=True, tag="RocketBoostOut"):
    """Rocket Boosters: at Altitude 5, after the manoeuvre, climb out and disengage (p.37)."""

    aircraft: str


class Taxi(Command, frozen=True, tag="Taxi"):
    """A landed aircraft taxis at Speed 1 (``hexes`` 0 or 1), turning freely before and after (p.19)."""

    aircraft: str
    facing_before: int
    hexes: int
    facing_after: int


class TakeOff(Command, frozen=True, tag="TakeOff"):
    """A landed aircraft that chose Manoeuvre 1 takes off (p.19)."""

    aircraft: str


class PassFiring(Command, frozen=True, tag="PassFiring"):
    """No more of this player's aircraft wish to fire this Firing phase (p.14)."""
