"""Rulesets by name: found through the ``aero_events.rulesets`` entry points, or registered at run time.

A ruleset package declares its rulesets in its ``pyproject.toml``::

    [project.entry-points."aero_events.rulesets"]
    "wings/wog-2012" = "my_rulesets.wings:WingsOfGloryRules"
    "wings/wog-2020" = "my_rulesets.wings:WingsOfGlory2020Rules"
    wings = "my_rulesets.wings:WingsOfGloryRules"

Each value is ``module:factory``, a zero-argument callable returning the ruleset; the module is imported
only when the ruleset is first asked for, so the core and the tools never import a ruleset they do not use.
A name is ``family/version``; an entry named by its family alone (``wings``) is that family's
default version, so ``get_ruleset("wings")`` plays the default (a family with one version needs no
such entry). A program or a test adds rulesets with :func:`register_ruleset`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Any

from .decider import Ruleset

GROUP = "aero_events.rulesets"

Factory = Callable[[], Ruleset]

#: Registered at run time: name -> factory (they win over entry points of the same name).
_factories: dict[str, Factory] = {}
#: Family -> the name of its default version, as registered at run time.
_defaults: dict[str, str] = {}
#: Entry points, read once: name -> "module:attribute".
_entry_points: dict[str, str] | None = None


def family(name: str) -> str:
    """The family of a ruleset name: what comes before the first '/' (``aeronautica`` of
    ``aeronautica/wov-2019``); a name without '/' is a family."""
    return name.partition("/")[0]


def _declared() -> dict[str, str]:
    global _entry_points
    if _entry_points is None:
        _entry_points = {point.name: point.value for point in entry_points(group=GROUP)}
    return _entry_points


#: Variants registered at run time (a user's file): name -> the family whose version it is.
_variant_families: dict[str, str] = {}


def register_ruleset(name: str, factory: Factory, *, default: bool = False,
                     variant_of: str | None = None) -> None:
    """Make ``get_ruleset(name)`` return ``factory()``; with ``default``, also ``get_ruleset(family)``.

    ``variant_of`` names the family a user's variant belongs to (its name, ``my/brace-any-time``, need not
    start with it): the variant is then a version of that family, never a family of its own."""
    _factories[name] = factory
    if variant_of is not None:
        _variant_families[name] = family(variant_of)
    if default:
        _defaults[family(name)] = name


def unregister_ruleset(name: str) -> None:
    """Forget a ruleset registered at run time (a test's variant); entry points are not affected."""
    _factories.pop(name, None)
    _variant_families.pop(name, None)
    for key in [key for key, value in _defaults.items() if value == name]:
        del _defaults[key]


def _load(reference: str) -> Factory:
    module, _, attribute = reference.partition(":")
    target: Any = importlib.import_module(module)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


def _factory(name: str) -> Factory | None:
    if name in _factories:
        return _factories[name]
    reference = _declared().get(name)
    if reference is None:
        return None
    factory = _load(reference)
    _factories[name] = factory
    return factory


def known_rulesets() -> list[str]:
    """Every ruleset name (``family/version``) registered or declared."""
    return sorted(name for name in set(_declared()) | set(_factories) if "/" in name)


def known_families() -> dict[str, str]:
    """Each family and the name of its default version: the one its entry named by the family alone (or a
    ``register_ruleset(..., default=True)``) gives, else its first version in name order. A user's variant
    (``register_ruleset(..., variant_of=...)``) is a version of its base's family, not a family."""
    families: dict[str, str] = {}
    for name in known_rulesets():
        if name not in _variant_families:
            families.setdefault(family(name), name)
    for name in set(_declared()) | set(_factories):
        if "/" not in name and name not in _variant_families:
            families[name] = _factory(name)().name  # type: ignore[misc]
    families.update(_defaults)
    return dict(sorted(families.items()))


def default_ruleset() -> str:
    """The ruleset a tool plays when nothing names one (``aero demo``, a matchup file without ``ruleset``):
    the default version of the first family, in name order, that the installed packages declare."""
    declared = sorted(family(name) for name in _declared())
    if not declared:
        families = known_families()
        if not families:
            raise KeyError("no ruleset is installed or registered")
        return next(iter(families.values()))
    return resolve_name(declared[0])


def resolve_name(name: str) -> str:
    """The full ``family/version`` name of ``name``, which may be a family (its default version)."""
    if "/" in name:
        return name
    if name in _defaults:
        return _defaults[name]
    factory = _factory(name)
    if factory is not None:
        return factory().name
    return known_families().get(name, name)


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (a full name, or a family for its default version); a clear error
    lists the known names otherwise."""
    factory = _factory(name)
    if factory is None and "/" not in name:
        full = resolve_name(name)
        factory = _factory(full) if full != name else None
    if factory is None:
        known = ", ".join(known_rulesets()) or "none"
        raise KeyError(f"unknown ruleset {name!r}; known rulesets: {known}")
    return factory()


def ruleset_for_game(name: str, metadata: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset a recorded game names. A variant unknown here (a user's, whose definition the game's
    metadata carries) is rebuilt by its family: each known ruleset's ``variant_from_metadata`` is asked.

    A variant known in this process under the same name but another definition (a variant file edited and
    loaded again) does not replay the game: the definition the game carries is rebuilt instead."""
    variant = metadata.get("variant") if metadata else None
    try:
        registered = get_ruleset(name)
    except KeyError:
        if not metadata:
            raise
    else:
        if not (isinstance(variant, Mapping) and variant.get("name") == name) or \
                _same_definition(registered.game_metadata().get("variant"), variant):
            return registered
    base = variant.get("base") if isinstance(variant, Mapping) else None
    # The family the variant says it is based on is asked first; one default per family is enough.
    candidates = sorted(set(known_families().values()),
                        key=lambda known: not (isinstance(base, str) and family(known) == family(base)))
    for known in candidates:
        factory = _factory(known)
        reloader = getattr(factory, "variant_from_metadata", None)
        if reloader is None:
            reloader = factory().variant_from_metadata  # type: ignore[union-attr]
        ruleset = reloader(name, metadata)
        if ruleset is not None:
            return ruleset
    return get_ruleset(name)


def _same_definition(mine: Any, recorded: Mapping[str, Any]) -> bool:
    """Whether a ruleset's own variant definition is the one a game recorded (compared as JSON data)."""
    import msgspec

    return msgspec.json.encode(mine, order="sorted") == msgspec.json.encode(dict(recorded), order="sorted")
