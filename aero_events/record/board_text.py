"""The board state in text: the hexes with aircraft markers, and a table of the aircraft.

The Area of Engagement is drawn one offset row per line, two characters per hex (flat-top hexes in the
board's odd-q layout, README "Hexes"): odd columns sit half a hex lower on the table than the line shows.
Column numbers are axial ``q``; row numbers are offset rows, so the axial hex of column ``q``, row ``row``
is ``(q, row - (q - q % 2) / 2)``; the table gives both for every aircraft.

Markers: the first player's aircraft are ``A B C ...``, the second's ``a b c ...``, each followed by an
arrow for its facing (``↑ ↗ ↘ ↓ ↙ ↖`` for N NE SE S SW NW); ``*`` an Autonomous weapon (p.25), ``#`` a hex
of terrain (p.33), ``+`` a ground target, ``.`` an empty hex. Aircraft not on the board (destroyed,
disengaged, in reserve, not yet set up) are listed in the table only.
"""

from __future__ import annotations

import string
from typing import Any

from aero_events.rulesets.aeronautica.state import FLYING, LANDED, GameState

from .notation import FACINGS

ARROWS = ("↑", "↗", "↘", "↓", "↙", "↖")


def markers(state: GameState) -> dict[str, str]:
    """A letter per aircraft: upper case for the first player's, lower case for the second's."""
    letters: dict[str, str] = {}
    for player, alphabet in zip(state.players, (string.ascii_uppercase, string.ascii_lowercase), strict=True):
        for index, aircraft in enumerate(state.side(player)):
            letters[aircraft.id] = alphabet[index % 26]
    return letters


def board_lines(state: GameState, rules: Any) -> list[str]:
    """The hex map, one offset row per line, with column numbers above."""
    board = rules.board(state)
    letters = markers(state)
    cells: dict[tuple[int, int], str] = {}
    for feature in state.terrain:
        for hex in feature.hexes:
            cells[board.to_offset(hex)] = "# "
    for target in state.ground_targets:
        cells[board.to_offset(target.hex)] = "+ "
    for weapon in state.autonomous.values():
        cells[board.to_offset(weapon.hex)] = "*" + ARROWS[weapon.facing]
    for aircraft in state.aircraft.values():
        if aircraft.status in (FLYING, LANDED):
            cells[board.to_offset(aircraft.hex)] = letters[aircraft.id] + ARROWS[aircraft.facing]
    margin = "     "
    tens = "".join(f"{column // 10 if column >= 10 else ' '} " for column in range(board.columns))
    ones = "".join(f"{column % 10} " for column in range(board.columns))
    lines = [margin + tens.rstrip(), margin + ones.rstrip()] if board.columns > 10 else [margin + ones.rstrip()]
    for row in range(board.rows):
        line = []
        for column in range(board.columns):
            if row < board.rows_in_column(column):
                line.append(cells.get((column, row), ". "))
            else:
                line.append("  ")
        lines.append(f"{row:>3}  " + "".join(line).rstrip())
    return lines


def aircraft_table(state: GameState, rules: Any) -> list[str]:
    """One line per aircraft: marker, id, player, status, hex and offset cell, facing, Speed, Altitude,
    Structure, and Stall / Spin / Manoeuvre token / Tailing."""
    board = rules.board(state)
    letters = markers(state)
    header = ("", "aircraft", "player", "status", "hex", "col,row", "facing", "Speed", "Alt", "Structure", "")
    rows = [header]
    for aircraft in state.aircraft.values():
        on_board = aircraft.status in (FLYING, LANDED)
        column, row = board.to_offset(aircraft.hex) if on_board else ("", "")
        flags = []
        if aircraft.stalled:
            flags.append("STALL")
        if aircraft.spinning:
            flags.append("SPIN")
        if aircraft.revealed is not None:
            flags.append(f"M{aircraft.revealed}")
        elif aircraft.commitment is not None:
            flags.append("token down")
        if aircraft.tailing:
            flags.append(f"tailing {aircraft.tailing}")
        rows.append((
            letters[aircraft.id], aircraft.id, aircraft.owner, aircraft.status,
            f"{aircraft.hex[0]},{aircraft.hex[1]}" if on_board else "-",
            f"{column},{row}" if on_board else "-",
            FACINGS[aircraft.facing] if on_board else "-",
            str(aircraft.speed), str(aircraft.altitude), f"{aircraft.structure}/{aircraft.starting_structure}",
            " ".join(flags),
        ))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in rows]


def situation(state: GameState) -> str:
    """Turn, phase and who acts: ``turn 2, movement: orks to act (orks-1 moving)``."""
    text = f"turn {state.turn}, {state.phase.replace('_', ' ')}"
    if state.to_act:
        text += f": {state.to_act} to act"
    if state.active:
        text += f" ({state.active} moving)"
    if state.weather:
        text += f"; weather {state.weather.replace('_', ' ')}"
    return text


def board_text(state: GameState, rules: Any) -> str:
    """The whole picture: situation, map, legend and aircraft table."""
    lines = [situation(state), *board_lines(state, rules),
             "     (odd columns sit half a hex lower; hex q,r = column q, row r + (q - q % 2) / 2)", ""]
    lines += aircraft_table(state, rules)
    return "\n".join(lines)
