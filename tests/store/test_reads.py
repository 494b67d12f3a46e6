"""Reading: filtered events, a branch's line of play, whole games, states from snapshots, comparisons."""

from __future__ import annotations

import duckdb
import pytest

from aero_events.core import DataError, DiceRolled, SeededDice, StateCheckpoint
from aero_events.rulesets import register_ruleset
from aero_events.store import StoreError, UnknownGame
from tests.store.games import END_OF_TURN_1, long_session, played_session, tally_game
from tests.store.tally import tally_envelopes
from tests.support.bidding import BiddingRules, BidRevealed, Roll, Score, play_scripted_game


def test_events_filtered_by_turn_phase_type_and_range(store, saved):
    everything = saved.events()
    game = saved.game_id
    assert store.events(game, turn=2) == [env for env in everything if env.turn == 2]
    assert store.events(game, phase="roll") == [env for env in everything if env.phase == "roll"]
    rolls = store.events(game, types=["DiceRolled"])
    assert rolls and rolls == [env for env in everything if isinstance(env.event, DiceRolled)]
    assert store.events(game, types=[DiceRolled, BidRevealed]) == [
        env for env in everything if isinstance(env.event, DiceRolled | BidRevealed)]
    assert store.events(game, start=3, stop=6) == everything[2:6]
    assert store.events(game, types=["CommandIssued", "SecretCommandIssued"]) == [
        env for env in everything if env.type in ("CommandIssued", "SecretCommandIssued")]
    assert store.events(game, turn=1, phase="reveal", types=["test.BidRevealed"]) == [
        env for env in everything if env.turn == 1 and env.phase == "reveal" and env.type == "test.BidRevealed"]
    assert store.events(game, turn=99) == []


def test_records_need_no_decoding(store, saved):
    records = store.records(saved.game_id, types=["DiceRolled"])
    assert [record.to_envelope() for record in records] == store.events(saved.game_id, types=["DiceRolled"])


def test_a_branch_reads_its_ancestors_events_up_to_each_fork(store, saved):
    alt = saved.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3),))
    alice_rolled = END_OF_TURN_1 + 10  # 4 bid events, 4 reveal events, alice's roll command and die
    assert alt.events(alice_rolled, alice_rolled)[0].event.roller == "alice"
    deeper = alt.fork(alice_rolled, "deeper")  # mid-turn: alice has rolled, bob rolls with other dice
    deeper.apply(Roll(player="bob"))
    deeper.apply(Score(player="alice"))
    alt.fork(4, "early")  # forks alt inside the part alt shares with main
    store.save_session(alt)
    for branch in ("main", "alt", "deeper", "early"):
        expected = saved.game.branches[branch].envelopes()
        assert store.events(saved.game_id, branch) == list(expected)
    assert [env.branch_id for env in store.events(saved.game_id, "deeper")] == (
        ["main"] * END_OF_TURN_1 + ["alt"] * 10 + ["deeper"] * (deeper.seq - alice_rolled))
    assert store.events(saved.game_id, "early") == saved.events(stop=4)
    assert store.events(saved.game_id, "deeper", start=7, stop=12) == deeper.events(start=7, stop=12)
    tree = store.branch_tree(saved.game_id)
    assert list(tree) == ["main", "alt", "deeper", "early"]
    assert tree["main"].children == ("alt",) and tree["alt"].children == ("deeper", "early")
    assert (tree["early"].parent, tree["early"].fork_seq, tree["early"].depth) == ("alt", 4, 2)


def test_load_game_rebuilds_every_branch(store, saved):
    alt = saved.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3),))
    store.save_session(alt)
    game = store.load_game(saved.game_id)
    assert set(game.branches) == {"main", "alt"}
    assert game.setup == saved.game.setup and game.metadata == saved.game.metadata
    for branch_id, branch in saved.game.branches.items():
        loaded = game.branches[branch_id]
        assert (loaded.parent.id if loaded.parent else None) == (branch.parent.id if branch.parent else None)
        assert loaded.fork_seq == branch.fork_seq
        assert list(loaded.envelopes()) == list(branch.envelopes())
        assert loaded.state_at(loaded.head_seq) == branch.state_at(branch.head_seq)


def test_load_game_of_an_unknown_game(store):
    with pytest.raises(UnknownGame):
        store.load_game("missing")


class CountingRules(BiddingRules):
    """The bidding rules, counting how many events they are asked to fold."""

    evolved = 0

    def evolve(self, state, event):
        CountingRules.evolved += 1
        return super().evolve(state, event)


@pytest.fixture
def counting_rules():
    CountingRules.evolved = 0
    register_ruleset("test/bidding", CountingRules)
    yield CountingRules
    register_ruleset("test/bidding", BiddingRules)


def test_state_at_folds_from_the_nearest_snapshot(store, db_path, counting_rules):
    session = long_session()
    store.save_session(session)
    events = session.events()
    checkpoints = [env.seq for env in events if isinstance(env.event, StateCheckpoint)]
    with duckdb.connect(str(db_path)) as conn:
        stored = [row[0] for row in conn.execute("SELECT seq FROM snapshots ORDER BY seq").fetchall()]
    assert stored == checkpoints and len(stored) == 11  # one per change of turn

    turn_11 = [env.seq for env in events if env.turn == 11]
    target = turn_11[len(turn_11) // 2]
    nearest = max(seq for seq in checkpoints if seq <= target)
    counting_rules.evolved = 0
    assert store.state_at(session.game_id, "main", target) == session.state_at(target)
    assert 0 < counting_rules.evolved <= target - nearest < 10

    counting_rules.evolved = 0
    assert store.state_at(session.game_id, "main", nearest) == session.state_at(nearest)
    assert counting_rules.evolved == 0

    counting_rules.evolved = 0
    assert store.state_at(session.game_id, "main", target, use_snapshots=False) == session.state_at(target)
    assert counting_rules.evolved > 50


def test_a_fork_uses_its_ancestors_snapshots_up_to_the_fork_only(store, counting_rules):
    session = long_session()
    fork_at = [env.seq for env in session.events() if env.turn == 6][3]
    alt = session.fork(fork_at, "alt", dice=SeededDice("alt"))
    store.save_session(alt)
    counting_rules.evolved = 0
    assert store.state_at(session.game_id, "alt", fork_at) == session.state_at(fork_at)
    assert counting_rules.evolved < 10
    assert store.state_at(session.game_id, "alt", 0) == session.state_at(0)
    with pytest.raises(StoreError, match="no state at"):
        store.state_at(session.game_id, "alt", fork_at + 1)


def test_compare_finds_where_two_branches_part(store, saved):
    alt = saved.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3),))
    same = saved.fork(saved.seq, "same")
    store.save_session(alt)
    result = store.compare(saved.game_id, "main", "alt")
    parted = END_OF_TURN_1 + 1  # alice's bid of turn 2, different in each branch
    assert result.first_difference == parted
    assert result.event_a == saved.events(start=parted, stop=parted)[0]
    assert result.event_b == alt.events(start=parted, stop=parted)[0]
    assert (result.head_a, result.head_b) == (saved.seq, alt.seq)
    assert result.state_hash_a == saved.state_hash() and result.state_hash_b == alt.state_hash()
    assert result.state_hash_a != result.state_hash_b

    identical = store.compare(saved.game_id, "main", "same")
    assert identical.identical and identical.event_a is None and identical.state_hash_a == identical.state_hash_b
    assert same.seq == saved.seq

    store.fork(saved.game_id, "main", 6, "short")  # a command boundary (branches.fork_point)
    prefix = store.compare(saved.game_id, "main", "short")
    assert prefix.first_difference == 7 and prefix.event_b is None and prefix.event_a.seq == 7


def test_games_lists_a_summary_of_each_game(store, saved):
    other = tally_game("tally-1")
    store.create_game(other)
    store.append(other.id, "main", tally_envelopes(other.id, 1, 250), expected_seq=0)
    third = played_session(game_id="game-2", seed=99)
    store.save_session(third)
    store.fork(saved.game_id, "main", 4, "side")
    summaries = {summary.id: summary for summary in store.games()}
    assert list(summaries) == [saved.game_id, "tally-1", "game-2"]  # oldest first
    first = summaries[saved.game_id]
    assert (first.ruleset, first.players, first.events, first.branches, first.last_turn) == (
        "test/bidding", ["alice", "bob"], saved.seq, 2, saved.events()[-1].turn)
    assert (summaries["tally-1"].events, summaries["tally-1"].last_turn) == (250, 3)


def test_an_unknown_game_prefix_is_reported(store, saved):
    store.save_session(played_session(game_id="game-2", seed=3))
    assert store.resolve_game_id("game-1") == "game-1"
    with pytest.raises(UnknownGame, match="more than one"):
        store.resolve_game_id("game")
    with pytest.raises(UnknownGame, match="no game 'zz'"):
        store.resolve_game_id("zz")


def test_reads_come_back_in_seq_order_whatever_order_rows_are_stored_in(store, db_path, saved):
    with duckdb.connect(str(db_path)) as conn:
        conn.execute("CREATE TEMP TABLE shuffled AS SELECT * FROM events ORDER BY (seq * 7) % 11, seq DESC")
        conn.execute("DELETE FROM events")
        conn.execute("INSERT INTO events SELECT * FROM shuffled")
        stored_order = [row[0] for row in conn.execute("SELECT seq FROM events").fetchall()]
    assert stored_order != sorted(stored_order)
    assert store.events(saved.game_id) == saved.events()
    assert store.state_at(saved.game_id, "main", use_snapshots=False) == saved.state
    assert store.verify(saved.game_id).ok


def test_a_payload_that_no_longer_decodes_is_named_when_read(store, db_path, saved):
    with duckdb.connect(str(db_path)) as conn:
        conn.execute("UPDATE events SET payload = replace(payload, '\"faces\":[', '\"faces\":[\"six\",') "
                     "WHERE seq = 10")  # alice's die
    for read in (lambda: store.events(saved.game_id), lambda: store.state_at(saved.game_id, "main", 14)):
        with pytest.raises(DataError) as refused:
            read()
        assert refused.value.location == "seq 10" and refused.value.field == "payload.faces[0]"
        assert f"game {saved.game_id} branch main" in str(refused.value)
