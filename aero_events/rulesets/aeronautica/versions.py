"""Ruleset versions and user variants: data overrides plus rule options, declared in one place.

A *version* is the version it is based on, plus

* **data overrides**: only the fields that change, per aircraft, weapon or upgrade id (an id the base does
  not know adds a whole new profile), e.g. the mid-2020 points ``{"thunderbolt": {"points": 23}}``;
* **rule options**: :class:`~aero_events.rulesets.aeronautica.ruleset.RuleOptions` fields, e.g.
  ``{"throttle_past_limits": false, "occupied_hex_roll": true}``; where a rule change needs code, the code
  sits behind such an option (movement.occupied_hex_rolls).

The package's versions are in ``data/versions.json``: ``aeronautica/wov-2019`` (the default, the rulebook as
printed) and ``aeronautica/faq-2020`` (the 2020 update and points). A user defines a variant in a file of
the same shape, JSON or TOML, without touching the package::

    {"base": "aeronautica/wov-2019", "name": "my/dakka-structure-3",
     "aircraft": {"dakkajet": {"structure": 3}}, "options": {"occupied_hex_roll": true}}

:func:`load_variant` reads, validates (a :class:`DataError` names the file and the field at fault, and the
line in a JSON file) and registers it, so ``get_ruleset("my/dakka-structure-3")`` works in this process and
games recorded under it can be stored and reloaded. :func:`rules_for` takes a version name (``faq-2020`` is
short for ``aeronautica/faq-2020``) or a variant file path: what every ``--rules`` option accepts.

Every game records its ruleset name and data version (the store's ``games`` table); a variant's data
version is its base's plus ``+name.digest``, the digest a hash of its overrides and options, so two
different files under one name never pass for each other.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import tomllib
from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from aero_events.core.errors import DataError, read_data_file
from aero_events.rulesets import get_ruleset, known_rulesets, register_ruleset

from .profiles import (
    AircraftProfile,
    Catalogue,
    JsonDocument,
    Upgrade,
    WeaponProfile,
    check_catalogue,
    data_path,
    load_catalogue,
)
from .ruleset import AeronauticaRules, RuleOptions

__all__ = [
    "DEFAULT_VERSION",
    "FAQ_2020",
    "Faq2020Rules",
    "RulesetVersion",
    "VersionedRules",
    "build_version",
    "canonical_name",
    "known_versions",
    "load_variant",
    "parse_variant",
    "rules_for",
    "version_definition",
]

VERSIONS_FILE = "versions.json"
DEFAULT_VERSION = "aeronautica/wov-2019"
FAQ_2020 = "aeronautica/faq-2020"
#: Versions of this package are named ``aeronautica/<short name>``.
FAMILY = "aeronautica/"

#: RuleOptions fields that exist for variants but that the rules do not read yet, with what must read them:
#: a variant that changes one is refused rather than silently played with the printed rule.
UNHOOKED_OPTIONS: dict[str, str] = {}

_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)*$")
_Overrides = dict[str, dict[str, Any]]
#: The largest number a variant may give a profile field (points, Structure, ranges): no profile comes near.
MAX_VALUE = 10_000


class RulesetVersion(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One ruleset version, as declared in ``data/versions.json`` or a user's variant file.

    ``base`` is the version it changes (None only for the root, ``aeronautica/wov-2019``); ``aircraft``,
    ``weapons`` and ``upgrades`` map an id to the fields that change; ``options`` are RuleOptions fields;
    ``data_version`` names the data (default: a digest of the overrides); ``notes`` say where each change
    comes from.
    """

    name: str
    base: str | None = None
    description: str = ""
    source: str = ""
    data_version: str | None = None
    aircraft: _Overrides = msgspec.field(default_factory=dict)
    weapons: _Overrides = msgspec.field(default_factory=dict)
    upgrades: _Overrides = msgspec.field(default_factory=dict)
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def digest(self) -> str:
        """A short hash of what this version changes (overrides and options), for its data version."""
        changes = {"aircraft": self.aircraft, "weapons": self.weapons, "upgrades": self.upgrades,
                   "options": self.options}
        return hashlib.sha256(msgspec.json.encode(changes, order="sorted")).hexdigest()[:8]


class VersionsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The shape of ``data/versions.json``."""

    source: str
    versions: tuple[RulesetVersion, ...]
    note: str | None = None


class BuiltVersion(msgspec.Struct, frozen=True, kw_only=True):
    """A version resolved against its bases: the catalogue and options to play with."""

    definition: RulesetVersion
    origin: str
    catalogue: Catalogue
    options: RuleOptions


# ---------------------------------------------------------------------------------------------------------
# Where a definition came from, for errors that name the file, the field and (in JSON) the line
# ---------------------------------------------------------------------------------------------------------


class _Origin:
    """A definition's source text: turns a problem at a path into a DataError naming file and field."""

    def __init__(self, source: str, document: JsonDocument | None = None, prefix: tuple[str | int, ...] = ()):
        self.source = source
        self.document = document
        self.prefix = prefix

    def error(self, message: str, *path: str | int) -> DataError:
        field = ".".join(str(part) for part in path) or None
        if self.document is not None:
            full = self.prefix + tuple(path)
            line = self.document.line_of(full)
            text = f"{message} (line {line})" if line is not None else message
            err = DataError(text, source=self.source, field=field)
            err.line = line  # type: ignore[attr-defined]
            return err
        return DataError(message, source=self.source, field=field)


def _validation_field(err: msgspec.ValidationError) -> tuple[str, tuple[str | int, ...]]:
    """msgspec's ``"Expected `int`, got `str` - at `$.structure`"`` as ("Expected ...", ("structure",))."""
    message = str(err)
    detail, sep, where = message.rpartition(" - at ")
    if not sep:
        detail, where = message, "`$`"
    path: list[str | int] = []
    for name, index in re.findall(r"\.([^.\[\]`]+)|\[(\d+)\]", where.strip().strip("`").removeprefix("$")):
        path.append(name if name else int(index))
    missing = re.search(r"(?:unknown|missing required) field `([^`]+)`", detail)
    if missing:
        path.append(missing.group(1))
    return detail, tuple(path)


# ---------------------------------------------------------------------------------------------------------
# Reading definitions
# ---------------------------------------------------------------------------------------------------------


def _decode_definition(data: Any, origin: _Origin) -> RulesetVersion:
    if not isinstance(data, dict):
        raise origin.error("a ruleset variant is an object with a 'name', a 'base' and its changes")
    try:
        definition = msgspec.convert(data, RulesetVersion)
    except msgspec.ValidationError as err:
        detail, path = _validation_field(err)
        raise origin.error(detail, *path) from None
    if not _NAME_RE.match(definition.name):
        raise origin.error(f"name {definition.name!r} must be lower case words separated by '/', e.g. "
                           "'my/dakka-structure-3'", "name")
    return definition


def parse_variant(raw: bytes | str, source: str = "<string>", *, format: str | None = None) -> RulesetVersion:
    """A variant definition from JSON or TOML text (``format`` "json" or "toml"; default: from ``source``'s
    suffix, JSON otherwise). Only its shape is checked here; :func:`build_version` checks its values."""
    fmt = format or ("toml" if str(source).lower().endswith(".toml") else "json")
    if fmt == "toml":
        text = raw.decode() if isinstance(raw, bytes) else raw
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise DataError(f"not valid TOML: {err}", source=source) from None
        origin = _Origin(source)
    elif fmt == "json":
        document = JsonDocument(raw, source)
        data = document.data
        origin = _Origin(source, document)
    else:
        raise ValueError(f"a variant file is json or toml, not {fmt!r}")
    definition = _decode_definition(data, origin)
    if definition.base is None:
        raise origin.error("a variant names the version it changes, e.g. \"base\": \"aeronautica/wov-2019\"",
                           "base")
    _ORIGINS[definition.name] = origin
    return definition


@functools.cache
def _package_versions() -> dict[str, RulesetVersion]:
    path = data_path(VERSIONS_FILE)
    document = JsonDocument.from_file(path)
    try:
        parsed = msgspec.json.decode(document.raw, type=VersionsFile)
    except msgspec.ValidationError as err:
        raise document.validation_error(err) from None
    if not parsed.source.strip():
        raise document.error("source is empty: say where the changes come from", ("source",))
    versions: dict[str, RulesetVersion] = {}
    for index, version in enumerate(parsed.versions):
        if version.name in versions:
            raise document.error(f"version {version.name!r} is declared twice", ("versions", index, "name"))
        versions[version.name] = version
        _ORIGINS[version.name] = _Origin(str(path), document, ("versions", index))
    return versions


#: Variants loaded from files in this process, by name.
_VARIANTS: dict[str, RulesetVersion] = {}
#: Where each known definition came from (for errors found while building it).
_ORIGINS: dict[str, _Origin] = {}


def known_versions() -> list[str]:
    """The package's versions, then the variants loaded in this process."""
    return [*_package_versions(), *(name for name in _VARIANTS if name not in _package_versions())]


def canonical_name(name: str) -> str:
    """``faq-2020`` -> ``aeronautica/faq-2020``; full names (and unknown ones) unchanged."""
    if "/" not in name and FAMILY + name in _package_versions():
        return FAMILY + name
    return name


def version_definition(name: str) -> RulesetVersion:
    """The definition of a known version or loaded variant (short names accepted)."""
    name = canonical_name(name)
    if name in _VARIANTS:
        return _VARIANTS[name]
    versions = _package_versions()
    if name in versions:
        return versions[name]
    known = ", ".join(known_versions())
    raise KeyError(f"unknown ruleset version {name!r}; known versions: {known} (or give a variant file)")


# ---------------------------------------------------------------------------------------------------------
# Building: overrides applied to the base's catalogue, options merged, everything validated
# ---------------------------------------------------------------------------------------------------------

_COLLECTIONS: tuple[tuple[str, type], ...] = (
    ("aircraft", AircraftProfile),
    ("weapons", WeaponProfile),
    ("upgrades", Upgrade),
)


def _override(collection: str, kind: type, entries: Mapping[str, Any], changes: _Overrides,
              origin: _Origin) -> dict[str, Any]:
    """``entries`` with each id's fields replaced by ``changes`` (a new id is a whole new entry)."""
    result = dict(entries)
    for entry_id, fields in changes.items():
        if not isinstance(fields, dict):
            raise origin.error("the changes to one entry are an object of field: value", collection, entry_id)
        if "id" in fields and fields["id"] != entry_id:
            raise origin.error(f"the id is the key ({entry_id!r}); it cannot be changed", collection, entry_id,
                               "id")
        for key, value in fields.items():
            if isinstance(value, int) and not isinstance(value, bool) and not -MAX_VALUE <= value <= MAX_VALUE:
                raise origin.error(f"{value} is out of range: a profile's numbers are at most {MAX_VALUE}",
                                   collection, entry_id, key)
        base = msgspec.to_builtins(entries[entry_id]) if entry_id in entries else {}
        merged = {**base, **fields, "id": entry_id}
        try:
            result[entry_id] = msgspec.convert(merged, kind)
        except msgspec.ValidationError as err:
            detail, path = _validation_field(err)
            if entry_id not in entries and "missing required field" in detail:
                detail = f"{detail} ({entry_id!r} is not in the base version, so it needs a whole profile)"
            raise origin.error(detail, collection, entry_id, *path) from None
    return result


def _apply_options(base: RuleOptions, changes: Mapping[str, Any], origin: _Origin) -> RuleOptions:
    known = RuleOptions.__struct_fields__
    for name, value in changes.items():
        if name not in known:
            raise origin.error(f"unknown rule option {name!r}; known options: {', '.join(known)}", "options", name)
        if name in UNHOOKED_OPTIONS and value != getattr(RuleOptions(), name):
            raise origin.error(f"option {name!r} cannot be changed yet: {UNHOOKED_OPTIONS[name]}", "options", name)
    merged = {**msgspec.to_builtins(base), **changes}
    try:
        options = msgspec.convert(merged, RuleOptions)
    except msgspec.ValidationError as err:
        detail, path = _validation_field(err)
        raise origin.error(detail, "options", *path) from None
    if options.occupied_hex_hits < 0:
        raise origin.error(f"occupied_hex_hits is a number of damaging hits, 0 or more, not "
                           f"{options.occupied_hex_hits}", "options", "occupied_hex_hits")
    if options.cloud_cover not in ("firer", "either"):
        raise origin.error(f"cloud_cover is 'firer' or 'either', not {options.cloud_cover!r}", "options",
                           "cloud_cover")
    if not 2 <= options.air_to_air_to_hit <= 6:
        raise origin.error(f"air_to_air_to_hit is a D6 score of 2 to 6, not {options.air_to_air_to_hit}",
                           "options", "air_to_air_to_hit")
    for band, score in options.air_to_air_to_hit_by_range.items():
        if band not in ("short", "medium", "long"):
            raise origin.error(f"air_to_air_to_hit_by_range takes the bands short, medium and long, not {band!r}",
                               "options", "air_to_air_to_hit_by_range", band)
        if not 2 <= score <= 6:
            raise origin.error(f"a to-hit score is a D6 score of 2 to 6, not {score}", "options",
                               "air_to_air_to_hit_by_range", band)
    return options


def _base_built(definition: RulesetVersion, origin: _Origin, seen: tuple[str, ...]) -> BuiltVersion | None:
    if definition.base is None:
        return None
    base_name = canonical_name(definition.base)
    if base_name in seen or base_name == definition.name:
        raise origin.error(f"versions cannot be based on themselves ({' -> '.join((*seen, base_name))})", "base")
    try:
        version_definition(base_name)
    except KeyError:
        known = ", ".join(name for name in known_versions() if name != definition.name)
        raise origin.error(f"unknown base version {definition.base!r}; known versions: {known}", "base") from None
    return _build(base_name, (*seen, definition.name))


def _build(name: str, seen: tuple[str, ...] = ()) -> BuiltVersion:
    definition = version_definition(name)
    origin = _ORIGINS.get(definition.name, _Origin(f"<version {definition.name}>"))
    base = _base_built(definition, origin, seen)
    base_catalogue = base.catalogue if base is not None else load_catalogue()
    base_options = base.options if base is not None else RuleOptions()
    changed = bool(definition.aircraft or definition.weapons or definition.upgrades or definition.options)
    if base is None and not changed:
        return BuiltVersion(definition=definition, origin=origin.source, catalogue=base_catalogue,
                            options=base_options)
    entries = {
        collection: _override(collection, kind, getattr(base_catalogue, collection), getattr(definition, collection),
                              origin)
        for collection, kind in _COLLECTIONS
    }
    issues = check_catalogue(base_catalogue.factions.values(), entries["aircraft"].values(),
                             entries["weapons"].values(), entries["upgrades"].values())
    if issues:
        first = issues[0]
        field = first.field.split(".") if first.field else []
        raise origin.error(first.message, first.file, first.entry or "?", *field)
    tag = definition.data_version or f"{definition.name.rsplit('/', 1)[-1]}.{definition.digest()}"
    catalogue = msgspec.structs.replace(
        base_catalogue,
        data_version=f"{base_catalogue.data_version}+{tag}",
        source=f"{base_catalogue.source} | {definition.name}: {definition.source or origin.source}",
        aircraft=entries["aircraft"], weapons=entries["weapons"], upgrades=entries["upgrades"],
    )
    options = _apply_options(base_options, definition.options, origin)
    return BuiltVersion(definition=definition, origin=origin.source, catalogue=catalogue, options=options)


@functools.cache
def build_version(name: str) -> BuiltVersion:
    """The catalogue and options of a known version or loaded variant, validated (cached per name)."""
    return _build(canonical_name(name))


# ---------------------------------------------------------------------------------------------------------
# The rulesets
# ---------------------------------------------------------------------------------------------------------


class VersionedRules(AeronauticaRules):
    """Aeronautica played under a declared version or a user variant: the 2019 rules with its catalogue and
    options. ``name`` is the version's name, so games record it; ``version`` is the definition."""

    def __init__(self, version: str):
        built = build_version(version)
        super().__init__(catalogue=built.catalogue, options=built.options)
        self.name = built.definition.name  # type: ignore[misc]  # each version names itself
        self.version = built.definition


class Faq2020Rules(VersionedRules):
    """``aeronautica/faq-2020``: the 2020 rules update and points (data/versions.json)."""

    name: ClassVar[str] = FAQ_2020

    def __init__(self) -> None:
        super().__init__(FAQ_2020)


def load_variant(path: str | os.PathLike) -> VersionedRules:
    """Read, validate and register the variant in ``path`` (JSON or TOML); return its ruleset.

    After this, ``get_ruleset(name)`` and :func:`rules_for` know it in this process. Loading a file again
    (edited) replaces the definition under its name.
    """
    source = os.fspath(path)
    raw = read_data_file(source)
    definition = parse_variant(raw, source)
    return register_variant(definition)


def register_variant(definition: RulesetVersion) -> VersionedRules:
    """Make a parsed variant known by its name (validating it); return its ruleset."""
    if definition.name in _package_versions():
        origin = _ORIGINS.get(definition.name, _Origin("<variant>"))
        raise origin.error(f"{definition.name!r} is a version of the package; give the variant its own name",
                           "name")
    previous = _VARIANTS.get(definition.name)
    _VARIANTS[definition.name] = definition
    build_version.cache_clear()
    try:
        rules = VersionedRules(definition.name)
    except Exception:
        if previous is None:
            _VARIANTS.pop(definition.name, None)
        else:
            _VARIANTS[definition.name] = previous
        build_version.cache_clear()
        raise
    register_ruleset(definition.name, functools.partial(VersionedRules, definition.name), variant_of="aeronautica")
    return rules


def is_variant_file(text: str) -> bool:
    """Whether ``text`` names a variant file rather than a version: a path ending in .json or .toml."""
    return text.lower().endswith((".json", ".toml"))


def rules_for(name_or_path: str) -> AeronauticaRules:
    """The ruleset a ``--rules`` option names: a variant file (.json/.toml, loaded and registered), a version
    (``faq-2020`` or ``aeronautica/faq-2020``), or any other registered ruleset name."""
    if is_variant_file(name_or_path):
        return load_variant(name_or_path)
    name = canonical_name(name_or_path)
    if name not in known_rulesets() and name in _VARIANTS:
        register_ruleset(name, functools.partial(VersionedRules, name), variant_of="aeronautica")
    try:
        rules = get_ruleset(name)
    except KeyError:
        raise KeyError(f"unknown ruleset {name_or_path!r}; known: {', '.join(known_rulesets())} "
                       "(or give a variant file, .json or .toml)") from None
    if not isinstance(rules, AeronauticaRules):
        raise KeyError(f"{name!r} is not an Aeronautica ruleset")
    return rules


def variant_metadata(rules: AeronauticaRules) -> dict[str, Any] | None:
    """A variant's definition, to keep in a game's metadata so the game can be reloaded without its file
    (None for the package's own versions, which every installation knows)."""
    version = getattr(rules, "version", None)
    if not isinstance(version, RulesetVersion) or version.name in _package_versions():
        return None
    return msgspec.to_builtins(version)


def register_from_metadata(metadata: Mapping[str, Any]) -> str | None:
    """Register the variant a game's metadata carries (see :func:`variant_metadata`); return its name."""
    data = metadata.get("variant") if isinstance(metadata, Mapping) else None
    if not isinstance(data, dict):
        return None
    definition = _decode_definition(data, _Origin("<game metadata: variant>"))
    if definition.name not in _VARIANTS or _VARIANTS[definition.name] != definition:
        _ORIGINS.setdefault(definition.name, _Origin("<game metadata: variant>"))
        register_variant(definition)
    return definition.name
