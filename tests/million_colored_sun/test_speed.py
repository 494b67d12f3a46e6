"""Speed work (issue 18) that must not change a choice: the ace bot values the part of a flight that depends on
its path once for the options that share the path (AIRBORNE MOVEMENT, PILOT INPUT, BOMBING RUN)."""

from __future__ import annotations

from aero_events.bots import make_bot
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets.million_colored_sun import commands as cmd
from aero_events.rulesets.million_colored_sun.bots import AceBot

from .helpers import RULES


def flights_met(seed: int, wanted: int = 12):
    """(state, player, FlyManoeuvre options) at the flights of a seeded ace game, the first ``wanted``."""
    scenario, options, _ = RULES.demo_scenario()
    build = RULES.scenarios()[scenario].build
    session = GameSession(RULES, build({**RULES.scenarios()[scenario].default_options, **options}, seed),
                          dice=SeededDice(seed), metadata={"reproducible_salts": True})
    bots = {p: make_bot(RULES, "ace", f"{seed}:{p}") for p in RULES.players(session.state)}
    met = []
    while not session.is_over() and len(met) < wanted:
        for player in RULES.players(session.state):
            options = session.legal_commands(player)
            if options:
                flights = [o for o in options if isinstance(o, cmd.FlyManoeuvre)]
                if flights:
                    met.append((session.state, player, flights))
                session.apply(bots[player].choose(session, player, options))
                break
    return met


def test_a_flight_is_valued_the_same_with_its_path_valued_once():
    """Each option's value with the path's part shared equals its value worked out alone, bombs and pilot input
    included."""
    bot = AceBot(0)
    met = flights_met(1)
    assert met
    shared_paths = 0
    for state, player, flights in met:
        shared: dict = {}
        for option in flights:
            assert bot._flight_value(RULES, state, player, option, shared) == \
                bot._flight_value(RULES, state, player, option)
        shared_paths += len(flights) - len(shared)
    assert shared_paths > 0
    assert any(o.bomb_at is not None for _, _, flights in met for o in flights)
    assert any(o.pilot_heading is not None for _, _, flights in met for o in flights)


def test_the_commands_offered_follow_the_state_asked_about():
    """Each state's commands are its own, whichever state was asked about before (the ruleset remembers the last
    state's commands per part: ``advance`` asks, then the session asks again)."""
    from aero_events.rulesets.million_colored_sun.ruleset import PARTS, MillionColoredSunRules
    from aero_events.rulesets.million_colored_sun.turn import decider

    fresh = MillionColoredSunRules()
    states = [state for state, _, _ in flights_met(2, wanted=4)]
    scenario, options, _ = RULES.demo_scenario()
    states.append(RULES.initial_state(RULES.scenarios()[scenario].build(
        {**RULES.scenarios()[scenario].default_options, **options}, 2)))
    offered = 0
    for state in states + states[::-1]:
        for who in state.players:
            expected = [c for part in PARTS for c in part.legal_commands(fresh, state, who)] \
                if decider(state) == who else []
            assert list(RULES.legal_commands(state, who)) == expected
            offered += len(expected)
    assert offered
