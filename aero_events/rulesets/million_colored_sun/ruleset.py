"""Million-Colored Sun: Combined Flight Rules (7 April 2018) on this project's own minimal skirmish host, as a
decider: decide, evolve, legal commands.

The parts live in their own modules, wired here as Aeronautica's ``ruleset.py`` wires its own: each part has
``HANDLERS`` (command type -> handler) and ``legal_commands(rules, state, player)``; ``fold.APPLY`` maps each event
to its state change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal

import msgspec

from aero_events.core import Command, DiceCup, DiceRolled, Event, RuleError, Ruleset, chain_commands
from aero_events.table import inches

from . import actions, attacks, flight, ground, turn
from .commands import EndPhase
from .data import GameData, Warscroll, default_data
from .fold import APPLY
from .setup import GameSetup, build_initial_state
from .state import GAME_OVER, GameState, ModelState
from .turn import Emitter, advance, decider

#: The parts of the turn: the Hero phase's actions, AIRBORNE movement, the host's ground moves and charges, its
#: attacks, and the turn itself.
PARTS = (actions, flight, ground, attacks, turn)

_HANDLERS: dict[type, Any] = {}
for _part in PARTS:
    for _command, _handler in _part.HANDLERS.items():
        if _command in _HANDLERS:
            raise TypeError(f"{_command.__name__} is handled by two parts of the turn")
        _HANDLERS[_command] = _handler


class RuleOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Where players (or the text) disagree, a named option (README, "gaps"); a variant file changes them
    (README, "Rule options").

    * ``stand_height``: the optional rule of IGNORE OTHER MODELS: a model flies over terrain lower than its stand,
      and collides with anything higher (COLLISION); off: the pieces decided too tall before the game.
    * ``rear_arc_degrees``: the rear arc of VULNERABLE TO TAIL ATTACKS, 90 (default) or 180.
    * ``pilot_input``: "up_to" 3" (default) or "exact" 3" (PILOT INPUT: "reposition the model 3" in any direction").
    * ``natural_one_fails``: an Initiative test rolling a 1 fails whatever its modifiers (not in the text; off).
    * ``red_marker``: when PERFORM RED MANUEVER's Blast Marker is gained: "declared" (default) or "flown".
    * ``missile_pilot_input``: whether missiles get Pilot Input (they have no pilot; off).
    * ``bomb_step``, ``return_step``: the spacing of the bomb drop points and edge positions the legal commands
      offer (any point may be given in a command).
    """

    stand_height: Annotated[bool, msgspec.Meta(
        description="the optional rule of IGNORE OTHER MODELS: fly over terrain lower than the stand, "
                    "collide with anything higher (COLLISION)")] = False
    rear_arc_degrees: Annotated[Literal[90, 180], msgspec.Meta(
        description="the rear arc of VULNERABLE TO TAIL ATTACKS, in degrees")] = 90
    pilot_input: Annotated[Literal["up_to", "exact"], msgspec.Meta(
        description='PILOT INPUT repositions the model up to 3", or exactly 3"')] = "up_to"
    natural_one_fails: Annotated[bool, msgspec.Meta(
        description="an Initiative test rolling a 1 fails whatever its modifiers (not in the text)")] = False
    red_marker: Annotated[Literal["declared", "flown"], msgspec.Meta(
        description="PERFORM RED MANUEVER's Blast Marker is gained when declared, or when flown")] = \
        "declared"
    missile_pilot_input: Annotated[bool, msgspec.Meta(
        description="missiles get Pilot Input (they have no pilot)")] = False
    bomb_step: Annotated[int, msgspec.Meta(gt=0, description="spacing of the bomb drop points the legal "
                                          "commands offer, in centi-mm (1 inch = 2540)")] = inches(5)
    return_step: Annotated[int, msgspec.Meta(gt=0, description="spacing of the edge positions offered to "
                                            "returning models, in centi-mm (1 inch = 2540)")] = inches(6)


def choices(rules: MillionColoredSunRules, state: GameState, player: str) -> bool:
    """Whether ``player`` has anything to decide besides ending the phase (else the phase passes by itself)."""
    if state.phase == GAME_OVER:
        return False
    if state.phase == "movement":
        return bool(flight.must_fly(rules, state, player)) or ground.has_move(rules, state, player)
    return any(len(part_commands(rules, part, state, player)) for part in PARTS if part is not turn)


def part_commands(rules: MillionColoredSunRules, part: Any, state: GameState, player: str) -> list:
    """``part.legal_commands`` in ``state``, remembered for the last state asked about per part and player:
    ``advance`` asks whether a phase offers anything, then the session asks for the commands of the very state
    ``decide`` reached (the core Emitter hands it over, so it is the same object). The state is kept with its
    commands, so identity cannot be confused with a later state's."""
    cache = rules.__dict__.setdefault("_legal_cache", {})
    slot = (part.__name__, player)
    known = cache.get(slot)
    if known is not None and known[0] is state:
        return known[1]
    commands = part.legal_commands(rules, state, player)
    cache[slot] = (state, commands)
    return commands


#: What this version is, for ``aero versions``.
THIS_VERSION = ("Million-Colored Sun: Combined Flight Rules (7 April 2018), a fan flight layer for airborne "
                "models, on this project's own minimal skirmish host.")


class MillionColoredSunRules(Ruleset):
    """The ``million-colored-sun/2018`` ruleset."""

    name: ClassVar[str] = "million-colored-sun/2018"
    version_description: ClassVar[str] = THIS_VERSION
    setup_type: ClassVar[type] = GameSetup
    #: The options a variant file changes (core/interface.py ``VariantDefinition``), read via self.options.
    options_type: ClassVar[type] = RuleOptions

    def __init__(self, data: GameData | None = None, options: RuleOptions | None = None):
        self.data = data or default_data()
        self.options = options or RuleOptions()
        #: (part, player) -> (the state, that part's legal commands): see :func:`part_commands`
        self._legal_cache: dict[tuple[str, str], tuple[GameState, list]] = {}

    @property
    def data_version(self) -> str:
        return self.data.data_version

    def warscroll(self, model: ModelState) -> Warscroll:
        return self.data.warscrolls[model.warscroll]

    # ---------------------------------------------------------------- the contract

    def initial_state(self, setup: GameSetup) -> GameState:
        return build_initial_state(setup, self.data)

    def players(self, state: GameState) -> Sequence[str]:
        return state.players

    def clock(self, state: GameState) -> tuple[int, str]:
        if state.phase == GAME_OVER or state.active is None:
            return state.round, state.phase
        return state.round, f"{state.active} {state.phase}"

    def is_over(self, state: GameState) -> bool:
        return state.phase == GAME_OVER

    def decide(self, state: GameState, command: Command, dice: DiceCup) -> list[Event]:
        if state.phase == GAME_OVER:
            raise RuleError("the battle is over", rule="Host: the battleplan")
        if command.player not in state.players:
            raise RuleError(f"{command.player!r} is not playing this game", rule="Players")
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
        apply = APPLY.get(type(event))
        if apply is None:
            raise TypeError(f"{self.name} cannot apply {type(event).__name__}")
        return apply(state, event)

    def legal_commands(self, state: GameState, player: str) -> Sequence[Command]:
        if state.phase == GAME_OVER or decider(state) != player:
            return []
        return chain_commands(part_commands(self, part, state, player) for part in PARTS)

    # ---------------------------------------------------------------- tools (interface.py)

    def describe_event(self, event: Any, state: Any = None) -> str:
        from .narrate import describe_event

        return describe_event(self, event, state)

    def describe_command(self, command: Any, state: Any = None) -> str:
        from .narrate import describe_command

        return describe_command(self, command, state)

    def notation(self) -> Any:
        """``azure-bomber action lock-on``, ``azure-fighter flies loop pilot 3in towards 45`` (:mod:`.notation`)."""
        from .notation import MillionColoredSunNotation

        return MillionColoredSunNotation(self)

    def outcome(self, state: GameState):
        from .narrate import outcome

        return outcome(self, state)

    def score_name(self) -> str:
        return "VP"

    def scene(self, state: GameState, viewer: str | None = None, events: Sequence[Any] = (),
              focus: str | None = None):
        from .scene import scene

        return scene(self, state, viewer, focus)

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

    def sql_views(self):
        from .views import sql_views

        return sql_views(self.data)

    def describe_setup(self, setup: GameSetup, bots: Mapping[str, str]) -> list[str]:
        state = self.initial_state(setup)
        plan = self.data.battleplans[state.battleplan]
        lines = [f"{plan.name}: {plan.description}"]
        for player in state.players:
            force = ", ".join(self.warscroll(m).name for m in sorted(state.side(player), key=lambda m: m.id))
            lines.append(f"{player} ({bots.get(player, '?')} bot): {force}")
        return lines

    def demo_scenario(self):
        return "skyfire", {}, ("ace", "random")

    def statistics(self, state: GameState) -> dict[str, dict[str, int]]:
        lost: dict[str, int] = {p: 0 for p in state.players}
        off: dict[str, int] = {p: 0 for p in state.players}
        for model in state.models.values():
            if self.warscroll(model).missile:
                continue
            if model.status in ("slain", "fled"):
                lost[model.side] += 1
            if model.status == "off-table":
                off[model.side] += 1
        return {"models lost": lost, "off the board": off}


__all__ = ["EndPhase", "MillionColoredSunRules", "RuleOptions"]
