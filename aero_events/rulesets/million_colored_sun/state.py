"""The immutable state of a game of Million-Colored Sun on this project's minimal host.

Lengths are 1/100 mm and headings 1/100 degree clockwise from north (``aero_events.table``). A missile is a model
(MISSILES: "Missiles behave exactly as though they were an AIRBORNE model") whose warscroll is ``missile``.
"""

from __future__ import annotations

import msgspec

from aero_events.table import Circle, Pose

# phases of a player's turn (the host's), and the game's end
HERO = "hero"
MOVEMENT = "movement"
SHOOTING = "shooting"
CHARGE = "charge"
COMBAT = "combat"
BATTLESHOCK = "battleshock"
GAME_OVER = "game over"
PHASES = (HERO, MOVEMENT, SHOOTING, CHARGE, COMBAT, BATTLESHOCK)

# model status
ACTIVE = "active"
SLAIN = "slain"
OFF_TABLE = "off-table"
FLED = "fled"
EXPLODED = "exploded"
LOST = "lost"

# movement modes (TERMINOLOGY)
AIRBORNE = "airborne"
FLY = "fly"
GROUND = "ground"

# hero-phase actions (AIRBORNE ACTIONS)
EVADE = "evade"
LOCK_ON = "lock-on"
RECOVER = "recover"
SHIFT_MODE = "shift-mode"
RED_MANOEUVRE = "red-manoeuvre"
LAUNCH_ORDNANCE = "launch-ordnance"
BOMBING_RUN = "bombing-run"
ACTIONS = (EVADE, LOCK_ON, RECOVER, SHIFT_MODE, RED_MANOEUVRE, LAUNCH_ORDNANCE, BOMBING_RUN)


class ModelState(msgspec.Struct, frozen=True, kw_only=True):
    """One model on (or beside) the table."""

    id: str
    side: str
    warscroll: str
    x: int
    y: int
    heading: int
    mode: str
    unit: str | None = None
    status: str = ACTIVE
    wounds_taken: int = 0
    blast_markers: int = 0
    jammed: tuple[str, ...] = ()
    # the action taken in this player's last Hero phase and what it lasts for ("until your next Hero phase")
    action: str | None = None
    evade: bool = False
    lock_on: bool = False
    red_ready: bool = False
    bombing_run: bool = False
    missiles_launched: int = 0
    bombs_dropped: int = 0
    # MOVING OFF THE BOARD: the player turn (``GameState.turn_number``) it left in; ``returning`` once its 3+ is rolled
    left_turn: int | None = None
    returning: bool = False
    # missiles: the player turn they were launched in ("started the turn on the board")
    launched_turn: int | None = None
    # per-turn flags of the host
    moved: bool = False
    ran: bool = False
    charged: bool = False
    shot: tuple[str, ...] = ()
    fought: bool = False
    slain_turn: int | None = None

    @property
    def on_table(self) -> bool:
        return self.status == ACTIVE

    @property
    def airborne(self) -> bool:
        """SPECIAL RULES: the layer's rules apply only while the model uses its AIRBORNE movement mode."""
        return self.mode == AIRBORNE

    @property
    def pose(self) -> Pose:
        return Pose(self.x, self.y, self.heading)

    @property
    def position(self) -> tuple[int, int]:
        return (self.x, self.y)


class TerrainState(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    x: int
    y: int
    radius: int
    height: int
    too_tall: bool
    destroyed: bool = False

    @property
    def shape(self) -> Circle:
        return Circle((self.x, self.y), self.radius)


class PathDrawn(msgspec.Struct, frozen=True):
    """A flight path or ground move of the last movement or charge, for drawing."""

    model: str
    points: tuple[tuple[int, int], ...]


class ShotDrawn(msgspec.Struct, frozen=True):
    shooter: str
    target: str
    start: tuple[int, int]
    end: tuple[int, int]
    outcome: str


class BlastDrawn(msgspec.Struct, frozen=True):
    """A bomb or missile explosion of the current player turn: ``kind`` "bomb" or "missile"."""

    kind: str
    x: int
    y: int
    radius: int
    label: str = ""


class GameState(msgspec.Struct, frozen=True, kw_only=True):
    battleplan: str
    players: tuple[str, str]
    edges: dict[str, tuple[str, ...]]
    width: int
    height: int
    last_round: int
    models: dict[str, ModelState]
    terrain: dict[str, TerrainState]
    round: int = 1
    turn_number: int = 1
    first: str | None = None
    active: str | None = None
    phase: str = HERO
    combat_player: str | None = None
    combat_done: tuple[str, ...] = ()
    vp: dict[str, int] = msgspec.field(default_factory=dict)
    next_missile: int = 1
    paths: tuple[PathDrawn, ...] = ()
    shots: tuple[ShotDrawn, ...] = ()
    blasts: tuple[BlastDrawn, ...] = ()
    winner: str | None = None
    reason: str = ""

    @property
    def turn(self) -> int:
        """The battle round (the runner and the tools read ``turn``)."""
        return self.round

    def opponent(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def side(self, player: str) -> list[ModelState]:
        return [m for m in self.models.values() if m.side == player]

    def on_table(self) -> list[ModelState]:
        return [m for m in self.models.values() if m.status == ACTIVE]
