"""The baseline bot (issue 18): random among the choices that do not throw the game away, so that
simulated games last as long as real ones; what ``aero simulate`` and ``aero compare`` play unless told."""

from __future__ import annotations

from aero_events.bots import RandomBot, bots_for, default_bot, make_bot, play
from aero_events.core import GameSession, SeededDice
from aero_events.core.secrets import REPRODUCIBLE_SALTS
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.bots import BaselineBot
from aero_events.rulesets.aeronautica.events import AircraftDisengaged, Stalled
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup

RULES = AeronauticaRules()


def one_against_one(seed: int) -> GameSession:
    """A Thunderbolt against a Dakkajet on a 4'x4' table (the Dogfight of ``make bench``)."""
    imperium = ForceList(name="i", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),))
    orks = ForceList(name="o", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),))
    setup = dogfight_setup(("imperium", imperium), ("orks", orks), 25, board="4x4", catalogue=RULES.catalogue,
                           check_points=False)
    # Seeded salts (the game's metadata asks for them), so that a seed gives the same events byte for byte.
    return GameSession(RULES, setup, dice=SeededDice(seed), game_id=f"baseline-{seed}",
                       metadata={REPRODUCIBLE_SALTS: True})


def games(bot: type, count: int) -> list[GameSession]:
    played = []
    for seed in range(count):
        session = one_against_one(seed)
        play(session, {"imperium": bot(seed), "orks": bot(seed + 1)})
        played.append(session)
    return played


def test_the_baseline_is_registered_and_is_what_simulations_play_by_default():
    known = bots_for(RULES)
    assert {"baseline", "default", "greedy", "random"} <= set(known)
    assert default_bot(RULES) == "default"
    assert isinstance(make_bot(RULES, "default", 1), BaselineBot)
    assert isinstance(make_bot(RULES, "baseline", 1), BaselineBot)


def test_baseline_games_last_as_long_as_real_games_where_random_ones_end_at_once():
    """The random bot flies off the board in a turn or two; the baseline plays on (a Dogfight's Fuel Limit
    is 12 turns, p.31; greedy games last 2-12)."""
    baseline = games(BaselineBot, 12)
    random = games(RandomBot, 12)
    mean = sum(s.state.turn for s in baseline) / len(baseline)
    assert mean >= 6, mean
    assert mean >= 2 * sum(s.state.turn for s in random) / len(random)
    assert all(s.is_over() for s in baseline)


def test_the_baseline_does_not_fly_off_the_board_or_stall_by_choice():
    """Leaving the Area of Engagement outside the Disengagement turn gives the enemy its points (p.17, p.32);
    the random bot does it in most games, the baseline in few (only when cornered: no choice is left)."""
    def blunders(sessions):
        left = sum(1 for s in sessions for env in s.events() if isinstance(env.event, AircraftDisengaged)
                   and env.event.how == "accidental")
        stalls = sum(1 for s in sessions for env in s.events() if isinstance(env.event, Stalled))
        return left, stalls

    baseline_left, baseline_stalls = blunders(games(BaselineBot, 12))
    random_left, _ = blunders(games(RandomBot, 12))
    assert random_left >= 8 and baseline_left <= 3, (random_left, baseline_left)
    assert baseline_stalls <= 2


def test_the_baseline_is_deterministic_for_a_seed():
    def stream(seed):
        session = one_against_one(seed)
        play(session, {"imperium": BaselineBot(seed), "orks": BaselineBot(seed + 1)}, max_commands=60)
        return [env.event for env in session.events()]

    assert stream(4) == stream(4)
    assert stream(4) != stream(5)


def test_climbs_and_dives_that_stall_crash_or_break_up_are_left_out():
    """p.18: climbing above Max Altitude or below Min Speed Stalls; p.19: Altitude 0 risks a Crash, above
    Max Speed Breaking Up."""
    session = one_against_one(0)
    aircraft = next(iter(session.state.aircraft.values()))
    profile = RULES.profile(aircraft)
    low = aircraft.__class__(**{**{f: getattr(aircraft, f) for f in aircraft.__struct_fields__},
                                "altitude": 1, "speed": profile.min_speed})
    assert not BaselineBot._altitude_is_safe(RULES, low, -1)  # to Altitude 0
    assert not BaselineBot._altitude_is_safe(RULES, low, +1)  # Speed below Min Speed
    assert BaselineBot._altitude_is_safe(RULES, low, 0)
    fast = low.__class__(**{**{f: getattr(low, f) for f in low.__struct_fields__}, "altitude": 3,
                            "speed": profile.max_speed})
    assert not BaselineBot._altitude_is_safe(RULES, fast, -1)  # Speed above Max Speed
    top = fast.__class__(**{**{f: getattr(fast, f) for f in fast.__struct_fields__},
                            "altitude": profile.max_altitude, "speed": profile.max_speed})
    assert not BaselineBot._altitude_is_safe(RULES, top, +1)  # above Max Altitude


def test_the_greedy_bot_beats_the_baseline_in_at_least_80_percent_of_20_dogfights():
    """The baseline plays the game but does not aim: one step of look-ahead (the greedy bot) beats it, as it
    beats the random bot (tests/bots/test_bots.py). Equal forces, a Thunderbolt with two Skystrike missiles
    each; the greedy bot plays each side in turn; a win is more Victory points at the end (p.32)."""
    from aero_events.rulesets.aeronautica.bots import GreedyBot

    def force(name: str) -> ForceList:
        return ForceList(name=name, faction="imperial_navy",
                         aircraft=(AircraftEntry(aircraft="thunderbolt", weapons=("skystrike_missiles",) * 2),))

    wins = 0
    for seed in range(20):
        setup = dogfight_setup(("red", force("red")), ("blue", force("blue")), 25, catalogue=RULES.catalogue)
        session = GameSession(RULES, setup, dice=SeededDice(seed), game_id=f"greedy-baseline-{seed}")
        greedy, other = ("red", "blue") if seed % 2 == 0 else ("blue", "red")
        play(session, {greedy: GreedyBot(seed), other: BaselineBot(seed)})
        wins += session.state.winner == greedy
    assert wins >= 16, f"greedy won {wins} of 20"
