"""Battlefleet Gothic's hand-written notation (``aero record``, the ``.aero`` record format): every legal command of
seeded bot games of every scenario is written in words that read back as that very command, whole games
round-trip through their records, continuous values are written exactly, and bad text is refused naming the
word at fault."""

from __future__ import annotations

import functools
import random

import msgspec
import pytest

from aero_events.bots import play
from aero_events.core import GameSession, RuleError, SeededDice
from aero_events.core.interface import NotationError
from aero_events.record import steps
from aero_events.record.lexer import tokenize
from aero_events.record.record_format import read_record, write_record
from aero_events.rulesets.battlefleet_gothic import BattlefleetGothicRules, RuleOptions, corpus
from aero_events.rulesets.battlefleet_gothic import commands as c
from aero_events.rulesets.battlefleet_gothic.bots import bots
from aero_events.rulesets.battlefleet_gothic.play import play_seeded_game

from .helpers import RULES

#: Boarding torpedoes, assault boats and Brace for Impact in one's own turn are offered only under these.
EVERYTHING = BattlefleetGothicRules(options=RuleOptions(hit_and_run=True, brace_timing="any_time"))
SAMPLE = 150  # legal commands checked per decision point where there are more (a move's grid has hundreds)


@functools.cache
def _game(rules, scenario: str, bot: str, seed: int = 2) -> GameSession:
    """A seeded game of ``scenario`` (a corpus scenario's name, or the ruleset's Cruiser Clash) by ``bot`` on both
    sides."""
    if scenario == "cruiser-clash":
        chosen = rules.scenarios()[scenario]
        setup = chosen.build(dict(chosen.default_options), seed)
    else:
        setup = next(each for each in corpus.SCENARIOS if each.name == scenario).build(rules)
    session = GameSession(rules, setup, dice=SeededDice(seed))
    play(session, {player: bots()[bot].make(rules, f"{seed}:{player}") for player in setup.players},
         max_commands=20000)
    return session


def _read_words(notation, state, text: str):
    tokens = tokenize(text)
    step = notation.read(state, steps.step_words(tokens, 0), None)
    assert step.end == len(tokens), text
    return step.command


GAMES = [(rules, scenario, bot) for rules in (RULES, EVERYTHING)
         for scenario in ("cruiser-clash", "bfg-carriers-and-nova", "bfg-nova-at-range") for bot in ("random", "broadside")]


@pytest.mark.parametrize(("rules", "scenario", "bot"), GAMES,
                         ids=[f"{'all-options' if rules is EVERYTHING else 'core'}-{scenario}-{bot}"
                              for rules, scenario, bot in GAMES])
def test_every_legal_command_of_a_game_is_written_in_words_that_read_back_as_itself(rules, scenario, bot):
    """Like perft in chess: in every state of the game, for each player, each legal command (a sample of a
    move's grid) is written in words, not JSON; its text parses back equal, its record step (player and quoted
    text) and its typed form (the words alone, the player told by the ship named) read back equal."""
    session = _game(rules, scenario, bot)
    notation = rules.notation()
    pick = random.Random(f"{scenario}:{bot}")
    kinds = set()
    for env in session.events():
        state = session.state_at(env.seq)
        for player in rules.players(state):
            options = rules.legal_commands(state, player)
            count = len(options)
            sample = options if count <= SAMPLE else [options[i] for i in pick.sample(range(count), SAMPLE)]
            for command in sample:
                text = notation.format(state, command)
                assert not text.startswith("{"), command
                assert notation.parse(state, player, text) == command, text
                words = notation.words(state, command)
                assert _read_words(notation, state, " ".join(words)) == command, words
                assert _read_words(notation, state, text) == command, text
                kinds.add(type(command).__name__)
    assert {"RollOff", "ChooseTurnOrder", "GiveOrder", "MoveShip", "FireWeapons", "EndShooting"} <= kinds


def test_the_games_offer_every_command_type_but_those_only_decide_accepts():
    """The games above together offer every command of the ruleset but Surrender (never offered: a resign
    button is not a move) and RecallAttackCraft (offered only when the fleet limit stops a loaded carrier),
    which the next test writes by hand."""
    seen = set()
    for rules, scenario, bot in GAMES:
        session = _game(rules, scenario, bot)
        for env in session.events():
            state = session.state_at(env.seq)
            for player in rules.players(state):
                seen.update(type(command).__name__ for command in rules.legal_commands(state, player)[:400])
    assert seen == {"RollOff", "ChooseTurnOrder", "GiveOrder", "MoveShip", "FireWeapons", "FireNovaCannon",
                    "LaunchTorpedoes", "LaunchAttackCraft", "MoveAttackCraft", "EndShooting", "React",
                    "RemoveBlastMarkers", "BraceForImpact", "SteerTorpedoes"}


P = "imperial"
WRITTEN = [
    (c.RollOff(player=P), "roll off"),
    (c.ChooseTurnOrder(player=P, go_first=False), "go second"),
    (c.GiveOrder(player=P, ship="imperial-1", order="come to new heading"), "imperial-1 orders come to new heading"),
    (c.MoveShip(player=P, ship="imperial-1", legs=(13370, 0), turns=(-4500,)), "imperial-1 moves 13.37cm turns 45 port"),
    (c.MoveShip(player=P, ship="imperial-1", legs=(5000, 0, 7001), turns=(4512, 0), screen=("wave-3", "wave-9")),
     "imperial-1 moves 5cm turns 45.12 starboard 0cm turns 0 7.001cm screened by wave-3 and wave-9"),
    (c.FireWeapons(player=P, ship="imperial-1", target="chaos-2", weapons=("port_battery", "port_lance"),
                   amounts=(4, 1), squadron=(("imperial-2", "port_battery"),)),
     "imperial-1 fires port_battery 4 and port_lance 1 at chaos-2 with imperial-2 port_battery"),
    (c.FireNovaCannon(player=P, ship="imperial-2", x=90500, y=60000), "imperial-2 fires nova cannon at 90.5,60"),
    (c.EndShooting(player=P), "end shooting"),
    (c.LaunchTorpedoes(player=P, ship="imperial-1", weapon="prow_torpedoes", heading=13550),
     "imperial-1 launches torpedoes from prow_torpedoes heading 135.5"),
    (c.LaunchTorpedoes(player=P, ship="imperial-1", weapon="prow_torpedoes", heading=0, kind="boarding",
                       ignore_hulks=True),
     "imperial-1 launches boarding torpedoes from prow_torpedoes heading 0 ignoring hulks"),
    (c.LaunchAttackCraft(player=P, ship="imperial-3", fighters=1, bombers=2, assault_boats=1),
     "imperial-3 launches 1 fighter and 2 bombers and 1 assault boat"),
    (c.MoveAttackCraft(player=P, marker="wave-4", x=100000, y=50000, via=((80000, 40000), (90000, 45000)), fighters=2),
     "wave-4 moves via 80,40 and 90,45 to 100,50 with 2 fighters"),
    (c.MoveAttackCraft(player=P, marker="wave-4", x=1, y=0), "wave-4 moves to 0.001,0"),
    (c.SteerTorpedoes(player=P, marker="torpedoes-7", turn=-3000, ignore_hulks=False), "torpedoes-7 steers 30 port"),
    (c.RecallAttackCraft(player=P, marker="wave-4"), "recall wave-4"),
    (c.React(player=P, ship="imperial-1", brace=True, turrets=True), "imperial-1 braces and fires turrets"),
    (c.React(player=P, ship="imperial-1", brace=True, turrets=False), "imperial-1 braces"),
    (c.React(player=P, ship="imperial-1", brace=False, turrets=True), "imperial-1 fires turrets"),
    (c.React(player=P, ship="imperial-1", brace=False, turrets=False), "imperial-1 does not brace"),
    (c.BraceForImpact(player=P, ship="imperial-1"), "imperial-1 braces for impact"),
    (c.RemoveBlastMarkers(player=P, markers=(3, 4, 9)), "remove blast markers 3 4 9"),
    (c.RemoveBlastMarkers(player=P, markers=()), "remove no blast markers"),
    (c.Surrender(player=P), "surrender"),
]


@pytest.mark.parametrize(("command", "text"), WRITTEN, ids=[text for _, text in WRITTEN])
def test_each_command_type_is_written_in_the_rulebooks_words_and_read_back(command, text):
    notation = RULES.notation()
    assert notation.format(None, command) == text
    assert notation.parse(None, P, text) == command


def test_what_people_write_besides_the_written_form_reads_too():
    """Units may be left off or written apart, a comma may have spaces, and 0 turns needs no side."""
    parse = RULES.notation().parse
    assert parse(None, P, "  imperial-1 moves 10 cm turns 45 starboard 5 ") == \
        c.MoveShip(player=P, ship="imperial-1", legs=(10000, 5000), turns=(4500,))
    assert parse(None, P, "imperial-2 fires nova cannon at 90.5 , 60") == \
        c.FireNovaCannon(player=P, ship="imperial-2", x=90500, y=60000)
    assert parse(None, P, "imperial-3 launches 2 bombers") == \
        c.LaunchAttackCraft(player=P, ship="imperial-3", fighters=0, bombers=2)
    assert parse(None, P, "torpedoes-2 steers 0") == c.SteerTorpedoes(player=P, marker="torpedoes-2", turn=0,
                                                                        ignore_hulks=False)
    assert parse(None, P, "imperial-1 fires at chaos-1") == \
        c.FireWeapons(player=P, ship="imperial-1", target="chaos-1", weapons=())


def test_a_command_the_words_cannot_say_is_written_as_its_json_and_read_back():
    """Split fire whose amounts do not match its weapons (the rules refuse it) and an id with a space keep their
    exact form as JSON, which parses back too (as records of this ruleset held before it had words)."""
    notation = RULES.notation()
    for command in (c.FireWeapons(player=P, ship="imperial-1", target="chaos-2", weapons=("port_battery",),
                                  amounts=(1, 2)),
                    c.MoveShip(player=P, ship="imperial 1", legs=(10000,)),
                    c.MoveShip(player=P, ship="imperial-1", legs=(10000,), turns=(4500,))):
        text = notation.format(None, command)
        assert text == msgspec.json.encode(command).decode()
        assert notation.parse(None, P, text) == command


@pytest.mark.parametrize(("text", "named"), [
    ("imperial-1 moves far", "'far'"),
    ("imperial-1 moves 10.00001", "'10.00001' is finer"),
    ("imperial-1 moves 10 turns 45 sideways", "'sideways'"),
    ("imperial-1 moves 10 turns 45", "to port or starboard, not the end"),
    ("imperial-1 moves 10 backwards", "'backwards'"),
    ("imperial-1 fires port_battery chaos-2", "'at' was expected, not 'chaos-2'"),
    ("imperial-1 fires port_battery 2 and port_lance at chaos-2", "an amount for every weapon"),
    ("imperial-1 fires nova cannon at 90", "'90'"),
    ("imperial-1 launches 2 gunships", "'gunships'"),
    ("imperial-1 launches 2 fighters and 1 fighter", "'fighter' is counted twice"),
    ("imperial-1 launches torpedoes heading 90", "'from' was expected, not 'heading'"),
    ("imperial-1 flies 10", "cannot read 'imperial-1 flies 10'"),
    ("remove blast markers two", "'two'"),
    ("go third", "cannot read 'go third'"),
    ("", "an empty command"),
])
def test_bad_text_is_refused_naming_the_word_at_fault(text, named):
    with pytest.raises(RuleError) as caught:
        RULES.notation().parse(None, P, text)
    assert caught.value.rule == "Notation" and named in str(caught.value)


def test_a_typed_step_names_its_player_by_the_ship_and_a_bad_one_is_refused_at_its_words():
    """At the table a step is typed without its player: the ship or marker named says whose it is, a step that
    names none is the player's the game waits for; unreadable words raise a NotationError (the recorder shows
    its message)."""
    session = play_seeded_game(1)
    notation = RULES.notation()
    state = session.state_at(1)
    assert _read_words(notation, state, "chaos-1 moves 10") == c.MoveShip(player="chaos", ship="chaos-1", legs=(10000,))
    assert _read_words(notation, state, "roll off") == c.RollOff(player="imperial")
    assert _read_words(notation, state, "chaos surrender") == c.Surrender(player="chaos")
    with pytest.raises(NotationError, match="'far'"):
        notation.read(state, steps.step_words(tokenize("imperial-1 moves far"), 0), None)
    with pytest.raises(NotationError, match="what does imperial do"):
        notation.read(state, steps.step_words(tokenize("imperial"), 0), None)


@pytest.mark.parametrize(("rules", "scenario", "bot"), [(RULES, "cruiser-clash", "broadside"),
                                                        (RULES, "bfg-carriers-and-nova", "random")])
def test_a_whole_game_is_written_as_a_record_in_words_and_read_back_to_the_same_events(rules, scenario, bot):
    from aero_events.core.registry import register_ruleset

    register_ruleset("battlefleet-gothic/core", BattlefleetGothicRules)
    session = _game(rules, scenario, bot)
    text = write_record(session.game)
    assert 'imperial "roll off"' in text and " moves " in text and '\\"command\\"' not in text
    replayed = read_record(text)
    assert [env.event for env in replayed.game.main.envelopes()] == [env.event for env in session.events()]
