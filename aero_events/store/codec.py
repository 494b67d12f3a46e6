"""Turning envelopes into the columns the store writes, and stored rows back into events.

Both directions work on whole columns: one pass to encode a batch, one msgspec call
to decode every current-version payload of a read (a tagged union of the event
types present), so that a million events cost seconds, not minutes.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from operator import attrgetter, countOf
from typing import Union

import msgspec
import pyarrow as pa
import pyarrow.compute as pc

from aero_events.core.errors import DataError
from aero_events.core.events import EVENT_TYPES, Envelope, Event, decode_event
from aero_events.core.secrets import RedactedEvent
from aero_events.core.session import StateCheckpoint

from .errors import StoreError

CHECKPOINT_TYPE = StateCheckpoint.type_name()

_encode = msgspec.json.Encoder().encode


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building large lists of acyclic objects.

    Its full collections re-scan every live object, which roughly doubles the cost of
    building columns for a million events; nothing built here forms a cycle.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@dataclass
class EventBatch:
    """A run of consecutive events of one branch, as the columns the store writes.

    ``events`` are the decoded events (kept so that snapshots can fold them), and
    ``payloads`` their stored JSON bytes.
    """

    seqs: list[int]
    turns: list[int]
    phases: list[str]
    actors: list[str | None]
    types: list[str]
    versions: list[int]
    payloads: list[bytes]
    events: list[Event]

    def __len__(self) -> int:
        return len(self.seqs)

    @property
    def has_checkpoints(self) -> bool:
        return CHECKPOINT_TYPE in self.types


def batch_from_envelopes(
    envelopes: Sequence[Envelope], game_id: str, branch_id: str, first_seq: int
) -> EventBatch:
    """Encode ``envelopes`` (which must be numbered ``first_seq``, ``first_seq + 1``...)."""
    envelopes = list(envelopes)
    with gc_paused():
        seqs = list(map(attrgetter("seq"), envelopes))
        if seqs != list(range(first_seq, first_seq + len(seqs))):
            shown = f"{seqs[0]}..{seqs[-1]}" if seqs else "none"
            raise StoreError(
                f"events appended to game {game_id} branch {branch_id!r} must be numbered from {first_seq} "
                f"without gaps; got {shown}"
            )
        for attribute, wanted in (("game_id", game_id), ("branch_id", branch_id)):
            if countOf(map(attrgetter(attribute), envelopes), wanted) != len(envelopes):
                found = next(value for value in map(attrgetter(attribute), envelopes) if value != wanted)
                raise StoreError(f"envelopes for {attribute} {found!r} given to the append for {wanted!r}")
        events = list(map(attrgetter("event"), envelopes))
        classes = list(map(type, events))
        distinct = set(classes)
        if RedactedEvent in distinct:
            raise StoreError("a redacted event is a player's view of a secret; store the event itself")
        names = {cls: cls.type_name() for cls in distinct}
        versions = {cls: cls.version for cls in distinct}
        return EventBatch(
            seqs=seqs,
            turns=list(map(attrgetter("turn"), envelopes)),
            phases=list(map(attrgetter("phase"), envelopes)),
            actors=list(map(attrgetter("actor"), envelopes)),
            types=list(map(names.__getitem__, classes)),
            versions=list(map(versions.__getitem__, classes)),
            payloads=list(map(_encode, events)),
            events=events,
        )


def with_keys(table: pa.Table, game_id: str, branch_id: str) -> pa.Table:
    """``table`` with the game and branch columns in front: the events table's (or the snapshots table's)
    columns in its order, for an insert by position (``conn.from_arrow(table).insert_into(name)``, which
    costs a millisecond less than registering the table and selecting from it)."""
    rows = table.num_rows
    return table.add_column(0, "branch", pa.array([branch_id] * rows, pa.string())).add_column(
        0, "game", pa.array([game_id] * rows, pa.string()))


# ---------------------------------------------------------------- decoding

_PATH = re.compile(r"\s*-\s*at `\$(?P<path>[^`]*)`\s*$")
_MISSING = re.compile(r"missing required field `(?P<name>[^`]+)`")
_INDEX = re.compile(r"^\[(?P<index>\d+)\]")


def split_error(err: Exception) -> tuple[str, str | None]:
    """A msgspec error as (what is wrong, the JSON path of the field or None).

    ``Expected `int`, got `str` - at `$.seq``` becomes ("Expected `int`, got `str`", "seq"), and
    ``Object missing required field `seq``` becomes (that message, "seq").
    """
    text = str(err)
    match = _PATH.search(text)
    detail, path = (text, "") if match is None else (text[: match.start()], match.group("path"))
    missing = _MISSING.search(detail)
    if missing is not None:
        path = f"{path}.{missing.group('name')}"
    return detail, (path.removeprefix(".")) or None


_union_decoders: dict[frozenset[type], msgspec.json.Decoder] = {}


def _list_decoder(classes: frozenset[type]) -> msgspec.json.Decoder:
    decoder = _union_decoders.get(classes)
    if decoder is None:
        ordered = tuple(sorted(classes, key=lambda cls: cls.type_name()))
        union = ordered[0] if len(ordered) == 1 else Union[ordered]  # noqa: UP007
        decoder = _union_decoders[classes] = msgspec.json.Decoder(list[union])
    return decoder


def decode_payloads(
    types: Sequence[str],
    versions: Sequence[int],
    payloads: Sequence[str | bytes],
    seqs: Sequence[int],
    *,
    where: str,
) -> list[Event]:
    """Decode stored payloads (upcasting older versions) into events.

    Current-version payloads are decoded together in one msgspec call; older ones one
    by one through their upcasters. A bad payload raises :class:`DataError` naming
    ``where`` (e.g. "game g branch main"), the event's seq and the field.
    """
    classes: dict[str, type[Event]] = {}
    for name in set(types):
        if name not in EVENT_TYPES:
            seq = seqs[list(types).index(name)]
            raise DataError(f"unknown event type {name!r}; is its ruleset imported?", source=where,
                            location=f"seq {seq}", field="type")
        classes[name] = EVENT_TYPES[name]
    stale = {(name, version) for name, version in set(zip(types, versions, strict=True))
             if version != classes[name].version}
    with gc_paused():
        if not stale:
            return _decode_current(list(payloads), list(seqs), frozenset(classes.values()), where)
        events: list[Event | None] = [None] * len(payloads)
        current_rows = []
        for row, (name, version, payload) in enumerate(zip(types, versions, payloads, strict=True)):
            if (name, version) in stale:
                try:
                    events[row] = decode_event(name, version, payload)
                except (msgspec.ValidationError, msgspec.DecodeError, KeyError, ValueError) as err:
                    detail, field = split_error(err)
                    raise DataError(detail, source=where, location=f"seq {seqs[row]}",
                                    field=f"payload.{field}" if field else "payload") from err
            else:
                current_rows.append(row)
        decoded = _decode_current([payloads[row] for row in current_rows], [seqs[row] for row in current_rows],
                                  frozenset(classes[types[row]] for row in current_rows), where)
        for row, event in zip(current_rows, decoded, strict=True):
            events[row] = event
        return events  # type: ignore[return-value]


def current_classes(pairs: Iterable[tuple[str, int]]) -> frozenset[type[Event]] | None:
    """The event classes of these (type, version) pairs if every one is known and current, else None."""
    classes = set()
    for name, version in pairs:
        if name not in EVENT_TYPES or EVENT_TYPES[name].version != version:
            return None
        classes.add(EVENT_TYPES[name])
    return frozenset(classes)


def decode_current(payloads: pa.Array | pa.ChunkedArray, classes: frozenset[type[Event]]) -> list[Event]:
    """Decode an Arrow column of current-version payloads of ``classes`` with one msgspec call.

    The payloads are joined into one JSON array inside Arrow, so no Python string is
    made per row. Raises msgspec's error on a bad payload (callers fall back to the
    row-by-row path, which names the row).
    """
    if len(payloads) == 0:
        return []
    if isinstance(payloads, pa.ChunkedArray):
        payloads = payloads.combine_chunks()
    wrapped = pa.ListArray.from_arrays(pa.array([0, len(payloads)], pa.int32()), payloads)
    document = b"[" + pc.binary_join(wrapped, ",")[0].as_buffer() + b"]"
    with gc_paused():
        return _list_decoder(classes).decode(document)


def decode_table(table: pa.Table | pa.RecordBatch, *, where: str) -> list[Event]:
    """Decode the ``type``, ``version``, ``payload`` (and ``seq``) columns of an Arrow read.

    When every row is at its type's current version, the payloads are joined into one
    JSON array inside Arrow and decoded by one msgspec call, with no Python string per
    row; otherwise :func:`decode_payloads` takes over.
    """
    if table.num_rows == 0:
        return []
    pairs = pa.Table.from_batches([table]) if isinstance(table, pa.RecordBatch) else table
    pairs = pairs.select(["type", "version"]).group_by(["type", "version"]).aggregate([])
    classes = current_classes(zip(pairs.column("type").to_pylist(), pairs.column("version").to_pylist(),
                                  strict=True))
    if classes is not None:
        try:
            return decode_current(table.column("payload"), classes)
        except (msgspec.ValidationError, msgspec.DecodeError):
            pass  # the row-by-row path below names the culprit's seq and field
    return decode_payloads(table.column("type").to_pylist(), table.column("version").to_pylist(),
                           table.column("payload").to_pylist(), table.column("seq").to_pylist(), where=where)


def _decode_current(payloads: list[str | bytes], seqs: list[int], classes: frozenset[type],
                    where: str) -> list[Event]:
    if not payloads:
        return []
    if isinstance(payloads[0], bytes):
        document: str | bytes = b"[" + b",".join(payloads) + b"]"  # type: ignore[arg-type]
    else:
        document = "[" + ",".join(payloads) + "]"  # type: ignore[arg-type]
    try:
        return _list_decoder(classes).decode(document)
    except (msgspec.ValidationError, msgspec.DecodeError) as err:
        detail, path = split_error(err)
        match = _INDEX.match(path or "")
        if match is None:  # malformed JSON: find the culprit row by row
            for seq, payload in zip(seqs, payloads, strict=True):
                try:
                    msgspec.json.decode(payload)
                except msgspec.DecodeError as row_err:
                    raise DataError(str(row_err), source=where, location=f"seq {seq}", field="payload") from err
            raise DataError(detail, source=where, field="payload") from err
        field = path[match.end():].lstrip(".")
        raise DataError(detail, source=where, location=f"seq {seqs[int(match.group('index'))]}",
                        field=f"payload.{field}" if field else "payload") from err


def envelopes_from_columns(
    game_id: str,
    branches: Sequence[str],
    seqs: Sequence[int],
    turns: Sequence[int],
    phases: Sequence[str],
    actors: Sequence[str | None],
    events: Sequence[Event],
) -> list[Envelope]:
    """Envelopes from read columns (each keeps the branch that owns its event)."""
    with gc_paused():
        return [
            Envelope(game_id=game_id, branch_id=branch, seq=seq, turn=turn, phase=phase, actor=actor, event=event)
            for branch, seq, turn, phase, actor, event in zip(branches, seqs, turns, phases, actors, events,
                                                               strict=True)
        ]
