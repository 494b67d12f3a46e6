"""Deterministic placement: the nearest free position by a ring search on a grid.

A Million Coloured Sun (spec, "Overlap fix-ups": "as closely as possible", "reposition the minimum
distance") and WHFB placements ask for the nearest point where a piece fits. The search visits the
grid points ``start + (i, j) * step`` in order of exact distance from ``start``, and points at the
same distance clockwise from north (bearing 0 first, then east, south, west), and returns the first
one the caller's ``is_free`` accepts. The order is exact integer arithmetic, so every platform
places the piece on the same spot.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator

from aero_events.table.pose import Point
from aero_events.table.units import MM


def _ring(k: int) -> Iterator[tuple[int, int]]:
    """The grid offsets with ``max(|i|, |j|) == k``."""
    if k == 0:
        yield (0, 0)
        return
    for i in range(-k, k + 1):
        yield (i, k)
        yield (i, -k)
    for j in range(-k + 1, k):
        yield (k, j)
        yield (-k, j)


def _key(i: int, j: int) -> tuple[int, int, int]:
    """Distance first, then clockwise bearing from north: on one circle the bearing is monotone in ``j``."""
    east_half = 0 if i > 0 or (i == 0 and j > 0) else 1
    return (i * i + j * j, east_half, -j if east_half == 0 else j)


def search_order(step: int = MM, max_distance: int = 100 * MM) -> Iterator[Point]:
    """Offsets ``(dx, dy)`` on a ``step`` grid within ``max_distance``, nearest first, ties clockwise from north."""
    if step <= 0 or max_distance < 0:
        raise ValueError("the grid step must be positive and the search distance not negative")
    limit2 = max_distance * max_distance
    heap: list[tuple[tuple[int, int, int], int, int]] = []
    ring = 0
    while True:
        # every offset nearer than the next ring's inner distance is already queued
        while (not heap or ring * ring <= heap[0][0][0]) and ring * step <= max_distance:
            for i, j in _ring(ring):
                heapq.heappush(heap, (_key(i, j), i, j))
            ring += 1
        if not heap:
            return
        (d2, _, _), i, j = heapq.heappop(heap)
        if d2 * step * step > limit2:
            return
        yield (i * step, j * step)


def nearest_free_position(
    start: Point, is_free: Callable[[Point], bool], step: int = MM, max_distance: int = 100 * MM
) -> Point | None:
    """The first point in ``search_order`` around ``start`` that ``is_free`` accepts, or None."""
    for dx, dy in search_order(step, max_distance):
        point = (start[0] + dx, start[1] + dy)
        if is_free(point):
            return point
    return None
