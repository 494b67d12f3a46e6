"""The hand-written notation of the flying rules (``notation.py``): every legal command of bot games (the
scenarios, and the corpus battles with characters in units and the Wyvern under the bows) reads back as itself,
from its text and from its words in a record; a whole game is written as a ``.aero`` record and read back to the
same events; bad text is refused at the word at fault; ``aero record`` lists the choices in words."""

from __future__ import annotations

import io
import itertools

import pytest

from aero_events.bots import play
from aero_events.cli import main
from aero_events.core import GameSession, RuleError, SeededDice
from aero_events.core.interface import NotationError
from aero_events.core.table_words import length_text, read_heading, read_length
from aero_events.record import steps
from aero_events.record.lexer import tokenize
from aero_events.record.record_format import read_record, write_record
from aero_events.rulesets.whfb_flying import commands as c
from aero_events.rulesets.whfb_flying.corpus import _characters_in_units, _wyvern_under_the_bows
from aero_events.rulesets.whfb_flying.play import play_seeded_game
from aero_events.table import inches

from .helpers import RULES

NOTATION = RULES.notation()
BOTS = tuple(RULES.bots())
SCENARIOS = RULES.scenarios()
#: Every scenario's setup, and the corpus battles that bring characters leaving units and the Wyvern in the air.
SETUPS = {**{name: (lambda rules, chosen=chosen: chosen.build(dict(chosen.default_options), 0))
             for name, chosen in SCENARIOS.items()},
          "characters-in-units": _characters_in_units, "wyvern-under-the-bows": _wyvern_under_the_bows}
PLAYERS = ("north", "south")
ALL_COMMANDS = {c.VanguardMove, c.EndVanguard, c.Move, c.Reform, c.TakeOff, c.Land, c.Fly, c.Soar, c.FlyHigh,
                c.Charge, c.Intercept, c.Swoop, c.React, c.Shoot, c.CastSpell, c.LeaveUnit, c.EndPhase}


def _game(setup: str, bots: tuple[str, str], seed: int) -> GameSession:
    session = GameSession(RULES, SETUPS[setup](RULES), dice=SeededDice(seed), game_id=f"notation-{setup}-{seed}")
    available = RULES.bots()
    play(session, {side: available[bot].make(RULES, f"{seed}:{side}") for side, bot in zip(PLAYERS, bots,
                                                                                              strict=True)})
    return session


def _read_words(state, words, subject=None):
    """A step's words as a record holds them, read back (``aero_events.record``'s lexer, as a record is read)."""
    return NOTATION.read(state, steps.step_words(tokenize(" ".join(words)), 0), subject)


@pytest.mark.parametrize("setup", SETUPS)
@pytest.mark.parametrize("bots", list(itertools.product(BOTS, repeat=2)))
def test_every_legal_command_of_a_bot_game_reads_back_from_its_text_and_its_words(setup, bots):
    """At every state of a seeded bot game, every legal command formats, parses back equal, and its record
    words read back equal (lengths and headings of odd values included: the bots measure any distance)."""
    session = _game(setup, bots, 1)
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
    assert {c.VanguardMove, c.EndVanguard, c.Move, c.Fly, c.Soar, c.Land, c.EndPhase} <= kinds


def test_the_bot_games_offer_nearly_every_command_type():
    """Between them the games above offer every command but the reform and a Fly that reforms or joins, shown
    by the next test."""
    kinds = set()
    for setup, bots in itertools.product(SETUPS, itertools.product(BOTS, repeat=2)):
        session = _game(setup, bots, 1)
        for env in session.events():
            state = session.state_at(env.seq)
            kinds.update(type(command) for player in PLAYERS for command in RULES.legal_commands(state, player))
    assert ALL_COMMANDS - kinds == {c.Reform}


def test_every_command_type_is_written_in_words():
    """Each command of ``commands.py``, with every optional part, written as the rulebook's words."""
    state = play_seeded_game(1, rules=RULES).state_at(0)
    move = {"heading": 9000, "distance": inches(6)}
    examples = {
        "n-pegasi vanguard 6in towards 90": c.VanguardMove(player="north", unit="n-pegasi", **move),
        "n-pegasi vanguard takes off": c.VanguardMove(player="north", unit="n-pegasi", heading=0, distance=0,
                                                      take_off=True),
        "end vanguard": c.EndVanguard(player="north"),
        "n-spears moves 6in towards 90": c.Move(player="north", unit="n-spears", **move),
        "n-spears marches 6in towards 90": c.Move(player="north", unit="n-spears", march=True, **move),
        "n-spears reforms 5 files facing 180": c.Reform(player="north", unit="n-spears", heading=18000, files=5),
        "s-wyvern takes off": c.TakeOff(player="south", unit="s-wyvern"),
        "s-wyvern takes off then flies 6in towards 90": c.TakeOff(player="south", unit="s-wyvern", **move),
        "s-wyvern moves 6in towards 90 then takes off": c.TakeOff(player="south", unit="s-wyvern",
                                                                  ground_first=True, **move),
        "s-harpies lands": c.Land(player="south", unit="s-harpies"),
        "s-harpies flies 6in towards 90 then lands": c.Land(player="south", unit="s-harpies", **move),
        "s-harpies lands then moves 0in towards 0": c.Land(player="south", unit="s-harpies", ground_first=True),
        "s-harpies flies 6in towards 90 in 5 files joining s-wyvern": c.Fly(
            player="south", unit="s-harpies", files=5, join="s-wyvern", **move),
        "s-wyvern soars 6in towards 90": c.Soar(player="south", unit="s-wyvern", **move),
        "s-harpies flies high": c.FlyHigh(player="south", unit="s-harpies"),
        "s-spears charges n-spears": c.Charge(player="south", unit="s-spears", target="n-spears"),
        "n-pegasi intercepts s-harpies": c.Intercept(player="north", unit="n-pegasi", target="s-harpies"),
        "n-pegasi swoops on the left flank of s-spears": c.Swoop(player="north", unit="n-pegasi",
                                                                 target="s-spears", flank="left"),
        "stand and shoot": c.React(player="south", choice="stand and shoot"),
        "challenge with n-captain": c.React(player="north", choice="challenge with n-captain"),
        "n-archers shoots at s-harpies": c.Shoot(player="north", unit="n-archers", target="s-harpies"),
        "n-wizard casts arcane_dart at s-wyvern": c.CastSpell(player="north", unit="n-wizard", target="s-wyvern",
                                                              spell="arcane_dart"),
        "n-captain leaves its unit 6in towards 90": c.LeaveUnit(player="north", unit="n-captain", **move),
        "end phase": c.EndPhase(player="south"),
    }
    assert {type(command) for command in examples.values()} == ALL_COMMANDS
    for text, command in examples.items():
        assert NOTATION.format(state, command) == text
        assert NOTATION.parse(state, command.player, text) == command
        assert _read_words(state, NOTATION.words(state, command)).command == command


def test_lengths_and_headings_are_written_as_what_reads_back_as_the_same_table_units():
    """A command holds 1/100 mm and 1/100 degree: the shortest decimal inches and degrees that read back
    exactly."""
    for value in [*range(-600, 600), *range(0, 200_000, 997)]:
        assert read_length(length_text(value)) == value, value
        text = NOTATION.format(None, c.Move(player="north", unit="u", heading=value, distance=0))
        assert read_heading(text.split()[-1]) == value
    assert [length_text(v) for v in (inches(8), 8763, 1000)] == ["8in", "3.45in", "0.3937in"]


def test_the_notation_reads_what_people_write():
    parse = NOTATION.parse
    assert parse(None, "north", ' n-spears  moves 4" towards 90deg') == c.Move(
        player="north", unit="n-spears", heading=9000, distance=inches(4))
    assert parse(None, "north", "n-spears moves 4 towards 90") == parse(None, "north", "n-spears moves 4in towards 90")
    assert parse(None, "south", "hold") == c.React(player="south", choice="hold")
    assert parse(None, "south", "accept  with s-wyvern") == c.React(player="south", choice="accept with s-wyvern")
    assert NOTATION.subject(c.FlyHigh(player="south", unit="s-harpies")) == "s-harpies"
    assert NOTATION.subject(c.React(player="south", choice="flee")) is None
    assert "<unit> swoops on the left|right flank of <target>" in NOTATION.help()


@pytest.mark.parametrize("text,named", [
    ("n-spears wheels", "'wheels'"),
    ("n-spears moves far towards 90", "'far'"),
    ("n-spears moves 4in towards north", "'north'"),
    ("n-spears moves 4in", "<unit> moves <length> towards <degrees>"),
    ("s-harpies flies 4in towards 0 in five files", "'five'"),
    ("n-spears reforms many files facing 0", "'many'"),
    ("n-pegasi swoops s-spears", "<unit> swoops on the left|right flank of <target>"),
    ("s-wyvern takes off and flies", "<unit> takes off"),
    ("n-wizard casts arcane_dart", "<wizard> casts <spell> at <target>"),
    ("surrender", "'surrender'"),
    ("", "empty"),
])
def test_bad_text_is_refused_naming_the_word_at_fault(text, named):
    with pytest.raises(RuleError) as refused:
        NOTATION.parse(None, "north", text)
    assert refused.value.rule == "Notation" and named in str(refused.value)


def test_a_record_step_that_cannot_be_read_is_refused_at_its_text():
    state = play_seeded_game(1, rules=RULES).state_at(0)
    with pytest.raises(NotationError) as refused:
        _read_words(state, ["north", '"n-pegasi vanguard far towards 90"'])
    assert refused.value.word == 1 and "'far' is not a length" in refused.value.message
    with pytest.raises(NotationError) as refused:
        _read_words(state, ["nobody", "end vanguard"])
    assert refused.value.word == 0


def test_a_game_is_written_in_the_record_format_and_read_back_to_the_same_events():
    """The ``.aero`` record writes each command in the notation (``north "n-spears moves 4in towards 90"``), not
    as JSON, and replays to the same events (write_record checks the round trip too)."""
    session = _game("characters-in-units", ("general", "random"), 2)
    text = write_record(session.game)
    assert '"command' not in text.split("\n\n", 1)[1]
    assert " towards " in text and '"end phase"' in text
    replayed = read_record(text)
    assert [env.event for env in replayed.game.main.envelopes()] == [env.event for env in session.events()]


def test_aero_record_lists_the_choices_in_words_and_records_a_typed_step(tmp_path, monkeypatch, capsys):
    """A choice is typed as the list shows it, or any step the rules allow; a step whose text cannot be read
    says which word."""
    answers = ["n-pegasi vanguard 5in towards 45", 'north "n-spears moves far towards 90"', "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{answer}\n" for answer in answers)))
    assert main(["record", "--ruleset", "whfb-flying", "--digital-dice", "--seed", "1", "--db",
                 str(tmp_path / "table.duckdb")]) == 0
    out = capsys.readouterr().out
    assert "1. n-pegasi vanguard takes off" in out and "end vanguard" in out and '{"command"' not in out
    assert "recorded: n-pegasi vanguard 5in towards 45" in out
    assert "'far' is not a length" in out
