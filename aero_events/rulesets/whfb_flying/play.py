"""Scenarios for the tools, and a seeded bot game (for golden games, the demo and the tests)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from aero_events.bots import play
from aero_events.core import DataError, GameSession, SeededDice
from aero_events.core.interface import Scenario

from .bots import bots
from .setup import GameSetup, RangeMethod

#: The longest battle a scenario option may ask for.
MAX_LAST_TURN = 1000


def _check_options(options: Mapping[str, Any]) -> None:
    """A matchup's options refused with the option at fault (Shooting Phase: one of three range methods)."""
    method = options.get("range_method", "advanced")
    if method not in get_args(RangeMethod):
        raise DataError(f"range_method is one of {', '.join(get_args(RangeMethod))}, not {method!r}",
                        source="scenario options", field="range_method")
    last_turn = options.get("last_turn")
    if last_turn is not None and (not isinstance(last_turn, int) or isinstance(last_turn, bool)
                                  or not 1 <= last_turn <= MAX_LAST_TURN):
        raise DataError(f"last_turn is a number of turns, 1 to {MAX_LAST_TURN}, not {last_turn!r}",
                        source="scenario options", field="last_turn")


def _build(options: Mapping[str, Any], seed: int) -> GameSetup:
    _check_options(options)
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
