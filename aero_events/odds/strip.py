"""A win-probability strip over the turns of a game (the lichess evaluation bar as the model), for the
replay page and the report: :func:`win_probability_strip`.

The odds are worked out at the start of each turn (the first event of the turn: no secret order is sealed
there, so the position is the one every player sees) and after the game's last event, each from
``playouts`` playouts (:func:`aero_events.odds.playouts.odds`). A finished game's last point is its result
(probability 1 for the winner), not a playout.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor

import msgspec

from aero_events.core import Game
from aero_events.sim.stats import wilson_interval

from .playouts import Odds, SideOdds, odds


class StripPoint(msgspec.Struct, frozen=True, kw_only=True):
    """The odds at one point of the strip: after event ``seq`` (turn ``turn``), per side (in the ruleset's
    order of sides): win probability with its 95% interval and expected score. ``final``: the game's result."""

    seq: int
    turn: int
    sides: tuple[SideOdds, ...]
    playouts: int
    final: bool = False

    def probability(self, side: str) -> float:
        return next((entry.win_probability for entry in self.sides if entry.side == side), 0.0)


def turn_starts(game: Game, branch: str = "main") -> list[tuple[int, int]]:
    """(seq, turn) of the position where each turn of the branch begins: the first event number at which
    the ruleset's clock shows the turn (0: a game that starts in its first turn)."""
    rules, line = game.ruleset, game.branches[branch]
    points: list[tuple[int, int]] = []
    seen = 0
    for seq in range(line.head_seq + 1):
        turn = rules.clock(line.state_at(seq))[0]
        if turn > seen:
            points.append((seq, turn))
            seen = turn
    return points


def win_probability_strip(game: Game, *, branch: str = "main", playouts: int = 100, bot: str | None = None,
                          seed: int = 0, workers: int = 1, dask: str | None = None,
                          executor: Executor | None = None, points: Sequence[int] | None = None) -> list[StripPoint]:
    """The odds at each turn's start and at the end of a branch (or at the event numbers ``points``)."""
    rules = game.ruleset
    line = game.branches[branch]
    wanted = [(seq, None) for seq in points] if points is not None else turn_starts(game, branch)
    head_state = line.state_at(line.head_seq)
    strip = []
    for seq, _ in wanted:
        if rules.is_over(line.state_at(seq)):
            continue
        found: Odds = odds(game, branch=branch, seq=seq, playouts=playouts, bot=bot, seed=seed, workers=workers,
                           dask=dask, executor=executor)
        strip.append(StripPoint(seq=seq, turn=found.turn, sides=found.sides, playouts=found.playouts))
    if points is None:
        if rules.is_over(head_state):
            outcome = rules.outcome(head_state)
            sides = tuple(SideOdds(side=side, wins=int(outcome.winner == side),
                                   win_probability=1.0 if outcome.winner == side else 0.0,
                                   interval=wilson_interval(int(outcome.winner == side), 1),
                                   expected_score=float(outcome.scores.get(side, 0.0)))
                          for side in rules.sides(head_state))
            strip.append(StripPoint(seq=line.head_seq, turn=rules.clock(head_state)[0], sides=sides, playouts=0,
                                    final=True))
        elif line.head_seq not in {point.seq for point in strip}:
            found = odds(game, branch=branch, seq=line.head_seq, playouts=playouts, bot=bot, seed=seed,
                         workers=workers, dask=dask, executor=executor)
            strip.append(StripPoint(seq=line.head_seq, turn=found.turn, sides=found.sides, playouts=found.playouts))
    return strip
