"""A re-run that stopped (an illegal decision under the new rules) has no winner yet: the report said the
winner went "Luftwaffe -> draw", as if the game had been played out to a draw."""

from __future__ import annotations

from aero_events.regress.report import Outcome, outcome_changes


def _outcome(finished: bool, winner: str | None, turn: int) -> Outcome:
    return Outcome(finished=finished, turn=turn, winner=winner, end_reason=None, scores={"RAF": 0, "Luftwaffe": 0},
                   score_name="VP")


def test_a_stopped_re_run_has_no_winner_yet():
    changes = outcome_changes(_outcome(True, "Luftwaffe", 12), _outcome(False, None, 4))
    assert "winner Luftwaffe -> no winner yet" in changes
    assert not any("draw" in change for change in changes)


def test_a_finished_game_without_a_winner_is_a_draw():
    assert "winner RAF -> draw" in outcome_changes(_outcome(True, "RAF", 12), _outcome(True, None, 12))
