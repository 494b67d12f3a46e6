"""Recorded games keep replaying when a ruleset's state gains a field (aero_events/core/state_shape.py).

A small ruleset, built in three versions of its state: v1 records games with checkpoints; v2 adds a field to
the state and to a nested Struct (at a default, which v2's ``evolve`` then sets); v3 removes a field v1 had.
Every place that checks a recorded checkpoint (the session's replay, the store's load, verify and snapshots,
JSON Lines import, ``aero regress``) must replay the v1 game under v2, still catch a real divergence, and
name the struct and field when a recorded shape cannot be checked. Then the five rulesets: each one's current
shape is in its history, and projecting a state onto its own shape gives exactly ``state_hash``.
"""

from __future__ import annotations

import json
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.cli import main as aero
from aero_events.core import (
    Command,
    DiceCup,
    DiceRolled,
    Event,
    Game,
    GameSession,
    ReplayMismatch,
    SeededDice,
)
from aero_events.core.decider import Ruleset, state_hash
from aero_events.core.errors import DataError
from aero_events.core.registry import get_ruleset, register_ruleset, unregister_ruleset
from aero_events.core.shape_history import main as shape_command
from aero_events.core.state_shape import (
    METADATA_KEY,
    WRITE_COMMAND,
    CheckpointCheck,
    _Projection,
    checkpoint_hash,
    current_fingerprint,
    encode_as,
    missing_from_history,
    shape_history,
    shape_of,
    state_type_of,
    write_history,
)
from aero_events.hexgrid import Hex
from aero_events.regress.recorded import from_jsonl
from aero_events.regress.rerun import rerun
from aero_events.store import EventStore
from aero_events.store.transfer import write_game_jsonl

NAME = "test-shapes/v"
MODULE = "tests.core.shapes_fixture"  # every version's types have the same names, as one module's would


class ShapesSetup(msgspec.Struct, frozen=True, kw_only=True):
    last_turn: int = 4


class Advance(Command, frozen=True, tag="shapes.Advance"):
    piece: str


class Advanced(Event, frozen=True, tag="shapes.Advanced"):
    piece: str
    steps: int


class TurnEnded(Event, frozen=True, tag="shapes.TurnEnded"):
    turn: int


OWNERS = {"red": "a", "blue": "b"}


def make_rules(version: int, history: Path, *, divergent: bool = False) -> Ruleset:
    """The ruleset with its state as in ``version`` (1, 2 or 3); ``divergent``: v2 with an old field folded
    differently (a real divergence)."""
    piece_fields: list[Any] = [("id", str), ("x", int), ("at", Hex)]
    state_fields: list[Any] = [("turn", int), ("to_act", str), ("pieces", dict[str, Any]),
                               ("last_roll", DiceRolled | None, None), ("note", str, "")]
    if version >= 2:
        piece_fields.append(("fuel", int, 0))
        state_fields.append(("moves", int, 0))
    if version >= 3:
        state_fields = [field for field in state_fields if field[0] != "note"]
    piece_type = msgspec.defstruct("Piece", piece_fields, module=MODULE, frozen=True, kw_only=True)
    state_fields[2] = ("pieces", dict[str, piece_type])
    state_type = msgspec.defstruct("State", state_fields, module=MODULE, frozen=True, kw_only=True)

    class ShapesRules(Ruleset):
        name = NAME
        setup_type = ShapesSetup

        def state_shapes_file(self) -> Path:
            return history

        def initial_state(self, setup: ShapesSetup) -> Any:
            pieces = {piece: piece_type(id=piece, x=0, at=Hex(0, 0)) for piece in OWNERS.values()}
            return state_type(turn=1, to_act="red", pieces=pieces)

        def players(self, state: Any) -> tuple[str, ...]:
            return tuple(OWNERS)

        def clock(self, state: Any) -> tuple[int, str]:
            return state.turn, "move"

        def is_over(self, state: Any) -> bool:
            return state.turn > 4

        def legal_commands(self, state: Any, player: str) -> list[Command]:
            if self.is_over(state) or player != state.to_act:
                return []
            return [Advance(player=player, piece=OWNERS[player])]

        def decide(self, state: Any, command: Command, dice: DiceCup) -> list[Event]:
            roll = dice.d6(purpose="advance", roller=command.player)
            events: list[Event] = [roll, Advanced(piece=command.piece, steps=roll.faces[0])]
            if command.player == "blue":
                events.append(TurnEnded(turn=state.turn))
            return events

        def evolve(self, state: Any, event: Event) -> Any:
            if type(event) is DiceRolled:
                return msgspec.structs.replace(state, last_roll=event)
            if type(event) is Advanced:
                piece = state.pieces[event.piece]
                steps = event.steps * (2 if divergent else 1)
                changes: dict[str, Any] = {"x": piece.x + steps, "at": Hex(piece.at.q + steps, piece.at.r)}
                if version >= 2:
                    changes["fuel"] = piece.fuel + event.steps  # the value v2 sets (v1 games never had it)
                moved = msgspec.structs.replace(piece, **changes)
                extra = {"moves": state.moves + 1} if version >= 2 else {}
                return msgspec.structs.replace(state, pieces={**state.pieces, event.piece: moved},
                                               to_act="blue" if state.to_act == "red" else "red", **extra)
            if type(event) is TurnEnded:
                return msgspec.structs.replace(state, turn=state.turn + 1)
            return state

    ShapesRules.state_type = state_type  # type: ignore[attr-defined]
    return ShapesRules()


def play_v1(history: Path, seed: int = 7, metadata: dict | None = None) -> GameSession:
    rules = make_rules(1, history)
    session = GameSession(rules, ShapesSetup(), dice=SeededDice(seed), game_id=f"shapes-{seed}", metadata=metadata)
    while not rules.is_over(session.state):
        player = session.state.to_act
        session.apply(rules.legal_commands(session.state, player)[0])
    return session


@pytest.fixture
def history(tmp_path: Path) -> Path:
    """A history holding v1, then v2, then v3 (what three releases would have written)."""
    path = tmp_path / "state_shapes.json"
    for version in (1, 2, 3):
        assert write_history(make_rules(version, path))
    return path


@pytest.fixture
def v1_game(history: Path) -> GameSession:
    return play_v1(history)


def replay(rules: Ruleset, recorded: GameSession, metadata: dict | None = None) -> GameSession:
    game = Game(rules, ShapesSetup(), recorded.game_id,
                recorded.game.metadata if metadata is None else metadata, recorded=True)
    session = GameSession(rules, dice=SeededDice(0), game=game)
    session.record(recorded.events())
    return session


@pytest.fixture
def registered():
    """Register a version under the ruleset's name (the store and importer look it up by name)."""
    def register(rules: Ruleset) -> Ruleset:
        register_ruleset(NAME, lambda: rules)
        return rules

    yield register
    unregister_ruleset(NAME)


# ---------------------------------------------------------------- shapes and histories


def test_a_shape_names_every_struct_its_fields_in_order_and_the_config_that_changes_the_bytes(history):
    shape = shape_of(state_type_of(make_rules(2, history)))
    types = shape["types"]
    assert shape["state"] == f"{MODULE}.State"
    assert types[f"{MODULE}.Piece"]["fields"] == ["id", "x", "at", "fuel"]
    assert types["aero_events.hexgrid.hexes.Hex"] == {"kind": "namedtuple", "fields": ["q", "r"]}
    roll = types["aero_events.core.dice.DiceRolled"]
    assert (roll["tag_field"], roll["tag"], roll["omit_defaults"]) == ("type", "DiceRolled", True)
    assert roll["defaults"]["d3"] is False and roll["defaults"]["modifiers"] == []


def test_each_version_has_its_own_fingerprint_and_the_history_keeps_them_oldest_first(history):
    fingerprints = [current_fingerprint(make_rules(version, history)) for version in (1, 2, 3)]
    assert len(set(fingerprints)) == 3 and all(len(f) == 16 for f in fingerprints)
    assert shape_history(make_rules(3, history)).order == fingerprints
    assert not write_history(make_rules(2, history))  # already there: nothing appended


def test_a_new_game_records_its_shape_in_its_metadata_and_a_recorded_one_keeps_its_own(history):
    rules = make_rules(2, history)
    fresh = GameSession(rules, ShapesSetup(), dice=SeededDice(1), metadata={"state_shape": "0" * 16, "x": 1})
    assert fresh.game.metadata == {"state_shape": current_fingerprint(rules), "x": 1}
    old = Game(rules, ShapesSetup(), "g", {"x": 1}, recorded=True)
    assert METADATA_KEY not in old.metadata


# ---------------------------------------------------------------- replaying an old game


def test_v2_replays_a_v1_game_from_memory_bit_for_bit(v1_game, history):
    v2 = make_rules(2, history)
    replayed = replay(v2, v1_game)
    assert replayed.seq == v1_game.seq
    assert replayed.state.moves == 8 and replayed.state.pieces["a"].fuel > 0  # what v2 folds, v1 never had
    v1_fingerprint = v1_game.game.metadata[METADATA_KEY]
    assert checkpoint_hash(v2, replayed.state, v1_fingerprint) == v1_game.state_hash()
    encoder = msgspec.msgpack.Encoder(order="deterministic")
    assert encode_as(v2, replayed.state, v1_fingerprint) == encoder.encode(v1_game.state)


def test_a_game_recorded_before_fingerprints_has_the_first_shape_of_the_history(history):
    old = play_v1(history)
    del old.game.metadata[METADATA_KEY]
    replayed = replay(make_rules(2, history), old, metadata=old.game.metadata)
    assert replayed.state.turn == 5


def test_a_real_divergence_under_v2_is_still_caught(v1_game, history):
    with pytest.raises(ReplayMismatch, match=r"turn 2\) the replayed state hash .* differs from the recorded"):
        replay(make_rules(2, history, divergent=True), v1_game)


def test_a_recorded_shape_with_a_field_removed_since_is_a_clear_error(v1_game, history):
    with pytest.raises(ReplayMismatch) as caught:
        replay(make_rules(3, history), v1_game)
    message = str(caught.value)
    assert f"{MODULE}.State has the field 'note'" in message and "removed or renamed" in message
    assert "Replay the game with the version of aero_events that recorded it" in message


def test_an_unknown_recorded_shape_is_a_clear_error(v1_game, history):
    metadata = {**v1_game.game.metadata, METADATA_KEY: "feedfacefeedface"}
    with pytest.raises(ReplayMismatch, match="state shape feedfacefeedface, which this version of aero_events "
                                             "does not know"):
        replay(make_rules(2, history), v1_game, metadata=metadata)


def test_a_v1_game_continued_under_v2_holds_checkpoints_of_both_shapes_and_replays(v1_game, history):
    """New checkpoints are always recorded with the current shape; once one matched, older shapes are past."""
    v2 = make_rules(2, history)
    cut = next(env.seq for env in v1_game.events() if env.type == "StateCheckpoint" and env.event.turn == 3)
    game = Game(v2, ShapesSetup(), "continued", v1_game.game.metadata, recorded=True)
    continued = GameSession(v2, dice=SeededDice(3), game=game)
    continued.record(v1_game.events(1, cut))
    while not v2.is_over(continued.state):
        continued.apply(v2.legal_commands(continued.state, continued.state.to_act)[0])
    again = replay(v2, continued)
    assert again.state == continued.state
    check = CheckpointCheck(v2, v1_game.game.metadata[METADATA_KEY])
    marks = [(env.event.state_hash, again.state_at(env.seq)) for env in continued.events()
             if env.type == "StateCheckpoint"]
    assert all(check.matches(state, recorded) for recorded, state in marks)
    assert check.matched == current_fingerprint(v2) and check.candidates == []


# ---------------------------------------------------------------- the store, JSON Lines, regress, aero verify


def test_v2_loads_verifies_and_folds_a_v1_game_from_the_store(v1_game, history, tmp_path, registered):
    store = EventStore(tmp_path / "aero.duckdb")
    registered(make_rules(1, history))
    store.save_session(v1_game)
    assert store.verify(v1_game.game_id).ok
    v2 = registered(make_rules(2, history))
    report = store.verify(v1_game.game_id)
    assert report.ok and report.redecided, report.summary()
    loaded = store.load_game(v1_game.game_id)
    assert loaded.metadata[METADATA_KEY] == v1_game.game.metadata[METADATA_KEY]
    in_memory = replay(v2, v1_game)
    for seq in (0, 7, v1_game.seq):  # the v1 snapshots lack what v2 folds: they are not used
        assert store.state_at(v1_game.game_id, seq=seq) == in_memory.state_at(seq)
    assert store.rebuild_snapshots(v1_game.game_id) > 0
    assert store.state_at(v1_game.game_id) == in_memory.state
    assert store.verify(v1_game.game_id).ok


def test_v2_continues_a_stored_v1_game_and_the_store_checks_the_new_checkpoints(v1_game, history, tmp_path,
                                                                                 registered):
    store = EventStore(tmp_path / "aero.duckdb")
    registered(make_rules(1, history))
    cut = next(env.seq for env in v1_game.events() if env.type == "StateCheckpoint" and env.event.turn == 3)
    partial = Game(v1_game.ruleset, ShapesSetup(), v1_game.game_id, v1_game.game.metadata, recorded=True)
    GameSession(v1_game.ruleset, dice=SeededDice(0), game=partial).record(v1_game.events(1, cut))
    store.save_session(GameSession(v1_game.ruleset, dice=SeededDice(0), game=partial))
    v2 = registered(make_rules(2, history))
    session = store.session(v1_game.game_id, dice=SeededDice(5))
    while not v2.is_over(session.state):
        session.apply(v2.legal_commands(session.state, session.state.to_act)[0])
    store.save_session(session)
    assert store.verify(v1_game.game_id).ok
    assert store.rebuild_snapshots(v1_game.game_id) > 0


def test_v2_imports_a_v1_game_from_json_lines_and_the_fingerprint_travels(v1_game, history, tmp_path, registered):
    path = tmp_path / "game.jsonl"
    write_game_jsonl(v1_game.game, path)
    header = json.loads(path.read_text().partition("\n")[0])
    assert header["metadata"][METADATA_KEY] == v1_game.game.metadata[METADATA_KEY]
    registered(make_rules(2, history))
    store = EventStore(tmp_path / "aero.duckdb")
    game_id = store.import_jsonl(path)
    assert store.load_game(game_id).metadata == v1_game.game.metadata
    assert store.verify(game_id).ok
    again = tmp_path / "again.jsonl"
    store.export_jsonl(game_id, again)
    assert json.loads(again.read_text().partition("\n")[0])["metadata"] == header["metadata"]


def test_the_fingerprint_travels_through_a_parquet_export_and_its_import(v1_game, history, tmp_path, registered,
                                                                          capsys):
    registered(make_rules(1, history))
    source = EventStore(tmp_path / "source.duckdb")
    source.save_session(v1_game)
    registered(make_rules(2, history))
    source.export_parquet(tmp_path / "games.parquet")
    target = tmp_path / "target.duckdb"
    assert aero(["import", str(tmp_path / "games.parquet"), "--db", str(target)]) == 0
    capsys.readouterr()
    assert EventStore(target).load_game(v1_game.game_id).metadata == v1_game.game.metadata
    assert EventStore(target).verify(v1_game.game_id).ok


def test_an_aero_record_carries_the_fingerprint_and_reads_back_with_the_current_shape():
    """A record is decided again when read: its game is a new one, of the current shape (core/session.py Game)."""
    from aero_events.bots import make_bot, play
    from aero_events.record.record_format import read_record, write_record

    rules = get_ruleset("aeronautica")
    name, options, _ = rules.demo_scenario()
    scenario = rules.scenarios()[name]
    session = GameSession(rules, scenario.build({**scenario.default_options, **options}, 2), dice=SeededDice(2),
                          metadata={"seed": 2, "reproducible_salts": True})
    play(session, {p: make_bot(rules, "random", f"2:{p}") for p in rules.players(session.state)}, max_commands=30)
    text = write_record(session.game)
    assert f'\\"state_shape\\":\\"{current_fingerprint(rules)}\\"' in text
    assert read_record(text).game.metadata[METADATA_KEY] == current_fingerprint(rules)


def test_a_v1_game_written_as_an_aero_record_under_v2_reads_back_as_a_v2_game(v1_game, history, registered):
    """A record is decided again when read: the same events, its checkpoints of the current shape."""
    from aero_events.record.record_format import read_record, write_record

    v2 = registered(make_rules(2, history))
    old = replay(v2, v1_game).game
    text = write_record(old)  # read back and compared: each checkpoint in the shape each was recorded with
    again = read_record(text).game
    assert again.metadata[METADATA_KEY] == current_fingerprint(v2) != old.metadata[METADATA_KEY]
    assert [env.type for env in again.main.envelopes()] == [env.type for env in old.main.envelopes()]
    assert again.main.state_at(again.main.head_seq) == old.main.state_at(old.main.head_seq)


def test_importing_a_v1_game_whose_old_field_diverges_under_v2_is_refused(v1_game, history, tmp_path, registered):
    path = tmp_path / "game.jsonl"
    write_game_jsonl(v1_game.game, path)
    registered(make_rules(2, history, divergent=True))
    with pytest.raises(DataError, match="records state hash"):
        EventStore(tmp_path / "aero.duckdb").import_jsonl(path)


def test_importing_a_v1_game_under_v3_names_the_removed_field(v1_game, history, tmp_path, registered):
    path = tmp_path / "game.jsonl"
    write_game_jsonl(v1_game.game, path)
    registered(make_rules(3, history))
    with pytest.raises(DataError, match="has the field 'note'") as caught:
        EventStore(tmp_path / "aero.duckdb").import_jsonl(path)
    assert caught.value.field == "metadata.state_shape"


def test_aero_regress_reruns_a_v1_game_identically_under_v2(v1_game, history, tmp_path, registered):
    path = tmp_path / "game.jsonl"
    write_game_jsonl(v1_game.game, path)
    v2 = registered(make_rules(2, history))
    report = rerun(from_jsonl(path), v2, own_rules=v2)
    assert report.error is None and report.identical, (report.divergence, report.state_difference)
    diverging = make_rules(2, history, divergent=True)
    assert not rerun(from_jsonl(path), diverging, own_rules=v2).identical


def test_aero_verify_passes_on_an_old_shape_game(v1_game, history, tmp_path, registered, capsys):
    database = tmp_path / "aero.duckdb"
    registered(make_rules(1, history))
    EventStore(database).save_session(v1_game)
    registered(make_rules(2, history))
    assert aero(["verify", v1_game.game_id, "--db", str(database)]) == 0
    assert "ok" in capsys.readouterr().out
    registered(make_rules(3, history))
    assert aero(["verify", v1_game.game_id, "--db", str(database)]) == 1
    assert "has the field 'note'" in capsys.readouterr().out


# ---------------------------------------------------------------- the five rulesets


#: Every ruleset the package declares (its entry points; rulesets a test registers keep no history).
PACKAGED = sorted(point.name for point in entry_points(group="aero_events.rulesets") if "/" in point.name)


@pytest.mark.parametrize("name", PACKAGED)
def test_every_rulesets_current_shape_is_in_its_history(name):
    rules = get_ruleset(name)
    assert state_type_of(rules) is not None
    assert missing_from_history(rules) is None, missing_from_history(rules)
    assert shape_history(rules).first is not None


def test_the_check_command_names_the_command_that_records_a_missing_shape(tmp_path, capsys):
    path = tmp_path / "state_shapes.json"
    write_history(make_rules(1, path))
    problem = missing_from_history(make_rules(2, path))
    assert problem is not None and WRITE_COMMAND in problem and str(path) in problem
    assert shape_command(["--check"]) == 0  # the packaged rulesets' histories are up to date
    capsys.readouterr()


def test_a_history_edited_by_hand_is_a_data_error(tmp_path):
    path = tmp_path / "state_shapes.json"
    write_history(make_rules(1, path))
    document = json.loads(path.read_text())
    document["shapes"][0]["shape"]["types"][f"{MODULE}.Piece"]["fields"].append("fuel")
    path.write_text(json.dumps(document))
    from aero_events.core.state_shape import _read_history
    _read_history.cache_clear()
    with pytest.raises(DataError, match="edited by hand"):
        shape_history(make_rules(2, path))


def test_the_rulesets_game_states_projected_onto_their_own_shape_give_exactly_their_state_hash():
    """Every Struct re-built as the shape's own type (nothing kept as it is): the same bytes."""
    from aero_events.bots import make_bot, play

    for family in ("aeronautica", "battlefleet-gothic", "million-colored-sun", "whfb-flying", "wings-of-glory"):
        rules = get_ruleset(family)
        name, options, _ = rules.demo_scenario()
        scenario = rules.scenarios()[name]
        session = GameSession(rules, scenario.build({**scenario.default_options, **options}, 3), dice=SeededDice(3))
        assert session.game.metadata[METADATA_KEY] == current_fingerprint(rules)
        play(session, {p: make_bot(rules, "random", f"3:{p}") for p in rules.players(session.state)},
             max_commands=400)
        projection = _Projection(shape_of(state_type_of(rules)), "self", rules.name, rebuild_all=True)
        encoder = msgspec.msgpack.Encoder(order="deterministic")
        for seq in range(0, session.seq + 1, max(1, session.seq // 12)):
            state = session.state_at(seq)
            assert encoder.encode(projection.project(state)) == encoder.encode(state), (family, seq)


ROLLS = st.builds(lambda faces, target, d3: DiceRolled(roll_index=0, purpose="p", roller=None, count=len(faces),
                                                       sides=6, faces=tuple(faces), target=target, d3=d3),
                  st.lists(st.integers(1, 6), max_size=3), st.none() | st.integers(2, 6), st.booleans())


@settings(max_examples=60, deadline=None)
@given(xs=st.lists(st.integers(-50, 50), min_size=2, max_size=2), fuel=st.integers(0, 9), turn=st.integers(1, 9),
       note=st.text(max_size=4), roll=st.none() | ROLLS, moves=st.integers(0, 3))
def test_a_state_projected_onto_its_own_current_shape_hashes_exactly_as_state_hash(tmp_path_factory, xs, fuel, turn,
                                                                                    note, roll, moves):
    path = tmp_path_factory.mktemp("h") / "state_shapes.json"
    rules = make_rules(2, path)
    write_history(rules)
    state = rules.initial_state(ShapesSetup())
    pieces = {key: msgspec.structs.replace(piece, x=x, fuel=fuel, at=Hex(x, -x))
              for (key, piece), x in zip(state.pieces.items(), xs, strict=True)}
    state = msgspec.structs.replace(state, pieces=pieces, turn=turn, note=note, last_roll=roll, moves=moves)
    current = current_fingerprint(rules)
    assert checkpoint_hash(rules, state, current) == state_hash(state)
    projection = _Projection(shape_of(type(state)), current, NAME, rebuild_all=True)
    projected = projection.project(state)
    assert type(projected) is not type(state)
    assert state_hash(projected) == state_hash(state)
