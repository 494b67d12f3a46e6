"""Aeronautica Imperialis: Wings of Vengeance (2019) as a decider: decide, evolve, legal commands.

The parts of the turn live in their own modules (:mod:`.turn`, :mod:`.movement`,
:mod:`.altitude`); this module wires them to the core's :class:`Ruleset` contract
and holds the Choose Manoeuvres and Firing phase commands.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import msgspec

from aero_events.core import Command, DiceCup, DiceRolled, Event, RuleError, Ruleset
from aero_events.hexgrid import Board

from . import altitude, movement
from .commands import (
    ActivateAircraft,
    AdjustAltitude,
    ChooseFirstMover,
    ChooseManoeuvre,
    Hover,
    Land,
    ManoeuvrePlan,
    PassFiring,
    RocketBoostOut,
    SetThrottle,
    TakeOff,
    Taxi,
)
from .events import FiringPassed, FirstMoverChosen, ManoeuvreChosen
from .manoeuvres import ManoeuvreTable, load_manoeuvres
from .profiles import AircraftProfile, Catalogue, load_catalogue
from .setup import GameSetup, board_for, build_initial_state
from .state import CHOOSE_MANOEUVRES, FIRING, GAME_OVER, MOVEMENT, AircraftState, GameState, player_view
from .turn import Emitter, advance, eligible_to_choose, evolve_turn


class RuleOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Where players (or rule versions) disagree, a named option.

    ``throttle_past_limits``: the 2019 text lets a player set the Speed dial past Min or
    Max Speed with Throttle and suffer the consequences (p.15 "may not ... safely",
    "player error is a factor"); the 2020 update forbids it.
    """

    throttle_past_limits: bool = True


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
        return self.catalogue.aircraft[aircraft.profile]

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
        handler = self._handlers.get(type(command))
        if handler is None:
            raise RuleError(f"{type(command).__name__} is not a command of this ruleset", rule="Commands")
        out = Emitter(state, self.evolve)
        handler(self, out, command, dice)
        advance(out, dice)
        return out.events

    def evolve(self, state: GameState, event: Event) -> GameState:
        if type(event) is DiceRolled:
            return state  # the outcome events that follow a roll carry what it decided
        for reducer in self._reducers:
            new = reducer(self, state, event)
            if new is not None:
                return new
        raise TypeError(f"{self.name} cannot apply {type(event).__name__}")

    def legal_commands(self, state: GameState, player: str) -> list[Command]:
        if state.phase == CHOOSE_MANOEUVRES:
            return [ChooseManoeuvre(player=player, aircraft=a.id, manoeuvre=n)
                    for a in state.side(player) if eligible_to_choose(a) and a.commitment is None
                    for n in self.manoeuvres_for(a)]
        if state.phase == MOVEMENT:
            return movement.movement_commands(self, state, player)
        if state.phase == FIRING and state.to_act == player:
            return [PassFiring(player=player)]
        return []

    def manoeuvres_for(self, aircraft: AircraftState) -> list[int]:
        """The Ace Manoeuvres this aircraft can perform (p.10), as far as the table holds them."""
        return [n for n in self.profile(aircraft).ace_manoeuvres if n in self.manoeuvres]

    # ---------------------------------------------------------------- phase commands

    def _choose_manoeuvre(self, out: Emitter, command: ChooseManoeuvre, dice: DiceCup) -> None:
        """Choose Manoeuvres (p.13): a token face down for each eligible aircraft."""
        state = out.state
        if state.phase != CHOOSE_MANOEUVRES:
            raise RuleError("Ace Manoeuvres are chosen in the Choose Manoeuvres phase, before Initiative is "
                            "rolled", rule="Choose Manoeuvres", page=13)
        aircraft = state.aircraft.get(command.aircraft)
        if aircraft is None or aircraft.owner != command.player:
            raise RuleError(f"{command.player} has no aircraft {command.aircraft!r}", rule="Choose Manoeuvres",
                            page=13)
        if not eligible_to_choose(aircraft):
            why = "is in a Spin" if aircraft.spinning else "is not in play"
            raise RuleError(f"{aircraft.id} {why} and cannot perform an Ace Manoeuvre", rule="Choose Manoeuvres",
                            page=13)
        if aircraft.commitment is not None:
            raise RuleError(f"{aircraft.id} already has its Manoeuvre token", rule="Choose Manoeuvres", page=13)
        if command.manoeuvre not in self.manoeuvres_for(aircraft):
            raise RuleError(f"a {self.profile(aircraft).name} can perform Ace Manoeuvres "
                            f"{self.manoeuvres_for(aircraft)}, not {command.manoeuvre}", rule="Ace Manoeuvres",
                            page=10)
        salt = dice.salts.next()  # type: ignore[attr-defined]
        out.emit(ManoeuvreChosen(owner=command.player, aircraft=aircraft.id, manoeuvre=command.manoeuvre)
                 .sealed(salt))

    def _choose_first_mover(self, out: Emitter, command: ChooseFirstMover, dice: DiceCup) -> None:
        """The initiative winner decides which player moves first (p.14)."""
        state = out.state
        if state.phase != MOVEMENT or state.first_mover is not None:
            raise RuleError("who moves first is decided once, at the start of the Movement phase",
                            rule="Movement", page=14)
        if command.player != state.initiative:
            raise RuleError(f"{state.initiative} won the initiative and decides who moves first",
                            rule="Initiative", page=13)
        if command.first not in state.players:
            raise RuleError(f"{command.first!r} is not playing", rule="Movement", page=14)
        first = command.first
        if not any(movement.eligible_to_move(a) for a in state.side(first)):
            first = state.opponent(first)  # a side with nothing to move cannot move first
        out.emit(FirstMoverChosen(chooser=command.player, first=first))

    def _pass_firing(self, out: Emitter, command: PassFiring, dice: DiceCup) -> None:
        state = out.state
        if state.phase != FIRING:
            raise RuleError("passing is for the Firing phase", rule="Firing", page=20)
        if state.to_act != command.player:
            raise RuleError(f"it is {state.to_act}'s turn to fire", rule="Firing phase sequence", page=20)
        out.emit(FiringPassed(player=command.player))

    _handlers: ClassVar[dict[type, Callable[..., None]]] = {
        ChooseManoeuvre: _choose_manoeuvre,
        ChooseFirstMover: _choose_first_mover,
        PassFiring: _pass_firing,
        ActivateAircraft: lambda self, out, c, dice: movement.activate(self, out, c),
        SetThrottle: lambda self, out, c, dice: movement.set_throttle(self, out, c),
        ManoeuvrePlan: lambda self, out, c, dice: movement.fly_manoeuvre(self, out, c),
        Hover: lambda self, out, c, dice: movement.hover(self, out, c),
        Taxi: lambda self, out, c, dice: movement.taxi(self, out, c),
        TakeOff: lambda self, out, c, dice: movement.take_off(self, out, c),
        AdjustAltitude: altitude.adjust_altitude,
        Land: altitude.land,
        RocketBoostOut: altitude.rocket_boost_out,
    }

    # ---------------------------------------------------------------- reducers

    def _evolve_choices(self, state: GameState, event: Event) -> GameState | None:
        replace = msgspec.structs.replace
        if isinstance(event, ManoeuvreChosen):
            aircraft = state.aircraft[event.aircraft]
            chosen = replace(aircraft, commitment=event.commitment, manoeuvre=event.manoeuvre, salt=event.salt)
            return replace(state, aircraft={**state.aircraft, aircraft.id: chosen})
        if isinstance(event, FiringPassed):
            passed = (*state.passed, event.player)
            other = state.opponent(event.player)
            return replace(state, passed=passed, to_act=None if other in passed else other)
        return None

    _reducers: ClassVar[tuple[Callable[..., GameState | None], ...]] = (
        lambda self, state, event: evolve_turn(state, event),
        _evolve_choices,
        movement.evolve_movement,
        altitude.evolve_altitude,
    )

