"""The table recorder driven through its ask/say: a whole game, wrong dice and illegal moves refused at the
prompt, the board in text, notes, undo on a new branch, digital dice."""

from __future__ import annotations

import re

import pytest

from aero_events.core.session import SecretCommandIssued
from aero_events.core.state_shape import current_fingerprint
from aero_events.record import journal
from aero_events.record import recorder as recorder_module
from aero_events.record.recorder import TableRecorder
from aero_events.record.undo import recover_boundaries
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.record_setup import board_text
from aero_events.rulesets.aeronautica.state import CHOOSE_MANOEUVRES, MANOEUVRE, SET_UP, THROTTLE
from aero_events.store import EventStore
from aero_events.store.games import game_metadata
from tests.record.table import GAME_ID, ScriptedTable, is_dice_prompt, new_setup, record_scripted_game


@pytest.fixture
def store(tmp_path):
    return EventStore(tmp_path / "table.duckdb")


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The scripted game recorded without any detour: its final state hash and its answers."""
    store = EventStore(tmp_path_factory.mktemp("reference") / "reference.duckdb")
    table = record_scripted_game(store)
    return store.state_hash(GAME_ID), table


def test_a_whole_game_is_recorded_and_every_answer_is_stored_at_once(store):
    table = record_scripted_game(store, watch_store=True)
    session = table.recorder.session
    assert session.is_over() and "The game is over" in table.said[-1]
    assert table.heads == table.seqs  # when each question is asked, everything answered is already stored
    assert store.head(GAME_ID) == session.seq > 100
    assert store.state_hash(GAME_ID) == session.state_hash()
    assert store.verify(GAME_ID).ok
    dice_answers = [a for p, a in zip(table.prompts, table.answers, strict=True) if is_dice_prompt(p)]
    assert len(dice_answers) >= 8 and all(face in "123456 " for answer in dice_answers for face in answer)
    assert any(line.startswith("  recorded: imperium-1 fire ") and "[hit " in line for line in table.said)


def test_wrong_dice_are_refused_at_the_prompt_and_nothing_is_recorded_until_they_are_right(store, reference):
    wrong = {"one die": "7", "two dice": "3 4 5", "not a number": "five"}
    given: list[tuple[int, str]] = []

    def wrong_dice(number, prompt, recorder):
        if not is_dice_prompt(prompt):
            return None
        if "rolls a D6" in prompt and "one die" in wrong:
            given.append((number, "one die"))
            return wrong.pop("one die")
        if "rolls 2 D6" in prompt and "two dice" in wrong:
            given.append((number, "two dice"))
            return wrong.pop("two dice")
        if "rolls 2 D6" in prompt and "not a number" in wrong:
            given.append((number, "not a number"))
            return wrong.pop("not a number")
        return None

    table = record_scripted_game(store, wrong_dice, watch_store=True)
    assert not wrong and len(given) == 3
    text = "\n".join(table.said)
    assert "refused: set-up roll-off: a D6 shows 1 to 6; 7 is not a face" in text
    assert "2 dice needed, 3 given" in text
    assert "'five' is not a face" in text
    for number, _ in given:  # asked again for the same roll, with nothing stored in between
        assert table.prompts[number + 1] == table.prompts[number]
        assert table.heads[number + 1] == table.heads[number]
    reference_hash, _ = reference
    assert store.state_hash(GAME_ID) == reference_hash  # the refused answers changed nothing


def test_an_illegal_choice_is_refused_with_its_rule_and_page_and_the_board_can_be_shown(store, reference):
    detours = {}

    def mistakes(number, prompt, recorder):
        state = recorder.session.state
        if is_dice_prompt(prompt):
            return None
        if state.phase == SET_UP and state.rolled_off and "placement" not in detours:
            detours["placement"] = number
            return "imperium-1 @9,0N S4 A3"  # the north edge: not imperium's
        if state.phase == CHOOSE_MANOEUVRES and "token" not in detours:
            detours["token"] = number
            return "9"  # a Thunderbolt flies Ace Manoeuvres 1-6
        if state.step == MANOEUVRE and "path" not in detours:
            detours["path"] = number
            return "L1f1"  # Straight has no side and no turn
        if state.step == THROTTLE and "board" not in detours:
            detours["board"] = number
            return "board"
        if state.step == THROTTLE and "typo" not in detours:
            detours["typo"] = number
            return "T+1 A-1"
        return None

    table = record_scripted_game(store, mistakes)
    text = "\n".join(table.said)
    assert "refused: Set-up (p.34): (9, 0) is not within 3 hexes of imperium's edge (south)" in text
    assert "refused: Ace Manoeuvres (p.10): a Thunderbolt Fighter can perform Ace Manoeuvres [1, 2, 3, 4, 5, 6], " \
        "not 9" in text
    assert "refused: Move and Manoeuvre (p.16): imperium-1 at Speed 4 cannot fly Ace Manoeuvre 1" in text
    assert "one step at a time" in text
    assert "imperium-1  imperium  flying" in text and "A↑" in text and "Structure" in text  # the board
    reference_hash, _ = reference
    assert store.state_hash(GAME_ID) == reference_hash


def test_the_board_text_marks_each_aircraft_with_its_facing(store):
    table = record_scripted_game(store, lambda n, p, r: "quit" if n == 12 else None)
    state = table.recorder.session.state
    text = board_text(state, table.recorder.session.ruleset)
    lines = text.splitlines()
    assert lines[0].startswith("turn 1")
    # imperium-1 at 9,11 facing N is column 9, row 11 + 4 = 15; orks-1 at 10,-3 facing S is column 10, row 2.
    row_15 = next(line for line in lines if line.startswith(" 15  "))
    row_2 = next(line for line in lines if line.startswith("  2  "))
    assert row_15[5 + 2 * 9:5 + 2 * 9 + 2] == "A↑"
    assert row_2[5 + 2 * 10:5 + 2 * 10 + 2] == "a↓"
    assert any("orks-1" in line and "10,-3" in line and "10,2" in line and " S " in line for line in lines)


def test_undo_takes_back_whole_commands_onto_a_new_branch_and_keeps_the_old_one(store):
    undone = {}

    def undo_at_first_throttle(number, prompt, recorder):
        state = recorder.session.state
        if "undo" not in undone and state.step == THROTTLE and not is_dice_prompt(prompt):
            undone["undo"] = number
            undone["boundaries"] = list(recorder.boundaries)
            undone["head"] = recorder.session.seq
            return "undo 2"
        if "note" not in undone and "undo" in undone and not is_dice_prompt(prompt):
            undone["note"] = recorder.session.seq
            return "note tailing missed by one hex"
        return None

    table = record_scripted_game(store, undo_at_first_throttle)
    taken = undone["boundaries"][-2:]
    fork_at = taken[0].first_seq - 1
    tree = store.branch_tree(GAME_ID)
    assert set(tree) == {"main", "undo-1"}
    assert tree["undo-1"].parent == "main" and tree["undo-1"].fork_seq == fork_at
    assert tree["main"].head_seq == undone["head"] == taken[1].last_seq  # the abandoned commands are kept
    abandoned = store.events(GAME_ID, "main", start=fork_at + 1)
    # each command's events follow the session's record of the command (core/session.py, CommandIssued)
    assert [e.type for e in abandoned][:4] == ["CommandIssued", "ai.FirstMoverChosen", "CommandIssued",
                                               "ai.AircraftActivated"]
    assert journal.current_branch(store, GAME_ID) == "undo-1"
    assert table.recorder.session.branch.id == "undo-1" and table.recorder.session.is_over()
    assert store.head(GAME_ID, "undo-1") > fork_at and store.verify(GAME_ID).ok
    assert any("taken back: orks first imperium" in line or "taken back: imperium first" in line
               for line in table.said)
    notes = journal.annotations(store, GAME_ID)
    assert [(n.branch, n.seq, n.kind, n.text) for n in notes] == [
        ("undo-1", undone["note"], "note", "tailing missed by one hex")]
    # The boundaries the recorder kept are those the events give.
    session = store.session(GAME_ID, "undo-1", dice=table.recorder.dice)
    assert [b.first_seq for b in recover_boundaries(session)] == [b.first_seq for b in table.recorder.boundaries]


def test_resume_goes_on_with_the_current_branch_after_an_undo(store):
    def undo_then_quit(number, prompt, recorder):
        if recorder.session.state.step == THROTTLE and recorder.session.branch.id == "main" \
                and not is_dice_prompt(prompt):
            return "undo"
        if recorder.session.branch.id == "undo-1":
            return "quit"
        return None

    table = record_scripted_game(store, undo_then_quit)
    assert "aero record --resume table-test" in table.said[-1]
    main_head = store.head(GAME_ID, "main")
    fork_at = store.branch_tree(GAME_ID)["undo-1"].fork_seq
    assert store.head(GAME_ID, "undo-1") == fork_at  # stopped before anything was played on it
    resumed = ScriptedTable(store)
    resumed.recorder = TableRecorder.resume(store, GAME_ID, ask=resumed.ask, say=resumed.say)
    assert resumed.recorder.session.branch.id == "undo-1"
    assert resumed.said == [] and resumed.recorder.run() == 0
    assert resumed.said[0] == f"Recording game table-test on branch undo-1, after event {fork_at} (type help for " \
                              "the commands)."
    assert store.head(GAME_ID, "undo-1") > fork_at and store.head(GAME_ID, "main") == main_head
    assert resumed.recorder.session.is_over() and store.verify(GAME_ID).ok


def test_digital_dice_roll_on_screen_and_r_rolls_one_roll_here(store, tmp_path):
    table = record_scripted_game(store, digital=True, seed=7)
    assert not any(is_dice_prompt(prompt) for prompt in table.prompts)
    assert any(line.startswith("  imperium rolls 1D6 for set-up roll-off: ") for line in table.said)
    assert table.recorder.session.is_over() and store.game(GAME_ID).metadata == \
        '{"recorder":"aero record","salt_seed":"table-test","dice":"digital","seed":7,' \
        f'"state_shape":"{current_fingerprint(table.recorder.session.ruleset)}"}}'

    other = EventStore(tmp_path / "r.duckdb")
    rolled_here = record_scripted_game(other, lambda n, p, r: "r" if is_dice_prompt(p) and n < 3 else None)
    first_roll = next(line for line in rolled_here.said if "rolls 1D6 for set-up roll-off:" in line)
    assert first_roll.startswith("  imperium rolls 1D6 for set-up roll-off: ")
    assert rolled_here.recorder.session.is_over()


def test_the_last_command_can_be_taken_back_after_the_game_is_over(store):
    undone = []

    def undo_the_end(number, prompt, recorder):
        if recorder.session.is_over() and not undone:
            undone.append(recorder.session.seq)
            return "undo"
        return None

    table = record_scripted_game(store, undo_the_end)
    assert len(undone) == 1 and table.answers[-1] == ""
    assert sum("The game is over" in line for line in table.said) == 2
    tree = store.branch_tree(GAME_ID)
    assert tree["main"].head_seq == undone[0] and tree["undo-1"].fork_seq < undone[0]
    assert table.recorder.session.branch.id == "undo-1" and table.recorder.session.is_over()


def test_manoeuvre_tokens_are_typed_unseen_and_shown_to_the_table_only_as_commitments(store):
    """Choose Manoeuvres (p.13): every player places their tokens face down at once. Each token is typed
    unseen (``ask_secret``), the recorder says only that a token was placed and its commitment, and the other
    player's view of the log holds the commitment, not the manoeuvre."""
    table = record_scripted_game(store)
    session = table.recorder.session
    token_answers = [i for i, prompt in enumerate(table.prompts) if "which Manoeuvre token" in prompt
                     or (i in table.secret and not is_dice_prompt(prompt))]
    assert token_answers and set(token_answers) == set(table.secret)  # every token, and nothing else
    assert all(table.prompts[i].startswith(("imperium, type it unseen", "orks, type it unseen"))
               for i in table.secret)
    recorded = [line for line in table.said if line.startswith("  recorded: ")]
    tokens = [line for line in recorded if "face down" in line]
    assert len(tokens) == len(table.secret)
    assert all(re.fullmatch(r"  recorded: (imperium|orks)-1: an order given face down \(commitment [0-9a-f]{12}\)"
                            r"( \[init \d\] \[init \d\])?", line) for line in tokens), tokens
    assert not any(re.search(r" M\d", line) for line in recorded)  # no token is ever written out
    orders = [env for env in session.events() if isinstance(env.event, SecretCommandIssued)]
    assert len(orders) == len(table.secret)
    for env in orders:
        other = "orks" if env.event.owner == "imperium" else "imperium"
        seen = session.events_for(other)[env.seq - 1].event
        assert seen.type_name() == "Redacted" and seen.commitment == env.event.commitment
        assert "command" not in seen.public and "manoeuvre" not in str(seen.public)
        chosen = session.events_for(other)[env.seq].event  # the token itself: face down too
        assert chosen.type_name() == "Redacted" and "manoeuvre" not in chosen.public


def test_a_recorded_game_draws_a_random_salt_seed(tmp_path, monkeypatch):
    """Issue 16, item 3: the salts of a table game's sealed secrets come from a seed the opponent cannot
    guess: 128 random bits, never the game id (which every player sees), different for every game."""
    from tests.record.conftest import RANDOM_SALT_SEED

    monkeypatch.setattr(recorder_module, "new_salt_seed", RANDOM_SALT_SEED)
    seeds = set()
    for number in range(2):
        with EventStore(tmp_path / f"seed-{number}.duckdb") as store:
            rules = AeronauticaRules()
            recorder = TableRecorder.new_game(store, rules, new_setup(rules), game_id=GAME_ID, metadata={},
                                              ask=lambda prompt: "quit", say=lambda line: None)
            seed = recorder.session.game.metadata["salt_seed"]
            assert seed != GAME_ID and len(bytes.fromhex(seed)) == 16
            assert game_metadata(store.game(GAME_ID))["salt_seed"] == seed  # kept, so the game can be resumed
            seeds.add(seed)
    assert len(seeds) == 2
