"""Commands as text for ``aero record`` and the ``.aero`` format: the command's JSON, read back for any value.

The default notation only reads back commands that ``legal_commands`` lists; Battlefleet Gothic's commands
carry continuous values (a move of 13.37 cm), so this one decodes any command of the ruleset and leaves the
rules to ``decide``.
"""

from __future__ import annotations

from typing import Any, Union

import msgspec

from aero_events.core import RuleError
from aero_events.core.interface import Notation

from . import commands as cmd

COMMANDS = (cmd.RollOff, cmd.ChooseTurnOrder, cmd.GiveOrder, cmd.MoveShip, cmd.FireWeapons, cmd.FireNovaCannon,
            cmd.LaunchTorpedoes, cmd.LaunchAttackCraft, cmd.MoveAttackCraft, cmd.EndShooting, cmd.React,
            cmd.RemoveBlastMarkers, cmd.Surrender, cmd.BraceForImpact, cmd.RecallAttackCraft, cmd.SteerTorpedoes)
_decoder = msgspec.json.Decoder(Union[COMMANDS])  # noqa: UP007


class BattlefleetGothicNotation(Notation):
    def parse(self, state: Any, player: str, text: str) -> Any:
        try:
            command = _decoder.decode(text.strip())
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise RuleError(f"not a Battlefleet Gothic command: {exc}", rule="Notation") from None
        if command.player != player:
            raise RuleError(f"that command is {command.player}'s, not {player}'s", rule="Notation")
        return command

    def help(self) -> str:
        return ("Commands are JSON, e.g. {\"command\":\"bfg.MoveShip\",\"player\":\"imperial\",\"ship\":\"imperial-1\","
                "\"legs\":[10000,5000],\"turns\":[4500]} (lengths in 1/100 mm, angles in 1/100 degree).")
