"""The greedy bot scores whole decisions at once with numpy (issue 18, :mod:`.greedy_tables`): every value is
bit for bit the one its one-end-at-a-time definition gives (:meth:`GreedyBot._manoeuvre_value`,
``_throttle_value``, ``_step_value``; test_fast_paths.py checks the first against ``position_value``), so
it takes the same decisions; and its tables hold what the rules give: the room ahead on the board (p.17), the
expected damage of each weapon set (p.21-24)."""

from __future__ import annotations

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
    against :meth:`GreedyBot._step_value` of each option alone; ``checked`` counts them."""

    checked = 0

    def choose(self, session, player, options):
        if isinstance(options[0], c.AdjustAltitude):
            state = session.state
            aircraft = state.aircraft[state.active]
            if self._altitude_column(RULES, state, aircraft) is not None:
                values = self._step_values(RULES, state, aircraft, options)
                assert values == [GreedyBot(0)._step_value(RULES, state, aircraft, o) for o in options]
                AltitudeChecker.checked += 1
        return super().choose(session, player, options)


def test_the_altitude_scores_are_those_of_each_change_alone_p18():
    """Each Altitude change (p.18) at the end of the move, read from the values the Throttle decision of the same
    move worked out for that end (the enemies unchanged since), is :meth:`_step_value` of that change alone,
    exactly."""
    AltitudeChecker.checked = 0
    for size, seed in ((1, 0), (1, 1), (2, 0), (4, 0)):
        session = GameSession(RULES, thunderbolts_v_dakkajets(size), dice=SeededDice(seed),
                              game_id=f"greedy-altitude-{size}-{seed}")
        play(session, {"imperium": AltitudeChecker(seed), "orks": (AltitudeChecker, BaselineBot)[seed % 2](seed)},
             max_commands=600)
    assert AltitudeChecker.checked > 30


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
    for state, options in decisions[::3]:
        if not isinstance(options[0], (c.SetThrottle, c.ChooseManoeuvre)):
            continue
        aircraft = state.aircraft[options[0].aircraft]
        if aircraft.status != "flying":
            continue
        if isinstance(options[0], c.SetThrottle):
            def score(bot, state=state, aircraft=aircraft, options=options):
                return bot._throttle_values(RULES, state, aircraft, [o.change for o in options]).tolist()
        else:
            numbers = [o.manoeuvre for o in options if isinstance(o, c.ChooseManoeuvre) and o.aircraft == aircraft.id]

            def score(bot, state=state, aircraft=aircraft, numbers=numbers):
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


class _Session:
    """What :meth:`GreedyBot.choose` reads of a session: the ruleset and the state."""

    def __init__(self, state):
        self.ruleset, self.state = RULES, state
