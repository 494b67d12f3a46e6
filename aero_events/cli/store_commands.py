"""The store's commands: games, show, branches, branch, verify, export, import."""

from __future__ import annotations

import argparse
from itertools import groupby
from pathlib import Path

import msgspec
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from aero_events.core.events import EnvelopeRecord
from aero_events.core.secrets import redact
from aero_events.store import BranchInfo, EventStore

from .common import console, db_option, open_store
from .describe import describe_event, describe_payload


def register(subparsers: argparse._SubParsersAction) -> None:
    db = db_option()

    games = subparsers.add_parser("games", parents=[db], help="list the stored games")
    games.set_defaults(handler=run_games)

    show = subparsers.add_parser("show", parents=[db], help="a game's events, turn by turn")
    show.add_argument("game", metavar="GAME", help="game id (or its first characters)")
    show.add_argument("--branch", default="main", help="the branch to show (default: main)")
    show.add_argument("--turn", type=int, help="only this turn")
    show.add_argument("--player", help="show the log as this player sees it (others' secrets hidden)")
    show.set_defaults(handler=run_show)

    branches = subparsers.add_parser("branches", parents=[db], help="a game's tree of branches")
    branches.add_argument("game", metavar="GAME")
    branches.set_defaults(handler=run_branches)

    branch = subparsers.add_parser("branch", parents=[db], help="fork a new branch from a game's event")
    branch.add_argument("game", metavar="GAME")
    branch.add_argument("--at", type=int, required=True, metavar="SEQ", help="the last shared event")
    branch.add_argument("--name", required=True, help="the new branch's name")
    branch.add_argument("--from", dest="from_branch", default="main", metavar="BRANCH",
                        help="the branch to fork (default: main)")
    branch.add_argument("--label", help="a description of the branch (default: its name)")
    branch.set_defaults(handler=run_branch)

    verify = subparsers.add_parser("verify", parents=[db],
                                   help="check a game's hash chains and replay it (exit 1 if it fails)")
    verify.add_argument("game", metavar="GAME")
    verify.add_argument("--no-replay", action="store_true", help="check the hash chains only")
    verify.set_defaults(handler=run_verify)

    export = subparsers.add_parser("export", parents=[db], help="write a game to JSON Lines (or Parquet)")
    export.add_argument("game", metavar="GAME")
    export.add_argument("file", metavar="FILE", type=Path)
    export.add_argument("--format", choices=("jsonl", "parquet", "record"),
                        help="default: parquet for a .parquet FILE, record for a .aero FILE, jsonl otherwise")
    export.set_defaults(handler=run_export)

    imported = subparsers.add_parser("import", parents=[db], help="store a game from a JSON Lines file or a record")
    imported.add_argument("file", metavar="FILE", type=Path)
    imported.add_argument("--replace", action="store_true", help="overwrite a stored game with the same id")
    imported.set_defaults(handler=run_import)


def run_games(args: argparse.Namespace) -> int:
    out = console()
    if args.db != ":memory:" and not Path(args.db).exists():
        out.print(f"no games: there is no store at {args.db}", markup=False)
        return 0
    summaries = open_store(args).games()
    if not summaries:
        out.print(f"no games in {args.db}")
        return 0
    table = Table(title=f"games in {args.db}")
    for column, justify in (("game", "left"), ("ruleset", "left"), ("created (UTC)", "left"),
                            ("players", "left"), ("events", "right"), ("branches", "right"),
                            ("last turn", "right")):
        table.add_column(column, justify=justify, no_wrap=column == "game")
    for game in summaries:
        table.add_row(game.id, game.ruleset, game.created.strftime("%Y-%m-%d %H:%M"), ", ".join(game.players),
                      str(game.events), str(game.branches), "-" if game.last_turn is None else str(game.last_turn))
    out.print(table)
    return 0


def _describe(record: EnvelopeRecord, player: str | None) -> str:
    """The event decoded (and redacted for ``player``) when its type is known; from its JSON otherwise."""
    try:
        event = record.to_envelope().event
    except (KeyError, msgspec.DecodeError, ValueError):
        payload = msgspec.json.decode(record.payload)
        return describe_payload(record.type, payload if isinstance(payload, dict) else {"payload": payload})
    return describe_event(redact(event, player) if player is not None else event)


def run_show(args: argparse.Namespace) -> int:
    store = open_store(args, must_exist=True)
    game_id = store.resolve_game_id(args.game)
    game = store.game(game_id)
    records = store.records(game_id, args.branch, turn=args.turn)
    out = console()
    viewer = f", as {args.player} sees it" if args.player else ""
    out.print(Text(f"game {game_id} ({game.ruleset}), branch {args.branch}: {len(records)} events{viewer}",
                   style="bold"))
    width_phase = max((len(record.phase) for record in records), default=5)
    width_actor = max((len(record.actor or "-") for record in records), default=5)
    for turn, in_turn in groupby(records, key=lambda record: record.turn):
        out.rule(f"Turn {turn}")
        for record in in_turn:
            line = Text()
            line.append(f"{record.seq:>5}  ", style="dim")
            line.append(f"{record.phase:<{width_phase}}  ", style="cyan")
            line.append(f"{record.actor or '-':<{width_actor}}  ", style="green")
            line.append(_describe(record, args.player))
            out.print(line, soft_wrap=True)
    return 0


def _tree(infos: dict[str, BranchInfo], title: str) -> Tree:
    def label(info: BranchInfo) -> str:
        where = "" if info.parent is None else f" forks {info.parent} at {info.fork_seq},"
        named = f" ({info.label})" if info.label != info.id else ""
        return f"{info.id}{named}:{where} {info.own_events} own events, head {info.head_seq}"

    root = Tree(title)
    nodes = {}
    for info in infos.values():
        parent = nodes.get(info.parent, root)
        nodes[info.id] = parent.add(label(info))
    return root


def run_branches(args: argparse.Namespace) -> int:
    store = open_store(args, must_exist=True)
    game_id = store.resolve_game_id(args.game)
    console().print(_tree(store.branch_tree(game_id), f"game {game_id}"))
    return 0


def run_branch(args: argparse.Namespace) -> int:
    store = open_store(args, must_exist=True)
    game_id = store.resolve_game_id(args.game)
    info = store.fork(game_id, args.from_branch, args.at, args.name, label=args.label)
    out = console()
    out.print(f"branch {info.id} of game {game_id} forks {info.parent} at event {info.fork_seq}")
    out.print(_tree(store.branch_tree(game_id), f"game {game_id}"))
    return 0


def run_verify(args: argparse.Namespace) -> int:
    store: EventStore = open_store(args, must_exist=True)
    game_id = store.resolve_game_id(args.game)
    report = store.verify(game_id, replay=not args.no_replay)
    out = console()
    out.print(Text(report.summary(), style="bold green" if report.ok else "bold red"))
    if report.problems:
        table = Table()
        for column in ("branch", "seq", "problem", "detail"):
            table.add_column(column)
        for problem in report.problems:
            table.add_row(problem.branch_id, str(problem.seq), problem.kind, problem.message)
        out.print(table)
    for note in report.notes:
        out.print(f"note: {note}", markup=False)
    return 0 if report.ok else 1


def run_export(args: argparse.Namespace) -> int:
    store = open_store(args, must_exist=True)
    game_id = store.resolve_game_id(args.game)
    suffix = args.file.suffix.lower()
    form = args.format or ("parquet" if suffix == ".parquet" else "record" if suffix == ".aero" else "jsonl")
    if form == "record":  # the readable game record (aero_events/record/record_format.py)
        from aero_events.record.transfer import export_record
        count = export_record(store, game_id, args.file)
    elif form == "parquet":
        count = store.export_parquet(args.file, game_ids=[game_id])
    else:
        count = store.export_jsonl(game_id, args.file)
    console().print(f"wrote {count} events of game {game_id} to {args.file} ({form})", markup=False)
    return 0


def run_import(args: argparse.Namespace) -> int:
    store = open_store(args)
    from aero_events.record.transfer import import_record, is_record_file
    if is_record_file(args.file):  # a game record (.aero, or text opening with a [Header "..."])
        game_id = import_record(store, args.file, replace=args.replace)
    else:
        game_id = store.import_jsonl(args.file, replace=args.replace)
    events = sum(summary.events for summary in store.games() if summary.id == game_id)
    console().print(f"imported game {game_id} ({events} events) from {args.file}", markup=False)
    return 0
