"""Rulesets by name: ``get_ruleset("aeronautica/wov-2019")``.

Rulesets are imported lazily, on first use, so that the core and the store never
import a ruleset they do not need. A program (or a test) can add its own with
:func:`register_ruleset`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from aero_events.core.decider import Ruleset

#: name -> "module:attribute" of a zero-argument factory returning the ruleset.
_BUILTIN: dict[str, str] = {
    "aeronautica/wov-2019": "aero_events.rulesets.aeronautica:AeronauticaRules",
    "aeronautica/faq-2020": "aero_events.rulesets.aeronautica.versions:Faq2020Rules",
}

_factories: dict[str, Callable[[], Ruleset]] = {}


def register_ruleset(name: str, factory: Callable[[], Ruleset]) -> None:
    """Make ``get_ruleset(name)`` return ``factory()``."""
    _factories[name] = factory


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; a clear error lists the known names otherwise."""
    if name not in _factories and name in _BUILTIN:
        module, attribute = _BUILTIN[name].split(":")
        register_ruleset(name, getattr(importlib.import_module(module), attribute))
    try:
        return _factories[name]()
    except KeyError:
        known = ", ".join(sorted(set(_BUILTIN) | set(_factories))) or "none"
        raise KeyError(f"unknown ruleset {name!r}; known rulesets: {known}") from None


def known_rulesets() -> list[str]:
    return sorted(set(_BUILTIN) | set(_factories))
