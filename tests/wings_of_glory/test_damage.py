"""DAMAGE, SPECIAL DAMAGE (Smoke, Fire, Rudder jammed, Crew Hit, Engine Damage), LUCKY, Luck of the Devil, Sniper,
RECOVERY, and the secrecy of damage tokens."""

from __future__ import annotations

import pytest

from aero_events.core import DiceError
from aero_events.core.pools import SecretPoolDrawn
from aero_events.core.secrets import RedactedEvent, redact
from aero_events.rulesets.wings_of_glory.commands import Fire, SniperPick, UseLuck
from aero_events.rulesets.wings_of_glory.damage import end_of_turn_counters, give_tokens, resolve_all
from aero_events.rulesets.wings_of_glory.events import DamageResolved, TokensTaken
from aero_events.rulesets.wings_of_glory.pieces import climb_rate, engine_effect
from aero_events.rulesets.wings_of_glory.state import CRASHED, FIRE, SHOT_DOWN, Crewman
from tests.wings_of_glory.helpers import RULES, at, cup, in_phase, plane, run, situation, step


def target_state(**changes):
    state = situation(plane("spit", "RAF", "spit1", 450, 250, 0, 5), plane("bf", "Luftwaffe", "bf110c", 450, 370, 180, 5),
                      plane("far", "RAF", "hurr1", 100, 100, 180, 5))
    state = in_phase(state, FIRE, "3b")
    return at(state, "bf", **changes) if changes else state


def hit(state, *tokens, faces=(), mode="full"):
    """Give the Bf 110 these tokens and resolve them as at the end of a part of the turn."""
    def part(rules, out, dice):
        for token in tokens:
            give_tokens(rules, out, dice, "bf", token[0], mode=mode, cause="test")
        resolve_all(rules, out, dice)
    return step(RULES, state, part, cup(faces=faces, items=tokens))


def test_damage_points_eliminate_the_plane():
    """DAMAGE: when the total reaches the plane's damage points (24 for the Bf 110) it is eliminated."""
    _, after = hit(target_state(damage=20), "C-4-plain")
    assert after.planes["bf"].status == SHOT_DOWN
    _, after = hit(target_state(damage=19), "C-4-plain")
    assert after.planes["bf"].in_play and after.planes["bf"].damage == 23


def test_tokens_are_face_down_and_seen_only_by_the_owner():
    """DAMAGE: tokens are kept face down on the target's console; the others see how many."""
    events, after = hit(target_state(), "A-2-plain", "C-3-smoke")
    drawn = next(e for e in events if isinstance(e, SecretPoolDrawn))
    assert isinstance(redact(drawn, "RAF"), RedactedEvent) and redact(drawn, "Luftwaffe") is drawn
    taken = next(e for e in events if isinstance(e, TokensTaken))
    assert redact(taken, "RAF").public["count"] == 1 and "tokens" not in redact(taken, "RAF").public
    resolved = next(e for e in events if isinstance(e, DamageResolved))
    assert "damage" not in redact(resolved, "RAF").public and redact(resolved, "RAF").public["smoke"] == 6
    raf, luftwaffe = RULES.view(after, "RAF"), RULES.view(after, "Luftwaffe")
    assert list(raf["planes"]["bf"]["tokens"]) == ["?", "?"] and raf["planes"]["bf"]["damage"] == -1
    assert luftwaffe["planes"]["bf"]["damage"] == 5
    assert raf["pools"]["A"] == {"name": "A", "size": 39}


def test_tokens_are_drawn_without_replacement():
    """Tokens come from a finite cup per letter: a drawn token leaves the cup (data page section 5)."""
    _, after = hit(target_state(), "A-5-plain")
    assert after.pools["A"].count("A-5-plain") == 0 and after.pools["A"].size == 39
    with pytest.raises(DiceError):
        hit(after, "A-5-plain")  # the only 5 is on the Bf 110's console, not in the cup


def test_smoke_then_a_second_smoke_is_fire():
    """Smoke: six smoke counters; a second smoke while smoking is treated as fire."""
    _, after = hit(target_state(), "A-1-smoke")
    assert (after.planes["bf"].smoke, after.planes["bf"].flames) == (6, 0)
    _, after = hit(at(after, "bf", smoke=4), "B-1-smoke")
    assert (after.planes["bf"].smoke, after.planes["bf"].flames) == (0, 6)


def test_fire_costs_an_a_token_each_turn_end_points_only():
    """Fire: six flame counters; at each turn's end one is discarded and an A token taken (points only); a second
    fire tops the flames up to six."""
    _, after = hit(target_state(), "C-4-fire")
    assert after.planes["bf"].flames == 6
    _, after = step(RULES, after, end_of_turn_counters, cup(faces=[1], items=["A-2-crew_hit"]))
    bf = after.planes["bf"]
    assert bf.flames == 5 and bf.damage == 6 and bf.crew[0].wounds == 0 and bf.crew[1].wounds == 0
    _, after = hit(at(after, "bf", flames=2), "A-2-fire")
    assert after.planes["bf"].flames == 6


def test_smoke_counters_run_out_after_six_turns():
    """Smoke: discard one counter at the end of each of the next six turns."""
    state = target_state(smoke=6)
    for _ in range(6):
        _, state = step(RULES, state, end_of_turn_counters)
    assert state.planes["bf"].smoke == 0 and state.planes["bf"].damage == 0


def test_rudder_jam_is_announced_with_its_direction_secret():
    """Rudder jammed: announced; the direction kept secret; the next two planned cards are restricted."""
    events, after = hit(target_state(), "A-1-rudder_left")
    assert after.planes["bf"].rudder == "left" and after.planes["bf"].rudder_plans == 2
    resolved = next(e for e in events if isinstance(e, DamageResolved))
    assert redact(resolved, "RAF").public["rudder_jammed"] is True and "rudder" not in redact(resolved, "RAF").public
    assert RULES.view(after, "RAF")["planes"]["bf"]["rudder"] == "?"


def test_crew_hit_wounds_the_highest_roll_ties_wound_several():
    """Crew Hit: a D6 for each living crewman; the highest is wounded; ties give several wounds."""
    _, after = hit(target_state(), "A-2-crew_hit", faces=[3, 5])
    assert [m.wounds for m in after.planes["bf"].crew] == [0, 1]
    _, after = hit(target_state(), "A-2-crew_hit", faces=[4, 4])
    assert [m.wounds for m in after.planes["bf"].crew] == [1, 1]


def test_a_pilots_second_wound_crashes_the_plane():
    """Crew Hit: pilot 2 wounds, incapacitated, the aircraft crashes."""
    state = target_state(crew=(Crewman(role="pilot", wounds=1), Crewman(role="gunner")))
    _, after = hit(state, "A-2-crew_hit", faces=[6, 2])
    assert after.planes["bf"].status == CRASHED


def test_a_wounded_gunner_may_not_fire():
    """Crew Hit: other aircrew with one wound may not fire."""
    from aero_events.rulesets.wings_of_glory.firing import shot_option
    state = situation(plane("stuka", "Luftwaffe", "ju87b2", 450, 450, 0, 4), plane("spit", "RAF", "spit1", 450, 290, 0, 4))
    state = at(in_phase(state, FIRE, "3b"), "stuka", crew=(Crewman(role="pilot"), Crewman(role="gunner", wounds=1)))
    assert shot_option(RULES, state, state.planes["stuka"], 1, "spit").startswith("Crew Hit")


ENGINE_ROWS = {(2, 1): "climb+1", (3, 1): "climb+1", (4, 2): "climb+1", (3, 2): "climb+2", (4, 3): "climb+2",
               (1, 1): "no_climb", (2, 2): "no_climb", (3, 3): "no_climb", (4, 4): "no_climb",
               (1, 2): "shot_down", (2, 3): "shot_down", (3, 4): "shot_down", (4, 5): "shot_down", (4, 1): "none"}


@pytest.mark.parametrize(("row", "effect"), sorted(ENGINE_ROWS.items()))
def test_engine_damage_table(row, effect):
    """Engine Damage: the table by engines and engine-damage count (4 engines, 1 damage: not listed, none)."""
    assert engine_effect(*row) == effect


def test_engine_damage_is_secret_and_slows_the_climb():
    """Engine Damage: kept secret; a twin's first engine damage increases its climb rate by one; the third shoots
    it down."""
    events, after = hit(target_state(), "C-2-engine")
    assert after.planes["bf"].engine == 1 and climb_rate(RULES, after.planes["bf"]) == 5
    assert RULES.view(after, "RAF")["planes"]["bf"]["engine"] == -1
    assert "engine" not in redact(next(e for e in events if isinstance(e, DamageResolved)), "RAF").public
    _, after = hit(at(after, "bf", engine=2), "B-4-engine")
    assert after.planes["bf"].status == SHOT_DOWN


def test_luck_of_the_devil_ignores_one_token_once():
    """Luck of the Devil / LUCKY: ignore a single damage token after drawing and seeing it; then luck is used up."""
    state = at(target_state(), "bf", lucky=True)
    _, state = run(RULES, state, Fire(player="RAF", plane="spit", gun=0, target="bf"),
                   cup(items=["A-4-plain", "A-3-plain", "A-1-plain"]))
    assert len(state.planes["bf"].pending) == 3
    options = RULES.legal_commands(state, "Luftwaffe")
    assert any(isinstance(o, UseLuck) for o in options)
    index = [t for t, _ in state.planes["bf"].pending].index("A-4-plain")
    _, state = run(RULES, state, UseLuck(player="Luftwaffe", plane="bf", index=index))
    assert [t for t, _ in state.planes["bf"].pending] == ["A-3-plain", "A-1-plain"]
    assert state.pools["A"].count("A-4-plain") == 2 and state.planes["bf"].crew[0].luck_used
    assert not any(isinstance(o, UseLuck) for o in RULES.legal_commands(state, "Luftwaffe"))


def test_sniper_draws_two_and_chooses_one():
    """Sniper: the sniper's player draws two of the selected letter, gives one, returns the other; the rest of
    the tokens are drawn normally."""
    state = at(target_state(), "spit", crew=(Crewman(role="pilot", skills=("sniper",)),))
    dice = cup(items=["A-5-plain", "A-0-plain", "A-1-plain", "A-2-plain"])
    _, state = run(RULES, state, Fire(player="RAF", plane="spit", gun=0, target="bf", sniper="A"), dice)
    assert state.sniper is not None and state.sniper[3] == ("A-5-plain", "A-0-plain")
    assert RULES.view(state, "Luftwaffe")["sniper"] is None
    assert RULES.legal_commands(state, "Luftwaffe") == []
    _, state = run(RULES, state, SniperPick(player="RAF", choice=0), dice)
    assert sorted(t for t, _ in state.planes["bf"].pending) == ["A-1-plain", "A-2-plain", "A-5-plain"]
    assert state.pools["A"].count("A-0-plain") == 10 and state.planes["spit"].crew[0].recovery == 4


def test_recovery_counters_block_skills_until_after_the_last_is_discarded():
    """RECOVERY: four counters, one discarded after each manoeuvre; no skill until after the end of the turn in
    which the last goes."""
    from aero_events.rulesets.wings_of_glory.movement import _discard_recovery
    from aero_events.rulesets.wings_of_glory.pieces import skill_ready
    man = Crewman(role="pilot", skills=("perfect_aim",), recovery=4)
    for turn in range(1, 5):
        man = _discard_recovery(man, turn)
    assert man.recovery == 0 and man.skill_ready_turn == 5
    state = target_state()
    ace = at(state, "spit", crew=(man,))
    assert not skill_ready(ace, ace.planes["spit"], 0, "perfect_aim")
    later = at(in_phase(state, FIRE, "3b", turn=5), "spit", crew=(man,))
    assert skill_ready(later, later.planes["spit"], 0, "perfect_aim")
