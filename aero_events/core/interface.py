"""What the tools ask of a ruleset, beyond the decider contract.

Every tool above the core (viz, analysis, regress, record, sim, bots, the ``aero`` command) talks to a
ruleset only through :class:`~aero_events.core.decider.Ruleset`, which carries the decider contract
(``decide``/``evolve``/...) and the methods of :class:`ToolInterface` below:

==========================  ==============================================================
method                      used by
==========================  ==============================================================
``describe_event``          narration (demo, show, replay text panel, report)
``describe_command``        ``aero play``, ``aero record``, regress reports
``outcome``                 demo, simulate, compare, regress, report
``scene``                   viz (board, replay, branch comparison), report
``step_grouping``           viz: how a replay cuts a game into frames
``report_sections``         the report page: the ruleset's own sections
``sql_views``               the DuckDB file's views (analysis)
``notation``                ``aero record``, the ``.aero`` record format
``scenarios``               ``aero demo --ruleset``, ``aero simulate`` matchups
``bots``                    demo, simulate, play
``variant_from_metadata``   reloading a game played under a user's variant
``is_secret_command``       the session: a secret command is recorded sealed
``hides_from``              odds: a page's win-probability strip never plays on from what its viewer can't see
``decode_command``          regress: a recorded ``CommandIssued`` back into its command
``legacy_command_candidates`` regress: games recorded before commands were (the corpus)
``sides``, ``piece_ids``    sim, analysis: who scores, what moves on the table
``score_name``              simulate, compare, regress: what the scores are called ("VP")
``statistics``              simulate, compare, regress: counts per side ("aircraft lost")
``summary_line``            demo, play: a game's standing in one line
``narrate``                 demo, play: a whole log in English
``describe_setup``          demo: the forces before play
``describe_state``          ``aero play``: the state in a few lines
``demo_scenario``           ``aero demo --ruleset``: the scenario and bots it plays
``game_metadata``           simulate, corpus: what a game keeps to be reloaded (a variant)
``variant_from_file``       every ``--rules FILE``: a user's variant file
``options_type``            the rule options a variant file may change (:class:`VariantDefinition`)
``rule_options``            ``aero versions``, ``aero rulesets``: each option, its default and allowed values
``with_options``            a variant: the same ruleset under other options
``versions``                ``aero versions``
``corpus``                  ``aero corpus``: the family's golden corpus
``recorder_guide``          ``aero record``: decisions, secret orders, board text, setup entry
==========================  ==============================================================

Each has a default that works for any ruleset (a generic description, a JSON notation, the random bot),
so a new ruleset is usable by every tool at once and improves what it overrides.

Rule options and variants. A ruleset whose constructor takes ``options=`` (a frozen msgspec Struct whose every
field has a default) declares that Struct as ``options_type`` and reads every option through ``self.options``.
The core then gives it, with no more code, a variant file (:class:`VariantDefinition`, JSON or TOML)::

    name = "my/brace-any-time"
    base = "battlefleet-gothic/core"
    description = "Brace for Impact at any time (p.12)"
    [options]
    brace_timing = "any_time"

read by ``variant_from_file`` (every ``--rules``/``--ruleset FILE``), its definition kept in each game's
metadata under ``variant`` (``game_metadata``) and rebuilt from there by ``variant_from_metadata`` (the
registry's ``ruleset_for_game``: a stored game replays under its own options in any process), and its options
listed by ``rule_options``/``versions``. A ruleset with richer variants (Aeronautica: data overrides too)
overrides these methods.
"""

from __future__ import annotations

import hashlib
import os
import re
import tomllib
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import msgspec

from .errors import AeroError, DataError, RuleError, read_data_file
from .events import Envelope, is_core_event
from .scene import ReportSection, Scene, StepGrouping, Table


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a game stands or ended, in the ruleset's own terms.

    ``finished`` is False for a game still under way (the scores are then the score so far).
    ``winner`` names the winning side (None for a draw or an unfinished game); ``scores`` maps each
    side to its score (Victory points, points destroyed...); ``reason`` says why in words
    ("Insurmountable Losses", "the last turn ended with orks 120 VP to 80").
    """

    finished: bool
    winner: str | None = None
    draw: bool = False
    scores: dict[str, float] = msgspec.field(default_factory=dict)
    reason: str = ""


class SqlView(msgspec.Struct, frozen=True, kw_only=True):
    """A DuckDB view a ruleset adds to the database file: ``create or replace view {name} as {sql}``.

    The SQL reads the store's tables (``games``, ``branches``, ``events``) and the core views; it must
    filter on the game's ruleset so that it never misreads another ruleset's payloads.
    """

    name: str
    sql: str
    description: str


def sql_literal(value: str) -> str:
    """``value`` as an SQL string literal (a quote doubled), for a view written from a ruleset's data."""
    return "'" + value.replace("'", "''") + "'"


class Scenario(msgspec.Struct, frozen=True, kw_only=True):
    """A ready-to-play situation: who plays, and how a setup is built from a matchup's options.

    ``build(options, seed)`` returns the ruleset's setup (its ``setup_type``); ``options`` is the matchup
    file's table of options for this scenario (forces, table size, last turn...), ``seed`` a run's seed
    for anything the set-up randomises. ``default_options`` make the scenario playable with none given.
    """

    name: str
    description: str
    players: tuple[str, ...]
    build: Callable[[Mapping[str, Any], int], Any]
    default_options: dict[str, Any] = msgspec.field(default_factory=dict)
    #: ``prepare(options, base_dir)``: the options checked and made self-contained once, when a matchup file
    #: is read (files it names, relative to ``base_dir``, read in; defaults filled), so that every game's
    #: ``build`` gets plain data; a :class:`~aero_events.core.errors.DataError` names the field at fault.
    #: None: the options are used as given.
    prepare: Callable[[Mapping[str, Any], str | None], dict[str, Any]] | None = None


class BotInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A bot by name: ``make(ruleset, seed)`` returns an object with ``choose(session, player, options)``."""

    name: str
    description: str
    make: Callable[[Any, int | str], Any]


class VersionInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One version of a ruleset family as ``aero versions`` lists it: what it is based on and changes."""

    name: str
    data_version: str
    based_on: str = ""
    changes: tuple[str, ...] = ()
    description: str = ""
    #: The rule options this version plays with (:meth:`ToolInterface.rule_options`); () when it has none.
    options: tuple[RuleOption, ...] = ()


class RuleOption(msgspec.Struct, frozen=True, kw_only=True):
    """One rule option of a ruleset, as ``aero versions``/``aero rulesets`` list it: its name, the value this
    ruleset plays with, the ruleset's default, the values allowed (``()``: any value of ``kind``; ``limits``
    says the bounds of a number) and what it means (the field's ``msgspec.Meta(description=...)``)."""

    name: str
    kind: str
    value: Any
    default: Any
    allowed: tuple[Any, ...] = ()
    limits: str = ""
    description: str = ""

    def line(self) -> str:
        """``brace_timing = "any_time" (default "reaction"; one of "reaction", "any_time")``."""
        shown = _option_value(self.value)
        choices = f"; one of {', '.join(_option_value(v) for v in self.allowed)}" if self.allowed else \
            f"; {self.kind}{' ' + self.limits if self.limits else ''}"
        default = "" if self.value == self.default else f"default {_option_value(self.default)}; "
        text = f"{self.name} = {shown} ({default}{choices.removeprefix('; ')})"
        return f"{text}: {self.description}" if self.description else text


class VariantDefinition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A user's variant of a ruleset that declares ``options_type``: a new ``name``, the ruleset it changes
    (``base``, a ruleset name or an earlier variant's), what it is (``description``) and the rule options it
    changes (``options``: option name -> value; the others keep the base's). Read from a JSON or TOML file by
    :meth:`ToolInterface.variant_from_file` and kept in a game's metadata under ``variant``."""

    name: str
    base: str
    description: str = ""
    options: dict[str, Any] = msgspec.field(default_factory=dict)

    def digest(self) -> str:
        """A short hash of the base and the options it changes: two definitions under one name differ here."""
        return hashlib.sha256(msgspec.json.encode({"base": self.base, "options": self.options},
                                                  order="sorted")).hexdigest()[:8]


class CorpusScenario(msgspec.Struct, frozen=True, kw_only=True):
    """One kind of game of a ruleset's golden corpus (``aero corpus``): the ruleset it is played under (a
    name :attr:`CorpusPlan.rules_for` resolves), how its setup is built, the bots by player, and the corpus
    items it is meant to cover."""

    name: str
    ruleset: str
    description: str
    build: Callable[[Any], Any]
    bots: tuple[str, ...]
    players: tuple[str, ...]
    targets: frozenset[str] = frozenset()


class CorpusPlan(msgspec.Struct, frozen=True, kw_only=True):
    """A ruleset family's golden corpus: its scenarios (searched seed by seed, in order), what the corpus
    must cover, what one game covers (``coverage(ruleset, initial_state, envelopes)``), and the ruleset of a
    scenario by name (``rules_for``: versions and test variants)."""

    scenarios: tuple[CorpusScenario, ...]
    required: frozenset[str]
    coverage: Callable[[Any, Any, Sequence[Envelope]], set[str]]
    rules_for: Callable[[str], Any]


class RecoveryError(AeroError):
    """A recorded game that does not replay under its own ruleset from the commands recovered from it."""


class UnknownDecision(AeroError):
    """A recorded event that starts a command, but that the ruleset cannot turn back into one."""


class DecisionPoint:
    """A command boundary of a game recorded without its commands: the state there and the recorded
    envelopes, the command's own starting at ``start``
    (:meth:`ToolInterface.legacy_command_candidates`)."""

    def __init__(self, state: Any, envelopes: Sequence[Envelope], start: int):
        self.state = state
        self.envelopes = envelopes
        self.start = start

    @property
    def decision(self) -> Envelope:
        """The command's first event that is neither a die nor a core event (its decision event)."""
        for env in self.envelopes[self.start:]:
            if env.type != "DiceRolled" and not is_core_event(env.event):
                return env
        raise RecoveryError(f"the record ends with dice that no event reads (after seq "
                            f"{self.envelopes[self.start].seq})")

    @property
    def player(self) -> str:
        """Who gave the command: the actor of its first envelope."""
        env = self.envelopes[self.start]
        if env.actor is None:
            raise RecoveryError(f"event {env.seq} ({env.type}, turn {env.turn}, {env.phase}) starts a command "
                                "but names no player")
        return env.actor

    def following(self, type_name: str) -> Any | None:
        """The first event of ``type_name`` after the decision event, if any."""
        seen_decision = False
        for env in self.envelopes[self.start:]:
            if seen_decision and env.type == type_name:
                return env.event
            if env.type != "DiceRolled" and not is_core_event(env.event):
                seen_decision = True
        return None


class Notation:
    """Commands as text and back (``aero record``, the ``.aero`` record format).

    The default writes a command as compact JSON (its msgspec encoding) and reads it back, so every
    ruleset can be recorded at once; a ruleset overrides it with a notation people write by hand.
    """

    def __init__(self, ruleset: Any):
        self.ruleset = ruleset

    def format(self, state: Any, command: Any) -> str:
        return msgspec.json.encode(command).decode()

    def parse(self, state: Any, player: str, text: str) -> Any:
        """The command ``text`` names for ``player``; a :class:`RuleError` names what is wrong."""
        options = self.ruleset.legal_commands(state, player)
        for command in options:
            if self.format(state, command) == text.strip():
                return command
        raise RuleError(f"{text.strip()!r} is not a legal command for {player} now", rule="Notation")

    def help(self) -> str:
        return "Commands are written as their JSON encoding, as `aero record` lists them."

    # ---------------------------------------------------------------- words of a record (``.aero``, ``aero record``)
    # A record writes each step as words and reads it back from words (aero_events/record/record_format.py).
    # The defaults write a command as one quoted word of JSON and read that back, so any ruleset round-trips.

    def subject(self, command: Any) -> str | None:
        """Who a step names (an aircraft, a player): a record writes it once for a run of steps of the same
        subject, and a step read without one takes the previous step's. None (the default): every step is
        written whole."""
        return None

    def words(self, state: Any, command: Any, *, with_subject: bool = True, salts: Sequence[str] = ()) -> list[str]:
        """The step of ``command`` (given in ``state``) as the words a record writes.

        Each word must read back as one word of a record: white space, ``"`` and any of ``{}()[]`` only
        inside double quotes (:func:`quote_word`); no unquoted word may start with ``=`` (a result mark) or
        look like a turn marker (``3.``). ``salts`` are the salts of the step's sealed events when the record
        cannot derive them (in order: the recorded command's, then the ruleset's). Default: the player, the
        step's :meth:`format` as one quoted word, then a ``~salt`` word per salt (``alice "order hold"``)."""
        return [plain_word(command.player), plain_word(self.format(state, command)), *(f"~{salt}" for salt in salts)]

    def read(self, state: Any, words: Sequence[Any], subject: str | None = None) -> NotationStep:
        """The step at the start of ``words`` (each has ``value``, its text with quotes resolved, and
        ``quoted``); ``subject`` is the previous step's. Raises :class:`NotationError` at the word that
        cannot be read; whether the command is legal is for the rules to say when it is applied.

        Default (what :meth:`words` writes): a player, then the step's text, read by ``decode_command`` when
        it is JSON (so that the rules judge it), else by :meth:`parse`; then ``~salt`` words."""
        players = tuple(self.ruleset.players(state))
        if not words or words[0].value not in players:
            raise NotationError(f"a step starts with the player who gives it ({', '.join(players)})", 0 if words else None)
        if len(words) < 2:
            raise NotationError(f"what does {words[0].value} do? the step's text follows the player", None)
        player, text = words[0].value, words[1].value
        try:
            if text.lstrip().startswith("{"):
                command = self.ruleset.decode_command(msgspec.json.decode(text))
            else:
                command = self.parse(state, player, text)
        except (msgspec.DecodeError, AeroError) as err:
            raise NotationError(f"{text!r} is not a command of {getattr(self.ruleset, 'name', 'this ruleset')}: "
                                f"{err}", 1) from err
        if command.player != player:
            raise NotationError(f"{text!r} is {command.player}'s command, not {player}'s", 1)
        end = 2
        while end < len(words) and not words[end].quoted and words[end].value.startswith("~"):
            end += 1
        salts = tuple(word.value[1:] for word in words[2:end])
        return NotationStep(command=command, subject=self.subject(command), salts=salts, end=end, verb=1)

    def dice_label(self, purpose: str) -> str:
        """The one-word label a record gives a roll (``[hit 5,2]``), from the roll's purpose; the default is
        the purpose's first words, slugged ("to hit: a at b" -> ``to-hit``)."""
        head = purpose.strip().lower().split(":")[0].split(" for ")[0].split(" on ")[0]
        return re.sub(r"[^a-z0-9_]+", "-", head).strip("-") or "roll"

    def marks(self, events: Sequence[Any], subject: str | None) -> list[str]:
        """Result marks a record writes after a step (``=orks-1:X``), each starting with ``=``: facts the rules
        derive from the step's ``events``, checked when the record is read. Default: none."""
        return []

    def turn(self, state: Any) -> int | None:
        """The turn a record marks (``3.``) before a step given in ``state``; None marks none (a set-up).
        Default: the turn of ``ruleset.clock``."""
        return self.ruleset.clock(state)[0]


class ToolInterface:
    """Defaults of the methods tools call; a ruleset overrides what it can say better."""

    def describe_event(self, event: Any, state: Any = None) -> str:
        """One line of English for ``event`` (``state`` is the state before it). '' hides it from narration."""
        fields = msgspec.structs.asdict(event) if isinstance(event, msgspec.Struct) else {}
        shown = ", ".join(f"{key}={value}" for key, value in fields.items() if value not in (None, (), {}))
        return f"{type(event).__name__}({shown})"

    def describe_command(self, command: Any, state: Any = None) -> str:
        """One line of English for a command a player may give."""
        return self.notation().format(state, command)

    def outcome(self, state: Any) -> Outcome:
        """The game's result, or the standing of a game under way."""
        return Outcome(finished=bool(self.is_over(state)), reason="")  # type: ignore[attr-defined]

    def scene(self, state: Any, viewer: str | None = None, events: Sequence[Any] = (),
              focus: str | None = None) -> Scene:
        """What ``viz/`` draws for ``state`` as ``viewer`` may see it.

        ``events`` are the ``(envelope, state before, state after)`` triples since the previous scene the
        viewer saw (a replay's step): a ruleset draws the paths flown and lines of fire of those events
        from them. ``focus`` names a piece the viewer points at: a ruleset may add what matters for it
        (fire arcs, ranges) as templates. Both may be ignored.
        """
        return Scene(table=Table(width=1000.0, height=1000.0), caption=type(state).__name__)

    def step_grouping(self) -> StepGrouping:
        """How a replay cuts this ruleset's games into frames (default: a frame per command that changed
        the scene; see :class:`~aero_events.core.scene.StepGrouping`)."""
        return StepGrouping()

    def report_sections(self, timeline: Any) -> Sequence[ReportSection]:
        """The ruleset's own sections of the post-match report (after the generic ones); default none.

        ``timeline`` is an :class:`aero_events.analysis.timeline.Timeline` (the game folded once).
        """
        return ()

    def sql_views(self) -> Sequence[SqlView]:
        """The ruleset's own DuckDB views, created in every database file that holds its games."""
        return ()

    def notation(self) -> Notation:
        return Notation(self)

    def recorder_guide(self) -> RecorderGuide:
        """How ``aero record`` records this ruleset's games at a real table: decisions and secret orders, the
        board in text, a new game's setup and a record's setup headers (:class:`RecorderGuide`)."""
        return RecorderGuide(self)

    def scenarios(self) -> Mapping[str, Scenario]:
        return {}

    def bots(self) -> Mapping[str, BotInfo]:
        return {}

    #: The rule options the constructor takes as ``options=`` (a frozen msgspec Struct, every field with a
    #: default), read through ``self.options``; None: the ruleset has none (or handles its own variants).
    options_type: ClassVar[type | None] = None
    #: What this version of the rules is, in a sentence, for ``aero versions`` (a variant says its own).
    version_description: ClassVar[str] = ""
    #: The user's variant this ruleset plays (set by :meth:`variant_from_file`/:meth:`variant_from_metadata`);
    #: None for a ruleset as the package declares it.
    variant: VariantDefinition | None = None

    @classmethod
    def variant_from_metadata(cls, name: str, metadata: Mapping[str, Any]) -> Any | None:
        """A ruleset for a variant recorded in a game's metadata, or None when this family has none.

        Default, for a ruleset with ``options_type``: the :class:`VariantDefinition` under the metadata's
        ``variant`` key, when it is called ``name`` and based on this family, rebuilt and registered."""
        if cls.options_type is None or not isinstance(metadata, Mapping):
            return None
        data = metadata.get("variant")
        if not isinstance(data, Mapping) or data.get("name") != name:
            return None
        base = data.get("base")
        if not isinstance(base, str) or _family(base) != _family(_class_name(cls)):
            return None
        source = "<game metadata: variant>"
        definition = _decode_variant(dict(data), source)
        if definition.name in _VARIANTS and _VARIANTS[definition.name] != definition:
            # Another definition holds the name in this process (a file edited since): the game gets its own
            # definition, and the name keeps the newer one.
            return _build_variant(cls, definition, source)
        return _register_variant(cls, definition, source)

    @classmethod
    def variant_from_file(cls, path: str) -> Any | None:
        """The ruleset a user's variant file (``--rules my-variant.toml``) defines, registered by its name, or
        None when this family has no variant files. A malformed file is a DataError naming the field.

        Default, for a ruleset with ``options_type``: a :class:`VariantDefinition` in JSON or TOML (None when
        its ``base`` is another family's); its options are checked against ``options_type`` (an unknown
        option, a wrong type, a value outside the allowed ones: a DataError naming the file, the field and
        the values allowed)."""
        if cls.options_type is None:
            return None
        source = os.fspath(path)
        definition = _decode_variant(read_variant_document(source), source)
        base_rules = _base_ruleset(definition.base, source)
        if _family(_class_name(type(base_rules))) != _family(_class_name(cls)):
            return None
        return _register_variant(cls, definition, source)

    def rule_options(self) -> list[RuleOption]:
        """Each rule option of ``options_type``: the value played, the default, the values allowed."""
        if self.options_type is None:
            return []
        return describe_options(self.options_type, getattr(self, "options", None))

    def with_options(self, options: Any) -> Any:
        """This ruleset under ``options`` (an ``options_type``): by default ``type(self)(options=options)``; a
        ruleset whose other constructor arguments matter overrides it."""
        return type(self)(options=options)  # type: ignore[call-arg]

    def versions(self) -> list[VersionInfo]:
        """The versions of this ruleset's family that ``aero versions`` lists (the default: this one, and each
        generic variant registered in this process, with the options each changes)."""
        listed = [VersionInfo(name=self.name,  # type: ignore[attr-defined]
                              data_version=str(self.data_version),  # type: ignore[attr-defined]
                              based_on=self.variant.base if self.variant else "",
                              changes=_variant_changes(self.variant), options=tuple(self.rule_options()),
                              description=self.variant.description if self.variant else self.version_description)]
        if self.options_type is not None and self.variant is None:
            for definition in _VARIANTS.values():
                own_family = _family(self.name)  # type: ignore[attr-defined]
                if definition.name != self.name and _family(definition.base) == own_family:
                    rules = _build_variant(type(self), definition, "<registered variant>")
                    listed.extend(rules.versions())
        return listed

    # ---------------------------------------------------------------- recorded commands

    def is_secret_command(self, command: Any) -> bool:
        """True for a command that is a secret choice (a face-down token, a sealed bid): the session records
        it as a :class:`~aero_events.core.session.SecretCommandIssued` that only its player can read."""
        return False

    def hides_from(self, state: Any, viewer: str | None) -> bool:
        """True when ``state`` holds something the rules hide from ``viewer`` (a player; None: a spectator):
        a face-down token or card, a secret draw, a pool's hidden contents. A tool that plays a position on for
        a page drawn for ``viewer`` (the win-probability strip) must not start from such a state: its playouts
        would read the hidden part, and the odds shown would tell it.

        The default compares what ``view`` shows with the whole state: the state itself, or a state of the same
        type that equals it, hides nothing; else the view is taken as the state's JSON data with the hidden part
        changed or gone, and hides something when it differs from the state's. A view of another shape always
        counts as hiding: a ruleset whose ``view`` builds something else overrides this to say when."""
        seen = self.view(state, viewer)  # type: ignore[attr-defined]
        if seen is state:
            return False
        if type(seen) is type(state):
            return seen != state
        return seen != msgspec.to_builtins(state)

    def decode_command(self, data: Mapping[str, Any]) -> Any:
        """The command a recorded ``CommandIssued`` carries (its msgspec encoding as JSON data).

        The default finds the command class by its tag, preferring this ruleset's package when several
        rulesets use the tag; a ruleset whose commands need more overrides it."""
        from .decider import decode_command

        return decode_command(dict(data), type(self).__module__.rpartition(".")[0])

    def legacy_command_candidates(self, point: DecisionPoint) -> Sequence[Any]:
        """For a game recorded before commands were (no ``CommandIssued``): the commands that may have given
        the events from ``point.start``, tried in order by ``aero regress``, which keeps the one whose decided
        events are exactly the recorded ones. A ruleset with such games overrides it; the default refuses."""
        env = point.decision
        raise UnknownDecision(
            f"event {env.seq} ({env.type}, turn {env.turn}, {env.phase}) starts a command, but the game was "
            f"recorded without its commands and {getattr(self, 'name', type(self).__name__)} cannot recover "
            "them from its events")

    def game_metadata(self) -> dict[str, Any]:
        """What a game played under this ruleset keeps in its metadata so that it can be reloaded without
        any file (a user's variant: its definition; :meth:`variant_from_metadata` reads it back).

        Default: ``{"variant": definition}`` for a generic variant (its base a ruleset of the package, the
        options it changes), nothing otherwise."""
        if self.variant is None:
            return {}
        return {"variant": msgspec.to_builtins(self.variant)}

    def corpus(self) -> CorpusPlan | None:
        """The family's golden corpus (``aero corpus``), or None when it has none."""
        return None

    # ---------------------------------------------------------------- what tools show

    def sides(self, state: Any) -> Sequence[str]:
        """The sides that score and win (the players by default)."""
        return tuple(self.players(state))  # type: ignore[attr-defined]

    def piece_ids(self, state: Any) -> Sequence[str]:
        """The ids of the pieces on the table (aircraft, ships...), for per-piece statistics."""
        return tuple(piece.id for piece in self.scene(state).pieces)

    def score_name(self) -> str:
        """What the outcome's scores are called in reports ("VP", "points")."""
        return "score"

    def statistics(self, state: Any) -> dict[str, dict[str, int]]:
        """Counts per side worth comparing across games (simulate, compare, regress), by name, e.g.
        ``{"aircraft lost": {"orks": 2, "imperium": 0}}``; none by default."""
        return {}

    def describe_state(self, state: Any) -> list[str]:
        """The state in a few lines (``aero play``'s ``s``): the standing, then each piece of the scene."""
        lines = [self.summary_line(state)]
        for piece in self.scene(state).pieces:
            lines.append(f"  {piece.label:12} {piece.side:10} {piece.status:10} ({piece.x:.0f}, {piece.y:.0f}) mm"
                         + (f" {piece.detail}" if piece.detail else ""))
        return lines

    def summary_line(self, state: Any) -> str:
        """A game's standing in one line: the outcome's reason and scores."""
        outcome = self.outcome(state)
        scores = ", ".join(f"{side} {_number(score)} {self.score_name()}" for side, score in outcome.scores.items())
        if outcome.finished:
            result = f"{outcome.winner} wins" if outcome.winner else "a draw" if outcome.draw else "over"
        else:
            result = "under way"
        return "; ".join(part for part in (result, outcome.reason, scores) if part)

    def narrate(self, envelopes: Iterable[Envelope], initial: Any = None) -> Iterator[str]:
        """The readable lines of a game, in order: ``describe_event`` of each event the ruleset made (with the
        state before it when ``initial`` is given); events described as '' are left out."""
        state = initial
        for envelope in envelopes:
            event = envelope.event
            if is_core_event(event):
                continue
            line = self.describe_event(event, state)
            if state is not None:
                state = self.evolve(state, event)  # type: ignore[attr-defined]
            if line:
                yield line

    def describe_setup(self, setup: Any, bots: Mapping[str, str]) -> list[str]:
        """Lines saying who plays what before a game (the demo prints them): one per player and bot."""
        return [f"{player} ({bot} bot)" for player, bot in bots.items()]

    def demo_scenario(self) -> tuple[str, dict[str, Any], tuple[str, ...]] | None:
        """What ``aero demo`` plays: (scenario name, its options, a bot name per player), or None for the
        first scenario with its default options and the first bot for every player."""
        return None


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# ---------------------------------------------------------------- the record format and the table recorder


def quote_word(text: str) -> str:
    """``text`` as one quoted word of a record (``"Red One"``; ``"`` and ``\\`` escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


_PLAIN_WORD = re.compile(r'^[^\s"{}()\[\]=~\\][^\s"{}()\[\]\\]*$')


def plain_word(text: str) -> str:
    """``text`` as one word of a record: as it is when it can be (no white space, quotes or brackets, not
    starting with ``=`` or ``~``, not a turn marker like ``3.``), quoted otherwise."""
    if _PLAIN_WORD.match(text) and not re.fullmatch(r"\d+\.+", text):
        return text
    return quote_word(text)


class NotationError(ValueError):
    """A step that cannot be read: ``word`` is the index of the word at fault among those handed to
    :meth:`Notation.read` (None: the step ends too early), ``offset`` the character in its raw text."""

    def __init__(self, message: str, word: int | None = None, offset: int = 0):
        super().__init__(message)
        self.message = message
        self.word = word
        self.offset = offset


class NotationStep(msgspec.Struct, frozen=True, kw_only=True):
    """One step read by :meth:`Notation.read`: its command, the subject it names (the next step's default),
    the explicit salts written with it, the index after its last word, and the index of its verb (where a
    refusal by the rules is reported)."""

    command: Any
    subject: str | None = None
    salts: tuple[str, ...] = ()
    end: int = 1
    verb: int = 0


class HeaderError(ValueError):
    """A record header that is wrong: ``name`` is the header, ``offset`` where in its value (None: all of it)."""

    def __init__(self, message: str, name: str, offset: int | None = None):
        super().__init__(message)
        self.message = message
        self.name = name
        self.offset = offset


@dataclass
class TableDecision:
    """What ``aero record`` asks next: whose choice it is and the legal commands offered.

    ``subject`` is what a typed step names when it names nothing (:meth:`Notation.subject`); ``keys`` are
    answers that pick an option besides its number in the list (a Manoeuvre token's own number);
    ``unlisted(answer)`` gives the command an answer that is no key names, so that the rules refuse it with
    their reason (None: such answers are read as steps). ``secret``: a simultaneous secret order (a
    face-down token, a planned card): the player types it unseen, and the screen never shows it.
    ``announce`` is said once per distinct value of its first element (a new turn's orders, say).
    """

    player: str
    options: Sequence[Any]
    title: str
    subject: str | None = None
    keys: dict[str, int] = field(default_factory=dict)
    unlisted: Callable[[str], Any | None] | None = None
    secret: bool = False
    announce: tuple[Any, str] | None = None


class RecorderGuide:
    """How ``aero record`` (aero_events/record/recorder.py) records a game of a ruleset at a real table.

    The defaults work for any ruleset: the first player (in the ruleset's order) with legal commands decides,
    an order is secret when its commands are (``is_secret_command``: every player then types theirs unseen,
    in turn), the board is the scene's pieces, the setup is a scenario's (or the setup type's defaults)
    and a record's setup is one ``[Setup]`` header of JSON. Physical draws are typed by name wherever the
    rules draw from a pool (:func:`aero_events.core.pools.draw_from`). A ruleset overrides what it says
    better (:meth:`ToolInterface.recorder_guide`).
    """

    def __init__(self, ruleset: Any):
        self.ruleset = ruleset

    def decision(self, state: Any) -> TableDecision | None:
        """The decision the game waits for in ``state`` (None: no player has a legal command)."""
        rules = self.ruleset
        for player in rules.players(state):
            options = rules.legal_commands(state, player)
            if not len(options):
                continue
            sample = options[:64]
            secret = all(rules.is_secret_command(command) for command in sample)
            subjects = {rules.notation().subject(command) for command in sample}
            turn, phase = rules.clock(state)
            what = "gives a secret order" if secret else "to choose"
            return TableDecision(player=player, options=options, secret=secret,
                                 title=f"Turn {turn}, {str(phase).replace('_', ' ')}: {player} {what}",
                                 subject=subjects.pop() if len(subjects) == 1 else None)
        return None

    def hints(self, state: Any, decision: TableDecision) -> Callable[[Any], str]:
        """A short hint shown beside each option (where a move ends, the Speed it gives); default none."""
        return lambda command: ""

    def board(self, state: Any) -> str:
        """The table in text (``board`` at the recorder's prompt); default: the scene's pieces, one a line."""
        scene = self.ruleset.scene(state)
        lines = [self.ruleset.summary_line(state) or scene.caption]
        for piece in scene.pieces:
            level = f" {piece.level_label or piece.level}" if piece.level is not None else ""
            lines.append(f"  {piece.id} ({piece.side}) at {piece.x:g},{piece.y:g} heading {piece.heading:g}{level}, "
                         f"{piece.status}{' ' + piece.detail if piece.detail else ''}")
        return "\n".join(lines)

    def new_setup(self, options: Mapping[str, Any], ask: Callable[[str], str], say: Callable[[str], None]) -> Any:
        """The setup of a new game at the table, from ``options`` (the command line's, None when not given)
        and answers to ``ask``. Default: a scenario of the ruleset (asked for when there are several; its
        default options updated by the given ones), else the setup type with its defaults."""
        scenarios = dict(self.ruleset.scenarios())
        given = {key: value for key, value in options.items() if value is not None}
        if scenarios:
            names = list(scenarios)
            name = str(given.pop("scenario", "")) or names[0]
            if len(names) > 1 and "scenario" not in options:
                for number, each in enumerate(names, start=1):
                    say(f"  {number}. {each}: {scenarios[each].description}")
                answer = ask(f"which scenario [{names[0]}]? ").strip()
                name = names[int(answer) - 1] if answer.isdigit() and 1 <= int(answer) <= len(names) else \
                    (answer or names[0])
            if name not in scenarios:
                raise AeroError(f"no scenario {name!r} in {self.ruleset.name}; its scenarios: {', '.join(names)}")
            scenario = scenarios[name]
            return scenario.build({**scenario.default_options, **given}, int(given.get("seed", 0) or 0))
        try:
            return self.ruleset.setup_type()
        except TypeError as err:
            raise AeroError(f"{self.ruleset.name} does not say how a game is set up at the table "
                            "(no scenarios, and its setup has no defaults)") from err

    def setup_headers(self, setup: Any) -> dict[str, str]:
        """A record's headers for ``setup`` (in order); default: the whole setup as JSON in ``[Setup]``."""
        return {"Setup": msgspec.json.encode(setup).decode()}

    def setup_from_headers(self, values: Mapping[str, str]) -> Any:
        """The setup a record's headers give; a :class:`HeaderError` names the header at fault."""
        if "Setup" not in values:
            raise HeaderError("a record of this ruleset gives its setup as JSON: [Setup \"{...}\"]", "Setup")
        try:
            return msgspec.json.decode(values["Setup"], type=self.ruleset.setup_type | None)
        except msgspec.DecodeError as err:
            raise HeaderError(f"the setup is not a {self.ruleset.setup_type.__name__}: {err}", "Setup") from err


def event_corpus(ruleset: Any, items: Mapping[str, str], games: Sequence[tuple[str, tuple[str, ...]]],
                 *, required: Iterable[str] | None = None) -> CorpusPlan:
    """A corpus plan whose items are rules shown by event types: ``items`` maps an event tag to the rule it
    shows; ``games`` lists (scenario name, bots by player) of the ruleset's own :meth:`~ToolInterface.scenarios`,
    each built with its default options. ``required`` (default: every item) is what the corpus must cover.

    Most rulesets need no more than this: one rule, one kind of event.
    """
    scenarios = ruleset.scenarios()

    def build_for(name: str) -> Callable[[Any], Any]:
        return lambda rules: rules.scenarios()[name].build(dict(rules.scenarios()[name].default_options), 0)

    plan_scenarios = tuple(
        CorpusScenario(name=f"{ruleset.name.partition('/')[0]}-{name}-{'-'.join(bots)}", ruleset=ruleset.name,
                       description=f"{scenarios[name].description} ({' against '.join(bots)})",
                       build=build_for(name), bots=tuple(bots), players=tuple(scenarios[name].players))
        for name, bots in games)

    def coverage(rules: Any, initial: Any, envelopes: Sequence[Envelope]) -> set[str]:
        return {items[env.event.type_name()] for env in envelopes if env.event.type_name() in items}

    factory = type(ruleset)
    return CorpusPlan(scenarios=plan_scenarios, required=frozenset(items.values() if required is None else required),
                      coverage=coverage, rules_for=lambda name: factory())


# ---------------------------------------------------------------- rule options and generic variants

#: Variant names: lower-case words separated by '/', as ruleset names are (``my/brace-any-time``).
_VARIANT_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)*$")
#: Generic variants registered in this process, by name (flattened: based on a ruleset of the package).
_VARIANTS: dict[str, VariantDefinition] = {}


def _family(name: str) -> str:
    return name.partition("/")[0]


def _class_name(cls: type) -> str:
    return str(getattr(cls, "name", cls.__name__))


def _option_value(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def describe_options(options_type: type, current: Any = None) -> list[RuleOption]:
    """Each field of the options Struct ``options_type`` as a :class:`RuleOption`: its kind, the value in
    ``current`` (an instance; default: the defaults), the default, the values allowed (a ``Literal``, a bool)
    or the bounds of a number (``msgspec.Meta(ge=...)``), and its ``Meta(description=...)``."""
    from msgspec import inspect

    info = inspect.type_info(options_type)
    if not isinstance(info, inspect.StructType):
        raise TypeError(f"options_type {options_type!r} is not a msgspec Struct")
    defaults = options_type()
    found = []
    for field_info in info.fields:
        kind, description = field_info.type, ""
        if isinstance(kind, inspect.Metadata):
            description = str((kind.extra_json_schema or {}).get("description", ""))
            kind = kind.type
        allowed: tuple[Any, ...] = ()
        limits = ""
        if isinstance(kind, inspect.LiteralType):
            allowed, name = _literal_values(options_type, field_info.name) or tuple(kind.values), "one of"
        elif isinstance(kind, inspect.BoolType):
            allowed, name = (False, True), "bool"
        else:
            kinds = {inspect.IntType: "int", inspect.StrType: "str", inspect.FloatType: "float"}
            name = kinds.get(type(kind), "value")
            bounds = [f"{word} {getattr(kind, attr)}"
                      for attr, word in (("gt", ">"), ("ge", ">="), ("lt", "<"), ("le", "<="))
                      if getattr(kind, attr, None) is not None]
            limits = " and ".join(bounds)
        value = getattr(current if current is not None else defaults, field_info.name)
        found.append(RuleOption(name=field_info.name, kind=name, value=value,
                                default=getattr(defaults, field_info.name), allowed=allowed, limits=limits,
                                description=description))
    return found


def _literal_values(options_type: type, name: str) -> tuple[Any, ...]:
    """The values of a ``Literal`` field in the order the Struct writes them (the first is usually the text's)."""
    hint = typing.get_type_hints(options_type, include_extras=True).get(name)
    while typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    return typing.get_args(hint) if typing.get_origin(hint) is typing.Literal else ()


def _json_line(raw: bytes, message: str) -> int | None:
    found = re.search(r"\(byte (\d+)\)", message)
    # no byte named (an empty or truncated file): the last line
    return raw[: int(found.group(1))].count(b"\n") + 1 if found else raw.rstrip().count(b"\n") + 1


def read_variant_document(path: str | os.PathLike) -> dict[str, Any]:
    """The object a variant file holds: TOML for ``.toml``, JSON otherwise; a DataError names the file (and
    the line of a JSON syntax error)."""
    source = os.fspath(path)
    raw = read_data_file(source)
    if source.lower().endswith(".toml"):
        try:
            data: Any = tomllib.loads(raw.decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            line = re.search(r"line (\d+)", str(err))  # TOML errors say "(at line N, column M)"
            raise DataError(f"not valid TOML: {err}", source=source, location=int(line[1]) if line else 1) from None
        except RecursionError:
            raise DataError("not readable: nested too deeply", source=source, location=1) from None
    else:
        try:
            data = msgspec.json.decode(raw)
        except msgspec.DecodeError as err:
            raise DataError(f"not valid JSON: {err}", source=source,
                            location=_json_line(raw, str(err))) from None
        except (RecursionError, UnicodeDecodeError) as err:
            what = "nested too deeply" if isinstance(err, RecursionError) else "not UTF-8 text"
            raise DataError(f"not readable: {what}", source=source, location=1) from None
    if not isinstance(data, dict):
        raise DataError("a variant is an object with a 'name', a 'base' and its 'options'", source=source,
                        location=1)
    return data


def _validation_path(err: msgspec.ValidationError) -> tuple[str, list[str]]:
    """msgspec's ``"Invalid enum value 'x' - at `$.options.a`"`` as ("Invalid enum value 'x'",
    ["options", "a"])."""
    detail, sep, where = str(err).rpartition(" - at ")
    if not sep:
        return str(err), []
    path = [name or index for name, index in
            re.findall(r"\.([^.\[\]`]+)|\[(\d+)\]", where.strip().strip("`").removeprefix("$"))]
    return detail, path


def _decode_variant(data: dict[str, Any], source: str) -> VariantDefinition:
    """The :class:`VariantDefinition` in ``data``; a DataError names ``source`` and the field at fault."""
    for required, example in (("name", '"my/brace-any-time"'), ("base", '"battlefleet-gothic/core"')):
        if required not in data:
            raise DataError(f"a variant gives its {required} (e.g. {required} = {example})", source=source,
                            field=required)
    unknown = sorted(set(data) - set(VariantDefinition.__struct_fields__))
    if unknown:
        fields = ", ".join(VariantDefinition.__struct_fields__)
        raise DataError(f"unknown field {unknown[0]!r}; a variant has {fields}", source=source,
                        field=unknown[0])
    try:
        definition = msgspec.convert(data, VariantDefinition)
    except msgspec.ValidationError as err:
        detail, path = _validation_path(err)
        raise DataError(detail, source=source, field=".".join(path) or None) from None
    if not _VARIANT_NAME.match(definition.name):
        raise DataError(f"name {definition.name!r} must be lower-case words separated by '/', e.g. "
                        "'my/brace-any-time'", source=source, field="name")
    return definition


def _base_ruleset(base: str, source: str) -> Any:
    from .registry import get_ruleset, known_rulesets

    try:
        return get_ruleset(base)
    except KeyError:
        known = ", ".join([*known_rulesets(), *(name for name in _VARIANTS if name not in known_rulesets())])
        raise DataError(f"unknown base ruleset {base!r}; known rulesets: {known}", source=source,
                        field="base") from None


def options_from_changes(options_type: type, base_options: Any, changes: Mapping[str, Any],
                         source: str) -> Any:
    """``base_options`` (an ``options_type``) with ``changes`` applied, checked: an unknown option, a value of
    the wrong type or outside the allowed ones is a DataError naming ``source``, ``options.<name>`` and what
    the option allows."""
    described = {option.name: option for option in describe_options(options_type)}
    for name in changes:
        if name not in described:
            raise DataError(f"unknown rule option {name!r}; the options are {', '.join(described)}",
                            source=source, field=f"options.{name}")
    base = msgspec.to_builtins(base_options if base_options is not None else options_type())
    try:
        return msgspec.convert({**base, **changes}, options_type)
    except msgspec.ValidationError as err:
        detail, path = _validation_path(err)
        option = described.get(path[0]) if path else None
        if option is None:
            raise DataError(detail, source=source, field="options") from None
        wanted = f"one of {', '.join(_option_value(v) for v in option.allowed)}" if option.allowed else \
            f"{option.kind}{' ' + option.limits if option.limits else ''}"
        raise DataError(f"{detail}: {option.name} takes {wanted} (default {_option_value(option.default)})",
                        source=source, field=".".join(["options", *path])) from None


def _variant_changes(definition: VariantDefinition | None) -> tuple[str, ...]:
    if definition is None:
        return ()
    return tuple(f"option {key}={_option_value(value)}" for key, value in definition.options.items())


def _build_variant(cls: type, definition: VariantDefinition, source: str) -> Any:
    """The ruleset ``definition`` describes, as a ruleset of ``cls``'s family: its base's options with the
    definition's changes. A variant based on another variant is flattened onto the package ruleset at its root
    (its options merged), so that its definition alone rebuilds it in any process."""
    base_rules = _base_ruleset(definition.base, source)
    parent = getattr(base_rules, "variant", None)
    if isinstance(parent, VariantDefinition):
        definition = msgspec.structs.replace(definition, base=parent.base,
                                             options={**parent.options, **definition.options})
        base_rules = _base_ruleset(parent.base, source)
    else:
        definition = msgspec.structs.replace(definition, base=base_rules.name)
    options_type = getattr(type(base_rules), "options_type", None) or getattr(cls, "options_type", None)
    if options_type is None:
        raise DataError(f"{base_rules.name} has no rule options that a variant could change", source=source,
                        field="base")
    options = options_from_changes(options_type, getattr(base_rules, "options", None), definition.options,
                                   source)
    rules = base_rules.with_options(options)
    rules.name = definition.name
    rules.variant = definition
    return rules


def _register_variant(cls: type, definition: VariantDefinition, source: str) -> Any:
    """Build ``definition`` and make ``get_ruleset(definition.name)`` return it in this process."""
    import functools

    from .registry import get_ruleset, register_ruleset

    try:
        taken = definition.name not in _VARIANTS and get_ruleset(definition.name) is not None
    except KeyError:
        taken = False
    if taken:
        raise DataError(f"{definition.name!r} is already a ruleset's name; give the variant its own name",
                        source=source, field="name")
    rules = _build_variant(cls, definition, source)
    _VARIANTS[definition.name] = rules.variant
    register_ruleset(definition.name, functools.partial(_build_variant, cls, rules.variant, source),
                     variant_of=rules.variant.base)
    return rules


def forget_variant(name: str) -> None:
    """Forget a generic variant registered in this process (a test's): its name and its definition."""
    from .registry import unregister_ruleset

    if _VARIANTS.pop(name, None) is not None:
        unregister_ruleset(name)
