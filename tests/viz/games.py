"""Seeded bot games for the viz and analysis tests, chosen for what they contain, not by seed.

The firing rules are still growing, so a test that needs shots, damage or a Stall asks
:func:`eventful_session` for the first seeded game that has them rather than trusting
one seed to keep its story.
"""

from __future__ import annotations

import functools
from collections import Counter

from aero_events.bots import RandomBot, play
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.deployment import face_off
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList

PLAYERS = ("imperium", "orks")


@functools.cache
def rules() -> AeronauticaRules:
    return AeronauticaRules()


def bot_session(seed: int, *, board: str = "3x3", imperium: tuple[str, ...] = ("thunderbolt",) * 4,
                orks: tuple[str, ...] = ("dakkajet",) * 4, last_turn: int = 12, play_out: bool = True) -> GameSession:
    """A seeded game between two random bots (played to its end unless ``play_out`` is False)."""
    ruleset = rules()
    first = ForceList(name="imperial", faction="imperial_navy",
                      aircraft=tuple(AircraftEntry(aircraft=a) for a in imperium))
    second = ForceList(name="orks", faction="ork_air_waaagh", aircraft=tuple(AircraftEntry(aircraft=a) for a in orks))
    setup = face_off((PLAYERS[0], first), (PLAYERS[1], second), ruleset.catalogue, board=board, last_turn=last_turn,
                     check_points=False)
    session = GameSession(ruleset, setup, dice=SeededDice(seed), game_id=f"test-{board}-{seed}",
                          metadata={"seed": seed})
    if play_out:
        play(session, {PLAYERS[0]: RandomBot(seed), PLAYERS[1]: RandomBot(seed + 100)})
    return session


@functools.cache
def eventful_session() -> GameSession:
    """The first seeded game with a hit, damage from enemy fire, a Stall and a Spin."""
    for seed in range(60):
        session = bot_session(seed)
        kinds = Counter(env.event.type_name() for env in session.events())
        hits = sum(env.event.hits for env in session.events() if env.event.type_name() == "ai.HitsScored")
        damaged_by_fire = any(env.event.type_name() == "ai.DamageRolled" and env.event.damaging
                              for env in session.events())
        if hits and damaged_by_fire and kinds["ai.Stalled"] and kinds["ai.SpinEntered"]:
            return session
    raise AssertionError("no seeded game in 0..59 has hits, damage, a Stall and a Spin: check the bots")
