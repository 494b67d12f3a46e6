"""Luck: expected successes from dice count, target and modifiers (p.7), against what was rolled."""

from __future__ import annotations

from fractions import Fraction

import pytest

from aero_events.analysis import actual_successes, expected_successes, luck_table, success_chance
from aero_events.analysis.luck import luck_rows
from aero_events.analysis.timeline import timeline_from_session
from aero_events.core import DiceRolled, Envelope, Modifier
from tests.viz.games import eventful_session


def test_four_dice_needing_5_with_minus_1_need_natural_sixes():
    # 5+ with -1: a 5 becomes 4 and fails, a 6 becomes 5 and succeeds, so p = 1/6.
    assert success_chance(5, -1) == Fraction(1, 6)
    assert expected_successes(4, 5, -1) == pytest.approx(4 / 6)


def test_without_modifiers_the_chance_is_the_faces_at_or_above_the_target():
    assert success_chance(5) == Fraction(2, 6)
    assert success_chance(4) == Fraction(3, 6)
    assert expected_successes(6, 4) == pytest.approx(3.0)


def test_a_natural_1_always_fails_and_a_roll_is_never_below_1():
    assert success_chance(2, +3) == Fraction(5, 6)  # the 1 would make 4, but fails anyway
    assert success_chance(1, -5) == Fraction(5, 6)  # 2-6 are modified to 1 at worst, which reaches 1+
    assert success_chance(7) == 0 and success_chance(7, +1) == Fraction(1, 6)


def test_a_d3_is_a_halved_d6():
    assert success_chance(3, d3=True) == Fraction(2, 6)  # faces 5 and 6
    assert success_chance(2, d3=True) == Fraction(4, 6)  # faces 3-4 read 2, 5-6 read 3; 1-2 read a natural 1


def _roll(index: int, faces: tuple[int, ...], target: int | None, modifier: int = 0, roller: str = "a",
          replaces: int | None = None) -> Envelope:
    event = DiceRolled(roll_index=index, purpose="to hit: x at y", roller=roller, count=len(faces), sides=6,
                       faces=faces, target=target,
                       modifiers=(Modifier("Altitude", modifier),) if modifier else (), replaces=replaces)
    return Envelope(game_id="g", branch_id="main", seq=index + 1, turn=1, phase="firing", actor=roller, event=event)


def test_actual_successes_apply_the_same_rule():
    assert actual_successes(_roll(0, (1, 4, 5, 6), 5, -1).event) == 1
    assert actual_successes(_roll(0, (1, 4, 5, 6), 5).event) == 2


def test_luck_runs_per_player_and_skips_untargeted_and_rerolled_rolls():
    rows = luck_rows([
        _roll(0, (6, 6, 6, 6), 5, -1, roller="a"),  # expected 4/6, got 4
        _roll(1, (3, 3), None, roller="a"),  # no target: not luck
        _roll(2, (1, 1), 4, roller="b"),  # re-rolled below: left out
        _roll(3, (4, 5), 4, roller="b", replaces=2),  # expected 1, got 2
        _roll(4, (2,), 4, roller="a"),  # expected 1/2, got 0
    ])
    assert [(r["roller"], r["seq"]) for r in rows] == [("a", 1), ("b", 4), ("a", 5)]
    assert rows[0]["expected"] == pytest.approx(4 / 6) and rows[0]["actual"] == 4
    assert rows[0]["cumulative_luck"] == pytest.approx(4 - 4 / 6)
    assert rows[1]["cumulative_luck"] == pytest.approx(1.0)
    assert rows[2]["cumulative_luck"] == pytest.approx(4 - 4 / 6 - 0.5)


def test_luck_table_of_a_game_sums_to_actual_minus_expected():
    timeline = timeline_from_session(eventful_session())
    table = luck_table(timeline)
    targeted = [env for env in timeline.envelopes if isinstance(env.event, DiceRolled) and env.event.target]
    assert table.num_rows == len(targeted)
    for roller in set(table.column("roller").to_pylist()):
        mine = [row for row in table.to_pylist() if row["roller"] == roller]
        assert mine[-1]["cumulative_luck"] == pytest.approx(sum(r["actual"] - r["expected"] for r in mine))
