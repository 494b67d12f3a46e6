"""The golden corpus plan for Battlefleet Gothic (``aero corpus``, ``replays/``): scenarios, what the corpus
must cover, and what one game covers (the names of the rules its events show). The search, files and checks
are the tool's (``aero_events/regress/corpus.py``)."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from aero_events.core import Envelope
from aero_events.core.interface import CorpusPlan, CorpusScenario

from .data import CM
from .setup import GameSetup, cruiser_clash

PLAYERS = ("imperial", "chaos")

#: Corpus items by event tag: the rule each event shows.
ITEMS = {
    "bfg.CommandCheckTaken": "command check (p.11)",
    "bfg.LeadershipTestTaken": "leadership test (p.12)",
    "bfg.GunneryResolved": "weapons batteries (p.19-20)",
    "bfg.LancesResolved": "lances (p.19)",
    "bfg.HitsAbsorbed": "shields (p.25)",
    "bfg.HitsSaved": "brace for impact (p.23)",
    "bfg.CriticalHit": "critical hits (p.24)",
    "bfg.ShipCrippled": "crippled (p.23)",
    "bfg.CatastrophicDamage": "catastrophic damage (p.26)",
    "bfg.HulkDrifted": "hulk drift (p.26)",
    "bfg.TorpedoAttack": "torpedoes (p.28)",
    "bfg.TurretsFired": "turrets (p.29)",
    "bfg.NovaCannonFired": "nova cannon (p.21)",
    "bfg.BomberAttack": "bombers (p.30)",
    "bfg.BlastMarkersRemoved": "blast marker removal (p.31)",
    "bfg.GameEnded": "ending the battle (p.13)",
}
REQUIRED = frozenset(ITEMS.values())


def coverage(rules, initial, envelopes: Iterable[Envelope]) -> set[str]:
    return {ITEMS[env.event.type_name()] for env in envelopes if env.event.type_name() in ITEMS}


def _alternatives(rules) -> GameSetup:
    base = cruiser_clash({"imperial": ["lunar", "dominator"], "chaos": ["murder", "devastation"]}, seed=0,
                         data=rules.data, points_cap=False)
    return msgspec.structs.replace(base, scenario="cruiser-clash-alternatives")


def _nova_at_range(rules) -> GameSetup:
    """The alternatives with the fleets deployed 70 cm apart, bows on: the Dominator's nova cannon (30-150 cm,
    front arc, p.21) has the enemy in reach from the first Shooting phase, and no ship is far enough away to
    need All Ahead Full (which forbids the nova cannon, p.21)."""
    base = _alternatives(rules)
    width = base.table[0]
    south, north = 25 * CM, 95 * CM
    by_side: dict[str, list] = {}
    for ship in base.ships:
        by_side.setdefault(ship.side, []).append(ship)
    ships = []
    for side, fleet in by_side.items():
        for index, ship in enumerate(fleet):
            x = width // 2 + (index * 2 - (len(fleet) - 1)) * 20 * CM
            y, heading = (south, 0) if side == "imperial" else (north, 18000)
            ships.append(msgspec.structs.replace(ship, x=x, y=y, heading=heading))
    return msgspec.structs.replace(base, ships=tuple(ships), scenario="cruiser-clash-nova-at-range")


SCENARIOS = (
    CorpusScenario(name="bfg-cruiser-clash", ruleset="battlefleet-gothic/core",
                   description="Cruiser Clash, three cruisers a side, broadside bot against the random bot",
                   build=lambda rules: cruiser_clash({"imperial": ["lunar", "gothic", "tyrant"],
                                                      "chaos": ["murder", "slaughter", "carnage"]},
                                                     data=rules.data),
                   bots=("broadside", "random"), players=PLAYERS),
    CorpusScenario(name="bfg-carriers-and-nova", ruleset="battlefleet-gothic/core",
                   description="Cruiser Clash alternatives (no points cap, R p.129): a nova cannon and carriers",
                   build=_alternatives, bots=("broadside", "broadside"), players=PLAYERS),
    CorpusScenario(name="bfg-nova-at-range", ruleset="battlefleet-gothic/core",
                   description="Cruiser Clash alternatives deployed 70 cm apart, bows on: the nova cannon in reach",
                   build=_nova_at_range, bots=("broadside", "broadside"), players=PLAYERS,
                   targets=frozenset({"nova cannon (p.21)"})),
)


def rules_for(name: str):
    from .ruleset import BattlefleetGothicRules

    return BattlefleetGothicRules()


PLAN = CorpusPlan(scenarios=SCENARIOS, required=REQUIRED, coverage=coverage, rules_for=rules_for)
