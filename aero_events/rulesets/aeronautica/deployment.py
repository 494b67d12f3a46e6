"""Deploying forces at their edges (the Dogfight's set-up, p.34): within three hexes of a player's edge,
each aircraft with a Speed and Altitude chosen by its player.

:func:`edge_deployment` is the simple deployment the demo and tests use: aircraft
spread evenly along the player's edge row, facing the enemy edge, at a Speed and
Altitude in the middle of what their profile allows.
"""

from __future__ import annotations

from aero_events.hexgrid import Board, Edge, Facing

from .forces import ForceList
from .profiles import Catalogue
from .setup import GameSetup, Placement, SideSetup, board_for

#: Players deploy within three hexes of their own edge (p.34).
DEPLOYMENT_DEPTH = 3


def edge_deployment(board: Board, force: ForceList, catalogue: Catalogue, edge: Edge, row_from_edge: int = 1
                    ) -> tuple[Placement, ...]:
    """Spread ``force`` along ``edge`` (north or south), ``row_from_edge`` rows in, facing the far edge."""
    if not 0 <= row_from_edge < DEPLOYMENT_DEPTH:
        raise ValueError(f"deployment is within {DEPLOYMENT_DEPTH} hexes of the edge (p.34)")
    count = len(force.aircraft)
    placements = []
    for index, entry in enumerate(force.aircraft):
        profile = catalogue.aircraft[entry.aircraft]
        column = round((index + 1) * board.columns / (count + 1))
        column = min(max(column, 0), board.columns - 1)
        if edge == Edge.NORTH:
            row, facing = row_from_edge, Facing.S
        else:
            row, facing = board.rows_in_column(column) - 1 - row_from_edge, Facing.N
        hex = board.from_offset(column, row)
        assert board.is_within(hex, edge, DEPLOYMENT_DEPTH)
        speed = (profile.min_speed + profile.max_speed) // 2
        altitude = max(1, (profile.max_altitude + 1) // 2)
        placements.append(Placement(hex=hex, facing=int(facing), speed=speed, altitude=altitude))
    return tuple(placements)


def face_off(first: tuple[str, ForceList], second: tuple[str, ForceList], catalogue: Catalogue,
             board: str = "3x3", last_turn: int = 12, check_points: bool = True) -> GameSetup:
    """Two forces facing each other from the south and north edges."""
    area = board_for(board)
    sides = (
        SideSetup(player=first[0], force=first[1], placements=edge_deployment(area, first[1], catalogue, Edge.SOUTH)),
        SideSetup(player=second[0], force=second[1],
                  placements=edge_deployment(area, second[1], catalogue, Edge.NORTH)),
    )
    return GameSetup(sides=sides, board=board, last_turn=last_turn, check_points=check_points)
