"""Issue 16 item 2: ``aero export GAME FILE --player P`` (JSON Lines, Parquet, ``--format record``) writes the game
as P may see it (store/viewer.py, record/record_format.py): every export for each player of every shipped
ruleset's demo game holds none of the other side's unrevealed choices or salts (leaks 0); the copy says so; an
import refuses it as the full game; a player the game does not have is refused."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import duckdb
import msgspec
import pytest

from aero_events.cli import main
from aero_events.core.errors import DataError
from aero_events.core.events import encode_event
from aero_events.core.secrets import SecretEvent
from aero_events.core.session import SecretCommandIssued
from aero_events.record.errors import RecordError
from aero_events.record.transfer import import_record
from aero_events.store import EventStore
from tests.reliability.conftest import stored_rows
from tests.reliability.secrets_games import demo_game, forge, has_secrets, lines_of, shipped

FORMATS = {"jsonl": ".jsonl", "parquet": ".parquet", "record": ".aero"}


@cache
def stored(family: str, folder: str) -> str:
    """The family's demo game (random salts) saved in a store in ``folder``; the store's path."""
    path = Path(folder) / f"{family}.duckdb"
    EventStore(path).save_session(demo_game(family))
    return str(path)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("viewer-copies")


def unrevealed(family: str, viewer: str) -> dict[str, list[str]]:
    """The other players' secrets ``viewer`` must not find: the salt of every sealed secret that no public event
    reveals (a reveal carries the choice and the salt), and the JSON of every sealed command (never revealed
    as such) and of every unrevealed secret's choice."""
    events = [env.event for env in demo_game(family).events()]
    public = b"".join(encode_event(event) for event in events if not isinstance(event, SecretEvent))
    salts, choices = [], []
    for event in events:
        if not isinstance(event, SecretEvent) or event.owner == viewer or event.salt.encode() in public:
            continue
        salts.append(event.salt)
        if isinstance(event, SecretCommandIssued):
            choices.append(msgspec.json.encode(event.command).decode())
        else:
            choices.append(msgspec.json.encode(event.secret_payload(), order="sorted").decode())
    return {"salts": salts, "choices": choices}


def written_text(path: Path, form: str) -> str:
    """What a copy holds, as text: the file, or for Parquet (compressed) every value of every row."""
    if form != "parquet":
        return path.read_text(encoding="utf-8")
    with duckdb.connect() as conn:
        rows = conn.execute("SELECT * FROM read_parquet(?)", [str(path)]).fetchall()
    return "\n".join(" ".join(str(value) for value in row) for row in rows)


def export_copy(family: str, folder: Path, player: str, form: str) -> Path:
    out = folder / f"{family}-{player}{FORMATS[form]}"
    assert main(["export", demo_game(family).game_id, str(out), "--player", player, "--format", form,
                 "--db", stored(family, str(folder))]) == 0
    return out


CASES = [(family, form) for family in shipped() for form in FORMATS]


@pytest.mark.parametrize(("family", "form"), CASES, ids=[f"{family}-{form}" for family, form in CASES])
def test_a_player_s_copy_holds_none_of_the_other_side_s_unrevealed_choices_or_salts(folder, family, form):
    session = demo_game(family)
    for player in session.ruleset.players(session.state):
        secrets = unrevealed(family, player)
        text = written_text(export_copy(family, folder, player, form), form)
        leaks = [secret for kind in ("salts", "choices") for secret in secrets[kind] if secret in text]
        assert leaks == [], (family, form, player)


@pytest.mark.parametrize("family", [family for family in shipped() if has_secrets(demo_game(family))])
def test_the_secrets_searched_for_are_there_in_the_organiser_s_full_export(folder, family):
    """The control: the full export holds every secret the copies leave out, so the search above finds them."""
    session = demo_game(family)
    full = folder / f"{family}-full.jsonl"
    EventStore(stored(family, str(folder))).export_jsonl(session.game_id, full)
    text = full.read_text()
    for player in session.ruleset.players(session.state):
        secrets = unrevealed(family, player)
        assert secrets["salts"] and all(salt in text for salt in secrets["salts"])
        assert all(choice in text for choice in secrets["choices"] if choice.startswith("{\"command\""))


def test_the_player_s_own_secrets_are_in_their_copy(folder):
    session = demo_game("aeronautica")
    text = export_copy("aeronautica", folder, "orks", "jsonl").read_text()
    own = [env.event.salt for env in session.events()
           if isinstance(env.event, SecretEvent) and env.event.owner == "orks"]
    assert own and all(salt in text for salt in own)


def test_each_copy_says_whose_it_is(folder):
    jsonl = export_copy("aeronautica", folder, "orks", "jsonl")
    header = json.loads(lines_of(jsonl)[0])
    assert header["viewer"] == "orks" and "seed" not in header["metadata"]
    assert all(json.loads(line).get("payload", {}).get("state_hash", "") == ""
               for line in lines_of(jsonl)[2:] if b'"StateCheckpoint"' in line)
    parquet = export_copy("aeronautica", folder, "orks", "parquet")
    with duckdb.connect() as conn:
        assert conn.execute("SELECT DISTINCT viewer FROM read_parquet(?)", [str(parquet)]).fetchall() == [("orks",)]
    assert '[Viewer "orks"]' in export_copy("aeronautica", folder, "orks", "record").read_text()


def test_a_full_export_is_written_as_before_with_no_viewer(folder):
    full = folder / "full.jsonl"
    EventStore(stored("aeronautica", str(folder))).export_jsonl(demo_game("aeronautica").game_id, full)
    assert "viewer" not in json.loads(lines_of(full)[0])


def test_a_player_s_copy_is_refused_by_import_as_the_full_game(folder, tmp_path):
    target = EventStore(tmp_path / "target.duckdb")
    with pytest.raises(DataError) as refused:
        target.import_jsonl(export_copy("aeronautica", folder, "orks", "jsonl"))
    assert refused.value.field == "viewer" and refused.value.location == 1
    with pytest.raises(RecordError, match="Viewer"):
        import_record(target, export_copy("aeronautica", folder, "orks", "record"))
    assert stored_rows(target) == 0


def test_a_copy_with_its_viewer_line_removed_is_still_refused_at_its_first_redacted_event(folder, tmp_path):
    lines = lines_of(export_copy("aeronautica", folder, "orks", "jsonl"))
    header = json.loads(lines[0])
    del header["viewer"]
    path = tmp_path / "disguised.jsonl"
    path.write_bytes(forge([json.dumps(header).encode(), *lines[1:]]))
    target = EventStore(tmp_path / "target.duckdb")
    with pytest.raises(DataError) as refused:
        target.import_jsonl(path)
    first = next(number for number, line in enumerate(lines, start=1) if b'"type":"Redacted"' in line)
    assert refused.value.location == first and refused.value.field == "type"
    assert stored_rows(target) == 0


@pytest.mark.parametrize("form", list(FORMATS))
def test_a_player_the_game_does_not_have_is_refused(folder, capsys, form):
    out = folder / f"nobody{FORMATS[form]}"
    assert main(["export", demo_game("aeronautica").game_id, str(out), "--player", "mallory", "--format", form,
                 "--db", stored("aeronautica", str(folder))]) != 0
    assert "no player 'mallory'" in capsys.readouterr().err
    assert not out.exists()


def test_a_player_s_copy_is_not_signed(folder, tmp_path, capsys):
    assert main(["keygen", str(tmp_path / "orks.key")]) == 0
    assert main(["export", demo_game("aeronautica").game_id, str(tmp_path / "copy.jsonl"), "--player", "orks",
                 "--sign", str(tmp_path / "orks.key"), "--db", stored("aeronautica", str(folder))]) != 0


def test_the_sql_views_of_a_database_holding_only_a_player_s_copy_show_none_of_the_other_side_s_secrets(
        folder, tmp_path):
    """The views read the events table (``event_log``, each ruleset's views over it), never the snapshots: the
    organiser's database shows every secret, as its events table does; a database whose events are a player's
    copy shows none through any view."""
    session = demo_game("wings-of-glory")
    player = session.ruleset.players(session.state)[0]
    copy = export_copy("wings-of-glory", folder, player, "parquet")
    path = tmp_path / "player.duckdb"
    Path(path).write_bytes(Path(stored("wings-of-glory", str(folder))).read_bytes())
    EventStore(path).games()  # the views are there
    with duckdb.connect(str(path)) as conn:
        conn.execute("DELETE FROM snapshots")
        conn.execute("DELETE FROM events")
        conn.execute("INSERT INTO events SELECT game, branch, seq, turn, phase, actor, type, version, payload, "
                     "prev_hash, hash FROM read_parquet(?)", [str(copy)])
        views = [row[0] for row in conn.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()]
        assert "event_log" in views and any(view.startswith("wings_of_glory") for view in views)
        shown = "\n".join(str(conn.execute(f'SELECT * FROM "{view}"').fetchall()) for view in views)
    secrets = unrevealed("wings-of-glory", player)
    assert [salt for salt in secrets["salts"] if salt in shown] == []
