"""Colours, symbols and sizes shared by every figure, so a side looks the same everywhere.

The first player is blue and the second red (Plotly's defaults), further players take
the next colours. Statuses, tags, markers, templates and lines of fire each have a style of
their own, so every symbol on a board has one meaning and one legend entry.
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

HEX_LABEL_COLOUR = "#a39c86"
TABLE_EDGE = "#8a836c"

#: Pieces out of play are drawn apart from those still playing, each status with its own symbol.
STATUS_SYMBOLS = {"destroyed": "x-thin-open", "crashed": "x-thin-open", "disengaged": "arrow-bar-up-open",
                  "off-table": "square-open"}
STATUS_LEGEND = {"destroyed": "destroyed (✗ where it fell)", "crashed": "crashed (✗)",
                 "disengaged": "disengaged (left the table)", "off-table": "off the table"}
#: Pieces in play but not at their ordinary best (landed, crippled...) are drawn hollow.
ACTIVE_STATUSES = ("active",)
#: Tags: a ring around the piece, one style per tag (:func:`tag_style`): the first five as they always were.
TAG_STYLES = (("circle-open", STALL_COLOUR), ("star-open", SPIN_COLOUR), ("square-open", "#17becf"),
              ("diamond-open", "#bcbd22"), ("hexagon-open", "#8c564b"))
TAG_SYMBOLS = ("circle-open", "star-open", "square-open", "diamond-open", "hexagon-open", "triangle-up-open",
               "pentagon-open", "hourglass-open")
TAG_COLOURS = (STALL_COLOUR, SPIN_COLOUR, "#17becf", "#bcbd22", "#8c564b", "#9467bd", "#2ca02c", "#e41a1c")
MARKER_SYMBOLS = ("diamond", "square", "triangle-up", "star", "hexagon", "cross", "pentagon")
TEMPLATE_PALETTE = ("rgba(139, 115, 85, 0.45)", "rgba(60, 160, 90, 0.25)", "rgba(31, 119, 180, 0.2)",
                    "rgba(214, 39, 40, 0.2)", "rgba(148, 103, 189, 0.25)", "rgba(127, 127, 127, 0.3)")
#: Lines of fire: (legend, colour, width, dash) per outcome; others are drawn as "declared".
FIRE_STYLES = {"hit": ("shots that hit", HIT_COLOUR, 3, "solid"),
               "destroyed": ("shots that destroyed their target", "#7b1010", 4, "solid"),
               "miss": ("shots that missed", MISS_COLOUR, 2, "dot"),
               "blocked": ("shots blocked", "#bf8f00", 2, "dashdot"),
               "declared": ("shots declared", "#555555", 2, "dash")}
#: Distinct colours for lines of one chart (Plotly's qualitative "D3" and "Dark2" sets).
LINE_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                "#bcbd22", "#7f7f7f", "#1b9e77", "#d95f02")

PIECE_SIZE = 18
AIRCRAFT_SIZE = PIECE_SIZE
FONT_FAMILY = "Menlo, Consolas, 'DejaVu Sans Mono', monospace"


#: Sides named after a colour ("red", "blue") are drawn in it, whatever their order.
NAMED_COLOURS = {"blue": "#1f77b4", "red": "#d62728", "green": "#2ca02c", "purple": "#9467bd",
                 "orange": "#ff7f0e", "brown": "#8c564b", "black": "#333333", "grey": "#7f7f7f", "gray": "#7f7f7f",
                 "yellow": "#bcbd22", "white": "#aaaaaa"}


def side_colours(players: Sequence[str]) -> dict[str, str]:
    """Each player's colour, in the game's order of players (a side named after a colour gets that colour)."""
    colours = {player: NAMED_COLOURS[player.lower()] for player in players if player.lower() in NAMED_COLOURS}
    free = [colour for colour in SIDE_PALETTE if colour not in colours.values()]
    for player in players:
        if player not in colours:
            colours[player] = free[len([p for p in colours if p not in NAMED_COLOURS]) % len(free)] if free else NEUTRAL
    return {player: colours[player] for player in players}


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


def tag_style(index: int) -> tuple[str, str]:
    """(symbol, colour) of a figure's ``index``-th tag: no two of the first 64 tags look alike (each pairs a
    symbol with a colour; the colour shifts by one each time the symbols come round again)."""
    symbols, colours = len(TAG_SYMBOLS), len(TAG_COLOURS)
    return TAG_SYMBOLS[index % symbols], TAG_COLOURS[(index + index // symbols) % colours]
