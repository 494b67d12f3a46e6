"""What several commands share: the ``--db`` option, opening the store, the console, naming a ruleset."""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aero_events.store.options import DEFAULT_LOCK_TIMEOUT, DEFAULT_PATH

if TYPE_CHECKING:  # imported where used: building the parser imports none of them (tests/cli/test_startup.py)
    from rich.console import Console

    from aero_events.core import Ruleset
    from aero_events.store import EventStore


def db_option() -> argparse.ArgumentParser:
    """A parent parser adding ``--db PATH`` (default ``aero.duckdb`` in the working directory)."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--db", default=DEFAULT_PATH, metavar="PATH",
                        help=f"the DuckDB store (default: {DEFAULT_PATH} here)")
    parent.add_argument("--wait", type=float, default=DEFAULT_LOCK_TIMEOUT, metavar="SECONDS",
                        help="how long to wait while another process holds the store "
                             f"(default: {DEFAULT_LOCK_TIMEOUT:g})")
    return parent


def open_store(args: argparse.Namespace, *, must_exist: bool = False, read_only: bool = False) -> EventStore:
    """The store named by ``--db``. With ``must_exist``, a missing file is an error rather than a new store
    (a command that only reads should not leave an empty database behind); ``read_only`` for a command that
    only reads (the file is opened read-only throughout, so a store the user may not write is still read)."""
    from aero_events.store import EventStore, StoreError

    if must_exist and args.db != ":memory:" and not Path(args.db).exists():
        raise StoreError(f"no store at {args.db} (use --db to name another)")
    return EventStore(args.db, lock_timeout=store_wait(args), read_only=read_only)


def refuse_overwriting_a_store(path: str | os.PathLike, what: str) -> None:
    """An output file (an export, a page, a key, regress details) never replaces a DuckDB database: neither the
    store named by ``--db`` nor any other. ``aero export GAME aero.duckdb`` is one slip of the keyboard from
    ``--db aero.duckdb``, and opening the output for writing would empty the store of every game.
    ``what`` names the output in the message (``FILE``, ``--out``)."""
    from aero_events.core.errors import AeroError
    from aero_events.store.options import holds_duckdb_database

    if holds_duckdb_database(path):
        raise AeroError(f"{what} {os.fsdecode(path)} is a DuckDB database (a store of games): an output never "
                        "overwrites one, nothing was written; choose another file name")


def store_wait(args: argparse.Namespace) -> float:
    """``--wait SECONDS`` (how long a command waits for another process to release the store)."""
    wait = getattr(args, "wait", DEFAULT_LOCK_TIMEOUT)
    if not 0 <= wait <= 24 * 3600:
        from aero_events.store import StoreError

        raise StoreError(f"--wait {wait:g}: give 0 to 86400 seconds")
    return wait


def console() -> Console:
    """A rich console on stdout; wide when stdout is not a terminal, so piped lines are not wrapped."""
    from rich.console import Console

    return Console(file=sys.stdout, width=None if sys.stdout.isatty() else 160, highlight=False)


def print_json(data: Any) -> None:
    """``data`` as indented JSON on stdout (what ``--json`` prints), flushed."""
    import msgspec

    sys.stdout.buffer.write(msgspec.json.format(msgspec.json.encode(data), indent=2) + b"\n")
    sys.stdout.flush()


def is_variant_file(text: str) -> bool:
    """Whether a ``--rules`` value names a variant file rather than a ruleset: a path ending in .json or .toml."""
    return text.lower().endswith((".json", ".toml"))


def ruleset_named(text: str | None, family_hint: str | None = None) -> Ruleset:
    """The ruleset a ``--rules``/``--ruleset`` value names: a full name (``aeronautica/faq-2020``), a family
    (its default version), a version's short name (``faq-2020``, looked up in ``family_hint``'s family first,
    then in every family), or a variant file (.json or .toml) that a family reads
    (``variant_from_file``). None: the default ruleset."""
    from aero_events.core.registry import default_ruleset, family, get_ruleset, known_families, known_rulesets

    if text is None:
        return get_ruleset(default_ruleset())
    if is_variant_file(text):
        families = list(known_families().values())
        # The family of the ruleset the file says it changes (its ``base``) reads it first.
        base_family = _variant_base_family(text)
        hint = base_family or family_hint
        if hint:
            families.sort(key=lambda name: family(name) != family(hint))
        for name in families if base_family is None else families[:1]:
            ruleset = type(get_ruleset(name)).variant_from_file(text)
            if ruleset is not None:
                return ruleset
        raise KeyError(f"no installed ruleset reads variant files like {text!r}"
                       + (f" (its base is a {base_family} ruleset, whose variants are not read from files)"
                          if base_family else ""))
    try:
        return get_ruleset(text)
    except KeyError:
        pass
    short = [name for name in known_rulesets() if name.partition("/")[2] == text]
    if family_hint:
        short.sort(key=lambda name: family(name) != family(family_hint))
    if short:
        return get_ruleset(short[0])
    raise KeyError(f"unknown ruleset {text!r}; known: {', '.join(known_rulesets())} "
                   "(or give a variant file, .json or .toml)")


def _variant_base_family(path: str) -> str | None:
    """The family of the ruleset a variant file's ``base`` names (a full name, a family, a version's short
    name or a variant registered in this process); None when the file gives no base as text (the reading
    family then names the field at fault). A base no installed family knows is a DataError naming the file
    and the field."""
    from aero_events.core.errors import DataError
    from aero_events.core.interface import read_variant_document
    from aero_events.core.registry import family, get_ruleset, known_families, known_rulesets

    base = read_variant_document(path).get("base")
    if not isinstance(base, str):
        return None
    try:
        return family(type(get_ruleset(base)).name)
    except KeyError:
        pass
    families = known_families()
    if family(base) in families:
        return family(base)
    short = [name for name in known_rulesets() if name.partition("/")[2] == base]
    if short:
        return family(short[0])
    raise DataError(f"unknown base ruleset {base!r}; known rulesets: {', '.join(known_rulesets())}",
                    source=path, field="base")


def aero_command() -> str:
    """How to type ``aero`` here, for the hints the command prints: ``aero`` when that is this installation's
    command on the PATH; else this environment's script (``.venv/bin/aero`` from the project folder, after
    ``make demo``, where ``.venv/bin`` is not on the PATH); else ``python -m aero_events.cli``."""
    script = Path(sys.prefix) / ("Scripts" if os.name == "nt" else "bin") / "aero"
    found = shutil.which("aero")
    if found and script.exists() and Path(found).resolve() == script.resolve():
        return "aero"
    if script.exists():
        relative = os.path.relpath(script)
        return relative if not relative.startswith("..") else os.fspath(script)
    return f"{shlex.quote(sys.executable)} -m aero_events.cli"
