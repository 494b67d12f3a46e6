"""The store's commands: games, show, verify, export, import (branches are in ``branch_commands``)."""

from __future__ import annotations

import argparse
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING

from .common import console, db_option, open_store, refuse_overwriting_a_store

if TYPE_CHECKING:  # the handlers import what they use: building the parser imports none of it
    from aero_events.core.events import EnvelopeRecord
    from aero_events.store import EventStore


def register(subparsers: argparse._SubParsersAction) -> None:
    db = db_option()

    games = subparsers.add_parser("games", parents=[db], help="list the stored games")
    games.add_argument("--delete", metavar="PREFIX",
                       help="remove every game whose id starts with PREFIX (e.g. a killed simulate run)")
    games.set_defaults(handler=run_games)

    show = subparsers.add_parser("show", parents=[db], help="a game's events, turn by turn")
    show.add_argument("game", metavar="GAME", help="game id (or its first characters)")
    show.add_argument("--branch", help="the branch to show (default: the main line, the game that was played)")
    show.add_argument("--turn", type=int, help="only this turn")
    show.add_argument("--player", help="show the log as this player sees it (others' secrets hidden)")
    show.set_defaults(handler=run_show)

    verify = subparsers.add_parser("verify", parents=[db],
                                   help="check a game's hash chains and replay it (exit 1 if it fails)")
    verify.add_argument("game", metavar="GAME", help="a stored game, or a .jsonl export to check with --key")
    verify.add_argument("--no-replay", action="store_true", help="check the hash chains only")
    verify.add_argument("--no-decide", action="store_true",
                        help="replay the events but do not decide the recorded commands again (faster)")
    verify.add_argument("--key", action="append", default=[], metavar="PUB",
                        help="a public key (Ed25519) that must have signed the game; repeat for each signer")
    verify.add_argument("--signatures", type=Path, metavar="FILE",
                        help="the signatures (default: the export's FILE.sig; needed for a stored game)")
    verify.set_defaults(handler=run_verify)

    export = subparsers.add_parser("export", parents=[db], help="write a game to JSON Lines (or Parquet)")
    export.add_argument("game", metavar="GAME")
    export.add_argument("file", metavar="FILE", type=Path)
    export.add_argument("--format", choices=("jsonl", "parquet", "record"),
                        help="default: parquet for a .parquet FILE, record for a .aero FILE, jsonl otherwise")
    export.add_argument("--player", metavar="P",
                        help="write P's copy: the game as P may see it, every other player's secrets left out "
                             "(not importable as the full game; the store and a full export are the organiser's)")
    export.add_argument("--sign", action="append", default=[], metavar="KEY",
                        help="sign the JSON Lines export with this Ed25519 private key (into FILE.sig); repeat "
                             "for each player")
    export.set_defaults(handler=run_export)

    sign = subparsers.add_parser("sign", help="add a signature to a JSON Lines export (FILE.sig)")
    sign.add_argument("file", metavar="FILE", type=Path)
    sign.add_argument("--key", required=True, metavar="KEY", help="your Ed25519 private key")
    sign.add_argument("--name", help="the signer's name (default: the key file's name)")
    sign.set_defaults(handler=run_sign)

    keygen = subparsers.add_parser("keygen", help="make an Ed25519 key pair for signing games")
    keygen.add_argument("key", metavar="KEY", type=Path, help="the private key file to write (its .pub beside it)")
    keygen.set_defaults(handler=run_keygen)

    imported = subparsers.add_parser("import", parents=[db], help="store a game from a JSON Lines file or a record")
    imported.add_argument("file", metavar="FILE", type=Path)
    imported.add_argument("--replace", action="store_true", help="overwrite a stored game with the same id")
    imported.set_defaults(handler=run_import)


def run_games(args: argparse.Namespace) -> int:
    from rich.table import Table
    from rich.text import Text

    from aero_events.core.ids import for_terminal

    out = console()
    if args.db != ":memory:" and not Path(args.db).exists():
        out.print(f"no games: there is no store at {args.db}", markup=False)
        return 0
    if getattr(args, "delete", None) is not None:  # an empty prefix is refused, never read as "no --delete"
        removed = open_store(args).delete_games(args.delete)
        out.print(Text(for_terminal(f"removed {len(removed)} games starting with {args.delete!r} from {args.db}")))
        return 0
    summaries = open_store(args).games()
    if not summaries:
        out.print(f"no games in {args.db}")
        return 0
    table = Table(title=Text(f"games in {for_terminal(args.db)}"),
                  caption="events and last turn: each game's main line (the game that was played)")
    for column, justify in (("game", "left"), ("ruleset", "left"), ("created (UTC)", "left"),
                            ("players", "left"), ("events", "right"), ("branches", "right"),
                            ("last turn", "right")):
        table.add_column(column, justify=justify, no_wrap=column == "game")
    for game in summaries:  # stored text as Text, never as markup, with control characters shown escaped
        table.add_row(*(Text(for_terminal(cell)) for cell in (
            game.id, game.ruleset, game.created.strftime("%Y-%m-%d %H:%M"), ", ".join(game.players),
            str(game.events),
            str(game.branches) + ("" if game.main_line == "main" else f" (main line {game.main_line})"),
            "-" if game.last_turn is None else str(game.last_turn))))
    out.print(table)
    return 0


def _describe(record: EnvelopeRecord, player: str | None, ruleset_name: str) -> str:
    """The event decoded (and redacted for ``player``) through the game's ruleset. An event that cannot be
    decoded is an error: its raw payload may hold another player's secret, so it is never printed."""
    import msgspec

    from aero_events.core.errors import DataError
    from aero_events.core.secrets import redact
    from aero_events.core.session import StateCheckpoint
    from aero_events.store import StoreError
    from aero_events.store.viewer import withheld_checkpoint

    from .describe import describe_event

    try:
        event = record.to_envelope().event
    except (KeyError, msgspec.DecodeError, ValueError, DataError) as err:
        raise StoreError(f"event {record.seq} ({record.type}) cannot be decoded under {ruleset_name}: {err}; "
                         "nothing of it is shown") from None
    if player is None:
        return describe_event(event)
    if type(event) is StateCheckpoint:  # its hash covers the others' secrets: trying each value would find them
        return describe_event(withheld_checkpoint(event))
    return describe_event(redact(event, player))


def run_show(args: argparse.Namespace) -> int:
    from rich.text import Text

    from aero_events.core.ids import for_terminal

    store = open_store(args, must_exist=True)
    game_id = store.resolve_game_id(args.game)
    game = store.game(game_id)
    if args.player is not None and args.player not in game.players:
        raise ValueError(f"--player: game {game_id} has no player {args.player!r}; its players are "
                         f"{', '.join(game.players)}")
    store.ruleset(game_id)  # its event types known before decoding (an unknown ruleset is an error)
    branch = store.resolve_branch(game_id, args.branch)
    records = store.records(game_id, branch, turn=args.turn)
    if args.turn is not None and not records:  # say which turns there are rather than show an empty log
        turns = sorted({record.turn for record in store.records(game_id, branch)})
        held = f"turns {turns[0]}..{turns[-1]}" if turns else "no events"
        raise ValueError(f"--turn {args.turn}: branch {branch} of game {game_id} has {held}")
    out = console()
    viewer = f", as {args.player} sees it" if args.player else ""
    main_mark = ", the main line" if branch == store.main_line(game_id) else ""
    out.print(Text(for_terminal(f"game {game_id} ({game.ruleset}), branch {branch}: {len(records)} events"
                                f"{viewer}{main_mark}"), style="bold"))
    width_phase = max((len(record.phase) for record in records), default=5)
    width_actor = max((len(record.actor or "-") for record in records), default=5)
    for turn, in_turn in groupby(records, key=lambda record: record.turn):
        out.rule(f"Turn {turn}")
        for record in in_turn:
            line = Text()
            line.append(f"{record.seq:>5}  ", style="dim")
            line.append(for_terminal(f"{record.phase:<{width_phase}}  "), style="cyan")
            line.append(for_terminal(f"{record.actor or '-':<{width_actor}}  "), style="green")
            line.append(for_terminal(_describe(record, args.player, game.ruleset)))
            out.print(line, soft_wrap=True)
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from rich.table import Table
    from rich.text import Text

    from aero_events.core.ids import for_terminal
    from aero_events.store import StoreError

    if args.key and Path(args.game).is_file():
        return _verify_export(args)
    store: EventStore = open_store(args, must_exist=True)
    game_id = store.resolve_game_id(args.game)
    report = store.verify(game_id, replay=not args.no_replay, decide=not args.no_decide)
    out = console()
    out.print(Text(for_terminal(report.summary()), style="bold green" if report.ok else "bold red"))
    if report.problems:
        table = Table()
        for column in ("branch", "seq", "problem", "detail"):
            table.add_column(column)
        for problem in report.problems:
            table.add_row(*(Text(for_terminal(cell)) for cell in (problem.branch_id, str(problem.seq), problem.kind,
                                                                  problem.message)))
        out.print(table)
    for note in report.notes:
        out.print(f"note: {for_terminal(note)}", markup=False)
    signed = True
    if args.key or args.signatures:
        if args.signatures is None:
            raise StoreError("a stored game's signatures are in the .sig file made with its export: "
                             "give it with --signatures FILE")
        check = store.check_signatures(game_id, args.signatures, args.key)
        signed = check.ok
        out.print(Text(for_terminal(f"signatures: {check.summary()}"), style="bold green" if signed else "bold red"))
    return 0 if report.ok and signed else 1


def _verify_export(args: argparse.Namespace) -> int:
    """``aero verify FILE.jsonl --key PUB``: the export's signatures, then the game itself (imported into a
    store in memory: every event re-folded, the chain checked)."""
    from rich.text import Text

    from aero_events.core.ids import for_terminal
    from aero_events.store import EventStore
    from aero_events.store.signing import verify_export

    out = console()
    check = verify_export(args.game, args.key, args.signatures)
    out.print(Text(for_terminal(f"{args.game}: {check.summary()}"), style="bold green" if check.ok else "bold red"))
    scratch = EventStore(":memory:")
    game_id = scratch.import_jsonl(args.game)
    report = scratch.verify(game_id, replay=not args.no_replay, decide=not args.no_decide)
    out.print(Text(for_terminal(report.summary()), style="bold green" if report.ok else "bold red"))
    return 0 if check.ok and report.ok else 1


def run_export(args: argparse.Namespace) -> int:
    from aero_events.core.ids import for_terminal
    from aero_events.store import StoreError

    refuse_overwriting_a_store(args.file, "FILE")
    store = open_store(args, must_exist=True)
    game_id = store.resolve_game_id(args.game)
    suffix = args.file.suffix.lower()
    form = args.format or ("parquet" if suffix == ".parquet" else "record" if suffix == ".aero" else "jsonl")
    if args.player is not None:
        return _export_for_player(store, game_id, args, form)
    if args.sign:  # refused before anything is written: a failed --sign never leaves an unsigned export behind
        from aero_events.store.signing import load_private_key

        if form != "jsonl":
            raise StoreError("only a JSON Lines export is signed (--format jsonl)")
        for key in args.sign:
            load_private_key(key)
    if form == "record":  # the readable game record (aero_events/record/record_format.py)
        from aero_events.record.transfer import export_record
        count = export_record(store, game_id, args.file)
    elif form == "parquet":
        count = store.export_parquet(args.file, game_ids=[game_id])
    else:
        count = store.export_jsonl(game_id, args.file)
    out = console()
    out.print(f"wrote {count} events of game {for_terminal(game_id)} to {args.file} ({form})", markup=False)
    if args.sign:
        from aero_events.store.signing import sign_export, signature_path

        for key in args.sign:
            signature = sign_export(args.file, key)
            out.print(f"signed by {for_terminal(signature.signer)} ({signature.public_key[:16]}) into "
                      f"{signature_path(args.file)}", markup=False)
    return 0


def _export_for_player(store: EventStore, game_id: str, args: argparse.Namespace, form: str) -> int:
    """``aero export GAME FILE --player P``: P's copy (store/viewer.py), in any of the three formats."""
    from aero_events.core.ids import for_terminal
    from aero_events.store import StoreError
    from aero_events.store.viewer import check_viewer, export_viewer_jsonl, export_viewer_parquet

    if args.sign:
        raise StoreError("a player's copy is not signed: --sign signs the full export, the one both players "
                         "and the organiser can verify")
    check_viewer(store.game(game_id), args.player)
    if form == "record":
        from aero_events.record.transfer import export_record
        count = export_record(store, game_id, args.file, viewer=args.player)
    else:
        with store.connection(write=False) as conn:
            writer = export_viewer_parquet if form == "parquet" else export_viewer_jsonl
            count = writer(conn, game_id, args.player, args.file)
    console().print(f"wrote {count} events of game {for_terminal(game_id)} to {args.file} ({form}), as "
                    f"{for_terminal(args.player)} sees it: other players' secrets left out", markup=False)
    return 0


def run_sign(args: argparse.Namespace) -> int:
    from aero_events.core.ids import for_terminal
    from aero_events.store.signing import sign_export, signature_path

    signature = sign_export(args.file, args.key, args.name)
    console().print(f"{args.file}: signed by {for_terminal(signature.signer)} ({signature.public_key[:16]}) into "
                    f"{signature_path(args.file)}", markup=False)
    return 0


def run_keygen(args: argparse.Namespace) -> int:
    from aero_events.store.signing import generate_key

    refuse_overwriting_a_store(args.key, "KEY")
    refuse_overwriting_a_store(args.key.with_suffix(".pub"), "KEY's public key")
    public = generate_key(args.key)
    console().print(f"wrote the private key {args.key} (keep it to yourself) and the public key {public} "
                    "(give it to your opponent and the organiser)", markup=False)
    return 0


def run_import(args: argparse.Namespace) -> int:
    from aero_events.core.ids import for_terminal

    store = open_store(args)
    from aero_events.record.transfer import import_record, is_record_file
    redecided: bool | None = True  # a record is replayed command by command: decided again, every step
    from aero_events.store.transfer import is_parquet_file
    if is_parquet_file(args.file):  # a Parquet export: every game in it, all or none
        return _import_parquet(store, args)
    if is_record_file(args.file):  # a game record (.aero, or text opening with a [Header "..."])
        game_id = import_record(store, args.file, replace=args.replace)
    else:
        from aero_events.store.database import transaction
        from aero_events.store.transfer import read_jsonl, store_parsed

        parsed = read_jsonl(args.file)
        with store.connection() as conn, transaction(conn):
            game_id = store_parsed(conn, parsed, replace=args.replace)
        redecided = parsed.redecided
    events = sum(summary.all_events for summary in store.games() if summary.id == game_id)
    console().print(f"imported game {for_terminal(game_id)} ({events} events) from {args.file}", markup=False)
    if redecided is False:
        console().print("note: the game was recorded before commands were, so its events were re-folded under "
                        "the rules but its commands could not be decided again", markup=False)
    return 0


def _import_parquet(store: EventStore, args: argparse.Namespace) -> int:
    """Every game of a Parquet export (``aero export FILE.parquet``), each checked as a JSON Lines import is
    (re-folded and re-decided under its ruleset), stored in one transaction: all of them or none."""
    from aero_events.core.ids import for_terminal
    from aero_events.store.database import transaction
    from aero_events.store.transfer import read_parquet, store_parsed

    games = read_parquet(args.file)
    with store.connection() as conn, transaction(conn):
        ids = [store_parsed(conn, parsed, replace=args.replace) for parsed in games]
    events = sum(summary.all_events for summary in store.games() if summary.id in set(ids))
    console().print(f"imported {len(ids)} game(s) ({events} events) from {args.file}: "
                    f"{', '.join(for_terminal(game_id) for game_id in ids)}", markup=False)
    if any(parsed.redecided is False for parsed in games):
        console().print("note: some games were recorded before commands were, so their events were re-folded "
                        "under the rules but their commands could not be decided again", markup=False)
    return 0
