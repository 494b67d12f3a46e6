"""What Million-Colored Sun says to players and analysts: battle round 1 announced like the later ones, and the
piece views (``mcs_pieces``, ``mcs_piece_stats``) that :mod:`aero_events.analysis.many_games` reads."""

from __future__ import annotations

import duckdb
import msgspec
import pytest

from aero_events.rulesets.million_colored_sun import MillionColoredSunRules, play_seeded_game
from aero_events.rulesets.million_colored_sun.data import Deployment
from aero_events.rulesets.million_colored_sun.setup import GameSetup
from aero_events.rulesets.million_colored_sun.views import sql_views

RULES = MillionColoredSunRules()


@pytest.mark.parametrize("seed", [1, 7])
def test_battle_round_one_is_announced_once_before_anything_happens(seed):
    game = play_seeded_game(seed, bots_by_side={"azure": "ace", "crimson": "random"})
    lines = "\n".join(RULES.narrate(game.events(), game.state_at(0))).splitlines()
    first = game.state_at(0).first
    assert lines[0] == f"Battle round 1 begins; {first} takes the first turn."
    assert sum(line.startswith("Battle round 1 begins") for line in lines) == 1
    assert any(line.startswith("Battle round 2 begins") for line in lines)


def test_a_slice_of_narration_from_a_later_state_announces_nothing():
    game = play_seeded_game(1, bots_by_side={"azure": "ace", "crimson": "random"})
    later = list(RULES.narrate(game.events()[5:], game.state_at(5)))
    assert not any("Battle round 1" in line for line in later)


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory):
    from aero_events.demo import run_demo

    db = str(tmp_path_factory.mktemp("mcs") / "mcs.duckdb")
    game_id = run_demo(db, seed=3, say=lambda line: None, ruleset=MillionColoredSunRules())
    return db, game_id


def test_a_stored_demo_game_has_pieces_and_piece_stats(demo_db):
    db, game_id = demo_db
    with duckdb.connect(db, read_only=True) as conn:
        pieces = conn.execute("SELECT side, piece, piece_type FROM mcs_pieces WHERE game = ?", [game_id]).fetchall()
        stats = conn.execute("SELECT piece, shots, hits, damage_dealt, damage_taken, destroyed FROM mcs_piece_stats "
                             "WHERE game = ? AND branch = 'main'", [game_id]).fetchall()
    plan = RULES.data.battleplans["skyfire"]
    assert sorted(piece for _, piece, _ in pieces) == sorted(model.id for model in plan.models)
    assert ("azure", "azure-fighter", "Skyblade Fighter") in pieces
    assert len(stats) == len(pieces) and sum(row[1] for row in stats) > 0 and sum(row[4] for row in stats) > 0


def test_forces_given_in_the_setup_replace_the_battleplans_own():
    setup = GameSetup(models=(Deployment(id="ace", side="azure", warscroll="fighter", x=0, y=0, heading=0),))
    with duckdb.connect() as conn:
        conn.execute("CREATE TABLE games (id VARCHAR, ruleset VARCHAR, setup JSON)")
        conn.execute("INSERT INTO games VALUES ('custom', 'million-colored-sun/2018', ?), "
                     "('planned', 'million-colored-sun/2018', ?), ('other', 'whfb-flying/8e', ?)",
                     [msgspec.json.encode(setup).decode(), msgspec.json.encode(GameSetup()).decode(), "{}"])
        pieces = next(view for view in sql_views() if view.name == "mcs_pieces")
        rows = conn.execute(f"SELECT game, side, piece, piece_type FROM ({pieces.sql}) ORDER BY game, piece").fetchall()
    warscroll = RULES.data.warscrolls["fighter"].name
    assert [row for row in rows if row[0] == "custom"] == [("custom", "azure", "ace", warscroll)]
    assert len([row for row in rows if row[0] == "planned"]) == len(RULES.data.battleplans["skyfire"].models)
    assert not [row for row in rows if row[0] == "other"]


def test_one_attack_hit_and_wound_are_singular():
    from aero_events.rulesets.million_colored_sun.events import AttacksMade

    made = AttacksMade(model="a", weapon="Long Rifle", target="b", attacks=1, hits=1, wounds=1, unsaved=1, inflicted=1)
    assert RULES.describe_event(made) == \
        "a attacks b with Long Rifle: 1 attack, 1 hit, 1 wounding hit, 1 unsaved, 1 wound inflicted."
    made = AttacksMade(model="a", weapon="Flak Battery", target="b", attacks=3, hits=3, wounds=2, unsaved=2,
                       inflicted=5)
    assert RULES.describe_event(made).endswith(": 3 attacks, 3 hits, 2 wounding hits, 2 unsaved, 5 wounds inflicted.")
