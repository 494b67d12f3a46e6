"""The events of Aeronautica Imperialis: facts, past tense, one per thing that happened.

Decisions are events (DESIGN.md contract 2): a manoeuvre chosen, a throttle
setting, the path flown, an altitude change. Dice are core ``DiceRolled`` events
placed just before the event that reads them.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from aero_events.core import DiceRolled, Event, SecretEvent
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
    """A Stalled aircraft failed to recover and falls into a Spin (p.29).

    ``altitude``: an aircraft cannot remain above its Max Altitude or Altitude 5 (p.18),
    so one that Stalled by climbing past them starts its Spin from its Max Altitude
    (None: the Altitude is unchanged).
    """

    aircraft: str
    altitude: int | None = None


class SpinRecovered(Event, frozen=True, tag="ai.SpinRecovered"):
    """D6 >= Handling: Speed set to Max Speed, facing set by a D6 (p.29)."""

    aircraft: str
    speed: int
    facing: int


class SpinFell(Event, frozen=True, tag="ai.SpinFell"):
    """Still spinning: the aircraft loses one Altitude level (p.29); at 0 it crashes."""

    aircraft: str
    altitude: int


# --- firing part (p.20-30): tailing state set by the End phase, read by Tailing Fire ---


class TailingDetermined(Event, frozen=True, tag="ai.TailingDetermined"):
    """The End phase decided (p.30) that ``aircraft`` is tailing ``target`` (None: no longer tailing).

    Emitted by the End phase; reduced by firing.evolve into AircraftState.tailing, which the
    next turn's Tailing Fire phase (p.13, p.23) reads. ``candidates``: with
    ``RuleOptions(tailing_choice="player")``, every enemy it is in a Tailing position on (closest first), of
    which its player picks one when it fires; empty otherwise.
    """

    aircraft: str
    target: str | None
    candidates: tuple[str, ...] = ()


# --- end phase, victory and scenarios part (p.29-37) ---


class SetUpRollOffWon(Event, frozen=True, tag="ai.SetUpRollOffWon"):
    """The winner of the set-up roll-off places the first aircraft (the Dogfight, p.34)."""

    player: str


class SetUpRollOffTied(Event, frozen=True, tag="ai.SetUpRollOffTied"):
    """Both roll-off dice showed the same: they are rolled again (a roll-off has a winner, p.34)."""


class WeatherDetermined(Event, frozen=True, tag="ai.WeatherDetermined"):
    """The conditions (Night Fighting & Bad Weather, p.33): ``exceptional_visibility``,
    ``bad_weather`` or ``night_fighting``, rolled on the D6 table by the roll-off winner or agreed."""

    conditions: str
    night_fighting: bool


class CloudLevelDetermined(Event, frozen=True, tag="ai.CloudLevelDetermined"):
    """Bad Weather (p.33): the D3 rolled after deploying gives the Altitude level of the cloud cover."""

    level: int


class AircraftPlaced(Event, frozen=True, tag="ai.AircraftPlaced"):
    """An aircraft set up on the Area of Engagement with the Speed and Altitude its player chose (p.34)."""

    aircraft: str
    hex: Hex
    facing: int
    speed: int
    altitude: int


class SetUpCompleted(Event, frozen=True, tag="ai.SetUpCompleted"):
    """Every aircraft not held in reserve is set up; turn 1 begins (p.34)."""


class ReserveArrived(Event, frozen=True, tag="ai.ReserveArrived"):
    """A reserve aircraft's arrival roll succeeded (Reserves, p.33); its player now places it."""

    aircraft: str


class ReservePlaced(Event, frozen=True, tag="ai.ReservePlaced"):
    """A reserve aircraft enters play in a full hex touching the edge of its side's deployment area,
    at Max Speed, at the Altitude its player chose (p.33)."""

    aircraft: str
    hex: Hex
    facing: int
    speed: int
    altitude: int


class EjectorSeatsRolled(Event, frozen=True, tag="ai.EjectorSeatsRolled"):
    """Ejector Seats (p.37): after the aircraft's destruction a D6; 5+ the crew escape (75% in VP)."""

    aircraft: str
    escaped: bool


class TerrainCrashed(Event, frozen=True, tag="ai.TerrainCrashed"):
    """Terrain Height (p.33): the aircraft was not higher than the terrain it flew into and crashed there."""

    aircraft: str
    hex: Hex
    terrain: str
    level: int


class TroopsDelivered(Event, frozen=True, tag="ai.TroopsDelivered"):
    """A transport landed in a landing zone and delivered its cargo (Transport Aircraft, p.37)."""

    aircraft: str
    zone: str
    points: int
    victory_points: int


class JumpTroopsReady(Event, frozen=True, tag="ai.JumpTroopsReady"):
    """A hovering transport over a landing zone may drop its Jump Troops before its move ends (p.37)."""

    aircraft: str


class JumpTroopsDropped(Event, frozen=True, tag="ai.JumpTroopsDropped"):
    """Jump Troops dropped over a landing zone (p.37): a D6 per point; each roll higher than Altitude
    plus Speed lands safely (``landed`` points, scoring ``victory_points``)."""

    aircraft: str
    zone: str
    points: int
    landed: int
    victory_points: int


class GroundTargetDestroyed(Event, frozen=True, tag="ai.GroundTargetDestroyed"):
    """A scenario's ground target was destroyed (p.33); its Victory points go to the other side."""

    target: str
    by: str | None = None


class DisengagementTurnDeclared(Event, frozen=True, tag="ai.DisengagementTurnDeclared"):
    """Insurmountable Losses (p.31): ``players``' forces are down to 25% of their starting numbers or
    fewer, so ``turn`` is the Disengagement turn, the last one played."""

    turn: int
    players: tuple[str, ...]


class AircraftVictoryPoints(msgspec.Struct, frozen=True, kw_only=True):
    """One enemy aircraft's worth in Victory points (p.32): its condition on the chart, the percentage,
    and the result, rounded up (p.32: "50% of 25 Victory points equals 13")."""

    aircraft: str
    owner: str
    points: int
    condition: str
    damaged: bool
    percent: int
    victory_points: int
    note: str | None = None


class VictoryPointsScored(Event, frozen=True, tag="ai.VictoryPointsScored"):
    """What ``player`` scored when the game ended (p.31-32): the enemy aircraft one by one, the Points
    Difference, troops delivered and scenario objectives."""

    player: str
    aircraft: tuple[AircraftVictoryPoints, ...]
    aircraft_total: int
    points_difference: int
    transport: int
    objectives: int
    total: int


# --- firing part (p.20-28): volleys, hits and damage, ground attacks, Autonomous weapons, upgrades ---


class Shot(msgspec.Struct, frozen=True, kw_only=True):
    """One weapon's part in a volley (p.21): the weapon (its index in ``AircraftState.weapons``) and its
    target (an aircraft, Ground Defence or ground target id).

    An Autonomous weapon (p.25) has no target: ``hex`` is where it is placed (adjacent to the firer, in
    one of the weapon's Fire Arcs), ``facing`` the way it points and ``hexes`` how far (0-6) it then
    moves straight on, away from the firer.
    """

    weapon_index: int
    target: str | None = None
    hex: Hex | None = None
    facing: int | None = None
    hexes: int | None = None


class VolleyDeclared(Event, frozen=True, tag="ai.VolleyDeclared"):
    """A player chose an aircraft (or Ground Defence) to fire and its targets (p.20-21).

    ``kind``: ``firing`` (the Firing phase, p.20), ``tailing`` (the Tailing Fire phase, p.13, p.23) or
    ``tail_gunner`` (Tail Gunner return fire, p.24). No shots: the aircraft holds its fire.
    """

    aircraft: str
    kind: str
    shots: tuple[Shot, ...]


class WeaponFired(Event, frozen=True, tag="ai.WeaponFired"):
    """A weapon fired (p.22): ``attack`` is ``air``, ``strafing``, ``bombing``, ``ground_to_air`` or
    ``autonomous``; ``band`` the range band (None: beyond Long range); ``dice`` the Firepower dice rolled;
    ``ammo_left`` the Ammo after firing (None: UL). Ammo is spent even out of range (p.22)."""

    aircraft: str
    weapon_index: int
    weapon: str
    target: str | None
    attack: str
    band: str | None
    dice: int
    ammo_left: int | None


class RerollOffered(Event, frozen=True, tag="ai.RerollOffered"):
    """The roll just made for ``aircraft`` may be re-rolled with its Imperial Ace / Fly Boss (p.37, p.45);
    its player accepts it or re-rolls every die. ``stage`` is ``to_hit`` or ``damage``."""

    aircraft: str
    weapon_index: int
    stage: str
    roll: DiceRolled


class RollAccepted(Event, frozen=True, tag="ai.RollAccepted"):
    """The player kept the roll instead of using the once-per-game re-roll."""

    aircraft: str
    roll_index: int


class RerollUsed(Event, frozen=True, tag="ai.RerollUsed"):
    """Imperial Ace / Fly Boss (p.37, p.45): all the dice of the roll are re-rolled; the second stands."""

    aircraft: str
    upgrade: str
    roll_index: int


class HitsScored(Event, frozen=True, tag="ai.HitsScored"):
    """The Firepower dice of one weapon scored ``hits`` on ``target`` (p.22)."""

    aircraft: str
    weapon_index: int
    target: str
    hits: int


class DecoyLaunched(Event, frozen=True, tag="ai.DecoyLaunched"):
    """Flares or Chaff Launchers / Belching Smoke (p.37, p.44), once per game: ``aircraft`` was hit by a
    weapon with Ammo 1-3 and rolled; ``negated``: a 6, the hit became a miss."""

    aircraft: str
    upgrade: str
    negated: bool
    firer: str
    weapon_index: int | None = None


class DamageRolled(Event, frozen=True, tag="ai.DamageRolled"):
    """The Damage dice of one weapon against ``target`` (p.23): ``damaging`` dice succeeded and would
    take ``structure`` Structure points (Extra Damage counting 2, p.24). ``kind``: ``shot``, ``creep``
    (Bomb Creep, p.27) or ``autonomous`` (p.25). ``skipped``: why no dice were rolled."""

    aircraft: str
    weapon_index: int | None
    weapon: str
    target: str
    damaging: int
    structure: int
    kind: str = "shot"
    skipped: str | None = None


class DamageIgnored(Event, frozen=True, tag="ai.DamageIgnored"):
    """Armoured Cockpit / Extra Armour (p.37, p.45): damaging hits ignored on a 6, ``structure`` not lost."""

    aircraft: str
    upgrade: str
    structure: int


class BombCreepRolled(Event, frozen=True, tag="ai.BombCreepRolled"):
    """Bomb Creep (p.27): a D6 for an Altitude 0 target adjacent to a Bombing Run's target; 4+ hits it."""

    aircraft: str
    weapon_index: int
    target: str
    hit: bool


class GroundTargetDamaged(Event, frozen=True, tag="ai.GroundTargetDamaged"):
    """A scenario's ground target lost Structure to Air-to-Ground fire (p.26-27)."""

    target: str
    hits: int
    structure: int


class VolleyEnded(Event, frozen=True, tag="ai.VolleyEnded"):
    """The aircraft's firing is fully resolved (p.20): it has fired this phase."""

    aircraft: str
    kind: str


class ReturnFireOffered(Event, frozen=True, tag="ai.ReturnFireOffered"):
    """Tail Gunner (p.24): ``aircraft`` was fired upon in the Tailing Fire phase by ``target`` and may
    return fire at once with its Tail Gunner weapons, even if destroyed by that fire."""

    aircraft: str
    target: str


class AutonomousLaunched(Event, frozen=True, tag="ai.AutonomousLaunched"):
    """An Autonomous weapon (p.25) placed adjacent to its firer, facing its chosen way."""

    weapon_id: str
    owner: str
    firer: str
    weapon: str
    weapon_index: int
    hex: Hex
    facing: int


class AutonomousDistanceRolled(Event, frozen=True, tag="ai.AutonomousDistanceRolled"):
    """At the end of the Movement phase an Autonomous weapon travels D3+3 hexes (p.25): ``hexes``."""

    weapon_id: str
    hexes: int


class AutonomousMoved(Event, frozen=True, tag="ai.AutonomousMoved"):
    """An Autonomous weapon flew ``path`` (p.25): straight, turning at most once (``turn`` -1 left,
    +1 right) after ``turn_at`` hexes."""

    weapon_id: str
    path: tuple[Hex, ...]
    hex: Hex
    facing: int
    turn_at: int = 0
    turn: int = 0


class AutonomousAttacked(Event, frozen=True, tag="ai.AutonomousAttacked"):
    """At the end of the Firing phase an Autonomous weapon adjacent to an aircraft rolled to hit it: 2+
    (p.25), ignoring Altitude."""

    weapon_id: str
    target: str
    hit: bool


class AutonomousRemoved(Event, frozen=True, tag="ai.AutonomousRemoved"):
    """An Autonomous weapon is removed from play (p.25): it hit, or left the Area of Engagement."""

    weapon_id: str
    reason: str


class OccupiedHexRolled(Event, frozen=True, tag="ai.OccupiedHexRolled"):
    """The 2020 update: the D6 rolled (the DiceRolled just before) for one occupied hex ``aircraft`` flew
    through to reach the first unoccupied hex (p.17 step 6). ``hit``: it rolled a 1, so damaging hits follow
    (``RuleOptions.occupied_hex_hits``). Only games played with ``RuleOptions(occupied_hex_roll=True)`` have it.
    """

    aircraft: str
    hex: Hex
    hit: bool


class ManoeuvreDeclined(Event, frozen=True, tag="ai.ManoeuvreDeclined"):
    """A Hovering aircraft (Speed 0, Min Speed 0) takes no Manoeuvre token this turn (p.16 "is not obliged to
    choose an Ace Manoeuvre"): it stays at Speed 0 and may only turn to face any direction."""

    aircraft: str


class FuelExhausted(Event, frozen=True, tag="ai.FuelExhausted"):
    """Fuel (p.11): ``aircraft`` has flown the ``turns`` its Fuel characteristic allows and is removed from play,
    "running out of fuel and crashing" (an AircraftDestroyed follows)."""

    aircraft: str
    turns: int


class RollOffered(Event, frozen=True, tag="ai.RollOffered"):
    """Imperial Ace (p.37) / Fly Boss (p.45): "Once per game, this aircraft may choose to reroll a dice roll".
    ``roll`` (the DiceRolled just before) was made for ``aircraft`` outside its own firing (Stall or Spin
    recovery, the facing after a Spin, a Crash, Breaking Up, Ejector Seats, its armour roll against a weapon's
    damage); the game waits for its player's AcceptRoll or UseReroll. ``step`` names the rule that made the
    roll; for an armour roll, ``losses`` is the Structure each damaging hit would take and ``weapon_index`` the
    firing aircraft's weapon."""

    aircraft: str
    step: str
    roll: DiceRolled
    losses: tuple[int, ...] = ()
    weapon_index: int | None = None
