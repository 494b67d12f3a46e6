"""Recording a game played on a real table, and a game record people can read.

* :mod:`.recorder`: ``aero record``, the table recorder (set-up, legal choices, dice as rolled, undo);
* :mod:`.table_dice`: the dice the recorder asks for, one roll at a time, or rolls itself;
* :mod:`.force_builder`: force lists typed in from the catalogue's choices;
* :mod:`.notation`: the compact move notation (one step per command);
* :mod:`.record_format`: the whole-game record (headers, steps, dice, comments, variations): parse,
  replay, write; :mod:`.headers`, :mod:`.force_text`, :mod:`.salts` and :mod:`.lexer` are its parts;
* :mod:`.board_text`: the board and the aircraft as text;
* :mod:`.journal`: the recorder's annotations and current branch beside the store's tables;
* :mod:`.transfer`: records in and out of the store.
"""
