"""Damage a ruleset's view cannot know (Wings of Glory's tokens are drawn face down, so its
``wings_of_glory_piece_stats.damage_dealt`` is NULL) stays unknown in the summary by piece type, rather than
being counted as no damage at all."""

from __future__ import annotations

from aero_events.analysis import piece_type_summary
from aero_events.bots import make_bot, play
from aero_events.demo import demo_plan, demo_session
from aero_events.rulesets import get_ruleset
from aero_events.store import EventStore
from tests.viz.games import bot_session


def test_unknown_damage_dealt_is_null_and_known_damage_is_summed(tmp_path):
    rules = get_ruleset("wings-of-glory/bob-2017")
    session = demo_session(ruleset=rules)
    bots = demo_plan(rules)[2]
    play(session, {player: make_bot(rules, bot, f"22:{player}")
                   for player, bot in zip(rules.players(session.state), bots, strict=True)})
    aeronautica = bot_session(0, imperium=("thunderbolt",), orks=("dakkajet",))
    store = EventStore(tmp_path / "aero.duckdb")
    store.save_session(session)
    store.save_session(aeronautica)
    with store.connection() as conn:
        rows = {row["piece_type"]: row for row in piece_type_summary(conn).to_pylist()}
        dealt = dict(conn.execute("SELECT p.piece_type, sum(s.damage_dealt) FROM aeronautica_pieces p JOIN "
                                  "aeronautica_piece_stats s USING (game, piece) GROUP BY ALL").fetchall())
    planes = {"spit1", "hurr1", "bf109e3", "bf110c"}
    assert planes <= set(rows)
    for plane in planes:
        assert rows[plane]["damage_dealt"] is None and rows[plane]["damage_dealt_per_piece"] is None
        assert rows[plane]["damage_taken"] is not None
    for aircraft in ("thunderbolt", "dakkajet"):
        assert rows[aircraft]["damage_dealt"] == dealt[aircraft]
