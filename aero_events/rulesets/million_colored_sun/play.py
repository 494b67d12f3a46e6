"""Scenarios for the tools, and a seeded bot game (for golden games, the demo and the tests)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aero_events.bots import play
from aero_events.core import GameSession, SeededDice
from aero_events.core.interface import Scenario

from .bots import bots
from .setup import GameSetup


def _build(options: Mapping[str, Any], seed: int) -> GameSetup:
    return GameSetup(battleplan=str(options.get("battleplan", "skyfire")),
                     last_round=int(options["last_round"]) if options.get("last_round") else None,
                     first=options.get("first") or None)


def scenarios(rules) -> dict[str, Scenario]:
    result = {}
    for plan in rules.data.battleplans.values():
        result[plan.id] = Scenario(name=plan.id, description=plan.description, players=plan.players, build=_build,
                                   default_options={"battleplan": plan.id})
    return result


def play_seeded_game(seed: int | str = 1, scenario: str = "skyfire", bots_by_side: Mapping[str, str] | None = None,
                     options: Mapping[str, Any] | None = None, rules=None, max_commands: int = 5000) -> GameSession:
    """Play a seeded bot game of ``scenario`` to its end and return the session (default: the ace bot both sides)."""
    from .ruleset import MillionColoredSunRules

    rules = rules or MillionColoredSunRules()
    chosen = scenarios(rules)[scenario]
    setup = chosen.build({**chosen.default_options, **dict(options or {})}, seed if isinstance(seed, int) else 0)
    names = dict(bots_by_side or {side: "ace" for side in chosen.players})
    available = bots()
    session = GameSession(rules, setup, dice=SeededDice(seed), game_id=f"mcs-{scenario}-{seed}",
                          metadata={"scenario": scenario, "bots": names})
    players = {side: available[names[side]].make(rules, f"{seed}:{side}") for side in chosen.players}
    play(session, players, max_commands=max_commands)
    return session
