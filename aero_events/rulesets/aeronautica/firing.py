"""The Firing phase (rulebook p.20-23).

The player who moved first fires first; players then alternate choosing an aircraft
and firing all its available weapons, until no aircraft that wishes to fire is left
(p.14, p.20). A player with no more aircraft that wish to fire passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from aero_events.core import Command, DiceCup, Event, RuleError

from .commands import PassFiring
from .events import FiringPassed
from .state import FIRING, GameState

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules
    from .turn import Emitter


def pass_firing(rules: AeronauticaRules, out: Emitter, command: PassFiring, dice: DiceCup) -> None:
    """A player with no more aircraft that wish to fire this phase passes (p.14)."""
    state = out.state
    if state.phase != FIRING:
        raise RuleError("passing is for the Firing phase", rule="Firing", page=20)
    if state.to_act != command.player:
        raise RuleError(f"it is {state.to_act}'s turn to fire", rule="Firing phase sequence", page=20)
    out.emit(FiringPassed(player=command.player))


HANDLERS = {PassFiring: pass_firing}


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list[Command]:
    if state.phase == FIRING and state.to_act == player:
        return [PassFiring(player=player)]
    return []


def evolve(rules: AeronauticaRules, state: GameState, event: Event) -> GameState | None:
    if isinstance(event, FiringPassed):
        passed = (*state.passed, event.player)
        other = state.opponent(event.player)
        return msgspec.structs.replace(state, passed=passed, to_act=None if other in passed else other)
    return None
