"""The hash chain: its definition, its fast path, and how branches chain from their fork."""

from __future__ import annotations

import hashlib

import duckdb
import msgspec
from hypothesis import given
from hypothesis import strategies as st

from aero_events.core import encode_event
from aero_events.store import GENESIS, event_hash
from aero_events.store.chain import chain_hashes, event_header
from tests.store.games import END_OF_TURN_1
from tests.support.bidding import play_scripted_game

texts = st.text(max_size=12)


@given(seq=st.integers(0, 2**62), turn=st.integers(-5, 2**31 - 1), phase=texts, actor=st.none() | texts,
       type_name=texts, version=st.integers(1, 1000), payload=st.binary(max_size=40))
def test_the_fast_chain_equals_the_definition(seq, turn, phase, actor, type_name, version, payload):
    header = msgspec.json.encode([seq, turn, phase, actor, type_name, version])
    assert event_header(seq, turn, phase, actor, type_name, version) == header
    expected = hashlib.sha256(GENESIS + header + payload).digest()
    assert event_hash(GENESIS, seq, turn, phase, actor, type_name, version, payload) == expected
    assert chain_hashes(GENESIS, [seq], [turn], [phase], [actor], [type_name], [version], [payload]) == [expected]


def test_each_stored_hash_covers_the_previous_one(store, db_path, saved):
    with duckdb.connect(str(db_path)) as conn:
        rows = conn.execute("SELECT seq, turn, phase, actor, type, version, payload, prev_hash, hash FROM events "
                            "WHERE game = ? ORDER BY seq", [saved.game_id]).fetchall()
    previous = GENESIS
    for (seq, turn, phase, actor, type_name, version, payload, prev_hash, stored), envelope in zip(
            rows, saved.events(), strict=True):
        assert payload.encode() == encode_event(envelope.event)
        assert prev_hash == previous
        assert stored == event_hash(previous, seq, turn, phase, actor, type_name, version, payload.encode())
        previous = stored


def test_a_fork_chains_from_its_parents_event_at_the_fork(store, db_path, saved):
    alt = saved.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3),))
    store.save_session(alt)
    with duckdb.connect(str(db_path)) as conn:
        (parent_hash,), = conn.execute("SELECT hash FROM events WHERE branch = 'main' AND seq = ?",
                                       [END_OF_TURN_1]).fetchall()
        (first_prev, first_seq), = conn.execute(
            "SELECT prev_hash, seq FROM events WHERE branch = 'alt' ORDER BY seq LIMIT 1").fetchall()
    assert first_seq == END_OF_TURN_1 + 1 and first_prev == parent_hash
