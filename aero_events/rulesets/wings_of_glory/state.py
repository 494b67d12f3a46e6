"""The immutable game state of ``wings-of-glory/bob-2017``.

The referee state holds every secret (console cards, damage tokens, engine damage, the rudder-jam
direction, the token pools); :func:`player_view` strips what a player may not see.
"""

from __future__ import annotations

from typing import Any

import msgspec

from aero_events.core.orders import OrdersState, view_orders
from aero_events.core.pools import Pool, view_pool

from .geometry import Pose

# phases (GAME TURN) and the set-up step (SETUP)
SETUP = "setup"
PLAN = "plan"
MOVE = "move"
FIRE = "fire"
BOMB = "bomb"
END = "end"
OVER = "over"
SUBPHASES = ("3a", "3b", "3c")

FLYING = "flying"
SHOT_DOWN = "shot_down"
CRASHED = "crashed"
OUT = "out"            # left the playing area (LEAVING THE PLAYING AREA)
RETURNED = "returned"  # left by its own edge under the Fuel rule


class Crewman(msgspec.Struct, frozen=True, kw_only=True):
    """One of the aircrew: role, wounds (Crew Hit), ace skills and their Recovery counters (RECOVERY)."""

    role: str
    wounds: int = 0
    skills: tuple[str, ...] = ()
    recovery: int = 0
    skill_ready_turn: int = 0
    luck_used: bool = False


class PlaneState(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    owner: str
    side: str
    profile: str
    pose: Pose
    level: int
    climb: int = 0
    status: str = FLYING
    novice: bool = False
    lucky: bool = False
    crew: tuple[Crewman, ...] = ()
    loaded: bool = False
    fuel: int | None = None
    own_edge: str | None = None
    # the console's cards are simultaneous orders in GameState.orders (secret until flown)
    # what was flown (public)
    flown: tuple[int, ...] = ()
    executed: str = ""          # the manoeuvre kind executed this turn ("split_s" for an Immelmann card after a stall)
    illegal: bool = False       # ILLEGAL MANOEUVRES: the pilot may not fire this turn
    path: tuple[tuple[int, int], ...] = ()
    swept: tuple[tuple[int, int], ...] = ()
    replaced_by_card: bool = False
    over_targets: tuple[str, ...] = ()
    # damage (secret: tokens face down; others see how many)
    tokens: tuple[str, ...] = ()
    pending: tuple[tuple[str, str], ...] = ()   # (token, "full" | "points") drawn in this part of the turn
    damage: int = 0
    smoke: int = 0
    flames: int = 0
    rudder: str | None = None
    rudder_plans: int = 0
    engine: int = 0
    # firing bookkeeping
    fired_arcs: tuple[str, ...] = ()
    fired_crew: tuple[int, ...] = ()
    fired_fixed: bool = False
    overlap_shots: tuple[str, ...] = ()
    targets_now: tuple[str, ...] = ()
    targets_before: tuple[str, ...] = ()
    bombed: bool = False
    photo: str | None = None    # "taken" once a good photograph is in the camera

    @property
    def in_play(self) -> bool:
        return self.status == FLYING


class TargetState(msgspec.Struct, frozen=True, kw_only=True):
    """A ground or naval piece, a balloon or a PAC (SCENARIO RULES)."""

    id: str
    kind: str
    side: str | None
    pose: Pose
    damage: int = 0
    bomb_damage: int = 0
    tokens: tuple[str, ...] = ()           # face up (STRAFING)
    silenced: bool = False
    sunk: bool = False
    counters: tuple[str | None, ...] = ()  # per AA gun: the plane its artillery counter is on
    counter_turns: tuple[int, ...] = ()    # per AA gun: the turn the counter was placed
    strafed_by: tuple[str, ...] = ()
    towed_by: str | None = None
    launched: bool = False                 # PAC
    phases_left: int = 0                   # PAC: movement phases it remains
    hits: int = 0                          # bombs: direct hits (full) count as 2, near misses 1
    photographed: bool = False


class Torpedo(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    owner: str
    side: str
    pose: Pose
    launched_turn: int
    bombardier_wounded: bool = False
    stopped: bool = False


class Cloud(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    points: tuple[tuple[int, int], ...]
    level: int


class Shot(msgspec.Struct, frozen=True, kw_only=True):
    """A shot of this turn, for the scene: who fired at whom and the band."""

    shooter: str
    target: str
    start: tuple[int, int]
    end: tuple[int, int]
    outcome: str


class GameState(msgspec.Struct, frozen=True, kw_only=True):
    scenario: str
    turn: int = 0
    phase: str = SETUP
    subphase: str | None = None
    players: tuple[str, ...] = ()
    sides: dict[str, str] = msgspec.field(default_factory=dict)
    table: tuple[int, int] = (0, 0)
    floor: int = 0
    last_turn: int = 12
    fuel_rule: bool = False
    planes: dict[str, PlaneState] = msgspec.field(default_factory=dict)
    targets: dict[str, TargetState] = msgspec.field(default_factory=dict)
    torpedoes: dict[str, Torpedo] = msgspec.field(default_factory=dict)
    clouds: tuple[Cloud, ...] = ()
    pools: dict[str, Pool] = msgspec.field(default_factory=dict)
    #: the consoles: one step of simultaneous orders per planning (SETUP, then each turn), oldest first, each
    #: slot a plane; a step stays until every card in it is flown or put aside (planning.console).
    orders: tuple[OrdersState, ...] = ()
    done: tuple[str, ...] = ()
    sniper: tuple[str, str, str, tuple[str, ...], str] | None = None  # (player, plane, target, 2 tokens, rest)
    overlaps: tuple[tuple[str, str], ...] = ()
    shots: tuple[Shot, ...] = ()
    scores: dict[str, int] = msgspec.field(default_factory=dict)
    victory: dict[str, int] = msgspec.field(default_factory=dict)
    winner: str | None = None
    end_reason: str = ""

    def side_of(self, player: str) -> str:
        return self.sides[player]

    def planes_of(self, player: str) -> list[PlaneState]:
        return [p for p in self.planes.values() if p.owner == player]


#: a copy of a frozen struct with some fields changed (msgspec's own, called directly: it is on every fold)
replace = msgspec.structs.replace


def with_plane(state: GameState, plane: PlaneState) -> GameState:
    return replace(state, planes={**state.planes, plane.id: plane})


def with_target(state: GameState, target: TargetState) -> GameState:
    return replace(state, targets={**state.targets, target.id: target})


def player_view(state: GameState, player: str | None) -> dict[str, Any]:
    """The state as ``player`` sees it (None: a spectator).

    Hidden from everyone but the plane's owner: the cards in the console (``orders``: the core's
    ``view_orders`` of each planning step, which shows who has planned but never another's unflown card), the
    damage tokens and their total (the count stays: DAMAGE), engine damage (Engine Damage: secret), the
    rudder-jam direction (Rudder jammed: "the direction is kept secret"). The token pools are hidden from
    everyone (only their sizes show). The Sniper's two tokens are seen by the sniper only.
    """
    planes = {}
    for pid, plane in state.planes.items():
        if plane.owner == player:
            planes[pid] = plane
            continue
        planes[pid] = replace(plane, tokens=tuple("?" for _ in plane.tokens),
                              pending=tuple(("?", mode) for _, mode in plane.pending),
                              damage=-1, engine=-1, rudder=None if plane.rudder is None else "?")
    view = msgspec.to_builtins(replace(state, planes=planes, pools={}, orders=(), sniper=(
        state.sniper if state.sniper is not None and state.sniper[0] == player else None)))
    view["orders"] = [msgspec.to_builtins(view_orders(step, player)) for step in state.orders]
    view["pools"] = {name: msgspec.to_builtins(view_pool(pool)) for name, pool in state.pools.items()}
    return view
