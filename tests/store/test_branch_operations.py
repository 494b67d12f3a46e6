"""Issue 17 item 1: fork points on command boundaries; rename, promote and delete keep verify and export true.

store/branches.py: a fork shares its parent's events up to a command boundary (0, the end of a command, the
head), so that play can go on from it; a point inside a command is refused naming the boundaries around it,
or snapped to one. The hash chain does not cover branch names (store/chain.py) and the game's digest of its
branch rows is re-sealed in the same transaction, so ``verify`` stays ok and a deletion is on record.
"""

from __future__ import annotations

import pytest

from aero_events.core import GameSession
from aero_events.core.dice import SeededDice
from aero_events.core.session import CommandIssued, SecretCommandIssued
from aero_events.record import journal
from aero_events.record.record_format import Annotation
from aero_events.store import BranchExists, EventStore, StoreError, UnknownBranch
from aero_events.store.branches import BranchInUse, ForkPointError
from tests.store.games import END_OF_TURN_1, tally_game
from tests.store.tally import tally_envelopes
from tests.support.bidding import play_scripted_game

COMMANDS = (CommandIssued.type_name(), SecretCommandIssued.type_name())


def command_starts(session) -> list[int]:
    return [env.seq for env in session.events() if env.type in COMMANDS]


def inside_a_command(session) -> tuple[int, int, int]:
    """(before, a seq inside, after) for the first command with more than one event after its CommandIssued."""
    starts = command_starts(session)
    ends = [start - 1 for start in starts[1:]] + [session.seq]
    for start, end in zip(starts, ends, strict=True):
        if end - start >= 2:
            return start - 1, start + 1, end
    raise AssertionError("no command with two events")


def export_round_trips(store: EventStore, game_id: str, tmp_path, name: str) -> None:
    """The whole game exports, and the export imports elsewhere as the same game, verify ok."""
    path = tmp_path / f"{name}.jsonl"
    store.export_jsonl(game_id, path)
    other = EventStore(tmp_path / f"{name}.duckdb")
    other.import_jsonl(path)
    assert other.verify(game_id).ok
    assert other.export_bytes(game_id) == store.export_bytes(game_id)


def test_command_boundaries_are_the_ends_of_recorded_commands(store, saved):
    starts = command_starts(saved)
    assert store.command_boundaries(saved.game_id) == sorted({0, *(s - 1 for s in starts), saved.seq})


def test_a_fork_point_inside_a_command_is_refused_naming_the_boundaries_and_writes_nothing(store, saved):
    before, inside, after = inside_a_command(saved)
    with pytest.raises(ForkPointError, match=f"inside a command .* fork at {before} .* or {after}") as refused:
        store.fork(saved.game_id, None, inside, "bad")
    assert (refused.value.before, refused.value.after) == (before, after)
    assert set(store.branch_tree(saved.game_id)) == {"main"}


@pytest.mark.parametrize(("snap", "which"), [("before", 0), ("after", 2)])
def test_snap_moves_a_point_inside_a_command_to_the_boundary_asked_for(store, saved, snap, which):
    points = inside_a_command(saved)
    info = store.fork(saved.game_id, "main", points[1], "snapped", snap=snap)
    assert info.fork_seq == points[which]


def test_a_snapped_fork_can_be_played_on_saved_and_verified(store, saved, tmp_path):
    """The bug of issue 17: a branch forked inside a command could not be resumed, and then the whole
    game's export failed. Now every stored fork is at a boundary and play goes on from it."""
    _, inside, after = inside_a_command(saved)
    store.fork(saved.game_id, "main", inside, "resumed", snap="after")
    play = store.session(saved.game_id, "resumed", dice=SeededDice("resumed"))
    assert play.seq == after
    play_scripted_game(play, bids=((1, 1), (2, 3), (3, 2)))
    store.save_session(play)
    assert store.head(saved.game_id, "resumed") > after
    assert store.verify(saved.game_id).ok
    export_round_trips(store, saved.game_id, tmp_path, "resumed")


def test_a_fork_point_past_the_end_is_refused(store, saved):
    with pytest.raises(StoreError, match=f"events 1..{saved.seq}; cannot fork at {saved.seq + 1}"):
        store.fork(saved.game_id, "main", saved.seq + 1, "beyond")


def test_a_line_stored_before_commands_were_has_its_boundaries_recovered(store):
    """A game stored without CommandIssued events (the format before issue 11): its commands are re-decided
    (regress/decisions.py) to find where each ends; a point inside one is refused as for any game."""
    from aero_events.bots import make_bot, play
    from aero_events.demo import demo_session

    rules = demo_session(3).ruleset
    legacy = GameSession(rules, demo_session(3).game.setup, dice=SeededDice(3), game_id="old-1",
                         record_commands=False)
    bots = {player: make_bot(rules, "random", f"3:{player}") for player in rules.players(legacy.state)}
    commands = play(legacy, bots, max_commands=12)
    store.save_session(legacy)
    assert not command_starts(legacy)
    boundaries = store.command_boundaries("old-1")
    assert boundaries[0] == 0 and boundaries[-1] == legacy.seq
    assert len(boundaries) - 1 == commands  # one end per command
    inside = next(seq for seq in range(1, legacy.seq) if seq not in boundaries)
    with pytest.raises(ForkPointError):
        store.fork("old-1", None, inside, "bad")
    assert store.fork("old-1", None, boundaries[3], "mid").fork_seq == boundaries[3]


def test_a_line_whose_commands_cannot_be_recovered_forks_only_at_its_ends(store):
    game = tally_game("odd-1")
    store.create_game(game)
    store.append("odd-1", "main", tally_envelopes("odd-1", 1, 5), expected_seq=0)
    with pytest.raises(StoreError, match="cannot be recovered"):
        store.fork("odd-1", None, 3, "mid")
    assert store.fork("odd-1", None, 5, "end").fork_seq == 5


def test_rename_moves_events_children_annotations_and_the_main_line(store, saved, tmp_path):
    alt = saved.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3),))
    store.save_session(alt)
    store.fork(saved.game_id, "alt", alt.seq, "leaf")
    journal.add_annotation(store, saved.game_id, Annotation("alt", alt.seq, "note", "the bid that won"))
    store.promote(saved.game_id, "alt")
    events = store.events(saved.game_id, "alt")
    info = store.rename_branch(saved.game_id, "alt", "second-try")
    assert (info.id, info.label, info.head_seq) == ("second-try", "second-try", alt.seq)
    tree = store.branch_tree(saved.game_id)
    assert set(tree) == {"main", "second-try", "leaf"} and tree["leaf"].parent == "second-try"
    assert store.main_line(saved.game_id) == "second-try"
    assert [(e.seq, e.event) for e in store.events(saved.game_id)] == [(e.seq, e.event) for e in events]
    assert [(n.branch, n.text) for n in journal.annotations(store, saved.game_id)] == [
        ("second-try", "the bid that won")]
    assert store.verify(saved.game_id).ok
    export_round_trips(store, saved.game_id, tmp_path, "renamed")


def test_rename_refuses_the_root_an_existing_name_and_an_unknown_branch(store, saved):
    store.fork(saved.game_id, "main", END_OF_TURN_1, "alt")
    with pytest.raises(BranchInUse, match="root .* keeps its name"):
        store.rename_branch(saved.game_id, "main", "trunk")
    with pytest.raises(BranchExists):
        store.rename_branch(saved.game_id, "alt", "main")
    with pytest.raises(UnknownBranch):
        store.rename_branch(saved.game_id, "nope", "x")
    assert set(store.branch_tree(saved.game_id)) == {"main", "alt"}


def test_delete_refuses_the_main_line_and_a_branch_others_fork_from(store, saved):
    store.fork(saved.game_id, "main", END_OF_TURN_1, "alt")
    store.fork(saved.game_id, "alt", END_OF_TURN_1, "child")
    with pytest.raises(BranchInUse, match="root"):
        store.delete_branch(saved.game_id, "main")
    with pytest.raises(BranchInUse, match="branch child forks from 'alt'.*--with-children"):
        store.delete_branch(saved.game_id, "alt")
    store.promote(saved.game_id, "child")
    with pytest.raises(BranchInUse, match="'child' is the main line"):
        store.delete_branch(saved.game_id, "alt", with_children=True)
    with pytest.raises(BranchInUse, match="is the main line .*--promote"):
        store.delete_branch(saved.game_id, "child")
    assert set(store.branch_tree(saved.game_id)) == {"main", "alt", "child"}


def test_a_deleted_branch_is_on_record_not_reported_as_tampering(store, saved, tmp_path):
    alt = saved.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3),))
    store.save_session(alt)
    store.fork(saved.game_id, "alt", alt.seq, "child")
    gone = store.delete_branch(saved.game_id, "alt", with_children=True)
    assert gone == ["child", "alt"]
    assert set(store.branch_tree(saved.game_id)) == {"main"}
    assert store.verify(saved.game_id).ok
    deleted = {row.id: row for row in store.deleted_branches(saved.game_id)}
    assert set(deleted) == {"alt", "child"}
    assert (deleted["alt"].parent, deleted["alt"].fork_seq, deleted["alt"].head_seq,
            deleted["alt"].own_events) == ("main", END_OF_TURN_1, alt.seq, alt.seq - END_OF_TURN_1)
    with store.connection(write=False) as conn:
        assert conn.execute("SELECT count(*) FROM events WHERE branch = 'alt'").fetchall() == [(0,)]
        assert conn.execute("SELECT count(*) FROM snapshots WHERE branch = 'alt'").fetchall() == [(0,)]
    export_round_trips(store, saved.game_id, tmp_path, "deleted")
    assert store.fork(saved.game_id, "main", END_OF_TURN_1, "alt").own_events == 0  # the name is free again


def test_verify_and_export_hold_after_every_branch_operation_in_turn(store, saved, tmp_path):
    steps = [
        lambda: store.fork(saved.game_id, None, END_OF_TURN_1, "a"),
        lambda: store.fork(saved.game_id, "a", END_OF_TURN_1, "b"),
        lambda: store.promote(saved.game_id, "b"),
        lambda: store.rename_branch(saved.game_id, "b", "bee"),
        lambda: store.promote(saved.game_id, "main"),
        lambda: store.delete_branch(saved.game_id, "a", with_children=True),
    ]
    for number, step in enumerate(steps):
        step()
        assert store.verify(saved.game_id).ok, number
        export_round_trips(store, saved.game_id, tmp_path, f"step-{number}")
