"""What the WHFB flying rules say to players and analysts: every command in words (no class names such as
"EndPhase"), and the piece views (``whfb_pieces``, ``whfb_piece_stats``) that
:mod:`aero_events.analysis.many_games` reads."""

from __future__ import annotations

import duckdb
import msgspec
import pytest

from aero_events.rulesets.whfb_flying import WhfbFlyingRules
from aero_events.rulesets.whfb_flying.commands import EndPhase, EndVanguard
from aero_events.rulesets.whfb_flying.setup import GameSetup
from aero_events.rulesets.whfb_flying.state import COMBAT, SHOOTING
from aero_events.rulesets.whfb_flying.views import sql_views

from .helpers import RULES, battle, unit


def test_ending_the_vanguard_moves_and_a_phase_are_said_in_words():
    assert RULES.describe_command(EndVanguard(player="north")) == "north: end the Vanguard moves"
    assert RULES.describe_command(EndPhase(player="north"), battle(phase=SHOOTING)) == \
        "north: end the Shooting phase"
    assert RULES.describe_command(EndPhase(player="north"), battle(phase=COMBAT)) == \
        "north: end the Close Combat phase"
    assert RULES.describe_command(EndPhase(player="south")) == "south: end this phase"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory):
    from aero_events.demo import run_demo

    db = str(tmp_path_factory.mktemp("whfb") / "whfb.duckdb")
    game_id = run_demo(db, seed=7, say=lambda line: None, ruleset=WhfbFlyingRules())
    return db, game_id


def test_a_stored_demo_game_has_pieces_and_piece_stats(demo_db):
    db, game_id = demo_db
    with duckdb.connect(db, read_only=True) as conn:
        pieces = conn.execute("SELECT side, piece, piece_type FROM whfb_pieces WHERE game = ?", [game_id]).fetchall()
        stats = conn.execute("SELECT piece, shots, hits, damage_dealt, damage_taken, destroyed FROM whfb_piece_stats "
                             "WHERE game = ? AND branch = 'main'", [game_id]).fetchall()
    forces = RULES.data.scenarios["pitched_battle"].forces
    assert sorted(piece for _, piece, _ in pieces) == sorted(u.id for units in forces.values() for u in units)
    assert all(piece_type == RULES.data.units[u.profile].name for units in forces.values() for u in units
               for _, piece, piece_type in pieces if piece == u.id)
    assert len(stats) == len(pieces) and sum(row[1] for row in stats) > 0 and sum(row[4] for row in stats) > 0


def test_forces_given_in_the_setup_replace_the_scenarios_own():
    setup = GameSetup(forces={"north": (unit("hero", "pegasus_captain", 1, 10, 10),),
                              "south": (unit("flock", "harpies", 5, 30, 30), unit("line", "spearmen", 20, 20, 30))})
    with duckdb.connect() as conn:
        conn.execute("CREATE TABLE games (id VARCHAR, ruleset VARCHAR, setup JSON)")
        conn.execute("INSERT INTO games VALUES ('custom', 'whfb-flying/8e', ?), ('planned', 'whfb-flying/8e', ?)",
                     [msgspec.json.encode(setup).decode(), msgspec.json.encode(GameSetup()).decode()])
        pieces = next(view for view in sql_views() if view.name == "whfb_pieces")
        rows = conn.execute(f"SELECT game, side, piece, piece_type FROM ({pieces.sql}) ORDER BY game, piece").fetchall()
    names = RULES.data.units
    assert [row for row in rows if row[0] == "custom"] == [
        ("custom", "south", "flock", names["harpies"].name), ("custom", "north", "hero", names["pegasus_captain"].name),
        ("custom", "south", "line", names["spearmen"].name)]
    forces = RULES.data.scenarios["pitched_battle"].forces
    assert len([row for row in rows if row[0] == "planned"]) == sum(len(units) for units in forces.values())
