"""The recorder tests compare recorded games with reference games recorded earlier (some in module-scoped
fixtures), whose secrets must be sealed alike. A recorded game draws a random salt seed
(``recorder.new_salt_seed``); these tests pin it, for the whole session, to the game id of the reference
games. ``test_recorder.py::test_a_recorded_game_draws_a_random_salt_seed`` checks the real one
(:data:`RANDOM_SALT_SEED`)."""

import pytest

from aero_events.record import recorder
from tests.record.table import GAME_ID

#: The recorder's own salt seed function, for the test that checks it.
RANDOM_SALT_SEED = recorder.new_salt_seed


@pytest.fixture(scope="session", autouse=True)
def salt_seed_of_the_reference_games():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(recorder, "new_salt_seed", lambda: GAME_ID)
        yield
