"""The turn sequence (rulebook p.13-14): Choose Manoeuvres, Initiative, Tailing Fire, Movement, Firing, End.

Every game here is driven through its commands; the dice are entered by hand (ManualDice), Initiative first.
"""

from __future__ import annotations

import msgspec
import pytest

from aero_events.core import DiceRolled, RedactedEvent, SecretMismatch, commitment
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.commands import (
    ActivateAircraft,
    AdjustAltitude,
    ChooseFirstMover,
    ChooseManoeuvre,
    ManoeuvrePlan,
    PassFiring,
    SetThrottle,
)
from aero_events.rulesets.aeronautica.events import (
    AircraftActivated,
    FirstMoverChosen,
    InitiativeTied,
    InitiativeWon,
    ManoeuvreChosen,
    ManoeuvreRevealed,
    PhaseBegan,
    SpinEntered,
    TurnBegan,
    TurnEnded,
)
from aero_events.rulesets.aeronautica.state import (
    CHOOSE_MANOEUVRES,
    END,
    FIRING,
    INITIATIVE,
    MOVEMENT,
    TAILING_FIRE,
)
from tests.aeronautica.helpers import IMPERIUM, ORKS, Plane, S, Table, of_type, one

ONE_EACH = {"imperium": [Plane("thunderbolt", (4, 12))], "orks": [Plane("dakkajet", (10, 3), facing=S, speed=5)]}
TWO_EACH = {"imperium": [Plane("thunderbolt", (3, 12)), Plane("thunderbolt", (6, 12))],
                "orks": [Plane("dakkajet", (9, 3), facing=S, speed=5), Plane("dakkajet", (12, 3), facing=S, speed=5)]}
ONE_AGAINST_THREE = {"imperium": [Plane("thunderbolt", (4, 12))],
                         "orks": [Plane("dakkajet", (c, 3), facing=S, speed=5) for c in (8, 10, 12)]}


def straight_on(table: Table, aircraft_id: str) -> None:
    """Move an aircraft that chose Ace Manoeuvre 1 straight ahead at its Speed, holding Altitude."""
    table.move(aircraft_id, stage_hexes=(1,), facings=(0,))


def test_a_turn_runs_its_six_phases_in_order():
    """p.13 Turn Summary: Choose Manoeuvres, Initiative, Tailing Fire, Movement, Firing, End, then a new turn."""
    table = Table(**ONE_EACH)
    assert table.state.phase == CHOOSE_MANOEUVRES
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    straight_on(table, "imperium-1")
    straight_on(table, "orks-1")
    table.pass_firing()
    envelopes = table.session.events()
    assert [e.phase for e in of_type(envelopes, PhaseBegan)] == [INITIATIVE, TAILING_FIRE, MOVEMENT, FIRING, END]
    assert one(envelopes, TurnEnded).turn == 1 and one(envelopes, TurnBegan).turn == 2
    assert (table.state.turn, table.state.phase) == (2, CHOOSE_MANOEUVRES)
    # Each event is stamped with the phase it happened in.
    stamped = {type(e.event).__name__: e.phase for e in envelopes}
    assert stamped["ManoeuvreChosen"] == CHOOSE_MANOEUVRES
    assert stamped["InitiativeWon"] == INITIATIVE
    assert stamped["ManoeuvreFlown"] == MOVEMENT
    assert stamped["FiringPassed"] == FIRING


def test_initiative_waits_until_every_eligible_aircraft_has_its_token():
    """p.13 Phase 1: players choose an Ace Manoeuvre for every eligible aircraft before Initiative is rolled."""
    table = Table(**ONE_EACH)
    table.apply(ChooseManoeuvre(player=IMPERIUM, aircraft="imperium-1", manoeuvre=2))
    assert table.state.phase == CHOOSE_MANOEUVRES
    assert not of_type(table.session.events(), DiceRolled)
    table.dice.enter([5, 2])
    table.apply(ChooseManoeuvre(player=ORKS, aircraft="orks-1", manoeuvre=3))
    assert table.state.phase == MOVEMENT and table.state.initiative == IMPERIUM


def test_a_manoeuvre_cannot_be_changed_once_chosen():
    """p.13: one face-down token per aircraft; p.14 (Initiative): no going back once the dice are rolled."""
    table = Table(**ONE_EACH)
    table.apply(ChooseManoeuvre(player=IMPERIUM, aircraft="imperium-1", manoeuvre=2))
    err = table.refused(ChooseManoeuvre(player=IMPERIUM, aircraft="imperium-1", manoeuvre=4))
    assert (err.rule, err.page) == ("Choose Manoeuvres", 13)
    assert not [c for c in table.legal(IMPERIUM) if c.aircraft == "imperium-1"]


def test_a_player_chooses_only_for_their_own_aircraft_from_its_ace_manoeuvres():
    """p.10, p.13: a Dakkajet flies Ace Manoeuvres 1-5; nobody chooses for the other side."""
    table = Table(**ONE_EACH)
    assert sorted(c.manoeuvre for c in table.legal(ORKS)) == [1, 2, 3, 4, 5]
    assert {c.aircraft for c in table.legal(ORKS)} == {"orks-1"}
    err = table.refused(ChooseManoeuvre(player=ORKS, aircraft="orks-1", manoeuvre=6))
    assert (err.rule, err.page) == ("Ace Manoeuvres", 10)
    err = table.refused(ChooseManoeuvre(player=ORKS, aircraft="imperium-1", manoeuvre=1))
    assert (err.rule, err.page) == ("Choose Manoeuvres", 13)


class SpinningStart(AeronauticaRules):
    """The rules with imperium-2 already in a Spin when the game starts (a state only the End phase makes)."""

    def initial_state(self, setup):
        state = super().initial_state(setup)
        spinner = msgspec.structs.replace(state.aircraft["imperium-2"], spinning=True)
        return msgspec.structs.replace(state, aircraft={**state.aircraft, "imperium-2": spinner})


def test_an_aircraft_in_a_spin_chooses_no_manoeuvre_and_does_not_move():
    """p.13 Phase 1: aircraft in a Spin are not eligible to move and cannot perform an Ace Manoeuvre."""
    table = Table(**TWO_EACH, rules=SpinningStart())
    assert {c.aircraft for c in table.legal(IMPERIUM)} == {"imperium-1"}
    err = table.refused(ChooseManoeuvre(player=IMPERIUM, aircraft="imperium-2", manoeuvre=1))
    assert (err.rule, err.page) == ("Choose Manoeuvres", 13)
    # Initiative comes once the three eligible aircraft have their tokens.
    table.start_movement({"imperium-1": 1, "orks-1": 1, "orks-2": 1}, first=IMPERIUM)
    assert [c.aircraft for c in table.legal(IMPERIUM)] == ["imperium-1"]
    err = table.refused(ActivateAircraft(player=IMPERIUM, aircraft="imperium-2"))
    assert err.page == 13
    straight_on(table, "imperium-1")
    straight_on(table, "orks-1")
    assert table.state.to_act == ORKS  # imperium has nothing left to move
    straight_on(table, "orks-2")
    assert table.state.phase == FIRING
    assert not table.aircraft("imperium-2").moved


def test_the_movement_phase_ends_when_no_aircraft_is_eligible_to_move():
    """p.14: "When every eligible aircraft on the tabletop has been moved, move on to the Firing phase" --
    also when every aircraft is in a Spin (p.13), so there is none to move.

    Both aircraft Stall (Throttle below Min Speed, p.15) and fail to recover in the End phase (p.29)."""
    table = Table(**ONE_EACH)
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    table.move("imperium-1", throttle=-2, stage_hexes=(1,), facings=(0,))  # Speed 4 -> 2: not a Stall
    table.move("orks-1", throttle=-2, stage_hexes=(1,), facings=(0,))  # Speed 5 -> 3, below Min Speed 4
    # Turn 2: imperium's Thunderbolt Stalls too.
    table.dice.enter([1])  # orks' Stall recovery (Handling 4+) fails: Spin
    table.pass_firing()
    assert table.aircraft("orks-1").spinning
    table.start_movement({"imperium-1": 1}, first=ORKS)
    assert table.state.to_act == IMPERIUM  # orks has nothing to move: imperium moves first
    table.move("imperium-1", throttle=-2)  # Speed 2 -> 0: below Min Speed, too slow for Manoeuvre 1: Stall
    assert table.aircraft("imperium-1").stalled
    table.dice.enter([1, 1, 6, 1])  # imperium's Stall recovery, then orks' Spin recovery, both fail
    table.pass_firing()
    assert table.aircraft("imperium-1").spinning and table.aircraft("orks-1").spinning
    assert len(of_type(table.session.events(), SpinEntered)) == 2
    # Turn 3: nobody is eligible to choose, so Initiative is rolled at once; after the first-mover choice
    # the Movement phase has nothing to move and the Firing phase begins (where a spinning aircraft may not
    # fire either, p.29, so the End phase follows: both fail their Spin recovery, and turn 4 begins alike).
    assert (table.state.turn, table.state.phase) == (3, MOVEMENT)
    table.dice.enter([1, 1, 6, 1])
    events = table.apply(ChooseFirstMover(player=IMPERIUM, first=IMPERIUM))
    assert isinstance(events[0], FirstMoverChosen) and events[1] == PhaseBegan(phase=FIRING)
    assert not of_type(events, AircraftActivated)
    assert (table.state.turn, table.state.phase) == (4, MOVEMENT)


def test_initiative_is_a_d6_each_and_ties_are_rolled_again():
    """p.13 Phase 2: each player rolls a D6, the highest wins; "If the roll is a tie, re-roll the dice"."""
    table = Table(**ONE_EACH)
    table.choose({"imperium-1": 1, "orks-1": 1}, initiative=(4, 4, 2, 5))
    events = table.session.events()
    rolls = of_type(events, DiceRolled)
    assert [(r.purpose, r.roller, r.faces) for r in rolls] == [
        ("initiative", IMPERIUM, (4,)), ("initiative", ORKS, (4,)),
        ("initiative", IMPERIUM, (2,)), ("initiative", ORKS, (5,)),
    ]
    assert len(of_type(events, InitiativeTied)) == 1
    assert one(events, InitiativeWon).player == ORKS
    assert table.state.initiative == ORKS and table.state.initiative_rolls == 1


def test_the_initiative_winner_decides_who_moves_first():
    """p.14 Phase 4: the player with the initiative decides which player moves an aircraft first."""
    table = Table(**ONE_EACH)
    table.choose({"imperium-1": 1, "orks-1": 1}, initiative=(2, 5))
    assert table.legal(IMPERIUM) == []
    assert table.legal(ORKS) == [ChooseFirstMover(player=ORKS, first=IMPERIUM),
                                 ChooseFirstMover(player=ORKS, first=ORKS)]
    err = table.refused(ChooseFirstMover(player=IMPERIUM, first=IMPERIUM))
    assert (err.rule, err.page) == ("Initiative", 13)
    events = table.apply(ChooseFirstMover(player=ORKS, first=IMPERIUM))
    assert one(events, FirstMoverChosen) == FirstMoverChosen(chooser=ORKS, first=IMPERIUM)
    assert table.state.to_act == IMPERIUM
    assert table.legal(IMPERIUM) == [ActivateAircraft(player=IMPERIUM, aircraft="imperium-1")]
    assert table.legal(ORKS) == []


def test_players_alternate_choosing_and_moving_aircraft():
    """p.14 Phase 4: once the first aircraft has moved, play switches to the other player, and so on."""
    table = Table(**TWO_EACH)
    table.start_movement({"imperium-1": 1, "imperium-2": 1, "orks-1": 1, "orks-2": 1}, first=ORKS)
    order = []
    for aircraft_id in ("orks-2", "imperium-1", "orks-1", "imperium-2"):
        assert table.state.to_act == table.aircraft(aircraft_id).owner
        straight_on(table, aircraft_id)
        order.append(table.state.to_act if table.state.phase == MOVEMENT else table.state.phase)
    assert order == [IMPERIUM, ORKS, IMPERIUM, FIRING]
    assert table.state.phase == FIRING
    assert [e.aircraft for e in of_type(table.session.events(), AircraftActivated)] == [
        "orks-2", "imperium-1", "orks-1", "imperium-2"]


@pytest.mark.parametrize("first", [IMPERIUM, ORKS])
def test_a_side_with_more_aircraft_moves_the_rest_one_after_another(first):
    """p.14: "If one player has more aircraft to move than the other, their remaining aircraft are moved one
    after another in an order of their choosing once their opponent has moved their last aircraft"."""
    table = Table(**ONE_AGAINST_THREE)
    table.start_movement({"imperium-1": 1, "orks-1": 1, "orks-2": 1, "orks-3": 1}, first=first)
    movers = []
    while table.state.phase == MOVEMENT:
        player = table.state.to_act
        movers.append(player)
        straight_on(table, table.legal(player)[-1].aircraft)  # orks choose their order: last listed first
    expected = [IMPERIUM, ORKS, ORKS, ORKS] if first == IMPERIUM else [ORKS, IMPERIUM, ORKS, ORKS]
    assert movers == expected


def test_a_player_cannot_move_out_of_turn():
    """p.14 Phase 4 and p.15: a player moves when play passes to them, one aircraft through its whole sequence.
    A refused command names its rule and page and appends nothing."""
    table = Table(**TWO_EACH)
    table.start_movement({"imperium-1": 1, "imperium-2": 1, "orks-1": 1, "orks-2": 1}, first=IMPERIUM)
    err = table.refused(ActivateAircraft(player=ORKS, aircraft="orks-1"))
    assert (err.rule, err.page) == ("Movement", 14)
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    # imperium-1 is mid-sequence: no other aircraft may start, nor may another aircraft throttle.
    err = table.refused(ActivateAircraft(player=IMPERIUM, aircraft="imperium-2"))
    assert (err.rule, err.page) == ("Movement phase sequence", 15)
    err = table.refused(SetThrottle(player=IMPERIUM, aircraft="imperium-2", change=0))
    assert (err.rule, err.page) == ("Movement phase sequence", 15)
    err = table.refused(SetThrottle(player=ORKS, aircraft="imperium-1", change=0))
    assert err.page == 15
    table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=0))
    table.apply(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", stage_hexes=(1,), facings=(0,)))
    table.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=0))
    err = table.refused(ActivateAircraft(player=IMPERIUM, aircraft="imperium-2"))
    assert (err.rule, err.page) == ("Movement", 14)
    straight_on(table, "orks-1")
    err = table.refused(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))  # it has moved
    assert (err.rule, err.page) == ("Movement", 14)


def test_the_player_who_moved_first_fires_first():
    """p.14 Phase 5: "The player that moved an aircraft first in the Movement phase will also now fire first"."""
    table = Table(**ONE_EACH)
    table.start_movement({"imperium-1": 1, "orks-1": 1}, first=ORKS, initiative=(6, 1))
    straight_on(table, "orks-1")
    straight_on(table, "imperium-1")
    assert table.state.phase == FIRING and table.state.to_act == ORKS
    err = table.refused(PassFiring(player=IMPERIUM))
    assert err.page == 20


def test_the_manoeuvre_token_is_secret_until_it_is_turned_over():
    """p.13: the token is placed face down, "taking care to keep the Ace Manoeuvre chosen a secret from
    opponents"; p.14: it is turned over when the aircraft is chosen to move."""
    table = Table(**ONE_EACH)
    table.start_movement({"imperium-1": 4, "orks-1": 2}, first=ORKS)
    session, rules = table.session, table.rules
    chosen = one([e for e in session.events() if e.event.type_name() == "ai.ManoeuvreChosen"
                  and e.event.owner == IMPERIUM], ManoeuvreChosen)
    salt = chosen.salt
    # The orks' log shows only the commitment of imperium-1's token ...
    orks_log = session.events_for(ORKS)
    redacted = [e.event for e in orks_log if isinstance(e.event, RedactedEvent) and e.event.owner == IMPERIUM
                and e.event.secret_type == ManoeuvreChosen.type_name()]
    assert len(redacted) == 1
    assert redacted[0].commitment == chosen.commitment and redacted[0].public == {"aircraft": "imperium-1"}
    assert salt.encode() not in b"".join(msgspec.json.encode(e) for e in orks_log)
    for viewer in (ORKS, None):
        shown = rules.view(table.state, viewer)["aircraft"]["imperium-1"]
        assert "manoeuvre" not in shown and "salt" not in shown and shown["commitment"] == chosen.commitment
        assert b'"manoeuvre":4' not in msgspec.json.encode(session.view(viewer)["aircraft"]["imperium-1"])
    # ... while each player sees their own.
    assert rules.view(table.state, IMPERIUM)["aircraft"]["imperium-1"]["manoeuvre"] == 4
    assert rules.view(table.state, ORKS)["aircraft"]["orks-1"]["manoeuvre"] == 2
    assert any(isinstance(e.event, ManoeuvreChosen) and e.event.manoeuvre == 2 for e in orks_log)

    # Turned over: the reveal matches the commitment, and now everybody sees it.
    table.move("orks-1", side="left", stage_hexes=(1,), facings=(1,))
    reveal = one(table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1")), ManoeuvreRevealed)
    assert (reveal.manoeuvre, reveal.salt) == (4, salt)
    assert commitment({"manoeuvre": reveal.manoeuvre}, reveal.salt) == chosen.commitment
    assert rules.view(table.state, ORKS)["aircraft"]["imperium-1"]["manoeuvre"] == 4


def test_a_reveal_that_does_not_match_the_commitment_is_refused():
    """p.13-14: the token turned over is the one placed face down; a forged reveal cannot be folded."""
    table = Table(**ONE_EACH)
    table.start_movement({"imperium-1": 4, "orks-1": 2}, first=IMPERIUM)
    state = table.state
    salt = state.aircraft["imperium-1"].salt
    with pytest.raises(SecretMismatch):
        table.rules.evolve(state, ManoeuvreRevealed(aircraft="imperium-1", manoeuvre=5, salt=salt))
    revealed = table.rules.evolve(state, ManoeuvreRevealed(aircraft="imperium-1", manoeuvre=4, salt=salt))
    assert revealed.aircraft["imperium-1"].revealed == 4
