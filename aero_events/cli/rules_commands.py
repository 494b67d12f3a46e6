"""Rulesets and rule changes from the command line: rulesets, versions, regress, simulate, compare, corpus.

* ``aero rulesets``: the registered rulesets, each with its scenarios and bots.
* ``aero versions``: the ruleset versions this installation knows, and what each changes.
* ``aero regress --rules VERSION|FILE GAME...|FOLDER|FILE.jsonl``: re-run recorded games under other rules
  (:mod:`aero_events.regress`); ``--json`` for the report as data.
* ``aero simulate --matchup FILE --games N --rules VERSION|FILE --bots A,B --seed S``: many bot games,
  win rates with 95% Wilson intervals (:mod:`aero_events.sim`); ``--workers K``, ``--dask ADDRESS|local``,
  ``--db PATH`` or ``--parquet DIR`` to keep the games. ``--matchup`` repeated, or ``--sweep FILE``, plays
  several matchups as one run, summarised per matchup, per entry and per piece type
  (:mod:`aero_events.sim.sweep`). ``--resume`` finishes a run of ``--db`` that was interrupted.
* ``aero compare --rules A,B --matchup FILE --games N``: the same games under two versions, and which
  differences are significant after Holm's correction for testing several at once; a warning when the
  bots do not play the game.

Progress bars go to stderr, and only when stderr is a terminal; stdout carries the results alone.
* ``aero corpus --write --out replays/``: regenerate the golden corpus (``--check`` replays it instead); a
  folder that already holds a corpus is rewritten only with ``--write``.

Wherever a version is asked for, a variant file (``.json`` or ``.toml``) may be given instead; every
command works for any registered ruleset (:mod:`aero_events.core.registry`).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aero_events.store.options import DEFAULT_PATH

from .common import aero_command, console, print_json, refuse_overwriting_a_store, ruleset_named

if TYPE_CHECKING:  # the handlers import what they use: building the parser imports none of it
    from rich.console import Console
    from rich.table import Table

RULES_HELP = ("a ruleset (a full name such as aeronautica/faq-2020, a family such as aeronautica, or a version's "
              "short name such as faq-2020) or a variant file (.json or .toml)")


def register(subparsers: argparse._SubParsersAction) -> None:
    rulesets = subparsers.add_parser("rulesets", help="list the registered rulesets, their scenarios and bots")
    rulesets.add_argument("--json", action="store_true", help="print the list as JSON")
    rulesets.set_defaults(handler=run_rulesets)

    versions = subparsers.add_parser("versions", help="list the ruleset versions and what each changes")
    versions.add_argument("--rules", action="append", default=[], metavar="FILE",
                          help="also load this variant file (repeatable)")
    versions.set_defaults(handler=run_versions)

    regress = subparsers.add_parser("regress", help="re-run recorded games under another ruleset")
    regress.add_argument("targets", nargs="+", metavar="GAME|FOLDER|FILE",
                         help="game ids (or prefixes) in the store, folders of .jsonl games, or .jsonl files")
    regress.add_argument("--rules", required=True, metavar="VERSION|FILE", help=RULES_HELP)
    regress.add_argument("--db", default=DEFAULT_PATH, metavar="PATH",
                         help=f"the store holding the game ids (default: {DEFAULT_PATH} here)")
    regress.add_argument("--on-illegal", choices=("stop", "bot"), default="stop",
                         help="a recorded decision the new rules refuse: stop there, or let a seeded random bot "
                              "decide (default: stop)")
    regress.add_argument("--seed", default="0", help="seed of the bot and of dice beyond the record (default 0)")
    regress.add_argument("--strict-setup", action="store_true",
                         help="a setup the new rules refuse (e.g. a force over its points limit) is an error "
                              "instead of a note")
    regress.add_argument("--json", action="store_true", help="print the reports as JSON")
    regress.add_argument("--expect-identical", action="store_true",
                         help="exit 1 unless every game replays identically (a game that cannot be re-run counts)")
    regress.add_argument("--verbose", action="store_true",
                         help="print every game's report, not only the summary and the first examples")
    regress.add_argument("--details", metavar="FILE", type=Path,
                         help="write every game's report to FILE (JSON when it ends in .json, else text)")
    regress.add_argument("--no-progress", action="store_true", help="no progress bar")
    regress.set_defaults(handler=run_regress)

    simulate = subparsers.add_parser("simulate", help="play many bot games of one or several matchups: win rates")
    _simulation_options(simulate, several=True)
    simulate.add_argument("--rules", metavar="VERSION|FILE",
                          help=RULES_HELP + " (default: the matchup's ruleset, else the default ruleset)")
    simulate.add_argument("--db", metavar="PATH", help="store the games in this DuckDB file (listed by aero games)")
    simulate.add_argument("--resume", action="store_true",
                          help="finish a run already partly in --db (after Ctrl-C or a kill): only its missing "
                               "games are played")
    simulate.add_argument("--parquet", metavar="DIR", help="write the games as Parquet shards in DIR")
    simulate.add_argument("--json", action="store_true", help="print the summary and every result as JSON")
    simulate.set_defaults(handler=run_simulate)

    compare = subparsers.add_parser("compare", help="the same games under two ruleset versions: what changes")
    _simulation_options(compare)
    compare.add_argument("--rules", required=True, metavar="A,B",
                         help="two versions or variant files, separated by a comma, e.g. wov-2019,faq-2020")
    compare.add_argument("--json", action="store_true", help="print the comparison as JSON")
    compare.set_defaults(handler=run_compare)

    corpus = subparsers.add_parser("corpus", help="regenerate the golden corpus of recorded games (or check it)")
    corpus.add_argument("--out", metavar="DIR",
                        help="the corpus folder (default: replays for the default ruleset's family, "
                             "replays/FAMILY for another family's)")
    corpus.add_argument("--check", action="store_true",
                        help="replay every game of the corpus under its own ruleset instead (exit 1 on a change)")
    corpus.add_argument("--write", action="store_true",
                        help="regenerate the corpus even where DIR already holds one, rewriting its files")
    corpus.add_argument("--max-seeds", type=int, default=30, metavar="N",
                        help="seeds tried per scenario at most (default 30)")
    corpus.add_argument("--ruleset", metavar="FAMILY", help="whose corpus to generate (default: the default ruleset's)")
    corpus.set_defaults(handler=run_corpus)


def _simulation_options(parser: argparse.ArgumentParser, several: bool = False) -> None:
    if several:
        parser.add_argument("--matchup", action="append", default=[], type=Path, metavar="FILE",
                            help="a matchup file: a ruleset's scenario and its options, e.g. two force lists and a "
                                 "board (JSON or TOML); repeat it to play several matchups as one run")
        parser.add_argument("--sweep", type=Path, metavar="FILE",
                            help="a sweep file: matchups, and/or each entry of a list (e.g. one force per aircraft "
                                 "type) against each, played as one run (docs/simulate.md)")
    else:
        parser.add_argument("--matchup", required=True, type=Path, metavar="FILE",
                            help="a matchup file: a ruleset's scenario and its options, e.g. two force lists and a "
                                 "board (JSON or TOML)")
    parser.add_argument("--games", type=int, required=True, metavar="N", help="how many games")
    parser.add_argument("--bots", default=None, metavar="A,B",
                        help="the bot of each player, e.g. greedy,random; one name plays every side "
                             "(default: the ruleset's default bot, else random; aero rulesets lists each "
                             "ruleset's bots)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="the run's seed; game i uses a seed derived from (S, i) (default 0)")
    parser.add_argument("--workers", type=int, default=1, metavar="K",
                        help="local processes to play in (default 1: this process)")
    parser.add_argument("--dask", metavar="ADDRESS|local",
                        help="fan the games out with Dask: a scheduler address, or 'local' for a local cluster")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


# ---------------------------------------------------------------------------------------------------------
# versions
# ---------------------------------------------------------------------------------------------------------


def run_rulesets(args: argparse.Namespace) -> int:
    import msgspec
    from rich.table import Table

    from aero_events.bots import bots_for
    from aero_events.core.registry import get_ruleset, known_families, known_rulesets

    defaults = set(known_families().values())
    listed = []
    for name in known_rulesets():
        try:
            ruleset = get_ruleset(name)
        except Exception as err:  # noqa: BLE001 - one broken plugin must not hide the others
            listed.append({"name": name, "default": name in defaults, "error": f"cannot load: {err}",
                           "scenarios": {}, "bots": {}})
            continue
        listed.append({"name": name, "default": name in defaults, "data_version": str(ruleset.data_version),
                       "scenarios": {key: scenario.description for key, scenario in ruleset.scenarios().items()},
                       "bots": {key: bot.description for key, bot in bots_for(ruleset).items()},
                       "options": [msgspec.to_builtins(option) for option in ruleset.rule_options()]})
    if args.json:
        print_json(listed)
        return 0
    table = Table(title="registered rulesets")
    for column in ("ruleset", "scenarios", "bots"):
        table.add_column(column)
    for entry in listed:
        name = entry["name"] + (" (family default)" if entry["default"] else "")
        if "error" in entry:
            table.add_row(name, entry["error"], "")
            continue
        table.add_row(name, "\n".join(f"{key}: {text}" for key, text in entry["scenarios"].items()) or "-",
                      "\n".join(f"{key}: {text}" for key, text in entry["bots"].items()))
    console().print(table)
    return 0


def run_versions(args: argparse.Namespace) -> int:
    from rich.table import Table

    from aero_events.core.registry import get_ruleset, known_families

    for path in args.rules:
        ruleset_named(path)
    table = Table(title="ruleset versions")
    for column in ("version", "based on", "data version", "changes", "description"):
        table.add_column(column, overflow="fold")
    for default in known_families().values():
        for version in get_ruleset(default).versions():
            table.add_row(version.name, version.based_on or "-", data_version_lines(version.data_version),
                          "\n".join(version.changes) or "-", version.description or "-")
    console().print(table)
    for default in known_families().values():  # each option: its default, its values (core/interface.py)
        ruleset = get_ruleset(default)
        options, changed_by = listed_options(ruleset)
        if options:
            console().print(f"\nrule options of {default} ({changed_by}):", markup=False)
            for option in options:
                console().print(f"  {option.line()}", markup=False)
    return 0


def data_version_lines(data_version: str) -> str:
    """A data version made of several files' versions ("bfg-ships-1+bfg-tables-1+...") one part a line, each
    ending in its "+": the column stays narrow and no part is cut off."""
    return "+\n".join(data_version.split("+"))


def listed_options(ruleset: Any) -> tuple[list[Any], str]:
    """The rule options ``aero versions`` lists for ``ruleset`` and what changes them: its ``rule_options()``
    (a variant file's options), else the fields of its own options Struct (``ruleset.options``, as
    Aeronautica's), which its versions change."""
    import msgspec

    from aero_events.core.interface import describe_options

    options = ruleset.rule_options()
    if options:
        return options, "a variant file's options change them"
    own = getattr(ruleset, "options", None)
    if isinstance(own, msgspec.Struct):
        return describe_options(type(own), own), "its versions change them: the changes column above"
    return [], ""


# ---------------------------------------------------------------------------------------------------------
# regress
# ---------------------------------------------------------------------------------------------------------


def run_regress(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from aero_events.regress import gather, render_summary, rerun, to_json, write_details

    rules = ruleset_named(args.rules)
    if args.details is not None and not args.details.parent.is_dir():
        raise FileNotFoundError(2, "No such file or directory", str(args.details))
    if args.details is not None:
        refuse_overwriting_a_store(args.details, "--details")
    show = None if args.no_progress else progress_console()
    reports = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=show, disable=show is None, transient=True) as progress:
        bar = progress.add_task(f"re-running under {rules.name}", total=None)
        for game in gather(args.targets, args.db):
            reports.append(rerun(game, rules, on_illegal=args.on_illegal, seed=args.seed,
                                 strict_setup=args.strict_setup))
            progress.advance(bar)
    title = f"{len(reports)} games re-run under {rules.name}"
    if args.details is not None:
        write_details(reports, args.details, title)
    if args.json:
        sys.stdout.buffer.write(to_json(reports) + b"\n")
        sys.stdout.flush()
    else:
        render_summary(reports, console(), title, verbose=args.verbose,
                       details=str(args.details) if args.details is not None else None)
    if args.expect_identical and not all(report.identical for report in reports):
        return 1
    return 0


# ---------------------------------------------------------------------------------------------------------
# simulate and compare
# ---------------------------------------------------------------------------------------------------------


def progress_console() -> Console | None:
    """Where progress bars go: stderr, and only when it is a terminal (stdout carries the results)."""
    from rich.console import Console

    return Console(file=sys.stderr) if sys.stderr.isatty() else None


def _run(args: argparse.Namespace, rules, matchup_path: Path, **storage):
    from aero_events.bots import default_bot
    from aero_events.sim import load_matchup, simulate
    from aero_events.sim.matchup import parse_bots

    matchup = load_matchup(matchup_path, ruleset=rules)
    bots = parse_bots(args.bots or default_bot(rules), rules, len(matchup.players))
    show = None if args.no_progress else progress_console()
    return simulate(matchup, rules, games=args.games, seed=args.seed, bots=bots, workers=args.workers,
                    dask=args.dask, console=show, **storage)


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _interrupted(err) -> int:
    """Ctrl-C during a run: what was kept and how to finish it, on stderr; exit 130 (128 + SIGINT)."""
    print(f"aero: {err}", file=sys.stderr)
    return 130


def run_simulate(args: argparse.Namespace) -> int:
    import msgspec
    from rich.table import Table

    from aero_events.sim import SimulationInterrupted, load_matchup

    if not args.matchup and args.sweep is None:
        raise ValueError("give a matchup (--matchup FILE, repeatable) or a sweep (--sweep FILE)")
    if args.games < 1:
        raise ValueError(f"--games {args.games}: a simulation plays at least one game")
    several = args.sweep is not None or len(args.matchup) > 1
    if several and args.parquet:
        raise ValueError("a sweep is stored with --db (one run in a DuckDB file), not --parquet")
    try:
        if several:
            return _run_sweep(args)
        if args.rules is None:
            rules = ruleset_named(load_matchup(args.matchup[0]).ruleset)
        else:
            rules = ruleset_named(args.rules)
        run = _run(args, rules, args.matchup[0], db=args.db, parquet=args.parquet, resume=args.resume)
    except SimulationInterrupted as err:
        return _interrupted(err)
    except KeyboardInterrupt:
        print("aero: interrupted before any game was played; nothing was stored", file=sys.stderr)
        return 130
    summaries = run.player_summaries()
    from aero_events.sim.compare import bot_warnings

    warnings = bot_warnings([run], rules)  # games that measure the bots more than the rules, as aero compare says
    if args.json:
        data = {
            "warnings": warnings,
            "matchup": run.matchup.name, "ruleset": run.ruleset, "data_version": run.data_version,
            "bots": list(run.bots), "seed": run.seed, "games": run.games, "draws": run.draws,
            "seconds": run.seconds, "backend": run.backend, "workers": run.workers, "stored": run.stored,
            "run": run.run_id, "resumed": run.resumed, "score_name": run.score_name,
            "players": [{"player": s.player, "wins": s.wins, "win_rate": s.win_rate, "interval95": list(s.interval),
                         "mean_score": s.mean_score,
                         **{f"mean_{'_'.join(name.split())}": value for name, value in s.mean_statistics.items()}}
                        for s in summaries],
            "piece_types": [_tally_json(row) for row in _piece_types(run.results)],
            "results": msgspec.to_builtins(run.results),
        }
        print_json(data)
        return 0
    out = console()
    table = Table(title=f"{run.matchup.name}: {run.games} games under {run.ruleset} ({' vs '.join(run.bots)}, "
                        f"seed {run.seed})")
    for column, justify in (("player", "left"), ("wins", "right"), ("win rate", "right"),
                            ("95% interval (Wilson)", "right"), (f"mean {run.score_name}", "right"),
                            *((f"mean {name}", "right") for name in run.statistics)):
        table.add_column(column, justify=justify)
    for s in summaries:
        table.add_row(s.player, str(s.wins), _percent(s.win_rate),
                      f"{_percent(s.interval[0])} - {_percent(s.interval[1])}", f"{s.mean_score:.1f}",
                      *(f"{s.mean_statistics[name]:.2f}" for name in run.statistics))
    table.add_row("draws", str(run.draws), _percent(run.draws / run.games), "", "", *("" for _ in run.statistics))
    out.print(table)
    played = run.games - run.resumed
    rate = played / run.seconds if run.seconds else float("inf")
    out.print(f"{played} games in {run.seconds:.1f} s ({rate:.1f} games/s), {run.backend}, {run.workers} "
              f"worker(s)" + (f"; {run.resumed} games of the run were already stored" if run.resumed else ""),
              markup=False, highlight=False)
    if args.db:
        out.print(f"stored as {run.run_id}-* in {args.db}: {aero_command()} games --db {shlex.quote(str(args.db))}",
                  markup=False, highlight=False)
    elif args.parquet:
        out.print(f"wrote {len(run.shards)} Parquet shards to {args.parquet}: SELECT * FROM "
                  f"'{args.parquet}/*.events.parquet'", markup=False, highlight=False)
    if warnings:
        from rich.text import Text

        for warning in warnings:
            out.print(Text(f"warning: {warning}", style="bold red"), soft_wrap=True)
    return 0


def _piece_types(results):
    from aero_events.sim.sweep import piece_type_tally

    return piece_type_tally(results)


def _tally_json(row) -> dict:
    return {"name": row.name, "sides": row.sides, "wins": row.wins, "draws": row.draws, "losses": row.losses,
            "win_rate": row.win_rate, "interval95": list(row.interval), "pieces": row.pieces,
            "out_of_play": row.out_of_play}


def _tally_table(title: str, first: str, rows, pieces: bool) -> Table:
    from rich.table import Table

    table = Table(title=title)
    columns = [(first, "left"), ("sides", "right"), ("wins", "right"), ("draws", "right"), ("win rate", "right"),
               ("95% interval (Wilson)", "right")]
    if pieces:
        columns += [("pieces", "right"), ("out of play at the end", "right")]
    for column, justify in columns:
        table.add_column(column, justify=justify)
    for row in rows:
        cells = [row.name, str(row.sides), str(row.wins), str(row.draws), _percent(row.win_rate),
                 f"{_percent(row.interval[0])} - {_percent(row.interval[1])}"]
        if pieces:
            cells += [str(row.pieces), str(row.out_of_play)]
        table.add_row(*cells)
    return table


def _run_sweep(args: argparse.Namespace) -> int:
    import msgspec
    from rich.table import Table

    from aero_events.sim import load_matchup
    from aero_events.sim.matchup import parse_bots
    from aero_events.sim.sweep import load_sweep, simulate_sweep, sweep_of, sweep_ruleset

    rules = ruleset_named(args.rules) if args.rules else None
    matchups = [load_matchup(path, ruleset=rules) for path in args.matchup]
    if args.sweep is not None:
        sweep = load_sweep(args.sweep, ruleset=rules)
        if matchups:
            sweep = msgspec.structs.replace(sweep_of([*sweep.matchups, *matchups], sweep.name),
                                            entries=sweep.entries)
    else:
        sweep = sweep_of(matchups)
    if rules is None:
        rules = ruleset_named(sweep_ruleset(sweep))
    bots = None
    if args.bots:  # one name for every player, or one per player (checked against each matchup's players)
        bots = parse_bots(args.bots, rules, max(1, len([name for name in args.bots.split(",") if name.strip()])))
    show = None if args.no_progress else progress_console()
    result = simulate_sweep(sweep, rules, games=args.games, seed=args.seed, bots=bots, workers=args.workers,
                            db=args.db, dask=args.dask, console=show, resume=args.resume)
    pieces, entries = result.piece_types(), result.entries()
    if args.json:
        data = {
            "sweep": sweep.name, "run": result.prefix, "ruleset": result.ruleset, "seed": args.seed,
            "games_per_matchup": args.games, "games": result.games, "seconds": result.seconds,
            "stored": result.stored, "score_name": result.score_name,
            "matchups": [{"matchup": run.matchup.name, "run": run.run_id, "bots": list(run.bots), "games": run.games,
                          "draws": run.draws, "resumed": run.resumed,
                          "entries": list(sweep.entries.get(run.matchup.name, ())),
                          "mean_turns": sum(r.turns for r in run.results) / run.games,
                          "players": [{"player": s.player, "wins": s.wins, "win_rate": s.win_rate,
                                       "interval95": list(s.interval), "mean_score": s.mean_score}
                                      for s in run.player_summaries()]}
                         for run in result.runs],
            "entries": [_tally_json(row) for row in entries],
            "piece_types": [_tally_json(row) for row in pieces],
        }
        print_json(data)
        return 0
    out = console()
    table = Table(title=f"sweep {sweep.name}: {len(result.runs)} matchups of {args.games} games under "
                        f"{result.ruleset} (seed {args.seed})")
    for column, justify in (("matchup", "left"), ("bots", "left"), ("games", "right"), ("wins by player", "left"),
                            ("draws", "right"), ("mean turns", "right")):
        table.add_column(column, justify=justify)
    for run in result.runs:
        labels = sweep.entries.get(run.matchup.name)
        wins = ", ".join(f"{s.player}{f' ({labels[i]})' if labels else ''} {s.wins} ({_percent(s.win_rate)})"
                         for i, s in enumerate(run.player_summaries()))
        table.add_row(run.matchup.name, " vs ".join(run.bots), str(run.games), wins, str(run.draws),
                      f"{sum(r.turns for r in run.results) / run.games:.1f}")
    out.print(table)
    if entries:
        out.print(_tally_table("by entry (each against each), best win rate first", "entry", entries, pieces=False))
    out.print(_tally_table("by piece type (a side fielding the type counts once per game), best win rate first",
                           "piece type", pieces, pieces=True))
    out.print(f"{result.games} games in {result.seconds:.1f} s", markup=False, highlight=False)
    if args.db:
        out.print(f"stored as {result.prefix}-* in {args.db}: {aero_command()} games --db "
                  f"{shlex.quote(str(args.db))}", markup=False, highlight=False)
    return 0


def run_compare(args: argparse.Namespace) -> int:
    from rich.table import Table
    from rich.text import Text

    from aero_events.sim import SimulationInterrupted, compare_runs

    names = [name.strip() for name in args.rules.split(",") if name.strip()]
    if len(names) != 2:
        raise ValueError(f"--rules names two versions separated by a comma, not {args.rules!r}")
    rules_a, rules_b = ruleset_named(names[0]), ruleset_named(names[1], family_hint=names[0])
    try:
        if args.workers > 1 and not args.dask:
            from aero_events.sim import process_pool

            with process_pool(args.workers) as pool:  # one pool for both runs
                run_a = _run(args, rules_a, args.matchup, executor=pool)
                run_b = _run(args, rules_b, args.matchup, executor=pool)
        else:
            run_a, run_b = _run(args, rules_a, args.matchup), _run(args, rules_b, args.matchup)
    except SimulationInterrupted as err:
        return _interrupted(err)
    except KeyboardInterrupt:
        print("aero: interrupted; nothing was compared", file=sys.stderr)
        return 130
    comparison = compare_runs(run_a, run_b, rules_a)
    warnings = list(comparison.warnings)
    if args.json:
        data = {
            "matchup": run_a.matchup.name, "games": run_a.games, "seed": run_a.seed, "a": run_a.ruleset,
            "b": run_b.ruleset, "alpha": comparison.alpha, "correction": comparison.correction,
            "warnings": warnings,
            "metrics": [{"metric": m.metric, "a": m.value_a, "b": m.value_b, "difference": m.difference,
                         "interval_a": m.interval_a, "interval_b": m.interval_b, "test": m.test_name,
                         "statistic": m.test.statistic, "p_value": m.test.p_value,
                         "adjusted_p_value": m.adjusted_p_value, "significant": m.significant}
                        for m in comparison.metrics],
        }
        print_json(data)
        return 0
    out = console()
    for warning in warnings:
        out.print(Text(f"warning: {warning}", style="bold red"), soft_wrap=True)
    table = Table(title=f"{run_a.matchup.name}: {run_a.games} games, seed {run_a.seed}: {run_a.ruleset} (A) vs "
                        f"{run_b.ruleset} (B)")
    for column, justify in (("metric", "left"), ("A", "right"), ("B", "right"), ("B - A", "right"),
                            ("test", "left"), ("p", "right"), ("p (Holm)", "right"), ("significant", "left")):
        table.add_column(column, justify=justify)
    for m in comparison.metrics:
        if m.kind == "rate":
            shown_a = f"{_percent(m.value_a)} ({_percent(m.interval_a[0])}-{_percent(m.interval_a[1])})"
            shown_b = f"{_percent(m.value_b)} ({_percent(m.interval_b[0])}-{_percent(m.interval_b[1])})"
            shown_d = f"{100 * m.difference:+.1f} pts"
        else:
            shown_a, shown_b, shown_d = f"{m.value_a:.2f}", f"{m.value_b:.2f}", f"{m.difference:+.2f}"
        table.add_row(m.metric, shown_a, shown_b, shown_d, m.test_name, f"{m.test.p_value:.3g}",
                      f"{m.adjusted_p_value:.3g}",
                      Text("significant", style="bold yellow") if m.significant else Text("no", style="dim"))
    out.print(table)
    found = comparison.significant
    out.print(f"{len(comparison.metrics)} differences tested at once; p-values adjusted by {comparison.correction} "
              f"so that the chance of any false 'significant' stays under {comparison.alpha:g}",
              markup=False, highlight=False)
    out.print(f"significant at p < {comparison.alpha:g} after the {comparison.correction} correction: "
              f"{', '.join(m.metric for m in found) if found else 'none'}", markup=False, highlight=False)
    for warning in warnings:  # again at the end, where a reader of the conclusion looks
        out.print(Text(f"warning: {warning}", style="bold red"), soft_wrap=True)
    return 0


# ---------------------------------------------------------------------------------------------------------
# corpus
# ---------------------------------------------------------------------------------------------------------


def _default_corpus_folder(ruleset: str | None) -> str:
    """Where a family's golden corpus lives: ``replays`` for the default ruleset's family, ``replays/FAMILY``
    for every other (so ``aero corpus --write --ruleset whfb-flying`` never rewrites Aeronautica's files)."""
    from aero_events.core.registry import default_ruleset, family

    if ruleset is None or family(ruleset) == family(default_ruleset()):
        return "replays"
    return f"replays/{family(ruleset)}"


def run_corpus(args: argparse.Namespace) -> int:
    from rich.text import Text

    from aero_events.core.errors import AeroError
    from aero_events.regress.corpus import (
        MANIFEST,
        CorpusMismatch,
        check_game,
        corpus_plan,
        generate,
        read_manifest,
    )

    out = console()
    if args.out is None:
        args.out = _default_corpus_folder(args.ruleset)
    if args.check:
        corpus_plan(args.ruleset)  # imports the family's ruleset: its event types must be known to read its games
        manifest = read_manifest(args.out)
        failed = 0
        for entry in manifest.games:
            try:
                check_game(args.out, entry)
            except CorpusMismatch as err:
                failed += 1
                out.print(Text(str(err), style="red"), soft_wrap=True)
            else:
                out.print(f"{entry.file}: identical ({entry.ruleset})", markup=False, highlight=False)
        out.print(f"{len(manifest.games) - failed} of {len(manifest.games)} corpus games replay identically",
                  markup=False, highlight=False)
        return 1 if failed else 0
    if not args.write and (Path(args.out) / MANIFEST).exists():
        raise AeroError(f"{args.out} already holds a corpus: --check replays it; --write regenerates it, "
                        "rewriting its files")
    manifest = generate(args.out, max_seeds=args.max_seeds, family=args.ruleset,
                        say=lambda line: out.print(line, markup=False, highlight=False))
    out.print(f"wrote {len(manifest.games)} games and MANIFEST.json to {args.out}"
              + (f"; not covered: {', '.join(manifest.missing)}" if manifest.missing else ""), markup=False,
              highlight=False)
    return 1 if manifest.missing else 0
