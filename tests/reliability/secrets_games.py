"""Games for the secrets tests (issue 16 items 2-4): every shipped ruleset's demo, played by its bots once per
test process, with the salts a game gets by default (random) or declared reproducible from its seed."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from aero_events.bots import make_bot, play
from aero_events.core import GameSession, SeededDice
from aero_events.core.registry import get_ruleset, known_families
from aero_events.core.secrets import REPRODUCIBLE_SALTS, SecretEvent
from aero_events.demo import demo_plan
from aero_events.store.chain import GENESIS, chain_hashes

SEED = 3

#: The rulesets the package ships (the test suite registers others of its own).
SHIPPED = ("aeronautica", "battlefleet-gothic", "million-colored-sun", "whfb-flying", "wings-of-glory")


def shipped() -> list[str]:
    """The shipped families this installation has (all of them)."""
    return [family for family in SHIPPED if family in known_families()]


@cache
def demo_game(family: str, reproducible: bool = False) -> GameSession:
    """The family's demo scenario played to its end by its demo bots (seed :data:`SEED`); its salts random
    unless ``reproducible`` (the metadata then says ``reproducible_salts``, as ``aero demo`` does)."""
    rules = get_ruleset(known_families()[family])
    name, options, bots = demo_plan(rules)
    scenario = rules.scenarios()[name]
    setup = scenario.build({**scenario.default_options, **options}, SEED)
    metadata = {"scenario": name, "seed": SEED, **rules.game_metadata()}
    if reproducible:
        metadata[REPRODUCIBLE_SALTS] = True
    session = GameSession(rules, setup, dice=SeededDice(SEED), game_id=f"secrets-{family}-{SEED}", metadata=metadata)
    players = rules.players(session.state)
    play(session, {player: make_bot(rules, bot, f"{SEED}:{player}") for player, bot in zip(players, bots, strict=True)})
    return session


def has_secrets(session: GameSession) -> bool:
    return any(isinstance(env.event, SecretEvent) for env in session.events())


def forge(lines: list[bytes]) -> bytes:
    """Renumber a one-branch export's events and recompute its chain, head and counts: what anyone who knows
    the format does after changing events (no secret is needed)."""
    header, branch, *events = (json.loads(line) for line in lines)
    for seq, event in enumerate(events, start=1):
        event["seq"] = seq
    payloads = [json.dumps(e["payload"], separators=(",", ":")).encode() for e in events]
    hashes = chain_hashes(GENESIS, [e["seq"] for e in events], [e["turn"] for e in events],
                          [e["phase"] for e in events], [e["actor"] for e in events], [e["type"] for e in events],
                          [e["version"] for e in events], payloads)
    branch["head_seq"], branch["head_hash"] = len(events), hashes[-1].hex() if hashes else None
    header["event_count"] = len(events)
    return b"".join(json.dumps(line, separators=(",", ":")).encode() + b"\n" for line in (header, branch, *events))


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()
