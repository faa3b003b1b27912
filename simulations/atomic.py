"""Atomic file writes: a reader (or a concurrent writer) sees the old file or the new one, whole.

Each write goes to a temporary file with a unique name in the destination's folder and is moved
into place with :func:`os.replace` (atomic on POSIX and Windows within one file system). Two
processes writing the same path both succeed; the last rename wins and neither file is torn.

The file gets the mode an ordinary ``open(path, "w")`` would give it (``0o666`` less the umask):
:func:`tempfile.mkstemp` alone makes it ``0o600`` (issue 36: CSV, JSON and REPORT.md were private while
the PNGs beside them were not).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable, IO

__all__ = ["atomic_write", "atomic_write_text", "current_umask"]

_UMASK_AT_IMPORT = None  # fallback where /proc/self/status is missing


def current_umask() -> int:
    """The process's file-mode creation mask (umask), read without changing it where possible.

    Returns
    -------
    int
        E.g. ``0o022``. On Linux it is read from ``/proc/self/status``; elsewhere it is read once with
        :func:`os.umask` (set and restored at once) and remembered.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism" (atomic writes); issue 36 (file modes).

    Examples
    --------
    >>> old = os.umask(0o027)
    >>> oct(current_umask())
    '0o27'
    >>> _ = os.umask(old)
    """
    global _UMASK_AT_IMPORT
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    if _UMASK_AT_IMPORT is None:  # os.umask can only be read by setting it: done once, not per write
        _UMASK_AT_IMPORT = os.umask(0o022)
        os.umask(_UMASK_AT_IMPORT)
    return _UMASK_AT_IMPORT


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
        ``path``, with mode ``0o666`` less the umask (as ``open`` would create it).

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
            if hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), 0o666 & ~current_umask())  # mkstemp's 0o600 -> what open() makes
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
