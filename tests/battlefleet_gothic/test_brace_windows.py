"""Brace for Impact before damage that is not the other player's shooting or ordnance (p.11, p.12, p.23): an
exploding neighbour's lance shots (p.26) and the Blast-marker damage of a shieldless ship (p.25)."""

from aero_events.core import DiceCup, TapeDice
from aero_events.rulesets.battlefleet_gothic import BattlefleetGothicRules, RuleOptions, damage
from aero_events.rulesets.battlefleet_gothic import events as ev
from aero_events.rulesets.battlefleet_gothic.commands import MoveShip, React
from aero_events.rulesets.battlefleet_gothic.data import CM
from aero_events.rulesets.battlefleet_gothic.state import BRACE_FOR_IMPACT, DESTROYED, BlastMarker
from aero_events.rulesets.battlefleet_gothic.turn import Emitter

from .helpers import RULES, decide, of_type, replace, ship, state_with, with_ship

ANY_TIME = BattlefleetGothicRules(options=RuleOptions(brace_timing="any_time"))
ENEMY_ONLY = BattlefleetGothicRules(options=RuleOptions(brace_against="enemy_attacks"))

AGRIPPA = ship("agrippa", "imperial", "lunar", 90, 20, 0, name="Agrippa")
UNCLEAN = ship("unclean", "chaos", "murder", 90, 30, 90, name="Unclean")
CARNAGE = ship("carnage", "chaos", "carnage", 100, 25, 90, name="Carnage")
PLASMA_OVERLOAD = [1, 5, 5, 4, 4, 4]  # no critical; 2D6 = 10: Plasma Drive Overload; 3D6 = 12 cm


def explode_agrippa(state, rules=RULES):
    """The Agrippa (7 damage of 8) takes a torpedo hit and its plasma drive overloads (p.26)."""
    state = with_ship(state, "agrippa", damage=7)
    out = Emitter(state, rules.evolve)
    damage.resolve_hits(rules, out, DiceCup(TapeDice(PLASMA_OVERLOAD + [1] * 8)), "agrippa", 1, "torpedo", (90_000, 60_000),
                        "torpedoes-9")
    return out.events, out.state


def test_a_ship_caught_by_an_explosion_in_the_enemy_turn_may_brace_first_p23_p26():
    """In the Imperial turn the Unclean's player is asked before the lance shots are rolled; a passed
    Leadership test puts it on Brace for Impact and its 4+ saves count against the explosion."""
    events, state = explode_agrippa(state_with(AGRIPPA, UNCLEAN, active="imperial"))
    assert state.ships["agrippa"].status == DESTROYED
    assert state.pending.kind == "explosion" and state.pending.ship == "unclean" and state.pending.can_brace
    assert len(state.strikes) == 1 and not of_type(events, ev.LancesResolved)  # no dice before the decision
    events, after = decide(state, React(player="chaos", ship="unclean", brace=True), [3, 3, 6, 6, 6, 6, 4, 1, 1])
    assert of_type(events, ev.OrderPlaced)[0].order == BRACE_FOR_IMPACT
    assert of_type(events, ev.LancesResolved)[0].hits == 4  # 2 on the shields, 2 past them
    assert of_type(events, ev.HitsSaved)[0].saved == 1 and after.ships["unclean"].damage == 1
    assert after.strikes == () and after.pending is None


def test_each_victim_of_an_explosion_gets_its_own_window_nearest_first_p26():
    _, state = explode_agrippa(state_with(AGRIPPA, UNCLEAN, CARNAGE, active="imperial"))
    assert state.pending.ship == "unclean" and [s.victim for s in state.strikes] == ["unclean", "carnage"]
    _, after = decide(state, React(player="chaos", ship="unclean", brace=False), [1, 1, 1, 1])
    assert after.pending.ship == "carnage" and after.pending.kind == "explosion"
    _, after = decide(after, React(player="chaos", ship="carnage", brace=False), [1, 1, 1, 1])
    assert after.strikes == () and after.pending is None


def test_no_window_in_the_ships_own_turn_outside_the_ordnance_phase_p11():
    """p.11: Brace "can only be used during the ordnance phase or during an opponent's turn": in the Chaos
    movement phase the Unclean is struck at once; under the p.12 reading (``brace_timing="any_time"``) it may
    brace first."""
    events, state = explode_agrippa(state_with(AGRIPPA, UNCLEAN, active="chaos"))
    assert state.pending is None and of_type(events, ev.LancesResolved)
    _, state = explode_agrippa(state_with(AGRIPPA, UNCLEAN, active="chaos", rules=ANY_TIME), rules=ANY_TIME)
    assert state.pending.kind == "explosion" and state.pending.ship == "unclean"


def test_brace_against_enemy_attacks_only_opens_no_window_for_explosions_p11():
    """``brace_against="enemy_attacks"`` reads p.11 ("hits inflicted on it by the enemy") strictly."""
    events, state = explode_agrippa(state_with(AGRIPPA, UNCLEAN, active="imperial", rules=ENEMY_ONLY),
                                    rules=ENEMY_ONLY)
    assert state.pending is None and of_type(events, ev.LancesResolved)


def shieldless_through_a_marker(rules):
    state = replace(with_ship(state_with(AGRIPPA, ship("far", "chaos", "murder", 30, 110, 180), rules=rules),
                              "agrippa", criticals=("shields_collapse",)),
                    blast_markers={"1": BlastMarker(90_000, 30_000)})
    return state, MoveShip(player="imperial", ship="agrippa", legs=(15 * CM,))


def test_blast_marker_damage_brace_window_under_the_any_time_reading_p12_p25():
    """A shieldless ship moving through Blast markers takes a point of damage on a 6 (p.25). It moves in its
    own movement phase, so the default (p.11) offers no window; under p.12 ("any time during either player's
    turn") its player may brace before the D6, and the 4+ save applies."""
    state, move = shieldless_through_a_marker(RULES)
    _, after = decide(state, move, [6, 1])
    assert after.pending is None and after.ships["agrippa"].damage == 1
    state, move = shieldless_through_a_marker(ANY_TIME)
    _, waiting = decide(state, move, rules=ANY_TIME)
    assert waiting.pending.kind == "blast markers" and waiting.ships["agrippa"].moved
    events, after = decide(waiting, React(player="imperial", ship="agrippa", brace=True), [3, 3, 6, 5],
                           rules=ANY_TIME)
    assert after.ships["agrippa"].order == BRACE_FOR_IMPACT
    assert of_type(events, ev.HitsSaved)[0].saved == 1 and after.ships["agrippa"].damage == 0


def test_other_hulks_drift_after_a_blazing_hulks_explosion_window_p26():
    """At the start of the Imperial turn the blazing hulk drifts 4 cm, rolls 10 (Plasma Drive Overload,
    18 cm): the Unclean's player may brace; then the other Imperial hulk drifts (p.26)."""
    from aero_events.rulesets.battlefleet_gothic import movement
    from aero_events.rulesets.battlefleet_gothic.state import BLAZING_HULK, DRIFTING_HULK

    blaze = ship("blaze", "imperial", "lunar", 90, 20, 0)
    wreck = ship("wreck", "imperial", "lunar", 30, 20, 0)
    agrippa = ship("agrippa", "imperial", "lunar", 150, 20, 0)
    state = state_with(blaze, wreck, agrippa, UNCLEAN, active="imperial")
    state = with_ship(with_ship(state, "blaze", status=BLAZING_HULK, damage=8), "wreck", status=DRIFTING_HULK,
                      damage=8)
    out = Emitter(state, RULES.evolve)
    movement.drift_hulks(RULES, out, DiceCup(TapeDice([1, 1, 1, 1, 5, 5, 6, 6, 6])))
    state = out.state
    assert state.pending.kind == "explosion" and state.pending.ship == "unclean"
    assert "blaze" in state.paths and "wreck" not in state.paths
    events, after = decide(state, React(player="chaos", ship="unclean", brace=False), [1, 1, 1, 1, 2, 2, 2, 2])
    assert of_type(events, ev.LancesResolved) and after.paths["wreck"] == ((30_000, 20_000), (30_000, 28_000))
