"""Simulation at scale (aero_events/sim): the same seeds give the same games in this process, across local
processes and on a local Dask cluster; games stored in DuckDB (batches) or Parquet shards; matchup files."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from aero_events.core import DataError
from aero_events.rulesets import get_ruleset
from aero_events.sim import SimulationError, compare_runs, game_seed, load_matchup, simulate
from aero_events.sim.matchup import bot_classes, parse_bots
from aero_events.store import EventStore

MATCHUP = {
    "name": "bolts-vs-dakkas",
    "players": ["imperium", "orks"],
    "forces": [
        {"name": "Bolts", "faction": "imperial_navy", "aircraft": [{"aircraft": "thunderbolt"}] * 2},
        {"name": "Dakkas", "faction": "ork_air_waaagh", "aircraft": [{"aircraft": "dakkajet"}] * 3},
    ],
    "board": "3x3",
}


@pytest.fixture
def matchup_file(tmp_path: Path) -> Path:
    path = tmp_path / "matchup.json"
    path.write_text(json.dumps(MATCHUP))
    return path


@pytest.fixture
def matchup(matchup_file):
    return load_matchup(matchup_file)


def test_game_seeds_depend_only_on_the_run_seed_and_the_index():
    assert game_seed(5, 3) == game_seed(5, 3)
    assert len({game_seed(5, i) for i in range(100)}) == 100
    assert game_seed(5, 3) != game_seed(6, 3)


def test_results_do_not_depend_on_chunks_or_processes(matchup):
    rules = get_ruleset("aeronautica/wov-2019")
    alone = simulate(matchup, rules, games=24, seed=11)
    chunked = simulate(matchup, rules, games=24, seed=11, chunk=7)
    pooled = simulate(matchup, rules, games=24, seed=11, workers=2, chunk=5)
    assert alone.results == chunked.results == pooled.results
    assert [r.index for r in alone.results] == list(range(24))
    assert pooled.backend == "processes" and alone.backend == "local"
    assert all(r.finished for r in alone.results)


def test_a_local_dask_cluster_gives_the_same_results_as_local_processes(matchup):
    rules = get_ruleset("aeronautica/faq-2020")
    processes = simulate(matchup, rules, games=16, seed=3, workers=2, chunk=4)
    fanned_out = simulate(matchup, rules, games=16, seed=3, dask="local", chunk=4)
    assert fanned_out.backend == "dask" and fanned_out.workers == 2
    assert fanned_out.results == processes.results


def test_win_rates_come_with_wilson_intervals(matchup):
    run = simulate(matchup, get_ruleset("aeronautica/wov-2019"), games=30, seed=2)
    summaries = run.player_summaries()
    assert sum(s.wins for s in summaries) + run.draws == 30
    for s in summaries:
        assert s.win_rate == s.wins / 30
        assert s.interval[0] <= s.win_rate <= s.interval[1]
        assert s.mean_score == sum(r.scores[s.player] for r in run.results) / 30  # Victory points (p.32)
        assert s.mean_statistics["aircraft lost"] == sum(
            r.statistics["aircraft lost"][s.player] for r in run.results) / 30


def test_games_stored_in_duckdb_are_listed_verified_and_replayable(matchup, tmp_path):
    db = tmp_path / "sim.duckdb"
    run = simulate(matchup, get_ruleset("aeronautica/faq-2020"), games=12, seed=4, workers=2, db=db, chunk=5)
    store = EventStore(db)
    games = store.games()
    assert sorted(g.id for g in games) == [r.game_id for r in run.results]
    assert all(g.ruleset == "aeronautica/faq-2020" for g in games)
    assert {g.id: g.events for g in games} == {r.game_id: r.events for r in run.results}
    first = run.results[0]
    assert store.verify(first.game_id).ok
    assert store.state_hash(first.game_id) == first.state_hash
    record = store.game(first.game_id)
    assert "faq-2020" in record.data_version and json.loads(record.metadata)["seed"] == first.seed
    with pytest.raises(SimulationError, match="already in"):
        simulate(matchup, get_ruleset("aeronautica/faq-2020"), games=2, seed=4, db=db)


def test_parquet_shards_are_written_per_worker_and_queried_in_place(matchup, tmp_path):
    folder = tmp_path / "shards"
    run = simulate(matchup, get_ruleset("aeronautica/wov-2019"), games=15, seed=9, workers=2, parquet=folder,
                   chunk=5)
    assert len(run.shards) == 6  # three chunks, an events and a games shard each
    events, games = duckdb.sql(f"SELECT count(*), count(DISTINCT game) FROM '{folder}/*.events.parquet'").fetchall()[0]
    assert games == 15 and events == sum(r.events for r in run.results)
    winners = dict(duckdb.sql(f"SELECT game, winner FROM '{folder}/*.games.parquet'").fetchall())
    assert winners == {r.game_id: r.winner for r in run.results}
    rulesets = duckdb.sql(f"SELECT DISTINCT ruleset FROM '{folder}/*.events.parquet'").fetchall()
    assert rulesets == [("aeronautica/wov-2019",)]


def test_a_variant_plays_and_its_games_carry_its_definition(matchup, tmp_path):
    from aero_events.rulesets.aeronautica.versions import load_variant

    path = tmp_path / "tough.json"
    path.write_text(json.dumps({"base": "wov-2019", "name": "test/tough-dakkas",
                                "aircraft": {"dakkajet": {"structure": 4}}}))
    db = tmp_path / "variant.duckdb"
    run = simulate(matchup, load_variant(path), games=4, seed=1, workers=2, db=db, chunk=2)
    record = EventStore(db).game(run.results[0].game_id)
    assert record.ruleset == "test/tough-dakkas"
    assert json.loads(record.metadata)["variant"]["aircraft"] == {"dakkajet": {"structure": 4}}


def test_comparing_a_version_with_itself_finds_nothing_and_with_2020_points_finds_vp(matchup):
    base = simulate(matchup, get_ruleset("aeronautica/wov-2019"), games=150, seed=1)
    same = compare_runs(base, simulate(matchup, get_ruleset("aeronautica/wov-2019"), games=150, seed=1))
    assert same.significant == [] and all(m.test.p_value == 1.0 for m in same.metrics)
    faq = compare_runs(base, simulate(matchup, get_ruleset("aeronautica/faq-2020"), games=150, seed=1))
    significant = {m.metric for m in faq.significant}
    # Orks score a Thunderbolt's points: 21 -> 23 each; the imperium's Points Difference grows as well.
    assert "orks mean VP" in significant
    assert all(0 <= m.test.p_value <= 1 for m in faq.metrics)


def test_matchup_files_are_validated(tmp_path):
    bad = dict(MATCHUP, forces=[MATCHUP["forces"][0]])
    path = tmp_path / "one-force.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(DataError, match="exactly two forces") as refused:
        load_matchup(path)
    assert refused.value.field == "forces"
    path.write_text(json.dumps(dict(MATCHUP, board=3)))
    with pytest.raises(DataError, match="Expected `str`") as refused:
        load_matchup(path)
    assert refused.value.field == "board" and refused.value.source == str(path)
    path.write_text(json.dumps(dict(MATCHUP, scenario="siege")))
    with pytest.raises(DataError, match="face-off, dogfight"):
        load_matchup(path)


def test_forces_may_be_files_beside_the_matchup_and_toml_works(tmp_path):
    (tmp_path / "bolts.json").write_text(json.dumps(MATCHUP["forces"][0]))
    (tmp_path / "m.toml").write_text('name = "toml-match"\nforces = ["bolts.json", "bolts.json"]\n'
                                     'players = ["a", "b"]\nscenario = "dogfight"\npoints = 50\n')
    matchup = load_matchup(tmp_path / "m.toml")
    assert matchup.options["forces"][0]["name"] == "Bolts" and matchup.scenario == "dogfight"
    assert matchup.players == ("a", "b") and matchup.ruleset == "aeronautica/wov-2019"
    run = simulate(matchup, get_ruleset("aeronautica/wov-2019"), games=2, seed=1)
    assert all(r.finished for r in run.results)


def test_bots_are_found_by_name():
    assert {"random", "greedy"} <= set(bot_classes(get_ruleset("aeronautica")))
    assert parse_bots("greedy,random") == ("greedy", "random") and parse_bots("random") == ("random", "random")
    with pytest.raises(KeyError, match="known bots"):
        parse_bots("clever,random")
