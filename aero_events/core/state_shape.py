"""State shapes: recorded games keep replaying when a ruleset's state gains a field.

A :class:`~aero_events.core.session.StateCheckpoint` holds ``Ruleset.state_hash(state)``: the sha256 of the
deterministic msgpack of the whole state. msgpack carries every field of every Struct, so a new version of a
ruleset whose state has one more field (even at its default) hashes every state differently, and without
this module every recorded game would stop replaying with a ``ReplayMismatch``.

* **A state's shape** (:func:`shape_of`): for every msgspec Struct (and NamedTuple) type reachable from the
  ruleset's state type through its annotations (dict, list, tuple, set, Optional and Union members
  included), its encoded field names in order and the struct config that changes the msgpack bytes (tag
  field and value, ``array_like``, ``omit_defaults`` and, with it, each field's default). Its
  **fingerprint** is the sha256 of the shape's canonical JSON, 16 hex digits. Worked out once per type.
  The state type is the ruleset's ``state_type`` attribute, else the return annotation of its
  ``initial_state``; a ruleset with neither has no shape, and its checkpoints are checked as they always were.
* **A history of shapes per ruleset** (:func:`shape_history`), shipped as data: ``data/state_shapes.json``
  beside the module of the ruleset's class (or of a class it derives from), found through
  :meth:`~aero_events.core.decider.Ruleset.state_shapes_file`. Its first entry is the shape every game
  recorded before fingerprints were has. A developer who adds a field runs
  ``python -m aero_events.core.shape_history --write``, which appends the new current shape (old entries are
  never removed); ``--check`` (and ``tests/core/test_state_shapes.py``) fails while it is missing.
* **New games record their shape**: :class:`~aero_events.core.session.Game` puts the fingerprint in the
  game's metadata (``"state_shape"``), which travels wherever metadata does (the store, JSON Lines, Parquet,
  ``.aero`` headers). A game read back from a record keeps the fingerprint it was recorded with; a game
  without one (recorded before) has the history's first shape. A ruleset without a history file (a test's,
  a plugin's that keeps none) records no fingerprint, and its checkpoints are checked in the current shape
  only, as before.
* **Checking a checkpoint** (:class:`CheckpointCheck`, used by every site that compares a recorded state hash):
  a checkpoint matches when its hash is the state's hash in the shape the game was recorded with or any later
  shape of the history (a game recorded under an older version and continued under this one holds
  checkpoints of both: new checkpoints are always recorded with the current shape). The current shape is
  tried first, so a game of the current shape costs exactly one ``ruleset.state_hash`` as before. For an
  older shape the state is projected onto it (:func:`encode_as`): each Struct re-built as the old shape's
  type (``msgspec.defstruct``, made once per old shape), without the fields the old shape did not have, the
  rest in the old order, and encoded by the same deterministic msgpack encoder: a game recorded before a field
  was added verifies bit for bit. Once a checkpoint matched a shape, later checkpoints of that line of play
  must match it or a later one.

What a checkpoint of an old shape cannot see: a field added since (the recorded hash never covered it).
A type the state reaches only through an ``Any`` annotation is not in the shape (a value of it is still
projected, but a field added to it changes no fingerprint): annotate the state's fields with their types.
A recorded shape with a field the current state no longer has (removed or renamed), or a fingerprint this
version does not know (a game recorded by a newer version), is a :class:`StateShapeError` naming the struct,
the field and what to do, raised only when a checkpoint does not match the current shape.
"""

from __future__ import annotations

import collections.abc
import functools
import hashlib
import json
import sys
import types
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from .errors import AeroError, DataError

#: The game metadata key that holds the fingerprint of the state shape the game was recorded with.
METADATA_KEY = "state_shape"
#: Where a ruleset's history of shapes lives, relative to the folder of its class's module.
HISTORY_FILE = Path("data") / "state_shapes.json"
#: The command that records a ruleset's current shape in its history.
WRITE_COMMAND = "python -m aero_events.core.shape_history --write"

_encoder = msgspec.msgpack.Encoder(order="deterministic")  # as core.decider.state_hash encodes


class StateShapeError(AeroError):
    """A recorded game's state shape cannot be checked by this version (a field removed, an unknown shape)."""


# ---------------------------------------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------------------------------------


def type_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _is_struct(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, msgspec.Struct)


def _is_named_tuple(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, tuple) and hasattr(annotation, "_fields")


_CONTAINERS = {list, tuple, set, frozenset, dict, collections.abc.Sequence, collections.abc.MutableSequence,
               collections.abc.Set, collections.abc.MutableSet, collections.abc.Mapping,
               collections.abc.MutableMapping, typing.Union, types.UnionType}


def _members(annotation: Any) -> list[Any]:
    """The annotations inside ``annotation`` (a container's items, a union's members, a NewType's base)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return [typing.get_args(annotation)[0]]
    if origin in _CONTAINERS:
        return [arg for arg in typing.get_args(annotation) if arg is not Ellipsis]
    supertype = getattr(annotation, "__supertype__", None)  # typing.NewType
    return [supertype] if supertype is not None else []


def _field_types(cls: type) -> list[tuple[str, str, Any]]:
    """(attribute name, encoded name, annotation) of each field of a Struct or NamedTuple type."""
    if _is_struct(cls):
        return [(info.name, info.encode_name, info.type) for info in msgspec.structs.fields(cls)]
    hints = typing.get_type_hints(cls)
    return [(name, name, hints.get(name, Any)) for name in cls._fields]  # type: ignore[attr-defined]


def _builtins(value: Any) -> Any:
    """A default as JSON data (as the history file holds it: a tuple is a list)."""
    try:
        return msgspec.json.decode(msgspec.json.encode(value, order="deterministic"))
    except (TypeError, ValueError):
        return repr(value)


def _entry(cls: type) -> dict[str, Any]:
    """One type's part of a shape: what of it decides its msgpack bytes."""
    if not _is_struct(cls):
        return {"kind": "namedtuple", "fields": list(cls._fields)}  # type: ignore[attr-defined]
    config = cls.__struct_config__  # type: ignore[attr-defined]
    entry: dict[str, Any] = {"kind": "struct", "fields": list(cls.__struct_encode_fields__),  # type: ignore
                             "tag_field": config.tag_field, "tag": config.tag, "array_like": config.array_like,
                             "omit_defaults": config.omit_defaults}
    if config.omit_defaults:  # a field at its default is left out of the bytes: the default is part of the shape
        defaults = {}
        for info in msgspec.structs.fields(cls):
            if info.default is not msgspec.NODEFAULT:
                defaults[info.encode_name] = _builtins(info.default)
            elif info.default_factory is not msgspec.NODEFAULT:
                defaults[info.encode_name] = _builtins(info.default_factory())
        entry["defaults"] = defaults
    return entry


@functools.cache
def shape_of(state_type: type) -> dict[str, Any]:
    """The shape of ``state_type``: ``{"state": its name, "types": {name: entry}}`` for every Struct and
    NamedTuple type its annotations reach (see the module docstring)."""
    found: dict[str, dict[str, Any]] = {}
    pending: list[Any] = [state_type]
    seen: set[Any] = set()
    while pending:
        annotation = pending.pop()
        try:
            if annotation in seen:
                continue
            seen.add(annotation)
        except TypeError:  # an unhashable annotation (a Literal of lists...) reaches no type
            continue
        if _is_struct(annotation) or _is_named_tuple(annotation):
            found[type_name(annotation)] = _entry(annotation)
            pending.extend(kind for _, _, kind in _field_types(annotation))
        else:
            pending.extend(_members(annotation))
    return {"state": type_name(state_type), "types": dict(sorted(found.items()))}


def canonical_json(shape: Mapping[str, Any]) -> str:
    return json.dumps(shape, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def fingerprint_of(shape: Mapping[str, Any]) -> str:
    """The shape's name: sha256 of its canonical JSON, 16 hex digits."""
    return hashlib.sha256(canonical_json(shape).encode()).hexdigest()[:16]


@functools.cache
def _type_fingerprint(state_type: type) -> str:
    return fingerprint_of(shape_of(state_type))


def state_type_of(ruleset: Any) -> type | None:
    """The type of ``ruleset``'s states: its ``state_type`` attribute, else the return annotation of its
    ``initial_state``; None when neither names a type."""
    declared = getattr(ruleset, "state_type", None)
    if isinstance(declared, type):
        return declared
    return _annotated_state_type(type(ruleset))


@functools.cache
def _annotated_state_type(cls: type) -> type | None:
    try:
        found = typing.get_type_hints(cls.initial_state).get("return")  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 -- an annotation that does not resolve names no type
        return None
    return found if isinstance(found, type) and found is not type(None) else None


def current_fingerprint(ruleset: Any) -> str | None:
    """The fingerprint of ``ruleset``'s current state shape (None: the ruleset has no state type)."""
    return _shapes(ruleset)[0]


def new_game_fingerprint(ruleset: Any) -> str | None:
    """The fingerprint a new game of ``ruleset`` records: its current shape's, when the ruleset keeps a history
    of shapes (None otherwise: its games are checked in the current shape only, as before histories were)."""
    current = current_fingerprint(ruleset)
    if current is None or shape_history(ruleset).first is None:
        return None
    return current


def recorded_fingerprint(metadata: Mapping[str, Any] | None) -> str | None:
    """The fingerprint a game's metadata records (None: recorded before fingerprints were)."""
    value = metadata.get(METADATA_KEY) if isinstance(metadata, dict | Mapping) else None
    return value if isinstance(value, str) else None


# ---------------------------------------------------------------------------------------------------------
# Histories
# ---------------------------------------------------------------------------------------------------------


class ShapeHistory:
    """A ruleset's past and present shapes, oldest first (an empty history: only the current shape counts)."""

    def __init__(self, shapes: Mapping[str, Mapping[str, Any]], source: str = "<none>"):
        self.shapes: dict[str, Mapping[str, Any]] = dict(shapes)
        self.order = list(self.shapes)
        self.source = source

    @property
    def first(self) -> str | None:
        return self.order[0] if self.order else None

    def __contains__(self, fingerprint: object) -> bool:
        return fingerprint in self.shapes


@functools.cache
def history_file_of(cls: type) -> Path | None:
    """``data/state_shapes.json`` beside the module of ``cls`` or of the first class of its MRO that has one;
    else beside ``cls``'s own module (where ``--write`` creates it), None for a class without a module file."""
    first = None
    for klass in cls.__mro__:
        module = sys.modules.get(klass.__module__)
        file = getattr(module, "__file__", None)
        if not file or klass.__module__.startswith("aero_events.core") or klass.__module__ in ("abc", "typing"):
            continue
        path = Path(file).resolve().parent / HISTORY_FILE
        if path.exists():
            return path
        first = first or path
    return first


@functools.cache
def _read_history(path: str) -> ShapeHistory:
    if not Path(path).exists():
        return ShapeHistory({}, path)
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except ValueError as err:
        raise DataError(f"not JSON: {err}", source=path) from None
    entries = document.get("shapes") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise DataError("a history of state shapes is {\"shapes\": [{\"fingerprint\": ..., \"shape\": ...}]}",
                        source=path, field="shapes")
    shapes: dict[str, Mapping[str, Any]] = {}
    for index, entry in enumerate(entries):
        shape = entry.get("shape") if isinstance(entry, dict) else None
        if not isinstance(shape, dict) or not isinstance(shape.get("types"), dict):
            raise DataError("each entry has a 'shape' with 'types'", source=path, location=f"shapes[{index}]",
                            field="shape")
        if entry.get("fingerprint") != fingerprint_of(shape):
            raise DataError(f"the shape's fingerprint is {fingerprint_of(shape)}, the entry says "
                            f"{entry.get('fingerprint')!r}: the file was edited by hand", source=path,
                            location=f"shapes[{index}]", field="fingerprint")
        shapes[entry["fingerprint"]] = shape
    return ShapeHistory(shapes, path)


def shape_history(ruleset: Any) -> ShapeHistory:
    """``ruleset``'s history of shapes (:meth:`~aero_events.core.decider.Ruleset.state_shapes_file`)."""
    return _shapes(ruleset)[1]


#: Each ruleset class's (current fingerprint, history): a game's creation and each replay ask for them.
_BY_CLASS: dict[type, tuple[str | None, ShapeHistory]] = {}


def _shapes(ruleset: Any) -> tuple[str | None, ShapeHistory]:
    """(current fingerprint, history) of ``ruleset``, worked out once per ruleset class (``state_type`` and
    ``state_shapes_file`` are the class's)."""
    found = _BY_CLASS.get(type(ruleset))
    if found is None:
        state_type = state_type_of(ruleset)
        path = _history_path(ruleset)
        found = _BY_CLASS[type(ruleset)] = (None if state_type is None else _type_fingerprint(state_type),
                                            ShapeHistory({}) if path is None else _read_history(str(path)))
    return found


def _history_path(ruleset: Any) -> Path | None:
    find = getattr(ruleset, "state_shapes_file", None)
    return find() if callable(find) else history_file_of(type(ruleset))


def missing_from_history(ruleset: Any) -> str | None:
    """What is wrong when ``ruleset``'s current shape is not in its history (None: it is, or it has none)."""
    current = current_fingerprint(ruleset)
    if current is None:
        return None
    history = shape_history(ruleset)
    if current in history or history.first is None:  # no history: the ruleset keeps none (see new_game_fingerprint)
        return None
    return (f"{ruleset.name}: its current state shape {current} is not in {history.source}; record it (old "
            f"shapes stay) with `{WRITE_COMMAND}`")


def write_history(ruleset: Any, path: Path | None = None) -> bool:
    """Append ``ruleset``'s current shape to its history file (created if need be); True when it was new."""
    state_type = state_type_of(ruleset)
    if state_type is None:
        return False
    path = path or _history_path(ruleset)
    if path is None:
        return False
    shape = shape_of(state_type)
    current = fingerprint_of(shape)
    document: dict[str, Any] = {"about": _ABOUT, "shapes": []}
    if Path(path).exists():
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    if any(entry.get("fingerprint") == current for entry in document["shapes"]):
        return False
    document["shapes"].append({"fingerprint": current, "ruleset": ruleset.name, "shape": shape})
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    _read_history.cache_clear()
    history_file_of.cache_clear()
    _BY_CLASS.clear()
    return True


_ABOUT = ("Every shape this ruleset's state has had, oldest first (aero_events/core/state_shape.py): a game "
          "records the fingerprint of its shape in its metadata ('state_shape'); a game without one has the "
          "first. Append only: " + WRITE_COMMAND + " adds the current shape; never remove or edit an entry.")


# ---------------------------------------------------------------------------------------------------------
# Projecting a state onto an older shape
# ---------------------------------------------------------------------------------------------------------

_ATOMS = frozenset({int, str, bool, float, bytes, type(None)})
_KEEP = object()  # a plan's mark: values of this type encode in the old shape as they are


class _Projection:
    """How to re-build values of the current types as the types of one old shape (made once per shape)."""

    def __init__(self, old: Mapping[str, Any], fingerprint: str, ruleset_name: str, rebuild_all: bool = False):
        self.old_types: Mapping[str, Any] = old["types"]
        self.rebuild_all = rebuild_all  # every Struct re-built even where nothing changed (to test the machinery)
        self.fingerprint = fingerprint
        self.ruleset_name = ruleset_name
        self.plans: dict[type, Any] = {}
        self._clean: dict[Any, bool] = {}

    # A type is clean when it and everything its annotations reach encode the same in both shapes.
    def _type_clean(self, cls: type) -> bool:
        if cls in self._clean:
            return self._clean[cls]
        self._clean[cls] = True  # provisionally, for recursive types
        old = self.old_types.get(type_name(cls))
        rebuilt = self.rebuild_all and _is_struct(cls)
        clean = not rebuilt and (old is None or old == _entry(cls)) and \
            all(self._annotation_clean(kind) for _, _, kind in _field_types(cls))
        self._clean[cls] = clean
        return clean

    def _annotation_clean(self, annotation: Any) -> bool:
        if annotation in _ATOMS:
            return True
        if _is_struct(annotation) or _is_named_tuple(annotation):
            # a base class (an Event) may hold any subclass: its values are looked at one by one
            return not annotation.__subclasses__() and self._type_clean(annotation)
        if typing.get_origin(annotation) is typing.Literal:
            return True
        members = _members(annotation)
        if not members:  # Any, object, an Enum, a class the shape does not walk: look at the values
            return isinstance(annotation, type) and not issubclass(annotation, (msgspec.Struct, tuple, list, dict,
                                                                                set, frozenset)) \
                and annotation is not object
        return all(self._annotation_clean(member) for member in members)

    def plan(self, cls: type) -> Any:
        found = self.plans.get(cls)
        if found is None:
            found = self.plans[cls] = self._make_plan(cls)
        return found

    def _make_plan(self, cls: type) -> Any:
        if self._type_clean(cls):
            return _KEEP
        name = type_name(cls)
        old = self.old_types.get(name) or _entry(cls)
        fields = _field_types(cls)
        by_encoded = {encoded: (attribute, kind) for attribute, encoded, kind in fields}
        taken = []
        for encoded in old["fields"]:
            if encoded not in by_encoded:
                raise StateShapeError(
                    f"{self.ruleset_name}: the game was recorded with state shape {self.fingerprint}, in which "
                    f"{name} has the field {encoded!r}; this version's {cls.__qualname__} has no such field "
                    "(removed or renamed), so the checkpoints recorded then cannot be checked. Replay the game "
                    "with the version of aero_events that recorded it, or keep the field")
            attribute, kind = by_encoded[encoded]
            taken.append((attribute, not self._annotation_clean(kind)))
        if old["kind"] == "namedtuple":
            return ("tuple", taken)
        return ("struct", self._old_struct(cls, old), taken)

    def _old_struct(self, cls: type, old: Mapping[str, Any]) -> type:
        current = {info.encode_name: info for info in msgspec.structs.fields(cls)} if _is_struct(cls) else {}
        spec = []
        for index, encoded in enumerate(old["fields"]):
            if old.get("omit_defaults") and encoded in old.get("defaults", {}):
                info = current.get(encoded)
                if info is not None and _builtins(info.default if info.default is not msgspec.NODEFAULT
                                                  else info.default_factory()) == old["defaults"][encoded]:
                    default = msgspec.field(default=info.default) if info.default is not msgspec.NODEFAULT \
                        else msgspec.field(default_factory=info.default_factory)
                else:  # the default changed since: the old one, as JSON data (a tuple reads as a list)
                    default = msgspec.field(default=old["defaults"][encoded])
                spec.append((f"f{index}", Any, default))
            else:
                spec.append((f"f{index}", Any))
        options: dict[str, Any] = {"array_like": old["array_like"], "omit_defaults": old["omit_defaults"]}
        if old["tag"] is not None:
            options.update(tag=old["tag"], tag_field=old["tag_field"])
        return msgspec.defstruct(cls.__name__, spec, kw_only=True, frozen=True, module=f"shape_{self.fingerprint}",
                                 rename={f"f{index}": encoded for index, encoded in enumerate(old["fields"])},
                                 **options)

    def project(self, value: Any) -> Any:
        kind = type(value)
        if kind in _ATOMS:
            return value
        if kind is dict:
            project = self.project
            return {project(key): project(item) for key, item in value.items()}
        if kind is list or kind is tuple or kind is set or kind is frozenset:
            return kind(map(self.project, value))
        if _is_struct(kind) or _is_named_tuple(kind):
            plan = self.plan(kind)
            if plan is _KEEP:
                return value
            if plan[0] == "tuple":
                return tuple(self.project(getattr(value, attribute)) if walk else getattr(value, attribute)
                             for attribute, walk in plan[1])
            _, old_struct, taken = plan
            return old_struct(**{f"f{index}": self.project(getattr(value, attribute)) if walk
                                 else getattr(value, attribute) for index, (attribute, walk) in enumerate(taken)})
        return value


@functools.cache
def _projection(fingerprint: str, history_source: str, ruleset_name: str) -> _Projection:
    return _Projection(_read_history(history_source).shapes[fingerprint], fingerprint, ruleset_name)


def projection_for(ruleset: Any, fingerprint: str) -> _Projection:
    """The projection onto ``fingerprint``, a shape of ``ruleset``'s history (or its current shape)."""
    history = shape_history(ruleset)
    if fingerprint in history:
        return _projection(fingerprint, history.source, ruleset.name)
    state_type = state_type_of(ruleset)
    if state_type is not None and fingerprint == _type_fingerprint(state_type):
        return _current_projection(state_type, ruleset.name)
    raise _unknown(ruleset, fingerprint, history)


@functools.cache
def _current_projection(state_type: type, ruleset_name: str) -> _Projection:
    return _Projection(shape_of(state_type), _type_fingerprint(state_type), ruleset_name)


def _unknown(ruleset: Any, fingerprint: str, history: ShapeHistory) -> StateShapeError:
    return StateShapeError(
        f"{ruleset.name}: the game was recorded with state shape {fingerprint}, which this version of "
        f"aero_events does not know (not in {history.source}): it was recorded by another, probably newer, "
        "version; replay it with that version")


def encode_as(ruleset: Any, state: Any, fingerprint: str) -> bytes:
    """The deterministic msgpack of ``state`` as the shape ``fingerprint`` of ``ruleset``'s history encoded it."""
    return _encoder.encode(projection_for(ruleset, fingerprint).project(state))


def checkpoint_hash(ruleset: Any, state: Any, fingerprint: str | None) -> str:
    """The hash a checkpoint recorded under the shape ``fingerprint`` holds for ``state`` (None: the shape of a
    game recorded before fingerprints were, the history's first). The current shape: ``ruleset.state_hash``."""
    if fingerprint is None:
        fingerprint = shape_history(ruleset).first
    if fingerprint is None or fingerprint == current_fingerprint(ruleset):
        return ruleset.state_hash(state)
    return hashlib.sha256(encode_as(ruleset, state, fingerprint)).hexdigest()


# ---------------------------------------------------------------------------------------------------------
# Checking recorded checkpoints
# ---------------------------------------------------------------------------------------------------------


class CheckpointCheck:
    """Checks the checkpoints of one line of play of a game recorded with the shape ``fingerprint`` (None: before
    fingerprints were, the history's first shape), in the order they were recorded.

    ``matches(state, recorded)`` is True when ``recorded`` is the state's hash in the current shape (one
    ``ruleset.state_hash``, as before) or, failing that, in an older shape from the recorded one on, newest
    first; after a match in some shape, older shapes are no longer tried. ``actual`` is the current shape's hash
    (for a message) and ``matched`` the fingerprint that matched."""

    __slots__ = ("_unknown", "actual", "candidates", "current", "matched", "ruleset", "state_hash")

    def __init__(self, ruleset: Any, fingerprint: str | None):
        self.ruleset = ruleset
        self.state_hash: Callable[[Any], str] = ruleset.state_hash
        self.current = _shapes(ruleset)[0]
        self.actual = ""
        self.matched = self.current
        self._unknown: StateShapeError | None = None
        self.candidates: list[str] = []  # older shapes to try, newest first
        current, history = _shapes(ruleset)
        if current is None or fingerprint == current:
            return
        if fingerprint is None:
            fingerprint = history.first
            if fingerprint is None or fingerprint == current:
                return
        if fingerprint not in history:
            self._unknown = _unknown(ruleset, fingerprint, history)
            return
        order = history.order
        start = order.index(fingerprint)
        stop = order.index(self.current) if self.current in history else len(order)
        self.candidates = [shape for shape in reversed(order[start:stop]) if shape != self.current]

    @classmethod
    def for_game(cls, ruleset: Any, metadata: Mapping[str, Any] | None) -> CheckpointCheck:
        return cls(ruleset, recorded_fingerprint(metadata))

    @property
    def of_current_shape(self) -> bool:
        """Whether the game was recorded with the current shape (only current-shape checkpoints match)."""
        return self._unknown is None and not self.candidates

    def matches(self, state: Any, recorded: str) -> bool:
        actual = self.actual = self.state_hash(state)
        if actual == recorded:
            self.matched = self.current
            self.candidates = []  # a checkpoint of the current shape: the older ones are past
            return True
        if self._unknown is not None:
            raise self._unknown
        for index, fingerprint in enumerate(self.candidates):
            if hashlib.sha256(encode_as(self.ruleset, state, fingerprint)).hexdigest() == recorded:
                self.matched = fingerprint
                del self.candidates[index + 1:]
                return True
        return False

    def encode(self, state: Any) -> bytes:
        """``state`` in the shape the last checkpoint matched (what a snapshot written with it holds)."""
        if self.matched is None or self.matched == self.current:
            return _encoder.encode(state)
        return encode_as(self.ruleset, state, self.matched)
