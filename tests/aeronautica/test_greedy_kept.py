"""Session 12's short cuts in the greedy bot's arrays (issue 18), each checked against the plain computation it stands
for: the rows of a block's distinct flights kept by block and Stall rows alone (:func:`~.greedy_tables.block_rows`),
so that what is recalled by the rows' identity is met again whatever the scorer, and a Stall term told apart by
counting, not ``any``."""

from __future__ import annotations

import numpy as np
import pytest

from aero_events.bots import play
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica import bots as greedy
from aero_events.rulesets.aeronautica import commands as c
from aero_events.rulesets.aeronautica import greedy_tables as tables
from aero_events.rulesets.aeronautica.bots import GreedyBot
from tests.support.dogfights import thunderbolts_v_dakkajets

RULES = AeronauticaRules()
MANOEUVRES = tuple(RULES.manoeuvres.get(number) for number in RULES.manoeuvres.numbers)
#: Every kind of Stall rows the bot asks (:func:`~.bots._stall_rows`): manoeuvre, Throttle (hovering, Stalled) and plans.
STALL_ROWS = [greedy._stall_rows("manoeuvre", 3), greedy._stall_rows("manoeuvre", 0),
              greedy._stall_rows("throttle", 3, False, False), greedy._stall_rows("throttle", 2, True, False),
              greedy._stall_rows("throttle", 3, False, True), greedy._stall_rows("plan", 0, False, False),
              greedy._stall_rows("plan", 0, False, True)]


def _blocks():
    """Blocks of every size the bot meets: every manoeuvre and a few, one alone, straight ahead, every facing, one to
    three Speeds (slow ones fly straight ahead, p.17)."""
    for group in (MANOEUVRES, MANOEUVRES[:3], (MANOEUVRES[2],), (None,)):
        for speeds in ((2, 3, 4), (0,), (5,), (7, 8)):
            for facing in range(6):
                yield tables.flight_block(group, facing, speeds)


def _forget() -> None:
    """Empty every table the greedy bot keeps between decisions, so that the next values are worked out afresh."""
    for kept in (greedy._BLOCK_VALUES, greedy._SEGMENT_BEST, greedy._DECIDED, greedy._SCORERS_BY_READS,
                 greedy._SCORERS, greedy._ALTITUDE_BEST, greedy._ENEMY_RECORDS, greedy._OWN_TERMS, tables._RECALLS,
                 tables._RECALLED_ENDS, tables._ROW_TERMS, tables._BLOCK_ROWS):
        kept.clear()


def test_a_blocks_rows_are_the_stall_rows_of_its_distinct_flights_kept_by_block_and_rows():
    """:func:`~.greedy_tables.block_rows` is ``2 * Speed + stalled`` of each distinct flight as the Stall rows say, and
    the start of its edge penalties, as worked out from the block's fields; asked again, the very same objects."""
    checked = 0
    for block in _blocks():
        for rows in STALL_ROWS:
            row, edge_at = tables.block_rows(block, rows)
            plain = [rows[int(speed_staged)] for speed_staged in block.distinct_speed_staged]
            assert row.tolist() == plain and row.dtype == np.intp
            assert edge_at.tolist() == [value * (tables._ROOMS + 1) for value in plain]
            again = tables.block_rows(block, rows)
            assert again[0] is row and again[1] is edge_at
            assert not row.flags.writeable and not edge_at.flags.writeable  # shared by every scorer
            checked += 1
    assert checked == 4 * 4 * 6 * len(STALL_ROWS)


@pytest.fixture(scope="module")
def scorers() -> list:
    """The scorers of the decisions of greedy Dogfights, 1 and 2 against 2 (every Altitude and weapon set met)."""
    found: list = []
    build = GreedyBot._build_scorer

    def kept(self, *args, **kwargs):
        scorer = build(self, *args, **kwargs)
        found.append(scorer)
        return scorer

    GreedyBot._build_scorer = kept
    try:
        _forget()
        for size, seed in ((1, 3), (2, 4)):
            session = GameSession(RULES, thunderbolts_v_dakkajets(size), dice=SeededDice(seed), game_id=f"kept-{seed}")
            play(session, {"imperium": GreedyBot(seed), "orks": GreedyBot(seed + 1)}, max_commands=600)
    finally:
        GreedyBot._build_scorer = build
    return found


def test_the_row_terms_of_every_scorer_are_the_plain_ones_and_share_the_blocks_rows(scorers):
    """:func:`~.greedy_tables.row_terms` of any scorer holds the block's kept rows (the same object for every scorer,
    whatever its speed tables), where the damage taken is, the Stall and Breaking Up terms and the edge starts as
    taken from the scorer's tables, and tells a block with a Stalled end as ``any`` does (p.18)."""
    assert len({id(scorer.taken_at) for scorer in scorers}) > 1  # scorers of different speed tables
    stalled = unstalled = 0
    for scorer in scorers[::3]:
        for block in list(_blocks())[::5]:
            for rows in STALL_ROWS:
                row, taken_at, by_row, edge_at, stalls = tables.row_terms(block, rows, scorer)
                kept_row, kept_edge = tables.block_rows(block, rows)
                assert row is kept_row and edge_at is kept_edge
                assert taken_at.tolist() == scorer.taken_at[:, row].tolist()
                assert by_row.tolist() == scorer.row_terms[:, :, row].tolist()
                assert stalls is bool(scorer.row_terms[0][:, row].any())
                stalled, unstalled = stalled + stalls, unstalled + (not stalls)
    assert stalled and unstalled


def test_plans_and_altitude_changes_read_from_kept_ends_are_those_each_scores_alone_p16_p18():
    """Over greedy Dogfights played with the bot's tables kept from game to game (the ends the Throttle decision kept,
    recalled by the kept rows' identity whatever the scorer), every plan's value is the one
    :meth:`GreedyBot._step_value` gives it alone (p.16-17), and every Altitude change taken is the first best of those
    :meth:`GreedyBot._step_value` gives each change alone (p.18), with nothing kept."""
    asked: list = []
    plain_values = GreedyBot._plan_values
    recall = tables.EndScorer.recall
    recalled = [0]

    def plan_values(self, rules, state, aircraft, plans):
        values, legal = plain_values(self, rules, state, aircraft, plans)
        asked.append(("plan", state, aircraft, list(plans), None if values is None else values.tolist(), legal))
        return values, legal

    def counted_recall(self, block, here, row):
        values = recall(self, block, here, row)
        recalled[0] += values is not None
        return values

    class Recorder(GreedyBot):
        def choose(self, session, player, options):
            chosen = super().choose(session, player, options)
            if isinstance(options[0], c.AdjustAltitude) and len(options) > 1:
                state = session.state
                asked.append(("altitude", state, state.aircraft[state.active], list(options), options.index(chosen),
                              None))
            return chosen

    GreedyBot._plan_values, tables.EndScorer.recall = plan_values, counted_recall
    try:
        for size, seed in ((1, 5), (1, 6), (1, 5), (2, 7)):  # seed 5 twice: the same decisions met again
            session = GameSession(RULES, thunderbolts_v_dakkajets(size), dice=SeededDice(seed), game_id=f"kept-{seed}")
            play(session, {"imperium": Recorder(seed), "orks": Recorder(seed + 1)}, max_commands=600)
    finally:
        GreedyBot._plan_values, tables.EndScorer.recall = plain_values, recall
    assert recalled[0] > 10
    plans = altitudes = 0
    for kind, state, aircraft, options, answer, legal in asked:
        _forget()
        alone = [GreedyBot(0)._step_value(RULES, state, aircraft, option) for option in options]
        if kind == "plan":
            assert answer == [alone[index] for index in legal]
            assert all(alone[index] == -1e9 for index in range(len(options)) if index not in legal)
            plans += 1
        else:
            assert answer == max(range(len(options)), key=alone.__getitem__)
            altitudes += 1
    assert plans > 20 and altitudes > 20
