"""Combats of several units, challenges and overkill (host, README; Intercept (Combat): "If multiple units are in
battle, follow normal ground rules for eligible targets on flanking models")."""

from __future__ import annotations

import pytest

from aero_events.core import DiceCup, RuleError, SeededDice, TapeDice
from aero_events.core.orders import ReactionWindowOpened
from aero_events.rulesets.whfb_flying import commands as cmd
from aero_events.rulesets.whfb_flying import events as ev
from aero_events.rulesets.whfb_flying.combat import (
    OVERKILL,
    break_test,
    combat_groups,
    counted_wounds,
    fight_round,
    rank_bonus,
    resolve,
)
from aero_events.rulesets.whfb_flying.state import SHOOTING, Combat
from aero_events.rulesets.whfb_flying.turn import Emitter

from .helpers import RULES, battle, decide, of_type, replace, rolls, unit, with_unit


def _front_and_flank(models=12):
    """North's n-a holds s-sp's front, n-b its left flank: one combat of three units."""
    north = [unit("n-a", "spearmen", 10, 24, 18.01, 180), unit("n-b", "spearmen", 10, 21.9, 16.4, 90)]
    state = battle(north, [unit("s-sp", "spearmen", models, 24, 18)])
    pairs = (Combat(charger="n-a", target="s-sp", kind="ground", side="front", first_round=False),
             Combat(charger="n-b", target="s-sp", kind="ground", side="left", first_round=False))
    return replace(state, combats=pairs)


def test_units_linked_by_contact_are_one_combat():
    """Host multiple combats: pairs of units in contact that share a unit fight as one combat; a separate pair is
    another."""
    state = _front_and_flank()
    other = Combat(charger="x", target="y", kind="ground", side="front")
    groups = combat_groups(replace(state, combats=(*state.combats, other)))
    assert [len(g) for g in groups] == [2, 1]


def test_one_charging_unit_a_side_of_a_unit_in_combat_another_side_may_be_charged():
    """Host multiple combats: a unit already in combat may be charged on another side, not on a side an enemy
    already holds."""
    north = [unit("n-b", "spearmen", 10, 21.9, 16.4, 90),  # on s-sp's left flank
             unit("n-c", "spearmen", 10, 14, 16.4, 90),  # further west: its charge would strike the same flank
             unit("n-d", "spearmen", 10, 24, 24, 180)]  # north of s-sp, facing it: its front
    state = battle(north, [unit("s-sp", "spearmen", 12, 24, 18)])
    state = replace(state, combats=(Combat(charger="n-b", target="s-sp", kind="ground", side="left"),))
    with pytest.raises(RuleError, match="already in contact"):
        decide(state, cmd.Charge(player="north", unit="n-c", target="s-sp"))
    events, _ = decide(state, cmd.Charge(player="north", unit="n-d", target="s-sp"))
    assert of_type(events, ev.ChargeDeclared)


def test_a_unit_fighting_two_enemies_fights_each_with_the_models_on_that_side_and_no_model_twice():
    """Host (normal ground rules for eligible targets): 12 spearmen (3 ranks of 5, 2 behind) fight n-a at the front
    with 5 and 5 supporting, and have only 2 models left for n-b on the flank."""
    out = Emitter(_front_and_flank(), RULES.evolve)
    fight_round(RULES, out, DiceCup(SeededDice("multi")), combat_groups(out.state)[0])
    blows = {(e.attacker, e.target): e.dice for e in of_type(out.events, ev.AttackResolved)}
    assert blows[("s-sp", "n-a")] == 10 and blows[("s-sp", "n-b")] == 2


def test_combat_resolution_is_summed_for_each_side():
    """Host: each side adds the wounds its units caused, its best rank bonus and +1 for holding a flank."""
    out = Emitter(_front_and_flank(models=20), RULES.evolve)
    fight_round(RULES, out, DiceCup(SeededDice("sums")), combat_groups(out.state)[0])
    resolved = of_type(out.events, ev.CombatResolved)[0]
    caused = {"north": 0, "south": 0}
    for blow in of_type(out.events, ev.AttackResolved):
        caused[out.state.units[blow.attacker].side] += blow.unsaved
    ranks = {u: rank_bonus(RULES, out.state.units[u]) for u in ("n-a", "n-b", "s-sp")}  # after the casualties
    assert set(resolved.units) == {"n-a", "n-b", "s-sp"}
    assert resolved.scores == {"north": caused["north"] + max(ranks["n-a"], ranks["n-b"]) + 1,
                               "south": caused["south"] + ranks["s-sp"]}
    assert "n-b +1 left" in resolved.details and f"s-sp +{ranks['s-sp']} ranks" in resolved.details


def test_each_losing_unit_takes_a_break_test_and_the_winner_pursues_with_one_roll():
    """Host: every unit of the losing side tests on Ld less the difference (7 - 5: south 6 wounds + 1 rank,
    north 1 rank + 1 flank); the winner rolls one pursuit against all the units that broke from it."""
    state = _front_and_flank()
    out = Emitter(state, RULES.evolve)
    resolve(RULES, out, DiceCup(TapeDice([6, 6, 6, 6], fallback=SeededDice(2))), state.combats,
            {"north": 0, "south": 6})
    tests = {t.unit: t.target for t in of_type(out.events, ev.TestTaken) if t.test == "break"}
    assert tests == {"n-a": 2, "n-b": 2}
    assert {e.unit for e in of_type(out.events, ev.UnitFled)} == {"n-a", "n-b"}
    assert len(rolls(out.events, "pursuit: s-sp")) == 1


def test_steadfast_against_several_enemies_needs_more_ranks_than_each():
    """Host Steadfast in a multiple combat: more ranks than every enemy unit in it."""
    state = _front_and_flank(models=20)  # 4 ranks against 2 and 2
    out = Emitter(state, RULES.evolve)
    break_test(RULES, out, DiceCup(TapeDice([6, 6], fallback=SeededDice(1))), "s-sp", ["n-a", "n-b"], 4)
    assert of_type(out.events, ev.TestTaken)[0].target == 7


def test_an_intercept_against_two_units_divides_the_models_and_flank_bonuses_apply():
    """Intercept (Combat): "all models are allowed to strike ... If multiple units are in battle, follow normal
    ground rules for eligible targets on flanking models ... No Extra Ranks ... Flank bonuses still apply": 3
    Pegasus Knights fight two units of Harpies, two models at the first and one at the one on their flank."""
    north = [unit("n-peg", "pegasus_knights", 3, 10, 16, 90)]
    south = [unit("s-a", "harpies", 5, 12, 16, 270), unit("s-b", "harpies", 5, 9, 20, 180)]
    state = battle(north, south, air=("n-peg", "s-a", "s-b"))
    state = replace(state, combats=(Combat(charger="n-peg", target="s-a", kind="intercept", side="front",
                                           first_round=False),
                                    Combat(charger="s-b", target="n-peg", kind="intercept", side="left",
                                           first_round=False)))
    out = Emitter(state, RULES.evolve)
    fight_round(RULES, out, DiceCup(SeededDice("air")), combat_groups(state)[0])
    blows = {(e.attacker, e.target): e.dice for e in of_type(out.events, ev.AttackResolved)}
    assert blows[("n-peg", "s-a")] == 2 and blows[("n-peg", "s-b")] == 1
    assert blows[("s-a", "n-peg")] == 5 and blows[("s-b", "n-peg")] == 5
    details = of_type(out.events, ev.CombatResolved)[0].details
    assert "s-b +1 left" in details and not [d for d in details if "ranks" in d]


# ---------------------------------------------------------------- challenges


def _duel_state(south_joined=True):
    """North's Pegasus Knights with their Captain intercepted South's Harpies, whose Lord on Wyvern has joined
    them (or fights as a unit of its own in the same combat)."""
    north = [unit("n-peg", "pegasus_knights", 3, 10, 16, 90), unit("n-cap", "pegasus_captain", 1, 10, 16, 90)]
    south = [unit("s-harp", "harpies", 5, 12, 16, 270), unit("s-wyv", "wyvern_lord", 1, 12, 20, 270)]
    state = battle(north, south, air=("n-peg", "n-cap", "s-harp", "s-wyv"), phase=SHOOTING)
    state = with_unit(state, "n-cap", joined="n-peg")
    pairs = [Combat(charger="n-peg", target="s-harp", kind="intercept", side="front", first_round=False)]
    if south_joined:
        state = with_unit(state, "s-wyv", joined="s-harp")
    else:
        pairs.append(Combat(charger="s-wyv", target="n-peg", kind="intercept", side="left", first_round=False))
    return replace(state, combats=tuple(pairs))


def _window(events):
    return of_type(events, ReactionWindowOpened)[-1].decision


def test_the_player_whose_turn_it_is_may_issue_a_challenge_and_the_other_accepts_or_refuses():
    """Host challenges: with characters on both sides, the active player may challenge; the other side answers
    with a character, or refuses."""
    events, state = decide(_duel_state(), cmd.EndPhase(player="north"))
    asked = _window(events)
    assert (asked.decider, asked.choices) == ("north", ("challenge with n-cap", "no challenge"))
    events, state = decide(state, cmd.React(player="north", choice="challenge with n-cap"))
    answer = _window(events)
    assert (answer.decider, answer.choices) == ("south", ("accept with s-wyv", "refuse"))


def test_in_an_accepted_challenge_the_two_characters_strike_only_each_other():
    _, state = decide(_duel_state(), cmd.EndPhase(player="north"))
    _, state = decide(state, cmd.React(player="north", choice="challenge with n-cap"))
    events, _ = decide(state, cmd.React(player="south", choice="accept with s-wyv"))
    assert of_type(events, ev.ChallengeSettled)[0].accepted_by == "s-wyv"
    blows = [(e.attacker, e.target, "challenge" in e.modifiers) for e in of_type(events, ev.AttackResolved)
             if e.attack.startswith("close combat")]
    assert ("n-cap", "s-wyv", True) in blows and ("s-wyv", "n-cap", True) in blows
    assert {(a, t) for a, t, _ in blows} <= {("n-cap", "s-wyv"), ("s-wyv", "n-cap"), ("n-peg", "s-harp"),
                                             ("s-harp", "n-peg")}


def test_a_refused_challenge_sends_a_character_back_it_does_not_strike_nor_lend_its_leadership():
    _, state = decide(_duel_state(), cmd.EndPhase(player="north"))
    _, state = decide(state, cmd.React(player="north", choice="challenge with n-cap"))
    events, _ = decide(state, cmd.React(player="south", choice="refuse"))
    assert of_type(events, ev.ChallengeSettled)[0].refused == "s-wyv"
    assert "s-wyv" not in {e.attacker for e in of_type(events, ev.AttackResolved)}
    out = Emitter(_duel_state(), RULES.evolve)
    break_test(RULES, out, DiceCup(TapeDice([6, 6], fallback=SeededDice(1))), "s-harp", ["n-peg"], 1,
               refused="s-wyv")
    assert of_type(out.events, ev.TestTaken)[0].target == 5  # the Harpies' Ld 6 - 1, not the Lord's 8


def test_a_character_fighting_as_a_unit_of_its_own_cannot_refuse():
    _, state = decide(_duel_state(south_joined=False), cmd.EndPhase(player="north"))
    events, _ = decide(state, cmd.React(player="north", choice="challenge with n-cap"))
    assert _window(events).choices == ("accept with s-wyv",)


def test_no_challenge_is_asked_without_characters_on_both_sides():
    state = with_unit(_duel_state(), "s-wyv", joined="", status="destroyed")
    events, _ = decide(state, cmd.EndPhase(player="north"))
    assert not [w for w in of_type(events, ReactionWindowOpened) if w.decision.rule == "Host: Challenges"]
    assert of_type(events, ev.CombatResolved)


def test_overkill_counts_in_a_challenge_up_to_five_wounds_more():
    """Host challenges: wounds beyond those a character has left count for combat resolution in a challenge (at
    most 5 more: overkill); elsewhere they are lost."""
    state = _duel_state()
    assert counted_wounds(RULES, state, "s-wyv", 8, duel=True) == 8
    assert counted_wounds(RULES, state, "s-wyv", 12, duel=True) == 5 + OVERKILL
    assert counted_wounds(RULES, state, "s-wyv", 8, duel=False) == 5
    assert counted_wounds(RULES, state, "s-harp", 7, duel=False) == 5


def test_the_general_bot_challenges_and_accepts_only_with_a_match_for_the_enemy():
    """Bots: the general issues a challenge (or accepts one) only with a character at least as strong as the
    enemy's strongest; else it declines, refusing when it may. The Captain is no match for the Lord on Wyvern."""
    from types import SimpleNamespace

    from aero_events.rulesets.whfb_flying.bots import GeneralBot
    from aero_events.rulesets.whfb_flying.turn import decider

    bot = GeneralBot(1)
    _, state = decide(_duel_state(), cmd.EndPhase(player="north"))
    answers = []
    while state.reactions.pending:
        player = decider(state)
        choice = bot.choose(SimpleNamespace(ruleset=RULES, state=state), player, RULES.legal_commands(state, player))
        answers.append((player, choice.choice))
        _, state = decide(state, choice)
    assert answers == [("north", "no challenge"), ("south", "challenge with s-wyv"), ("north", "refuse")]
