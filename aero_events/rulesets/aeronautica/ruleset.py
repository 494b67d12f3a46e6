"""Aeronautica Imperialis: Wings of Vengeance (2019) as a decider: decide, evolve, legal commands.

The parts of the turn live in their own modules (:mod:`.turn`, :mod:`.movement`,
:mod:`.altitude`, :mod:`.firing`, :mod:`.end_phase`); this module wires them to the
core's :class:`Ruleset` contract.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import msgspec

from aero_events.core import Command, DiceCup, DiceRolled, Event, RuleError, Ruleset, chain_commands
from aero_events.hexgrid import Board

from . import altitude, end_phase, firing, movement, reserves, transports, turn, victory, weather
from .manoeuvres import ManoeuvreTable, load_manoeuvres
from .profiles import AircraftProfile, Catalogue, apply_upgrades, load_catalogue
from .scenarios import set_up, terrain
from .setup import GameSetup, board_for, build_initial_state
from .state import GAME_OVER, AircraftState, GameState, player_view
from .turn import Emitter, advance
from .victory import VictoryChart

#: The parts of the turn, each a module with ``HANDLERS`` (command type -> handler),
#: ``evolve(rules, state, event)`` (None for events not its own) and
#: ``legal_commands(rules, state, player)``. A new part is one more module here.
PARTS = (turn, movement, altitude, firing, end_phase,
         victory, set_up, weather, reserves, transports, terrain)  # end phase, victory and scenarios (p.29-37)

_HANDLERS: dict[type, Callable[..., None]] = {}
for _part in PARTS:
    for _command, _handler in _part.HANDLERS.items():
        if _command in _HANDLERS:
            raise TypeError(f"{_command.__name__} is handled by two parts of the turn")
        _HANDLERS[_command] = _handler


class RuleOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Where players (or rule versions) disagree, a named option.

    ``throttle_past_limits``: the 2019 text lets a player set the Speed dial past Min or
    Max Speed with Throttle and suffer the consequences (p.15 "may not ... safely",
    "player error is a factor"); the 2020 update forbids it.
    """

    throttle_past_limits: bool = True
    # End phase, victory and scenarios part (p.31-33):
    # ``victory_chart``: the Victory Points chart (p.32) to play with; None is data/victory.json, whose
    # Accidentally Disengaged values (lost from the text) are the 50%/100% defaults (victory.py).
    # ``cloud_cover``: under Bad Weather, Night Fighting rules apply when the firer is at or below the
    # cloud level ("firer", the text's reading) or when the firer or the target is ("either") (weather.py).
    victory_chart: VictoryChart | None = None
    cloud_cover: str = "firer"
    # Rule versions part (versions.py, data/versions.json):
    # ``occupied_hex_roll``: the 2020 update rolls a D6 for each occupied hex an aircraft flew through to reach
    # the first unoccupied hex (p.17 step 6), once its move is flown (movement.occupied_hex_rolls); 2+ nothing
    # happens, a 1 inflicts ``occupied_hex_hits`` damaging hits (illegible in the copy we have: one hit is the
    # documented default). Off, as in the 2019 text.
    # ``air_to_air_to_hit``: the D6 score air-to-air Firepower dice need (p.22, 5+), and
    # ``air_to_air_to_hit_by_range``: a score per range band ("short", "medium", "long") overriding it,
    # for variants such as "to-hit 4+ at Short range" (read by weapons.hit_requirements).
    occupied_hex_roll: bool = False
    occupied_hex_hits: int = 1
    air_to_air_to_hit: int = 5
    air_to_air_to_hit_by_range: dict[str, int] = msgspec.field(default_factory=dict)


class AeronauticaRules(Ruleset):
    """The ``aeronautica/wov-2019`` ruleset. Variants subclass it and change data or options."""

    name: ClassVar[str] = "aeronautica/wov-2019"
    setup_type: ClassVar[type] = GameSetup

    def __init__(self, catalogue: Catalogue | None = None, manoeuvres: ManoeuvreTable | None = None,
                 options: RuleOptions | None = None):
        self.catalogue = catalogue or load_catalogue()
        self.manoeuvres = manoeuvres or load_manoeuvres()
        self.options = options or RuleOptions()

    @property
    def data_version(self) -> str:
        return f"{self.catalogue.data_version}+{self.manoeuvres.data_version}"

    # ---------------------------------------------------------------- lookups

    def profile(self, aircraft: AircraftState) -> AircraftProfile:
        """The aircraft's profile as its upgrades modify it (Wazmek Speshul, Extra Armour, p.44-45)."""
        return self._profile(aircraft.profile, aircraft.upgrades)

    @functools.lru_cache(maxsize=1024)  # noqa: B019 - the ruleset lives as long as its games
    def _profile(self, profile_id: str, upgrades: tuple[str, ...]) -> AircraftProfile:
        return apply_upgrades(self.catalogue.aircraft[profile_id], [self.catalogue.upgrades[u] for u in upgrades])

    @staticmethod
    @functools.cache
    def _board(name: str) -> Board:
        return board_for(name)

    def board(self, state: GameState) -> Board:
        return self._board(state.board)

    # ---------------------------------------------------------------- the contract

    def initial_state(self, setup: GameSetup) -> GameState:
        return build_initial_state(setup, self.catalogue)

    def players(self, state: GameState) -> Sequence[str]:
        return state.players

    def clock(self, state: GameState) -> tuple[int, str]:
        return state.turn, state.phase

    def is_over(self, state: GameState) -> bool:
        return state.phase == GAME_OVER

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        return player_view(state, player)

    def decide(self, state: GameState, command: Command, dice: DiceCup) -> list[Event]:
        if state.phase == GAME_OVER:
            raise RuleError("the game is over", rule="Ending the Game", page=31)
        if command.player not in state.players:
            raise RuleError(f"{command.player!r} is not playing this game", rule="Players", page=None)
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError(f"{type(command).__name__} is not a command of this ruleset", rule="Commands")
        out = Emitter(state, self.evolve)
        handler(self, out, command, dice)
        advance(self, out, dice)
        return out.events

    def evolve(self, state: GameState, event: Event) -> GameState:
        if type(event) is DiceRolled:
            return state  # the outcome events that follow a roll carry what it decided
        for part in PARTS:
            new = part.evolve(self, state, event)
            if new is not None:
                return new
        raise TypeError(f"{self.name} cannot apply {type(event).__name__}")

    def legal_commands(self, state: GameState, player: str) -> Sequence[Command]:
        return chain_commands(part.legal_commands(self, state, player) for part in PARTS)

    def manoeuvres_for(self, aircraft: AircraftState) -> list[int]:
        """The Ace Manoeuvres this aircraft can perform (p.10), as far as the table holds them."""
        return [n for n in self.profile(aircraft).ace_manoeuvres if n in self.manoeuvres]


