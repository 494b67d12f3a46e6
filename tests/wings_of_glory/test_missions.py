"""SCENARIO RULES: STRAFING, GROUND TROOPS, ANTI-AIRCRAFT GUNS, LEVEL BOMBING, DIVE BOMBING, PHOTO RECONNAISSANCE,
TORPEDOS, SHIPS, MOTOR TORPEDO BOATS (MTB), PARACHUTE AND CABLE (PAC)."""

from __future__ import annotations

import msgspec
import pytest

from aero_events.core import RuleError
from aero_events.rulesets.wings_of_glory.commands import DropBombs, Fire, LaunchPac, LaunchTorpedo, TakePhoto
from aero_events.rulesets.wings_of_glory.events import BombDropped, GroundFire, PhotoTaken, TorpedoMoved
from aero_events.rulesets.wings_of_glory.firing import ground_fire, shot_option
from aero_events.rulesets.wings_of_glory.missions import end_of_turn_moves, scores
from aero_events.rulesets.wings_of_glory.movement import resolve_movement
from aero_events.rulesets.wings_of_glory.setup import TargetSetup
from aero_events.rulesets.wings_of_glory.state import BOMB, FIRE, PLAN, Crewman
from tests.wings_of_glory.helpers import RULES, at, console, cup, in_phase, plane, run, situation, step


def piece(pid, kind, x, y, heading=0, side="RAF"):
    return TargetSetup(id=pid, kind=kind, side=side, x=str(x), y=str(y), heading=str(heading))


def test_strafing_counts_the_target_at_altitude_one_and_keeps_tokens_face_up():
    """STRAFING: ground targets are at floor 0 altitude 1; tokens face up; AA guns silenced at 10 points."""
    state = situation(plane("bf", "Luftwaffe", "bf109e3", 450, 300, 0, 1), plane("spit", "RAF", "spit1", 100, 800, 0, 5),
                      targets=(piece("aa", "aa_gun", 450, 420),))
    state = in_phase(state, FIRE, "3b")
    assert shot_option(RULES, state, state.planes["bf"], 0, "aa").band == "short"
    high = at(state, "bf", level=3)
    assert shot_option(RULES, high, high.planes["bf"], 0, "aa").band == "long"
    state = msgspec.structs.replace(state, targets={"aa": msgspec.structs.replace(state.targets["aa"], damage=6)})
    _events, after = run(RULES, state, Fire(player="Luftwaffe", plane="bf", gun=0, target="aa"),
                        cup(items=["A-1-smoke", "C-2-engine", "C-3-plain"]))
    target = after.targets["aa"]
    assert target.damage == 12 and target.silenced and len(target.tokens) == 3


def test_ground_troops_fire_one_a_token_at_the_nearest_strafer():
    """GROUND TROOPS: fire as an altitude-1 plane; one A token regardless of distance; the nearest plane
    strafing them first, then the nearest plane."""
    state = situation(plane("near", "Luftwaffe", "bf109e3", 450, 380, 0, 1), plane("far", "Luftwaffe", "bf109e3", 450, 180, 0, 1),
                      plane("spit", "RAF", "spit1", 800, 800, 0, 5), targets=(piece("troops", "ground_troops", 450, 300),))
    state = in_phase(state, FIRE, "3b")
    events, _ = step(RULES, state, ground_fire)
    assert [e.plane for e in events if isinstance(e, GroundFire)] == ["near"]
    strafed = msgspec.structs.replace(state, targets={"troops": msgspec.structs.replace(state.targets["troops"],
                                                                                         strafed_by=("far",))})
    events, after = step(RULES, strafed, ground_fire)
    assert [e.plane for e in events if isinstance(e, GroundFire)] == ["far"]
    assert after.planes["far"].pending and after.planes["far"].pending[0][0].startswith("A-")


def test_aa_gun_places_its_counter_then_fires_next_fire_phase():
    """ANTI-AIRCRAFT GUNS: the artillery counter goes on the target this fire phase; next fire phase one C token
    and the counter returns; from the next turn it can fire again."""
    state = situation(plane("dornier", "Luftwaffe", "do17z", 450, 650, 180, 3), plane("bf", "Luftwaffe", "bf109e3", 200, 650, 180, 3),
                      plane("spit", "RAF", "spit1", 800, 100, 0, 5), targets=(piece("aa", "aa_gun", 450, 400),))
    state = in_phase(state, FIRE, "3b", turn=1)
    events, state = step(RULES, state, ground_fire)
    assert state.targets["aa"].counters == ("dornier",)  # bombers before fighters
    events, state = step(RULES, in_phase(state, FIRE, "3b", turn=2), ground_fire)
    assert [e.action for e in events if isinstance(e, GroundFire)] == ["counter_resolved"]
    assert state.planes["dornier"].pending[0][0].startswith("C-") and state.targets["aa"].counters == (None,)
    events, state = step(RULES, in_phase(state, FIRE, "3b", turn=2), ground_fire)
    assert not [e for e in events if isinstance(e, GroundFire)]
    events, state = step(RULES, in_phase(state, FIRE, "3b", turn=3), ground_fire)
    assert state.targets["aa"].counters == ("dornier",)


def test_aa_gun_range_and_friendly_exclusion():
    """ANTI-AIRCRAFT GUNS: range two rulers; never at a target within half a ruler of a friendly plane."""
    state = situation(plane("dornier", "Luftwaffe", "do17z", 450, 850, 180, 3), plane("spit", "RAF", "spit1", 100, 100, 0, 5),
                      targets=(piece("aa", "aa_gun", 450, 400),))
    _, after = step(RULES, in_phase(state, FIRE, "3b"), ground_fire)
    assert after.targets["aa"].counters == (None,)  # 416.5 mm: beyond two rulers
    close = at(at(state, "dornier", pose=(450, 700, 180)), "spit", pose=(450, 620, 0))
    _, after = step(RULES, in_phase(close, FIRE, "3b"), ground_fire)
    assert after.targets["aa"].counters == (None,)


def bomber_over_target(card=1, level=3, target="ground_target", **changes):
    state = situation(plane("dornier", "Luftwaffe", "do17z", 450, 300, 0, level, loaded=True),
                      plane("spit", "RAF", "spit1", 100, 800, 0, 5), targets=(piece("factory", target, 450, 390),))
    state = in_phase(console(console(state, "dornier", card, 2), "spit", 1, 2), PLAN)
    state = at(state, "dornier", **changes) if changes else state
    _, state = step(RULES, state, resolve_movement)
    return in_phase(state, BOMB)


@pytest.mark.parametrize(("face", "result"), [(4, "direct"), (3, "near"), (2, "near"), (1, "miss")])
def test_level_bombing(face, result):
    """LEVEL BOMBING: fly over the target with a straight; after fire a D6: 4+ direct hit, 2+ near miss."""
    state = bomber_over_target()
    assert "factory" in state.planes["dornier"].over_targets
    events, after = run(RULES, state, DropBombs(player="Luftwaffe", plane="dornier", target="factory"), cup(faces=[face]))
    bombed = next(e for e in events if isinstance(e, BombDropped))
    assert bombed.result == result and not after.planes["dornier"].loaded
    assert scores(RULES, msgspec.structs.replace(after, victory={"direct_hit": 40}))["Luftwaffe"] == \
        {"direct": 40, "near": 20, "miss": 0}[result]


def test_bombing_modifiers_moving_target_and_wounded_bombardier():
    """LEVEL BOMBING: -1 for a moving target (ships), -2 for a wounded bombardier."""
    wounded = (Crewman(role="pilot"), Crewman(role="bombardier", wounds=1), Crewman(role="radio_op"),
               Crewman(role="engineer"))
    state = bomber_over_target(crew=wounded)
    events, _ = run(RULES, state, DropBombs(player="Luftwaffe", plane="dornier", target="factory"), cup(faces=[5]))
    assert next(e for e in events if isinstance(e, BombDropped)).result == "near"
    ship = bomber_over_target(target="cargo_ship")
    events, _after = run(RULES, ship, DropBombs(player="Luftwaffe", plane="dornier", target="factory"), cup(faces=[4]))
    dropped = next(e for e in events if isinstance(e, BombDropped))
    assert dropped.result == "near" and dropped.bomb_damage == 1


def test_bombing_needs_a_straight_and_no_forward_fire():
    """LEVEL BOMBING: a straight over the target; bombers may not fire forward fixed guns in the turn they bomb."""
    with pytest.raises(RuleError, match="LEVEL BOMBING"):
        run(RULES, bomber_over_target(card=3), DropBombs(player="Luftwaffe", plane="dornier", target="factory"))
    fired = at(bomber_over_target(), "dornier", fired_fixed=True)
    with pytest.raises(RuleError, match="fixed guns"):
        run(RULES, fired, DropBombs(player="Luftwaffe", plane="dornier", target="factory"))


def test_dive_bombing_ends_at_altitude_one_or_two():
    """DIVE BOMBING: a bomb dive card over the target ending at altitude 1 or 2."""
    def stuka(level):
        state = situation(plane("stuka", "Luftwaffe", "ju87b2", 450, 340, 0, level, loaded=True),
                          plane("spit", "RAF", "spit1", 100, 800, 0, 5), targets=(piece("factory", "ground_target", 450, 390),))
        state = in_phase(console(console(at(state, "stuka", flown=(2,)), "stuka", 14, 2), "spit", 1, 2), PLAN)
        return in_phase(step(RULES, state, resolve_movement)[1], BOMB)
    events, _ = run(RULES, stuka(3), DropBombs(player="Luftwaffe", plane="stuka", target="factory"), cup(faces=[6]))
    assert next(e for e in events if isinstance(e, BombDropped)).method == "dive"
    with pytest.raises(RuleError):
        run(RULES, stuka(4), DropBombs(player="Luftwaffe", plane="stuka", target="factory"))


def test_photo_reconnaissance():
    """PHOTO RECONNAISSANCE: a straight over the target's centre; D6 (-2 wounded bombardier) 3+ a good photograph;
    it must then return to base (own edge) to score."""
    state = bomber_over_target()
    state = msgspec.structs.replace(state, planes={**state.planes, "dornier": msgspec.structs.replace(
        state.planes["dornier"], profile="blen4", side="RAF", owner="RAF",
        crew=(Crewman(role="pilot"), Crewman(role="bombardier"), Crewman(role="gunner")))},
        targets={"factory": msgspec.structs.replace(state.targets["factory"], side="Luftwaffe")})
    with pytest.raises(RuleError):
        run(RULES, at(state, "dornier", executed="bank"), TakePhoto(player="RAF", plane="dornier", target="factory"))
    events, after = run(RULES, state, TakePhoto(player="RAF", plane="dornier", target="factory"), cup(faces=[3]))
    assert next(e for e in events if isinstance(e, PhotoTaken)).good and after.planes["dornier"].photo == "taken"
    home = msgspec.structs.replace(at(after, "dornier", status="returned"), victory={"photo": 20})
    assert scores(RULES, home)["RAF"] == 20


def test_torpedo_run_hit_and_damage():
    """TORPEDOS: launched after a straight at altitude one; moves a card length after ship movement; stops on
    contact; side hit 2-6; damage 1-2 one bomb damage, 3 two, 4-5 three, 6 the ship explodes."""
    state = situation(plane("he", "Luftwaffe", "he111h", 450, 100, 0, 1, loaded=True), plane("spit", "RAF", "spit1", 100, 800, 0, 5),
                      targets=(piece("ship", "cargo_ship", 450, 330, heading=90),))
    state = in_phase(at(state, "he", executed="straight"), BOMB)
    _, state = run(RULES, state, LaunchTorpedo(player="Luftwaffe", plane="he"))
    assert list(state.torpedoes) == ["torpedo-1"] and not state.planes["he"].loaded
    events, state = step(RULES, state, end_of_turn_moves, cup(faces=[2, 3]))
    moved = [e for e in events if isinstance(e, TorpedoMoved)]
    assert moved and moved[0].result == "" and state.torpedoes
    events, state = step(RULES, state, end_of_turn_moves, cup(faces=[2, 3]))
    hit = next(e for e in events if isinstance(e, TorpedoMoved))
    assert hit.result == "hit" and hit.bomb_damage == 2 and state.targets["ship"].sunk and not state.torpedoes


def test_torpedo_needs_altitude_one():
    state = situation(plane("he", "Luftwaffe", "he111h", 450, 100, 0, 2, loaded=True), plane("spit", "RAF", "spit1", 100, 800, 0, 5))
    with pytest.raises(RuleError, match="altitude one"):
        run(RULES, in_phase(at(state, "he", executed="straight"), BOMB), LaunchTorpedo(player="Luftwaffe", plane="he"))


def test_ships_move_an_inch_straight_ahead_and_tow_balloons():
    """SHIPS: 1" (2.5 cm) a turn straight ahead; BARRAGE BALLOONS behind a ship are towed by it."""
    state = situation(plane("spit", "RAF", "spit1", 100, 100, 0, 5), plane("bf", "Luftwaffe", "bf109e3", 800, 800, 0, 5),
                      targets=(piece("ship", "destroyer", 450, 450, heading=90),
                               TargetSetup(id="b", kind="balloon", side="RAF", x="350", y="450", towed_by="ship")))
    _, after = step(RULES, state, end_of_turn_moves)
    assert (after.targets["ship"].pose.x, after.targets["b"].pose.x) == (47500, 37500)


def test_mtb_sinks_only_to_twenty_strafing_points():
    """MOTOR TORPEDO BOATS: sunk by strafing at 20 points."""
    state = situation(plane("bf", "Luftwaffe", "bf109e3", 450, 300, 0, 1), plane("spit", "RAF", "spit1", 100, 800, 0, 5),
                      targets=(piece("mtb", "mtb", 450, 400),))
    state = msgspec.structs.replace(in_phase(state, FIRE, "3b"),
                                    targets={"mtb": msgspec.structs.replace(state.targets["mtb"], damage=15)})
    _, after = run(RULES, state, Fire(player="Luftwaffe", plane="bf", gun=0, target="mtb"),
                   cup(items=["A-2-plain", "C-2-plain", "C-1-plain"]))
    assert after.targets["mtb"].damage == 20 and after.targets["mtb"].sunk


def test_pac_is_launched_once_and_lasts_six_movement_phases():
    """PARACHUTE AND CABLE: launched in a fire phase, once; it remains for six movement phases."""
    state = situation(plane("spit", "RAF", "spit1", 100, 100, 0, 5), plane("bf", "Luftwaffe", "bf109e3", 800, 800, 0, 5),
                      targets=(piece("pac", "pac", 450, 450),))
    state = in_phase(state, FIRE, "3b")
    _, state = run(RULES, state, LaunchPac(player="RAF", pac="pac"))
    assert state.targets["pac"].phases_left == 6
    with pytest.raises(RuleError, match="once"):
        run(RULES, in_phase(state, FIRE, "3b"), LaunchPac(player="RAF", pac="pac"))


def test_a_torpedo_is_removed_at_the_start_of_its_sixth_turn():
    """TORPEDOS: at the start of the sixth turn it is removed from play (five moves, launch turn included)."""
    state = situation(plane("he", "Luftwaffe", "he111h", 450, 100, 0, 1, loaded=True), plane("spit", "RAF", "spit1", 100, 800, 0, 5))
    _, state = run(RULES, in_phase(at(state, "he", executed="straight"), BOMB), LaunchTorpedo(player="Luftwaffe", plane="he"))
    for turn in range(1, 6):
        assert state.torpedoes
        _, state = step(RULES, msgspec.structs.replace(state, turn=turn), end_of_turn_moves)
    assert not state.torpedoes


def test_a_silenced_gun_is_no_longer_a_target_but_an_mtb_can_still_be_sunk():
    """STRAFING: a silenced gun counts as eliminated; an MTB is sunk only at 20 points, silenced or not."""
    state = situation(plane("bf", "Luftwaffe", "bf109e3", 450, 300, 0, 1), plane("spit", "RAF", "spit1", 100, 800, 0, 5),
                      targets=(piece("aa", "aa_gun", 450, 420), piece("mtb", "mtb", 520, 420)))
    state = in_phase(state, FIRE, "3b")
    targets = {k: msgspec.structs.replace(v, silenced=True) for k, v in state.targets.items()}
    state = msgspec.structs.replace(state, targets=targets)
    assert shot_option(RULES, state, state.planes["bf"], 0, "aa").startswith("STRAFING")
    assert shot_option(RULES, state, state.planes["bf"], 0, "mtb").band in ("short", "long")


def test_a_destroyers_fore_gun_covers_the_front_half_and_the_aft_gun_the_rear():
    """SHIPS: destroyers have two AA guns, the fore gun firing at targets in the front 180 degrees, the aft gun in
    the rear 180 degrees."""
    state = situation(plane("dornier", "Luftwaffe", "do17z", 750, 450, 180, 3), plane("spit", "RAF", "spit1", 100, 900, 0, 5),
                      targets=(piece("destroyer", "destroyer", 500, 450, heading=90),))
    _, after = step(RULES, in_phase(state, FIRE, "3b"), ground_fire)
    assert after.targets["destroyer"].counters == ("dornier", None)
    behind = at(state, "dornier", pose=(250, 450, 180))
    _, after = step(RULES, in_phase(behind, FIRE, "3b"), ground_fire)
    assert after.targets["destroyer"].counters == (None, "dornier")
