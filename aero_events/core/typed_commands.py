"""Commands built with the wrong Python types (issue 16, item 8): refused as a :class:`RuleError` naming the
command and the field, never a ``TypeError`` from deep inside a ruleset, and never recorded.

A command is a msgspec Struct, but msgspec checks types only when it decodes, not when a caller builds a
command in Python (``Move(heading="90")``). Two places check, both off the legal-command hot path:

* :func:`checked_encoding` is what a session records for each applied command: the JSON encoding it stores
  anyway, decoded back into the command's type (strict: no ``"3"`` for ``3``) and compared with the command
  (which also refuses a list where the type says tuple). A mistyped command that a ruleset happened to accept
  (a ``"yes"`` where a flag is read for its truth) is refused before anything is appended. Both decodes are
  remembered per (command type, JSON bytes) (:func:`checked_command`, issue 18): a command seen before costs
  its encoding and one comparison.
* :func:`refuse_if_mistyped` is called only when ``decide`` or the fold failed: a mistyped command becomes a
  :class:`RuleError` naming its field; a well-typed one lets the original error through (a real bug).
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from .decider import Command
from .errors import RuleError
from .secrets import canonical_json

RULE = "Command fields"
_PATH = re.compile(r" - at `\$\.?(?P<path>[^`]*)`$")


def _name(command: Any) -> str:
    kind = type(command)
    config = getattr(kind, "__struct_config__", None)
    tag = getattr(config, "tag", None)
    return tag if isinstance(tag, str) else kind.__name__


def _refusal(command: Any, field: str, detail: str) -> RuleError:
    return RuleError(f"command {_name(command)}, field {field!r}: {detail}", rule=RULE)


def _mismatch(command: Any) -> RuleError | None:
    """The refusal of ``command`` if its fields are not of their declared types, else None."""
    kind = type(command)
    if not isinstance(command, Command):
        return RuleError(f"{kind.__name__} is not a command", rule=RULE)
    try:
        encoded = msgspec.json.decode(msgspec.json.encode(command))
    except (TypeError, ValueError, OverflowError, msgspec.MsgspecError) as error:
        field = next((name for name in kind.__struct_fields__ if not _encodable(getattr(command, name))), "?")
        return _refusal(command, field, f"a value that cannot be recorded ({error})")
    try:
        rebuilt = msgspec.convert(encoded, kind, strict=True)
    except msgspec.ValidationError as error:
        text = str(error)
        found = _PATH.search(text)
        field = found.group("path") if found else "?"
        detail = text[: found.start()] if found else text
        return _refusal(command, field or "?", detail[:1].lower() + detail[1:])
    if rebuilt != command:
        for name in kind.__struct_fields__:
            given, expected = getattr(command, name), getattr(rebuilt, name)
            if given != expected or type(given) is not type(expected):
                return _refusal(command, name, f"expected {type(expected).__name__}, got {type(given).__name__}")
        return _refusal(command, "?", "fields not of their declared types")
    return None


def _encodable(value: Any) -> bool:
    try:
        msgspec.json.encode(value)
    except (TypeError, ValueError, OverflowError, msgspec.MsgspecError):
        return False
    return True


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode
#: Command type -> a strict JSON decoder of it (what ``msgspec.convert(data, type, strict=True)`` of the decoded
#: JSON checks, read straight from the bytes).
_typed_decoders: dict[type, Any] = {}


def _typed_decode(kind: type) -> Any:
    decode = _typed_decoders.get(kind)
    if decode is None:
        decode = _typed_decoders[kind] = msgspec.json.Decoder(kind).decode
    return decode


#: Scalars a JSON decode gives: a record of only these is copied whole by ``dict.copy``.
_SCALARS = (str, int, float, bool, type(None))
#: Entries kept by :data:`_checked` before it starts again (a few hundred bytes each; four Aeronautica games
#: issue about 400 distinct commands).
CHECKED_LIMIT = 4096


class CheckedCommand:
    """A command whose fields were checked against their declared types, as its record needs it: its JSON bytes,
    the JSON data they decode to, and the command strictly decoded from them (what the check compares)."""

    __slots__ = ("_canonical", "_copied", "_lists", "data", "flat", "raw", "rebuilt")

    def __init__(self, raw: bytes, rebuilt: Any, data: dict[str, Any]):
        self.raw = raw
        self.rebuilt = rebuilt
        self.data = data
        #: the fields holding a list of scalars (copied too); a record holding anything deeper is decoded anew
        self._lists = tuple(name for name, value in data.items() if type(value) is list)
        self._copied = all(type(value) in _SCALARS or (type(value) is list and all(type(item) in _SCALARS
                           for item in value)) for value in data.values())
        #: scalars only: ``data.copy()`` is a record that shares nothing mutable
        self.flat = self._copied and not self._lists
        self._canonical: bytes | None = None

    def record(self) -> dict[str, Any]:
        """The JSON data a ``CommandIssued`` stores: a new copy each time (a record never shares anything mutable
        with another event's), copied when it holds scalars and lists of scalars (a third of the time a decode
        takes), else decoded again."""
        if self.flat:
            return self.data.copy()
        if not self._copied:
            return _decode(self.raw)
        record = self.data.copy()
        for name in self._lists:
            record[name] = record[name].copy()
        return record

    def secret_payload_json(self) -> bytes:
        """The canonical JSON of ``{"command": data}``: what :func:`~aero_events.core.secrets.commitment` hashes
        (before the salt) when the command is sealed."""
        canonical = self._canonical
        if canonical is None:
            canonical = self._canonical = canonical_json({"command": self.data})
        return canonical


#: (command type, its JSON bytes) -> :class:`CheckedCommand`. Both decodes are functions of the type and the
#: bytes alone, so a command whose encoding was checked before needs only the comparison ``rebuilt == command``
#: (the check of :func:`checked_encoding`; it also refuses a list where the type says tuple, whose bytes are
#: the same, and ``True`` where an int was checked, whose bytes differ). Measured (issue 18, core6/NOTES.md):
#: about 1.5 us a command less than decoding twice.
_checked: dict[tuple[type, bytes], CheckedCommand] = {}


def checked_command(command: Command) -> CheckedCommand:
    """``command`` checked for its record; a :class:`RuleError` naming the field when a field is not of its
    declared type.

    The check: the command's JSON decoded back into its type (JSON is strict: no ``"3"`` for ``3``) equals the
    command (which also refuses a list where the type says tuple, a float where it says int)."""
    kind = type(command)
    try:
        raw = _encode(command)
    except (TypeError, ValueError, OverflowError, msgspec.MsgspecError):
        raw = None
    if raw is not None:
        known = _checked.get((kind, raw))
        if known is not None and known.rebuilt == command:
            return known
        try:
            rebuilt = _typed_decode(kind)(raw)
        except (TypeError, ValueError, OverflowError, msgspec.MsgspecError):
            rebuilt = None
        if rebuilt is not None and rebuilt == command:
            if len(_checked) >= CHECKED_LIMIT:
                _checked.clear()
            checked = _checked[(kind, raw)] = CheckedCommand(raw, rebuilt, _decode(raw))
            return checked
    refusal = _mismatch(command)
    raise refusal if refusal is not None else RuleError(f"command {_name(command)} cannot be recorded", rule=RULE)


def checked_encoding(command: Command) -> dict[str, Any]:
    """``command`` as the JSON data a ``CommandIssued`` stores; a :class:`RuleError` naming the field when a
    field is not of its declared type (:func:`checked_command`)."""
    return checked_command(command).record()


def refuse_if_mistyped(command: Any) -> None:
    """Raise a :class:`RuleError` naming the field if ``command`` is not of its declared types; else return
    (the caller re-raises the error it caught)."""
    refusal = _mismatch(command)
    if refusal is not None:
        raise refusal from None
