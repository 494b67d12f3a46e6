"""What any game's scenes tell, whatever its ruleset: levels over time, cells used, each side's summary.

Every function here reads the replay's steps (:func:`game_steps`: the events grouped into frames, each
with the ruleset's :class:`~aero_events.core.scene.Scene`) and the events' generic parts (actors, dice),
never a ruleset's own state or events, so it works for every registered ruleset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from aero_events.core import DiceRolled
from aero_events.core.scene import OUT_OF_PLAY

from .tables import table_from_rows
from .timeline import Timeline

LEVEL_SCHEMA = pa.schema([
    ("step", pa.int64()), ("seq", pa.int64()), ("turn", pa.int32()), ("side", pa.string()), ("piece", pa.string()),
    ("label", pa.string()), ("level", pa.int64()), ("level_name", pa.string()), ("status", pa.string()),
])

CELL_SCHEMA = pa.schema([("side", pa.string()), ("cell", pa.int64()), ("label", pa.string()),
                         ("x", pa.float64()), ("y", pa.float64()), ("visits", pa.int64())])

SIDE_SCHEMA = pa.schema([
    ("side", pa.string()), ("pieces", pa.int64()), ("in_play_at_end", pa.int64()), ("destroyed", pa.int64()),
    ("disengaged", pa.int64()), ("score", pa.float64()), ("result", pa.string()), ("events", pa.int64()),
    ("dice_rolled", pa.int64()), ("mean_roll", pa.float64()), ("fair_mean", pa.float64()),
])


def game_steps(timeline: Timeline) -> list[Any]:
    """The replay's steps of ``timeline`` (see :func:`aero_events.viz.replay_steps`)."""
    from aero_events.viz.steps import replay_steps

    return replay_steps(timeline)


def level_traces(steps: Sequence[Any]) -> pa.Table:
    """Each piece's level (altitude, height band) and status at every step where either changed.

    A piece out of play has no level (a crash is a status, never a level below the table); its row keeps
    the status, with ``level`` null.
    """
    rows = []
    last: dict[str, tuple[int | None, str]] = {}
    for step in steps:
        for piece in step.scene.pieces:
            level = None if piece.status in OUT_OF_PLAY else piece.level
            seen = (level, piece.status)
            if last.get(piece.id) == seen:
                continue
            last[piece.id] = seen
            rows.append({"step": step.index, "seq": step.last_seq, "turn": step.turn, "side": piece.side,
                         "piece": piece.id, "label": piece.label, "level": level,
                         "level_name": level_name(piece.level_label),
                         "status": piece.status})
    return table_from_rows(rows, LEVEL_SCHEMA)


def level_name(level_label: str | None) -> str:
    """What a piece's level is called, as a heading starts: the words of its ``level_label`` before the level's
    number ("Altitude" from Aeronautica's "Altitude 3" and Wings of Glory's "altitude 5 (5 pegs) + 0 climb");
    "Level" for a label that names no number (Warhammer's "on the ground", "in the air (10\")"), whose first
    words are no name for the level."""
    words = (level_label or "").split()
    number = next((index for index, word in enumerate(words) if word[:1].isdigit()), None)
    if not number:
        return "Level"
    name = " ".join(words[:number])
    return name[:1].upper() + name[1:]


def _nearest_cell(table: Any, x: float, y: float, index: dict[tuple[int, int], int]) -> int | None:
    """The cell (index in ``table.cells``) whose centre is within a hex's inner radius of ``(x, y)``."""
    reach = table.hex_size * 0.9
    grid = max(table.hex_size, 1.0)
    cx, cy = int(x // grid), int(y // grid)
    best, best_distance = None, reach * reach
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for number in index.get((cx + dx, cy + dy), ()):
                cell = table.cells[number]
                distance = (cell.x - x) ** 2 + (cell.y - y) ** 2
                if distance <= best_distance:
                    best, best_distance = number, distance
    return best


def cell_usage(steps: Sequence[Any]) -> pa.Table:
    """On a hex table: per side and cell, how many times one of its pieces entered it (or started in it).

    A piece enters each cell of the path it flew in the step where it moved (the path's start excluded),
    or its new cell when it moved without a path. Empty on an open table.
    """
    if not steps or not steps[0].scene.table.hex_size:
        return table_from_rows([], CELL_SCHEMA)
    table = steps[0].scene.table
    grid = max(table.hex_size, 1.0)
    index: dict[tuple[int, int], list[int]] = {}
    for number, cell in enumerate(table.cells):
        index.setdefault((int(cell.x // grid), int(cell.y // grid)), []).append(number)
    visits: Counter[tuple[str, int]] = Counter()
    where: dict[str, int | None] = {}
    for step in steps:
        paths = {path.piece: path for path in step.scene.paths}
        for piece in step.scene.pieces:
            if piece.status in OUT_OF_PLAY:
                continue
            cell = _nearest_cell(table, piece.x, piece.y, index)
            if piece.id in where and where[piece.id] == cell:
                continue
            entered = []
            path = paths.get(piece.id)
            if piece.id in where and path is not None:
                for x, y in path.points:
                    number = _nearest_cell(table, x, y, index)
                    if number is not None and number != where[piece.id] and (not entered or entered[-1] != number):
                        entered.append(number)
            if not entered and cell is not None:
                entered = [cell]
            for number in entered:
                visits[(piece.side, number)] += 1
            where[piece.id] = cell
    rows = [{"side": side, "cell": number, "label": table.cells[number].label, "x": table.cells[number].x,
             "y": table.cells[number].y, "visits": count}
            for (side, number), count in sorted(visits.items(), key=lambda item: (-item[1], item[0]))]
    return table_from_rows(rows, CELL_SCHEMA)


def side_summary(timeline: Timeline, steps: Sequence[Any]) -> pa.Table:
    """One row per side: pieces fielded, in play at the end, destroyed, disengaged, score and result (the
    ruleset's outcome), events it caused, dice it rolled and their mean against a fair die's."""
    outcome = timeline.ruleset.outcome(timeline.final)
    final = steps[-1].scene if steps else timeline.ruleset.scene(timeline.final)
    fielded: dict[str, set[str]] = {}
    for step in steps:
        for piece in step.scene.pieces:
            fielded.setdefault(piece.side, set()).add(piece.id)
    sides = list(dict.fromkeys([*timeline.players, *fielded]))
    events = Counter(envelope.actor for envelope in timeline.envelopes)
    rolled: Counter[str] = Counter()
    faces_sum: Counter[str] = Counter()
    fair_sum: Counter[str] = Counter()
    for envelope in timeline.envelopes:
        event = envelope.event
        if type(event) is DiceRolled and event.roller:
            rolled[event.roller] += len(event.faces)
            faces_sum[event.roller] += sum(event.faces)
            fair_sum[event.roller] += len(event.faces) * (event.sides + 1) / 2
    rows = []
    for side in sides:
        mine = [p for p in final.pieces if p.side == side]
        if outcome.finished:
            result = "draw" if outcome.draw or outcome.winner is None else ("won" if outcome.winner == side else "lost")
        else:
            result = "under way"
        score = outcome.scores.get(side)
        rows.append({"side": side, "pieces": len(fielded.get(side, ())),
                     "in_play_at_end": sum(1 for p in mine if p.status not in OUT_OF_PLAY),
                     "destroyed": sum(1 for p in mine if p.status in ("destroyed", "crashed")),
                     "disengaged": sum(1 for p in mine if p.status in ("disengaged", "off-table")),
                     "score": float(score) if score is not None else None, "result": result,
                     "events": events.get(side, 0), "dice_rolled": rolled.get(side, 0),
                     "mean_roll": round(faces_sum[side] / rolled[side], 2) if rolled.get(side) else None,
                     "fair_mean": round(fair_sum[side] / rolled[side], 2) if rolled.get(side) else None})
    return table_from_rows(rows, SIDE_SCHEMA)
