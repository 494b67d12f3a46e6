"""The greedy bot scores whole decisions at once with numpy (issue 18, :mod:`.greedy_tables`): every value is
bit for bit the one its one-end-at-a-time definition gives (:meth:`GreedyBot._manoeuvre_value`,
``_throttle_value``, ``_step_value``; test_fast_paths.py checks the first against ``position_value``), so
it takes the same decisions; and its tables hold what the rules give: the room ahead on the board (p.17), the
expected damage of each weapon set (p.21-24)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import msgspec
import pytest

from aero_events.bots import RandomBot, play
from aero_events.core import GameSession, SeededDice
from aero_events.hexgrid import Board, Hex, Pose
from aero_events.rulesets.aeronautica import AeronauticaRules, movement
from aero_events.rulesets.aeronautica import commands as c
from aero_events.rulesets.aeronautica.baseline_bot import _room_ahead
from aero_events.rulesets.aeronautica.bots import BaselineBot, GreedyBot, _room_table
from aero_events.rulesets.aeronautica.greedy_tables import CHANGES, Q_STRIDE, R_STRIDE, flight_block
from tests.support.dogfights import thunderbolts_v_dakkajets

RULES = AeronauticaRules()


class Recorder:
    """Plays as ``bot`` does and keeps (state, options) of every decision the greedy bot scores in arrays."""

    def __init__(self, bot, kept: list):
        self.bot, self.kept, self.name = bot, kept, bot.name

    def choose(self, session, player, options):
        if isinstance(options[0], (c.ChooseManoeuvre, c.SetThrottle, c.ManoeuvrePlan)):
            self.kept.append((session.state, list(options)))
        return self.bot.choose(session, player, options)


def variants(state, aircraft_id: str) -> list:
    """``state`` and the same with the deciding aircraft Stalled, damaged (half its Structure), at Altitude 1 (a dive crashes) or
    above its Max Altitude, and with every enemy Spinning (it evades, p.22)."""
    aircraft = state.aircraft[aircraft_id]

    def changed(**fields):
        return msgspec.structs.replace(state, aircraft={**state.aircraft,
                                                        aircraft_id: msgspec.structs.replace(aircraft, **fields)})

    spinning = {key: msgspec.structs.replace(a, spinning=True) if a.owner != aircraft.owner else a
                for key, a in state.aircraft.items()}
    return [state, changed(stalled=True), changed(structure=max(1, aircraft.starting_structure // 2)), changed(altitude=1),
            changed(altitude=RULES.profile(aircraft).max_altitude + 1), msgspec.structs.replace(state, aircraft=spinning)]


@pytest.fixture(scope="module")
def decisions() -> list:
    """Decisions of Dogfights 1, 2 and 4 against 4 between the greedy, baseline and random bots (aircraft near
    and off the edges, Stalled, damaged, out of Ammo), each also in the :func:`variants` of its state."""
    kept: list = []
    for size, seeds in ((1, range(3)), (2, range(2)), (4, range(1))):
        for seed in seeds:
            session = GameSession(RULES, thunderbolts_v_dakkajets(size), dice=SeededDice(seed),
                                  game_id=f"greedy-fast-{size}-{seed}")
            other = (BaselineBot, RandomBot)[seed % 2](seed)
            greedy, other = Recorder(GreedyBot(seed), kept), Recorder(other, kept)
            play(session, {"imperium": greedy, "orks": other} if seed % 2 else {"imperium": other, "orks": greedy},
                 max_commands=600)
    return [(variant, options) for state, options in kept
            for variant in variants(state, options[0].aircraft if not isinstance(options[0], c.ManoeuvrePlan)
                                    else state.active)]


class _Decision(NamedTuple):
    """A Throttle setting or manoeuvre choice of a flying aircraft (:func:`_flying_decisions`)."""

    state: Any
    options: list
    aircraft: Any
    throttle: bool  # a Throttle setting, else a manoeuvre choice
    mine: list  # the aircraft's own options
    asked: list  # what they ask: the Throttle changes, or the manoeuvre numbers


def _flying_decisions(decisions: list, every: int) -> Iterator[_Decision]:
    """Every ``every``-th decision that is a Throttle setting or a manoeuvre choice of a flying aircraft."""
    for state, options in decisions[::every]:
        if not isinstance(options[0], (c.SetThrottle, c.ChooseManoeuvre)):
            continue
        aircraft = state.aircraft[options[0].aircraft]
        if aircraft.status != "flying":
            continue
        if isinstance(options[0], c.SetThrottle):
            yield _Decision(state, options, aircraft, True, list(options), [o.change for o in options])
        else:
            mine = [o for o in options if isinstance(o, c.ChooseManoeuvre) and o.aircraft == aircraft.id]
            yield _Decision(state, options, aircraft, False, mine, [o.manoeuvre for o in mine])


def test_the_decisions_cover_the_cases_the_scores_tell_apart(decisions):
    """The fixture's decisions include Stalled and Spinning aircraft, Altitudes from 1 to Max Altitude + 1 and
    damaged aircraft, so the tests below see every branch of the score."""
    aircraft = [a for state, _ in decisions for a in state.aircraft.values()]
    assert any(a.stalled for a in aircraft)
    assert {a.altitude for a in aircraft} >= {1, 2, 3, 4, 5, 6}
    assert any(a.damaged for a in aircraft)
    assert any(a.spinning for a in aircraft)
    assert len(decisions) > 600


def test_the_manoeuvre_scores_are_those_of_each_manoeuvre_alone_p15_p18(decisions):
    """Every Ace Manoeuvre offered, over every Throttle setting (p.15), flight (p.16-17) and Altitude change
    (p.18), scored at once: the same value as :meth:`GreedyBot._manoeuvre_value` of each, exactly, and the
    bot chooses the first best as ``max`` does."""
    checked = 0
    for state, options in decisions[::2]:
        if not isinstance(options[0], c.ChooseManoeuvre):
            continue
        aircraft = state.aircraft[options[0].aircraft]
        mine = [o for o in options if isinstance(o, c.ChooseManoeuvre) and o.aircraft == aircraft.id]
        if aircraft.status != "flying":
            continue
        bot = GreedyBot(0)
        values = bot._manoeuvre_values(RULES, state, aircraft, [o.manoeuvre for o in mine]).tolist()
        alone = [GreedyBot(0)._manoeuvre_value(RULES, state, aircraft, o.manoeuvre) for o in mine]
        assert values == alone
        assert GreedyBot(0).choose(_Session(state), aircraft.owner, options) == mine[alone.index(max(alone))]
        checked += 1
    assert checked > 30


def test_the_throttle_scores_are_those_of_each_setting_alone_p15(decisions):
    """Each Throttle setting (p.15) with the revealed manoeuvre scored at once: :meth:`_throttle_value` of
    each, exactly."""
    checked = 0
    for state, options in decisions:
        if not isinstance(options[0], c.SetThrottle):
            continue
        aircraft = state.aircraft[options[0].aircraft]
        values = GreedyBot(0)._throttle_values(RULES, state, aircraft, [o.change for o in options]).tolist()
        assert values == [GreedyBot(0)._throttle_value(RULES, state, aircraft, o.change) for o in options]
        checked += 1
    assert checked > 40


def test_the_plan_scores_are_those_of_each_plan_alone_p16_p17(decisions):
    """Each plan of the revealed manoeuvre (p.16-17), and each other step offered with them, scored as
    :meth:`_step_value` scores it alone, exactly."""
    checked = 0
    for state, options in decisions:
        if not isinstance(options[0], c.ManoeuvrePlan):
            continue
        aircraft = state.aircraft[state.active]
        values = GreedyBot(0)._step_values(RULES, state, aircraft, options)
        assert values == [GreedyBot(0)._step_value(RULES, state, aircraft, o) for o in options]
        checked += 1
    assert checked > 40


class AltitudeChecker(GreedyBot):
    """The greedy bot, checking each Altitude decision it scores from the Throttle decision's remembered columns
    against :meth:`GreedyBot._step_value` of each option alone (the values, and the option it takes: the first
    best); ``checked`` counts them."""

    checked = 0

    def choose(self, session, player, options):
        if isinstance(options[0], c.AdjustAltitude):
            state = session.state
            aircraft = state.aircraft[state.active]
            if self._altitude_column(RULES, state, aircraft) is not None:
                values = self._step_values(RULES, state, aircraft, options)
                alone = [GreedyBot(0)._step_value(RULES, state, aircraft, o) for o in options]
                assert values == alone
                assert self._step_best(RULES, state, aircraft, options) == alone.index(max(alone))  # the first best
                AltitudeChecker.checked += 1
        return super().choose(session, player, options)


def test_the_altitude_scores_are_those_of_each_change_alone_p18():
    """Each Altitude change (p.18) at the end of the move, read from the values the Throttle decision of the same
    move worked out for that end (the enemies unchanged since), is :meth:`_step_value` of that change alone,
    exactly."""
    from aero_events.rulesets.aeronautica import greedy_tables

    AltitudeChecker.checked = 0
    greedy_tables._RECALLED_ENDS.clear()
    for _ in range(2):  # the second time, where each end is among the kept ones is looked up (_RECALLED_ENDS)
        for size, seed in ((1, 0), (1, 1), (2, 0), (4, 0)):
            session = GameSession(RULES, thunderbolts_v_dakkajets(size), dice=SeededDice(seed),
                                  game_id=f"greedy-altitude-{size}-{seed}")
            play(session, {"imperium": AltitudeChecker(seed), "orks": (AltitudeChecker, BaselineBot)[seed % 2](seed)},
                 max_commands=600)
    assert AltitudeChecker.checked > 60
    assert any(entry[2] is not None for entry in greedy_tables._RECALLED_ENDS.values())


class AltitudeKeptChecker(GreedyBot):
    """The greedy bot, checking at each Altitude decision read from the Throttle decision's column that the first best
    kept whole (``_ALTITUDE_BEST``) is the first best of the changes scored each alone, met again is the same, and is
    not taken for the same decision one hex along (another end: worked out there, or None); ``checked`` counts them."""

    checked = 0

    def choose(self, session, player, options):
        from aero_events.rulesets.aeronautica import bots

        if all(isinstance(o, c.AdjustAltitude) for o in options) and len(options) > 1:
            state = session.state
            aircraft = state.aircraft[state.active]
            changes = tuple(o.change for o in options)
            first = GreedyBot(0)._altitude_best(RULES, state, aircraft, changes)
            if first is not None:
                alone = [GreedyBot(0)._step_value(RULES, state, aircraft, o) for o in options]
                assert first == alone.index(max(alone))  # the first best, as max over _step_values takes it
                assert any(entry[1] == first for entry in bots._ALTITUDE_BEST.values())
                assert GreedyBot(1)._altitude_best(RULES, state, aircraft, changes) == first  # looked up
                for along in (msgspec.structs.replace(aircraft, hex=Hex(aircraft.hex[0], aircraft.hex[1] + 1)),
                              msgspec.structs.replace(aircraft, stalled=not aircraft.stalled)):
                    moved = msgspec.structs.replace(state, aircraft={**state.aircraft, aircraft.id: along})
                    there = GreedyBot(2)._altitude_best(RULES, moved, along, changes)
                    if there is not None:
                        each = [GreedyBot(0)._step_value(RULES, moved, along, o) for o in options]
                        assert there == each.index(max(each))
                AltitudeKeptChecker.checked += 1
        return super().choose(session, player, options)


def test_an_altitude_decision_kept_whole_is_taken_as_the_first_time_and_only_for_the_same_end_p18():
    """An Altitude decision (p.18) whose changes are all read from the Throttle decision's column is kept whole by
    what it reads (the kept ends, the aircraft's end and Stalled, the changes): met again it takes the first best
    of the changes scored each alone; at another end it is worked out there."""
    from aero_events.rulesets.aeronautica import bots

    AltitudeKeptChecker.checked = 0
    bots._ALTITUDE_BEST.clear()
    for _ in range(2):
        for size, seed in ((1, 0), (1, 1), (2, 0)):
            session = GameSession(RULES, thunderbolts_v_dakkajets(size), dice=SeededDice(seed),
                                  game_id=f"greedy-altitude-kept-{size}-{seed}")
            play(session, {"imperium": AltitudeKeptChecker(seed), "orks": AltitudeKeptChecker(seed + 1)},
                 max_commands=600)
    assert AltitudeKeptChecker.checked > 40


def test_a_decision_met_again_is_scored_as_it_was_the_first_time(decisions):
    """Seeded games of one set-up meet the same decisions again; the values kept from the first time (by the
    scorer, the flights, where they start and how they stall) are those worked out afresh, in the same state
    and in another state equal to it."""
    from aero_events.rulesets.aeronautica import bots

    checked = 0
    for state, options in decisions[::5]:
        if not isinstance(options[0], c.SetThrottle):
            continue
        aircraft = state.aircraft[options[0].aircraft]
        changes = [o.change for o in options]
        first = GreedyBot(0)._throttle_values(RULES, state, aircraft, changes).tolist()
        again = msgspec.structs.replace(state, aircraft=dict(state.aircraft))
        kept = GreedyBot(1)._throttle_values(RULES, again, again.aircraft[aircraft.id], changes).tolist()
        bots._BLOCK_VALUES.clear()
        bots._SCORERS_BY_READS.clear()
        bots._SCORERS.clear()
        assert first == kept == GreedyBot(2)._throttle_values(RULES, state, aircraft, changes).tolist()
        checked += 1
    assert checked > 10


def test_an_aircraft_beyond_the_tables_is_scored_one_end_at_a_time(decisions):
    """Where the tables do not reach (an aircraft set far off the board), the flights are scored one by one,
    with the same values."""
    state, options = next((s, o) for s, o in decisions if isinstance(o[0], c.ChooseManoeuvre)
                          and s.aircraft[o[0].aircraft].status == "flying")
    aircraft = msgspec.structs.replace(state.aircraft[options[0].aircraft], hex=Hex(-60, 90))
    state = msgspec.structs.replace(state, aircraft={**state.aircraft, aircraft.id: aircraft})
    numbers = [o.manoeuvre for o in options if isinstance(o, c.ChooseManoeuvre) and o.aircraft == aircraft.id]
    values = GreedyBot(0)._manoeuvre_values(RULES, state, aircraft, numbers).tolist()
    assert values == [GreedyBot(0)._manoeuvre_value(RULES, state, aircraft, number) for number in numbers]
    assert not _room_table(RULES.board(state)).covers(aircraft.hex, 0)


@pytest.mark.parametrize("preset", ["3x3", "4x4", "8x4"])
def test_the_room_table_holds_the_hexes_ahead_on_the_board_p17(preset):
    """The room table of a board gives, for every hex of the board and around it and every facing, the
    hexes straight ahead before the edge (an aircraft that flies past it Disengages, p.17)."""
    board = Board.preset(preset)
    table = _room_table(board)
    for q in range(table.q0, table.q0 + table.width):
        for r in range(table.r0, table.r0 + table.height):
            at = q * Q_STRIDE + r * R_STRIDE - table.origin
            assert bool(table.on[at]) == board.contains(Hex(q, r))
            for facing in range(6):
                assert table.room[at + facing] == _room_ahead(board, Hex(q, r), facing, 24)


def test_a_flight_leaves_the_board_where_a_hex_it_crosses_is_off_it_p17():
    """Which flights of a manoeuvre cross a hex beyond the edge or an incomplete edge hex (the aircraft
    Disengages, p.17), flown from every hex of the board and around it: the flights' block answers as
    :func:`movement.first_off_board` does for each flight, with and without the room table."""
    board = Board.preset("4x4")
    rooms = _room_table(board)
    for number, facing, speed in ((2, 1, 4), (RULES.manoeuvres.numbers[-1], 4, 6)):
        manoeuvre = RULES.manoeuvres.get(number)
        flights = movement.reach(manoeuvre, facing, speed) or (movement.straight(Hex(0, 0), facing, speed),)
        block = flight_block((manoeuvre,), facing, (speed,))
        for q in range(rooms.q0, rooms.q0 + rooms.width):  # both parities of column (odd-q rows)
            for r in range(rooms.r0, rooms.r0 + rooms.height, 3):
                expected = [movement.first_off_board(board, tuple(Hex(q + a, r + b) for a, b in flight.path))
                            is not None for flight in flights]
                assert block.crossing_off_board(board, Hex(q, r), rooms).tolist() == expected
                assert block.crossing_off_board(board, Hex(q, r)).tolist() == expected


def test_the_damage_grids_give_the_expected_damage_of_every_offset_facing_and_altitude_p21_p24(decisions):
    """A weapon set's grid, looked up as the scores look it up, gives :meth:`GreedyBot.expected_damage`
    (Firepower at the range band, p.22; to hit with the Altitude and Stall/Spin modifiers, p.22; Damage and
    Extra Damage, p.23-24): at every offset within range and beyond and every facing at two pairs of
    Altitudes, and at every pair of Altitudes from -1 to 7 (0: no fire, p.19) at a few offsets."""
    from aero_events.rulesets.aeronautica.greedy_tables import geometry_classes

    bot = GreedyBot(0)
    state = decisions[-1][0]
    table, _ = geometry_classes()
    firers = {(a.weapons, tuple(left == 0 for left in a.ammo)): a for a in state.aircraft.values()}
    target = next(iter(state.aircraft.values()))

    def check(firer, grid, dq, dr, facing, firer_altitude, target_altitude, evading):
        gap = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        geometry = table[dq + 10, dr + 10, facing] if 0 < gap <= 10 else 0
        above = (target_altitude > firer_altitude) - (target_altitude < firer_altitude)
        last = grid.shape[2] - 1
        slot = last if 0 in (firer_altitude, target_altitude) else min(abs(target_altitude - firer_altitude), last)
        assert grid[geometry, above + 1, slot, int(evading)] == bot.expected_damage(
            RULES, firer, Pose(Hex(0, 0), facing), firer_altitude, target, Hex(dq, dr), target_altitude, evading)

    for firer in firers.values():
        grid = bot._damage_grid(RULES, firer)
        for dq in range(-11, 12):
            for dr in range(-11, 12):
                for facing in range(6):
                    check(firer, grid, dq, dr, facing, 3, 3, False)
                    check(firer, grid, dq, dr, facing, 2, 4, True)
        for dq, dr, facing in ((0, -3, 0), (2, -1, 1), (-4, 4, 3), (7, 0, 5), (0, 0, 2), (-9, 1, 4)):
            for firer_altitude in range(-1, 8):
                for target_altitude in range(-1, 8):
                    for evading in (False, True):
                        check(firer, grid, dq, dr, facing, firer_altitude, target_altitude, evading)


def test_the_altitude_changes_are_those_the_climb_and_dive_table_allows_p18():
    """The columns of the scores are every Altitude change any Speed allows (p.18): -2 to +2."""
    assert CHANGES.tolist() == [-2, -1, 0, 1, 2]
    for speed in range(movement.MAX_DIAL_SPEED + 1):
        assert set(movement.altitude_options(speed)) <= set(CHANGES.tolist())


def test_numpy_sums_the_first_axis_row_after_row_as_the_scores_add_their_terms():
    """:meth:`EndScorer.columns` adds every enemy's terms with one ``np.add.reduce`` over the first axis; that
    is the score only if numpy adds the rows one after the other, in order (as ``_end_value`` adds the terms),
    and not pairwise: values whose sum depends on the order tell the two apart."""
    import numpy as np

    rows = np.array([[1e16, 0.5, -3.0], [1.0, 1e-8, 7.0], [-1e16, 0.25, 1e20], [1.0, -0.5, -1e20],
                     [0.1, 0.2, 0.3], [0.7, -0.1, 2.0]] * 3)
    for count in range(2, len(rows) + 1):
        ordered = rows[0].copy()
        for row in rows[1:count]:
            ordered += row
        for shape in ((count, 3), (count, 1, 3), (count, 3, 1)):
            assert np.add.reduce(rows[:count].reshape(shape), axis=0).reshape(-1).tolist() == ordered.tolist()
    four = ((rows[0] + rows[1]) + rows[2]) + rows[3]
    assert ((rows[0] + rows[1]) + (rows[2] + rows[3])).tolist() != four.tolist()  # pairwise would differ


def test_the_distinct_flights_of_a_block_are_those_numpy_unique_gives():
    """A block finds its distinct flights (by end, facing, Speed and staged) with a stable sort of its own: the
    same distinct values, first indexes and inverse as ``np.unique``, for every manoeuvre at every Speed and
    facing and for whole decisions' blocks, and for arrays with many repeats."""
    import numpy as np

    from aero_events.rulesets.aeronautica.greedy_tables import _unique

    manoeuvres = tuple(RULES.manoeuvres.get(number) for number in RULES.manoeuvres.numbers)
    blocks = [flight_block((manoeuvre,), facing, (speed,)) for manoeuvre in manoeuvres + (None,)
              for facing in range(6) for speed in range(10)]
    blocks += [flight_block(manoeuvres, facing, (speed, speed + 1, speed + 2)) for facing in range(6)
               for speed in range(7)]
    for block in blocks:
        codes = (block.key * 8 + block.facing) * 64 + block.speed * 2 + block.staged
        _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        assert block.distinct_key.tolist() == block.key[first].tolist()
        assert block.inverse.tolist() == inverse.tolist()
    for values in ([5], [3, 3, 3], [2, 1, 2, 1, 0, 2], list(range(40, 0, -3)) * 4):
        expected = np.unique(np.array(values), return_index=True, return_inverse=True)
        assert [part.tolist() for part in _unique(np.array(values))] == [part.tolist() for part in expected]


def test_a_scorer_from_kept_terms_scores_as_one_built_from_nothing_kept(decisions):
    """The scorers are built from the aircraft's own terms and each enemy's, kept by what they are read from
    (an enemy that has not moved is met again by the next scorer); a scorer built that way scores every
    Throttle setting and manoeuvre as one built with nothing kept."""
    from aero_events.rulesets.aeronautica import bots, greedy_tables

    def forget():
        for table in (bots._BLOCK_VALUES, bots._SCORERS_BY_READS, bots._SCORERS, bots._OWN_TERMS,
                      bots._ENEMY_RECORDS, greedy_tables._WEIGHTED_DAMAGE, greedy_tables._STACKED_DAMAGE,
                      greedy_tables._ENEMY_DAMAGE):
            table.clear()

    checked = 0
    for state, _, aircraft, throttle, _, asked in _flying_decisions(decisions, 3):
        if throttle:
            def score(bot, state=state, aircraft=aircraft, changes=asked):
                return bot._throttle_values(RULES, state, aircraft, changes).tolist()
        else:
            def score(bot, state=state, aircraft=aircraft, numbers=asked):
                return bot._manoeuvre_values(RULES, state, aircraft, numbers).tolist()
        bots._BLOCK_VALUES.clear()
        kept = score(GreedyBot(0))  # with the terms kept from every decision before
        forget()
        assert kept == score(GreedyBot(0))
        checked += 1
    assert checked > 40


def test_the_bot_tells_the_commands_apart_by_their_class_as_isinstance_does():
    """:meth:`GreedyBot.choose` looks up what kind of decision an option is by its class, worked out once
    with ``issubclass``: every command of the ruleset is of the kinds ``isinstance`` gives, and a subclass of
    a command is of its parent's kinds."""
    from aero_events.core import Command
    from aero_events.rulesets.aeronautica import bots

    commands = [value for value in vars(c).values() if isinstance(value, type) and issubclass(value, Command)]
    assert len(commands) > 15

    class Slower(c.SetThrottle, frozen=True, tag="test.SlowerThrottle"):
        pass

    for command in [*commands, Slower]:
        kind = bots._KINDS.get(command) or bots._kind(command)
        for bit, classes in enumerate(bots._KIND_CLASSES):
            assert bool(kind & (1 << bit)) == issubclass(command, classes), (command, classes)
    assert bots._kind(Slower) == bots._kind(c.SetThrottle)
    assert bots._kind(c.SetThrottle) & bots._THROTTLE and not bots._kind(c.SetThrottle) & bots._STEP
    assert bots._kind(c.PassFiring) & bots._FIRING and bots._kind(c.ManoeuvrePlan) & bots._STEP

    class Steeper(c.AdjustAltitude, frozen=True, tag="test.SteeperAltitude"):
        pass

    for command in [*commands, Slower, Steeper]:
        assert bots._IS_PLAN[command] == issubclass(command, c.ManoeuvrePlan)
        assert bots._IS_CHANGE[command] == issubclass(command, c.AdjustAltitude)
    assert bots._IS_CHANGE[Steeper] and not bots._IS_PLAN[Steeper] and bots._IS_PLAN[c.ManoeuvrePlan]


class _Session:
    """What :meth:`GreedyBot.choose` reads of a session: the ruleset and the state."""

    def __init__(self, state):
        self.ruleset, self.state = RULES, state


def test_a_manoeuvre_flown_facing_any_way_is_the_flight_facing_0_turned_p16():
    """A manoeuvre is flown the same whichever way the aircraft faces (its moves and turns count from its facing,
    p.16; straight ahead likewise, p.13): the bot's flights of every manoeuvre (and of none) at every Speed facing
    1 to 5 are those facing 0 turned, field by field those worked out from :func:`movement.reach` facing so."""
    import numpy as np

    from aero_events.rulesets.aeronautica.greedy_tables import SPEEDS, reach_part, reach_part_of

    manoeuvres = tuple(RULES.manoeuvres.get(number) for number in RULES.manoeuvres.numbers)
    checked = 0
    for manoeuvre in manoeuvres + (None,):
        for facing in range(6):
            for speed in range(SPEEDS):
                turned, plain = reach_part(manoeuvre, facing, speed), reach_part_of(manoeuvre, facing, speed)
                for field, expected in zip(turned, plain, strict=True):
                    if isinstance(expected, np.ndarray):
                        assert field.dtype == expected.dtype and field.tolist() == expected.tolist()
                    else:
                        assert type(field) is type(expected) and field == expected
                checked += facing > 0 and len(plain[0]) > 1
    assert checked > 200


def test_the_geometry_classes_are_the_range_band_and_fire_arcs_of_every_offset_and_facing_p21_p22():
    """The geometry class of every target offset and firer facing (worked out facing 0 and turned) holds the
    range band (p.22) and Fire Arcs (p.21) the rules give that offset and facing; 0 out of range."""
    from aero_events.hexgrid import MAX_RANGE
    from aero_events.rulesets.aeronautica.greedy_tables import arc_names, geometry, geometry_classes

    table, classes = geometry_classes()
    span = (table.shape[0] - 1) // 2
    for dq in range(-span, span + 1):
        for dr in range(-span, span + 1):
            distance = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            for facing in range(6):
                index = int(table[dq + span, dr + span, facing])
                if not 0 < distance <= MAX_RANGE:
                    assert index == 0
                    continue
                assert classes[index - 1] == geometry(dq, dr, facing)
                assert classes[index - 1][1] == arc_names(dq, dr, facing)
    assert len(set(classes)) == len(classes) > 6


def test_the_frame_tables_hold_the_distance_and_geometry_class_of_every_offset_in_their_least_type_p21_p22():
    """The flat frame tables the scores read (kept in the least unsigned type that holds them, so they stay in
    the caches) hold, for every offset up to the frame's span and facing, the distance in hexes, the geometry
    class (:func:`geometry_classes`, 0 out of range, p.22) and that class times the row width of the damage
    taken; the board's clipped room table is the room ahead up to ``_ROOMS`` (p.17)."""
    import numpy as np

    from aero_events.rulesets.aeronautica.greedy_tables import (
        _ROOMS,
        FRAME_SPAN,
        frame_geometry,
        geometry_classes,
    )

    distances, classes, classes_taken = frame_geometry()
    table, _ = geometry_classes()
    near = (table.shape[0] - 1) // 2
    q, r, f = np.meshgrid(np.arange(-FRAME_SPAN, FRAME_SPAN + 1), np.arange(-FRAME_SPAN, FRAME_SPAN + 1),
                          np.arange(6), indexing="ij")
    at = (q + FRAME_SPAN) * Q_STRIDE + (r + FRAME_SPAN) * R_STRIDE + f
    assert (distances.take(at).astype(np.int64) == (abs(q) + abs(r) + abs(q + r)) // 2).all()
    inside = (abs(q) <= near) & (abs(r) <= near)
    expected = np.where(inside, table[np.clip(q + near, 0, 2 * near), np.clip(r + near, 0, 2 * near), f], 0)
    assert (classes.take(at).astype(np.int64) == expected).all()
    assert (classes_taken.take(at).astype(np.int64) == expected * 2 * len(CHANGES)).all()
    for frame in (distances, classes, classes_taken):
        assert frame.dtype.kind == "u" and frame.dtype.itemsize == 1  # an eighth of int64
    rooms = _room_table(Board.preset("4x4"))
    assert (rooms.room_clipped.astype(np.int64) == np.minimum(rooms.room, _ROOMS)).all()
    assert rooms.room_clipped.dtype.itemsize == 1


def test_the_speed_tables_hold_the_penalties_of_each_speed_and_altitude_change_p17_p19():
    """The tables of :class:`EndScorer` by Altitude change and ``2 * Speed + stalled``: where the damage taken is
    (Stalled evades, p.22), the Stall (p.18) and Breaking Up (p.19; +inf for a change the Speed does not allow,
    p.18) terms, and the edge penalty for each room ahead short of the hexes needed (p.17), as each entry's
    definition gives it."""
    import numpy as np

    from aero_events.rulesets.aeronautica.greedy_tables import _ROOMS, SPEEDS, _speed_tables

    for start, stall_penalty, max_altitude, min_speed, max_speed in (
            (1, 0.4, 6, 3, 8), (5, None, 5, 0, 7), (6, 1.25, 6, 4, 9), (0, 0.4, 4, 2, 6)):
        breaking_up, edge_penalty, crash = 2.375, 0.3, 8.0 / 3
        crashes, crashing, taken_at, terms, edging = _speed_tables(
            start, stall_penalty, breaking_up, edge_penalty, max_altitude, min_speed, max_speed, crash)
        for speed in range(SPEEDS):
            allowed = movement.altitude_options(speed)
            for stalled in (0, 1):
                row = 2 * speed + stalled
                for k, change in enumerate(CHANGES.tolist()):
                    new_speed = speed - 1 if change > 0 else speed + 1 if change < 0 else speed
                    stall = bool(stalled) or (change > 0 and (start + change > max_altitude or new_speed < min_speed))
                    assert taken_at[k, row] == stall * len(CHANGES) + k
                    assert terms[0, k, row] == (stall_penalty if stall and stall_penalty is not None else 0.0)
                    assert terms[1, k, row] == (np.inf if change not in allowed else
                                                breaking_up if new_speed > max_speed else 0.0)
                    needed = max(new_speed, min_speed)
                    for room in range(_ROOMS + 1):
                        penalty = edging[k, row * (_ROOMS + 1) + room]
                        assert penalty == (edge_penalty * (needed - room) if room < needed else 0.0)
                        assert not np.signbit(penalty)
        assert crashes == (start + int(CHANGES[0]) <= 0)
        if crashes:
            assert crashing.reshape(-1).tolist() == [crash if start + change <= 0 else 0.0 for change in CHANGES]


def test_a_manoeuvre_or_throttle_decision_met_again_is_scored_and_taken_as_the_first_time(decisions):
    """The best of each manoeuvre, or Throttle setting, and the first best are kept with the block's kept values:
    met again, they are what they were the first time and what :meth:`GreedyBot._manoeuvre_value` or
    ``_throttle_value`` of each option alone gives, and the bot takes the first best option, as ``max`` does."""
    from aero_events.rulesets.aeronautica import bots

    checked = 0
    for state, options, aircraft, throttle, mine, asked in _flying_decisions(decisions, 4):
        if throttle:
            score, alone = bots.GreedyBot._throttle_values, bots.GreedyBot._throttle_value
        else:
            score, alone = bots.GreedyBot._manoeuvre_values, bots.GreedyBot._manoeuvre_value
        bots._SEGMENT_BEST.clear()
        first = score(GreedyBot(0), RULES, state, aircraft, asked).tolist()
        kept = len(bots._SEGMENT_BEST)
        again = score(GreedyBot(1), RULES, state, aircraft, asked).tolist()
        each = [alone(GreedyBot(2), RULES, state, aircraft, value) for value in asked]
        assert first == again == each
        for seed in (3, 4):  # scored, then from what was kept
            assert GreedyBot(seed).choose(_Session(state), aircraft.owner, options) == mine[each.index(max(each))]
        checked += kept
    assert checked > 40


def test_a_placement_product_met_again_gives_the_first_best_placement_p34():
    """The best placement of a set-up's placement product is kept (every set-up of a scenario offers the same):
    met again in another game, it is still the first of the best as scoring every placement command gives."""
    from aero_events.rulesets.aeronautica import bots
    from aero_events.rulesets.aeronautica.commands import RollOff

    bots._BEST_PLACED.clear()
    for game in range(2):
        session = GameSession(RULES, thunderbolts_v_dakkajets(2), dice=SeededDice(7), game_id=f"placing-again-{game}")
        session.apply(RollOff(player="imperium"))
        bot = GreedyBot(game)
        for _ in range(4):
            player = next(p for p in ("imperium", "orks") if len(session.legal_commands(p)))
            options = session.legal_commands(player)
            expected = max(options, key=lambda o: bot._placement_value(RULES, session.state, o))
            assert bot._best_placement(RULES, session.state, options) == expected
            session.apply(expected)
        if game == 0:
            kept = dict(bots._BEST_PLACED)
            assert kept
    assert bots._BEST_PLACED == kept  # the second game found every product kept


def test_the_plans_of_every_way_of_flying_a_manoeuvre_are_its_flights_p16_p17():
    """When the plans offered are every way of flying the revealed manoeuvre (as the rules offer them), the bot
    takes their flights from the manoeuvre's own: the same block, field by field, and the same legal plans as
    flying each plan with :func:`movement.plan_flight`, for every manoeuvre, facing and Speed; a plan list
    that is not all of them (one left out, or given as True for 1) is flown plan by plan."""
    import numpy as np

    from aero_events.rulesets.aeronautica import bots
    from aero_events.rulesets.aeronautica.greedy_tables import FlightBlock

    state = thunderbolts_v_dakkajets(1)
    session = GameSession(RULES, state, dice=SeededDice(0), game_id="plans")
    aircraft = next(iter(session.state.aircraft.values()))
    checked = 0
    for number in RULES.manoeuvres.numbers:
        manoeuvre = RULES.manoeuvres.get(number)
        for facing in range(6):
            for speed in range(1, 10):
                flying = msgspec.structs.replace(aircraft, revealed=number, facing=facing, speed=speed,
                                                 hex=Hex(3, 4))
                plans = tuple((f.side, f.stage_hexes, f.facings) for f in movement.reach(manoeuvre, facing, speed))
                if not plans:
                    continue
                bots._PLAN_BLOCKS.clear()
                block, legal = bots._plan_block_of(RULES, flying, (manoeuvre, speed, facing, plans))
                plain, plain_legal = bots._plan_block_flown(RULES, flying, plans)
                assert legal == plain_legal == list(range(len(plans)))
                for field in FlightBlock.__slots__:
                    mine, theirs = getattr(block, field), getattr(plain, field)
                    if isinstance(theirs, np.ndarray):
                        assert mine.dtype == theirs.dtype and mine.tolist() == theirs.tolist(), field
                    else:
                        assert mine == theirs, field
                checked += 1
    assert checked > 300
    manoeuvre = RULES.manoeuvres.get(3)
    flying = msgspec.structs.replace(aircraft, revealed=3, facing=2, speed=5, hex=Hex(3, 4))
    plans = tuple((f.side, f.stage_hexes, f.facings) for f in movement.reach(manoeuvre, 2, 5))
    for partial in (plans[1:], tuple((side, tuple(True if h == 1 else h for h in hexes), facings)
                                     for side, hexes, facings in plans)):
        bots._PLAN_BLOCKS.clear()
        block, legal = bots._plan_block_of(RULES, flying, (manoeuvre, 5, 2, partial))
        plain, plain_legal = bots._plan_block_flown(RULES, flying, partial)
        assert legal == plain_legal
        assert block.key.tolist() == plain.key.tolist() and block is not bots.flight_block((manoeuvre,), 2, (5,))



def test_a_block_holds_what_its_flights_give_field_by_field():
    """Every field of a block is what its definition gives from its parts' flights: the frame index of each end
    (``q * Q_STRIDE + r * R_STRIDE``), plus and less its facing, the hexes crossed and theirs, each flight's hexes
    (padded with the count of hexes), where each segment starts, the greatest Speed and reach, the distinct flights
    by end, facing, Speed and staged as ``np.unique`` finds them with their rows and codes, and the columns and
    rows the hexes crossed span."""
    import numpy as np

    from aero_events.rulesets.aeronautica.greedy_tables import SPEEDS, FlightBlock, reach_part

    manoeuvres = tuple(RULES.manoeuvres.get(number) for number in RULES.manoeuvres.numbers)
    for facing in range(6):
        for parts in ([reach_part(m, facing, speed) for m in manoeuvres for speed in (2, 3, 4, 5)],
                      [reach_part(None, facing, 0)], [reach_part(manoeuvres[2], facing, 7)]):
            block = FlightBlock(parts)
            end_q, end_r, final, staged, speed = np.concatenate([part[9] for part in parts], axis=1)
            cells_q, cells_r = (np.concatenate([part[i] for part in parts]) for i in (5, 6))
            key = end_q * Q_STRIDE + end_r * R_STRIDE
            assert block.key.tolist() == key.tolist() and block.facing.tolist() == final.tolist()
            assert block.key_facing.tolist() == (key + final).tolist()
            assert block.key_less_facing.tolist() == (key - final).tolist()
            assert block.cells_key.tolist() == (cells_q * Q_STRIDE + cells_r * R_STRIDE).tolist()
            assert block.staged.dtype == bool and block.staged.tolist() == staged.astype(bool).tolist()
            assert block.starts.tolist() == np.cumsum([0] + [len(part[0]) for part in parts[:-1]]).tolist()
            assert block.fastest == max(speed.tolist()) and block.reach == max(part[8] for part in parts)
            row = speed * 2 + staged
            _, first, inverse = np.unique((key * 8 + final) * (4 * SPEEDS) + row, return_index=True,
                                          return_inverse=True)
            assert block.inverse.tolist() == inverse.reshape(-1).tolist()
            for field, expected in (("distinct_key", key[first]), ("distinct_key_facing", (key + final)[first]),
                                    ("distinct_key_less_facing", (key - final)[first]),
                                    ("distinct_facing", final[first]), ("distinct_speed_staged", row[first]),
                                    ("distinct_code", (key[first] * 8 + final[first]) * (2 * SPEEDS))):
                assert getattr(block, field).dtype == np.int64 and getattr(block, field).tolist() == expected.tolist()
            offset = 0
            for number, part in enumerate(parts):  # each flight's hexes, by step, as indexes into the block's hexes
                for index in range(len(part[0])):
                    hexes = [cell + offset for cell in part[7][index].tolist() if cell >= 0]
                    flight = block.starts[number] + index
                    padding = [len(cells_q)] * (len(block.crosses) - len(hexes))
                    assert block.crosses[:, flight].tolist() == hexes + padding
                offset += len(part[5])
            if len(cells_q):
                qs, rs = cells_q.tolist(), cells_r.tolist()
                even = [r + (q >> 1) for q, r in zip(qs, rs, strict=True)]
                odd = [r + ((q + 1) >> 1) for q, r in zip(qs, rs, strict=True)]
                assert block.spans == (min(qs), max(qs), ((min(even), max(even)), (min(odd), max(odd))))
            else:
                assert block.spans is None


def test_a_block_facing_1_to_5_is_the_block_facing_0_turned_field_by_field_p16():
    """A manoeuvre is flown the same whichever way the aircraft faces (p.16; straight ahead likewise, p.13): the
    block of every manoeuvre set and Speeds facing 1 to 5 (the block facing 0 turned) is, field by field, the block
    joined from the parts flown facing so, the distinct flights in the same (sorted) order."""
    import numpy as np

    from aero_events.rulesets.aeronautica.greedy_tables import FlightBlock, flight_block_of

    manoeuvres = tuple(RULES.manoeuvres.get(number) for number in RULES.manoeuvres.numbers)
    checked = 0
    for group in (manoeuvres, manoeuvres[:5], (manoeuvres[2],), (None,), (manoeuvres[0], None)):
        for speeds in ((2, 3, 4), (0,), (5,), (1, 2), (7, 8, 9)):
            for facing in range(1, 6):
                turned, joined = flight_block(group, facing, speeds), flight_block_of(group, facing, speeds)
                assert turned is not joined
                for slot in FlightBlock.__slots__:
                    field, expected = getattr(turned, slot), getattr(joined, slot)
                    if isinstance(expected, np.ndarray):
                        assert field.dtype == expected.dtype and field.tolist() == expected.tolist(), slot
                    else:
                        assert type(field) is type(expected) and field == expected, slot
                checked += 1
    assert checked == 125


def test_a_decision_kept_whole_is_scored_as_afresh_and_not_taken_for_one_at_another_hex(decisions):
    """A manoeuvre or Throttle decision met again is looked up whole (``_DECIDED``: by its scorer, the hex, facing
    and Speed, the options and what else it reads): the same values and first best as scored afresh with every
    table emptied; and the same aircraft one hex along (the same scorer: it does not read the hex) is scored for
    that hex, as :meth:`_manoeuvre_value` or ``_throttle_value`` of each option alone gives, not taken from the
    first; a Throttle decision looked up keeps its ends for the plans and the Altitude change that follow."""
    from aero_events.rulesets.aeronautica import bots

    checked = 0
    for state, options, aircraft, throttle, _, asked in _flying_decisions(decisions, 3):
        if not _room_table(RULES.board(state)).covers(aircraft.hex, 12):
            continue
        if throttle:
            best, alone = bots.GreedyBot._throttle_best, bots.GreedyBot._throttle_value
        else:
            best, alone = bots.GreedyBot._manoeuvre_best, bots.GreedyBot._manoeuvre_value
        first_values, first_index = best(GreedyBot(0), RULES, state, aircraft, asked)
        kept = [entry for entry in bots._DECIDED.values() if entry[3] is first_values]
        if not kept:
            continue  # scored one end at a time: not kept
        remembered = bots.GreedyBot(0)._scorer(RULES, state, aircraft).known
        again_values, again_index = best(GreedyBot(1), RULES, state, aircraft, asked)
        assert again_values is first_values and again_index == first_index
        if throttle:
            scorer = bots.GreedyBot(0)._scorer(RULES, state, aircraft)
            scorer.known = None
            best(GreedyBot(2), RULES, state, aircraft, asked)
            assert scorer.known is remembered is not None  # restored with the decision
        for table in (bots._DECIDED, bots._BLOCK_VALUES, bots._SEGMENT_BEST, bots._SCORERS_BY_READS, bots._SCORERS):
            table.clear()
        afresh_values, afresh_index = best(GreedyBot(3), RULES, state, aircraft, asked)
        assert afresh_values.tolist() == first_values.tolist() and afresh_index == first_index
        along = msgspec.structs.replace(aircraft, hex=Hex(aircraft.hex[0], aircraft.hex[1] + 1))
        moved = msgspec.structs.replace(state, aircraft={**state.aircraft, aircraft.id: along})
        best(GreedyBot(4), RULES, moved, along, asked)  # kept for the new hex, then looked up
        values, index = best(GreedyBot(5), RULES, moved, along, asked)
        each = [alone(GreedyBot(6), RULES, moved, along, value) for value in asked]
        assert values.tolist() == each and index == each.index(max(each))
        checked += 1
    assert checked > 30


class PlanChecker(GreedyBot):
    """The greedy bot, checking each plan decision it scores against :meth:`GreedyBot._step_value` of each plan alone
    (the values, and the option it takes: the first best);
    ``recalled`` counts those whose values were read from the Throttle decision's ends through a kept place of each
    (``_RECALLS``)."""

    recalled = 0

    def choose(self, session, player, options):
        from aero_events.rulesets.aeronautica import greedy_tables

        if isinstance(options[0], c.ManoeuvrePlan):
            state = session.state
            aircraft = state.aircraft[state.active]
            hits = sum(1 for entry in greedy_tables._RECALLS.values() if entry[4] is not None)
            values = self._step_values(RULES, state, aircraft, options)
            alone = [GreedyBot(0)._step_value(RULES, state, aircraft, o) for o in options]
            assert values == alone
            assert self._step_best(RULES, state, aircraft, options) == alone.index(max(alone))  # the first best
            known = self._scorer(RULES, state, aircraft).known
            PlanChecker.recalled += known is not None and hits == sum(
                1 for entry in greedy_tables._RECALLS.values() if entry[4] is not None) and hits > 0
        return super().choose(session, player, options)


def test_the_plans_read_from_the_throttle_decisions_ends_are_scored_as_each_alone_p16_p17():
    """Each plan (p.16-17) whose end the Throttle decision of the same move scored is read from there, by where each
    of its flights is among the ends kept (worked out once per pair of blocks and rows): the same value as
    :meth:`_step_value` of the plan alone; the same games played again read them through the kept places."""
    from aero_events.rulesets.aeronautica import greedy_tables

    greedy_tables._RECALLS.clear()
    for _ in range(2):
        for size, seed in ((1, 0), (1, 1), (2, 0)):
            session = GameSession(RULES, thunderbolts_v_dakkajets(size), dice=SeededDice(seed),
                                  game_id=f"greedy-plans-{size}-{seed}")
            play(session, {"imperium": PlanChecker(seed), "orks": PlanChecker(seed + 1)}, max_commands=600)
    assert any(entry[4] is not None for entry in greedy_tables._RECALLS.values())
    assert PlanChecker.recalled > 10


def test_a_block_with_no_stalled_end_takes_no_stall_term_and_scores_as_with_it_p18(decisions):
    """The Stall penalty (p.18) is 0.0 for an end that is not Stalled, and ``x - 0.0`` is ``x``: a block whose rows
    Stall no end (:func:`row_terms` says so, worked out once per block, rows and tables) is scored without taking
    the term, bit for bit as with it; blocks of both kinds are met (manoeuvres flown straight Stall, p.17)."""
    import numpy as np

    from aero_events.rulesets.aeronautica.bots import _stall_rows
    from aero_events.rulesets.aeronautica.greedy_tables import row_terms

    seen = set()
    for decision in _flying_decisions(decisions, 3):
        bot, state, aircraft = GreedyBot(0), decision.state, decision.aircraft
        scorer, profile = bot._scorer(RULES, state, aircraft), RULES.profile(aircraft)
        speeds = tuple(aircraft.speed + change for change in movement.throttle_options(
            profile, aircraft.speed, RULES.options.throttle_past_limits))
        numbers = tuple(decision.asked) if not decision.throttle else (aircraft.revealed,)
        block = flight_block(tuple(RULES.manoeuvres.get(n) if n is not None else None for n in numbers),
                             aircraft.facing, speeds)
        for rows in (_stall_rows("manoeuvre", profile.min_speed),
                     _stall_rows("throttle", profile.min_speed, profile.can_hover, aircraft.stalled),
                     _stall_rows("plan", 0, False, aircraft.stalled)):
            if not scorer.covers(aircraft.hex, block):
                continue
            terms = row_terms(block, rows, scorer)
            stalls = bool(np.any(terms[2][0] != 0.0))
            assert terms[4] is stalls
            here = aircraft.hex[0] * Q_STRIDE + aircraft.hex[1] * R_STRIDE
            taking = scorer.columns(block, here, terms[:4] + (True,))
            assert scorer.columns(block, here, terms).tolist() == taking.tolist()
            seen.add(stalls)
    assert seen == {True, False}
