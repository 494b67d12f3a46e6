"""Rulesets by name: ``get_ruleset("aeronautica/wov-2019")``.

Rulesets are imported lazily, on first use, so that the core and the store never
import a ruleset they do not need. A program (or a test) can add its own with
:func:`register_ruleset`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

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


#: "module:function" of functions that register a user's variant from a game's metadata (a recorded game
#: carries the definition of the variant it was played under, so it can be reloaded without the file).
_METADATA_LOADERS: tuple[str, ...] = ("aero_events.rulesets.aeronautica.versions:register_from_metadata",)


def ruleset_for_game(name: str, metadata: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset a recorded game names; a variant unknown here is registered from the game's metadata."""
    try:
        return get_ruleset(name)
    except KeyError:
        if not metadata:
            raise
    for loader in _METADATA_LOADERS:
        module, attribute = loader.split(":")
        getattr(importlib.import_module(module), attribute)(metadata)
    return get_ruleset(name)


def known_rulesets() -> list[str]:
    return sorted(set(_BUILTIN) | set(_factories))
