"""Matchups: two force lists and how their games are set up, read from a JSON or TOML file; and bots by name.

A matchup file (``aero simulate --matchup FILE``)::

    {
      "name": "thunderbolts-vs-dakkajets",
      "players": ["imperium", "orks"],
      "forces": ["forces/veil.json", {"name": "Dakka mob", "faction": "ork_air_waaagh",
                                       "aircraft": [{"aircraft": "dakkajet"}, {"aircraft": "dakkajet"}]}],
      "scenario": "face-off", "board": "3x3", "last_turn": 12, "check_points": true
    }

Each force is a force list in the format of :mod:`aero_events.rulesets.aeronautica.forces` (the object
itself, or the path of its file, relative to the matchup file). ``scenario`` is ``face-off`` (both forces
placed along the south and north edges, :func:`~aero_events.rulesets.aeronautica.deployment.face_off`)
or ``dogfight`` (The Dogfight, p.34-35: a roll-off, then the players, bots here, place their aircraft in
turn; ``points`` is the agreed points value). A malformed file is a :class:`DataError` naming the file
and the field.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

import aero_events.bots
from aero_events.core import DataError
from aero_events.core.errors import read_data_file
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.deployment import face_off
from aero_events.rulesets.aeronautica.forces import ForceList, load_force
from aero_events.rulesets.aeronautica.profiles import JsonDocument
from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup
from aero_events.rulesets.aeronautica.setup import GameSetup

SCENARIOS = ("face-off", "dogfight")


class Matchup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Two forces and the options of their games."""

    name: str
    forces: tuple[ForceList, ForceList]
    players: tuple[str, str] = ("imperium", "orks")
    scenario: str = "face-off"
    board: str = "3x3"
    last_turn: int = 12
    points: int | None = None
    check_points: bool = True
    weather: str = "none"

    def setup(self, rules: AeronauticaRules) -> GameSetup:
        """The setup of one game of this matchup under ``rules`` (forces checked against its data)."""
        first, second = (self.players[0], self.forces[0]), (self.players[1], self.forces[1])
        if self.scenario == "dogfight":
            points = self.points if self.points is not None else 0
            return dogfight_setup(first, second, points, board=self.board, weather=self.weather,
                                  catalogue=rules.catalogue, check_points=self.check_points)
        setup = face_off(first, second, rules.catalogue, board=self.board, last_turn=self.last_turn,
                         check_points=self.check_points)
        return setup if self.weather == "none" else msgspec.structs.replace(setup, weather=self.weather)


def _source_error(source: str, document: JsonDocument | None, message: str, *path: str | int) -> DataError:
    field = ".".join(str(p) for p in path) or None
    line = document.line_of(tuple(path)) if document is not None else None
    return DataError(f"{message} (line {line})" if line is not None else message, source=source, field=field)


def parse_matchup(raw: bytes | str, source: str = "<string>", *, base: Path | None = None) -> Matchup:
    """A matchup from JSON or TOML text (TOML when ``source`` ends in .toml); force paths are read relative
    to ``base`` (default: the working directory)."""
    document: JsonDocument | None = None
    if source.lower().endswith(".toml"):
        try:
            data = tomllib.loads(raw.decode() if isinstance(raw, bytes) else raw)
        except tomllib.TOMLDecodeError as err:
            raise DataError(f"not valid TOML: {err}", source=source) from None
    else:
        document = JsonDocument(raw, source)
        data = document.data
    if not isinstance(data, dict):
        raise _source_error(source, document, "a matchup is an object with 'name' and two 'forces'")
    forces = data.get("forces")
    if not isinstance(forces, list) or len(forces) != 2:
        raise _source_error(source, document, "a matchup has exactly two forces", "forces")
    loaded = []
    for index, force in enumerate(forces):
        if isinstance(force, str):
            path = Path(force) if base is None or Path(force).is_absolute() else base / force
            loaded.append(msgspec.to_builtins(load_force(path)))
        else:
            loaded.append(force)
    try:
        matchup = msgspec.convert({**data, "forces": loaded}, Matchup)
    except msgspec.ValidationError as err:
        detail, _, where = str(err).rpartition(" - at ")
        path = [part for part in where.strip("`$").replace("[", ".").replace("]", "").split(".") if part]
        raise _source_error(source, document, detail or str(err),
                            *(int(p) if p.isdigit() else p for p in path)) from None
    if matchup.scenario not in SCENARIOS:
        raise _source_error(source, document, f"scenario is one of {', '.join(SCENARIOS)}, not {matchup.scenario!r}",
                            "scenario")
    if matchup.players[0] == matchup.players[1]:
        raise _source_error(source, document, "the two players need different names", "players")
    return matchup


def load_matchup(path: str | os.PathLike) -> Matchup:
    """A matchup file (JSON or TOML); see :func:`parse_matchup`."""
    source = os.fspath(path)
    raw = read_data_file(source)
    return parse_matchup(raw, source, base=Path(source).parent)


# ---------------------------------------------------------------------------------------------------------
# Bots by name
# ---------------------------------------------------------------------------------------------------------


def bot_classes() -> dict[str, Callable[..., Any]]:
    """Every bot :mod:`aero_events.bots` exports, by its ``name`` (``random``, ``greedy``...)."""
    found: dict[str, Callable[..., Any]] = {}
    for attribute in getattr(aero_events.bots, "__all__", dir(aero_events.bots)):
        candidate = getattr(aero_events.bots, attribute, None)
        name = getattr(candidate, "name", None)
        if isinstance(candidate, type) and isinstance(name, str) and callable(getattr(candidate, "choose", None)):
            found[name] = candidate
    return found


def make_bot(name: str, seed: int | str) -> Any:
    """A bot by name, seeded."""
    classes = bot_classes()
    if name not in classes:
        raise KeyError(f"unknown bot {name!r}; known bots: {', '.join(sorted(classes))}")
    return classes[name](seed)


def parse_bots(text: str) -> tuple[str, str]:
    """``"greedy,random"`` -> ("greedy", "random"); one name plays both sides."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2:
        raise ValueError(f"--bots names one bot per player, e.g. greedy,random; not {text!r}")
    known = bot_classes()
    for name in names:
        if name not in known:
            raise KeyError(f"unknown bot {name!r}; known bots: {', '.join(sorted(known))}")
    return names[0], names[1]
