"""Scenarios (rulebook p.32-35): the scenario format as data, the Dogfight, and the set-up phase.

* :mod:`.format`: the format every scenario follows (p.33: Background, Forces, Set-up,
  Special Rules, Victory Conditions) and what scenarios place on the Area of
  Engagement (terrain with a height, ground targets, landing zones, p.33).
* :mod:`.dogfight`: The Dogfight (p.34-35), the one scenario the text gives in full;
  :func:`~.dogfight.dogfight_setup` builds a game from two forces.
* :mod:`.set_up`: the set-up phase played as commands: the roll-off, the weather roll,
  alternate placement, the cloud level (p.33-34).
* :mod:`.terrain`: Terrain Height (p.33): crashing into terrain, Ground Defences on it.

This package imports its modules lazily, because ``state.py`` uses :mod:`.format`.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "DOGFIGHT": ".dogfight",
    "dogfight_setup": ".dogfight",
    "Scenario": ".format",
    "load_scenario": ".format",
    "parse_scenario": ".format",
    "TerrainFeature": ".format",
    "GroundTarget": ".format",
    "LandingZone": ".format",
}

__all__ = ["DOGFIGHT", "GroundTarget", "LandingZone", "Scenario", "TerrainFeature", "dogfight_setup",
           "load_scenario", "parse_scenario"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)
