"""The fast paths of Aeronautica's decider (issue 18) give exactly what the plain paths give: the event type
to part dispatch table, the session's fold of decided events reusing the decider's states, and the
manoeuvre reach worked out once per manoeuvre, facing and Speed."""

from __future__ import annotations

import pytest

from aero_events.bots import RandomBot
from aero_events.core import GameSession, SeededDice, TapeDice
from aero_events.core.dice import DiceRolled
from aero_events.hexgrid import Hex, Pose
from aero_events.rulesets.aeronautica import AeronauticaRules, movement
from aero_events.rulesets.aeronautica import ruleset as aeronautica
from aero_events.rulesets.aeronautica.bots import BaselineBot, GreedyBot
from tests.support.dogfights import played_dogfight, thunderbolts_v_dakkajets

RULES = AeronauticaRules()


def every_part(rules, state, event):
    """The plain search: each part of the turn offered the event in turn (ruleset.PARTS)."""
    if type(event).core_event or type(event) is DiceRolled:
        return state
    for part in aeronautica.PARTS:
        new = part.evolve(rules, state, event)
        if new is not None:
            return new
    raise TypeError(type(event).__name__)


def dogfight(size: int, seed: int, bots) -> GameSession:
    return played_dogfight(size, seed, bots, f"fast-{size}-{seed}", max_commands=400)


@pytest.fixture(scope="module")
def sessions():
    return [dogfight(1, 1, (BaselineBot, RandomBot)), dogfight(2, 2, (BaselineBot, BaselineBot)),
            dogfight(1, 3, (GreedyBot, BaselineBot))]


def test_every_event_type_goes_to_the_parts_that_name_it():
    from aero_events.core import Event
    from aero_events.rulesets.aeronautica import events

    types = [t for t in vars(events).values() if isinstance(t, type) and issubclass(t, Event)
             and t.__module__ == events.__name__ and not t.abstract_event]
    for event_type in types:
        assert aeronautica.parts_for(event_type), event_type.__name__
    names = {t.__name__: [p.__module__.rsplit(".", 1)[-1] for p in aeronautica.parts_for(t)] for t in types}
    assert names["RollAccepted"] == ["rerolls", "firing"]  # a re-roll outside a volley, else the volley's
    assert names["ManoeuvreFlown"] == ["movement"]


def test_the_dispatch_table_folds_every_event_as_offering_it_to_each_part_does(sessions):
    for session in sessions:
        state = session.state_at(0)
        for env in session.events():
            expected = every_part(RULES, state, env.event)
            assert RULES.evolve(state, env.event) == expected, (env.seq, env.type)
            state = expected


def test_the_sessions_states_are_those_a_fresh_fold_reaches(sessions):
    """decide folds each event once and the session reuses those states: a replay from the record (which
    never decides) reaches the same state hash at every turn and at the end."""
    for session in sessions:
        replay = GameSession(AeronauticaRules(), session.game.setup, dice=TapeDice([]), game_id=session.game_id)
        replay.record(session.events())  # checks every StateCheckpoint
        assert replay.state_hash() == session.state_hash()
        assert replay.state == session.state


@pytest.mark.parametrize("where", [Hex(0, 0), Hex(4, -1), Hex(-3, 6)])
def test_the_reach_of_a_manoeuvre_is_the_same_from_every_hex(where):
    for number in RULES.manoeuvres.numbers:
        manoeuvre = RULES.manoeuvres.get(number)
        for facing in range(6):
            for speed in range(10):
                assert movement.flights(where, facing, manoeuvre, speed) == \
                    movement._flights_from(where, facing, manoeuvre, speed)


def test_the_plans_offered_are_those_of_the_flights(sessions):
    for session in sessions:
        for seq in range(0, session.seq + 1, 7):
            for aircraft in session.state_at(seq).aircraft.values():
                plans = [(f.side, f.stage_hexes, f.facings) for f in movement.manoeuvre_plans(RULES, aircraft)]
                flights = [(f.side, f.stage_hexes, f.facings) for f in movement.manoeuvre_flights(RULES, aircraft)]
                assert plans == flights


def test_the_greedy_set_up_takes_the_first_best_placement_without_building_every_command():
    """The greedy bot's placement (middle of the edge, facing the far side, middling Speed and Altitude) over
    the lazy placement products gives what scoring every placement command gives."""
    from aero_events.rulesets.aeronautica.commands import RollOff

    for size in (1, 3):
        session = GameSession(RULES, thunderbolts_v_dakkajets(size), dice=SeededDice(size), game_id=f"placing-{size}")
        session.apply(RollOff(player="imperium"))
        bot = GreedyBot(size)
        for _ in range(2 * size):
            player = next(p for p in ("imperium", "orks") if len(session.legal_commands(p)))
            options = session.legal_commands(player)
            expected = max(options, key=lambda o: bot._placement_value(RULES, session.state, o))
            assert bot._best_placement(RULES, session.state, options) == expected
            session.apply(expected)


def plain_expected_damage(firer, firer_hex, facing, firer_altitude, target_hex, target_altitude, evading):
    """Expected damage worked out straight from the rules, weapon by weapon: Firepower dice at the range band
    (p.22) x the chance to hit 5+ with the Altitude and Stall/Spin modifiers (p.22, p.7) x the chance of the
    Damage roll plus Extra Damage (p.23-24), for each weapon with Ammo whose Fire Arc holds the target."""
    from aero_events.hexgrid import arcs_containing, range_band
    from aero_events.rulesets.aeronautica.bots import chance

    band = range_band(firer_hex.distance(target_hex))
    if band is None or firer_altitude == 0 or target_altitude == 0:
        return 0.0
    arcs = {a.name.lower() for a in arcs_containing(Pose(firer_hex, facing), target_hex)}
    hit = chance(5, -abs(firer_altitude - target_altitude) - (1 if evading else 0))
    climb = target_altitude - firer_altitude
    total = 0.0
    for weapon_id, ammo in zip(firer.weapons, firer.ammo, strict=False):
        weapon = RULES.catalogue.weapons[weapon_id]
        if ammo == 0 or weapon.has_rule("ground_attack") or weapon.has_rule("ground_to_air"):
            continue
        if "all_round" not in weapon.fire_arc.arcs and not arcs & set(weapon.fire_arc.arcs):
            continue
        if (weapon.fire_arc.vertical == "up" and climb < 0) or (weapon.fire_arc.vertical == "down" and climb > 0):
            continue
        dice = weapon.firepower[("SHORT", "MEDIUM", "LONG").index(band.name)]
        damage = chance(weapon.damage, 0)
        if weapon.rule_value("extra_damage") is not None:
            damage += chance(weapon.rule_value("extra_damage"), 0)
        total += dice * hit * damage
    return total


def test_the_greedy_bots_damage_tables_give_the_expected_damage_of_each_weapon_p22_p24():
    """The greedy bot keeps expected damage in tables by offset, facing and Altitudes (issue 18): each entry is
    what the rules give for that firer and target, whatever the table saw before."""
    bot = GreedyBot(0)
    state = dogfight(1, 5, (BaselineBot, BaselineBot)).state_at(40)
    firer, target = sorted(state.aircraft.values(), key=lambda a: a.owner)
    here = Hex(7, 3)
    for target_hex in (Hex(7, 1), Hex(9, 0), Hex(4, 6), Hex(7, 5), Hex(12, -2), Hex(2, 3), Hex(7, 14)):
        for facing in range(6):
            for altitudes in ((3, 3), (1, 4), (5, 2), (0, 3), (2, 0)):
                for evading in (False, True):
                    got = bot.expected_damage(RULES, firer, Pose(here, facing), altitudes[0], target, target_hex,
                                              altitudes[1], evading)
                    assert got == pytest.approx(plain_expected_damage(firer, here, facing, altitudes[0], target_hex,
                                                                      altitudes[1], evading), abs=1e-12)


def test_the_greedy_manoeuvre_value_is_the_best_position_over_every_flight_throttle_and_altitude():
    """The greedy bot scores a manoeuvre from the distinct ends of its flights (issue 18); that is the best
    position_value over every flight :func:`movement.flights` offers (straight ahead when too slow, p.17),
    every Throttle setting (p.15) and every Altitude change (p.18), exactly."""
    session = dogfight(1, 3, (GreedyBot, BaselineBot))
    checked = 0
    for seq in range(0, session.seq + 1, 11):
        state = session.state_at(seq)
        for aircraft in state.aircraft.values():
            if aircraft.status != "flying":
                continue
            bot = GreedyBot(0)
            profile = RULES.profile(aircraft)
            for number in RULES.manoeuvres_for(aircraft):
                manoeuvre = RULES.manoeuvres.get(number)
                expected = -1e9
                for change in movement.throttle_options(profile, aircraft.speed,
                                                        RULES.options.throttle_past_limits):
                    speed = aircraft.speed + change
                    flights = movement.flights(aircraft.hex, aircraft.facing, manoeuvre, speed) or \
                        [movement.straight(aircraft.hex, aircraft.facing, speed)]
                    for flight in flights:
                        off_board = movement.first_off_board(RULES.board(state), flight.path) is not None
                        end = flight.path[-1] if flight.path else aircraft.hex
                        for climb in movement.altitude_options(speed):
                            altitude = aircraft.altitude + climb
                            new_speed = speed - 1 if climb > 0 else speed + 1 if climb < 0 else speed
                            stalled = speed < profile.min_speed or not flight.stage_hexes or (
                                climb > 0 and (altitude > profile.max_altitude or new_speed < profile.min_speed))
                            expected = max(expected, bot.position_value(
                                RULES, state, aircraft, end, flight.final_facing, altitude, new_speed, stalled,
                                off_board))
                assert GreedyBot(0)._manoeuvre_value(RULES, state, aircraft, number) == expected
                checked += 1
    assert checked > 50
