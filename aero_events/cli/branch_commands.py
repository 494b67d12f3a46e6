"""A game's branches: ``aero branches`` (the tree) and ``aero branch`` (fork)."""

from __future__ import annotations

import argparse

from rich.text import Text
from rich.tree import Tree

from aero_events.core.ids import for_terminal
from aero_events.store import BranchInfo

from .common import console, db_option, open_store


def register(subparsers: argparse._SubParsersAction) -> None:
    db = db_option()

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


def _tree(infos: dict[str, BranchInfo], title: str) -> Tree:
    def label(info: BranchInfo) -> Text:
        where = "" if info.parent is None else f" forks {info.parent} at {info.fork_seq},"
        named = f" ({info.label})" if info.label != info.id else ""
        return Text(for_terminal(f"{info.id}{named}:{where} {info.own_events} own events, head {info.head_seq}"))

    root = Tree(Text(for_terminal(title)))
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
    out.print(Text(for_terminal(f"branch {info.id} of game {game_id} forks {info.parent} at event {info.fork_seq}")))
    out.print(_tree(store.branch_tree(game_id), f"game {game_id}"))
    return 0
