"""Child processes for the multi-process tests: ``python -m tests.store.processes COMMAND ...``.

* ``continue DB GAME SEED BID_A BID_B READY GO``: load the stored game, play one more
  turn with those bids, announce READY (a file), wait for GO, then append the new
  events with the head it loaded as ``expected_seq``. Prints a JSON result.
* ``bulk DB GAME FIRST COUNT STARTED [--pause-before-commit]``: append COUNT tally
  events; STARTED is created once the write's transaction has begun (with the pause:
  once the rows are inserted and the transaction is still open; it then sleeps until killed).
* ``record DB``: play and save a whole bidding game; prints its id.
* ``save DB GAME SEED TURNS READY GO``: load the stored game, play TURNS more turns with dice SEED, announce
  READY, wait for GO, then ``save_session``. Prints a JSON result (saved or stale, and the events it holds).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from aero_events.core import SeededDice, encode_event
from aero_events.store import EventStore, StaleSequence
from tests.store.games import played_session
from tests.store.tally import tally_envelopes
from tests.support.bidding import play_scripted_game


def wait_for(path: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} never appeared")
        time.sleep(0.005)


def continue_game(db: str, game_id: str, seed: str, bid_a: str, bid_b: str, ready: str, go: str) -> None:
    store = EventStore(db, lock_timeout=20.0)
    session = store.session(game_id, dice=SeededDice(seed))
    expected = session.seq
    play_scripted_game(session, bids=((int(bid_a), int(bid_b)),))
    envelopes = session.events(start=expected + 1)
    Path(ready).touch()
    wait_for(Path(go))
    payloads = [encode_event(envelope.event).decode() for envelope in envelopes]
    try:
        head = store.append(game_id, "main", envelopes, expected)
        result = {"result": "appended", "expected": expected, "head": head, "payloads": payloads}
    except StaleSequence as err:
        result = {"result": "stale", "expected": err.expected, "actual": err.actual, "message": str(err)}
    print(json.dumps(result))


def bulk_append(db: str, game_id: str, first: str, count: str, started: str, *flags: str) -> None:
    store = EventStore(db, lock_timeout=20.0)
    from aero_events.store import append as append_module

    envelopes = tally_envelopes(game_id, int(first), int(count))
    if "--pause-before-commit" in flags:
        insert_snapshots = append_module.insert_snapshots

        def inserted_then_stall(*args, **kwargs):
            insert_snapshots(*args, **kwargs)
            Path(started).touch()
            time.sleep(600)

        append_module.insert_snapshots = inserted_then_stall
    else:
        branch_head = append_module.branch_head

        def announce_then_read_head(*args, **kwargs):
            Path(started).touch()
            return branch_head(*args, **kwargs)

        append_module.branch_head = announce_then_read_head
    store.append(game_id, "main", envelopes, int(first) - 1)
    print(json.dumps({"result": "appended"}))


def record_game(db: str) -> None:
    session = played_session(game_id="recorded-elsewhere")
    EventStore(db).save_session(session)
    print(session.game_id)


def save_continuation(db: str, game_id: str, seed: str, turns: str, ready: str, go: str) -> None:
    store = EventStore(db, lock_timeout=20.0)
    session = store.session(game_id, dice=SeededDice(seed))
    loaded = session.seq
    bids = [((i + len(seed)) % 3 + 1, (i * 2 + len(seed)) % 3 + 1) for i in range(int(turns))]
    play_scripted_game(session, bids=bids)
    Path(ready).touch()
    wait_for(Path(go))
    payloads = [encode_event(env.event).decode() for env in session.events()]
    try:
        store.save_session(session)
        result = {"result": "saved", "loaded": loaded, "head": session.seq, "payloads": payloads}
    except StaleSequence as err:
        result = {"result": "stale", "loaded": loaded, "head": session.seq, "message": str(err)}
    print(json.dumps(result))


COMMANDS = {"continue": continue_game, "bulk": bulk_append, "record": record_game, "save": save_continuation}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](*sys.argv[2:])
