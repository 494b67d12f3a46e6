"""The fast decisions (issue 18): ``legal_commands`` and ``decide`` keep what depends only on immutable data or on
a few values of the state, and skip work whose answer is known. Each short cut is checked here against the rule
it stands for, written out plainly, over the states of seeded Dogfights (1 against 1 to 4 against 4)."""

from __future__ import annotations

import itertools

import msgspec
import pytest

from aero_events.bots import play
from aero_events.core import DiceCup, GameSession, RuleError, SeededDice
from aero_events.hexgrid import MAX_RANGE, Hex
from aero_events.rulesets.aeronautica import (
    AeronauticaRules,
    altitude,
    firing,
    manoeuvres,
    movement,
    turn,
    weapons,
)
from aero_events.rulesets.aeronautica import tailing as tailing_module
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
    DESTROYED,
    FIRING,
    FLYING,
    LANDED,
    MANOEUVRE,
    MOVEMENT,
    SET_UP,
    THROTTLE,
    UNDEPLOYED,
    GameState,
)
from tests.support.dogfights import every_state as states
from tests.support.dogfights import played_dogfight, thunderbolts_v_dakkajets

RULES = AeronauticaRules()
replace = msgspec.structs.replace


@pytest.fixture(scope="module")
def sessions() -> list[GameSession]:
    return [played_dogfight(size, seed, (BaselineBot, BaselineBot), f"decide-{size}-{seed}")
            for size, seed in ((1, 0), (2, 1), (4, 2), (1, 5))]


def _forget_kept_answers() -> None:
    """Empty every table the decisions keep (a fresh process)."""
    for kept in (movement._throttle_commands, movement._plan_commands, movement._flown_from_origin,
                 movement._offered_flights, movement._activate_command, manoeuvres._by_number,
                 altitude._altitude_commands, turn._token_commands, firing._weapon_facts, firing._attack_at,
                 firing._volleys_reaching, firing._carries_autonomous, set_up._in_order):
        kept.cache_clear()
    for kept in firing._OFFERED_VOLLEYS.values():
        kept.clear()
    weapons._RULE_NAMES.clear()
    tailing_module._TAILING_POSITIONS.clear()


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


def test_holding_fire_assigns_no_fire_arc_and_two_targets_in_one_arc_are_refused(sessions):
    """One target per Fire Arc (p.21): a volley of no shots (the aircraft holds its fire, p.20) places no target in
    any arc, as ``assign_arcs`` of nothing says, and is accepted in every Firing phase of the games; two targets
    reachable only through the same arc cannot both be fired at."""
    assert firing.assign_arcs([]) == {}
    assert firing.assign_arcs([("a", frozenset({"front"})), ("b", frozenset({"front"}))]) is None
    held = 0
    for session in sessions:
        for state, player in _offered_in_firing(session):
            for command in RULES.legal_commands(state, player):
                if isinstance(command, FireWeapons) and not command.shots:
                    events = RULES.decide(state, command, DiceCup(SeededDice(held), 0, salts=session.salts))
                    assert next(e for e in events if isinstance(e, VolleyDeclared)).shots == ()
                    held += 1
    assert held > 10


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


# ---------------------------------------------------------------- Session 6 short cuts, each against its plain rule


def test_every_token_is_chosen_exactly_when_each_eligible_aircraft_has_one_or_took_none():
    """Choose Manoeuvres (p.13, p.16): the phase is over when every aircraft eligible to choose (in play, not in a
    Spin, not a Ground Defence) has a token or, Hovering, took none: ``all_chosen`` against that rule written out,
    for every mix of token, no-token, status, Spin and Ground Defence over two aircraft."""
    state = RULES.initial_state(thunderbolts_v_dakkajets(1))
    first, second = state.aircraft.values()
    kinds = list(itertools.product((None, "sealed"), (False, True), (FLYING, LANDED, DESTROYED), (False, True),
                                   (False, True)))
    checked = 0
    for (token_a, none_a, status_a, spin_a, gd_a), (token_b, none_b, status_b, spin_b, gd_b) in \
            itertools.product(kinds, repeat=2):
        aircraft = {first.id: replace(first, commitment=token_a, no_token=none_a, status=status_a, spinning=spin_a,
                                      ground_defence=gd_a),
                    second.id: replace(second, commitment=token_b, no_token=none_b, status=status_b,
                                       spinning=spin_b, ground_defence=gd_b)}
        mixed = replace(state, aircraft=aircraft)
        expected = all(a.commitment is not None or a.no_token for a in aircraft.values()
                       if a.status in (FLYING, LANDED) and not a.spinning and not a.ground_defence)
        assert turn.all_chosen(mixed) is expected
        checked += 1
    assert checked == len(kinds) ** 2


def _tailing_positions():
    """A Thunderbolt at (0, 0) facing north and a Dakkajet at every hex within 9, every facing, Altitude 1 to 4."""
    state = RULES.initial_state(thunderbolts_v_dakkajets(1))
    tailer, target = (replace(a, status=FLYING) for a in state.aircraft.values())
    tailer = replace(tailer, hex=Hex(0, 0), facing=0, altitude=2)
    for q, r in itertools.product(range(-9, 10), repeat=2):
        if max(abs(q), abs(r), abs(q + r)) > 9:
            continue
        for facing, height in itertools.product(range(6), range(1, 5)):
            yield state, tailer, replace(target, hex=Hex(q, r), facing=facing, altitude=height)


def test_the_tailing_candidates_are_those_in_a_tailing_position_closest_first():
    """Determine Tailing (p.30, p.23): the enemies a tailer may tail are those ``is_tailing`` finds (Front Arc,
    wholly within the target's Rear Arc, Short or Medium range, at most one Altitude level apart, no Spin), the
    closest first: the pre-filtered search of the End phase gives exactly ``tailing_candidates``, for a target
    at every hex within 9, every facing and Altitude, and with the tailer or the target in a Spin."""
    tailing = 0
    for state, tailer, target in _tailing_positions():
        for tailer_spins, target_spins in ((False, False), (True, False), (False, True)):
            one = replace(tailer, spinning=tailer_spins)
            other = replace(target, spinning=target_spins)
            mixed = replace(state, aircraft={one.id: one, other.id: other})
            pool = [a for a in mixed.aircraft.values() if tailing_module.may_be_tailed(a)]
            enemies = [a for a in pool if a.owner != one.owner]
            expected = tailing_module.tailing_candidates(mixed, one, pool)
            assert tailing_module._candidates_among(one, enemies) == expected
            tailing += bool(expected)
    assert tailing > 50


def test_several_tailing_candidates_come_closest_first_then_by_id():
    """Determine Tailing (p.30): of several enemies in a Tailing position the closest comes first, then the lowest
    id (the module notes): the End phase's search orders three Dakkajets as ``tailing_candidates`` does."""
    state = RULES.initial_state(thunderbolts_v_dakkajets(3))
    imperium = [a for a in state.aircraft.values() if a.owner == "imperium"]
    orks = [a for a in state.aircraft.values() if a.owner == "orks"]
    tailer = replace(imperium[0], status=FLYING, hex=Hex(0, 0), facing=0, altitude=2)
    placed = [replace(orks[0], status=FLYING, hex=Hex(0, -3), facing=0, altitude=2),
              replace(orks[1], status=FLYING, hex=Hex(0, -2), facing=0, altitude=3),
              replace(orks[2], status=FLYING, hex=Hex(1, -3), facing=0, altitude=1)]
    mixed = replace(state, aircraft={a.id: a for a in (tailer, *placed)})
    expected = tailing_module.tailing_candidates(mixed, tailer, placed)
    assert len(expected) >= 2
    assert tailing_module._candidates_among(tailer, placed) == expected
    assert [a.id for a in tailing_module._candidates_among(tailer, list(reversed(placed)))] == [a.id for a in expected]


def test_a_move_ends_in_the_first_free_hex_whoever_stands_in_its_end_hex():
    """The Infinite Skies (p.7, p.17 step 6): a move ending in a hex another aircraft in play holds flies on to the
    first free hex; a Ground Defence, an aircraft out of play or the mover itself push nothing. The look-up that
    gathers the occupied hexes only when someone stands in the end hex gives what the plain rule gives."""
    state = RULES.initial_state(thunderbolts_v_dakkajets(2))
    mover, *others = state.aircraft.values()
    end = Hex(5, 5)
    checked = 0
    for placings in itertools.product((end, Hex(5, 4), Hex(9, 0)), repeat=len(others)):
        for status, ground in ((FLYING, False), (LANDED, False), (DESTROYED, False), (FLYING, True)):
            aircraft = {mover.id: replace(mover, hex=end)}
            for other, hex in zip(others, placings, strict=True):
                aircraft[other.id] = replace(other, hex=hex, status=status if hex == end else FLYING,
                                             ground_defence=ground and hex == end)
            mixed = replace(state, aircraft=aircraft)
            for direction in range(6):
                expected = movement.push_through_occupied(end, direction, mixed.occupied(exclude=mover.id))
                assert movement._pushed_on(mixed, mover.id, end, direction) == expected
                checked += 1
    assert checked > 100


def test_any_plan_the_manoeuvre_does_not_allow_is_refused_wherever_the_aircraft_is():
    """Move and Manoeuvre (p.16): a plan names a side of the manoeuvre, a stage count equal to its stages, 1 or more
    hexes per stage within the Speed and a facing change of each stage's; any other plan flies nowhere (None),
    whether asked before or after the legal plans were kept, and a plan written with True for 1 is still checked
    as written."""
    base = replace(next(iter(RULES.initial_state(thunderbolts_v_dakkajets(1)).aircraft.values())), hex=Hex(4, 2))
    checked = 0
    for number in (1, 2, 3, 4, 6, 7):
        manoeuvre = RULES.manoeuvres.get(number)
        stages = manoeuvre.stages
        for speed in range(len(stages), 6):
            flier = replace(base, revealed=number, facing=2, speed=speed)
            sides = (*manoeuvre.sides, "sideways")
            all_facings = sorted({value for stage in stages for value in stage.facings} | {9})
            for side in sides:
                for hexes in itertools.product(range(speed + 1), repeat=len(stages)):
                    for facings in itertools.product(all_facings, repeat=len(stages)):
                        legal = (side in manoeuvre.sides and all(h >= 1 for h in hexes) and sum(hexes) <= speed
                                 and all(value in stage.facings for value, stage in zip(facings, stages)))
                        flown = movement.plan_flight(RULES, flier, side, hexes, facings)
                        assert (flown is not None) == legal
                        if legal:
                            assert flown == movement.fly(flier.hex, 2, manoeuvre, side, hexes, facings, speed)
                        checked += 1
            short = (1,) * (len(stages) - 1)
            assert movement.plan_flight(RULES, flier, manoeuvre.sides[0], short, (stages[0].facings[0],) * len(short)) \
                is None
            zeros = (False,) * len(stages)  # False hashes as 0: refused as 0 hexes, never looked up as kept
            assert movement.plan_flight(RULES, flier, manoeuvre.sides[0], zeros,
                                        tuple(stage.facings[0] for stage in stages)) is None
    assert checked > 1000


def _volleys_by_the_rules(state: GameState, firer, kind: str, only_target: str | None = None, rules=RULES):
    """The volleys of the module notes of :mod:`.firing`, each weapon's reach worked out plainly from the weapons
    rules (Targeting and Fire Arcs p.21, range p.22, kinds of attack p.24-28, shots that can hit p.22)."""
    reachable = []
    for index, weapon_id in enumerate(firer.weapons):
        weapon = rules.catalogue.weapons[weapon_id]
        if firer.ammo[index] == 0 or weapon.has_rule("autonomous"):
            continue
        if kind == firing.TAIL_GUNNER and not weapon.has_rule("tail_gunner"):
            continue
        options = {}
        for target in all_targets(state):
            if target.id == firer.id or target.owner == firer.owner or only_target not in (None, target.id):
                continue
            hexes = weapons.distance(firer.hex, target.hex)
            if hexes > MAX_RANGE:
                continue
            try:
                attack = weapons.attack_kind(weapon, firer, target)
            except RuleError:
                continue
            arcs = weapons.reach(weapon, index, firer, target)
            band = weapons.band_at(hexes)
            if not arcs or weapons.firepower_dice(rules, state, firer, weapon, band, target) == 0:
                continue
            to_hit, modifiers = weapons.hit_requirements(state, attack, weapon, firer, target, options=rules.options,
                                                         band=band)
            if not weapons.can_hit(to_hit, sum(m.value for m in modifiers)):
                continue
            options[target.id] = (firing.bombing_arcs(arcs) if attack == weapons.BOMBING else arcs,
                                  attack == weapons.STRAFING, not target.on_ground)
        if options:
            reachable.append((index, firer.ammo[index] is not None, tuple(options.items())))
    return list(firing._volleys_reaching(tuple(reachable))) if reachable else []


def test_the_volleys_offered_are_those_the_weapons_rules_give_for_every_firer(sessions):
    """Targeting, Fire Arcs, range and hitting (p.21-22), Strafing Runs (p.26): for every aircraft of the games'
    Firing phases, every Altitude it might fire from, its enemies where they are or all at Altitude 1, the volleys
    worked out (enemies within 10 hexes first, each target's arcs, range band and Altitude once) are those written
    out plainly from the weapons rules."""
    checked = volleys = 0
    for session in sessions:
        for state, _ in _offered_in_firing(session)[:12]:
            for firer, height, enemies_low in itertools.product(state.aircraft.values(), range(1, 6), (False, True)):
                if not firer.in_play:
                    continue
                flier = replace(firer, altitude=height)
                aircraft = {a.id: replace(a, altitude=1) if enemies_low and a.owner != firer.owner else a
                            for a in state.aircraft.values()}
                moved = replace(state, aircraft={**aircraft, flier.id: flier})
                expected = _volleys_by_the_rules(moved, flier, firing.FIRE)
                assert firing._volley_options(RULES, moved, flier, firing.FIRE) == expected
                volleys += len(expected)
                checked += 1
    assert checked > 100 and volleys > 20


def test_an_enemy_in_no_fire_arc_of_the_armament_is_passed_by_and_ground_to_air_fire_reaches_every_arc():
    """Fire Arcs and Directly Overhead (p.21), Ground-to-Air fire (p.28), Strafing and Bombing Runs (p.26-27): a
    Ground Defence (Ground-to-Air flak), a Marauder (front lascannon, All Round turret, rear turret, Bomb Bay) and a
    Thunderbolt with Wing Bombs (front guns, rear bombs) facing each way, with an enemy in each hex within 3 (the
    firer's own included) in the air or landed, beside a Ground Defence and a bunker, are offered the volleys
    written out plainly from the weapons rules, whose reach asks each weapon's arcs."""
    from tests.aeronautica import firing_helpers as positioned

    rules = positioned.RULES
    thunderbolt_weapons = ("twin_lascannons", "quad_autocannons", "wing_bombs")
    firers = [positioned.ground_defence("imperium-1", positioned.at(0, 0)),
              positioned.plane("imperium-1", "marauder", positioned.at(0, 0), altitude=2),
              positioned.plane("imperium-1", "thunderbolt", positioned.at(0, 0), altitude=1, weapons=thunderbolt_weapons)]
    base = positioned.Range(firers[1], positioned.plane("orks-9", "dakkajet", positioned.at(-12, 12))).state
    ground = {"orks-7": positioned.ground_defence("orks-7", positioned.at(2, -1), owner="orks")}
    enemies = [{"altitude": 1}, {"altitude": 2}, {"altitude": 3}, {"altitude": 0, "status": LANDED}]
    checked = volleys = 0
    for firer, facing, (dq, dr), enemy in itertools.product(
            firers, range(6), [(dq, dr) for dq in range(-3, 4) for dr in range(-3, 4) if abs(dq + dr) <= 3], enemies):
        turned = replace(firer, facing=facing)
        target = positioned.plane("orks-1", "dakkajet", positioned.at(dq, dr), **enemy)
        state = replace(base, aircraft={turned.id: turned, target.id: target, **ground},
                        ground_targets=(positioned.bunker("bunker", positioned.at(-1, 1)),))
        expected = _volleys_by_the_rules(state, turned, firing.FIRE, rules=rules)
        assert firing._volley_options(rules, state, turned, firing.FIRE) == expected, (firer.profile, facing, dq, dr)
        checked += 1
        volleys += len(expected)
    assert checked > 2000 and volleys > 1000


def test_a_firer_that_changed_is_offered_its_own_volleys_though_the_targets_are_the_same(sessions):
    """Ammo (p.22) and Fire Arcs (p.21): the volleys kept for a firer are those of that very aircraft; the same
    aircraft with a weapon out of Ammo, or turned, with every target where it was, is offered its new volleys,
    and an equal copy of it the same volleys as the original."""
    checked = 0
    for session in sessions:
        for state, player in _offered_in_firing(session):
            offered = RULES.legal_commands(state, player)
            firers = {c.aircraft for c in offered if isinstance(c, FireWeapons) and c.shots}
            for firer_id in firers:
                firer = state.aircraft[firer_id]
                changes = [replace(firer, facing=(firer.facing + 3) % 6), replace(firer)]
                if any(ammo is not None for ammo in firer.ammo):
                    changes.append(replace(firer, ammo=tuple(0 if a is not None else a for a in firer.ammo)))
                for changed in changes:
                    mixed = replace(state, aircraft={**state.aircraft, firer_id: changed})
                    asked = [c for c in RULES.legal_commands(mixed, player) if getattr(c, "aircraft", None) == firer_id]
                    _forget_kept_answers()
                    fresh = [c for c in RULES.legal_commands(mixed, player) if getattr(c, "aircraft", None) == firer_id]
                    assert asked == fresh
                    RULES.legal_commands(state, player)  # the original's answer kept again
                    checked += 1
    assert checked > 10


def test_a_manoeuvre_offers_the_same_plans_whichever_way_the_aircraft_faces():
    """Move and Manoeuvre (p.16): every plan of every Ace Manoeuvre of the table, at every Speed of the dial, flown
    from the origin facing each of the six hexsides, is the kept plan (worked out facing north and turned), in the
    same order: the first of the plans flying the same hexes to the same facing."""
    checked = 0
    for manoeuvre in RULES.manoeuvres.manoeuvres:
        for facing, speed in itertools.product(range(6), range(10)):
            if facing % 2:  # asked cold as well as after the plans facing north were kept
                movement.reach.cache_clear()
            flown = tuple(movement._flights_from(Hex(0, 0), facing, manoeuvre, speed))
            kept = movement.reach(manoeuvre, facing, speed)
            assert kept == flown
            assert all(type(hex) is Hex for flight in kept for hex in flight.path)
            checked += len(flown)
    assert checked > 1000


def test_a_path_turned_about_the_origin_is_each_hex_turned_by_the_hex_grid():
    """Facing (p.5, p.16): a plan flown facing another hexside is the plan facing north with the whole picture turned
    about the origin. The turn looked up per hex (``hexgrid.hexes.turned_about_origin``) is ``Hex.rotate`` of each
    hex, for every hex within 10 of the origin and every number of steps (negative and past a full turn too),
    asked cold, after the table holds those hexes, and for a path with hexes not asked before."""
    from aero_events.hexgrid import hexes as hexes_module

    around = tuple(Hex(q, r) for q in range(-10, 11) for r in range(-10, 11) if Hex(q, r).distance(Hex(0, 0)) <= 10)
    for table in hexes_module._TURNED:
        table.clear()
    for steps in range(-7, 14):
        plain = tuple(hex.rotate(Hex(0, 0), steps) for hex in around)
        assert hexes_module.turned_about_origin(around, steps) == plain
        assert hexes_module.turned_about_origin(around, steps) == plain  # looked up
        assert all(type(hex) is Hex for hex in hexes_module.turned_about_origin(around, steps))
    farther = (Hex(0, 0), Hex(11, -3), Hex(-12, 12), Hex(2, 1))
    assert hexes_module.turned_about_origin(farther, 2) == tuple(hex.rotate(Hex(0, 0), 2) for hex in farther)
    assert hexes_module.turned_about_origin((), 4) == ()


def _transport_states(zones):
    """A Jump Troops transport's game over ``zones`` (tests/aeronautica/test_transports.py) and its states before
    and after each step of one straight move: activated, Throttle set, manoeuvre flown."""
    from aero_events.rulesets.aeronautica.commands import ActivateAircraft
    from tests.aeronautica.helpers import IMPERIUM
    from tests.aeronautica.test_transports import STRAIGHT, transport_game

    table = transport_game("jump_transport", zones=zones)
    seen = [table.state]
    for command in (ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"),
                    SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=0),
                    ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", **STRAIGHT)):
        table.apply(command)
        seen.append(table.state)
    return table, seen


def test_jump_troops_are_offered_exactly_where_a_drop_zone_is_reached():
    """Jump Troops (p.37) over a landing zone (p.33): at every step of a transport's move, with the zone under its
    path, elsewhere, or no zone at all, DropJumpTroops is offered (1 to all of its points) exactly when
    ``drop_zone`` finds a zone to drop into: without a landing zone nothing is looked up."""
    from aero_events.rulesets.aeronautica import transports
    from aero_events.rulesets.aeronautica.commands import DropJumpTroops
    from aero_events.rulesets.aeronautica.scenarios.format import LandingZone
    from tests.aeronautica.helpers import IMPERIUM, hex_at
    from tests.aeronautica.test_transports import BOARD, ZONE

    offered = 0
    for zones in ((ZONE,), (LandingZone(name="elsewhere", hex=hex_at(BOARD, 2, 8)),), ()):
        table, seen = _transport_states(zones)
        for state in seen:
            aircraft = state.aircraft["imperium-1"]
            zone = transports.drop_zone(table.rules, state, aircraft)
            expected = [] if zone is None else [
                DropJumpTroops(player=IMPERIUM, aircraft=aircraft.id, points=n)
                for n in range(1, transports.cargo_left(table.rules, aircraft) + 1)]
            assert transports.legal_commands(table.rules, state, IMPERIUM) == expected
            offered += len(expected)
    assert offered == 2  # the zone under its path: 1 or 2 points (Transport 2)


# ---------------------------------------------------------------- Session 7 short cuts, each against its plain rule


def test_a_hexs_fire_arcs_depend_only_on_the_firers_facing_and_the_offset():
    """Fire Arcs (p.21): for every facing and every hex within range of the firer, from two different hexes of
    the board, the arcs looked up by facing and offset are ``hex_arcs`` of the firer and that hex."""
    from aero_events.rulesets.aeronautica.ground import Target

    checked = 0
    for origin, facing in itertools.product((Hex(0, 0), Hex(7, -3)), range(6)):
        firer = replace(_any_firer(), hex=origin, facing=facing)
        for dq, dr in itertools.product(range(-MAX_RANGE, MAX_RANGE + 1), repeat=2):
            hexes = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            if not 0 < hexes <= MAX_RANGE:
                continue
            target = Target("t", "orks", Hex(origin.q + dq, origin.r + dr), 1, "aircraft")
            assert firing._arcs_at(firer, target) == weapons.hex_arcs(firer, target.hex) \
                == weapons.target_arcs(firer, target)
            checked += 1
    assert checked == 2 * 6 * 330


def _any_firer():
    session = played_dogfight(1, 0, (BaselineBot, BaselineBot), "decide-arcs")
    return next(iter(session.game.initial_state.aircraft.values()))


def test_a_shot_in_the_air_is_offered_only_when_its_dice_could_hit_whatever_was_asked_before(sessions):
    """Roll to Hit (p.22): -1 for a target with a Stall or Spin token and -1 per Altitude level of difference; a
    shot whose dice cannot score is not offered. For firers of the games' Firing phases at every Altitude, their
    enemies at every Altitude, with and without a Stall token, under a plain sky and at night (p.33), asked one
    after another (what was worked out for one is kept for the next): the volleys are those of the plain rules."""
    checked = refused = 0
    positions = [(state, command.aircraft) for session in sessions for state, player in _offered_in_firing(session)
                 for command in RULES.legal_commands(state, player) if isinstance(command, FireWeapons) and command.shots]
    for state, firer_id in positions[::max(1, len(positions) // 8)]:
        firer = state.aircraft[firer_id]
        for night, height, low, stalled in itertools.product((False, True), range(1, 6), range(1, 6), (False, True)):
            flier = replace(firer, altitude=height)
            aircraft = {a.id: replace(a, altitude=low, stalled=stalled) if a.owner != firer.owner else a
                        for a in state.aircraft.values()}
            moved = replace(state, aircraft={**aircraft, flier.id: flier}, night_fighting=night)
            expected = _volleys_by_the_rules(moved, flier, firing.FIRE)
            assert firing._volley_options(RULES, moved, flier, firing.FIRE) == expected
            refused += not expected
            checked += 1
    assert checked > 100 and 0 < refused < checked


def test_a_target_found_by_id_is_the_aircraft_as_it_is_now(sessions):
    """Targeting (p.21): ``find_target`` gives an aircraft in play as it is in this state (its hex, Altitude, Stall
    or Spin token), though an aircraft unchanged between states is looked up, and nothing for one out of play."""
    from aero_events.rulesets.aeronautica.ground import find_target

    checked = 0
    for session in sessions:
        for state in states(session):
            for aircraft in state.aircraft.values():
                assert find_target(state, aircraft.id) == (aircraft_target(aircraft) if aircraft.in_play else None)
                checked += 1
    assert checked > 1000


def test_hits_are_the_dice_that_score_a_natural_one_always_failing():
    """Dice (p.7): "A dice roll can never be modified to 0 or lower, and any natural roll of a 1 is always a fail":
    the hits counted are the faces that ``success`` scores, for every face, target and modifier."""
    for faces in itertools.product(range(1, 7), repeat=3):
        for target, modifier in itertools.product(range(1, 8), range(-4, 4)):
            assert weapons.count_hits(faces, target, modifier) == sum(
                1 for face in faces if weapons.success(face, target, modifier))


def test_firepower_dice_are_the_weapons_firepower_at_the_range_band(sessions):
    """Range (p.22): "Firepower is S-M-L dice": every weapon of the catalogue rolls its Short, Medium or Long
    value at that range band, none beyond Long range; at night Long range rolls none (p.33)."""
    from aero_events.hexgrid import RangeBand

    state = next(states(sessions[0]))
    firer = next(iter(state.aircraft.values()))
    for weapon in RULES.catalogue.weapons.values():
        for position, band in enumerate((RangeBand.SHORT, RangeBand.MEDIUM, RangeBand.LONG)):
            assert weapons.firepower_dice(RULES, state, firer, weapon, band) == weapon.firepower[position]
        assert weapons.firepower_dice(RULES, state, firer, weapon, None) == 0
        night = replace(state, night_fighting=True)
        assert weapons.firepower_dice(RULES, night, firer, weapon, RangeBand.LONG) == 0


def test_the_movement_phase_offers_every_parts_commands_in_order_drops_after_altitude_changes():
    """Jump Troops (p.37) at the Adjust Altitude step (p.18) over a landing zone (p.33): the Movement phase offers
    the movement part's commands followed by the transports part's, every command of each part once; at any other
    step, or with no zone under the transport, only the movement part's."""
    from aero_events.rulesets.aeronautica import transports
    from aero_events.rulesets.aeronautica.commands import DropJumpTroops
    from aero_events.rulesets.aeronautica.scenarios.format import LandingZone
    from tests.aeronautica.helpers import IMPERIUM, ORKS, hex_at
    from tests.aeronautica.test_transports import BOARD, ZONE

    both = 0
    for zones in ((ZONE,), (LandingZone(name="elsewhere", hex=hex_at(BOARD, 2, 8)),)):
        table, seen = _transport_states(zones)
        for state, player in itertools.product(seen, (IMPERIUM, ORKS)):
            parts = [movement.legal_commands(table.rules, state, player),
                     transports.legal_commands(table.rules, state, player)]
            expected = [command for part in parts for command in part]
            assert list(table.rules.legal_commands(state, player)) == expected
            if all(parts):
                both += 1
                assert isinstance(expected[-1], DropJumpTroops)
    assert both == 1  # the Altitude step over the zone


# ---------------------------------------------------------------- Session 8 short cuts, each against its plain rule


def _every_part_answers(rules: AeronauticaRules, state: GameState, player: str) -> list:
    """The plain rule: every part of the turn asked in turn (a roll waiting: only the re-rolls part), its
    commands in the parts' order."""
    from aero_events.rulesets.aeronautica import rerolls
    from aero_events.rulesets.aeronautica.ruleset import PARTS

    if state.pending_roll is not None:
        return list(rerolls.legal_commands(rules, state, player))
    return [command for part in PARTS for command in part.legal_commands(rules, state, player)]


def test_each_phase_asks_the_parts_that_can_answer_and_offers_all_their_commands_in_order(sessions):
    """Every phase's commands (p.13-14 turn sequence; set-up p.34): whichever parts a phase asks, and however their
    answers are joined, a player is offered exactly what every part of the turn offers, in the parts' order, in
    every state of four Dogfights and the Jump Troops drop (two parts answering at once)."""
    from tests.aeronautica.helpers import IMPERIUM, ORKS
    from tests.aeronautica.test_transports import ZONE

    table, seen = _transport_states((ZONE,))
    cases = [(table.rules, state) for state in seen]
    cases += [(session.ruleset, state) for session in sessions for state in states(session)]
    phases: set[str] = set()
    for rules, state in cases:
        for player in (IMPERIUM, ORKS):
            offered = rules.legal_commands(state, player)
            assert list(offered) == _every_part_answers(rules, state, player)
            if not len(offered):
                assert offered == []
        phases.add(state.phase)
    assert {SET_UP, CHOOSE_MANOEUVRES, MOVEMENT, FIRING, "tailing_fire", "end", "game_over"} <= phases


def test_without_a_manoeuvre_to_complete_only_straight_ahead_is_flown_from_any_hex():
    """No token (p.13), or a Speed too low to complete the revealed manoeuvre (p.17): the aircraft flies straight
    ahead at its Speed; the one plan then is the empty one, any other is refused. Kept from the origin and moved,
    it is ``straight`` flown where the aircraft is, for every facing and Speed, from several hexes, whatever
    manoeuvre plans were asked before at the same facing and Speed."""
    aircraft = next(iter(RULES.initial_state(thunderbolts_v_dakkajets(1)).aircraft.values()))
    slowest = {number: len(RULES.manoeuvres.get(number).stages) for number in RULES.manoeuvres.numbers}
    checked = 0
    for hex, facing, speed in itertools.product((Hex(0, 0), Hex(4, -2), Hex(-3, 9)), range(6), range(10)):
        for revealed in (None, *[number for number, stages in slowest.items() if speed < stages]):
            flier = replace(aircraft, hex=hex, facing=facing, speed=speed, revealed=revealed)
            assert movement.manoeuvre_flights(RULES, flier) == [movement.straight(hex, facing, speed)]
            assert movement.plan_flight(RULES, flier, None, (), ()) == movement.straight(hex, facing, speed)
            assert movement.plan_flight(RULES, flier, "left", (), ()) is None
            assert movement.plan_flight(RULES, flier, None, (1,), (0,)) is None
            checked += 1
        able = [number for number, stages in slowest.items() if speed >= stages]
        for number in able:  # the same facing and Speed with a manoeuvre to fly: its own plans, not straight ahead
            flier = replace(aircraft, hex=hex, facing=facing, speed=speed, revealed=number)
            assert movement.plan_flight(RULES, flier, None, (), ()) is None
    assert checked > 180


def test_the_throttle_accepts_exactly_the_speed_changes_of_the_rules(sessions):
    """Throttle (p.15): SetThrottle is accepted exactly for the changes ``throttle_options`` gives the aircraft's
    profile (as upgraded) at its Speed, with the Speed dial free to pass Min or Max Speed (the 2019 text) or not
    (the 2020 update); any other change is refused under "Throttle", naming the range. Every Speed under both
    rules, with and without upgrades changing its Speed characteristics (p.44-45)."""
    from aero_events.rulesets.aeronautica.ruleset import RuleOptions

    at_throttle = [(session, state) for session in sessions[:2] for state in states(session)
                   if state.phase == MOVEMENT and state.active is not None and state.step == THROTTLE
                   and not state.aircraft[state.active].no_token][:6]
    assert at_throttle
    refused = 0
    upgrades = ((), ("wazmek_speshul",), ("extra_armour",))  # Speed characteristics changed by upgrades (p.44-45)
    for past_limits, (session, state), speed, upgraded in itertools.product((True, False), at_throttle, range(10),
                                                                          upgrades):
        rules = AeronauticaRules(options=RuleOptions(throttle_past_limits=past_limits))
        aircraft = replace(state.aircraft[state.active], speed=speed, upgrades=upgraded)
        moving = replace(state, aircraft={**state.aircraft, aircraft.id: aircraft})
        allowed = movement.throttle_options(rules.profile(aircraft), speed, past_limits)
        for change in range(-6, 7):
            command = SetThrottle(player=aircraft.owner, aircraft=aircraft.id, change=change)
            if change in allowed:
                events = rules.decide(moving, command, DiceCup(SeededDice(0), 0, salts=session.salts))
                assert events[0].speed == speed + change
            else:
                with pytest.raises(RuleError) as refusal:
                    rules.decide(moving, command, DiceCup(SeededDice(0), 0, salts=session.salts))
                assert refusal.value.rule == "Throttle"
                assert f"{min(allowed):+d} to {max(allowed):+d}" in str(refusal.value)
                refused += 1
    assert refused > 100


def test_a_tailing_position_depends_only_on_both_facings_and_the_offset_wherever_the_pair_stands():
    """Tailing position (p.30): the target in the tailer's Front Arc, the tailer wholly within the target's Rear
    Arc, Short or Medium range. ``is_tailing`` gives exactly that geometry for every facing of either aircraft and
    every target hex within 9 hexes, asked from one origin and then another (the kept answers of the first reused)."""
    from aero_events.hexgrid import Arc, in_arc, range_between, wholly_within

    state = RULES.initial_state(thunderbolts_v_dakkajets(1))
    tailer, target = (replace(a, status=FLYING, altitude=3) for a in state.aircraft.values())
    tailing_module._TAILING_POSITIONS.clear()
    found = 0
    for origin in (Hex(2, 5), Hex(-7, 1)):
        for facing, target_facing in itertools.product(range(6), range(6)):
            for dq, dr in itertools.product(range(-9, 10), range(-9, 10)):
                if not 0 < (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= 9:
                    continue
                one = replace(tailer, hex=origin, facing=facing)
                other = replace(target, hex=Hex(origin.q + dq, origin.r + dr), facing=target_facing)
                expected = (range_between(one.hex, other.hex) in tailing_module.TAILING_RANGES
                            and in_arc(one.pose, other.hex, Arc.FRONT) and wholly_within(other.pose, one.hex, Arc.REAR))
                assert tailing_module.is_tailing(one, other) == expected
                found += expected
    assert found > 100


# ---------------------------------------------------------------- Session 9 short cuts, each against its plain rule


def test_a_part_that_names_its_steps_offers_nothing_at_any_other_step(sessions):
    """Jump Troops are dropped at the Adjust Altitude step (p.37): the transports part names that step
    (``COMMAND_STEPS``) and the ruleset asks it at no other. In every state of four Dogfights and of a Jump Troops
    transport's move over a zone, a part that the ruleset does not ask at that phase and step offers nothing."""
    from aero_events.rulesets.aeronautica import ruleset as ruleset_module
    from tests.aeronautica.helpers import IMPERIUM, ORKS
    from tests.aeronautica.test_transports import ZONE

    table, seen = _transport_states((ZONE,))
    cases = [(table.rules, state) for state in seen]
    cases += [(session.ruleset, state) for session in sessions for state in states(session)]
    steps: set[str | None] = set()
    not_asked = 0
    for rules, state in cases:
        asked = ruleset_module.parts_offering_at(state.phase, state.step)
        for part in ruleset_module.PARTS:
            if part not in asked:
                not_asked += 1
                for player in (IMPERIUM, ORKS):
                    assert not len(part.legal_commands(rules, state, player)), (part.__name__, state.phase, state.step)
        if state.phase == MOVEMENT and state.active is not None:
            steps.add(state.step)
    assert {THROTTLE, MANOEUVRE, ALTITUDE} <= steps
    assert not_asked


def test_aircraft_that_run_out_of_fuel_in_one_end_phase_crash_in_initiative_order():
    """Fuel (p.11) in the End phase, whose steps go player by player in initiative order (p.29): with an aircraft
    of each player at the last turn of its Fuel, the initiative holder's runs out first, whichever aircraft the
    game lists first (each player's aircraft are taken in turn)."""
    from aero_events.rulesets.aeronautica.events import FuelExhausted
    from tests.aeronautica.firing_helpers import IMPERIUM, ORKS, C, Range, S, at, of_type, plane
    from tests.aeronautica.test_rules_audit_fixes import fuel_rules

    for initiative, expected in ((IMPERIUM, ["imperium-1", "orks-1"]), (ORKS, ["orks-1", "imperium-1"])):
        game = Range(replace(plane("imperium-1", "thunderbolt", C), profile="short_legs"),
                     replace(plane("orks-1", "dakkajet", at(8, -8), S), profile="short_legs"),
                     turn=2, rules=fuel_rules(), initiative=initiative)
        events = game.pass_(IMPERIUM) + game.pass_(ORKS)
        assert [event.aircraft for event in of_type(events, FuelExhausted)] == expected


def test_no_player_passes_while_an_autonomous_weapon_waits_to_be_steered():
    """p.25: an Autonomous weapon's D3+3 travel is steered before anyone fires, and the decision under way comes
    first (p.20): PassFiring is refused under "Firing" until the weapon is steered, then accepted."""
    from aero_events.rulesets.aeronautica.commands import SteerAutonomous
    from aero_events.rulesets.aeronautica.state import AutonomousWeapon
    from tests.aeronautica.firing_helpers import IMPERIUM, N, Range, S, at, plane
    from tests.aeronautica.test_autonomous_weapons import launcher

    flying = AutonomousWeapon(id="imperium-1/auto-1", owner=IMPERIUM, firer="imperium-1", weapon="test_seeker",
                              weapon_index=1, hex=at(0, -3), facing=N, launched_turn=1, moved_turn=1)
    game = Range(launcher(), plane("orks-1", "dakkajet", at(9, 0), S), phase=MOVEMENT, active="imperium-1",
                 step="altitude", autonomous={flying.id: flying}, autonomous_launched=1)
    game.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=0), dice=[3])
    assert game.refused(PassFiring(player=IMPERIUM)).rule == "Firing"
    game.apply(SteerAutonomous(player=IMPERIUM, weapon=flying.id, turn_at=2, turn=1))
    game.apply(PassFiring(player=IMPERIUM))
    assert IMPERIUM in game.state.passed
