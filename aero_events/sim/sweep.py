"""Sweeps: several matchups in one run, summarised per matchup, per entry and per piece type.

"Which aircraft type wins most often?" needs many matchups played alike. A sweep is a list of matchups
(``aero simulate --matchup A --matchup B``, or a sweep file), each played ``games`` times with the same run
seed, stored as one run: every game id starts with the sweep's prefix
``sim-<sweep>-<version>-s<seed>``, followed by the matchup's name and the game's index, so
``aero games --delete PREFIX`` removes the whole run and ``--resume`` finishes it matchup by matchup.

A sweep file (JSON or TOML) names the matchups, and/or asks for each entry of a list against each::

    {
      "name": "fighters",
      "ruleset": "aeronautica",                      # optional, as in a matchup file
      "matchups": ["bolts-vs-dakkas.json", {"name": "...", "forces": [...]}],
      "each_against_each": {
        "scenario": "face-off",                       # optional: the ruleset's first scenario
        "side_option": "forces",                      # the scenario option with one entry per player
        "entries": {"thunderbolt": {...a force...}, "dakkajet": {...}, "valkyrie": "forces/valk.json"},
        "mirror": false,                              # also each entry against itself (default false)
        "board": "3x3"                                # every other key: an option of the scenario
      }
    }

``each_against_each`` plays every ordered pair of different entries (``a-vs-b`` and ``b-vs-a``, so each
entry plays from every seat), each built as a matchup file would be and checked by the scenario. It works
for any ruleset whose scenario takes one option value per player (Aeronautica's ``forces``); what an entry
holds is the scenario's business.

The summaries read only the core interface: each game's outcome (winner, draw) and the pieces of its
final scene (side, ``model`` or ``kind``, status). Per piece type, a side that fielded it counts once per
game: a side of two Thunderbolts and a Marauder that won is one win for each type, as in
:func:`aero_events.analysis.many_games.piece_type_summary` (which reads the same from a store's views).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from rich.console import Console

from aero_events.core import DataError, Ruleset
from aero_events.core.errors import read_data_file
from aero_events.core.registry import default_ruleset, family

from .games import GameResult, slug
from .matchup import Matchup, load_matchup, parse_matchup
from .runner import SimulationInterrupted, SimulationRun, process_pool, simulate
from .stats import wilson_interval

#: Statuses of a piece that ended the game out of play (:data:`aero_events.core.scene` statuses).
OUT_OF_PLAY = frozenset({"destroyed", "disengaged", "off-table", "crashed"})
#: Keys of ``each_against_each`` that are not the scenario's options.
ROUND_ROBIN_KEYS = ("scenario", "players", "side_option", "entries", "mirror")


class Sweep(msgspec.Struct, frozen=True, kw_only=True):
    """Matchups played as one run; ``entries`` names, per matchup, what each player fielded (an
    ``each_against_each`` entry), when the sweep knows it."""

    name: str
    matchups: tuple[Matchup, ...]
    entries: dict[str, tuple[str, ...]] = msgspec.field(default_factory=dict)


def _error(source: str, message: str, location: str | None = None, field_name: str | None = None) -> DataError:
    return DataError(message, source=source, location=location, field=field_name)


def _read(path: str) -> dict[str, Any]:
    raw = read_data_file(path)
    try:
        data = tomllib.loads(raw.decode()) if path.lower().endswith(".toml") else msgspec.json.decode(raw)
    except (tomllib.TOMLDecodeError, msgspec.DecodeError, UnicodeDecodeError) as err:
        raise _error(path, f"not valid {'TOML' if path.lower().endswith('.toml') else 'JSON'}: {err}") from None
    except RecursionError:
        raise _error(path, "nested too deeply") from None
    if not isinstance(data, dict):
        raise _error(path, "a sweep is an object with a 'name' and 'matchups' and/or 'each_against_each'")
    return data


def sweep_of(matchups: Sequence[Matchup], name: str = "sweep") -> Sweep:
    """The matchups given one by one (``--matchup A --matchup B``) as a sweep."""
    return _checked(Sweep(name=name, matchups=tuple(matchups)), "--matchup")


def _checked(sweep: Sweep, source: str) -> Sweep:
    if not sweep.matchups:
        raise _error(source, "a sweep plays at least one matchup", field_name="matchups")
    seen: dict[str, str] = {}
    for matchup in sweep.matchups:
        key = slug(matchup.name)
        if key in seen:
            raise _error(source, f"two matchups are both named {matchup.name!r} (or alike: {seen[key]!r}); give "
                                 "each its own name", field_name="name")
        seen[key] = matchup.name
    rulesets = {family(matchup.ruleset) for matchup in sweep.matchups}
    if len(rulesets) > 1:
        raise _error(source, f"the matchups of a sweep are of one ruleset family, not {', '.join(sorted(rulesets))}",
                     field_name="ruleset")
    return sweep


def load_sweep(path: str | os.PathLike, ruleset: Ruleset | str | None = None) -> Sweep:
    """A sweep file (see the module docstring); matchup files and entry files are read relative to it."""
    source = os.fspath(path)
    data = _read(source)
    base = Path(source).parent
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _error(source, "a sweep has a 'name'", field_name="name")
    named = data.get("ruleset")
    if named is not None and not isinstance(named, str):
        raise _error(source, "'ruleset' is a ruleset name", field_name="ruleset")
    rules: Ruleset | str | None = named or ruleset
    unknown = sorted(set(data) - {"name", "ruleset", "matchups", "each_against_each"})
    if unknown:
        raise _error(source, f"unknown key {unknown[0]!r}: a sweep has name, ruleset, matchups and "
                             "each_against_each", field_name=unknown[0])
    listed = data.get("matchups", [])
    if not isinstance(listed, list):
        raise _error(source, "'matchups' is a list of matchup files or matchup tables", field_name="matchups")
    matchups: list[Matchup] = []
    for number, item in enumerate(listed, start=1):
        where = f"matchups[{number}]"
        if isinstance(item, str):
            matchups.append(load_matchup(base / item, ruleset=rules))
        elif isinstance(item, dict):
            matchups.append(parse_matchup(msgspec.json.encode(item), f"{source} {where}", base=base, ruleset=rules))
        else:
            raise _error(source, "a matchup is a file name or a table", where, "matchups")
    entries: dict[str, tuple[str, ...]] = {}
    if "each_against_each" in data:
        for matchup, sides in _round_robin(data["each_against_each"], source, base, rules):
            matchups.append(matchup)
            entries[matchup.name] = sides
    if "matchups" not in data and "each_against_each" not in data:
        raise _error(source, "a sweep has 'matchups' and/or 'each_against_each'", field_name="matchups")
    return _checked(Sweep(name=name, matchups=tuple(matchups), entries=entries), source)


def _round_robin(table: Any, source: str, base: Path, rules: Ruleset | str | None
                 ) -> Iterable[tuple[Matchup, tuple[str, ...]]]:
    """``each_against_each``: one matchup per ordered pair of entries (see the module docstring)."""
    where = "each_against_each"
    if not isinstance(table, dict):
        raise _error(source, "'each_against_each' is a table with 'side_option' and 'entries'", where)
    side_option = table.get("side_option")
    if not isinstance(side_option, str) or not side_option:
        raise _error(source, "'side_option' names the scenario option that holds one value per player (e.g. "
                             "forces)", where, "side_option")
    entries = table.get("entries")
    if not isinstance(entries, dict) or len(entries) < 2:
        raise _error(source, "'entries' is a table of at least two entries, each a name and what one player "
                             f"fields as its {side_option}", where, "entries")
    mirror = table.get("mirror", False)
    if not isinstance(mirror, bool):
        raise _error(source, "'mirror' is true or false", where, "mirror")
    options = {key: value for key, value in table.items() if key not in ROUND_ROBIN_KEYS}
    if side_option in options:
        raise _error(source, f"{side_option!r} comes from the entries; do not give it too", where, side_option)
    for key in ("scenario", "players"):
        if key in table:
            options[key] = table[key]
    labels = list(entries)
    for first in labels:
        for second in labels:
            if first == second and not mirror:
                continue
            name = f"{first}-vs-{second}"
            matchup_data = {"name": name, **options, side_option: [entries[first], entries[second]]}
            matchup = parse_matchup(msgspec.json.encode(matchup_data), f"{source} {where} {name}", base=base,
                                    ruleset=rules)
            if len(matchup.players) != 2:
                raise _error(source, f"each against each is for two players; the scenario has "
                                     f"{len(matchup.players)}", where, "players")
            yield matchup, (first, second)


def sweep_ruleset(sweep: Sweep) -> str:
    """The ruleset the sweep's matchups name (the first one's), else the default ruleset."""
    return sweep.matchups[0].ruleset if sweep.matchups else default_ruleset()


def sweep_prefix(sweep: Sweep, rules: Ruleset, seed: int) -> str:
    """The prefix of every game id of a sweep's run: ``sim-<sweep>-<version>-s<seed>``."""
    return f"sim-{slug(sweep.name)}-{slug(rules.name)}-s{seed}"


# ---------------------------------------------------------------------------------------------------------
# Summaries
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TallyRow:
    """Wins of something (a piece type, an entry) over the sides that fielded it: each side of each
    finished game that fielded it counts once; ``pieces`` and ``out_of_play`` count pieces."""

    name: str
    sides: int
    wins: int
    draws: int
    pieces: int = 0
    out_of_play: int = 0

    @property
    def losses(self) -> int:
        return self.sides - self.wins - self.draws

    @property
    def win_rate(self) -> float:
        return self.wins / self.sides if self.sides else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.sides)


def _ranked(rows: Iterable[TallyRow]) -> list[TallyRow]:
    return sorted(rows, key=lambda row: (-row.win_rate, -row.wins, row.name))


def piece_type_tally(results: Iterable[GameResult]) -> list[TallyRow]:
    """Per piece type over finished games (best win rate first): sides fielding it, their wins and draws,
    pieces fielded and pieces out of play at the end."""
    sides: dict[str, list[int]] = {}
    for result in results:
        if not result.finished:
            continue
        fielded: dict[tuple[str, str], list[int]] = {}
        for piece in result.pieces:
            counts = fielded.setdefault((piece.piece_type, piece.side), [0, 0])
            counts[0] += 1
            counts[1] += piece.status in OUT_OF_PLAY
        for (piece_type, side), (pieces, lost) in fielded.items():
            row = sides.setdefault(piece_type, [0, 0, 0, 0, 0])
            row[0] += 1
            row[1] += result.winner == side
            row[2] += result.winner is None
            row[3] += pieces
            row[4] += lost
    return _ranked(TallyRow(name, *counts) for name, counts in sides.items())


def entry_tally(runs: Sequence[SimulationRun], entries: Mapping[str, tuple[str, ...]]) -> list[TallyRow]:
    """Per entry of an ``each_against_each`` sweep (best win rate first): the sides it played, wins, draws."""
    counts: dict[str, list[int]] = {}
    for run in runs:
        labels = entries.get(run.matchup.name)
        if labels is None:
            continue
        for result in run.results:
            if not result.finished:
                continue
            for player, label in zip(run.matchup.players, labels, strict=True):
                row = counts.setdefault(label, [0, 0, 0])
                row[0] += 1
                row[1] += result.winner == player
                row[2] += result.winner is None
    return _ranked(TallyRow(name, *row) for name, row in counts.items())


@dataclass
class SweepRun:
    """A sweep played: one :class:`SimulationRun` per matchup, under one prefix."""

    sweep: Sweep
    ruleset: str
    prefix: str
    runs: list[SimulationRun]
    seconds: float
    stored: str | None = None
    score_name: str = "score"
    notes: list[str] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(run.games for run in self.runs)

    def results(self) -> list[GameResult]:
        return [result for run in self.runs for result in run.results]

    def piece_types(self) -> list[TallyRow]:
        return piece_type_tally(self.results())

    def entries(self) -> list[TallyRow]:
        return entry_tally(self.runs, self.sweep.entries)


def simulate_sweep(sweep: Sweep, rules: Ruleset, *, games: int, seed: int = 0,
                   bots: Sequence[str] | None = None, workers: int = 1, db: str | os.PathLike | None = None,
                   dask: str | None = None, console: Console | None = None, resume: bool = False,
                   resume_hint: str = "--resume") -> SweepRun:
    """Play ``games`` games of each matchup of ``sweep`` (the same seeds for each), as one run.

    ``bots``: one name per player, or one name for every player (default: the ruleset's default bot). With
    ``db``, games are stored under :func:`sweep_prefix` and the run can be resumed (``resume``) after an
    interruption: matchups already complete are read back, the others finished.
    """
    import time

    from aero_events.bots import default_bot

    prefix = sweep_prefix(sweep, rules, seed)
    started = time.perf_counter()
    runs: list[SimulationRun] = []
    pool = process_pool(workers) if workers > 1 and not dask else None
    try:
        for matchup in sweep.matchups:
            names = tuple(bots) if bots else (default_bot(rules),)
            if len(names) == 1:
                names = names * len(matchup.players)
            runs.append(simulate(matchup, rules, games=games, seed=seed, bots=names, workers=workers, db=db,
                                 dask=dask, console=console, executor=pool, resume=resume,
                                 prefix=f"{prefix}-{slug(matchup.name)}", resume_hint=resume_hint))
    except SimulationInterrupted as err:
        raise SimulationInterrupted(f"{err} (sweep {prefix}: {len(runs)} of {len(sweep.matchups)} matchups "
                                    "complete)", stored=err.stored) from None
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    return SweepRun(sweep=sweep, ruleset=rules.name, prefix=prefix, runs=runs, seconds=time.perf_counter() - started,
                    stored=os.fspath(db) if db is not None else None, score_name=rules.score_name())


__all__ = ["Sweep", "SweepRun", "TallyRow", "entry_tally", "load_sweep", "piece_type_tally", "simulate_sweep",
           "sweep_of", "sweep_prefix", "sweep_ruleset"]
