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
    return GameSetup(scenario=str(options.get("scenario", "pitched_battle")),
                     range_method=str(options.get("range_method", "advanced")),  # type: ignore[arg-type]
                     last_turn=int(options["last_turn"]) if options.get("last_turn") else None,
                     first=options.get("first") or None)


def scenarios(rules) -> dict[str, Scenario]:
    return {s.id: Scenario(name=s.id, description=s.description, players=tuple(s.forces), build=_build,
                           default_options={"scenario": s.id, "range_method": "advanced"})
            for s in rules.data.scenarios.values()}


def play_seeded_game(seed: int | str = 1, scenario: str = "pitched_battle",
                     bots_by_side: Mapping[str, str] | None = None, options: Mapping[str, Any] | None = None,
                     rules=None, max_commands: int = 5000) -> GameSession:
    """Play a seeded bot game of ``scenario`` to its end and return the session (default: the general both
    sides)."""
    from .ruleset import WhfbFlyingRules

    rules = rules or WhfbFlyingRules()
    chosen = scenarios(rules)[scenario]
    setup = chosen.build({**chosen.default_options, **dict(options or {})}, 0)
    names = dict(bots_by_side or {side: "general" for side in chosen.players})
    available = bots()
    session = GameSession(rules, setup, dice=SeededDice(seed), game_id=f"whfb-{scenario}-{seed}",
                          metadata={"scenario": scenario, "bots": names})
    players = {side: available[names[side]].make(rules, f"{seed}:{side}") for side in chosen.players}
    play(session, players, max_commands=max_commands)
    return session
