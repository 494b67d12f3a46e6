"""The 2020 update's occupied-hex roll (RuleOptions.occupied_hex_roll, movement.occupied_hex_rolls), and a
recorded 2019 game that flew through an occupied hex re-run under aeronautica/faq-2020: it diverges exactly
at the new roll.

Board "12x10h" (offset column, row); imperium-1 (a Thunderbolt facing north at Speed 4) flies Straight
from (4, 8) and ends on an Ork in (4, 4), so it flies on to (4, 3) (p.17 step 6).
"""

from __future__ import annotations

import msgspec
import pytest

from aero_events.core import DiceRolled
from aero_events.rulesets import get_ruleset
from aero_events.rulesets.aeronautica import AeronauticaRules, RuleOptions
from aero_events.rulesets.aeronautica.events import (
    AircraftDestroyed,
    AircraftDisengaged,
    DamageSuffered,
    ManoeuvreFlown,
    MovementEnded,
    OccupiedHexRolled,
)
from tests.aeronautica.helpers import IMPERIUM, Plane, S, Table, hex_at, of_type, one
from tests.regress.recorded_helpers import recorded

BOARD = "12x10h"


def hx(column: int, row: int):
    return hex_at(BOARD, column, row)


def flying_through(rules: AeronauticaRules, orks_at: list[tuple[int, int]], imperium_at=(4, 8)) -> Table:
    table = Table([Plane("thunderbolt", imperium_at, speed=4), Plane("thunderbolt", (10, 8))],
                  [Plane("dakkajet", at, facing=S) for at in orks_at], board=BOARD, rules=rules)
    choices = {"imperium-1": 1, "imperium-2": 1} | {f"orks-{i + 1}": 1 for i in range(len(orks_at))}
    table.start_movement(choices, first=IMPERIUM)
    return table


FAQ = RuleOptions(throttle_past_limits=False, occupied_hex_roll=True)


def test_the_2019_rules_fly_on_without_a_roll():
    table = flying_through(AeronauticaRules(), [(4, 4)])
    events = table.move("imperium-1", stage_hexes=(1,), facings=(0,))
    assert one(events, ManoeuvreFlown).pushed == (hx(4, 3),)
    assert not of_type(events, DiceRolled) and not of_type(events, OccupiedHexRolled)


def test_a_roll_of_2_or_more_does_nothing():
    table = flying_through(AeronauticaRules(options=FAQ), [(4, 4)])
    events = table.move("imperium-1", stage_hexes=(1,), facings=(0,), dice=[2])
    roll = one(events, DiceRolled)
    assert roll.faces == (2,) and roll.target == 2 and roll.purpose == f"occupied hex {hx(4, 4).q},{hx(4, 4).r}"
    assert one(events, OccupiedHexRolled) == OccupiedHexRolled(aircraft="imperium-1", hex=hx(4, 4), hit=False)
    assert not of_type(events, DamageSuffered)
    assert table.aircraft("imperium-1").structure == 3


def test_a_roll_of_1_is_one_damaging_hit():
    table = flying_through(AeronauticaRules(options=FAQ), [(4, 4)])
    events = table.move("imperium-1", stage_hexes=(1,), facings=(0,), dice=[1])
    assert one(events, OccupiedHexRolled).hit
    assert one(events, DamageSuffered) == DamageSuffered(aircraft="imperium-1", hits=1, structure=2,
                                                         cause="occupied hex")
    # The move goes on: the Altitude step follows the roll.
    types = [type(e).__name__ for e in events]
    assert types.index("OccupiedHexRolled") < types.index("MovementEnded")


def test_a_row_of_occupied_hexes_rolls_once_per_hex_in_order():
    table = flying_through(AeronauticaRules(options=FAQ), [(4, 4), (4, 3)])
    events = table.move("imperium-1", stage_hexes=(1,), facings=(0,), dice=[5, 1])
    assert [(e.hex, e.hit) for e in of_type(events, OccupiedHexRolled)] == [(hx(4, 4), False), (hx(4, 3), True)]
    assert one(events, ManoeuvreFlown).hex == hx(4, 2)


def test_hits_that_destroy_the_aircraft_end_its_move_at_once():
    rules = AeronauticaRules(options=RuleOptions(occupied_hex_roll=True, occupied_hex_hits=3))
    table = flying_through(rules, [(4, 4)])
    events = table.move("imperium-1", stage_hexes=(1,), facings=(0,), dice=[1], altitude=None)
    assert one(events, AircraftDestroyed) == AircraftDestroyed(aircraft="imperium-1", cause="occupied hex")
    assert type(events[-1]).__name__ in ("MovementEnded", "PhaseBegan") or of_type(events, MovementEnded)
    assert table.state.active is None and table.state.to_act is not None


def test_no_roll_when_the_push_leaves_the_board():
    """An aircraft pushed off the Area of Engagement has Disengaged (p.17): it is no longer there to roll."""
    table = flying_through(AeronauticaRules(options=FAQ), [(4, 1), (4, 0)], imperium_at=(4, 5))
    events = table.move("imperium-1", stage_hexes=(1,), facings=(0,))
    assert of_type(events, AircraftDisengaged)
    assert not of_type(events, OccupiedHexRolled)


def test_a_recorded_2019_game_rerun_under_faq_2020_diverges_exactly_at_the_occupied_hex_roll():
    from aero_events.regress import rerun

    table = flying_through(get_ruleset("aeronautica/wov-2019"), [(4, 4)])
    table.move("imperium-1", stage_hexes=(1,), facings=(0,))
    game = recorded(table.session)
    # The divergence counts the ruleset's events: the session's records (checkpoints, commands) left out.
    flown_at = next(i for i, env in enumerate(e for e in game.envelopes if not e.event.core_event)
                    if env.type == "ai.ManoeuvreFlown" and env.event.aircraft == "imperium-1")

    report = rerun(game, get_ruleset("aeronautica/faq-2020"))

    divergence = report.divergence
    assert divergence is not None and divergence.index == flown_at + 1
    assert divergence.old.type == "ai.MovementEnded"  # 2019: the Altitude step (held) ends the move
    assert divergence.new.type == "DiceRolled" and "occupied hex" in divergence.new.text
    assert divergence.new_next[0].type == "ai.OccupiedHexRolled"
    assert divergence.decision is not None and "FlyManoeuvre" in divergence.decision
    assert (divergence.old.turn, divergence.old.phase) == (1, "movement")
    # The record has no die left for the new roll: one extra face from the seeded source, and it says so.
    assert (report.extra_dice, report.extra_rolls) == (1, 1)
    # The 2020 points change the state from the start (Thunderbolt 21 -> 23), though no event until then.
    assert "imperium-1.points 21 -> 23" in report.state_difference
    assert not report.identical and not report.illegal


def test_the_same_game_rerun_under_its_own_rules_is_identical():
    from aero_events.regress import rerun

    table = flying_through(get_ruleset("aeronautica/wov-2019"), [(4, 4)])
    table.move("imperium-1", stage_hexes=(1,), facings=(0,))
    report = rerun(recorded(table.session), get_ruleset("aeronautica/wov-2019"))
    assert report.identical and report.divergence is None and report.extra_dice == 0 and report.unused_dice == 0


@pytest.mark.parametrize("face, structure", [(1, 2), (6, 3)])
def test_the_faq_2020_version_plays_the_roll(face, structure):
    table = flying_through(get_ruleset("aeronautica/faq-2020"), [(4, 4)])
    table.move("imperium-1", stage_hexes=(1,), facings=(0,), dice=[face])
    assert table.aircraft("imperium-1").structure == structure
    assert msgspec.structs.asdict(table.aircraft("imperium-1"))["points"] == 23
