"""``aero import`` of a JSON Lines export damaged at random (hypothesis): a value changed, a field dropped, a line
dropped, repeated, swapped or cut short, bytes thrown in; with the hash chain recomputed as a forger would, or
not. Whatever the damage, the command either refuses the file in one line that names where (the line, and the
field when there is one), storing nothing, or stores a game that verifies; it never shows a traceback."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aero_events.cli import main
from aero_events.store import EventStore
from tests.reliability.conftest import stored_rows
from tests.reliability.secrets_games import forge
from tests.store.games import END_OF_TURN_1, played_session
from tests.support.bidding import play_scripted_game

#: Values a changed field takes: of every JSON type, near the usual ones, and names the game uses.
REPLACEMENTS = st.one_of(st.integers(-3, 40), st.sampled_from([2**40, -(2**63), 1.5]), st.none(), st.booleans(),
                         st.sampled_from(["", "alice", "bob", "main", "x" * 300, "\x1b[31m", "Redacted",
                                          "StateCheckpoint", "0" * 64]),
                         st.lists(st.integers(0, 7), max_size=3), st.just({}))


@pytest.fixture(scope="module", params=["main line only", "with a branch"])
def export_lines(request, tmp_path_factory) -> list[bytes]:
    """A game's export: its main line only, or with a branch forked after the first turn and played on."""
    folder = tmp_path_factory.mktemp("fuzz")
    store = EventStore(folder / "source.duckdb")
    session = played_session()
    if request.param == "with a branch":
        session = session.fork(END_OF_TURN_1, "what-if")
        play_scripted_game(session, bids=((1, 3),))
    store.save_session(session)
    path = folder / "game.jsonl"
    store.export_jsonl("game-1", path)
    return path.read_bytes().splitlines()


def _leaves(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a decoded JSON line a value can be changed or a key dropped."""
    found = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _leaves(item, (*path, index))
    return found


def _container(root: Any, path: tuple) -> Any:
    for key in path[:-1]:
        root = root[key]
    return root


@st.composite
def damaged(draw, lines: list[bytes]) -> tuple[str, bytes]:
    """One damage to the export, described, and the file it makes."""
    index = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(["change", "change", "change", "drop-field", "drop-line", "repeat-line",
                                 "swap-lines", "cut", "bytes"]))
    copy = list(lines)
    if kind in ("change", "drop-field"):
        record = json.loads(copy[index])
        path = draw(st.sampled_from(_leaves(record)))
        holder = _container(record, path)
        if kind == "change":
            holder[path[-1]] = draw(REPLACEMENTS)
        else:  # a key of an object, or an item of a list
            del holder[path[-1]]
        copy[index] = json.dumps(record, separators=(",", ":")).encode()
        what = f"{kind} {'.'.join(map(str, path))} of line {index + 1}"
    elif kind == "drop-line":
        del copy[index]
        what = f"line {index + 1} dropped"
    elif kind == "repeat-line":
        copy.insert(index, copy[index])
        what = f"line {index + 1} repeated"
    elif kind == "swap-lines":
        other = draw(st.integers(0, len(lines) - 1))
        copy[index], copy[other] = copy[other], copy[index]
        what = f"lines {index + 1} and {other + 1} swapped"
    elif kind == "cut":
        copy[index] = copy[index][: draw(st.integers(0, max(len(copy[index]) - 1, 0)))]
        what = f"line {index + 1} cut short"
    else:
        at = draw(st.integers(0, len(copy[index])))
        copy[index] = copy[index][:at] + draw(st.binary(min_size=1, max_size=4)) + copy[index][at:]
        what = f"bytes thrown into line {index + 1}"
    data = b"\n".join(copy) + b"\n"
    if draw(st.booleans()):
        try:  # the chain, heads and counts recomputed: only the rules can tell now
            data, what = forge(data.splitlines()), f"{what}, chain recomputed"
        except (ValueError, KeyError, TypeError, IndexError, AttributeError):
            pass  # damage the forger's own reading cannot get past: the file as damaged
    return what, data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_damaged_export_is_refused_where_it_is_damaged_or_stored_whole(export_lines, tmp_path_factory, capsys, data):
    what, content = data.draw(damaged(export_lines))
    folder = tmp_path_factory.mktemp("case")
    path, target = folder / "damaged.jsonl", folder / "target.duckdb"
    path.write_bytes(content)
    code = main(["import", str(path), "--db", str(target)])  # an exception here is the traceback a user would see
    captured = capsys.readouterr()
    if code == 0:
        (game,) = EventStore(target).games()
        assert EventStore(target).verify(game.id).ok, what
        return
    assert code == 2, what
    assert captured.err.startswith(f"aero: error: {path}") and captured.err.count("\n") == 1, (what, captured.err)
    parquet = content.startswith(b"PAR1") and "cannot read the Parquet file" in captured.err  # Parquet's magic
    assert ", line " in captured.err or parquet, (what, captured.err)
    assert not target.exists() or stored_rows(EventStore(target)) == 0, what
