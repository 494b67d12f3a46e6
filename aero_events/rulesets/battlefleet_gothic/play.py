"""Scenarios for the tools, and a seeded bot game of a scenario (for golden games and the demo)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aero_events.bots import play
from aero_events.core import GameSession, SeededDice
from aero_events.core.interface import Scenario

from .bots import bots
from .setup import cruiser_clash, scenario_build


def scenarios(rules) -> dict[str, Scenario]:
    fleets = rules.data.cruiser_clash["default_fleets"].value
    return {"cruiser-clash": Scenario(
        name="cruiser-clash",
        description="Scenario One: Cruiser Clash (p.31, rulebook p.68): 1-4 cruisers a side of at most 185 points, "
                    "8 turns, points for damage, crippling and destruction",
        players=tuple(fleets),
        build=scenario_build,
        default_options={"fleets": fleets})}


def play_seeded_game(seed: int | str = 1, scenario: str = "cruiser-clash", bots_by_side: Mapping[str, str] | None = None,
                     options: Mapping[str, Any] | None = None, rules=None, max_commands: int = 20000) -> GameSession:
    """Play a seeded bot game of ``scenario`` to its end and return the session."""
    from .ruleset import BattlefleetGothicRules

    rules = rules or BattlefleetGothicRules()
    chosen = scenarios(rules)[scenario]
    setup = chosen.build(dict(options or chosen.default_options), seed)
    available = bots()
    names = dict(bots_by_side or {side: "broadside" for side in setup.players})
    session = GameSession(rules, setup, dice=SeededDice(seed), game_id=f"bfg-{scenario}-{seed}",
                          metadata={"scenario": scenario, "bots": names})
    players = {side: available[names[side]].make(rules, f"{seed}:{side}") for side in setup.players}
    play(session, players, max_commands=max_commands)
    return session


__all__ = ["cruiser_clash", "play_seeded_game", "scenarios"]
