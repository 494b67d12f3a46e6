"""Wings of Glory as a client of the shared engine: planned cards are secret commands that no other player's
view of the stored log shows before the card is flown (PLANNING, MOVEMENT), and the hand-written notation
reads back every legal command."""

from __future__ import annotations

import msgspec
import pytest

from aero_events.core import RuleError
from aero_events.core.interface import RecorderGuide
from aero_events.core.orders import OrdersRevealed
from aero_events.core.secrets import RedactedEvent, redact
from aero_events.core.session import SecretCommandIssued
from aero_events.rulesets.wings_of_glory import WingsOfGloryRules, play_bot_game
from aero_events.rulesets.wings_of_glory import commands as c
from aero_events.rulesets.wings_of_glory.events import CardPlanned

RULES = WingsOfGloryRules()
OTHER = {"RAF": "Luftwaffe", "Luftwaffe": "RAF"}


def _planned_cards(events):
    """Each planned card as (owner, step, plane, card, seq planned)."""
    return [(env.event.owner, env.event.step, env.event.slot, env.event.order, env.seq) for env in events
            if isinstance(env.event, CardPlanned)]


def _reveal_seq(events, step, plane):
    return next(env.seq for env in events if isinstance(env.event, OrdersRevealed) and env.event.step == step
                and any(order.slot == plane for order in env.event.orders))


def _assert_hidden_until_flown(events, viewer, referee_events):
    """No event ``viewer`` sees between a card of the other side being planned and it being revealed names
    that card: the plan and its command appear only as commitments."""
    for owner, step, plane, card, planned_at in _planned_cards(referee_events):
        if owner == viewer:
            continue
        try:
            revealed_at = _reveal_seq(referee_events, step, plane)
        except StopIteration:  # never flown: the plane was out first, or the game ended
            revealed_at = referee_events[-1].seq + 1
        for env in events:
            if not planned_at - 1 <= env.seq < revealed_at:
                continue
            event = env.event
            if isinstance(event, RedactedEvent):
                assert "order" not in event.public and "command" not in event.public
                continue
            if isinstance(event, CardPlanned | SecretCommandIssued):
                assert event.owner == viewer, (viewer, env.seq)
            if isinstance(event, OrdersRevealed):
                assert all(order.slot != plane or event.step != step for order in event.orders)


def test_a_planned_card_is_a_secret_command():
    """PLANNING: "each player ... places [a card] face down": the command is recorded sealed, so that
    `aero record` asks for it unseen."""
    assert RULES.is_secret_command(c.PlanCard(player="RAF", plane="spit", card=3))
    assert not RULES.is_secret_command(c.Fire(player="RAF", plane="spit", gun=0, target="bf"))
    session = play_bot_game("dogfight", seed=2, rules=RULES)
    issued = [env.event for env in session.events() if isinstance(env.event, SecretCommandIssued)]
    plans = _planned_cards(session.events())
    assert len(issued) == len(plans) > 0
    assert all(event.command["command"] == "wog.PlanCard" for event in issued)
    decision = RecorderGuide(RULES).decision(session.state_at(1))
    assert decision is not None and decision.secret


def test_no_player_sees_the_other_sides_planned_card_before_it_is_flown():
    """PLANNING and MOVEMENT: the session's per-player log shows another player's card only once revealed."""
    session = play_bot_game("dogfight", seed=2, rules=RULES)
    referee = session.events()
    for viewer in ("RAF", "Luftwaffe"):
        _assert_hidden_until_flown(session.events_for(viewer), viewer, referee)
    shown = [env.event for env in session.events_for("RAF") if isinstance(env.event, OrdersRevealed)]
    assert any(order.owner == "Luftwaffe" for event in shown for order in event.orders)


def test_the_stored_log_read_back_for_a_player_keeps_the_cards_hidden(tmp_path):
    """The store keeps the events whole; what a player reads from it (redacted, as `aero show --player` does)
    never shows the other side's card before it is flown."""
    from aero_events.core.registry import register_ruleset
    from aero_events.store import EventStore

    register_ruleset("wings-of-glory/bob-2017", WingsOfGloryRules)
    session = play_bot_game("bombing", seed=2, rules=RULES)
    with EventStore(tmp_path / "wog.duckdb") as store:
        store.save_session(session)
        stored = store.events(session.game_id)
    assert [env.event for env in stored] == [env.event for env in session.events()]
    for viewer in ("RAF", "Luftwaffe"):
        seen = [msgspec.structs.replace(env, event=redact(env.event, viewer)) for env in stored]
        _assert_hidden_until_flown(seen, viewer, stored)


@pytest.mark.parametrize("scenario,seed", [("dogfight", 2), ("bombing", 2), ("convoy", 1)])
def test_every_legal_command_reads_back_from_its_notation(scenario, seed):
    """The notation round-trips: at many points of a played game, for each player, formatting then parsing
    every legal command gives back the same command."""
    session = play_bot_game(scenario, seed=seed, rules=RULES)
    notation = RULES.notation()
    kinds = set()
    for env in session.events()[::5]:
        state = session.state_at(env.seq)
        for player in RULES.players(state):
            for command in RULES.legal_commands(state, player):
                text = notation.format(state, command)
                assert notation.parse(state, player, text) == command, text
                kinds.add(type(command).__name__)
    assert {"PlanCard", "Fire", "Done"} <= kinds


def test_the_notation_reads_what_people_write():
    notation = RULES.notation()
    parse = notation.parse
    assert parse(None, "RAF", "spitfire-1 plans 12") == c.PlanCard(player="RAF", plane="spitfire-1", card=12)
    assert parse(None, "RAF", "  spitfire-2 fires at  bf109-1 ") == c.Fire(player="RAF", plane="spitfire-2", gun=0,
                                                                          target="bf109-1")
    assert parse(None, "Luftwaffe", "bf110-1 fires gun 1 at spitfire-2 with perfect aim sniping B") == c.Fire(
        player="Luftwaffe", plane="bf110-1", gun=1, target="spitfire-2", perfect_aim=True, sniper="B")
    assert parse(None, "RAF", "floor 2") == c.ChangeFloor(player="RAF", floor=2)
    assert parse(None, "RAF", "sniper gives token 1") == c.SniperPick(player="RAF", choice=1)
    assert parse(None, "RAF", "done") == c.Done(player="RAF")
    assert notation.subject(c.PlanCard(player="RAF", plane="spitfire-1", card=12)) == "spitfire-1"
    for wrong in ("spitfire-1 plans twelve", "spitfire-1 fires bf109-1", "spitfire-1 loops", "", "done now"):
        with pytest.raises(RuleError, match="Notation|cannot read|whole number|empty") as caught:
            parse(None, "RAF", wrong)
        assert caught.value.rule == "Notation"


def test_a_stored_game_re_runs_identically_with_its_damage_draws(tmp_path):
    """`aero regress`: a stored bombing mission, its damage tokens drawn face down from the pools (DAMAGE), is
    re-decided from its recorded commands and draws and gives the same events."""
    from aero_events.core.registry import register_ruleset
    from aero_events.regress import rerun
    from aero_events.regress.recorded import from_store
    from aero_events.store import EventStore

    register_ruleset("wings-of-glory/bob-2017", WingsOfGloryRules)
    session = play_bot_game("bombing", seed=2, rules=RULES)
    assert any(env.event.type_name() == "SecretPoolDrawn" for env in session.events())
    with EventStore(tmp_path / "wog.duckdb") as store:
        store.save_session(session)
        game = from_store(store, session.game_id)
    report = rerun(game, RULES)
    assert report.error is None and report.identical, report


def test_a_game_is_written_in_the_record_format_and_read_back():
    """The `.aero` record writes each command in the notation (`RAF "spitfire-1 plans 1"`) and replays to the
    same events (write_record verifies the round trip)."""
    from aero_events.core.registry import register_ruleset
    from aero_events.record.record_format import read_record, write_record

    register_ruleset("wings-of-glory/bob-2017", WingsOfGloryRules)
    session = play_bot_game("dogfight", seed=2, rules=RULES)
    text = write_record(session.game)
    assert 'RAF "spitfire-1 plans 1"' in text and "fires" in text
    replayed = read_record(text)
    assert [env.event for env in replayed.game.main.envelopes()] == [env.event for env in session.events()]


def test_the_scene_labels_each_plane_by_its_id_so_two_spitfires_are_told_apart():
    """Two planes of one model must not read alike on the board (the visual check found both Spitfires
    labelled "Supermarine Spitfire Mk.I"); the model goes in ``model``, the phase in words in the caption."""
    from aero_events.core.registry import get_ruleset
    from aero_events.rulesets.wings_of_glory import play_bot_game

    session = play_bot_game("dogfight", 3)
    rules = get_ruleset("wings-of-glory")
    scene = rules.scene(session.state_at(40), None)
    planes = [piece for piece in scene.pieces if piece.kind == "plane"]
    assert len({piece.label for piece in planes}) == len(planes)
    assert all(piece.label == piece.id for piece in planes)
    assert all(piece.model and piece.model != piece.id for piece in planes)
    assert "3a" not in scene.caption.split(", ")[-1] or "firing" in scene.caption
