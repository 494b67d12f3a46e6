"""The Ace Manoeuvres (rulebook p.16-17, diagrams p.88) as data in a small vocabulary.

The p.88 diagrams are not in the rulebook text, so the default table (``data/manoeuvres.json``) is a
RECONSTRUCTION that respects what the text fixes: eight manoeuvres numbered 1 (simplest) to 8 (most
complex, p.16); landing and taking off use manoeuvre 1 (p.19); manoeuvre 7 has two stages, its first move
"forward and to the left" (p.16). A user can load a corrected table with ``load_manoeuvres(path)``.

Vocabulary (written for the LEFT side; the right side mirrors it):

* a manoeuvre has one or two :class:`Stage` s; each moves at least one hex, then changes facing by one of
  the stage's ``facings`` (p.16 steps 2-4);
* the move is ``"forward"`` (through the front hexside) or ``"slip"`` (through the front-left hexside for
  the left side, front-right for the right side, keeping the facing);
* a facing value counts hexsides toward the chosen side: 0 keeps the facing, 1 is 60 degrees, 2 is 120,
  3 is 180; a negative value turns away from the chosen side;
* Speed left after the last stage is flown forward in the final facing (p.17 step 5); an aircraft too slow
  to give every stage its hex cannot complete the manoeuvre and Stalls (p.17).

Facing convention (shared with the hex grid): facings are hexside numbers clockwise, N=0, NE=1, SE=2, S=3,
SW=4, NW=5; turning right is +1, turning left is -1.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Literal

import msgspec

from aero_events.core.errors import read_data_file
from aero_events.rulesets.aeronautica.profiles import JsonDocument, data_path

__all__ = [
    "MOVES",
    "SIDES",
    "Manoeuvre",
    "ManoeuvreTable",
    "Stage",
    "facing_change",
    "load_manoeuvres",
    "move_direction",
    "parse_manoeuvres",
    "slip_direction",
    "turn",
]

Side = Literal["left", "right"]
Move = Literal["forward", "slip"]

SIDES: tuple[Side, Side] = ("left", "right")
MOVES: tuple[str, ...] = ("forward", "slip")
#: Facing values run from 3 hexsides away from the chosen side to 3 toward it.
MAX_FACING_CHANGE = 3
#: Landing and taking off use Ace Manoeuvre 1 (p.19).
LANDING_MANOEUVRE = 1

MANOEUVRES_FILE = "manoeuvres.json"


# ---------------------------------------------------------------------------------------------------------
# Pure facing arithmetic
# ---------------------------------------------------------------------------------------------------------


def turn(facing: int, steps: int) -> int:
    """The facing after turning ``steps`` hexsides clockwise (negative: anticlockwise), in 0..5."""
    return (facing + steps) % 6


def facing_change(value: int, side: Side | None) -> int:
    """A table facing value as clockwise hexside steps for the chosen side.

    The table is written for the left side: +n toward the chosen side is n hexsides LEFT (-n steps) for
    ``"left"`` and n hexsides RIGHT (+n steps) for ``"right"``. For ``None`` (an unsided manoeuvre, whose
    facings are mirror-symmetric) the value is returned as clockwise steps.
    """
    if side == "left":
        return -value
    if side == "right" or side is None:
        return value
    raise ValueError(f"side must be 'left', 'right' or None, not {side!r}")


def slip_direction(facing: int, side: Side) -> int:
    """The hexside a ``slip`` move leaves through: front-left (facing-1) for ``"left"``, front-right
    (facing+1) for ``"right"``. The aircraft keeps its facing."""
    if side == "left":
        return turn(facing, -1)
    if side == "right":
        return turn(facing, 1)
    raise ValueError(f"a slip needs a side, 'left' or 'right', not {side!r}")


def move_direction(move: str, facing: int, side: Side | None) -> int:
    """The hexside one hex of ``move`` leaves through, for an aircraft facing ``facing``."""
    if move == "forward":
        return facing % 6
    if move == "slip":
        if side is None:
            raise ValueError("a slip needs a side, 'left' or 'right'")
        return slip_direction(facing, side)
    raise ValueError(f"move must be one of {MOVES}, not {move!r}")


def _symmetric(values: tuple[int, ...]) -> bool:
    """Whether a set of facing values is its own mirror image (so no side needs choosing)."""
    steps = {v % 6 for v in values}
    return steps == {(-v) % 6 for v in values}


# ---------------------------------------------------------------------------------------------------------
# Structs
# ---------------------------------------------------------------------------------------------------------


class Stage(msgspec.Struct, frozen=True, forbid_unknown_fields=True, cache_hash=True):
    """One move-then-manoeuvre stage of an Ace Manoeuvre (p.16 steps 2-4), written for the left side."""

    move: Move
    facings: tuple[int, ...]

    def facing_changes(self, side: Side | None) -> tuple[int, ...]:
        """The allowed facing changes as clockwise hexside steps for ``side`` (see :func:`facing_change`).

        Left and right mirror each other: ``facing_changes("left") == tuple(-s for s in
        facing_changes("right"))``. ``None`` is only for mirror-symmetric stages (unsided manoeuvres).
        """
        if side is None and not _symmetric(self.facings):
            raise ValueError(f"facings {self.facings} are not mirror-symmetric: choose a side")
        return tuple(facing_change(v, side) for v in self.facings)

    def move_direction(self, facing: int, side: Side | None) -> int:
        """The hexside each hex of this stage's move leaves through."""
        return move_direction(self.move, facing, side)

    def final_facings(self, facing: int, side: Side | None) -> tuple[int, ...]:
        """The facings (0..5) the aircraft may take at the end of this stage."""
        return tuple(turn(facing, s) for s in self.facing_changes(side))


class Manoeuvre(msgspec.Struct, frozen=True, forbid_unknown_fields=True, cache_hash=True):
    """An Ace Manoeuvre: its number (1-8), name, whether a side is chosen (p.16 step 1), its stages."""

    number: int
    name: str
    sided: bool
    stages: tuple[Stage, ...]

    @property
    def sides(self) -> tuple[Side | None, ...]:
        """The sides a player may choose: ``("left", "right")``, or ``(None,)`` for an unsided one."""
        return SIDES if self.sided else (None,)

    @property
    def min_hexes(self) -> int:
        """Each stage moves at least one hex (p.16), so a slower aircraft Stalls (p.17)."""
        return len(self.stages)


class ManoeuvreTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True, cache_hash=True):
    """The Ace Manoeuvre table; ``reconstruction`` says it is not a transcription of p.88."""

    source: str
    data_version: str
    manoeuvres: tuple[Manoeuvre, ...]
    reconstruction: bool = False
    note: str | None = None

    def get(self, number: int) -> Manoeuvre:
        """Manoeuvre ``number``; KeyError if the table has none. Looked up in the table's index by number
        (:func:`_by_number`), not searched: the rules ask it for every move."""
        try:
            found = _by_number(self).get(number)
        except TypeError:  # an unhashable value is no manoeuvre's number
            found = None
        if found is None:
            raise KeyError(f"no Ace Manoeuvre {number} in this table (has {self.numbers})")
        return found

    @property
    def numbers(self) -> tuple[int, ...]:
        """The manoeuvre numbers the table holds, in order."""
        return tuple(sorted(m.number for m in self.manoeuvres))

    def __contains__(self, number: object) -> bool:
        try:
            return number in _by_number(self)
        except TypeError:  # an unhashable value is no manoeuvre's number
            return False


@functools.lru_cache(maxsize=64)
def _by_number(table: ManoeuvreTable) -> dict[Any, Manoeuvre]:
    """A table's manoeuvres by number, the first of each number (as a search in order finds it), built once per
    table (a table is immutable; its hash is cached, so the look-up costs a hash read and an identity test)."""
    index: dict[Any, Manoeuvre] = {}
    for manoeuvre in table.manoeuvres:
        index.setdefault(manoeuvre.number, manoeuvre)
    return index


# ---------------------------------------------------------------------------------------------------------
# Loading and validation
# ---------------------------------------------------------------------------------------------------------


def _entry_name(collection: str, index: int, item: Any) -> str:
    if collection == "manoeuvres" and isinstance(item, dict) and isinstance(item.get("number"), int):
        return f"manoeuvre {item['number']}"
    return f"{collection}[{index}]"


def _validate(table: ManoeuvreTable, doc: JsonDocument) -> None:
    """Numbers 1..8 unique and 1 present (p.16, p.19); 1 or 2 stages; facings -3..3, distinct; an unsided
    manoeuvre only moves forward and has mirror-symmetric facings."""
    if not table.source.strip():
        raise doc.error("source is empty: say where the table comes from", ("source",))
    seen: set[int] = set()
    for i, m in enumerate(table.manoeuvres):
        base = ("manoeuvres", i)
        entry = f"manoeuvre {m.number}"
        if not 1 <= m.number <= 8:
            raise doc.error(
                f"Ace Manoeuvres are numbered 1 to 8 (p.16), not {m.number}", base + ("number",), entry=entry
            )
        if m.number in seen:
            raise doc.error(f"manoeuvre {m.number} appears twice", base + ("number",), entry=entry)
        seen.add(m.number)
        if not m.name.strip():
            raise doc.error("name is empty", base + ("name",), entry=entry)
        if not 1 <= len(m.stages) <= 2:
            raise doc.error(
                f"a manoeuvre has one or two stages (p.16), not {len(m.stages)}",
                base + ("stages",),
                entry=entry,
            )
        for s, stage in enumerate(m.stages):
            spath = base + ("stages", s)
            if not stage.facings:
                raise doc.error("a stage needs at least one facing", spath + ("facings",), entry=entry)
            for f, value in enumerate(stage.facings):
                if not -MAX_FACING_CHANGE <= value <= MAX_FACING_CHANGE:
                    raise doc.error(
                        f"a facing change counts hexsides, -3 to 3 (3 is 180 degrees), not {value}",
                        spath + ("facings", f),
                        entry=entry,
                    )
            if len({v % 6 for v in stage.facings}) != len(stage.facings):
                raise doc.error(
                    f"facings {list(stage.facings)} name the same facing twice",
                    spath + ("facings",),
                    entry=entry,
                )
            if not m.sided:
                if stage.move != "forward":
                    raise doc.error(
                        "an unsided manoeuvre cannot slip: a slip goes to one side",
                        spath + ("move",),
                        entry=entry,
                    )
                if not _symmetric(stage.facings):
                    raise doc.error(
                        f"facings {list(stage.facings)} favour one side: make the manoeuvre sided, or list "
                        "each facing with its mirror",
                        spath + ("facings",),
                        entry=entry,
                    )
    if LANDING_MANOEUVRE not in seen:
        raise doc.error("the table needs manoeuvre 1: landing and taking off use it (p.19)", ("manoeuvres",))


def parse_manoeuvres(raw: bytes | str, source: str = "<string>") -> ManoeuvreTable:
    """A validated ManoeuvreTable from JSON text; DataError naming source, manoeuvre, field and line."""
    doc = JsonDocument(raw, source, _entry_name)
    table = doc.decode(ManoeuvreTable)
    _validate(table, doc)
    return table


@functools.lru_cache(maxsize=1)
def _default_table() -> ManoeuvreTable:
    return load_manoeuvres(data_path(MANOEUVRES_FILE))


def load_manoeuvres(path: str | Path | None = None) -> ManoeuvreTable:
    """The Ace Manoeuvre table in ``path``, or the package's reconstructed default (cached) when None."""
    if path is None:
        return _default_table()
    raw = read_data_file(path)
    return parse_manoeuvres(raw, str(path))
