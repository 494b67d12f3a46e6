"""Damage turn by turn, for rulesets whose pieces have Structure (Aeronautica's report section uses it).

Reads the folded :class:`~.timeline.Timeline`: damage from the ``DamageSuffered`` events and the shots
that caused them (:mod:`.shots`). Levels over time, for any ruleset, are :func:`.scenes.level_traces`.
"""

from __future__ import annotations

from collections import defaultdict

import pyarrow as pa

from aero_events.analysis.tables import table_from_rows
from aero_events.analysis.timeline import Timeline

from .shots import ShotRecord, shot_records

DAMAGE_SCHEMA = pa.schema([
    ("turn", pa.int32()), ("side", pa.string()), ("damage_taken", pa.int64()), ("damage_dealt", pa.int64()),
    ("cumulative_taken", pa.int64()), ("structure_left", pa.int64()), ("aircraft_in_play", pa.int64()),
])


def damage_by_turn(timeline: Timeline, shots: list[ShotRecord] | None = None) -> pa.Table:
    """Per turn and side: Structure lost (any cause), Structure its fire took from the enemy, the running
    total lost, and the Structure and aircraft it still had in play when the turn's last event was done."""
    shots = shot_records(timeline.pairs()) if shots is None else shots
    owner = {aircraft.id: aircraft.owner for aircraft in timeline.initial.aircraft.values()}
    taken: dict[tuple[int, str], int] = defaultdict(int)
    dealt: dict[tuple[int, str], int] = defaultdict(int)
    last_state: dict[int, object] = {}
    for envelope, state in zip(timeline.envelopes, timeline.states, strict=True):
        last_state[envelope.turn] = state
        if envelope.event.type_name() == "ai.DamageSuffered":
            taken[(envelope.turn, owner.get(envelope.event.aircraft, "?"))] += envelope.event.hits
    for shot in shots:
        if shot.firer_owner is not None:
            dealt[(shot.turn, shot.firer_owner)] += shot.structure_lost
    rows = []
    for player in timeline.players:
        running = 0
        for turn in sorted(last_state):
            state = last_state[turn]
            in_play = [a for a in state.aircraft.values() if a.owner == player and a.in_play]
            running += taken[(turn, player)]
            rows.append({"turn": turn, "side": player, "damage_taken": taken[(turn, player)],
                         "damage_dealt": dealt[(turn, player)], "cumulative_taken": running,
                         "structure_left": sum(a.structure for a in in_play), "aircraft_in_play": len(in_play)})
    return table_from_rows(rows, DAMAGE_SCHEMA)
