"""The golden corpus: recorded bot games in ``replays/`` that every change to the rules is checked against.

``aero corpus --out replays/`` plays the scenarios of a ruleset family's corpus plan
(:meth:`~aero_events.core.interface.ToolInterface.corpus`; Aeronautica's is the ``corpus.py`` of its
package) with fixed seeds, keeping a game whenever it covers something no kept
game covers yet, until the corpus covers what the plan requires.

The search is deterministic (seeds 1, 2, 3... per scenario), so regenerating rewrites identical files
unless the rules changed; ``git diff replays/`` then shows what did. Each game is a JSON Lines file in
the export format (:mod:`.jsonl`); ``MANIFEST.json`` lists the files, their seeds, what each covers and
each final state hash. :func:`check_game` replays a corpus game under its own ruleset: folding its
events (checkpoint hashes and the final hash must match) and deciding its recovered commands again
(every event must match), failing at the first event that changed.

Corpus games carry their commands (``CommandIssued``), as every game recorded today does, so ``aero
regress`` re-decides them with nothing ruleset-specific. Games stored before commands were recorded still
regress through the ruleset's legacy table (:mod:`.decisions`; ``tests/regress/test_decisions.py``).
Each ruleset family keeps its corpus in a folder of its own: the default family's in ``replays/``, any
other's in ``replays/<family>/`` (``aero corpus --ruleset FAMILY --out replays/FAMILY``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from aero_events.bots import make_bot, play
from aero_events.core import Envelope, Game, GameSession, ManualDice, ReplayMismatch, Ruleset, SeededDice
from aero_events.core.interface import CorpusPlan, CorpusScenario
from aero_events.core.registry import default_ruleset, get_ruleset, known_rulesets
from aero_events.core.secrets import REPRODUCIBLE_SALTS, SaltSource
from aero_events.core.state_shape import METADATA_KEY as STATE_SHAPE
from aero_events.core.state_shape import checkpoint_hash, recorded_fingerprint, shape_history

from .jsonl import write_game_jsonl
from .recorded import RecordedGame, from_jsonl
from .rerun import rerun

MANIFEST = "MANIFEST.json"
#: Every corpus file says it was created at this moment, so regenerating gives identical bytes.
CREATED = datetime(2020, 1, 1, tzinfo=UTC)


def corpus_plan(family: str | None = None) -> CorpusPlan:
    """The corpus plan of a ruleset family (default: the default ruleset's)."""
    rules = get_ruleset(family or default_ruleset())
    plan = rules.corpus()
    if plan is None:
        raise KeyError(f"the ruleset {rules.name} has no golden corpus")
    return plan


def __getattr__(name: str) -> Any:
    if name == "SCENARIOS":  # the default family's scenarios, read when asked for
        return corpus_plan().scenarios
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def required_coverage(family: str | None = None) -> frozenset[str]:
    """Everything the corpus must cover."""
    return corpus_plan(family).required


def coverage(rules: Ruleset, initial: Any, envelopes: Iterable[Envelope]) -> set[str]:
    """The corpus items one line of play covers (the ruleset's corpus plan says)."""
    plan = rules.corpus()
    if plan is None:
        return set()
    return plan.coverage(rules, initial, list(envelopes))


def scenario(name: str, family: str | None = None) -> CorpusScenario:
    scenarios = corpus_plan(family).scenarios
    for candidate in scenarios:
        if candidate.name == name:
            return candidate
    raise KeyError(f"unknown corpus scenario {name!r}; known: {', '.join(s.name for s in scenarios)}")


def play_scenario(scenario: CorpusScenario, seed: int, family: str | None = None) -> GameSession:
    """One seeded bot game of ``scenario``, played to its end, recorded as the corpus is (see above)."""
    rules = corpus_plan(family).rules_for(scenario.ruleset)
    metadata: dict[str, object] = {"corpus": scenario.name, "seed": seed, "bots": list(scenario.bots),
                                   "description": scenario.description}
    metadata.update(rules.game_metadata())
    # Corpus games are regenerated from their seed alone, salts included, so they say so (their commitments hide
    # nothing); files committed before the key existed lack it and have the same salts (:func:`as_committed`).
    metadata[REPRODUCIBLE_SALTS] = True
    session = GameSession(rules, scenario.build(rules), dice=SeededDice(f"corpus:{scenario.name}:{seed}"),
                          game_id=f"corpus-{scenario.name}-{seed}", metadata=metadata)
    bots = {player: make_bot(rules, name, f"corpus:{scenario.name}:{seed}:{player}")
            for player, name in zip(scenario.players, scenario.bots, strict=True)}
    play(session, bots)
    return session


# ---------------------------------------------------------------------------------------------------------
# Generating and checking
# ---------------------------------------------------------------------------------------------------------


class ManifestGame(msgspec.Struct, frozen=True, kw_only=True):
    """One corpus file: its game, how it was made, what it covers and its final state hash."""

    file: str
    game_id: str
    scenario: str
    ruleset: str
    data_version: str
    seed: int
    bots: tuple[str, ...]
    events: int
    covers: tuple[str, ...]
    final_state_hash: str


class Manifest(msgspec.Struct, frozen=True, kw_only=True):
    """``replays/MANIFEST.json``."""

    generated_by: str
    games: tuple[ManifestGame, ...]
    coverage: dict[str, list[str]]
    missing: tuple[str, ...]


def generate(out: str | os.PathLike, *, max_seeds: int = 30, say: Callable[[str], None] = print,
             family: str | None = None) -> Manifest:
    """Search seeds scenario by scenario until the corpus covers :func:`required_coverage`; write the games
    and ``MANIFEST.json`` to ``out`` (files of an earlier corpus that are no longer in it are removed)."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    plan = corpus_plan(family)
    required = plan.required
    covered: dict[str, list[str]] = {}
    kept: list[ManifestGame] = []
    for spec in plan.scenarios:
        kept_here = 0
        for seed in range(1, max_seeds + 1):
            if kept_here and not (spec.targets - covered.keys()):
                break
            session = play_scenario(spec, seed, family)
            items = coverage(session.ruleset, session.state_at(0), session.events())
            new = (items & required) - covered.keys()
            if not new and kept_here:
                continue
            name = f"{spec.name}-seed{seed}.jsonl"
            count = write_game_jsonl(session.game, folder / name, created=CREATED)
            for item in sorted(items & required):
                covered.setdefault(item, []).append(name)
            kept.append(ManifestGame(file=name, game_id=session.game_id, scenario=spec.name,
                                     ruleset=session.ruleset.name, data_version=str(session.ruleset.data_version),
                                     seed=seed, bots=spec.bots, events=count, covers=tuple(sorted(items & required)),
                                     final_state_hash=session.state_hash()))
            kept_here += 1
            say(f"{name}: {count} events, new: {', '.join(sorted(new)) or '-'}")
    missing = tuple(sorted(required - covered.keys()))
    manifest = Manifest(generated_by="aero corpus --out replays/", games=tuple(kept),
                        coverage={item: covered[item] for item in sorted(covered)}, missing=missing)
    _remove_stale(folder, {game.file for game in kept})
    (folder / MANIFEST).write_bytes(msgspec.json.format(msgspec.json.encode(manifest), indent=2) + b"\n")
    if missing:
        say(f"not covered: {', '.join(missing)}")
    return manifest


def _remove_stale(folder: Path, keep: set[str]) -> None:
    previous = folder / MANIFEST
    if not previous.exists():
        return
    try:
        listed = [game["file"] for game in json.loads(previous.read_text())["games"]]
    except (ValueError, KeyError, TypeError):
        return
    for name in listed:
        if name not in keep and (folder / name).exists():
            (folder / name).unlink()


def as_committed(regenerated: bytes, committed: bytes) -> bytes:
    """``regenerated`` (a corpus game written from its seed) as it would have been written before games
    declared their seed-derived salts: without ``"reproducible_salts": true`` in the header's metadata when
    the ``committed`` file's header has no such key. The salts themselves were seed-derived then as now
    (``SaltSource(f"{dice seed}:main")``), so every other byte must be the same. Likewise without the
    ``state_shape`` fingerprint (:mod:`aero_events.core.state_shape`) when the committed file, recorded before
    games recorded it, has none and the regenerated one has the history's first shape (the one it then had)."""
    from aero_events.store.transfer import JsonlHeader

    regenerated_header, newline, rest = regenerated.partition(b"\n")
    committed_header = msgspec.json.decode(committed.partition(b"\n")[0], type=JsonlHeader)
    header = msgspec.json.decode(regenerated_header, type=JsonlHeader)
    changed = False
    if REPRODUCIBLE_SALTS not in committed_header.metadata and header.metadata.get(REPRODUCIBLE_SALTS) is True:
        del header.metadata[REPRODUCIBLE_SALTS]
        changed = True
    if STATE_SHAPE not in committed_header.metadata and STATE_SHAPE in header.metadata:
        rules = get_ruleset(header.ruleset) if header.ruleset in known_rulesets() else None
        if rules is None or header.metadata[STATE_SHAPE] == shape_history(rules).first:
            del header.metadata[STATE_SHAPE]
            changed = True
    return msgspec.json.encode(header) + newline + rest if changed else regenerated


def read_manifest(folder: str | os.PathLike) -> Manifest:
    path = Path(folder) / MANIFEST
    return msgspec.json.decode(path.read_bytes(), type=Manifest)


class CorpusMismatch(AssertionError):
    """A corpus game that no longer replays identically under its own ruleset."""


def check_game(folder: str | os.PathLike, entry: ManifestGame) -> RecordedGame:
    """Replay one corpus game under its own ruleset; raise :class:`CorpusMismatch` naming the first change.

    1. Fold the recorded events (``GameSession.record``): every checkpoint hash and the final state hash
       must match the manifest.
    2. Decide the recovered commands again with the recorded dice: every event must match.
    """
    path = Path(folder) / entry.file
    game = from_jsonl(path)
    rules = game.own_rules()  # a variant's definition travels in the game's metadata
    # read back as recorded: its checkpoints and final hash are in the state shape it was recorded with
    recorded = Game(rules, game.setup(rules), game.game_id, game.metadata, recorded=True)
    session = GameSession(rules, dice=ManualDice(), salts=SaltSource("corpus"), game=recorded)
    try:
        session.record(game.envelopes)
    except ReplayMismatch as err:
        raise CorpusMismatch(f"{entry.file}: folding the recorded events under {rules.name}: {err}") from None
    final_hash = checkpoint_hash(rules, session.state, recorded_fingerprint(game.metadata))
    if final_hash != entry.final_state_hash:
        raise CorpusMismatch(f"{entry.file}: the final state hash is {final_hash[:12]}, the manifest "
                             f"says {entry.final_state_hash[:12]}")
    report = rerun(game, rules, own_rules=rules)
    if report.error is not None:
        raise CorpusMismatch(f"{entry.file}: {report.error}")
    if not report.identical:
        divergence = report.divergence
        if divergence is not None:
            at = divergence.where
            raise CorpusMismatch(
                f"{entry.file}: the first event that changed is seq {at.seq} (turn {at.turn}, {at.phase} phase): "
                f"recorded {divergence.old.text if divergence.old else 'nothing'}; now "
                f"{divergence.new.text if divergence.new else 'nothing'}")
        raise CorpusMismatch(f"{entry.file}: {report.state_difference or report.stopped or 'not identical'}")
    return game
