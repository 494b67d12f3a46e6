"""The fast decisions (issue 18): ``legal_commands`` and ``decide`` keep what depends only on immutable data or on
a few values of the state, and skip work whose answer is known. Each short cut is checked here against the rule
it stands for, written out plainly, over the states of seeded Dogfights (1 against 1 to 4 against 4)."""

from __future__ import annotations

import itertools

import msgspec
import pytest

from aero_events.bots import play
from aero_events.core import DiceCup, GameSession, RuleError, SeededDice
from aero_events.hexgrid import Hex
from aero_events.rulesets.aeronautica import AeronauticaRules, altitude, firing, movement, turn, weapons
from aero_events.rulesets.aeronautica.bots import BaselineBot
from aero_events.rulesets.aeronautica.commands import (
    AdjustAltitude,
    ChooseManoeuvre,
    FireWeapons,
    Land,
    ManoeuvrePlan,
    PassFiring,
    PlaceAircraft,
    RocketBoostOut,
    SetThrottle,
)
from aero_events.rulesets.aeronautica.events import VolleyDeclared
from aero_events.rulesets.aeronautica.ground import aircraft_target, all_targets
from aero_events.rulesets.aeronautica.scenarios import set_up
from aero_events.rulesets.aeronautica.setup import board_for
from aero_events.rulesets.aeronautica.state import (
    ALTITUDE,
    CHOOSE_MANOEUVRES,
    FIRING,
    MANOEUVRE,
    MOVEMENT,
    SET_UP,
    THROTTLE,
    UNDEPLOYED,
    GameState,
)
from tests.support.dogfights import played_dogfight, thunderbolts_v_dakkajets

RULES = AeronauticaRules()
replace = msgspec.structs.replace


@pytest.fixture(scope="module")
def sessions() -> list[GameSession]:
    return [played_dogfight(size, seed, (BaselineBot, BaselineBot), f"decide-{size}-{seed}")
            for size, seed in ((1, 0), (2, 1), (4, 2), (1, 5))]


def states(session: GameSession):
    """Every state of the game, the initial one first."""
    state = session.game.initial_state
    yield state
    for envelope in session.events():
        state = session.ruleset.evolve(state, envelope.event)
        yield state


def _forget_kept_answers() -> None:
    """Empty every table the decisions keep (a fresh process)."""
    for kept in (movement._throttle_commands, movement._plan_commands, movement._flown_from_origin,
                 altitude._altitude_commands, turn._token_commands, firing._weapon_facts, firing._attack_at,
                 firing._volleys_reaching, firing._carries_autonomous, set_up._in_order):
        kept.cache_clear()
    for kept in firing._OFFERED_VOLLEYS.values():
        kept.clear()
    weapons._RULE_NAMES.clear()


# ---------------------------------------------------------------- the same games, whatever is kept


def _played(size: int, seed: int) -> list[bytes]:
    session = GameSession(RULES, thunderbolts_v_dakkajets(size), dice=SeededDice(seed), game_id=f"kept-{size}-{seed}",
                          metadata={"reproducible_salts": True})
    play(session, {"imperium": BaselineBot(seed), "orks": BaselineBot(seed + 1)}, max_commands=2_000)
    return [msgspec.json.encode(envelope) for envelope in session.events()]


def test_a_game_decides_the_same_events_with_nothing_kept_and_with_another_games_answers_kept():
    """What the decisions keep is keyed by all it depends on: a game played in a fresh process, and the same
    game played after others filled the tables, record the same events byte for byte."""
    _forget_kept_answers()
    fresh = _played(2, 7)
    _played(1, 3)
    _played(4, 4)
    assert _played(2, 7) == fresh


# ---------------------------------------------------------------- Movement (p.15-19)


def test_movement_steps_offer_the_throttle_plans_and_altitude_changes_of_the_rules(sessions):
    """Throttle (p.15): one SetThrottle per Speed change of ``throttle_choices``; Move and Manoeuvre (p.16-17):
    one ManoeuvrePlan per plan of ``manoeuvre_plans``; Adjust Altitude (p.18-19): each change of
    ``altitude_options``, then landing and Rocket Boosters where they apply."""
    seen = set()
    for session in sessions:
        for state in states(session):
            if state.phase != MOVEMENT or state.active is None:
                continue
            aircraft = state.aircraft[state.active]
            player = aircraft.owner
            offered = RULES.legal_commands(state, player)
            if state.step == THROTTLE:
                expected = [SetThrottle(player=player, aircraft=aircraft.id, change=c)
                            for c in movement.throttle_choices(RULES, aircraft, RULES.profile(aircraft))]
            elif state.step == MANOEUVRE:
                expected = [ManoeuvrePlan(player=player, aircraft=aircraft.id, side=f.side, stage_hexes=f.stage_hexes,
                                          facings=f.facings) for f in movement.manoeuvre_plans(RULES, aircraft)]
            elif state.step == ALTITUDE:
                expected = [AdjustAltitude(player=player, aircraft=aircraft.id, change=c)
                            for c in movement.altitude_options(aircraft.speed)]
                if aircraft.may_land:
                    expected.append(Land(player=player, aircraft=aircraft.id))
                if aircraft.altitude == altitude.CEILING and RULES.profile(aircraft).has_rule("rocket_boosters"):
                    expected.append(RocketBoostOut(player=player, aircraft=aircraft.id))
            else:
                continue
            assert list(offered) == expected
            assert RULES.legal_commands(state, state.opponent(player)) == []
            seen.add(state.step)
    assert seen == {THROTTLE, MANOEUVRE, ALTITUDE}


def test_a_plan_flies_the_same_hexes_from_any_hex_as_flying_it_there():
    """Move and Manoeuvre (p.16): a plan (side, hexes per stage, facings) is flown step by step from where the
    aircraft is; the kept flight from the origin, moved to the aircraft's hex, is exactly that flight, for every
    plan of every manoeuvre, facing and Speed, including plans offered once because they fly the same hexes."""
    aircraft = replace(next(iter(RULES.initial_state(thunderbolts_v_dakkajets(1)).aircraft.values())),
                       hex=Hex(7, -3))
    checked = 0
    for number in (1, 2, 3, 4, 6, 7):
        manoeuvre = RULES.manoeuvres.get(number)
        for facing, speed in itertools.product(range(6), range(len(manoeuvre.stages), 7)):
            flier = replace(aircraft, revealed=number, facing=facing, speed=speed)
            stages = manoeuvre.stages
            for side in manoeuvre.sides:
                for hexes in itertools.product(range(1, speed + 1), repeat=len(stages)):
                    for facings in itertools.product(*[stage.facings for stage in stages]):
                        expected = movement.fly(flier.hex, facing, manoeuvre, side, hexes, facings, speed) \
                            if sum(hexes) <= speed else None
                        assert movement.plan_flight(RULES, flier, side, hexes, facings) == expected
                        checked += 1
    assert checked > 1000


def test_a_plan_not_written_in_whole_numbers_is_flown_as_written_not_looked_up():
    """A plan whose hexes per stage are not integers (True for 1) is flown as it is written, never taken for the
    integer plan it equals."""
    aircraft = replace(next(iter(RULES.initial_state(thunderbolts_v_dakkajets(1)).aircraft.values())),
                       hex=Hex(3, 3), revealed=1, facing=0, speed=3)
    manoeuvre = RULES.manoeuvres.get(1)
    side = manoeuvre.sides[0]
    facings = tuple(stage.facings[0] for stage in manoeuvre.stages)
    ones = (1,) * len(manoeuvre.stages)
    trues = (True,) * len(manoeuvre.stages)
    movement.plan_flight(RULES, aircraft, side, ones, facings)  # the integer plan is kept first
    flown = movement.plan_flight(RULES, aircraft, side, trues, facings)
    assert flown == movement.fly(aircraft.hex, 0, manoeuvre, side, trues, facings, 3)
    assert all(value is True for value in flown.stage_hexes)


def test_the_edge_of_the_area_of_engagement_is_where_the_board_says():
    """The edge (p.17): the first hex of a path beyond the edge or in an incomplete edge hex is the first the
    board does not contain, on every board preset, for paths leaving it on every side."""
    for name in ("3x3", "4x4", "8x4", "16x16h", "30x30h"):
        board = board_for(name)
        for q, r in itertools.product(range(-2, board.columns + 2), range(-board.columns - 2, board.rows + 3)):
            path = (Hex(q, r), Hex(q + 1, r - 1), Hex(q + 1, r))
            expected = next((i for i, hex in enumerate(path) if not board.contains(hex)), None)
            assert movement.first_off_board(board, path) == expected


# ---------------------------------------------------------------- Choose Manoeuvres (p.13)


def test_choose_manoeuvres_offers_a_token_per_ace_manoeuvre_of_each_aircraft_without_one(sessions):
    """Choose Manoeuvres (p.13): each eligible aircraft without a token is offered every Ace Manoeuvre its
    profile can perform (p.10), in the table's order."""
    count = 0
    for session in sessions:
        for state in states(session):
            if state.phase != CHOOSE_MANOEUVRES:
                continue
            for player in state.players:
                expected = [ChooseManoeuvre(player=player, aircraft=a.id, manoeuvre=n)
                            for a in state.side(player)
                            if turn.eligible_to_choose(a) and a.commitment is None and not a.no_token
                            for n in RULES.manoeuvres_for(a)]
                assert list(RULES.legal_commands(state, player)) == expected
                count += 1
    assert count > 20


# ---------------------------------------------------------------- Firing (p.20-28)


def test_weapon_special_rules_are_read_as_the_profile_states_them():
    """Weapon special rules (p.24-25): ``weapons.has_rule`` answers as the profile's own ``has_rule`` for every
    weapon of the catalogue and every rule name, also when a new profile is made."""
    names = {rule.rule for weapon in RULES.catalogue.weapons.values() for rule in weapon.special_rules}
    for weapon in RULES.catalogue.weapons.values():
        for name in names | {"no_such_rule"}:
            assert weapons.has_rule(weapon, name) == weapon.has_rule(name)
        changed = replace(weapon, special_rules=())
        assert not any(weapons.has_rule(changed, name) for name in names)


def test_the_kind_of_attack_depends_only_on_the_firing_altitude_and_the_target_altitude(sessions):
    """Fire Arcs Up/Down, Ground Attack, Aerial Attack, Ground-to-Air and Strafing (p.21, p.24-28): the kept
    kind of attack is ``attack_kind`` for every weapon, firer and target of the games, a refusal included."""
    checked = 0
    for session in sessions:
        state = session.state
        for firer, target in itertools.product(state.aircraft.values(), all_targets(state)):
            for index, weapon_id in enumerate(firer.weapons):
                weapon = RULES.catalogue.weapons[weapon_id]
                try:
                    expected = weapons.attack_kind(weapon, firer, target)
                except RuleError:
                    expected = None
                for altitude_now in range(6):
                    moved = target._replace(altitude=altitude_now)
                    try:
                        at = weapons.attack_kind(weapon, firer, moved)
                    except RuleError:
                        at = None
                    assert firing._attack_at(RULES, weapon_id, weapons.firing_altitude(firer), altitude_now,
                                             moved.on_ground) == at
                assert firing._attack_at(RULES, weapon_id, weapons.firing_altitude(firer), target.altitude,
                                         target.on_ground) == expected
                checked += 1
    assert checked > 20


def test_targets_in_play_are_the_aircraft_as_they_are_now(sessions):
    """Targeting (p.21): ``all_targets`` gives each aircraft in play as it is in this state (its hex, Altitude,
    Stall or Spin token), though an aircraft unchanged between states is looked up."""
    for session in sessions:
        for state in states(session):
            assert all_targets(state) == [aircraft_target(a) for a in state.aircraft.values() if a.in_play]


def _offered_in_firing(session: GameSession) -> list[tuple[GameState, str]]:
    return [(state, state.to_act) for state in states(session)
            if state.phase == FIRING and state.to_act is not None and state.volley is None
            and state.return_fire is None]


def test_the_volleys_offered_are_the_same_whatever_was_kept_before(sessions):
    """The choices of a volley (p.21: one target per Fire Arc; p.22: only shots that can hit; p.26: no Strafing
    Run beside fire at aircraft in the air) are worked out from what each weapon reaches: asked with every table
    emptied, and again once other positions filled them, the Firing phase offers the same commands."""
    positions = [position for session in sessions for position in _offered_in_firing(session)]
    assert len(positions) > 10
    fresh = []
    for state, player in positions:
        _forget_kept_answers()
        fresh.append(list(RULES.legal_commands(state, player)))
    for (state, player), expected in zip(reversed(positions), reversed(fresh), strict=True):
        assert list(RULES.legal_commands(state, player)) == expected
    assert any(isinstance(c, FireWeapons) and c.shots for commands in fresh for c in commands)
    assert all(commands[0] == PassFiring(player=player) for (_, player), commands in zip(positions, fresh))


def _offered_by_the_rules(reachable) -> set[tuple]:
    """The volleys the module notes of :mod:`.firing` describe, written out plainly: a non-empty choice of one
    target (or none) per weapon such that some choice of one target or none per Fire Arc (p.21) lets every
    shot through one of its arcs, while every weapon with unlimited Ammo that could fire through the chosen
    arcs does fire (only limited Ammo is held back), and no Strafing Run beside a target in the air (p.26)."""
    arcs = sorted({arc for _, _, options in reachable for _, (reach, _, _) in options for arc in reach})
    targets = sorted({target for _, _, options in reachable for target, _ in options})
    offered = set()
    for picked in itertools.product([None, *targets], repeat=len(arcs)):
        through = dict(zip(arcs, picked, strict=True))
        choices = []
        for index, limited, options in reachable:
            able = [(target, strafes, in_air) for target, (reach, strafes, in_air) in sorted(options)
                    if any(through[arc] == target for arc in reach)]
            choices.append([(index, *shot) for shot in able] + ([None] if limited or not able else []))
        for volley in itertools.product(*choices):
            shots = [shot for shot in volley if shot is not None]
            if shots and not (any(s[2] for s in shots) and any(s[3] for s in shots)):
                offered.add(tuple((index, target) for index, target, _, _ in shots))
    return offered


def test_the_volley_choices_are_those_the_firing_rules_allow():
    """One target per Fire Arc (p.21), Ammo (p.22), Strafing Runs (p.26): for every small armament (one or two
    weapons, limited Ammo or not, each reaching two targets through some of its arcs), the kept enumeration
    offers exactly the volleys the rules allow, each once, sorted by weapon."""
    arc_sets = [frozenset(), frozenset({"front"}), frozenset({"front", "left"}), frozenset({"rear"})]
    checked = 0
    for weapons_count in (1, 2):
        for limits in itertools.product((False, True), repeat=weapons_count):
            for reaches in itertools.product(itertools.product(arc_sets, repeat=2), repeat=weapons_count):
                for strafing in (False, True):
                    reachable = tuple(
                        (index, limits[index],
                         tuple((target, (reach, strafing and target == "b", not (strafing and target == "b")))
                               for target, reach in zip(("a", "b"), reaches[index], strict=True) if reach))
                        for index in range(weapons_count))
                    reachable = tuple(weapon for weapon in reachable if weapon[2])
                    if not reachable:
                        continue
                    kept = firing._volleys_reaching(reachable)
                    as_pairs = [tuple((shot.weapon_index, shot.target) for shot in volley) for volley in kept]
                    assert set(as_pairs) == _offered_by_the_rules(reachable)
                    assert len(as_pairs) == len(set(as_pairs))
                    checked += 1
    assert checked > 100


def test_every_offered_volley_is_accepted_and_a_weapon_fires_once(sessions):
    """Each FireWeapons offered (p.20-22) is accepted by ``decide`` and declares its shots; the same weapon
    named twice in a volley is refused (p.20: each weapon fires once)."""
    offered = 0
    for session in sessions:
        for state, player in _offered_in_firing(session):
            for command in RULES.legal_commands(state, player):
                events = RULES.decide(state, command, DiceCup(SeededDice(offered), 0, salts=session.salts))
                if isinstance(command, FireWeapons) and command.shots:
                    declared = next(e for e in events if isinstance(e, VolleyDeclared))
                    assert declared.shots == command.shots
                    twice = replace(command, shots=(command.shots[0], command.shots[0]))
                    with pytest.raises(RuleError) as refused:
                        RULES.decide(state, twice, DiceCup(SeededDice(offered), 0, salts=session.salts))
                    assert refused.value.rule == "Firing phase sequence"
                    offered += 1
    assert offered > 3


# ---------------------------------------------------------------- Set-up (p.34)


def test_set_up_offers_every_free_hex_of_the_deployment_zone_in_order(sessions):
    """Set-up (p.34): an aircraft is placed within three hexes of its player's edge, in a hex nobody holds, at
    any facing, Speed and Altitude of its profile; the hexes come in sorted order."""
    session = sessions[2]
    checked = 0
    for state in states(session):
        if state.phase != SET_UP or state.rolled_off is None or state.to_act is None:
            continue
        player = state.to_act
        offered = list(RULES.legal_commands(state, player))
        occupied = state.occupied()
        expected = []
        for aircraft in state.side(player):
            if aircraft.status != UNDEPLOYED:
                continue
            speeds, altitudes = set_up.speeds_and_altitudes(RULES, aircraft)
            for hex, facing, speed, height in itertools.product(
                    sorted(set_up.deployment_zone(RULES, state, aircraft) - occupied), range(6), speeds, altitudes):
                expected.append(PlaceAircraft(player=player, aircraft=aircraft.id, hex=hex, facing=facing,
                                              speed=speed, altitude=height))
        assert offered == expected
        checked += 1
    assert checked >= 8  # every aircraft placed (a state is seen again after its command is recorded)
