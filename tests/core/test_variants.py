"""Generic rule-option variants (core/interface.py ``VariantDefinition``): a ruleset that declares its options
type gets variant files, variants stored in a game's metadata and rebuilt from it, and its options listed.

The three rulesets wired to it (Battlefleet Gothic, Wings of Glory, Million-Colored Sun) each have an example
variant in ``examples/variants/`` changing one option that players read differently; a game played under it
(``aero demo --ruleset FILE``) is stored, and a fresh process rebuilds the variant from the game alone and
replays, verifies and re-decides the game under it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from aero_events.bots import make_bot, play
from aero_events.cli.common import ruleset_named
from aero_events.core import DataError, interface, state_hash
from aero_events.core.interface import VariantDefinition, describe_options, forget_variant
from aero_events.core.registry import get_ruleset, known_families, ruleset_for_game
from aero_events.demo import demo_plan, demo_session
from aero_events.rulesets.battlefleet_gothic import BattlefleetGothicRules
from aero_events.rulesets.battlefleet_gothic import RuleOptions as BfgOptions

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ROOT / "examples" / "variants"

#: (example file, its base, a demo seed whose game the option changes, the option, its value in the file)
EXAMPLES = [
    ("battlefleet-gothic-brace-any-time.toml", "battlefleet-gothic/core", 2, "brace_timing", "any_time"),
    ("wings-of-glory-low-speed.toml", "wings-of-glory/bob-2017", 1, "speed_variant", "low"),
    ("million-colored-sun-stand-height.json", "million-colored-sun/2018", 1, "stand_height", True),
    ("whfb-flying-swoop-minus-two.toml", "whfb-flying/alternate", 3, "swoop_stand_and_shoot_modifier", -2),
]

#: Run in a fresh interpreter: the stored game's ruleset as the registry rebuilds it from the game alone, its
#: final state hash replayed from the store, its verify report, and its commands re-decided (regress) under
#: its own rebuilt ruleset and under the base ruleset.
RELOAD = """
import json, sys
import msgspec
from aero_events.core.registry import get_ruleset
from aero_events.regress import from_store, rerun
from aero_events.store import EventStore

db, game_id, base = sys.argv[1:4]
with EventStore(db) as store:
    rules = store.ruleset(game_id)
    game = from_store(store, game_id)
    report = {"name": rules.name, "options": msgspec.to_builtins(rules.options),
              "hash": store.state_hash(game_id), "verified": store.verify(game_id).ok,
              "identical_under_own": rerun(game, game.own_rules()).identical,
              "identical_under_base": rerun(game, get_ruleset(base)).identical}
print(json.dumps(report))
"""


@pytest.fixture(autouse=True)
def forget_the_variants_a_test_registers():
    before = set(interface._VARIANTS)
    yield
    for name in set(interface._VARIANTS) - before:
        forget_variant(name)


def played(rules, seed: int) -> str:
    """The final state hash of the ruleset's demo game of ``seed`` (what ``aero demo`` plays)."""
    session = demo_session(seed, None, rules)
    _, _, bots = demo_plan(rules)
    players = tuple(rules.players(session.state))
    play(session, {player: make_bot(rules, bot, f"{seed}:{player}")
                   for player, bot in zip(players, bots, strict=True)})
    return state_hash(session.state)


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, *argv], check=False, cwd=cwd, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


@pytest.mark.parametrize(("file", "base", "seed", "option", "value"), EXAMPLES)
def test_a_game_played_under_a_variant_replays_and_regresses_under_it_in_a_fresh_process(
        tmp_path, file, base, seed, option, value):
    """``aero demo --ruleset FILE`` stores the game under the variant's name with its definition; a fresh
    process rebuilds the variant from the game's metadata alone (no file), reaches the same final state,
    verifies it, and re-decides every recorded command identically under it, while the base ruleset's
    defaults would not (the option changes this game)."""
    path = VARIANTS / file
    rules = ruleset_named(str(path))
    expected = played(rules, seed)
    assert played(get_ruleset(base), seed) != expected, f"seed {seed} must be a game that {option} changes"

    db = tmp_path / "variant.duckdb"
    demo = run("-m", "aero_events.cli", "demo", "--ruleset", str(path), "--seed", str(seed), "--db", str(db),
               cwd=tmp_path)
    assert "verify: ok" in demo.stdout
    report = json.loads(run("-c", RELOAD, str(db), f"demo-{seed}", base, cwd=tmp_path).stdout)

    assert report["name"] == rules.name != base
    assert report["options"][option] == value
    assert report["options"] == msgspec.to_builtins(rules.options)
    assert report["hash"] == expected
    assert report["verified"] and report["identical_under_own"]
    assert not report["identical_under_base"]


@pytest.mark.parametrize(("file", "base", "seed", "option", "value"), EXAMPLES)
def test_a_variant_keeps_its_definition_in_the_game_metadata(file, base, seed, option, value):
    """The metadata key is Aeronautica's, ``variant``: the definition with its base and the options it
    changes; the registry's ``ruleset_for_game`` rebuilds the ruleset from it."""
    rules = ruleset_named(str(VARIANTS / file))
    variant = rules.game_metadata()["variant"]
    assert variant["base"] == base and variant["options"] == {option: value}
    rebuilt = ruleset_for_game(rules.name, {"variant": variant})
    assert rebuilt.name == rules.name and rebuilt.options == rules.options
    assert type(rebuilt) is type(get_ruleset(base))


@pytest.mark.parametrize("base", [base for _, base, _, _, _ in EXAMPLES])
def test_a_ruleset_under_its_default_options_keeps_nothing_in_the_metadata(base):
    """A game played under the package's own ruleset is stored exactly as before: no variant."""
    rules = get_ruleset(base)
    assert rules.game_metadata() == {} and rules.variant is None
    assert rules.options == rules.options_type()


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def refusal(path: str) -> DataError:
    with pytest.raises(DataError) as caught:
        ruleset_named(path)
    assert caught.value.source == path
    return caught.value


def test_an_unknown_option_is_refused_naming_file_field_and_the_options(tmp_path):
    path = write(tmp_path, "bad.toml", 'name = "my/bad"\nbase = "battlefleet-gothic/core"\n'
                                       '[options]\nbrace_timming = "any_time"\n')
    err = refusal(path)
    assert err.field == "options.brace_timming"
    assert "unknown rule option 'brace_timming'" in str(err) and "brace_timing" in err.detail


def test_a_value_outside_the_allowed_ones_is_refused_naming_them(tmp_path):
    path = write(tmp_path, "bad.json", json.dumps({"name": "my/bad", "base": "wings-of-glory/bob-2017",
                                                   "options": {"speed_variant": "medium"}}))
    err = refusal(path)
    assert err.field == "options.speed_variant"
    assert "'medium'" in err.detail and '"high"' in err.detail and '"low"' in err.detail


def test_a_value_of_the_wrong_type_is_refused(tmp_path):
    path = write(tmp_path, "bad.toml", 'name = "my/bad"\nbase = "million-colored-sun/2018"\n'
                                       '[options]\nstand_height = "yes"\n')
    err = refusal(path)
    assert err.field == "options.stand_height" and "bool" in err.detail


def test_a_number_out_of_its_bounds_is_refused(tmp_path):
    path = write(tmp_path, "bad.toml", 'name = "my/bad"\nbase = "million-colored-sun/2018"\n'
                                       '[options]\nbomb_step = 0\n')
    err = refusal(path)
    assert err.field == "options.bomb_step" and "> 0" in err.detail


@pytest.mark.parametrize("text", ['name = "my/bad"\n[options]\nbrace_timing = "any_time"\n',
                                  '{"name": "my/bad", "options": {"brace_timing": "any_time"}}'])
def test_a_variant_without_a_base_is_refused(tmp_path, text):
    """Whichever family reads it first (Aeronautica's own variant reader, the generic one) names the field."""
    path = write(tmp_path, "bad." + ("json" if text.startswith("{") else "toml"), text)
    err = refusal(path)
    assert err.field == "base"
    with pytest.raises(DataError) as caught:
        BattlefleetGothicRules.variant_from_file(path)
    assert caught.value.field == "base" and caught.value.source == path


def test_an_unknown_base_is_refused_listing_the_rulesets(tmp_path):
    path = write(tmp_path, "bad.toml", 'name = "my/bad"\nbase = "battlefleet-gothic/2nd"\n')
    err = refusal(path)
    assert err.field == "base" and "battlefleet-gothic/core" in err.detail


def test_an_unknown_field_and_a_package_name_are_refused(tmp_path):
    unknown = write(tmp_path, "a.json", json.dumps({"name": "my/a", "base": "battlefleet-gothic/core",
                                                    "option": {"hit_and_run": True}}))
    with pytest.raises(DataError) as caught:
        BattlefleetGothicRules.variant_from_file(unknown)
    assert caught.value.field == "option"
    taken = write(tmp_path, "b.toml",
                  'name = "million-colored-sun/2018"\nbase = "million-colored-sun/2018"\n')
    assert refusal(taken).field == "name"


def test_a_syntax_error_names_the_file_and_line(tmp_path):
    path = write(tmp_path, "bad.json",
                 '{"name": "my/bad",\n "base": "battlefleet-gothic/core",\n "options": {,}}')
    err = refusal(path)
    assert err.location == 3


def test_a_family_does_not_read_another_familys_variant(tmp_path):
    """A file based on Wings of Glory is not a Battlefleet Gothic variant: its reader declines it."""
    path = str(VARIANTS / "wings-of-glory-low-speed.toml")
    assert BattlefleetGothicRules.variant_from_file(path) is None
    assert ruleset_named(path).name == "club/wog-low-speed"


def test_a_variant_of_a_variant_is_stored_flat_on_the_package_ruleset(tmp_path):
    """Based on another variant, a definition is kept with the package ruleset at its root and both sets of
    changes, so that the game's metadata alone rebuilds it in a process that never saw the first file."""
    ruleset_named(str(VARIANTS / "battlefleet-gothic-brace-any-time.toml"))
    path = write(tmp_path, "v2.toml", 'name = "my/bfg-any-time-raids"\nbase = "club/bfg-brace-any-time"\n'
                                      '[options]\nhit_and_run = true\n')
    rules = ruleset_named(path)
    assert rules.options == BfgOptions(brace_timing="any_time", hit_and_run=True)
    assert rules.game_metadata()["variant"] == {
        "name": "my/bfg-any-time-raids", "base": "battlefleet-gothic/core", "description": "",
        "options": {"brace_timing": "any_time", "hit_and_run": True}}


def test_an_edited_variant_does_not_replay_a_game_stored_under_its_first_definition(tmp_path):
    """A variant file loaded again with other options replaces the name in this process; a game stored under
    the first definition is rebuilt from its own metadata, not played under the edited one."""
    first = ruleset_named(write(tmp_path, "v.toml", 'name = "my/edited"\nbase = "battlefleet-gothic/core"\n'
                                                    '[options]\nhulk_rolls = "per_hit"\n'))
    stored = first.game_metadata()
    ruleset_named(write(tmp_path, "v.toml", 'name = "my/edited"\nbase = "battlefleet-gothic/core"\n'
                                            '[options]\nbrace_test = "command_check"\n'))
    assert get_ruleset("my/edited").options.brace_test == "command_check"
    rebuilt = ruleset_for_game("my/edited", stored)
    assert rebuilt.options == BfgOptions(hulk_rolls="per_hit")
    assert get_ruleset("my/edited").options == BfgOptions(brace_test="command_check")


def test_each_option_is_listed_with_its_default_and_allowed_values():
    """``rule_options`` (and ``versions``, which ``aero versions`` prints) list every field of the options
    type: the value played, the default, the allowed values, and the field's description."""
    rules = ruleset_named(str(VARIANTS / "battlefleet-gothic-brace-any-time.toml"))
    listed = {option.name: option for option in rules.rule_options()}
    assert set(listed) == set(BfgOptions.__struct_fields__)
    timing = listed["brace_timing"]
    assert (timing.value, timing.default) == ("any_time", "reaction")
    assert set(timing.allowed) == {"reaction", "any_time"}
    assert "p.12" in timing.description
    assert timing.line().startswith('brace_timing = "any_time" (default "reaction"; one of ')
    (version,) = rules.versions()
    assert version.based_on == "battlefleet-gothic/core"
    assert version.changes == ('option brace_timing="any_time"',)
    assert {option.name for option in version.options} == set(listed)
    listed_by_base = {version.name for version in get_ruleset("battlefleet-gothic/core").versions()}
    assert {"battlefleet-gothic/core", "club/bfg-brace-any-time"} <= listed_by_base


def test_every_option_of_the_three_rulesets_is_described():
    for base in ("battlefleet-gothic/core", "wings-of-glory/bob-2017", "million-colored-sun/2018"):
        for option in describe_options(get_ruleset(base).options_type):
            assert option.description, f"{base}: option {option.name} has no description"


def test_the_definition_refuses_unknown_fields():
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"name": "x", "base": "y", "extra": 1}, VariantDefinition)


def test_a_variant_is_a_version_of_its_base_family_not_a_family():
    """``aero versions`` lists a family's versions once: the variant under its base's family."""
    ruleset_named(str(VARIANTS / "battlefleet-gothic-brace-any-time.toml"))
    assert get_ruleset("club/bfg-brace-any-time").options.brace_timing == "any_time"
    assert "club/bfg-brace-any-time" not in known_families().values()
    assert known_families()["battlefleet-gothic"] == "battlefleet-gothic/core"


def test_aero_versions_and_aero_rulesets_list_the_options(capsys):
    """``aero versions --rules FILE`` shows the variant with the option it changes, then every option of each
    ruleset with its default and values; ``aero rulesets --json`` gives them per ruleset."""
    from aero_events.cli import main

    assert main(["versions", "--rules", str(VARIANTS / "wings-of-glory-low-speed.toml")]) == 0
    out = capsys.readouterr().out
    assert "club/wog-low-speed" in out and 'option speed_variant="low"' in out
    assert 'speed_variant = "high" (one of "high", "low")' in out
    assert 'brace_timing = "reaction" (one of "reaction", "any_time")' in out
    assert main(["rulesets", "--json"]) == 0
    listed = {entry["name"]: entry for entry in json.loads(capsys.readouterr().out)}
    options = {option["name"]: option for option in listed["million-colored-sun/2018"]["options"]}
    assert options["rear_arc_degrees"]["default"] == 90 and options["rear_arc_degrees"]["allowed"] == [90, 180]
