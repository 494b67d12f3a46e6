"""The odds from any position: bots play the game on many times in memory (``aero odds``).

* :func:`odds`: each side's win probability with a Wilson interval and its expected score, from the position
  after any event of a game's branch; secret orders sealed in that turn are given afresh in each playout
  (:mod:`.playouts` says why);
* :func:`win_probability_strip`: the odds at the start of every turn and at the end, for the replay page
  and the report (:mod:`.strip`; :func:`strip_of_timeline` from a folded timeline), leaving out the points
  whose state hides something from the page's viewer.

Only the core interface is used (``legal_commands`` through the bots, ``outcome``, ``sides``, ``bots``), so
every ruleset has odds.
"""

from typing import TYPE_CHECKING

from aero_events import exports_of, lazy_exports

#: Each name this package re-exports, by its module: imported when first asked for (aero_events.lazy_exports).
_EXPORTS = exports_of({
    ".playouts": (
        "Odds", "OddsError", "PlayoutResult", "Position", "SideOdds", "odds", "play_positions",
        "playout_seed", "start_point",
    ),
    ".strip": (
        "DEFAULT_STRIP_PLAYOUTS", "ORGANISER", "Strip", "StripPoint", "left_out_note", "strip_of_timeline",
        "turn_starts", "win_probability_strip",
    ),
})
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .playouts import (
        Odds,
        OddsError,
        PlayoutResult,
        Position,
        SideOdds,
        odds,
        play_positions,
        playout_seed,
        start_point,
    )
    from .strip import (
        DEFAULT_STRIP_PLAYOUTS,
        ORGANISER,
        Strip,
        StripPoint,
        left_out_note,
        strip_of_timeline,
        turn_starts,
        win_probability_strip,
    )

__all__ = ["DEFAULT_STRIP_PLAYOUTS", "ORGANISER", "Odds", "OddsError", "PlayoutResult", "Position", "SideOdds",
           "Strip", "StripPoint", "left_out_note", "odds", "play_positions", "playout_seed", "start_point",
           "strip_of_timeline", "turn_starts", "win_probability_strip"]
