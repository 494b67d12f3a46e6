"""Game set-up and the Cruiser Clash (Scenario One, rulebook p.68; the text refers to it on p.31).

The scenario's figures are in ``data/cruiser_clash.json`` with their confidence marks: 1-4 cruisers a side,
the same number each, each of at most 185 points; Leadership rolled per ship (p.10); deployment zones on the
long edges, ships facing the opposite edge; 8 turns each; 1 point per damage point inflicted, +1 for each enemy
ship crippled, +3 instead for each destroyed (a hulk counts as destroyed); most points wins.

Choices, documented: deployment is not played out move by move; ships stand evenly spaced across the middle
of their zone (``deploy``), the side rolled for zone A (a D6, 1-3) taking the south edge. The roll for zone
is made from the seed handed to the scenario's ``build``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import msgspec

from aero_events.core.errors import DataError

from .data import CM, GameData, default_data
from .state import GameState, ShipState


class ShipSetup(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    side: str
    class_id: str
    x: int
    y: int
    heading: int
    leadership: int = 0  # 0: rolled when the battle begins (p.10)
    squadron: str = ""  # ships of one squadron share a Command check; escorts share Leadership (p.10-11)


class GameSetup(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[str, str]
    ships: tuple[ShipSetup, ...]
    scenario: str = "cruiser-clash"
    last_round: int = 8
    table: tuple[int, int] = (180 * CM, 120 * CM)


def build_initial_state(setup: GameSetup, data: GameData) -> GameState:
    ships = {}
    for entry in setup.ships:
        if entry.class_id not in data.classes:
            raise DataError(f"unknown ship class {entry.class_id!r}", source="setup", location=entry.id,
                            field="class_id")
        if entry.side not in setup.players:
            raise DataError(f"side {entry.side!r} is not a player", source="setup", location=entry.id, field="side")
        if entry.id in ships:
            raise DataError("duplicate ship id", source="setup", location=entry.id, field="id")
        cls = data.classes[entry.class_id]
        ships[entry.id] = ShipState(id=entry.id, name=entry.name, side=entry.side, class_id=entry.class_id,
                                    x=entry.x, y=entry.y, heading=entry.heading % 36000,
                                    leadership=entry.leadership, last_move=cls.speed_cm * CM,
                                    squadron=entry.squadron)
    return GameState(players=setup.players, ships=ships, last_round=setup.last_round, table=setup.table)


def check_fleets(fleets: Mapping[str, list[str]], data: GameData, source: str = "cruiser clash",
                 points_cap: bool = True) -> None:
    """Cruiser Clash forces (CC, R): 1-4 cruisers a side, equal numbers, each at most 185 points (the
    scenario's Alternatives, R p.129, lift the cap: ``points_cap=False``)."""
    rules = data.cruiser_clash
    low, high = rules["cruisers_per_side"].value
    cap = rules["max_points_per_ship"].value if points_cap else 10**9
    counts = set()
    for side, classes in fleets.items():
        if not low <= len(classes) <= high:
            raise DataError(f"{len(classes)} cruisers; the Cruiser Clash takes {low}-{high} a side", source=source,
                            location=side, field="ships")
        counts.add(len(classes))
        for class_id in classes:
            cls = data.classes.get(class_id)
            if cls is None:
                raise DataError(f"unknown ship class {class_id!r}", source=source, location=side, field="ships")
            if cls.type != "cruiser":
                raise DataError(f"{cls.name} is not a cruiser", source=source, location=side, field="ships")
            if cls.points > cap:
                raise DataError(f"{cls.name} costs {cls.points} points; at most {cap} each", source=source,
                                location=side, field="ships")
    if len(counts) > 1:
        raise DataError("both sides field the same number of cruisers", source=source, location="fleets",
                        field="ships")


def _zone_roll(seed: int | str) -> int:
    return hashlib.sha256(f"cruiser-clash-zone:{seed}".encode()).digest()[0] % 6 + 1


def cruiser_clash(fleets: Mapping[str, list[str]] | None = None, seed: int | str = 0, data: GameData | None = None,
                  leadership: Mapping[str, int] | None = None, points_cap: bool = True) -> GameSetup:
    """A Cruiser Clash set-up with fleets checked (default: Lunar and Gothic against Murder and Slaughter)."""
    data = data or default_data()
    rules = data.cruiser_clash
    fleets = dict(fleets or rules["default_fleets"].value)
    check_fleets(fleets, data, points_cap=points_cap)
    players = tuple(fleets)
    if len(players) != 2:
        raise DataError("the Cruiser Clash is for two sides", source="cruiser clash", location="fleets")
    south, north = players if _zone_roll(seed) <= 3 else players[::-1]
    names = rules["ship_names"].value
    ships = []
    for side, zone, heading in ((south, "zone_a_cm", 0), (north, "zone_b_cm", 18000)):
        x0, y0, x1, y1 = rules[zone].value
        count = len(fleets[side])
        for index, class_id in enumerate(fleets[side]):
            x = (x0 + (x1 - x0) * (index + 1) // (count + 1)) * CM
            y = (y0 + y1) * CM // 2
            side_names = names.get(side, [])
            name = side_names[index] if index < len(side_names) else f"{side} {index + 1}"
            ships.append(ShipSetup(id=f"{side}-{index + 1}", name=name, side=side, class_id=class_id, x=x, y=y,
                                   heading=heading, leadership=(leadership or {}).get(f"{side}-{index + 1}", 0)))
    table = tuple(v * CM for v in data.figure("table_cm"))
    return GameSetup(players=players, ships=tuple(ships), scenario="cruiser-clash",
                     last_round=rules["game_turns"].value, table=table)


def scenario_build(options: Mapping[str, Any], seed: int) -> GameSetup:
    fleets = options.get("fleets")
    if fleets is not None:
        _check_fleet_shape(fleets, options.get("players"))
    return cruiser_clash(fleets, seed, points_cap=options.get("points_cap", True))


def _check_fleet_shape(fleets: Any, players: Any) -> None:
    """A matchup's ``fleets``: each playing side's name and its list of ship class ids."""
    if not isinstance(fleets, Mapping) or not all(
            isinstance(side, str) and isinstance(classes, list | tuple) and all(isinstance(c, str) for c in classes)
            for side, classes in fleets.items()):
        raise DataError("fleets maps each side to a list of ship class ids", source="cruiser clash",
                        field="fleets")
    if players is not None and set(fleets) != set(players):
        raise DataError(f"fleets are for the sides playing ({', '.join(players)}), not {', '.join(fleets)}",
                        source="cruiser clash", field="fleets")
