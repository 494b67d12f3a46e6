"""Issue 16 item 4: an import decides every recorded command again under the named ruleset, with the recorded
dice and salts, and refuses the file at the line of the first event the rules did not produce
(store/refold.py, ``redecide_parsed``)."""

from __future__ import annotations

import json

import msgspec
import pytest

from aero_events.cli import main
from aero_events.core import GameSession, SeededDice
from aero_events.core.errors import DataError
from aero_events.store import EventStore
from aero_events.store.transfer import read_jsonl, store_parsed
from tests.reliability.conftest import stored_rows
from tests.reliability.secrets_games import demo_game, forge, lines_of, shipped
from tests.store.games import played_session
from tests.support.bidding import BiddingRules, BidSetup, Roll, Score, play_scripted_game


def _export(session: GameSession, tmp_path) -> list[bytes]:
    store = EventStore(tmp_path / "source.duckdb")
    store.save_session(session)
    path = tmp_path / "source.jsonl"
    store.export_jsonl(session.game_id, path)
    return lines_of(path)


def _refusal(tmp_path, data: bytes) -> DataError:
    path = tmp_path / "forged.jsonl"
    path.write_bytes(data)
    target = EventStore(tmp_path / "target.duckdb")
    with pytest.raises(DataError) as refused:
        target.import_jsonl(path)
    assert stored_rows(target) == 0
    return refused.value


def _import(tmp_path, lines: list[bytes]):
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    parsed = read_jsonl(path)
    store = EventStore(tmp_path / "target.duckdb")
    with store.connection() as conn:
        store_parsed(conn, parsed)
    return parsed, store


@pytest.mark.parametrize("family", shipped())
def test_each_shipped_ruleset_s_demo_game_imports_re_decided(tmp_path, family):
    """A legitimate game: every recorded command, decided again, gives the recorded events."""
    session = demo_game(family)
    parsed, store = _import(tmp_path, _export(session, tmp_path))
    assert parsed.redecided is True
    assert store.verify(session.game_id).ok


def _first_line(lines: list[bytes], predicate) -> int:
    return next(index for index, line in enumerate(lines) if predicate(json.loads(line)))


def test_a_forged_die_that_turns_a_miss_into_a_hit_is_refused_at_the_hits_it_should_have_scored(tmp_path):
    """Aeronautica's to-hit roll (Firing Phase, p.18): every face of a roll that missed set to 6, every hash
    recomputed. The file still folds (a die changes no state, the recorded hits still apply), but the rules,
    given those faces, score more hits than the record says: refused at the recorded HitsScored."""
    lines = _export(demo_game("aeronautica"), tmp_path)
    events = [json.loads(line) for line in lines[2:]]
    for index, event in enumerate(events):
        payload = event["payload"]
        if event["type"] != "DiceRolled" or not payload["purpose"].startswith("to hit") or set(payload["faces"]) == {6}:
            continue
        scored = next((later for later in events[index + 1:] if later["type"] == "ai.HitsScored"), None)
        if scored is not None and scored["payload"]["hits"] < payload["count"]:
            break
    else:
        pytest.fail("the demo game has no to-hit roll with a miss")
    payload["faces"] = [6] * payload["count"]
    forged = [*lines[:2], *(json.dumps(e, separators=(",", ":")).encode() for e in events)]
    error = _refusal(tmp_path, forge(forged))
    hits_line = 3 + events.index(scored)  # line numbers from 1; the header and the branch line come first
    assert error.location == hits_line
    assert "did not produce" in error.detail


def test_a_forged_die_before_a_score_the_file_also_records_is_refused(tmp_path):
    """The bidding test ruleset: a die's face changed (every hash recomputed) re-decides to another score."""
    lines = _export(played_session(), tmp_path)
    index = _first_line(lines[2:], lambda e: e["type"] == "DiceRolled") + 2
    event = json.loads(lines[index])
    event["payload"]["faces"] = [1 if event["payload"]["faces"][0] != 1 else 6]
    forged = [*lines[:index], json.dumps(event, separators=(",", ":")).encode(), *lines[index + 1:]]
    error = _refusal(tmp_path, forge(forged))
    assert error.location is not None and error.location > index + 1


def test_an_event_inserted_between_two_commands_is_refused_at_its_line(tmp_path):
    """A copy of a die roll (which changes no state, so the file still folds) put just before a recorded
    command: no command produced it."""
    lines = _export(demo_game("aeronautica"), tmp_path)
    dice = _first_line(lines[2:], lambda e: e["type"] == "DiceRolled") + 2
    command = next(i for i in range(dice + 1, len(lines)) if json.loads(lines[i])["type"] == "CommandIssued")
    forged = [*lines[:command], lines[dice], *lines[command:]]
    error = _refusal(tmp_path, forge(forged))
    assert error.location == command + 1  # the inserted line
    assert "no recorded command comes before it" in error.detail


def test_a_sealed_choice_swapped_after_it_was_sealed_is_refused(tmp_path):
    """A Manoeuvre token's choice (p.13) changed, its commitment kept: the seal no longer holds."""
    lines = _export(demo_game("aeronautica"), tmp_path)
    index = _first_line(lines[2:], lambda e: e["type"] == "SecretCommandIssued") + 2
    event = json.loads(lines[index])
    event["payload"]["command"]["player"] = event["payload"]["command"]["player"] + "x"
    forged = [*lines[:index], json.dumps(event, separators=(",", ":")).encode(), *lines[index + 1:]]
    error = _refusal(tmp_path, forge(forged))
    assert error.location == index + 1
    assert error.field == "payload.commitment"


def test_an_event_given_to_the_other_player_is_refused(tmp_path):
    """Each event a command caused is its player's: an event re-attributed (hashes recomputed) is refused."""
    lines = _export(played_session(), tmp_path)
    index = _first_line(lines[2:], lambda e: e["type"] == "DiceRolled") + 2
    event = json.loads(lines[index])
    event["actor"] = "bob" if event["actor"] == "alice" else "alice"
    forged = [*lines[:index], json.dumps(event, separators=(",", ":")).encode(), *lines[index + 1:]]
    error = _refusal(tmp_path, forge(forged))
    assert error.location == index + 1
    assert error.field == "actor"


def test_a_game_recorded_before_commands_were_is_re_folded_only_and_the_import_says_so(tmp_path, capsys):
    session = GameSession(BiddingRules(), BidSetup(), dice=SeededDice(7), game_id="old-1", record_commands=False)
    play_scripted_game(session)
    path = tmp_path / "old.jsonl"
    path.write_bytes(b"\n".join(_export(session, tmp_path)) + b"\n")
    parsed, _ = _import(tmp_path, lines_of(path))
    assert parsed.redecided is False
    assert main(["import", str(path), "--db", str(tmp_path / "cli.duckdb")]) == 0
    assert "could not be decided again" in capsys.readouterr().out


def test_a_branch_forked_inside_a_command_imports_re_decided_from_its_fork(tmp_path):
    """A fork may come between a command's events (``aero fork --at``); the branch's own commands are decided
    from the state its parent's events fold to there."""
    session = played_session()
    inside = next(env.seq for env in session.events()  # after a Roll's record, before its die
                  if env.type == "CommandIssued" and env.event.command["command"] == "Roll")
    alt = session.fork(inside, "alt")
    for command in (Roll(player="alice"), Roll(player="bob"), Score(player="alice")):
        alt.apply(command)
    play_scripted_game(alt, bids=((1, 3),))
    store = EventStore(tmp_path / "source.duckdb")
    store.save_session(alt)
    path = tmp_path / "branched.jsonl"
    store.export_jsonl(session.game_id, path)
    parsed, target = _import(tmp_path, lines_of(path))
    assert parsed.redecided is True
    assert msgspec.json.encode([e.event for e in target.events(session.game_id, "alt")]) == \
        msgspec.json.encode([e.event for e in alt.events()])
