"""FIRING, TARGETING, FIRING WHILE CLIMBING AND DIVING, BLIND SPOTS FOR REAR GUNS, RANGE, OVERLAPPING WHEN FIRING,
TAILING, IMPROVED AIM, GAME TURN (fire sub-phases), DAMAGE (resolved at the end of each part), ACE SKILLS."""

from __future__ import annotations

import msgspec
import pytest

from aero_events.core import RuleError
from aero_events.rulesets.wings_of_glory.commands import Fire
from aero_events.rulesets.wings_of_glory.events import Fired, PlaneOut, SkillUsed
from aero_events.rulesets.wings_of_glory.firing import shot_option, tailing
from aero_events.rulesets.wings_of_glory.state import FIRE, SHOT_DOWN, Crewman
from tests.wings_of_glory.helpers import RULES, at, cup, in_phase, plane, run, situation


def duel(distance_mm: float, bf_level: int = 5, bf_heading: float = 180, **extra):
    """A Spitfire at (450, 250) flying north at altitude 5 and a Bf 109 ``distance_mm`` ahead."""
    state = situation(plane("spit", "RAF", "spit1", 450, 250, 0, 5),
                      plane("bf", "Luftwaffe", "bf109e3", 450, 250 + distance_mm, bf_heading, bf_level), **extra)
    return in_phase(state, FIRE, "3b")


def option(state, shooter="spit", target="bf", gun=0, **kw):
    return shot_option(RULES, state, state.planes[shooter], gun, target, **kw)


def test_short_and_long_range_in_ruler_quarters():
    """RANGE: from the centre to anywhere on the target's base; within two quarters (100 mm) short, within four
    long. The Bf 109 base's near edge is 33.5 mm before its peg."""
    assert option(duel(133.5)).band == "short" and option(duel(133.5)).letters == "AAA"
    assert option(duel(134)).band == "long" and option(duel(134)).letters == "AA"
    assert option(duel(233.5)).band == "long"
    assert option(duel(234)).startswith("RANGE")


def test_a_quarter_per_level_of_altitude_difference():
    """RANGE: add one quarter for each altitude difference between firer and target."""
    assert option(duel(83.5, bf_level=4)).band == "short"
    assert option(duel(84, bf_level=4)).band == "long"
    assert option(duel(133.5, bf_level=3)).band == "long"
    assert option(duel(134, bf_level=3)).startswith("RANGE")


def test_any_point_of_the_base_within_the_cone_will_do():
    """FIRING: a target whose centre lies outside the 35 degree cone can be fired at if part of its base is in."""
    state = situation(plane("spit", "RAF", "spit1", 450, 300, 0, 5), plane("bf", "Luftwaffe", "bf109e3", 530, 400, 90, 5))
    state = in_phase(state, FIRE, "3b")
    shot = option(state)  # the near corner (496.5, 378) is 31 degrees off the nose and 90.8 mm away
    assert shot.band == "short" and shot.point != (53000, 40000)
    far_side = at(state, "bf", pose=(600, 330, 90))
    assert option(far_side).startswith("FIRING")


def test_planes_at_the_same_level_block_the_aim():
    """TARGETING: planes at the firer's and target's level block; another level (or climb counters) does not
    matter."""
    state = situation(plane("spit", "RAF", "spit1", 450, 250, 0, 5), plane("bf", "Luftwaffe", "bf109e3", 450, 410, 180, 5),
                      plane("hurr", "RAF", "hurr1", 450, 330, 0, 5))
    state = in_phase(state, FIRE, "3b")
    assert option(state).startswith("TARGETING")
    assert option(at(state, "hurr", climb=2)).startswith("TARGETING")
    assert option(at(state, "hurr", level=4)).band == "long"
    moved_aside = at(state, "hurr", pose=(520, 330, 0))
    assert option(moved_aside).band == "long"


def test_a_cloud_blocks_line_of_sight():
    """CLOUDS: LOS is blocked firing into, out of or through a cloud."""
    from aero_events.rulesets.wings_of_glory.state import Cloud
    state = duel(180)
    cloud = Cloud(id="c", level=5, points=((38000, 34000), (38000, 36000), (52000, 36000), (52000, 34000)))
    assert option(msgspec.structs.replace(state, clouds=(cloud,))).startswith("TARGETING")
    assert option(msgspec.structs.replace(state, clouds=(msgspec.structs.replace(cloud, level=8),))).band == "long"


def test_climbing_and_diving_planes_fixed_guns():
    """FIRING WHILE CLIMBING AND DIVING: climbing (incl. Immelmann) no shots at lower targets; diving (incl.
    Split-S) none at higher ones."""
    lower = duel(120, bf_level=4)
    assert option(at(lower, "spit", executed="climb")).startswith("FIRING WHILE")
    assert option(at(lower, "spit", executed="immelmann")).startswith("FIRING WHILE")
    assert option(at(lower, "spit", executed="dive")).band == "long"
    higher = duel(120, bf_level=6)
    assert option(at(higher, "spit", executed="split_s")).startswith("FIRING WHILE")
    assert option(at(higher, "spit", executed="climb")).band == "long"


def stuka_and_chaser(behind_mm: float, chaser_level: int = 4):
    state = situation(plane("stuka", "Luftwaffe", "ju87b2", 450, 450, 0, 4),
                      plane("spit", "RAF", "spit1", 450, 450 - behind_mm, 0, chaser_level))
    return in_phase(state, FIRE, "3b")


def test_rear_gun_blind_spot():
    """BLIND SPOTS FOR REAR GUNS: the centre-to-centre ruler over the rear edge whose first half touches the
    target: no fire, unless the target is higher."""
    assert option(stuka_and_chaser(75), "stuka", "spit", gun=1).startswith("BLIND SPOTS")
    assert option(stuka_and_chaser(75, chaser_level=5), "stuka", "spit", gun=1).band == "short"
    assert option(stuka_and_chaser(160), "stuka", "spit", gun=1).band == "long"


def test_overlapping_planes_fire_at_long_range_with_one_gun():
    """OVERLAPPING WHEN FIRING: long range; one gun only; at different altitudes the lower plane needs a gun that
    fires higher."""
    state = situation(plane("stuka", "Luftwaffe", "ju87b2", 450, 450, 0, 4), plane("spit", "RAF", "spit1", 450, 420, 0, 4))
    state = msgspec.structs.replace(in_phase(state, FIRE, "3b"), overlaps=(("spit", "stuka"),))
    assert option(state, "spit", "stuka").band == "long" and option(state, "spit", "stuka").letters == "AA"
    higher = at(state, "stuka", level=5)
    assert option(higher, "spit", "stuka").startswith("OVERLAPPING")
    assert option(higher, "stuka", "spit", gun=1).startswith("OVERLAPPING")  # the rear MG fires higher, not lower
    _, after = run(RULES, state, Fire(player="Luftwaffe", plane="stuka", gun=0, target="spit"))
    assert after.planes["stuka"].overlap_shots == ("spit",)


def test_tailing_five_conditions():
    """TAILING: pegs within a ruler; through the tailer's front side and the tailed plane's rear side; no base in
    between at one altitude; same level or one higher; not loaded (nor novice or wounded)."""
    state = duel(130, bf_heading=0)
    spit, bf = state.planes["spit"], state.planes["bf"]
    assert tailing(RULES, state, spit, bf)
    assert not tailing(RULES, duel(201, bf_heading=0), spit, duel(201, bf_heading=0).planes["bf"])          # 1
    assert not tailing(RULES, state, spit, duel(130).planes["bf"])                                          # 2
    third = situation(plane("spit", "RAF", "spit1", 450, 250, 0, 5), plane("bf", "Luftwaffe", "bf109e3", 450, 450, 0, 5),
                      plane("hurr", "RAF", "hurr1", 450, 350, 0, 5))
    assert not tailing(RULES, third, third.planes["spit"], third.planes["bf"])                              # 3
    assert tailing(RULES, at(third, "hurr", level=4), third.planes["spit"], third.planes["bf"])
    assert tailing(RULES, state, spit, msgspec.structs.replace(bf, level=4))                                # 4
    assert not tailing(RULES, state, spit, msgspec.structs.replace(bf, level=6))
    assert not tailing(RULES, state, spit, msgspec.structs.replace(bf, level=3))
    assert not tailing(RULES, state, msgspec.structs.replace(spit, loaded=True), bf)                         # 5
    assert not tailing(RULES, state, msgspec.structs.replace(spit, novice=True), bf)


def test_improved_aim_situations():
    """IMPROVED AIM: +1 A (never more than one) for fighters' fixed guns: same target a second turn, a lower
    target, same level after a dive, tailing, Perfect Aim; not novice or wounded, not smoking or on fire."""
    plain = duel(150)
    assert option(plain).improved == "" and option(plain).letters == "AA"
    assert option(at(plain, "spit", targets_before=("bf",))).letters == "AAA"
    assert option(duel(100, bf_level=4)).improved == "lower target"
    assert option(at(plain, "spit", executed="dive")).improved == "same level after a dive"
    tail = duel(150, bf_heading=0)
    assert option(tail).improved == "tailing position" and option(tail).tailing
    assert option(at(tail, "spit", targets_before=("bf",))).letters == "AAA"  # never more than one
    assert option(at(tail, "spit", smoke=3)).improved == ""
    assert option(at(tail, "spit", novice=True)).improved == ""
    ace = at(plain, "spit", crew=(Crewman(role="pilot", skills=("perfect_aim",)),))
    assert option(ace, perfect_aim=True).improved == "Perfect Aim"


def test_good_at_escaping_refuses_to_be_tailed():
    """Good at Escaping: the ace may choose not to be tailed unless the tailer has the skill too."""
    tail = at(duel(150, bf_heading=0), "bf", crew=(Crewman(role="pilot", skills=("good_at_escaping",)),))
    assert option(tail).improved == ""
    both = at(tail, "spit", crew=(Crewman(role="pilot", skills=("good_at_escaping",)),))
    assert option(both).improved == "tailing position"
    events, after = run(RULES, tail, Fire(player="RAF", plane="spit", gun=0, target="bf"))
    assert any(isinstance(e, SkillUsed) and e.skill == "good_at_escaping" for e in events)
    assert after.planes["bf"].crew[0].recovery == 4


def test_once_per_arc_per_round():
    """FIRING: planes can fire once each round for each arc."""
    state = duel(150)
    _, after = run(RULES, state, Fire(player="RAF", plane="spit", gun=0, target="bf"))
    with pytest.raises(RuleError):
        run(RULES, after, Fire(player="RAF", plane="spit", gun=0, target="bf"))


def test_damage_waits_for_the_end_of_the_sub_phase():
    """DAMAGE: all damage is resolved simultaneously after all have fired, so a plane shot down may still fire
    in the same part of the phase."""
    state = at(duel(120), "bf", damage=16)
    dice = cup(items=["A-3-plain", "A-2-plain", "A-1-plain"])
    _, after = run(RULES, state, Fire(player="RAF", plane="spit", gun=0, target="bf"), dice)
    assert after.planes["bf"].in_play and after.planes["bf"].damage == 16
    events, after = run(RULES, after, Fire(player="Luftwaffe", plane="bf", gun=0, target="spit"))
    # nobody has anything left to do: the sub-phase ends and the damage of both shots takes effect together
    fired = next(i for i, e in enumerate(events) if isinstance(e, Fired))
    out = next(i for i, e in enumerate(events) if isinstance(e, PlaneOut) and e.plane == "bf")
    assert fired < out and after.planes["bf"].status == SHOT_DOWN


def test_novice_pilots_fire_in_3c_and_itchy_aces_in_3a():
    """GAME TURN: 3a aces with Itchy Trigger Finger, 3b normal aircrew, 3c novice or wounded aircrew."""
    novice = at(duel(150), "spit", novice=True)
    with pytest.raises(RuleError, match="3c"):
        run(RULES, novice, Fire(player="RAF", plane="spit", gun=0, target="bf"))
    itchy = at(in_phase(duel(150), FIRE, "3a"), "bf", crew=(Crewman(role="pilot", skills=("itchy_trigger_finger",)),))
    with pytest.raises(RuleError):
        run(RULES, itchy, Fire(player="RAF", plane="spit", gun=0, target="bf"))
    events, after = run(RULES, itchy, Fire(player="Luftwaffe", plane="bf", gun=0, target="spit"))
    assert any(isinstance(e, Fired) for e in events) and after.planes["bf"].crew[0].recovery == 4


def test_a_plane_shot_down_by_an_itchy_ace_does_not_fire_later():
    """Itchy Trigger Finger: damage is resolved before the others fire; a downed target does not fire."""
    state = at(in_phase(duel(120), FIRE, "3a"), "bf", crew=(Crewman(role="pilot", skills=("itchy_trigger_finger",)),))
    state = at(state, "spit", damage=16)
    wingman = situation(plane("hurr", "RAF", "hurr1", 100, 100, 180, 5))
    state = msgspec.structs.replace(state, planes={**state.planes, "hurr": wingman.planes["hurr"]})
    events, after = run(RULES, state, Fire(player="Luftwaffe", plane="bf", gun=0, target="spit"),
                        cup(items=["A-2-plain", "C-0-plain", "C-1-plain"]))
    # 3a ends at once (nobody else may fire in it): the Spitfire is shot down before 3b and never fires
    assert after.planes["spit"].status == SHOT_DOWN
    assert [e.plane for e in events if isinstance(e, Fired)] == ["bf"]
    assert after.turn == 2 and {c.plane for c in RULES.legal_commands(after, "RAF")} == {"hurr"}


def test_overlapping_planes_do_not_block_the_aim_of_planes_firing_at_them():
    """OVERLAPPING WHEN FIRING: overlapping planes don't block each other's aim or the aim of planes firing at
    them."""
    state = situation(plane("spit", "RAF", "spit1", 450, 250, 0, 5), plane("bf", "Luftwaffe", "bf109e3", 450, 410, 180, 5),
                      plane("hurr", "RAF", "hurr1", 450, 370, 0, 5))
    state = in_phase(state, FIRE, "3b")
    assert option(state).startswith("TARGETING")
    assert option(msgspec.structs.replace(state, overlaps=(("bf", "hurr"),))).band in ("short", "long")
