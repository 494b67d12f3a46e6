"""A ruleset from outside the package that declares its rule options gets variant files from the core with no
code of its own (core/interface.py ``options_type``, ``VariantDefinition``): ``aero demo --ruleset FILE``
plays and stores the variant, and the stored game is rebuilt from its metadata once the file is forgotten."""

from __future__ import annotations

import json
from typing import Annotated, ClassVar

import msgspec
import pytest

from aero_events.cli import main
from aero_events.core import DataError
from aero_events.core.interface import forget_variant
from aero_events.core.registry import register_ruleset, unregister_ruleset
from aero_events.regress import from_store, rerun
from aero_events.store import EventStore
from tests.support.plugin_ruleset import BASE_DISTANCE, PawnRules

NAME = "pawn-options/v1"


class PawnOptions(msgspec.Struct, frozen=True, kw_only=True):
    """How far an order moves a pawn before the drift die (the plugin's "Movement")."""

    advance_mm: Annotated[int, msgspec.Meta(ge=0, le=200, description="base distance of an advance")] = \
        BASE_DISTANCE["advance"]
    hold_mm: Annotated[int, msgspec.Meta(ge=0, le=200, description="base distance of a hold")] = \
        BASE_DISTANCE["hold"]


class PawnRulesWithOptions(PawnRules):
    """Pawns whose base distances are rule options, read through ``self.options``."""

    name: ClassVar[str] = NAME
    options_type: ClassVar[type] = PawnOptions

    def __init__(self, options: PawnOptions | None = None):
        self.options = options or PawnOptions()

    @property
    def base_distance(self) -> dict[str, int]:  # type: ignore[override]
        return {"advance": self.options.advance_mm, "hold": self.options.hold_mm}


@pytest.fixture
def pawn_options():
    register_ruleset(NAME, PawnRulesWithOptions, default=True)
    yield
    forget_variant("club/long-advance")
    unregister_ruleset(NAME)


@pytest.fixture
def variant_file(tmp_path, pawn_options):
    path = tmp_path / "long-advance.json"
    path.write_text(json.dumps({"name": "club/long-advance", "base": NAME, "description": "advance 80 mm",
                                "options": {"advance_mm": 80}}))
    return path


def test_a_plugin_variant_is_played_stored_and_rebuilt_from_the_game_alone(tmp_path, variant_file, capsys):
    db = tmp_path / "pawns.duckdb"
    assert main(["demo", "--ruleset", str(variant_file), "--seed", "3", "--db", str(db)]) == 0
    assert "verify: ok" in capsys.readouterr().out
    forget_variant("club/long-advance")  # as in a process that never read the file
    with EventStore(db) as store:
        (game,) = store.games()
        assert game.ruleset == "club/long-advance"
        rules = store.ruleset(game.id)
        assert rules.options == PawnOptions(advance_mm=80) and isinstance(rules, PawnRulesWithOptions)
        moves = [env.event for env in store.events(game.id) if env.type == "pawns.PawnMoved"]
        assert any(event.distance >= 80 for event in moves)  # only an 80 mm advance moves that far
        recorded = from_store(store, game.id)
        assert rerun(recorded, recorded.own_rules()).identical
        assert not rerun(recorded, PawnRulesWithOptions()).identical


def test_a_plugin_option_out_of_its_bounds_is_refused(tmp_path, pawn_options):
    path = tmp_path / "bad.toml"
    path.write_text(f'name = "club/far"\nbase = "{NAME}"\n[options]\nhold_mm = 500\n')
    with pytest.raises(DataError) as caught:
        PawnRulesWithOptions.variant_from_file(str(path))
    assert caught.value.field == "options.hold_mm" and "<= 200" in caught.value.detail
