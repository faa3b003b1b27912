"""paper_repro.py and the report writer: outputs, formats, exit codes, and the committed report."""

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import proofs_checks.experiments  # noqa: F401  (registers every experiment, as paper_repro does)
from simulations.experiments import REGISTRY, Claim, Experiment, ExperimentResult, RunContext
from simulations.experiments.base import ExperimentSkipped
from simulations.experiments.runner import run_all, run_experiment, summary_table, write_csv, write_report
from simulations.plotting import figure

ROOT = Path(__file__).resolve().parents[1]


def _toy_compute(ctx):
    x = np.arange(1, 4, dtype=float)
    return ExperimentResult(tables={"curve": {"x": x, "y": 1 / x}},
                            claims=[Claim("y(1) = 1", holds=True, expected=1.0, measured=1.0, kind="paper"),
                                    Claim("infinite ratio reported", holds=False, expected=1.0,
                                          measured=float("inf"), detail="a | pipe", kind="beyond"),
                                    Claim("an interval straddling the band", holds=None, expected=0.0,
                                          measured=0.05, kind="paper")],
                            notes="Some *notes*.", data={"x": x})


def _toy_plot(result):
    fig, (ax,) = figure(title="toy")
    ax.plot(result.data["x"], 1 / result.data["x"])
    return {"toy": fig}


TOY = Experiment("toy", "nothing (test)", _toy_compute, _toy_plot)


def test_run_experiment_writes_results_json_csv_and_figures(tmp_path):
    rec = run_experiment(TOY, RunContext(profile="smoke", seed=3), tmp_path)
    folder = tmp_path / "toy"
    assert sorted(p.name for p in folder.iterdir()) == ["curve.csv", "results.json", "toy.pdf", "toy.png"]
    data = json.loads((folder / "results.json").read_text())
    assert data == rec
    assert data["profile"] == "smoke" and data["seed"] == 3
    assert data["claims"][0] == {"claim": "y(1) = 1", "kind": "paper", "expected": 1.0, "measured": 1.0,
                                 "holds": True, "verdict": "holds", "reading": "reproduced", "detail": ""}
    assert data["claims"][1]["measured"] == "inf"  # JSON has no infinity: written as a string
    assert [(c["holds"], c["verdict"]) for c in data["claims"]] == [(True, "holds"), (False, "fails"),
                                                                   (None, "inconclusive")]
    rows = list(csv.reader((folder / "curve.csv").open()))
    assert rows[0] == ["x", "y"] and [float(v) for v in rows[2]] == [2.0, 0.5]
    assert data["command"] == "python paper_repro.py --only toy --profile smoke --seed 3"


def test_report_lists_sections_claims_and_missing(tmp_path):
    run_experiment(TOY, RunContext(profile="smoke"), tmp_path)
    other = Experiment("never_run", "x", _toy_compute, _toy_plot)
    text = write_report(tmp_path, {"toy": TOY, "never_run": other}).read_text()
    assert "## toy" in text and "![toy: toy.png](toy/toy.png)" in text
    assert "| infinite ratio reported | beyond | 1 | inf | no | a \\| pipe |" in text
    assert "| an interval straddling the band | paper | 0 | 0.05 | inconclusive |  |" in text
    assert "| [toy](#toy) | nothing (test) | 1 paper claim reproduced; 1 paper claim inconclusive; 1 beyond question answered no | smoke |" in text
    assert "| [never_run](#never_run) | x | not run |" in text


def _snapshot(folder: Path) -> dict:
    """Every file under ``folder`` (hidden ones included) -> its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _boom(ctx):
    raise RuntimeError("kaput")


def _ctrl_c(ctx):
    raise KeyboardInterrupt


def _no_extra(ctx):
    raise ExperimentSkipped("torch is not installed: pip install -e '.[torch]'")


@pytest.mark.parametrize("compute, raised", [(_boom, RuntimeError), (_ctrl_c, KeyboardInterrupt),
                                             (_no_extra, ExperimentSkipped)])
def test_failed_interrupted_or_skipped_rerun_leaves_outputs_byte_identical(tmp_path, compute, raised):
    """issue 19: the runner emptied <out>/<name>/ before computing; a failed rerun lost the figures."""
    run_experiment(TOY, RunContext(profile="smoke", seed=3), tmp_path)
    write_report(tmp_path, {"toy": TOY})
    before = _snapshot(tmp_path)
    with pytest.raises(raised):
        run_experiment(Experiment("toy", "nothing (test)", compute, _toy_plot), RunContext(), tmp_path)
    assert not list((tmp_path / ".staging").iterdir())  # the staging folder is cleaned up
    after = _snapshot(tmp_path)
    assert after == before


def test_run_all_reports_skipped_crashed_and_interrupted_at_the_end(tmp_path, monkeypatch):
    lines = []
    for name, fn in [("a_fine", _toy_compute), ("b_boom", _boom), ("c_skip", _no_extra), ("d_stop", _ctrl_c),
                     ("e_never", _toy_compute)]:
        monkeypatch.setitem(REGISTRY, name, Experiment(name, "x", fn, _toy_plot))
    outcomes = run_all(["a_fine", "b_boom", "c_skip", "d_stop", "e_never"], RunContext(profile="smoke"), tmp_path,
                       log=lines.append)
    assert [o.status for o in outcomes] == ["ok", "crashed", "skipped", "interrupted"]  # stops at Ctrl-C
    assert (outcomes[0].holding, outcomes[0].inconclusive, outcomes[0].failing, outcomes[0].n_claims) == (1, 1, 1, 3)
    text = "\n".join(lines)
    assert "a_fine done in" in text and "claims: 1 paper claim reproduced; 1 paper claim inconclusive; 1 beyond question answered no" in text
    assert "[1/5] a_fine (smoke) ... elapsed" in text
    assert "skipped: c_skip: torch is not installed: pip install -e '.[torch]'" in text
    assert "kaput" in text
    table = summary_table(outcomes).splitlines()
    assert table[0].split() == ["experiment", "result", "paper", "rep/not/inc", "errata", "conf/not/inc", "beyond",
                                "yes/no/inc", "wall", "(s)"]
    assert table[1].split()[:5] == ["a_fine", "ok", "1/0/1", "0/0/0", "0/1/0"]  # the toy's kinds
    assert not (tmp_path / "b_boom").exists() and not (tmp_path / "c_skip").exists()


def test_eta_comes_from_the_previous_runs_cpu_seconds(tmp_path, monkeypatch):
    monkeypatch.setitem(REGISTRY, "toy", TOY)
    run_all(["toy"], RunContext(profile="smoke"), tmp_path, log=lambda s: None)
    lines = []
    run_all(["toy"], RunContext(profile="smoke"), tmp_path, log=lines.append)
    assert "ETA ~" in lines[0]
    lines.clear()
    run_all(["toy"], RunContext(profile="quick"), tmp_path, log=lines.append)  # no quick run known yet
    assert "ETA" not in lines[0]
    # a record from a loaded machine: 2400 s of wall for 300 CPU-s; on 2 cores the ETA is 300 / 2 s, not 40 min
    rec_path = tmp_path / "toy" / "results.json"
    rec = json.loads(rec_path.read_text())
    rec["runtime_s"], rec["provenance"]["wall_s"], rec["provenance"]["cpu_s"] = 2400.0, 2400.0, 300.0
    rec_path.write_text(json.dumps(rec))
    monkeypatch.setattr("simulations.experiments.runner.available_cores", lambda: 2)
    lines.clear()
    run_all(["toy"], RunContext(profile="quick", jobs=4), tmp_path, log=lines.append, overlap=False)
    assert lines[0].endswith(", ETA ~2m30s"), lines[0]
    report = (tmp_path / "REPORT.md").read_text()
    assert "| wall (s) | CPU (s) |" in report
    # an experiment this environment will skip (its extra is missing) adds nothing to the ETA: a first run without
    # torch must not announce the CNN grid's hour
    monkeypatch.setitem(REGISTRY, "toy_torch", Experiment("toy_torch", "x", _no_extra, _toy_plot,
                                                           skip=lambda ctx: "torch is not installed"))
    (tmp_path / "toy_torch").mkdir()
    for name in ("toy", "toy_torch"):  # both recorded at 300 CPU-s
        (tmp_path / name / "results.json").write_text(json.dumps({**rec, "name": name}))
    lines.clear()
    run_all(["toy_torch", "toy"], RunContext(profile="quick", jobs=4), tmp_path, log=lines.append, overlap=False)
    assert lines[0].endswith(", ETA ~2m30s"), lines[0]  # toy's 300 CPU-s on 2 cores; toy_torch's 300 not counted
    monkeypatch.setitem(REGISTRY, "toy_torch", Experiment("toy_torch", "x", _no_extra, _toy_plot))
    rec_path.write_text(json.dumps(rec))  # the run above rewrote toy's record with its real (tiny) CPU time
    lines.clear()
    run_all(["toy_torch", "toy"], RunContext(profile="quick", jobs=4), tmp_path, log=lines.append, overlap=False)
    assert lines[0].endswith(", ETA ~5m00s"), lines[0]  # without the check both count (600 CPU-s on 2 cores)


def _engine_compute(ctx):
    from simulations.engine import engine_options, run_trials, trial_streams

    def trial(cfg, t, root_seed):
        return {"u": trial_streams(cfg, t, root_seed).data.random()}

    res = run_trials(trial, [{"n": 1}, {"n": 2}], 5, **{**engine_options(ctx), "jobs": 1})
    return ExperimentResult(claims=[Claim("u < 1", bool(res["u"].max() < 1), kind="paper")])


def test_a_run_from_the_cache_records_its_trials_and_is_not_taken_for_the_experiments_cost(tmp_path, monkeypatch):
    """A rerun that reads every trial from the cache costs almost no CPU; recorded as the experiment's cost it would
    announce seconds for a fresh clone's minutes. results.json says how many trials were computed and cached, and
    the ETA scales the compute CPU by all trials over the computed ones, or gives none when nothing was computed."""
    from simulations.experiments.eta import recorded_cpu_seconds

    monkeypatch.setitem(REGISTRY, "toy_engine", Experiment("toy_engine", "x", _engine_compute, lambda result: {}))
    first = run_experiment(REGISTRY["toy_engine"], RunContext(profile="smoke"), tmp_path)
    assert first["trials"] == {"computed": 10, "cached": 0}
    assert recorded_cpu_seconds(tmp_path, "toy_engine", "smoke") == first["provenance"]["cpu_s"]
    assert "full_run_cpu_s" not in first  # nothing cached: its own CPU seconds are the cost
    again = run_experiment(REGISTRY["toy_engine"], RunContext(profile="smoke"), tmp_path)
    assert again["trials"] == {"computed": 0, "cached": 10}
    # every trial cached: the estimate of a run without the cache is carried over from the replaced record
    assert again["full_run_cpu_s"] == first["provenance"]["cpu_s"]
    assert recorded_cpu_seconds(tmp_path, "toy_engine", "smoke") == first["provenance"]["cpu_s"]
    # a cached record without an estimate to carry (its folder's record removed first) says nothing
    (tmp_path / "toy_engine" / "results.json").unlink()
    alone = run_experiment(REGISTRY["toy_engine"], RunContext(profile="smoke"), tmp_path)
    assert alone["full_run_cpu_s"] is None and recorded_cpu_seconds(tmp_path, "toy_engine", "smoke") is None
    lines = []
    run_all(["toy_engine"], RunContext(profile="smoke"), tmp_path, log=lines.append)
    assert "ETA" not in lines[0]
    forced = run_experiment(REGISTRY["toy_engine"], RunContext(profile="smoke", force=True), tmp_path)
    assert forced["trials"] == {"computed": 10, "cached": 0}


def test_results_json_and_report_carry_provenance(tmp_path):
    rec = run_experiment(TOY, RunContext(profile="smoke", seed=3), tmp_path, argv=["paper_repro.py", "--only", "toy"])
    p = json.loads((tmp_path / "toy" / "results.json").read_text())["provenance"]
    assert p == rec["provenance"]
    assert (p["profile"], p["seed"], p["command_line"]) == ("smoke", 3, "paper_repro.py --only toy")
    for pkg in ("numpy", "scipy", "numba", "cvxpy", "highspy", "scikit-learn", "torch"):
        assert pkg in p["packages"]
    import numpy
    assert p["packages"]["numpy"] == numpy.__version__
    assert p["python"] == sys.version.split()[0]
    assert set(p["code"]) == {"commit", "dirty", "version"} and p["cpu"] and p["wall_s"] >= 0 and p["cpu_s"] >= 0
    report = write_report(tmp_path, {"toy": TOY}).read_text()
    assert "**Provenance:** commit" in report and f"numpy {numpy.__version__}" in report


_WRITER = """
import sys
sys.path.insert(0, {tests!r})
from pathlib import Path
from simulations.experiments.runner import write_csv
for i in range(300):
    write_csv(Path({path!r}), {{"x": list(range({n}))}})
"""


def test_two_processes_writing_one_table_never_fail_or_tear(tmp_path):
    """issue 19: every writer used <table>.csv.tmp; two processes raced (65 failures in 600)."""
    path = tmp_path / "t.csv"
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER.format(tests=str(ROOT), path=str(path), n=n)],
                              cwd=ROOT, stderr=subprocess.PIPE, text=True) for n in (50, 80)]
    errs = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errs
    text = path.read_text()
    assert text in ("x\n" + "".join(f"{i}\n" for i in range(n)) for n in (50, 80))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv"]  # no temporary file left


def test_two_concurrent_runs_into_one_out_leave_complete_files(tmp_path):
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT / 'tests')!r})\n"
        "from test_paper_repro import TOY\n"
        "from simulations.experiments import RunContext\n"
        "from simulations.experiments.runner import run_experiment, write_report\n"
        "for _ in range(3):\n"
        f"    run_experiment(TOY, RunContext(profile='smoke'), {str(tmp_path)!r})\n"
        f"    write_report({str(tmp_path)!r}, {{'toy': TOY}})\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    errs = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errs
    folder = tmp_path / "toy"
    assert sorted(p.name for p in folder.iterdir()) == ["curve.csv", "results.json", "toy.pdf", "toy.png"]
    assert json.loads((folder / "results.json").read_text())["name"] == "toy"
    assert (folder / "curve.csv").read_text() == "x,y\n1.0,1.0\n2.0,0.5\n3.0,0.3333333333333333\n"
    assert (folder / "toy.png").read_bytes().startswith(b"\x89PNG") and (folder / "toy.pdf").read_bytes().endswith(b"%%EOF\n")
    assert (tmp_path / "REPORT.md").read_text().startswith("# labeldp-suite")


def test_write_csv_is_exact_and_rejects_ragged(tmp_path):
    write_csv(tmp_path / "t.csv", {"a": [0.1, 1 / 3], "b": np.array([1, 2])})
    assert (tmp_path / "t.csv").read_text() == "a,b\n0.1,1\n0.3333333333333333,2\n"
    with pytest.raises(ValueError, match="length"):
        write_csv(tmp_path / "u.csv", {"a": [1, 2], "b": [1]})


def _cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, str(ROOT / "paper_repro.py"), *args], cwd=cwd,
                          capture_output=True, text=True)


def test_cli_list_and_bad_arguments():
    out = _cli("--list")
    assert out.returncode == 0
    for name in REGISTRY:
        assert name in out.stdout
    bad = _cli("--only", "no_such_experiment")
    assert bad.returncode == 2 and "unknown experiment" in bad.stderr


@pytest.mark.parametrize("argv, message", [
    (["--jobs", "0"], "--jobs must be >= 1"),
    (["--seed", "-1"], "--seed must be >= 0"),
    (["--only", "rates_table,nope"], "unknown experiment"),
    (["--profile", "huge"], "invalid choice"),
    (["--jobs", "two"], "invalid int value"),
    (["--data-dir", "/nonexistent/labeldp-data"], "--data-dir must be an existing folder"),
    (["--data-dir", str(ROOT / "tests")], "holds none of the data sets"),
    (["--only", ""], "--only names no experiment"),
    (["--scheduler", "tpc:/typo"], "--scheduler: scheduler must be None, 'local' or a Dask scheduler address"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler: scheduler 'tcp://127.0.0.1:1' is not reachable"),
    (["--scheduler", "tcp://host-without-port"], "must name a host and a port"),
    (["--out", str(ROOT / "README.md")], "--out: out must be a folder"),
    pytest.param(["--out", "/proc/self/out"], "--out: out must be a writable folder",
                 marks=pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")),
])
def test_cli_bad_arguments_exit_2(argv, message, capsys, tmp_path):
    """In process (each subprocess costs seconds of imports); the wiring to sys.exit is tested above.

    issue 19: each is refused in main() with one line before anything runs; before, --only ""
    ran every experiment and --scheduler/--out were discovered inside the first experiment.
    """
    import runpy

    main = runpy.run_path(str(ROOT / "paper_repro.py"), run_name="paper_repro_under_test")["main"]
    if "--out" not in argv:
        argv = [*argv, "--out", str(tmp_path / "out")]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse rejects before main returns
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1 if "invalid" not in message else True  # one line, no traceback
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_cli_missing_dask_is_refused_before_anything_runs(capsys, tmp_path, monkeypatch):
    import runpy

    import simulations.executors as ex

    def no_dask():
        raise ImportError("scheduler=... needs Dask: pip install 'labeldp-suite[dask]'")

    monkeypatch.setattr(ex, "_import_distributed", no_dask)
    main = runpy.run_path(str(ROOT / "paper_repro.py"), run_name="paper_repro_under_test")["main"]
    assert main(["--scheduler", "local", "--out", str(tmp_path / "out")]) == 2
    assert "pip install 'labeldp-suite[dask]'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_cli_help_is_plain_text():
    out = _cli("--help")
    assert out.returncode == 0 and "``" not in out.stdout and ":mod:" not in out.stdout
    assert "--no-progress" in out.stdout and "examples:" in out.stdout


@pytest.mark.parametrize("only", [",", " , ,"])
def test_only_without_names_exits_2(only, capsys, tmp_path):
    """--only naming no experiment is an error, not a silent empty run."""
    import runpy

    main = runpy.run_path(str(ROOT / "paper_repro.py"), run_name="paper_repro_under_test")["main"]
    assert main(["--only", only, "--out", str(tmp_path / "out")]) == 2
    assert "--only names no experiment" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_experiment_runs_at_the_smoke_profile(name, smoke_run, tmp_path):
    """What CI runs: every registered experiment at the smoke profile, without a crash.

    One experiment per test, in process through run_all (the function paper_repro.py calls), at the
    CLI's default seed: the test run's one smoke run of each experiment (tests/conftest.py), which the
    experiments' own tests read as well. The command line around run_all is tested end to end, on two
    cheap experiments, by test_cli_smoke_profile_end_to_end.
    """
    run = smoke_run(name)
    if run.outcome.status == "skipped":  # only an optional extra may be missing: the torch path
        from simulations.torch_path import torch_available

        from simulations.datasets.packaged import find_packaged

        assert ((name in ("cnn_benchmarks", "vector_nn_approximation") and not torch_available())  # the torch extra,
                or (name == "movielens_table3" and find_packaged("movielens100k") is None)), run.outcome.reason  # or ML-100K
        assert "pip install" in run.outcome.reason and not run.folder.exists()
        # the catalogue's skip check said so before anything ran (the ETA leaves the experiment out)
        assert REGISTRY[name].skip_reason(RunContext(profile="smoke")) == run.outcome.reason
        return
    assert REGISTRY[name].skip_reason(RunContext(profile="smoke")) is None  # it ran: its skip check must agree
    data = run.record  # fails with the traceback unless the run finished
    assert "error" not in data and (data["name"], data["profile"]) == (name, "smoke")
    assert all(set(c) - {"finding"} == {"claim", "kind", "expected", "measured", "holds", "verdict", "reading", "detail"}
               for c in data["claims"])
    assert all((c["holds"], c["verdict"]) in {(True, "holds"), (False, "fails"), (None, "inconclusive")}
               for c in data["claims"])
    assert all((run.folder / f).stat().st_size > 0 for f in data["figures"] + data["tables"])
    # its REPORT.md section, rendered from its own folder (the shared REPORT.md is rewritten by every
    # experiment's run, possibly by another xdist worker at this moment)
    shutil.copytree(run.folder, tmp_path / name)
    section = write_report(tmp_path, {name: REGISTRY[name]}).read_text().split(f"\n## {name}\n", 1)[1]
    assert f"**Command:** `python paper_repro.py --only {name} --profile smoke" in section
    assert ("| claim | kind | expected |" in section) == bool(data["claims"])


def test_cli_smoke_profile_end_to_end(tmp_path, smoke_run):
    """paper_repro.py through a subprocess: argument parsing, registry, run_all, REPORT.md, exit code 0.

    Two cheap experiments, one per layer (a Monte Carlo one run by the CLI's default --jobs, i.e. loky
    workers on a multi-core machine, and an exact check), not all of them: that every experiment runs at
    the smoke profile is test_every_experiment_runs_at_the_smoke_profile's job (in process, same
    run_all), so running them all again here only repeated 70-160 s of work. The Monte Carlo one is
    compared with the test run's in-process serial run: same root seed, same numbers, whatever --jobs.
    """
    only = ["vector_fig4", "lp_mst_privacy"]
    out = _cli("--profile", "smoke", "--only", ",".join(only), "--out", str(tmp_path), "--no-progress")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    report = (tmp_path / "REPORT.md").read_text()
    for name in REGISTRY:
        if name in only:
            data = json.loads((tmp_path / name / "results.json").read_text())
            assert "error" not in data and data["claims"] and data["profile"] == "smoke"
            assert f"**Command:** `python paper_repro.py --only {name} --profile smoke" in report
        else:
            assert f"## {name}" in report and not (tmp_path / name).exists()
    serial = smoke_run("vector_fig4")
    assert json.loads((tmp_path / "vector_fig4" / "results.json").read_text())["claims"] == serial.record["claims"]
    assert (tmp_path / "vector_fig4" / "accuracy.csv").read_bytes() == (serial.folder / "accuracy.csv").read_bytes()


def test_committed_report_lists_every_registered_experiment():
    report = (ROOT / "figures" / "REPORT.md").read_text()
    for name in REGISTRY:
        assert f"## {name}" in report, f"figures/REPORT.md lacks {name}: rerun python paper_repro.py"
        assert (ROOT / "figures" / name / "results.json").exists()


def test_cli_exit_code_is_zero_when_claims_fail_or_are_inconclusive(tmp_path, monkeypatch, capsys):
    """issue 23: a failed or inconclusive claim is a result, not an error of the run (paper_repro.py's
    docstring); in process, as test_cli_bad_arguments_exit_2."""
    import runpy

    main = runpy.run_path(str(ROOT / "paper_repro.py"), run_name="paper_repro_under_test")["main"]
    monkeypatch.setitem(REGISTRY, "toy", TOY)
    assert main(["--only", "toy", "--profile", "smoke", "--out", str(tmp_path), "--no-progress", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "claims: 1 paper claim reproduced; 1 paper claim inconclusive; 1 beyond question answered no" in out
    assert [line.split()[:5] for line in out.splitlines() if line.startswith("toy ")] == [
        ["toy", "ok", "1/0/1", "0/0/0", "0/1/0"]]


def test_cli_exit_code_is_nonzero_when_an_experiment_crashes(tmp_path):
    """A crashing experiment must not stop the others, and the command must exit 1, not 0."""
    script = (
        "import runpy, sys\n"
        "from simulations.experiments import Experiment, register\n"
        f"sys.path.insert(0, {str(ROOT / 'tests')!r})\n"
        "from test_paper_repro import _toy_compute, _toy_plot\n"
        "def boom(ctx):\n"
        "    raise RuntimeError('planned crash')\n"
        "register(Experiment('zz_boom', 'nothing (test)', boom, _toy_plot))\n"
        "register(Experiment('zz_fine', 'nothing (test)', _toy_compute, _toy_plot))\n"
        f"sys.argv = ['paper_repro.py', '--only', 'zz_boom,zz_fine', '--profile', 'smoke', '--out', {str(tmp_path)!r},"
        " '--no-progress']\n"
        f"runpy.run_path({str(ROOT / 'paper_repro.py')!r}, run_name='__main__')\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 1, out.stdout[-2000:] + out.stderr[-2000:]
    assert "crashed: ['zz_boom']" in out.stderr
    assert "planned crash" in out.stdout and not (tmp_path / "zz_boom").exists()  # nothing written for it
    fine = json.loads((tmp_path / "zz_fine" / "results.json").read_text())  # ran after the crash
    assert "error" not in fine and fine["claims"][0]["holds"] is True
    assert "zz_boom     crashed" in out.stdout  # the end-of-run table


def test_cli_ctrl_c_exits_130_with_how_to_resume(tmp_path):
    script = (
        "import runpy, sys\n"
        "from simulations.experiments import Experiment, register\n"
        f"sys.path.insert(0, {str(ROOT / 'tests')!r})\n"
        "from test_paper_repro import _ctrl_c, _toy_plot\n"
        "register(Experiment('zz_stop', 'nothing (test)', _ctrl_c, _toy_plot))\n"
        f"sys.argv = ['paper_repro.py', '--only', 'zz_stop', '--profile', 'smoke', '--out', {str(tmp_path)!r}]\n"
        f"runpy.run_path({str(ROOT / 'paper_repro.py')!r}, run_name='__main__')\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 130, out.stdout[-2000:] + out.stderr[-2000:]
    assert "interrupted; rerun the same command to resume" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_cli_corrupt_data_dir_file_is_named_before_anything_runs(capsys, tmp_path):
    """issue 19: a corrupt --data-dir file crashed inside a trial with BadGzipFile, naming no file."""
    import runpy

    from simulations.datasets import expected_files

    for f in expected_files("mnist", tmp_path / "data"):
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(np.random.default_rng(0).bytes(64))  # random bytes, not gzip
    main = runpy.run_path(str(ROOT / "paper_repro.py"), run_name="paper_repro_under_test")["main"]
    assert main(["--data-dir", str(tmp_path / "data"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --data-dir: MNIST: ") and "not a valid gzip file" in err
    assert str(tmp_path / "data" / "mnist") in err and len(err.strip().splitlines()) == 1
