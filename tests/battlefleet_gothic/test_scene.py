"""The scene a player sees: bases at their data-page size, facing, fire arcs of the ship pointed at,
orders and criticals in the rulebook's words, Blast markers to scale with what they do."""

from aero_events.rulesets.battlefleet_gothic.state import DESTROYED, DISENGAGED, LOCK_ON, BlastMarker

from .helpers import RULES, replace, ship, state_with, with_ship

AGRIPPA = ship("agrippa", "imperial", "lunar", 60, 20, heading_deg=0, name="Agrippa")
UNCLEAN = ship("unclean", "chaos", "murder", 60, 100, heading_deg=180, name="Unclean")


def test_cruisers_stand_on_small_flying_bases_facing_their_heading():
    """Small flying base Ø 32 mm (Remastered p.44, data page); heading in degrees clockwise from north."""
    scene = RULES.scene(state_with(AGRIPPA, UNCLEAN))
    pieces = {p.id: p for p in scene.pieces}
    assert pieces["agrippa"].footprint.radius == 16.0 and pieces["unclean"].footprint.radius == 16.0
    assert (pieces["agrippa"].x, pieces["agrippa"].y, pieces["agrippa"].heading) == (600.0, 200.0, 0.0)
    assert pieces["unclean"].heading == 180.0
    assert pieces["agrippa"].label == "Agrippa" and pieces["agrippa"].model.startswith("Lunar")


def test_fire_arcs_are_shaded_for_the_focused_ship_only():
    """Fire arcs (p.8) of every ship at once cover the table; only the ship pointed at has them shaded."""
    state = state_with(AGRIPPA, UNCLEAN)
    assert not [t for t in RULES.scene(state).templates if t.kind.startswith("fire arc")]
    arcs = [t for t in RULES.scene(state, None, (), "agrippa").templates if t.kind.startswith("fire arc")]
    assert arcs and all(t.label.startswith("Agrippa") for t in arcs)
    left = next(t for t in arcs if t.kind == "fire arc left")  # port: west of a ship facing north
    assert left.points[0] == (600.0, 200.0) and all(x <= 600.0 + 1e-6 for x, _ in left.points)


def test_orders_and_critical_damage_are_named_as_the_rulebook_prints_them():
    """Special orders (p.14) in capitals, critical hits by the Critical Hits table's names (p.24)."""
    state = with_ship(state_with(AGRIPPA, UNCLEAN), "agrippa", order=LOCK_ON,
                      criticals=("shields_collapse", "prow_armament"))
    agrippa = next(p for p in RULES.scene(state).pieces if p.id == "agrippa")
    names = {row.id: row.name for row in RULES.data.tables.criticals.rows}
    assert agrippa.tags == ("LOCK ON", names["shields_collapse"], names["prow_armament"])
    assert not any("_" in tag for tag in agrippa.tags)
    assert names["shields_collapse"] in agrippa.hover


def test_blast_markers_are_drawn_to_scale_and_say_what_they_do():
    """Blast marker Ø 2.5 cm (data page, reconstruction); p.25: they stop shields and slow ships."""
    state = replace(state_with(AGRIPPA, UNCLEAN), blast_markers={"1": BlastMarker(60_000, 23_000)})
    marker = next(m for m in RULES.scene(state).markers if m.kind == "blast marker")
    assert marker.shape.radius == 12.5 and (marker.x, marker.y) == (600.0, 230.0)
    assert "shield" in marker.hover and "5 cm" in marker.hover


def test_a_crippled_ship_says_so_beside_its_damage():
    """A ship with half its Hits or more lost is crippled (p.23): the scene marks it, a player need not count."""
    state = with_ship(state_with(AGRIPPA, UNCLEAN), "agrippa", damage=4)
    agrippa = next(p for p in RULES.scene(state).pieces if p.id == "agrippa")
    assert agrippa.status == "crippled" and agrippa.detail == "damage 4/8, crippled" and "(crippled)" in agrippa.hover
    intact = next(p for p in RULES.scene(state_with(AGRIPPA, UNCLEAN)).pieces if p.id == "agrippa")
    assert intact.status == "active" and intact.detail == "damage 0/8"


def test_destroyed_and_disengaged_ships_stay_where_they_were_lost():
    """A ship destroyed (Catastrophic Damage, p.26) or disengaged (its stem left the table, Movement) is out of
    play: drawn at its last place, marked so, with no fire arcs."""
    state = with_ship(with_ship(state_with(AGRIPPA, UNCLEAN), "agrippa", status=DESTROYED), "unclean",
                      status=DISENGAGED)
    pieces = {p.id: p for p in RULES.scene(state, None, (), "agrippa").pieces}
    assert pieces["agrippa"].status == "destroyed" and (pieces["agrippa"].x, pieces["agrippa"].y) == (600.0, 200.0)
    assert pieces["unclean"].status == "disengaged"
    assert not [t for t in RULES.scene(state, None, (), "agrippa").templates if t.kind.startswith("fire arc")]


def test_a_ship_that_left_the_table_is_drawn_on_the_edge_it_left_by():
    """A disengaged ship's last move may end far beyond the edge: it is drawn on that edge, not off the board."""
    state = with_ship(state_with(AGRIPPA, UNCLEAN), "unclean", status=DISENGAGED, y=130_000)
    unclean = next(p for p in RULES.scene(state).pieces if p.id == "unclean")
    assert (unclean.x, unclean.y) == (600.0, 1200.0)
