"""Leadership, special orders and Command checks (p.10-12)."""

import pytest

from aero_events.core import RuleError
from aero_events.rulesets.battlefleet_gothic import events as ev
from aero_events.rulesets.battlefleet_gothic.commands import GiveOrder, RollOff
from aero_events.rulesets.battlefleet_gothic.state import (
    ALL_AHEAD_FULL,
    BURN_RETROS,
    LOCK_ON,
    RELOAD_ORDNANCE,
    SETUP,
    BlastMarker,
)

from .helpers import decide, of_type, replace, ship, state_with, with_ship

AGRIPPA = ship("agrippa", "imperial", "lunar", 90, 20, 0, name="Agrippa")
UNCLEAN = ship("unclean", "chaos", "murder", 90, 100, 180, name="Unclean")


def test_agrippa_command_check_worked_example_p12():
    """The Agrippa (Ld 7) takes All Ahead Full; the Unclean is on Lock On: +1; a 2 and a 6 make 8: passed."""
    state = with_ship(state_with(AGRIPPA, UNCLEAN), "unclean", order=LOCK_ON)
    events, after = decide(state, GiveOrder(player="imperial", ship="agrippa", order=ALL_AHEAD_FULL),
                           [2, 6, 1, 2, 3, 4])
    check = of_type(events, ev.CommandCheckTaken)[0]
    assert (check.roll, check.leadership, check.passed) == (8, 8, True)
    assert check.modifiers == (("Enemy Contacts", 1),)
    assert after.ships["agrippa"].order == ALL_AHEAD_FULL
    assert of_type(events, ev.AllAheadFullRolled)[0].extra == 10_000  # 4D6 = 10 cm


def test_same_roll_fails_without_enemy_contacts_p11():
    state = state_with(AGRIPPA, UNCLEAN)
    events, after = decide(state, GiveOrder(player="imperial", ship="agrippa", order=ALL_AHEAD_FULL), [2, 6])
    assert not of_type(events, ev.CommandCheckTaken)[0].passed
    assert after.ships["agrippa"].order is None and after.checks_failed


def test_failed_check_stops_all_further_checks_this_turn_p11():
    second = ship("duke", "imperial", "gothic", 40, 20, 0)
    state = state_with(AGRIPPA, second, UNCLEAN)
    _, after = decide(state, GiveOrder(player="imperial", ship="agrippa", order=LOCK_ON), [6, 6])
    with pytest.raises(RuleError, match="Command check has failed"):
        decide(after, GiveOrder(player="imperial", ship="duke", order=LOCK_ON), [1, 1])


def test_under_fire_minus_one_p12():
    state = state_with(AGRIPPA, UNCLEAN)
    state = replace(state, blast_markers={"1": BlastMarker(90_000, 22_850)})  # touching the Agrippa's base
    events, _ = decide(state, GiveOrder(player="imperial", ship="agrippa", order=LOCK_ON), [3, 4])
    check = of_type(events, ev.CommandCheckTaken)[0]
    assert check.leadership == 6 and not check.passed


def test_leadership_never_above_ten_p12():
    crack = ship("agrippa", "imperial", "lunar", 90, 20, 0, leadership=10)
    state = with_ship(state_with(crack, UNCLEAN), "unclean", order=LOCK_ON)
    events, _ = decide(state, GiveOrder(player="imperial", ship="agrippa", order=LOCK_ON), [5, 6])
    check = of_type(events, ev.CommandCheckTaken)[0]
    assert check.leadership == 10 and not check.passed


def test_one_special_order_at_a_time_p11():
    state = with_ship(state_with(AGRIPPA, UNCLEAN), "agrippa", order=BURN_RETROS)
    with pytest.raises(RuleError):
        decide(state, GiveOrder(player="imperial", ship="agrippa", order=LOCK_ON), [1, 1])


def test_reload_ordnance_only_when_empty_and_reloads_on_a_pass_p27():
    state = state_with(AGRIPPA, UNCLEAN)
    with pytest.raises(RuleError):
        decide(state, GiveOrder(player="imperial", ship="agrippa", order=RELOAD_ORDNANCE), [1, 1])
    state = with_ship(state, "agrippa", ordnance_loaded=False)
    _, after = decide(state, GiveOrder(player="imperial", ship="agrippa", order=RELOAD_ORDNANCE), [1, 1])
    assert after.ships["agrippa"].ordnance_loaded


def test_starting_leadership_rolled_per_ship_p10():
    a = ship("agrippa", "imperial", "lunar", 90, 20, 0, leadership=0)
    u = ship("unclean", "chaos", "murder", 90, 100, 180, leadership=0)
    state = replace(state_with(a, u), phase=SETUP, active=None)
    events, after = decide(state, RollOff(player="imperial"), [1, 6, 4, 4, 5, 2])
    assert after.ships["agrippa"].leadership == 6 and after.ships["unclean"].leadership == 9
    first = of_type(events, ev.FirstTurnRolled)
    assert [f.winner for f in first] == [None, "imperial"]  # the tie 4-4 is rolled again
    assert after.chooser == "imperial"


def test_emperor_sensor_prow_adds_one_leadership():
    emperor = ship("dominus", "imperial", "emperor", 90, 20, 0, leadership=0)
    u = ship("unclean", "chaos", "murder", 90, 100, 180)
    state = replace(state_with(emperor, u), phase=SETUP, active=None)
    _, after = decide(state, RollOff(player="imperial"), [6, 5, 2])
    assert after.ships["dominus"].leadership == 10


def test_escorts_roll_leadership_once_per_squadron_capital_ships_each_p10():
    swords = [replace(ship(f"sword{n}", "imperial", "sword", 60 + 10 * n, 20, 0, leadership=0), squadron="red")
              for n in range(3)]
    lunar = replace(ship("agrippa", "imperial", "lunar", 120, 20, 0, leadership=0), squadron="red")
    u = ship("unclean", "chaos", "murder", 90, 100, 180)
    state = replace(state_with(*swords, lunar, u), phase=SETUP, active=None)
    events, after = decide(state, RollOff(player="imperial"), [1, 6, 5, 2])
    assert [after.ships[f"sword{n}"].leadership for n in range(3)] == [9, 9, 9]
    assert after.ships["agrippa"].leadership == 6
    assert len([e for e in events if type(e).__name__ == "DiceRolled" and e.purpose == "starting leadership"]) == 2


def test_a_squadron_takes_one_command_check_and_one_all_ahead_full_roll_p11_p16():
    swords = [replace(ship(f"sword{n}", "imperial", "sword", 60 + 10 * n, 20, 0), squadron="red") for n in range(2)]
    state = state_with(*swords, UNCLEAN)
    from aero_events.rulesets.battlefleet_gothic.ruleset import BattlefleetGothicRules

    options = BattlefleetGothicRules().legal_commands(state, "imperial")
    assert {o.ship for o in options if isinstance(o, GiveOrder)} == {"sword0"}
    events, after = decide(state, GiveOrder(player="imperial", ship="sword0", order=ALL_AHEAD_FULL),
                           [3, 3, 1, 2, 3, 4])
    assert len(of_type(events, ev.CommandCheckTaken)) == 1
    assert [after.ships[s].extra_move for s in ("sword0", "sword1")] == [10_000, 10_000]
    assert after.ships["sword1"].order == ALL_AHEAD_FULL
