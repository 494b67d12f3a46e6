"""Bots: the random baseline, and a greedy bot that must beat it (issue: 80% of 200 Dogfights)."""

from __future__ import annotations

from aero_events.bots import RandomBot, StableRandom, play
from aero_events.core import GameSession, SeededDice
from aero_events.core.secrets import REPRODUCIBLE_SALTS
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.bots import GreedyBot, chance
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup

RULES = AeronauticaRules()


def test_stable_random_is_the_documented_sha256_stream():
    import hashlib

    word = int.from_bytes(hashlib.sha256(b"7" + (0).to_bytes(8, "big")).digest()[:8], "big")
    assert StableRandom(7).below(1000) == word % 1000  # 2**64 % 1000 rejection almost never bites
    draws = [StableRandom("x").below(6) for _ in range(3)]
    assert len(set(draws)) == 1  # same seed, same first draw
    rng = StableRandom(1)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert all(900 < n < 1100 for n in counts), counts


def test_a_draw_below_one_uses_up_one_word_of_the_stream_without_hashing_it():
    """A choice among one option still moves the stream on by one word, as the plain draw does."""
    shortcut, plain = StableRandom("s"), StableRandom("s")
    for bound in (1, 6, 1, 1, 1000, 1, 3):
        if bound == 1:
            assert shortcut.below(1) == 0
            plain._word()  # the plain draw: one word, always accepted, and word % 1 == 0
        else:
            assert shortcut.below(bound) == plain.below(bound)
    assert shortcut._counter == plain._counter == 7


def test_the_chance_to_score_follows_p7():
    """5+ is 2 faces in 6; with -1 only a 6 scores; with -4 nothing can (p.7, p.22)."""
    assert chance(5, 0) == 2 / 6
    assert chance(5, -1) == 1 / 6
    assert chance(5, -4) == 0
    assert chance(2, +3) == 5 / 6  # a natural 1 always fails, whatever the modifier


def thunderbolt_force(name: str) -> ForceList:
    return ForceList(name=name, faction="imperial_navy",
                     aircraft=(AircraftEntry(aircraft="thunderbolt", weapons=("skystrike_missiles",) * 2),))


def dogfight(seed: int) -> GameSession:
    setup = dogfight_setup(("red", thunderbolt_force("red")), ("blue", thunderbolt_force("blue")), 25,
                           catalogue=RULES.catalogue)
    # Seeded salts (the game's metadata asks for them), so that a seed gives the same events byte for byte.
    return GameSession(RULES, setup, dice=SeededDice(seed), game_id=f"bots-{seed}",
                       metadata={REPRODUCIBLE_SALTS: True})


def test_the_random_bot_plays_a_whole_dogfight_with_legal_commands_only():
    session = dogfight(1)
    commands = play(session, {"red": RandomBot(1), "blue": RandomBot(2)})
    assert session.is_over() and commands > 10
    assert session.state.end_reason


def test_the_greedy_bot_beats_the_random_bot_in_at_least_80_percent_of_200_dogfights():
    """Equal forces (a Thunderbolt with two Skystrike missiles each, 25 points); the greedy bot plays each
    side in turn. A win is more Victory points at the end (p.32)."""
    wins = 0
    for seed in range(200):
        session = dogfight(seed)
        greedy, other = ("red", "blue") if seed % 2 == 0 else ("blue", "red")
        play(session, {greedy: GreedyBot(seed), other: RandomBot(seed)})
        wins += session.state.winner == greedy
    assert wins >= 160, f"greedy won {wins} of 200"


def test_bots_are_deterministic_for_a_seed():
    def stream(seed):
        session = dogfight(seed)
        play(session, {"red": GreedyBot(seed), "blue": RandomBot(seed)})
        return [env.event for env in session.events()]

    assert stream(5) == stream(5)
