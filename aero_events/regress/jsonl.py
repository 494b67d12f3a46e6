"""Writing a game in the JSON Lines export format without a store (the golden corpus, simulations).

The file is exactly what ``EventStore.export_jsonl`` writes (see :mod:`aero_events.store.transfer`): a
header line (the game row), a line per branch with the hash of its head, then every branch's own events
as :class:`~aero_events.core.events.EnvelopeRecord` lines. The head hashes are the store's hash chain
(:mod:`aero_events.store.chain`) computed here, so ``aero import`` accepts the file and proves it
unaltered. ``created`` is fixed by the caller when the file must be byte-identical from run to run.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

import msgspec

from aero_events.core import EnvelopeRecord, Game
from aero_events.store.chain import GENESIS, chain_hashes
from aero_events.store.records import engine_version
from aero_events.store.transfer import JSONL_FORMAT, JSONL_FORMAT_VERSION, JsonlBranch, JsonlHeader

_encoder = msgspec.json.Encoder()
_encode = _encoder.encode


def _parents_first(game: Game) -> list:
    return sorted(game.branches.values(), key=lambda branch: len(branch.lineage()))


def write_game_jsonl(game: Game, path: str | os.PathLike, *, created: datetime | None = None) -> int:
    """Write ``game`` (every branch) as JSON Lines; returns the number of events written."""
    created = created or datetime.now(UTC)
    if created.tzinfo is None:
        created = created.replace(tzinfo=UTC)
    branches = _parents_first(game)
    hashes: dict[str, list[bytes]] = {}
    records: dict[str, list[EnvelopeRecord]] = {}
    for branch in branches:
        own = [EnvelopeRecord.from_envelope(env) for env in branch.own]
        inherited = hashes[branch.parent.id][: branch.fork_seq] if branch.parent is not None else []
        start = inherited[-1] if inherited else GENESIS
        own_hashes = chain_hashes(start, [r.seq for r in own], [r.turn for r in own], [r.phase for r in own],
                                  [r.actor for r in own], [r.type for r in own], [r.version for r in own],
                                  [bytes(r.payload) for r in own])
        hashes[branch.id] = inherited + own_hashes
        records[branch.id] = own
    ruleset = game.ruleset
    header = JsonlHeader(
        format=JSONL_FORMAT, format_version=JSONL_FORMAT_VERSION, game_id=game.id, ruleset=ruleset.name,
        data_version=str(ruleset.data_version), engine_version=engine_version(), created=created,
        players=list(ruleset.players(game.initial_state)), setup=msgspec.Raw(_encode(game.setup)),
        metadata=dict(game.metadata), branch_count=len(branches),
        event_count=sum(len(own) for own in records.values()),
    )
    with open(path, "wb") as out:
        out.write(_encode(header) + b"\n")
        for branch in branches:
            chain = hashes[branch.id]
            out.write(_encode(JsonlBranch(
                id=branch.id, parent=branch.parent.id if branch.parent else None, fork_seq=branch.fork_seq,
                label=branch.label, created=created, head_seq=branch.head_seq,
                head_hash=chain[-1].hex() if records[branch.id] else None)) + b"\n")
        for branch in branches:
            if records[branch.id]:
                out.write(_encoder.encode_lines(records[branch.id]))
    return header.event_count
