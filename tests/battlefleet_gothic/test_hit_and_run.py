"""Boarding torpedoes (p.28), assault boats (p.30) and the hit-and-run raid they make (not in the text: the
option ``hit_and_run`` plays the reconstruction in ordnance.json)."""

import pytest

from aero_events.core import DiceCup, RuleError, TapeDice
from aero_events.rulesets.battlefleet_gothic import BattlefleetGothicRules, RuleOptions, hit_and_run
from aero_events.rulesets.battlefleet_gothic import events as ev
from aero_events.rulesets.battlefleet_gothic.commands import (
    EndShooting,
    LaunchAttackCraft,
    LaunchTorpedoes,
    MoveAttackCraft,
    React,
    SteerTorpedoes,
)
from aero_events.rulesets.battlefleet_gothic.state import (
    DESTROYED,
    DRIFTING_HULK,
    ORDNANCE,
    SHOOTING,
    OrdnanceMarker,
)
from aero_events.rulesets.battlefleet_gothic.turn import Emitter

from .helpers import RULES, decide, of_type, replace, ship, state_with, with_ship

RAIDS = BattlefleetGothicRules(options=RuleOptions(hit_and_run=True))


def salvo(x_cm, y_cm, heading_deg=0, strength=2, launched_turn=0, kind="boarding", ignore_hulks=True,
          side="imperial"):
    return OrdnanceMarker(id="torpedoes-50", side=side, kind="torpedoes", launcher="agrippa", x=x_cm * 1000,
                          y=y_cm * 1000, heading=heading_deg * 100, strength=strength, speed=30_000,
                          launched_turn=launched_turn, torpedo_kind=kind, ignore_hulks=ignore_hulks,
                          attacked=("agrippa",))


def at_shooting(*ships, ordnance=()):
    agrippa = ship("agrippa", "imperial", "lunar", 20, 20, 0)
    state = state_with(agrippa, *ships, phase=SHOOTING, active="imperial", rules=RAIDS)
    return replace(state, ordnance={m.id: m for m in ordnance})


# ---------------------------------------------------------------- boarding torpedoes (p.28)

def test_boarding_torpedoes_need_the_hit_and_run_option_p28():
    """The raid is in the Advanced Rules the text lacks: by default boarding torpedoes cannot be launched."""
    state = state_with(ship("agrippa", "imperial", "lunar", 90, 20, 0), ship("unclean", "chaos", "murder", 90, 60),
                       phase=SHOOTING)
    launch = LaunchTorpedoes(player="imperial", ship="agrippa", weapon="prow_torpedoes", heading=0, kind="boarding",
                             ignore_hulks=True)
    with pytest.raises(RuleError, match="Advanced Rules"):
        decide(state, launch)
    assert not [c for c in RULES.legal_commands(state, "imperial") if getattr(c, "kind", "") == "boarding"]
    assert [c for c in RAIDS.legal_commands(state, "imperial") if getattr(c, "kind", "") == "boarding"]
    _, after = decide(state, launch, rules=RAIDS)
    assert next(iter(after.ordnance.values())).torpedo_kind == "boarding"
    with pytest.raises(RuleError, match="only boarding torpedoes"):
        decide(state, replace(launch, kind="standard"), rules=RAIDS)


def test_boarding_torpedoes_turn_up_to_45_degrees_at_the_start_of_the_ordnance_phase_p28():
    """A salvo launched in an earlier turn waits for its turn decision before any ordnance moves; 45 degrees
    to starboard brings the Murder 20 cm away on a bearing of 45 degrees into its path."""
    murder = ship("murder", "chaos", "murder", 74.142, 54.142, 90)
    state = at_shooting(murder, ordnance=[salvo(60, 40)])
    _, state = decide(state, EndShooting(player="imperial"), rules=RAIDS)
    assert state.phase == ORDNANCE and state.ordnance["torpedoes-50"].travelled == 0
    steers = [c for c in RAIDS.legal_commands(state, "imperial") if isinstance(c, SteerTorpedoes)]
    assert sorted(c.turn for c in steers) == [-4500, -3000, -1500, 0, 1500, 3000, 4500]
    with pytest.raises(RuleError, match="up to 45 degrees"):
        decide(state, SteerTorpedoes(player="imperial", marker="torpedoes-50", turn=4600), rules=RAIDS)
    events, state = decide(state, SteerTorpedoes(player="imperial", marker="torpedoes-50", turn=4500), rules=RAIDS)
    assert of_type(events, ev.TorpedoesSteered)[0].heading == 4500
    assert state.pending.ship == "murder" and state.pending.kind == "torpedoes"


def test_boarding_torpedoes_cannot_turn_in_their_launch_turn_p28():
    murder = ship("murder", "chaos", "murder", 74.142, 54.142, 90)
    state = at_shooting(murder, ordnance=[salvo(60, 40, launched_turn=1)])  # this player turn
    _, after = decide(state, EndShooting(player="imperial"), rules=RAIDS)
    assert not [c for c in RAIDS.legal_commands(after, "imperial") if isinstance(c, SteerTorpedoes)]
    moved = after.ordnance["torpedoes-50"]
    assert (moved.position, moved.heading, moved.done) == ((60_000, 70_000), 0, True)  # straight on, 30 cm
    with pytest.raises(RuleError):
        decide(after, SteerTorpedoes(player="imperial", marker="torpedoes-50", turn=0), rules=RAIDS)


def test_boarding_torpedoes_pass_friendly_ships_and_may_ignore_hulks_p28():
    """Heading north: a friendly Lunar, then a Chaos hulk, then the Murder. A standard salvo attacks the Lunar
    (friend or foe); a boarding salvo passes it, ignores the hulk if it elected to, and boards the Murder."""
    friend = ship("friend", "imperial", "lunar", 60, 46, 0)
    wreck = ship("wreck", "chaos", "murder", 60, 53, 90)
    murder = ship("murder", "chaos", "murder", 60, 62, 90)

    def run(marker):
        state = at_shooting(friend, wreck, murder, ordnance=[marker])
        state = with_ship(state, "wreck", status=DRIFTING_HULK, damage=8)
        _, after = decide(state, EndShooting(player="imperial"), rules=RAIDS)
        return after

    assert run(salvo(60, 40, launched_turn=1, kind="standard", ignore_hulks=False)).pending.ship == "friend"
    boarding = run(salvo(60, 40, launched_turn=1))
    assert boarding.pending.ship == "murder"
    events, after = decide(boarding, React(player="chaos", ship="murder", brace=False, turrets=False), [4, 3, 4, 1],
                           rules=RAIDS)
    raids = of_type(events, ev.HitAndRunRaid)
    assert [r.success for r in raids] == [True, False]  # one raid per torpedo, 4+ succeeds
    assert [c.critical for c in of_type(events, ev.CriticalHit)] == ["fire"]  # 2D6 = 7 on p.24's table
    assert "torpedoes-50" not in after.ordnance  # the salvo is spent boarding
    not_ignoring = run(salvo(60, 40, launched_turn=1, ignore_hulks=False))
    assert "torpedoes-50" not in not_ignoring.ordnance and not_ignoring.pending is None  # detonated on the hulk


# ---------------------------------------------------------------- the raid (reconstruction)

def raid(state, ship_id, count, faces):
    out = Emitter(state, RAIDS.evolve)
    hit_and_run.raids(RAIDS, out, DiceCup(TapeDice(list(faces))), "torpedoes-50", "imperial", ship_id, count)
    return out.events, out.state


def test_hit_and_run_raid_critical_on_a_4_reconstruction():
    state = at_shooting(ship("murder", "chaos", "murder", 60, 62, 90))
    events, after = raid(state, "murder", 2, [3, 6, 5, 5])  # 3 fails; 6 succeeds: 2D6 = 10, shields collapse
    assert [r.success for r in of_type(events, ev.HitAndRunRaid)] == [False, True]
    assert after.ships["murder"].criticals == ("shields_collapse",) and after.ships["murder"].damage == 0


def test_brace_for_impact_saves_hit_and_run_criticals_p23():
    """p.23: the Brace save "includes Critical Damage from any Hit and Run attacks"."""
    state = with_ship(at_shooting(ship("murder", "chaos", "murder", 60, 62, 90)), "murder",
                      order="brace for impact")
    events, after = raid(state, "murder", 1, [5, 4])
    assert of_type(events, ev.HitsSaved)[0].saved == 1 and not of_type(events, ev.CriticalHit)
    events, after = raid(state, "murder", 1, [5, 3, 5, 5])
    assert of_type(events, ev.HitsSaved)[0].saved == 0 and after.ships["murder"].criticals == ("shields_collapse",)


def test_a_raid_destroys_an_escort_p24():
    """Escorts are destroyed by a critical hit "for any reason" (p.24)."""
    state = at_shooting(ship("raider", "chaos", "iconoclast", 60, 62, 90))
    _, after = raid(state, "raider", 1, [4, 1, 1])
    assert after.ships["raider"].status == DESTROYED


# ---------------------------------------------------------------- assault boats (p.30)

def carrier_state(distance_cm=15, **extra):
    dictator = ship("dictator", "imperial", "dictator", 90, 20, 0)
    murder = ship("murder", "chaos", "murder", 90, 20 + distance_cm, 90)
    raider = ship("raider", "chaos", "iconoclast", 62, 20, 180)  # in the Dictator's left arc: shooting stays open
    state = state_with(dictator, murder, raider, phase=SHOOTING, active="imperial", rules=RAIDS)
    return replace(state, **extra)


def test_assault_boats_need_the_hit_and_run_option_p30():
    command = LaunchAttackCraft(player="imperial", ship="dictator", fighters=0, bombers=0, assault_boats=2)
    with pytest.raises(RuleError, match="Advanced Rules"):
        decide(carrier_state(), command)
    assert not any(getattr(c, "assault_boats", 0) for c in RULES.legal_commands(carrier_state(), "imperial"))
    _, after = decide(carrier_state(), command, rules=RAIDS)
    wave = next(iter(after.ordnance.values()))
    assert (wave.assault_boats, wave.strength, wave.speed) == (2, 2, 30_000)  # Shark assault boats 30 cm


def test_assault_boats_make_one_raid_per_squadron_then_are_removed_p30():
    command = LaunchAttackCraft(player="imperial", ship="dictator", fighters=0, bombers=0, assault_boats=3)
    _, state = decide(carrier_state(), command, rules=RAIDS)
    _, state = decide(state, EndShooting(player="imperial"), rules=RAIDS)
    _, state = decide(state, MoveAttackCraft(player="imperial", marker="wave-1", x=90_000, y=35_000), rules=RAIDS)
    assert state.pending.kind == "attack craft"
    events, after = decide(state, React(player="chaos", ship="murder", brace=False, turrets=True),
                           [4, 1, 1, 4, 3, 4], rules=RAIDS)
    assert of_type(events, ev.TurretsFired)[0].hits == 1  # one squadron shot down by the two turrets
    assert [r.success for r in of_type(events, ev.HitAndRunRaid)] == [False, True]  # two raids: 1, then 4
    assert after.ships["murder"].criticals == ("fire",) and "wave-1" not in after.ordnance


def test_assault_boats_meeting_fighters_both_removed_p30():
    boats = OrdnanceMarker(id="wave-60", side="imperial", kind="attack craft", launcher="dictator", x=90_000,
                           y=60_000, heading=0, strength=1, speed=30_000, launched_turn=0, assault_boats=1)
    fighters = OrdnanceMarker(id="wave-61", side="chaos", kind="attack craft", launcher="murder", x=90_000,
                              y=75_000, heading=0, strength=1, speed=30_000, launched_turn=0, fighters=1)
    state = carrier_state(distance_cm=80, ordnance={"wave-60": boats, "wave-61": fighters})
    _, state = decide(state, EndShooting(player="imperial"), rules=RAIDS)
    _, after = decide(state, MoveAttackCraft(player="imperial", marker="wave-60", x=90_000, y=85_000), rules=RAIDS)
    assert "wave-60" not in after.ordnance and "wave-61" not in after.ordnance


def test_assault_boats_and_other_ordnance_leave_both_in_play_p30():
    boats = OrdnanceMarker(id="wave-60", side="imperial", kind="attack craft", launcher="dictator", x=90_000,
                           y=60_000, heading=0, strength=1, speed=30_000, launched_turn=0, assault_boats=1)
    bombers = OrdnanceMarker(id="wave-61", side="chaos", kind="attack craft", launcher="murder", x=90_000,
                             y=75_000, heading=0, strength=1, speed=20_000, launched_turn=0, bombers=1)
    state = carrier_state(distance_cm=80, ordnance={"wave-60": boats, "wave-61": bombers})
    _, state = decide(state, EndShooting(player="imperial"), rules=RAIDS)
    _, after = decide(state, MoveAttackCraft(player="imperial", marker="wave-60", x=90_000, y=85_000), rules=RAIDS)
    assert after.ordnance["wave-61"].bombers == 1
    assert after.ordnance["wave-60"].position == (90_000, 85_000)  # flew on past the bombers


def test_boarding_torpedoes_turn_before_any_ordnance_moves_p28():
    """"At the start of the ordnance phase": the Chaos salvo's turn comes before the Imperial wave moves,
    although the phasing player's ordnance moves first (p.27)."""
    chaos_salvo = replace(salvo(60, 90, heading_deg=180, side="chaos"), launcher="murder", attacked=("murder",))
    wave = OrdnanceMarker(id="wave-70", side="imperial", kind="attack craft", launcher="dictator", x=90_000,
                          y=20_000, heading=0, strength=1, speed=30_000, launched_turn=0, fighters=1)
    state = carrier_state(distance_cm=60, ordnance={"torpedoes-50": chaos_salvo, "wave-70": wave})
    _, state = decide(state, EndShooting(player="imperial"), rules=RAIDS)
    assert not [c for c in RAIDS.legal_commands(state, "imperial") if isinstance(c, MoveAttackCraft)]
    assert [c for c in RAIDS.legal_commands(state, "chaos") if isinstance(c, SteerTorpedoes)]
    with pytest.raises(RuleError, match="start of the ordnance phase"):
        decide(state, MoveAttackCraft(player="imperial", marker="wave-70", x=90_000, y=30_000), rules=RAIDS)
    _, state = decide(state, SteerTorpedoes(player="chaos", marker="torpedoes-50", turn=0), rules=RAIDS)
    assert [c for c in RAIDS.legal_commands(state, "imperial") if isinstance(c, MoveAttackCraft)]
