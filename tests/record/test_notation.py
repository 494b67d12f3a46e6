"""The move notation: every legal command of real games reads back as itself from its written step, and
dice groups and result marks say what the rules did."""

from __future__ import annotations

import pytest

from aero_events.bots import RandomBot, play
from aero_events.core import DiceRolled
from aero_events.core.interface import NotationError
from aero_events.demo import demo_session
from aero_events.record import steps
from aero_events.record.lexer import LexError, tokenize
from aero_events.rulesets.aeronautica import events as ev
from aero_events.rulesets.aeronautica import notation
from aero_events.rulesets.aeronautica.bots import GreedyBot
from aero_events.rulesets.aeronautica.commands import FireWeapons, SetThrottle


def _states_and_options(seed: int, limit_per_point: int = 60):
    """Every decision point of a bot game, with (up to ``limit_per_point``) legal commands there."""
    session = demo_session(seed)
    points = []

    class Watching:
        def __init__(self, bot):
            self.bot = bot

        def choose(self, session, player, options):
            points.append((session.state, list(options[:limit_per_point])))
            return self.bot.choose(session, player, options)

    play(session, {"imperium": Watching(GreedyBot(f"{seed}a")), "orks": Watching(RandomBot(f"{seed}b"))})
    return points


@pytest.mark.parametrize("seed", [3, 11])
def test_every_legal_command_of_a_game_reads_back_from_its_step(seed):
    """Like perft in chess: at each decision point of a bot game, each legal command's step (with its
    subject) reads back as that very command."""
    checked = 0
    seen = set()
    for state, options in _states_and_options(seed):
        for command in options:
            text = notation.step_text(command, state)
            tokens = tokenize(text)
            step = notation.read_step(tokens, 0, state, None)
            assert step.command == command, text
            assert step.end == len(tokens)
            checked += 1
            seen.add(type(command).__name__)
    assert checked > 500 and len(seen) >= 9, (checked, seen)


def test_a_step_without_subject_takes_the_given_one_and_a_wrong_subject_or_weapon_is_refused():
    session = demo_session(1)
    play(session, {"imperium": RandomBot(1), "orks": RandomBot(2)}, max_commands=25)
    state = session.state
    step = notation.read_step(tokenize("T+1"), 0, state, "imperium-1")
    assert step.command == SetThrottle(player="imperium", aircraft="imperium-1", change=1)
    with pytest.raises(NotationError, match="no aircraft, player or weapon 'imperium-9'"):
        notation.read_step(tokenize("imperium-9 go"), 0, state, None)
    with pytest.raises(NotationError, match="is a step for an aircraft; orks is a player"):
        notation.read_step(tokenize("orks T+1"), 0, state, None)
    with pytest.raises(NotationError, match="carries 2 skystrike_missiles: say which"):
        notation.read_step(tokenize("imperium-1 fire skystrike_missiles>orks-1"), 0, state, None)
    step = notation.read_step(tokenize("imperium-1 fire skystrike_missiles#3>orks-1 twin_lascannons>orks-2"), 0,
                              state, None)
    assert isinstance(step.command, FireWeapons)
    assert [(s.weapon_index, s.target) for s in step.command.shots] == [(3, "orks-1"), (0, "orks-2")]


def test_dice_groups_are_labelled_by_purpose_and_bad_faces_are_refused_where_they_stand():
    assert notation.dice_label("to hit: imperium-1 Twin Lascannons at orks-2") == "hit"
    assert notation.dice_label("damage: Bomb Creep on orks-1") == "dmg"
    assert notation.dice_label("initiative") == "init"
    assert notation.dice_label("armoured_cockpit for imperium-2") == "armoured_cockpit"
    roll = DiceRolled(roll_index=0, purpose="initiative", roller="orks", count=2, sides=6, faces=(3, 5))
    assert steps.dice_text(notation.dice_label(roll.purpose), roll.sides, roll.faces) == "[init 3,5]"
    (group,) = tokenize("  [hit 5,2 6]")
    assert steps.read_dice_group(group).faces == (5, 2, 6)
    (bad,) = tokenize("  [hit 5,7]", first_line=2)
    with pytest.raises(steps.NotationError, match="a D6 shows 1 to 6; 7 is not a face") as caught:
        steps.read_dice_group(bad)
    assert caught.value.position() == (2, 10)


def test_result_marks_tell_moves_damage_and_the_end():
    events = [ev.ManoeuvreFlown(aircraft="imperium-1", manoeuvre=2, side="left", stage_hexes=(1,), facings=(1,),
                                path=(), pushed=(), hex=(4, -2), facing=5),
              ev.DamageSuffered(aircraft="orks-2", hits=2, structure=1, cause="shot"),
              ev.AircraftDestroyed(aircraft="orks-2", cause="shot"),
              ev.Stalled(aircraft="imperium-1", reason="slow"),
              ev.GameEnded(reason="last aircraft flying", winner="imperium")]
    assert notation.result_marks(events, "imperium-1") == ["=@4,-2NW", "=orks-2:-2", "=orks-2:X", "=stall",
                                                          "=end:imperium"]


def test_the_lexer_keeps_positions_and_refuses_unclosed_comments():
    tokens = tokenize('1. "Red One" go {a comment\nover lines} (alt: x)', first_line=5)
    assert [(t.kind, t.value, t.line, t.column) for t in tokens] == [
        ("word", "1.", 5, 1), ("word", "Red One", 5, 4), ("word", "go", 5, 14),
        ("comment", "a comment\nover lines", 5, 17), ("open", "(", 6, 13), ("word", "alt:", 6, 14),
        ("word", "x", 6, 19), ("close", ")", 6, 20)]
    with pytest.raises(LexError) as caught:
        tokenize("go {never closed", first_line=3)
    assert (caught.value.line, caught.value.column) == (3, 4)


def test_the_rarer_commands_read_back_from_their_steps_too():
    """Landing, taxiing, hovering, reserves, re-rolls, Autonomous weapons, Jump Troops, Rocket Boosters."""
    import msgspec

    from aero_events.hexgrid import Hex
    from aero_events.rulesets.aeronautica import commands as c
    from aero_events.rulesets.aeronautica.events import Shot
    from aero_events.rulesets.aeronautica.state import AutonomousWeapon

    session = demo_session(2)
    state = session.state
    weapon = AutonomousWeapon(id="imperium-auto-1", owner="imperium", firer="imperium-1", weapon="krak",
                              weapon_index=2, hex=Hex(3, 4), facing=1, launched_turn=1, moved_turn=1)
    state = msgspec.structs.replace(state, autonomous={weapon.id: weapon})
    commands = [
        c.Hover(player="orks", aircraft="orks-5", facing=4),
        c.Land(player="imperium", aircraft="imperium-2"),
        c.TakeOff(player="imperium", aircraft="imperium-2"),
        c.Taxi(player="imperium", aircraft="imperium-2", facing_before=0, hexes=1, facing_after=5),
        c.RocketBoostOut(player="imperium", aircraft="imperium-3"),
        c.DropJumpTroops(player="orks", aircraft="orks-5"),
        c.DropJumpTroops(player="orks", aircraft="orks-5", points=2),
        c.PlaceReserve(player="orks", aircraft="orks-4", hex=Hex(0, 5), facing=1, altitude=3),
        c.AcceptRoll(player="imperium", aircraft="imperium-1"),
        c.UseReroll(player="imperium", aircraft="imperium-1"),
        c.LaunchAutonomous(player="imperium", aircraft="imperium-1",
                           shot=Shot(weapon_index=2, hex=Hex(4, 5), facing=2, hexes=3)),
        c.SteerAutonomous(player="imperium", weapon="imperium-auto-1"),
        c.SteerAutonomous(player="imperium", weapon="imperium-auto-1", turn_at=2, turn=-1),
        c.ManoeuvrePlan(player="orks", aircraft="orks-1"),
        c.ManoeuvrePlan(player="orks", aircraft="orks-1", side="right", stage_hexes=(2, 1), facings=(-1, 3)),
    ]
    written = []
    for command in commands:
        text = notation.step_text(command, state)
        written.append(text)
        assert notation.read_step(tokenize(text), 0, state, None).command == command, text
    assert written[3] == "imperium-2 taxi:N,1,NW"
    assert written[10] == "imperium-1 launch skystrike_missiles#2@4,5SE+3"
    assert written[12] == "imperium-auto-1 steer:2L"
    assert written[14] == "orks-1 R2+1f-1,3"
