"""The demo (`aero demo`, `make demo`): a ruleset's demo scenario played by its bots, recorded in the DuckDB
store, told event by event, verified, and its outcome printed.

``aero demo --ruleset NAME`` plays any registered ruleset (a full name, or a family for its default
version); without it, the default ruleset. The ruleset says what its demo is
(``ruleset.demo_scenario()``: a scenario, its options and a bot per player); Aeronautica's is a 100-point
Dogfight (p.34-35) between the greedy and the random bot: Veil Squadron (four Thunderbolts with Skystrike
missiles) meets Da Red Skull Kommandos (four Dakkajets with Rokkits and a Fighta Bommer) on a 4'x4' Area
of Engagement (p.9). The same seed gives the same game.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from typing import Any

from aero_events.bots import bots_for, make_bot, play
from aero_events.core import GameSession, Ruleset, SeededDice, issued_command
from aero_events.core.registry import default_ruleset, get_ruleset
from aero_events.core.secrets import REPRODUCIBLE_SALTS

#: The default seed: for Aeronautica, of seeds 1-79, the one whose greedy-against-random game shows the most
#: of the rules (24 shots, damage, Stalls, Spins, Tailing, over 6 turns).
DEMO_SEED = 22


def demo_plan(ruleset: Ruleset) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    """The ruleset's demo: (scenario name, options, a bot per player). Without a demo of its own: its first
    scenario with its default options, and its first bot for every player."""
    plan = ruleset.demo_scenario()
    if plan is not None:
        return plan
    scenarios = ruleset.scenarios()
    if not scenarios:
        raise KeyError(f"the ruleset {ruleset.name} has no scenario to play a demo of")
    scenario = next(iter(scenarios.values()))
    bot = next(iter(bots_for(ruleset)))
    return scenario.name, {}, (bot,) * len(scenario.players)


def demo_session(seed: int = DEMO_SEED, game_id: str | None = None, ruleset: Ruleset | None = None) -> GameSession:
    """A seeded session of the ruleset's demo scenario (default: the default ruleset), at its start."""
    rules = ruleset or get_ruleset(default_ruleset())
    name, options, _ = demo_plan(rules)
    scenario = rules.scenarios()[name]
    setup = scenario.build({**scenario.default_options, **options}, seed)
    # A demo is replayed from its seed alone, salts included: its commitments hide nothing (issue 16 item 3).
    metadata: dict[str, Any] = {"scenario": scenario.name, "seed": seed, REPRODUCIBLE_SALTS: True}
    metadata.update(rules.game_metadata())
    return GameSession(rules, setup, dice=SeededDice(seed), game_id=game_id or f"demo-{seed}", metadata=metadata)


def run_demo(db_path: str = "aero.duckdb", seed: int = DEMO_SEED, bots: Sequence[str] | None = None,
             say: Callable[[str], None] = print, ruleset: Ruleset | None = None) -> str:
    """Play, store, narrate and verify the demo of ``ruleset`` (default: the default ruleset); return its
    game id. ``bots``: one bot name per player (default: the ruleset's demo bots)."""
    from aero_events.store import EventStore

    rules = ruleset or get_ruleset(default_ruleset())
    chosen = tuple(bots) if bots is not None else demo_plan(rules)[2]
    with EventStore(db_path) as store:
        # A second run of the same seed is stored beside the first, as demo-SEED-2 ...
        session = demo_session(seed, store.unused_game_id(f"demo-{seed}", f"demo-{seed}-{{}}"), rules)
        players = tuple(rules.players(session.state))
        if len(chosen) != len(players):
            raise ValueError(f"{rules.name} has {len(players)} players ({', '.join(players)}): name a bot for each")
        session.game.metadata["bots"] = ",".join(chosen)
        by_player = dict(zip(players, chosen, strict=True))
        for line in rules.describe_setup(session.game.setup, by_player):
            say(line)
        commands = play(session, {player: make_bot(rules, bot, f"{seed}:{player}")
                                  for player, bot in by_player.items()})
        for line in rules.narrate(session.events(), session.state_at(0)):
            say(line)
        store.save_session(session)
        report = store.verify(session.game_id)
    envelopes = session.events()
    dice = sum(1 for e in envelopes if e.type == "DiceRolled")
    recorded = sum(1 for e in envelopes if issued_command(e.event) is not None)
    say("")
    say(play_summary(commands, session.seq, recorded, dice, rules.clock(session.state)[0]))
    say(f"Outcome: {rules.summary_line(session.state)}")
    say(f"Stored as game {session.game_id} in {db_path}; verify: {'ok' if report.ok else report}")
    for line in next_steps(session.game_id, db_path, envelopes):
        say(line)
    return session.game_id


def play_summary(commands: int, events: int, recorded: int, dice: int, turns: int) -> str:
    """What the demo's play came to, in English whatever the counts: "106 commands produced 605 events (106
    of them the commands, 1 dice roll) over 14 turns." """
    return (f"{_counted(commands, 'command')} produced {_counted(events, 'event')} ({recorded} of them the "
            f"commands, {_counted(dice, 'dice roll')}) over {_counted(turns, 'turn')}.")


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def next_steps(game_id: str, db_path: str, envelopes: Sequence[Any]) -> list[str]:
    """The commands to look at the stored game next, written to run as printed (:func:`aero_command`): the
    replay and the report first, a fork at a command boundary halfway through, the export as a record."""
    from aero_events.cli.common import aero_command

    aero, game, db = aero_command(), shlex.quote(game_id), shlex.quote(str(db_path))
    forks = [e.seq - 1 for e in envelopes if issued_command(e.event) is not None and e.seq > 1]
    fork = forks[len(forks) // 2] if forks else len(envelopes)
    return [f"  watch it:   {aero} replay {game} --db {db} --out {shlex.quote(game_id + '-replay.html')}",
            f"  report:     {aero} report {game} --db {db} --out {shlex.quote(game_id + '-report.html')}",
            f"  the log:    {aero} show {game} --db {db}",
            f"  branch it:  {aero} branch {game} --at {fork} --name what-if --db {db}",
            f"  export it:  {aero} export {game} {shlex.quote(game_id + '.aero')} --db {db}"]
