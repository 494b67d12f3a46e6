"""Recording a game played on a real table, and a game record people can read, for any ruleset.

* :mod:`.recorder`: ``aero record``, the table recorder (legal choices, secret orders typed unseen, dice as
  rolled, pool draws by name, undo); what it asks is the ruleset's recorder guide
  (:meth:`~aero_events.core.interface.ToolInterface.recorder_guide`);
* :mod:`.table_dice`: the dice and draws the recorder asks for, one at a time, or makes itself;
* :mod:`.record_format`: the whole-game record (headers, steps, dice, comments, variations): parse,
  replay, write; steps are written in the ruleset's notation
  (:meth:`~aero_events.core.interface.ToolInterface.notation`); :mod:`.headers`, :mod:`.steps`,
  :mod:`.salts` and :mod:`.lexer` are its parts;
* :mod:`.journal`: the recorder's annotations and current branch beside the store's tables;
* :mod:`.transfer`: records in and out of the store.

Nothing here imports a ruleset: Aeronautica's notation, force entry, setup headers and board text are in
the Aeronautica package (its ``notation.py`` and ``record_setup.py``).
"""
