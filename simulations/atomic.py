"""Atomic file writes: a reader (or a concurrent writer) sees the old file or the new one, whole.

Each write goes to a temporary file with a unique name in the destination's folder and is moved
into place with :func:`os.replace` (atomic on POSIX and Windows within one file system). Two
processes writing the same path both succeed; the last rename wins and neither file is torn.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable, IO

__all__ = ["atomic_write", "atomic_write_text"]


def atomic_write(path, write: Callable[[IO[bytes]], object]) -> Path:
    """Call ``write(fileobj)`` on a uniquely named temporary file beside ``path``, then rename it.

    Parameters
    ----------
    path : path-like
        Destination; its folder must exist.
    write : callable
        Receives a binary file object open for writing.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    OSError
        If the folder is not writable; the temporary file is removed and ``path`` is untouched.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism": results are written with an atomic rename
    from unique temporary names, so no result is ever torn or destroyed.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> atomic_write(d / "a.bin", lambda fh: fh.write(b"xyz")).read_bytes()
    b'xyz'
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def atomic_write_text(path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; see :func:`atomic_write`.

    Parameters
    ----------
    path : path-like
        Destination; its folder must exist.
    text : str
        The whole new content, encoded as UTF-8.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    OSError
        If the folder is not writable; ``path`` is untouched.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism" (atomic rename, unique temporary names).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> atomic_write_text(pathlib.Path(tempfile.mkdtemp()) / "r.md", "# ok\\n").read_text()
    '# ok\\n'
    """
    data = text.encode("utf-8")
    return atomic_write(path, lambda fh: fh.write(data))
