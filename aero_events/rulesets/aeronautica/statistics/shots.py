"""Who fired at whom, and what came of it: one record per weapon fired, read from the firing events.

The Firing rules (rulebook p.20-28) record a volley as ``VolleyDeclared``, then per weapon
``WeaponFired``, its to-hit ``DiceRolled`` and ``HitsScored``, then per weapon that hit
its Damage ``DiceRolled`` and ``DamageRolled``, and the ``DamageSuffered`` /
``AircraftDestroyed`` that followed. An Autonomous weapon (p.25) attacks with
``AutonomousAttacked``; Bomb Creep (p.27) with ``BombCreepRolled``. This module turns
those events into :class:`ShotRecord` s, so the replay can draw a line from firer to
target and the statistics can count shots, hits and damage without knowing the order
of the events themselves.

Events are matched by type name and read with ``getattr`` so that this module keeps
working while the firing events grow new fields.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from aero_events.core import Envelope

#: Events that may follow a ``DamageRolled`` and still belong to it: armour saves (p.37, p.45), the loss
#: itself, the destruction it caused and what follows a destruction (Ejector Seats, p.37).
_DAMAGE_AFTERMATH = frozenset({"DiceRolled", "ai.DamageIgnored", "ai.DamageSuffered", "ai.AircraftDestroyed",
                               "ai.GroundTargetDamaged", "ai.GroundTargetDestroyed", "ai.EjectorSeatsRolled"})


@dataclass
class ShotRecord:
    """One weapon fired at one target (or one Autonomous attack, or one Bomb Creep roll).

    ``hexes`` are where firer and target stood when it fired; ``structure_lost`` is what
    the target actually lost (after armour), ``damaging`` what the Damage dice scored.
    ``negated``: a decoy (Flares, Chaff, Belching Smoke) turned the hits into misses.
    """

    seq: int
    turn: int
    phase: str
    kind: str  # "firing" | "tailing" | "tail_gunner" | "autonomous" | "bomb_creep"
    firer: str
    firer_owner: str | None
    weapon: str
    weapon_index: int | None
    target: str | None
    target_owner: str | None
    attack: str
    band: str | None
    dice: int
    from_hex: tuple[int, int] | None
    to_hex: tuple[int, int] | None
    hits: int = 0
    damaging: int = 0
    structure_lost: int = 0
    destroyed: bool = False
    negated: bool = False

    def describe(self) -> str:
        """One line for hover text: weapon, range, dice, hits and damage."""
        band = f", {self.band} range" if self.band else ""
        text = f"{self.firer} → {self.target}: {self.weapon}{band}, {self.dice} dice, {self.hits} hit(s)"
        if self.negated:
            text += " (negated by a decoy)"
        if self.damaging or self.structure_lost:
            text += f", {self.damaging} damaging, {self.structure_lost} Structure lost"
        if self.destroyed:
            text += ", DESTROYED"
        return text


def _owner(state: Any, unit_id: str | None) -> str | None:
    if unit_id is None:
        return None
    aircraft = getattr(state, "aircraft", {}).get(unit_id)
    if aircraft is not None:
        return aircraft.owner
    for target in getattr(state, "ground_targets", ()):
        if target.id == unit_id:
            return target.owner
    return None


def unit_hex(state: Any, unit_id: str | None) -> tuple[int, int] | None:
    """Where an aircraft, Ground Defence, ground target or Autonomous weapon is in ``state``."""
    if unit_id is None:
        return None
    aircraft = getattr(state, "aircraft", {}).get(unit_id)
    if aircraft is not None:
        return tuple(aircraft.hex)
    for target in getattr(state, "ground_targets", ()):
        if target.id == unit_id:
            return tuple(target.hex)
    weapon = getattr(state, "autonomous", {}).get(unit_id)
    if weapon is not None:
        return tuple(weapon.hex)
    return None


class _ShotReader:
    """Reads firing events one at a time and keeps the shot records they describe."""

    def __init__(self) -> None:
        self.records: list[ShotRecord] = []
        self._volley_kind = "firing"
        self._open: dict[tuple[str, int | None], ShotRecord] = {}
        self._damaged: ShotRecord | None = None  # the shot whose DamageRolled awaits its DamageSuffered

    def read(self, envelope: Envelope, before: Any) -> None:
        event = envelope.event
        name = event.type_name()
        handler = getattr(self, "_on_" + name.removeprefix("ai."), None)
        if name not in _DAMAGE_AFTERMATH:
            self._damaged = None
        if handler is not None:
            handler(envelope, event, before)

    def _record(self, envelope: Envelope, before: Any, **fields: Any) -> ShotRecord:
        record = ShotRecord(seq=envelope.seq, turn=envelope.turn, phase=envelope.phase,
                            firer_owner=_owner(before, fields["firer"]),
                            target_owner=_owner(before, fields["target"]),
                            from_hex=unit_hex(before, fields["firer"]), to_hex=unit_hex(before, fields["target"]),
                            **fields)
        self.records.append(record)
        return record

    def _on_VolleyDeclared(self, envelope: Envelope, event: Any, before: Any) -> None:
        self._volley_kind = getattr(event, "kind", "firing")
        self._open = {}

    def _on_WeaponFired(self, envelope: Envelope, event: Any, before: Any) -> None:
        if event.target is None:  # an Autonomous weapon placed on the board, not a shot at anything
            return
        record = self._record(envelope, before, kind=self._volley_kind, firer=event.aircraft, weapon=event.weapon,
                              weapon_index=event.weapon_index, target=event.target, attack=event.attack,
                              band=event.band, dice=event.dice)
        self._open[(event.aircraft, event.weapon_index)] = record

    def _on_HitsScored(self, envelope: Envelope, event: Any, before: Any) -> None:
        record = self._open.get((event.aircraft, event.weapon_index))
        if record is not None:
            record.hits = event.hits

    def _on_DecoyLaunched(self, envelope: Envelope, event: Any, before: Any) -> None:
        record = self._open.get((event.firer, getattr(event, "weapon_index", None)))
        if record is not None and event.negated:
            record.negated = True

    def _on_AutonomousAttacked(self, envelope: Envelope, event: Any, before: Any) -> None:
        weapon = getattr(before, "autonomous", {}).get(event.weapon_id)
        firer = weapon.firer if weapon is not None else event.weapon_id
        record = self._record(envelope, before, kind="autonomous", firer=firer,
                              weapon=weapon.weapon if weapon is not None else "autonomous weapon",
                              weapon_index=weapon.weapon_index if weapon is not None else None,
                              target=event.target, attack="autonomous", band=None, dice=1,
                              hits=1 if event.hit else 0)
        record.from_hex = tuple(weapon.hex) if weapon is not None else record.from_hex
        self._open[("autonomous", event.target)] = record

    def _on_BombCreepRolled(self, envelope: Envelope, event: Any, before: Any) -> None:
        bombed = self._open.get((event.aircraft, event.weapon_index))
        record = self._record(envelope, before, kind="bomb_creep", firer=event.aircraft,
                              weapon=bombed.weapon if bombed else "bomb creep", weapon_index=event.weapon_index,
                              target=event.target, attack="bomb_creep", band=None, dice=1,
                              hits=1 if event.hit else 0)
        if bombed is not None and bombed.to_hex is not None:
            record.from_hex = bombed.to_hex  # the creep spreads from the bombed target
        self._open[("creep", event.target)] = record

    def _on_DamageRolled(self, envelope: Envelope, event: Any, before: Any) -> None:
        kind = getattr(event, "kind", "shot")
        if kind == "autonomous":
            record = self._open.get(("autonomous", event.target))
        elif kind == "creep":
            record = self._open.get(("creep", event.target))
        else:
            record = self._open.get((event.aircraft, event.weapon_index))
        if record is not None:
            record.damaging += event.damaging
            self._damaged = record

    def _on_DamageSuffered(self, envelope: Envelope, event: Any, before: Any) -> None:
        if self._damaged is not None and self._damaged.target == event.aircraft:
            self._damaged.structure_lost += event.hits

    def _on_AircraftDestroyed(self, envelope: Envelope, event: Any, before: Any) -> None:
        if self._damaged is not None and self._damaged.target == event.aircraft:
            self._damaged.destroyed = True

    def _on_GroundTargetDamaged(self, envelope: Envelope, event: Any, before: Any) -> None:
        if self._damaged is not None and self._damaged.target == event.target:
            self._damaged.structure_lost += event.hits

    def _on_GroundTargetDestroyed(self, envelope: Envelope, event: Any, before: Any) -> None:
        if self._damaged is not None and self._damaged.target == event.target:
            self._damaged.destroyed = True


def shot_records(pairs: Iterable[tuple[Envelope, Any, Any]]) -> list[ShotRecord]:
    """The shots among ``(envelope, state before, state after)`` triples (see :meth:`Timeline.pairs`)."""
    reader = _ShotReader()
    for envelope, before, _after in pairs:
        reader.read(envelope, before)
    return reader.records
