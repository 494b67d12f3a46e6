"""The events of a battle (tags prefixed ``whfb.``); dice are the core's ``DiceRolled`` and ``ScatterRolled``.
"""

from __future__ import annotations

from aero_events.core import Event
from aero_events.table import Pose

Point = tuple[int, int]


class VanguardEnded(Event, frozen=True, kw_only=True, tag="whfb.VanguardEnded"):
    player: str


class TurnBegan(Event, frozen=True, kw_only=True, tag="whfb.TurnBegan"):
    turn: int
    turn_count: int
    player: str


class PhaseBegan(Event, frozen=True, kw_only=True, tag="whfb.PhaseBegan"):
    phase: str


class UnitMoved(Event, frozen=True, kw_only=True, tag="whfb.UnitMoved"):
    """A move on the ground or in the air that is not a fly move of its own (a ground move, a reform, a Swoop's
    exit, a pursuit); ``how`` says which."""

    unit: str
    pose: Pose
    how: str
    path: tuple[Point, ...] = ()
    files: int = 0
    march: bool = False
    counts_as_move: bool = True


class FlightMade(Event, frozen=True, kw_only=True, tag="whfb.FlightMade"):
    """One of the fly moves (Movement Phase): the unit ends ``in_air`` or not, at ``pose``."""

    unit: str
    move: str
    in_air: bool
    pose: Pose
    path: tuple[Point, ...] = ()
    files: int = 0


class ChargeDeclared(Event, frozen=True, kw_only=True, tag="whfb.ChargeDeclared"):
    unit: str
    target: str
    kind: str
    flank: str = ""


class ChargeResolved(Event, frozen=True, kw_only=True, tag="whfb.ChargeResolved"):
    """The charge's distance against what it needed; on contact the charger stands at ``pose`` against ``side``
    of the target and a combat begins."""

    unit: str
    target: str
    kind: str
    distance: int
    needed: int
    reached: bool
    pose: Pose
    side: str = ""
    path: tuple[Point, ...] = ()
    contacts: int = 0
    exit_heading: int = 0
    #: Why a charge made no combat although it may have reached: "caught fleeing", "target gone", "charger lost".
    reason: str = ""


class AttackResolved(Event, frozen=True, kw_only=True, tag="whfb.AttackResolved"):
    """A volley or a round of blows: hits, wounds and unsaved wounds (``attack`` says what it was)."""

    attacker: str
    target: str
    attack: str
    dice: int
    hits: int
    wounds: int
    unsaved: int
    to_hit: int = 0
    modifiers: tuple[str, ...] = ()
    start: Point = (0, 0)
    end: Point = (0, 0)
    shooting: bool = False
    spell: bool = False


class UnitWounded(Event, frozen=True, kw_only=True, tag="whfb.UnitWounded"):
    unit: str
    wounds: int
    models: int
    wounds_taken: int
    models_lost: int


class TestTaken(Event, frozen=True, kw_only=True, tag="whfb.TestTaken"):
    """A test (break, panic, rally, fear, terror, Fly High, stay aloft, dangerous terrain) and its result."""

    unit: str
    test: str
    passed: bool
    score: int
    target: int


class ModelFell(Event, frozen=True, kw_only=True, tag="whfb.ModelFell"):
    """A flying model took its final wound in the air and hit the ground where the scatter dice put it (Wounds).
    """

    unit: str
    start: Point
    landing: Point
    struck: str = ""


class CharacterGrounded(Event, frozen=True, kw_only=True, tag="whfb.CharacterGrounded"):
    """A flying character landed uncontrollably (Characters): where, next to what, and until when it has -1 I and
    -1 CR."""

    unit: str
    pose: Pose
    placement: str
    fallen_until: int
    engaged_with: str = ""
    side: str = ""
    path: tuple[Point, ...] = ()


class UnitFled(Event, frozen=True, kw_only=True, tag="whfb.UnitFled"):
    unit: str
    pose: Pose
    distance: int
    off_table: bool
    path: tuple[Point, ...] = ()


class UnitRallied(Event, frozen=True, kw_only=True, tag="whfb.UnitRallied"):
    unit: str
    may_move: bool


class CharacterJoined(Event, frozen=True, kw_only=True, tag="whfb.CharacterJoined"):
    """Fly: a flying character joined a unit in the air."""

    character: str
    unit: str


class CharacterReleased(Event, frozen=True, kw_only=True, tag="whfb.CharacterReleased"):
    """The unit a character had joined is gone: the character stands alone where the unit was."""

    character: str
    unit: str
    pose: Pose
    in_air: bool


class FlewHigh(Event, frozen=True, kw_only=True, tag="whfb.FlewHigh"):
    unit: str
    reason: str


class UnitDestroyed(Event, frozen=True, kw_only=True, tag="whfb.UnitDestroyed"):
    unit: str
    reason: str


class CombatResolved(Event, frozen=True, kw_only=True, tag="whfb.CombatResolved"):
    """A round of one combat (two units or more in base contact): the combat resolution of each side
    (``scores`` by player), the winning player (None a draw), how the scores were made up."""

    units: tuple[str, ...]
    scores: dict[str, int]
    winner: str | None
    details: tuple[str, ...] = ()


class ChallengeIssued(Event, frozen=True, kw_only=True, tag="whfb.ChallengeIssued"):
    """Host: a character issued a challenge in the combat ``key`` (its first pair of units)."""

    key: tuple[str, str]
    challenger: str


class ChallengeSettled(Event, frozen=True, kw_only=True, tag="whfb.ChallengeSettled"):
    """Host: how the challenge question of the combat ``key`` ended this phase: no challenge, accepted by
    ``accepted_by``, or refused (``refused`` stands back: it does not fight and lends no Leadership)."""

    key: tuple[str, str]
    challenger: str = ""
    accepted_by: str = ""
    refused: str = ""


class CharacterLeft(Event, frozen=True, kw_only=True, tag="whfb.CharacterLeft"):
    """Host: a character left the unit it had joined and moved on its own (a Fly move in the air)."""

    character: str
    unit: str
    pose: Pose
    in_air: bool
    path: tuple[Point, ...] = ()


class TemplatePlaced(Event, frozen=True, kw_only=True, tag="whfb.TemplatePlaced"):
    """Magic Phase: a direct damage spell's round template at ``centre`` (radius in 1/100 mm), at the level of
    the unit aimed at; ``hits`` models of each unit under it."""

    caster: str
    spell: str
    aimed_at: str
    centre: Point
    radius: int
    in_air: bool
    hits: dict[str, int]


class CombatEnded(Event, frozen=True, kw_only=True, tag="whfb.CombatEnded"):
    charger: str
    target: str
    reason: str


class GameEnded(Event, frozen=True, kw_only=True, tag="whfb.GameEnded"):
    winner: str | None
    scores: dict[str, int]
    reason: str
