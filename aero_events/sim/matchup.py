"""Matchups: a ruleset, one of its scenarios and the scenario's options, read from a JSON or TOML file; and
bots by name.

A matchup file (``aero simulate --matchup FILE``) names what it plays; every other key is an option of the
scenario (the ruleset's :class:`~aero_events.core.interface.Scenario` checks them)::

    {
      "name": "thunderbolts-vs-dakkajets",
      "ruleset": "aeronautica",                   # optional: --rules, else the default ruleset
      "scenario": "face-off",                     # optional: the ruleset's first scenario
      "players": ["imperium", "orks"],            # optional: the scenario's players
      "forces": ["forces/veil.json", {...}], "board": "3x3", "last_turn": 12
    }

File names among the options are read relative to the matchup file (the scenario's ``prepare`` reads
them in, once). Aeronautica's scenarios are ``face-off`` (both forces placed along the south and north
edges) and ``dogfight`` (The Dogfight, p.34-35); ``aero rulesets`` lists every ruleset's. A malformed
file is a :class:`DataError` naming the file and the field.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

import msgspec

from aero_events.bots import bots_for
from aero_events.bots import make_bot as make_ruleset_bot
from aero_events.core import DataError, RuleError, Ruleset
from aero_events.core.errors import read_data_file
from aero_events.core.registry import default_ruleset, get_ruleset

#: The keys of a matchup file that are not the scenario's options.
MATCHUP_KEYS = ("name", "ruleset", "scenario", "players")


class Matchup(msgspec.Struct, frozen=True, kw_only=True):
    """What a simulation plays: a scenario of a ruleset (by name) with its options, made self-contained by
    the scenario's ``prepare`` (so a worker in another process builds every game from plain data)."""

    name: str
    ruleset: str
    scenario: str
    players: tuple[str, ...]
    options: dict[str, Any] = msgspec.field(default_factory=dict)

    def setup(self, rules: Ruleset, seed: int = 0) -> Any:
        """The setup of one game of this matchup under ``rules`` (any version of the matchup's family)."""
        scenario = rules.scenarios().get(self.scenario)
        if scenario is None:
            raise DataError(f"{rules.name} has no scenario {self.scenario!r}; it has "
                            f"{', '.join(rules.scenarios()) or 'none'}", source=self.name, field="scenario")
        return scenario.build({**self.options, "players": list(self.players)}, seed)


def _error(source: str, message: str, field: str | None = None, location: str | int | None = None) -> DataError:
    return DataError(message, source=source, location=location, field=field)


_BYTE = re.compile(r"\(byte (\d+)\)")
_TOML_LINE = re.compile(r"line (\d+)")


def _line_at(raw: bytes, message: str) -> int:
    """The line a decoder's message points at (``(byte N)``), else the last line (a truncated file)."""
    found = _BYTE.search(message)
    return raw[: int(found.group(1))].count(b"\n") + 1 if found else raw.rstrip().count(b"\n") + 1


def _read(raw: bytes | str, source: str) -> dict[str, Any]:
    """The file's top-level object; what cannot be read is refused with the line where it fails."""
    data_bytes = raw.encode() if isinstance(raw, str) else raw
    try:
        text = data_bytes.decode("utf-8")
    except UnicodeDecodeError as err:
        raise _error(source, "not UTF-8 text", location=data_bytes[: err.start].count(b"\n") + 1) from None
    if source.lower().endswith(".toml"):
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            found = _TOML_LINE.search(str(err))
            raise _error(source, f"not valid TOML: {err}", location=int(found.group(1)) if found else 1) from None
        except RecursionError:
            raise _error(source, "not readable: nested too deeply", location=1) from None
    else:
        try:
            data = msgspec.json.decode(data_bytes)
        except msgspec.DecodeError as err:
            raise _error(source, f"not valid JSON: {err}", location=_line_at(data_bytes, str(err))) from None
        except RecursionError:
            raise _error(source, "not readable: nested too deeply", location=1) from None
    if not isinstance(data, dict):
        raise _error(source, "a matchup is an object with a 'name' and its scenario's options", location=1)
    return data


def _checked_by_building(rules: Ruleset, scenario: Any, options: dict[str, Any], players: Any, source: str) -> None:
    """Build one game's setup and its initial state from the options, so that what the scenario or the rules
    refuse is refused here, naming the matchup file (and the option or rule), before any game is played or
    stored."""
    try:
        rules.initial_state(scenario.build({**options, "players": list(players)}, 0))
    except DataError as err:
        raise _error(source, err.detail, err.field, err.location) from None
    except RuleError as err:  # the scenario's rules (a points value, the weather) name the rule and its page
        raise _error(source, str(err)) from None
    except (KeyError, ValueError, TypeError, IndexError, AttributeError, OverflowError, RecursionError) as err:
        raise _error(source, f"the scenario {scenario.name!r} cannot be set up from these options: "
                             f"{type(err).__name__}: {err}") from None


def parse_matchup(raw: bytes | str, source: str = "<string>", *, base: Path | None = None,
                  ruleset: Ruleset | str | None = None) -> Matchup:
    """A matchup from JSON or TOML text (TOML when ``source`` ends in .toml). Its ruleset is the file's
    ``ruleset``, else ``ruleset``, else the default ruleset; file names among the options are read relative
    to ``base`` (default: the working directory)."""
    data = _read(raw, source)
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise _error(source, "a matchup has a 'name'", "name")
    named = data.get("ruleset")
    if named is not None and not isinstance(named, str):
        raise _error(source, "'ruleset' is a ruleset name", "ruleset")
    try:
        rules = get_ruleset(named) if named else ruleset if isinstance(ruleset, Ruleset) else \
            get_ruleset(ruleset or default_ruleset())
    except KeyError as err:
        raise _error(source, str(err.args[0] if err.args else err), "ruleset") from None
    scenarios = rules.scenarios()
    if not scenarios:
        raise _error(source, f"the ruleset {rules.name} offers no scenario to simulate", "ruleset")
    scenario_name = data.get("scenario", next(iter(scenarios)))
    scenario = scenarios.get(scenario_name) if isinstance(scenario_name, str) else None
    if scenario is None:
        raise _error(source, f"scenario is one of {', '.join(scenarios)}, not {scenario_name!r}", "scenario")
    options = {key: value for key, value in data.items() if key not in MATCHUP_KEYS}
    players = data.get("players", list(scenario.players))
    if "players" in data:
        options["players"] = players
    if scenario.prepare is not None:
        try:
            options = scenario.prepare(options, os.fspath(base) if base is not None else None)
        except DataError as err:
            # the scenario's own message, or one naming the force file it read
            text = err.detail if err.source == "matchup" else str(err)
            raise _error(source, text, err.field or "forces", err.location) from None
        except RuleError as err:
            raise _error(source, str(err)) from None
    players = options.pop("players", players)
    if not isinstance(players, list | tuple) or not all(isinstance(p, str) and p for p in players):
        raise _error(source, "'players' is a list of names", "players")
    if len(set(players)) != len(players):
        raise _error(source, "the players need different names", "players")
    if len(players) != len(scenario.players):
        raise _error(source, f"the scenario {scenario.name!r} has {len(scenario.players)} players "
                             f"({', '.join(scenario.players)}), not {len(players)}", "players")
    _checked_by_building(rules, scenario, options, players, source)
    return Matchup(name=name, ruleset=rules.name, scenario=scenario.name, players=tuple(players), options=options)


def make_matchup(name: str, ruleset: Ruleset | str | None = None, **options: Any) -> Matchup:
    """A matchup from keyword options, as a file would give them (``scenario``, ``players`` and the
    scenario's options), checked by the scenario: ``make_matchup("bench", "aeronautica", forces=[...])``."""
    return parse_matchup(msgspec.json.encode({"name": name, **msgspec.to_builtins(options)}), f"<matchup {name}>",
                         ruleset=ruleset)


def load_matchup(path: str | os.PathLike, ruleset: Ruleset | str | None = None) -> Matchup:
    """A matchup file (JSON or TOML); see :func:`parse_matchup`."""
    source = os.fspath(path)
    raw = read_data_file(source)
    return parse_matchup(raw, source, base=Path(source).parent, ruleset=ruleset)


# ---------------------------------------------------------------------------------------------------------
# Bots by name
# ---------------------------------------------------------------------------------------------------------


def bot_classes(ruleset: Ruleset | None = None) -> dict[str, Any]:
    """The bots that can play ``ruleset`` (default: the default ruleset), by name."""
    return bots_for(ruleset if ruleset is not None else get_ruleset(default_ruleset()))


def make_bot(name: str, seed: int | str, ruleset: Ruleset | None = None) -> Any:
    """A bot by name, seeded, for ``ruleset`` (default: the default ruleset)."""
    return make_ruleset_bot(ruleset if ruleset is not None else get_ruleset(default_ruleset()), name, seed)


def parse_bots(text: str, ruleset: Ruleset | None = None, players: int = 2) -> tuple[str, ...]:
    """``"greedy,random"`` -> ("greedy", "random"); one name plays every side."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"--bots names one bot per player ({players}), e.g. greedy,random; not {text!r}")
    known = bot_classes(ruleset)
    for name in names:
        if name not in known:
            raise KeyError(f"unknown bot {name!r}; known bots: {', '.join(sorted(known))}")
    return tuple(names)
