"""The test-only Pawns ruleset registers itself when imported, as a package outside the repository would."""

import tests.support.plugin_ruleset  # noqa: F401
