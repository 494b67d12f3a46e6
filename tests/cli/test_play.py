"""Issue 17 item 2: ``aero play`` speaks like the recorder, for every shipped ruleset, and resumes a stored game.

Scripted answers through ``run(args, ask, say)``: the intro names the scenario, the forces and the side played;
commands read in the ruleset's notation or description (never a raw struct); a long list is a staged choice
narrowed cumulatively; ``quit`` stores the game and ``--resume`` goes on with it.
"""

from __future__ import annotations

import argparse
import re
from importlib.metadata import entry_points

import pytest

from aero_events.cli.play import PAGE, run
from aero_events.core.registry import GROUP, family, get_ruleset
from aero_events.store import EventStore

#: Every shipped ruleset, each version (the package's entry points, not the test rulesets other tests register).
SHIPPED = sorted(entry.name for entry in entry_points(group=GROUP) if entry.name != family(entry.name))
RAW_STRUCT = re.compile(r"\w+=\(|\w+=None|\{\"command\"")


def play(db, answers, *, ruleset=None, resume=None, side=None, bot="random", seed=1):
    said: list[str] = []
    script = iter(answers)

    def ask(prompt: str) -> str:
        answer = next(script, "quit")
        said.append(prompt + answer)  # as a terminal shows it
        return answer

    args = argparse.Namespace(db=str(db), ruleset=ruleset, side=side, bot=bot, seed=seed, resume=resume)
    assert run(args, ask=ask, say=said.append) == 0
    return "\n".join(said)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_ruleset_is_played_quit_resumed_and_quit_again(tmp_path, name):
    db = tmp_path / "play.duckdb"
    rules = get_ruleset(name)
    first = play(db, ["1", "auto", "auto", "quit"], ruleset=name)
    assert f"Playing game play-1-1: {rules.name}, scenario " in first
    assert "You play " in first and "played by the random bot" in first
    assert not RAW_STRUCT.search(first), RAW_STRUCT.search(first)
    assert "Stopped after event" in first and "play --resume play-1-1" in first
    store = EventStore(db)
    stopped = store.head("play-1-1")
    assert stopped > 0 and store.verify("play-1-1").ok

    second = play(db, ["auto", "auto", "auto", "quit"], resume="play-1-1", bot=None)
    assert f"Going on with game play-1-1: {rules.name}" in second
    assert f"The game stands after event {stopped}" in second
    assert "played by the random bot" in second  # the bot played before, kept in the game
    assert not RAW_STRUCT.search(second)
    assert store.head("play-1-1") > stopped
    assert store.verify("play-1-1").ok
    assert [summary.id for summary in store.games()] == ["play-1-1"]


def test_a_game_played_to_its_end_says_so_and_is_stored(tmp_path):
    """Both sides played by 'auto' (the bot for the person) to the end of a short Wings of Glory dogfight."""
    db = tmp_path / "end.duckdb"
    text = play(db, ["auto"] * 5000, ruleset="wings-of-glory", side="both")
    assert "You play every side." in text
    assert "The game is over: " in text
    store = EventStore(db)
    assert store.verify("play-1-1").ok


def test_a_long_list_is_a_staged_choice_narrowed_cumulatively(tmp_path):
    """Aeronautica's set-up places an aircraft on any hex at any facing, Speed and Altitude (48,600 choices):
    never printed whole; grouped by aircraft, then narrowed by what is typed, each answer on the last."""
    text = play(tmp_path / "a.duckdb", ["1", "2", "@1", "2", "back", "", "quit"], ruleset="aeronautica",
                side="imperium")
    assert "48,600 choices" in text and len(text.splitlines()) < 400
    assert "   2. imperium-2 ...   (12,150 choices)" in text
    assert "12,150 choices matching 'imperium-2'" in text
    assert "choices matching 'imperium-2 @1'" in text
    assert "choices matching 'imperium-2 @12'" in text  # '2' went on from '@1'
    listed = [line for line in text.splitlines() if re.match(r"\s+\d+\. imperium-2 @12,", line)]
    assert 0 < len(listed) <= PAGE
    after_back = text.split("imperium> back", 1)[1].split("imperium> ", 1)[0]
    assert "choices matching 'imperium-2 @1'" in after_back  # back: '@12' undone, '@1' kept


def test_a_typed_command_in_the_notation_is_played_and_an_illegal_one_is_said(tmp_path):
    text = play(tmp_path / "n.duckdb", ["1", "imperium-1 @0,21N S2 A1", "imperium-1 @0,0N S2 A1", "quit"],
                ruleset="aeronautica", side="imperium")
    assert "imperium-1 placed at (0,21)" in text
    assert "'imperium-1 @0,0N S2 A1'" in text  # refused, saying what was typed


def test_a_typed_command_the_rules_refuse_is_said_with_the_rule_and_nothing_is_stored(tmp_path):
    """A command typed in the notation that is not among the choices says which rule refuses it (the
    ruleset's own words, with the page), as the recorder does; the game stays as it was."""
    db = tmp_path / "r.duckdb"
    text = play(db, ["1", "imperium-1 @0,0N S2 A1", "imperium-1 @0,21N S9 A1", "quit"], ruleset="aeronautica",
                side="imperium")
    assert "'imperium-1 @0,0N S2 A1' is not among the choices now: Set-up (p.34): (0, 0) is not within 3 hexes" in text
    assert "'imperium-1 @0,21N S9 A1' is not among the choices now: Set-up: Speed (p.34): imperium-1's Speed may " \
           "be set to 2-6, not 9" in text
    store = EventStore(db)
    (game,) = store.games()
    assert [env.type for env in store.events(game.id)][-1] == "ai.SetUpRollOffWon"  # the roll-off only


def test_help_board_and_log_answer_without_playing(tmp_path):
    text = play(tmp_path / "h.duckdb", ["help", "board", "1", "log", "quit"], ruleset="aeronautica",
                side="imperium")
    assert "back       undo the last narrowing" in text
    assert "undeployed" in text  # the board
    assert "wins the set-up roll-off" in text.split("imperium> log", 1)[1]  # the log repeats what happened
    assert EventStore(tmp_path / "h.duckdb").head("play-1-1") > 0


def test_the_bots_secret_orders_are_not_shown_to_the_person(tmp_path):
    """Wings of Glory's planned cards are secret (p.4): the person sees the bot planned, not which card."""
    text = play(tmp_path / "s.duckdb", ["1", "1", "1", "1", "1", "1", "quit"], ruleset="wings-of-glory",
                side="RAF")
    bot_lines = [line for line in text.splitlines() if line.startswith(("bf109", "bf110"))]
    assert bot_lines and not any(re.search(r"plans card \d", line) for line in bot_lines)
    assert any(re.search(r"spitfire-1 plans card \d", line) for line in text.splitlines())
