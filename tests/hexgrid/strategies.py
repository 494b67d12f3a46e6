"""Hypothesis strategies for hex-grid values, shared by the hexgrid tests."""

from hypothesis import strategies as st

from aero_events.hexgrid import Facing, Hex, Pose

coordinates = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coordinates, coordinates)
facings = st.sampled_from(list(Facing))
poses = st.builds(Pose, hexes, facings)
rotation_steps = st.integers(min_value=-13, max_value=13)
nearby_offsets = st.builds(Hex, st.integers(-12, 12), st.integers(-12, 12))
