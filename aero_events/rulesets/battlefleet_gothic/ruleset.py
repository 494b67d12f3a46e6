"""Battlefleet Gothic (core rules, rulebook p.4-31) as a decider: decide, evolve, legal commands.

The parts of the turn live in their own modules; this module wires them to the core's :class:`Ruleset`
contract, as Aeronautica's ``ruleset.py`` does: each part has ``HANDLERS`` (command type -> handler) and
``legal_commands(rules, state, player)``; ``fold.APPLY`` maps each event to its state change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, Literal

import msgspec

from aero_events.core import Command, DiceCup, DiceRolled, Event, RuleError, Ruleset, chain_commands
from aero_events.core.dice import ScatterRolled
from aero_events.core.orders import require_no_window

from . import attack_craft, end_phase, movement, orders, ordnance, reactions, shooting, turn
from .commands import React
from .data import CriticalRow, GameData, ShipClass, default_data
from .fold import APPLY
from .setup import GameSetup, build_initial_state
from .state import GAME_OVER, GameState, ShipState
from .turn import Emitter, advance

#: The parts of the turn (movement and orders, shooting, ordnance, damage via reactions, end phase).
PARTS = (turn, orders, movement, shooting, ordnance, attack_craft, reactions, end_phase)

_HANDLERS: dict[type, Any] = {}
for _part in PARTS:
    for _command, _handler in _part.HANDLERS.items():
        if _command in _HANDLERS:
            raise TypeError(f"{_command.__name__} is handled by two parts of the turn")
        _HANDLERS[_command] = _handler


class RuleOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Where players (or the text) disagree, a named option; a variant file changes them (README,
    "Rule options").

    * ``brace_test``: "leadership" (p.23 "Take a Leadership test") or "command_check" (p.11).
    * ``brace_reactions``: offer the Brace for Impact window at all (False: never brace).
    * ``hulk_rolls``: "per_attack" (one Catastrophic Damage roll per attack that hits a hulk) or "per_hit".
    * ``brace_timing``: "reaction" (p.11, p.23) or "any_time" (p.12); see ``reactions.py``.
    * ``brace_against``: "any_damage" (p.23 "ANY time a ship faces taking damage": windows also before an
      exploding ship's lance shots and the Blast-marker damage roll) or "enemy_attacks" (p.11 "hits
      inflicted on it by the enemy": only before the other player's shooting and ordnance attacks).
    * ``hit_and_run``: False (the text: the raid is in the absent Advanced Rules, so boarding torpedoes and
      assault boats are not used) or True (the reconstruction in ``ordnance.json`` ``hit_and_run_raid``).
    """

    brace_test: Annotated[Literal["leadership", "command_check"], msgspec.Meta(
        description="the test to Brace for Impact: p.23 Leadership test, or p.11 Command check")] = \
        "leadership"
    brace_reactions: Annotated[bool, msgspec.Meta(
        description="offer the Brace for Impact window at all (p.23)")] = True
    hulk_rolls: Annotated[Literal["per_attack", "per_hit"], msgspec.Meta(
        description="Catastrophic Damage rolls for a hulk that is hit: once per attack, or once per hit "
                    "(p.26 Hulks)")] = "per_attack"
    brace_timing: Annotated[Literal["reaction", "any_time"], msgspec.Meta(
        description="when a ship may brace: in the ordnance phase or the opponent's turn (p.11, p.23), "
                    "or at any time (p.12)")] = "reaction"
    brace_against: Annotated[Literal["any_damage", "enemy_attacks"], msgspec.Meta(
        description="what a ship braces against: any damage (p.23) or only the enemy's attacks (p.11)")] = \
        "any_damage"
    hit_and_run: Annotated[bool, msgspec.Meta(
        description="boarding torpedoes and assault boats with the reconstructed hit-and-run raid (the raid "
                    "is in the absent Advanced Rules, p.28, p.30)")] = False

    def __post_init__(self) -> None:
        if self.brace_test not in ("leadership", "command_check"):
            raise ValueError("brace_test is 'leadership' or 'command_check'")
        if self.hulk_rolls not in ("per_attack", "per_hit"):
            raise ValueError("hulk_rolls is 'per_attack' or 'per_hit'")
        if self.brace_timing not in ("reaction", "any_time"):
            raise ValueError("brace_timing is 'reaction' or 'any_time'")
        if self.brace_against not in ("any_damage", "enemy_attacks"):
            raise ValueError("brace_against is 'any_damage' or 'enemy_attacks'")


#: What this version is, for ``aero versions``.
THIS_VERSION = ("Battlefleet Gothic's core rules (rulebook p.4-31): fleets of cruisers with orders, gunnery, "
                "lances, torpedoes, attack craft and Brace for Impact.")


class BattlefleetGothicRules(Ruleset):
    """The ``battlefleet-gothic/core`` ruleset."""

    name: ClassVar[str] = "battlefleet-gothic/core"
    version_description: ClassVar[str] = THIS_VERSION
    setup_type: ClassVar[type] = GameSetup
    #: The options a variant file changes (core/interface.py ``VariantDefinition``), read via self.options.
    options_type: ClassVar[type] = RuleOptions

    def __init__(self, data: GameData | None = None, options: RuleOptions | None = None):
        self.data = data or default_data()
        self.options = options or RuleOptions()
        self._criticals = {row.id: row for row in self.data.tables.criticals.rows}
        self._critical_rolls = {row.roll: row for row in self.data.tables.criticals.rows}

    @property
    def data_version(self) -> str:
        return self.data.data_version

    # ---------------------------------------------------------------- lookups

    def ship_class(self, ship: ShipState) -> ShipClass:
        return self.data.classes[ship.class_id]

    def critical_row(self, critical: str) -> CriticalRow:
        return self._criticals[critical]

    def critical_by_roll(self, roll: int) -> CriticalRow:
        return self._critical_rolls[roll]

    def own_ship(self, state: GameState, player: str, ship_id: str) -> ShipState:
        ship = state.ships.get(ship_id)
        if ship is None:
            raise RuleError(f"there is no ship {ship_id!r}", rule="Ships")
        if ship.side != player:
            raise RuleError(f"{ship.name} is not {player}'s ship", rule="Ships")
        return ship

    # ---------------------------------------------------------------- the contract

    def initial_state(self, setup: GameSetup) -> GameState:
        return build_initial_state(setup, self.data)

    def players(self, state: GameState) -> Sequence[str]:
        return state.players

    def clock(self, state: GameState) -> tuple[int, str]:
        if state.active is None:
            return state.round, state.phase
        return state.round, f"{state.active} {state.phase}"

    def is_over(self, state: GameState) -> bool:
        return state.phase == GAME_OVER

    def decide(self, state: GameState, command: Command, dice: DiceCup) -> list[Event]:
        if state.phase == GAME_OVER:
            raise RuleError("the battle is over", rule="Ending the Battle", page=13)
        if command.player not in state.players:
            raise RuleError(f"{command.player!r} is not playing this game", rule="Players")
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError(f"{type(command).__name__} is not a command of this ruleset", rule="Commands")
        if not isinstance(command, React):
            require_no_window(state.reactions)  # "waiting for X to decide Y" (core reaction windows)
        out = Emitter(state, self.evolve)
        handler(self, out, command, dice)
        advance(self, out, dice)
        return out.events

    def evolve(self, state: GameState, event: Event) -> GameState:
        if type(event) in (DiceRolled, ScatterRolled):
            return state  # the outcome events that follow a roll carry what it decided
        apply = APPLY.get(type(event))
        if apply is None:
            raise TypeError(f"{self.name} cannot apply {type(event).__name__}")
        return apply(state, event)

    def legal_commands(self, state: GameState, player: str) -> Sequence[Command]:
        if state.phase == GAME_OVER:
            return []
        return chain_commands(part.legal_commands(self, state, player) for part in PARTS)

    # ---------------------------------------------------------------- tools (interface.py)

    def describe_event(self, event: Any, state: Any = None) -> str:
        from .narrate import describe_event

        return describe_event(self, event, state)

    def describe_command(self, command: Any, state: Any = None) -> str:
        from .narrate import describe_command

        return describe_command(self, command, state)

    def outcome(self, state: GameState):
        from .narrate import outcome

        return outcome(self, state)

    def scene(self, state: GameState, viewer: str | None = None, events=(), focus: str | None = None):
        from .scene import scene

        return scene(self, state, viewer, focus)

    def demo_scenario(self):
        """``aero demo``: a Cruiser Clash of three cruisers a side between two broadside bots."""
        fleets = {"imperial": ["lunar", "gothic", "tyrant"], "chaos": ["murder", "slaughter", "carnage"]}
        return "cruiser-clash", {"fleets": fleets}, ("broadside", "broadside")

    def corpus(self):
        from .corpus import PLAN

        return PLAN

    def score_name(self) -> str:
        return "points"

    def statistics(self, state: GameState) -> dict[str, dict[str, int]]:
        from .ships import crippled

        stats: dict[str, dict[str, int]] = {"ships lost": {}, "ships crippled": {}, "damage taken": {}}
        for side in state.players:
            fleet = state.fleet(side)
            stats["ships lost"][side] = sum(1 for s in fleet if s.status in ("destroyed",) or s.hulk)
            stats["ships crippled"][side] = sum(1 for s in fleet if crippled(self.ship_class(s), s))
            stats["damage taken"][side] = sum(s.damage for s in fleet)
        return stats

    def describe_setup(self, setup, bots) -> list[str]:
        lines = []
        for player in setup.players:
            ships = ", ".join(f"{s.name} ({self.data.classes[s.class_id].name})" for s in setup.ships
                              if s.side == player)
            lines.append(f"{player} ({bots.get(player, '?')} bot): {ships}")
        return lines

    def scenarios(self):
        from .play import scenarios

        return scenarios(self)

    def bots(self):
        from .bots import bots

        return bots()

    def sql_views(self):
        from .views import sql_views

        return sql_views()

    def notation(self):
        """``imperial-1 moves 10cm turns 45 starboard 5cm``, ``imperial-1 fires port_battery at chaos-2``, ``roll off``
        (see :mod:`.notation`)."""
        from .notation import BattlefleetGothicNotation

        return BattlefleetGothicNotation(self)
