"""Readings players disagree on, each a RuleOptions field (issue 19): the default and the other reading.

Each test names the page whose words the two readings take differently; ruleset.py and this folder's
README.md say which default and why.
"""

from __future__ import annotations

import pytest

from aero_events.core import DataError, RuleError
from aero_events.rulesets.aeronautica import RuleOptions
from aero_events.rulesets.aeronautica.commands import FireWeapons, Taxi
from aero_events.rulesets.aeronautica.events import (
    AircraftDisengaged,
    AutonomousAttacked,
    BombCreepRolled,
    GameEnded,
    ReturnFireOffered,
    StallRecovered,
    TailingDetermined,
    TurnBegan,
    VolleyEnded,
)
from aero_events.rulesets.aeronautica.setup import board_for
from aero_events.rulesets.aeronautica.state import (
    DESTROYED,
    GROUND,
    LANDED,
    MOVEMENT,
    TAILING_FIRE,
    AutonomousWeapon,
    GameState,
)
from aero_events.rulesets.aeronautica.versions import load_variant
from aero_events.rulesets.aeronautica.victory import game_end_reason, insurmountable_losses
from tests.aeronautica.firing_helpers import (
    BOARD,
    IMPERIUM,
    ORKS,
    C,
    N,
    Range,
    S,
    at,
    bunker,
    ground_defence,
    of_type,
    one,
    plane,
    rolls,
    rules_with,
)

AUTOCANNONS = 1


def test_every_new_option_keeps_its_default_and_refuses_an_unknown_value(tmp_path):
    defaults = RuleOptions()
    assert (defaults.stall_recovery_altitude, defaults.final_turn_disengages, defaults.no_effective_altitude,
            defaults.bomb_creep_per, defaults.tailing_choice, defaults.autonomous_hits_firer,
            defaults.declined_return_fire_spends, defaults.ground_defences_count,
            defaults.last_aircraft_flying) == ("max", False, "zero", "weapon", "closest", True, False, True,
                                               "end_phase")
    variant = tmp_path / "creep.json"
    variant.write_text('{"name": "my/creep", "base": "aeronautica/wov-2019", "options": {"bomb_creep_per": "turn"}}')
    with pytest.raises(DataError) as err:  # a variant with a value no reading has
        load_variant(variant)
    assert "bomb_creep_per" in str(err.value)


# ---------------------------------------------------------------- Stall recovery's Altitude (p.29)


@pytest.mark.parametrize(("reading", "altitude"), [("max", 5), ("cap", 2)])
def test_stall_recovery_sets_max_altitude_or_only_caps_it_p29(reading, altitude):
    """p.29: "the Altitude dial is adjusted to or remains at the Max Altitude of the aircraft". Read as written
    ("max", the default) a Thunderbolt Stalled at Altitude 2 recovers at 5; read as a ceiling ("cap") it
    stays at 2."""
    game = Range(plane("imperium-1", "thunderbolt", C, altitude=2, stalled=True),
                 plane("orks-1", "dakkajet", at(8, -8), S), rules=rules_with(stall_recovery_altitude=reading))
    game.dice.enter([3])
    events = game.pass_(IMPERIUM) + game.pass_(ORKS)
    assert one(events, StallRecovered).altitude == altitude


def test_stall_recovery_cap_still_brings_an_aircraft_down_to_its_max_altitude_p29():
    game = Range(plane("imperium-1", "thunderbolt", C, altitude=6, stalled=True),
                 plane("orks-1", "dakkajet", at(8, -8), S), rules=rules_with(stall_recovery_altitude="cap"))
    game.dice.enter([6])
    events = game.pass_(IMPERIUM) + game.pass_(ORKS)
    assert one(events, StallRecovered).altitude == 5


# ---------------------------------------------------------------- leaving in the final turn (p.17, p.31)


@pytest.mark.parametrize(("final_turn_disengages", "how"), [(False, "accidental"), (True, "voluntary")])
def test_leaving_the_board_in_the_final_turn_p17_p31(final_turn_disengages, how):
    """p.31 Fuel Limit: turn 12 is the final turn, "at which point both sides must disengage"; p.17: leaving in
    any turn but the Disengagement turn is Accidental. The default keeps p.17."""
    edge = board_for(BOARD).from_offset(0, 15)
    game = Range(plane("imperium-1", "thunderbolt", edge, altitude=0, speed=0, status=LANDED),
                 plane("orks-1", "dakkajet", at(8, -8), S), phase=MOVEMENT, active="imperium-1", step=GROUND,
                 turn=12, rules=rules_with(final_turn_disengages=final_turn_disengages))
    events = game.apply(Taxi(player=IMPERIUM, aircraft="imperium-1", facing_before=4, hexes=1, facing_after=4))
    assert one(events, AircraftDisengaged).how == how


# ---------------------------------------------------------------- Ground-to-Air without Effective Altitude (p.28)


@pytest.mark.parametrize(("reading", "modifier"), [("zero", -3), ("unlimited", 0)])
def test_a_ground_to_air_weapon_without_effective_altitude_p25_p28(reading, modifier):
    """p.28: "-1 to the dice roll per level of Altitude the target is above the firing weapon's Effective
    Altitude (X)". The test Long Flak has none: counted as 0 (default) or as no limit at all."""
    game = Range(ground_defence("imperium-1", C), plane("orks-1", "dakkajet", at(0, -9), S, altitude=3),
                 plane("imperium-2", "thunderbolt", at(9, 9)), rules=rules_with(no_effective_altitude=reading))
    events = game.fire("imperium-1", (1, "orks-1"), dice=[6, 6, 1, 1])
    assert sum(m.value for m in rolls(events, "to hit")[0].modifiers) == modifier


# ---------------------------------------------------------------- Bomb Creep per weapon or per run (p.27)


@pytest.mark.parametrize(("reading", "creep_rolls"), [("weapon", 2), ("run", 1)])
def test_bomb_creep_per_weapon_or_per_bombing_run_p27(reading, creep_rolls):
    """p.27: "After rolling one or more successful hits, roll a D6 for any other potential targets within a
    hex adjacent ... Roll once for damage ... as normal for the weapon". Two Hellstrikes hit one bunker: one
    Bomb Creep roll each (default) or one for the run."""
    game = Range(plane("imperium-1", "thunderbolt", C, altitude=2,
                       weapons=("twin_lascannons", "quad_autocannons", "hellstrike_missiles", "hellstrike_missiles")),
                 plane("orks-1", "dakkajet", at(8, -8), S),
                 ground_targets=(bunker("bunker-a", at(0, -2), structure=5), bunker("bunker-b", at(0, -3))),
                 rules=rules_with(bomb_creep_per=reading))
    events = game.fire("imperium-1", (2, "bunker-a"), (3, "bunker-a"), dice=[5, 1, 5, 1] + [1] * (2 + creep_rolls))
    creep = of_type(events, BombCreepRolled)
    assert [(c.weapon_index, c.target) for c in creep] == [(2, "bunker-b"), (3, "bunker-b")][:creep_rolls]


# ---------------------------------------------------------------- the Tailing target (p.30)


def two_ahead(**options) -> tuple[Range, list]:
    """imperium-1 sits directly behind orks-1 (2 hexes) and orks-2 (3 hexes), all at Altitude 3 facing north."""
    game = Range(plane("imperium-1", "thunderbolt", C), plane("orks-1", "dakkajet", at(0, -2)),
                 plane("orks-2", "dakkajet", at(0, -3)), rules=rules_with(**options) if options else None)
    return game, game.pass_(IMPERIUM) + game.pass_(ORKS)


def test_the_closest_enemy_is_tailed_by_default_p30():
    _, events = two_ahead()
    assert TailingDetermined(aircraft="imperium-1", target="orks-1") in of_type(events, TailingDetermined)


def test_with_tailing_choice_player_the_player_picks_among_the_tailed_p30_p13():
    game, events = two_ahead(tailing_choice="player")
    determined = next(e for e in of_type(events, TailingDetermined) if e.aircraft == "imperium-1")
    assert (determined.target, determined.candidates) == ("orks-1", ("orks-1", "orks-2"))
    assert game.aircraft("imperium-1").tailing_candidates == ("orks-1", "orks-2")
    tailing = Range(plane("imperium-1", "thunderbolt", C, tailing="orks-1", tailing_candidates=("orks-1", "orks-2")),
                    plane("orks-1", "dakkajet", at(0, -2)), plane("orks-2", "dakkajet", at(0, -3)),
                    phase=TAILING_FIRE, first=None, initiative=IMPERIUM, rules=rules_with(tailing_choice="player"))
    targets = {shot.target for shots in tailing.fire_options("imperium-1") for shot in shots}
    assert targets == {"orks-1", "orks-2"}
    tailing.fire("imperium-1", (AUTOCANNONS, "orks-2"), dice=[1, 1])
    assert tailing.aircraft("imperium-1").fired


def test_by_default_a_tailing_aircraft_fires_only_at_the_one_it_tails_p13():
    tailing = Range(plane("imperium-1", "thunderbolt", C, tailing="orks-1"),
                    plane("orks-1", "dakkajet", at(0, -2)), plane("orks-2", "dakkajet", at(0, -3)),
                    phase=TAILING_FIRE, first=None, initiative=IMPERIUM)
    assert tailing.refused_fire("imperium-1", (AUTOCANNONS, "orks-2")).page == 13


# ---------------------------------------------------------------- an Autonomous weapon and its firer (p.25)


@pytest.mark.parametrize(("hits_firer", "attacked"), [(True, True), (False, False)])
def test_an_autonomous_weapon_next_to_the_aircraft_that_fired_it_p25(hits_firer, attacked):
    """p.25: "If at the end of any Firing phase the Autonomous weapon occupies a hex adjacent to any other
    aircraft, roll a D6". "Other" than the weapon (default): its firer too; the option spares the firer."""
    weapon = AutonomousWeapon(id="imperium-1/auto-1", owner=IMPERIUM, firer="imperium-1", weapon="test_seeker",
                              weapon_index=1, hex=at(0, -1), facing=N, launched_turn=1, moved_turn=2)
    game = Range(plane("imperium-1", "thunderbolt", C), plane("orks-1", "dakkajet", at(8, -8), S),
                 autonomous={weapon.id: weapon}, autonomous_launched=1,
                 rules=rules_with(autonomous_hits_firer=hits_firer))
    game.dice.enter([1] if attacked else [])
    events = game.pass_(IMPERIUM) + game.pass_(ORKS)
    assert [(a.target, a.hit) for a in of_type(events, AutonomousAttacked)] == (
        [("imperium-1", False)] if attacked else [])


# ---------------------------------------------------------------- a declined Tail Gunner return fire (p.24)


@pytest.mark.parametrize(("spends", "offered_again"), [(False, True), (True, False)])
def test_declining_tail_gunner_return_fire_p24(spends, offered_again):
    """p.24: "Once per turn, when fired upon ... an aircraft may immediately return fire". Declining is not
    returning fire: by default the chance stays for a second Tailing aircraft."""
    game = Range(plane("imperium-1", "thunderbolt", at(0, 3), tailing="orks-1"),
                 plane("imperium-2", "thunderbolt", at(1, 3), tailing="orks-1"),
                 plane("orks-1", "fighta_bommer", at(0, 0)), plane("orks-3", "dakkajet", at(-8, 0)),
                 phase=TAILING_FIRE, first=None, initiative=IMPERIUM,
                 rules=rules_with(declined_return_fire_spends=spends))
    assert one(game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[1, 1]), ReturnFireOffered)
    declined = game.apply(FireWeapons(player=ORKS, aircraft="orks-1"))
    assert one(declined, VolleyEnded).kind == "tail_gunner"
    assert game.aircraft("orks-1").tail_gunner_used is spends
    events = game.fire("imperium-2", (AUTOCANNONS, "orks-1"), dice=[1, 1])
    assert bool(of_type(events, ReturnFireOffered)) is offered_again


# ---------------------------------------------------------------- Ground Defences as aircraft (p.8, p.31)


def left_with_a_ground_defence(**options) -> GameState:
    return Range(plane("imperium-1", "thunderbolt", C, status=DESTROYED, structure=0),
                 plane("imperium-2", "thunderbolt", at(2, 0), status=DESTROYED, structure=0),
                 plane("imperium-3", "thunderbolt", at(4, 0), status=DESTROYED, structure=0),
                 ground_defence("imperium-4", at(0, 6)), plane("orks-1", "dakkajet", at(8, -8), S)).state


def test_ground_defences_count_as_aircraft_for_ending_the_game_by_default_p8_p31():
    """p.8: "The rules refer to 'aircraft' in most cases and this will usually include ... Ground Defences"."""
    state = left_with_a_ground_defence()
    assert game_end_reason(state) is None  # the Ground Defence is still in the Area of Engagement
    assert IMPERIUM in insurmountable_losses(state)  # 1 of 4 left: 25%
    reason = game_end_reason(state, ground_defences=False)
    assert reason is not None and "only orks" in reason
    four_planes = Range(plane("imperium-1", "thunderbolt", C, status=DESTROYED, structure=0),
                        plane("imperium-2", "thunderbolt", at(2, 0)), plane("imperium-3", "thunderbolt", at(4, 0)),
                        ground_defence("imperium-4", at(0, 6)), ground_defence("imperium-5", at(2, 6)),
                        plane("orks-1", "dakkajet", at(8, -8), S)).state
    assert IMPERIUM not in insurmountable_losses(four_planes)
    assert IMPERIUM not in insurmountable_losses(four_planes, ground_defences=False)


def test_not_counting_ground_defences_ends_the_game_in_play_p31():
    game = Range(plane("imperium-1", "thunderbolt", C, status=DESTROYED, structure=0),
                 ground_defence("imperium-4", at(0, 6)), plane("orks-1", "dakkajet", at(8, -8), S),
                 rules=rules_with(ground_defences_count=False))
    events = game.pass_(IMPERIUM) if game.state.to_act == IMPERIUM else []
    events += game.pass_(ORKS)
    assert "last aircraft flying" in one(events, GameEnded).reason


# ---------------------------------------------------------------- when Last Aircraft Flying ends the game (p.29, p.31)


def last_ork_in_the_sights(**options) -> Range:
    return Range(plane("imperium-1", "thunderbolt", C), plane("orks-1", "dakkajet", at(0, -3), S, structure=1),
                 rules=rules_with(**options) if options else None)


def test_last_aircraft_flying_is_checked_in_the_end_phase_by_default_p29():
    game = last_ork_in_the_sights()
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[6, 1, 4])
    ended = one(events, GameEnded)
    assert "last aircraft flying" in ended.reason
    assert of_type(events, TailingDetermined)  # the End phase was played first


def test_last_aircraft_flying_can_end_the_game_at_once_p31():
    """p.31: "Should it ever happen that only one player has any aircraft left in the Area of Engagement for
    any reason, the game automatically ends"."""
    game = last_ork_in_the_sights(last_aircraft_flying="immediately")
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[6, 1, 4])
    ended = one(events, GameEnded)
    assert "last aircraft flying" in ended.reason and ended.winner == IMPERIUM
    assert not of_type(events, TailingDetermined) and not of_type(events, TurnBegan)
    assert game.state.phase == "game_over"
    with pytest.raises(RuleError):
        game.apply(FireWeapons(player=ORKS, aircraft="orks-1"))

