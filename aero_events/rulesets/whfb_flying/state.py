"""The immutable state of a battle: units of models in ranks and files, in the air or on the ground.

A unit's ``pose`` is the centre of its front edge and its facing (the front stays put when models are removed
from the rear); its footprint is ``files`` bases wide and as many ranks deep as its models fill (geometry.py).
"""

from __future__ import annotations

import msgspec

from aero_events.core.orders import Reactions
from aero_events.table import Pose

from .data import TerrainPiece

#: Phases of a player turn (host): Movement, Magic, Shooting, Close Combat. ``vanguard`` precedes the first turn.
VANGUARD, MOVEMENT, MAGIC, SHOOTING, COMBAT, GAME_OVER = "vanguard", "movement", "magic", "shooting", "combat", \
    "game over"
PHASES = (MOVEMENT, MAGIC, SHOOTING, COMBAT)
#: Unit statuses: in play, or out of it.
ACTIVE, DESTROYED, FLED, FLOWN_HIGH = "active", "destroyed", "fled", "flown high"
#: The six fly moves (Movement Phase; Take Off and Land are one option of the six, two commands here).
TAKE_OFF, LAND, FLY, SOAR, INTERCEPT, SWOOP, FLY_HIGH = "take off", "land", "fly", "soar", "intercept", "swoop", \
    "fly high"
#: Kinds of combat besides Intercept and Swoop: a host charge on the ground, a character fallen onto an enemy.
GROUND, FALLEN = "ground", "fallen"


class UnitState(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    side: str
    profile: str
    models: int
    files: int
    pose: Pose
    wounds_taken: int = 0  # on the model in play that is wounded already
    status: str = ACTIVE
    in_air: bool = False
    #: The fly move made in its side's latest Movement phase ("" none): "made such moves on its previous
    #: Movement turn" (Take Off/Land), "Soaring models" (Soar) read it until the side's next Movement phase.
    flight: str = ""
    moved: bool = False
    marched: bool = False
    charged: bool = False
    shot: bool = False
    fought: bool = False
    cast: bool = False
    #: The unit this character has joined ("" none; Fly: "Unit joining is allowed"): it moves, fights and flees
    #: with that unit and is no unit of its own on the table meanwhile.
    joined: str = ""
    #: Victory points the enemy scores when the unit is destroyed, flees off the table or flies high (host).
    points: int = 0
    fleeing: bool = False
    #: Landed by falling (Characters): not a Take Off/Land, so no +1 to hit it; cannot flee while in contact.
    fell: bool = False
    #: The turn number (``GameState.turn_count``) until which the fallen character has -1 I and -1 CR.
    fallen_until: int = 0

    @property
    def in_play(self) -> bool:
        """In the battle as a unit of its own (not out of it, not a character inside another unit)."""
        return self.status == ACTIVE and not self.joined

    @property
    def alive(self) -> bool:
        return self.status == ACTIVE

    def with_characters(self, state: GameState) -> list[UnitState]:
        return [u for u in state.units.values() if u.joined == self.id and u.alive]


class Combat(msgspec.Struct, frozen=True, kw_only=True):
    """Two units in base contact: ``charger`` hit ``target``'s ``side`` (front, left, right, rear). ``kind`` is
    ground, intercept or swoop; ``first_round`` until the first round is fought; ``contacts`` the swooping
    models in base contact (Swoop: "bunch together ... can only attack enemy models they are in base contact
    with")."""

    charger: str
    target: str
    kind: str
    side: str
    first_round: bool = True
    contacts: int = 0
    exit_heading: int = 0
    #: The player turn (``GameState.turn_count``) in which it was last fought: every combat fights once a phase.
    fought_turn: int = 0


class Challenge(msgspec.Struct, frozen=True, kw_only=True):
    """A challenge in the combat named by ``key`` (its first pair of units) this Close Combat phase (host,
    README): ``challenger`` issued it ("" none was), ``accepted_by`` fights it, or ``refused`` names the
    character who stood back; ``settled`` once answered."""

    key: tuple[str, str]
    challenger: str = ""
    accepted_by: str = ""
    refused: str = ""
    settled: bool = False


class Spot(msgspec.Struct, frozen=True):
    """A template spell's place this turn, kept for the scene: its centre, radius and level."""

    unit: str
    centre: tuple[int, int]
    radius: int
    in_air: bool
    label: str = ""


class PendingCharge(msgspec.Struct, frozen=True, kw_only=True):
    charger: str
    target: str
    kind: str  # ground, intercept, swoop
    flank: str = ""


class Drawn(msgspec.Struct, frozen=True):
    """A path or a shot of this turn, kept for the scene (PathFlown, LineOfFire)."""

    unit: str
    points: tuple[tuple[int, int], ...]
    label: str = ""
    target: str = ""
    outcome: str = ""


class GameState(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[str, ...]
    scenario: str
    width: int
    height: int
    last_turn: int
    range_method: str
    terrain: tuple[TerrainPiece, ...]
    units: dict[str, UnitState]
    turn: int = 0  # game turn (each player has one player turn in it)
    turn_count: int = 0  # player turns begun
    active: str | None = None
    phase: str = VANGUARD
    first: str = ""
    vanguard_done: tuple[str, ...] = ()
    reactions: Reactions = Reactions()
    pending: PendingCharge | None = None
    combats: tuple[Combat, ...] = ()
    #: The challenges of this Close Combat phase (host: a challenge lasts one round).
    challenges: tuple[Challenge, ...] = ()
    #: The template spells placed this turn (Magic Phase), for the scene.
    templates: tuple[Spot, ...] = ()
    paths: tuple[Drawn, ...] = ()
    shots: tuple[Drawn, ...] = ()
    winner: str | None = None
    scores: dict[str, int] = {}
    reason: str = ""

    def opponent(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def side(self, player: str) -> list[UnitState]:
        return [u for u in self.units.values() if u.side == player and u.in_play]

    def engaged(self, unit_id: str) -> bool:
        return any(unit_id in (c.charger, c.target) for c in self.combats)

    def combats_of(self, unit_id: str) -> list[Combat]:
        return [c for c in self.combats if unit_id in (c.charger, c.target)]
