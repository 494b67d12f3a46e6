"""The hash chain that makes each branch's log tamper-evident.

For every event::

    hash = sha256(prev_hash || header || payload)

* ``prev_hash``: the 32-byte hash of the event before it in the branch's line of
  play; for event 1 the fixed :data:`GENESIS` (32 zero bytes). A forked branch's
  first own event chains from its parent's event at the fork point, so a branch's
  log is one chain from genesis through its ancestors.
* ``header``: the compact JSON array ``[seq,turn,phase,actor,type,version]`` exactly
  as ``msgspec.json.encode`` writes it, so the envelope (where and when the event
  happened, which schema version) is covered as well as the payload.
* ``payload``: the event's JSON bytes as stored.

Because each hash covers everything before it, two branches have the same hash at
a sequence number exactly when their logs agree up to it (used by ``compare``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import msgspec

GENESIS = bytes(32)

_json = msgspec.json.encode
_sha256 = hashlib.sha256


def event_header(seq: int, turn: int, phase: str, actor: str | None, type_name: str, version: int) -> bytes:
    """The header bytes hashed with each payload (see the module docstring)."""
    return _json([seq, turn, phase, actor, type_name, version])


def event_hash(
    prev_hash: bytes,
    seq: int,
    turn: int,
    phase: str,
    actor: str | None,
    type_name: str,
    version: int,
    payload: bytes,
) -> bytes:
    """The hash of one event (see the module docstring)."""
    return _sha256(prev_hash + event_header(seq, turn, phase, actor, type_name, version) + payload).digest()


class _Contexts(dict):
    """``(turn, phase, actor, type, version)`` -> the header's JSON after the seq, encoded once per distinct value."""

    def __missing__(self, key: tuple) -> bytes:
        value = self[key] = _json(list(key))[1:]  # 'turn,"phase","actor","type",version]'
        return value


def chain_hashes(
    prev_hash: bytes,
    seqs: Sequence[int],
    turns: Sequence[int],
    phases: Sequence[str],
    actors: Sequence[str | None],
    types: Sequence[str],
    versions: Sequence[int],
    payloads: Sequence[bytes],
) -> list[bytes]:
    """The hashes of a run of consecutive events chained from ``prev_hash``.

    Equal to calling :func:`event_hash` row by row, and faster: everything in the
    header but the seq repeats from event to event, so its JSON is encoded once per
    distinct (turn, phase, actor, type, version) and the seq is formatted with
    bytes ``%`` (the same digits msgspec writes).
    """
    contexts = list(map(_Contexts().__getitem__, zip(turns, phases, actors, types, versions, strict=True)))
    hashes: list[bytes] = []
    keep = hashes.append
    sha256 = _sha256
    h = prev_hash
    for seq, context, payload in zip(seqs, contexts, payloads, strict=True):
        h = sha256(b"%b[%d,%b%b" % (h, seq, context, payload)).digest()
        keep(h)
    return hashes


def previous_hashes(prev_hash: bytes, hashes: list[bytes]) -> list[bytes]:
    """Each event's ``prev_hash`` column: the chain's start, then every hash but the last."""
    return [prev_hash, *hashes[:-1]] if hashes else []
