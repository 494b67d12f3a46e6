"""A win-probability strip over the turns of a game (the lichess evaluation bar as the model), for the
replay page and the report: :func:`win_probability_strip`.

The odds are worked out at the start of each turn (where the command during which the turn began ends: the
turn's first decision, before any secret order of the turn is sealed, so the position is the one every
player sees) and after the game's last event, each from
``playouts`` playouts (:func:`aero_events.odds.playouts.play_positions`: every point's playouts in one run,
so a pool of processes stays busy). A finished game's last point is its result (probability 1 for the
winner), not a playout.

Secrets stay secret on a page (``viewer``: the player it is drawn for, None for a spectator). A point whose
starting state holds what the rules hide from the page's viewer (``ruleset.hides_from``: Wings of Glory's cards
planned a turn ahead and its damage tokens, at every turn's start) is left out of that page's strip
(:attr:`Strip.left_out`), since its playouts would read the hidden part and the odds drawn would tell it. The
default viewer, :data:`ORGANISER`, is the holder of the store, who sees everything (``aero odds``, notebooks).

A line of play is read through ``state_at(seq)``, ``head_seq`` and its envelopes, so the strip is drawn from
a stored game's branch (:class:`~aero_events.core.Game`) or from a folded
:class:`~aero_events.analysis.timeline.Timeline` alike (:func:`strip_of_timeline`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

import msgspec

from aero_events.core import Envelope, Game

from .playouts import (
    OddsError,
    Position,
    SideOdds,
    checked_bot,
    command_end_after,
    command_ends,
    play_positions,
    position_of,
    summarise,
)

#: Playouts per point of the strip drawn on the replay page and in the report unless told (``--odds-playouts``):
#: few enough that a report of the demo game takes seconds; the intervals drawn say how rough that is.
DEFAULT_STRIP_PLAYOUTS = 8


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


class _Organiser:
    """The viewer who sees every secret: the holder of the store (see the module docstring)."""

    def __repr__(self) -> str:
        return "ORGANISER"


#: The default viewer of a strip: the store's holder, who sees every secret. Pages pass their own viewer.
ORGANISER: Any = _Organiser()


class Strip(list):
    """The points of a strip, in order (a list of :class:`StripPoint`), and ``left_out``: the event numbers of
    the points not worked out because their state hides something from the strip's viewer."""

    def __init__(self, points: Sequence[StripPoint] = (), left_out: Sequence[int] = ()):
        super().__init__(points)
        self.left_out: tuple[int, ...] = tuple(left_out)


def left_out_note(strip: Strip, viewer: Any, rules: Any) -> str | None:
    """One sentence for a page or a terminal when the strip left points out (None when it left none)."""
    if not getattr(strip, "left_out", ()):
        return None
    who = "a spectator" if viewer is None else str(viewer)
    count = len(strip.left_out)
    return (f"The win-probability strip leaves out {count} point{'s' if count != 1 else ''}: there the "
            f"{rules.name} game holds what {who} may not see (face-down choices, secret draws), and playing on "
            f"from it would show it in the odds.")


def _turn_starts(rules: Any, state_at: Callable[[int], Any], head_seq: int,
                 ends: Sequence[int] | None) -> list[tuple[int, int]]:
    points: list[tuple[int, int]] = []
    seen = 0
    for seq in range(head_seq + 1):
        turn = rules.clock(state_at(seq))[0]
        if turn > seen:
            # A turn begins inside the command that ended the last one (an End phase, say): its first
            # position is where that command's events end, the turn's first decision.
            start = command_end_after(ends, seq)
            if not points or start > points[-1][0]:
                points.append((start, rules.clock(state_at(start))[0]))
            seen = turn
    return points


def turn_starts(game: Game, branch: str = "main") -> list[tuple[int, int]]:
    """(seq, turn) of the position where each turn of the branch begins: the end of the command during which
    the ruleset's clock first shows the turn (0: a game that starts in its first turn); for a line that
    records no command, the first event at which the clock shows it."""
    line = game.branches[branch]
    return _turn_starts(game.ruleset, line.state_at, line.head_seq, command_ends(list(line.envelopes())))


def win_probability_strip(game: Game, *, branch: str = "main", playouts: int = DEFAULT_STRIP_PLAYOUTS,
                          bot: str | None = None, seed: int = 0, workers: int = 1, dask: str | None = None,
                          executor: Executor | None = None, points: Sequence[int] | None = None,
                          viewer: Any = ORGANISER) -> Strip:
    """The odds at each turn's start and at the end of a branch (or at the event numbers ``points``), as
    ``viewer`` may see them (see the module docstring)."""
    if branch not in game.branches:
        raise OddsError(f"game {game.id} has no branch {branch!r}; its branches: {', '.join(game.branches)}")
    line = game.branches[branch]
    return strip_of_line(game.ruleset, list(line.envelopes()), line.state_at, line.head_seq, playouts=playouts,
                         bot=bot, seed=seed, workers=workers, dask=dask, executor=executor, points=points,
                         viewer=viewer)


def strip_of_timeline(timeline: Any, *, playouts: int = DEFAULT_STRIP_PLAYOUTS, bot: str | None = None,
                      seed: int = 0, workers: int = 1, dask: str | None = None,
                      executor: Executor | None = None, viewer: Any = ORGANISER) -> Strip:
    """The strip of a folded :class:`~aero_events.analysis.timeline.Timeline` (its states are reused), as
    ``viewer`` may see it."""
    return strip_of_line(timeline.ruleset, timeline.envelopes, timeline.state_at, timeline.head_seq,
                         playouts=playouts, bot=bot, seed=seed, workers=workers, dask=dask, executor=executor,
                         viewer=viewer)


def strip_of_line(rules: Any, envelopes: Sequence[Envelope], state_at: Callable[[int], Any], head_seq: int, *,
                  playouts: int, bot: str | None = None, seed: int = 0, workers: int = 1, dask: str | None = None,
                  executor: Executor | None = None, points: Sequence[int] | None = None,
                  viewer: Any = ORGANISER) -> Strip:
    """The strip of a line of play: ``envelopes`` are its events 1..``head_seq``, ``state_at(seq)`` its
    states (0: the initial state), as ``viewer`` may see it: a point whose playouts would start from a state
    that hides something from ``viewer`` is left out (:attr:`Strip.left_out`)."""
    if playouts < 1:
        raise OddsError("a win-probability strip needs at least one playout per point")
    bot = checked_bot(rules, bot)
    ends = command_ends(envelopes)
    wanted = list(points) if points is not None else [seq for seq, _ in _turn_starts(rules, state_at, head_seq, ends)]
    if points is None and head_seq not in wanted:
        wanted.append(head_seq)
    for seq in wanted:
        if not 0 <= seq <= head_seq:
            raise OddsError(f"the line has events 1..{head_seq}; no event {seq}")
    played = sorted({seq for seq in wanted if not rules.is_over(state_at(seq))})
    positions: list[Position] = [position_of(rules, envelopes, state_at, seq, ends) for seq in played]
    left_out = []
    if viewer is not ORGANISER:
        left_out = [position.seq for position in positions if rules.hides_from(position.state, viewer)]
        positions = [position for position in positions if position.seq not in left_out]
    try:
        results = play_positions(rules, positions, playouts=playouts, bot=bot, seed=seed, workers=workers,
                                 dask=dask, executor=executor)
    except OddsError as err:
        raise OddsError(f"the win-probability strip could not be worked out: {err}. The page can be drawn "
                        f"without it: --odds-playouts 0") from err
    strip = Strip(left_out=left_out)
    for position, found in zip(positions, results, strict=True):
        counted = summarise(found, tuple(rules.sides(position.state)), game_id="", branch="", seq=position.seq,
                            start_seq=position.start_seq, turn=rules.clock(position.state)[0], bot=bot, seed=seed)
        strip.append(StripPoint(seq=position.seq, turn=counted.turn, sides=counted.sides, playouts=counted.playouts))
    head_state = state_at(head_seq)
    if points is None and rules.is_over(head_state):
        strip.append(final_point(rules, head_state, head_seq))
    return strip


def final_point(rules: Any, state: Any, seq: int) -> StripPoint:
    """A finished game's result as the strip's last point: probability 1 for the winner, 0 for the rest, with
    no uncertainty (the interval is the point itself: nothing was sampled)."""
    outcome = rules.outcome(state)
    sides = tuple(SideOdds(side=side, wins=int(outcome.winner == side),
                           win_probability=1.0 if outcome.winner == side else 0.0,
                           interval=(1.0, 1.0) if outcome.winner == side else (0.0, 0.0),
                           expected_score=float(outcome.scores.get(side, 0.0)))
                  for side in rules.sides(state))
    return StripPoint(seq=seq, turn=rules.clock(state)[0], sides=sides, playouts=0, final=True)
