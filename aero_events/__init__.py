"""aero_events: tabletop air-combat games as streams of events. See README.md for the map of the package.

Importing a package of aero_events is cheap: ``__version__`` (read from the installed metadata) and the
names each package re-exports (:func:`lazy_exports`) are found when first asked for, so that ``aero --help``
or a command that needs no database imports neither DuckDB, pyarrow, numpy nor plotly.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("aero_events")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0.1.0"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        found = globals()["__version__"] = _version()
        return found
    raise AttributeError(f"module 'aero_events' has no attribute {name!r}")


def lazy_exports(package: str, exports: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` re-exporting names of its modules, each imported when one
    of its names is first asked for (``from package import name`` included), then kept in the package.
    ``exports`` maps each name to its module, relative to ``package`` (``".store"``)."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    return __getattr__, __dir__


def exports_of(modules: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """``{module: names}`` as :func:`lazy_exports` takes it, ``{name: module}``."""
    return {name: module for module, names in modules.items() for name in names}
