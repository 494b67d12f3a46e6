"""Battles played by bots, the tools' view of them (scene, narration, outcome), determinism."""

from __future__ import annotations

import functools

import msgspec

from aero_events.core import state_hash
from aero_events.rulesets.whfb_flying import commands as cmd
from aero_events.rulesets.whfb_flying.play import play_seeded_game

from .helpers import RULES, battle, decide, unit


@functools.cache
def game(seed=3, north="general", south="general"):
    return play_seeded_game(seed, bots_by_side={"north": north, "south": south})


def test_a_seeded_battle_between_bots_is_played_to_a_result():
    session = game()
    outcome = RULES.outcome(session.state)
    assert session.is_over() and outcome.finished and outcome.reason
    assert outcome.draw or outcome.winner in ("north", "south")
    assert sum(outcome.scores.values()) > 0


def test_the_same_seed_plays_the_same_battle():
    again = play_seeded_game(3)
    first = [msgspec.json.encode(e.event) for e in game().events()]
    assert [msgspec.json.encode(e.event) for e in again.events()] == first


def test_the_recorded_events_fold_back_to_the_final_state():
    session = game()
    state = RULES.fold(session.state_at(0), [e.event for e in session.events()])
    assert state_hash(state) == state_hash(session.state)


def test_the_general_beats_the_random_bot():
    """The better bot wins most seeded games against the random bot, on either side."""
    wins = 0
    for seed in range(4):
        general_side = "north" if seed % 2 == 0 else "south"
        sides = {"north": "random", "south": "random", general_side: "general"}
        outcome = RULES.outcome(game(seed, sides["north"], sides["south"]).state)
        wins += outcome.winner == general_side
    assert wins >= 3


def test_narration_tells_every_event_and_command():
    session = game()
    lines = list(RULES.narrate(session.events(), session.state_at(0)))
    assert lines[-1].startswith("The battle ends")
    assert any("Take Off" in line or "take off" in line for line in lines)
    state = session.state_at(0)
    for command in RULES.legal_commands(state, "north")[:20]:
        assert RULES.describe_command(command, state)


def test_the_scene_draws_ranked_footprints_units_in_the_air_and_the_swoop_path():
    state = battle([unit("n-fly", "pegasus_knights", 3, 14, 16, 90), unit("n-idle", "spearmen", 10, 44, 2)],
                   [unit("s-sp", "spearmen", 20, 24, 18)], air=("n-fly",))
    _, state = decide(state, cmd.Swoop(player="north", unit="n-fly", target="s-sp", flank="left"))
    _, state = decide(state, cmd.React(player="south", choice="hold"), [6])
    scene = RULES.scene(state)
    spears = next(p for p in scene.pieces if p.id == "s-sp")
    assert (spears.footprint.width, spears.footprint.length) == (100.0, 80.0) and spears.detail.endswith("5x4")
    contact = [p for p in scene.paths if p.label == "swoop"]
    assert contact and len(contact[0].points) == 2
    flown = _swoop_scene_after_exit(state)  # after the blows: one path in to the flank and out beyond the far one
    assert len(flown.points) == 3 and flown.points[2][0] > flown.points[1][0] + 100.0


def _swoop_scene_after_exit(state):
    from aero_events.core import DiceCup, SeededDice
    from aero_events.rulesets.whfb_flying.combat import fight_all
    from aero_events.rulesets.whfb_flying.turn import Emitter

    out = Emitter(state, RULES.evolve)
    fight_all(RULES, out, DiceCup(SeededDice(5)))
    return next(p for p in RULES.scene(out.state).paths if p.label == "swoop")


def test_the_demo_battle_is_stored_and_verified(tmp_path, monkeypatch):
    """`aero demo --ruleset whfb-flying`: played by bots to a result, stored, verified, narrated (the ruleset is
    registered for this test only; the coordinator registers it in pyproject.toml)."""
    from aero_events.core import registry
    from aero_events.demo import run_demo
    from aero_events.rulesets.whfb_flying import WhfbFlyingRules

    monkeypatch.setitem(registry._factories, "whfb-flying/alternate", WhfbFlyingRules)
    lines: list[str] = []
    run_demo(str(tmp_path / "demo.duckdb"), seed=7, ruleset=WhfbFlyingRules(), say=lines.append)
    assert any(line.startswith("The battle ends") for line in lines)
    assert any(line.endswith("verify: ok") for line in lines)
    import duckdb

    with duckdb.connect(str(tmp_path / "demo.duckdb"), read_only=True) as con:
        moves = {row[0] for row in con.execute("SELECT move FROM whfb_flights").fetchall()}
        kinds = {row[0] for row in con.execute("SELECT kind FROM whfb_charges").fetchall()}
    assert "vanguard take off" in moves and kinds
