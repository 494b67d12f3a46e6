"""SQL views in the database file, for every ruleset and each ruleset's own, and the games' outcomes.

:func:`install_views` runs whenever the store opens its file for writing: it creates (or brings up to
date) the views below *in the file*, so that ``duckdb aero.duckdb`` or any SQL client sees them without
calling Python first. It rewrites them only when their definitions changed or one of them is missing
(``aero_views`` keeps a fingerprint of the definitions, the views it made, and a key of the source they
came from), so opening the store costs one small read and imports no ruleset.

Views for every ruleset (the store's tables are ``games``, ``branches``, ``events``; a view named
``games`` would clash with the table, so the overview of games is ``games_overview``):

* ``event_log``: every event with its game's ruleset (the relation every other view reads);
* ``games_overview``: one row per game: ruleset, players, when, branches, events and last turn of
  ``main``, and its recorded outcome;
* ``events_by_type``: how many events of each type per game, branch and turn;
* ``dice_rolls``: every ``DiceRolled``: purpose, roller, die size, faces, target, summed modifiers;
* ``dice_by_purpose``: per ruleset, kind of roll (the purpose before any ':') and die size: rolls, dice,
  the mean face rolled against the expected mean ``(sides + 1) / 2`` of a fair die;
* ``outcomes``: each stored branch's outcome as its ruleset judged it when it was last saved
  (``Ruleset.outcome(state)``): finished, winner, draw, reason, scores;
* ``outcome_scores``: the same scores, one row per side.

Each ruleset adds its own (``Ruleset.sql_views()``), which read ``event_log`` filtered on their ruleset.

Outcomes need Python (a ruleset judges a state), so the store writes them: :func:`record_outcomes` puts a
branch's outcome into the ``game_outcomes`` table whenever ``EventStore.save_session`` or
``EventStore.append`` saves events of that branch (:func:`record_appended_outcome`), inside the same
transaction; a writer of many games at once (``aero simulate``) calls :func:`insert_outcomes`.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

import duckdb
import msgspec

#: (name, description, SQL) of the views every ruleset gets, in creation order.
GENERIC_VIEWS: tuple[tuple[str, str, str], ...] = (
    ("event_log", "every event with its game's ruleset (what the other views read)",
     """SELECT e.game, g.ruleset, e.branch, e.seq, e.turn, e.phase, e.actor, e.type, e.version, e.payload
        FROM events e JOIN games g ON g.id = e.game"""),
    ("games_overview", ("one row per game: ruleset, players, created, branches, events and last turn of main, "
                        "its outcome"),
     """SELECT g.id AS game, g.ruleset, g.players, g.created,
               (SELECT count(*) FROM branches b WHERE b.game = g.id) AS branches,
               (SELECT count(*) FROM events e WHERE e.game = g.id AND e.branch = 'main') AS events,
               (SELECT max(e.turn) FROM events e WHERE e.game = g.id AND e.branch = 'main') AS last_turn,
               o.finished, o.winner, o.draw, o.reason
        FROM games g LEFT JOIN game_outcomes o ON o.game = g.id AND o.branch = 'main'"""),
    ("events_by_type", "events per game, branch, turn and type",
     """SELECT game, ruleset, branch, turn, type, count(*) AS events, min(seq) AS first_seq, max(seq) AS last_seq
        FROM event_log GROUP BY ALL"""),
    ("dice_rolls", "every DiceRolled: purpose, roller, die size, faces, target, summed modifiers",
     """SELECT game, ruleset, branch, seq, turn, phase, actor,
               CAST(payload->>'$.roll_index' AS BIGINT) AS roll_index,
               payload->>'$.purpose' AS purpose,
               trim(split_part(payload->>'$.purpose', ':', 1)) AS kind,
               payload->>'$.roller' AS roller,
               CAST(payload->>'$.count' AS INTEGER) AS dice,
               coalesce(CAST(payload->>'$.sides' AS INTEGER), 6) AS sides,
               CAST(payload->'$.faces' AS INTEGER[]) AS faces,
               CAST(payload->>'$.target' AS INTEGER) AS target,
               CAST(coalesce(list_sum(CAST(payload->'$.modifiers[*].value' AS INTEGER[])), 0) AS INTEGER)
                   AS modifier,
               coalesce(CAST(payload->>'$.d3' AS BOOLEAN), false) AS d3,
               CAST(payload->>'$.replaces' AS BIGINT) AS replaces
        FROM event_log WHERE type = 'DiceRolled'"""),
    ("dice_by_purpose", "per ruleset, kind of roll and die size: rolls, dice, mean face against a fair die's",
     """SELECT ruleset, kind, sides, count(*) AS rolls, sum(dice)::BIGINT AS dice,
               round(sum(list_sum(faces)) / nullif(sum(len(faces)), 0), 3) AS mean_face,
               (sides + 1) / 2 AS expected_mean,
               round(sum(list_sum(faces)) / nullif(sum(len(faces)), 0) - (sides + 1) / 2, 3) AS above_expected
        FROM dice_rolls WHERE len(faces) > 0 GROUP BY ruleset, kind, sides ORDER BY ruleset, kind, sides"""),
    ("outcomes", "each branch's outcome as its ruleset judged it when last saved: winner, draw, reason, scores",
     """SELECT o.game, g.ruleset, o.branch, o.head_seq, o.finished, o.winner, o.draw, o.reason, o.scores,
               o.recorded
        FROM game_outcomes o JOIN games g ON g.id = o.game"""),
    ("outcome_scores", "each side's score in each branch's outcome, one row per side",
     """SELECT o.game, o.ruleset, o.branch, o.finished, s.key AS side, CAST(s.value AS DOUBLE) AS score,
               o.winner = s.key AS winner
        FROM outcomes o, json_each(o.scores) s"""),
)

_TABLES = (
    """CREATE TABLE IF NOT EXISTS game_outcomes (
        game VARCHAR NOT NULL,
        branch VARCHAR NOT NULL,
        head_seq BIGINT NOT NULL,
        finished BOOLEAN NOT NULL,
        winner VARCHAR,
        draw BOOLEAN NOT NULL,
        reason VARCHAR NOT NULL,
        scores JSON NOT NULL,
        recorded TIMESTAMP NOT NULL,
        PRIMARY KEY (game, branch)
    )""",
    "CREATE TABLE IF NOT EXISTS aero_views (name VARCHAR PRIMARY KEY, fingerprint VARCHAR NOT NULL)",
)

_FINGERPRINT_ROW = "(all views)"
_log = logging.getLogger(__name__)


def ruleset_views(rulesets: Iterable[Any]) -> list[tuple[str, str, str]]:
    """(name, description, SQL) of the rulesets' own views (``Ruleset.sql_views()``), each name once."""
    views: dict[str, tuple[str, str, str]] = {}
    for ruleset in rulesets:
        for view in ruleset.sql_views():
            views.setdefault(view.name, (view.name, view.description, view.sql))
    return list(views.values())


@functools.lru_cache(maxsize=4)
def _known_views(names: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    from aero_events.core.registry import get_ruleset

    rulesets = []
    for name in names:
        try:
            rulesets.append(get_ruleset(name))
        except Exception as err:  # noqa: BLE001 - a ruleset that cannot load must not lock users out of their store
            _log.warning("no SQL views for ruleset %s: %s", name, err)
            continue
    return (*GENERIC_VIEWS, *ruleset_views(rulesets))


def all_views() -> tuple[tuple[str, str, str], ...]:
    """Every view the store creates: the generic ones, then each known ruleset family's own."""
    from aero_events.core.registry import known_families

    return _known_views(tuple(known_families().values()))


def _fingerprint(views: Sequence[tuple[str, str, str]]) -> str:
    digest = hashlib.sha256()
    for name, _description, sql in views:
        digest.update(f"{name}\0{sql}\0".encode())
    return digest.hexdigest()


#: The ``aero_views`` row holding :func:`install_key` at the last install; rows named in parentheses are
#: bookkeeping, every other row is one installed view and the sha256 of the SQL it was created from.
_KEY_ROW = "(install key)"
#: What the file has: its views, whether it has ``game_outcomes``, and the rows of ``aero_views`` (a file
#: without that table fails to bind it). One statement, reading no table but ``aero_views``.
_INSTALLED = """SELECT 'view', view_name, NULL FROM duckdb_views()
                WHERE NOT internal AND schema_name = 'main' AND database_name = current_database()
                UNION ALL
                SELECT 'table', table_name, NULL FROM duckdb_tables()
                WHERE table_name = 'game_outcomes' AND schema_name = 'main' AND database_name = current_database()
                UNION ALL
                SELECT 'row', name, fingerprint FROM aero_views"""


@functools.cache
def _source_signature() -> str:
    """What the views this process would install are made from, without importing a ruleset: the size and
    time of every module of this package, and the time of each site-packages directory on ``sys.path``
    (installing or removing a package, such as another ruleset, changes it). Read once a process."""
    import os
    import sys

    import aero_events

    from .records import engine_version
    from .schema import SCHEMA_VERSION

    digest = hashlib.sha256(f"{engine_version()}\0{SCHEMA_VERSION}\0{_fingerprint(GENERIC_VIEWS)}\0".encode())
    for root in aero_events.__path__:
        for folder, folders, files in os.walk(root):
            folders.sort()
            for name in sorted(files):
                if name.endswith(".py"):
                    path = f"{folder}/{name}"
                    stat = os.stat(path)
                    digest.update(f"{path[len(root):]}\0{stat.st_mtime_ns}\0{stat.st_size}\0".encode())
    for entry in sys.path:
        if os.path.basename(entry) not in ("site-packages", "dist-packages"):
            continue  # (not the working directory: its time changes with every store file written there)
        try:
            digest.update(f"{entry}\0{os.stat(entry).st_mtime_ns}\0".encode())
        except OSError:
            continue
    return digest.hexdigest()


def install_key() -> str:
    """A key that changes whenever the views :func:`all_views` gives may have changed: the package's source
    (:func:`_source_signature`) and the names of the rulesets installed or registered at run time (a
    program's, a test's), which need no ruleset imported."""
    from aero_events.core.registry import known_rulesets

    return hashlib.sha256("\0".join([_source_signature(), *known_rulesets()]).encode()).hexdigest()


def install_views(conn: duckdb.DuckDBPyConnection, views: Sequence[tuple[str, str, str]] | None = None
                  ) -> list[str]:
    """Create the views in the file ``conn`` has open, unless they are already there as defined.

    Opening a store costs one read when nothing changed: ``aero_views`` records which views the file was
    given and for which :func:`install_key`, so no ruleset is imported to check. The views are (re)created
    when one of them is missing (dropped), when the key changed and the views' definitions with it (their
    fingerprint is kept too: a changed key alone only records the new key), or when ``views`` are given
    and differ. Returns the views (re)created (empty when nothing changed). A ruleset's view that does
    not bind is left out rather than stopping the store from opening.
    """
    try:
        installed = conn.execute(_INSTALLED).fetchall()
    except duckdb.CatalogException:  # no aero_views: a new store, or not a store at all
        present = conn.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name IN ('games', 'branches', "
                               "'events') AND schema_name = 'main'").fetchall()[0][0]
        if present < 3:  # not a store (yet): nothing to read
            return []
        installed = []
    found = {(kind, name) for kind, name, _ in installed}
    stored = {name: fingerprint for kind, name, fingerprint in installed if kind == "row"}
    recorded_views = [name for name in stored if not name.startswith("(")]  # none: a file from before they were
    intact = (("table", "game_outcomes") in found and bool(recorded_views)
              and all(("view", name) in found for name in recorded_views))
    key = install_key() if views is None else None
    if intact and key is not None and stored.get(_KEY_ROW) == key:
        return []
    views = all_views() if views is None else tuple(views)
    fingerprint = _fingerprint(views)
    if intact and stored.get(_FINGERPRINT_ROW) == fingerprint:
        if key is not None:  # the same views from a changed source: remember the new key
            conn.execute("INSERT OR REPLACE INTO aero_views VALUES (?, ?)", [_KEY_ROW, key])
        return []
    created = []
    for statement in _TABLES:
        conn.execute(statement)
    generic = {name for name, _, _ in GENERIC_VIEWS}
    for name, _description, sql in views:
        # One statement each (DuckDB has no savepoints, and a failed statement would abort a transaction).
        try:
            conn.execute(f"CREATE OR REPLACE VIEW {name} AS {sql}")
        except duckdb.Error as err:
            if name in generic:
                raise
            _log.warning("the view %s does not bind, left out: %s", name, err)
            continue
        created.append(name)
    rows = [(_FINGERPRINT_ROW, fingerprint), (_KEY_ROW, key if key is not None else ""),
            *((name, hashlib.sha256(sql.encode()).hexdigest()) for name, _description, sql in views if name in created)]
    conn.execute("DELETE FROM aero_views")
    conn.execute("INSERT INTO aero_views VALUES " + ", ".join(["(?, ?)"] * len(rows)),
                 [value for row in rows for value in row])
    return created


def _outcome_row(game_id: str, branch_id: str, head_seq: int, outcome: Any, recorded: datetime) -> list[Any]:
    return [game_id, branch_id, head_seq, bool(outcome.finished), outcome.winner, bool(outcome.draw),
            outcome.reason or "", msgspec.json.encode(dict(outcome.scores)).decode(), recorded]


def _write_outcomes(conn: duckdb.DuckDBPyConnection, game_id: str, rows: Sequence[list[Any]], replace: bool) -> None:
    """Write a game's outcome rows, each replacing the row of its branch unless ``replace`` is false (the
    game has none). One DELETE and one INSERT for every row: DuckDB's INSERT OR REPLACE costs more than the
    two. The table exists: :func:`install_views` creates it whenever the store opens a file."""
    if not rows:
        return
    if replace:
        conn.execute("DELETE FROM game_outcomes WHERE game = ? AND list_contains(?, branch)",
                     [game_id, [row[1] for row in rows]])
    conn.execute("INSERT INTO game_outcomes VALUES " + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(rows)),
                 [value for row in rows for value in row])


def record_outcome(conn: duckdb.DuckDBPyConnection, game_id: str, branch_id: str, head_seq: int,
                   outcome: Any) -> None:
    """Write (or replace) the outcome of a branch at ``head_seq`` into ``game_outcomes``.

    ``outcome`` is a :class:`~aero_events.core.interface.Outcome`. Call it inside the transaction that
    wrote the branch's events, so the outcome and the events never disagree.
    """
    _write_outcomes(conn, game_id, [_outcome_row(game_id, branch_id, head_seq, outcome,
                                                 datetime.now(UTC).replace(tzinfo=None))], replace=True)


def record_outcomes(conn: duckdb.DuckDBPyConnection, game_id: str, ruleset: Any,
                    heads: Iterable[tuple[str, int, Any]], *, replace: bool = True) -> None:
    """:func:`record_outcome` for each ``(branch, head seq, state at the head)``, all in one statement (two
    with ``replace``: a game that has outcome rows already); a ruleset whose ``outcome`` fails leaves the
    branch without a row rather than failing the save."""
    recorded = datetime.now(UTC).replace(tzinfo=None)
    rows = []
    for branch_id, head_seq, state in heads:
        try:
            outcome = ruleset.outcome(state)
        except Exception as err:  # noqa: BLE001 - judging is a courtesy to SQL users, never a reason to lose events
            _log.warning("no outcome recorded for %s/%s: %s", game_id, branch_id, err)
            continue
        rows.append(_outcome_row(game_id, branch_id, head_seq, outcome, recorded))
    _write_outcomes(conn, game_id, rows, replace)


def describe_views() -> list[tuple[str, str]]:
    """(name, one-line description) of every view, generic first (for the README and ``aero``)."""
    return [(name, description) for name, description, _ in all_views()]


def record_appended_outcome(conn: duckdb.DuckDBPyConnection, game_id: str, branch_id: str, head_seq: int) -> None:
    """After an append: the branch's outcome at its new head (its state read from the nearest snapshot)."""
    from .games import game_context
    from .snapshots import state_at

    try:
        context = game_context(conn, game_id)
        state = state_at(conn, context, game_id, branch_id, head_seq)
    except Exception as err:  # noqa: BLE001 - see record_outcomes
        _log.warning("no outcome recorded for %s/%s: %s", game_id, branch_id, err)
        return
    record_outcomes(conn, game_id, context.ruleset, [(branch_id, head_seq, state)])


def insert_outcomes(conn: duckdb.DuckDBPyConnection, entries: Sequence[tuple[str, str, int, Any]]) -> int:
    """Write many outcomes at once, ``(game, branch, head seq, Outcome)`` each, replacing older rows of the
    same branches (one Arrow insert: for writers of many games, such as ``aero simulate``). Returns the rows."""
    import pyarrow as pa

    from .database import registered

    if not entries:
        return 0
    conn.execute(_TABLES[0])
    now = datetime.now(UTC).replace(tzinfo=None)
    table = pa.table({
        "game": pa.array([e[0] for e in entries], pa.string()),
        "branch": pa.array([e[1] for e in entries], pa.string()),
        "head_seq": pa.array([e[2] for e in entries], pa.int64()),
        "finished": pa.array([bool(e[3].finished) for e in entries], pa.bool_()),
        "winner": pa.array([e[3].winner for e in entries], pa.string()),
        "draw": pa.array([bool(e[3].draw) for e in entries], pa.bool_()),
        "reason": pa.array([e[3].reason or "" for e in entries], pa.string()),
        "scores": pa.array([msgspec.json.encode(dict(e[3].scores)).decode() for e in entries], pa.string()),
        "recorded": pa.array([now] * len(entries), pa.timestamp("us")),
    })
    with registered(conn, "incoming_outcomes", table):
        conn.execute("INSERT OR REPLACE INTO game_outcomes SELECT game, branch, head_seq, finished, winner, draw, "
                     "reason, CAST(scores AS JSON), recorded FROM incoming_outcomes")
    return len(entries)
