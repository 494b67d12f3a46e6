"""The golden corpus plan for Wings of Glory (``aero corpus --ruleset wings-of-glory``, ``replays/wings-of-glory/``):
the rules of the Battle of Britain tactical rules that the corpus games must show, each by the event that shows
it. The search, files and checks are the tool's (``aero_events/regress/corpus.py``)."""

from __future__ import annotations

from aero_events.core.interface import CorpusPlan, event_corpus

#: Event tag -> the rule it shows (headings of seeds/003).
ITEMS = {
    "wog.CardPlanned": "planning face down (Game Turn: Planning)",
    "OrdersRevealed": "cards revealed when flown (Game Turn: Movement)",
    "wog.PlaneMoved": "simultaneous movement (Movement)",
    "wog.PlanesOverlap": "overlapping planes (Movement)",
    "wog.PlaneOut": "leaving the game (Movement, Damage)",
    "wog.Fired": "firing (Firing)",
    "SecretPoolDrawn": "damage tokens drawn face down (Damage)",
    "wog.SmokeAndFire": "smoke and fire (Special Damage)",
    "wog.CrewWounded": "crew wounded (Special Damage)",
    "wog.SkillUsed": "aces' skills (Aces)",
    "wog.BombDropped": "bombing (Bombing)",
    "wog.GroundFire": "anti-aircraft fire (AA Guns)",
    "wog.TargetDamaged": "damaging ground targets (Bombing, Strafing)",
    "wog.GameEnded": "the end of the game (Scenarios)",
}


def plan(rules) -> CorpusPlan:
    return event_corpus(rules, ITEMS, (("dogfight", ("hunter", "random")), ("bombing", ("hunter", "hunter"))))
