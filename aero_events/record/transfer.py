"""Records in and out of the event store: ``aero export GAME FILE --format record`` and ``aero import FILE``.

Export loads the game with every branch, adds the recorder's annotations and current branch
(:mod:`.journal`), writes the record and checks that it reads back to the same events.

Import reads and replays the whole record in memory first (:func:`~.record_format.read_record`), so a
malformed or illegal record is refused before anything is written. The game then goes into the store the
way a JSON Lines game does (the store's own validated path, snapshots included) in one transaction with
the recorder's annotation rows: all of it, or nothing.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from aero_events.store import EventStore
from aero_events.store.database import transaction
from aero_events.store.outputs import written_whole
from aero_events.store.transfer import read_jsonl, store_parsed, write_game_jsonl
from aero_events.store.viewer import check_viewer

from . import journal
from .errors import RecordError
from .record_format import RECORD_SUFFIX, ReplayedRecord, read_record, write_record


def is_record_file(path: str | os.PathLike) -> bool:
    """A ``.aero`` file, or one whose first non-blank character opens a header (``[``) rather than a JSON
    Lines object (``{``)."""
    path = Path(path)
    if path.suffix.lower() == RECORD_SUFFIX:
        return True
    try:
        with open(path, encoding="utf-8", errors="replace") as source:
            head = source.read(4096).lstrip()
    except OSError:
        return False
    return head.startswith("[")


def record_text(store: EventStore, game_id: str, viewer: str | None = None) -> str:
    """The record of a stored game (every branch, its annotations), checked to read back identically; with
    ``viewer``, that player's copy (other players' secrets left out, :mod:`.record_format`)."""
    record = store.game(game_id)
    if viewer is not None:
        check_viewer(record, viewer)
    game = store.load_game(game_id)
    return write_record(game, annotations=journal.annotations(store, game_id), created=record.created,
                        current=journal.current_branch(store, game_id), viewer=viewer)


def export_record(store: EventStore, game_id: str, path: str | os.PathLike, viewer: str | None = None) -> int:
    """Write a stored game as a record (``viewer``: that player's copy); returns the number of events it
    holds (all branches)."""
    text = record_text(store, game_id, viewer)
    with written_whole(path) as partial:
        partial.write_text(text, encoding="utf-8")
    return sum(info.own_events for info in store.branch_tree(game_id).values())


def import_record(store: EventStore, path: str | os.PathLike, *, replace: bool = False) -> str:
    """Store the game a record file describes, all or nothing; returns its id.

    The game id is the record's ``[GameId]``, else the file's name without its suffix. A stored game with
    that id is refused (:class:`~aero_events.store.GameExists`) unless ``replace``.
    """
    source = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise RecordError(f"not UTF-8 text: {err.reason}", source=source, line=1, column=1) from err
    replayed = read_record(text, source, game_id=Path(path).stem)
    return store_replayed(store, replayed, replace=replace)


def store_replayed(store: EventStore, replayed: ReplayedRecord, *, replace: bool = False) -> str:
    """Write a replayed record to the store in one transaction (game, branches, events, annotations)."""
    game = replayed.game
    with tempfile.TemporaryDirectory(prefix="aero-record-") as folder:
        jsonl = Path(folder) / "game.jsonl"
        write_game_jsonl(game, jsonl, created=replayed.created)
        parsed = read_jsonl(jsonl)
    with store.connection() as conn, transaction(conn):
        if replace:
            journal.forget_game(conn, game.id)
        store_parsed(conn, parsed, replace=replace)
        journal.write_annotations(conn, game.id, replayed.annotations)
        if replayed.current is not None:
            journal.write_current_branch(conn, game.id, replayed.current)
    return game.id
