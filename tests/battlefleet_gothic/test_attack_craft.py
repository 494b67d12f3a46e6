"""Attack craft (p.27-30): launch bays and limits, waves, turrets, fighters, bombers."""

import pytest

from aero_events.core import RuleError
from aero_events.rulesets.battlefleet_gothic import events as ev
from aero_events.rulesets.battlefleet_gothic.commands import (
    EndShooting,
    LaunchAttackCraft,
    MoveAttackCraft,
    React,
)
from aero_events.rulesets.battlefleet_gothic.play import play_seeded_game
from aero_events.rulesets.battlefleet_gothic.state import ORDNANCE, SHOOTING, OrdnanceMarker

from .helpers import RULES, decide, of_type, replace, ship, state_with, with_ship


def carrier_state(distance_cm=15):
    dictator = ship("dictator", "imperial", "dictator", 90, 20, 0)
    murder = ship("murder", "chaos", "murder", 90, 20 + distance_cm, 90)
    raider = ship("raider", "chaos", "iconoclast", 62, 20, 180)  # in the Dictator's left arc: shooting stays open
    return state_with(dictator, murder, raider, phase=SHOOTING, active="imperial")


def launch(state, fighters, bombers):
    return decide(state, LaunchAttackCraft(player="imperial", ship="dictator", fighters=fighters, bombers=bombers))


def test_launch_bays_launch_one_squadron_each_p29():
    """A Dictator with four bays launches four squadrons (p.29)."""
    _, after = launch(carrier_state(), 1, 3)
    wave = next(iter(after.ordnance.values()))
    assert (wave.kind, wave.fighters, wave.bombers, wave.speed) == ("attack craft", 1, 3, 20_000)  # slowest
    assert not after.ships["dictator"].ordnance_loaded
    with pytest.raises(RuleError, match="launch 4"):
        launch(carrier_state(), 3, 2)


def test_fleet_ordnance_limit_p27():
    state = carrier_state()
    in_play = OrdnanceMarker(id="wave-50", side="imperial", kind="attack craft", launcher="dictator", x=0, y=0,
                             heading=0, strength=3, speed=30_000, launched_turn=0, fighters=3)
    state = replace(state, ordnance={in_play.id: in_play})
    with pytest.raises(RuleError, match="fleet's launch bays"):
        launch(state, 2, 0)


def test_crippled_carrier_launches_half_p23():
    state = with_ship(carrier_state(), "dictator", damage=4)
    with pytest.raises(RuleError, match="launch 2"):
        launch(state, 0, 3)


def test_bombers_turrets_then_d6_minus_turrets_attacks_at_lowest_armour_p30():
    """Two turrets shoot first (one squadron down); each surviving bomber makes D6-2 attacks at Armour 5+."""
    _, state = launch(carrier_state(), 0, 3)
    _, state = decide(state, EndShooting(player="imperial"))
    assert state.phase == ORDNANCE
    _, state = decide(state, MoveAttackCraft(player="imperial", marker="wave-1", x=90_000, y=35_000))
    assert state.pending.kind == "attack craft" and state.pending.can_turrets
    events, after = decide(state, React(player="chaos", ship="murder", brace=False, turrets=True),
                           [4, 1, 6, 3, 5, 6, 1, 2, 5])
    assert of_type(events, ev.TurretsFired)[0].hits == 1
    bombing = of_type(events, ev.BomberAttack)[0]
    assert (bombing.squadrons, bombing.attacks, bombing.needed, bombing.hits) == (2, 5, 5, 3)
    assert after.ships["murder"].damage == 3 and "wave-1" not in after.ordnance  # shields ignored; wave gone


def test_turrets_destroy_fighters_first_p30():
    _, state = launch(carrier_state(), 2, 2)
    _, state = decide(state, EndShooting(player="imperial"))
    _, state = decide(state, MoveAttackCraft(player="imperial", marker="wave-1", x=90_000, y=35_000))
    events, _ = decide(state, React(player="chaos", ship="murder", brace=False, turrets=True), [4, 4, 1, 1])
    lost = of_type(events, ev.SquadronsLost)[0]
    assert (lost.fighters, lost.bombers) == (0, 2)


def test_fighters_intercept_enemy_ordnance_both_removed_p29():
    _, state = launch(carrier_state(distance_cm=80), 2, 0)
    salvo = OrdnanceMarker(id="torpedoes-60", side="chaos", kind="torpedoes", launcher="murder", x=90_000, y=40_000,
                           heading=18000, strength=4, speed=30_000, launched_turn=0)
    state = replace(state, ordnance={**state.ordnance, salvo.id: salvo})
    _, state = decide(state, EndShooting(player="imperial"))
    _, after = decide(state, MoveAttackCraft(player="imperial", marker="wave-1", x=90_000, y=45_000))
    assert "torpedoes-60" not in after.ordnance and after.ordnance["wave-1"].fighters == 1


def test_a_wave_moves_at_most_its_speed_p29():
    _, state = launch(carrier_state(distance_cm=80), 0, 2)
    _, state = decide(state, EndShooting(player="imperial"))
    with pytest.raises(RuleError, match="at most 20 cm"):
        decide(state, MoveAttackCraft(player="imperial", marker="wave-1", x=90_000, y=40_100))


def test_carrier_battle_played_by_bots():
    session = play_seeded_game(4, options={"fleets": {"imperial": ["dictator"], "chaos": ["devastation"]},
                                           "points_cap": False})
    kinds = {type(env.event).__name__ for env in session.events()}
    assert session.is_over() and RULES.outcome(session.state).finished
    assert "OrdnanceLaunched" in kinds and kinds & {"BomberAttack", "SquadronsLost", "TurretsFired"}


def test_fighters_in_base_contact_may_move_with_their_ship_and_then_stay_p29():
    from aero_events.rulesets.battlefleet_gothic.commands import MoveShip
    from aero_events.rulesets.battlefleet_gothic.movement import grid
    from aero_events.rulesets.battlefleet_gothic.state import MOVEMENT

    dictator = ship("dictator", "imperial", "dictator", 90, 20, 0)
    murder = ship("murder", "chaos", "murder", 30, 100, 180)
    fighters = OrdnanceMarker(id="wave-40", side="imperial", kind="attack craft", launcher="dictator", x=92_500,
                              y=20_000, heading=0, strength=2, speed=30_000, launched_turn=0, fighters=2)
    state = replace(state_with(dictator, murder, phase=MOVEMENT), ordnance={fighters.id: fighters})
    assert any(o.screen == ("wave-40",) for o in grid(RULES, state, state.ships["dictator"]))
    events, after = decide(state, MoveShip(player="imperial", ship="dictator", legs=(15_000,), screen=("wave-40",)))
    assert after.ordnance["wave-40"].position == (92_500, 35_000)
    assert not any(isinstance(e, ev.OrdnanceMoved) and e.marker == "wave-40" for e in events)  # stays this turn
    far = replace(fighters, x=100_000)
    state = replace(state, ordnance={far.id: far})
    with pytest.raises(RuleError, match="base contact"):
        decide(state, MoveShip(player="imperial", ship="dictator", legs=(15_000,), screen=("wave-40",)))


def test_a_ship_moving_into_enemy_bombers_is_attacked_but_not_by_its_own_fighters_p28():
    from aero_events.rulesets.battlefleet_gothic.commands import MoveShip
    from aero_events.rulesets.battlefleet_gothic.state import MOVEMENT

    lunar = ship("agrippa", "imperial", "lunar", 90, 20, 0)
    murder = ship("murder", "chaos", "murder", 30, 100, 180)
    bombers = OrdnanceMarker(id="wave-41", side="chaos", kind="attack craft", launcher="murder", x=90_000, y=30_000,
                             heading=0, strength=1, speed=20_000, launched_turn=0, bombers=1)
    own = OrdnanceMarker(id="wave-42", side="imperial", kind="attack craft", launcher="agrippa", x=90_000, y=24_000,
                         heading=0, strength=1, speed=30_000, launched_turn=0, fighters=1)
    state = replace(state_with(lunar, murder, phase=MOVEMENT), ordnance={bombers.id: bombers, own.id: own})
    events, after = decide(state, MoveShip(player="imperial", ship="agrippa", legs=(15_000,)), [1, 1, 6, 6, 6, 6, 6])
    bombing = of_type(events, ev.BomberAttack)[0]
    assert (bombing.ship, bombing.attacks, bombing.hits) == ("agrippa", 4, 4)
    assert "wave-41" not in after.ordnance and "wave-42" in after.ordnance


def test_waves_split_during_their_move_and_each_part_moves_at_its_own_speed_p30():
    _, state = launch(carrier_state(distance_cm=80), 2, 2)
    _, state = decide(state, EndShooting(player="imperial"))
    _, after = decide(state, MoveAttackCraft(player="imperial", marker="wave-1", x=90_000, y=40_000, fighters=0,
                                             bombers=2))
    assert (after.ordnance["wave-1"].bombers, after.ordnance["wave-1"].fighters) == (2, 0)
    rest = after.ordnance["wave-2"]
    assert (rest.fighters, rest.bombers, rest.speed, rest.position) == (2, 0, 30_000, (90_000, 20_000))
    _, after = decide(after, MoveAttackCraft(player="imperial", marker="wave-2", x=90_000, y=49_000))
    assert after.ordnance["wave-2"].position == (90_000, 49_000)
    with pytest.raises(RuleError, match="splits"):
        decide(state, MoveAttackCraft(player="imperial", marker="wave-1", x=90_000, y=30_000, fighters=3))


def test_recalling_craft_frees_the_fleet_limit_p27():
    from aero_events.rulesets.battlefleet_gothic.commands import RecallAttackCraft

    state = carrier_state()
    in_play = OrdnanceMarker(id="wave-50", side="imperial", kind="attack craft", launcher="dictator", x=0, y=0,
                             heading=0, strength=3, speed=30_000, launched_turn=0, fighters=3)
    state = replace(state, ordnance={in_play.id: in_play})
    assert RecallAttackCraft(player="imperial", marker="wave-50") in RULES.legal_commands(state, "imperial")
    _, after = decide(state, RecallAttackCraft(player="imperial", marker="wave-50"))
    _, after = launch(after, 2, 2)
    assert sum(m.strength for m in after.ordnance.values()) == 4


def fighters_in_ordnance_phase():
    _, state = launch(carrier_state(), 2, 0)
    _, state = decide(state, EndShooting(player="imperial"))
    return state


def test_attack_craft_turn_freely_around_what_they_avoid_p29():
    """Craft "turn freely and move in any direction, up to the distance indicated by their speed" and avoid
    what their course does not touch (p.29): straight to (93, 44) the wave meets the Murder at (90, 35); by
    way of (98, 27) it flies round it (28.4 cm in all)."""
    state = fighters_in_ordnance_phase()
    _, straight = decide(state, MoveAttackCraft(player="imperial", marker="wave-1", x=93_000, y=44_000))
    assert straight.pending is not None and straight.pending.ship == "murder"
    _, around = decide(state, MoveAttackCraft(player="imperial", marker="wave-1", x=93_000, y=44_000,
                                              via=((98_000, 27_000),)))
    assert around.pending is None and "wave-1" in around.ordnance
    assert (around.ordnance["wave-1"].position, around.ordnance["wave-1"].done) == ((93_000, 44_000), True)


def test_a_turning_path_is_at_most_the_craft_speed_p29():
    with pytest.raises(RuleError, match="at most 30 cm"):
        decide(fighters_in_ordnance_phase(), MoveAttackCraft(player="imperial", marker="wave-1", x=93_000, y=44_000,
                                                             via=((110_000, 20_000),)))


def test_contacts_on_a_later_leg_of_the_path_are_met_p29():
    state = fighters_in_ordnance_phase()
    _, after = decide(state, MoveAttackCraft(player="imperial", marker="wave-1", x=96_000, y=35_000,
                                             via=((84_000, 30_000),)))
    assert after.pending is not None and after.pending.ship == "murder"
    wave = after.ordnance["wave-1"]
    assert wave.position != (96_000, 35_000) and 84_000 < wave.x < 96_000
