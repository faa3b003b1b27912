"""The Monte Carlo engine: many independent trials per experiment point, reproducible and resumable.

Model
-----
* An **experiment point** (``config``) is data: a frozen dataclass (or a JSON-able dict / tuple).
  Its canonical JSON (class name + fields, sorted keys, ``repr`` floats) is hashed with SHA-256.
* A **trial** is a pure function ``trial_fn(config, trial_index, root_seed) -> {metric: value}``
  (values: floats or fixed-shape arrays) that draws only from the streams of
  :func:`trial_streams` (data / privacy / evaluation, :mod:`simulations.seeding`). Its result
  therefore depends on (config, root seed, trial index) alone, never on the worker, the executor
  or the order in which trials finish; this is what makes serial, loky and Dask runs bit-identical.
* :func:`run_trials` groups trials in **chunks** (one joblib task each, >= ~0.1 s of work),
  runs them on the executor of :mod:`simulations.executors`, writes each finished chunk to the
  :class:`~simulations.cache.ChunkStore` at once, and assembles results in (config, trial) order.

Cache key
---------
``config_hash = sha256(canonical config, root_seed, version)`` where ``version`` defaults to the
trial function's ``module.qualname``; pass ``version="my_trial/v2"`` to key it yourself and bump it
whenever the trial's code changes. The key also holds a digest of the trial function's own bytecode
(:func:`trial_code_digest`), so an edited trial body never reads chunks of the old body even where the
version was not bumped; a change in a function it *calls* is not seen, and still needs the bump.
``n_trials`` is *not* part of the key: raising it reuses the trials already stored and computes only
the new ones. The stream key of a trial is derived from
the config alone (not seed or version), see :func:`config_key`.

Example
-------
In ``simulations/experiments/<subject>/<topic>.py`` (the trial must be a module-level function)::

    @dataclass(frozen=True, slots=True)
    class Point:
        N: int
        epsilon: float

    def trial(cfg: Point, t: int, root_seed: int) -> dict:
        data, privacy, evaluation = trial_streams(cfg, t, root_seed)
        ...
        return {"excess_risk": risk}

    def compute(ctx):
        res = run_trials(trial, points, n_trials, version="rates/v1", **engine_options(ctx))
        table = simulations.stats.summarize(res)                # mean, std, 95 % t-CI per point
        fit = simulations.stats.fit_loglog_slope(Ns, res["excess_risk"], rng=ctx.seed)
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import time
import types
from pathlib import Path
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from limits.validation import check_int
from simulations.cache import ChunkStore
from simulations.executors import count_worker_cpu, open_executor, validate_scheduler
from simulations.seeding import DATA, EVAL, PRIVACY, stream

__all__ = ["RunInterrupted", "TrialResults", "TrialStreams", "cache_version", "canonical_json", "config_fields",
           "config_hash", "config_key", "engine_options", "run_trials", "trial_code_digest", "trial_counts",
           "trial_streams"]

_TRIAL_COUNTS = [0, 0]  # trials computed / read from the cache by run_trials in this process (trial_counts)

# Chunk sizing (seconds of work per chunk). The floor keeps the per-chunk overhead (measured by
# benchmarks/bench_engine.py on a busy 2-core machine: ~0.3 ms to write a chunk file, ~1 ms per
# loky task, ~8 ms per Dask task) under a few percent; above a few seconds a kill loses more work.
MIN_CHUNK_SECONDS = {"serial": 0.1, "loky": 0.1, "dask": 0.5}
MAX_CHUNK_SECONDS = 2.0
CHUNKS_PER_WORKER = 4  # load balance: at least this many chunks per worker when work allows

# Trial functions whose first probe has run alone on a pool in this process (see _run): by then the numba kernels
# they need are in numba's on-disk cache, so later calls with the same function probe on every worker at once.
_PROBED_ALONE: set = set()


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_trials`, with what the cache kept for a resumed run.

    A ``KeyboardInterrupt`` (so it still stops the program); ``str()`` says how to resume. The
    parameters are kept as attributes of the same names.

    Parameters
    ----------
    n_saved : int >= 0
        Trials of the interrupted call written to the cache (0 without a cache folder).
    n_todo : int >= 0
        Trials the interrupted call had to compute.
    cache_dir : path-like or None
        The cache folder of the run, None when results were not cached.
    force : bool
        Whether the run was forced (its new chunks were staged and are discarded).

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism": a killed run resumes from the chunks
    already written; a forced run replaces old results only once it has finished.

    Examples
    --------
    >>> err = RunInterrupted(40, 100, "cache", force=False)
    >>> isinstance(err, KeyboardInterrupt), err.n_saved, err.n_todo
    (True, 40, 100)
    >>> print(err)
    interrupted; rerun the same command to resume (40 of 100 trials of this batch cached under cache)
    >>> print(RunInterrupted(0, 100, None, force=False))
    interrupted; no cache folder was set, so a rerun starts again
    """

    def __init__(self, n_saved: int, n_todo: int, cache_dir, force: bool):
        self.n_saved, self.n_todo, self.cache_dir, self.force = n_saved, n_todo, cache_dir, force
        if cache_dir is None:
            msg = "interrupted; no cache folder was set, so a rerun starts again"
        elif force:
            msg = (f"interrupted; --force kept the earlier cache as it was ({n_saved} of {n_todo} new "
                   "trials discarded): rerun the same command to recompute")
        else:
            msg = (f"interrupted; rerun the same command to resume ({n_saved} of {n_todo} trials of "
                   f"this batch cached under {cache_dir})")
        super().__init__(msg)


# ----------------------------------------------------------------------------------- config keys
def _plain(obj):
    """JSON-able form of a config field (tuples -> lists, numpy scalars/arrays -> Python)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {"__class__": type(obj).__qualname__,
                **{f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}}
    if isinstance(obj, enum.Enum):
        return _plain(obj.value)
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj)
    if isinstance(obj, (str, type(None))):
        return obj
    if isinstance(obj, Path):
        return str(obj)
    if isinstance(obj, np.ndarray):
        return [_plain(x) for x in obj.tolist()]
    if isinstance(obj, (list, tuple)):
        return [_plain(x) for x in obj]
    if isinstance(obj, dict):
        if not all(isinstance(k, str) for k in obj):
            raise ValueError(f"config dict keys must be strings, got keys {list(obj)!r}")
        return {k: _plain(v) for k, v in obj.items()}
    raise ValueError(f"config values must be numbers, strings, sequences, dicts or dataclasses; "
                     f"got {type(obj).__name__} value {obj!r}")


def config_fields(config) -> dict:
    """The config as a plain dict (class name under ``"__class__"`` for dataclasses).

    A config that is not a dataclass or a dict is returned as ``{"config": <plain value>}``.
    Nested values are made JSON-able: tuples and arrays become lists, numpy scalars Python
    numbers, enums their value, paths strings, nested dataclasses dicts.

    Parameters
    ----------
    config : dataclass instance, dict with str keys, or a JSON-able value
        An experiment point; fields may be numbers, strings, None, paths, enums, sequences,
        numpy arrays, dicts with string keys or dataclasses.

    Returns
    -------
    dict
        Field name -> plain value (``"__class__"``: the dataclass's ``__qualname__``).

    Raises
    ------
    ValueError
        If a value has another type (e.g. a function or a set) or a dict has a non-string key.

    References
    ----------
    docs/design.md, style contract "experiments": configs are data (frozen dataclasses) with stable keys.

    Examples
    --------
    >>> import dataclasses
    >>> @dataclasses.dataclass(frozen=True)
    ... class Point:
    ...     N: int
    ...     grid: tuple
    >>> config_fields(Point(N=np.int64(10), grid=(1, 2)))
    {'__class__': 'Point', 'N': 10, 'grid': [1, 2]}
    >>> config_fields(0.5)
    {'config': 0.5}
    """
    plain = _plain(config)
    return plain if isinstance(plain, dict) else {"config": plain}


def canonical_json(config) -> str:
    """The canonical text of a config: ``{"__class__": qualname, field: value, ...}``, sorted keys.

    Floats are written with ``repr`` (shortest round-trip), so equal configs give equal text in
    every process. The class's module is left out on purpose: moving a config class to another
    module keeps its results and random streams.

    Parameters
    ----------
    config : dataclass instance, dict with str keys, or a JSON-able value
        As for :func:`config_fields`.

    Returns
    -------
    str
        Compact JSON (no spaces), keys sorted; NaN and infinities written as ``NaN`` / ``Infinity``.

    Raises
    ------
    ValueError
        If a value cannot be made JSON-able (see :func:`config_fields`).

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism": results keyed by a hash of the full config.

    Examples
    --------
    >>> import dataclasses
    >>> @dataclasses.dataclass(frozen=True)
    ... class Point:
    ...     N: int
    ...     epsilon: float
    >>> canonical_json(Point(N=10, epsilon=0.1))
    '{"N":10,"__class__":"Point","epsilon":0.1}'
    """
    return json.dumps(_plain(config), sort_keys=True, separators=(",", ":"), allow_nan=True)


def config_key(config) -> int:
    """64-bit stream key of a config (first 8 bytes of the SHA-256 of its canonical JSON).

    The key depends on the config alone (not on the root seed or the trial version), so the
    ``spawn_key`` of :func:`trial_streams` stays the same when a trial's code changes.

    Parameters
    ----------
    config : dataclass instance, dict with str keys, or a JSON-able value
        As for :func:`canonical_json`.

    Returns
    -------
    int
        In ``[0, 2**64)``, the bytes read little-endian.

    Raises
    ------
    ValueError
        If the config cannot be made JSON-able (see :func:`config_fields`).

    References
    ----------
    docs/design.md, style contract "randomness": ``spawn_key=(config_key, trial, PURPOSE)``.

    Examples
    --------
    Equal configs share a key whatever their key order; changing a field changes it:

    >>> config_key({"a": 1, "b": 2}) == config_key({"b": 2, "a": 1}) != config_key({"a": 1, "b": 3})
    True
    >>> 0 <= config_key({"a": 1}) < 2**64
    True
    """
    return int.from_bytes(hashlib.sha256(canonical_json(config).encode()).digest()[:8], "little")


def _const_repr(value) -> str:
    """A process-independent repr of a code constant (set elements sorted: their order follows string hashing)."""
    if isinstance(value, (frozenset, set)):
        return "{" + ",".join(sorted(_const_repr(v) for v in value)) + "}"
    if isinstance(value, tuple):
        return "(" + ",".join(_const_repr(v) for v in value) + ")"
    if isinstance(value, types.CodeType):
        return trial_code_digest(value)
    return repr(value)


def trial_code_digest(trial_fn) -> str:
    """Hex digest (16 characters) of a trial function's own bytecode, names and constants.

    Part of the cache key of :func:`run_trials`: chunks computed by an earlier body of the function
    are not reused. Nested functions and comprehensions are included; functions it calls are not.
    The same source gives the same digest in every process of one Python version (set constants are
    hashed in sorted order); another Python version may give another digest (the cache is then
    recomputed, never misread). A callable without ``__code__`` (a ``functools.partial`` is unwrapped)
    gives ``""``.

    Parameters
    ----------
    trial_fn : callable or code object

    Returns
    -------
    str

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism": a changed configuration never
    reuses stale results.

    Examples
    --------
    >>> def f(cfg, t, s):
    ...     return {"x": t}
    >>> def g(cfg, t, s):
    ...     return {"x": t + 1}
    >>> len(trial_code_digest(f)), trial_code_digest(f) == trial_code_digest(g)
    (16, False)
    >>> trial_code_digest(print)   # no bytecode of its own
    ''
    """
    code = trial_fn if isinstance(trial_fn, types.CodeType) else getattr(
        getattr(trial_fn, "func", trial_fn), "__code__", None)
    if code is None:
        return ""
    parts = [code.co_code.hex(), repr(code.co_names), repr(code.co_varnames)]
    parts += [_const_repr(c) for c in code.co_consts]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]


def cache_version(version: str, trial_fn) -> str:
    """The version part of :func:`config_hash` that :func:`run_trials` uses: ``version`` and the trial's
    :func:`trial_code_digest`.

    Parameters
    ----------
    version : str
    trial_fn : callable

    Returns
    -------
    str

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism".

    Examples
    --------
    >>> def f(cfg, t, s):
    ...     return {"x": t}
    >>> cache_version("v1", f) == "v1|code:" + trial_code_digest(f)
    True
    """
    return f"{version}|code:{trial_code_digest(trial_fn)}"


def config_hash(config, *, root_seed: int, version: str) -> str:
    """Hex SHA-256 naming the cache folder of (config, root seed, trial version).

    The digest of the canonical JSON of ``{"config": ..., "root_seed": ..., "version": ...}``;
    ``n_trials`` is not part of it, so raising the number of trials reuses the cached ones.

    Parameters
    ----------
    config : dataclass instance, dict with str keys, or a JSON-able value
        As for :func:`canonical_json`.
    root_seed : int
        The run's root seed.
    version : str
        The trial function's version (see :func:`run_trials`); bump it when the trial changes.

    Returns
    -------
    str
        64 lowercase hex digits.

    Raises
    ------
    ValueError
        If the config cannot be made JSON-able (see :func:`config_fields`).

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism": chunks keyed by a hash of the full
    config, stored inside the chunk and checked on load; a changed config never reuses stale results.

    Examples
    --------
    >>> h = config_hash({"N": 100}, root_seed=1, version="v1")
    >>> len(h), h == config_hash({"N": 100}, root_seed=1, version="v1")
    (64, True)
    >>> h in {config_hash({"N": 100}, root_seed=2, version="v1"), config_hash({"N": 100}, root_seed=1, version="v2")}
    False
    """
    payload = json.dumps({"config": json.loads(canonical_json(config)), "root_seed": int(root_seed),
                          "version": str(version)}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


class TrialStreams(NamedTuple):
    """The three independent generators of one trial (docs/design.md: one stream per purpose).

    Built by :func:`trial_streams`; unpacks as ``data, privacy, evaluation = streams``.

    Parameters
    ----------
    data : numpy.random.Generator
        Draws the data set (features, true labels).
    privacy : numpy.random.Generator
        Draws the privacy mechanism's noise (the released labels).
    eval : numpy.random.Generator
        Draws what evaluating needs (e.g. the test points of an excess-risk estimate).

    References
    ----------
    docs/design.md, style contract "randomness" and its counter-example (a test set that repeated the
    training set because both were drawn after reseeding one global generator).

    Examples
    --------
    >>> s = TrialStreams(*(np.random.default_rng(i) for i in range(3)))
    >>> s.privacy is s[1]
    True
    """

    data: np.random.Generator
    privacy: np.random.Generator
    eval: np.random.Generator


def trial_streams(config, trial_index: int, root_seed: int) -> TrialStreams:
    """``(data, privacy, eval)`` generators of trial ``trial_index`` of ``config``.

    Each is ``SeedSequence(root_seed, spawn_key=(config_key(config), trial_index, purpose))``
    with purpose :data:`~simulations.seeding.DATA`, :data:`~simulations.seeding.PRIVACY`,
    :data:`~simulations.seeding.EVAL` (:func:`simulations.seeding.stream`).

    Parameters
    ----------
    config : dataclass instance, dict with str keys, or a JSON-able value
        The experiment point (keyed with :func:`config_key`).
    trial_index : int >= 0
        The trial.
    root_seed : int >= 0
        The run's root seed.

    Returns
    -------
    TrialStreams
        Three fresh generators.

    Raises
    ------
    ValueError
        If the config cannot be made JSON-able, or ``trial_index`` / ``root_seed`` is negative.

    References
    ----------
    docs/design.md, style contract "randomness": each trial and each purpose gets its own stream.

    Examples
    --------
    >>> from simulations.seeding import PRIVACY, stream
    >>> data, privacy, evaluation = trial_streams({"N": 100}, 3, 2024)
    >>> u = privacy.random(3)
    >>> bool(np.array_equal(u, stream(2024, config_key({"N": 100}), 3, PRIVACY).random(3)))
    True
    >>> bool(np.array_equal(u, trial_streams({"N": 100}, 4, 2024).privacy.random(3)))
    False
    """
    key = config_key(config)
    return TrialStreams(*(stream(root_seed, key, trial_index, p) for p in (DATA, PRIVACY, EVAL)))


# ------------------------------------------------------------------------------------- results
@dataclasses.dataclass
class TrialResults:
    """Per-trial results of :func:`run_trials`, in the order of ``configs``.

    ``results[metric]`` stacks one metric over the configs: shape
    ``(n_configs, n_trials, *metric_shape)``. The parameters are kept as attributes.

    Parameters
    ----------
    configs : list
        The experiment points, as given.
    n_trials : int
        Trials per config.
    per_config : list of dict
        ``per_config[i][metric]`` has shape ``(n_trials, *metric_shape)``, row t = trial t.
    n_computed : int, default 0
        Trials computed by this call (run bookkeeping, not data).
    n_cached : int, default 0
        Trials read from the cache by this call.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism": the results are a pure function of
    (config, root seed), in (config, trial) order whatever the executor.

    Examples
    --------
    >>> res = TrialResults(configs=["a", "b"], n_trials=2,
    ...                    per_config=[{"risk": np.array([0.1, 0.3])}, {"risk": np.array([0.2, 0.4])}])
    >>> res.metrics, res["risk"].shape
    (['risk'], (2, 2))
    """

    configs: list
    n_trials: int
    per_config: list[dict[str, np.ndarray]]
    n_computed: int = 0
    n_cached: int = 0

    @property
    def metrics(self) -> list[str]:
        """Names of the metrics the trials returned (``[]`` without configs).

        Returns
        -------
        list of str
            In the order the trial function returned them.

        Examples
        --------
        >>> TrialResults(configs=[1], n_trials=1, per_config=[{"a": np.zeros(1), "b": np.ones(1)}]).metrics
        ['a', 'b']
        """
        return list(self.per_config[0]) if self.per_config else []

    def __getitem__(self, metric: str) -> np.ndarray:
        """``metric`` stacked over configs: shape ``(n_configs, n_trials, *metric_shape)``."""
        return np.stack([r[metric] for r in self.per_config])


# -------------------------------------------------------------------------------------- chunks
def _run_chunk(trial_fn, config, root_seed, start, stop, tag):
    """Run trials ``start .. stop - 1``; returns ``(tag, start, stop, arrays, seconds, cpu_seconds)``.

    Module-level so loky and Dask can pickle it; the timings only size later chunks and count the
    run's CPU time (:func:`simulations.executors.worker_cpu_seconds`); they are never written to a data file.
    """
    t0, c0 = time.perf_counter(), time.process_time()
    rows = [trial_fn(config, t, root_seed) for t in range(start, stop)]
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    names = list(rows[0]) if isinstance(rows[0], dict) else None
    if not names or not all(isinstance(n, str) for n in names):
        raise ValueError(f"trial_fn must return a non-empty dict of named values, got {rows[0]!r}")
    arrays = {}
    for name in names:
        try:
            arrays[name] = np.stack([np.asarray(r[name]) for r in rows])
        except (KeyError, ValueError) as exc:
            raise ValueError(f"trial_fn must return the same metrics with the same shapes in every "
                             f"trial; metric {name!r} differs ({exc})") from exc
    if any(set(r) != set(names) for r in rows):
        raise ValueError(f"trial_fn returned different metric names across trials: {names}")
    return tag, start, stop, arrays, seconds, cpu


def _missing(n_trials: int, chunks) -> list[tuple[int, int]]:
    """Maximal runs of trials in ``0 .. n_trials - 1`` that no chunk covers."""
    covered = np.zeros(n_trials, dtype=bool)
    for start, stop, _ in chunks:
        covered[start:min(stop, n_trials)] = True
    gaps, t = [], 0
    while t < n_trials:
        if covered[t]:
            t += 1
            continue
        s = t
        while t < n_trials and not covered[t]:
            t += 1
        gaps.append((s, t))
    return gaps


def _split(gaps, size: int) -> list[tuple[int, int]]:
    return [(a, min(a + size, b)) for s, b in gaps for a in range(s, b, size)]


def _assemble(n_trials: int, chunks) -> dict[str, np.ndarray]:
    """One array per metric, rows in trial order, from possibly overlapping chunks."""
    names = list(chunks[0][2])
    out = {}
    for name in names:
        pieces = [(s, e, a[name]) for s, e, a in chunks]
        shapes = {p[2].shape[1:] for p in pieces}
        if len(shapes) != 1:
            raise ValueError(f"metric {name!r} has different shapes across chunks: {sorted(shapes)}")
        dtype = np.result_type(*[p[2].dtype for p in pieces])
        arr = np.empty((n_trials, *shapes.pop()), dtype=dtype)
        for s, e, a in pieces:
            e2 = min(e, n_trials)
            arr[s:e2] = a[: e2 - s]
        out[name] = arr
    return out


def _chunk_size(seconds_per_trial: float, total_seconds: float, n_workers: int, kind: str) -> int:
    floor = MIN_CHUNK_SECONDS[kind]
    target = min(MAX_CHUNK_SECONDS, max(floor, total_seconds / (CHUNKS_PER_WORKER * n_workers)))
    return max(1, int(target / max(seconds_per_trial, 1e-9)))


def _progress_bar(total: int, enabled: bool):
    from tqdm.auto import tqdm

    # disable=None: tqdm turns itself off when stderr is not a terminal (CI logs stay clean)
    return tqdm(total=total, unit="trial", desc="trials", disable=None if enabled else True, leave=False)


# ---------------------------------------------------------------------------------- run_trials
def run_trials(trial_fn: Callable[[Any, int, int], dict], configs: Sequence, n_trials: int, *,
               root_seed: int, jobs: int = 1, scheduler=None, cache_dir=None, force: bool = False,
               progress: bool = True, chunk_size: int | None = None, version: str | None = None
               ) -> TrialResults:
    """Run ``n_trials`` trials of ``trial_fn`` for every config; results in (config, trial) order.

    Parameters
    ----------
    trial_fn : callable ``(config, trial_index, root_seed) -> dict[str, float | ndarray]``
        Pure; draws only from :func:`trial_streams`. Must be a module-level (importable) function
        when ``jobs > 1`` or ``scheduler`` is set, so worker processes can unpickle it.
    configs : sequence of configs
        Frozen dataclasses (or JSON-able values); duplicates are computed once.
    n_trials : int >= 1
        Trials per config (indices ``0 .. n_trials - 1``).
    root_seed : int >= 0
    jobs : int >= 1
        Worker processes (joblib/loky), or Dask workers for ``scheduler="local"``.
    scheduler : None, "local", "proto://host:port" or distributed.Client
        See :mod:`simulations.executors`.
    cache_dir : path-like or None
        Where finished chunks are stored (``<cache_dir>/<config_hash>/``); None keeps nothing.
    force : bool
        Recompute everything, ignoring cached chunks; the old chunks are replaced only once all
        trials are done (an interrupted forced run leaves them as they were).
    progress : bool
        Show a tqdm bar over trials (also hidden when stderr is not a terminal).
    chunk_size : int >= 1 or None
        Trials per task. None: time one trial of each config first (that trial is kept), then
        size chunks to ``0.1 .. 2`` s of work (``0.5 .. 2`` s on Dask) with ~4 chunks per worker
        when there is enough work.
    version : str or None
        Part of the cache key; default ``trial_fn.__module__ + "." + trial_fn.__qualname__``. The key
        also holds the digest of the trial function's bytecode (:func:`cache_version`).

    Returns
    -------
    TrialResults

    Raises
    ------
    ValueError
        On an empty ``configs``, a non-callable ``trial_fn`` or an invalid count / scheduler.
    RunInterrupted
        On Ctrl-C; finished chunks stay cached and its message says how to resume.

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism": chunks of >= ~0.1 s on one joblib
    layer, written atomically as they finish, keyed by a hash of the full config; results
    identical whatever the number of workers.

    Examples
    --------
    Each trial draws from its own streams, so trial t's value can be recomputed alone from
    :func:`trial_streams`; a second call with a cache folder reads every trial back:

    >>> import tempfile
    >>> def trial(cfg, t, root_seed):
    ...     data, privacy, evaluation = trial_streams(cfg, t, root_seed)
    ...     return {"u": data.random(), "pair": privacy.integers(0, 2, size=2)}
    >>> tmp = tempfile.TemporaryDirectory(); cache = tmp.name
    >>> res = run_trials(trial, [{"N": 10}, {"N": 20}], 3, root_seed=5, cache_dir=cache, progress=False)
    >>> res["u"].shape, res["pair"].shape, res.n_computed, res.n_cached
    ((2, 3), (2, 3, 2), 6, 0)
    >>> bool(res["u"][1, 2] == trial_streams({"N": 20}, 2, 5).data.random())
    True
    >>> again = run_trials(trial, [{"N": 10}, {"N": 20}], 3, root_seed=5, cache_dir=cache, progress=False)
    >>> again.n_computed, again.n_cached, bool(np.array_equal(again["u"], res["u"]))
    (0, 6, True)
    >>> tmp.cleanup()
    """
    configs = list(configs)
    if not configs:
        raise ValueError("configs must contain at least one config, got an empty sequence")
    n_trials = check_int("n_trials", n_trials, low=1)
    root_seed = check_int("root_seed", root_seed, low=0)
    jobs = check_int("jobs", jobs, low=1)
    scheduler = validate_scheduler(scheduler)
    if chunk_size is not None:
        chunk_size = check_int("chunk_size", chunk_size, low=1)
    if not callable(trial_fn):
        raise ValueError(f"trial_fn must be callable, got trial_fn={trial_fn!r}")
    if version is None:
        version = f"{getattr(trial_fn, '__module__', '')}.{getattr(trial_fn, '__qualname__', type(trial_fn).__qualname__)}"

    plan = _plan(configs, n_trials, root_seed, cache_version(version, trial_fn), cache_dir, force)
    n_todo = plan.n_todo()
    try:
        if n_todo:
            _run(plan, trial_fn, jobs, scheduler, chunk_size, progress)
        return _collect(plan, n_todo)
    except KeyboardInterrupt:
        raise RunInterrupted(plan.n_saved(), n_todo, cache_dir, force) from None
    finally:
        for store in plan.stores.values():
            store.discard()  # an unfinished forced run's staging (a no-op once adopted)


@dataclasses.dataclass
class _Plan:
    """What one :func:`run_trials` call must compute: configs deduplicated by hash, the chunks
    already on disk, and (filled while running) the chunks computed."""

    configs: list
    n_trials: int
    root_seed: int
    hashes: list[str]                      # one per config, in the caller's order
    first: dict[str, Any]                  # hash -> its first config (unique, first-occurrence order)
    stores: dict[str, ChunkStore]          # empty without a cache folder
    chunks: dict[str, list]                # hash -> [(start, stop, arrays)]
    computed: set = dataclasses.field(default_factory=set)
    saved: int = 0

    def gaps(self, h: str) -> list[tuple[int, int]]:
        return _missing(self.n_trials, self.chunks[h])

    def n_todo(self) -> int:
        return sum(b - a for h in self.first for a, b in self.gaps(h))

    def record(self, result, bar, remote: bool) -> None:
        h, start, stop, arrays, _, cpu = result
        self.computed.add(h)
        self.chunks[h].append((start, stop, arrays))
        if h in self.stores:
            self.stores[h].save(start, stop, arrays)  # at once, so a kill keeps this chunk
            self.saved += stop - start
        if remote:  # this process's own CPU time already counts the serial chunks
            count_worker_cpu(cpu)
        bar.update(stop - start)

    def n_saved(self) -> int:
        """Trials of this call written to the cache so far (0 without a cache folder)."""
        return self.saved


def _plan(configs, n_trials, root_seed, version, cache_dir, force) -> _Plan:
    """Hash the configs, open (or, with ``force``, clear) their caches and load the finished chunks."""
    hashes = [config_hash(c, root_seed=root_seed, version=version) for c in configs]
    first = {h: configs[hashes.index(h)] for h in dict.fromkeys(hashes)}
    # force: a private staging store per point, so the old chunks stay until replacements exist
    stores = {h: ChunkStore(cache_dir, h, staging=force) for h in first} if cache_dir is not None else {}
    chunks: dict[str, list] = {h: [] for h in first}
    for h, store in stores.items():
        store.write_description({"class": type(first[h]).__qualname__,
                                 "config": json.loads(canonical_json(first[h])),
                                 "root_seed": root_seed, "version": version, "config_hash": h})
        if not force:
            chunks[h] = store.load(n_trials)
    return _Plan(configs, n_trials, root_seed, hashes, first, stores, chunks)


def _run(plan: _Plan, trial_fn, jobs, scheduler, chunk_size, progress) -> None:
    """Compute every missing trial in chunks on the executor, recording each chunk as it finishes."""
    todo = [h for h in plan.first if plan.gaps(h)]
    with open_executor(jobs, scheduler) as ex, _progress_bar(plan.n_todo(), progress) as bar:
        remote = ex.kind != "serial"
        if chunk_size is None:
            # Probe: one trial per config with work left, timed in the worker, result kept.
            probes = [(trial_fn, plan.first[h], plan.root_seed, plan.gaps(h)[0][0], plan.gaps(h)[0][0] + 1, h)
                      for h in todo]
            per_trial = {}
            # The first time a trial function meets a pool in this process its first probe runs alone: the
            # numba kernels its trial needs are compiled once, saved to numba's cache and loaded by the other
            # workers, instead of being compiled by every worker at once (in a fresh clone both loky workers
            # compiled the same kernels; issue 20). Later calls skip the wait (it left a core idle for a
            # whole trial each time: 5.9 s in one rates_local_regression call). No result depends on the order.
            fn_key = (getattr(trial_fn, "__module__", None), getattr(trial_fn, "__qualname__", repr(trial_fn)))
            alone = remote and ex.n_workers > 1 and fn_key not in _PROBED_ALONE
            for batch in ((probes[:1], probes[1:]) if alone else (probes,)):
                for res in ex.map_unordered(_run_chunk, batch) if batch else ():
                    plan.record(res, bar, remote)
                    per_trial[res[0]] = res[4]
            if alone:
                _PROBED_ALONE.add(fn_key)
            total = sum(per_trial[h] * sum(b - a for a, b in plan.gaps(h)) for h in per_trial)
            sizes = {h: _chunk_size(per_trial[h], total, ex.n_workers, ex.kind) for h in per_trial}
        else:
            sizes = {h: chunk_size for h in todo}
        tasks = [(trial_fn, plan.first[h], plan.root_seed, a, b, h) for h in todo
                 for a, b in _split(plan.gaps(h), sizes[h])]
        for res in ex.map_unordered(_run_chunk, tasks):
            plan.record(res, bar, remote)


def _collect(plan: _Plan, n_computed: int) -> TrialResults:
    """Stack each config's chunks in trial order; rewrite a cache that gained chunks as one file."""
    per_hash = {}
    for h in plan.first:
        per_hash[h] = _assemble(plan.n_trials, plan.chunks[h])
        if h in plan.stores and h in plan.computed:
            plan.stores[h].adopt(plan.n_trials, per_hash[h])  # consolidate; a forced run replaces the old
    n_cached = len(plan.first) * plan.n_trials - n_computed
    _TRIAL_COUNTS[0] += n_computed
    _TRIAL_COUNTS[1] += n_cached
    return TrialResults(configs=plan.configs, n_trials=plan.n_trials, per_config=[per_hash[h] for h in plan.hashes],
                        n_computed=n_computed, n_cached=n_cached)


def trial_counts() -> tuple[int, int]:
    """Trials :func:`run_trials` has computed and read from the cache in this process so far.

    The runner takes the difference around an experiment's compute and records it in ``results.json``
    (``trials``), so a run that read most of its trials from the cache is not taken for the cost of the
    experiment (:func:`simulations.experiments.eta.recorded_cpu_seconds`).

    Returns
    -------
    computed, cached : int
        Running totals (distinct configs times trials, as :class:`TrialResults` counts them).

    References
    ----------
    docs/design.md, "Randomness, reproducibility, parallelism" (the cache) and "The runner and its staging"
    (time estimates).

    Examples
    --------
    >>> import tempfile
    >>> def trial(cfg, t, root_seed):
    ...     return {"u": trial_streams(cfg, t, root_seed).data.random()}
    >>> cache = tempfile.mkdtemp()
    >>> c0, k0 = trial_counts()
    >>> _ = run_trials(trial, [1, 2], 3, root_seed=0, cache_dir=cache, progress=False)
    >>> _ = run_trials(trial, [1, 2], 4, root_seed=0, cache_dir=cache, progress=False)
    >>> c1, k1 = trial_counts()
    >>> c1 - c0, k1 - k0
    (8, 6)
    """
    return _TRIAL_COUNTS[0], _TRIAL_COUNTS[1]


def engine_options(ctx) -> dict:
    """Keyword arguments of :func:`run_trials` taken from a :class:`~simulations.experiments.base.RunContext`.

    ``run_trials(trial, configs, n, **engine_options(ctx))`` wires ``--seed``, ``--jobs``,
    ``--scheduler``, ``--force`` and the runner's cache folder through unchanged.

    Parameters
    ----------
    ctx : simulations.experiments.base.RunContext
        The run's settings (any object with ``seed``, ``jobs``, ``scheduler``, ``cache_dir``,
        ``force`` and ``progress`` attributes).

    Returns
    -------
    dict
        Keys ``root_seed``, ``jobs``, ``scheduler``, ``cache_dir``, ``force``, ``progress``.

    Raises
    ------
    AttributeError
        If ``ctx`` lacks one of the attributes; the values are validated by :func:`run_trials`.

    References
    ----------
    docs/design.md, "Experiments and their outputs" (one runner, ``--seed``/``--jobs``/``--force``).

    Examples
    --------
    >>> from simulations.experiments.base import RunContext
    >>> opts = engine_options(RunContext(seed=7, jobs=2))
    >>> opts["root_seed"], opts["jobs"], opts["scheduler"], opts["force"]
    (7, 2, None, False)
    """
    return dict(root_seed=ctx.seed, jobs=ctx.jobs, scheduler=ctx.scheduler, cache_dir=ctx.cache_dir,
                force=ctx.force, progress=ctx.progress)
