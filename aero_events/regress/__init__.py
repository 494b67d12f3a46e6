"""Regression re-runs: recorded games played again under another ruleset, and the golden corpus.

* :mod:`.decisions`: the commands of a recorded game, recovered from its decision events (a table per
  event type), each proven to reproduce the record under the game's own ruleset;
* :mod:`.tape`: the recorded dice and salts handed back in order, with counted seeded extras;
* :mod:`.recorded`: recorded games from the store or from JSON Lines files;
* :mod:`.rerun`: the re-run under new rules, the first divergence, the illegal-decision policy;
* :mod:`.report`: the per-game report (rich table, JSON), and the summary of many games;
* :mod:`.jsonl`: the JSON Lines export format written without a store;
* :mod:`.corpus`: the golden corpus in ``replays/``: generating it with fixed seeds, checking it.

``aero regress`` and ``aero corpus`` (:mod:`aero_events.cli.rules_commands`) drive them.
"""

from .decisions import (
    RecordedDecision,
    RecoveryError,
    UnknownDecision,
    commands_from_events,
    recover_decisions,
)
from .recorded import RecordedGame, from_folder, from_jsonl, from_store, gather
from .report import GameReport, RegressSummary, render, render_summary, to_json, write_details
from .rerun import ON_ILLEGAL, rerun, rerun_all

__all__ = [
    "ON_ILLEGAL", "GameReport", "RecordedDecision", "RecordedGame", "RecoveryError", "RegressSummary",
    "UnknownDecision", "commands_from_events", "from_folder", "from_jsonl", "from_store", "gather",
    "recover_decisions", "render", "render_summary", "rerun", "rerun_all", "to_json", "write_details",
]
