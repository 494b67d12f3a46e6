"""Session 11's short cuts on the per-command path (issue 18), each checked against the plain computation it
stands for over many positions: plans and flights shared between facings, the manoeuvre table's index, the
Movement and Firing phases' offers, and the baseline bot's Choose Manoeuvres verdicts kept per aircraft."""

from __future__ import annotations

import itertools

import msgspec
import pytest

from aero_events.core import GameSession
from aero_events.hexgrid import Hex
from aero_events.rulesets.aeronautica import AeronauticaRules, firing, movement
from aero_events.rulesets.aeronautica import baseline_bot as baseline
from aero_events.rulesets.aeronautica.bots import BaselineBot
from aero_events.rulesets.aeronautica.commands import (
    ActivateAircraft,
    ChooseManoeuvre,
    DeclineManoeuvre,
    FireWeapons,
    ManoeuvrePlan,
    PassFiring,
)
from aero_events.rulesets.aeronautica.manoeuvres import Manoeuvre, ManoeuvreTable
from aero_events.rulesets.aeronautica.state import (
    CHOOSE_MANOEUVRES,
    FIRING,
    MOVEMENT,
    TAILING_FIRE,
    GameState,
)
from aero_events.rulesets.aeronautica.turn import eligible_to_move
from tests.support.dogfights import every_state as states
from tests.support.dogfights import played_dogfight

RULES = AeronauticaRules()
replace = msgspec.structs.replace


@pytest.fixture(scope="module")
def sessions() -> list[GameSession]:
    return [played_dogfight(size, seed, (BaselineBot, BaselineBot), f"kept-lookups-{size}-{seed}")
            for size, seed in ((1, 2), (2, 3), (4, 6), (3, 9))]


def _every_plan(manoeuvre: Manoeuvre, speed: int):
    """Every plan a player may write for ``manoeuvre`` at ``speed`` (p.16), legal or not: each side, every split of
    up to ``speed`` hexes over the stages (and one too many), every facing change of each stage (and one not)."""
    stages = manoeuvre.stages
    for side in (*manoeuvre.sides, "sideways"):
        for stage_hexes in itertools.product(range(speed + 2), repeat=len(stages)):
            for facings in itertools.product(*[(*stage.facings, 5) for stage in stages]):
                yield side, stage_hexes, facings


# ---------------------------------------------------------------- Move and Manoeuvre (p.16-17)


def test_the_plans_offered_are_the_same_from_every_facing_as_reach_flies_them():
    """A plan is side, hexes per stage and facing changes, counted from the aircraft's facing (p.16): the plans
    offered facing any hexside, kept once for all six (asked as facing 0), are those of ``reach`` facing that way,
    in its order, for every Ace Manoeuvre, Speed and facing, whatever was kept before."""
    checked = 0
    for manoeuvre, speed, facing in itertools.product(RULES.manoeuvres.manoeuvres, range(10), range(6)):
        if facing == 3:
            movement._plan_commands.cache_clear()
            movement.reach.cache_clear()
        aircraft_state = _aircraft_at(manoeuvre.number, facing, speed)
        offered = RULES.legal_commands(aircraft_state, "imperium")
        plain = movement.manoeuvre_plans(RULES, aircraft_state.aircraft["imperium-1"])
        assert offered == [ManoeuvrePlan(player="imperium", aircraft="imperium-1", side=f.side,
                                         stage_hexes=f.stage_hexes, facings=f.facings) for f in plain]
        checked += len(offered)
    assert checked > 1000


def _aircraft_at(manoeuvre: int, facing: int, speed: int) -> GameState:
    """A state at the Move and Manoeuvre step of a flying aircraft with ``manoeuvre`` revealed."""
    from tests.support.dogfights import thunderbolts_v_dakkajets

    state = RULES.initial_state(thunderbolts_v_dakkajets(1, RULES))
    aircraft = state.aircraft["imperium-1"]
    moving = replace(aircraft, status="flying", facing=facing, speed=speed, revealed=manoeuvre, hex=Hex(8, 4))
    return replace(state, phase=MOVEMENT, aircraft={**state.aircraft, "imperium-1": moving}, first_mover="imperium",
                   to_act="imperium", active="imperium-1", step="manoeuvre")


def test_every_plan_flies_as_fly_flies_it_from_the_origin_whether_offered_or_not():
    """Move and Manoeuvre (p.16): any plan, looked up among the flights ``reach`` flew (the plans offered) or
    flown afresh (the same hexes as an earlier plan, or a plan the manoeuvre refuses), gives the Flight ``fly``
    gives from the origin facing that way, and None for a plan the manoeuvre does not allow."""
    flown = refused = 0
    for manoeuvre, speed in itertools.product(RULES.manoeuvres.manoeuvres, (1, 2, 4, 6)):
        for side, stage_hexes, facings in _every_plan(manoeuvre, speed):
            completed = movement.can_complete(manoeuvre, speed)
            legal = completed and movement._legal_plan(manoeuvre, speed, side, stage_hexes, facings)
            for facing in (0, 2, 5):
                found = movement._flown_from_origin(RULES, manoeuvre.number, facing, speed, side, stage_hexes,
                                                    facings)
                if legal:
                    assert found == movement.fly(Hex(0, 0), facing, manoeuvre, side, stage_hexes, facings, speed)
                    flown += 1
                else:  # refused, or too slow to complete: only the empty plan flies (straight ahead), never these
                    assert found is None
                    refused += 1
    assert flown > 1000 and refused > 1000


def test_the_plans_looked_up_facing_north_are_reachs_flights_by_plan_the_first_of_each():
    """The index of offered flights holds, for each plan ``reach`` offers facing 0, that very flight."""
    for manoeuvre, speed in itertools.product(RULES.manoeuvres.manoeuvres, range(10)):
        index = movement._offered_flights(manoeuvre, speed)
        flights = movement.reach(manoeuvre, 0, speed)
        assert list(index.values()) == list(flights)
        assert list(index) == [(f.side, f.stage_hexes, f.facings) for f in flights]


# ---------------------------------------------------------------- the Ace Manoeuvre table (p.16)


def test_the_manoeuvre_table_finds_a_number_as_a_search_in_order_does():
    """``get`` and ``in`` answer as searching the manoeuvres in order would, for every number and for values that
    are no manoeuvre's number; a missing number is a KeyError naming the table's numbers."""
    table = RULES.manoeuvres
    for number in (*range(-2, 12), True, 1.0, "1", None, (1,), []):
        searched = next((m for m in table.manoeuvres if m.number == number), None)
        assert (number in table) == (searched is not None)
        if searched is None:
            with pytest.raises(KeyError, match="no Ace Manoeuvre"):
                table.get(number)
        else:
            assert table.get(number) is searched


def test_a_table_with_a_number_twice_gives_its_first_manoeuvre_and_each_table_its_own():
    first, second = RULES.manoeuvres.manoeuvres[:2]
    doubled = ManoeuvreTable(source="test", data_version="t", manoeuvres=(first, replace(second, number=first.number)))
    assert doubled.get(first.number) is first
    assert second.number not in doubled
    assert RULES.manoeuvres.get(second.number) is second


# ---------------------------------------------------------------- the Movement and Firing phases' offers


def test_activation_offers_each_aircraft_eligible_to_move_in_order(sessions):
    """Movement (p.14): the player to act is offered one ActivateAircraft per aircraft of theirs eligible to move
    (``eligible_to_move``), in the state's order; the other player nothing."""
    asked = 0
    for session in sessions:
        for state in states(session):
            if state.phase != MOVEMENT or state.first_mover is None or state.active is not None:
                continue
            for player in state.players:
                plain = [ActivateAircraft(player=player, aircraft=a.id) for a in state.side(player)
                         if eligible_to_move(a)] if state.to_act == player else []
                assert RULES.legal_commands(state, player) == plain
                asked += 1
    assert asked > 50


def _plain_firing_offers(state: GameState, player: str) -> list:
    """The Firing and Tailing Fire phases' offers to the player choosing an aircraft (p.13-14, p.20), written out
    with ``may_fire`` and ``launch_commands`` asked of every aircraft of theirs."""
    kind = firing.TAILING if state.phase == TAILING_FIRE else firing.FIRE
    commands = [PassFiring(player=player)]
    in_play = tuple(firing.all_targets(state))
    for aircraft in state.side(player):
        if not firing.may_fire(state, aircraft):
            continue
        commands.append(FireWeapons(player=player, aircraft=aircraft.id))
        for only in (firing.tailed_by(aircraft) if kind == firing.TAILING else (None,)):
            commands.extend(FireWeapons(player=player, aircraft=aircraft.id, shots=shots) for shots in
                            firing._volley_options(RULES, state, aircraft, kind, only_target=only, in_play=in_play))
        commands.extend(firing.launch_commands(RULES, state, aircraft))
    return commands


def test_the_firing_offers_are_those_of_every_aircraft_that_may_fire(sessions):
    """Every aircraft the ``may_fire`` rule lets fire is offered holding fire and its volleys, whatever its state
    (fired, landed, in a Spin, out of Ammo, taken off this turn, Tailing Fire): the short cut for a flying aircraft
    with an unlimited weapon answers as the rule does, in every state of four Dogfights and in states changed to
    reach the rule's other answers."""
    asked = 0
    for session in sessions:
        for state in states(session):
            if state.phase not in (FIRING, TAILING_FIRE) or state.to_act is None or state.volley is not None \
                    or state.return_fire is not None:
                continue
            player = state.to_act
            variants = [state]
            mine = [a for a in state.side(player) if not a.fired]
            if mine:
                first = mine[0]
                for change in ({"spinning": True}, {"took_off_turn": state.turn}, {"ammo": (0,) * len(first.ammo)},
                               {"ammo": (1,) * len(first.ammo)}, {"status": "landed"}, {"ground_defence": True}):
                    variants.append(replace(state, aircraft={**state.aircraft, first.id: replace(first, **change)}))
            for variant in variants:
                assert list(RULES.legal_commands(variant, player)) == _plain_firing_offers(variant, player)
                asked += 1
    assert asked > 100


# ---------------------------------------------------------------- the baseline bot's Choose Manoeuvres verdicts


def _choose_manoeuvre_positions(sessions) -> list[tuple[GameState, list]]:
    found = []
    for session in sessions:
        for state in states(session):
            if state.phase != CHOOSE_MANOEUVRES:
                continue
            for player in state.players:
                options = RULES.legal_commands(state, player)
                if options:
                    found.append((state, list(options)))
    return found


def test_the_bots_tokens_are_judged_per_aircraft_as_option_by_option(sessions):
    """The baseline bot's Choose Manoeuvres tiers (p.13, p.17), judged a run of one aircraft's tokens at a time and
    kept for an aircraft whose state has not changed, keep exactly the options the judgement option by option
    keeps: for each state of four Dogfights in their order (one bot's board, as in play), for the options in
    another order (runs split), and for options mixing in one that names no aircraft."""
    positions = _choose_manoeuvre_positions(sessions)
    assert len(positions) > 30
    kept_board = baseline._Board(RULES, positions[0][0])
    compared = 0
    for state, options in positions:
        board = kept_board if kept_board.name == state.board else baseline._Board(RULES, state)
        for careful in (True, False):
            plain = baseline._manoeuvres_kept_one_by_one(baseline._Board(RULES, state), state, options, careful)
            assert baseline._manoeuvres_kept(board, state, options, careful) == plain
            shuffled = options[1::2] + options[::2]
            assert baseline._manoeuvres_kept(board, state, shuffled, careful) == \
                baseline._manoeuvres_kept_one_by_one(baseline._Board(RULES, state), state, shuffled, careful)
            mixed = [*options, PassFiring(player=options[0].player)]
            assert baseline._manoeuvres_kept(board, state, mixed, careful) == [*plain, mixed[-1]]
            compared += 1
    assert compared > 60


def test_a_token_for_an_aircraft_not_flying_or_a_decline_is_always_kept(sessions):
    state, options = _choose_manoeuvre_positions(sessions)[0]
    first = options[0]
    landed = replace(state, aircraft={**state.aircraft, first.aircraft: replace(state.aircraft[first.aircraft],
                                                                               status="landed")})
    declines = [DeclineManoeuvre(player=first.player, aircraft=first.aircraft)]
    board = baseline._Board(RULES, state)
    assert baseline._manoeuvres_kept(board, landed, options, True) == \
        [o for o in options if o.aircraft == first.aircraft] + \
        baseline._manoeuvres_kept_one_by_one(board, landed, [o for o in options if o.aircraft != first.aircraft],
                                             True)
    assert baseline._manoeuvres_kept(board, state, declines, True) == declines
    unknown = [ChooseManoeuvre(player=first.player, aircraft="nobody", manoeuvre=1)]
    with pytest.raises(KeyError):
        baseline._manoeuvres_kept(board, state, unknown, True)
