"""Issue 36, the runner's probes, played as a hostile but fair user would (2, 5-10, 12, 13).

Each test sets up the hostile situation, runs the suite (toy experiments through ``paper_repro.main`` or
``run_all``: milliseconds each) and checks that the answer is a clear refusal or a correct result, with
nothing outside ``--out`` changed and no user file deleted. Expected values are the files as they were
before (bytes), the user's own files, and the exit codes ``paper_repro.py`` documents.
"""

from __future__ import annotations

import contextlib
import json
import os
import runpy
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import proofs_checks.experiments  # noqa: F401  (registers every experiment, as paper_repro does)
from simulations import executors
from simulations.cache import ChunkStore
from simulations.engine import run_trials
from simulations.experiments import REGISTRY, Claim, Experiment, ExperimentResult, RunContext
from simulations.experiments.runner import run_all
from simulations.plotting import figure
from simulations.scratch import make_scratch, remove_scratch, sweep_stale

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "simulations"))
from _trial_fns import Point, three_stream_trial  # noqa: E402

USER_FILES = {"keep.csv": b"mine,not yours\n1,2\n", "notes.json": b'{"my": "notes"}\n', "photo.png": b"\x89PNG my cat"}
NO_LOG = dict(log=lambda s: None)


# -- toy experiments whose every output depends on the seed, so two runs' files can be told apart ------------------

def _compute(ctx):
    tables = {"excess": {"seed": [ctx.seed, ctx.seed + 1]}}
    if ctx.seed == 3:
        tables["only_seed_3"] = {"x": [1]}  # a table a later run no longer writes
    return ExperimentResult(tables=tables, claims=[Claim("1 = 1", True, kind="beyond")], data={"seed": ctx.seed})


def _plot(result):
    fig, (ax,) = figure(title=f"seed {result.data['seed']}")
    ax.plot([1, 2], [result.data["seed"], 0])
    return {"curve": fig}


@pytest.fixture
def toy(monkeypatch):
    for name in ("toy_a", "toy_b"):
        monkeypatch.setitem(REGISTRY, name, Experiment(name, "toy (test)", _compute, _plot))
    return "toy_a"


def _main():
    return runpy.run_path(str(ROOT / "paper_repro.py"), run_name="paper_repro_under_test")["main"]


def _cli(argv, out):
    return _main()([*argv, "--out", str(out), "--profile", "smoke", "--jobs", "1", "--no-progress"])


def _snapshot(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _user_folder(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for name, data in USER_FILES.items():
        (path / name).write_bytes(data)
    return path


# -- probe 2: outputs stay inside --out; only the suite's own files are replaced ------------------------------------

def test_a_symlinked_experiment_folder_is_refused_and_nothing_outside_is_written_or_deleted(tmp_path, toy, capsys):
    outside = _user_folder(tmp_path / "outside")
    before = _snapshot(outside)
    out = tmp_path / "out"
    out.mkdir()
    (out / toy).symlink_to(outside, target_is_directory=True)

    assert _cli(["--only", toy], out) == 2  # the command line: refused before anything runs
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "symbolic link" in err[0] and str(out / toy) in err[0], err
    assert _snapshot(outside) == before

    outcomes = run_all([toy], RunContext(profile="smoke", seed=3), out, **NO_LOG)  # the library: that one crashes
    assert [(o.status, "symbolic link" in o.reason) for o in outcomes] == [("crashed", True)]
    assert _snapshot(outside) == before


@pytest.mark.parametrize("private", [".staging", ".cache"])
def test_a_symlinked_private_folder_of_the_suite_is_refused(tmp_path, toy, capsys, private):
    outside = _user_folder(tmp_path / "outside")
    before = _snapshot(outside)
    out = tmp_path / "out"
    out.mkdir()
    (out / private).symlink_to(outside, target_is_directory=True)
    assert _cli(["--only", toy], out) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert _snapshot(outside) == before


def test_user_files_in_the_experiment_folder_are_kept_and_only_listed_outputs_removed(tmp_path, toy):
    out = tmp_path / "out"
    _user_folder(out / toy)
    run_all([toy], RunContext(profile="smoke", seed=3), out, **NO_LOG)
    first = json.loads((out / toy / "results.json").read_text())
    assert set(first["outputs"]) == {"excess.csv", "only_seed_3.csv", "curve.png", "curve.pdf"}
    assert set(first["outputs"]).isdisjoint(USER_FILES)  # the manifest lists the suite's files only

    run_all([toy], RunContext(profile="smoke", seed=5), out, **NO_LOG)
    names = sorted(p.name for p in (out / toy).iterdir())
    assert names == sorted([*USER_FILES, "excess.csv", "curve.png", "curve.pdf", "results.json"])  # stale table gone
    for name, data in USER_FILES.items():
        assert (out / toy / name).read_bytes() == data
    assert (out / toy / "excess.csv").read_text() == "seed\n5\n6\n"


def test_a_listed_output_the_user_changed_is_not_removed(tmp_path, toy):
    out = tmp_path / "out"
    run_all([toy], RunContext(profile="smoke", seed=3), out, **NO_LOG)
    (out / toy / "only_seed_3.csv").write_text("edited by hand\n")  # no longer the file the suite wrote
    run_all([toy], RunContext(profile="smoke", seed=5), out, **NO_LOG)
    assert (out / toy / "only_seed_3.csv").read_text() == "edited by hand\n"


def test_a_results_json_from_before_manifests_lists_what_may_be_removed(tmp_path, toy):
    out = tmp_path / "out"
    folder = _user_folder(out / toy)
    for name in ("old_table.csv", "old_fig.png", "old_fig.pdf"):
        (folder / name).write_text("from an old run")
    (folder / "results.json").write_text(json.dumps({"figures": ["old_fig.png"], "tables": ["old_table.csv"]}))
    run_all([toy], RunContext(profile="smoke", seed=5), out, **NO_LOG)
    assert sorted(p.name for p in folder.iterdir()) == sorted([*USER_FILES, "excess.csv", "curve.png", "curve.pdf",
                                                                "results.json"])


# -- probe 6: the replacement is all or nothing -------------------------------------------------------------------

def _fail_on(monkeypatch, victim: str):
    real = os.replace

    def replace(src, dst, *args, **kwargs):
        if Path(src).name == victim and ".staging" in Path(src).parts:
            raise PermissionError(1, "Operation not permitted (test)", str(dst))
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)


@pytest.mark.parametrize("victim", ["curve.png", "excess.csv", "results.json"])
def test_a_file_that_cannot_be_replaced_rolls_back_every_file(tmp_path, toy, monkeypatch, victim):
    """The issue's probe: a seed-5 rerun failed on one file but left seed 5's CSV and PDF beside seed 3's
    results.json. Now the folder keeps exactly seed 3's files, whichever file fails."""
    out = tmp_path / "out"
    _user_folder(out / toy)
    run_all([toy], RunContext(profile="smoke", seed=3), out, **NO_LOG)
    before = _snapshot(out / toy)
    _fail_on(monkeypatch, victim)
    outcomes = run_all([toy], RunContext(profile="smoke", seed=5), out, **NO_LOG)
    assert [o.status for o in outcomes] == ["crashed"] and "Operation not permitted" in outcomes[0].reason
    assert _snapshot(out / toy) == before
    assert not [p for p in (out / ".staging").iterdir()]


def _chattr_works(tmp_path) -> bool:
    if os.geteuid() != 0 or shutil.which("chattr") is None:
        return False
    probe = tmp_path / "chattr-probe"
    probe.write_text("x")
    ok = subprocess.run(["chattr", "+i", str(probe)], capture_output=True).returncode == 0
    subprocess.run(["chattr", "-i", str(probe)], capture_output=True)
    return ok


def test_an_immutable_png_keeps_the_whole_folder_from_one_run(tmp_path, toy):
    """The issue's exact probe (``chattr +i`` on one PNG), where this machine allows it (root, ext4)."""
    if not _chattr_works(tmp_path):
        pytest.skip("needs root and chattr on this file system")
    out = tmp_path / "out"
    run_all([toy], RunContext(profile="smoke", seed=3), out, **NO_LOG)
    before = _snapshot(out / toy)
    png = out / toy / "curve.png"
    subprocess.run(["chattr", "+i", str(png)], check=True)
    try:
        outcomes = run_all([toy], RunContext(profile="smoke", seed=5), out, **NO_LOG)
    finally:
        subprocess.run(["chattr", "-i", str(png)], check=True)
    assert [o.status for o in outcomes] == ["crashed"]
    assert _snapshot(out / toy) == before
    assert json.loads((out / toy / "results.json").read_text())["seed"] == 3


# -- probe 5: a scheduler address where no Dask scheduler listens ---------------------------------------------------

@contextlib.contextmanager
def _server(reply: bytes | None):
    """A TCP acceptor on 127.0.0.1 that sends ``reply`` (or nothing) to every connection and keeps it open."""
    sock = socket.create_server(("127.0.0.1", 0))
    conns, stop = [], threading.Event()

    def serve():
        sock.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                continue
            conns.append(conn)
            if reply:
                conn.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for c in conns:
            c.close()
        sock.close()


HTTP_REPLY = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 11\r\n\r\nBad Request"


def test_an_http_server_as_scheduler_is_refused_at_once_with_one_line(tmp_path, toy, capsys):
    pytest.importorskip("distributed")
    with _server(HTTP_REPLY) as address:
        t0 = time.monotonic()
        code = _cli(["--only", toy, "--scheduler", address], tmp_path / "out")
        took = time.monotonic() - t0
    assert code == 2 and took < 10
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and address in err[0] and "not a Dask scheduler" in err[0], err
    assert not (tmp_path / "out" / toy).exists()


@pytest.mark.parametrize("reply, message", [
    (None, "no Dask handshake within 0.5 s"),                       # accepts and says nothing (an HTTP server)
    (b"\xff" * 8, "where a Dask handshake starts"),                  # a length of 16 EiB: never allocated
    ((20).to_bytes(8, "little") + b"hello, I am not Dask", "not a Dask handshake"),
])
def test_a_tcp_peer_that_is_not_dask_is_refused_within_the_timeout(reply, message):
    pytest.importorskip("distributed")
    with _server(reply) as address:
        t0 = time.monotonic()
        with pytest.raises(ValueError, match=message):
            executors.check_scheduler(address, timeout=0.5)
        assert time.monotonic() - t0 < 3


def test_a_real_dask_scheduler_passes_the_handshake_check():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        assert executors.check_scheduler(cluster.scheduler_address, timeout=5) == cluster.scheduler_address


# -- probe 7: a read-only cache -------------------------------------------------------------------------------------

@contextlib.contextmanager
def _read_only(folders):
    """Make ``folders`` read-only for real: ``chattr +i`` as root (root ignores mode bits), else ``chmod a-w``."""
    root = os.geteuid() == 0
    if root and shutil.which("chattr") is None:
        pytest.skip("root ignores folder permissions and chattr is missing")
    for f in folders:
        if root:
            if subprocess.run(["chattr", "+i", str(f)], capture_output=True).returncode:
                pytest.skip("chattr does not work on this file system")
        else:
            f.chmod(0o555)
    try:
        yield
    finally:
        for f in folders:
            if root:
                subprocess.run(["chattr", "-i", str(f)], check=True)
            else:
                f.chmod(0o755)


def test_a_complete_cache_in_a_read_only_folder_is_read(tmp_path):
    cache = tmp_path / "cache"
    configs = [Point(5), Point(7, shift=1.0)]
    first = run_trials(three_stream_trial, configs, 6, root_seed=1, cache_dir=cache, progress=False)
    points = sorted(p for p in cache.iterdir())
    with _read_only([cache, *points]):
        again = run_trials(three_stream_trial, configs, 6, root_seed=1, cache_dir=cache, progress=False)
    assert again.n_cached == 12 and again.n_computed == 0
    for a, b in zip(first.per_config, again.per_config):
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_a_folder_named_like_a_chunk_is_skipped_with_a_warning(tmp_path):
    store = ChunkStore(tmp_path, "abc123")
    store.save(0, 2, {"x": np.array([1.0, 2.0])})
    (store.folder / "chunk_2_4.npz").mkdir()
    with pytest.warns(RuntimeWarning, match="named like a cache chunk but not a file"):
        loaded = store.load(4)
    assert [(a, b) for a, b, _ in loaded] == [(0, 2)]
    assert (store.folder / "chunk_2_4.npz").is_dir()  # not the suite's to delete


# -- probes 8, 9, 13: arguments --------------------------------------------------------------------------------------

@pytest.mark.parametrize("jobs", [executors.max_jobs() + 1, 100_000, 1_000_000_000])
def test_jobs_beyond_the_machine_are_refused_in_one_line(tmp_path, toy, capsys, jobs):
    code = _main()(["--only", toy, "--jobs", str(jobs), "--out", str(tmp_path / "out")])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: --jobs must be <= {executors.max_jobs()} (4 per core of the "
                   f"{executors.available_cores()} available here), got --jobs={jobs}"]
    with pytest.raises(ValueError, match=f"got jobs={jobs}"):
        with executors.open_executor(jobs):
            pass


def test_an_empty_out_is_refused_and_nothing_is_written_in_the_current_folder(tmp_path, toy, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _main()(["--only", toy, "--out", ""]) == 2
    assert capsys.readouterr().err.strip() == "error: --out: out must name a folder, got out=''"
    assert list(tmp_path.iterdir()) == []


def test_only_naming_an_experiment_twice_runs_it_once(tmp_path, toy, capsys):
    assert _cli(["--only", f"{toy},{toy}, {toy}"], tmp_path / "out") == 0
    lines = capsys.readouterr().out.splitlines()
    assert sum(line.startswith(f"[1/1] {toy} (smoke)") for line in lines) == 1
    assert not any(line.startswith("[2/") for line in lines)


# -- probe 10: an unreadable results.json of another experiment -----------------------------------------------------

@pytest.mark.parametrize("garbage", ["{garbage", "[]", '{"profile": "smoke"}'])
def test_an_unreadable_results_json_of_another_experiment_is_named_and_skipped(tmp_path, toy, capsys, garbage):
    out = tmp_path / "out"
    (out / "toy_b").mkdir(parents=True)
    (out / "toy_b" / "results.json").write_text(garbage)
    lines = []
    outcomes = run_all([toy], RunContext(profile="smoke"), out, log=lines.append)
    assert [o.status for o in outcomes] == ["ok"]
    assert any(line.startswith("experiment") for line in lines)  # the end-of-run table is printed
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(out / "toy_b" / "results.json") in err[0] and "unreadable" in err[0], err
    report = (out / "REPORT.md").read_text()
    assert f"## {toy}" in report and (out / "toy_b" / "results.json").read_text() == garbage


# -- probe 12: files get the umask's modes ----------------------------------------------------------------------------

@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_every_output_and_cache_file_gets_the_umask_modes(tmp_path, toy, umask):
    old = os.umask(umask)
    try:
        out = tmp_path / "out"
        run_all([toy], RunContext(profile="smoke"), out, **NO_LOG)
        chunk = ChunkStore(tmp_path / "cache", "abc123").save(0, 1, {"x": np.zeros(1)})
    finally:
        os.umask(old)
    files = [*(out / toy).iterdir(), out / "REPORT.md", chunk]
    assert {p.name: oct(p.stat().st_mode & 0o777) for p in files} == {p.name: oct(0o666 & ~umask) for p in files}


# -- probe 13: stale staging folders, Ctrl-C at shutdown, orphaned workers --------------------------------------------

def _age(path: Path, seconds: float = 3600) -> None:
    t = time.time() - seconds
    os.utime(path, (t, t))


def test_stale_staging_and_forced_run_folders_are_removed_but_live_ones_kept(tmp_path, toy):
    out = tmp_path / "out"
    dead = [out / ".staging" / f"{toy}-dead{i}" for i in range(3)]
    for d in dead:
        d.mkdir(parents=True)
        _age(d)
    (dead[0] / "half_written.csv").write_text("x")
    _age(dead[0])
    force = out / ".cache" / toy / "abc123.force-dead"
    force.mkdir(parents=True)
    _age(force)
    live = make_scratch(out / ".staging", "live-")  # held by this process: another run's, as far as the sweep knows
    _age(live)
    try:
        run_all([toy], RunContext(profile="smoke"), out, **NO_LOG)
        ChunkStore(out / ".cache" / toy, "abc123")  # opening a store in a cache folder sweeps its forced runs
        assert [p.exists() for p in dead] == [False] * 3 and not force.exists()
        assert live.exists()
    finally:
        remove_scratch(live)


def test_a_scratch_folder_held_by_another_process_is_kept(tmp_path):
    script = textwrap.dedent(f"""
        import sys, time
        from simulations.scratch import make_scratch
        print(make_scratch({str(tmp_path)!r}, "other-"), flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        held = Path(proc.stdout.readline().strip())
        _age(held)
        assert sweep_stale(tmp_path, grace_s=0) == [] and held.exists()
    finally:
        proc.kill()
        proc.wait()
    assert sweep_stale(tmp_path, grace_s=0) == [held]  # its holder is gone: now it is stale


def test_ctrl_c_while_the_interpreter_shuts_down_exits_130(tmp_path):
    """A Ctrl-C that lands in the exit handlers (loky's, Dask's) used to print a traceback and exit 0."""
    script = textwrap.dedent(f"""
        import atexit, os, runpy, signal, sys, time
        atexit.register(lambda: (os.kill(os.getpid(), signal.SIGINT), time.sleep(5)))
        sys.argv = ["paper_repro.py", "--only", "rates_table", "--out", {str(tmp_path / "out")!r}, "--list"]
        runpy.run_path({str(ROOT / "paper_repro.py")!r}, run_name="__main__")
    """)
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.strip().splitlines() == ["interrupted while shutting down (the outputs were written before)"]


def test_loky_workers_exit_soon_after_their_parent_is_killed():
    script = textwrap.dedent("""
        import os, time
        from simulations.executors import open_executor

        def pid():
            time.sleep(0.2)  # so that both workers take tasks
            return os.getpid()

        with open_executor(2) as ex:
            print(" ".join(map(str, sorted(set(ex.map_unordered(pid, [()] * 6))))), flush=True)
            time.sleep(120)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    workers = [int(p) for p in proc.stdout.readline().split()]
    assert workers and proc.pid not in workers
    proc.send_signal(signal.SIGKILL)
    proc.wait()

    def alive(pid):
        try:
            with open(f"/proc/{pid}/stat") as fh:
                return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
        except FileNotFoundError:
            return False

    if not Path("/proc/self/stat").exists():
        pytest.skip("needs Linux /proc")
    deadline = time.monotonic() + 15  # loky's own idle timeout is 300 s
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in workers)
