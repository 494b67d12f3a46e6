"""The state of a game of Aeronautica Imperialis: immutable Structs, folded from events.

The state is the referee's view (it holds every secret); :func:`player_view`
strips what a player may not see (p.13: Manoeuvre tokens are placed face down).
"""

from __future__ import annotations

from typing import Any

import msgspec

from aero_events.hexgrid import Hex, Pose

# Phases of a turn (p.13-14), in order.
CHOOSE_MANOEUVRES = "choose_manoeuvres"
INITIATIVE = "initiative"
TAILING_FIRE = "tailing_fire"
MOVEMENT = "movement"
FIRING = "firing"
END = "end"
GAME_OVER = "game_over"
PHASES = (CHOOSE_MANOEUVRES, INITIATIVE, TAILING_FIRE, MOVEMENT, FIRING, END)

# Steps of one aircraft's movement (p.15).
THROTTLE = "throttle"
MANOEUVRE = "manoeuvre"
ALTITUDE = "altitude"
GROUND = "ground"  # a landed aircraft: taxi or take off (p.19)

# Where an aircraft is.
FLYING = "flying"
LANDED = "landed"
DESTROYED = "destroyed"
DISENGAGED = "disengaged"
RESERVE = "reserve"


class AircraftState(msgspec.Struct, frozen=True, kw_only=True):
    """One aircraft on (or off) the Area of Engagement.

    ``manoeuvre`` and ``salt`` are the face-down token (secret until revealed);
    ``commitment`` is what the opponent sees of it.
    """

    id: str
    owner: str
    profile: str
    hex: Hex
    facing: int
    speed: int
    altitude: int
    structure: int
    status: str = FLYING
    # What it carries (p.10-11, p.36-47): weapon ids (standard, additional, from upgrades) with the
    # ammunition left in each (None: unlimited), its upgrades, its total points and starting Structure.
    weapons: tuple[str, ...] = ()
    ammo: tuple[int | None, ...] = ()
    upgrades: tuple[str, ...] = ()
    points: int = 0
    starting_structure: int = 0
    stalled: bool = False
    spinning: bool = False
    disengaged_how: str | None = None  # "accidental" | "voluntary" (p.17)
    # This turn:
    commitment: str | None = None
    manoeuvre: int | None = None
    salt: str | None = None
    revealed: int | None = None
    moved: bool = False
    may_land: bool = False
    took_off_turn: int | None = None
    path: tuple[Hex, ...] = ()
    # Firing (p.20-25):
    fired: bool = False
    tailing: str | None = None  # the aircraft it is Tailing, determined in the End phase (p.30)
    tail_gunner_used: bool = False  # once per turn (p.24)
    # Once per game (p.37, p.44):
    reroll_used: bool = False
    decoy_used: bool = False  # Flares or Chaff Launchers / Belching Smoke

    @property
    def damaged(self) -> bool:
        return self.structure < self.starting_structure

    @property
    def pose(self) -> Pose:
        return Pose(self.hex, self.facing)

    @property
    def in_play(self) -> bool:
        """On the Area of Engagement: flying or landed."""
        return self.status in (FLYING, LANDED)


class GameState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the rules need between two events."""

    players: tuple[str, str]
    board: str
    last_turn: int
    aircraft: dict[str, AircraftState]
    turn: int = 1
    phase: str = CHOOSE_MANOEUVRES
    initiative: str | None = None
    initiative_rolls: int = 0
    first_mover: str | None = None
    to_act: str | None = None
    active: str | None = None
    step: str | None = None
    passed: tuple[str, ...] = ()
    disengagement_turn: bool = False
    winner: str | None = None
    end_reason: str | None = None

    def side(self, player: str) -> list[AircraftState]:
        return [a for a in self.aircraft.values() if a.owner == player]

    def opponent(self, player: str) -> str:
        first, second = self.players
        return second if player == first else first

    def occupied(self, exclude: str | None = None) -> set[Hex]:
        """Hexes holding another aircraft in play (p.7 'The Infinite Skies', p.17)."""
        return {a.hex for a in self.aircraft.values() if a.in_play and a.id != exclude}


def with_aircraft(state: GameState, aircraft: AircraftState) -> GameState:
    """The state with one aircraft replaced (states are immutable)."""
    return msgspec.structs.replace(state, aircraft={**state.aircraft, aircraft.id: aircraft})


def player_view(state: GameState, player: str | None) -> dict[str, Any]:
    """The state as ``player`` sees it: the other side's face-down manoeuvres only as commitments."""
    shown = msgspec.to_builtins(state)
    for aircraft in shown["aircraft"].values():
        if aircraft["owner"] != player and aircraft.get("revealed") is None:
            aircraft.pop("manoeuvre", None)
            aircraft.pop("salt", None)
    return shown
