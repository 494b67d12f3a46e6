"""The events of ``wings-of-glory/bob-2017`` (tags ``wog.*``). Secret ones subclass SecretEvent."""

from __future__ import annotations

from typing import ClassVar

from aero_events.core import Event, SecretEvent
from aero_events.core.orders import OrderCommitted

from .geometry import Pose


class TurnBegan(Event, frozen=True, tag="wog.TurnBegan"):
    turn: int


class PhaseBegan(Event, frozen=True, tag="wog.PhaseBegan"):
    phase: str
    subphase: str | None = None


class PlayerDone(Event, frozen=True, tag="wog.PlayerDone"):
    """A player has finished a step in which every player acts at once (fire, bomb)."""

    player: str


class FloorChanged(Event, frozen=True, tag="wog.FloorChanged"):
    """ALTITUDE: the floor moved; the pegs under every plane change, the altitudes do not."""

    floor: int


class CardPlanned(OrderCommitted, frozen=True, kw_only=True, tag="wog.CardPlanned"):
    """PLANNING / SETUP: card ``order`` (its number in the deck) placed face down in the console of plane
    ``slot``, in the planning ``step`` ("setup": the first space; "turn N": the second); only its owner sees
    which (a simultaneous order of ``aero_events.core.orders``)."""

    order: int


class CardRevealed(Event, frozen=True, tag="wog.CardRevealed"):
    """MOVEMENT: the manoeuvre the card turned face up makes (the card itself is opened by the core's
    ``OrdersRevealed`` just before, checked against its commitment)."""

    plane: str
    card: int
    executed: str


class IllegalManoeuvre(Event, frozen=True, tag="wog.IllegalManoeuvre"):
    """ILLEGAL MANOEUVRES: the revealed card is replaced by a straight; the pilot may not fire."""

    plane: str
    card: int
    straight: int
    reason: str


class PlaneMoved(Event, frozen=True, tag="wog.PlaneMoved"):
    """MOVEMENT: the base moved by the card; altitude, climb counters and fuel after it."""

    plane: str
    card: int
    executed: str
    pose: Pose
    level: int
    climb: int
    fuel: int | None
    path: tuple[tuple[int, int], ...]
    swept: tuple[tuple[int, int], ...]
    over_targets: tuple[str, ...] = ()


class PlaneOut(Event, frozen=True, tag="wog.PlaneOut"):
    """A plane leaves play: shot_down, crashed, out (left the table) or returned (own edge, FUEL)."""

    plane: str
    status: str
    reason: str


class PlanesOverlap(Event, frozen=True, tag="wog.PlanesOverlap"):
    """OVERLAPPING DURING MOVEMENT: two bases overlap; ``replaced`` when one model is replaced by its card."""

    first: str
    second: str
    replaced: bool


class TokensTaken(SecretEvent, frozen=True, tag="wog.TokensTaken"):
    """DAMAGE: tokens put face down on the console of ``plane``; others see how many and from where."""

    secret_fields: ClassVar[tuple[str, ...]] = ("tokens",)
    plane: str
    count: int
    letters: str
    mode: str
    cause: str
    tokens: tuple[str, ...]


class TokenIgnored(SecretEvent, frozen=True, tag="wog.TokenIgnored"):
    """Luck of the Devil: one drawn token ignored (and returned to its cup)."""

    secret_fields: ClassVar[tuple[str, ...]] = ("token",)
    plane: str
    crewman: int
    token: str


class DamageResolved(SecretEvent, frozen=True, tag="wog.DamageResolved"):
    """The tokens of one part of the turn take effect together (DAMAGE): points, engine damage and the
    rudder-jam direction stay secret; smoke, fire, a jam and a crew hit are announced (SPECIAL DAMAGE)."""

    secret_fields: ClassVar[tuple[str, ...]] = ("damage", "engine", "rudder")
    plane: str
    tokens: int
    smoke: int
    flames: int
    rudder_jammed: bool
    crew_hits: int
    damage: int
    engine: int
    rudder: str | None


class CrewWounded(Event, frozen=True, tag="wog.CrewWounded"):
    """Crew Hit: the crewmen with the highest D6 are wounded."""

    plane: str
    crewmen: tuple[int, ...]


class SmokeAndFire(Event, frozen=True, tag="wog.SmokeAndFire"):
    """End of turn: one smoke and one flame counter discarded (Smoke, Fire)."""

    plane: str
    smoke: int
    flames: int


class Fired(Event, frozen=True, tag="wog.Fired"):
    """FIRING: a gun fired at a target; ``band`` short/long/overlap; the letters owed (before any draw)."""

    plane: str
    gun: int
    target: str
    band: str
    letters: str
    improved_aim: str = ""
    tailing: bool = False
    skill: str = ""
    start: tuple[int, int] = (0, 0)
    end: tuple[int, int] = (0, 0)


class SkillUsed(Event, frozen=True, tag="wog.SkillUsed"):
    """RECOVERY: an ace used a skill; four Recovery counters go on the console."""

    plane: str
    crewman: int
    skill: str


class SniperDrew(SecretEvent, frozen=True, tag="wog.SniperDrew"):
    """Sniper: the sniper's player draws two tokens of the chosen letter and looks at them."""

    secret_fields: ClassVar[tuple[str, ...]] = ("tokens",)
    plane: str
    target: str
    letter: str
    tokens: tuple[str, ...]
    rest: str


class SniperChose(Event, frozen=True, tag="wog.SniperChose"):
    plane: str
    target: str


class GroundFire(Event, frozen=True, tag="wog.GroundFire"):
    """GROUND TROOPS / ANTI-AIRCRAFT GUNS: a troop card fires, or an artillery counter is placed or resolved."""

    target_piece: str
    gun: int
    plane: str
    action: str  # "troops", "counter_placed", "counter_resolved", "counter_returned"


class TargetDamaged(Event, frozen=True, tag="wog.TargetDamaged"):
    """STRAFING: tokens kept face up beside a ground or naval target (points only)."""

    target_piece: str
    tokens: tuple[str, ...]
    points: int
    silenced: bool
    sunk: bool


class BombDropped(Event, frozen=True, tag="wog.BombDropped"):
    """LEVEL / DIVE BOMBING: result "direct", "near" or "miss"; ``bomb_damage`` to a ship."""

    plane: str
    target_piece: str
    method: str
    result: str
    bomb_damage: int
    sunk: bool


class LoadDropped(Event, frozen=True, tag="wog.LoadDropped"):
    """FULL LOAD: the bombs or drop tanks are gone; the plane is no longer loaded."""

    plane: str


class PhotoTaken(Event, frozen=True, tag="wog.PhotoTaken"):
    plane: str
    target_piece: str
    good: bool


class TorpedoLaunched(Event, frozen=True, tag="wog.TorpedoLaunched"):
    torpedo: str
    plane: str
    pose: Pose
    bombardier_wounded: bool


class TorpedoMoved(Event, frozen=True, tag="wog.TorpedoMoved"):
    torpedo: str
    pose: Pose
    hit_piece: str | None = None
    result: str = ""      # "", "miss", "hit"
    bomb_damage: int = 0
    sunk: bool = False
    removed: bool = False


class ShipMoved(Event, frozen=True, tag="wog.ShipMoved"):
    target_piece: str
    pose: Pose


class PacLaunched(Event, frozen=True, tag="wog.PacLaunched"):
    target_piece: str


class PacCounted(Event, frozen=True, tag="wog.PacCounted"):
    target_piece: str
    phases_left: int


class GameEnded(Event, frozen=True, tag="wog.GameEnded"):
    winner: str | None
    reason: str
    scores: dict[str, int]
