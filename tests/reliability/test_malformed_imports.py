"""Issue 16, items 4, 7, 8, 9: every malformed JSON Lines game is refused with a located message (a
DataError naming the file and the line, and the field where there is one), never a traceback, and nothing
is written. The corpus (tests/reliability/malformed.py) is built from a real game's export."""

from __future__ import annotations

import pytest

from aero_events.core.errors import AeroError, DataError
from aero_events.store import EventStore
from tests.reliability.conftest import branched_game, report, stored_rows
from tests.reliability.malformed import cases

_valid_lines: list[bytes] = []


@pytest.fixture(scope="module")
def target(tmp_path_factory):
    """One store for the whole corpus, kept open: each refused import must leave it exactly as it was."""
    with EventStore(tmp_path_factory.mktemp("target") / "target.duckdb") as store:
        yield store


def _lines(tmp_path_factory) -> list[bytes]:
    if not _valid_lines:
        folder = tmp_path_factory.mktemp("valid")
        store = EventStore(folder / "source.duckdb")
        branched_game(store)
        store.export_jsonl("game-1", folder / "valid.jsonl")
        _valid_lines.extend((folder / "valid.jsonl").read_bytes().splitlines())
    return list(_valid_lines)


def _corpus() -> list[tuple[str, object, int | None]]:
    # Case names only need the shape of a valid export; the changes read the lines at run time.
    placeholder = [b'{"payload":{"type":"DiceRolled"},"type":"DiceRolled"}'] * 12
    return cases(placeholder)


CASES = _corpus()


def test_the_corpus_holds_at_least_150_malformed_games():
    assert len(CASES) >= 150
    assert len({name for name, _, _ in CASES}) == len(CASES)


@pytest.mark.parametrize("index", range(len(CASES)), ids=[name for name, _, _ in CASES])
def test_a_malformed_game_is_refused_with_its_file_and_line_and_nothing_is_written(tmp_path, tmp_path_factory,
                                                                                  target, index):
    lines = _lines(tmp_path_factory)
    name, change, line = cases(lines)[index]
    path = tmp_path / "malformed.jsonl"
    path.write_bytes(change(lines))
    before = stored_rows(target)
    try:
        target.import_jsonl(path)
    except DataError as refused:
        assert refused.source == str(path), str(refused)
        assert refused.location is not None, f"{name}: the refusal names no line: {refused}"
        if line is not None:
            assert refused.location == line, f"{name}: {refused}"
        assert str(path) in str(refused) and "line" in str(refused)
    except AeroError as other:  # pragma: no cover - shown as a failure with its message
        pytest.fail(f"{name}: refused, but without its file and line: {type(other).__name__}: {other}")
    else:
        pytest.fail(f"{name}: the malformed game was imported")
    assert stored_rows(target) == before == 0


def test_the_valid_export_itself_imports(tmp_path, tmp_path_factory):
    """The corpus's base file is valid: every refusal above is the change's doing."""
    path = tmp_path / "valid.jsonl"
    path.write_bytes(b"\n".join(_lines(tmp_path_factory)) + b"\n")
    target = EventStore(tmp_path / "target.duckdb")
    assert target.import_jsonl(path) == "game-1"
    assert target.verify("game-1").ok


def test_a_path_that_cannot_be_read_is_refused_with_its_name(tmp_path):
    store = EventStore(tmp_path / "target.duckdb")
    for path in (tmp_path / "missing.jsonl", tmp_path):
        with pytest.raises(DataError, match="cannot read") as refused:
            store.import_jsonl(path)
        assert refused.value.source == str(path)


def test_the_refusals_name_the_field(tmp_path, tmp_path_factory, target):
    """A few refusals, each with the field a person must fix."""
    lines = _lines(tmp_path_factory)
    expected = {
        "header format_version = -1": "format_version",
        "header game_id = \"\"": "game_id",
        "header ruleset = \"no/such-ruleset\"": "ruleset",
        "header setup = {\"turns\":\"three\"}": "setup",
        "main branch head_hash = null": "head_hash",
        "event line 4 turn = 1180591620717411303424": "turn",
        "dice faces = [99]": "payload.faces[0]",
        "dice sides = 0": "payload.sides",
        "dice count = -3": "payload.count",
        "checkpoints stripped": "seq",
        "reveal of a player who does not exist": "payload",
    }
    by_name = {name: change for name, change, _ in cases(lines)}
    for name, field in expected.items():
        path = tmp_path / "one.jsonl"
        path.write_bytes(by_name[name](lines))
        with pytest.raises(DataError) as refused:
            target.import_jsonl(path)
        assert refused.value.field == field, f"{name}: {refused.value}"


@pytest.mark.soak
def test_soak_the_whole_corpus_and_print_the_figures(tmp_path, tmp_path_factory):
    """Every case, in every store state (empty, and holding the valid game): refusals with a line, tracebacks 0,
    partial writes 0."""
    lines = _lines(tmp_path_factory)
    refused = tracebacks = unlocated = partial = 0
    for holding in (False, True):
        with EventStore(tmp_path / f"soak-{holding}.duckdb") as store:
            if holding:
                valid = tmp_path / "valid.jsonl"
                valid.write_bytes(b"\n".join(lines) + b"\n")
                store.import_jsonl(valid)
            before = stored_rows(store)
            for _name, change, _line in cases(lines):
                path = tmp_path / "case.jsonl"
                path.write_bytes(change(lines))
                try:
                    store.import_jsonl(path, replace=holding)
                except DataError as err:
                    refused += 1
                    unlocated += err.location is None
                except Exception:  # noqa: BLE001 -- counted: the figure must be 0
                    tracebacks += 1
                partial += stored_rows(store) != before
    report("malformed imports", cases=len(cases(lines)) * 2, refused=refused, tracebacks=tracebacks,
           unlocated=unlocated, partial_writes=partial)
    assert (tracebacks, unlocated, partial, refused) == (0, 0, 0, len(cases(lines)) * 2)
