"""Private scratch folders of a run, and the removal of the ones that killed runs left behind.

The runner computes each experiment into ``<out>/.staging/<name>-<unique>/`` and a forced run writes
its cache chunks into ``<cache>/<config_hash>.force-<unique>/``; both are removed when the run
finishes, fails or is interrupted. A run killed with ``kill -9`` cannot remove them, so they piled up
(issue 36: 240 ``.force-*`` folders and empty staging folders that nothing cleaned).

A process holds an exclusive ``flock`` on each scratch folder it made (on the folder itself, so no
extra file appears among the outputs) for as long as it uses it; the operating system drops the lock
when the process dies, however it dies. :func:`sweep_stale` removes the folders that no process
holds, so a run never removes the scratch folder of another run writing into the same ``--out``.
A folder younger than ``grace_s`` is left alone (it may be between its creation and its lock).
Where ``fcntl`` is missing (Windows) only folders older than a day are removed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no advisory locks on folders
    fcntl = None

__all__ = ["make_scratch", "remove_scratch", "sweep_stale"]

_HELD: dict[str, int] = {}  # scratch folder -> the descriptor holding its lock, in this process
_UNLOCKED_AGE_S = 86400.0  # without locks, a folder this old is taken for a dead run's


def _lock(path: Path, *, block: bool) -> int | None:
    """An open descriptor of ``path`` holding its exclusive lock, or None if another holder has it."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if block else fcntl.LOCK_NB))
    except OSError:
        os.close(fd)
        return None
    return fd


def make_scratch(parent, prefix: str) -> Path:
    """Make a new private folder ``<parent>/<prefix><unique>`` and hold it for this process.

    Parameters
    ----------
    parent : path-like
        Where the folder is made (created with its parents if missing).
    prefix : str
        Start of the folder's name; :func:`tempfile.mkdtemp` appends a unique suffix.

    Returns
    -------
    pathlib.Path
        The new folder (mode 0700); :func:`sweep_stale` in any process leaves it alone until
        :func:`remove_scratch` or the end of this process.

    References
    ----------
    docs/design.md, "Untrusted input" and "Experiments and their outputs" (staging folders).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> s = make_scratch(root, "demo-")
    >>> s.parent == root, s.name.startswith("demo-"), s.is_dir()
    (True, True, True)
    >>> remove_scratch(s); s.exists()
    False
    """
    parent = Path(parent)
    parent.mkdir(parents=True, exist_ok=True)
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    if fcntl is not None:
        fd = _lock(path, block=True)  # a fresh folder: nobody else holds it
        if fd is not None:
            _HELD[str(path)] = fd
    return path


def remove_scratch(path) -> None:
    """Remove a scratch folder made by :func:`make_scratch` and release its lock.

    Parameters
    ----------
    path : path-like
        The folder; a missing one is no error.

    Returns
    -------
    None

    References
    ----------
    docs/design.md, "Experiments and their outputs" (staging folders).

    Examples
    --------
    >>> import tempfile
    >>> s = make_scratch(tempfile.mkdtemp(), "x-")
    >>> remove_scratch(s); remove_scratch(s)  # twice is harmless
    >>> s.exists()
    False
    """
    path = Path(path)
    fd = _HELD.pop(str(path), None)
    try:
        shutil.rmtree(path, ignore_errors=True)
    finally:
        if fd is not None:
            os.close(fd)


def sweep_stale(parent, pattern: str = "*", *, grace_s: float = 60.0) -> list[Path]:
    """Remove the folders ``<parent>/<pattern>`` that no running process holds (left by killed runs).

    Parameters
    ----------
    parent : path-like
        The folder to sweep (e.g. ``<out>/.staging``); a missing one is no error.
    pattern : str, default "*"
        Glob of the scratch folders' names, e.g. ``"*.force-*"``; files and symbolic links are never
        touched.
    grace_s : float >= 0, default 60.0
        A folder modified less than this many seconds ago is left alone.

    Returns
    -------
    list of pathlib.Path
        The folders removed. A folder that cannot be removed (read-only parent) is skipped silently.

    Raises
    ------
    ValueError
        If ``grace_s`` is negative or not a number.

    References
    ----------
    docs/design.md, "Experiments and their outputs" (staging folders); issue 36 (stale staging).

    Examples
    --------
    >>> import os, tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> (root / "dead-run").mkdir()
    >>> live = make_scratch(root, "live-run-")
    >>> [p.name for p in sweep_stale(root, grace_s=0)]
    ['dead-run']
    >>> live.exists()
    True
    >>> remove_scratch(live)
    """
    if not isinstance(grace_s, (int, float)) or isinstance(grace_s, bool) or not grace_s >= 0:
        raise ValueError(f"grace_s must be a number >= 0, got grace_s={grace_s!r}")
    parent = Path(parent)
    if parent.is_symlink() or not parent.is_dir():
        return []
    removed, now = [], time.time()
    min_age = grace_s if fcntl is not None else max(grace_s, _UNLOCKED_AGE_S)
    for path in sorted(parent.glob(pattern)):
        try:
            st = path.lstat()
        except OSError:
            continue
        if not os.path.isdir(path) or path.is_symlink() or str(path) in _HELD or now - st.st_mtime < min_age:
            continue
        fd = None
        if fcntl is not None:
            try:
                fd = _lock(path, block=False)
            except OSError:  # gone, or not readable
                continue
            if fd is None:  # a live run holds it
                continue
        try:
            shutil.rmtree(path)
            removed.append(path)
        except OSError:
            pass
        finally:
            if fd is not None:
                os.close(fd)
    return removed
