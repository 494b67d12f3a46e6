"""A one-player test ruleset whose every event is a die roll: cheap to fold, easy to build in bulk.

Used where a test needs many events (a crash mid-way through a large append) rather
than a realistic game.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from aero_events.core import Command, DiceCup, DiceRolled, Envelope, Event, Ruleset

PLAYER = "solo"


class TallySetup(msgspec.Struct, frozen=True):
    rolls_per_turn: int = 100


class TallyState(msgspec.Struct, frozen=True):
    setup: TallySetup
    rolls: int = 0
    total: int = 0


class Roll(Command, frozen=True, tag="tally.Roll"):
    pass


class TallyRules(Ruleset):
    name: ClassVar[str] = "test/tally"
    setup_type: ClassVar[type] = TallySetup

    def initial_state(self, setup: TallySetup | None) -> TallyState:
        return TallyState(setup=setup or TallySetup())

    def decide(self, state: TallyState, command: Command, dice: DiceCup) -> list[Event]:
        return [dice.d6(purpose="tally", roller=command.player)]

    def evolve(self, state: TallyState, event: Event) -> TallyState:
        if not isinstance(event, DiceRolled):
            raise TypeError(f"tally rules cannot apply {type(event).__name__}")
        return TallyState(setup=state.setup, rolls=state.rolls + 1, total=state.total + sum(event.faces))

    def legal_commands(self, state: TallyState, player: str) -> list[Command]:
        return [Roll(player=player)]

    def is_over(self, state: TallyState) -> bool:
        return False

    def clock(self, state: TallyState) -> tuple[int, str]:
        return state.rolls // state.setup.rolls_per_turn + 1, "rolling"

    def players(self, state: TallyState) -> tuple[str, ...]:
        return (PLAYER,)


def tally_envelopes(game_id: str, first_seq: int, count: int, *, branch: str = "main",
                    rolls_per_turn: int = 100, face_offset: int = 0) -> list[Envelope]:
    """``count`` DiceRolled envelopes numbered from ``first_seq`` (no checkpoints), built directly."""
    return [
        Envelope(game_id=game_id, branch_id=branch, seq=seq, turn=(seq - 1) // rolls_per_turn + 1,
                 phase="rolling", actor=PLAYER,
                 event=DiceRolled(roll_index=seq - 1, purpose="tally", roller=PLAYER, count=1, sides=6,
                                  faces=((seq + face_offset) % 6 + 1,)))
        for seq in range(first_seq, first_seq + count)
    ]
