"""Recorded games to re-run: from the DuckDB store, or from JSON Lines files (the export format).

A :class:`RecordedGame` is what a re-run needs of a game: its id, the ruleset and data version it was
recorded under, its setup (JSON, decoded for whichever ruleset plays it), its metadata and the events of
its main line of play. Games come from

* the store: :func:`from_store` (``aero regress GAME... --db PATH``);
* JSON Lines files written by ``aero export`` / ``EventStore.export_jsonl`` or by
  :func:`aero_events.regress.jsonl.write_game_jsonl`: :func:`from_jsonl`, and :func:`from_folder` for
  every ``*.jsonl`` of a folder (the golden corpus in ``replays/``).

A game recorded under a user's variant carries the variant's definition in its metadata (``variant``),
so :meth:`RecordedGame.own_rules` rebuilds its ruleset without the variant file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from aero_events.core import DataError, Envelope, Ruleset
from aero_events.core.registry import ruleset_for_game

MAIN = "main"


@dataclass(frozen=True)
class RecordedGame:
    """One recorded game's main line of play and what it was recorded under."""

    game_id: str
    source: str
    ruleset: str
    data_version: str
    setup_json: bytes
    metadata: dict[str, Any]
    envelopes: tuple[Envelope, ...] = field(repr=False)

    def own_rules(self) -> Ruleset:
        """The ruleset the game was recorded under (a variant is rebuilt from the metadata)."""
        try:
            return ruleset_for_game(self.ruleset, self.metadata)
        except KeyError as err:
            raise DataError(f"game {self.game_id} was recorded under {self.ruleset!r}, which is not known here: "
                            f"{err.args[0] if err.args else err}", source=self.source, field="ruleset") from None

    def setup(self, rules: Ruleset | None = None) -> Any:
        """The recorded setup, decoded for ``rules`` (default: the game's own ruleset)."""
        setup_type = (rules or self.own_rules()).setup_type
        try:
            return msgspec.json.decode(self.setup_json, type=setup_type)
        except msgspec.ValidationError as err:
            raise DataError(f"the setup does not fit {setup_type.__name__}: {err}", source=self.source,
                            field="setup") from None


def from_store(store: Any, game_id: str) -> RecordedGame:
    """Game ``game_id`` (or a unique prefix) of an :class:`~aero_events.store.EventStore`."""
    game_id = store.resolve_game_id(game_id)
    record = store.game(game_id)
    envelopes = store.events(game_id)  # the main line: the game that was played, ancestors' events included
    return RecordedGame(
        game_id=game_id, source=f"{store.path} game {game_id}", ruleset=record.ruleset,
        data_version=record.data_version, setup_json=record.setup.encode(),
        metadata=msgspec.json.decode(record.metadata), envelopes=tuple(envelopes),
    )


def from_jsonl(path: str | os.PathLike) -> RecordedGame:
    """A game from a JSON Lines file (validated line by line; a bad line is a DataError naming it)."""
    from aero_events.store.transfer import read_jsonl

    parsed = read_jsonl(path)
    header = parsed.header
    line = header.main_line or MAIN  # the game that was played (the header names it when not the root)
    if line not in parsed.branches:
        raise DataError(f"the file has no {line!r} branch to re-run", source=os.fspath(path), location=2, field="id")
    chain = [parsed.branches[line]]  # the main line and the branches it forks from, up to the root
    while chain[-1].branch.parent is not None:
        chain.append(parsed.branches[chain[-1].branch.parent])
    envelopes_list: list[Envelope] = []
    until = None
    for entry in chain:  # child first: each ancestor's events up to where its child forks
        batch = entry.batch
        own = [Envelope(game_id=header.game_id, branch_id=entry.branch.id, seq=seq, turn=turn, phase=phase,
                        actor=actor, event=event)
               for seq, turn, phase, actor, event in zip(batch.seqs, batch.turns, batch.phases, batch.actors,
                                                         batch.events, strict=True)
               if until is None or seq <= until]
        envelopes_list[:0] = own
        until = entry.branch.fork_seq
    envelopes = tuple(envelopes_list)
    return RecordedGame(
        game_id=header.game_id, source=os.fspath(path), ruleset=header.ruleset, data_version=header.data_version,
        setup_json=bytes(header.setup), metadata=dict(header.metadata), envelopes=envelopes,
    )


def jsonl_files(folder: str | os.PathLike) -> list[Path]:
    """The ``*.jsonl`` files of a folder, in name order."""
    return sorted(Path(folder).glob("*.jsonl"))


def from_folder(folder: str | os.PathLike) -> Iterator[RecordedGame]:
    """Every game of a folder of JSON Lines files, in file name order."""
    for path in jsonl_files(folder):
        yield from_jsonl(path)


def gather(targets: Sequence[str], store_path: str | None) -> Iterator[RecordedGame]:
    """The games that ``targets`` name: folders (their ``*.jsonl``), ``.jsonl`` files, and game ids (or
    prefixes) in the store at ``store_path``."""
    store = None
    for target in targets:
        path = Path(target)
        if path.is_dir():
            yield from from_folder(path)
        elif path.suffix.lower() == ".jsonl" or path.is_file():
            yield from_jsonl(path)
        else:
            if store is None:
                from aero_events.store import EventStore

                if store_path is None or not Path(store_path).exists():
                    raise DataError(f"{target!r} is not a folder or a .jsonl file, and there is no store to find "
                                    "it in (give --db PATH)", source=target)
                store = EventStore(store_path)
            yield from_store(store, target)
