"""The Monte Carlo engine: seeding invariance across executors, resumable cache, validation.

Bit-identity is asserted with ``np.array_equal`` on every metric (no tolerance): the engine
promises the same numbers whatever the executor, chunking or completion order.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the workers unpickle the trial functions from this module by name

import _trial_fns as tf  # noqa: E402
from _trial_fns import Point, counting_trial, three_stream_trial  # noqa: E402
from simulations.engine import (RunInterrupted, TrialResults, cache_version, canonical_json, config_hash,
                                config_key, engine_options, run_trials, trial_code_digest, trial_streams)
from simulations.executors import open_executor
from simulations.experiments.base import RunContext
from simulations.experiments.runner import write_csv
from simulations.stats import summarize  # noqa: E402

CONFIGS = [Point(5), Point(40, shift=1.5, label="b"), Point(5, shift=-0.25)]
N_TRIALS = 13
SEED = 20261122


def assert_identical(a: TrialResults, b: TrialResults):
    assert a.metrics == b.metrics
    for m in a.metrics:
        x, y = a[m], b[m]
        assert x.dtype == y.dtype and x.shape == y.shape, m
        assert np.array_equal(x, y), m


@pytest.fixture(scope="module")
def serial():
    return run_trials(three_stream_trial, CONFIGS, N_TRIALS, root_seed=SEED, progress=False)


@pytest.fixture(scope="module")
def dask_address():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(autouse=True)
def _reset_counters():
    tf.CALLS.clear()
    tf.RAISE_AT = tf.INTERRUPT_AT = None
    yield
    tf.CALLS.clear()
    tf.RAISE_AT = tf.INTERRUPT_AT = None


# ------------------------------------------------------------------------------- config keys
def test_canonical_json_and_stream_key_by_hand():
    # Written by hand from the documented format: class qualname + fields, sorted, repr floats.
    text = '{"__class__":"Point","label":"a","n":5,"shift":0.0}'
    assert canonical_json(Point(5)) == text
    assert config_key(Point(5)) == int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    # numpy scalars and Python numbers are the same config
    assert canonical_json(Point(np.int64(5), np.float64(0.0))) == text


def test_trial_streams_are_the_documented_seed_sequences():
    key = config_key(Point(5))
    streams = trial_streams(Point(5), 7, 123)
    for purpose, g in enumerate(streams):  # DATA, PRIVACY, EVAL = 0, 1, 2
        ref = np.random.default_rng(np.random.SeedSequence(123, spawn_key=(key, 7, purpose)))
        assert np.array_equal(g.integers(0, 2**62, size=4), ref.integers(0, 2**62, size=4))
    draws = {(c, t, p): trial_streams(c, t, 123)[p].integers(0, 2**62)
             for c in (Point(5), Point(6)) for t in (0, 1) for p in range(3)}
    assert len(set(draws.values())) == len(draws)  # 12 distinct streams


@pytest.mark.parametrize("other", [Point(6), Point(5, shift=1e-12), Point(5, label="b")])
def test_config_hash_changes_with_every_field(other):
    base = config_hash(Point(5), root_seed=1, version="v")
    assert config_hash(Point(5), root_seed=1, version="v") == base
    assert config_hash(other, root_seed=1, version="v") != base
    assert config_hash(Point(5), root_seed=2, version="v") != base
    assert config_hash(Point(5), root_seed=1, version="w") != base


def test_config_class_name_is_part_of_the_key():
    @dataclass(frozen=True)
    class Other:
        n: int
        shift: float = 0.0
        label: str = "a"

    assert canonical_json(Other(5)) != canonical_json(Point(5))


# ----------------------------------------------------------------------------- bit identity
def test_shapes_and_order(serial):
    assert serial["risk"].shape == (3, N_TRIALS)
    assert serial["curve"].shape == (3, N_TRIALS, 3)
    assert serial["count"].dtype == np.int64
    # row t of config i is trial t of config i, computed directly
    for i, c in enumerate(CONFIGS):
        for t in (0, N_TRIALS - 1):
            direct = three_stream_trial(c, t, SEED)
            assert serial.per_config[i]["risk"][t] == direct["risk"]
            assert np.array_equal(serial.per_config[i]["curve"][t], direct["curve"])


@pytest.mark.parametrize("chunk_size", [1, 4, N_TRIALS, 100])
def test_chunk_size_does_not_change_results(serial, chunk_size):
    r = run_trials(three_stream_trial, CONFIGS, N_TRIALS, root_seed=SEED, chunk_size=chunk_size, progress=False)
    assert_identical(serial, r)


def test_loky_processes_identical(serial, tmp_path):
    r = run_trials(three_stream_trial, CONFIGS, N_TRIALS, root_seed=SEED, jobs=2, chunk_size=3,
                   cache_dir=tmp_path, progress=False)
    assert_identical(serial, r)
    again = run_trials(three_stream_trial, CONFIGS, N_TRIALS, root_seed=SEED, cache_dir=tmp_path, progress=False)
    assert again.n_computed == 0 and again.n_cached == 3 * N_TRIALS
    assert_identical(serial, again)


def test_dask_cluster_identical(serial, dask_address):
    r = run_trials(three_stream_trial, CONFIGS, N_TRIALS, root_seed=SEED, scheduler=dask_address,
                   chunk_size=2, progress=False)
    assert_identical(serial, r)
    r_auto = run_trials(three_stream_trial, CONFIGS, N_TRIALS, root_seed=SEED, scheduler=dask_address, progress=False)
    assert_identical(serial, r_auto)
    from distributed import Client

    with Client(dask_address, set_as_default=False) as client:  # an existing Client is used as is
        r_client = run_trials(three_stream_trial, CONFIGS, N_TRIALS, root_seed=SEED, scheduler=client,
                              chunk_size=7, progress=False)
        assert client.status == "running"
    assert_identical(serial, r_client)


@pytest.mark.filterwarnings("ignore:Port 8787 is already in use")
def test_dask_local_cluster_started_by_the_engine(serial):
    pytest.importorskip("distributed")
    from simulations import executors

    try:
        r = run_trials(three_stream_trial, CONFIGS, N_TRIALS, root_seed=SEED, jobs=2, scheduler="local",
                       chunk_size=5, progress=False)
        assert_identical(serial, r)
        cluster = executors._LOCAL[2][0]
        assert len(cluster.workers) == 2
        r2 = run_trials(three_stream_trial, CONFIGS[:1], 3, root_seed=SEED, jobs=2, scheduler="local", progress=False)
        assert executors._LOCAL[2][0] is cluster  # kept for later runs, not restarted
        assert np.array_equal(r2["risk"][0], serial["risk"][0, :3])
    finally:
        executors.close_local_clusters()
    assert executors._LOCAL == {}


def test_summary_csv_byte_identical_across_executors(serial, tmp_path):
    par = run_trials(three_stream_trial, CONFIGS, N_TRIALS, root_seed=SEED, jobs=2, chunk_size=2, progress=False)
    write_csv(tmp_path / "a.csv", summarize(serial))
    write_csv(tmp_path / "b.csv", summarize(par))
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()


# ------------------------------------------------------------------------------- the cache
def _chunk_files(cache: Path):
    return sorted(p.name for p in cache.rglob("chunk_*.npz"))


def test_resume_after_a_failed_run_recomputes_only_missing_chunks(serial, tmp_path):
    tf.RAISE_AT = 9
    with pytest.raises(RuntimeError, match="planned failure"):
        run_trials(counting_trial, [CONFIGS[0]], N_TRIALS, root_seed=SEED, chunk_size=4,
                   cache_dir=tmp_path, progress=False, version="v1")
    assert _chunk_files(tmp_path) == ["chunk_0_4.npz", "chunk_4_8.npz"]  # 8..11 failed at trial 9
    tf.RAISE_AT = None
    tf.CALLS.clear()
    r = run_trials(counting_trial, [CONFIGS[0]], N_TRIALS, root_seed=SEED, chunk_size=4,
                   cache_dir=tmp_path, progress=False, version="v1")
    assert tf.CALLS == list(range(8, N_TRIALS))
    assert (r.n_cached, r.n_computed) == (8, N_TRIALS - 8)
    assert np.array_equal(r["risk"][0], serial["risk"][0])
    assert np.array_equal(r["curve"][0], serial["curve"][0])
    # finished points are merged into one file
    assert _chunk_files(tmp_path) == [f"chunk_0_{N_TRIALS}.npz"]
    assert len(list(tmp_path.rglob("config.json"))) == 1


def test_resume_after_a_killed_process(serial, tmp_path):
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(HERE)!r})
        from _trial_fns import Point, counting_trial
        from simulations.engine import run_trials
        run_trials(counting_trial, [Point(40, shift=1.5, label="b")], {N_TRIALS}, root_seed={SEED},
                   chunk_size=3, cache_dir={str(tmp_path)!r}, progress=False, version="kill")
    """)
    env = dict(os.environ, ENGINE_TEST_CRASH_AT="7")
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, timeout=120)
    assert proc.returncode == 3, proc.stderr.decode()
    assert _chunk_files(tmp_path) == ["chunk_0_3.npz", "chunk_3_6.npz"]
    r = run_trials(counting_trial, [CONFIGS[1]], N_TRIALS, root_seed=SEED, chunk_size=3,
                   cache_dir=tmp_path, progress=False, version="kill")
    assert tf.CALLS == list(range(6, N_TRIALS))
    assert (r.n_cached, r.n_computed) == (6, N_TRIALS - 6)
    for m in r.metrics:
        assert np.array_equal(r[m][0], serial[m][1])


def test_changed_config_seed_or_version_never_reuses(tmp_path):
    kw = dict(cache_dir=tmp_path, progress=False, chunk_size=5)
    run_trials(counting_trial, [Point(5)], 10, root_seed=1, version="a", **kw)
    assert len(tf.CALLS) == 10
    for cfg, seed, version in [(Point(5, shift=0.5), 1, "a"), (Point(5), 2, "a"), (Point(5), 1, "b")]:
        tf.CALLS.clear()
        r = run_trials(counting_trial, [cfg], 10, root_seed=seed, version=version, **kw)
        assert r.n_cached == 0 and len(tf.CALLS) == 10
    tf.CALLS.clear()
    r = run_trials(counting_trial, [Point(5)], 10, root_seed=1, version="a", **kw)
    assert r.n_cached == 10 and tf.CALLS == []


def test_default_version_is_the_trial_function_name(tmp_path):
    run_trials(counting_trial, [Point(5)], 4, root_seed=1, cache_dir=tmp_path, progress=False)
    r = run_trials(three_stream_trial, [Point(5)], 4, root_seed=1, cache_dir=tmp_path, progress=False)
    assert r.n_cached == 0  # another function: no reuse, though it draws the same numbers


def _body_a(cfg, t, root_seed):
    return {"x": np.array(float(t))}


def _body_b(cfg, t, root_seed):
    return {"x": np.array(float(t) + 1.0)}


def test_an_edited_trial_body_never_reads_the_old_chunks(tmp_path):
    """issue 35: cluster_priors_digits' trial changed (one k-means partition per trial) under the same version
    string, and a rerun into figures/ read 20 trials of the old body from the cache. The key now holds the trial
    function's bytecode digest: two bodies under one version and one config share no chunk."""
    kw = dict(root_seed=1, cache_dir=tmp_path, progress=False, version="same")
    a = run_trials(_body_a, [Point(5)], 4, **kw)
    b = run_trials(_body_b, [Point(5)], 4, **kw)
    assert b.n_cached == 0 and np.array_equal(b["x"], a["x"] + 1.0)
    assert run_trials(_body_a, [Point(5)], 4, **kw).n_cached == 4  # the same body still resumes
    assert trial_code_digest(_body_a) != trial_code_digest(_body_b)
    # sets of strings are hashed in sorted order: the digest is the same in a process with another hash seed
    src = "def f(c, t, s):\n    return {'x': t in {'alpha', 'beta', 'gamma', 'delta'}}\n"
    cmd = ("import sys; ns = {}; exec(sys.argv[1], ns); "
           "from simulations.engine import trial_code_digest; print(trial_code_digest(ns['f']))")
    digests = {subprocess.run([sys.executable, "-c", cmd, src], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert len(digests) == 1


def test_force_recomputes_and_overwrites(tmp_path):
    kw = dict(root_seed=1, cache_dir=tmp_path, progress=False, version="f")
    first = run_trials(counting_trial, [Point(5)], 8, chunk_size=3, **kw)
    tf.CALLS.clear()
    forced = run_trials(counting_trial, [Point(5)], 8, chunk_size=8, force=True, **kw)
    assert tf.CALLS == list(range(8)) and forced.n_cached == 0
    assert_identical(first, forced)
    assert _chunk_files(tmp_path) == ["chunk_0_8.npz"]


def _snapshot(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("failure", ["crash", "ctrl-c"])
def test_failed_forced_run_leaves_the_old_chunks_byte_identical(tmp_path, failure):
    """issue 19: --force used to delete the cache before computing; a failed forced run lost it."""
    kw = dict(root_seed=1, cache_dir=tmp_path, progress=False, version="f", chunk_size=2)
    first = run_trials(counting_trial, [Point(5)], 8, **kw)
    before = _snapshot(tmp_path)
    if failure == "crash":
        tf.RAISE_AT = 5
        with pytest.raises(RuntimeError, match="planned failure"):
            run_trials(counting_trial, [Point(5)], 8, force=True, **kw)
    else:
        tf.INTERRUPT_AT = 5
        with pytest.raises(KeyboardInterrupt):
            run_trials(counting_trial, [Point(5)], 8, force=True, **kw)
    assert _snapshot(tmp_path) == before  # same files, same bytes, no staging folder left behind
    tf.RAISE_AT = tf.INTERRUPT_AT = None
    tf.CALLS.clear()
    again = run_trials(counting_trial, [Point(5)], 8, **kw)  # not forced: the old chunks serve
    assert tf.CALLS == [] and again.n_cached == 8
    assert_identical(first, again)


def test_chunk_copied_from_another_configuration_is_refused(serial, tmp_path):
    """issue 19: a well-formed chunk of config B placed in config A's folder was used silently."""
    kw = dict(root_seed=SEED, cache_dir=tmp_path, progress=False, version="copy")
    run_trials(counting_trial, CONFIGS[:2], N_TRIALS, **kw)
    key = cache_version("copy", counting_trial)
    a = tmp_path / config_hash(CONFIGS[0], root_seed=SEED, version=key)
    b = tmp_path / config_hash(CONFIGS[1], root_seed=SEED, version=key)
    name = f"chunk_0_{N_TRIALS}.npz"
    (a / name).write_bytes((b / name).read_bytes())  # same metrics and shapes: only the key differs
    tf.CALLS.clear()
    with pytest.warns(RuntimeWarning, match="belongs to config hash"):
        r = run_trials(counting_trial, CONFIGS[:1], N_TRIALS, **kw)
    assert tf.CALLS == list(range(N_TRIALS))  # recomputed, not read from B's numbers
    assert_identical(r, run_trials(three_stream_trial, CONFIGS[:1], N_TRIALS, root_seed=SEED, progress=False))
    tf.CALLS.clear()
    run_trials(counting_trial, CONFIGS[:1], N_TRIALS, **kw)
    assert tf.CALLS == []  # the foreign file was replaced by A's own merged chunk


def test_ctrl_c_says_how_many_trials_are_cached_and_a_rerun_resumes(serial, tmp_path):
    kw = dict(root_seed=SEED, cache_dir=tmp_path, progress=False, version="ctrl-c", chunk_size=3)
    tf.INTERRUPT_AT = 7
    with pytest.raises(RunInterrupted) as info:
        run_trials(counting_trial, CONFIGS[:1], N_TRIALS, **kw)
    assert (info.value.n_saved, info.value.n_todo) == (6, N_TRIALS)  # chunks 0-2 and 3-5 were saved
    assert isinstance(info.value, KeyboardInterrupt)
    assert f"rerun the same command to resume (6 of {N_TRIALS} trials" in str(info.value)
    tf.INTERRUPT_AT = None
    tf.CALLS.clear()
    r = run_trials(counting_trial, CONFIGS[:1], N_TRIALS, **kw)
    assert tf.CALLS == list(range(6, N_TRIALS))
    assert np.array_equal(r["risk"][0], serial["risk"][0])


def test_more_trials_reuse_the_stored_ones(serial, tmp_path):
    kw = dict(root_seed=SEED, cache_dir=tmp_path, progress=False, version="grow")
    run_trials(counting_trial, CONFIGS[:1], 5, **kw)
    tf.CALLS.clear()
    r = run_trials(counting_trial, CONFIGS[:1], N_TRIALS, **kw)
    assert tf.CALLS == list(range(5, N_TRIALS)) and r.n_cached == 5
    assert np.array_equal(r["risk"][0], serial["risk"][0])
    tf.CALLS.clear()
    fewer = run_trials(counting_trial, CONFIGS[:1], 3, **kw)
    assert tf.CALLS == [] and np.array_equal(fewer["risk"][0], serial["risk"][0, :3])


def test_corrupt_chunk_and_leftover_temp_file_are_ignored(serial, tmp_path):
    kw = dict(root_seed=SEED, cache_dir=tmp_path, progress=False, version="c", chunk_size=4)
    run_trials(counting_trial, CONFIGS[:1], 8, **kw)  # writes chunk_0_8 after merging
    folder = next(tmp_path.iterdir())
    (folder / "chunk_0_8.npz").write_bytes(b"PK\x03\x04 torn write")  # unreadable chunk
    (folder / ".chunk_8_12.npz.abc123.tmp").write_bytes(b"partial")  # temp file of a killed writer
    tf.CALLS.clear()
    with pytest.warns(RuntimeWarning, match="unreadable cache chunk"):
        r = run_trials(counting_trial, CONFIGS[:1], N_TRIALS, **kw)
    assert tf.CALLS == list(range(N_TRIALS))
    assert np.array_equal(r["risk"][0], serial["risk"][0])


def test_chunk_with_wrong_row_count_is_rejected(tmp_path):
    kw = dict(root_seed=1, cache_dir=tmp_path, progress=False, version="rows")
    run_trials(counting_trial, [Point(5)], 4, **kw)
    folder = next(tmp_path.iterdir())
    np.savez(folder / "chunk_4_8.npz", risk=np.zeros(3))  # claims 4 trials, holds 3
    tf.CALLS.clear()
    with pytest.warns(RuntimeWarning):
        run_trials(counting_trial, [Point(5)], 8, **kw)
    assert tf.CALLS == [4, 5, 6, 7]


def test_progress_bar_does_not_change_results(serial, capsys):
    r = run_trials(three_stream_trial, CONFIGS, N_TRIALS, root_seed=SEED, chunk_size=4, progress=True)
    assert_identical(serial, r)


def test_duplicate_configs_are_computed_once(serial):
    r = run_trials(counting_trial, [CONFIGS[0], CONFIGS[0]], 6, root_seed=SEED, progress=False)
    assert tf.CALLS == list(range(6))
    assert np.array_equal(r["risk"][0], r["risk"][1])


def test_config_json_describes_the_point(tmp_path):
    import json

    run_trials(three_stream_trial, [Point(5)], 2, root_seed=3, cache_dir=tmp_path, progress=False, version="d")
    desc = json.loads(next(tmp_path.rglob("config.json")).read_text())
    assert desc["config"] == {"__class__": "Point", "n": 5, "shift": 0.0, "label": "a"}
    key = cache_version("d", three_stream_trial)  # the version and the trial's bytecode digest
    assert desc["root_seed"] == 3 and desc["version"] == key and key.startswith("d|code:")
    assert desc["config_hash"] == config_hash(Point(5), root_seed=3, version=key)


def test_engine_options_from_run_context(tmp_path):
    ctx = RunContext(profile="smoke", seed=9, jobs=3, scheduler="local", force=True, cache_dir=tmp_path, progress=False)
    assert engine_options(ctx) == dict(root_seed=9, jobs=3, scheduler="local", cache_dir=tmp_path,
                                       force=True, progress=False)


# ------------------------------------------------------------------------------ validation
def _bad_return(config, trial, root_seed):
    return [1.0]


def _ragged(config, trial, root_seed):
    return {"v": np.zeros(trial + 1)}


@pytest.mark.parametrize("kwargs, match", [
    (dict(n_trials=0), "n_trials"),
    (dict(n_trials=2.0), "n_trials"),
    (dict(jobs=0), "jobs"),
    (dict(root_seed=-1), "root_seed"),
    (dict(chunk_size=0), "chunk_size"),
    (dict(scheduler="localhost"), "scheduler"),
    (dict(scheduler=8786), "scheduler"),
    (dict(configs=[]), "configs"),
    (dict(configs=[object()]), "config values"),
    (dict(trial_fn=_bad_return), "dict"),
    (dict(trial_fn=_ragged), "same metrics"),
    (dict(trial_fn="not callable"), "callable"),
])
def test_invalid_arguments(kwargs, match):
    args = dict(trial_fn=three_stream_trial, configs=[Point(3)], n_trials=3, root_seed=0, progress=False)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        run_trials(args.pop("trial_fn"), args.pop("configs"), args.pop("n_trials"), **args)


def test_missing_dask_gives_a_clear_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    with pytest.raises(ImportError, match=r"labeldp-suite\[dask\]"):
        with open_executor(2, "local"):
            pass


@pytest.mark.parametrize("per_trial, total, workers, kind, expected", [
    (1e-4, 5e-3, 1, "serial", 1000),   # tiny total work: the 0.1 s floor decides
    (1e-3, 80.0, 2, "loky", 2000),     # 80 s / (4 chunks x 2 workers) = 10 s, capped at 2 s
    (1e-3, 4.0, 2, "loky", 500),       # 4 s / 8 = 0.5 s per chunk
    (1e-3, 4.0, 2, "dask", 500),       # same, above Dask's 0.5 s floor
    (1e-3, 1.0, 2, "dask", 500),       # 1 s / 8 = 0.125 s, raised to Dask's 0.5 s floor
    (3.0, 300.0, 4, "loky", 1),        # a trial longer than the cap: one per chunk
])
def test_auto_chunk_size_rule(per_trial, total, workers, kind, expected):
    from simulations.engine import _chunk_size

    assert _chunk_size(per_trial, total, workers, kind) == expected


def test_first_probe_runs_alone_on_a_pool(serial, monkeypatch):
    # The kernels the first probe compiles are then loaded from numba's cache by the other workers instead of
    # being compiled by each at once (issue 20). A pool that runs its tasks here records each batch it is given.
    import contextlib

    import simulations.engine as engine
    from simulations.executors import Executor

    batches = []

    class RecordingPool(Executor):
        def map_unordered(self, fn, tasks):
            tasks = list(tasks)
            batches.append([(t[2], t[3], t[4]) for t in tasks])  # (root_seed, start, stop)
            return (fn(*t) for t in tasks)

    pool = RecordingPool("loky", 2)
    monkeypatch.setattr(engine, "open_executor", lambda jobs, scheduler: contextlib.nullcontext(pool))
    monkeypatch.setattr(engine, "_PROBED_ALONE", set())  # as in a fresh process
    res = run_trials(three_stream_trial, CONFIGS, N_TRIALS, root_seed=SEED, progress=False)
    n_distinct = len(set(CONFIGS))
    assert [len(b) for b in batches[:2]] == [1, n_distinct - 1]  # the probes: the first alone, then the others
    assert all((s, e) == (0, 1) for b in batches[:2] for _, s, e in b)
    assert sum(e - s for b in batches for _, s, e in b) == n_distinct * N_TRIALS
    assert_identical(res, serial)
    # A later call with the same trial function (kernels already compiled) probes every config at once.
    batches.clear()
    again = run_trials(three_stream_trial, CONFIGS, N_TRIALS, root_seed=SEED, progress=False)
    assert len(batches[0]) == n_distinct and all((s, e) == (0, 1) for _, s, e in batches[0])
    assert sum(e - s for b in batches for _, s, e in b) == n_distinct * N_TRIALS
    assert_identical(again, serial)
