"""One simulated game, and a chunk of them as a worker plays them (in any process, local or Dask).

Game ``i`` of a run with seed ``S`` uses the seed :func:`game_seed` ``(S, i)``: its dice
(:class:`SeededDice`) and both bots are seeded from it, so a game's events depend only on the run's seed,
its index, the matchup, the ruleset and the bots, never on which worker plays it or how many there are.

A worker gets a :class:`SimTask` (plain data that pickles: the ruleset travels as its name, or a variant
as its definition) and returns a :class:`TaskResult`: each game's :class:`GameResult`, and, when the run
stores its games, either the games encoded for the parent to write to DuckDB in batches
(:class:`~aero_events.sim.storage.EncodedGame`) or the Parquet shard it wrote itself.
"""

from __future__ import annotations

import functools
import hashlib
import re
from typing import Any

import msgspec

from aero_events.bots import make_bot, play
from aero_events.core import GameSession, Ruleset, SeededDice
from aero_events.core.registry import ruleset_for_game
from aero_events.core.secrets import REPRODUCIBLE_SALTS

from .matchup import Matchup


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``run_seed``: 63 bits of SHA-256("aero-sim:S:i")."""
    digest = hashlib.sha256(f"aero-sim:{run_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def slug(text: str) -> str:
    """``aeronautica/faq-2020`` -> ``faq-2020``; anything else made safe for ids and file names."""
    return re.sub(r"[^a-z0-9.-]+", "-", text.lower().rsplit("/", 1)[-1]).strip("-") or "x"


def run_id(matchup: Matchup, ruleset: str, seed: int) -> str:
    """The prefix of a run's game ids: ``sim-<matchup>-<version>-s<seed>``."""
    return f"sim-{slug(matchup.name)}-{slug(ruleset)}-s{seed}"


class RulesSpec(msgspec.Struct, frozen=True):
    """A ruleset as a worker rebuilds it: its name, and what its games keep in their metadata to be reloaded
    (a user's variant: its definition; ``ruleset.game_metadata()``)."""

    name: str
    metadata: dict[str, Any] = msgspec.field(default_factory=dict)


def rules_spec(rules: Ruleset) -> RulesSpec:
    return RulesSpec(name=rules.name, metadata=rules.game_metadata())


@functools.cache
def _rules_from_json(encoded: bytes) -> Ruleset:
    spec = msgspec.json.decode(encoded, type=RulesSpec)
    return ruleset_for_game(spec.name, spec.metadata)


def rules_from_spec(spec: RulesSpec) -> Ruleset:
    """The ruleset of a spec (built once per process)."""
    return _rules_from_json(msgspec.json.encode(spec))


class PieceResult(msgspec.Struct, frozen=True, array_like=True):
    """One piece at the end of a game, as the ruleset's scene draws it (:mod:`aero_events.core.scene`): its
    side, its type (the scene's ``model``, else its ``kind``) and its status (``active``, ``destroyed``...)."""

    side: str
    piece_type: str
    status: str


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """What one simulated game came to, in the ruleset's terms: ``scores`` per side (``ruleset.outcome``;
    Aeronautica's Victory points) and ``statistics``, counts per side by name (``ruleset.statistics``;
    Aeronautica's "aircraft lost" and "aircraft disengaged"); ``pieces``: every piece at the end, for the
    summaries by piece type."""

    index: int
    seed: int
    game_id: str
    finished: bool
    winner: str | None
    end_reason: str | None
    turns: int
    scores: dict[str, float]
    statistics: dict[str, dict[str, int]]
    events: int
    commands: int
    state_hash: str
    draw: bool = False
    pieces: tuple[PieceResult, ...] = ()


class SimTask(msgspec.Struct, frozen=True, kw_only=True):
    """Games ``start`` to ``stop - 1`` of a run (or only ``indices``, when a run is resumed), and where their
    events go (``output``: ``none``, ``db`` (encoded for the parent) or ``parquet`` (a shard in
    ``parquet_dir``))."""

    matchup: Matchup
    rules: RulesSpec
    bots: tuple[str, ...]
    run_seed: int
    run_id: str
    start: int
    stop: int
    output: str = "none"
    parquet_dir: str | None = None
    indices: tuple[int, ...] | None = None

    def game_indices(self) -> tuple[int, ...]:
        return self.indices if self.indices is not None else tuple(range(self.start, self.stop))


class TaskResult(msgspec.Struct, frozen=True, kw_only=True):
    """A worker's answer: one result per game, and the encoded games or the shard files written."""

    results: tuple[GameResult, ...]
    games: tuple[Any, ...] = ()
    shards: tuple[str, ...] = ()


def play_game(rules: Ruleset, matchup: Matchup, bots: tuple[str, ...], run_seed: int, index: int,
              game_id: str) -> tuple[GameResult, GameSession]:
    """Play game ``index`` of a run to its end."""
    seed = game_seed(run_seed, index)
    # Bot games must be re-run byte for byte from their seed alone (``aero regress``, compare): their
    # secret commitments derive from the seed, which is public, so they hide nothing (core/secrets.py).
    metadata: dict[str, Any] = {"simulation": game_id.rsplit("-", 1)[0], "index": index, "seed": seed,
                                "run_seed": run_seed, "bots": list(bots), "matchup": matchup.name,
                                REPRODUCIBLE_SALTS: True}
    metadata.update(rules.game_metadata())
    session = GameSession(rules, matchup.setup(rules, seed), dice=SeededDice(seed), game_id=game_id,
                          metadata=metadata)
    players = matchup.players
    commands = play(session, {player: make_bot(rules, name, f"{seed}:{player}")
                              for player, name in zip(players, bots, strict=True)}, max_commands=100_000)
    state = session.state
    outcome = rules.outcome(state)
    result = GameResult(index=index, seed=seed, game_id=game_id, finished=outcome.finished,
                        winner=outcome.winner, end_reason=outcome.reason or None, turns=rules.clock(state)[0],
                        scores={player: outcome.scores.get(player, 0.0) for player in players},
                        statistics=rules.statistics(state), events=session.seq, commands=commands,
                        state_hash=session.state_hash(), draw=bool(outcome.draw), pieces=final_pieces(rules, state))
    return result, session


def final_pieces(rules: Ruleset, state: Any) -> tuple[PieceResult, ...]:
    """Every piece of ``state`` as the ruleset's scene draws it (side, type, status), sorted."""
    drawn = sorted((piece.side, piece.model or piece.kind, piece.status) for piece in rules.scene(state).pieces)
    return tuple(PieceResult(*piece) for piece in drawn)


def run_task(task: SimTask) -> TaskResult:
    """Play a chunk of games (in whatever process runs it) and hand back results and storage."""
    rules = rules_from_spec(task.rules)
    results, encoded = [], []
    if task.output in ("db", "parquet"):  # DuckDB and pyarrow: imported only for games that are kept
        from .storage import encode_game, write_parquet_shard
    for index in task.game_indices():
        result, session = play_game(rules, task.matchup, task.bots, task.run_seed, index,
                                    f"{task.run_id}-{index:06d}")
        results.append(result)
        if task.output in ("db", "parquet"):
            encoded.append(encode_game(session))
    if task.output == "parquet":
        assert task.parquet_dir is not None
        shards = write_parquet_shard(task.parquet_dir, f"{task.run_id}-{task.start:06d}", encoded, results)
        return TaskResult(results=tuple(results), shards=tuple(shards))
    return TaskResult(results=tuple(results), games=tuple(encoded))
