"""Sweeps (issue 17, item 5): several matchups, or each entry of a list against each, played as one run and
summarised per matchup, per entry and per piece type (aero_events/sim/sweep.py); simulated games keep
their outcomes in the store (``game_outcomes``) and stay reproducible from their seed."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from aero_events.analysis.many_games import piece_type_summary
from aero_events.cli import main
from aero_events.core import DataError
from aero_events.core.secrets import REPRODUCIBLE_SALTS
from aero_events.rulesets import get_ruleset
from aero_events.sim import load_matchup, load_sweep, simulate, simulate_sweep, sweep_of
from aero_events.sim.games import GameResult, PieceResult
from aero_events.sim.sweep import entry_tally, piece_type_tally

RULES = "aeronautica/wov-2019"


def _force(name: str, faction: str, aircraft: str, count: int) -> dict:
    return {"name": name, "faction": faction, "aircraft": [{"aircraft": aircraft}] * count}


ENTRIES = {
    "thunderbolt": _force("Bolts", "imperial_navy", "thunderbolt", 1),
    "dakkajet": _force("Dakkas", "ork_air_waaagh", "dakkajet", 1),
    "fighta_bommer": _force("Bommers", "ork_air_waaagh", "fighta_bommer", 1),
}
SWEEP = {"name": "fighters", "ruleset": "aeronautica/wov-2019",
         "each_against_each": {"side_option": "forces", "board": "3x3", "entries": ENTRIES}}


@pytest.fixture
def sweep_file(tmp_path: Path) -> Path:
    path = tmp_path / "sweep.json"
    path.write_text(json.dumps(SWEEP))
    return path


def _result(winner: str | None, pieces: list[tuple[str, str, str]], finished: bool = True) -> GameResult:
    return GameResult(index=0, seed=0, game_id="g", finished=finished, winner=winner, end_reason=None, turns=3,
                      scores={}, statistics={}, events=0, commands=0, state_hash="", draw=winner is None,
                      pieces=tuple(PieceResult(*piece) for piece in pieces))


def test_a_side_fielding_a_piece_type_counts_once_per_game_however_many_it_fielded():
    """sweep.py: a side of two Thunderbolts and a Marauder that won is one win for each type."""
    games = [
        _result("imperium", [("imperium", "Thunderbolt", "active"), ("imperium", "Thunderbolt", "destroyed"),
                             ("imperium", "Marauder", "active"), ("orks", "Dakkajet", "destroyed")]),
        _result("orks", [("imperium", "Thunderbolt", "disengaged"), ("orks", "Dakkajet", "active")]),
        _result(None, [("imperium", "Marauder", "active"), ("orks", "Dakkajet", "active")]),
        _result("orks", [("imperium", "Marauder", "active"), ("orks", "Dakkajet", "active")], finished=False),
    ]
    rows = {row.name: row for row in piece_type_tally(games)}
    assert (rows["Thunderbolt"].sides, rows["Thunderbolt"].wins, rows["Thunderbolt"].draws) == (2, 1, 0)
    assert (rows["Thunderbolt"].pieces, rows["Thunderbolt"].out_of_play) == (3, 2)
    assert (rows["Marauder"].sides, rows["Marauder"].wins, rows["Marauder"].draws) == (2, 1, 1)
    assert (rows["Dakkajet"].sides, rows["Dakkajet"].wins, rows["Dakkajet"].losses) == (3, 1, 1)
    assert [row.name for row in piece_type_tally(games)] == ["Marauder", "Thunderbolt", "Dakkajet"]  # best first


def test_each_against_each_plays_every_ordered_pair_so_every_entry_plays_from_every_seat(sweep_file):
    sweep = load_sweep(sweep_file)
    names = [matchup.name for matchup in sweep.matchups]
    assert names == ["thunderbolt-vs-dakkajet", "thunderbolt-vs-fighta_bommer", "dakkajet-vs-thunderbolt",
                     "dakkajet-vs-fighta_bommer", "fighta_bommer-vs-thunderbolt", "fighta_bommer-vs-dakkajet"]
    assert sweep.entries["dakkajet-vs-thunderbolt"] == ("dakkajet", "thunderbolt")
    first = sweep.matchups[0]
    assert first.ruleset == RULES and first.options["board"] == "3x3"
    data = {**SWEEP, "each_against_each": {**SWEEP["each_against_each"], "mirror": True}}
    sweep_file.write_text(json.dumps(data))
    assert len(load_sweep(sweep_file).matchups) == 9


@pytest.mark.parametrize(("change", "message"), [
    ({"name": ""}, "a sweep has a 'name'"),
    ({"matchups": "a.json", "each_against_each": None}, "'matchups' is a list"),
    ({"each_against_each": {"entries": ENTRIES}}, "'side_option' names the scenario option"),
    ({"each_against_each": {"side_option": "forces", "entries": {"one": ENTRIES["dakkajet"]}}},
     "at least two entries"),
    ({"each_against_each": {"side_option": "forces", "entries": ENTRIES, "forces": []}}, "comes from the entries"),
    ({"each_against_each": {"side_option": "forces", "entries": ENTRIES, "mirror": "yes"}}, "'mirror' is true"),
    ({"rounds": 3}, "unknown key 'rounds'"),
])
def test_a_malformed_sweep_file_is_refused_naming_the_file_and_the_field(sweep_file, change, message):
    data = {**SWEEP, **change}
    data = {key: value for key, value in data.items() if value is not None}
    sweep_file.write_text(json.dumps(data))
    with pytest.raises(DataError, match=message) as caught:
        load_sweep(sweep_file)
    assert str(sweep_file) in str(caught.value)


def test_an_entry_the_scenario_refuses_names_the_pair_it_was_built_for(sweep_file):
    data = {**SWEEP, "each_against_each": {**SWEEP["each_against_each"],
                                           "entries": {**ENTRIES, "valkyrie": _force("V", "imperial_navy",
                                                                                     "valkyrie", 1)}}}
    sweep_file.write_text(json.dumps(data))
    with pytest.raises(DataError, match="thunderbolt-vs-valkyrie"):
        load_sweep(sweep_file)


def test_two_matchups_of_one_name_are_refused(tmp_path):
    from tests.sim.test_simulate import MATCHUP

    path = tmp_path / "m.json"
    path.write_text(json.dumps(MATCHUP))
    matchup = load_matchup(path)
    with pytest.raises(DataError, match="both named 'bolts-vs-dakkas'"):
        sweep_of([matchup, matchup])


def test_a_sweep_stored_as_one_run_answers_which_type_wins_most_in_python_and_in_sql(sweep_file, tmp_path):
    rules = get_ruleset(RULES)
    db = tmp_path / "sweep.duckdb"
    run = simulate_sweep(load_sweep(sweep_file), rules, games=3, seed=2, bots=["random"], db=db)
    assert run.prefix == "sim-fighters-wov-2019-s2" and run.games == 18
    assert all(game.game_id.startswith(run.prefix + "-") for game in run.results())
    entries = {row.name: row for row in run.entries()}
    assert all(row.sides == 12 for row in entries.values())  # 4 matchups x 3 games for each entry
    assert sum(row.wins for row in entries.values()) == sum(r.winner is not None for r in run.results())
    with duckdb.connect(str(db), read_only=True) as conn:
        assert conn.execute("SELECT count(*) FROM games WHERE starts_with(id, ?)", [run.prefix]).fetchone() == (18,)
        assert conn.execute("SELECT count(*) FROM outcomes WHERE starts_with(game, ?)",
                            [run.prefix]).fetchone() == (18,)
        sql = {row["piece_type"]: (row["sides"], row["wins"], row["draws"])
               for row in piece_type_summary(conn, prefix=run.prefix).to_pylist()}
    python = {row.name: (row.sides, row.wins, row.draws) for row in run.piece_types()}
    assert sorted(sql.values()) == sorted(python.values())  # the same tally by the store's views
    assert set(python) == {"Thunderbolt Fighter", "Dakkajet", "Fighta Bommer"}
    assert entry_tally(run.runs, {}) == []


def test_simulated_games_store_their_outcomes_and_say_their_salts_are_reproducible(tmp_path):
    """The ``outcomes`` view has a row per simulated game, as the ruleset judged it; the metadata says
    ``reproducible_salts`` (core/secrets.py), so a re-run from the seed gives the same bytes."""
    from tests.sim.test_simulate import MATCHUP

    path = tmp_path / "m.json"
    path.write_text(json.dumps(MATCHUP))
    db = tmp_path / "sim.duckdb"
    run = simulate(load_matchup(path), get_ruleset(RULES), games=4, seed=9, bots=("random", "random"), db=db)
    with duckdb.connect(str(db), read_only=True) as conn:
        rows = conn.execute("SELECT game, winner, finished, reason FROM outcomes ORDER BY game").fetchall()
        metadata = [json.loads(row[0]) for row in conn.execute("SELECT metadata FROM games").fetchall()]
        scores = conn.execute("SELECT count(*) FROM outcome_scores").fetchone()
    assert rows == [(r.game_id, r.winner, r.finished, r.end_reason) for r in run.results]
    assert scores == (8,)
    assert all(entry[REPRODUCIBLE_SALTS] is True for entry in metadata)


def test_aero_simulate_with_several_matchups_prints_per_matchup_entry_and_piece_type(capsys, sweep_file, tmp_path):
    from tests.sim.test_simulate import MATCHUP

    other = tmp_path / "bolts.json"
    other.write_text(json.dumps(MATCHUP))
    code = main(["simulate", "--sweep", str(sweep_file), "--matchup", str(other), "--games", "2", "--bots",
                 "random", "--no-progress"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    out = captured.out
    assert "sweep fighters: 7 matchups of 2 games under aeronautica/wov-2019" in out
    assert "bolts-vs-dakkas" in out and "imperium (thunderbolt)" in out
    assert "by entry (each against each)" in out and "by piece type" in out and "Fighta Bommer" in out
    assert captured.err == ""  # no progress bar where stderr is not a terminal
    code = main(["simulate", "--matchup", str(other), "--matchup", str(sweep_file.parent / "bolts.json"),
                 "--games", "1", "--no-progress"])
    assert code == 2 and "both named 'bolts-vs-dakkas'" in capsys.readouterr().err
    code = main(["simulate", "--sweep", str(sweep_file), "--games", "2", "--bots", "random", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["run"] == "sim-fighters-wov-2019-s0" and len(data["matchups"]) == 6
    assert {row["name"] for row in data["entries"]} == set(ENTRIES)
    assert sum(row["sides"] for row in data["piece_types"]) == 2 * 6 * 2


def test_a_sweep_interrupted_is_refused_again_and_resumed_matchup_by_matchup(sweep_file, tmp_path, capsys):
    db = tmp_path / "sweep.duckdb"
    rules = get_ruleset(RULES)
    sweep = load_sweep(sweep_file)
    first = sweep_of(sweep.matchups[:2], sweep.name)  # as if stopped after two matchups
    simulate_sweep(first, rules, games=2, seed=0, bots=["random"], db=db)
    code = main(["simulate", "--sweep", str(sweep_file), "--games", "2", "--bots", "random", "--db", str(db),
                 "--no-progress"])
    assert code == 2 and "add --resume to play only the missing games" in capsys.readouterr().err
    code = main(["simulate", "--sweep", str(sweep_file), "--games", "2", "--bots", "random", "--db", str(db),
                 "--no-progress", "--resume"])
    assert code == 0
    whole = simulate_sweep(sweep, rules, games=2, seed=0, bots=["random"])  # never interrupted, not stored
    with duckdb.connect(str(db), read_only=True) as conn:
        assert conn.execute("SELECT count(*), count(DISTINCT id) FROM games").fetchone() == (12, 12)
        stored = conn.execute("SELECT game, result->>'$.state_hash' FROM simulation_results ORDER BY game").fetchall()
    assert stored == sorted((r.game_id, r.state_hash) for r in whole.results())


@pytest.mark.parametrize("family", ["wings-of-glory", "battlefleet-gothic"])
def test_a_sweep_works_for_other_rulesets_through_the_core_interface(family, tmp_path):
    """Outcomes and final scenes are the core interface: any ruleset's pieces are tallied by type."""
    paths = []
    for name in ("first", "second"):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"name": name, "ruleset": family}))
        paths.append(path)
    sweep = sweep_of([load_matchup(path) for path in paths])
    rules = get_ruleset(sweep.matchups[0].ruleset)
    run = simulate_sweep(sweep, rules, games=1, seed=0)
    assert [r.matchup.name for r in run.runs] == ["first", "second"] and run.games == 2
    rows = run.piece_types()
    assert rows and all(row.sides == 2 for row in rows)  # each type fielded by one side in each of the two games
    assert sum(row.wins for row in rows) == sum(
        len({(p.side, p.piece_type) for p in r.pieces if p.side == r.winner}) for r in run.results())
