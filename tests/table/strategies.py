"""Hypothesis strategies for table geometry, shared by the table tests."""

from hypothesis import strategies as st

from aero_events.table import Circle, OrientedRect, Polygon, Pose, Sector, Segment, Transform, convex_hull

coordinates = st.integers(min_value=-200_000, max_value=200_000)  # +-2 m of table, in centi-mm
near = st.integers(min_value=-20_000, max_value=20_000)
points = st.tuples(coordinates, coordinates)
headings = st.integers(min_value=0, max_value=35_999)
sizes = st.integers(min_value=1, max_value=10_000)
poses = st.builds(Pose, coordinates, coordinates, headings)
circles = st.builds(Circle, points, sizes)
rects = st.builds(OrientedRect, poses, sizes, sizes)
segments = st.builds(Segment, points, points)


@st.composite
def convex_polygons(draw):
    """A convex polygon with at least three corners (the hull of random points near a centre)."""
    cx, cy = draw(points)
    corners = draw(st.lists(st.tuples(near, near), min_size=3, max_size=8))
    hull = convex_hull([(cx + x, cy + y) for x, y in corners])
    if len(hull) < 3:
        return Polygon(((cx, cy), (cx + 1000, cy), (cx, cy + 1000)))
    return Polygon(hull)


shapes = st.one_of(points, circles, rects, convex_polygons(), segments)
areas = st.one_of(circles, rects, convex_polygons())
half_angles = st.integers(min_value=0, max_value=18_000)
sectors = st.builds(Sector, poses, half_angles, st.one_of(st.none(), st.integers(0, 300_000)))
right_angle_motions = st.builds(Transform, coordinates, coordinates, st.sampled_from([0, 9000, 18000, 27000]))
motions = st.builds(Transform, coordinates, coordinates, headings)


def moved(shape, motion: Transform):
    """``shape`` (a point, shape or sector) carried by the rigid ``motion``."""
    if isinstance(shape, tuple):
        return motion.apply(shape)
    if isinstance(shape, Circle):
        return Circle(motion.apply(shape.centre), shape.radius)
    if isinstance(shape, OrientedRect):
        return OrientedRect(motion.apply_pose(shape.pose), shape.width, shape.length)
    if isinstance(shape, Polygon):
        return Polygon(tuple(motion.apply(p) for p in shape.points))
    if isinstance(shape, Segment):
        return Segment(motion.apply(shape.start), motion.apply(shape.end))
    if isinstance(shape, Sector):
        return Sector(motion.apply_pose(shape.apex), shape.half_angle, shape.radius)
    raise TypeError(shape)
