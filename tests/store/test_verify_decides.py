"""``aero verify`` decides every recorded command again (store/integrity.py, ``check_decisions``): a hash chain
can be recomputed by anyone who can write the database file, and a replay only shows that the events apply,
so a die changed in the store (the events after it left as they were, every hash recomputed) passes the
chain and the replay but not the decisions."""

from __future__ import annotations

import msgspec
import pytest

from aero_events.cli import main
from aero_events.core import DiceRolled, GameSession, SeededDice
from aero_events.store import EventStore
from aero_events.store.integrity import DECIDED
from tests.reliability.secrets_games import demo_game, shipped


def _to_hit_roll_that_missed(session: GameSession) -> tuple[int, int]:
    """(seq of an Aeronautica to-hit roll (Firing Phase, p.20-22) with a miss, seq of the HitsScored after it)."""
    events = session.events()
    for index, env in enumerate(events):
        event = env.event
        if type(event) is not DiceRolled or not event.purpose.startswith("to hit") or set(event.faces) == {6}:
            continue
        scored = next((later for later in events[index + 1:] if later.type == "ai.HitsScored"), None)
        if scored is not None and scored.event.hits < event.count:
            return env.seq, scored.seq
    raise AssertionError("the demo game has no to-hit roll with a miss")


def _stored_forgery(tmp_path) -> tuple[EventStore, str, int]:
    """The Aeronautica demo game stored with one to-hit roll's faces all set to 6, the events after it as they
    were: stored through a session, so its chain, seals and checkpoints are all recomputed and consistent."""
    session = demo_game("aeronautica")
    die_seq, hits_seq = _to_hit_roll_that_missed(session)
    forged = []
    for env in session.events():
        if env.seq == die_seq:
            env = msgspec.structs.replace(env, event=msgspec.structs.replace(env.event, faces=(6,) * env.event.count))
        forged.append(env)
    copy = GameSession(session.ruleset, session.game.setup, dice=SeededDice(0), game_id="forged",
                       metadata=session.game.metadata)
    copy.record(forged)
    store = EventStore(tmp_path / "forged.duckdb")
    store.save_session(copy)
    return store, "forged", hits_seq


@pytest.mark.parametrize("family", shipped())
def test_every_shipped_demo_game_verifies_with_its_decisions(tmp_path, family):
    """A legitimate game: chain, replay and every recorded command decided again."""
    store = EventStore(tmp_path / "games.duckdb")
    session = demo_game(family)
    store.save_session(session)
    report = store.verify(session.game_id)
    assert report.ok and report.redecided
    assert "hash chain, replay and decisions checked" in report.summary()


def test_a_die_changed_in_the_store_passes_chain_and_replay_but_not_the_decisions(tmp_path):
    store, game_id, hits_seq = _stored_forgery(tmp_path)
    assert store.verify(game_id, decide=False).ok  # what verify could not see before
    report = store.verify(game_id)
    assert not report.ok and not report.redecided
    problem = report.first_problem
    assert problem.kind == DECIDED and problem.branch_id == "main" and problem.seq == hits_seq
    assert "did not produce" in problem.message


def test_the_cli_names_the_event_the_rules_did_not_produce_and_exits_1(tmp_path, capsys):
    store, game_id, hits_seq = _stored_forgery(tmp_path)
    database = str(store.path)
    assert main(["verify", game_id, "--db", database]) == 1
    out = capsys.readouterr().out
    assert "not decided" in out and str(hits_seq) in out and "Traceback" not in out
    assert main(["verify", game_id, "--db", database, "--no-decide"]) == 0


def test_a_game_recorded_before_commands_were_is_replayed_and_says_so(tmp_path):
    """No CommandIssued anywhere (a game from before commands were recorded): nothing to decide, a note."""
    session = demo_game("aeronautica")
    plain = [env for env in session.events() if env.type not in ("CommandIssued", "SecretCommandIssued")]
    renumbered = [msgspec.structs.replace(env, seq=seq) for seq, env in enumerate(plain, start=1)]
    copy = GameSession(session.ruleset, session.game.setup, dice=SeededDice(0), game_id="old",
                       metadata=session.game.metadata, record_commands=False)
    copy.record(renumbered)
    store = EventStore(tmp_path / "old.duckdb")
    store.save_session(copy)
    report = store.verify("old")
    assert report.ok and not report.redecided
    assert any("replayed, not decided again" in note for note in report.notes)
