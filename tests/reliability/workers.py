"""Child processes of the reliability suite: ``python -m tests.reliability.workers COMMAND ...``.

* ``append DB GAME WRITER COUNT BATCH``: append COUNT events to GAME's main branch in batches of BATCH, each
  event marked ``w{WRITER}:{n}``; on a stale head, read the head again and retry. Prints a JSON tally.
* ``save DB WRITER GAMES``: play and save GAMES whole bidding games of its own (one
  ``save_session`` each); prints the ids.
* ``bulk DB GAME BATCH``: append batches of BATCH events forever (until killed), each batch marked ``b{head before it}``.
* ``reimport DB FILE``: import FILE with ``replace`` forever (until killed).
"""

from __future__ import annotations

import json
import sys

from aero_events.core import DiceRolled, Envelope
from aero_events.store import EventStore, StaleSequence, StoreBusy
from tests.store.games import played_session
from tests.store.tally import PLAYER


def marked(game_id: str, first_seq: int, marks: list[str]) -> list[Envelope]:
    return [Envelope(game_id=game_id, branch_id="main", seq=seq, turn=1, phase="rolling", actor=PLAYER,
                     event=DiceRolled(roll_index=seq - 1, purpose=mark, roller=PLAYER, count=1, sides=6,
                                      faces=(seq % 6 + 1,)))
            for seq, mark in zip(range(first_seq, first_seq + len(marks)), marks, strict=True)]


def append(db: str, game_id: str, writer: str, count: str, batch: str) -> None:
    store = EventStore(db, lock_timeout=60.0)
    done, stale = 0, 0
    while done < int(count):
        size = min(int(batch), int(count) - done)
        marks = [f"w{writer}:{n}" for n in range(done, done + size)]
        try:
            head = store.head(game_id)
            store.append(game_id, "main", marked(game_id, head + 1, marks), head)
            done += size
        except (StaleSequence, StoreBusy):
            stale += 1
    print(json.dumps({"writer": writer, "appended": done, "stale": stale}))


def save(db: str, writer: str, games: str) -> None:
    store = EventStore(db, lock_timeout=60.0)
    ids = []
    for number in range(int(games)):
        session = played_session(game_id=f"w{writer}-game-{number}", seed=f"{writer}:{number}")
        store.save_session(session)
        ids.append(session.game_id)
    print(json.dumps({"writer": writer, "saved": ids}))


def bulk(db: str, game_id: str, batch: str) -> None:
    store = EventStore(db, lock_timeout=60.0)
    while True:
        head = store.head(game_id)  # the batch's mark: the head it starts after (unique across killed children)
        store.append(game_id, "main", marked(game_id, head + 1, [f"b{head}"] * int(batch)), head)


def reimport(db: str, path: str) -> None:
    store = EventStore(db, lock_timeout=60.0)
    while True:
        store.import_jsonl(path, replace=True)


COMMANDS = {"append": append, "save": save, "bulk": bulk, "reimport": reimport}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](*sys.argv[2:])
