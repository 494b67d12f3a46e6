"""The ``aero`` command: ``aero COMMAND [options]`` (also ``python -m aero_events.cli``).

Each module named in :data:`COMMAND_MODULES` adds its subcommands through
``register(subparsers)``: it calls ``subparsers.add_parser(...)`` and sets
``handler=function(args) -> int`` with ``set_defaults``. A handler returns the exit
code (0, or 1 for a negative answer such as a failed verify). An expected failure
(any :class:`~aero_events.core.errors.AeroError`, a database or file error) prints
one line, ``aero: error: ...``, and exits with 2, without a traceback.

Building the parser imports only the command modules' parsers: each module imports what its handlers use
inside them, so ``aero --help``, ``aero COMMAND --help`` and the commands that need no database or drawing
import neither DuckDB, pyarrow, numpy, pandas nor plotly (tests/cli/test_startup.py).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

#: Modules that register subcommands, in the order their commands are listed.
COMMAND_MODULES: list[str] = ["aero_events.cli.demo", "aero_events.cli.play", "aero_events.cli.store_commands",
                               "aero_events.cli.branch_commands",
                               "aero_events.cli.viz_commands", "aero_events.cli.rules_commands",
                               "aero_events.cli.record_commands", "aero_events.cli.odds_commands"]

EXIT_ERROR = 2
#: The exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="aero",
        description="Tabletop air-combat games as event streams: record, replay, branch, verify, export.",
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


class _VersionAction(argparse.Action):
    """``--version``: prints ``aero VERSION`` and exits, reading the installed version only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str = "show program's version number and exit"):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from aero_events import __version__

        print(f"aero {__version__}")
        parser.exit()


def is_expected_error(err: BaseException) -> bool:
    """An error a command reports in one line (exit 2) rather than a traceback: the project's own
    (:class:`~aero_events.core.errors.AeroError`), a file, key or value error, or DuckDB's (looked for only
    when the command has imported DuckDB: no command that leaves the database alone pays for importing it)."""
    if isinstance(err, (OSError, KeyError, ValueError)):
        return True
    from aero_events.core.errors import AeroError

    if isinstance(err, AeroError):
        return True
    duckdb = sys.modules.get("duckdb")
    return duckdb is not None and isinstance(err, duckdb.Error)


def error_message(err: BaseException) -> str:
    """One line saying what went wrong; a file error names the file and says what is wrong in words."""
    if isinstance(err, OSError) and err.filename is not None:
        return file_error_message(err)
    text = str(err.args[0]) if isinstance(err, KeyError) and err.args else str(err)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else type(err).__name__


def file_error_message(err: OSError) -> str:
    """``duel.aero: no such file or directory``, or for a file in a missing folder ``runs/x.jsonl: the folder
    runs does not exist``, never ``[Errno 2]``."""
    name = os.fsdecode(err.filename)
    folder = os.path.dirname(name)
    if isinstance(err, FileNotFoundError) and folder and not os.path.isdir(folder):
        return f"{name}: the folder {folder} does not exist"
    reason = (err.strerror or type(err).__name__).lower()
    return f"{name}: {reason}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``aero`` command; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:  # commands that keep work on Ctrl-C (record, simulate) say so themselves first
        print("aero: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as err:
        if not is_expected_error(err):
            raise
        print(f"aero: error: {error_message(err)}", file=sys.stderr)
        return EXIT_ERROR


def run() -> None:
    """The ``aero`` script and ``python -m aero_events.cli``: :func:`main`, then exit with its code. A Ctrl-C that
    arrives once the command has finished (while worker threads and processes shut down) is ignored, so it
    cannot print a traceback from the interpreter's exit."""
    import signal

    code = main()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)
