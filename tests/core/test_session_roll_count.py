"""Roll indices continue after ``GameSession.record`` when a branch holds secret or scatter rolls: the session
counts every event that took a roll index (``aero_events.core.dice.rolls_after``), not only ``DiceRolled``.
(Written by the core-mechanisms helper; session.py counts with ``rolls_after`` since issue 11.)"""

from typing import ClassVar

import msgspec

from aero_events.core import Command, DiceCup, Event, GameSession, RuleError, Ruleset, SeededDice, TapeDice


class Go(Command, frozen=True, tag="wip.Go"):
    kind: str


class Rolls(msgspec.Struct, frozen=True):
    indices: tuple[int, ...] = ()


class HiddenRollRules(Ruleset):
    name: ClassVar[str] = "wip/hidden-rolls"
    setup_type: ClassVar[type] = Rolls

    def initial_state(self, setup):
        return Rolls()

    def decide(self, state, command, dice: DiceCup):
        if command.kind == "secret":
            return [dice.roll(1, purpose="hidden", secret_owner=command.player)]
        if command.kind == "scatter":
            return [dice.scatter(purpose="falls")]
        if command.kind == "open":
            return [dice.roll(1, purpose="open")]
        raise RuleError("no such roll", rule="test")

    def evolve(self, state, event: Event):
        return Rolls(indices=(*state.indices, event.roll_index))

    def legal_commands(self, state, player):
        return []

    def is_over(self, state):
        return False

    def clock(self, state):
        return 1, "play"

    def players(self, state):
        return ("a",)


def test_roll_indices_continue_after_a_replay_of_secret_and_scatter_rolls():
    live = GameSession(HiddenRollRules(), Rolls(), dice=SeededDice(1), game_id="g")
    for kind in ("open", "secret", "scatter"):
        live.apply(Go(player="a", kind=kind))
    replay = GameSession(HiddenRollRules(), Rolls(), dice=TapeDice.from_events(live.events()), game_id="g")
    replay.record(live.events())
    live.apply(Go(player="a", kind="open"))
    replay.dice = SeededDice(2)
    replay.apply(Go(player="a", kind="open"))
    assert replay.state.indices == live.state.indices == (0, 1, 2, 3)
