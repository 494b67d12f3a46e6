"""Colours, symbols and sizes shared by every figure, so a side looks the same everywhere.

The first player is blue and the second red (Plotly's defaults), further players take
the next colours. Fire Arcs have a colour each and range bands an opacity each (the
nearer the band, the stronger the shade).
"""

from __future__ import annotations

from collections.abc import Sequence

SIDE_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
NEUTRAL = "#7f7f7f"

BOARD_LINE = "#b9b29c"
BOARD_BACKGROUND = "#f4f1e6"
TERRAIN_FILL = "rgba(139, 115, 85, 0.45)"
LANDING_ZONE_FILL = "rgba(60, 160, 90, 0.25)"

STALL_COLOUR = "#ff7f0e"
SPIN_COLOUR = "#e377c2"
HIT_COLOUR = "#c0392b"
MISS_COLOUR = "#8c8c8c"
TAILING_COLOUR = "#555555"
WRECK_COLOUR = "#444444"

ARC_COLOURS = {"front": "44, 160, 44", "left": "31, 119, 180", "right": "148, 103, 189", "rear": "140, 86, 75"}
BAND_OPACITY = {"short": 0.42, "medium": 0.26, "long": 0.12}

AIRCRAFT_SIZE = 18
FONT_FAMILY = "Menlo, Consolas, 'DejaVu Sans Mono', monospace"


def side_colours(players: Sequence[str]) -> dict[str, str]:
    """Each player's colour, in the game's order of players."""
    return {player: SIDE_PALETTE[index % len(SIDE_PALETTE)] for index, player in enumerate(players)}


def rgba(colour: str, alpha: float) -> str:
    """``#rrggbb`` with an opacity, as CSS ``rgba(...)``."""
    value = colour.lstrip("#")
    red, green, blue = (int(value[i:i + 2], 16) for i in (0, 2, 4))
    return f"rgba({red}, {green}, {blue}, {alpha})"


def blend(colour: str, towards: str, share: float) -> str:
    """``colour`` moved ``share`` (0..1) of the way to ``towards``, as ``#rrggbb``."""
    a = [int(colour.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
    b = [int(towards.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b, strict=True))


def players_title(players: Sequence[str], colours: dict[str, str]) -> str:
    """"imperium vs orks" with each name in its side's colour (Plotly titles accept <span> styles)."""
    return " vs ".join(f"<span style='color:{colours[p]}'><b>{p}</b></span>" for p in players)
