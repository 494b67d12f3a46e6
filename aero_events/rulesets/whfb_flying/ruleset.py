"""Alternate Flying Rules for Warhammer Fantasy (seeds/004) on this project's own minimal rank-and-file host, as
a decider: decide, evolve, legal commands.

The parts live in their own modules, wired as Aeronautica's ``ruleset.py`` wires its own: each part has
``HANDLERS`` (command type -> handler) and ``legal_commands(rules, state, player)``; ``fold.APPLY`` maps each
event to its state change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal

import msgspec

from aero_events.core import (
    Command,
    DiceCup,
    DiceRolled,
    Event,
    RuleError,
    Ruleset,
    ScatterRolled,
    chain_commands,
)
from aero_events.core.orders import require_no_window

from . import charges, flight, magic, movement, shooting, turn
from .commands import React
from .data import GameData, UnitProfile, default_data
from .fold import APPLY
from .setup import GameSetup, build_initial_state
from .state import GAME_OVER, GameState, UnitState
from .turn import Emitter, advance, decider

#: The parts of the turn: host movement and Vanguard, the fly moves and characters leaving units, charges (Intercept,
#: Swoop) and challenge answers, magic, shooting, and the turn itself (close combat is fought by the turn when its
#: phase begins).
PARTS = (movement, flight, charges, magic, shooting, turn)

_HANDLERS: dict[type, Any] = {}
for _part in PARTS:
    for _command, _handler in _part.HANDLERS.items():
        if _command in _HANDLERS:
            raise TypeError(f"{_command.__name__} is handled by two parts of the turn")
        _HANDLERS[_command] = _handler


class RuleOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Where the text leaves a choice, a named option (README, "gaps").

    * ``scatter_distance``: how far a falling model or character scatters on an arrow: "d6" inches (default)
      or "artillery" (2-10", a misfire lands below); the text says only "per the scatter dice".
    * ``swoop_stand_and_shoot_modifier``: the to-hit modifier of the Stand and Shoot against a Swoop, -1 (the
      text's "with -1 To Hit"); -2 reads it as a further -1 on the host's Stand and Shoot penalty.
    """

    scatter_distance: Annotated[Literal["d6", "artillery"], msgspec.Meta(
        description="how far a falling model or character scatters on an arrow: D6 inches, or the artillery dice "
                    "(2-10\", a misfire lands below); the text says only \"per the scatter dice\" (Falling)")] = "d6"
    swoop_stand_and_shoot_modifier: Annotated[Literal[-1, -2], msgspec.Meta(
        description="to-hit modifier of the Stand and Shoot against a Swoop: -1 (the text's \"with -1 To Hit\") "
                    "or -2 (a further -1 on the host's Stand and Shoot penalty) (Swoop)")] = -1


#: What this version is, for ``aero versions``.
THIS_VERSION = ("Alternate Flying Rules for Warhammer Fantasy (a fan supplement): flyers on the ground or in the "
                "air, Take Off, Land, Fly, Soar, Swoop, on this project's own minimal 8th-edition host.")


class WhfbFlyingRules(Ruleset):
    """The ``whfb-flying/alternate`` ruleset."""

    name: ClassVar[str] = "whfb-flying/alternate"
    version_description: ClassVar[str] = THIS_VERSION
    setup_type: ClassVar[type] = GameSetup
    options_type: ClassVar[type] = RuleOptions

    def __init__(self, data: GameData | None = None, options: RuleOptions | None = None):
        self.data = data or default_data()
        self.options = options or RuleOptions()

    @property
    def data_version(self) -> str:
        return self.data.data_version

    def profile(self, unit: UnitState) -> UnitProfile:
        return self.data.units[unit.profile]

    # ---------------------------------------------------------------- the contract

    def initial_state(self, setup: GameSetup) -> GameState:
        return build_initial_state(setup, self.data)

    def players(self, state: GameState) -> Sequence[str]:
        return state.players

    def clock(self, state: GameState) -> tuple[int, str]:
        if state.active is None or state.phase == GAME_OVER:
            return state.turn, state.phase
        return state.turn, f"{state.active} {state.phase}"

    def is_over(self, state: GameState) -> bool:
        return state.phase == GAME_OVER

    def decide(self, state: GameState, command: Command, dice: DiceCup) -> list[Event]:
        if state.phase == GAME_OVER:
            raise RuleError("the battle is over", rule="Host: the turn")
        if command.player not in state.players:
            raise RuleError(f"{command.player!r} is not playing this battle", rule="Players")
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError(f"{type(command).__name__} is not a command of this ruleset", rule="Commands")
        if not isinstance(command, React):
            require_no_window(state.reactions)
        out = Emitter(state, self.evolve)
        handler(self, out, command, dice)
        advance(self, out, dice)
        return out.events

    def evolve(self, state: GameState, event: Event) -> GameState:
        if type(event) is DiceRolled or type(event) is ScatterRolled:
            return state  # the outcome events that follow a roll carry what it decided
        apply = APPLY.get(type(event))
        if apply is None:
            raise TypeError(f"{self.name} cannot apply {type(event).__name__}")
        return apply(state, event)

    def legal_commands(self, state: GameState, player: str) -> Sequence[Command]:
        if state.phase == GAME_OVER or decider(state) != player:
            return []
        return chain_commands(part.legal_commands(self, state, player) for part in PARTS)

    # ---------------------------------------------------------------- tools (interface.py)

    def describe_event(self, event: Any, state: Any = None) -> str:
        from .narrate import describe_event

        return describe_event(self, event, state)

    def describe_command(self, command: Any, state: Any = None) -> str:
        from .narrate import describe_command

        return describe_command(self, command, state)

    def notation(self) -> Any:
        """``n-spears moves 4in towards 90``, ``n-pegasi swoops on the left flank of s-spears`` (:mod:`.notation`)."""
        from .notation import WhfbFlyingNotation

        return WhfbFlyingNotation(self)

    def outcome(self, state: GameState):
        from .narrate import outcome

        return outcome(self, state)

    def score_name(self) -> str:
        return "VP"

    def scene(self, state: GameState, viewer: str | None = None, events: Sequence[Any] = (),
              focus: str | None = None):
        from .scene import scene

        return scene(self, state, viewer, focus)

    def sql_views(self):
        from .views import sql_views

        return sql_views(self.data)

    def corpus(self):
        """The golden corpus plan (``corpus.py``)."""
        from .corpus import plan

        return plan(self)

    def scenarios(self) -> Mapping[str, Any]:
        from .play import scenarios

        return scenarios(self)

    def bots(self) -> Mapping[str, Any]:
        from .bots import bots

        return bots()

    def describe_setup(self, setup: GameSetup, bots: Mapping[str, str]) -> list[str]:
        state = self.initial_state(setup)
        heading = (f"{self.data.scenarios[state.scenario].name}: {state.width // 2540}\" x {state.height // 2540}\", "
                   f"{state.last_turn} turns, {state.range_method} range method")
        lines = [heading]
        for player in state.players:
            units = ", ".join(f"{u.id} ({u.models} {self.profile(u).name})" for u in state.side(player))
            lines.append(f"{player} ({bots.get(player, 'no')} bot): {units}")
        return lines

    def demo_scenario(self):
        return "pitched_battle", {}, ("general", "general")

    def statistics(self, state: GameState) -> dict[str, dict[str, int]]:
        lost = {p: 0 for p in state.players}
        high = {p: 0 for p in state.players}
        for unit in state.units.values():
            if not unit.alive:
                lost[unit.side] += 1
            if unit.status == "flown high":
                high[unit.side] += 1
        return {"units lost": lost, "flown high": high}


__all__ = ["RuleOptions", "WhfbFlyingRules"]
