"""Games in and out of the store: JSON Lines (one game, for people and other tools) and Parquet (corpora).

JSON Lines layout (every line written and read with msgspec)::

    line 1                 JsonlHeader   the game row, format version, counts
    next branch_count      JsonlBranch   parents before children, with each head's hash
    then one per event     EnvelopeRecord   each branch's own events, branch by branch, in seq order

Importing validates every line against these schemas; a bad line is refused with a
:class:`DataError` naming the file, the line and the field, and nothing is kept (one
transaction). Current-version payloads are stored as msgspec re-encodes them; older
ones as given, to be upcast when read. Each branch's recomputed chain must end at
the exported head hash, so an altered file is refused too.

Parquet: ``COPY (SELECT ...) TO file (FORMAT parquet)`` of the events (with their
game, branch and the game's ruleset), for DuckDB to query in place.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, BinaryIO

import duckdb
import msgspec

from aero_events.core.errors import AeroError, DataError
from aero_events.core.events import EVENT_TYPES, EnvelopeRecord, Event, decode_event, encode_event
from aero_events.core.ids import check_id, check_label, for_terminal
from aero_events.core.registry import ruleset_for_game
from aero_events.core.secrets import RedactedEvent
from aero_events.core.session import Game

from .append import write_batch
from .chain import GENESIS, chain_hashes
from .codec import EventBatch, gc_paused, split_error
from .database import first_row
from .errors import CheckpointMismatch, GameExists
from .games import branch_infos, game_record, insert_branch, insert_game
from .outputs import written_whole
from .records import GameRecord, engine_version, utc_aware, utc_naive
from .refold import redecide_parsed, refold_parsed
from .values import value_problem
from .views import record_outcomes

JSONL_FORMAT = "aero-events/jsonl"
JSONL_FORMAT_VERSION = 1


class JsonlHeader(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Line 1 of an exported game. ``main_line`` (the branch that was played, :mod:`.branches`) is written
    only when it is not ``main``, so the exports of every other game keep their bytes (and signatures).
    ``viewer`` likewise, written only on a viewer's copy (``aero export GAME --player P``, :mod:`.viewer`):
    the game as that player may see it, every other player's secrets left out."""

    format: str
    format_version: int
    game_id: str
    ruleset: str
    data_version: str
    engine_version: str
    created: datetime
    players: list[str]
    setup: msgspec.Raw
    metadata: dict[str, Any]
    branch_count: int
    event_count: int
    main_line: str | None = None
    viewer: str | None = None


class JsonlBranch(msgspec.Struct, kw_only=True):
    """One branch line; ``head_hash`` (hex) lets an import prove the events arrived unaltered."""

    id: str
    parent: str | None
    fork_seq: int
    label: str
    created: datetime
    head_seq: int | None = None
    head_hash: str | None = None


_encoder = msgspec.json.Encoder()
_header_decoder = msgspec.json.Decoder(JsonlHeader)
_branch_decoder = msgspec.json.Decoder(JsonlBranch)
_record_decoder = msgspec.json.Decoder(EnvelopeRecord)


# ---------------------------------------------------------------- export


def export_jsonl(conn: duckdb.DuckDBPyConnection, game_id: str, path: str | os.PathLike) -> int:
    """Write one game as JSON Lines; returns the number of events written.

    The bytes are canonical: the same stored game always exports to the same bytes, whichever store it
    was imported into, so a signature over them (:mod:`.signing`) holds wherever the game goes. The file is
    written whole or not at all (:func:`.outputs.written_whole`)."""
    with written_whole(path) as partial, open(partial, "xb") as out:
        return _write_jsonl(conn, game_id, out)


def export_jsonl_bytes(conn: duckdb.DuckDBPyConnection, game_id: str) -> bytes:
    """The bytes :func:`export_jsonl` writes (what a signature signs)."""
    buffer = io.BytesIO()
    _write_jsonl(conn, game_id, buffer)
    return buffer.getvalue()


def _write_jsonl(conn: duckdb.DuckDBPyConnection, game_id: str, out: BinaryIO) -> int:
    columns, by_branch = event_columns(conn, game_id, with_hash=True)
    heads = {branch: columns["hash"][rows[-1]] for branch, rows in by_branch.items()}
    record, infos, preamble = _preamble(conn, game_id, len(columns["seq"]), heads)
    out.write(preamble)
    with gc_paused():
        for info in infos.values():
            records = [
                EnvelopeRecord(game_id=record.id, branch_id=info.id, seq=columns["seq"][row],
                               turn=columns["turn"][row], phase=columns["phase"][row],
                               actor=columns["actor"][row], type=columns["type"][row],
                               version=columns["version"][row],
                               payload=msgspec.Raw(columns["payload"][row].encode()))
                for row in by_branch.get(info.id, [])
            ]
            if records:
                out.write(_encoder.encode_lines(records))
    return len(columns["seq"])


def _preamble(conn: duckdb.DuckDBPyConnection, game_id: str, event_count: int,
              head_hashes: dict[str, bytes]) -> tuple[GameRecord, dict[str, Any], bytes]:
    """A game's JSON Lines header and branch lines (what a Parquet export keeps on each game's first row, so
    the file can be imported again), given its event count and each branch's head hash."""
    record = game_record(conn, game_id)
    infos = branch_infos(conn, game_id)
    header = JsonlHeader(
        format=JSONL_FORMAT, format_version=JSONL_FORMAT_VERSION, game_id=record.id, ruleset=record.ruleset,
        data_version=record.data_version, engine_version=record.engine_version, created=utc_aware(record.created),
        players=record.players, setup=msgspec.Raw(record.setup.encode()),
        metadata=msgspec.json.decode(record.metadata), branch_count=len(infos), event_count=event_count,
        main_line=_exported_main_line(conn, game_id),
    )
    lines = [_encoder.encode(header)]
    for info in infos.values():
        head_hash = head_hashes.get(info.id)
        lines.append(_encoder.encode(JsonlBranch(
            id=info.id, parent=info.parent, fork_seq=info.fork_seq, label=info.label, created=utc_aware(info.created),
            head_seq=info.head_seq, head_hash=None if head_hash is None else head_hash.hex())))
    return record, infos, b"\n".join(lines) + b"\n"


def event_columns(conn: duckdb.DuckDBPyConnection, game_id: str, *,
                  with_hash: bool = False) -> tuple[dict[str, list[Any]], dict[str, list[int]]]:
    """A game's stored events as Python columns (one query, in branch and seq order) and, per branch, the
    row numbers of its own events: what every export walks branch by branch."""
    names = ("branch", "seq", "turn", "phase", "actor", "type", "version", "payload") + (("hash",) if with_hash else ())
    table = conn.sql(f"SELECT {', '.join(names)} FROM events WHERE game = $game ORDER BY branch, seq",
                     params={"game": game_id}).to_arrow_table()
    columns = {name: table.column(name).to_pylist() for name in names}
    by_branch: dict[str, list[int]] = {}
    for row, branch in enumerate(columns["branch"]):
        by_branch.setdefault(branch, []).append(row)
    return columns, by_branch


def export_parquet(
    conn: duckdb.DuckDBPyConnection,
    path: str | os.PathLike,
    game_ids: Sequence[str] | None = None,
    where: str | None = None,
) -> int:
    """Copy events (all, those of ``game_ids``, and/or those matching the SQL ``where``) to Parquet.

    The file has the events table's columns plus ``ruleset`` and ``jsonl_preamble``; ``where`` may use any of
    the first. ``jsonl_preamble`` is set on each game's first row only: the game's JSON Lines header and branch
    lines, so that ``aero import`` can read the file back (:func:`read_parquet`) with every check a JSON Lines
    import makes. Returns the number of events written. The file is written whole or not at all
    (:func:`.outputs.written_whole`).
    """
    with written_whole(path) as partial:
        return _copy_parquet(conn, partial, game_ids, where)


def _copy_parquet(conn: duckdb.DuckDBPyConnection, path: str | os.PathLike, game_ids: Sequence[str] | None,
                  where: str | None) -> int:
    """:func:`export_parquet`'s COPY to ``path``."""
    import pyarrow as pa

    from .database import registered

    conditions = ["true"]
    params: dict[str, Any] = {"path": os.fspath(path)}
    if game_ids is not None:
        conditions.append("list_contains($games, game)")
        params["games"] = list(game_ids)
    if where:
        conditions.append(f"({where})")
    selected = f"""SELECT * FROM (SELECT e.*, g.ruleset FROM events e JOIN games g ON g.id = e.game)
                   WHERE {' AND '.join(conditions)}"""
    chosen = [row[0] for row in conn.execute(f"SELECT DISTINCT game FROM ({selected}) ORDER BY game",
                                             {k: v for k, v in params.items() if k != "path"}).fetchall()]
    counts: dict[str, int] = {}
    heads: dict[str, dict[str, bytes]] = {}
    for game_id, branch, count, head in conn.execute(  # one pass for every game: its size and branch heads
            "SELECT game, branch, count(*), arg_max(hash, seq) FROM events WHERE list_contains($games, game) "
            "GROUP BY game, branch", {"games": chosen}).fetchall():
        counts[game_id] = counts.get(game_id, 0) + count
        heads.setdefault(game_id, {})[branch] = head
    preambles = [_preamble(conn, game_id, counts[game_id], heads[game_id])[2].decode() for game_id in chosen]
    table = pa.table({"game": pa.array(chosen, pa.string()), "preamble": pa.array(preambles, pa.string())})
    with registered(conn, "parquet_preambles", table):
        row = first_row(conn.execute(
            f"""COPY (
                  SELECT * EXCLUDE (preamble, first_row),
                         CASE WHEN first_row THEN preamble END AS jsonl_preamble
                  FROM (SELECT s.*, p.preamble,
                               row_number() OVER (PARTITION BY s.game ORDER BY s.branch, s.seq) = 1 AS first_row
                        FROM ({selected}) s LEFT JOIN parquet_preambles p ON p.game = s.game)
                  ORDER BY game, branch, seq
                ) TO $path (FORMAT parquet, COMPRESSION zstd)""",
            params,
        ).fetchall())
    return int(row[0]) if row else 0


#: The columns a Parquet file must have for ``aero import`` to read its games back.
PARQUET_COLUMNS = ("game", "branch", "seq", "turn", "phase", "actor", "type", "version", "payload",
                   "jsonl_preamble")


def is_parquet_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a Parquet file (its first four bytes are ``PAR1``)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == b"PAR1"
    except OSError:
        return False


def read_parquet(path: str | os.PathLike) -> list[ParsedGame]:
    """Every game of a Parquet export, validated as its JSON Lines would be (nothing is stored).

    A game is refused (with the file, the game and the field) when its rows are not a whole export: written
    with ``--where``, by a version before Parquet kept each game's preamble, or a player's copy (import
    stores only the organiser's full copy, as for JSON Lines)."""
    source = os.fspath(path)
    try:
        reader = duckdb.connect()
        columns = [row[0] for row in reader.execute("DESCRIBE SELECT * FROM read_parquet(?)", [source]).fetchall()]
    except (duckdb.Error, OSError) as err:
        raise DataError(f"cannot read the Parquet file: {err}", source=source) from None
    with reader:
        # A player's copy first: it has no preamble either, and "no column jsonl_preamble" would not say why.
        if "viewer" in columns and reader.execute(
                "SELECT count(*) FROM read_parquet(?) WHERE viewer IS NOT NULL", [source]).fetchone()[0]:
            raise DataError("this file is a player's copy of a game (secrets removed): only the full export "
                            "can be imported", source=source, field="viewer")
        missing = [name for name in PARQUET_COLUMNS if name not in columns]
        if missing:
            raise DataError(f"not a whole aero export: no column {', '.join(missing)} (a Parquet file written by "
                            "aero export FILE.parquet of this version imports)", source=source, field=missing[0])
        rows = reader.execute(f"SELECT {', '.join(PARQUET_COLUMNS)}, file_row_number + 1 FROM "
                              "read_parquet(?, file_row_number = true) ORDER BY game, branch, seq",
                              [source]).fetchall()
    games: dict[str, list[tuple]] = {}
    for row in rows:
        games.setdefault(row[0], []).append(row)
    return [_parquet_game(source, game_id, game_rows) for game_id, game_rows in games.items()]


#: Where each column a Parquet export's events are read from sits in a row of :func:`read_parquet`, and the
#: Python type it must hold there (anything else is refused naming the row and column, never a traceback).
_PARQUET_TYPED = {"seq": (2, int), "payload": (8, str)}
_ROW_NUMBER = len(PARQUET_COLUMNS)


def _parquet_game(source: str, game_id: str, rows: list[tuple]) -> ParsedGame:
    """One game's rows as the JSON Lines its export would be, read by the JSON Lines reader; a refusal names
    the file's row (counted from 1) and the column rather than a line of that JSON Lines."""
    where = f"{source}, game {game_id}"
    for row in rows:
        for column, (index, kind) in _PARQUET_TYPED.items():
            if type(row[index]) is not kind:
                found = "null" if row[index] is None else type(row[index]).__name__
                raise DataError(f"expected {'an integer' if kind is int else 'JSON text'}, found {found}",
                                source=f"{where}, row {row[_ROW_NUMBER]}", field=column)
    preambles = [row[9] for row in rows if row[9] is not None]
    if len(preambles) != 1:
        raise DataError(f"{len(preambles)} preambles for this game where an export writes one: the rows are not "
                        "one whole game (exported with --where?)", source=where, field="jsonl_preamble")
    preamble = preambles[0].encode()
    try:
        announced = msgspec.json.decode(preamble.splitlines()[0], type=dict).get("event_count")
    except (msgspec.DecodeError, IndexError):
        raise DataError("the preamble does not open with a game header", source=where,
                        field="jsonl_preamble") from None
    if announced != len(rows):
        raise DataError(f"the file holds {len(rows)} of this game's {announced} events: an extract (exported with "
                        "--where), not a whole game", source=where, field="event_count")
    order = []
    for line in preamble.splitlines()[1:]:
        try:
            order.append(msgspec.json.decode(line, type=dict)["id"])
        except (msgspec.DecodeError, KeyError, TypeError):
            raise DataError("a branch line of the preamble is not a branch", source=where,
                            field="jsonl_preamble") from None
    by_branch: dict[str, list[tuple]] = {}
    for row in rows:
        by_branch.setdefault(row[1], []).append(row)
    out = io.BytesIO()
    out.write(preamble if preamble.endswith(b"\n") else preamble + b"\n")
    rows_by_line: dict[int, int] = {}
    line = len(preamble.splitlines())
    for branch in order + sorted(set(by_branch) - set(order), key=str):
        in_order = sorted(by_branch.get(branch, []), key=lambda row: row[2])
        records = [EnvelopeRecord(game_id=game_id, branch_id=branch, seq=row[2], turn=row[3], phase=row[4],
                                  actor=row[5], type=row[6], version=row[7], payload=msgspec.Raw(row[8].encode()))
                   for row in in_order]
        for row in in_order:
            line += 1
            rows_by_line[line] = row[_ROW_NUMBER]
        if records:
            out.write(_encoder.encode_lines(records))
    out.seek(0)
    try:
        parsed = _read_lines(where, out)
    except DataError as err:
        raise _at_row(err, where, rows_by_line) from None
    parsed.rows_by_line = rows_by_line
    return parsed


def _at_row(err: DataError, where: str, rows_by_line: dict[int, int]) -> DataError:
    """A refusal of a Parquet game's JSON Lines (``err``, at a line of them) at the file's row instead, or at the
    line of its ``jsonl_preamble`` column (the header and branch lines an export keeps there)."""
    if not isinstance(err.location, int) or err.source != where:
        return err
    row = rows_by_line.get(err.location)
    if row is None:
        return DataError(err.detail, source=f"{where}, column jsonl_preamble", location=err.location,
                         field=err.field)
    return DataError(err.detail, source=f"{where}, row {row}", field=err.field)


# ---------------------------------------------------------------- import


@dataclass
class _BranchLines:
    line: int
    branch: JsonlBranch
    batch: EventBatch = field(default_factory=lambda: EventBatch([], [], [], [], [], [], [], []))
    lines: list[int] = field(default_factory=list)


@dataclass
class ParsedGame:
    """A JSON Lines game, validated and ready to store."""

    source: str
    header: JsonlHeader
    branches: dict[str, _BranchLines]
    #: After :func:`store_parsed`: True when every recorded command was decided again and gave the recorded
    #: events, False when the game records no commands (re-folded only, :mod:`.refold`).
    redecided: bool | None = None
    #: A game read from Parquet: the file's row (from 1) of each line of the JSON Lines it was read as, so that
    #: a refusal names the row.
    rows_by_line: dict[int, int] | None = None


def _refuse(source: str, line: int, err: Exception, prefix: str = "") -> DataError:
    detail, path = split_error(err)
    if isinstance(err, msgspec.DecodeError) and not isinstance(err, msgspec.ValidationError):
        return DataError(f"not valid JSON: {detail}", source=source, location=line)
    return DataError(detail, source=source, location=line, field=f"{prefix}{path}" if path else prefix.rstrip(".")
                     or None)


def read_jsonl(path: str | os.PathLike) -> ParsedGame:
    """Read and validate a JSON Lines game (nothing is stored)."""
    source = os.fspath(path)
    try:
        lines = open(path, "rb")  # noqa: SIM115 -- closed in _read_lines; an unreadable path is a DataError
    except OSError as err:
        raise DataError(f"cannot read the file: {err.strerror or err}", source=source) from None
    return _read_lines(source, lines)


def _read_lines(source: str, lines: BinaryIO) -> ParsedGame:
    """Validate a game's JSON Lines from ``lines`` (closed when done), ``source`` naming it in errors."""
    header: JsonlHeader | None = None
    branches: dict[str, _BranchLines] = {}
    events_seen = 0
    last_line = 0
    number = 0
    with lines, gc_paused():
        try:
            for number, raw in enumerate(lines, start=1):
                line = raw.rstrip(b"\r\n")
                if not line.strip():
                    continue
                last_line = number
                if header is None:
                    header = _read_header(source, number, line)
                elif len(branches) < header.branch_count:
                    _read_branch(source, number, line, branches)
                else:
                    _read_event(source, number, line, header, branches)
                    events_seen += 1
        except RecursionError:
            raise DataError("JSON nested too deeply", source=source, location=number) from None
        except UnicodeDecodeError as err:
            raise DataError(f"not UTF-8 text: {err.reason} at byte {err.start}", source=source,
                            location=number) from None
        except OSError as err:
            raise DataError(f"cannot read the file: {err.strerror or err}", source=source,
                            location=number or None) from None
    if header is None:
        raise DataError("the file is empty; line 1 must be the game header", source=source, location=1)
    if len(branches) < header.branch_count:
        raise DataError(f"the header announces {header.branch_count} branches, the file has {len(branches)}",
                        source=source, location=1, field="branch_count")
    if events_seen != header.event_count:
        raise DataError(f"the header announces {header.event_count} events, the file has {events_seen}",
                        source=source, location=1, field="event_count")
    for entry in branches.values():
        if entry.branch.parent is not None:
            parent = branches[entry.branch.parent]
            parent_head = parent.branch.fork_seq + len(parent.batch)
            if entry.branch.fork_seq > parent_head:
                raise DataError(f"forks from {entry.branch.parent!r} at {entry.branch.fork_seq}, but that branch "
                                f"ends at {parent_head}", source=source, location=entry.line, field="fork_seq")
        if entry.branch.head_seq is not None and entry.branch.head_seq != entry.branch.fork_seq + len(entry.batch):
            raise DataError(f"branch {entry.branch.id!r} should end at event {entry.branch.head_seq}, its events "
                            f"end at {entry.branch.fork_seq + len(entry.batch)}", source=source,
                            location=last_line, field="seq")
        if len(entry.batch) and (entry.branch.head_hash is None or entry.branch.head_seq is None):
            missing = "head_hash" if entry.branch.head_hash is None else "head_seq"
            raise DataError(f"branch {entry.branch.id!r} has events but no {missing}: an export always records "
                            "where each branch ends and its hash there", source=source, location=entry.line,
                            field=missing)
    return ParsedGame(source, header, branches)


def _read_header(source: str, number: int, line: bytes) -> JsonlHeader:
    try:
        header = _header_decoder.decode(line)
    except msgspec.DecodeError as err:
        raise _refuse(source, number, err) from err
    if header.format != JSONL_FORMAT:
        raise DataError(f"expected {JSONL_FORMAT!r}, found {header.format!r}", source=source, location=number,
                        field="format")
    if header.format_version > JSONL_FORMAT_VERSION:
        raise DataError(f"format version {header.format_version} is newer than this package reads "
                        f"({JSONL_FORMAT_VERSION})", source=source, location=number, field="format_version")
    if header.format_version < 1:
        raise DataError(f"format version {header.format_version}: versions start at 1", source=source,
                        location=number, field="format_version")
    check_id(header.game_id, "game id", source=source, location=number, field="game_id")
    if header.viewer is not None:
        raise DataError(f"this file is {for_terminal(header.viewer)}'s copy of game {header.game_id} (exported with "
                        "--player): other players' secrets are left out of it, so it cannot be stored, re-decided or "
                        "verified as the full game; import the organiser's full export", source=source,
                        location=number, field="viewer")
    for index, player in enumerate(header.players):
        check_id(player, "player", source=source, location=number, field=f"players[{index}]")
    for name in ("ruleset", "data_version", "engine_version"):
        check_label(getattr(header, name), name.replace("_", " "), source=source, location=number, field=name)
    # The game's ruleset is loaded before any event is decoded: its event types exist only once it is imported
    # (a fresh process knows none), and a ruleset this installation lacks is refused here, by name.
    try:
        rules = ruleset_for_game(header.ruleset, header.metadata)
    except (KeyError, AeroError) as err:
        raise DataError(f"the game's ruleset cannot be loaded: {err}", source=source, location=number,
                        field="ruleset") from err
    if rules.name != header.ruleset and "/" not in header.ruleset:  # stored so, it would follow the default
        raise DataError(f"{header.ruleset!r} names a family of rulesets, whose default version can change: a game "
                        f"names the version it was played under ({rules.name}?)", source=source, location=number,
                        field="ruleset")
    if header.branch_count < 1:
        raise DataError(f"branch_count {header.branch_count}: a game has at least its main branch", source=source,
                        location=number, field="branch_count")
    if header.event_count < 0:
        raise DataError(f"event_count {header.event_count} cannot be negative", source=source, location=number,
                        field="event_count")
    try:
        msgspec.json.decode(header.setup)
    except msgspec.DecodeError as err:
        raise _refuse(source, number, err, "setup.") from err
    return header


def _read_branch(source: str, number: int, line: bytes, branches: dict[str, _BranchLines]) -> None:
    try:
        branch = _branch_decoder.decode(line)
    except msgspec.DecodeError as err:
        raise _refuse(source, number, err) from err
    check_id(branch.id, "branch id", source=source, location=number, field="id")
    check_label(branch.label, "branch label", source=source, location=number, field="label")
    if branch.id in branches:
        raise DataError(f"branch {branch.id!r} is listed twice", source=source, location=number, field="id")
    if branch.parent is None and (branches or branch.fork_seq != 0):
        raise DataError("only the first branch, forked at 0, may have no parent", source=source,
                        location=number, field="parent")
    if branch.parent is not None and branch.parent not in branches:
        raise DataError(f"parent {branch.parent!r} is not listed before this branch", source=source,
                        location=number, field="parent")
    if branch.fork_seq < 0:
        raise DataError("fork_seq cannot be negative", source=source, location=number, field="fork_seq")
    if branch.parent is None and branch.id != "main":
        raise DataError(f"the first branch is {branch.id!r}; a game starts on 'main'", source=source,
                        location=number, field="id")
    if branch.head_hash is not None:
        try:
            if len(bytes.fromhex(branch.head_hash)) != len(GENESIS):
                raise ValueError("not 32 bytes")
        except ValueError as err:
            raise DataError("head_hash is not 64 hex digits", source=source, location=number,
                            field="head_hash") from err
    branches[branch.id] = _BranchLines(number, branch)


def _read_event(source: str, number: int, line: bytes, header: JsonlHeader,
                branches: dict[str, _BranchLines]) -> None:
    try:
        record = _record_decoder.decode(line)
    except msgspec.DecodeError as err:
        raise _refuse(source, number, err) from err
    if record.game_id != header.game_id:
        raise DataError(f"event of game {record.game_id!r} in the file of game {header.game_id!r}",
                        source=source, location=number, field="game_id")
    entry = branches.get(record.branch_id)
    if entry is None:
        raise DataError(f"branch {record.branch_id!r} is not listed in the file", source=source,
                        location=number, field="branch_id")
    expected = entry.branch.fork_seq + len(entry.batch) + 1
    if record.seq != expected:
        raise DataError(f"event {record.seq} where event {expected} of branch {record.branch_id!r} belongs",
                        source=source, location=number, field="seq")
    _check_envelope(source, number, record)
    if record.type == RedactedEvent.type_name():
        raise DataError("a redacted event (another player's secret, left out of a viewer's copy): this file is not "
                        "the full game and cannot be imported as it", source=source, location=number, field="type")
    if record.type not in EVENT_TYPES:
        raise DataError(f"unknown event type {record.type!r}; is its ruleset imported?", source=source,
                        location=number, field="type")
    payload = bytes(record.payload)
    try:
        event = decode_event(record.type, record.version, payload)
    except msgspec.DecodeError as err:
        raise _refuse(source, number, err, "payload.") from err
    except DataError as err:
        raise DataError(err.detail, source=source, location=number, field="payload") from err
    except (KeyError, ValueError) as err:
        raise DataError(str(err).strip("'\""), source=source, location=number, field="version") from err
    problem = value_problem(event)
    if problem is not None:
        field_name, message = problem
        raise DataError(message, source=source, location=number, field=f"payload.{field_name}")
    current = EVENT_TYPES[record.type].version
    _add(entry, number, record, event, encode_event(event) if record.version == current else payload)


_INT32 = 2**31 - 1


def _check_envelope(source: str, number: int, record: EnvelopeRecord) -> None:
    """The envelope's own fields, within what the store's columns hold (an INTEGER turn, a known phase)."""
    if not 0 <= record.turn <= _INT32:
        raise DataError(f"turn {record.turn} is out of range (0..{_INT32})", source=source, location=number,
                        field="turn")
    if not 1 <= record.version <= _INT32:
        raise DataError(f"version {record.version} is out of range (1..{_INT32})", source=source,
                        location=number, field="version")
    check_label(record.phase, "phase", source=source, location=number, field="phase")
    if record.actor is not None:
        check_id(record.actor, "actor", source=source, location=number, field="actor")


def _add(entry: _BranchLines, number: int, record: EnvelopeRecord, event: Event, payload: bytes) -> None:
    batch = entry.batch
    batch.seqs.append(record.seq)
    batch.turns.append(record.turn)
    batch.phases.append(record.phase)
    batch.actors.append(record.actor)
    batch.types.append(record.type)
    batch.versions.append(record.version)
    batch.payloads.append(payload)
    batch.events.append(event)
    entry.lines.append(number)


def store_parsed(conn: duckdb.DuckDBPyConnection, parsed: ParsedGame, *, replace: bool = False) -> str:
    """Write a validated game inside the caller's transaction; returns its id. A refusal of a game read from
    Parquet names the file's row."""
    try:
        return _store_parsed(conn, parsed, replace=replace)
    except DataError as err:
        if parsed.rows_by_line is None:
            raise
        raise _at_row(err, parsed.source, parsed.rows_by_line) from err


def _store_parsed(conn: duckdb.DuckDBPyConnection, parsed: ParsedGame, *, replace: bool = False) -> str:
    """:func:`store_parsed`: every event re-folded and every command re-decided, then the rows written."""
    header = parsed.header
    game_id = header.game_id
    exists = conn.execute("SELECT 1 FROM games WHERE id = ?", [game_id]).fetchall()
    if exists and not replace:
        raise GameExists(f"game {game_id} is already in the store (import with replace to overwrite it)")
    if exists:
        delete_game(conn, game_id)
    record = GameRecord(
        id=game_id, ruleset=header.ruleset, data_version=header.data_version,
        engine_version=header.engine_version, created=utc_naive(header.created), players=header.players,
        setup=bytes(header.setup).decode(), metadata=msgspec.json.encode(header.metadata).decode(),
    )
    fork_states: dict[str, Any] = {}
    head_states: dict[str, Any] = {}
    context, states = refold_parsed(parsed, record, fork_states, head_states)  # every event re-folded
    parsed.redecided = redecide_parsed(parsed, context, fork_states)  # and every recorded command re-decided
    insert_game(conn, record)
    for entry in parsed.branches.values():
        branch = entry.branch
        insert_branch(conn, game_id, branch.id, branch.parent, branch.fork_seq, branch.label, branch.created)
        try:
            head_hash = write_batch(conn, game_id, branch.id, entry.batch, branch.fork_seq,
                                    context=lambda: context, state_of=states[branch.id].__getitem__)
        except CheckpointMismatch as err:
            line = entry.lines[err.seq - branch.fork_seq - 1]
            raise DataError(str(err), source=parsed.source, location=line, field="payload.state_hash") from err
        if branch.head_hash is not None and head_hash.hex() != branch.head_hash.lower():
            raise DataError(f"the events of branch {branch.id!r} do not hash to the exported head hash: "
                            "the file was altered after export", source=parsed.source, location=entry.line,
                            field="head_hash")
    if header.main_line is not None:
        if header.main_line not in parsed.branches:
            raise DataError(f"the header names main line {header.main_line!r}, which is not one of the file's "
                            f"branches ({', '.join(parsed.branches)})", source=parsed.source, location=1,
                            field="main_line")
        conn.execute("UPDATE games SET main_line = ? WHERE id = ?", [header.main_line, game_id])
    record_outcomes(conn, game_id, context.ruleset,  # the outcomes view, as for a game played into the store
                    [(entry.branch.id, entry.branch.fork_seq + len(entry.batch), head_states[entry.branch.id])
                     for entry in parsed.branches.values()])
    return game_id


def _exported_main_line(conn: duckdb.DuckDBPyConnection, game_id: str) -> str | None:
    """The game's main line for the header; None (not written) when it is the root ``main``."""
    from .games import ROOT_BRANCH, main_line

    line = main_line(conn, game_id)
    return None if line == ROOT_BRANCH else line


def delete_game(conn: duckdb.DuckDBPyConnection, game_id: str, tables: Sequence[str] | None = None) -> None:
    """Remove every row of a game (inside the caller's transaction): from every table with a ``game`` column
    (``tables``, default :func:`game_tables`), then the game itself."""
    for table in game_tables(conn) if tables is None else tables:
        conn.execute(f'DELETE FROM "{table}" WHERE game = ?', [game_id])
    conn.execute("DELETE FROM games WHERE id = ?", [game_id])


def game_tables(conn: duckdb.DuckDBPyConnection) -> list[str]:
    """The tables of this database with a ``game`` column: events, branches, snapshots, outcomes, the
    recorder's and the simulations' tables, whoever added them."""
    return [row[0] for row in conn.execute(
        "SELECT c.table_name FROM duckdb_columns() c JOIN duckdb_tables() t "
        "ON t.table_name = c.table_name AND t.schema_name = c.schema_name AND t.database_name = c.database_name "
        "WHERE c.column_name = 'game' AND c.database_name = current_database() AND c.schema_name = 'main' "
        "ORDER BY c.table_name").fetchall()]


def write_game_jsonl(game: Game, path: str | os.PathLike, *, created: datetime | None = None) -> int:
    """Write an in-memory ``game`` (every branch) in this JSON Lines format, without a store.

    The file is what :func:`export_jsonl` writes: the header, a line per branch with the hash of its
    head (the store's hash chain, :mod:`.chain`, computed here, so ``aero import`` proves the file
    unaltered), then every branch's own events. Branches are written in the order the game made them
    (parents first), their creation times a microsecond apart so the store lists them in that order.
    ``created`` is fixed by the caller when the file must be byte-identical from run to run (the golden
    corpus). Returns the number of events written.
    """
    created = created or datetime.now(UTC)
    if created.tzinfo is None:
        created = created.replace(tzinfo=UTC)
    encoder = msgspec.json.Encoder()
    branches = list(game.branches.values())
    hashes: dict[str, list[bytes]] = {}
    records: dict[str, list[EnvelopeRecord]] = {}
    for branch in branches:
        own = [EnvelopeRecord.from_envelope(env) for env in branch.own]
        inherited = hashes[branch.parent.id][: branch.fork_seq] if branch.parent is not None else []
        start = inherited[-1] if inherited else GENESIS
        hashes[branch.id] = inherited + chain_hashes(
            start, [r.seq for r in own], [r.turn for r in own], [r.phase for r in own], [r.actor for r in own],
            [r.type for r in own], [r.version for r in own], [bytes(r.payload) for r in own])
        records[branch.id] = own
    ruleset = game.ruleset
    header = JsonlHeader(
        format=JSONL_FORMAT, format_version=JSONL_FORMAT_VERSION, game_id=game.id, ruleset=ruleset.name,
        data_version=str(ruleset.data_version), engine_version=engine_version(), created=created,
        players=list(ruleset.players(game.initial_state)), setup=msgspec.Raw(encoder.encode(game.setup)),
        metadata=dict(game.metadata), branch_count=len(branches),
        event_count=sum(len(own) for own in records.values()),
    )
    with open(path, "wb") as out:
        out.write(encoder.encode(header) + b"\n")
        out.writelines(encoder.encode(JsonlBranch(
            id=branch.id, parent=branch.parent.id if branch.parent else None, fork_seq=branch.fork_seq,
            label=branch.label, created=created + timedelta(microseconds=order), head_seq=branch.head_seq,
            head_hash=hashes[branch.id][-1].hex() if records[branch.id] else None)) + b"\n"
            for order, branch in enumerate(branches))
        for branch in branches:
            if records[branch.id]:
                out.write(encoder.encode_lines(records[branch.id]))
    return header.event_count
