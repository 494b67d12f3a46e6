"""The two scenarios played by bots to a result; the better bot beats the random one; replays, views, scenes."""

from __future__ import annotations

import pytest

from aero_events.core import GameSession, SeededDice, TapeDice
from aero_events.core.secrets import RedactedEvent
from aero_events.rulesets.wings_of_glory import WingsOfGloryRules, play_bot_game
from aero_events.rulesets.wings_of_glory.events import CardPlanned, CardRevealed

RULES = WingsOfGloryRules()


@pytest.mark.parametrize("scenario", ["dogfight", "bombing"])
def test_scenarios_are_played_by_bots_to_a_result(scenario):
    session = play_bot_game(scenario, seed=3, rules=RULES)
    outcome = RULES.outcome(session.state)
    assert outcome.finished and outcome.reason
    assert set(outcome.scores) == {"RAF", "Luftwaffe"}
    assert outcome.winner in ("RAF", "Luftwaffe", None)


def test_the_hunter_beats_the_random_bot():
    """Bots: the better bot (seeking firing and tailing positions) beats the random one in seeded games."""
    wins = 0
    games = 0
    for seed in (1, 2, 3):
        for bots, hunter_side in ((("hunter", "random"), "RAF"), (("random", "hunter"), "Luftwaffe")):
            outcome = RULES.outcome(play_bot_game("dogfight", seed=seed, bots=bots, rules=RULES).state)
            games += 1
            wins += outcome.winner == hunter_side
    assert wins >= 5, f"the hunter won {wins} of {games}"


def test_the_random_bot_plans_only_legal_sequences():
    """The random bot never has a card replaced as illegal: legal_commands respects steep spacing and the
    Immelmann prerequisites."""
    session = play_bot_game("dogfight", seed=5, bots=("random", "random"), rules=RULES)
    assert not [env for env in session.events() if env.event.type_name() == "wog.IllegalManoeuvre"]


def test_a_recorded_game_replays_to_the_same_state():
    """Determinism: folding the recorded events (checkpoints verified) reaches the same state hash."""
    session = play_bot_game("bombing", seed=4, rules=RULES)
    replay = GameSession(RULES, session.game.setup, dice=TapeDice([]), game_id=session.game_id)
    replay.record(session.events())
    assert replay.state_hash() == session.state_hash()
    again = play_bot_game("bombing", seed=4, rules=RULES)
    assert again.state_hash() == session.state_hash()


def test_planned_cards_stay_secret_until_revealed():
    """PLANNING and MOVEMENT: the other player sees only commitments until the card is flown."""
    session = play_bot_game("dogfight", seed=2, rules=RULES)
    seen = session.events_for("Luftwaffe")
    raf_plans = [env.event for env in seen if isinstance(env.event, RedactedEvent)
                 and env.event.secret_type == "wog.CardPlanned" and env.event.owner == "RAF"]
    assert raf_plans and all("order" not in e.public for e in raf_plans)
    own = [env.event for env in seen if isinstance(env.event, CardPlanned)]
    assert own and all(e.owner == "Luftwaffe" for e in own)
    assert any(isinstance(env.event, CardRevealed) for env in seen)


def test_the_scene_shows_planes_paths_and_lines_of_fire():
    session = GameSession(RULES, RULES.scenarios()["dogfight"].build({}, 1), dice=SeededDice(1))
    scene = RULES.scene(session.state)
    assert scene.table.width == 900.0 and len(scene.pieces) == 6
    assert all(p.level_label.startswith("altitude") for p in scene.pieces)
    played = play_bot_game("dogfight", seed=2, rules=RULES)
    states = [played.state_at(env.seq) for env in played.events() if env.event.type_name() == "wog.Fired"]
    assert any(RULES.scene(state).lines_of_fire for state in states)
    moved = [played.state_at(env.seq) for env in played.events() if env.event.type_name() == "wog.PlaneMoved"]
    assert RULES.scene(moved[0]).paths


def test_the_bombers_bomb_the_radar_station():
    """The bombing mission played by hunter bots: the Do 17s fly straight over the target and bomb it (LEVEL
    BOMBING), the escorts strafe, the AA guns and troops fire."""
    session = play_bot_game("bombing", seed=2, rules=RULES)
    kinds = [env.event.type_name() for env in session.events()]
    assert "wog.BombDropped" in kinds and "wog.GroundFire" in kinds and "wog.TargetDamaged" in kinds
    assert RULES.outcome(session.state).scores["Luftwaffe"] >= 40


def test_the_convoy_is_attacked_with_a_torpedo():
    """The convoy scenario (SHIPS, TORPEDOS, BARRAGE BALLOONS, PAC) played by hunter bots to a result: ships move
    every turn and the He 111 launches its torpedo at a ship ahead."""
    session = play_bot_game("convoy", seed=1, rules=RULES)
    kinds = [env.event.type_name() for env in session.events()]
    assert RULES.outcome(session.state).finished
    assert "wog.TorpedoLaunched" in kinds and "wog.TorpedoMoved" in kinds and "wog.ShipMoved" in kinds


def test_no_view_ever_shows_another_players_cards_tokens_or_engine():
    """Secrets, proved over a whole game: in every state, a player's view of the other side's planes holds no
    console card, no token face, no damage total, no engine damage and no rudder direction."""
    session = play_bot_game("bombing", seed=2, rules=RULES)
    for env in session.events()[::7]:
        state = session.state_at(env.seq)
        for viewer in ("RAF", "Luftwaffe"):
            view = RULES.view(state, viewer)
            assert all(size["size"] >= 0 and set(size) == {"name", "size"} for size in view["pools"].values())
            for orders in view["orders"]:
                for slot in orders["slots"]:
                    assert slot["owner"] == viewer or slot["revealed"] or slot["order"] is None
            for plane in view["planes"].values():
                if plane["owner"] == viewer:
                    continue
                assert set(plane["tokens"]) <= {"?"} and plane["damage"] == -1 and plane["engine"] == -1
                assert plane["rudder"] in (None, "?")


def test_games_are_stored_verified_and_queried(tmp_path):
    """The store keeps a Wings of Glory game (verify replays it) and the ruleset's SQL views read it."""
    from aero_events.core.registry import register_ruleset
    from aero_events.store import EventStore

    register_ruleset("wings-of-glory/bob-2017", WingsOfGloryRules)
    session = play_bot_game("dogfight", seed=2, rules=RULES)
    with EventStore(tmp_path / "wog.duckdb") as store:
        store.save_session(session)
        assert store.verify(session.game_id).problems == []
        with store.connection() as conn:
            for view in RULES.sql_views():
                conn.execute(f"create or replace view {view.name} as {view.sql}")
            shots = conn.execute("select count(*) from wings_of_glory_shots").fetchone()[0]
            pieces = conn.execute("select count(*) from wings_of_glory_pieces").fetchone()[0]
    fired = sum(1 for env in session.events() if env.event.type_name() == "wog.Fired")
    assert shots == fired > 0 and pieces == 6
