"""``python -m aero_events.cli``: the ``aero`` command."""

import sys

from aero_events.cli import main

sys.exit(main())
