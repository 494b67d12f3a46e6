"""The demo: a seeded game between two bots, recorded in the DuckDB store and told turn by turn.

Two Thunderbolts against three Dakkajets face off across a 3'x3' Area of Engagement
(p.9). Firing arrives with its own rules; until then the Firing phase passes, and the
game shows the turn sequence, secret manoeuvres, movement, altitude, Stalls, Spins and
their dice.
"""

from __future__ import annotations

from collections.abc import Callable

from aero_events.bots import RandomBot, play
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.deployment import face_off
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList, force_points
from aero_events.rulesets.aeronautica.narrate import narrate

DEMO_PLAYERS = ("imperium", "orks")


def demo_session(seed: int = 2019) -> GameSession:
    """A seeded session of the demo match, not yet played."""
    rules = AeronauticaRules()
    thunderbolts = ForceList(name="Thunderbolt patrol", faction="imperial_navy",
                             aircraft=(AircraftEntry(aircraft="thunderbolt"),) * 2)
    dakkajets = ForceList(name="Dakkajet mob", faction="ork_air_waaagh",
                          aircraft=(AircraftEntry(aircraft="dakkajet"),) * 3)
    setup = face_off((DEMO_PLAYERS[0], thunderbolts), (DEMO_PLAYERS[1], dakkajets), rules.catalogue,
                     check_points=False)
    return GameSession(rules, setup, dice=SeededDice(seed), game_id=f"demo-{seed}",
                       metadata={"scenario": "demo face-off", "bots": "random,random", "seed": seed})


def run_demo(db_path: str = "aero.duckdb", seed: int = 2019, say: Callable[[str], None] = print) -> str:
    """Play, store and narrate the demo game; return its game id."""
    session = demo_session(seed)
    rules = session.ruleset
    for side in session.game.setup.sides:
        points = force_points(side.force, rules.catalogue)
        say(f"{side.player}: {side.force.name}, {len(side.force.aircraft)} aircraft, {points.total} points")
    commands = play(session, {DEMO_PLAYERS[0]: RandomBot(seed), DEMO_PLAYERS[1]: RandomBot(seed + 1)})
    for line in narrate(session.events()):
        say(line)

    from aero_events.store import EventStore, UnknownGame

    with EventStore(db_path) as store:
        game_id, run = session.game_id, 1
        while True:  # a second run of the same seed is stored beside the first, as demo-SEED-2 ...
            try:
                store.game(game_id)
            except UnknownGame:
                break
            run += 1
            game_id = f"{session.game_id}-{run}"
        if game_id != session.game_id:
            session = _renamed(session, game_id)
        store.save_session(session)
        report = store.verify(session.game_id)
    say("")
    say(f"{commands} commands by two random bots produced {session.seq} events "
        f"({sum(1 for e in session.events() if e.type == 'DiceRolled')} dice rolls).")
    say(f"Stored as game {session.game_id} in {db_path}; verify: {'ok' if report.ok else report}")
    say(f"  replay it:  aero show {session.game_id} --db {db_path}")
    say(f"  branch it:  aero branch {session.game_id} --at 20 --name what-if --db {db_path}")
    say(f"  export it:  aero export {session.game_id} {session.game_id}.jsonl --db {db_path}")
    return session.game_id


def _renamed(session: GameSession, game_id: str) -> GameSession:
    """The same game under another id (events re-stamped; nothing re-decided)."""
    copy = GameSession(session.ruleset, session.game.setup, dice=SeededDice(0), game_id=game_id,
                       metadata=session.game.metadata)
    copy.record(session.events())
    return copy
