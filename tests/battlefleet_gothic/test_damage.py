"""Damage (p.23-26): crippling, shields and Blast markers, criticals, escorts, catastrophic damage."""

from aero_events.core import DiceCup, TapeDice
from aero_events.rulesets.battlefleet_gothic import damage
from aero_events.rulesets.battlefleet_gothic import events as ev
from aero_events.rulesets.battlefleet_gothic import ships as sh
from aero_events.rulesets.battlefleet_gothic.state import (
    BLAZING_HULK,
    DESTROYED,
    DRIFTING_HULK,
    SHOOTING,
    BlastMarker,
)
from aero_events.rulesets.battlefleet_gothic.turn import Emitter

from .helpers import RULES, of_type, replace, ship, state_with, with_ship

AGRIPPA = ship("agrippa", "imperial", "lunar", 90, 20, 0, name="Agrippa")
UNCLEAN = ship("unclean", "chaos", "murder", 90, 45, 90, name="Unclean")


def hit(state, target, hits, faces, kind="battery", source=(90_000, 45_000)):
    out = Emitter(state, RULES.evolve)
    damage.resolve_hits(RULES, out, DiceCup(TapeDice(list(faces))), target, hits, kind, source, "unclean")
    return out.events, out.state


def test_lunar_crippled_at_4_damage_p23():
    """A standard Lunar class cruiser has 8 hits and is crippled when it has suffered 4 points of damage."""
    state = state_with(AGRIPPA, UNCLEAN, phase=SHOOTING)
    state = with_ship(state, "agrippa", damage=3)
    cls = RULES.data.classes["lunar"]
    assert not sh.crippled(cls, state.ships["agrippa"])
    events, after = hit(state, "agrippa", 1, [1], kind="torpedo")
    assert of_type(events, ev.ShipCrippled) and sh.crippled(cls, after.ships["agrippa"])


def test_crippled_halves_shields_and_turrets_p23():
    cls = RULES.data.classes["emperor"]
    battleship = replace(state_with(ship("e", "imperial", "emperor", 90, 20), UNCLEAN).ships["e"], damage=6)
    assert sh.shields(RULES, cls, battleship) == 2 and sh.turrets(cls, battleship) == 3


def test_shields_absorb_one_hit_each_and_place_markers_facing_the_attack_p25():
    """The Iron Duke (two shields) takes three hits: two Blast markers, one damage point."""
    duke = ship("duke", "imperial", "gothic", 90, 20, 0, name="Iron Duke")
    state = state_with(duke, UNCLEAN, phase=SHOOTING)
    events, after = hit(state, "duke", 3, [1])
    assert of_type(events, ev.HitsAbsorbed)[0].hits == 2 and after.ships["duke"].damage == 1
    first, second = (m.position for m in after.blast_markers.values())
    assert first == (90_000, 22_850)  # touching the base on the line towards the Unclean
    assert abs(second[0] - 90_000) > 2000  # the next one beside it, not stacked


def test_markers_in_contact_reduce_shields_p25():
    state = state_with(AGRIPPA, UNCLEAN, phase=SHOOTING)
    state = replace(state, blast_markers={"1": BlastMarker(90_000, 22_850), "2": BlastMarker(92_400, 21_300)})
    events, after = hit(state, "agrippa", 1, [1])
    assert not of_type(events, ev.HitsAbsorbed) and after.ships["agrippa"].damage == 1


def test_torpedoes_ignore_shields_p25():
    _events, after = hit(state_with(AGRIPPA, UNCLEAN), "agrippa", 2, [1, 1], kind="torpedo")
    assert after.ships["agrippa"].damage == 2 and not after.blast_markers


def test_critical_on_a_6_then_2d6_table_p24():
    events, after = hit(state_with(AGRIPPA, UNCLEAN), "agrippa", 1, [6, 4, 4], kind="torpedo")
    assert of_type(events, ev.CriticalHit)[0].critical == "thrusters"
    assert after.ships["agrippa"].damage == 2  # +1 extra damage, which rolls no critical (no more dice)
    assert sh.speed(RULES, RULES.data.classes["lunar"], after.ships["agrippa"]) == 10_000


def test_unavailable_critical_moves_to_the_next_highest_p24():
    """The Lunar has no dorsal armament: a 2 becomes Starboard Armament Damaged."""
    events, _after = hit(state_with(AGRIPPA, UNCLEAN), "agrippa", 1, [6, 1, 1], kind="torpedo")
    assert of_type(events, ev.CriticalHit)[0].critical == "starboard_armament"


def test_second_bridge_smashed_moves_on_p24():
    state = with_ship(state_with(AGRIPPA, UNCLEAN), "agrippa", criticals=("bridge",))
    events, after = hit(state, "agrippa", 1, [6, 4, 5], kind="torpedo")
    assert of_type(events, ev.CriticalHit)[0].critical == "shields_collapse"
    assert sh.leadership(after.ships["agrippa"]) == 4


def test_escorts_destroyed_by_any_critical_p24():
    sword = ship("sword", "imperial", "sword", 90, 20, 0)
    _events, after = hit(replace(state_with(sword, UNCLEAN)), "sword", 1, [6, 1, 1], kind="torpedo")
    assert after.ships["sword"].status == DESTROYED


def test_escort_out_of_action_leaves_a_blast_marker_p26():
    sword = ship("sword", "imperial", "sword", 90, 20, 0)
    _events, after = hit(state_with(sword, UNCLEAN), "sword", 1, [1], kind="torpedo")
    assert after.ships["sword"].status == DESTROYED and len(after.blast_markers) == 1


def test_catastrophic_damage_drifting_and_blazing_hulks_p26():
    state = with_ship(state_with(AGRIPPA, UNCLEAN), "agrippa", damage=7)
    _, after = hit(state, "agrippa", 1, [1, 3, 3], kind="torpedo")
    assert after.ships["agrippa"].status == DRIFTING_HULK
    _, after = hit(state, "agrippa", 1, [1, 4, 4], kind="torpedo")
    assert after.ships["agrippa"].status == BLAZING_HULK


def test_plasma_drive_overload_strikes_ships_nearby_with_lances_p26():
    """9-11: removed, Blast markers = half its starting hits, lance shots of strength 4 within 3D6 cm. (The
    Unclean's own movement phase: no Brace window, p.11.)"""
    state = with_ship(state_with(AGRIPPA, ship("unclean", "chaos", "murder", 90, 30, 90), active="chaos"),
                      "agrippa", damage=7)
    events, after = hit(state, "agrippa", 1, [1, 5, 5, 4, 4, 4, 6, 6, 1, 1, 1, 1, 1],
                        kind="torpedo")
    assert after.ships["agrippa"].status == DESTROYED
    assert of_type(events, ev.CatastrophicDamage)[0].radius == 12_000
    assert len([e for e in of_type(events, ev.BlastMarkerPlaced) if e.reason == "Plasma Drive Overload"]) == 4
    lances = of_type(events, ev.LancesResolved)[0]
    assert (lances.target, lances.strength, lances.hits) == ("unclean", 4, 2)


def test_warp_drive_implosion_p26():
    state = with_ship(state_with(AGRIPPA, UNCLEAN), "agrippa", damage=7)
    events, after = hit(state, "agrippa", 1, [1, 6, 6, 1, 1, 1], kind="torpedo")
    assert of_type(events, ev.CatastrophicDamage)[0].result == "Warp Drive Implosion"
    assert len(after.blast_markers) == 8 and not of_type(events, ev.LancesResolved)  # 3 cm: nobody near


def test_hits_on_a_hulk_roll_catastrophic_damage_again_p26():
    state = with_ship(state_with(AGRIPPA, UNCLEAN), "agrippa", damage=8, status=DRIFTING_HULK)
    events, after = hit(state, "agrippa", 3, [4, 4])
    assert len(of_type(events, ev.CatastrophicDamage)) == 1 and after.ships["agrippa"].status == BLAZING_HULK


def test_shield_markers_touch_other_bases_only_in_base_contact_p25():
    """A ship 3.5 cm away (not in base contact) sits on the line of the attack: the marker goes beside it."""
    duke = ship("duke", "imperial", "gothic", 90, 20, 0, name="Iron Duke")
    near = ship("near", "imperial", "lunar", 90, 23.5, 0)
    state = state_with(duke, near, UNCLEAN, phase=SHOOTING)
    _, after = hit(state, "duke", 1, [])
    marker = next(iter(after.blast_markers.values()))
    assert marker.position != (90_000, 22_850)
    assert (marker.x - 90_000) ** 2 + (marker.y - 23_500) ** 2 > (1600 + 1250) ** 2
