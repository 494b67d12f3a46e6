"""The events of Battlefleet Gothic (tags ``bfg.*``). Each carries what it decided, so folding never rolls."""

from __future__ import annotations

from aero_events.core import Event


class BattleBegan(Event, frozen=True, tag="bfg.BattleBegan"):
    """Set-up done: Leadership rolled (p.10)."""


class LeadershipRolled(Event, frozen=True, tag="bfg.LeadershipRolled"):
    """Starting Leadership (p.10): a D6 on the table, or fixed by the scenario (``roll`` 0)."""

    ship: str
    roll: int
    leadership: int


class FirstTurnRolled(Event, frozen=True, tag="bfg.FirstTurnRolled"):
    """Who Gets the First Turn (p.13): the highest D6 chooses; ``winner`` None on a tie (re-rolled)."""

    rolls: dict[str, int]
    winner: str | None


class TurnOrderChosen(Event, frozen=True, tag="bfg.TurnOrderChosen"):
    first: str


class PlayerTurnBegan(Event, frozen=True, tag="bfg.PlayerTurnBegan"):
    player: str
    round: int
    player_turn: int


class PhaseBegan(Event, frozen=True, tag="bfg.PhaseBegan"):
    phase: str


class OrdersRemoved(Event, frozen=True, tag="bfg.OrdersRemoved"):
    """Special order dice removed (p.14 movement phase; Brace in the end phase, p.12)."""

    ships: tuple[str, ...]


class CommandCheckTaken(Event, frozen=True, tag="bfg.CommandCheckTaken"):
    """A Command check (p.11): 2D6 against Ld with the p.12 modifiers, capped at 10."""

    ship: str
    order: str
    roll: int
    leadership: int
    passed: bool
    modifiers: tuple[tuple[str, int], ...] = ()


class OrderPlaced(Event, frozen=True, tag="bfg.OrderPlaced"):
    ship: str
    order: str
    brace_ends_turn: int = 0


class OrdnanceReloaded(Event, frozen=True, tag="bfg.OrdnanceReloaded"):
    ship: str


class AllAheadFullRolled(Event, frozen=True, tag="bfg.AllAheadFullRolled"):
    ship: str
    extra: int


class LeadershipTestTaken(Event, frozen=True, tag="bfg.LeadershipTestTaken"):
    """An unmodified Leadership test (p.12): target priority, nova cannon, Brace."""

    ship: str
    purpose: str
    roll: int
    leadership: int
    passed: bool
    against: str = ""


class ShipMoved(Event, frozen=True, tag="bfg.ShipMoved"):
    """A ship's move (p.15-17): its path's points, where it ended, how far it went."""

    ship: str
    path: tuple[tuple[int, int], ...]
    x: int
    y: int
    heading: int
    distance: int
    through_blast_markers: bool = False
    complete: bool = True


class ShipLeftTable(Event, frozen=True, tag="bfg.ShipLeftTable"):
    ship: str


class HulkDrifted(Event, frozen=True, tag="bfg.HulkDrifted"):
    """A hulk drifts 4D6 cm forward (p.26)."""

    ship: str
    x: int
    y: int
    distance: int


class TargetDeclared(Event, frozen=True, tag="bfg.TargetDeclared"):
    """A shot or attack announced before its dice (so the target may brace, p.23)."""

    attacker: str
    target: str
    kind: str
    weapons: tuple[tuple[str, int], ...] = ()


class ReactionOffered(Event, frozen=True, tag="bfg.ReactionOffered"):
    player: str
    ship: str
    attacker: str
    kind: str
    can_brace: bool
    can_turrets: bool
    weapons: tuple[tuple[str, int], ...] = ()
    target: str = ""
    aim: tuple[int, int] = (0, 0)
    joined: tuple[tuple[str, str, int], ...] = ()


class BraceFailed(Event, frozen=True, tag="bfg.BraceFailed"):
    ship: str
    attacker: str


class WeaponsFired(Event, frozen=True, tag="bfg.WeaponsFired"):
    """Weapon systems used against a target (how much of each, after halving, p.21)."""

    ship: str
    target: str
    weapons: tuple[tuple[str, int], ...]
    joined: tuple[tuple[str, str, int], ...] = ()  # squadron mates' batteries in the same attack (p.20)


class GunneryResolved(Event, frozen=True, tag="bfg.GunneryResolved"):
    """Weapons batteries (p.19-21): total Firepower, the column, shifts, dice, hits."""

    ship: str
    target: str
    firepower: int
    column: str
    shifts: tuple[str, ...]
    dice: int
    needed: int
    hits: int


class LancesResolved(Event, frozen=True, tag="bfg.LancesResolved"):
    ship: str
    target: str
    strength: int
    needed: int
    hits: int


class ShotRecorded(Event, frozen=True, tag="bfg.ShotRecorded"):
    shooter: str
    target: str
    start: tuple[int, int]
    end: tuple[int, int]
    outcome: str


class NovaCannonFired(Event, frozen=True, tag="bfg.NovaCannonFired"):
    """Nova cannon (p.21): where it was aimed, where it landed."""

    ship: str
    aim: tuple[int, int]
    landed: tuple[int, int]
    scatter: int


class HitsAbsorbed(Event, frozen=True, tag="bfg.HitsAbsorbed"):
    """Hits stopped by shields (p.25), each leaving a Blast marker."""

    ship: str
    hits: int


class BlastMarkerPlaced(Event, frozen=True, tag="bfg.BlastMarkerPlaced"):
    marker: int
    x: int
    y: int
    reason: str


class BlastMarkersRemoved(Event, frozen=True, tag="bfg.BlastMarkersRemoved"):
    markers: tuple[int, ...]


class BlastMarkerRemovalRolled(Event, frozen=True, tag="bfg.BlastMarkerRemovalRolled"):
    player: str
    roll: int
    count: int


class HitsSaved(Event, frozen=True, tag="bfg.HitsSaved"):
    """Brace for Impact saves (p.23): 4+ on a D6 per hit."""

    ship: str
    hits: int
    saved: int


class DamageTaken(Event, frozen=True, tag="bfg.DamageTaken"):
    """Damage points on the hull (p.23); ``damage`` is the new total, capped at the ship's Hits."""

    ship: str
    amount: int
    damage: int
    source: str


class ShipCrippled(Event, frozen=True, tag="bfg.ShipCrippled"):
    ship: str


class CriticalHit(Event, frozen=True, tag="bfg.CriticalHit"):
    """A critical (p.24): the 2D6 rolled and the result applied (after moving to the next highest)."""

    ship: str
    roll: int
    critical: str
    extra: int


class CatastrophicDamage(Event, frozen=True, tag="bfg.CatastrophicDamage"):
    """The Catastrophic Damage table (p.26); ``status`` is what the ship becomes."""

    ship: str
    roll: int
    result: str
    status: str
    radius: int = 0


class ShipDestroyed(Event, frozen=True, tag="bfg.ShipDestroyed"):
    ship: str
    reason: str


class OrdnanceLaunched(Event, frozen=True, tag="bfg.OrdnanceLaunched"):
    marker: str
    side: str
    kind: str
    launcher: str
    x: int
    y: int
    heading: int
    strength: int
    speed: int
    turn: int
    fighters: int = 0
    bombers: int = 0
    assault_boats: int = 0
    torpedo_kind: str = "standard"
    ignore_hulks: bool = False


class OrdnanceMoved(Event, frozen=True, tag="bfg.OrdnanceMoved"):
    marker: str
    x: int
    y: int
    travelled: int
    done: bool
    blast_checked: bool = False


class OrdnanceRemoved(Event, frozen=True, tag="bfg.OrdnanceRemoved"):
    marker: str
    reason: str


class TurretsFired(Event, frozen=True, tag="bfg.TurretsFired"):
    """Turrets against ordnance (p.29): dice, hits, what they were committed against this phase."""

    ship: str
    marker: str
    turrets: int
    hits: int
    against: str


class TorpedoAttack(Event, frozen=True, tag="bfg.TorpedoAttack"):
    marker: str
    ship: str
    strength: int
    needed: int
    hits: int


class SalvoWeakened(Event, frozen=True, tag="bfg.SalvoWeakened"):
    marker: str
    strength: int
    attacked: tuple[str, ...] = ()


class CriticalRepaired(Event, frozen=True, tag="bfg.CriticalRepaired"):
    ship: str
    critical: str


class ShootingEnded(Event, frozen=True, tag="bfg.ShootingEnded"):
    player: str


class Surrendered(Event, frozen=True, tag="bfg.Surrendered"):
    player: str


class GameEnded(Event, frozen=True, tag="bfg.GameEnded"):
    winner: str | None
    reason: str
    scores: dict[str, int]


class SquadronsLost(Event, frozen=True, tag="bfg.SquadronsLost"):
    """Attack craft squadrons removed from a wave (turrets, fighters, p.29-30); the wave's new make-up."""

    marker: str
    fighters: int
    bombers: int
    reason: str
    assault_boats: int = 0


class BomberAttack(Event, frozen=True, tag="bfg.BomberAttack"):
    """Bombers' attack run (p.30): D6 attacks per squadron less the target's turrets, against its lowest Armour."""

    marker: str
    ship: str
    squadrons: int
    attacks: int
    needed: int
    hits: int


class FightersScreened(Event, frozen=True, tag="bfg.FightersScreened"):
    """Fighters in base contact moved with a friendly ship to screen it (p.29)."""

    marker: str
    ship: str
    x: int
    y: int
    turn: int


class WaveSplit(Event, frozen=True, tag="bfg.WaveSplit"):
    """A wave splits during its move (p.30): ``marker`` keeps the squadrons that move, ``new_marker`` the rest."""

    marker: str
    new_marker: str
    fighters: int
    bombers: int
    speed: int
    new_speed: int
    assault_boats: int = 0


class TorpedoesSteered(Event, frozen=True, tag="bfg.TorpedoesSteered"):
    """A boarding salvo turns at the start of the ordnance phase (p.28) and elects whether to ignore hulks."""

    marker: str
    heading: int
    ignore_hulks: bool


class HitAndRunRaid(Event, frozen=True, tag="bfg.HitAndRunRaid"):
    """One hit-and-run raid (boarding torpedoes p.28, assault boats p.30; the raid itself is the option
    ``hit_and_run``'s reconstruction): the D6, what it needed, whether it causes a critical hit."""

    raider: str
    ship: str
    roll: int
    needed: int
    success: bool


class ExplosionStrikesQueued(Event, frozen=True, tag="bfg.ExplosionStrikesQueued"):
    """An exploding ship's lance shots (p.26) wait to strike each ship in the radius, nearest first."""

    wreck: str
    side: str
    victims: tuple[str, ...]
    strength: int
    x: int
    y: int


class ExplosionStrikeOffered(Event, frozen=True, tag="bfg.ExplosionStrikeOffered"):
    """The next explosion strike has had its Brace for Impact window opened (p.23)."""


class ExplosionStrikeTaken(Event, frozen=True, tag="bfg.ExplosionStrikeTaken"):
    """The next explosion strike leaves the queue to be rolled (or is dropped: its victim has gone)."""
