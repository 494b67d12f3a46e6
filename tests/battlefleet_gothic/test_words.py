"""What Battlefleet Gothic says to players: weapons by name, counts with their plural, and a drawn battle's
reason true to the table."""

from __future__ import annotations

from aero_events.rulesets.battlefleet_gothic import events as ev
from aero_events.rulesets.battlefleet_gothic.commands import FireWeapons
from aero_events.rulesets.battlefleet_gothic.narrate import weapon_words
from aero_events.rulesets.battlefleet_gothic.state import DESTROYED, GAME_OVER

from .helpers import RULES, replace, ship, state_with, with_ship


def _duel():
    return state_with(ship("agrippa", "imperial", "lunar", 90, 20, 0, name="Agrippa"),
                      ship("unclean", "chaos", "murder", 90, 50, 90, name="Unclean"))


def test_weapons_are_named_as_the_profile_names_them():
    state = _duel()
    fired = ev.WeaponsFired(ship="unclean", target="agrippa",
                            weapons=(("starboard_long_battery", 4), ("prow_lance", 2)))
    assert RULES.describe_event(fired, state) == \
        "Unclean fires starboard long-range battery (firepower 4), prow lance (strength 2) at Agrippa."
    command = FireWeapons(player="chaos", ship="unclean", target="agrippa", weapons=("starboard_battery", "port_bays"))
    assert RULES.describe_command(command, state) == "Unclean: fire starboard battery, port launch bays at Agrippa"
    assert weapon_words("prow_nova_cannon") == "prow nova cannon"


def test_one_hit_is_singular():
    state = _duel()
    assert RULES.describe_event(ev.HitsAbsorbed(ship="agrippa", hits=1), state) == "Agrippa's shields absorb 1 hit."
    assert RULES.describe_event(ev.HitsAbsorbed(ship="agrippa", hits=2), state) == "Agrippa's shields absorb 2 hits."
    turrets = ev.TurretsFired(ship="agrippa", marker="t1", turrets=2, hits=1, against="torpedoes")
    assert RULES.describe_event(turrets, state) == "Agrippa's turrets fire: 1 torpedo down."


def test_a_battle_where_no_ship_is_left_on_either_side_says_so():
    """The recorded reason names the first side found empty; the words tell the table as it is."""
    gone = with_ship(with_ship(_duel(), "agrippa", status=DESTROYED), "unclean", status=DESTROYED)
    ended = ev.GameEnded(winner=None, reason="imperial has no ships left fighting", scores={"imperial": 0, "chaos": 0})
    assert RULES.describe_event(ended, gone).startswith("The battle ends (neither side has ships left fighting): a draw")
    assert RULES.describe_event(ended).startswith("The battle ends (imperial has no ships left fighting)")
    over = replace(gone, phase=GAME_OVER, result="imperial has no ships left fighting")
    assert RULES.outcome(over).reason == "neither side has ships left fighting"
    one_side = replace(with_ship(_duel(), "unclean", status=DESTROYED), phase=GAME_OVER, winner="imperial",
                       result="chaos has no ships left fighting")
    assert RULES.outcome(one_side).reason == "chaos has no ships left fighting"


def test_surrender_and_bracing_are_said_in_words():
    from aero_events.rulesets.battlefleet_gothic.commands import BraceForImpact, Surrender

    assert RULES.describe_command(Surrender(player="chaos")) == "chaos: surrender"
    assert RULES.describe_command(BraceForImpact(player="imperial", ship="agrippa"), _duel()) == \
        "Agrippa: brace for impact"
