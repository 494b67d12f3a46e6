"""The demo's closing count reads as English whatever the counts (a Wings of Glory demo rolls one die)."""

from __future__ import annotations

from aero_events.demo import play_summary


def test_the_demos_count_of_one_is_singular():
    assert play_summary(106, 605, 106, 1, 14) == ("106 commands produced 605 events (106 of them the commands, "
                                                  "1 dice roll) over 14 turns.")
    assert play_summary(1, 1, 1, 0, 1) == "1 command produced 1 event (1 of them the commands, 0 dice rolls) over 1 turn."
