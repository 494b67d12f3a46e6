"""Speed work (issue 18, session 12) that must not change a rule: what the movement offer, the charges and the
shooting keep (footprints by pose, exact tests by shapes, a unit's ground moves by its pose) and the short cuts
they take (bounding boxes apart, a move listed without trying its command) give what the plain computation
gives, over every state of seeded bot games (the general's and the random bot's)."""

from __future__ import annotations

import itertools

import pytest

from aero_events.bots import make_bot, play
from aero_events.core import GameSession, RuleError, SeededDice
from aero_events.rulesets.whfb_flying import commands as cmd
from aero_events.rulesets.whfb_flying import geometry as geo
from aero_events.rulesets.whfb_flying.falling import side_is_open
from aero_events.rulesets.whfb_flying.geometry import footprint, moved_straight, terrain_rect
from aero_events.rulesets.whfb_flying.movement import (
    candidate_headings,
    ground_moves,
    ground_pose,
    legal_if,
    move,
    position_problem,
)
from aero_events.rulesets.whfb_flying.state import MOVEMENT
from aero_events.table import (
    FULL_TURN,
    INCH,
    OrientedRect,
    bounds,
    centre,
    compare_gap,
    crossed_obstacles,
    heading_towards,
    overlaps,
)

from .helpers import RULES


def _seeded_states(bot: str, seeds: range) -> list:
    """Every state a bot was asked to choose in, over seeded games of the benchmark's scenario."""
    states = []

    class Recording:
        def __init__(self, inner):
            self.inner = inner

        def choose(self, session, player, options):
            states.append(session.state)
            return self.inner.choose(session, player, options)

    scenario = RULES.scenarios()["pitched_battle"]
    for seed in seeds:
        session = GameSession(RULES, scenario.build(scenario.default_options, seed), dice=SeededDice(seed))
        players = {p: Recording(make_bot(RULES, bot, f"{seed}:{p}")) for p in RULES.players(session.state)}
        play(session, players, max_commands=5000)
    return states


@pytest.fixture(scope="module")
def states():
    return _seeded_states("random", range(3)) + _seeded_states("general", range(2))


def _plain_position_problem(state, unit, pose, in_air, files=None, start_pose=None, exclude=()):
    """movement.check_position as it was written before anything was kept: every footprint measured again, every
    shape tested exactly (Host: Movement)."""
    profile = RULES.profile(unit)
    rect = footprint(unit, profile, pose, files)
    if not all(0 <= x <= state.width and 0 <= y <= state.height for x, y in rect.corners()):
        return "table"
    inner = OrientedRect(rect.pose, max(0, rect.width - 2), max(0, rect.length - 2))
    others = [footprint(o, RULES.profile(o)) for o in state.units.values()
              if o.in_play and o.id != unit.id and o.in_air == in_air and o.id not in exclude]
    if not in_air:
        others += [terrain_rect(t) for t in state.terrain if t.kind == "building"]
    if any(overlaps(inner, other) for other in others):
        return "on"
    if start_pose is not None and not in_air:
        swept = geo.sweep(footprint(unit, profile, start_pose, files), rect)
        if any(overlaps(swept, other) for other in others):
            return "through"
    for enemy in state.units.values():
        if enemy.in_play and enemy.side != unit.side and enemy.in_air == in_air and enemy.id not in exclude \
                and compare_gap(rect, footprint(enemy, RULES.profile(enemy)), INCH) < 0:
            return "enemy"
    return None


def _tries(state, unit):
    """Poses a unit may be asked to stand at: its ground moves' ends (from the turn) and its flights' ends."""
    m = RULES.profile(unit).profile.M * INCH
    for heading in candidate_headings(RULES, state, unit):
        turned, _, turning = ground_pose(RULES, unit, heading, 0)
        for allowance in (m, m // 2, 2 * m):
            if allowance >= turning:
                yield moved_straight(turned, heading, allowance - turning), turned


def test_a_position_is_refused_for_the_reason_the_plain_tests_give(states):
    """Host: Movement: off the table, on another unit or a building, through one on the ground, within 1" of an
    enemy: the kept shapes and bounding-box short cuts refuse exactly the positions the plain tests refuse, on the
    ground (with the path) and in the air."""
    kinds = {"table": "leave the table", "on": "cannot end on", "through": "move through", "enemy": "within 1"}
    tried = refused = 0
    for state in states[::3]:
        for unit in state.units.values():
            if not unit.in_play:
                continue
            for pose, turned in _tries(state, unit):
                for in_air, start in ((False, turned), (True, None), (False, None)):
                    plain = _plain_position_problem(state, unit, pose, in_air, start_pose=start)
                    kept = position_problem(RULES, state, unit, pose, in_air, start_pose=start)
                    assert (kept is None) == (plain is None), (unit.id, pose, in_air, kept, plain)
                    if plain is not None:
                        assert kinds[plain] in kept
                        refused += 1
                    tried += 1
    assert tried > 5000 and 0 < refused < tried


def test_the_ground_moves_listed_are_the_moves_decide_accepts(states):
    """Host: Movement: for each unit that may move, the moves listed without trying their commands are, in the
    same order, the candidates (each heading; M, M/2 and a 2M march less the wheel) the ``move`` handler
    accepts."""
    listed = 0
    for state in states:
        if state.phase != MOVEMENT or state.pending is not None:
            continue
        player = state.active
        for unit in sorted(state.side(player), key=lambda u: u.id):
            if unit.moved or unit.in_air or unit.fleeing or state.engaged(unit.id):
                continue
            m = RULES.profile(unit).profile.M * INCH
            plain = []
            for heading in candidate_headings(RULES, state, unit):
                _, _, turning = ground_pose(RULES, unit, heading, 0)
                for allowance, march in ((m, False), (m // 2, False), (2 * m, True)):
                    if allowance - turning >= 0:
                        command = cmd.Move(player=player, unit=unit.id, heading=heading,
                                           distance=allowance - turning, march=march)
                        if legal_if(RULES, state, move, command):
                            plain.append(command)
            assert ground_moves(RULES, state, player, unit) == plain
            listed += len(plain)
    assert listed > 1000


def test_candidate_headings_are_the_plain_bearings_to_each_enemy(states):
    """The way to each enemy, rounded to a degree, is kept by the vector between centres: it is the plain
    ``heading_towards`` rounded."""
    for state in states[::5]:
        for unit in state.units.values():
            if not unit.in_play:
                continue
            here = centre(footprint(unit, RULES.profile(unit)))
            plain = {unit.pose.heading, 0, 9000, 18000, 27000}
            for enemy in state.units.values():
                there = centre(footprint(enemy, RULES.profile(enemy)))
                if enemy.side != unit.side and enemy.in_play and there != here:
                    plain.add(round(heading_towards(there[0] - here[0], there[1] - here[1]), -2) % FULL_TURN)
            assert candidate_headings(RULES, state, unit) == sorted(plain)


def test_kept_exact_tests_answer_as_the_table_does(states):
    """``shapes_overlap``, ``gap_compared`` and ``within_range`` are kept by their arguments: over the footprints
    of seeded states they answer as ``aero_events.table`` and the uncached range methods do."""
    pairs = 0
    for state in states[::7]:
        rects = [footprint(u, RULES.profile(u)) for u in state.units.values() if u.in_play]
        for first, second in itertools.permutations(rects, 2):
            assert geo.shapes_overlap(first, second) == overlaps(first, second)
            for limit in (0, INCH, 8 * INCH, 24 * INCH):
                assert geo.gap_compared(first, second, limit) == compare_gap(first, second, limit)
            for method, height in itertools.product(("basic", "intermediate", "advanced"), (0, geo.FLIGHT_HEIGHT)):
                assert geo.within_range(method, first, second, height, 24 * INCH) == \
                    geo.within_range.__wrapped__(method, first, second, height, 24 * INCH)
            pairs += 1
    assert pairs > 500


def test_a_line_of_sight_is_blocked_by_what_the_plain_test_finds(states):
    """Fly (Shooting): ``line_crosses`` passes over obstacles whose bounding boxes are apart from the line's; it
    finds a crossing exactly when ``crossed_obstacles`` finds one, between the centres of every two units with
    every other footprint and building in the way."""
    blocked = seen = 0
    for state in states[::7]:
        units = [u for u in state.units.values() if u.in_play]
        buildings = [terrain_rect(t) for t in state.terrain if t.kind == "building"]
        for a, b in itertools.permutations(units, 2):
            start = centre(footprint(a, RULES.profile(a)))
            end = centre(footprint(b, RULES.profile(b)))
            obstacles = [footprint(u, RULES.profile(u)) for u in units if u.id not in (a.id, b.id)] + buildings
            crossed = geo.line_crosses(start, end, obstacles)
            assert crossed == bool(crossed_obstacles(start, end, obstacles))
            blocked += crossed
            seen += not crossed
    assert blocked and seen


def test_an_open_flank_is_the_one_no_ground_unit_touches(states):
    """Swoop: "an open flank": with the bounding-box short cut, a side is open exactly when no other unit on
    the ground overlaps it (the plain test over every unit)."""
    closed = 0
    for state in states[::3]:
        for unit in state.units.values():
            if not unit.in_play:
                continue
            rect = footprint(unit, RULES.profile(unit))
            for side in geo.SIDES:
                segment = geo.side_segment(rect, side)
                plain = not any(overlaps(footprint(o, RULES.profile(o)), segment) for o in state.units.values()
                                if o.id != unit.id and o.in_play and not o.in_air)
                assert side_is_open(RULES, state, unit, side) == plain
                closed += not plain
    assert closed


def test_a_refused_position_still_names_its_rule():
    """check_position raises the rule it is given, with the reason position_problem finds."""
    from aero_events.rulesets.whfb_flying.movement import check_position

    state = _seeded_states("random", range(1))[0]
    unit = next(u for u in state.units.values() if u.in_play)
    off_table = moved_straight(unit.pose, 0, 100 * state.height)
    with pytest.raises(RuleError) as refused:
        check_position(RULES, state, unit, off_table, False, rule="Fly")
    assert refused.value.rule == "Fly" and "leave the table" in str(refused.value)
    assert bounds(footprint(unit, RULES.profile(unit), off_table))[3] > state.height


def _plain_general_value(bot, state, player, option) -> float:
    """The general's value of a move, a take-off or a flight as it was written before: the stand, the enemies'
    centres and footprints found again for each option (other options: the bot's own value)."""
    from aero_events.rulesets.whfb_flying.bots import _strength, rough_gap
    from aero_events.rulesets.whfb_flying.shooting import why_not_shoot
    from aero_events.table import distance

    def enemies():
        return [u for u in state.units.values() if u.side != player and u.in_play]

    def closer():
        unit = state.units[option.unit]
        profile = RULES.profile(unit)
        end = moved_straight(unit.pose, option.heading, option.distance)
        here, there = centre(footprint(unit, profile)), centre(footprint(unit, profile, end))
        aims = [centre(footprint(e, RULES.profile(e))) for e in enemies()]
        before = min((distance(here, aim) for aim in aims), default=0)
        after = min((distance(there, aim) for aim in aims), default=0)
        return max(-5.0, (before - after) / INCH / 2)

    if isinstance(option, cmd.TakeOff):
        return 20.0 + (closer() if option.distance else 0.0)
    if isinstance(option, (cmd.Fly, cmd.Soar)) and not getattr(option, "join", None):
        unit = state.units[option.unit]
        profile = RULES.profile(unit)
        end = footprint(unit, profile, moved_straight(unit.pose, option.heading, option.distance))
        m = profile.profile.M * INCH
        value = 0.0
        ground = [e for e in enemies() if not e.in_air]
        if ground:
            nearest = min(rough_gap(end, footprint(e, RULES.profile(e))) for e in ground)
            value += 10.0 - abs(nearest - m - 2 * INCH) / INCH
        for enemy in enemies():
            if enemy.in_air and _strength(RULES, enemy) > _strength(RULES, unit):
                reach = 2 * RULES.profile(enemy).profile.M * INCH + 4 * INCH
                if rough_gap(end, footprint(enemy, RULES.profile(enemy))) <= reach:
                    value -= 8.0
        return 10.0 + value
    if isinstance(option, cmd.Move):
        unit = state.units[option.unit]
        weapon = RULES.profile(unit).missile_weapon()
        if why_not_shoot(RULES, state, unit) is None and any(
                rough_gap(footprint(unit, RULES.profile(unit)), footprint(e, RULES.profile(e))) <= weapon.range
                for e in enemies()):
            return 0.0
        return 5.0 + closer() - (1.0 if option.march else 0.0)
    return bot.value(RULES, state, player, option)


def test_the_general_values_every_option_as_the_plain_computation():
    """The general keeps, within one choice, each unit's stand and the enemies' centres and footprints: every
    option offered in seeded general games is valued as the plain computation values it, and the same option
    is chosen."""
    from aero_events.rulesets.whfb_flying.bots import GeneralBot

    bot = GeneralBot(0)
    valued = 0
    kinds = set()
    for state in _seeded_states("general", range(3, 5)):
        for player in RULES.players(state):
            options = RULES.legal_commands(state, player)
            memo: dict = {}
            for option in options:
                assert bot.value(RULES, state, player, option, memo) == \
                    _plain_general_value(bot, state, player, option)
                kinds.add(type(option).__name__)
                valued += 1
    assert valued > 2000 and {"Move", "Fly", "TakeOff", "Soar"} <= kinds
