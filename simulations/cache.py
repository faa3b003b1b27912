"""On-disk store of finished chunks of trials, so an interrupted run resumes.

Layout (one folder per experiment point)::

    cache_dir/<config_hash>/config.json             # for humans: class, fields, seed, version
    cache_dir/<config_hash>/chunk_<start>_<stop>.npz  # metric -> array (stop - start, ...),
                                                      # plus the config hash it belongs to

Every file is written to a unique temporary name in the same folder and moved into place with
:func:`os.replace`, which is atomic on POSIX and Windows: a reader sees a whole chunk or none, and
two processes writing the same chunk cannot tear each other's file. Leftover temporary files of a
killed run are ignored and unreadable chunks are removed, so a resumed run recomputes exactly the
trials no readable chunk covers. A chunk whose stored config hash is not its folder's (a file
copied from another configuration, or written before the hash was stored) is refused with a
warning and never used. Chunks may overlap (chunk sizes can differ between runs): every trial is a
pure function of (config, seed, index), so overlapping chunks agree and any one of them may supply
a trial.

A forced run (``force=True``) never deletes cached chunks before their replacements exist: it
writes its chunks to a private staging store (``<config_hash>.force-<unique>/``) and only when all
its trials are done moves the merged result into ``<config_hash>/`` and drops the old chunks
(:meth:`ChunkStore.adopt`). A forced run that is interrupted leaves the old chunks as they were.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import warnings
from pathlib import Path

import numpy as np

from simulations.atomic import atomic_write as _atomic_write

__all__ = ["ChunkStore"]

_CHUNK = re.compile(r"^chunk_(\d+)_(\d+)\.npz$")
_KEY = "__config_hash__"  # stored in every chunk beside the metrics; never a metric name


class ChunkStore:
    """The chunks of one experiment point under ``root / config_hash``.

    Parameters
    ----------
    root : path-like
        The cache directory shared by all points.
    config_hash : str
        Hex digest naming the point (see :func:`simulations.engine.config_hash`).
    staging : bool
        Write to a private folder ``<config_hash>.force-<unique>/`` instead (a forced run);
        :meth:`adopt` then moves the finished result into ``<config_hash>/``.
    """

    def __init__(self, root, config_hash: str, *, staging: bool = False):
        self.config_hash = str(config_hash)
        self.home = Path(root) / self.config_hash
        if staging:
            self.home.parent.mkdir(parents=True, exist_ok=True)
            self.folder = Path(tempfile.mkdtemp(prefix=f"{self.config_hash}.force-", dir=self.home.parent))
        else:
            self.folder = self.home

    def write_description(self, description: dict) -> None:
        """Write ``description`` (the full config, as JSON) next to the chunks, atomically."""
        self.folder.mkdir(parents=True, exist_ok=True)
        text = (json.dumps(description, indent=2, sort_keys=True, default=str) + "\n").encode()
        _atomic_write(self.folder / "config.json", lambda fh: fh.write(text))

    def save(self, start: int, stop: int, arrays: dict[str, np.ndarray]) -> Path:
        """Atomically write trials ``start .. stop - 1`` (each array has first axis ``stop - start``)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if _KEY in arrays:
            raise ValueError(f"{_KEY!r} is reserved and cannot be a metric name")
        path = self.folder / f"chunk_{start}_{stop}.npz"
        key = np.array(self.config_hash)
        _atomic_write(path, lambda fh: np.savez(fh, **arrays, **{_KEY: key}))
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
        reported with a warning, deleted and treated as missing. A chunk whose stored config hash
        differs from this store's (or that stores none) is reported with a warning and not used;
        it is left on disk until a finished run of this point replaces it.
        """
        out = []
        for start, stop, path in self.ranges():
            if start >= n_trials:
                continue
            try:
                with np.load(path, allow_pickle=False) as z:
                    arrays = {k: z[k] for k in z.files}
                stored = arrays.pop(_KEY, None)
                if not arrays or any(a.ndim == 0 or a.shape[0] != stop - start for a in arrays.values()):
                    raise ValueError("arrays do not match the chunk's trial range")
            except Exception as exc:  # a torn or foreign file: recompute its trials
                warnings.warn(f"ignoring unreadable cache chunk {path}: {exc}", RuntimeWarning, stacklevel=2)
                path.unlink(missing_ok=True)
                continue
            if stored is None or str(stored) != self.config_hash:
                found = "none" if stored is None else repr(str(stored))
                warnings.warn(f"refusing cache chunk {path}: it belongs to config hash {found}, not "
                              f"{self.config_hash!r} (copied from another configuration?); its trials "
                              "are recomputed", RuntimeWarning, stacklevel=2)
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

    def adopt(self, n_trials: int, arrays: dict[str, np.ndarray]) -> None:
        """Finish a forced run: make ``arrays`` (trials ``0 .. n_trials - 1``) the point's only chunk.

        The merged file is written into ``<config_hash>/`` first; only then are the old chunks
        there and this store's staging folder removed. For a store opened without ``staging``
        this is :meth:`consolidate`.
        """
        if self.folder == self.home:
            self.consolidate(n_trials, arrays)
            return
        home = ChunkStore(self.home.parent, self.config_hash)
        merged = home.save(0, n_trials, arrays)
        for _, _, path in home.ranges():
            if path != merged:
                path.unlink(missing_ok=True)
        if (self.folder / "config.json").exists():
            os.replace(self.folder / "config.json", self.home / "config.json")
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = self.home

    def discard(self) -> None:
        """Remove this store's staging folder (an interrupted forced run); a no-op otherwise."""
        if self.folder != self.home:
            shutil.rmtree(self.folder, ignore_errors=True)
