"""The events of Million-Colored Sun (tags ``mcs.*``). Each carries what it decided, so folding never rolls."""

from __future__ import annotations

import msgspec

from aero_events.core import Event

Point = tuple[int, int]


# ---------------------------------------------------------------- the host's turn


class BattleRoundBegan(Event, frozen=True, tag="mcs.BattleRoundBegan"):
    """A battle round begins; ``first`` takes the first turn (``rolls``: the roll-off, empty in round 1)."""

    round: int
    first: str
    rolls: dict[str, int] = msgspec.field(default_factory=dict)


class PlayerTurnBegan(Event, frozen=True, tag="mcs.PlayerTurnBegan"):
    player: str
    turn_number: int


class PhaseBegan(Event, frozen=True, tag="mcs.PhaseBegan"):
    phase: str


class CombatPickPassed(Event, frozen=True, tag="mcs.CombatPickPassed"):
    """In the combat phase the players take turns to pick a model to fight; ``player`` picks next (None: the phase
    is over); ``finished`` has no more models to fight, or chose to fight no more."""

    player: str | None
    finished: str | None = None


class ObjectiveScored(Event, frozen=True, tag="mcs.ObjectiveScored"):
    player: str
    points: int
    reason: str


class GameEnded(Event, frozen=True, tag="mcs.GameEnded"):
    winner: str | None
    scores: dict[str, int]
    reason: str


# ---------------------------------------------------------------- the flight layer: actions and the board edge


class ActionTaken(Event, frozen=True, tag="mcs.ActionTaken"):
    """AIRBORNE ACTIONS: ``model`` takes ``action`` in its Hero phase (``mode`` for SHIFT MOVEMENT MODE)."""

    model: str
    action: str
    mode: str | None = None


class BlastMarkerGained(Event, frozen=True, tag="mcs.BlastMarkerGained"):
    model: str
    reason: str


class Recovered(Event, frozen=True, tag="mcs.Recovered"):
    """RECOVER: one Blast Marker removed, every Jammed weapon un-jammed."""

    model: str
    unjammed: tuple[str, ...] = ()


class EffectsExpired(Event, frozen=True, tag="mcs.EffectsExpired"):
    """"Until your next Hero phase": the actions of ``player``'s models end as that phase begins."""

    player: str


class MissileLaunched(Event, frozen=True, tag="mcs.MissileLaunched"):
    """LAUNCH ORDNANCE: a missile marker ``missile`` placed next to ``model``."""

    missile: str
    model: str
    side: str
    x: int
    y: int
    heading: int
    turn_number: int


class ModelLeftBoard(Event, frozen=True, tag="mcs.ModelLeftBoard"):
    """MOVING OFF THE BOARD: set aside at the edge it crossed (``x``, ``y``: where it went off)."""

    model: str
    x: int
    y: int
    turn_number: int


class ReturnRolled(Event, frozen=True, tag="mcs.ReturnRolled"):
    model: str
    roll: int
    returns: bool


class ModelReturned(Event, frozen=True, tag="mcs.ModelReturned"):
    """Placed touching one of its player's board edges, facing any direction."""

    model: str
    x: int
    y: int
    heading: int


class MissileLost(Event, frozen=True, tag="mcs.MissileLost"):
    """A missile that flew off the board is gone (a choice: see missiles.py)."""

    missile: str


# ---------------------------------------------------------------- movement


class ModelFlew(Event, frozen=True, tag="mcs.ModelFlew"):
    """AIRBORNE MOVEMENT: the manoeuvre flown, its flight path (template then Pilot Input), and where the model
    ends after IGNORE OTHER MODELS puts it clear of terrain and models (``x``, ``y``, ``heading``)."""

    model: str
    manoeuvre: str
    path: tuple[Point, ...]
    x: int
    y: int
    heading: int
    pilot_input: Point | None = None
    placed_from: Point | None = None


class ModelMoved(Event, frozen=True, tag="mcs.ModelMoved"):
    """A ground or FLY move of the host (``run``: the model ran; ``charge``: a charge move)."""

    model: str
    path: tuple[Point, ...]
    heading: int
    run: bool = False
    charge: bool = False


class ChargeRolled(Event, frozen=True, tag="mcs.ChargeRolled"):
    model: str
    target: str
    roll: int
    needed: int
    success: bool


class ModeShifted(Event, frozen=True, tag="mcs.ModeShifted"):
    model: str
    mode: str


class CollisionWithTerrain(Event, frozen=True, tag="mcs.CollisionWithTerrain"):
    model: str
    terrain: str


class BombDropped(Event, frozen=True, tag="mcs.BombDropped"):
    """BOMBS / BOMBING RUN: dropped at ``drop`` on the flight path, drifted ``drift`` inches along it to ``x, y``."""

    model: str
    drop: Point
    drift: int
    x: int
    y: int


class TerrainDestroyed(Event, frozen=True, tag="mcs.TerrainDestroyed"):
    terrain: str


class MissileTriggered(Event, frozen=True, tag="mcs.MissileTriggered"):
    """The missile's flight path came within 1" of ``target`` at ``x, y``."""

    missile: str
    target: str
    x: int
    y: int


class MissileExploded(Event, frozen=True, tag="mcs.MissileExploded"):
    """``reason``: "target" (a failed test), "fuel" (out of fuel), "destroyed" (slain)."""

    missile: str
    x: int
    y: int
    reason: str


# ---------------------------------------------------------------- attacks and damage


class InitiativeTested(Event, frozen=True, tag="mcs.InitiativeTested"):
    """An Initiative test: D6 ``roll`` + ``modifier`` against ``target`` (DIFFICULT TO HIT, STRAFING RUN, MISSILES)."""

    model: str
    reason: str
    roll: int
    modifier: int
    target: int | None
    passed: bool


class AttacksMade(Event, frozen=True, tag="mcs.AttacksMade"):
    """One weapon's attacks: hits, wounds, saves and the wounds inflicted (``doubled``: VULNERABLE TO TAIL ATTACKS)."""

    model: str
    weapon: str
    target: str
    attacks: int
    hits: int
    wounds: int
    unsaved: int
    inflicted: int
    doubled: bool = False
    start: Point = (0, 0)
    end: Point = (0, 0)


class WoundsAllocated(Event, frozen=True, tag="mcs.WoundsAllocated"):
    model: str
    wounds: int
    mortal: bool
    source: str


class ModelSlain(Event, frozen=True, tag="mcs.ModelSlain"):
    model: str
    by: str | None
    reason: str


class ModelFought(Event, frozen=True, tag="mcs.ModelFought"):
    model: str


class ModelFled(Event, frozen=True, tag="mcs.ModelFled"):
    model: str


class BattleshockTested(Event, frozen=True, tag="mcs.BattleshockTested"):
    unit: str
    roll: int
    slain: int
    bravery: int
    flee: int
