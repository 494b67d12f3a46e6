"""``aero regress``, ``aero corpus`` and ``aero versions`` through ``aero_events.cli.main([...])``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from aero_events.bots import RandomBot, play
from aero_events.cli import COMMAND_MODULES, main
from aero_events.core import GameSession, SeededDice
from aero_events.regress.corpus import MANIFEST, read_manifest
from aero_events.rulesets import get_ruleset
from aero_events.rulesets.aeronautica.deployment import face_off
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.store import EventStore

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def stored_game(db: Path, seed: int = 3) -> str:
    rules = get_ruleset("aeronautica/wov-2019")
    forces = (ForceList(name="Bolts", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),) * 2),
              ForceList(name="Dakkas", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),) * 3))
    session = GameSession(rules, face_off(("imperium", forces[0]), ("orks", forces[1]), rules.catalogue),
                          dice=SeededDice(seed), game_id=f"stored-{seed}")
    play(session, {"imperium": RandomBot(seed), "orks": RandomBot(seed + 1)})
    EventStore(db).save_session(session)
    return session.game_id


def test_the_rules_commands_are_registered():
    assert "aero_events.cli.rules_commands" in COMMAND_MODULES


def test_regress_the_corpus_folder_under_its_own_rules_is_identical(capsys):
    code, out, _ = run(capsys, "regress", "--rules", "wov-2019", str(REPLAYS / "dogfight-2019-seed1.jsonl"),
                       "--expect-identical")
    assert code == 0 and "1 identical" in out and "corpus-dogfight-2019-1" in out


def test_regress_the_corpus_under_faq_2020_reports_each_game(capsys):
    code, out, _ = run(capsys, "regress", "--rules", "faq-2020", str(REPLAYS), "--on-illegal", "bot", "--json")
    assert code == 0
    reports = {report["game_id"]: report for report in json.loads(out)}
    assert set(reports) == {entry.game_id for entry in read_manifest(REPLAYS).games}
    faq_games = [r for r in reports.values() if r["recorded_ruleset"] == "aeronautica/faq-2020"]
    assert faq_games and all(r["identical"] for r in faq_games)
    changed = [r for r in reports.values() if r["recorded_ruleset"] == "aeronautica/wov-2019"]
    assert changed and not any(r["identical"] for r in changed)  # the 2020 points change every one of them
    # The variant's own aircraft are not in faq-2020: that game cannot be re-run there, and says why.
    ground_war = [r for r in reports.values() if r["recorded_ruleset"] == "corpus/ground-war"]
    assert ground_war and all("corpus_flak_emplacement" in r["error"] for r in ground_war)
    code, _, _ = run(capsys, "regress", "--rules", "faq-2020", str(REPLAYS), "--expect-identical", "--json")
    assert code == 1


def test_regress_games_from_the_store_readably(capsys, tmp_path):
    db = tmp_path / "aero.duckdb"
    game_id = stored_game(db)
    code, out, _ = run(capsys, "regress", "--rules", "faq-2020", game_id[:9], "--db", str(db))
    assert code == 0
    assert game_id in out and "re-run under aeronautica/faq-2020" in out
    assert "aeronautica/wov-2019" in out and "imperium-1.points 21 -> 23" in out


def test_regress_under_a_variant_file(capsys, tmp_path):
    variant = tmp_path / "dakka.toml"
    variant.write_text('name = "cli/dakka-3"\nbase = "wov-2019"\n[aircraft.dakkajet]\nstructure = 3\n')
    db = tmp_path / "aero.duckdb"
    game_id = stored_game(db, seed=5)
    code, out, _ = run(capsys, "regress", "--rules", str(variant), game_id, "--db", str(db), "--json")
    assert code == 0
    assert json.loads(out)[0]["ruleset"] == "cli/dakka-3"


def test_regress_errors_are_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "regress", "--rules", "faq-2031", str(REPLAYS))
    assert code == 2 and err.startswith("aero: error: unknown ruleset 'faq-2031'")
    code, _, err = run(capsys, "regress", "--rules", "faq-2020", "no-such-game", "--db", str(tmp_path / "x.duckdb"))
    assert code == 2 and "give --db PATH" in err


def test_corpus_check_replays_the_corpus(capsys):
    code, out, _ = run(capsys, "corpus", "--check", "--out", str(REPLAYS))
    games = len(read_manifest(REPLAYS).games)
    assert code == 0 and f"{games} of {games} corpus games replay identically" in out


def test_corpus_check_names_the_first_changed_event(capsys, tmp_path):
    folder = tmp_path / "replays"
    shutil.copytree(REPLAYS, folder)
    entry = read_manifest(folder).games[1]
    path = folder / entry.file
    lines = path.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"type":"ai.ThrottleSet"' in line)
    record = json.loads(lines[index])
    record["payload"]["change"] += 1  # as if the rules now made another choice of it
    record["payload"]["speed"] += 1
    lines[index] = json.dumps(record, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "corpus", "--check", "--out", str(folder))
    assert code == 1 and entry.file in out
    assert f"seq {record['seq']}" in out or "state hash" in out


def test_corpus_generation_writes_games_and_a_manifest(capsys, tmp_path):
    code, out, _ = run(capsys, "corpus", "--out", str(tmp_path), "--max-seeds", "1")
    manifest = read_manifest(tmp_path)
    assert (tmp_path / MANIFEST).exists() and len(manifest.games) == 5  # seed 1 of each of the 5 scenarios
    assert all((tmp_path / game.file).exists() for game in manifest.games)
    assert code == (1 if manifest.missing else 0) and "wrote 5 games" in out


def test_versions_lists_the_versions_and_a_loaded_variant(capsys, tmp_path):
    variant = tmp_path / "v.json"
    variant.write_text(json.dumps({"base": "faq-2020", "name": "cli/listed", "options": {"occupied_hex_hits": 2}}))
    code, out, _ = run(capsys, "versions", "--rules", str(variant))
    assert code == 0
    assert "aeronautica/wov-2019" in out and "aeronautica/faq-2020" in out and "cli/listed" in out
    assert "thunderbolt: points=23" in out and "occupied_hex_hits=2" in out
