"""``aero regress`` re-runs the game that was played: the main line (issue 17, item 1), from the store and from
a JSON Lines export, ancestors' events included, never the abandoned moves of the root branch."""

from __future__ import annotations

from aero_events.regress import from_store, rerun
from aero_events.regress.recorded import from_jsonl
from aero_events.store import EventStore
from tests.reliability.secrets_games import demo_game


def _played_on_a_promoted_branch(tmp_path):
    session = demo_game("aeronautica", reproducible=True)
    store = EventStore(tmp_path / "game.duckdb")
    store.save_session(session)
    game_id = session.game_id
    boundaries = store.command_boundaries(game_id)
    at = boundaries[len(boundaries) // 2]
    store.fork(game_id, None, at, "what-if")
    store.promote(game_id, "what-if")
    return store, game_id, at


def test_regress_from_the_store_reads_the_main_line(tmp_path):
    store, game_id, at = _played_on_a_promoted_branch(tmp_path)
    game = from_store(store, game_id)
    assert [envelope.seq for envelope in game.envelopes] == list(range(1, at + 1))
    assert rerun(game, game.own_rules()).identical


def test_regress_from_a_json_lines_export_reads_the_main_line_its_header_names(tmp_path):
    store, game_id, at = _played_on_a_promoted_branch(tmp_path)
    path = tmp_path / "game.jsonl"
    store.export_jsonl(game_id, path)
    game = from_jsonl(path)
    assert [envelope.seq for envelope in game.envelopes] == list(range(1, at + 1))
    assert rerun(game, game.own_rules()).identical
