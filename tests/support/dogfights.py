"""The Dogfight the speed tests and benchmarks play: Thunderbolts against Dakkajets on a 4'x4' table, 25
points an aircraft, ``size`` a side (the Dogfight, p.34-35), played by seeded bots."""

from __future__ import annotations

from aero_events.bots import play
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup

RULES = AeronauticaRules()


def thunderbolts_v_dakkajets(size: int, rules: AeronauticaRules = RULES):
    """The setup: ``size`` Thunderbolts (imperium) against ``size`` Dakkajets (orks)."""
    imperium = ForceList(name="i", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),) * size)
    orks = ForceList(name="o", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),) * size)
    return dogfight_setup(("imperium", imperium), ("orks", orks), 25 * size, board="4x4", catalogue=rules.catalogue,
                          check_points=False)


def played_dogfight(size: int, seed: int, bots, game_id: str, rules: AeronauticaRules = RULES,
                    max_commands: int = 2_000) -> GameSession:
    """The Dogfight played to its end (or ``max_commands``) by ``bots[0](seed)`` for the imperium and
    ``bots[1](seed + 1)`` for the orks, with dice seeded by ``seed``."""
    session = GameSession(rules, thunderbolts_v_dakkajets(size, rules), dice=SeededDice(seed), game_id=game_id)
    play(session, {"imperium": bots[0](seed), "orks": bots[1](seed + 1)}, max_commands=max_commands)
    return session


def every_state(session: GameSession):
    """Every state of the session's game, the initial one first, each event applied with ``evolve``."""
    state = session.game.initial_state
    yield state
    for envelope in session.events():
        state = session.ruleset.evolve(state, envelope.event)
        yield state
