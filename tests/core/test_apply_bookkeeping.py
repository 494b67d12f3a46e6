"""The session's bookkeeping per command made cheaper (issue 18, session 11), with the contracts it keeps.

* The envelopes and states of a command decided through the Emitter (the states taken from ``decide``, each
  checkpoint's state put in after the loop) are exactly those the session's own fold gives, checkpoints included,
  with the command recorded or not.
* Each source's mark and restore are looked up when the source is set: a session whose dice, salts or command
  salts were replaced after it was built gives the new ones back after a refused command, whatever their class.
* Seeded salts are the documented SHA-256 stream.
"""

from __future__ import annotations

import hashlib
from typing import Any, ClassVar

import msgspec
import pytest

from aero_events.core import (
    Command,
    Event,
    GameSession,
    ManualDice,
    RuleError,
    Ruleset,
    SaltSource,
    SeededDice,
)
from aero_events.core.emitter import Emitter
from aero_events.core.secrets import REPRODUCIBLE_SALTS
from aero_events.core.session import StateCheckpoint


class Step(Command, frozen=True, tag="bookkeeping.Step"):
    """``count`` events; the command is a secret choice when ``sealed``."""

    count: int
    sealed: bool = False


class Stepped(Event, frozen=True, tag="bookkeeping.Stepped"):
    player: str
    broken: bool = False


class Steps(msgspec.Struct, frozen=True):
    done: int = 0

    @property
    def turn(self) -> int:
        return 1 + self.done // 2  # a new turn every second event: a command of 5 crosses two or three


class FoldedBySession(Ruleset):
    """Returns its events as a tuple: the session folds them one by one. A ``broken`` event fails to fold."""

    name: ClassVar[str] = "test/bookkeeping"
    setup_type: ClassVar[type] = type(None)

    def initial_state(self, setup: Any) -> Steps:
        return Steps()

    def decide(self, state: Steps, command: Command, dice: Any) -> Any:
        return tuple(Stepped(player=command.player, broken=command.count < 0) for _ in range(abs(command.count)))

    def evolve(self, state: Steps, event: Event) -> Steps:
        if event.broken:
            raise ValueError("this event cannot be folded")
        return Steps(done=state.done + 1)

    def legal_commands(self, state: Steps, player: str) -> list[Command]:
        return []

    def is_over(self, state: Steps) -> bool:
        return False

    def clock(self, state: Steps) -> tuple[int, str]:
        return state.turn, f"step {state.done % 2}"

    def players(self, state: Steps) -> tuple[str, ...]:
        return ("alice", "bob")

    def is_secret_command(self, command: Any) -> bool:
        return command.sealed


class DecidedThroughEmitter(FoldedBySession):
    """The same events, emitted through the core Emitter: the session takes their states."""

    def decide(self, state: Steps, command: Command, dice: Any) -> Any:
        out = Emitter(state, self.evolve)
        for event in super().decide(state, command, dice):
            out.emit(event)
        return out.events


def _played(rules: Ruleset, **options: Any) -> GameSession:
    session = GameSession(rules, None, dice=SeededDice(3), game_id="steps", metadata={REPRODUCIBLE_SALTS: True},
                          **options)
    for command in (Step(player="alice", count=5), Step(player="bob", count=0), Step(player="bob", count=1, sealed=True),
                    Step(player="alice", count=2)):
        session.apply(command)
    return session


@pytest.mark.parametrize("record_commands", [True, False], ids=["recorded", "unrecorded"])
@pytest.mark.parametrize("checkpoints", [True, False], ids=["checkpoints", "no-checkpoints"])
def test_a_command_decided_through_the_emitter_gives_the_envelopes_and_states_of_the_sessions_fold(
        record_commands, checkpoints):
    emitted = _played(DecidedThroughEmitter(), record_commands=record_commands, checkpoints=checkpoints)
    folded = _played(FoldedBySession(), record_commands=record_commands, checkpoints=checkpoints)
    assert emitted.events() == folded.events()
    assert [emitted.state_at(seq) for seq in range(emitted.seq + 1)] == [
        folded.state_at(seq) for seq in range(folded.seq + 1)]
    marks = [env for env in emitted.events() if type(env.event) is StateCheckpoint]
    assert len(marks) == (4 if checkpoints else 0)  # the first command alone crosses two turns
    for mark in marks:  # a checkpoint's state is the state after the event before it, hashed in the checkpoint
        assert emitted.state_at(mark.seq) is emitted.state_at(mark.seq - 1)
        assert mark.event.state_hash == emitted.ruleset.state_hash(emitted.state_at(mark.seq))
        assert (mark.turn, mark.phase) == emitted.ruleset.clock(emitted.state_at(mark.seq))


class CountingDice(SeededDice):
    """A dice subclass with state of its own (copied whole to be marked)."""

    def __init__(self, seed: Any):
        super().__init__(seed)
        self.drawn: list[int] = []

    def draw(self, count, sides, purpose="", roller=None):
        self.drawn.append(count)
        return super().draw(count, sides, purpose, roller)


class RollsSaltsThenFailsToFold(FoldedBySession):
    """Rolls dice and takes a ruleset salt, then hands back an event that cannot be folded (after the session has
    sealed the secret command with a command salt)."""

    def decide(self, state: Steps, command: Command, dice: Any) -> Any:
        dice.roll(4, purpose="doomed")
        dice.salts.next()
        return super().decide(state, command, dice)


@pytest.mark.parametrize("dice", [SeededDice("new"), CountingDice("new")], ids=["seeded", "subclass"])
def test_sources_replaced_after_the_session_was_built_are_given_back_after_a_refusal(dice):
    """The session was built with manual dice and random salts; the replacements are the ones marked."""
    manual = ManualDice()
    session = GameSession(RollsSaltsThenFailsToFold(), None, dice=manual, game_id="g")
    session.dice, session.salts, session.command_salts = dice, SaltSource("ruleset"), SaltSource("commands")
    with pytest.raises(ValueError, match="cannot be folded"):
        session.apply(Step(player="alice", count=-1, sealed=True))
    assert session.seq == 0 and getattr(dice, "drawn", []) == [] and manual.remaining == 0
    assert session.dice.draw(40, 6) == SeededDice("new").draw(40, 6)
    assert session.salts.next() == SaltSource("ruleset").next()
    assert session.command_salts.next() == SaltSource("commands").next()


def test_a_session_with_replaced_sources_plays_on_with_them():
    """After the refusal the same command, now foldable, draws from where the replaced sources stood."""
    session = GameSession(RollsSaltsThenFailsToFold(), None, dice=ManualDice(), game_id="g")
    session.dice, session.salts, session.command_salts = SeededDice(8), SaltSource("r"), SaltSource("c")
    with pytest.raises(ValueError):
        session.apply(Step(player="alice", count=-1, sealed=True))
    issued, *_ = session.apply(Step(player="alice", count=1, sealed=True))
    reference = SeededDice(8)
    reference.draw(4, 6)  # the one roll of the applied command
    assert session.dice.draw(30, 6) == reference.draw(30, 6)
    assert issued.event.salt == SaltSource("c").next()
    ruleset_salts = SaltSource("r")
    ruleset_salts.next()
    assert session.salts.next() == ruleset_salts.next()


def test_a_mistyped_command_is_still_refused_by_name_through_the_new_marks():
    session = GameSession(DecidedThroughEmitter(), None, dice=SeededDice(1), game_id="g")
    with pytest.raises(RuleError, match=r"command bookkeeping.Step, field 'sealed'"):
        session.apply(Step(player="alice", count=1, sealed="yes"))
    assert session.seq == 0


@pytest.mark.parametrize("seed", ["s", 7])
def test_seeded_salts_are_the_documented_sha256_stream(seed):
    """Salt ``n`` (from 1) of a seeded source: SHA-256 of ``b"salt:"``, the seed's UTF-8 and ``n`` as 8 bytes
    big-endian, the first 32 hex digits."""
    salts = SaltSource(seed)
    expected = [hashlib.sha256(b"salt:" + str(seed).encode() + n.to_bytes(8, "big")).hexdigest()[:32]
                for n in range(1, 4)]
    assert [salts.next() for _ in range(3)] == expected
