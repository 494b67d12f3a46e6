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

from aero_events.bots import play
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.state import DESTROYED, DISENGAGED, GAME_OVER
from aero_events.rulesets.aeronautica.versions import register_from_metadata, rules_for, variant_metadata

from .matchup import Matchup, make_bot


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
    """A ruleset as a worker rebuilds it: a version name, or a variant's definition."""

    name: str
    variant: dict[str, Any] | None = None


def rules_spec(rules: AeronauticaRules) -> RulesSpec:
    return RulesSpec(name=rules.name, variant=variant_metadata(rules))


@functools.cache
def _rules_from_json(encoded: bytes) -> AeronauticaRules:
    spec = msgspec.json.decode(encoded, type=RulesSpec)
    if spec.variant is not None:
        register_from_metadata({"variant": spec.variant})
    return rules_for(spec.name)


def rules_from_spec(spec: RulesSpec) -> AeronauticaRules:
    """The ruleset of a spec (built once per process)."""
    return _rules_from_json(msgspec.json.encode(spec))


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """What one simulated game came to."""

    index: int
    seed: int
    game_id: str
    finished: bool
    winner: str | None
    end_reason: str | None
    turns: int
    victory_points: dict[str, int]
    aircraft_lost: dict[str, int]
    aircraft_disengaged: dict[str, int]
    events: int
    commands: int
    state_hash: str


class SimTask(msgspec.Struct, frozen=True, kw_only=True):
    """Games ``start`` to ``stop - 1`` of a run, and where their events go (``output``: ``none``, ``db``
    (encoded for the parent) or ``parquet`` (a shard in ``parquet_dir``))."""

    matchup: Matchup
    rules: RulesSpec
    bots: tuple[str, str]
    run_seed: int
    run_id: str
    start: int
    stop: int
    output: str = "none"
    parquet_dir: str | None = None


class TaskResult(msgspec.Struct, frozen=True, kw_only=True):
    """A worker's answer: one result per game, and the encoded games or the shard files written."""

    results: tuple[GameResult, ...]
    games: tuple[Any, ...] = ()
    shards: tuple[str, ...] = ()


def play_game(rules: AeronauticaRules, matchup: Matchup, bots: tuple[str, str], run_seed: int, index: int,
              game_id: str) -> tuple[GameResult, GameSession]:
    """Play game ``index`` of a run to its end."""
    seed = game_seed(run_seed, index)
    metadata: dict[str, Any] = {"simulation": game_id.rsplit("-", 1)[0], "index": index, "seed": seed,
                                "run_seed": run_seed, "bots": list(bots), "matchup": matchup.name}
    variant = variant_metadata(rules)
    if variant is not None:
        metadata["variant"] = variant
    session = GameSession(rules, matchup.setup(rules), dice=SeededDice(seed), game_id=game_id, metadata=metadata)
    players = matchup.players
    commands = play(session, {player: make_bot(name, f"{seed}:{player}")
                              for player, name in zip(players, bots, strict=True)}, max_commands=100_000)
    state = session.state
    lost = {player: 0 for player in players}
    disengaged = {player: 0 for player in players}
    for aircraft in state.aircraft.values():
        if aircraft.status == DESTROYED:
            lost[aircraft.owner] += 1
        elif aircraft.status == DISENGAGED:
            disengaged[aircraft.owner] += 1
    result = GameResult(index=index, seed=seed, game_id=game_id, finished=state.phase == GAME_OVER,
                        winner=state.winner, end_reason=state.end_reason, turns=state.turn,
                        victory_points={player: state.victory_points.get(player, 0) for player in players},
                        aircraft_lost=lost, aircraft_disengaged=disengaged, events=session.seq, commands=commands,
                        state_hash=session.state_hash())
    return result, session


def run_task(task: SimTask) -> TaskResult:
    """Play a chunk of games (in whatever process runs it) and hand back results and storage."""
    from .storage import encode_game, write_parquet_shard

    rules = rules_from_spec(task.rules)
    results, encoded = [], []
    for index in range(task.start, task.stop):
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
