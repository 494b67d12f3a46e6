"""Does a session hold exactly what the store holds? The whole stored prefix, checked by its chain hash.

A save appends a session's events after the branch's stored head. Comparing only the stored head's
event with the session's (as the store once did) let two processes that continued one game differently
both save: the log then held one player's Manoeuvre token and the other's dice. Here the session's own
line of play is hashed with the store's chain (:mod:`.chain`) up to the stored head, and the save goes on
only if that hash is the stored head's hash: the chain covers every event before it, so equal hashes
mean equal prefixes, event for event and envelope for envelope.

Hashes of a session's branches are cached (a long game is hashed once, then only its new events), keyed
by the branch object and checked against the identity of the last envelope hashed, so a branch whose
events were undone and replaced is hashed again.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import msgspec

from aero_events.core.events import Envelope
from aero_events.core.session import Branch

from .chain import GENESIS, chain_hashes

_encode = msgspec.json.Encoder().encode


def envelope_hashes(prev_hash: bytes, envelopes: Sequence[Envelope]) -> list[bytes]:
    """The chain hashes of consecutive envelopes, chained from ``prev_hash`` (as the store writes them)."""
    if not envelopes:
        return []
    events = [env.event for env in envelopes]
    return chain_hashes(prev_hash, [env.seq for env in envelopes], [env.turn for env in envelopes],
                        [env.phase for env in envelopes], [env.actor for env in envelopes],
                        [type(event).type_name() for event in events], [type(event).version for event in events],
                        [_encode(event) for event in events])


class _Cached:
    """A branch's own hashes so far, the last envelope hashed, and the hash they were chained from."""

    __slots__ = ("hashes", "last", "start")

    def __init__(self) -> None:
        self.hashes: list[bytes] = []
        self.last: Envelope | None = None
        self.start: bytes | None = None


_cache: weakref.WeakKeyDictionary[Branch, _Cached] = weakref.WeakKeyDictionary()


def _own_hashes(branch: Branch) -> list[bytes]:
    """The chain hashes of the branch's own events (chained through its ancestors)."""
    start = GENESIS if branch.parent is None or branch.fork_seq == 0 else session_hash_at(branch.parent,
                                                                                           branch.fork_seq)
    cached = _cache.get(branch)
    if cached is None:
        cached = _cache[branch] = _Cached()
    done = len(cached.hashes)
    valid = (done <= len(branch.own) and (done == 0 or branch.own[done - 1] is cached.last)
             and cached.start in (None, start))
    if not valid:
        cached.hashes, done = [], 0
    if done < len(branch.own):
        chained_from = cached.hashes[-1] if cached.hashes else start
        cached.hashes.extend(envelope_hashes(chained_from, branch.own[done:]))
        cached.last = branch.own[-1]
    cached.start = start
    return cached.hashes


def session_hash_at(branch: Branch, seq: int) -> bytes:
    """The chain hash of event ``seq`` of the branch's line of play (GENESIS for 0)."""
    if seq == 0:
        return GENESIS
    if seq <= branch.fork_seq:
        assert branch.parent is not None
        return session_hash_at(branch.parent, seq)
    return _own_hashes(branch)[seq - branch.fork_seq - 1]
