"""Writes the malformed-input corpus under tests/reliability/malformed/ (issue 16): one folder per kind of
input, each file one way of breaking it, and a README per folder saying what each file breaks.

The files are kept in the repository (the test reads them, it does not build them); this script is how they
were made and how to remake them after a format change: ``python -m tests.reliability.make_malformed``.
Valid bases: ``examples/duel.aero``, ``examples/forces/*.json``, ``examples/variant.json`` and the JSON
Lines export of ``examples/duel.aero``.

Kinds and how tests/reliability/test_malformed_corpus.py feeds them to ``aero``:

* ``jsonl/``: ``aero import FILE``
* ``records/``: ``aero import FILE`` (``.aero`` records)
* ``forces/``: ``aero record --forces FILE examples/forces/nafgurz.json`` (Aeronautica force lists, JSON and
  BattleScribe ``.ros``); the other rulesets take their forces (fleets, warbands) as scenario options of a
  matchup: those are in ``matchups/`` (``bfg-``, ``mcs-``, ``whfb-``, ``wog-``)
* ``matchups/``: ``aero simulate --matchup FILE --games 1``
* ``variants/``: ``aero regress --rules FILE example-duel``
* ``rulesets/`` and ``ids/``: each file is a JSON object ``{"argv": [...], "names": "..."}``: the arguments
  (``{db}`` and ``{game}`` filled in) and a text the refusal must contain
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "malformed"
DEEP = "[" * 20_000 + "]" * 20_000
DEEP_OBJECT = '{"a":' * 5_000 + "1" + "}" * 5_000
HUGE = 2**70


def _write(kind: str, name: str, content: bytes | str, what: str, table: dict[str, list[tuple[str, str]]]) -> None:
    folder = CORPUS / kind
    folder.mkdir(parents=True, exist_ok=True)
    data = content.encode() if isinstance(content, str) else content
    (folder / name).write_bytes(data)
    table.setdefault(kind, []).append((name, what))


# ---------------------------------------------------------------------------------------------- JSON Lines


def _export_lines() -> list[str]:
    from aero_events.store import EventStore

    with tempfile.TemporaryDirectory() as folder:
        store = EventStore(Path(folder) / "source.duckdb")
        from aero_events.record.transfer import import_record

        game = import_record(store, ROOT / "examples" / "duel.aero")
        store.export_jsonl(game, Path(folder) / "duel.jsonl")
        return (Path(folder) / "duel.jsonl").read_text().splitlines()


def _set(lines: list[str], number: int, key: str, raw: str, *, payload: bool = False) -> str:
    data = json.loads(lines[number - 1])
    target = data["payload"] if payload else data
    target[key] = "__VALUE__"
    text = json.dumps(data, separators=(",", ":")).replace('"__VALUE__"', raw)
    return "\n".join([*lines[: number - 1], text, *lines[number:]]) + "\n"


def _line_of(lines: list[str], needle: str) -> int:
    return next(number for number, text in enumerate(lines, start=1) if needle in text)


def jsonl_cases(table) -> None:
    lines = _export_lines()
    joined = "\n".join(lines) + "\n"
    dice = _line_of(lines, '"type":"DiceRolled"')
    first_event = _line_of(lines, '"seq":1,')
    cases = [
        ("empty.jsonl", "", "an empty file"),
        ("not-json.jsonl", "hello\n" + "\n".join(lines[1:]) + "\n", "line 1 is not JSON"),
        ("header-array.jsonl", "[1,2,3]\n" + "\n".join(lines[1:]) + "\n", "the header is an array"),
        ("header-deep.jsonl", DEEP + "\n" + "\n".join(lines[1:]) + "\n", "the header nested 20,000 deep"),
        ("format-version-negative.jsonl", _set(lines, 1, "format_version", "-1"), "format_version -1"),
        ("format-version-huge.jsonl", _set(lines, 1, "format_version", str(HUGE)), "format_version 2**70"),
        ("branch-count-negative.jsonl", _set(lines, 1, "branch_count", "-3"), "branch_count -3"),
        ("game-id-empty.jsonl", _set(lines, 1, "game_id", '""'), "an empty game id"),
        ("game-id-escape.jsonl", _set(lines, 1, "game_id", '"\\u001b[31mred"'), "a terminal escape in the game id"),
        ("game-id-markup.jsonl", _set(lines, 1, "game_id", '"[link=http://x]y"'), "rich markup in the game id"),
        ("ruleset-unknown.jsonl", _set(lines, 1, "ruleset", '"no/such-ruleset"'), "a ruleset that does not exist"),
        ("ruleset-version-unknown.jsonl", _set(lines, 1, "ruleset", '"aeronautica/wov-1999"'),
         "a version of Aeronautica that does not exist"),
        ("root-branch-empty-id.jsonl", _set(lines, 2, "id", '""'), "an empty root branch id"),
        ("branch-label-escape.jsonl", _set(lines, 2, "label", '"\\u001b]0;pwned\\u0007"'),
         "a terminal title escape in a branch label"),
        ("head-hash-null.jsonl", _set(lines, 2, "head_hash", "null"), "a branch's head hash set to null"),
        ("turn-huge.jsonl", _set(lines, first_event, "turn", str(HUGE)), "an event's turn 2**70"),
        ("payload-deep.jsonl", _set(lines, first_event, "payload", DEEP), "an event's payload nested 20,000 deep"),
        ("dice-face-99.jsonl", _set(lines, dice, "faces", "[99]", payload=True), "a die face of 99"),
        ("dice-face-10e30.jsonl", _set(lines, dice, "faces", f"[{10**30}]", payload=True), "a die face of 10**30"),
        ("dice-sides-0.jsonl", _set(lines, dice, "sides", "0", payload=True), "a die of 0 sides"),
        ("dice-count-negative.jsonl", _set(lines, dice, "count", "-3", payload=True), "a roll of -3 dice"),
        ("checkpoints-stripped.jsonl",
         "\n".join(line for line in lines if '"type":"StateCheckpoint"' not in line) + "\n",
         "every StateCheckpoint removed"),
        ("line-cut.jsonl", "\n".join([*lines[:5], lines[5][: len(lines[5]) // 2], *lines[6:]]) + "\n",
         "line 6 cut in half"),
        ("not-utf8.jsonl", joined.encode()[:200] + b"\xff\xfe" + joined.encode()[200:], "bytes that are not UTF-8"),
        ("byte-order-mark.jsonl", b"\xef\xbb\xbf" + joined.encode(), "a byte-order mark before the header"),
    ]
    for name, content, what in cases:
        _write("jsonl", name, content, what, table)


# ---------------------------------------------------------------------------------------------- records


def record_cases(table) -> None:
    duel = (ROOT / "examples" / "duel.aero").read_text()

    def header(name: str, value: str | None) -> str:
        pattern = re.compile(rf'^\[{name} "[^"]*"\]\n', re.MULTILINE)
        return pattern.sub("" if value is None else f'[{name} "{value}"]\n', duel, count=1)

    def replace(old: str, new: str) -> str:
        assert old in duel, old
        return duel.replace(old, new, 1)

    nested = "imperium-1 fire " + "(" * 500 + "imperium-1 fire" + ")" * 500
    cases = [
        ("empty.aero", "", "an empty file"),
        ("ruleset-number.aero", header("Ruleset", "42"), "a ruleset that is a number"),
        ("ruleset-unknown.aero", header("Ruleset", "no/such-ruleset"), "a ruleset that does not exist"),
        ("ruleset-version-unknown.aero", header("Ruleset", "aeronautica/wov-1999"), "an unknown version"),
        ("ruleset-empty.aero", header("Ruleset", ""), "an empty ruleset name"),
        ("game-id-empty.aero", header("GameId", ""), "an empty game id"),
        ("game-id-markup.aero", header("GameId", "[/]"), "rich markup as the game id"),
        ("game-id-escape.aero", header("GameId", "\x1b[2Jgone"), "a terminal escape in the game id"),
        ("game-id-nul.aero", header("GameId", "a\x00b"), "a NUL byte in the game id"),
        ("header-unclosed.aero", replace('[Event "Club night: a duel over the Veil"]', '[Event "Club night'),
         "a header whose quote and bracket never close"),
        ("players-one.aero", header("Players", "imperium"), "one player named"),
        ("points-negative.aero", header("Points", "-5"), "a points value of -5"),
        ("points-huge.aero", header("Points", str(10**30)), "a points value of 10**30"),
        ("board-unknown.aero", header("Board", "9x9"), "a board that is not 3x3, 4x4 or 8x4"),
        ("forces-garbled.aero", header("Forces", "imperium=Red One(imperial_navy: thunderbolt"),
         "a [Forces] header that does not parse"),
        ("forces-unknown-aircraft.aero",
         header("Forces", "imperium=Red One(imperial_navy): x_wing; orks=Nafgurz(ork_air_waaagh): dakkajet"),
         "an aircraft that is not in the Squadron Lists"),
        ("dice-face-99.aero", replace("[hit 4,6]", "[hit 99,6]"), "a die face of 99"),
        ("dice-face-10e30.aero", replace("[hit 4,6]", f"[hit {10**30},6]"), "a die face of 10**30"),
        ("dice-face-0.aero", replace("[dmg 4]", "[dmg 0]"), "a die face of 0"),
        ("dice-too-many.aero", replace("[hit 4,6]", "[hit 4,6,6,6,6]"), "more dice than the roll has"),
        ("rolloff-letters.aero", replace("[rolloff 3]", "[rolloff three]"), "a die face in words"),
        ("turn-huge.aero", replace("\n2. imperium-1 M6", f"\n{HUGE}. imperium-1 M6"), "turn number 2**70"),
        ("unknown-aircraft.aero", replace("imperium-1 M1", "imperium-9 M1"), "an aircraft the game does not have"),
        ("illegal-manoeuvre.aero", replace("imperium-1 M1", "imperium-1 M99"), "a Manoeuvre token that does not exist"),
        ("placement-off-board.aero", replace("imperium-1 @10,10N S4 A3", "imperium-1 @99,99N S4 A3"),
         "an aircraft placed off the board"),
        ("speed-huge.aero", replace("imperium-1 @10,10N S4 A3", f"imperium-1 @10,10N S{HUGE} A3"),
         "a Speed of 2**70"),
        ("variations-500-deep.aero", replace("   imperium pass\n", f"   {nested}\n   imperium pass\n"),
         "500 nested variations"),
        ("variation-unclosed.aero", replace("(hold-fire: {", "(hold-fire: (((  {"), "variations never closed"),
        ("comment-unclosed.aero", replace("{first blood: 4 and 6 to hit}", "{first blood: 4 and 6 to hit"),
         "a comment that never closes"),
        ("not-utf8.aero", duel.encode().replace(b"Club night", b"Club \xff\xfe night", 1), "bytes that are not UTF-8"),
        ("garbage-step.aero", replace("   imperium pass\n", "   imperium pass\n   %%%% ~~~~ &&&&\n"),
         "a step that is no notation at all"),
        ("result-bogus.aero", header("Result", "martians"), "a result naming no player"),
    ]
    for name, content, what in cases:
        _write("records", name, content, what, table)


# ---------------------------------------------------------------------------------------------- forces


def force_cases(table) -> None:
    base = json.loads((ROOT / "examples" / "forces" / "nafgurz.json").read_text())
    base["aircraft"][0]["name"] = "Grotsnik"  # the other force (nafgurz.json) names its Dakkajet Nafgurz

    def changed(**fields) -> str:
        data = json.loads(json.dumps(base))
        data.update(fields)
        return json.dumps(data)

    def entry(**fields) -> str:
        data = json.loads(json.dumps(base))
        data["aircraft"][0].update(fields)
        return json.dumps(data)

    without = {key: value for key, value in base.items() if key != "aircraft"}
    cases = [
        ("empty.json", "", "an empty file"),
        ("not-json.json", "{name: nafgurz}", "not JSON"),
        ("array.json", "[1, 2]", "a list, not a force"),
        ("deep.json", DEEP, "nested 20,000 deep"),
        ("deep-object.json", DEEP_OBJECT, "an object nested 5,000 deep"),
        ("no-aircraft.json", json.dumps(without), "no 'aircraft'"),
        ("aircraft-empty.json", changed(aircraft=[]), "no aircraft at all"),
        ("aircraft-object.json", changed(aircraft={"dakkajet": 1}), "'aircraft' an object"),
        ("aircraft-null-entry.json", changed(aircraft=[None]), "an aircraft entry that is null"),
        ("faction-unknown.json", changed(faction="martians"), "a faction with no Squadron List"),
        ("faction-number.json", changed(faction=7), "a faction that is a number"),
        ("points-limit-negative.json", changed(points_limit=-1), "a points limit of -1"),
        ("points-limit-text.json", changed(points_limit="fifty"), "a points limit in words"),
        ("points-limit-huge.json", changed(points_limit=10**30), "a points limit of 10**30"),
        ("name-number.json", changed(name=5), "a name that is a number"),
        ("unknown-field.json", changed(colour="red"), "a field forces do not have"),
        ("entry-unknown-aircraft.json", entry(aircraft="x_wing"), "an aircraft not in the list"),
        ("entry-aircraft-missing.json", changed(aircraft=[{"weapons": []}]), "an entry without its aircraft"),
        ("entry-weapons-text.json", entry(weapons="rokkits"), "weapons as one string"),
        ("entry-weapon-unknown.json", entry(weapons=["lascannon"]), "a weapon the aircraft cannot take"),
        ("entry-too-many-weapons.json", entry(weapons=["rokkits"] * 9), "nine additional weapons"),
        ("entry-upgrade-twice.json", entry(upgrades=["fly_boss", "fly_boss"]), "the same upgrade twice"),
        ("entry-three-upgrades.json", entry(upgrades=["fly_boss", "big_bomb", "extra_armour"]), "three upgrades"),
        ("entry-upgrade-unknown.json", entry(upgrades=["warp_drive"]), "an upgrade that does not exist"),
        ("entry-unknown-field.json", entry(wings=4), "a field an entry does not have"),
        ("over-points.json", changed(points_limit=25), "a force over its points limit"),
        ("not-utf8.json", b'{"name": "\xff\xfe", "faction": "ork_air_waaagh", "aircraft": []}',
         "bytes that are not UTF-8"),
        ("roster-not-xml.ros", "<roster><forces><force", "a BattleScribe roster that is not XML"),
        ("roster-empty.ros", "", "an empty BattleScribe roster"),
        ("roster-wrong-root.ros", '<?xml version="1.0"?><catalogue name="x"/>', "XML that is not a roster"),
        ("roster-not-zip.rosz", "this is not a zip file", "a .rosz that is not a zip archive"),
    ]
    for name, content, what in cases:
        _write("forces", name, content, what, table)


# ---------------------------------------------------------------------------------------------- matchups


def matchup_cases(table) -> None:
    forces = [json.loads((ROOT / "examples" / "forces" / name).read_text())
              for name in ("veil-squadron.json", "nafgurz.json")]
    base = {"name": "m", "ruleset": "aeronautica", "scenario": "face-off", "players": ["imperium", "orks"],
            "forces": forces, "board": "3x3", "last_turn": 8}

    def changed(**fields) -> str:
        data = {**base, **fields}
        return json.dumps({key: value for key, value in data.items() if value is not ...})

    def other(ruleset: str, scenario: str, **options) -> str:
        return json.dumps({"name": "m", "ruleset": ruleset, "scenario": scenario, **options})

    cases = [
        ("empty.json", "", "an empty file"),
        ("not-json.json", "{name = 'm'}", "not JSON"),
        ("not-toml.toml", "name = 'm\nruleset = [", "not TOML"),
        ("array.json", "[]", "a list, not a matchup"),
        ("deep.json", DEEP, "nested 20,000 deep"),
        ("deep-option.json", json.dumps(base)[:-1] + ', "weather": ' + DEEP_OBJECT + "}", "an option nested 5,000 deep"),
        ("no-name.json", changed(name=...), "no 'name'"),
        ("name-number.json", changed(name=3), "a name that is a number"),
        ("ruleset-unknown.json", changed(ruleset="no/such-ruleset"), "a ruleset that does not exist"),
        ("ruleset-number.json", changed(ruleset=7), "a ruleset that is a number"),
        ("scenario-unknown.json", changed(scenario="invasion"), "a scenario the ruleset does not have"),
        ("players-one.json", changed(players=["imperium"]), "one player"),
        ("players-same.json", changed(players=["imperium", "imperium"]), "both players with one name"),
        ("players-numbers.json", changed(players=[1, 2]), "players that are numbers"),
        ("forces-one.json", changed(forces=forces[:1]), "one force"),
        ("forces-missing-file.json", changed(forces=["no-such-force.json", forces[1]]),
         "a force file that does not exist"),
        ("forces-bad-file.json", changed(forces=["../forces/entry-weapons-text.json", forces[1]]),
         "a force file with a malformed entry"),
        ("forces-bad-inline.json", changed(forces=[{"name": "x", "faction": "imperial_navy", "aircraft": "many"},
                                                    forces[1]]), "an inline force whose aircraft is a string"),
        ("board-unknown.json", changed(board="9x9"), "a board that does not exist"),
        ("last-turn-zero.json", changed(last_turn=0), "last_turn 0"),
        ("last-turn-negative.json", changed(last_turn=-3), "last_turn -3"),
        ("last-turn-text.json", changed(last_turn="12"), "last_turn as text"),
        ("last-turn-huge.json", changed(last_turn=HUGE), "last_turn 2**70"),
        ("last-turn-zero.toml", ('name = "m"\nruleset = "aeronautica"\nscenario = "face-off"\n'
                                'forces = ["../../../../examples/forces/veil-squadron.json", '
                                '"../../../../examples/forces/nafgurz.json"]\nlast_turn = 0\n'), "last_turn 0, TOML"),
        ("points-negative.json", changed(scenario="dogfight", points=-5), "a points value of -5"),
        ("weather-unknown.json", changed(weather="acid rain"), "weather that does not exist"),
        ("unknown-option.json", changed(colour="red"), "an option the scenario does not have"),
        ("bfg-fleets-unknown-ship.json", other("battlefleet-gothic/core", "cruiser-clash",
                                               fleets={"imperial": ["death_star"], "chaos": ["murder"]}),
         "Battlefleet Gothic: a ship class that does not exist"),
        ("bfg-fleets-list.json", other("battlefleet-gothic/core", "cruiser-clash", fleets=["lunar", "murder"]),
         "Battlefleet Gothic: fleets as a list"),
        ("bfg-fleets-empty.json", other("battlefleet-gothic/core", "cruiser-clash",
                                        fleets={"imperial": [], "chaos": ["murder"]}),
         "Battlefleet Gothic: a fleet with no ship"),
        ("bfg-fleets-too-big.json", other("battlefleet-gothic/core", "cruiser-clash",
                                          fleets={"imperial": ["lunar"] * 9, "chaos": ["murder"]}),
         "Battlefleet Gothic: nine cruisers (1-4, at most 185 points)"),
        ("bfg-fleets-wrong-side.json", other("battlefleet-gothic/core", "cruiser-clash",
                                             fleets={"orks": ["lunar"], "chaos": ["murder"]}),
         "Battlefleet Gothic: a fleet for a side that is not playing"),
        ("mcs-battleplan-unknown.json", other("million-colored-sun/2018", "skyfire", battleplan="moonfire"),
         "Million-Colored Sun: a battleplan that does not exist"),
        ("mcs-battleplan-number.json", other("million-colored-sun/2018", "skyfire", battleplan=3),
         "Million-Colored Sun: a battleplan that is a number"),
        ("whfb-range-method-unknown.json", other("whfb-flying/alternate", "pitched_battle", range_method="guess"),
         "WHFB flying: a range method that does not exist"),
        ("whfb-scenario-option-unknown.json", other("whfb-flying/alternate", "pitched_battle",
                                                    scenario_option=1, range_method=[1]),
         "WHFB flying: a range method that is a list"),
        ("wog-scenario-unknown.json", other("wings-of-glory/bob-2017", "battle-of-midway"),
         "Wings of Glory: a scenario that does not exist"),
        ("wog-players-three.json", json.dumps({"name": "m", "ruleset": "wings-of-glory/bob-2017",
                                               "scenario": "dogfight", "players": ["RAF", "Luftwaffe", "USAAF"]}),
         "Wings of Glory: three players"),
    ]
    for name, content, what in cases:
        _write("matchups", name, content, what, table)


# ---------------------------------------------------------------------------------------------- variants


def variant_cases(table) -> None:
    base = json.loads((ROOT / "examples" / "variant.json").read_text())

    def changed(**fields) -> str:
        data = {**base, **fields}
        return json.dumps({key: value for key, value in data.items() if value is not ...})

    cases = [
        ("empty.json", "", "an empty file"),
        ("not-json.json", "{name: x}", "not JSON"),
        ("not-toml.toml", 'name = "x\nbase = [', "not TOML"),
        ("array.json", "[1]", "a list, not a variant"),
        ("deep.json", DEEP, "nested 20,000 deep"),
        ("deep-options.json", json.dumps({"name": "club/deep", "base": "aeronautica/wov-2019"})[:-1]
         + ', "options": ' + DEEP_OBJECT + "}", "options nested 5,000 deep"),
        ("no-name.json", changed(name=...), "no 'name'"),
        ("name-empty.json", changed(name=""), "an empty name"),
        ("name-escape.json", changed(name="club/\u001b[31mred"), "a terminal escape in the name"),
        ("name-number.json", changed(name=12), "a name that is a number"),
        ("base-unknown.json", changed(base="aeronautica/wov-1999"), "a base version that does not exist"),
        ("base-other-family.json", changed(base="battlefleet-gothic/core"), "a base of another game"),
        ("base-number.json", changed(base=2019), "a base that is a number"),
        ("aircraft-unknown.json", changed(aircraft={"x_wing": {"structure": 3}}), "an aircraft that does not exist"),
        ("aircraft-structure-negative.json", changed(aircraft={"dakkajet": {"structure": -1}}), "Structure -1"),
        ("aircraft-structure-text.json", changed(aircraft={"dakkajet": {"structure": "3"}}), "Structure as text"),
        ("aircraft-points-huge.json", changed(aircraft={"dakkajet": {"points": 10**30}}), "points 10**30"),
        ("aircraft-field-unknown.json", changed(aircraft={"dakkajet": {"warp": 1}}), "a field aircraft do not have"),
        ("weapon-unknown.json", changed(weapons={"death_ray": {"range": 3}}), "a weapon that does not exist"),
        ("option-unknown.json", changed(options={"gravity": 2}), "an option the rules do not have"),
        ("option-out-of-range.json", changed(options={"air_to_air_to_hit": 9}), "to hit on 9+ with a D6"),
        ("option-wrong-type.json", changed(options={"air_to_air_to_hit": "four"}), "an option in words"),
        ("notes-text.json", changed(notes="one note"), "notes as one string"),
        ("unknown-field.json", changed(colour="red"), "a field variants do not have"),
        ("structure-text.toml", ('name = "club/t"\nbase = "aeronautica/wov-2019"\n[aircraft.dakkajet]\n'
                                'structure = "three"\n'), "Structure as text, TOML"),
        ("option-unknown.toml", 'name = "club/t"\nbase = "aeronautica/wov-2019"\n[options]\ngravity = 2\n',
         "an unknown option, TOML"),
    ]
    for name, content, what in cases:
        _write("variants", name, content, what, table)


# ---------------------------------------------------------------------------------------------- arguments


def argument_cases(table) -> None:
    rulesets = [
        ("demo-unknown", ["demo", "--ruleset", "no-such-game", "--db", "{db}"], "no-such-game", "demo"),
        ("demo-empty", ["demo", "--ruleset", "", "--db", "{db}"], "ruleset", "demo, an empty name"),
        ("demo-version-unknown", ["demo", "--ruleset", "aeronautica/wov-1999", "--db", "{db}"], "wov-1999",
         "demo, a version that does not exist"),
        ("demo-family-slash", ["demo", "--ruleset", "aeronautica/", "--db", "{db}"], "aeronautica/",
         "demo, a family and a slash"),
        ("demo-path", ["demo", "--ruleset", "../../etc/passwd", "--db", "{db}"], "passwd", "demo, a path"),
        ("demo-escape", ["demo", "--ruleset", "\x1b[2Jx", "--db", "{db}"], "ruleset", "demo, a terminal escape"),
        ("regress-unknown", ["regress", "--rules", "no/such", "{game}", "--db", "{db}"], "no/such", "regress"),
        ("regress-missing-variant", ["regress", "--rules", "missing-variant.toml", "{game}", "--db", "{db}"],
         "missing-variant.toml", "regress, a variant file that does not exist"),
        ("simulate-rules-unknown", ["simulate", "--matchup", "{matchup}", "--games", "1", "--rules", "wov-1999",
                                    "--db", "{db}", "--no-progress"], "wov-1999", "simulate, an unknown version"),
        ("simulate-rules-other-family", ["simulate", "--matchup", "{matchup}", "--games", "1", "--rules",
                                         "battlefleet-gothic/core", "--db", "{db}", "--no-progress"],
         "battlefleet-gothic", "simulate, a matchup of Aeronautica under Battlefleet Gothic"),
        ("record-unknown", ["record", "--ruleset", "no-such-game", "--db", "{db}"], "no-such-game", "record"),
        ("compare-unknown", ["compare", "--matchup", "{matchup}", "--games", "1", "--rules", "wov-2019",
                             "no/such"], "no/such", "compare, an unknown version"),
    ]
    for name, argv, names, what in rulesets:
        _write("rulesets", f"{name}.json", json.dumps({"argv": argv, "names": names}), what, table)
    ids = [
        ("branch-name-empty", ["branch", "{game}", "--at", "3", "--name", ""], "name", "an empty branch name"),
        ("branch-name-newline", ["branch", "{game}", "--at", "3", "--name", "a\nb"], "name", "a newline"),
        ("branch-name-nul", ["branch", "{game}", "--at", "3", "--name", "a\x00b"], "name", "a NUL byte"),
        ("branch-name-huge", ["branch", "{game}", "--at", "3", "--name", "{megabyte}"], "name", "a 1 MB name"),
        ("branch-name-markup", ["branch", "{game}", "--at", "3", "--name", "[/]"], "name", "rich markup"),
        ("branch-name-link", ["branch", "{game}", "--at", "3", "--name", "[link=file:///etc/passwd]x"], "name",
         "a rich link"),
        ("branch-name-escape", ["branch", "{game}", "--at", "3", "--name", "\x1b[31mred"], "name",
         "a terminal escape"),
        ("branch-name-main", ["branch", "{game}", "--at", "3", "--name", "main"], "main",
         "a branch name already taken"),
        ("branch-label-escape", ["branch", "{game}", "--at", "3", "--name", "ok", "--label", "\x1b]0;pwned\x07"],
         "label", "a terminal title escape in a label"),
        ("branch-label-huge", ["branch", "{game}", "--at", "3", "--name", "ok", "--label", "{megabyte}"],
         "label", "a 1 MB label"),
        ("branch-from-ghost", ["branch", "{game}", "--at", "3", "--name", "ok", "--from", "ghost"], "ghost",
         "forking a branch that does not exist"),
        ("branch-at-negative", ["branch", "{game}", "--at", "-1", "--name", "ok"], "-1", "forking at event -1"),
        ("branch-at-huge", ["branch", "{game}", "--at", str(HUGE), "--name", "ok"], str(HUGE),
         "forking at event 2**70"),
        ("show-game-escape", ["show", "\x1b[2Jgone"], "game", "showing a game id with a terminal escape"),
        ("show-game-empty", ["show", ""], "game", "showing an empty game id"),
        ("export-game-ghost", ["export", "ghost-game", "{tmp}/out.jsonl"], "ghost-game", "exporting no game"),
        ("record-game-newline", ["record", "--game", "a\nb", "--forces", "{forces}", "{forces2}", "--points", "50",
                                 "--board", "3x3"], "game", "recording under a game id with a newline"),
        ("record-game-markup", ["record", "--game", "[link=http://x]y", "--forces", "{forces}", "{forces2}",
                                "--points", "50", "--board", "3x3"], "game", "recording under a game id of markup"),
        ("record-resume-ghost", ["record", "--resume", "ghost-game"], "ghost-game", "resuming no game"),
        ("record-resume-branch-ghost", ["record", "--resume", "{game}", "--branch", "ghost"], "ghost",
         "resuming a branch that does not exist"),
        ("games-delete-empty", ["games", "--delete", ""], "prefix", "deleting by an empty prefix"),
    ]
    for name, argv, names, what in ids:
        if argv[0] not in ("export",):
            argv = [*argv, "--db", "{db}"]
        else:
            argv = [*argv, "--db", "{db}"]
        _write("ids", f"{name}.json", json.dumps({"argv": argv, "names": names}), what, table)


def _readmes(table: dict[str, list[tuple[str, str]]]) -> None:
    intro = {
        "jsonl": "JSON Lines exports (`aero import FILE`), each the export of examples/duel.aero broken one way.",
        "records": "`.aero` records (`aero import FILE`), each examples/duel.aero broken one way.",
        "forces": "Aeronautica force lists (`aero record --forces FILE ...`): JSON, and BattleScribe rosters. "
                  "The other rulesets' forces are scenario options of a matchup: see ../matchups (bfg-, mcs-, "
                  "whfb-, wog-).",
        "matchups": "Matchup files (`aero simulate --matchup FILE --games 1`), JSON and TOML.",
        "variants": "Variant files (`aero regress --rules FILE example-duel`), JSON and TOML.",
        "rulesets": "Ruleset names and versions given on the command line: each file is {argv, names}: the "
                    "arguments, and a text the refusal must contain.",
        "ids": "Game ids, branch names and labels given on the command line: each file is {argv, names}.",
    }
    lines = ["# The malformed-input corpus (issue 16)", "",
             ("Every file here must be refused by `aero` with exit code 2, a one-line message naming the file and "
             "the line, entry or field (or, for arguments, the value at fault), no traceback, and the database "
             "unchanged. `tests/reliability/test_malformed_corpus.py` checks it; "
             "`python -m tests.reliability.make_malformed` rewrites these files."), ""]
    for kind, rows in table.items():
        section = ["| file | what it breaks |", "|---|---|", *(f"| `{name}` | {what} |" for name, what in rows)]
        lines += [f"## {kind}/", "", intro[kind], "", *section, ""]
        (CORPUS / kind / "README.md").write_text("\n".join([f"# {kind}/", "", intro[kind], "", *section, ""]))
    (CORPUS / "README.md").write_text("\n".join(lines))


def main() -> None:
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    table: dict[str, list[tuple[str, str]]] = {}
    jsonl_cases(table)
    record_cases(table)
    force_cases(table)
    matchup_cases(table)
    variant_cases(table)
    argument_cases(table)
    _readmes(table)
    print(sum(len(rows) for rows in table.values()), "files")


if __name__ == "__main__":
    main()
