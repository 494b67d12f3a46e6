"""Recovering the commands of recorded games (aero_events/regress/decisions.py).

Games recorded with their commands (``CommandIssued``, issue 11) give them back directly; games recorded
before (the golden corpus: sessions with ``record_commands=False`` write that format) go through
Aeronautica's decision-event table (rulesets/aeronautica/legacy_commands.py). The property that matters:
the recovered commands, decided again with the recorded dice, give back the recorded events exactly. For
bot games the recovered commands are also the very commands the bots gave.
"""

from __future__ import annotations

import itertools

import msgspec
import pytest

from aero_events.bots import RandomBot, play
from aero_events.core import (
    CommandIssued,
    DiceRolled,
    Envelope,
    Event,
    GameSession,
    SecretCommandIssued,
    SeededDice,
    TapeDice,
)
from aero_events.core.secrets import REPRODUCIBLE_SALTS
from aero_events.regress import RecoveryError, UnknownDecision, commands_from_events, recover_decisions
from aero_events.regress.tape import RecordedSalts, recorded_salts
from aero_events.rulesets import get_ruleset
from aero_events.rulesets.aeronautica.bots import GreedyBot
from aero_events.rulesets.aeronautica.commands import AdjustAltitude, ChooseFirstMover, PlaceAircraft, RollOff
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.legacy_commands import DECISIONS
from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup

IMPERIAL = ForceList(name="Bolts", faction="imperial_navy", aircraft=(
    AircraftEntry(aircraft="thunderbolt", weapons=("skystrike_missiles",), upgrades=("imperial_ace",)),
    AircraftEntry(aircraft="marauder")))
ORKS = ForceList(name="Dakkas", faction="ork_air_waaagh", aircraft=(
    AircraftEntry(aircraft="dakkajet", upgrades=("fly_boss",)), AircraftEntry(aircraft="fighta_bommer")))


def bot_game(seed: int, bots=("random", "random"), rules_name="aeronautica/wov-2019", record_commands=False):
    """A Dogfight set up by the bots in turn (roll-off and placements are decisions too); the commands given.

    Recorded without its commands by default, as games were before issue 11: the legacy table's tests."""
    rules = get_ruleset(rules_name)
    setup = dogfight_setup(("imperium", IMPERIAL), ("orks", ORKS), 0, board="3x3", catalogue=rules.catalogue,
                           check_points=False)
    session = GameSession(rules, setup, dice=SeededDice(seed), game_id=f"g{seed}", record_commands=record_commands,
                          metadata={REPRODUCIBLE_SALTS: True})  # replayed from its seed alone
    kinds = {"random": RandomBot, "greedy": GreedyBot}
    given = []
    play(session, {"imperium": kinds[bots[0]](seed), "orks": kinds[bots[1]](seed + 1)},
         on_command=lambda command, envelopes: given.append(command))
    return session, given


@pytest.mark.parametrize("seed", range(1, 9))
def test_the_recovered_commands_are_the_commands_the_bots_gave(seed):
    session, given = bot_game(seed)
    recovered = commands_from_events(session.events(), session.ruleset, session.game.setup)
    assert len(recovered) == len(given)
    for mine, theirs in zip(recovered, given, strict=True):
        # Who moves first: choosing a side with nothing to move is choosing the other (p.14); both
        # commands give the same events, and the table recovers the side that did move first.
        if mine != theirs:
            assert isinstance(mine, ChooseFirstMover) and isinstance(theirs, ChooseFirstMover)
            state = session.state
            assert mine.player == theirs.player and mine.first == state.opponent(theirs.first)
    assert any(isinstance(c, RollOff) for c in recovered) and any(isinstance(c, PlaceAircraft) for c in recovered)


@pytest.mark.parametrize("seed", [3, 4])
def test_greedy_games_are_recovered_too(seed):
    session, given = bot_game(seed, ("greedy", "random"), "aeronautica/faq-2020")
    recovery = recover_decisions(session.ruleset, session.game.setup, session.events())
    assert [d.command for d in recovery.decisions] == given
    assert session.ruleset.state_hash(recovery.final_state) == session.state_hash()


def test_each_decision_knows_where_its_events_lie():
    session, _ = bot_game(5)
    decisions = recover_decisions(session.ruleset, session.game.setup, session.events()).decisions
    assert decisions[0].first_seq == 1 and decisions[-1].last_seq == session.seq
    for before, after in itertools.pairwise(decisions):
        assert after.first_seq == before.last_seq + 1


def test_holding_altitude_is_recovered_although_it_leaves_no_event_of_its_own():
    for seed in range(1, 20):
        session, given = bot_game(seed)
        holds = [c for c in given if isinstance(c, AdjustAltitude) and c.change == 0]
        if holds:
            break
    else:
        pytest.fail("no bot game held its Altitude")
    recovered = commands_from_events(session.events(), session.ruleset, session.game.setup)
    assert [c for c in recovered if isinstance(c, AdjustAltitude) and c.change == 0] == holds


class MysteryDecided(Event, frozen=True, tag="test.MysteryDecided"):
    """An event no part of the rules emits, standing for a new decision the table does not know yet."""

    what: str


def test_an_unknown_decision_event_fails_clearly():
    session, _ = bot_game(1)
    events = session.events()
    start = next(i for i, env in enumerate(events) if env.type == "ai.AircraftPlaced")  # a command boundary
    mystery = msgspec.structs.replace(events[start], event=MysteryDecided(what="?"))
    tampered = [*events[:start], mystery, *events[start + 1:]]
    with pytest.raises(UnknownDecision, match=r"test\.MysteryDecided.*not in the decision table"):
        commands_from_events(tampered, session.ruleset, session.game.setup)


def test_a_record_that_does_not_replay_under_its_own_rules_is_refused_where_it_differs():
    session, _ = bot_game(1)
    events: list[Envelope] = list(session.events())
    index = next(i for i, env in enumerate(events) if isinstance(env.event, DiceRolled)
                 and env.event.purpose == "initiative")
    roll = events[index].event
    changed = msgspec.structs.replace(roll, faces=(7 - roll.faces[0],))
    events[index] = msgspec.structs.replace(events[index], event=changed)
    with pytest.raises(RecoveryError) as refused:
        recover_decisions(session.ruleset, session.game.setup, events)
    # The changed die is read by the initiative roll: the winner differs from the recorded one.
    message = str(refused.value)
    assert "does not replay under aeronautica/wov-2019 from seq" in message
    assert "ai.InitiativeWon" in message and "where the record has seq" in message


def test_every_command_of_the_ruleset_has_a_decision_event():
    """The table covers every command a part of the turn handles (AdjustAltitude 0 is read from the state)."""
    from aero_events.rulesets.aeronautica.commands import (
        AcceptRoll,
        ActivateAircraft,
        ChooseFirstMover,
        ChooseManoeuvre,
        DeclineManoeuvre,
        DropJumpTroops,
        FireWeapons,
        Hover,
        Land,
        LaunchAutonomous,
        ManoeuvrePlan,
        PassFiring,
        PlaceReserve,
        RocketBoostOut,
        SetThrottle,
        SteerAutonomous,
        TakeOff,
        Taxi,
        UseReroll,
    )
    from aero_events.rulesets.aeronautica.ruleset import _HANDLERS

    produced_by_table = {AcceptRoll, ActivateAircraft, AdjustAltitude, ChooseFirstMover, ChooseManoeuvre,
                         DeclineManoeuvre, DropJumpTroops, FireWeapons, Hover, Land, LaunchAutonomous, ManoeuvrePlan, PassFiring,
                         PlaceAircraft, PlaceReserve, RocketBoostOut, RollOff, SetThrottle, SteerAutonomous, TakeOff,
                         Taxi, UseReroll}
    assert set(_HANDLERS) == produced_by_table
    assert len(DECISIONS) >= 20


# ---------------------------------------------------------------- games recorded with their commands


def test_a_game_recorded_with_its_commands_gives_them_back_exactly():
    session, given = bot_game(3, ("greedy", "random"), record_commands=True)
    recorded = [env for env in session.events() if isinstance(env.event, CommandIssued | SecretCommandIssued)]
    assert len(recorded) == len(given)
    assert any(isinstance(env.event, SecretCommandIssued) for env in recorded)  # the Manoeuvre tokens
    recovery = recover_decisions(session.ruleset, session.game.setup, session.events())
    assert [d.command for d in recovery.decisions] == given  # ChooseFirstMover as given, not its equivalent
    assert [d.first_seq for d in recovery.decisions] == [env.seq for env in recorded]
    assert recovery.decisions[-1].last_seq == session.seq
    assert session.ruleset.state_hash(recovery.final_state) == session.state_hash()


def test_a_recorded_command_that_does_not_give_the_recorded_events_is_refused():
    session, _ = bot_game(1, record_commands=True)
    events: list[Envelope] = list(session.events())
    index = next(i for i, env in enumerate(events) if isinstance(env.event, CommandIssued)
                 and env.event.command["command"] == "ai.PlaceAircraft")
    changed = dict(events[index].event.command, speed=events[index].event.command["speed"] + 1)
    events[index] = msgspec.structs.replace(events[index], event=CommandIssued(command=changed))
    with pytest.raises(RecoveryError, match="does not replay under aeronautica/wov-2019"):
        recover_decisions(session.ruleset, session.game.setup, events)


def test_a_command_missing_from_a_game_recorded_with_commands_is_named():
    session, _ = bot_game(1, record_commands=True)
    events = list(session.events())
    index = next(i for i, env in enumerate(events) if env.type == "CommandIssued" and i > 10)
    with pytest.raises(RecoveryError, match="no recorded command comes before it"):
        recover_decisions(session.ruleset, session.game.setup, [*events[:index], *events[index + 1:]])


def test_a_game_recorded_before_commands_were_and_continued_since_is_recovered_whole():
    """The legacy table up to the first recorded command, the recorded commands after it."""
    session, given = bot_game(2)  # the old format: no CommandIssued
    halfway = len(given) // 2
    old, _ = bot_game(2)
    cut = next(d.last_seq for d in recover_decisions(old.ruleset, old.game.setup, old.events()).decisions
               if d.index == halfway - 1)
    rest = old.events(cut + 1)  # the rest of the game is played again with its own dice and salts
    continued = GameSession(session.ruleset, session.game.setup, dice=TapeDice.from_events(rest),
                            salts=RecordedSalts(recorded_salts(rest)), game_id="g2")
    continued.record(old.events(1, cut))
    for command in given[halfway:]:
        continued.apply(command)
    assert continued.state_hash() == session.state_hash()
    assert any(isinstance(env.event, CommandIssued | SecretCommandIssued) for env in continued.events())
    recovered = commands_from_events(continued.events(), continued.ruleset, continued.game.setup)
    assert len(recovered) == len(given) and recovered[halfway:] == given[halfway:]
