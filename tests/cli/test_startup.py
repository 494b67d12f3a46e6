"""What the ``aero`` command pays before it works (issue 18): a command imports only what it uses. Help, the
ruleset list and the commands that need no database or drawing import neither DuckDB, pyarrow, numpy,
pandas nor plotly; the packages' names are found when first asked for; an error of the database is still one
line (exit 2), and so is any expected error of a command that never imported DuckDB."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from aero_events.cli import main

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("duckdb", "pyarrow", "numpy", "pandas", "plotly")

#: Each package's re-exported names as they were imported eagerly before the exports became lazy (its
#: ``__all__`` of HEAD 654e0bd): every one is still there, the same object as in its module.
EXPORTED = {
    "aero_events.store": (
        "DEFAULT_PATH", "GENESIS", "JSONL_FORMAT", "JSONL_FORMAT_VERSION", "MIGRATIONS", "SCHEMA_VERSION",
        "BranchExists", "BranchInfo", "CheckpointMismatch", "Comparison", "EventStore", "GameExists",
        "GameRecord", "GameSummary", "Migration", "Problem", "SchemaError", "StaleSequence", "StoreBusy",
        "StoreError", "UnknownBranch", "UnknownGame", "VerifyReport", "event_hash", "migrate", "schema_version"),
    "aero_events.odds": (
        "DEFAULT_STRIP_PLAYOUTS", "Odds", "OddsError", "PlayoutResult", "Position", "SideOdds", "StripPoint",
        "odds", "play_positions", "playout_seed", "start_point", "strip_of_timeline", "turn_starts",
        "win_probability_strip"),
    "aero_events.sim": (
        "Comparison", "GameResult", "Matchup", "MetricComparison", "SimulationError", "SimulationInterrupted",
        "SimulationRun", "Sweep", "SweepRun", "compare_runs", "game_seed", "holm_adjusted", "load_matchup",
        "load_sweep", "make_matchup", "paired_t_test", "parse_matchup", "process_pool", "simulate",
        "simulate_sweep", "sweep_of", "two_proportion_z_test", "wilson_interval"),
    "aero_events.viz": (
        "BoardView", "Layers", "ReplayStep", "board_figure", "compare_figure", "compare_from_store",
        "compare_spec", "compare_spec_from_store", "dynamic_traces", "fork_point", "place_labels",
        "recorded_fork", "replay_figure", "replay_from_store", "replay_spec", "replay_steps", "static_traces",
        "write_html"),
    "aero_events.analysis": (
        "GameReport", "Timeline", "actual_successes", "cell_usage", "create_views", "expected_successes",
        "fold_timeline", "game_outcomes", "game_steps", "heading", "level_traces", "load_timeline",
        "luck_summary", "luck_table", "piece_type_summary", "query", "report_html", "side_summary",
        "success_chance", "table_html", "timeline_from_session", "view_names", "write_report"),
    "aero_events.regress": (
        "ON_ILLEGAL", "GameReport", "RecordedDecision", "RecordedGame", "RecoveryError", "RegressSummary",
        "UnknownDecision", "commands_from_events", "from_folder", "from_jsonl", "from_store", "gather",
        "recover_decisions", "render", "render_summary", "rerun", "rerun_all", "to_json", "write_details"),
    "aero_events.rulesets.aeronautica.statistics": (
        "ShotRecord", "aircraft_stats", "damage_by_turn", "game_result", "game_shots", "shot_records",
        "side_stats", "unit_hex", "victory_points"),
}


def imported_by(*code: str) -> dict:
    """Run ``code`` in a fresh interpreter: which of :data:`HEAVY` it imported, and the exit code of the
    ``aero`` command it ran, if any (printed last, after whatever the command printed)."""
    script = "\n".join([
        "import json, sys",
        "code = None",
        *code,
        f"heavy = sorted(name for name in {HEAVY!r} if name in sys.modules)",
        "print(json.dumps({'heavy': heavy, 'code': code}))",
    ])
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def aero(*argv: str) -> dict:
    """``aero ARGV`` in a fresh interpreter (help exits through SystemExit: its code is kept)."""
    return imported_by(
        "from aero_events.cli import main",
        "try:",
        f"    code = main({list(argv)!r})",
        "except SystemExit as stop:",
        "    code = stop.code",
    )


@pytest.mark.parametrize("argv", [
    ["--help"], ["--version"], ["rulesets"], ["rulesets", "--json"], ["versions"],
    ["demo", "--help"], ["simulate", "--help"], ["games", "--help"], ["replay", "--help"], ["odds", "--help"],
    ["branch", "--help"], ["record", "--help"], ["play", "--help"], ["corpus", "--help"],
], ids=" ".join)
def test_help_and_the_ruleset_list_import_no_database_no_drawing_and_no_arrays(argv):
    """``aero --help``, ``aero COMMAND --help``, ``aero rulesets`` and ``aero versions``: building the parser
    imports no command's implementation, and listing the rulesets imports no bot's arrays."""
    found = aero(*argv)
    assert found["code"] == 0
    assert found["heavy"] == []


def test_a_simulation_without_a_store_imports_no_database_and_no_drawing():
    """``aero simulate`` without ``--db`` or ``--parquet`` plays in memory: no DuckDB, pyarrow or plotly."""
    found = aero("simulate", "--matchup", "examples/matchup.json", "--games", "2", "--no-progress")
    assert found["code"] == 0
    assert found["heavy"] == []


def test_importing_the_packages_imports_no_database_no_drawing_and_no_arrays():
    found = imported_by(*(f"import {package}" for package in EXPORTED), "import aero_events.cli")
    assert found["heavy"] == []


@pytest.mark.parametrize("package", sorted(EXPORTED))
def test_every_name_a_package_exported_is_still_exported_as_the_same_object(package):
    """``from aero_events.store import EventStore`` (and every other name of each package) keeps working: the
    name is found in its module when first asked for, listed by ``dir``, and is that module's object, never a
    submodule of the same name (``aero_events.regress`` exports the function ``rerun`` of its module
    ``rerun``: a name a submodule shadows once imported, so that package imports its names at once)."""
    module = importlib.import_module(package)
    assert set(EXPORTED[package]) <= set(module.__all__)
    lazy = getattr(module, "_EXPORTS", None)
    for name in EXPORTED[package]:
        if name in submodules(module):  # imported first: the package's attribute must stay the name's object
            importlib.import_module(f".{name}", package)
        value = getattr(module, name)
        assert not isinstance(value, types.ModuleType), name
        if lazy is not None:
            origin = importlib.import_module(lazy[name], package)
            assert value is getattr(origin, name), name
        assert name in dir(module)
    if lazy is not None:
        assert set(lazy) == set(module.__all__)
        assert not set(lazy) & submodules(module)
        with pytest.raises(AttributeError, match="no_such_name"):
            module.no_such_name  # noqa: B018 - the attribute access is the test


def submodules(package) -> set[str]:
    return {found.name for found in pkgutil.iter_modules(package.__path__)}


def test_from_imports_of_lazy_names_work_in_a_fresh_interpreter():
    found = imported_by("from aero_events.store import DEFAULT_PATH, EventStore, StoreError",
                        "from aero_events.sim import simulate, load_matchup",
                        "from aero_events.odds import DEFAULT_STRIP_PLAYOUTS, odds",
                        "from aero_events import __version__",
                        "assert EventStore.__module__ == 'aero_events.store.store' and DEFAULT_PATH == 'aero.duckdb'",
                        "assert callable(simulate) and DEFAULT_STRIP_PLAYOUTS >= 0 and __version__")
    assert "duckdb" in found["heavy"]  # EventStore was asked for: its module, and DuckDB, came with it


def test_the_parsers_defaults_are_those_of_the_modules_that_use_them():
    """The values the parser needs before any store is opened (aero_events/store/options.py, and the replay's
    strip default kept beside its parser) are those the store and the odds use."""
    from aero_events.cli.viz_commands import DEFAULT_STRIP_PLAYOUTS
    from aero_events.odds.strip import DEFAULT_STRIP_PLAYOUTS as STRIP_PLAYOUTS
    from aero_events.store import branches, database, options, store

    assert DEFAULT_STRIP_PLAYOUTS == STRIP_PLAYOUTS
    assert store.DEFAULT_PATH == options.DEFAULT_PATH == "aero.duckdb"
    assert database.DEFAULT_LOCK_TIMEOUT == options.DEFAULT_LOCK_TIMEOUT
    assert branches.SNAP_CHOICES == options.SNAP_CHOICES == (branches.SNAP_BEFORE, branches.SNAP_AFTER)


def test_a_database_error_is_still_one_line_and_exit_2(monkeypatch, tmp_path, capsys):
    """A DuckDB error a command meets (here a broken query) is reported as every expected error is: one line,
    exit 2, no traceback, though the command line never imported DuckDB before the command did."""
    from aero_events.cli import store_commands

    def broken_query(args):
        import duckdb

        duckdb.connect(":memory:").execute("SELEC 1")

    monkeypatch.setattr(store_commands, "run_games", broken_query)
    assert main(["games", "--db", str(tmp_path / "x.duckdb")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("aero: error: ") and err.count("\n") == 1 and "SELEC" in err
    assert "Traceback" not in err


def test_an_error_of_a_command_that_never_imports_duckdb_is_one_line_and_exit_2():
    found = imported_by(
        "from aero_events.cli import main",
        "import contextlib, io",
        "err = io.StringIO()",
        "with contextlib.redirect_stderr(err):",
        "    code = main(['simulate', '--matchup', 'examples/matchup.json', '--games', '0'])",
        "assert err.getvalue() == 'aero: error: --games 0: a simulation plays at least one game\\n', err.getvalue()",
    )
    assert found == {"heavy": [], "code": 2}


def test_an_unexpected_error_is_not_hidden(monkeypatch, tmp_path):
    """Only expected errors become one line: a bug still raises (and shows its traceback)."""
    from aero_events.cli import store_commands

    def bug(args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(store_commands, "run_games", bug)
    with pytest.raises(RuntimeError, match="a bug"):
        main(["games", "--db", str(tmp_path / "x.duckdb")])
