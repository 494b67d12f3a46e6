"""The fast fold (issue 18): each event goes straight to one reducer, and the reducers take short cuts that
change nothing a replay can see. Every short cut is checked here against the rule it stands for, written out
plainly, over the states of seeded games (Dogfights 1 against 1 to 4 against 4, baseline and greedy bots)."""

from __future__ import annotations

import msgspec
import pytest

from aero_events.core import DiceRolled, GameSession, SecretMismatch, TapeDice, state_hash
from aero_events.core.secrets import commitment
from aero_events.rulesets.aeronautica import AeronauticaRules, RuleOptions, firing, movement, turn
from aero_events.rulesets.aeronautica import ruleset as aeronautica
from aero_events.rulesets.aeronautica.bots import BaselineBot, GreedyBot
from aero_events.rulesets.aeronautica.events import (
    ManoeuvreChosen,
    ManoeuvreFlown,
    ManoeuvreRevealed,
    PhaseBegan,
    TailingDetermined,
    ThrottleSet,
    VolleyEnded,
)
from aero_events.rulesets.aeronautica.state import END, TAILING_FIRE, GameState
from tests.support.dogfights import played_dogfight

RULES = AeronauticaRules()
replace = msgspec.structs.replace


def dogfight(size: int, seed: int, bots, rules: AeronauticaRules = RULES) -> GameSession:
    return played_dogfight(size, seed, bots, f"fold-{size}-{seed}", rules)


@pytest.fixture(scope="module")
def sessions() -> list[GameSession]:
    player_choice = AeronauticaRules(options=RuleOptions(tailing_choice="player"))
    return [dogfight(1, 0, (BaselineBot, BaselineBot)), dogfight(2, 1, (BaselineBot, BaselineBot)),
            dogfight(4, 2, (BaselineBot, BaselineBot)), dogfight(1, 3, (GreedyBot, BaselineBot)),
            dogfight(2, 4, (BaselineBot, GreedyBot), rules=player_choice)]


def states_and_events(session: GameSession):
    """Each event of the game with the state before it."""
    state = session.game.initial_state
    for envelope in session.events():
        yield state, envelope.event
        state = session.ruleset.evolve(state, envelope.event)


# ---------------------------------------------------------------- the fold


def test_a_fold_reaches_the_state_of_every_event_applied_one_at_a_time(sessions):
    """``fold`` (its loop over the dispatch table) and ``evolve`` event by event give the same states, also
    when the events come in pieces (a fold from a mid-game state), and the state hash the game recorded."""
    for session in sessions:
        rules = type(session.ruleset)(options=session.ruleset.options)
        events = [envelope.event for envelope in session.events()]
        state = session.game.initial_state
        for start in range(0, len(events), 29):
            state = rules.fold(state, events[start:start + 29])
            assert state == session.state_at(min(start + 29, len(events)))
        assert state_hash(state) == session.state_hash()


def test_a_replay_from_the_record_checks_every_state_checkpoint(sessions):
    for session in sessions:
        replay = GameSession(type(session.ruleset)(options=session.ruleset.options), session.game.setup,
                             dice=TapeDice([]), game_id=session.game_id)
        replay.record(session.events())
        assert replay.state_hash() == session.state_hash()


def test_each_event_type_goes_straight_to_one_reducer():
    """One look-up from the event's type to the function that applies it: a part's own table entry when one
    part names the type; core events and dice change nothing (None)."""
    assert aeronautica.reducer_for(ManoeuvreFlown) is movement._flown
    assert aeronautica.reducer_for(PhaseBegan) is turn._phase_began
    assert aeronautica.reducer_for(VolleyEnded) is firing._volley_ended
    from aero_events.core import CommandIssued, StateCheckpoint

    assert aeronautica.reducer_for(DiceRolled) is None
    assert aeronautica.reducer_for(CommandIssued) is None
    assert aeronautica.reducer_for(StateCheckpoint) is None


def test_every_event_type_of_the_ruleset_has_its_reducer():
    """Each Aeronautica event type is applied by a function: its part's table entry when the part has one."""
    from aero_events.core import Event
    from aero_events.rulesets.aeronautica import events

    types = [t for t in vars(events).values() if isinstance(t, type) and issubclass(t, Event)
             and t.__module__ == events.__name__ and not t.abstract_event]
    assert len(types) > 50
    for event_type in types:
        reduce = aeronautica.reducer_for(event_type)
        assert reduce is not None, event_type.__name__
        tables = [part._REDUCERS for part in aeronautica.PARTS if event_type in getattr(part, "_REDUCERS", {})]
        if len(tables) == 1 and len(aeronautica.parts_for(event_type)) == 1:
            assert reduce is tables[0][event_type], event_type.__name__


def test_an_event_two_parts_may_apply_goes_to_the_first_that_takes_it():
    """RollAccepted: a re-roll outside a volley (rerolls) is taken first, else the volley's (firing)."""
    from aero_events.rulesets.aeronautica.events import RollAccepted

    reduce = aeronautica.reducer_for(RollAccepted)
    assert reduce is not firing._REDUCERS[RollAccepted]  # the two parts, offered in order
    assert aeronautica.parts_for(RollAccepted)[-1] is firing._REDUCERS[RollAccepted]


# ---------------------------------------------------------------- the short cuts, against the plain rule


def plain_next_to_act(state: GameState, just_acted: str) -> str | None:
    """p.14: alternate; a side with aircraft left moves them one after another once the other is done."""
    other = state.opponent(just_acted)
    for player in (other, just_acted):
        if any(turn.eligible_to_move(a) for a in state.aircraft.values() if a.owner == player):
            return player
    return None


def plain_has_eligible(state: GameState, player: str) -> bool:
    """p.14, p.20: a player who has not passed and has an aircraft that may fire in this phase."""
    return player not in state.passed and any(firing.may_fire(state, a) for a in state.aircraft.values()
                                              if a.owner == player)


def test_who_moves_next_is_the_rule_of_alternating_movement(sessions):
    """next_to_act (one pass over the aircraft, a moved aircraft passed by first) against p.14 as written."""
    seen = 0
    for session in sessions:
        for state, _ in states_and_events(session):
            for player in state.players:
                assert turn.next_to_act(state, player) == plain_next_to_act(state, player)
                seen += 1
    assert seen > 1000


def test_who_fires_next_is_the_rule_of_alternating_fire(sessions):
    """next_to_fire / first_to_fire (aircraft that have fired, or tail nothing in the Tailing Fire phase,
    passed by without asking the full refusal) against p.13-14 and p.20 as written, in every state."""
    tailing_phases = 0
    for session in sessions:
        for state, _ in states_and_events(session):
            tailing_phases += state.phase == TAILING_FIRE
            for player in state.players:
                assert firing._has_eligible(state, player) == plain_has_eligible(state, player)
                other = state.opponent(player)
                expected = other if plain_has_eligible(state, other) else (
                    player if plain_has_eligible(state, player) else None)
                assert firing.next_to_fire(state, player) == expected
                first = player if plain_has_eligible(state, player) else (
                    other if plain_has_eligible(state, other) else None)
                assert firing.first_to_fire(state, player) == first
    assert tailing_phases > 0


def test_the_revealed_manoeuvre_is_checked_against_its_commitment(sessions):
    """p.13: the token is placed face down; the reveal must be the manoeuvre committed to (a SHA-256 of the
    choice and its salt): the reducer's check agrees with ``core.secrets.commitment`` in ``evolve`` and in a
    fold; a wrong manoeuvre or salt is refused."""
    start = sessions[0].game.initial_state
    key, aircraft = next(iter(start.aircraft.items()))
    for number in range(12):
        for salt in ("", "f9e3d186e3e48760de45bf125025d05d", "salt with spaces"):
            expected = commitment({"manoeuvre": number}, salt)
            state = replace(start, aircraft={**start.aircraft, key: replace(aircraft, commitment=expected)})
            honest = ManoeuvreRevealed(aircraft=key, manoeuvre=number, salt=salt)
            assert RULES.evolve(state, honest).aircraft[key].revealed == number
            assert RULES.fold(state, [honest]).aircraft[key].revealed == number
            for forged in (replace(honest, manoeuvre=number + 1), replace(honest, salt=salt + "0")):
                for apply in (RULES.evolve, lambda state, event: RULES.fold(state, [event])):
                    with pytest.raises(SecretMismatch):
                        apply(state, forged)


def test_a_fold_refuses_a_reveal_that_is_not_the_committed_manoeuvre(sessions):
    session = sessions[0]
    events = [envelope.event for envelope in session.events()]
    at = next(i for i, event in enumerate(events) if isinstance(event, ManoeuvreRevealed))
    state = RULES.fold(session.game.initial_state, events[:at])
    honest = events[at]
    forgeries = (replace(honest, manoeuvre=honest.manoeuvre % 6 + 1),
                 replace(honest, salt=(honest.salt or "") + "0"))
    for forged in forgeries:
        with pytest.raises(SecretMismatch):
            RULES.fold(state, [forged])
    assert RULES.fold(state, [honest]).aircraft[honest.aircraft].revealed == honest.manoeuvre
    for forged in forgeries:  # the honest reveal, proved (and remembered), proves nothing for another value
        with pytest.raises(SecretMismatch):
            RULES.fold(state, [forged])


def test_an_event_that_changes_nothing_leaves_the_state_as_it_was(sessions):
    """TailingDetermined naming what the aircraft already tails (most often nothing, after the End phase
    cleared Tailing, p.30), a Throttle leaving the Speed dial as it was: the state the full update gives."""
    unchanged = {TailingDetermined: 0, ThrottleSet: 0}
    for session in sessions:
        for state, event in states_and_events(session):
            if type(event) not in unchanged:
                continue
            after = session.ruleset.evolve(state, event)
            aircraft = state.aircraft[event.aircraft]
            if isinstance(event, TailingDetermined):
                full = replace(aircraft, tailing=event.target, tailing_candidates=event.candidates)
            else:
                full = replace(aircraft, speed=event.speed, may_land=after.aircraft[aircraft.id].may_land)
            assert after.aircraft[aircraft.id] == full
            assert list(after.aircraft) == list(state.aircraft)  # the same order of aircraft
            if full == aircraft:
                unchanged[type(event)] += 1
    assert all(unchanged.values()), unchanged


def test_every_phase_change_keeps_the_aircraft_in_their_order(sessions):
    """PhaseBegan copies the aircraft mapping only when an aircraft changes (fired reset, Tailing expired,
    p.20, p.30); the order of the aircraft (and so the encoded state) is that of the game's set-up."""
    for session in sessions:
        order = list(session.game.initial_state.aircraft)
        for state, event in states_and_events(session):
            if isinstance(event, (PhaseBegan, ManoeuvreChosen, VolleyEnded)):
                after = session.ruleset.evolve(state, event)
                assert list(after.aircraft) == list(state.aircraft)
                if isinstance(event, PhaseBegan) and event.phase == END:
                    assert not any(a.tailing or a.tailing_candidates for a in after.aircraft.values())
        assert order


def test_a_volley_ended_marks_the_firer_and_passes_the_turn_to_fire_as_the_rule_says(sessions):
    """VolleyEnded (p.14, p.20): the firer has fired, the volley is over, and the other player fires next if
    they have an aircraft that may, else the same player: who fires next is asked of the state before the
    firer's flag is set (it changes no other aircraft's eligibility); the result is the plain two steps'."""
    ended = 0
    for session in sessions:
        for state, event in states_and_events(session):
            if not isinstance(event, VolleyEnded) or event.kind == firing.TAIL_GUNNER:
                continue
            firer = state.aircraft[event.aircraft]
            fired = replace(firer, fired=True)
            plain = replace(state, aircraft={**state.aircraft, firer.id: fired}, volley=None)
            other = plain.opponent(firer.owner)
            plain = replace(plain, to_act=other if plain_has_eligible(plain, other) else (
                firer.owner if plain_has_eligible(plain, firer.owner) else None))
            assert session.ruleset.evolve(state, event) == plain
            ended += 1
    assert ended > 50


# ---------------------------------------------------------------- the fold's own copy (FoldScope)


def test_a_fold_changes_nothing_of_the_state_it_starts_from(sessions):
    """The fold thaws the state and every aircraft once into drafts and changes those in place (``FoldScope``,
    ``thaw``): the state it starts from (its mapping, its aircraft) and every state ``evolve`` gave are as they
    were."""
    encode = msgspec.json.encode
    for session in sessions:
        rules = type(session.ruleset)(options=session.ruleset.options)
        events = [envelope.event for envelope in session.events()]
        starts = [session.state_at(seq) for seq in range(0, len(events), 97)]
        before = [(encode(state), dict(state.aircraft)) for state in starts]
        for start, state in zip(range(0, len(events), 97), starts):
            rules.fold(state, events[start:])
        for state, (encoded, mapping) in zip(starts, before):
            assert encode(state) == encoded
            assert state.aircraft == mapping and all(state.aircraft[k] is a for k, a in mapping.items())


def test_a_fold_in_one_piece_gives_the_state_of_evolve_at_every_event(sessions):
    """Folds from the start to each event (one scope each) against ``evolve`` event by event: equal states and
    the same encoded bytes (the order of the aircraft kept), at every event of every game."""
    encode = msgspec.json.encode
    for session in sessions[:3]:
        rules = type(session.ruleset)(options=session.ruleset.options)
        events = [envelope.event for envelope in session.events()]
        state = session.game.initial_state
        for end, event in enumerate(events, 1):
            state = rules.evolve(state, event)
            if end % 7 == 0 or end == len(events):
                assert encode(rules.fold(session.game.initial_state, events[:end])) == encode(state), end


def test_a_reducer_given_no_scope_never_changes_the_state_it_is_given(sessions):
    """``evolve`` calls the reducers without a scope: every state they return is a new one (or the same when
    nothing changes), and the state given keeps its bytes."""
    encode = msgspec.json.encode
    for session in sessions:
        for state, event in states_and_events(session):
            encoded = encode(state)
            session.ruleset.evolve(state, event)
            assert encode(state) == encoded


def test_each_hot_reducer_takes_the_fold_scope():
    """The reducers of the events of every turn take the fold's scope (so the fold calls them directly);
    a reducer that takes none is called without it."""
    from aero_events.rulesets.aeronautica.events import (
        AircraftActivated,
        AltitudeChanged,
        MovementEnded,
        TurnBegan,
        VolleyDeclared,
    )

    for event_type in (ManoeuvreChosen, ManoeuvreRevealed, ThrottleSet, ManoeuvreFlown, AltitudeChanged,
                       MovementEnded, AircraftActivated, PhaseBegan, TurnBegan, VolleyDeclared, VolleyEnded,
                       TailingDetermined):
        assert aeronautica.fold_reducer_for(event_type) is aeronautica.reducer_for(event_type), event_type
    from aero_events.rulesets.aeronautica.events import RerollOffered

    wrapped = aeronautica.fold_reducer_for(RerollOffered)
    assert wrapped is not aeronautica.reducer_for(RerollOffered) and wrapped.__code__.co_argcount == 4


def test_who_fires_next_in_one_pass_is_the_rule_of_alternating_fire(sessions):
    """``fires_next`` (the reducers' one pass) against p.13-14 and p.20 as written, with and without an
    aircraft counted as having fired, in every state of the games."""
    seen = 0
    for session in sessions:
        for state, _ in states_and_events(session):
            for player in state.players:
                other = state.opponent(player)
                for fired in (None, *state.aircraft):
                    plain = replace(state, aircraft={**state.aircraft, fired: replace(
                        state.aircraft[fired], fired=True)}) if fired is not None else state
                    expected = player if plain_has_eligible(plain, player) else (
                        other if plain_has_eligible(plain, other) else None)
                    assert firing.fires_next(state, player, other, fired) == expected
                    seen += 1
    assert seen > 10_000


def test_a_new_turn_clears_every_aircraft_as_the_plain_rule_does(sessions):
    """TurnBegan (p.13) keeps an aircraft with nothing of last turn on it as it is; every aircraft equals the
    plain clearing of the tokens, moves, firing and Tail Gunner use, in the set-up's order."""
    from aero_events.rulesets.aeronautica.events import TurnBegan

    kept = 0
    for session in sessions:
        for state, event in states_and_events(session):
            if not isinstance(event, TurnBegan):
                continue
            after = session.ruleset.evolve(state, event)
            assert list(after.aircraft) == list(state.aircraft)
            for key, a in state.aircraft.items():
                plain = replace(a, commitment=None, manoeuvre=None, salt=None, revealed=None, moved=False,
                                may_land=False, path=(), fired=False, tail_gunner_used=False, no_token=False)
                assert after.aircraft[key] == plain
                kept += after.aircraft[key] is a
    assert kept > 0


def test_a_fold_changes_in_place_only_what_it_built_itself(sessions):
    """The fold's own drafts of the state and aircraft are changed in place (``FoldScope``): every state
    of the game as ``evolve`` gave it, before and after folds from many points of it, keeps its bytes, and
    two folds of the same events from the same state give the same bytes."""
    encode = msgspec.json.encode
    for session in sessions:
        rules = type(session.ruleset)(options=session.ruleset.options)
        events = [envelope.event for envelope in session.events()]
        states = [session.game.initial_state]
        for event in events:
            states.append(rules.evolve(states[-1], event))
        before = [encode(state) for state in states]
        for start in range(0, len(events), 61):
            first = rules.fold(states[start], events[start:])
            again = rules.fold(states[start], events[start:])
            assert first is not again and encode(first) == encode(again) == before[-1]
        assert [encode(state) for state in states] == before


def test_who_moves_next_in_the_reducer_is_the_rule_of_alternating_movement(sessions):
    """``moves_next`` (MovementEnded's reducer, eligibility written out) against p.14 as written and p.13's
    Spin (and p.8's static Ground Defences), in every state of the games."""
    seen = 0
    for session in sessions:
        for state, _ in states_and_events(session):
            for player in state.players:
                assert movement.moves_next(state.aircraft, state.opponent(player), player) == plain_next_to_act(
                    state, player)
                seen += 1
    assert seen > 1000


# ---------------------------------------------------------------- session 6: in place, one look-up, one pass


def own_copy(state: GameState):
    """``state`` as a fold's own drafts (its mapping and every aircraft thawed by the fold), with its scope."""
    from aero_events.rulesets.aeronautica.state import FoldScope, thaw

    return thaw(state), FoldScope()


def test_a_new_turn_and_a_new_phase_change_the_folds_own_state_in_place_as_the_plain_rule_does(sessions):
    """TurnBegan (p.13) and PhaseBegan (p.13-14, p.20, p.30) on the fold's own state: the same draft, changed in
    place to exactly the bytes ``evolve`` gives once frozen (every field the plain rule sets, and only those)."""
    from aero_events.rulesets.aeronautica.events import TurnBegan
    from aero_events.rulesets.aeronautica.state import freeze

    encode = msgspec.json.encode
    seen = {TurnBegan: 0, PhaseBegan: 0}
    for session in sessions:
        rules = session.ruleset
        for state, event in states_and_events(session):
            if type(event) not in seen:
                continue
            expected = encode(rules.evolve(state, event))
            own, scope = own_copy(state)
            after = aeronautica.reducer_for(type(event))(rules, own, event, scope)
            assert after is own and encode(freeze(after)) == expected
            seen[type(event)] += 1
    assert seen[TurnBegan] > 20 and seen[PhaseBegan] > 100


def test_who_fires_next_when_a_player_has_passed_is_the_rule_of_alternating_fire(sessions):
    """``fires_next`` with either player, or both, having passed (p.20: a player who passes fires no more this
    phase) against the plain rule, in every state of the firing phases."""
    seen = 0
    for session in sessions:
        for state, _ in states_and_events(session):
            if state.phase not in (TAILING_FIRE, firing.FIRING):
                continue
            for passed in ((state.players[0],), (state.players[1],), state.players):
                plain = replace(state, passed=passed)
                for player in state.players:
                    other = state.opponent(player)
                    expected = player if plain_has_eligible(plain, player) else (
                        other if plain_has_eligible(plain, other) else None)
                    assert firing.fires_next(plain, player, other) == expected
                    seen += 1
    assert seen > 500


def test_an_event_type_is_looked_up_once_and_an_unknown_one_is_refused():
    """The dispatch tables fill as types are met (one look-up per type), and an event no part applies is an
    error in ``evolve`` and in ``fold`` alike, never skipped."""
    from tests.support.bidding import BidRevealed  # another game's event

    rules = AeronauticaRules()
    session = dogfight(1, 5, (BaselineBot, BaselineBot), rules)
    events = [envelope.event for envelope in session.events()]
    assert rules._dispatch[VolleyEnded] is firing._volley_ended  # met by the session's evolve
    assert set(rules._fold_dispatch) == {DiceRolled}  # no fold yet
    assert rules.fold(session.game.initial_state, events) == session.state
    assert set(rules._fold_dispatch) == {type(event) for event in events} | {DiceRolled}
    assert rules._fold_dispatch[PhaseBegan] is turn._phase_began
    foreign = BidRevealed(player="imperium", amount=1)
    for apply in (lambda: rules.evolve(session.state, foreign), lambda: rules.fold(session.state, [foreign])):
        with pytest.raises(TypeError, match="cannot apply BidRevealed"):
            apply()
    assert rules.fold(session.game.initial_state, events) == session.state


# ---------------------------------------------------------------- session 7: the fold's working copy


def test_who_sets_up_next_in_one_pass_is_the_rule_of_taking_turns(sessions):
    """``places_next`` (the set-up reducers' one pass) against p.34 as written: the players take turns, and a
    side with aircraft left sets them up once the other has finished; in every state of the set-ups."""
    from aero_events.rulesets.aeronautica.scenarios.set_up import places_next
    from aero_events.rulesets.aeronautica.state import UNDEPLOYED

    seen = 0
    for session in sessions:
        for state, _ in states_and_events(session):
            for first in state.players:
                second = state.opponent(first)
                left = [player for player in (first, second)
                        if any(a.status == UNDEPLOYED for a in state.aircraft.values() if a.owner == player)]
                assert places_next(state.aircraft, first, second) == (left[0] if left else None)
                seen += bool(left)
    assert seen > 20


def test_a_fold_works_on_one_copy_and_leaves_the_state_it_was_given(sessions):
    """The fold thaws the state, its aircraft mapping and every aircraft once, at its first event that changes
    anything (``thaw``: drafts, a new mapping), and changes those in place: the state it was given keeps its
    bytes and its aircraft objects, and a fold of core events only returns the state it was given."""
    from aero_events.core import StateCheckpoint
    from aero_events.rulesets.aeronautica.state import freeze, thaw

    encode = msgspec.json.encode
    for session in sessions[:2]:
        start = session.game.initial_state
        copy = thaw(start)
        assert encode(freeze(copy)) == encode(start) and copy is not start and copy.aircraft is not start.aircraft
        assert list(copy.aircraft) == list(start.aircraft)
        assert all(copy.aircraft[key] is not a and freeze(copy).aircraft[key] == a
                   for key, a in start.aircraft.items())
        events = [envelope.event for envelope in session.events()]
        kept = dict(start.aircraft)
        assert encode(RULES.fold(start, events)) == encode(session.state)
        assert encode(start) == encode(session.game.initial_state)
        assert all(start.aircraft[key] is a for key, a in kept.items())
        core_only = [event for event in events if type(event) is StateCheckpoint]
        assert core_only and RULES.fold(session.state, core_only) is session.state


# ---------------------------------------------------------------- session 9: the fold's drafts


def test_the_drafts_are_generated_from_the_structs_fields_and_freeze_back_to_them(sessions):
    """The fold's drafts (``AircraftDraft``, ``StateDraft``) have every field of ``AircraftState`` and
    ``GameState`` in their order (generated, so a new field is never left out), the properties and methods the
    rules read, and freeze back to the Struct they were thawed from when nothing changed: the same objects."""
    from aero_events.rulesets.aeronautica.state import AircraftDraft, AircraftState, StateDraft, freeze, thaw

    assert AircraftDraft.__slots__ == (*AircraftState.__struct_fields__, "_thawed_from")
    assert StateDraft.__slots__ == (*GameState.__struct_fields__, "_thawed_from")
    for session in sessions:
        for state in (session.game.initial_state, session.state_at(len(session.events()) // 2), session.state):
            draft = thaw(state)
            assert freeze(draft) is state
            for key, a in state.aircraft.items():
                own = draft.aircraft[key]
                assert (own.damaged, own.pose, own.in_play) == (a.damaged, a.pose, a.in_play)
            for player in state.players:
                assert draft.opponent(player) == state.opponent(player)
                assert [a.id for a in draft.side(player)] == [a.id for a in state.side(player)]
            assert draft.occupied() == state.occupied()
            key, first = next(iter(state.aircraft.items()))
            draft.aircraft[key].structure = first.structure - 1
            draft.step = "throttle"
            frozen = freeze(draft)
            assert frozen == replace(state, step="throttle",
                                     aircraft={**state.aircraft, key: replace(first, structure=first.structure - 1)})
            assert list(frozen.aircraft) == list(state.aircraft)
            assert all(frozen.aircraft[k] is a for k, a in state.aircraft.items() if k != key)  # unchanged: kept
            assert state.aircraft[key] is first and first.structure == frozen.aircraft[key].structure + 1


def rare_events(state: GameState):
    """Events of every reducer that takes the fold's scope but seldom meets a baseline game (damage, landing,
    taxiing, Hovering, Tail Gunners, set-up, victory, records that change nothing), made for the first aircraft
    of ``state``."""
    from aero_events.rulesets.aeronautica import events as e

    a = next(iter(state.aircraft.values()))
    facing = (a.facing + 1) % 6
    return [
        e.CrashAvoided(aircraft=a.id), e.BrokeUp(aircraft=a.id, damaged=False, speed=a.speed + 1),
        e.DamageSuffered(aircraft=a.id, hits=1, structure=a.structure - 1, cause="test"),
        e.AircraftDestroyed(aircraft=a.id, cause="test"), e.Landed(aircraft=a.id),
        e.Hovered(aircraft=a.id, facing=facing), e.Stalled(aircraft=a.id, reason="test"),
        e.AircraftDisengaged(aircraft=a.id, how="voluntary", exit_hex=None),
        e.AircraftDisengaged(aircraft=a.id, how="accidental", exit_hex=a.hex.neighbour(facing)),
        e.Taxied(aircraft=a.id, path=(a.hex,), hex=a.hex.neighbour(facing), facing=facing),
        e.TookOff(aircraft=a.id, speed=2), e.ManoeuvreDeclined(aircraft=a.id),
        e.FiringPassed(player=a.owner), e.VolleyEnded(aircraft=a.id, kind=firing.TAIL_GUNNER),
        e.VictoryPointsScored(player=a.owner, aircraft=(), aircraft_total=0, points_difference=0, transport=0,
                              objectives=0, total=7),
        e.AircraftPlaced(aircraft=a.id, hex=a.hex.neighbour(facing), facing=facing, speed=3, altitude=2),
        e.SetUpCompleted(), e.SetUpRollOffWon(player=a.owner),
        e.DamageIgnored(aircraft=a.id, upgrade="test", structure=1),
        e.BombCreepRolled(aircraft=a.id, weapon_index=0, target=a.id, hit=False),
        e.OccupiedHexRolled(aircraft=a.id, hex=a.hex, hit=False),
        e.SpinEntered(aircraft=a.id, altitude=None), e.SpinEntered(aircraft=a.id, altitude=max(a.altitude - 1, 0)),
        e.SpinFell(aircraft=a.id, altitude=a.altitude - 2), e.SpinRecovered(aircraft=a.id, speed=5, facing=facing),
        e.StallRecovered(aircraft=a.id, speed=2, altitude=a.altitude), e.FuelExhausted(aircraft=a.id, turns=3),
        e.DisengagementTurnDeclared(turn=state.turn + 1, players=(a.owner,)),
    ]


def test_every_reducer_that_takes_the_scope_changes_the_folds_drafts_in_place_as_evolve_does(sessions):
    """Each reducer the fold calls with its scope, on the fold's drafts: the same draft back (changed in place,
    never a new Struct: the drafts design has no ``replace`` in a fold), frozen to exactly the bytes ``evolve``
    gives; over every event of the games and the rare events of :func:`rare_events` in states all through them."""
    from aero_events.rulesets.aeronautica.state import FoldScope, StateDraft, freeze, thaw

    encode = msgspec.json.encode
    seen: set[type] = set()
    for session in sessions:
        rules = session.ruleset
        for index, (state, event) in enumerate(states_and_events(session)):
            checked = [event] + (rare_events(state) if index % 23 == 0 else [])
            for each in checked:
                reduce = aeronautica.fold_reducer_for(type(each))
                if reduce is None:
                    continue
                expected = encode(rules.evolve(state, each))
                draft = thaw(state)
                after = reduce(rules, draft, each, FoldScope())
                assert type(after) is StateDraft and encode(freeze(after)) == expected, type(each).__name__
                if reduce is aeronautica.reducer_for(type(each)):
                    assert after is draft, type(each).__name__
                    seen.add(type(each))
                assert encode(state) == encode(session.state_at(index))
    from aero_events.core import Event
    from aero_events.rulesets.aeronautica import events

    scoped = {t for t in vars(events).values() if isinstance(t, type) and issubclass(t, Event)
              and t.__module__ == events.__name__ and not t.abstract_event
              and aeronautica.fold_reducer_for(t) is aeronautica.reducer_for(t)}
    assert len(scoped) > 35 and seen == scoped, sorted(t.__name__ for t in scoped - seen)


def test_a_reducer_without_the_scope_is_given_a_frozen_state_in_a_fold(sessions):
    """A reducer that takes no scope (re-rolls', reserves'; here GameEnded's, made one for the test) reads and
    builds Structs as in ``evolve``: the fold freezes its drafts for it and thaws what it returns
    (``without_scope``)."""
    from aero_events.rulesets.aeronautica.events import GameEnded
    from aero_events.rulesets.aeronautica.state import FoldScope, StateDraft, freeze, thaw

    given = []
    rules = AeronauticaRules()
    session = sessions[0]
    state = session.state_at(len(session.events()) // 2)
    event = GameEnded(reason="test", winner=state.players[0])
    original = turn._REDUCERS[GameEnded]
    turn._REDUCERS[GameEnded] = lambda rules, state, event: given.append(type(state)) or original(rules, state, event)
    try:
        wrapped = aeronautica.fold_reducer_for(GameEnded)
        after = wrapped(rules, thaw(state), event, FoldScope())
    finally:
        turn._REDUCERS[GameEnded] = original
    assert given == [GameState] and type(after) is StateDraft
    assert freeze(after) == rules.evolve(state, event)
