"""A game's line of play folded once: every event beside the state it led to.

Replays, statistics and charts all need "the state after event n" for every n. Folding
the events once with the ruleset's ``evolve`` and keeping each state costs little,
because states are immutable and share everything an event did not change; asking the
store for ``state_at`` per frame instead would fold the same events again and again.

:func:`load_timeline` reads a branch from the store (its ancestors' events up to the
fork included) and folds it; :func:`timeline_from_session` reuses the states a live
:class:`~aero_events.core.GameSession` already folded.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from aero_events.core import Envelope, GameSession, Ruleset, StateCheckpoint


@dataclass(frozen=True)
class Timeline:
    """The events of one branch (seq 1..n) and ``states[i]``, the state after ``envelopes[i]``.

    ``initial`` is the state before the first event (seq 0). Checkpoint events change
    nothing, so their state is the one before them.
    """

    game_id: str
    branch: str
    ruleset: Ruleset
    initial: Any
    envelopes: Sequence[Envelope]
    states: Sequence[Any]
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.envelopes) != len(self.states):
            raise ValueError(f"{len(self.envelopes)} events but {len(self.states)} states")

    def __len__(self) -> int:
        return len(self.envelopes)

    @property
    def head_seq(self) -> int:
        return self.envelopes[-1].seq if self.envelopes else 0

    @property
    def final(self) -> Any:
        """The state after the last event."""
        return self.states[-1] if self.states else self.initial

    def state_at(self, seq: int) -> Any:
        """The state after event ``seq`` (0: the initial state)."""
        index = self.index_of(seq)
        return self.initial if index < 0 else self.states[index]

    def state_before(self, index: int) -> Any:
        """The state just before ``envelopes[index]``."""
        return self.initial if index <= 0 else self.states[index - 1]

    def index_of(self, seq: int) -> int:
        """Position of event ``seq`` in :attr:`envelopes` (-1 for seq 0)."""
        first = self.envelopes[0].seq if self.envelopes else 1
        index = seq - first
        if not -1 <= index < len(self.envelopes):
            raise IndexError(f"{self.game_id}/{self.branch} has events {first}..{self.head_seq}; no seq {seq}")
        return index

    def pairs(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[Envelope, Any, Any]]:
        """(envelope, state before, state after) for each event with index in ``start..stop-1``."""
        before = self.state_before(start)
        for envelope, after in zip(self.envelopes[start:stop], self.states[start:stop], strict=True):
            yield envelope, before, after
            before = after

    def scene_at(self, seq: int, viewer: str | None = None) -> Any:
        """The ruleset's scene of the state after event ``seq`` (0: the initial state)."""
        return self.ruleset.scene(self.state_at(seq), viewer)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.ruleset.players(self.initial))


def fold_states(ruleset: Ruleset, initial: Any, envelopes: Iterable[Envelope]) -> list[Any]:
    """Fold ``envelopes`` once from ``initial``; the state after each one, in order."""
    evolve = ruleset.evolve
    state = initial
    states = []
    append = states.append
    for envelope in envelopes:
        event = envelope.event
        if type(event) is not StateCheckpoint:
            state = evolve(state, event)
        append(state)
    return states


def fold_timeline(ruleset: Ruleset, initial: Any, envelopes: Sequence[Envelope], *, game_id: str = "",
                  branch: str = "main", metadata: dict[str, Any] | None = None) -> Timeline:
    """A :class:`Timeline` of ``envelopes`` folded from ``initial``."""
    envelopes = list(envelopes)
    return Timeline(game_id=game_id, branch=branch, ruleset=ruleset, initial=initial, envelopes=envelopes,
                    states=fold_states(ruleset, initial, envelopes), metadata=dict(metadata or {}))


def load_timeline(store: Any, game_id: str, branch: str | None = None) -> Timeline:
    """Read a stored branch (ancestors' events included; None: the game's main line) and fold it once.

    ``store`` is an :class:`~aero_events.store.EventStore`; ``game_id`` may be a unique
    prefix of the id.
    """
    import msgspec

    from aero_events.store.games import game_context

    game_id = store.resolve_game_id(game_id)
    branch = store.resolve_branch(game_id, branch)
    with store.connection() as conn:
        context = game_context(conn, game_id)
    envelopes = store.events(game_id, branch)
    metadata = msgspec.json.decode(context.record.metadata) if context.record.metadata else {}
    return fold_timeline(context.ruleset, context.initial_state, envelopes, game_id=game_id, branch=branch,
                         metadata=metadata)


def timeline_from_session(session: GameSession) -> Timeline:
    """The timeline of a live session's branch, reusing the states it already folded (no fold)."""
    branch = session.branch
    envelopes = session.events()
    states = [branch.state_at(envelope.seq) for envelope in envelopes]
    return Timeline(game_id=session.game_id, branch=branch.id, ruleset=session.ruleset,
                    initial=branch.state_at(0), envelopes=envelopes, states=states,
                    metadata=dict(session.game.metadata))
