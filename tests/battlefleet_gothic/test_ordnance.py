"""The ordnance phase (p.27-30): launching, torpedo moves and attacks, turrets, Blast markers, detonation."""

import pytest

from aero_events.core import RuleError
from aero_events.rulesets.battlefleet_gothic import events as ev
from aero_events.rulesets.battlefleet_gothic.commands import EndShooting, LaunchTorpedoes, React
from aero_events.rulesets.battlefleet_gothic.state import SHOOTING, BlastMarker, OrdnanceMarker

from .helpers import QUIET, decide, of_type, replace, ship, state_with, with_ship


def torpedo_state(distance_cm=20, **changes):
    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 0)
    unclean = ship("unclean", "chaos", "murder", 90, 20 + distance_cm, 90)
    raider = ship("raider", "chaos", "iconoclast", 62, 20, 180)  # in the Agrippa's left arc: shooting stays open
    return state_with(agrippa, unclean, raider, phase=SHOOTING, active="imperial", **changes)


def launch(state, heading=0):
    return decide(state, LaunchTorpedoes(player="imperial", ship="agrippa", weapon="prow_torpedoes", heading=heading))


def test_launch_puts_the_marker_on_the_base_and_empties_the_tubes_p27():
    _, after = launch(torpedo_state())
    salvo = next(iter(after.ordnance.values()))
    assert (salvo.x, salvo.y, salvo.strength, salvo.speed) == (90_000, 20_000, 6, 30_000)
    assert not after.ships["agrippa"].ordnance_loaded
    with pytest.raises(RuleError, match="Reload Ordnance"):
        launch(after)


def test_launch_heading_inside_the_arc_p28():
    with pytest.raises(RuleError, match="fire arc"):
        launch(torpedo_state(), heading=4600)
    launch(torpedo_state(), heading=4500)


def test_braced_ships_launch_half_strength_p23():
    state = with_ship(torpedo_state(), "agrippa", order="brace for impact")
    _, after = launch(state)
    assert next(iter(after.ordnance.values())).strength == 3


def test_torpedoes_attack_in_the_ordnance_phase_and_turrets_fire_first_p28_p29():
    """Strength 6: the Unclean's two turrets shoot one down; 5D6 against Armour 5: three hits, Strength 2 left."""
    _, state = launch(torpedo_state())
    events, after = decide(state, EndShooting(player="imperial"), [])
    offered = of_type(events, ev.ReactionOffered)[0]
    assert (offered.ship, offered.can_turrets) == ("unclean", True) and after.pending.player == "chaos"
    events, after = decide(after, React(player="chaos", ship="unclean", brace=False, turrets=True),
                           [4, 1, 5, 6, 5, 1, 2, 1, 1, 1])
    assert of_type(events, ev.TurretsFired)[0].hits == 1
    attack = of_type(events, ev.TorpedoAttack)[0]
    assert (attack.strength, attack.needed, attack.hits) == (5, 5, 3)
    assert after.ships["unclean"].damage == 3  # torpedoes ignore shields
    assert of_type(events, ev.SalvoWeakened)[0].strength == 2


def test_salvo_continues_its_full_move_and_leaves_the_table():
    _, state = launch(torpedo_state(distance_cm=60))
    events, _after = decide(state, EndShooting(player="imperial"), [])
    moved = of_type(events, ev.OrdnanceMoved)[0]
    assert moved.travelled == 30_000 and moved.done and (moved.x, moved.y) == (90_000, 50_000)


def test_ordnance_through_blast_markers_removed_on_a_6_p28():
    _, state = launch(torpedo_state(distance_cm=60))
    state = replace(state, blast_markers={"1": BlastMarker(90_000, 35_000)})
    events, after = decide(state, EndShooting(player="imperial"), [6])
    assert of_type(events, ev.OrdnanceRemoved)[0].reason == "destroyed in Blast markers"
    assert not after.ordnance


def test_salvo_hitting_another_salvo_detonates_p28():
    _, state = launch(torpedo_state(distance_cm=60))
    other = OrdnanceMarker(id="torpedoes-99", side="chaos", kind="torpedoes", launcher="unclean", x=90_000,
                           y=40_000, heading=18000, strength=2, speed=30_000, launched_turn=0)
    state = replace(state, ordnance={**state.ordnance, other.id: other})
    _, after = decide(state, EndShooting(player="imperial"), [])
    assert not after.ordnance


def test_ship_moving_into_a_salvo_is_attacked_p27():
    from aero_events.rulesets.battlefleet_gothic.commands import MoveShip
    from aero_events.rulesets.battlefleet_gothic.state import MOVEMENT

    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 0)
    unclean = ship("unclean", "chaos", "murder", 50, 100, 180)
    salvo = OrdnanceMarker(id="torpedoes-7", side="chaos", kind="torpedoes", launcher="unclean", x=90_000,
                           y=32_000, heading=9000, strength=2, speed=30_000, launched_turn=0)
    state = replace(state_with(agrippa, unclean, phase=MOVEMENT), ordnance={salvo.id: salvo})
    events, after = decide(state, MoveShip(player="imperial", ship="agrippa", legs=(20_000,)), [1, 1, 6, 5],
                           rules=QUIET)
    attack = of_type(events, ev.TorpedoAttack)[0]
    assert attack.ship == "agrippa" and attack.hits == 1 and after.ships["agrippa"].damage == 1
    first_leg = of_type(events, ev.ShipMoved)[0]
    assert not first_leg.complete and first_leg.y < 32_000


def test_massed_turrets_p29():
    """A friendly ship in base contact adds one turret: 2 + 1 dice."""
    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 0)
    unclean = ship("unclean", "chaos", "murder", 90, 40, 90)
    friend = ship("friend", "chaos", "murder", 93.2, 40, 90)
    raider = ship("raider", "chaos", "iconoclast", 62, 20, 180)
    state = state_with(agrippa, unclean, friend, raider, phase=SHOOTING, active="imperial")
    _, state = launch(state)
    _, after = decide(state, EndShooting(player="imperial"), [])
    events, _ = decide(after, React(player="chaos", ship="unclean", brace=False, turrets=True), [1] * 12)
    assert of_type(events, ev.TurretsFired)[0].turrets == 3
