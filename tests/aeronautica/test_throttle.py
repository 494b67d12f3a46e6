"""Throttle (rulebook p.15): the first step of each aircraft's move changes its Speed by up to its Throttle.

The 2019 text lets the dial go past Min or Max Speed ("may not ... *safely*", "player error is a factor"):
that is ``RuleOptions(throttle_past_limits=True)``, the default. The 2020 update forbids it:
``throttle_past_limits=False``.
"""

from __future__ import annotations

import pytest

from aero_events.core import DiceRolled
from aero_events.rulesets.aeronautica import RuleOptions
from aero_events.rulesets.aeronautica.commands import (
    ActivateAircraft,
    AdjustAltitude,
    ManoeuvrePlan,
    SetThrottle,
)
from aero_events.rulesets.aeronautica.events import BrokeUp, Stalled, ThrottleSet
from aero_events.rulesets.aeronautica.state import MANOEUVRE
from tests.aeronautica.helpers import IMPERIUM, ORKS, Plane, S, Table, make_rules, of_type, one


def at_throttle(profile: str, speed: int, *, options: RuleOptions | None = None, altitude: int = 3) -> Table:
    """An imperium aircraft of ``profile`` at ``speed``, activated and at its Throttle step."""
    table = Table([Plane(profile, (7, 14), speed=speed, altitude=altitude)],
                  [Plane("dakkajet", (2, 1), facing=S, speed=4)], rules=make_rules(options))
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    return table


def throttle_changes(table: Table) -> list[int]:
    return [c.change for c in table.legal(IMPERIUM) if isinstance(c, SetThrottle)]


def test_throttle_2_may_change_speed_by_1_or_2():
    """p.15: "an aircraft with Throttle 2 may increase or decrease its Speed by 1 or 2, but not by more"."""
    table = at_throttle("thunderbolt", 4)  # Throttle 2, Speed 2-6
    assert throttle_changes(table) == [-2, -1, 0, 1, 2]
    events = table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=2))
    assert one(events, ThrottleSet) == ThrottleSet(aircraft="imperium-1", change=2, speed=6)
    assert table.aircraft("imperium-1").speed == 6 and table.state.step == MANOEUVRE


@pytest.mark.parametrize("change", [3, -3])
def test_a_change_beyond_the_throttle_value_is_refused(change):
    """p.15: "... by 1 or 2, but not by more"."""
    table = at_throttle("thunderbolt", 4)
    err = table.refused(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=change))
    assert (err.rule, err.page) == ("Throttle", 15)
    assert table.aircraft("imperium-1").speed == 4


def test_throttle_1_may_change_speed_by_1():
    """p.15 with a Throttle 1 aircraft: the Fighta Bommer (Throttle 1, Speed 3-7)."""
    table = at_throttle("fighta_bommer", 5)
    assert throttle_changes(table) == [-1, 0, 1]
    err = table.refused(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=2))
    assert (err.rule, err.page) == ("Throttle", 15)


def test_an_aircraft_need_not_use_its_throttle():
    """p.15: "An aircraft is not obliged to use its Throttle and may choose to maintain its current Speed"."""
    table = at_throttle("thunderbolt", 3)
    events = table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=0))
    assert one(events, ThrottleSet).speed == 3 and not of_type(events, Stalled)


def test_2019_throttle_below_min_speed_stalls():
    """p.15: Throttle may not *safely* take Speed below Min Speed; p.15 Minimum Speed: below it the aircraft
    Stalls (p.18). The 2019 option lets the dial go there: player error has its consequences."""
    table = at_throttle("thunderbolt", 2)  # Min Speed 2
    assert throttle_changes(table) == [-2, -1, 0, 1, 2]
    events = table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=-1))
    assert one(events, ThrottleSet).speed == 1
    stall = one(events, Stalled)
    assert stall.aircraft == "imperium-1" and "Min Speed" in stall.reason
    assert table.aircraft("imperium-1").stalled


def test_2019_throttle_above_max_speed_risks_breaking_up_at_the_end_of_the_move():
    """p.15 Maximum Speed: ending the move above Max Speed risks Breaking Up (p.19): D6, Speed back to Max."""
    table = at_throttle("thunderbolt", 6)  # Max Speed 6
    assert throttle_changes(table) == [-2, -1, 0, 1, 2]
    events = table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=2))
    assert one(events, ThrottleSet).speed == 8 and not of_type(events, Stalled)
    table.apply(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", stage_hexes=(1,), facings=(0,)))
    table.dice.enter([4])
    events = table.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=0))
    roll = one(events, DiceRolled)
    assert (roll.purpose, roll.faces, roll.target) == ("breaking up", (4,), 3)
    assert one(events, BrokeUp) == BrokeUp(aircraft="imperium-1", damaged=False, speed=6)
    assert table.aircraft("imperium-1").speed == 6


def test_the_speed_dial_runs_from_0_to_9():
    """p.15 Speed Dial; the climb and dive table stops at Speed 9 (p.18): a Dakkajet at 8 may add only 1."""
    table = at_throttle("dakkajet", 8)  # Throttle 2, Speed 4-8
    assert throttle_changes(table) == [-2, -1, 0, 1]


@pytest.mark.parametrize("speed,changes", [(2, [0, 1, 2]), (3, [-1, 0, 1, 2]), (5, [-2, -1, 0, 1]),
                                           (6, [-2, -1, 0])])
def test_2020_throttle_never_leaves_min_and_max_speed(speed, changes):
    """The 2020 update (AERONAUTICA-DATA.md): Throttle can never take Speed below Min or above Max Speed."""
    table = at_throttle("thunderbolt", speed, options=RuleOptions(throttle_past_limits=False))
    assert throttle_changes(table) == changes
    for bad in {-2, -1, 1, 2} - set(changes):
        err = table.refused(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=bad))
        assert (err.rule, err.page) == ("Throttle", 15)


def test_only_the_moving_player_sets_the_throttle():
    """p.15: each player runs the sequence for their own aircraft."""
    table = at_throttle("thunderbolt", 4)
    assert table.legal(ORKS) == []
    err = table.refused(SetThrottle(player=ORKS, aircraft="imperium-1", change=1))
    assert err.page == 15
