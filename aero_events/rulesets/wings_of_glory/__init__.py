"""Wings of Glory: "Battle of Britain: Tactical Rules for Wings Of Glory" (2017-11-14), ``wings-of-glory/bob-2017``.

Factory: ``aero_events.rulesets.wings_of_glory:WingsOfGloryRules``. :func:`play_bot_game` plays a seeded
bot game of a bundled scenario and returns the session (for the golden games in ``replays/``).
"""

from __future__ import annotations

from .data import load_catalogue
from .firing import shot_option, tailing
from .planning import legal_cards
from .ruleset import RuleOptions, WingsOfGloryRules
from .setup import GameSetup, PlaneSetup, TargetSetup, build_initial_state, scenario_setup

__all__ = ["GameSetup", "PlaneSetup", "RuleOptions", "TargetSetup", "WingsOfGloryRules", "build_initial_state",
           "legal_cards", "load_catalogue", "play_bot_game", "scenario_setup", "shot_option", "tailing"]


def play_bot_game(scenario: str = "dogfight", seed: int = 1, bots: tuple[str, str] = ("hunter", "hunter"),
                  rules: WingsOfGloryRules | None = None, game_id: str | None = None):
    """A seeded bot game of ``scenario`` played to its end; returns the :class:`GameSession`."""
    from aero_events.bots.runner import play
    from aero_events.core import GameSession, SeededDice

    rules = rules or WingsOfGloryRules()
    setup = rules.scenarios()[scenario].build({}, seed)
    session = GameSession(rules, setup, dice=SeededDice(seed), game_id=game_id or f"wog-{scenario}-{seed}",
                          metadata={"reproducible_salts": True})  # a bot game, replayed from its seed alone
    makers = rules.bots()
    players = setup.players
    play(session, {player: makers[name].make(rules, f"{seed}:{player}") for player, name in zip(players, bots)})
    return session
