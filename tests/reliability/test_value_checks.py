"""Issue 16 item 9: values of the right type but out of range are refused where they are written, naming the
file, the line (or entry) and the field. The inputs are files of the malformed corpus
(tests/reliability/malformed/); each test names the value it checks."""

from __future__ import annotations

import pytest

from tests.reliability.test_malformed_corpus import CORPUS, argv_for, run_aero

CHECKS = {
    "a die face of 99 in an export": ("jsonl/dice-face-99.jsonl", "line 5, field 'payload.faces[0]'"),
    "a die face of 10**30 in an export": ("jsonl/dice-face-10e30.jsonl", "line 5, field 'payload.faces[0]'"),
    "a die of 0 sides": ("jsonl/dice-sides-0.jsonl", "field 'payload.sides'"),
    "a roll of -3 dice": ("jsonl/dice-count-negative.jsonl", "field 'payload.count'"),
    "format_version -1": ("jsonl/format-version-negative.jsonl", "line 1, field 'format_version'"),
    "an empty root branch id": ("jsonl/root-branch-empty-id.jsonl", "line 2, field 'id'"),
    "a matchup's last_turn of 0": ("matchups/last-turn-zero.json", "field 'last_turn'"),
    "a matchup's last_turn of -3": ("matchups/last-turn-negative.json", "field 'last_turn'"),
    "a matchup's last_turn of 0, TOML": ("matchups/last-turn-zero.toml", "field 'last_turn'"),
    "a die face of 99 in a record": ("records/dice-face-99.aero", "line 31, column 49"),
    "a die face of 10**30 in a record": ("records/dice-face-10e30.aero", "line 31, column 49"),
    "a die face of 0 in a record": ("records/dice-face-0.aero", "line 31"),
    "a force's points limit of 10**30": ("forces/points-limit-huge.json", "field 'points_limit'"),
    "a variant's points of 10**30": ("variants/aircraft-points-huge.json", "field 'aircraft.dakkajet.points'"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    db = tmp_path_factory.mktemp("values") / "store.duckdb"
    code, _, err = run_aero(["import", str(CORPUS.parents[2] / "examples" / "duel.aero"), "--db", str(db)])
    assert code == 0, err
    return db


@pytest.mark.parametrize("what", CHECKS)
def test_an_out_of_range_value_is_refused_naming_its_place(what, store, tmp_path):
    name, place = CHECKS[what]
    path = CORPUS / name
    argv, _ = argv_for(path, store, tmp_path)
    code, out, err = run_aero(argv)
    assert code == 2, (what, code, out[-300:], err[-300:])
    message = err.strip().splitlines()[-1]
    assert message.startswith(f"aero: error: {path}") and place in message, message
