"""The event-sourced core: events, dice, the decider contract, sessions, branches, views.

It knows nothing of any ruleset; rulesets build on it.
"""

from .decider import Command, CommandChain, CommandProduct, Ruleset, chain_commands, state_hash
from .dice import DiceCup, DiceRolled, DiceSource, ManualDice, Modifier, SeededDice, TapeDice, check_faces
from .errors import AeroError, DataError, DiceError, RuleError, SecretMismatch, TapeExhausted
from .events import (
    EVENT_TYPES,
    Envelope,
    EnvelopeRecord,
    Event,
    decode_event,
    encode_event,
    upcaster,
)
from .secrets import RedactedEvent, SaltSource, SecretEvent, check_reveal, commitment, redact
from .session import Branch, Game, GameSession, ReplayMismatch, StateCheckpoint

__all__ = [
    "EVENT_TYPES",
    "AeroError",
    "Branch",
    "Command",
    "CommandChain",
    "CommandProduct",
    "DataError",
    "DiceCup",
    "DiceError",
    "DiceRolled",
    "DiceSource",
    "Envelope",
    "EnvelopeRecord",
    "Event",
    "Game",
    "GameSession",
    "ManualDice",
    "Modifier",
    "RedactedEvent",
    "ReplayMismatch",
    "RuleError",
    "Ruleset",
    "SaltSource",
    "SecretEvent",
    "SecretMismatch",
    "SeededDice",
    "StateCheckpoint",
    "TapeDice",
    "TapeExhausted",
    "chain_commands",
    "check_faces",
    "check_reveal",
    "commitment",
    "decode_event",
    "encode_event",
    "redact",
    "state_hash",
    "upcaster",
]
