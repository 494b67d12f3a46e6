"""Rulesets by name: ``get_ruleset("aeronautica/wov-2019")``, ``get_ruleset("aeronautica")``.

The registry is :mod:`aero_events.core.registry` (entry points of the group ``aero_events.rulesets``,
declared in pyproject.toml, plus :func:`register_ruleset` at run time); these names are re-exported here so
that existing callers keep working. Rulesets are imported lazily, on first use.
"""

from __future__ import annotations

from aero_events.core.registry import (
    default_ruleset,
    family,
    get_ruleset,
    known_families,
    known_rulesets,
    register_ruleset,
    resolve_name,
    ruleset_for_game,
)

__all__ = ["default_ruleset", "family", "get_ruleset", "known_families", "known_rulesets", "register_ruleset", "resolve_name",
           "ruleset_for_game"]
