"""A player's copy of a stored game: ``aero export GAME FILE --player P`` (issue 16 item 2).

The store is the organiser's copy: it holds every secret whole (each Manoeuvre token's choice and salt, each
card planned face down, each damage token drawn face down), so that the game can be verified and re-decided.
Whoever holds the DuckDB file, or a full export of it, sees them all, and so do the SQL views
(:mod:`.views`), which read the events table as it is. A player gets their own copy instead: the game as
that player may see it, every other player's secret left out.

* **Secret events.** Each :class:`~aero_events.core.secrets.SecretEvent` another player owns (a sealed
  secret command, a ruleset's token or secret draw) is written as the
  :class:`~aero_events.core.secrets.RedactedEvent` the player's view shows: its type, owner, public fields
  and commitment, never its secret fields or its salt. The viewer's own secrets are written whole.
* **Checkpoints.** A :class:`~aero_events.core.session.StateCheckpoint` hashes the whole state, other
  players' secrets included (a damage token drawn face down stays in the state): trying every value of the
  few secrets against it would recover them. A viewer's copy writes each checkpoint with its turn and an
  empty ``state_hash``.
* **Metadata.** ``salt_seed`` (the seed a recorded game's salts derive from, :mod:`aero_events.record.salts`)
  and ``seed`` (a seeded game's dice, which also chose its secret draws, and its salts when the game says
  ``reproducible_salts``) are left out: with them the secrets follow. (A game id made from its seed, like
  ``demo-22``, still says it: such games are bot games, reproducible by design.)
* **Hashes.** The copy's hash chain is computed over the bytes it holds (the stored chain covers the secrets),
  so the file is self-consistent; it proves nothing about the organiser's copy.
* **Said so.** The JSON Lines header carries ``"viewer": P``; a Parquet copy has a ``viewer`` column. ``aero
  import`` refuses a viewer's copy (and any file holding a ``Redacted`` event) as a full game: its sealed
  commands cannot be decided again, so it cannot be verified as the full game.

A viewer must be one of the game's players (:func:`check_viewer`); a spectator's copy is not offered.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

import duckdb
import msgspec

from aero_events.core.errors import AeroError
from aero_events.core.events import EVENT_TYPES, EnvelopeRecord, decode_event, encode_event
from aero_events.core.registry import ruleset_for_game
from aero_events.core.secrets import SecretEvent, redact
from aero_events.core.session import StateCheckpoint

from .chain import GENESIS, chain_hashes, previous_hashes
from .codec import gc_paused
from .errors import StoreError
from .games import branch_infos, game_record
from .outputs import written_whole
from .records import GameRecord, utc_aware
from .transfer import event_columns

#: Metadata a viewer's copy leaves out (see the module docstring).
WITHHELD_METADATA = ("salt_seed", "seed")

_CHECKPOINT = StateCheckpoint.type_name()


class UnknownPlayer(StoreError, ValueError):
    """A viewer's copy asked for a player the game does not have."""


def check_viewer(record: GameRecord, viewer: str) -> None:
    """Refuse a ``viewer`` who is not one of the game's players."""
    if viewer not in record.players:
        raise UnknownPlayer(f"--player: game {record.id} has no player {viewer!r}; its players are "
                            f"{', '.join(record.players)}")


def viewer_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    """The game's metadata as a viewer's copy writes it: :data:`WITHHELD_METADATA` left out."""
    return {key: value for key, value in metadata.items() if key not in WITHHELD_METADATA}


def withheld_checkpoint(checkpoint: StateCheckpoint) -> StateCheckpoint:
    """A checkpoint as a player sees it (a viewer's copy, ``aero show --player``): its turn, an empty state hash
    (see the module docstring)."""
    return StateCheckpoint(turn=checkpoint.turn, state_hash="")


def _as_seen(type_name: str, version: int, payload: str, viewer: str) -> tuple[str, int, bytes]:
    """One stored event as ``viewer`` may see it: (type, version, payload)."""
    if type_name == _CHECKPOINT:
        checkpoint = decode_event(type_name, version, payload)
        return type_name, StateCheckpoint.version, encode_event(withheld_checkpoint(checkpoint))
    if type_name not in EVENT_TYPES or not issubclass(EVENT_TYPES[type_name], SecretEvent):
        return type_name, version, payload.encode()
    shown = redact(decode_event(type_name, version, payload), viewer)
    if not isinstance(shown, SecretEvent) and shown.type_name() != type_name:
        return shown.type_name(), shown.version, encode_event(shown)
    return type_name, version, payload.encode()


def _seen_or_refused(record: GameRecord, branch: str, columns: dict[str, list], row: int,
                     viewer: str) -> tuple[str, int, bytes]:
    """Row ``row`` of the events as ``viewer`` may see it (:func:`_as_seen`). An event that cannot be decoded,
    or of a type the game's ruleset does not have, is refused naming it: whether it holds a secret cannot be
    told, so nothing of it goes into a player's copy."""
    type_name, seq = columns["type"][row], columns["seq"][row]
    where = f"event {seq} ({type_name}) of game {record.id}, branch {branch}"
    if type_name not in EVENT_TYPES:
        raise StoreError(f"{where} is of no type {record.ruleset} has; a player's copy is not written (aero verify "
                         "says what else is wrong with the game)")
    try:
        return _as_seen(type_name, columns["version"][row], columns["payload"][row], viewer)
    except (msgspec.DecodeError, KeyError, ValueError, AeroError) as err:
        raise StoreError(f"{where} cannot be decoded: {err}; a player's copy is not written (aero verify says "
                         "what else is wrong with the game)") from None


@dataclass
class ViewerBranch:
    """One branch of a viewer's copy: its row in the store and its own events as the viewer sees them."""

    id: str
    parent: str | None
    fork_seq: int
    label: str
    created: Any
    head_seq: int
    records: list[EnvelopeRecord]
    prev_hashes: list[bytes]
    hashes: list[bytes]


def viewer_branches(conn: duckdb.DuckDBPyConnection, game_id: str, viewer: str) -> tuple[GameRecord,
                                                                                          list[ViewerBranch]]:
    """The game's branches as ``viewer`` sees them, parents first, each chained over the copy's bytes."""
    record = game_record(conn, game_id)
    check_viewer(record, viewer)
    ruleset_for_game(record.ruleset, msgspec.json.decode(record.metadata))  # its event types known (and secret)
    infos = branch_infos(conn, game_id)
    columns, by_branch = event_columns(conn, game_id)
    lines: dict[str, list[bytes]] = {}
    branches: list[ViewerBranch] = []
    with gc_paused():
        for info in infos.values():
            records = []
            for row in by_branch.get(info.id, []):
                type_name, version, payload = _seen_or_refused(record, info.id, columns, row, viewer)
                records.append(EnvelopeRecord(
                    game_id=record.id, branch_id=info.id, seq=columns["seq"][row], turn=columns["turn"][row],
                    phase=columns["phase"][row], actor=columns["actor"][row], type=type_name, version=version,
                    payload=msgspec.Raw(payload)))
            inherited = lines[info.parent][: info.fork_seq] if info.parent is not None else []
            start = inherited[-1] if inherited else GENESIS
            own = chain_hashes(start, [r.seq for r in records], [r.turn for r in records],
                               [r.phase for r in records], [r.actor for r in records], [r.type for r in records],
                               [r.version for r in records], [bytes(r.payload) for r in records])
            lines[info.id] = inherited + own
            branches.append(ViewerBranch(id=info.id, parent=info.parent, fork_seq=info.fork_seq, label=info.label,
                                         created=info.created, head_seq=info.head_seq, records=records,
                                         prev_hashes=previous_hashes(start, own), hashes=own))
    return record, branches


def write_viewer_jsonl(conn: duckdb.DuckDBPyConnection, game_id: str, viewer: str, out: BinaryIO) -> int:
    """Write ``viewer``'s copy of the game as JSON Lines (the export format, ``viewer`` in the header);
    returns the number of events written."""
    from .transfer import JSONL_FORMAT, JSONL_FORMAT_VERSION, JsonlBranch, JsonlHeader

    record, branches = viewer_branches(conn, game_id, viewer)
    encoder = msgspec.json.Encoder()
    count = sum(len(branch.records) for branch in branches)
    header = JsonlHeader(
        format=JSONL_FORMAT, format_version=JSONL_FORMAT_VERSION, game_id=record.id, ruleset=record.ruleset,
        data_version=record.data_version, engine_version=record.engine_version, created=utc_aware(record.created),
        players=record.players, setup=msgspec.Raw(record.setup.encode()),
        metadata=viewer_metadata(msgspec.json.decode(record.metadata)), branch_count=len(branches),
        event_count=count, viewer=viewer,
    )
    out.write(encoder.encode(header) + b"\n")
    out.writelines(encoder.encode(JsonlBranch(
            id=branch.id, parent=branch.parent, fork_seq=branch.fork_seq, label=branch.label,
            created=utc_aware(branch.created), head_seq=branch.head_seq,
            head_hash=branch.hashes[-1].hex() if branch.hashes else None)) + b"\n" for branch in branches)
    for branch in branches:
        if branch.records:
            out.write(encoder.encode_lines(branch.records))
    return count


def export_viewer_jsonl(conn: duckdb.DuckDBPyConnection, game_id: str, viewer: str,
                        path: str | os.PathLike) -> int:
    """:func:`write_viewer_jsonl` to the file at ``path``, whole or not at all (:func:`.outputs.written_whole`)."""
    with written_whole(path) as partial, open(partial, "xb") as out:
        return write_viewer_jsonl(conn, game_id, viewer, out)


def _rows(record: GameRecord, branches: list[ViewerBranch], viewer: str) -> Iterator[tuple]:
    for branch in branches:
        for event, prev_hash, hash_ in zip(branch.records, branch.prev_hashes, branch.hashes, strict=True):
            yield (record.id, branch.id, event.seq, event.turn, event.phase, event.actor, event.type, event.version,
                   bytes(event.payload).decode(), prev_hash, hash_, record.ruleset, viewer)


def export_viewer_parquet(conn: duckdb.DuckDBPyConnection, game_id: str, viewer: str,
                          path: str | os.PathLike) -> int:
    """Write ``viewer``'s copy of the game's events to Parquet: the full export's columns (the events
    table's and ``ruleset``) and ``viewer``; returns the number of events written."""
    import pyarrow as pa

    record, branches = viewer_branches(conn, game_id, viewer)
    names = ("game", "branch", "seq", "turn", "phase", "actor", "type", "version", "payload", "prev_hash", "hash",
             "ruleset", "viewer")
    types = (pa.string(), pa.string(), pa.int64(), pa.int32(), pa.string(), pa.string(), pa.string(), pa.int32(),
             pa.string(), pa.binary(), pa.binary(), pa.string(), pa.string())
    rows = list(_rows(record, branches, viewer))
    table = pa.table({name: pa.array([row[index] for row in rows], type=kind)
                      for index, (name, kind) in enumerate(zip(names, types, strict=True))})
    scratch = duckdb.connect()  # not the store: the copy never touches the organiser's file
    try:
        scratch.register("viewer_events", table)
        with written_whole(path) as partial:
            scratch.execute("COPY (SELECT * FROM viewer_events ORDER BY game, branch, seq) TO $path "
                            "(FORMAT parquet, COMPRESSION zstd)", {"path": os.fspath(partial)})
    finally:
        scratch.close()
    return len(rows)
