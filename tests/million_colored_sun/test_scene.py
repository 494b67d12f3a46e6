"""The scene a player sees: models on their warscroll's round bases (mm), facing their heading, AIRBORNE
ACTIONS and Blast Markers named as the rules print them."""

from aero_events.rulesets.million_colored_sun.state import BOMBING_RUN, SHIFT_MODE

from .helpers import RULES, model, state_with, with_model


def _piece(state, piece_id):
    return next(p for p in RULES.scene(state).pieces if p.id == piece_id)


def test_models_stand_on_their_warscroll_bases_facing_their_heading():
    """Warscrolls give base sizes in mm: a bomber on 80 mm, a trooper on 32 mm; heading clockwise from north."""
    state = state_with(model("azure-bomber", "bomber", 20, 10, heading=90),
                       model("crimson-trooper", "infantry", 20, 30, heading=180))
    bomber, trooper = _piece(state, "azure-bomber"), _piece(state, "crimson-trooper")
    assert bomber.footprint.radius == 40.0 and trooper.footprint.radius == 16.0
    assert bomber.heading == 90.0 and trooper.heading == 180.0
    assert (bomber.x, bomber.y) == (20 * 25.4, 10 * 25.4)


def test_airborne_actions_and_blast_markers_read_as_the_rules_print_them():
    """AIRBORNE ACTIONS are named in capitals with spaces ("BOMBING RUN", "SHIFT MODE"), never a command id."""
    state = state_with(model("azure-bomber", "bomber", 20, 10), model("crimson-trooper", "infantry", 20, 30))
    bombing = with_model(state, "azure-bomber", action=BOMBING_RUN, blast_markers=2)
    bomber = _piece(bombing, "azure-bomber")
    assert bomber.detail == "W 10/10 · 2 Blast · BOMBING RUN" and "Blast Markers" in bomber.tags
    assert "action BOMBING RUN" in bomber.hover and "2 Blast Markers" in bomber.hover
    shifting = _piece(with_model(state, "azure-bomber", action=SHIFT_MODE), "azure-bomber")
    assert shifting.detail.endswith("SHIFT MODE") and "-" not in shifting.detail


def test_airborne_models_are_ringed_and_actions_do_not_add_rings():
    """The AIRBORNE mode is ringed on the board (it changes who may attack the model); the action taken is
    a word in its line, so rings stay few and distinct."""
    state = state_with(model("azure-fighter", "fighter", 20, 10), model("crimson-trooper", "infantry", 20, 30))
    fighter = _piece(with_model(state, "azure-fighter", action=BOMBING_RUN), "azure-fighter")
    assert fighter.tags == ("AIRBORNE",) and fighter.detail.endswith("BOMBING RUN")
    assert _piece(state, "crimson-trooper").tags == ()
