"""The golden corpus in replays/: every game replays identically under its own ruleset.

A failure names the first event that changed (seq, turn, phase, what was recorded, what happens now). If
the change is meant (a rule fixed or added), regenerate the corpus with ``aero corpus --write --out replays/``
and read ``git diff replays/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aero_events.regress.corpus import (
    CREATED,
    MANIFEST,
    SCENARIOS,
    as_committed,
    check_game,
    coverage,
    play_scenario,
    read_manifest,
    required_coverage,
)
from aero_events.regress.jsonl import write_game_jsonl
from aero_events.regress.recorded import from_jsonl

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
ENTRIES = read_manifest(REPLAYS).games if (REPLAYS / MANIFEST).exists() else ()
#: Never an empty parameter set (pytest would skip): without a corpus the tests fail, naming what to run.
PARAMETERS = ENTRIES or (None,)
IDS = [entry.file if entry else "no-corpus" for entry in PARAMETERS]


def corpus_entry(entry):
    assert entry is not None, "replays/ holds no corpus: run aero corpus --out replays/"
    return entry


def test_the_corpus_and_its_manifest_are_there():
    assert (REPLAYS / MANIFEST).exists(), "replays/MANIFEST.json is missing: run aero corpus --out replays/"
    assert ENTRIES
    listed = {entry.file for entry in ENTRIES}
    assert listed == {path.name for path in REPLAYS.glob("*.jsonl")}


@pytest.mark.parametrize("entry", PARAMETERS, ids=IDS)
def test_each_corpus_game_replays_identically_under_its_own_ruleset(entry):
    entry = corpus_entry(entry)
    game = check_game(REPLAYS, entry)
    assert game.ruleset == entry.ruleset and game.game_id == entry.game_id


def test_the_corpus_covers_every_aircraft_weapon_rule_and_end_phase_outcome():
    manifest = read_manifest(REPLAYS)
    assert manifest.missing == ()
    assert set(manifest.coverage) == set(required_coverage())
    for item, files in manifest.coverage.items():
        assert files, item


@pytest.mark.parametrize("entry", PARAMETERS, ids=IDS)
def test_what_the_manifest_says_a_game_covers_is_in_its_events(entry):
    entry = corpus_entry(entry)
    game = from_jsonl(REPLAYS / entry.file)
    rules = game.own_rules()
    items = coverage(rules, rules.initial_state(game.setup(rules)), game.envelopes)
    assert set(entry.covers) == items & required_coverage()


def test_every_ruleset_version_and_scenario_is_in_the_corpus():
    manifest = read_manifest(REPLAYS)
    assert {game.scenario for game in manifest.games} == {scenario.name for scenario in SCENARIOS}
    assert {"aeronautica/wov-2019", "aeronautica/faq-2020", "corpus/ground-war"} <= {g.ruleset for g in manifest.games}


def test_regenerating_a_corpus_game_from_its_seed_gives_the_same_bytes(tmp_path):
    entry = corpus_entry(min(ENTRIES, key=lambda e: e.events, default=None))
    scenario = next(s for s in SCENARIOS if s.name == entry.scenario)
    session = play_scenario(scenario, entry.seed)
    write_game_jsonl(session.game, tmp_path / entry.file, created=CREATED)
    committed = (REPLAYS / entry.file).read_bytes()
    # Files committed before games declared their seed-derived salts lack the key, not the salts (issue 16).
    assert as_committed((tmp_path / entry.file).read_bytes(), committed) == committed
