"""The hand-written notation of Million-Colored Sun (``notation.py``): every legal command of bot games reads back
as itself, from its text and from its words in a record; a whole game is written as a ``.aero`` record and read
back to the same events; bad text is refused at the word at fault; ``aero record`` lists the choices in words."""

from __future__ import annotations

import io
import itertools

import pytest

from aero_events.cli import main
from aero_events.core import RuleError
from aero_events.core.interface import NotationError
from aero_events.core.table_words import length_text, read_heading, read_length
from aero_events.record import steps
from aero_events.record.lexer import tokenize
from aero_events.record.record_format import read_record, write_record
from aero_events.rulesets.million_colored_sun import commands as c
from aero_events.rulesets.million_colored_sun import play_seeded_game
from aero_events.table import inches

from .helpers import RULES

NOTATION = RULES.notation()
SCENARIOS = RULES.scenarios()
#: Every pairing of the bots in every scenario.
MATCHUPS = [(scenario, dict(zip(chosen.players, bots, strict=True)))
            for scenario, chosen in SCENARIOS.items()
            for bots in itertools.product(RULES.bots(), repeat=len(chosen.players))]
ALL_COMMANDS = {c.ChooseAction, c.PlaceReturning, c.FlyManoeuvre, c.MoveModel, c.Shoot, c.DeclareCharge, c.Fight,
                c.EndPhase}


def _read_words(state, words, subject=None):
    """A step's words as a record holds them, read back (``aero_events.record``'s lexer, as a record is read)."""
    return NOTATION.read(state, steps.step_words(tokenize(" ".join(words)), 0), subject)


@pytest.mark.parametrize("scenario,bots", MATCHUPS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_legal_command_of_a_bot_game_reads_back_from_its_text_and_its_words(scenario, bots, seed):
    """At every state of a seeded bot game, every legal command formats, parses back equal, and its record
    words read back equal (lengths and headings of odd values included: bots measure any distance)."""
    session = play_seeded_game(seed, scenario, bots, rules=RULES)
    kinds = set()
    checked = 0
    for env in session.events():
        state = session.state_at(env.seq)
        for player in RULES.players(state):
            for command in RULES.legal_commands(state, player):
                text = NOTATION.format(state, command)
                assert NOTATION.parse(state, player, text) == command, text
                step = _read_words(state, NOTATION.words(state, command))
                assert step.command == command and step.subject == NOTATION.subject(command), text
                kinds.add(type(command))
                checked += 1
    assert checked > 1000
    assert {c.ChooseAction, c.FlyManoeuvre, c.MoveModel, c.Shoot, c.EndPhase} <= kinds


def test_every_command_type_is_written_in_words():
    """Each command of ``commands.py`` has its words: the bot games above show most; these show the rest, with
    every optional part."""
    examples = [
        c.ChooseAction(player="azure", model="azure-wyvern", action="shift-mode", mode="fly"),
        c.PlaceReturning(player="azure", model="azure-fighter", x=inches(30), y=0, heading=18000),
        c.FlyManoeuvre(player="azure", model="azure-fighter", manoeuvre="cruise-20", pilot_heading=4550,
                       pilot_distance=inches("2.5"), bomb_at=1000),
        c.FlyManoeuvre(player="azure", model="azure-fighter", manoeuvre="loop", pilot_distance=inches(3)),
        c.FlyManoeuvre(player="azure", model="azure-fighter", manoeuvre="loop", pilot_heading=9000),
        c.MoveModel(player="crimson", model="crimson-trooper-1", heading=9000, distance=inches(8), run=True),
        c.DeclareCharge(player="crimson", model="crimson-trooper-2", target="azure-gun"),
        c.Fight(player="azure", model="azure-wyvern", target="crimson-trooper-3"),
    ]
    assert {type(command) for command in examples} | {c.Shoot, c.EndPhase} == ALL_COMMANDS
    state = play_seeded_game(1, rules=RULES).state_at(0)
    texts = [NOTATION.format(state, command) for command in examples]
    assert texts == [
        "azure-wyvern action shift-mode to fly",
        "azure-fighter returns at 30in 0in facing 180",
        "azure-fighter flies cruise-20 pilot 2.5in towards 45.5 bomb at 0.3937in",
        "azure-fighter flies loop pilot 3in",
        "azure-fighter flies loop pilot 0in towards 90",
        "crimson-trooper-1 runs 8in towards 90",
        "crimson-trooper-2 charges azure-gun",
        "azure-wyvern fights crimson-trooper-3",
    ]
    for command, text in zip(examples, texts, strict=True):
        assert NOTATION.parse(state, command.player, text) == command
        assert _read_words(state, NOTATION.words(state, command)).command == command


def test_lengths_and_headings_are_written_as_what_reads_back_as_the_same_table_units():
    """A command holds 1/100 mm and 1/100 degree: the shortest decimal inches and degrees that read back
    exactly."""
    for value in [*range(-600, 600), *range(0, 200_000, 997)]:
        assert read_length(length_text(value)) == value, value
        assert read_heading(NOTATION.format(None, c.MoveModel(player="azure", model="m", heading=value,
                                                              distance=0)).split()[-1]) == value
    assert [length_text(v) for v in (inches(3), inches("12.5"), 1000, 1)] == ["3in", "12.5in", "0.3937in",
                                                                             "0.0004in"]


def test_the_notation_reads_what_people_write():
    parse = NOTATION.parse
    assert parse(None, "azure", "  azure-bomber   action lock-on ") == c.ChooseAction(
        player="azure", model="azure-bomber", action="lock-on")
    assert parse(None, "azure", 'azure-gun moves 3" towards 90deg') == c.MoveModel(
        player="azure", model="azure-gun", heading=9000, distance=inches(3))
    assert parse(None, "azure", "azure-gun moves 3 towards 90") == parse(None, "azure",
                                                                         "azure-gun moves 3in towards 90")
    assert parse(None, "azure", "azure-bomber shoots Tail Guns at crimson-gun") == c.Shoot(
        player="azure", model="azure-bomber", weapon="Tail Guns", target="crimson-gun")
    assert parse(None, "azure", "end phase") == c.EndPhase(player="azure")
    assert NOTATION.subject(c.Fight(player="azure", model="azure-wyvern", target="x")) == "azure-wyvern"
    assert NOTATION.subject(c.EndPhase(player="azure")) is None
    assert "<model> flies <manoeuvre>" in NOTATION.help()


@pytest.mark.parametrize("text,named", [
    ("azure-fighter loops", "'loops'"),
    ("azure-gun moves far towards 90", "'far'"),
    ("azure-gun moves 3in towards north", "'north'"),
    ("azure-fighter flies loop pilot 3in sideways", "'sideways'"),
    ("azure-bomber shoots crimson-gun", "<model> shoots <weapon> at <target>"),
    ("azure-bomber action", "<model> action <action>"),
    ("end", "'end'"),
    ("", "empty"),
])
def test_bad_text_is_refused_naming_the_word_at_fault(text, named):
    with pytest.raises(RuleError) as refused:
        NOTATION.parse(None, "azure", text)
    assert refused.value.rule == "Notation" and named in str(refused.value)


def test_a_record_step_that_cannot_be_read_is_refused_at_its_text():
    session = play_seeded_game(1, rules=RULES)
    state = session.state_at(0)
    with pytest.raises(NotationError) as refused:
        _read_words(state, ["azure", '"azure-gun moves far towards 90"'])
    assert refused.value.word == 1 and "'far' is not a length" in refused.value.message
    with pytest.raises(NotationError) as refused:
        _read_words(state, ["nobody", "end phase"])
    assert refused.value.word == 0


def test_a_game_is_written_in_the_record_format_and_read_back_to_the_same_events():
    """The ``.aero`` record writes each command in the notation (``azure "azure-bomber action evade"``), not as
    JSON, and replays to the same events (write_record checks the round trip too)."""
    session = play_seeded_game(2, bots_by_side={"azure": "ace", "crimson": "random"}, rules=RULES)
    text = write_record(session.game)
    assert '"command' not in text.split("\n\n", 1)[1]
    assert " flies " in text and " action " in text and '"end phase"' in text
    replayed = read_record(text)
    assert [env.event for env in replayed.game.main.envelopes()] == [env.event for env in session.events()]


def test_aero_record_lists_the_choices_in_words_and_records_a_typed_step(tmp_path, monkeypatch, capsys):
    """A choice is typed as the list shows it; a typed step whose text cannot be read says which word."""
    answers = ["azure-bomber action evade", 'azure "azure-gun moves far towards 90"', "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{answer}\n" for answer in answers)))
    assert main(["record", "--ruleset", "million-colored-sun", "--digital-dice", "--seed", "1", "--db",
                 str(tmp_path / "table.duckdb")]) == 0
    out = capsys.readouterr().out
    assert "1. azure-bomber action evade" in out and "end phase" in out and '{"command"' not in out
    assert "recorded: azure-bomber action evade" in out
    assert "'far' is not a length" in out
