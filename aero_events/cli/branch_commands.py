"""A game's branches: ``aero branches`` (the tree, the main line marked) and ``aero branch`` (fork, promote,
rename, delete).

The main line is the game that was played (:mod:`aero_events.store.branches`): every command that reads a
game shows it unless given ``--branch``. A fork point must fall between two commands; ``--snap`` moves a
point inside a command to the boundary before that command (the default of ``--snap``: the new branch then
shares only commands played before SEQ, and the command SEQ fell in is the one to play differently, which
is why one forks there) or, with ``--snap after``, to the end of that command.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from aero_events.store.options import SNAP_BEFORE, SNAP_CHOICES

from .common import console, db_option, open_store

if TYPE_CHECKING:  # the handlers import what they use: building the parser imports none of it
    from rich.tree import Tree

    from aero_events.store import BranchInfo, EventStore

MAIN_LINE_MARK = "★ main line"


def register(subparsers: argparse._SubParsersAction) -> None:
    db = db_option()

    branches = subparsers.add_parser("branches", parents=[db], help="a game's tree of branches (main line marked)")
    branches.add_argument("game", metavar="GAME")
    branches.set_defaults(handler=run_branches)

    branch = subparsers.add_parser(
        "branch", parents=[db], help="fork, promote, rename or delete a game's branches",
        description="Fork a new branch (--at SEQ --name NAME), or change the branches: --promote B makes B the "
                    "main line (the line every command shows by default), --rename OLD NEW, --delete B.")
    branch.add_argument("game", metavar="GAME")
    action = branch.add_mutually_exclusive_group(required=True)
    action.add_argument("--at", type=int, metavar="SEQ", help="fork: the last shared event (a command boundary)")
    action.add_argument("--promote", metavar="BRANCH", help="make BRANCH the main line")
    action.add_argument("--rename", nargs=2, metavar=("OLD", "NEW"), help="rename branch OLD to NEW")
    action.add_argument("--delete", metavar="BRANCH", help="delete BRANCH (never the main line)")
    branch.add_argument("--name", help="fork: the new branch's name")
    branch.add_argument("--from", dest="from_branch", metavar="BRANCH",
                        help="fork: the branch to fork (default: the main line)")
    branch.add_argument("--label", help="fork: a description of the branch (default: its name)")
    branch.add_argument("--snap", nargs="?", const=SNAP_BEFORE, choices=SNAP_CHOICES,
                        help="fork: if SEQ falls inside a command, fork at the boundary before that command "
                             "(the default of --snap) or after it (--snap after)")
    branch.add_argument("--with-children", action="store_true",
                        help="delete: also delete the branches forked from BRANCH")
    branch.set_defaults(handler=run_branch)


def _tree(infos: dict[str, BranchInfo], title: str, main_line: str) -> Tree:
    from rich.text import Text
    from rich.tree import Tree

    from aero_events.core.ids import for_terminal

    def label(info: BranchInfo) -> Text:
        where = "" if info.parent is None else f" forks {info.parent} at {info.fork_seq},"
        named = f" ({info.label})" if info.label != info.id else ""
        text = Text(for_terminal(f"{info.id}{named}:{where} {info.own_events} own events, head {info.head_seq}"))
        if info.id == main_line:
            text.append(f"  {MAIN_LINE_MARK}", style="bold")
        return text

    root = Tree(Text(for_terminal(title)))
    nodes = {}
    for info in infos.values():
        parent = nodes.get(info.parent, root)
        nodes[info.id] = parent.add(label(info))
    return root


def _print_tree(store: EventStore, game_id: str) -> None:
    from rich.text import Text

    from aero_events.core.ids import for_terminal

    out = console()
    line = store.main_line(game_id)
    out.print(_tree(store.branch_tree(game_id), f"game {game_id} (main line: {line})", line))
    deleted = store.deleted_branches(game_id)
    if deleted:
        out.print(Text(for_terminal("deleted: " + ", ".join(
            f"{gone.id} ({gone.own_events} own events, {gone.deleted:%Y-%m-%d %H:%M} UTC)" for gone in deleted)),
            style="dim"))


def run_branches(args: argparse.Namespace) -> int:
    store = open_store(args, must_exist=True)
    game_id = store.resolve_game_id(args.game)
    _print_tree(store, game_id)
    return 0


def _refuse_options(args: argparse.Namespace, action: str, allowed: tuple[str, ...]) -> None:
    given = [f"--{name.replace('_', '-')}" for name in ("name", "from_branch", "label", "snap", "with_children")
             if name not in allowed and getattr(args, name) not in (None, False)]
    if given:
        given = ["--from" if option == "--from-branch" else option for option in given]
        raise ValueError(f"{', '.join(given)} cannot go with {action}")


def run_branch(args: argparse.Namespace) -> int:
    from rich.text import Text

    from aero_events.core.ids import for_terminal
    from aero_events.store.branches import ForkPointError

    store = open_store(args, must_exist=True)
    game_id = store.resolve_game_id(args.game)
    out = console()
    if args.promote is not None:
        _refuse_options(args, "--promote", ())
        previous = store.promote(game_id, args.promote)
        said = (f"{args.promote} was already the main line of game {game_id}" if previous == args.promote else
                f"{args.promote} is now the main line of game {game_id} ({previous} is a variation)")
    elif args.rename is not None:
        _refuse_options(args, "--rename", ())
        old, new = args.rename
        store.rename_branch(game_id, old, new)
        said = f"branch {old} of game {game_id} is now called {new}"
    elif args.delete is not None:
        _refuse_options(args, "--delete", ("with_children",))
        gone = store.delete_branch(game_id, args.delete, with_children=args.with_children)
        said = f"deleted branch{'es' if len(gone) > 1 else ''} {', '.join(gone)} of game {game_id}"
    else:
        if not args.name:
            raise ValueError("--at needs --name: the new branch's name")
        _refuse_options(args, "--at", ("name", "from_branch", "label", "snap"))
        try:
            info = store.fork(game_id, args.from_branch, args.at, args.name, label=args.label, snap=args.snap)
        except ForkPointError as err:
            raise ForkPointError(f"{err} (--snap forks at {err.before}, --snap after at {err.after})",
                                 err.before, err.after) from None
        snapped = "" if info.fork_seq == args.at else f" (event {args.at} is inside a command: snapped)"
        said = f"branch {info.id} of game {game_id} forks {info.parent} at event {info.fork_seq}{snapped}"
    out.print(Text(for_terminal(said)))
    _print_tree(store, game_id)
    return 0
