"""On-disk store of finished chunks of trials, so an interrupted run resumes.

Layout (one folder per experiment point)::

    cache_dir/<config_hash>/config.json             # for humans: class, fields, seed, version
    cache_dir/<config_hash>/chunk_<start>_<stop>.npz  # metric -> array (stop - start, ...)

Every file is written to a temporary name in the same folder and moved into place with
:func:`os.replace`, which is atomic on POSIX and Windows: a reader sees a whole chunk or none.
Leftover temporary files of a killed run are ignored and unreadable chunks are removed, so a
resumed run recomputes exactly the trials no readable chunk covers. Chunks may overlap (chunk
sizes can differ between runs): every trial is a pure function of (config, seed, index), so
overlapping chunks agree and any one of them may supply a trial.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import warnings
from pathlib import Path

import numpy as np

__all__ = ["ChunkStore"]

_CHUNK = re.compile(r"^chunk_(\d+)_(\d+)\.npz$")


def _atomic_write(path: Path, write) -> None:
    """Call ``write(fileobj)`` on a temporary file next to ``path``, then rename it to ``path``."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class ChunkStore:
    """The chunks of one experiment point under ``root / config_hash``.

    Parameters
    ----------
    root : path-like
        The cache directory shared by all points.
    config_hash : str
        Hex digest naming the point (see :func:`simulations.engine.config_hash`).
    """

    def __init__(self, root, config_hash: str):
        self.folder = Path(root) / config_hash

    def clear(self) -> None:
        """Delete every chunk (``force=True``): a forced run never mixes old and new trials."""
        if self.folder.is_dir():
            for f in self.folder.iterdir():
                if _CHUNK.match(f.name) or f.name.endswith(".tmp"):
                    f.unlink(missing_ok=True)

    def write_description(self, description: dict) -> None:
        """Write ``description`` (the full config, as JSON) next to the chunks, atomically."""
        self.folder.mkdir(parents=True, exist_ok=True)
        text = (json.dumps(description, indent=2, sort_keys=True, default=str) + "\n").encode()
        _atomic_write(self.folder / "config.json", lambda fh: fh.write(text))

    def save(self, start: int, stop: int, arrays: dict[str, np.ndarray]) -> Path:
        """Atomically write trials ``start .. stop - 1`` (each array has first axis ``stop - start``)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"chunk_{start}_{stop}.npz"
        _atomic_write(path, lambda fh: np.savez(fh, **arrays))
        return path

    def ranges(self) -> list[tuple[int, int, Path]]:
        """``(start, stop, path)`` of every chunk file present, sorted; temp files are skipped."""
        if not self.folder.is_dir():
            return []
        out = []
        for f in self.folder.iterdir():
            m = _CHUNK.match(f.name)
            if m and int(m.group(2)) > int(m.group(1)):
                out.append((int(m.group(1)), int(m.group(2)), f))
        return sorted(out)

    def load(self, n_trials: int) -> list[tuple[int, int, dict[str, np.ndarray]]]:
        """Readable chunks that touch trials ``0 .. n_trials - 1``, as ``(start, stop, arrays)``.

        A chunk that cannot be read, or whose arrays do not have ``stop - start`` rows, is
        reported with a warning, deleted and treated as missing.
        """
        out = []
        for start, stop, path in self.ranges():
            if start >= n_trials:
                continue
            try:
                with np.load(path, allow_pickle=False) as z:
                    arrays = {k: z[k] for k in z.files}
                if not arrays or any(a.ndim == 0 or a.shape[0] != stop - start for a in arrays.values()):
                    raise ValueError("arrays do not match the chunk's trial range")
            except Exception as exc:  # a torn or foreign file: recompute its trials
                warnings.warn(f"ignoring unreadable cache chunk {path}: {exc}", RuntimeWarning, stacklevel=2)
                path.unlink(missing_ok=True)
                continue
            out.append((start, stop, arrays))
        return out

    def consolidate(self, n_trials: int, arrays: dict[str, np.ndarray]) -> None:
        """Replace all chunks inside ``0 .. n_trials`` by one file (fewer files on long runs).

        The merged file is written before the small ones are removed, so a kill in between
        leaves overlapping but consistent chunks.
        """
        ranges = self.ranges()
        if len(ranges) == 1 and ranges[0][:2] == (0, n_trials):
            return
        merged = self.save(0, n_trials, arrays)
        for start, stop, path in ranges:
            if stop <= n_trials and path != merged:
                path.unlink(missing_ok=True)
