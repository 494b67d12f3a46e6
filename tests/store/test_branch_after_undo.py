"""Issue 17 item 1: after ``undo`` in ``aero record`` the game goes on on a new branch, and that branch is the
main line, so every reader, the games list and the exports show the game that was played (not the
abandoned moves); the record format's ``Current`` header carries it through export and import."""

from __future__ import annotations

import json

from aero_events.record.transfer import export_record, import_record
from aero_events.rulesets.aeronautica.state import THROTTLE
from aero_events.store import EventStore
from tests.record.table import GAME_ID, is_dice_prompt, record_scripted_game


def test_after_an_undo_every_default_read_shows_the_line_that_was_played(tmp_path):
    store = EventStore(tmp_path / "table.duckdb")

    def undo_once(number, prompt, recorder):
        if recorder.session.state.step == THROTTLE and recorder.session.branch.id == "main" \
                and not is_dice_prompt(prompt):
            return "undo 2"
        return None

    table = record_scripted_game(store, undo_once)
    assert any("undo-1, the game's main line" in line for line in table.said)
    played = table.recorder.session
    assert store.main_line(GAME_ID) == "undo-1"
    assert store.events(GAME_ID) == store.events(GAME_ID, "undo-1") != store.events(GAME_ID, "main")
    assert store.head(GAME_ID) == played.seq
    summary = store.games()[0]
    assert (summary.events, summary.main_line, summary.branches) == (played.seq, "undo-1", 2)

    jsonl = tmp_path / "game.jsonl"
    store.export_jsonl(GAME_ID, jsonl)
    assert json.loads(jsonl.read_text().splitlines()[0])["main_line"] == "undo-1"
    record = tmp_path / "game.aero"
    export_record(store, GAME_ID, record)
    assert '[Current "undo-1"]' in record.read_text()
    copy = EventStore(tmp_path / "copy.duckdb")
    import_record(copy, record)
    assert copy.main_line(GAME_ID) == "undo-1"
    assert copy.state_hash(GAME_ID) == store.state_hash(GAME_ID)
