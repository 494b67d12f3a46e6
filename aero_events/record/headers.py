"""A record's headers (``[Name "value"]``, as in PGN): the game's setup, identity and metadata.

=================  ===========================================================================================
header             holds
=================  ===========================================================================================
``Event``          what the game was played for (``metadata["event"]``); ``Site`` where (``metadata["site"]``)
``Date`` ``Time``  when the game was created (UTC), ``2024.05.01`` and ``19:30:00``
``GameId``         the game's id in the store (default on import: the file's name without ``.aero``)
``Ruleset``        the ruleset and version, ``aeronautica/wov-2019`` (contract 8); ``DataVersion`` its data
``Scenario``       ``The Dogfight`` (p.34-35)
``Players``        ``imperium - orks``, in the game's order (the first sets up on the south edge)
``Forces``         both force lists in one line (:mod:`.force_text`)
``Points``         the agreed points value (p.34); ``-`` when the points were not checked
``Board``          the Area of Engagement: ``3x3``, ``4x4``, ``8x4`` (p.9)
``Weather``        ``none`` (default), ``roll``, ``bad_weather``, ``night_fighting`` (p.33)
``Edges``          ``south - north`` (default): each player's edge (p.34)
``Reserves``       aircraft held in reserve, by id: ``imperium-4, orks-5`` (p.33-34)
``Setup``          the whole setup as JSON, when the headers above cannot say it (given placements, terrain)
``Dice``           ``manual`` (typed in from a real table) or ``digital``; ``Seed`` the seed of digital dice
``Salts``          the seed the Manoeuvre tokens' salts derive from (:mod:`.salts`)
``Current``        the branch a recorded game goes on with (``aero record --resume``), when not ``main``
``Result``         the winner of the current branch (else main), ``draw``, or ``*`` while it is being played
``Metadata``       the game's other metadata, as JSON
=================  ===========================================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec

from aero_events.core import RuleError
from aero_events.rulesets.aeronautica.profiles import Catalogue
from aero_events.rulesets.aeronautica.scenarios.dogfight import DOGFIGHT, check_points_value, dogfight_setup
from aero_events.rulesets.aeronautica.setup import GameSetup, aircraft_ids

from .force_text import ForceTextError, forces_text, parse_forces_text

#: Metadata keys that have a header of their own.
METADATA_HEADERS = {"event": "Event", "site": "Site", "seed": "Seed", "dice": "Dice", "salt_seed": "Salts"}
DEFAULT_SALT_SEED = "record"
_TAG = re.compile(r'^\[(?P<name>[A-Za-z][A-Za-z0-9_]*)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\]\s*$')


class HeaderError(ValueError):
    """A header that is wrong: ``name`` is the header, ``offset`` where in its value (None: the whole)."""

    def __init__(self, message: str, name: str, offset: int | None = None):
        super().__init__(message)
        self.message = message
        self.name = name
        self.offset = offset


@dataclass(frozen=True)
class Header:
    """One ``[Name "value"]`` line: the value unescaped, its line, and the column where the value starts."""

    name: str
    value: str
    line: int
    column: int


def header_line(name: str, value: str) -> str:
    return f'[{name} "{value.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"]'


def read_header(text: str, line: int) -> Header | tuple[str, int]:
    """A header line, or (what is wrong, column) when it is not one."""
    match = _TAG.match(text)
    if match:
        raw = match["value"]
        return Header(match["name"], re.sub(r"\\(.)", r"\1", raw), line, match.start("value") + 1)
    if not text.startswith("["):
        return "a header is [Name \"value\"]", 1
    name = re.match(r"\[([A-Za-z][A-Za-z0-9_]*)", text)
    if not name:
        return "a header starts with its name: [Name \"value\"]", 2
    after = name.end()
    spaces = len(text[after:]) - len(text[after:].lstrip())
    if not text[after + spaces:].startswith('"'):
        return f"the value of [{name[1]} ...] is written in double quotes", after + spaces + 1
    closing = re.match(r'"(?:[^"\\]|\\.)*"', text[after + spaces:])
    if not closing:
        return f"the value of [{name[1]} ...] is never closed with '\"'", after + spaces + 1
    return f"[{name[1]} \"...\"] ends with ']' after its value", after + spaces + closing.end() + 1


# ---------------------------------------------------------------- setup


def setup_headers(setup: GameSetup) -> dict[str, str]:
    """The compact headers of a setup, and ``Setup`` (JSON) when they would not rebuild it exactly."""
    headers: dict[str, str] = {"Scenario": DOGFIGHT.name if setup.scenario == DOGFIGHT.id else setup.scenario,
                               "Players": " - ".join(side.player for side in setup.sides)}
    compact = forces_text([(side.player, _without_limit(side.force)) for side in setup.sides])
    points = setup.sides[0].force.points_limit if setup.check_points else None
    if compact is not None:
        headers["Forces"] = compact
    headers["Points"] = str(points) if points is not None else "-"
    headers["Board"] = setup.board
    if setup.weather != "none":
        headers["Weather"] = setup.weather
    if tuple(setup.edges) != ("south", "north"):
        headers["Edges"] = " - ".join(setup.edges)
    held = [aircraft_ids(side)[index] for side in setup.sides for index in side.reserves]
    if held:
        headers["Reserves"] = ", ".join(held)
    try:
        rebuilt = setup_from_values(headers, None) if compact is not None else None
    except (HeaderError, RuleError):
        rebuilt = None
    if rebuilt != setup:
        headers["Setup"] = msgspec.json.encode(setup).decode()
    return headers


def _without_limit(force: Any) -> Any:
    return msgspec.structs.replace(force, points_limit=None)


def setup_from_values(values: dict[str, str], catalogue: Catalogue | None) -> GameSetup:
    """The setup the headers describe (``Setup`` JSON if given, else a Dogfight built from the others).

    Raises :class:`HeaderError` naming the header at fault (and where in it), or RuleError from the
    Dogfight's own checks (p.9, p.34).
    """
    if "Setup" in values:
        try:
            return msgspec.json.decode(values["Setup"], type=GameSetup)
        except msgspec.DecodeError as err:
            raise HeaderError(f"the setup is not a game setup: {err}", "Setup") from err
    for required in ("Players", "Forces"):
        if required not in values:
            raise HeaderError(f"a record needs a [{required} \"...\"] header (or the whole [Setup])", required)
    scenario = values.get("Scenario", DOGFIGHT.name)
    if scenario != DOGFIGHT.name:
        raise HeaderError(f"the headers describe The Dogfight (p.34-35); for {scenario!r} give the whole [Setup]",
                          "Scenario")
    players = [part.strip() for part in values["Players"].split(" - ")]
    if len(players) != 2 or not all(players):
        raise HeaderError("two players, separated by ' - ': [Players \"imperium - orks\"]", "Players")
    try:
        sides = parse_forces_text(values["Forces"], catalogue)
    except ForceTextError as err:
        raise HeaderError(err.message, "Forces", err.offset) from err
    if [player for player, _ in sides] != players:
        raise HeaderError(f"the forces are {' and '.join(p for p, _ in sides)}'s; the players are "
                          f"{' and '.join(players)}, in that order", "Forces")
    points_text = values.get("Points", "-")
    check_points = points_text != "-"
    if check_points and not points_text.isdigit():
        raise HeaderError(f"the points value is a number (or '-'), not {points_text!r}", "Points")
    points = int(points_text) if check_points else 0
    if check_points:
        try:
            check_points_value(points)
        except RuleError as err:
            raise HeaderError(str(err), "Points") from err
    edges = tuple(part.strip() for part in values.get("Edges", "south - north").split(" - "))
    if len(edges) != 2:
        raise HeaderError("two edges, separated by ' - ': [Edges \"south - north\"]", "Edges")
    reserves = _reserves(values.get("Reserves", ""), sides)
    try:
        return dogfight_setup(sides[0], sides[1], points, board=values.get("Board", "3x3"), reserves=reserves,
                              weather=values.get("Weather", "none"), edges=edges, catalogue=catalogue,
                              check_points=check_points)
    except RuleError as err:
        header = "Reserves" if "Reserves" in err.rule and "Reserves" in values else "Forces"
        raise HeaderError(str(err), header) from err
    except (KeyError, ValueError) as err:
        raise HeaderError(str(err).strip("'\""), "Board" if "board" in str(err) else "Forces") from err


def _reserves(text: str, sides: list[tuple[str, Any]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    from aero_events.rulesets.aeronautica.setup import SideSetup

    wanted = [name.strip() for name in text.split(",") if name.strip()]
    held: list[list[int]] = [[], []]
    for name in wanted:
        for side_index, (player, force) in enumerate(sides):
            ids = aircraft_ids(SideSetup(player=player, force=force, placements=()))
            if name in ids:
                held[side_index].append(ids.index(name))
                break
        else:
            raise HeaderError(f"no aircraft {name!r} to hold in reserve", "Reserves", text.find(name))
    return tuple(held[0]), tuple(held[1])


# ---------------------------------------------------------------- metadata and dates


def metadata_headers(metadata: dict[str, Any]) -> dict[str, str]:
    """Headers for the metadata keys that have one, and ``Metadata`` (JSON) for the rest."""
    headers = {header: str(metadata[key]) for key, header in METADATA_HEADERS.items() if key in metadata}
    rest = {key: value for key, value in metadata.items() if key not in METADATA_HEADERS and key != "annotations"}
    if rest:
        headers["Metadata"] = msgspec.json.encode(rest).decode()
    return headers


def metadata_from_values(values: dict[str, str]) -> dict[str, Any]:
    """The game's metadata from its headers (the inverse of :func:`metadata_headers`)."""
    metadata: dict[str, Any] = {}
    if "Metadata" in values:
        try:
            extra = msgspec.json.decode(values["Metadata"])
        except msgspec.DecodeError as err:
            raise HeaderError(f"not JSON: {err}", "Metadata") from err
        if not isinstance(extra, dict):
            raise HeaderError("the metadata is a JSON object: {\"key\": value}", "Metadata")
        metadata.update(extra)
    for key, header in METADATA_HEADERS.items():
        if header in values and values[header] != "?":
            value: Any = values[header]
            metadata[key] = int(value) if key == "seed" and re.fullmatch(r"-?\d+", value) else value
    return metadata


def salt_seed(metadata: dict[str, Any]) -> str:
    """The seed a game's salts derive from: the recorder's, else the digital dice's seed (a seeded session
    derives its salts from it), else the default."""
    if "salt_seed" in metadata:
        return str(metadata["salt_seed"])
    if "seed" in metadata:
        return str(metadata["seed"])
    return DEFAULT_SALT_SEED


def date_headers(created: datetime) -> dict[str, str]:
    return {"Date": created.strftime("%Y.%m.%d"), "Time": created.strftime("%H:%M:%S")}


def created_from_values(values: dict[str, str]) -> datetime | None:
    """When the game was created, from ``Date`` (and ``Time``); None if unknown (``????.??.??``)."""
    date = values.get("Date")
    if not date or "?" in date:
        return None
    try:
        return datetime.strptime(f"{date} {values.get('Time', '00:00:00')}", "%Y.%m.%d %H:%M:%S")
    except ValueError as err:
        raise HeaderError("a date is YYYY.MM.DD and a time HH:MM:SS", "Date" if "Time" not in values else "Time") \
            from err
