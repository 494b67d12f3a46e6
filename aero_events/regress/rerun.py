"""Re-running a recorded game's decisions and dice under another ruleset (regression re-runs).

:func:`rerun` recovers the game's commands (:mod:`.decisions`: each proven to reproduce the record under
the game's own ruleset), then plays them again under the new ruleset with the game's own dice and salts
(:mod:`.tape`), and compares the two lines of play event by event:

* **identical**: every event and every checkpoint hash the same;
* otherwise the **first divergence** (checkpoints aside): turn, phase, the recorded event, the new one,
  and the recorded decision being replayed there; a difference of state alone (data such as points,
  which change the state from the start but no event until Victory points are scored) is reported as
  the initial state's differences or the first checkpoint that differs;
* the **outcome** of both, in the ruleset's terms (``ruleset.outcome``, ``ruleset.statistics``): winner,
  scores (Aeronautica: Victory points), counts such as aircraft lost, and what changed.

When the new rules refuse a recorded decision, ``on_illegal`` says what happens: ``stop`` ends the re-run
there; ``bot`` lets a seeded :class:`RandomBot` decide, as follows. If the same kind of decision is open
to a player (the same one first) for the same piece (a command's ``aircraft``, ``piece`` or ``ship``), the bot picks one of those (*replaced*).
Otherwise, if the next recorded decision is legal, this one no longer arises and is dropped (*skipped*).
Otherwise another
decision comes first: the bot makes it and the recorded one is tried again (*waited*, at most
:data:`MAX_WAIT` times). Recorded decisions left when the game ends are counted as unused. If they run
out before it ends while the recorded game did end, the bot finishes it (policy ``bot``) or the report
says where it stopped; an unfinished record simply ends the re-run where it ends.

Dice: the new rules may roll more dice than the record holds; the extra faces come from a seeded source
and are counted (``extra_dice``); recorded faces left over are ``unused_dice``.
"""

from __future__ import annotations

import bisect
import copy
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from aero_events.bots import RandomBot, play
from aero_events.core import AeroError, DiceCup, Envelope, GameSession, RuleError, Ruleset, StateCheckpoint
from aero_events.core.state_shape import (
    StateShapeError,
    checkpoint_hash,
    current_fingerprint,
    recorded_fingerprint,
)

from .decisions import RecordedDecision, recover_decisions
from .describe import describe_command, event_at
from .recorded import RecordedGame
from .report import Divergence, EventAt, GameReport, IllegalDecision, Outcome, outcome_changes
from .tape import RecordedSalts, RegressionDice, recorded_command_salts, recorded_faces, recorded_salts

ON_ILLEGAL = ("stop", "bot")
#: How many decisions the bot may make in a row before a refused recorded decision is dropped.
MAX_WAIT = 50
#: Events shown after a divergence, on each side.
CONTEXT = 3
#: Differences of state listed at most.
STATE_DIFFERENCES = 6


#: The fields a command may name its piece by, for the bot policy's "same kind of decision for the same piece".
PIECE_FIELDS = ("aircraft", "piece", "ship", "unit")


def outcome_of(rules: Ruleset, state: Any) -> Outcome:
    """The outcome of a line of play (finished or not) in the ruleset's terms, with its counts per side."""
    result = rules.outcome(state)
    return Outcome(finished=result.finished, turn=rules.clock(state)[0], winner=result.winner,
                   end_reason=result.reason or None, scores=dict(result.scores), score_name=rules.score_name(),
                   statistics=rules.statistics(state))


def _piece(command: Any) -> Any:
    for name in PIECE_FIELDS:
        if hasattr(command, name):
            return getattr(command, name)
    return None


def _at(envelope: Envelope) -> EventAt:
    return EventAt(seq=envelope.seq, turn=envelope.turn, phase=envelope.phase, actor=envelope.actor,
                   type=envelope.type, text=event_at(envelope.event))


def _plain(envelopes: Sequence[Envelope]) -> list[Envelope]:
    """The ruleset's events: the session's records (checkpoints, commands) left out."""
    return [env for env in envelopes if not env.event.core_event]


def _checkpoints(envelopes: Sequence[Envelope]) -> list[tuple[int, str]]:
    return [(env.event.turn, env.event.state_hash) for env in envelopes if type(env.event) is StateCheckpoint]


def _checkpoints_as_recorded(rules: Ruleset, session: GameSession, shape: str | None) -> list[tuple[int, str]]:
    """The re-run's checkpoints as the record's would hold them: its states hashed in the state shape the game
    was recorded with (:mod:`aero_events.core.state_shape`; ``shape`` None: recorded before fingerprints were),
    so a game recorded before a field was added re-runs identically. A shape ``rules`` cannot project onto
    (unknown to its history, a field removed) leaves the re-run's own hashes, which then differ."""
    envelopes = session.events()
    if shape == current_fingerprint(rules):
        return _checkpoints(envelopes)
    try:
        return [(env.event.turn, checkpoint_hash(rules, session.state_at(env.seq), shape))
                for env in envelopes if type(env.event) is StateCheckpoint]
    except StateShapeError:
        return _checkpoints(envelopes)


def first_divergence(old: Sequence[Envelope], new: Sequence[Envelope],
                     decisions: Sequence[RecordedDecision] = (),
                     replaying: Callable[[int], str | None] | None = None) -> Divergence | None:
    """The first event (checkpoints aside) where two lines of play differ, with some context.

    ``replaying(seq)`` names what produced the new event ``seq`` (the decision being replayed); without
    it, or past the new events, the recorded decision whose events hold the old one is named.
    """
    old_events, new_events = _plain(old), _plain(new)
    for index in range(max(len(old_events), len(new_events))):
        a = old_events[index] if index < len(old_events) else None
        b = new_events[index] if index < len(new_events) else None
        if a is not None and b is not None and a.event == b.event and a.actor == b.actor:
            continue
        decision = replaying(b.seq) if b is not None and replaying is not None else None
        if decision is None and a is not None and decisions:
            firsts = [d.first_seq for d in decisions]
            found = bisect.bisect_right(firsts, a.seq) - 1
            if found >= 0:
                decision = f"recorded decision {found + 1}: {decisions[found].describe()}"
        return Divergence(
            index=index, old=_at(a) if a else None, new=_at(b) if b else None, decision=decision,
            old_next=tuple(_at(env) for env in old_events[index + 1: index + 1 + CONTEXT]),
            new_next=tuple(_at(env) for env in new_events[index + 1: index + 1 + CONTEXT]),
        )
    return None


def _pieces(value: Any) -> bool:
    """A field holding pieces by id (Aeronautica's ``aircraft``): a mapping of mappings."""
    return isinstance(value, dict) and bool(value) and all(isinstance(item, dict) for item in value.values())


def state_differences(old: Any, new: Any, limit: int = STATE_DIFFERENCES) -> list[str]:
    """What differs between two states of the same game; a field of pieces by id is compared piece by
    piece (``orks-1.structure 2 -> 3``), after the other fields."""
    found: list[str] = []
    old_data, new_data = msgspec.to_builtins(old), msgspec.to_builtins(new)
    if not isinstance(old_data, dict) or not isinstance(new_data, dict):
        return [] if old_data == new_data else [f"{old_data} -> {new_data}"][:limit]
    by_piece = sorted(key for key in set(old_data) | set(new_data)
                      if _pieces(old_data.get(key)) or _pieces(new_data.get(key)))
    for key in sorted(set(old_data) | set(new_data)):
        if key in by_piece:
            continue
        if old_data.get(key) != new_data.get(key):
            found.append(f"{key} {old_data.get(key)} -> {new_data.get(key)}")
    for key in by_piece:
        old_pieces, new_pieces = old_data.get(key) or {}, new_data.get(key) or {}
        for piece_id in sorted(set(old_pieces) | set(new_pieces)):
            before, after = old_pieces.get(piece_id, {}), new_pieces.get(piece_id, {})
            for name in sorted(set(before) | set(after)):
                if before.get(name) != after.get(name):
                    found.append(f"{piece_id}.{name} {before.get(name)} -> {after.get(name)}")
    if len(found) > limit:
        found = [*found[:limit], f"and {len(found) - limit} more"]
    return found


def _describe_state_difference(old_initial: Any, new_initial: Any, old: Sequence[Envelope],
                               new_marks: Sequence[tuple[int, str]]) -> str | None:
    initial = state_differences(old_initial, new_initial)
    if initial:
        return "the initial state differs: " + ", ".join(initial)
    old_marks = _checkpoints(old)
    for (turn, before), (_, after) in zip(old_marks, new_marks, strict=False):
        if before != after:
            return f"the state differs from the start of turn {turn} (checkpoint hash {before[:10]} -> {after[:10]})"
    return None


class _Replayer:
    """Plays recorded decisions into a session under the new rules, applying the illegal-decision policy."""

    def __init__(self, session: GameSession, decisions: Sequence[RecordedDecision], on_illegal: str,
                 bot_seed: str, record_finished: bool = True):
        if on_illegal not in ON_ILLEGAL:
            raise ValueError(f"on_illegal is one of {', '.join(ON_ILLEGAL)}, not {on_illegal!r}")
        self.session = session
        self.queue = deque(decisions)
        self.total = len(decisions)
        self.on_illegal = on_illegal
        self.bot = RandomBot(bot_seed)
        self.applied_count = 0
        self.bot_decisions = 0
        self.illegal: list[IllegalDecision] = []
        self.stopped: str | None = None
        self.record_finished = record_finished
        #: The first new seq of each command applied, and the recorded decision it was (None: the bot's),
        #: to say what was being replayed at a divergence.
        self.applied_at: list[int] = []
        self.applied: list[tuple[Any, RecordedDecision | None, bool]] = []

    def _apply(self, command: Any, decision: RecordedDecision | None, by_bot: bool = False) -> None:
        first = self.session.seq + 1
        self.session.apply(command)
        self.applied_at.append(first)
        self.applied.append((command, decision, by_bot))

    def decision_at(self, seq: int) -> str | None:
        """What produced the new event ``seq``: a recorded decision, or the bot (instead of one)."""
        found = bisect.bisect_right(self.applied_at, seq) - 1
        if found < 0:
            return None
        command, decision, by_bot = self.applied[found]
        recorded = f"recorded decision {decision.index + 1}: {decision.describe()}" if decision else None
        if not by_bot:
            return recorded
        bot = f"the bot's decision {describe_command(command)}"
        return f"{bot}, in place of {recorded}" if recorded else bot

    def _note(self, decision: RecordedDecision, err: RuleError, action: str) -> None:
        turn, phase = self.session.ruleset.clock(self.session.state)
        self.illegal.append(IllegalDecision(decision=decision.index + 1, turn=turn, phase=phase,
                                            command=describe_command(decision.command), error=str(err),
                                            action=action))

    def _is_legal(self, decision: RecordedDecision) -> bool:
        """Whether the rules accept the decision now (decided on copies of the dice: nothing is used)."""
        session = self.session
        cup = DiceCup(copy.deepcopy(session.dice))
        cup.salts = copy.deepcopy(session.salts)  # type: ignore[attr-defined]
        try:
            session.ruleset.decide(session.state, decision.command, cup)
        except AeroError:
            return False
        return True

    def _bot_move(self, options: Sequence[Any], player: str, instead: RecordedDecision | None = None) -> None:
        command = self.bot.choose(self.session, player, options)
        self._apply(command, instead, by_bot=True)
        self.bot_decisions += 1

    def run(self) -> None:
        waited = 0
        while self.queue and not self.session.is_over():
            decision = self.queue[0]
            try:
                self._apply(decision.command, decision)
            except RuleError as err:
                if self.on_illegal == "stop":
                    self._note(decision, err, "stopped")
                    self.stopped = f"recorded decision {decision.index + 1} is illegal under the new rules"
                    return
                if not self._substitute(decision, err, waited):
                    return
                waited = 0 if not self.queue or self.queue[0] is not decision else waited + 1
                continue
            self.queue.popleft()
            self.applied_count += 1
            waited = 0
        if not self.session.is_over() and not self.queue and self.record_finished:
            self._finish()

    def _substitute(self, decision: RecordedDecision, err: RuleError, waited: int) -> bool:
        """The bot policy for one refused decision; False when the re-run cannot go on."""
        command = decision.command
        piece = _piece(command)
        players = [command.player, *(p for p in self.session.ruleset.players(self.session.state)
                                     if p != command.player)]
        for player in players:  # the same decision, now someone else's (who moves first after new Initiative)
            same_kind = [option for option in self.session.legal_commands(player)
                         if type(option) is type(command) and _piece(option) == piece]
            if same_kind:
                self._note(decision, err, "replaced")
                self._bot_move(same_kind, player, instead=decision)
                self.queue.popleft()
                return True
        if (len(self.queue) > 1 and self._is_legal(self.queue[1])) or waited >= MAX_WAIT:
            self._note(decision, err, "skipped")
            self.queue.popleft()
            return True
        for player in players:
            options = self.session.legal_commands(player)
            if options:
                if waited == 0:
                    self._note(decision, err, "waited")
                self._bot_move(options, player)
                return True
        self.stopped = f"no player has a legal command at turn {self.session.ruleset.clock(self.session.state)[0]}"
        return False

    def _finish(self) -> None:
        """The recorded decisions ran out before the game ended (the record itself had ended)."""
        if self.on_illegal == "bot":
            players = self.session.ruleset.players(self.session.state)
            try:
                self.bot_decisions += play(self.session, dict.fromkeys(players, self.bot), max_commands=100_000)
            except RuntimeError as err:
                self.stopped = str(err)
        elif self.stopped is None:
            turn, phase = self.session.ruleset.clock(self.session.state)
            self.stopped = f"the recorded decisions ran out at turn {turn}, {phase} phase, before the game ended"


def rerun(game: RecordedGame, rules: Ruleset, *, on_illegal: str = "stop", seed: int | str = 0,
          own_rules: Ruleset | None = None, strict_setup: bool = False) -> GameReport:
    """Re-run ``game``'s decisions and dice under ``rules``; a report of what happened (errors included).

    A setup the new rules refuse (a force over its points limit under new points, say) is an error with
    ``strict_setup``; otherwise the game is re-run with the force checks off and ``setup_note`` says why.
    """
    report = GameReport(game_id=game.game_id, source=game.source, recorded_ruleset=game.ruleset,
                        recorded_data_version=game.data_version, ruleset=rules.name,
                        data_version=str(rules.data_version), events_recorded=len(_plain(game.envelopes)))
    try:
        own = own_rules or game.own_rules()
        recovery = recover_decisions(own, game.setup(own), game.envelopes, shape=recorded_fingerprint(game.metadata))
    except AeroError as err:
        report.error = f"cannot recover the recorded decisions: {err}"
        return report
    report.decisions = len(recovery.decisions)
    report.old_outcome = outcome_of(own, recovery.final_state)
    dice = RegressionDice(recorded_faces(game.envelopes), seed=f"{seed}:{game.game_id}")
    salts = RecordedSalts(recorded_salts(game.envelopes), seed=f"{seed}:{game.game_id}",
                          command_salts=recorded_command_salts(game.envelopes))
    setup = game.setup(rules)
    try:
        session = GameSession(rules, setup, dice=dice, salts=salts, game_id=game.game_id, metadata=game.metadata)
    except AeroError as err:
        if strict_setup or not isinstance(err, RuleError) or not getattr(setup, "check_points", False):
            report.error = f"the new rules refuse the game's setup: {err}"
            return report
        # New data (e.g. points) can make a recorded force illegal; the re-run plays it anyway, and says so.
        report.setup_note = f"{err}; re-run with the force checks off"
        session = GameSession(rules, msgspec.structs.replace(setup, check_points=False), dice=dice, salts=salts,
                              game_id=game.game_id, metadata=game.metadata)
    replayer = _Replayer(session, recovery.decisions, on_illegal, f"regress:{seed}:{game.game_id}",
                         record_finished=report.old_outcome.finished)
    replayer.run()
    new_envelopes = session.events()
    report.events_replayed = len(_plain(new_envelopes))
    report.decisions_applied = replayer.applied_count
    report.bot_decisions = replayer.bot_decisions
    report.illegal = tuple(replayer.illegal)
    report.stopped = replayer.stopped
    report.unused_decisions = len(replayer.queue)
    report.extra_dice, report.extra_rolls = dice.extra_faces, dice.extra_rolls
    report.unused_dice = dice.remaining
    report.extra_salts = salts.extra
    report.divergence = first_divergence(game.envelopes, new_envelopes, recovery.decisions, replayer.decision_at)
    new_marks = _checkpoints_as_recorded(rules, session, recorded_fingerprint(game.metadata))
    report.state_difference = _describe_state_difference(recovery.initial_state, session.state_at(0),
                                                          game.envelopes, new_marks)
    report.new_outcome = outcome_of(rules, session.state)
    report.outcome_changes = outcome_changes(report.old_outcome, report.new_outcome)
    report.identical = (report.divergence is None and report.state_difference is None and not report.illegal
                        and report.stopped is None and _checkpoints(game.envelopes) == new_marks)
    return report


def rerun_all(games: Sequence[RecordedGame], rules: Ruleset, *, on_illegal: str = "stop",
              seed: int | str = 0, strict_setup: bool = False) -> list[GameReport]:
    """:func:`rerun` for each game, in order."""
    return [rerun(game, rules, on_illegal=on_illegal, seed=seed, strict_setup=strict_setup) for game in games]
