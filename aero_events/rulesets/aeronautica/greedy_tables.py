"""The greedy bot's arithmetic over arrays (issue 18): every end of every flight of a decision scored at once.

:class:`~.bots.GreedyBot` scores an end of a flight by the best, over the Altitude changes (p.18), of the damage
it can expect to deal less the damage it can expect to take (p.21-24), less the pull towards the nearest enemy
and the penalties of :func:`~.bots._score`. :meth:`~.bots.GreedyBot._end_value` does this one end at a time;
:class:`EndScorer` does it for an array of ends with numpy, with the same IEEE operations in the same order
(the enemies in turn, then the penalties; a penalty that does not apply subtracts 0.0, and an Altitude change
the Speed does not allow comes out -inf), so every value is bit for bit the one ``_end_value`` gives and a
decision takes the same option (numpy's ``argmax`` is the first maximum, as ``max`` is). A decision costs a
few dozen array operations whatever its size, so what does not change between decisions is kept: the terms
of each row of a block (:func:`row_terms`), a block's answer where no flight can leave the board
(:meth:`FlightBlock.crossing_off_board`), and the values a scorer worked out last (:meth:`EndScorer.remember`).

The expected damage of a weapon set depends only on the range band and Fire Arcs of the offset (the geometry
classes of :func:`geometry_classes`), whether the target is above, level or below, the Altitude difference and
whether the target evades (p.21-24): :func:`damage_grid` keeps it in a small array per weapon set.

Hexes are integers in one frame (:data:`Q_STRIDE`), so that an end's offset to each enemy, the geometry class
and distance of that offset (:func:`frame_geometry`) and the room ahead of the end (:class:`RoomTable`) are
each one array lookup. The flights of a manoeuvre at a Speed are worked out once from the origin
(:class:`FlightPart`, :class:`FlightBlock`) and moved to where the aircraft is; facing 0 only, the other
facings being the same picture turned (:meth:`FlightPart.turned`, :meth:`FlightBlock.turned`, as
:func:`movement.reach` does it).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate
from typing import Any

import numpy as np

from aero_events.hexgrid import MAX_RANGE, Hex, Pose, arcs_containing, range_band

from . import movement

_ARC_NAMES = {"FRONT": "front", "REAR": "rear", "LEFT": "left", "RIGHT": "right"}
#: More Speeds than the tables of :class:`EndScorer` are asked for (the dial stops at 9, p.15).
SPEEDS = movement.MAX_DIAL_SPEED + 7
#: Room ahead beyond any Speed's need (the dial stops at 9, p.15): the edge penalty is 0 from there on.
_ROOMS = SPEEDS + 1
#: The offsets a geometry table covers: every hex within range (p.22) of the firer.
_SPAN = MAX_RANGE
#: The Altitude changes of any Speed (p.18): each Speed allows some of them.
CHANGES = np.array(sorted({change for speed in range(movement.MAX_DIAL_SPEED + 1)
                           for change in movement.altitude_options(speed)}), dtype=np.int64)


@lru_cache(maxsize=1 << 15)
def geometry(dq: int, dr: int, facing: int) -> tuple[str | None, frozenset[str]]:
    """The range band's name (p.22; None out of range) and :func:`arc_names` of a target ``(dq, dr)`` hexes
    from a firer facing ``facing``."""
    band = range_band((abs(dq) + abs(dr) + abs(dq + dr)) // 2)
    return (None, frozenset()) if band is None else (band.name, arc_names(dq, dr, facing))


@lru_cache(maxsize=4096)
def arc_names(dq: int, dr: int, facing: int) -> frozenset[str]:
    """The Fire Arcs (p.21) of a firer facing ``facing`` that hold a target ``(dq, dr)`` hexes away."""
    return _names_of(arcs_containing(Pose(Hex(0, 0), facing), Hex(dq, dr)))


@lru_cache(maxsize=64)
def _names_of(arcs: frozenset[Any]) -> frozenset[str]:
    """The names :func:`arc_names` gives a set of Fire Arcs (a handful of sets recur: kept)."""
    return frozenset(_ARC_NAMES[a.name] for a in arcs if a.name in _ARC_NAMES)


@lru_cache(maxsize=1)
def geometry_classes() -> tuple[np.ndarray, tuple[tuple[str, frozenset[str]], ...]]:
    """The class of every offset within range and facing: ``table[dq + MAX_RANGE, dr + MAX_RANGE, facing]``
    indexes ``classes``, the distinct (range band, Fire Arcs) of :func:`geometry`; class 0 is out of range
    (the firer's own hex and beyond ``MAX_RANGE``, p.22)."""
    table = np.zeros((2 * _SPAN + 1, 2 * _SPAN + 1, 6), dtype=np.intp)
    classes: dict[tuple[str | None, frozenset[str]], int] = {(None, frozenset()): 0}
    offsets = [(dq, dr) for dq in range(-_SPAN, _SPAN + 1) for dr in range(-_SPAN, _SPAN + 1)
               if 0 < (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= MAX_RANGE]
    # A firer facing f sees a target as a firer facing 0 sees it with the whole picture turned f hexsides back
    # (range and Fire Arcs are counted from the facing, p.21-22): geometry() facing 0 only, the rest looked up
    # (test_greedy_fast.py checks every entry against geometry()).
    ahead = {offset: geometry(offset[0], offset[1], 0) for offset in offsets}
    for dq, dr in offsets:
        for facing in range(6):
            a, b, c, d = _TURNS[-facing % 6]
            key = ahead[(a * dq + b * dr, c * dq + d * dr)]
            if key[0] is not None:
                table[dq + _SPAN, dr + _SPAN, facing] = classes.setdefault(key, len(classes))
    return table, tuple(classes)[1:]


def zero_hit_difference(chance: Any) -> int:
    """The least Altitude difference at which nothing hits on 5+ (p.22, p.7): the last slot of
    :func:`damage_grid`, shared by every greater difference and by Altitude 0."""
    difference = 0
    while chance(5, -difference) > 0:
        difference += 1
    return difference


def damage_grid(weapon_terms: Any, chance: Any) -> np.ndarray:
    """``grid[class, above + 1, difference, evading]``: the expected damage of a weapon set at a target of
    geometry ``class`` (:func:`geometry_classes`), ``above`` the sign of the target's Altitude less the firer's,
    ``difference`` the Altitude difference (the last slot: nothing hits, or an Altitude is 0), ``evading`` the
    target Stalled or Spinning; ``weapon_terms(band, arcs, climb)`` are the (Firepower dice, chance of a
    Damage roll) of the weapons that bear. Summed as :meth:`~.bots.GreedyBot._expected_damage` sums them."""
    _, classes = geometry_classes()
    last = zero_hit_difference(chance)
    grid = np.zeros((len(classes) + 1, 3, last + 1, 2), dtype=np.float64)
    for index, (band, arcs) in enumerate(classes, start=1):
        for above in (-1, 0, 1):
            terms = weapon_terms(band, arcs, above)
            for difference in range(last):
                for evading in (0, 1):
                    hit = chance(5, -difference - evading)
                    if hit == 0:
                        continue
                    total = 0.0
                    for dice, damage in terms:
                        total += dice * hit * damage
                    grid[index, above + 1, difference, evading] = total
    return grid


# ---------------------------------------------------------------- the board


class RoomTable:
    """How many hexes straight ahead of each (hex, facing) of a board stay on it, up to ``limit``
    (:func:`~.baseline_bot._room_ahead`), over the board's bounding box and ``margin`` hexes around it (where the
    flights of an aircraft on the board end), flat in the frame of :data:`Q_STRIDE`: (q, r, f) is at
    ``q * Q_STRIDE + r * R_STRIDE + f - origin``; ``on`` likewise: whether the hex is on the board."""

    def __init__(self, board: Any, limit: int, margin: int = movement.MAX_DIAL_SPEED + 1):
        self.board = board
        columns = board.columns
        self.q0, self.r0 = -margin, -((columns - 1) >> 1) - margin
        width = columns + 2 * margin
        height = max(board.rows, board.odd_column_rows) - self.r0 + margin
        # two hexes of the table lie at most FRAME_SPAN apart along each axis
        self.usable = width <= FRAME_SPAN and height <= FRAME_SPAN
        qs, rs = np.meshgrid(np.arange(self.q0, self.q0 + width), np.arange(self.r0, self.r0 + height),
                             indexing="ij")
        on = on_board(board, qs, rs)
        framed = np.zeros((width, Q_STRIDE // R_STRIDE, R_STRIDE), dtype=bool)
        framed[:, :height, :] = on[:, :, None]
        self.on = framed.reshape(-1)
        room = np.zeros((width, Q_STRIDE // R_STRIDE, R_STRIDE), dtype=np.int64)
        # on the board, with ``limit`` hexes off it all round: the hexes ``step`` ahead of every hex of the table
        # are one slice (beyond the table is off the board)
        padded = np.zeros((width + 2 * limit, height + 2 * limit), dtype=bool)
        padded[limit:limit + width, limit:limit + height] = on
        for facing in range(6):
            dq, dr = movement.DIRECTIONS[facing]
            alive = np.ones(qs.shape, dtype=bool)
            ahead = np.zeros(qs.shape, dtype=np.int64)
            for step in range(1, limit + 1):
                q, r = limit + step * dq, limit + step * dr
                alive &= padded[q:q + width, r:r + height]
                ahead += alive
            room[:, :height, facing] = ahead
        self.room = room.reshape(-1)
        #: ``room`` up to ``_ROOMS``, as the edge penalty reads it (:func:`compact`)
        self.room_clipped = compact(np.minimum(self.room, _ROOMS))
        self.origin = self.q0 * Q_STRIDE + self.r0 * R_STRIDE
        self.width, self.height = width, height

    def covers(self, hex: Hex, reach: int) -> bool:
        """Whether every hex within ``reach`` of ``hex`` along each axis is in the table."""
        q, r = hex
        return (self.usable and self.q0 <= q - reach and q + reach < self.q0 + self.width
                and self.r0 <= r - reach and r + reach < self.r0 + self.height)


def on_board(board: Any, q: np.ndarray, r: np.ndarray) -> np.ndarray:
    """:meth:`Board.contains` of each (q, r): a complete hex of the Area of Engagement (p.9, p.17)."""
    row = r + (q >> 1)
    rows = np.where(q & 1, board.odd_column_rows, board.rows)
    return (q >= 0) & (q < board.columns) & (row >= 0) & (row < rows)


# ---------------------------------------------------------------- the flights


@lru_cache(maxsize=4096)
def reach_ends(manoeuvre: Any, facing: int, speed: int
               ) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[tuple[int, int] | None, int, bool, int], ...]]:
    """The flights of a manoeuvre from the origin (:func:`movement.reach`; straight ahead when there is none
    or it is too slow to complete, p.13, p.17): the hexes any of them crosses, and for each distinct flight its
    end (None: it stays where it is), final facing, whether it is the manoeuvre's own, and the hexes it
    crosses as bits of that list, so that a flight is on the board where all its bits are."""
    plans = movement.reach(manoeuvre, facing, speed) if manoeuvre is not None else ()
    if not plans:
        plans = (movement.straight(Hex(0, 0), facing, speed),)
    cells: dict[tuple[int, int], int] = {}
    distinct: dict[tuple[tuple[int, int] | None, int, bool, int], None] = {}
    for flight in plans:
        crossed = 0
        for cell in flight.path:
            crossed |= 1 << cells.setdefault((cell[0], cell[1]), len(cells))
        end = (flight.path[-1][0], flight.path[-1][1]) if flight.path else None
        distinct[(end, flight.final_facing, bool(flight.stage_hexes), crossed)] = None
    return tuple(cells), tuple(distinct)


class FlightPart(tuple):
    """Flights from the origin, flown at one Speed, as arrays: ``(end_q, end_r, final_facing, staged, speed,
    cells_q, cells_r, crosses, reach, flights, cells, steps)``; ``crosses[i]`` the indexes into the cells of the
    hexes flight ``i`` crosses, padded with -1 to ``SPEEDS`` columns at least (a flight crosses a hex per Speed
    point, p.16); ``reach`` the farthest any of its hexes lies from the origin along an axis; ``flights`` the rows
    end_q, end_r, final facing, staged (0 or 1) and Speed of each flight, ``cells`` the rows cells_q and
    cells_r, as one array each (the first fields are those rows), and ``steps`` the transpose of ``crosses``
    (a row per step), so that a block joins them at once."""

    __slots__ = ()

    @classmethod
    def of(cls, flights: Sequence[tuple[int, int, int, bool, Sequence[tuple[int, int]]]], speed: int) -> FlightPart:
        """The part of ``flights``: (end q, end r, final facing, staged, the hexes crossed) each."""
        cells: dict[tuple[int, int], int] = {}
        rows = [[cells.setdefault(cell, len(cells)) for cell in crossed] for *_, crossed in flights]
        width = max([len(row) for row in rows] + [SPEEDS])
        crosses = np.array([row + [-1] * (width - len(row)) for row in rows], dtype=np.intp).reshape(len(rows), width)
        packed = np.array([[flight[0] for flight in flights], [flight[1] for flight in flights],
                           [flight[2] for flight in flights], [int(flight[3]) for flight in flights],
                           [speed] * len(flights)], dtype=np.int64).reshape(5, len(flights))
        packed_cells = np.array([[cell[0] for cell in cells], [cell[1] for cell in cells]],
                                dtype=np.int64).reshape(2, len(cells))
        return cls((packed[0], packed[1], packed[2], packed[3].astype(bool), speed, packed_cells[0], packed_cells[1],
                    crosses, max([abs(value) for flight in flights for value in flight[:2]]
                                 + [abs(value) for cell in cells for value in cell] + [0]), packed, packed_cells,
                    np.ascontiguousarray(crosses.T)))

    def turned(self, steps: int) -> FlightPart:
        """The same flights with the whole picture turned ``steps`` hexsides clockwise about the origin
        (:meth:`Hex.rotate`, facings by :func:`~.manoeuvres.turn`), in the same order: the hexes crossed keep
        their order of first meeting (the turn maps distinct hexes to distinct hexes), so ``crosses`` is the
        same."""
        turn = _TURN_MATRICES[steps % 6]
        packed = self[9]
        ends, cells = turn @ packed[:2], turn @ self[10]  # whole numbers: exact
        flights = np.concatenate((ends, (packed[2:3] + steps) % 6, packed[3:]))
        reach = max(int(np.abs(ends).max(initial=0)), int(np.abs(cells).max(initial=0)))
        return FlightPart((flights[0], flights[1], flights[2], self[3], self[4], cells[0], cells[1], self[7], reach,
                           flights, cells, self[11]))


#: (q, r) turned k hexsides clockwise about the origin (:meth:`Hex.rotate`) is (a q + b r, c q + d r): (a, b, c, d).
#: Read off :meth:`Hex.rotate` of the two unit hexes (it is linear in q and r): one rule of turning, not two.
_TURNS = tuple((turned_q[0], turned_r[0], turned_q[1], turned_r[1])
               for turned_q, turned_r in ((Hex(1, 0).rotate((0, 0), steps), Hex(0, 1).rotate((0, 0), steps))
                                          for steps in range(6)))
#: The same as matrices: ``_TURN_MATRICES[k] @ (q, r)``.
_TURN_MATRICES = tuple(np.array(turn, dtype=np.int64).reshape(2, 2) for turn in _TURNS)


@lru_cache(maxsize=4096)
def reach_part(manoeuvre: Any, facing: int, speed: int) -> FlightPart:
    """The :class:`FlightPart` of every way of flying ``manoeuvre`` at ``speed`` from the origin facing
    ``facing`` (:func:`movement.reach`), or of flying straight ahead (p.13) when it is None or too slow to
    complete (p.17): the flights :func:`reach_ends` keeps once each, some maybe more than once (the same
    best). A manoeuvre is flown the same whichever way the aircraft faces (p.16; :func:`movement.reach` turns
    the plans facing 0, in the same order, and straight ahead is the same turned): facings 1 to 5 are the part
    facing 0 turned (:meth:`FlightPart.turned`; test_greedy_fast.py checks it against :func:`reach_part_of`)."""
    if type(facing) is int and 1 <= facing <= 5:
        return reach_part(manoeuvre, 0, speed).turned(facing)
    return reach_part_of(manoeuvre, facing, speed)


def reach_part_of(manoeuvre: Any, facing: int, speed: int) -> FlightPart:
    """:func:`reach_part`, worked out from :func:`movement.reach` (or :func:`movement.straight`)."""
    plans = movement.reach(manoeuvre, facing, speed) if manoeuvre is not None else ()
    if not plans:
        plans = (movement.straight(Hex(0, 0), facing, speed),)
    return FlightPart.of([(flight.path[-1][0] if flight.path else 0, flight.path[-1][1] if flight.path else 0,
                           flight.final_facing, bool(flight.stage_hexes), [(cell[0], cell[1]) for cell in flight.path])
                          for flight in plans], speed)


class FlightBlock:
    """:class:`FlightPart` s one after the other, each a segment (the flights of one manoeuvre at one Speed, or
    one plan): ``end_q``/``end_r`` the end of each flight, ``key`` its frame index (:data:`Q_STRIDE`),
    ``facing`` its final facing, ``staged`` flown as the manoeuvre's own, ``speed`` flown at; ``cells_q`` /
    ``cells_r`` the hexes the flights cross, ``cells_key`` their frame indexes, ``crosses[:, i]`` the indexes
    of the hexes flight ``i`` crosses (padded with ``len(cells_q)``); ``starts`` where each segment starts;
    ``reach`` the farthest any hex lies from the origin along an axis; ``fastest`` the greatest Speed;
    ``distinct_*`` the key, key plus and less facing, and ``2 * speed + staged`` of the distinct flights by
    end, facing, Speed and staged, ``inverse`` the distinct flight of each flight."""

    __slots__ = ("cells", "cells_key", "cells_q", "cells_r", "crosses", "distinct_code", "distinct_facing",
                 "distinct_key", "distinct_key_facing", "distinct_key_less_facing", "distinct_speed_staged", "end_q",
                 "end_r", "facing", "fastest", "first", "flights", "inverse", "key", "key_facing", "key_less_facing",
                 "reach", "spans", "speed", "staged", "starts", "stays_on")

    def __init__(self, parts: Sequence[FlightPart]):
        sizes = [len(part[0]) for part in parts]
        self.starts = np.array(list(accumulate(sizes[:-1], initial=0)), dtype=np.intp)
        # every part's rows joined at once (FlightPart: flights, cells): the fields are rows of the two
        flights = self.flights = np.concatenate([part[9] for part in parts], axis=1)
        self.end_q, self.end_r, self.facing, staged, self.speed = flights
        self.staged = staged.astype(bool)
        cells = self.cells = np.concatenate([part[10] for part in parts], axis=1)
        self.cells_q, self.cells_r = cells
        longest = max([part[7].shape[1] for part in parts])
        steps = np.concatenate([part[11] if part[11].shape[0] == longest else np.pad(
            part[11], ((0, longest - part[11].shape[0]), (0, 0)), constant_values=-1) for part in parts], axis=1)
        first_cell = np.repeat(np.array(list(accumulate([len(part[5]) for part in parts[:-1]], initial=0)),
                                        dtype=np.int64), sizes)
        # by step of the flights, a row each: the check of every flight is then a few long element-wise ands
        self.crosses = np.where(steps < 0, len(self.cells_q), steps + first_cell)
        # every integer of a flight that is a sum of its fields times constants, at once (_FLIGHT_SUMS): exact
        derived = _FLIGHT_SUMS @ flights
        self.key, self.key_facing, self.key_less_facing, _, codes, _, _ = derived
        self.cells_key = _CELL_KEY @ cells
        self.fastest = int(self.speed.max())
        # the distinct (end, facing, Speed, staged): many flights end alike
        _, first, self.inverse = _unique(codes)
        self._take_distinct(derived, first)
        self.reach = max([part[8] for part in parts])
        self.stays_on = np.zeros(len(self.key), dtype=bool)  # no flight crosses a hex off the board
        self.stays_on.flags.writeable = False
        #: The columns the hexes crossed lie in from the origin's (least, greatest), and their rows from the
        #: origin's row (least, greatest) when the origin's column is even and when it is odd (the row of
        #: (q, r) is ``r + (q >> 1)``, and ``(q + dq) >> 1`` is ``(q >> 1) + ((q % 2 + dq) >> 1)``); None when
        #: no flight crosses a hex.
        self.spans = _extent(cells)[0]

    def _take_distinct(self, derived: np.ndarray, first: np.ndarray) -> None:
        """The ``distinct_*`` fields: the columns ``first`` (the first flight of each distinct one, in the distinct
        order) of the per-flight integers ``derived`` (:data:`_FLIGHT_SUMS`)."""
        self.first = first
        (self.distinct_key, self.distinct_key_facing, self.distinct_key_less_facing, self.distinct_speed_staged, _,
         self.distinct_code, self.distinct_facing) = derived.take(first, axis=1)

    def turned(self, steps: int) -> FlightBlock:
        """The same block with the whole picture turned ``steps`` hexsides clockwise about the origin: what
        :class:`FlightBlock` makes of its parts each turned (:meth:`FlightPart.turned`, as :func:`reach_part` turns
        them), field by field (test_greedy_fast.py checks it), with fewer array operations: the flights and hexes
        stay in their order, so the hexes each crosses, the segments, Speeds and staged flags are the same; a turn
        maps distinct flights to distinct flights, so the same flights are the first of each, only sorted anew."""
        turn = _TURN_MATRICES[steps % 6]
        flights0 = self.flights
        block = FlightBlock.__new__(FlightBlock)
        ends, cells = turn @ flights0[:2], turn @ self.cells  # whole numbers: exact
        flights = block.flights = np.concatenate((ends, (flights0[2:3] + steps) % 6, flights0[3:]))
        block.end_q, block.end_r, block.facing = flights[0], flights[1], flights[2]
        block.staged, block.speed, block.starts, block.crosses = self.staged, self.speed, self.starts, self.crosses
        block.fastest, block.stays_on = self.fastest, self.stays_on
        block.cells = cells
        block.cells_q, block.cells_r = cells
        block.cells_key = _CELL_KEY @ cells
        derived = _FLIGHT_SUMS @ flights
        block.key, block.key_facing, block.key_less_facing, _, codes, _, _ = derived
        order = codes.take(self.first).argsort()  # the distinct codes: no two alike
        rank = np.empty(len(order), dtype=np.intp)
        rank[order] = np.arange(len(order))
        block.inverse = rank.take(self.inverse)
        block._take_distinct(derived, self.first.take(order))
        # a flight ends in the last hex it crosses, or where it starts: the hexes crossed give the reach
        block.spans, block.reach = _extent(cells)
        return block

    def crossing_off_board(self, board: Any, hex: Hex, rooms: RoomTable | None = None) -> np.ndarray:
        """Which flights flown from ``hex`` cross a hex off the board (p.17); from ``rooms`` when it covers
        them. None does where the columns and the rows (of an odd-q board, :func:`on_board`) the hexes crossed
        fall in are all on the board (:attr:`spans`)."""
        q, r = hex
        spans = self.spans
        if spans is None:
            return self.stays_on  # no flight crosses a hex
        q_low, q_high, row_spans = spans
        if q + q_low >= 0 and q + q_high < board.columns:
            row_low, row_high = row_spans[q & 1]
            row = r + (q >> 1)
            if row + row_low >= 0 and row + row_high < min(board.rows, board.odd_column_rows):
                return self.stays_on
        if rooms is not None and rooms.covers(hex, self.reach):
            cells_on = rooms.on.take(self.cells_key + (hex[0] * Q_STRIDE + hex[1] * R_STRIDE - rooms.origin))
        else:
            cells_on = on_board(board, self.cells_q + hex[0], self.cells_r + hex[1])
        if cells_on.all():
            return np.zeros(len(self.key), dtype=bool)
        return ~np.logical_and.reduce(np.append(cells_on, True).take(self.crosses), axis=0)


def _extent(cells: np.ndarray) -> tuple[tuple | None, int]:
    """:attr:`FlightBlock.spans` of the hexes crossed (``cells``: the rows q and r), and the farthest any lies from the
    origin along an axis (0: none), from one (4, n) array: q, r and the rows ``r + (q >> 1)`` and ``r + ((q + 1) >> 1)``
    (``(q + 1) >> 1`` is ``q - (q >> 1)``), its least and greatest along each row."""
    count = cells.shape[1]
    if not count:
        return None, 0
    rows = np.empty((4, count), dtype=np.int64)
    rows[:2] = cells
    np.right_shift(cells[0], 1, out=rows[2])
    np.subtract(cells[0], rows[2], out=rows[3])
    rows[2:] += cells[1]
    low, high = np.minimum.reduce(rows, axis=1).tolist(), np.maximum.reduce(rows, axis=1).tolist()
    return (low[0], high[0], ((low[2], high[2]), (low[3], high[3]))), max(-low[0], high[0], -low[1], high[1])


def _unique(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.unique(values, return_index=True, return_inverse=True)`` of a 1-D array: the sorted distinct values,
    the index of the first of each, and the distinct value of each (by a stable sort, as numpy does it)."""
    order = values.argsort(kind="stable")
    ordered = values.take(order)
    new = np.empty(len(values), dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    inverse = np.empty(len(values), dtype=np.intp)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], order[new], inverse


@lru_cache(maxsize=4096)
def flight_block(manoeuvres: tuple[Any, ...], facing: int, speeds: tuple[int, ...]) -> FlightBlock:
    """The :class:`FlightBlock` of every manoeuvre of ``manoeuvres`` (None: straight ahead) at every Speed of
    ``speeds``, a segment each, manoeuvre by manoeuvre, Speed by Speed. Facings 1 to 5: the block facing 0 turned
    (:meth:`FlightBlock.turned`), as its parts would be (:func:`reach_part`)."""
    if type(facing) is int and 1 <= facing <= 5:
        return flight_block(manoeuvres, 0, speeds).turned(facing)
    return flight_block_of(manoeuvres, facing, speeds)


def flight_block_of(manoeuvres: tuple[Any, ...], facing: int, speeds: tuple[int, ...]) -> FlightBlock:
    """:func:`flight_block`, joined from its parts."""
    return FlightBlock([reach_part(manoeuvre, facing, speed) for manoeuvre in manoeuvres for speed in speeds])


# ---------------------------------------------------------------- the frame

#: A hex (q, r) facing f is ``q * Q_STRIDE + r * R_STRIDE + f`` in the flat tables below, so that offsets and
#: facings are added and subtracted as one integer.
R_STRIDE = 6
#: Room for ``2 * FRAME_SPAN + 1`` values of r.
Q_STRIDE = R_STRIDE * 208
#: The largest offset along an axis the geometry tables hold (beyond any board's reach).
FRAME_SPAN = 100

#: Rows of (end_q, end_r, final facing, staged, Speed) weights giving a flight's frame index (``key``), the key
#: plus and less its facing, ``2 * Speed + staged``, its code among the distinct flights ((key * 8 + facing) *
#: 4 SPEEDS + 2 * Speed + staged), its end, facing and row as one integer ((key * 8 + facing) * 2 SPEEDS,
#: :meth:`EndScorer.remember`) and its facing: :class:`FlightBlock` multiplies them by its flights at once.
_FLIGHT_SUMS = np.array([[Q_STRIDE, R_STRIDE, 0, 0, 0], [Q_STRIDE, R_STRIDE, 1, 0, 0], [Q_STRIDE, R_STRIDE, -1, 0, 0],
                         [0, 0, 0, 1, 2], [Q_STRIDE * 32 * SPEEDS, R_STRIDE * 32 * SPEEDS, 4 * SPEEDS, 1, 2],
                         [Q_STRIDE * 16 * SPEEDS, R_STRIDE * 16 * SPEEDS, 2 * SPEEDS, 0, 0], [0, 0, 1, 0, 0]],
                        dtype=np.int64)
#: (cells_q, cells_r) weights of a hex's frame index.
_CELL_KEY = np.array([Q_STRIDE, R_STRIDE], dtype=np.int64)


@lru_cache(maxsize=1)
def frame_geometry() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(distances, classes, classes times ``2 * len(CHANGES)``) of every offset up to ``FRAME_SPAN`` and
    facing, flat: the entry of a target (dq, dr) from a firer facing f is at ``(dq + FRAME_SPAN) * Q_STRIDE +
    (dr + FRAME_SPAN) * R_STRIDE + f``; the distance in hexes, and the :func:`geometry_classes` class (0 out of
    range, p.22), also as the start of its row in :class:`EnemyTerms` ``taken``; each in the least unsigned
    integer type that holds it (:func:`_least_type`)."""
    table, _ = geometry_classes()
    span = FRAME_SPAN
    dq, dr = np.meshgrid(np.arange(-span, span + 1), np.arange(-span, span + 1), indexing="ij")
    gap = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    size = 2 * span + 1
    near = slice(span - _SPAN, span + _SPAN + 1)
    shape = (size, Q_STRIDE // R_STRIDE, R_STRIDE)
    distances = np.zeros(shape, dtype=_least_type(gap))
    distances[:, :size, :] = gap[:, :, None]
    taken = table * (2 * len(CHANGES))
    classes, classes_taken = np.zeros(shape, dtype=_least_type(table)), np.zeros(shape, dtype=_least_type(taken))
    classes[near, near, :6] = table
    classes_taken[near, near, :6] = taken
    return distances.reshape(-1), classes.reshape(-1), classes_taken.reshape(-1)


def _least_type(values: np.ndarray) -> np.dtype:
    """The least unsigned integer type that holds ``values`` (whole numbers, none negative): the same values, so
    what is read from a table of them is the same (numpy adds them to intp indexes as intp, multiplies them by a
    float as float64), in an eighth of the memory of int64 (the three frame tables: 6 MB -> 0.75 MB)."""
    return np.min_scalar_type(int(values.max(initial=0)))


def compact(table: np.ndarray) -> np.ndarray:
    """``table`` in :func:`_least_type`."""
    return table.astype(_least_type(table))


def frame_origin(q: int, r: int) -> int:
    """The flat index of a target at (q, r) in :func:`frame_geometry`, less that of the firer's hex."""
    return (q + FRAME_SPAN) * Q_STRIDE + (r + FRAME_SPAN) * R_STRIDE


# ---------------------------------------------------------------- scoring


class EnemyTerms:
    """What :class:`EndScorer` needs of one enemy: the frame index of its hex for my fire (``mine_at``: less an
    end's index less its facing gives the entry of :func:`frame_geometry`) and of my hex for its fire
    (``theirs_at``: plus an end's index), the weights of its threat and exposure (``defence``, ``worth``), and
    the damage each side deals by Altitude change and geometry class, times those weights (``dealt[k, class]``
    times ``worth``, ``taken[class * 2K + evading * K + k]`` times ``defence``; kept by what they are worked out
    from, so that the enemies of many scorers share them)."""

    __slots__ = ("dealt", "defence", "hex", "less_taken", "mine_at", "taken", "theirs_at", "worth")

    def __init__(self, q: int, r: int, facing: int, altitude: int, evading: bool, defence: float, worth: float,
                 mine: np.ndarray, theirs: np.ndarray, start_altitude: int):
        self.hex = (q, r)  # a plain tuple of whole numbers: the garbage collector stops tracking it
        self.mine_at = (q + FRAME_SPAN) * Q_STRIDE + (r + FRAME_SPAN) * R_STRIDE  # frame_origin(q, r)
        self.theirs_at = (FRAME_SPAN - q) * Q_STRIDE + (FRAME_SPAN - r) * R_STRIDE + facing
        self.defence, self.worth = defence, worth
        self.dealt, self.taken, self.less_taken = _weighted_damage(mine, theirs, altitude, evading, start_altitude,
                                                                   worth, defence)


_ENEMY_DAMAGE: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}


def _enemy_damage(mine: np.ndarray, theirs: np.ndarray, altitude: int, evading: bool, start_altitude: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(dealt, taken) of :class:`EnemyTerms` before the weights; kept by the grids' identity and the Altitudes."""
    key = (id(mine), id(theirs), altitude, evading, start_altitude)
    known = _ENEMY_DAMAGE.get(key)
    if known is not None and known[0] is mine and known[1] is theirs:
        return known[2], known[3]
    if len(_ENEMY_DAMAGE) > 1 << 14:
        _ENEMY_DAMAGE.clear()
    altitudes = start_altitude + CHANGES
    last = mine.shape[2] - 1
    difference = np.minimum(np.abs(altitudes - altitude), last)
    if altitude == 0:
        difference[:] = last
    difference[altitudes == 0] = last
    above = np.sign(altitude - altitudes) + 1
    dealt = np.ascontiguousarray(mine[:, above, difference, int(evading)].T)
    taken = np.ascontiguousarray(theirs[:, 2 - above, difference, :].transpose(0, 2, 1)).reshape(-1)
    _ENEMY_DAMAGE[key] = (mine, theirs, dealt, taken)
    return dealt, taken


#: (the key of :func:`_enemy_damage`, worth, defence) -> (mine, theirs, :func:`_weighted_damage`).
_WEIGHTED_DAMAGE: dict[tuple, tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}


def _weighted_damage(mine: np.ndarray, theirs: np.ndarray, altitude: int, evading: bool, start_altitude: int,
                     worth: float, defence: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_enemy_damage` times ``worth`` and ``defence``, entry by entry (the products the scores add), and
    the damage taken negated (``-(defence * x)``: the term a score less it adds, ``v - y`` being ``v + -y``);
    kept likewise."""
    key = (id(mine), id(theirs), altitude, evading, start_altitude, worth, defence)
    known = _WEIGHTED_DAMAGE.get(key)
    if known is not None and known[0] is mine and known[1] is theirs:
        return known[2]
    if len(_WEIGHTED_DAMAGE) > 1 << 14:
        _WEIGHTED_DAMAGE.clear()
    dealt, taken = _enemy_damage(mine, theirs, altitude, evading, start_altitude)
    dealt, taken = worth * dealt, defence * taken
    weighted = (dealt, taken, -taken)
    _WEIGHTED_DAMAGE[key] = (mine, theirs, weighted)
    return weighted


#: (ids of the enemies' dealt and negated taken tables) -> (those tables, :func:`_stacked_damage`).
_STACKED_DAMAGE: dict[tuple, tuple[tuple, tuple]] = {}


def _stacked_damage(enemies: Sequence[EnemyTerms]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every enemy's terms in one flat table, enemy by enemy: the damage I deal it (``dealt[k, class]``) and
    the damage it deals me, negated (``less_taken``); where each enemy's row ``k`` of ``dealt`` starts
    (``(enemies, K, 1)``) and where its ``less_taken`` starts (``(enemies, 1)``). Kept by the tables' identity
    (many scorers share them)."""
    tables = tuple([enemy.dealt for enemy in enemies] + [enemy.less_taken for enemy in enemies])
    key = tuple(map(id, tables))
    known = _STACKED_DAMAGE.get(key)
    if known is not None and all(map(operator.is_, known[0], tables)):
        return known[1]
    if len(_STACKED_DAMAGE) > 1 << 12:
        _STACKED_DAMAGE.clear()
    count = len(enemies)
    rows, width = tables[0].shape
    stacked = (np.concatenate([part for enemy in enemies for part in (enemy.dealt, enemy.less_taken)], axis=None),
               *_stacked_starts(count, rows, width, len(tables[count])))
    _STACKED_DAMAGE[key] = (tables, stacked)
    return stacked


@lru_cache(maxsize=64)
def _stacked_starts(count: int, rows: int, width: int, taken: int) -> tuple[np.ndarray, np.ndarray]:
    """Where each row of each enemy's ``dealt`` starts in :func:`_stacked_damage`'s table (``(count, rows, 1)``)
    and where each enemy's ``less_taken`` does (``(count, 1)``): ``rows * width`` dealt entries, then ``taken``."""
    starts = np.arange(count) * (rows * width + taken)
    return starts[:, None, None] + (np.arange(rows) * width)[None, :, None], (starts + rows * width)[:, None]


class EndScorer:
    """:meth:`~.bots.GreedyBot._end_value` of arrays of ends (see the module docstring), for one aircraft in
    one state: ``enemies`` (:class:`EnemyTerms`, in the order of the state), ``closing`` the pull per hex
    towards the nearest enemy, and the terms of :func:`~.bots._score_terms`. The terms of an end that depend
    only on its Speed and whether it is Stalled are columns of tables indexed by ``2 * Speed + stalled`` (the
    end's *row*): each penalty is 0.0 where it does not apply (``x - 0.0`` is ``x``), an Altitude change the
    Speed does not allow is -inf. Values are laid out an Altitude change by an end (``(len(CHANGES), ends)``),
    so that the best over the changes is an element-wise maximum of a few rows."""

    # slots: one object for the garbage collector to walk, not two (thousands are kept, :mod:`.bots`)
    __slots__ = ("closing", "crashes", "crashing", "dealt", "dealt_rows", "edge_penalty", "edging", "enemies",
                 "enemies_inside", "known", "min_speed", "mine_at", "off_board_value", "rooms", "row_terms", "table",
                 "taken", "taken_at", "taken_from", "theirs_at")

    def __init__(self, enemies: list[EnemyTerms], closing: float, rooms: RoomTable, start_altitude: int,
                 stall_penalty: float | None, crash_penalty: float, breaking_up: float, edge_penalty: float,
                 max_altitude: int, min_speed: int, max_speed: int, off_board_value: float,
                 tables: tuple | None = None):
        self.enemies, self.closing, self.rooms = enemies, closing, rooms
        if len(enemies) > 1:
            self.mine_at, self.theirs_at = np.array([enemy.mine_at for enemy in enemies] + [
                enemy.theirs_at for enemy in enemies], dtype=np.int64).reshape(2, len(enemies), 1)
            self.table, self.dealt_rows, self.taken_from = _stacked_damage(enemies)
        elif enemies:
            self.dealt, self.taken = enemies[0].dealt, enemies[0].taken
        #: What :meth:`remember` kept last: [the ends' best values, their columns, the ends by their integer
        #: (built when :meth:`recall` or :meth:`recall_end` first asks, :func:`_ends_kept`: None till then; as
        #: Python objects they would be many more for the garbage collector to walk), the block, its rows, the
        #: frame index it starts from].
        self.known: list | None = None
        covers = rooms.covers
        self.enemies_inside = all(covers(enemy.hex, 0) for enemy in enemies)
        self.edge_penalty, self.off_board_value, self.min_speed = edge_penalty, off_board_value, min_speed
        #: whether a change dives to Altitude 0, and the Crash penalty of each change (p.19); the tables by row
        #: (``tables``: those :func:`_speed_tables` gives these terms, when the caller has them)
        (self.crashes, self.crashing, self.taken_at, self.row_terms, self.edging) = tables or _speed_tables(
            start_altitude, stall_penalty, breaking_up, edge_penalty, max_altitude, min_speed, max_speed, crash_penalty)

    def covers(self, hex: Hex, block: FlightBlock) -> bool:
        """Whether the tables hold every flight of ``block`` from ``hex``, and every enemy from there."""
        return (self.enemies_inside and block.fastest < SPEEDS and self.min_speed < _ROOMS
                and self.rooms.covers(hex, block.reach))

    def remember(self, block: FlightBlock, here: int, row: np.ndarray, values: np.ndarray,
                 columns: np.ndarray) -> None:
        """Keep the best ``values`` and the :meth:`columns` of the distinct flights of ``block`` flown from frame
        index ``here`` for :meth:`recall` and :meth:`recall_end`: each end by its frame index, facing and
        ``row`` as one integer (those integers are worked out when first asked, :func:`_ends_kept`: most recalls
        find where the ends are kept, in ``_RECALLS`` and ``_RECALLED_ENDS``, without them)."""
        self.known = [values, columns, None, block, row, here]

    def recall(self, block: FlightBlock, here: int, row: np.ndarray) -> np.ndarray | None:
        """The values :meth:`remember` kept of the distinct flights of ``block`` from ``here``, if it kept them
        all. Where they are among the kept ones depends on nothing but the two blocks and rows when both start
        from the same hex (``here`` adds alike to every end): kept in ``_RECALLS`` by those."""
        known = self.known
        if known is None:
            return None
        if known[5] != here:
            at = _recalled(known, block, here, row)
            return None if at is None else known[0].take(at)
        kept_block, kept_row = known[3], known[4]
        key = (id(kept_block), id(kept_row), id(block), id(row))
        found = _RECALLS.get(key)
        if (found is not None and found[0] is kept_block and found[1] is kept_row and found[2] is block
                and found[3] is row):
            at = found[4]
        else:
            at = _recalled(known, block, here, row)
            if at is not None:
                at = np.array(at, dtype=np.intp)
            if len(_RECALLS) > 1 << 12:
                _RECALLS.clear()
            _RECALLS[key] = (kept_block, kept_row, block, row, at)
        return None if at is None else known[0].take(at)

    def recall_end(self, key: int, facing: int, row: int) -> list[float] | None:
        """The column :meth:`remember` kept of one end (its value after each Altitude change of ``CHANGES``,
        -inf where its Speed does not allow it), if it kept it."""
        known = self.known
        if known is None:
            return None
        # where it is among the kept ends depends on nothing but the kept block and rows and the end relative to
        # where they start (``here`` adds alike to every end): kept in ``_RECALLED_ENDS`` by those
        code, kept_block, kept_row = (key * 8 + facing) * (2 * SPEEDS) + row, known[3], known[4]
        relative = code - known[5] * (16 * SPEEDS)
        found = _RECALLED_ENDS.get((id(kept_block), id(kept_row), relative))
        if found is not None and found[0] is kept_block and found[1] is kept_row:
            at = found[2]
        else:
            at = (known[2] if known[2] is not None else _ends_kept(known)).get(code)
            if len(_RECALLED_ENDS) > 1 << 13:
                _RECALLED_ENDS.clear()
            _RECALLED_ENDS[(id(kept_block), id(kept_row), relative)] = (kept_block, kept_row, at)
        return None if at is None else known[1][:, at].tolist()

    def columns(self, block: FlightBlock, here: int, terms: tuple) -> np.ndarray:
        """The value of each distinct flight of ``block`` flown from frame index ``here`` (:data:`Q_STRIDE`),
        after each Altitude change of ``CHANGES`` (p.18), a row per change (:meth:`GreedyBot.position_value`
        there), -inf where its Speed does not allow the change; ``terms`` its :func:`row_terms`. The best over
        the changes is the maximum of each column. The caller checks :meth:`covers`."""
        distances, classes, classes_taken = frame_geometry()
        _, taken_at, by_row, edge_at, stalls = terms
        count = len(self.enemies)
        if count > 1:
            # each enemy in turn, as _end_value adds them: dealt, then taken (added negated: v - y is v + -y),
            # gathered enemy by enemy from the one table and summed along the first axis, which numpy adds
            # row after row in order (test_greedy_fast.py checks it): 0.0 + x is x, x never -0.0
            mine = (self.mine_at - here) - block.distinct_key_less_facing
            index = np.empty((count, 2, *taken_at.shape), dtype=np.intp)
            np.add(classes.take(mine)[:, None, :], self.dealt_rows, out=index[:, 0])
            np.add((classes_taken.take(block.distinct_key + (self.theirs_at + here)) + self.taken_from)[:, None, :],
                   taken_at, out=index[:, 1])
            value = np.add.reduce(self.table.take(index).reshape(2 * count, *taken_at.shape), axis=0)
            value -= self.closing * np.minimum.reduce(distances.take(mine), axis=0)  # .min(axis=0)
        elif count:
            enemy = self.enemies[0]
            mine = (enemy.mine_at - here) - block.distinct_key_less_facing
            value = self.dealt.take(classes.take(mine), axis=1)  # 0.0 + x is x: x is never -0.0
            value -= self.taken.take(classes_taken.take(block.distinct_key + (enemy.theirs_at + here)) + taken_at)
            value -= self.closing * distances.take(mine)
        else:
            value = np.zeros(taken_at.shape, dtype=np.float64)
        if stalls:  # x - 0.0 is x: no end of the block Stalled, no term to take
            value -= by_row[0]  # Stalled (p.18)
        if self.crashes:
            value -= self.crashing  # diving to Altitude 0 (p.19)
        # Breaking Up (p.19); +inf for an Altitude change the Speed does not allow (p.18): the value is -inf
        value -= by_row[1]
        value -= self.edging.take(edge_at + self.rooms.room_clipped.take(
            block.distinct_key_facing + (here - self.rooms.origin)), axis=1)  # p.17
        return value


#: (ids of the block and rows :meth:`EndScorer.remember` kept, ids of the block and rows asked) -> (those four,
#: where each distinct flight asked is among those kept, None if not all are): see :meth:`EndScorer.recall`.
_RECALLS: dict[tuple, tuple] = {}
#: (ids of the block and rows :meth:`EndScorer.remember` kept, an end relative to where they start) -> (that block
#: and rows, where the end is among those kept, None if it is not): see :meth:`EndScorer.recall_end`.
_RECALLED_ENDS: dict[tuple, tuple] = {}


def _recalled(known: list, block: FlightBlock, here: int, row: np.ndarray) -> list[int] | None:
    """Where each distinct flight of ``block`` from ``here`` Stalled as ``row`` is among the ends
    :meth:`EndScorer.remember` kept (``known``), None if one is not."""
    kept = known[2] if known[2] is not None else _ends_kept(known)
    at = list(map(kept.get, (block.distinct_code + (here * 16 * SPEEDS) + row).tolist()))
    return None if None in at else at


def _ends_kept(known: list) -> dict[int, int]:
    """The ends :meth:`EndScorer.remember` kept, by their integer (an end kept twice: its last index, as ``dict``
    does), worked out when first asked and kept with them."""
    block, row, here = known[3], known[4], known[5]
    ends = (block.distinct_code + (here * 16 * SPEEDS) + row).tolist()
    kept = known[2] = dict(zip(ends, range(len(ends))))
    return kept


#: (block, rows, taken-at table) -> :func:`row_terms`.
_ROW_TERMS: dict[tuple, tuple] = {}


def row_terms(block: FlightBlock, rows: np.ndarray, scorer: EndScorer) -> tuple:
    """What :meth:`EndScorer.columns` reads by the row (``2 * Speed + stalled``) of each distinct flight of
    ``block``, Stalled as ``rows`` says (by ``2 * Speed + staged``, :func:`~.bots._stall_rows`): the rows, where
    the damage taken is, the Stall and Breaking Up terms, the start of the edge penalties and whether any end is
    Stalled (a Stall term not 0.0: none, and :meth:`EndScorer.columns` takes none), from the scorer's
    :func:`_speed_tables` (kept: many scorers share those tables). The rows and the starts of the edge penalties
    depend on the block and ``rows`` alone: :func:`block_rows`, the same objects whatever the scorer."""
    tables = scorer.taken_at
    key = (id(block), id(rows), id(tables))
    known = _ROW_TERMS.get(key)
    if known is not None and known[0] is block and known[1] is rows and known[2] is tables:
        return known[3]
    row, edge_at = block_rows(block, rows)
    by_row = scorer.row_terms.take(row, axis=2)
    terms = (row, tables.take(row, axis=1), by_row, edge_at, bool(np.count_nonzero(by_row[0])))  # .any() in fewer instructions
    if len(_ROW_TERMS) > 1 << 12:
        _ROW_TERMS.clear()
    _ROW_TERMS[key] = (block, rows, tables, terms)
    return terms


#: (ids of a block and rows) -> (that block and rows, :func:`block_rows`).
_BLOCK_ROWS: dict[tuple, tuple] = {}


def block_rows(block: FlightBlock, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The row (``2 * Speed + stalled``) of each distinct flight of ``block`` Stalled as ``rows`` says, and the start
    of its edge penalties (``row * (_ROOMS + 1)``): kept, so that every scorer's :func:`row_terms` of the block and
    rows holds the same row object, and what :meth:`EndScorer.recall` and :meth:`EndScorer.recall_end` keep by the
    rows' identity (``_RECALLS``, ``_RECALLED_ENDS``) is met again whatever the scorer."""
    key = (id(block), id(rows))
    known = _BLOCK_ROWS.get(key)
    if known is not None and known[0] is block and known[1] is rows:
        return known[2]
    row = rows.take(block.distinct_speed_staged)
    found = (row, row * (_ROOMS + 1))
    for shared in found:
        shared.flags.writeable = False  # every scorer reads these very arrays
    if len(_BLOCK_ROWS) > 1 << 12:
        _BLOCK_ROWS.clear()
    _BLOCK_ROWS[key] = (block, rows, found)
    return found


_SPEED_TABLES: dict[tuple, tuple[bool, np.ndarray | None, np.ndarray, np.ndarray, np.ndarray]] = {}


def _speed_tables(start_altitude: int, stall_penalty: float | None, breaking_up: float, edge_penalty: float,
                  max_altitude: int, min_speed: int, max_speed: int, crash_penalty: float = 0.0
                  ) -> tuple[bool, np.ndarray | None, np.ndarray, np.ndarray, np.ndarray]:
    """Whether an Altitude change dives to Altitude 0 and the Crash penalty of each change (a column; None
    when none does, p.19), and the tables of :class:`EndScorer`, a row per Altitude change, by
    ``2 * Speed + stalled``: where its damage
    taken is (``evading * K + k``, evading: Stalled, p.22); the Stall term (p.18) and the Breaking Up term
    (p.19; +inf for an Altitude change the Speed does not allow, p.18, so that the value is -inf), one table
    each; and by ``row * (_ROOMS + 1) + room ahead``, the edge penalty for the hexes needed beyond the room
    (p.17)."""
    key = (start_altitude, stall_penalty, breaking_up, edge_penalty, max_altitude, min_speed, max_speed, crash_penalty)
    known = _SPEED_TABLES.get(key)
    if known is not None:
        return known
    changes = CHANGES.tolist()
    width = len(changes)
    # by change, then row (2 * Speed + stalled): the entries, and the hexes each needs ahead
    taken_at: list = [[0] * (2 * SPEEDS) for _ in changes]
    stall_terms: list = [[0.0] * (2 * SPEEDS) for _ in changes]
    breaking_terms: list = [[0.0] * (2 * SPEEDS) for _ in changes]
    needed: list = [[0] * (2 * SPEEDS) for _ in changes]
    for speed in range(SPEEDS):
        allowed = movement.altitude_options(speed)
        for stalled in (0, 1):
            row = 2 * speed + stalled
            for k, change in enumerate(changes):
                altitude = start_altitude + change
                new_speed = speed - 1 if change > 0 else speed + 1 if change < 0 else speed
                stall = bool(stalled) or (change > 0 and (altitude > max_altitude or new_speed < min_speed))
                taken_at[k][row] = stall * width + k
                stall_terms[k][row] = stall_penalty if stall and stall_penalty is not None else 0.0
                breaking_terms[k][row] = np.inf if change not in allowed else breaking_up if new_speed > max_speed \
                    else 0.0
                needed[k][row] = max(new_speed, min_speed)
    taken_at = np.array(taken_at, dtype=np.intp)
    terms = np.array([stall_terms, breaking_terms], dtype=np.float64)
    # the edge penalty of each room ahead (0 to _ROOMS) short of the hexes needed: edge_penalty * (needed - room),
    # the product of a float and a whole number as Python makes it (both as doubles)
    short = np.array(needed, dtype=np.int64)[:, :, None] - np.arange(_ROOMS + 1, dtype=np.int64)
    edging = np.where(short > 0, edge_penalty * short, 0.0).reshape(width, 2 * SPEEDS * (_ROOMS + 1))
    crashes = start_altitude + int(CHANGES[0]) <= 0
    crashing = np.where(start_altitude + CHANGES <= 0, crash_penalty, 0.0)[:, None] if crashes else None
    if len(_SPEED_TABLES) > 1 << 12:
        _SPEED_TABLES.clear()
    known = _SPEED_TABLES[key] = (crashes, crashing, taken_at, terms, edging)
    return known
