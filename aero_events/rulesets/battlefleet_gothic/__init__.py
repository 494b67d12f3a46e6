"""Battlefleet Gothic, the core rules (rulebook p.4-31), as the ruleset ``battlefleet-gothic/core``.

See README.md in this folder for the rules-coverage table.
"""

from .ruleset import BattlefleetGothicRules, RuleOptions
from .setup import GameSetup, ShipSetup, cruiser_clash

__all__ = ["BattlefleetGothicRules", "GameSetup", "RuleOptions", "ShipSetup", "cruiser_clash"]
