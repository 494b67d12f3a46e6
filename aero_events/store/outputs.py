"""Files the store writes for the user (exports, player's copies, records): all or nothing.

An export is written beside its target under a temporary name and renamed over it only once it is whole
(:func:`os.replace`, atomic on one file system). An export that fails part way (an event that cannot be
decoded for a player's copy, a full disk) leaves no half-written file, and an earlier export of the same name
as it was; a program that reads the file never sees it half written.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def written_whole(path: str | os.PathLike) -> Iterator[Path]:
    """A path to write the file at ``path`` to (it does not exist yet: the writer creates it, with the usual
    permissions), renamed to ``path`` when the block ends without an error and removed when it raises.

    A folder that does not exist, or a ``path`` that is a folder, is the error writing ``path`` itself would be
    (naming ``path``, not the temporary name)."""
    target = Path(path)
    if target.is_symlink():  # the file it links to is replaced, and the link kept
        target = target.resolve()
    folder = target.parent
    if not folder.is_dir():
        raise FileNotFoundError(2, "No such file or directory", os.fspath(target))
    if target.is_dir():
        raise IsADirectoryError(21, "Is a directory", os.fspath(target))
    partial = folder / f".{target.name}.{secrets.token_hex(4)}.partial"
    try:
        yield partial
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise
