"""A ruleset that exists only under tests/ (tests/support/plugin_ruleset.py, "Pawns") goes through the tools
by the ``aero`` command, in-process: demo, regress, simulate, export and import (issue 11, item 1).

Nothing here, and nothing in the tools, knows Pawns: the ruleset registered itself at run time and answers
through the interface of core/interface.py.
"""

from __future__ import annotations

import json
from typing import ClassVar

import pytest

from aero_events.cli import main
from aero_events.core import CommandIssued, RedactedEvent, SecretCommandIssued, TapeDice
from aero_events.regress import from_store, rerun
from aero_events.rulesets import get_ruleset
from aero_events.store import EventStore
from tests.support.plugin_ruleset import NAME, GiveOrder, MovePiece, OrderSealed, PawnRules


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def demo_db(tmp_path, capsys):
    db = str(tmp_path / "pawns.duckdb")
    code, out, err = run(capsys, "demo", "--ruleset", "pawns", "--seed", "4", "--db", db)
    assert code == 0, err
    return db, out


def test_aero_demo_plays_the_family_default_stores_narrates_verifies_and_tells_the_outcome(demo_db):
    db, out = demo_db
    assert "red (centre bot): 2 pawns on a 600 x 400 mm table, 3 turns" in out
    assert "blue (random bot)" in out
    assert "red gives an order face down" in out and "orders revealed:" in out
    assert "=== turn ends:" in out and "game over" in out
    assert "verify: ok" in out and "Outcome: " in out
    with EventStore(db) as store:
        [game] = store.games()
        assert game.ruleset == NAME
        events = store.events(game.id)
    # Every command is recorded before the events it caused; the orders are sealed.
    commands = [env for env in events if isinstance(env.event, CommandIssued | SecretCommandIssued)]
    assert f"{len(commands)} commands produced {len(events)} events ({len(commands)} of them the commands" in out
    orders = [env for env in commands if isinstance(env.event, SecretCommandIssued)]
    assert len(orders) == 6 and all(env.event.command["command"] == "pawns.GiveOrder" for env in orders)
    assert all(events[env.seq].type == OrderSealed.type_name() for env in orders)  # its event comes next


def test_the_demo_names_a_bot_per_player_and_refuses_unknown_bots(tmp_path, capsys):
    db = str(tmp_path / "bots.duckdb")
    code, out, _ = run(capsys, "demo", "--ruleset", "pawns/v1", "--bots", "random,centre", "--db", db)
    assert code == 0 and "red (random bot)" in out and "blue (centre bot)" in out
    code, _, err = run(capsys, "demo", "--ruleset", "pawns", "--bots", "greedy,random", "--db", db)
    assert code == 2 and "greedy" in err and "Traceback" not in err


def test_another_players_view_of_the_log_never_shows_an_order_before_or_after_the_reveal(demo_db):
    db, _ = demo_db
    with EventStore(db) as store:
        game_id = store.games()[0].id
        session = store.session(game_id, dice=TapeDice([]))
    for env in session.events_for("blue"):
        if env.actor == "red" and env.type in ("SecretCommandIssued", OrderSealed.type_name()):
            raise AssertionError(f"blue reads red's secret at seq {env.seq}")
        if isinstance(env.event, RedactedEvent) and env.event.owner == "red":
            assert "order" not in json.dumps(env.event.public)
    hidden = [env for env in session.events_for("blue") if isinstance(env.event, RedactedEvent)]
    assert {(env.event.owner, env.event.secret_type) for env in hidden} == {
        ("red", "SecretCommandIssued"), ("red", OrderSealed.type_name())}
    assert len(hidden) == 6  # three turns: red's order command and its sealed event, each hidden
    revealed = [env.event for env in session.events_for("blue") if env.type == "pawns.OrdersRevealed"]
    assert len(revealed) == 3  # what blue learns is the ruleset's own reveal


def test_aero_regress_re_decides_the_game_from_its_recorded_commands(demo_db, capsys):
    db, _ = demo_db
    with EventStore(db) as store:
        game_id = store.games()[0].id
    code, out, err = run(capsys, "regress", game_id, "--rules", "pawns/v1", "--db", db, "--expect-identical",
                         "--json")
    assert code == 0, err
    [report] = json.loads(out)
    assert report["identical"] and report["decisions"] == report["decisions_applied"] == 18
    assert report["new_outcome"]["score_name"] == "points"


def test_a_changed_rule_makes_regress_name_the_first_event_that_differs(demo_db):
    """Pawns played with a longer base move: the first move goes further, and the report says where."""
    db, _ = demo_db

    class LongStrides(PawnRules):
        name = "pawns/long-strides"
        base_distance: ClassVar[dict[str, int]] = {"advance": 60, "hold": 15}

    with EventStore(db) as store:
        game = from_store(store, store.games()[0].id)
    report = rerun(game, LongStrides())
    assert not report.identical and report.error is None
    assert report.divergence.old.type == "pawns.PawnMoved" and report.divergence.new.type == "pawns.PawnMoved"
    assert "recorded decision" in report.divergence.decision and "MovePiece" in report.divergence.decision


def test_aero_simulate_plays_a_matchup_file_that_names_the_ruleset(tmp_path, capsys):
    matchup = tmp_path / "pawns.toml"
    matchup.write_text('name = "pawn-race"\nruleset = "pawns/v1"\nscenario = "meeting"\nturns = 2\nwidth = 500\n')
    code, out, err = run(capsys, "simulate", "--matchup", str(matchup), "--games", "6", "--seed", "3",
                         "--bots", "centre,random", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["ruleset"] == NAME and data["games"] == 6 and data["score_name"] == "points"
    assert sum(p["wins"] for p in data["players"]) + data["draws"] == 6
    assert all(r["turns"] == 2 and r["finished"] for r in data["results"])
    db = tmp_path / "sim.duckdb"
    code, out, _ = run(capsys, "simulate", "--matchup", str(matchup), "--games", "3", "--db", str(db),
                       "--no-progress")
    assert code == 0 and "mean points" in out
    with EventStore(db) as store:
        assert all(store.verify(game.id).ok for game in store.games())


def test_a_matchup_option_the_scenario_does_not_know_is_a_one_line_error(tmp_path, capsys):
    matchup = tmp_path / "bad.json"
    matchup.write_text(json.dumps({"name": "bad", "ruleset": "pawns/v1", "scenario": "sprint"}))
    code, _, err = run(capsys, "simulate", "--matchup", str(matchup), "--games", "1")
    assert code == 2 and "scenario is one of meeting" in err


def test_aero_export_then_import_gives_back_the_same_game(demo_db, tmp_path, capsys):
    db, _ = demo_db
    with EventStore(db) as store:
        game_id = store.games()[0].id
        original = store.events(game_id)
    path = tmp_path / "pawns.jsonl"
    code, out, _ = run(capsys, "export", game_id, str(path), "--db", db)
    assert code == 0 and f"wrote {len(original)} events" in out
    header = json.loads(path.read_text().splitlines()[0])
    assert header["ruleset"] == NAME and header["setup"] == {"width": 600, "height": 400, "turns": 3}
    other = str(tmp_path / "other.duckdb")
    code, out, _ = run(capsys, "import", str(path), "--db", other)
    assert code == 0 and game_id in out
    with EventStore(other) as store:
        assert store.events(game_id) == original
        assert store.verify(game_id).ok
    code, out, _ = run(capsys, "regress", str(path), "--rules", "pawns", "--expect-identical")
    assert code == 0


def test_aero_rulesets_lists_the_plugin_with_its_scenario_and_bots(capsys):
    code, out, _ = run(capsys, "rulesets", "--json")
    listed = {entry["name"]: entry for entry in json.loads(out)}
    assert code == 0 and listed[NAME]["default"]
    assert set(listed[NAME]["scenarios"]) == {"meeting"} and set(listed[NAME]["bots"]) == {"random", "centre"}
    assert "aeronautica/wov-2019" in listed and listed["aeronautica/wov-2019"]["default"]
    assert {"random", "greedy"} <= set(listed["aeronautica/wov-2019"]["bots"])


def test_the_plugin_notation_reads_what_it_writes():
    rules = get_ruleset("pawns")
    state = rules.initial_state(None)
    notation = rules.notation()
    order = GiveOrder(player="red", order="advance")
    assert notation.format(state, order) == "order advance"
    assert notation.parse(state, "red", "order advance") == order
    move = MovePiece(player="blue", piece="blue-1", direction=5)
    assert notation.format(state, move) == "blue-1 SW" and notation.parse(state, "blue", "blue-1 sw") == move
