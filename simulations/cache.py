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
Staging stores of killed forced runs are removed the first time this process opens a store in their
cache directory, unless a live run holds them (:func:`simulations.scratch.sweep_stale`).

A complete cache can be read from a read-only folder: ``config.json`` is rewritten only when its
content changes and nothing else is written when every trial is cached. A folder named like a chunk
is skipped with a warning.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import warnings
from pathlib import Path

import numpy as np

from simulations.atomic import atomic_write as _atomic_write
from simulations.scratch import make_scratch, remove_scratch, sweep_stale

__all__ = ["ChunkStore"]

_CHUNK = re.compile(r"^chunk_(\d+)_(\d+)\.npz$")
_KEY = "__config_hash__"  # stored in every chunk beside the metrics; never a metric name
_SWEPT: set[str] = set()  # cache directories whose stale forced-run stores this process removed


def _unreadable_reason(exc: Exception) -> str:
    """Why a chunk could not be read, without numpy's hint to load pickled data (``allow_pickle``).

    The suite never writes object arrays, so a chunk holding pickled data is foreign: it is never
    loaded, and the message must not suggest loading it unsafely.
    """
    text = str(exc)
    if "pickle" in text.lower():
        return ("it holds pickled (object) data, which the suite never writes and never loads "
                "(a foreign or tampered file)")
    return f"{type(exc).__name__}: {text}"


class ChunkStore:
    """The chunks of one experiment point under ``root / config_hash``.

    Parameters
    ----------
    root : path-like
        The cache directory shared by all points.
    config_hash : str
        Hex digest naming the point (see :func:`simulations.engine.config_hash`).
    staging : bool, default False
        Write to a private folder ``<config_hash>.force-<unique>/`` instead (a forced run);
        :meth:`adopt` then moves the finished result into ``<config_hash>/``.

    Attributes
    ----------
    home : pathlib.Path
        ``root / config_hash``, where the point's finished chunks live.
    folder : pathlib.Path
        Where this store writes: ``home``, or the staging folder until :meth:`adopt`.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism": results written per chunk as they
    finish (atomic rename, unique temporary names), keyed by a hash of the full config that is
    also stored inside the chunk and checked on load; a killed run resumes.

    Examples
    --------
    >>> import tempfile
    >>> tmp = tempfile.TemporaryDirectory()
    >>> store = ChunkStore(tmp.name, "abc123")
    >>> _ = store.save(0, 2, {"risk": np.array([0.25, 0.5])})
    >>> [(start, stop, arrays["risk"].tolist()) for start, stop, arrays in store.load(n_trials=2)]
    [(0, 2, [0.25, 0.5])]
    >>> tmp.cleanup()
    """

    def __init__(self, root, config_hash: str, *, staging: bool = False):
        self.config_hash = str(config_hash)
        self.home = Path(root) / self.config_hash
        if str(self.home.parent) not in _SWEPT:
            _SWEPT.add(str(self.home.parent))
            sweep_stale(self.home.parent, "*.force-*")  # left by killed forced runs
        if staging:
            self.folder = make_scratch(self.home.parent, f"{self.config_hash}.force-")
        else:
            self.folder = self.home

    def write_description(self, description: dict) -> None:
        """Write ``description`` (the full config, as JSON) next to the chunks, atomically.

        The file ``config.json`` is for people reading the cache; loading never trusts it (each
        chunk stores its own config hash).

        Parameters
        ----------
        description : dict
            JSON-able description of the point (values JSON cannot encode are written with ``str``).

        Examples
        --------
        >>> import json, tempfile
        >>> tmp = tempfile.TemporaryDirectory()
        >>> store = ChunkStore(tmp.name, "abc123")
        >>> store.write_description({"config": {"N": 10}, "root_seed": 1})
        >>> json.loads((store.folder / "config.json").read_text())["config"]
        {'N': 10}
        >>> tmp.cleanup()
        """
        text = (json.dumps(description, indent=2, sort_keys=True, default=str) + "\n").encode()
        try:
            if (self.folder / "config.json").read_bytes() == text:
                return  # unchanged: a read-only cache stays readable
        except OSError:
            pass
        self.folder.mkdir(parents=True, exist_ok=True)
        _atomic_write(self.folder / "config.json", lambda fh: fh.write(text))

    def save(self, start: int, stop: int, arrays: dict[str, np.ndarray]) -> Path:
        """Atomically write trials ``start .. stop - 1`` (each array has first axis ``stop - start``).

        Parameters
        ----------
        start, stop : int
            The trial range, ``0 <= start < stop``; the file is ``chunk_<start>_<stop>.npz``.
        arrays : dict of str to ndarray
            Metric name -> array of shape ``(stop - start, *metric_shape)``; stored with the
            store's config hash beside them.

        Returns
        -------
        pathlib.Path
            The chunk file written.

        Raises
        ------
        ValueError
            If a metric is named ``"__config_hash__"`` (reserved for the stored hash).

        Examples
        --------
        >>> import tempfile
        >>> tmp = tempfile.TemporaryDirectory()
        >>> store = ChunkStore(tmp.name, "abc123")
        >>> store.save(4, 6, {"risk": np.zeros(2)}).name
        'chunk_4_6.npz'
        >>> tmp.cleanup()
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        if _KEY in arrays:
            raise ValueError(f"{_KEY!r} is reserved and cannot be a metric name")
        path = self.folder / f"chunk_{start}_{stop}.npz"
        key = np.array(self.config_hash)
        _atomic_write(path, lambda fh: np.savez(fh, **arrays, **{_KEY: key}))
        return path

    def ranges(self) -> list[tuple[int, int, Path]]:
        """``(start, stop, path)`` of every chunk file present, sorted; temp files are skipped.

        Returns
        -------
        list of tuple (int, int, pathlib.Path)
            Sorted by ``start`` then ``stop``; empty when the folder does not exist. Files whose
            names are not ``chunk_<start>_<stop>.npz`` with ``start < stop`` are ignored.

        Examples
        --------
        >>> import tempfile
        >>> tmp = tempfile.TemporaryDirectory()
        >>> store = ChunkStore(tmp.name, "abc123")
        >>> store.ranges()
        []
        >>> for a, b in [(2, 5), (0, 2)]:
        ...     _ = store.save(a, b, {"x": np.zeros(b - a)})
        >>> [(a, b) for a, b, _ in store.ranges()]
        [(0, 2), (2, 5)]
        >>> tmp.cleanup()
        """
        if not self.folder.is_dir():
            return []
        out = []
        for f in self.folder.iterdir():
            m = _CHUNK.match(f.name)
            if m and int(m.group(2)) > int(m.group(1)):
                if not f.is_file():  # a folder (or a link to one) named like a chunk is no chunk
                    warnings.warn(f"ignoring {f}: named like a cache chunk but not a file", RuntimeWarning,
                                  stacklevel=2)
                    continue
                out.append((int(m.group(1)), int(m.group(2)), f))
        return sorted(out)

    def load(self, n_trials: int) -> list[tuple[int, int, dict[str, np.ndarray]]]:
        """Readable chunks that touch trials ``0 .. n_trials - 1``, as ``(start, stop, arrays)``.

        A chunk that cannot be read, or whose arrays do not have ``stop - start`` rows, is
        reported with a warning, deleted and treated as missing. A chunk whose stored config hash
        differs from this store's (or that stores none) is reported with a warning and not used;
        it is left on disk until a finished run of this point replaces it.

        Parameters
        ----------
        n_trials : int
            Chunks starting at or after ``n_trials`` are skipped (a chunk may reach beyond it).

        Returns
        -------
        list of tuple (int, int, dict of str to ndarray)
            ``(start, stop, arrays)``, sorted by ``start``; each array has ``stop - start`` rows.

        Warns
        -----
        RuntimeWarning
            For each unreadable chunk (deleted) and each chunk of another config hash (skipped).

        Examples
        --------
        >>> import tempfile, warnings
        >>> tmp = tempfile.TemporaryDirectory(); root = tmp.name
        >>> _ = ChunkStore(root, "abc123").save(0, 2, {"x": np.ones(2)})
        >>> _ = ChunkStore(root, "abc123").save(2, 4, {"x": np.ones(2)})
        >>> [(a, b) for a, b, _ in ChunkStore(root, "abc123").load(2)]
        [(0, 2)]
        >>> (ChunkStore(root, "abc123").folder / "chunk_0_2.npz").write_bytes(b"torn")
        4
        >>> with warnings.catch_warnings(record=True):
        ...     warnings.simplefilter("always")
        ...     [(a, b) for a, b, _ in ChunkStore(root, "abc123").load(4)]
        [(2, 4)]
        >>> tmp.cleanup()
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
                warnings.warn(f"ignoring unreadable cache chunk {path}: {_unreadable_reason(exc)}", RuntimeWarning,
                              stacklevel=2)
                with contextlib.suppress(OSError):  # a read-only cache keeps it; it is ignored all the same
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
        leaves overlapping but consistent chunks. Chunks reaching beyond ``n_trials`` are kept.

        Parameters
        ----------
        n_trials : int
            The trials ``0 .. n_trials - 1`` the merged chunk holds.
        arrays : dict of str to ndarray
            Metric name -> array with ``n_trials`` rows (as assembled by the engine).

        Examples
        --------
        >>> import tempfile
        >>> tmp = tempfile.TemporaryDirectory()
        >>> store = ChunkStore(tmp.name, "abc123")
        >>> for a, b in [(0, 2), (2, 3)]:
        ...     _ = store.save(a, b, {"x": np.arange(a, b)})
        >>> store.consolidate(3, {"x": np.arange(3)})
        >>> [(a, b) for a, b, _ in store.ranges()]
        [(0, 3)]
        >>> tmp.cleanup()
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

        Parameters
        ----------
        n_trials : int
            The trials ``0 .. n_trials - 1`` that ``arrays`` hold.
        arrays : dict of str to ndarray
            Metric name -> array with ``n_trials`` rows.

        Examples
        --------
        >>> import tempfile
        >>> tmp = tempfile.TemporaryDirectory(); root = tmp.name
        >>> _ = ChunkStore(root, "abc123").save(0, 2, {"x": np.zeros(2)})   # an earlier run
        >>> forced = ChunkStore(root, "abc123", staging=True)
        >>> forced.folder == forced.home
        False
        >>> forced.adopt(2, {"x": np.ones(2)})
        >>> forced.folder == forced.home, ChunkStore(root, "abc123").load(2)[0][2]["x"].tolist()
        (True, [1.0, 1.0])
        >>> tmp.cleanup()
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
        remove_scratch(self.folder)
        self.folder = self.home

    def discard(self) -> None:
        """Remove this store's staging folder (an interrupted forced run); a no-op otherwise.

        Examples
        --------
        >>> import tempfile
        >>> tmp = tempfile.TemporaryDirectory()
        >>> forced = ChunkStore(tmp.name, "abc123", staging=True)
        >>> _ = forced.save(0, 1, {"x": np.zeros(1)})
        >>> forced.discard()
        >>> forced.folder.exists()
        False
        >>> tmp.cleanup()
        """
        if self.folder != self.home:
            remove_scratch(self.folder)
