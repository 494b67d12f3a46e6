"""``python -m aero_events.cli``: the ``aero`` command."""

from aero_events.cli import run

run()
