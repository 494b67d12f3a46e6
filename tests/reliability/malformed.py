"""The corpus of malformed JSON Lines games: each case is a valid export changed in one way that must be
refused. Built in code from the export of a real game, so it follows the format as it changes.

A case is ``(name, change, line)``: ``change(lines) -> bytes`` gives the file's new bytes from the valid
file's lines, ``line`` is the line the refusal must name (None for a refusal of the whole file).
"""

from __future__ import annotations

import json
from collections.abc import Callable

Lines = list[bytes]
Change = Callable[[Lines], bytes]

DEEP = "[" * 20_000 + "]" * 20_000
DEEP_OBJECT = '{"a":' * 5_000 + "1" + "}" * 5_000
HUGE = 2**70

#: Header line 1; the valid export has 2 branch lines (main, alt), then events from line 4.
HEADER, MAIN, ALT, FIRST_EVENT = 1, 2, 3, 4


def _join(lines: Lines) -> bytes:
    return b"\n".join(lines) + b"\n"


def _set(line: int, key: str, value_json: str) -> Change:
    """Set ``key`` of the JSON object on ``line`` to the raw JSON ``value_json`` (which may be invalid)."""
    def change(lines: Lines) -> bytes:
        data = json.loads(lines[line - 1])
        marker = "__VALUE__"
        data[key] = marker
        text = json.dumps(data, separators=(",", ":")).replace(f'"{marker}"', value_json)
        return _join([*lines[: line - 1], text.encode(), *lines[line:]])
    return change


def _set_payload(line: int, key: str, value_json: str) -> Change:
    def change(lines: Lines) -> bytes:
        data = json.loads(lines[line - 1])
        marker = "__VALUE__"
        data["payload"][key] = marker
        text = json.dumps(data, separators=(",", ":")).replace(f'"{marker}"', value_json)
        return _join([*lines[: line - 1], text.encode(), *lines[line:]])
    return change


def _remove(line: int, key: str) -> Change:
    def change(lines: Lines) -> bytes:
        data = json.loads(lines[line - 1])
        del data[key]
        return _join([*lines[: line - 1], json.dumps(data).encode(), *lines[line:]])
    return change


def _replace_line(line: int, text: bytes) -> Change:
    return lambda lines: _join([*lines[: line - 1], text, *lines[line:]])


def _find(lines: Lines, needle: bytes) -> int:
    return next(number for number, text in enumerate(lines, start=1) if needle in text)


def _dice_line(lines: Lines) -> int:
    return _find(lines, b'"type":"DiceRolled"')


def _on_dice(key: str, value_json: str) -> Change:
    return lambda lines: _set_payload(_dice_line(lines), key, value_json)(lines)


def cases(lines: Lines) -> list[tuple[str, Change, int | None]]:
    """Every malformed case for the valid export ``lines``."""
    found: list[tuple[str, Change, int | None]] = []
    header_fields = ("format", "format_version", "game_id", "ruleset", "data_version", "engine_version", "created",
                     "players", "setup", "metadata", "branch_count", "event_count")
    for name in header_fields:
        found.append((f"header {name} removed", _remove(HEADER, name), HEADER))
        found.append((f"header {name} nested too deeply", _set(HEADER, name, DEEP), HEADER))
        if name not in ("setup", "metadata"):  # both are objects: a setup's unknown fields are the ruleset's call
            found.append((f"header {name} is an object of the wrong shape", _set(HEADER, name, '{"x":[1]}'),
                          HEADER))
    for name in ("format", "format_version", "game_id", "ruleset", "data_version", "engine_version", "created",
                 "players", "metadata", "branch_count", "event_count"):
        found.append((f"header {name} is null", _set(HEADER, name, "null"), HEADER))
    for name, value in (("format_version", "-1"), ("format_version", "0"), ("format_version", str(HUGE)),
                        ("branch_count", "0"), ("branch_count", "-3"), ("event_count", "-1"),
                        ("event_count", "3"), ("branch_count", "5"), ("format", '"csv"'),
                        ("game_id", '""'), ("game_id", '"a\\nb"'), ("game_id", '"a\\u0000b"'),
                        ("game_id", '"' + "g" * 201 + '"'), ("game_id", '"[/]"'), ("game_id", '"[link=http://x]y"'),
                        ("game_id", '"\\u001b[31mred"'), ("game_id", '" padded "'), ("game_id", '"other"'),
                        ("ruleset", '"no/such-ruleset"'), ("ruleset", '""'), ("players", '["alice"]'),
                        ("players", '["alice","bob","carol"]'), ("players", '["alice","\\u001b]8;;x"]'),
                        ("setup", '{"turns":"three"}'), ("setup", '"not a setup"'), ("setup", "[1,2]"),
                        ("metadata", "[]"), ("metadata", DEEP_OBJECT), ("created", '"yesterday"'),
                        ("created", "12")):
        # a count or id that disagrees with the lines after it is refused where the disagreement shows
        where = None if (name, value) in (("branch_count", "5"), ("game_id", '"other"')) else HEADER
        found.append((f"header {name} = {value[:24]}", _set(HEADER, name, value), where))
    for line, which in ((MAIN, "main"), (ALT, "alt")):
        for name, value in (("id", '""'), ("id", '"a\\nb"'), ("id", '"\\u0000"'), ("id", '"' + "b" * 201 + '"'),
                            ("id", '"[/]"'), ("id", '"\\u001b[2J"'), ("label", '"\\u001b]0;pwned\\u0007"'),
                            ("label", '"' + "l" * 201 + '"'), ("fork_seq", "-1"), ("fork_seq", str(HUGE)),
                            ("head_hash", "null"), ("head_hash", '"zz"'), ("head_hash", '"' + "00" * 32 + '"'),
                            ("head_hash", '"' + "ab" * 16 + '"'), ("head_seq", "null"), ("head_seq", "999"),
                            ("parent", '"ghost"'), ("created", '"then"'), ("id", DEEP)):
            where = None if name == "head_seq" and value == "999" or name == "fork_seq" and which == "alt" else line
            found.append((f"{which} branch {name} = {value[:24]}", _set(line, name, value), where))
        found.append((f"{which} branch head_hash removed", _remove(line, "head_hash"), line))
    found.append(("root branch renamed", _set(MAIN, "id", '"root"'), MAIN))
    for offset in (0, 1, 5):
        line = FIRST_EVENT + offset
        for name, value in (("turn", str(HUGE)), ("turn", "-1"), ("seq", "0"), ("seq", str(HUGE)),
                            ("actor", '"[link=file:///etc/passwd]x"'), ("actor", '"\\u0000"'), ("actor", '"eve"'),
                            ("phase", '"a\\nb"'), ("phase", '"elsewhere"'), ("type", '"NoSuchEvent"'),
                            ("version", "-1"), ("version", "0"), ("version", str(2**40)), ("payload", DEEP),
                            ("payload", "[]"), ("payload", '"text"'), ("game_id", '"other"'),
                            ("branch_id", '"ghost"'), ("turn", "7")):
            # a well-formed value changed is caught by the chain: the branch's head hash no longer matches
            where = None if (name, value) in (("actor", '"eve"'), ("phase", '"elsewhere"'), ("turn", "7")) else line
            found.append((f"event line {line} {name} = {value[:24]}", _set(line, name, value), where))
        found.append((f"event line {line} payload removed", _remove(line, "payload"), line))
    for key, value in (("faces", "[99]"), ("faces", f"[{10**30}]"), ("faces", "[0]"), ("faces", "[1,2]"),
                       ("sides", "0"), ("count", "-3"), ("sides", str(HUGE)), ("roll_index", "-5"),
                       ("roller", '"nobody"'), ("faces", DEEP)):
        found.append((f"dice {key} = {value[:24]}", _on_dice(key, value),
                      None))  # the line is the dice line; checked by name below
    found.append(("bid by a player who does not exist",
                  lambda lines: _set_payload(_find(lines, b'"type":"test.BidPlaced"'), "owner", '"mallory"')(lines),
                  None))
    found.append(("reveal of a player who does not exist",
                  lambda lines: _set_payload(_find(lines, b'"type":"test.BidRevealed"'), "player", '"mallory"')(lines),
                  None))
    found.append(("checkpoints stripped", lambda lines: _join(
        [line for line in lines if b'"type":"StateCheckpoint"' not in line]), None))
    found.append(("a checkpoint's hash changed", lambda lines: _set_payload(
        _find(lines, b'"type":"StateCheckpoint"'), "state_hash", '"' + "0" * 64 + '"')(lines), None))
    found.append(("an event line deleted", lambda lines: _join([*lines[:6], *lines[7:]]), 7))
    found.append(("the last event deleted", lambda lines: _join(lines[:-1]), None))
    found.append(("an event line doubled", lambda lines: _join([*lines[:6], lines[5], *lines[6:]]), 7))
    found.append(("two event lines swapped", lambda lines: _join([*lines[:5], lines[6], lines[5], *lines[7:]]), 6))
    found.append(("a line cut in half", lambda lines: _join([*lines[:5], lines[5][: len(lines[5]) // 2],
                                                             *lines[6:]]), 6))
    found.append(("a line of bytes that are not UTF-8", _replace_line(6, b'{"game_id":"\xff\xfe"}'), 6))
    found.append(("a line that is not JSON", _replace_line(6, b"hello"), 6))
    found.append(("a trailing line of garbage", lambda lines: _join([*lines, b"{}"]), len(lines) + 1))
    found.append(("the header is an array", _replace_line(1, b"[1,2,3]"), 1))
    found.append(("the header is deeply nested", _replace_line(1, DEEP.encode()), 1))
    found.append(("an event is deeply nested", _replace_line(6, DEEP.encode()), 6))
    found.append(("the header only", lambda lines: _join(lines[:1]), None))
    found.append(("no header", lambda lines: _join(lines[1:]), 1))
    found.append(("an empty file", lambda lines: b"", None))
    found.append(("a byte-order mark", lambda lines: b"\xef\xbb\xbf" + _join(lines), 1))
    return found
