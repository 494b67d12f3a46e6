"""Property tests: any sequence of legal commands, drawn from ``session.legal_commands`` for both players,
keeps the invariants of the Movement rules (p.13-19) and of the event log.

Invariants checked after every command:

* every legal command is accepted (no RuleError), and a game not over always offers one;
* Structure is never negative (p.10);
* no two aircraft in play stand in one hex when a command is done (p.7 The Infinite Skies, p.17 step 6), and
  every aircraft in play is on a complete hex of the board (p.17: beyond the edge it has Disengaged);
* a flying aircraft between moves has Speed within [Min, Max] (p.15) and Altitude at least 1 (p.18), unless it
  carries a Stall token or is in a Spin. Speed above Max Speed during a move is resolved by Breaking Up at
  its end (p.19), so the aircraft moving now is not checked;
* Altitude at most Max Altitude (p.18) for a flying aircraft that has never Stalled in the game: "unless
  Stalled" covers the Stall and what follows it, since the End phase (p.29) leaves a Spin recovered at the
  Altitude the Spin left it (a gap of end_phase.py: a Spin entered above Max Altitude can be recovered
  from above it);
* a landed aircraft is at Speed 0 and Altitude 0 (p.19).

And at the end of the game (or of the commands drawn): the state equals the fold of the events, and replaying
the events on a fresh session (``GameSession.record``, ``TapeDice([])``: no die may be rolled again) reaches
the same state hash.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aero_events.core import (
    DiceCup,
    GameSession,
    RuleError,
    SaltSource,
    SeededDice,
    TapeDice,
)
from aero_events.rulesets.aeronautica import RuleOptions
from aero_events.rulesets.aeronautica.events import Stalled
from aero_events.rulesets.aeronautica.state import FLYING, GAME_OVER, LANDED, PHASES
from tests.aeronautica.helpers import SE, SW, Plane, S, game_setup, make_rules

RULES = {True: make_rules(), False: make_rules(RuleOptions(throttle_past_limits=False))}

SETUPS = [
    # The match-up on a small board, so that aircraft meet, push through each other and leave it.
    game_setup([Plane("thunderbolt", (3, 8), speed=4), Plane("thunderbolt", (6, 8), speed=3, altitude=1)],
               [Plane("dakkajet", (2, 2), facing=S, speed=5), Plane("dakkajet", (5, 2), facing=SE, speed=6),
                Plane("dakkajet", (8, 1), facing=SW, speed=4, altitude=4)], board="10x10h"),
    # Every special case: all eight manoeuvres, hovering, Rocket Boosters, Throttle 1, low and high aircraft.
    game_setup([Plane("ace", (3, 9), speed=2), Plane("hoverer", (6, 9), speed=1, altitude=1),
                Plane("booster", (9, 9), speed=4, altitude=5)],
               [Plane("fighta_bommer", (4, 2), facing=S, speed=3, altitude=1),
                Plane("dakkajet", (8, 2), facing=S, speed=8, altitude=2)], board="13x12h"),
]

MAX_COMMANDS = 90


def check_invariants(rules, state, ever_stalled: set[str]) -> None:
    assert state.phase in PHASES or state.phase == GAME_OVER
    hexes = [a.hex for a in state.aircraft.values() if a.in_play]
    assert len(hexes) == len(set(hexes)), f"two aircraft in one hex: {sorted(hexes)}"
    board = rules.board(state)
    assert all(board.contains(h) for h in hexes), "an aircraft in play is off the Area of Engagement"
    for a in state.aircraft.values():
        profile = rules.profile(a)
        assert a.structure >= 0
        if a.status == LANDED:
            assert (a.speed, a.altitude) == (0, 0)
        if a.status != FLYING or a.id == state.active or a.stalled or a.spinning:
            continue
        assert profile.min_speed <= a.speed <= profile.max_speed, (a.id, a.speed)
        assert a.altitude >= 1, (a.id, a.altitude)
        if a.id not in ever_stalled:
            assert a.altitude <= profile.max_altitude, (a.id, a.altitude)


def play(data, rules, setup, seed: int, *, try_every_command: bool = False) -> GameSession:
    session = GameSession(rules, setup, dice=SeededDice(seed), game_id="property")
    players = session.state.players
    ever_stalled: set[str] = set()
    for _ in range(MAX_COMMANDS):
        if session.is_over():
            break
        options = [c for player in players for c in session.legal_commands(player)]
        assert options, f"stuck in {session.state.phase} with nothing to do"
        if try_every_command:
            for command in options:
                cup = DiceCup(SeededDice(seed), 0)
                cup.salts = SaltSource("probe")  # type: ignore[attr-defined]
                try:
                    rules.decide(session.state, command, cup)
                except RuleError as err:  # pragma: no cover - the failure message is the point
                    raise AssertionError(f"legal command {command} refused: {err}") from err
        command = data.draw(st.sampled_from(options), label="command")
        for envelope in session.apply(command):
            if isinstance(envelope.event, Stalled):
                ever_stalled.add(envelope.event.aircraft)
        check_invariants(rules, session.state, ever_stalled)
    return session


def check_log(rules, setup, session: GameSession) -> None:
    events = [env.event for env in session.events() if not env.event.core_event]
    assert rules.fold(session.game.initial_state, events) == session.state
    replay = GameSession(rules, setup, dice=TapeDice([]), game_id=session.game_id)
    replay.record(session.events())
    assert replay.state_hash() == session.state_hash()
    assert replay.state == session.state


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), which=st.sampled_from(range(len(SETUPS))), seed=st.integers(0, 10_000),
       past_limits=st.booleans())
def test_random_legal_play_keeps_the_movement_invariants(data, which, seed, past_limits):
    rules, setup = RULES[past_limits], SETUPS[which]
    session = play(data, rules, setup, seed)
    check_log(rules, setup, session)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), which=st.sampled_from(range(len(SETUPS))), seed=st.integers(0, 10_000))
def test_every_legal_command_is_accepted(data, which, seed):
    """legal_commands lists only commands that decide() accepts, at every point of a random game."""
    play(data, RULES[True], SETUPS[which], seed, try_every_command=True)
