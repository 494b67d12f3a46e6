"""Aeronautica Imperialis: Wings of Vengeance (Games Workshop, 2019).

Map of the ruleset (one module per part of the turn, each citing its pages):

* ``data/``: aircraft, weapons, upgrades and the Ace Manoeuvre table as JSON files;
  ``profiles.py`` and ``manoeuvres.py`` load and validate them; ``forces.py`` builds
  and checks force lists (p.9, p.36-47).
* ``setup.py``: the game's setup (forces, placements, board).
* ``state.py``: the immutable game state; ``events.py`` and ``commands.py``.
* ``turn.py``: the turn sequence and Initiative (p.13-14).
* ``movement.py``: Throttle, Move and Manoeuvre, edges, hovering, taxiing, take-off (p.15-19).
* ``altitude.py``: climbing, diving, Stall, Crash, Breaking Up, landing, Rocket Boosters (p.18-19, p.37).
* ``ruleset.py``: the decider wiring and rule options.
"""

from .ruleset import AeronauticaRules, RuleOptions

__all__ = ["AeronauticaRules", "RuleOptions"]
