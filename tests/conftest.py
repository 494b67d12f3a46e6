"""Test-wide settings.

Hypothesis: no per-example deadline (a loaded 2-core CI machine must not fail a property for being
slow), and in CI (``CI=true``) a derandomized search, so a red build is reproducible.
"""

import os

from hypothesis import settings

settings.register_profile("aero", deadline=None)
settings.register_profile("aero-ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("aero-ci" if os.environ.get("CI") == "true" else "aero")
