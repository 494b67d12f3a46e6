"""What players ask to do, one command per decision the rulebook gives them."""

from __future__ import annotations

from aero_events.core import Command
from aero_events.hexgrid import Hex

from .events import Shot  # firing part: a weapon and its target (p.21)


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


# --- end phase, victory and scenarios part (p.29-37) ---


class RollOff(Command, frozen=True, tag="ai.RollOff"):
    """Roll off for set-up (p.34): either player asks; both roll a D6, ties roll again. The winner places
    first and, with Night Fighting & Bad Weather in use, rolls for the weather (p.33)."""


class PlaceAircraft(Command, frozen=True, tag="ai.PlaceAircraft"):
    """Set up one aircraft (the Dogfight, p.34): within three hexes of the player's edge (Ground Defences
    within six), with a Speed and Altitude its profile allows, chosen before it is placed."""

    aircraft: str
    hex: Hex
    facing: int
    speed: int
    altitude: int


class PlaceReserve(Command, frozen=True, tag="ai.PlaceReserve"):
    """Place an arrived reserve (p.33): a full hex touching the edge, within the side's deployment area;
    Speed is its Max Speed, the Altitude is the player's choice (and, the text being silent, the facing)."""

    aircraft: str
    hex: Hex
    facing: int
    altitude: int


class DropJumpTroops(Command, frozen=True, tag="ai.DropJumpTroops"):
    """Drop Jump Troops over a landing zone passed over this move, before adjusting Altitude (p.37).

    ``points``: how many points of transport capacity to drop (None: all that are left).
    """

    aircraft: str
    points: int | None = None


# --- firing part (p.20-28) ---


class FireWeapons(Command, frozen=True, tag="ai.FireWeapons"):
    """Fire one aircraft's (or Ground Defence's) weapons (p.20-21): each weapon at most once, at most one
    target per Fire Arc. No shots: the aircraft holds its fire. Also the Tailing Fire phase (p.13) and
    Tail Gunner return fire (p.24)."""

    aircraft: str
    shots: tuple[Shot, ...] = ()


class AcceptRoll(Command, frozen=True, tag="ai.AcceptRoll"):
    """Keep the roll just made instead of using the Imperial Ace / Fly Boss re-roll (p.37, p.45)."""

    aircraft: str


class UseReroll(Command, frozen=True, tag="ai.UseReroll"):
    """Imperial Ace / Fly Boss (p.37, p.45): once per game, re-roll all the dice of the roll just made."""

    aircraft: str


class SteerAutonomous(Command, frozen=True, tag="ai.SteerAutonomous"):
    """Fly an Autonomous weapon its D3+3 hexes (p.25): straight (``turn`` 0), or turning once left (-1)
    or right (+1) after ``turn_at`` hexes."""

    weapon: str
    turn_at: int = 0
    turn: int = 0


class LaunchAutonomous(Command, frozen=True, tag="ai.LaunchAutonomous"):
    """Place one Autonomous weapon (p.25) as the first part of an aircraft's firing; the same aircraft then
    places another or finishes with :class:`FireWeapons`. (FireWeapons may also carry the placements.)"""

    aircraft: str
    shot: Shot


class DeclineManoeuvre(Command, frozen=True, tag="DeclineManoeuvre"):
    """A Hovering aircraft takes no Manoeuvre token (Choose Manoeuvres phase, p.16: "Whilst at Speed 0, the
    aircraft ... is not obliged to choose an Ace Manoeuvre"); it then may not adjust its Speed."""

    aircraft: str
