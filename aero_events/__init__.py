"""aero_events: tabletop air-combat games as streams of events. See README.md for the map of the package."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("aero_events")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.1.0"
