"""Which hexes each side used: every hex an aircraft started in, was placed in, or flew through.

A hex counts once per aircraft entering it (a manoeuvre's whole path, pushed hexes
included, p.16-17; a taxi, p.19; a placement, p.33-34). Hexes off the Area of
Engagement (where an aircraft left it, p.17) are not counted.
"""

from __future__ import annotations

from collections import Counter

import pyarrow as pa

from .tables import table_from_rows
from .timeline import Timeline

HEX_SCHEMA = pa.schema([("side", pa.string()), ("q", pa.int32()), ("r", pa.int32()), ("visits", pa.int64())])


def hex_visits(timeline: Timeline) -> Counter[tuple[str, int, int]]:
    """(side, q, r) -> how many times an aircraft of that side entered (or started in) the hex."""
    board = timeline.board
    visits: Counter[tuple[str, int, int]] = Counter()
    for aircraft in timeline.initial.aircraft.values():
        if aircraft.in_play and board.contains(aircraft.hex):
            visits[(aircraft.owner, *aircraft.hex)] += 1
    for envelope, before, after in timeline.pairs():
        event = envelope.event
        flown = getattr(event, "path", None)
        mover = getattr(event, "aircraft", None)
        if flown is not None and mover in after.aircraft:  # a manoeuvre or a taxi: every hex entered
            owner = after.aircraft[mover].owner
            for hex in (*flown, *getattr(event, "pushed", ())):
                if board.contains(hex):
                    visits[(owner, *hex)] += 1
        if after.aircraft is before.aircraft:
            continue
        for aircraft_id, aircraft in after.aircraft.items():
            old = before.aircraft.get(aircraft_id)
            if aircraft_id == mover and flown is not None or old is aircraft or not aircraft.in_play:
                continue
            moved = old is None or old.hex != aircraft.hex or not old.in_play  # placed, or moved without a path
            if moved and board.contains(aircraft.hex):
                visits[(aircraft.owner, *aircraft.hex)] += 1
    return visits


def hex_usage(timeline: Timeline) -> pa.Table:
    """One row per (side, hex) used, with the number of visits, most visited first."""
    rows = [{"side": side, "q": q, "r": r, "visits": count}
            for (side, q, r), count in sorted(hex_visits(timeline).items(), key=lambda item: (-item[1], item[0]))]
    return table_from_rows(rows, HEX_SCHEMA)
