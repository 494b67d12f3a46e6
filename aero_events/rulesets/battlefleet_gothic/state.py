"""The immutable state of a Battlefleet Gothic game.

Positions are integer 1/100 mm (``data.CM`` = 1000 per cm), headings integer 1/100 degree clockwise
from north. Every container is a dict keyed by id or a tuple; states are never mutated, only replaced.
"""

from __future__ import annotations

import msgspec

from aero_events.core.orders import Reactions

SETUP = "setup"
FIRST_TURN = "first turn"
MOVEMENT = "movement"
SHOOTING = "shooting"
ORDNANCE = "ordnance"
END = "end"
GAME_OVER = "game over"

ACTIVE = "active"
DRIFTING_HULK = "drifting hulk"
BLAZING_HULK = "blazing hulk"
DESTROYED = "destroyed"
DISENGAGED = "disengaged"
HULKS = (DRIFTING_HULK, BLAZING_HULK)

ALL_AHEAD_FULL = "all ahead full"
COME_TO_NEW_HEADING = "come to new heading"
BURN_RETROS = "burn retros"
LOCK_ON = "lock on"
RELOAD_ORDNANCE = "reload ordnance"
BRACE_FOR_IMPACT = "brace for impact"
MOVEMENT_ORDERS = (ALL_AHEAD_FULL, COME_TO_NEW_HEADING, BURN_RETROS, LOCK_ON, RELOAD_ORDNANCE)
HALF_EFFECT_ORDERS = (ALL_AHEAD_FULL, BURN_RETROS, COME_TO_NEW_HEADING)  # p.21


class ShipState(msgspec.Struct, frozen=True, kw_only=True):
    """One ship: where it is, what it has suffered, what it is doing this turn."""

    id: str
    name: str
    side: str
    class_id: str
    x: int
    y: int
    heading: int
    leadership: int = 0
    damage: int = 0
    criticals: tuple[str, ...] = ()  # active critical results, repeated when stacked (p.24)
    order: str | None = None
    brace_ends_turn: int = 0  # the player turn in whose end phase Brace for Impact is removed (p.12)
    brace_failed_against: str | None = None  # p.23: no new attempt against the same attacker
    status: str = ACTIVE
    moved: bool = False  # has moved in this movement phase
    last_move: int = 0  # distance moved in its latest movement phase (Defences, p.20)
    extra_move: int = 0  # All Ahead Full's extra distance this turn
    weapons_used: dict[str, int] = msgspec.field(default_factory=dict)  # this shooting phase
    leadership_passed: tuple[str, ...] = ()  # targets a Leadership test allowed this phase (p.19)
    leadership_failed: tuple[str, ...] = ()
    ordnance_loaded: bool = True  # p.27: ships start loaded
    turrets_against: str | None = None  # "torpedoes" or "attack craft" this ordnance phase (p.29)
    squadron: str = ""  # the squadron it belongs to, "" for none

    @property
    def position(self) -> tuple[int, int]:
        return (self.x, self.y)

    @property
    def on_table(self) -> bool:
        return self.status in (ACTIVE, DRIFTING_HULK, BLAZING_HULK)

    @property
    def hulk(self) -> bool:
        return self.status in HULKS

    @property
    def braced(self) -> bool:
        return self.order == BRACE_FOR_IMPACT


class BlastMarker(msgspec.Struct, frozen=True):
    x: int
    y: int

    @property
    def position(self) -> tuple[int, int]:
        return (self.x, self.y)


class OrdnanceMarker(msgspec.Struct, frozen=True, kw_only=True):
    """A torpedo salvo (p.28) or a wave of attack craft squadrons (``kind`` "attack craft", p.29-30):
    strength (torpedoes, or squadrons in the wave), speed, heading; ``travelled`` and ``done`` track the
    current ordnance phase, ``attacked`` the ships a salvo has already struck."""

    id: str
    side: str
    kind: str
    launcher: str
    x: int
    y: int
    heading: int
    strength: int
    speed: int
    launched_turn: int
    fighters: int = 0  # attack craft waves (p.29-30): squadrons of each type
    bombers: int = 0
    assault_boats: int = 0
    torpedo_kind: str = "standard"  # a salvo's kind in ordnance.json ``torpedo_kinds`` (boarding, p.28)
    ignore_hulks: bool = False  # boarding torpedoes may elect to ignore hulks (p.28)
    steered: bool = False  # a boarding salvo has made its turn decision this ordnance phase (p.28)
    travelled: int = 0
    done: bool = False
    blast_checked: bool = False
    screening_turn: int = 0  # fighters moved with a ship in this player turn do not move again (p.29)
    attacked: tuple[str, ...] = ()

    @property
    def position(self) -> tuple[int, int]:
        return (self.x, self.y)


class PendingReaction(msgspec.Struct, frozen=True, kw_only=True):
    """What resumes after a reaction window (p.13 Exceptions; the window itself is the core's
    ``aero_events.core.orders.Reactions``): the target's owner decides before the attack's dice are rolled.

    ``kind`` is the attack (``shooting``, ``nova``, ``torpedoes``, ``attack craft``); ``weapons``, ``target``
    and ``aim`` hold what resolves once the decision is made. ``can_brace`` and ``can_turrets`` say which
    choices are open.
    """

    player: str
    ship: str
    attacker: str
    kind: str
    can_brace: bool
    can_turrets: bool
    weapons: tuple[tuple[str, int], ...] = ()
    target: str = ""
    aim: tuple[int, int] = (0, 0)
    joined: tuple[tuple[str, str, int], ...] = ()  # squadron fire (p.20): (ship, battery, firepower)


class Strike(msgspec.Struct, frozen=True, kw_only=True):
    """Lance shots of an exploding ship (p.26) still to strike ``victim``: explosions wait in
    ``GameState.strikes`` so that a Brace for Impact window (p.23) can open before each victim's dice."""

    wreck: str
    side: str
    victim: str
    strength: int
    x: int
    y: int
    offered: bool = False


class PendingRemoval(msgspec.Struct, frozen=True, kw_only=True):
    """Blast Marker Removal (p.31): the player whose turn it is removes ``count`` markers of their choice."""

    player: str
    count: int


class Shot(msgspec.Struct, frozen=True):
    """A line of fire of the current phase, for the scene."""

    shooter: str
    target: str
    start: tuple[int, int]
    end: tuple[int, int]
    outcome: str


class GameState(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[str, str]
    ships: dict[str, ShipState]
    blast_markers: dict[str, BlastMarker] = msgspec.field(default_factory=dict)  # keyed by str(number)
    ordnance: dict[str, OrdnanceMarker] = msgspec.field(default_factory=dict)
    next_id: int = 1
    phase: str = SETUP
    round: int = 0
    player_turn: int = 0
    active: str | None = None
    first_player: str | None = None
    chooser: str | None = None  # who chooses to go first or second (p.13)
    last_round: int = 8
    table: tuple[int, int] = (180_000, 120_000)
    checks_failed: bool = False  # a failed Command check stops all others this turn (p.11)
    pending: PendingReaction | PendingRemoval | None = None
    strikes: tuple[Strike, ...] = ()  # explosion lance shots not yet rolled, the next first (damage.py)
    reactions: Reactions = msgspec.field(default_factory=Reactions)  # the core's reaction windows
    shots: tuple[Shot, ...] = ()
    paths: dict[str, tuple[tuple[int, int], ...]] = msgspec.field(default_factory=dict)
    shooting_done: bool = False
    winner: str | None = None
    result: str = ""
    surrendered: str | None = None

    def opponent(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def fleet(self, side: str) -> list[ShipState]:
        return [ship for ship in self.ships.values() if ship.side == side]
