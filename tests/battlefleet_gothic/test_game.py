"""Whole games: the Cruiser Clash played by bots to a result, replays, the scene, the tools' methods."""

import msgspec
import pytest

from aero_events.bots import RandomBot, play
from aero_events.core import DataError, GameSession, SeededDice, TapeDice
from aero_events.rulesets.battlefleet_gothic import cruiser_clash
from aero_events.rulesets.battlefleet_gothic.bots import BroadsideBot
from aero_events.rulesets.battlefleet_gothic.play import play_seeded_game

from .helpers import RULES


def test_cruiser_clash_fleets_are_checked():
    with pytest.raises(DataError, match="185"):
        cruiser_clash({"imperial": ["dictator"], "chaos": ["murder"]})
    with pytest.raises(DataError, match="same number"):
        cruiser_clash({"imperial": ["lunar", "gothic"], "chaos": ["murder"]})
    with pytest.raises(DataError, match="not a cruiser"):
        cruiser_clash({"imperial": ["sword"], "chaos": ["murder"]})
    setup = cruiser_clash({"imperial": ["lunar", "tyrant"], "chaos": ["murder", "carnage"]}, seed=3)
    assert len(setup.ships) == 4 and setup.last_round == 8


def test_cruiser_clash_played_by_bots_to_a_result():
    session = play_seeded_game(5)
    outcome = RULES.outcome(session.state)
    assert session.is_over() and outcome.finished and outcome.reason
    assert set(outcome.scores) == {"imperial", "chaos"}


def test_a_recorded_game_replays_to_the_same_states():
    session = play_seeded_game(7)
    replay = GameSession(RULES, session.game.setup, dice=TapeDice([]), game_id=session.game_id)
    replay.record(session.events())
    assert replay.state_hash() == session.state_hash()


def test_the_same_seed_gives_the_same_game():
    assert play_seeded_game(11).state_hash() == play_seeded_game(11).state_hash()


def test_broadside_bot_beats_the_random_bot():
    wins = 0
    for seed in range(6):
        bots = {"imperial": BroadsideBot(seed), "chaos": RandomBot(seed)} if seed % 2 else \
            {"imperial": RandomBot(seed), "chaos": BroadsideBot(seed)}
        session = GameSession(RULES, cruiser_clash(seed=seed), dice=SeededDice(seed))
        play(session, bots)
        broadside_side = "imperial" if seed % 2 else "chaos"
        wins += session.state.winner == broadside_side
    assert wins >= 5


def test_scene_draws_bases_arcs_markers_and_lines():
    session = play_seeded_game(2)
    scenes = [RULES.scene(session.state_at(seq)) for seq in range(0, session.seq, 25)]
    assert scenes[0].table.width == 1800.0 and scenes[0].table.height == 1200.0
    assert all(p.footprint.radius == 16.0 for p in scenes[0].pieces)
    assert any(s.lines_of_fire for s in scenes) and any(s.markers for s in scenes)
    focused = RULES.scene(session.state_at(0), None, (), scenes[0].pieces[0].id)
    assert any(t.kind.startswith("fire arc") for t in focused.templates)


def test_every_event_and_command_is_described():
    session = play_seeded_game(3)
    lines = [RULES.describe_event(env.event, session.state_at(env.seq - 1)) for env in session.events()]
    assert any("moves" in line for line in lines) and any("battle ends" in line for line in lines)
    state = session.state_at(10)
    for player in state.players:
        for command in list(RULES.legal_commands(state, player))[:5]:
            assert RULES.describe_command(command, state)


def test_scenarios_and_bots_for_the_tools():
    scenario = RULES.scenarios()["cruiser-clash"]
    setup = scenario.build(scenario.default_options, 4)
    assert setup.players == scenario.players
    assert set(RULES.bots()) == {"random", "broadside"}


def test_sql_views_read_a_stored_game(tmp_path):
    from aero_events.core.registry import register_ruleset
    from aero_events.rulesets.battlefleet_gothic import BattlefleetGothicRules
    from aero_events.store import EventStore

    register_ruleset("battlefleet-gothic/core", BattlefleetGothicRules)
    session = play_seeded_game(22)
    with EventStore(tmp_path / "bfg.duckdb") as store:
        store.save_session(session)
        with store.connection() as con:
            for view in RULES.sql_views():
                con.execute(f"create or replace view {view.name} as {view.sql}")
            damage = con.execute("select sum(amount) from battlefleet_gothic_damage").fetchone()[0]
            ships = con.execute("select count(*) from battlefleet_gothic_piece_stats").fetchone()[0]
    taken = sum(e.event.amount for e in session.events() if type(e.event).__name__ == "DamageTaken")
    assert damage == taken and ships == 4


def test_notation_reads_back_any_continuous_command():
    from aero_events.rulesets.battlefleet_gothic.commands import MoveShip

    notation = RULES.notation()
    command = MoveShip(player="imperial", ship="imperial-1", legs=(13_370, 2_000), turns=(-1234,))
    text = notation.format(None, command)
    assert text == "imperial-1 moves 13.37cm turns 12.34 port 2cm"
    assert notation.parse(None, "imperial", text) == command
    # read by its words for the player who typed them; whether chaos may move imperial-1 is the rules' to say
    assert notation.parse(None, "chaos", text) == msgspec.structs.replace(command, player="chaos")


def test_corpus_plan_scenarios_build_and_coverage_names_rules():
    plan = RULES.corpus()
    for scenario in plan.scenarios:
        setup = scenario.build(RULES)
        assert setup.players == scenario.players
    session = play_seeded_game(1)
    items = plan.coverage(RULES, session.state_at(0), session.events())
    assert {"weapons batteries (p.19-20)", "ending the battle (p.13)"} <= items <= plan.required


def test_a_game_with_the_hit_and_run_reconstruction_is_played_and_replayed():
    """``RuleOptions(hit_and_run=True)``: bots steer boarding torpedoes and board ships; the game replays."""
    from aero_events.rulesets.battlefleet_gothic import BattlefleetGothicRules, RuleOptions

    raids = BattlefleetGothicRules(options=RuleOptions(hit_and_run=True))
    fleets = {"imperial": ["dictator", "lunar"], "chaos": ["devastation", "murder"]}
    session = play_seeded_game(1, options={"fleets": fleets, "points_cap": False}, rules=raids,
                               bots_by_side={"imperial": "random", "chaos": "random"})
    kinds = {type(env.event).__name__ for env in session.events()}
    assert session.is_over() and {"HitAndRunRaid", "TorpedoesSteered"} <= kinds
    replay = GameSession(raids, session.game.setup, dice=TapeDice([]), game_id=session.game_id)
    replay.record(session.events())
    assert replay.state_hash() == session.state_hash()
    lines = [raids.describe_event(env.event, session.state_at(env.seq - 1)) for env in session.events()
             if type(env.event).__name__ in ("HitAndRunRaid", "TorpedoesSteered")]
    assert all(lines)
