"""``play`` and the random stream made cheaper (issue 18, session 11), with what they must keep.

* ``play`` asks a GameSession's ruleset directly (the state read once a command): the same game as asking the
  session; a session class that answers ``legal_commands`` or ``is_over`` in its own way is still asked.
* ``StableRandom.below`` is the documented SHA-256 stream, rejected words included.
"""

from __future__ import annotations

import hashlib

import pytest

from aero_events.bots import StableRandom, play
from aero_events.core import GameSession, SeededDice
from aero_events.core.secrets import REPRODUCIBLE_SALTS
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.bots import BaselineBot
from tests.support.dogfights import thunderbolts_v_dakkajets

RULES = AeronauticaRules()


class AskedSession(GameSession):
    """Answers as a GameSession does, counting the questions (so ``play`` must ask it, not its ruleset)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.asked = {"legal_commands": 0, "is_over": 0}

    def legal_commands(self, player):
        self.asked["legal_commands"] += 1
        return super().legal_commands(player)

    def is_over(self):
        self.asked["is_over"] += 1
        return super().is_over()


def _session(kind: type = GameSession) -> GameSession:
    return kind(RULES, thunderbolts_v_dakkajets(1), dice=SeededDice(5), game_id="runner", metadata={REPRODUCIBLE_SALTS: True})


def _bots() -> dict[str, BaselineBot]:
    return {"imperium": BaselineBot(5), "orks": BaselineBot(6)}


def test_a_game_played_through_the_ruleset_is_the_game_played_through_the_session():
    direct, asked = _session(), _session(AskedSession)
    commands = play(direct, _bots())
    assert play(asked, _bots()) == commands > 0
    assert asked.asked["is_over"] == commands + 1  # each command, and the end
    assert asked.asked["legal_commands"] >= commands
    assert direct.events() == asked.events()


def test_a_session_that_answers_in_its_own_way_is_asked():
    """A session that offers only the first legal command and ends the game after six: ``play`` follows it."""

    class FirstOptionOnly(GameSession):
        def legal_commands(self, player):
            return super().legal_commands(player)[:1]

        def is_over(self):
            return sum(1 for env in self.events() if type(env.event).__name__.endswith("CommandIssued")) >= 6

    offered = []

    class Recorder:
        def choose(self, session, player, options):
            offered.append(len(options))
            return options[0]

    session = _session(FirstOptionOnly)
    assert play(session, {"imperium": Recorder(), "orks": Recorder()}) == 6
    assert offered == [1] * 6


def test_max_commands_stops_the_fast_path():
    session = _session()
    assert play(session, _bots(), max_commands=7) == 7
    assert sum(1 for env in session.events() if type(env.event).__name__.endswith("CommandIssued")) == 7


def _documented_below(seed: str, n: int, counter: int) -> tuple[int, int]:
    """``below(n)`` by the StableRandom docstring, from word ``counter``: (the result, the next counter)."""
    limit = 2**64 - 2**64 % n
    while True:
        word = int.from_bytes(hashlib.sha256(seed.encode() + counter.to_bytes(8, "big")).digest()[:8], "big")
        counter += 1
        if word < limit:
            return word % n, counter


@pytest.mark.parametrize("bound", [2, 6, 1000, 2**63 + 1])
def test_stable_random_draws_are_the_documented_stream_rejections_included(bound):
    """2**63 + 1 rejects almost half the words: the loop must skip them and count them."""
    rng, counter, expected = StableRandom("doc"), 0, []
    for _ in range(40):
        value, counter = _documented_below("doc", bound, counter)
        expected.append(value)
    assert [rng.below(bound) for _ in range(40)] == expected
    assert rng._counter == counter
    if bound == 2**63 + 1:
        assert counter > 50  # some words were rejected


def test_stable_random_refuses_a_bound_below_one():
    for bound in (0, -3):
        with pytest.raises(ValueError, match="positive bound"):
            StableRandom(1).below(bound)
