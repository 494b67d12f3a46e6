"""Small helpers for the analysis results, which are pyarrow Tables (pandas is not a dependency).

A Table converts to what a notebook wants: ``table.to_pylist()`` for rows,
``table.to_pandas()`` where pandas is installed, or SQL through :func:`query`. And
:func:`table_html` renders one as a plain HTML table for the report.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import duckdb
import pyarrow as pa


def query(sql: str, **tables: pa.Table) -> pa.Table:
    """Run ``sql`` with each keyword's Table registered as a view of that name; the result as a Table."""
    conn = duckdb.connect()
    try:
        for name, table in tables.items():
            conn.register(name, table)
        return conn.sql(sql).to_arrow_table()
    finally:
        conn.close()


def table_from_rows(rows: Sequence[dict], schema: pa.Schema) -> pa.Table:
    """A Table of ``rows`` (dicts) with a fixed ``schema``, so that an empty result keeps its columns."""
    return pa.Table.from_pylist(list(rows), schema=schema)


#: Column headings a player reads, for the column names of this package's tables (others: "a_b" -> "A b").
HEADINGS = {
    "side": "Side", "pieces": "Pieces", "in_play_at_end": "In play at the end", "destroyed": "Destroyed",
    "disengaged": "Disengaged", "score": "Score", "result": "Result", "events": "Events",
    "dice_rolled": "Dice rolled", "mean_roll": "Mean roll", "fair_mean": "Fair die's mean",
    "aircraft": "Aircraft", "profile": "Type", "shots": "Shots", "dice": "Dice", "hits": "Hits",
    "damage_dealt": "Damage dealt", "kills": "Kills", "damage_taken": "Damage taken",
    "turns_tailing": "Turns Tailing", "turns_tailed": "Turns Tailed", "stalls": "Stalls", "spins": "Spins",
    "status": "Status", "structure": "Structure left", "starting_structure": "Starting Structure",
    "victory_points": "Victory points", "won": "Result", "roller": "Player", "kind": "Kind of roll",
    "rolls": "Rolls", "expected": "Successes expected", "actual": "Successes rolled",
    "luck": "Luck (rolled − expected)", "turn": "Turn", "piece_type": "Type", "sides": "Sides fielding it",
    "wins": "Wins", "draws": "Draws", "win_rate": "Win rate", "game": "Game", "winner": "Winner",
    "reason": "Why", "turns": "Turns", "forces": "Forces",
}


def heading(name: str) -> str:
    """The heading shown for column ``name``."""
    return HEADINGS.get(name, name.replace("_", " ").capitalize())


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.2f}"
    if isinstance(value, list):
        return ", ".join(_cell(item) for item in value)
    return str(value)


def table_html(table: pa.Table, *, title: str | None = None, max_rows: int = 200,
               headings: dict[str, str] | None = None) -> str:
    """``table`` as an HTML ``<table>`` with headings a player reads (:func:`heading`, or ``headings``),
    numbers right-aligned, whole numbers without decimals, yes/no for booleans; at most ``max_rows`` rows."""
    columns = table.column_names
    names = {**{name: heading(name) for name in columns}, **(headings or {})}
    head = "".join(f"<th>{html.escape(names[name])}</th>" for name in columns)
    body = []
    for row in table.slice(0, max_rows).to_pylist():
        cells = []
        for name in columns:
            value = row[name]
            align = ' class="num"' if isinstance(value, int | float) and not isinstance(value, bool) else ""
            cells.append(f"<td{align}>{html.escape(_cell(value))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    more = table.num_rows - max_rows
    caption = f"<caption>{html.escape(title)}</caption>" if title else ""
    tail = f'<tr><td colspan="{len(columns)}">… {more} more rows</td></tr>' if more > 0 else ""
    return f'<table class="stats">{caption}<thead><tr>{head}</tr></thead><tbody>{"".join(body)}{tail}</tbody></table>'
