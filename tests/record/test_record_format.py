"""The game record: exported from the store with every branch and annotation, imported back through the
rules to the same events and state hashes; malformed records refused at their line and column, with
nothing written."""

from __future__ import annotations

import re

import pytest

from aero_events.bots import RandomBot, play
from aero_events.cli import main
from aero_events.core import encode_event
from aero_events.demo import demo_session
from aero_events.record import journal
from aero_events.record.errors import RecordError
from aero_events.record.record_format import read_record, write_record
from aero_events.record.transfer import import_record, record_text
from aero_events.record.undo import recover_boundaries
from aero_events.rulesets.aeronautica.bots import GreedyBot
from aero_events.rulesets.aeronautica.state import THROTTLE
from aero_events.store import EventStore
from tests.record.table import GAME_ID, is_dice_prompt, record_scripted_game


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A table game with notes and an undo (so two branches), exported with ``aero export``."""
    folder = tmp_path_factory.mktemp("recorded")
    store = EventStore(folder / "table.duckdb")
    done = set()

    def notes_and_undo(number, prompt, recorder):
        if is_dice_prompt(prompt):
            return None
        if "first note" not in done and recorder.session.seq > 20:
            done.add("first note")
            return "note a long way to close"
        if "undo" not in done and recorder.session.state.step == THROTTLE and recorder.session.state.turn == 2:
            done.add("undo")
            return "undo 3"
        if "second note" not in done and "undo" in done:
            done.add("second note")
            return "note second thoughts"
        return None

    record_scripted_game(store, notes_and_undo)
    path = folder / "game.aero"
    assert main(["export", GAME_ID, str(path), "--db", str(store.path)]) == 0
    return store, path, path.read_text()


def test_the_record_reads_like_a_game(recorded):
    _, _, text = recorded
    assert text.startswith('[Event "?"]\n[Date "')
    for header in ('[GameId "table-test"]', '[Ruleset "aeronautica/wov-2019"]', '[Scenario "The Dogfight"]',
                   '[Players "imperium - orks"]', '[Points "25"]', '[Board "3x3"]', '[Dice "manual"]',
                   '[Salts "table-test"]', '[Current "undo-1"]', '[Result "draw"]',
                   ('[Forces "imperium=Lone Wolf(imperial_navy): thunderbolt; orks=Da Kult(ork_air_waaagh): '
                    'dakkajet+2*rokkits"]')):
        assert header in text
    assert "\nimperium rolloff [rolloff 5] [rolloff 3]\nimperium-1 @9,11N S4 A3\norks-1 @10,-3S S5 A3\n" in text
    assert re.search(r"\n1\. imperium-1 M1\n   orks-1 M1 \[init \d\] \[init \d\]\n", text)
    assert re.search(r"imperium-1 fire twin_lascannons>orks-1 quad_autocannons>orks-1 \[hit [\d,]+\] "
                     r"\[hit [\d,]+\] \[dmg [\d,]+\] =orks-1:-1", text)
    assert "{[%note a long way to close]}" in text and "{[%note second thoughts]}" in text
    assert "  (undo-1:\n" in text and "=end:draw)\n" in text  # the game ends on the undo's branch


def test_an_exported_record_imports_to_the_same_game_with_every_branch_and_note(recorded, tmp_path):
    store, path, text = recorded
    other = tmp_path / "other.duckdb"
    assert main(["import", str(path), "--db", str(other)]) == 0
    copy = EventStore(other)
    tree, copied = store.branch_tree(GAME_ID), copy.branch_tree(GAME_ID)
    assert [(b.id, b.parent, b.fork_seq, b.head_seq, b.label) for b in tree.values()] == \
           [(b.id, b.parent, b.fork_seq, b.head_seq, b.label) for b in copied.values()]
    assert set(tree) == {"main", "undo-1"}
    for branch in tree:
        assert copy.state_hash(GAME_ID, branch) == store.state_hash(GAME_ID, branch)
        assert [encode_event(e.event) for e in copy.events(GAME_ID, branch)] == \
               [encode_event(e.event) for e in store.events(GAME_ID, branch)]
        for seq in range(0, tree[branch].head_seq + 1, 17):  # and the states on the way
            assert copy.state_hash(GAME_ID, branch, seq) == store.state_hash(GAME_ID, branch, seq)
    assert journal.annotations(copy, GAME_ID) == journal.annotations(store, GAME_ID)
    assert len(journal.annotations(copy, GAME_ID)) == 2
    assert journal.current_branch(copy, GAME_ID) == "undo-1"
    assert copy.verify(GAME_ID).ok
    assert record_text(copy, GAME_ID) == text  # written again, the same record


def test_export_format_record_and_import_detects_a_record_by_its_content(recorded, tmp_path, capsys):
    store, _, text = recorded
    plain = tmp_path / "game.txt"
    assert main(["export", GAME_ID, str(plain), "--format", "record", "--db", str(store.path)]) == 0
    assert plain.read_text() == text
    other = tmp_path / "other.duckdb"
    assert main(["import", str(plain), "--db", str(other)]) == 0
    assert "imported game table-test" in capsys.readouterr().out
    assert main(["import", str(plain), "--db", str(other)]) == 2  # already there
    assert "already in the store" in capsys.readouterr().err
    assert main(["import", str(plain), "--db", str(other), "--replace"]) == 0
    assert len(journal.annotations(EventStore(other), GAME_ID)) == 2  # replaced, not doubled


def test_a_bot_game_with_a_fork_and_random_salts_round_trips_exactly():
    """A seeded game whose fork has salts the record cannot derive: they are written with their tokens."""
    session = demo_session(5)
    play(session, {"imperium": GreedyBot("a"), "orks": RandomBot("b")})
    boundary = recover_boundaries(session)[30].last_seq
    fork = session.fork(boundary, "what-if")
    play(fork, {"imperium": RandomBot("c"), "orks": RandomBot("d")})
    text = write_record(session.game)
    assert "(what-if:" in text and re.search(r"M\d~[0-9a-f]{32}", text)
    game = read_record(text).game
    for branch in ("main", "what-if"):
        assert [encode_event(e.event) for e in game.branches[branch].envelopes()] == \
               [encode_event(e.event) for e in session.game.branches[branch].envelopes()]
        assert game.ruleset.state_hash(game.branches[branch].state_at(game.branches[branch].head_seq)) == \
            session.game.ruleset.state_hash(session.game.branches[branch].state_at(
                session.game.branches[branch].head_seq))


def _where(text: str, needle: str, nth: int = 1) -> tuple[int, int]:
    """The line and column (from 1) of the ``nth`` occurrence of ``needle``."""
    index = -1
    for _ in range(nth):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _corrupt(text: str, old: str, new: str, nth: int = 1) -> str:
    index = -1
    for _ in range(nth):
        index = text.index(old, index + 1)
    return text[:index] + new + text[index + len(old):]


MALFORMED = {
    "bad header": ('[Board "3x3"]', "[Board 3x3]", 1, 7, "the value of [Board ...] is written in double quotes"),
    "unknown aircraft in the forces": ("dakkajet+2", "dakkajut+2", 1, 0, "no aircraft 'dakkajut' in the Squadron Lists"),
    "unknown aircraft in a step": ("orks-1 @10,-3S", "orks-9 @10,-3S", 1, 0,
                                   "no aircraft, player or weapon 'orks-9' in this game"),
    "an illegal move": ("imperium-1 @9,11N", "imperium-1 @9,1N", 1, 11,
                        "imperium-1 @9,1N S4 A3 is refused: Set-up (p.34): (9, 1) is not within 3 hexes"),
    "an illegal throttle": ("imperium-1 go T0", "imperium-1 go T+5", 1, 14,
                            "is refused: Throttle (p.15)"),
    "a die showing 9": ("[rolloff 5]", "[rolloff 9]", 1, 9, "a D6 shows 1 to 6; 9 is not a face"),
    "two faces for one die": ("[rolloff 3]", "[rolloff 3,4]", 1, 0, "set-up roll-off: 1 dice needed, 2 given"),
    "dice left out": (" [rolloff 3]", "", 1, 9, "the rules roll 1 D6 for set-up roll-off here; the record gives no dice"),
    "a wrong result mark": ("=orks-1:-1", "=orks-1:-2", 1, 0, "the record says =orks-1:-2; the rules give =orks-1:-1"),
    "an unclosed variation": ("=end:draw)", "=end:draw", 1, None, "the variation 'undo-1' opened here is never closed"),
    "an unclosed comment": ("second thoughts]}", "second thoughts]", 1, None, "this comment is never closed"),
    "a turn marked wrong": ("\n2. ", "\n3. ", 1, 0, "turn 3 is marked here, but the game is in turn 2"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_record_is_refused_at_its_line_and_column_and_nothing_is_written(recorded, tmp_path, case):
    _, _, text = recorded
    old, new, nth, column_shift, message = MALFORMED[case]
    bad = _corrupt(text, old, new, nth)
    if case == "an unclosed variation":
        line, column = _where(bad, "  (undo-1:")
        column += 2
    elif case == "an unclosed comment":
        line, column = _where(bad, "{[%note second")
    elif case == "unknown aircraft in the forces":
        line, column = _where(bad, "dakkajut")
    else:
        line, column = _where(bad, new.strip() if new.strip() else "imperium rolloff")
        column += column_shift
    path = tmp_path / "bad.aero"
    path.write_text(bad)
    target = EventStore(tmp_path / "target.duckdb")
    with pytest.raises(RecordError) as caught:
        import_record(target, path)
    assert message in str(caught.value)
    assert (caught.value.line, caught.value.column) == (line, column), str(caught.value)
    assert str(caught.value).startswith(f"{path}, line {line}, column {column}: ")
    assert target.games() == []


def test_the_cli_refuses_a_malformed_record_in_one_line_and_writes_nothing(recorded, tmp_path, capsys):
    _, _, text = recorded
    path = tmp_path / "bad.aero"
    path.write_text(_corrupt(text, "[rolloff 5]", "[rolloff 7]"))
    db = tmp_path / "target.duckdb"
    assert main(["import", str(path), "--db", str(db)]) == 2
    error = capsys.readouterr().err
    assert re.fullmatch(rf"aero: error: {re.escape(str(path))}, line \d+, column \d+: a D6 shows 1 to 6; 7 is not "
                        r"a face\n", error)
    assert EventStore(db).games() == []


def test_a_game_stored_before_commands_were_recorded_exports_as_a_record_that_reads_back_to_it(tmp_path):
    """Games stored before commands were recorded hold no ``CommandIssued``: their commands are recovered
    from their events (the ruleset's legacy table, aero_events/regress/decisions.py), and the record
    replays to exactly those events."""
    from aero_events.core import GameSession, SeededDice
    from aero_events.core.registry import get_ruleset

    rules = get_ruleset("aeronautica/wov-2019")
    face_off = rules.scenarios()["face-off"]
    session = GameSession(rules, face_off.build(dict(face_off.default_options), 1), dice=SeededDice(1),
                          game_id="stored-before-commands", record_commands=False)
    play(session, {"imperium": GreedyBot(1), "orks": RandomBot(2)})
    store = EventStore(tmp_path / "old.duckdb")
    store.save_session(session)
    game = store.load_game("stored-before-commands")
    assert not any(env.type in ("CommandIssued", "SecretCommandIssued") for env in game.main.envelopes())
    text = record_text(store, "stored-before-commands")  # written, then read back and compared event for event
    assert '[Ruleset "aeronautica/wov-2019"]' in text and "\n1. imperium-1 M" in text
    assert read_record(text, record_commands=False).game.main.head_seq == game.main.head_seq