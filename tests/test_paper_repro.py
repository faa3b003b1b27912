"""paper_repro.py and the report writer: outputs, formats, exit codes, and the committed report."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import proofs_checks.experiments  # noqa: F401  (registers every experiment, as paper_repro does)
from simulations.experiments import REGISTRY, Claim, Experiment, ExperimentResult, RunContext
from simulations.experiments.runner import run_experiment, write_csv, write_report
from simulations.plotting import figure

ROOT = Path(__file__).resolve().parents[1]


def _toy_compute(ctx):
    x = np.arange(1, 4, dtype=float)
    return ExperimentResult(tables={"curve": {"x": x, "y": 1 / x}},
                            claims=[Claim("y(1) = 1", holds=True, expected=1.0, measured=1.0),
                                    Claim("infinite ratio reported", holds=False, expected=1.0,
                                          measured=float("inf"), detail="a | pipe")],
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
    assert data["claims"][0] == {"claim": "y(1) = 1", "expected": 1.0, "measured": 1.0, "holds": True, "detail": ""}
    assert data["claims"][1]["measured"] == "inf"  # JSON has no infinity: written as a string
    rows = list(csv.reader((folder / "curve.csv").open()))
    assert rows[0] == ["x", "y"] and [float(v) for v in rows[2]] == [2.0, 0.5]
    assert data["command"] == "python paper_repro.py --only toy --profile smoke --seed 3"


def test_report_lists_sections_claims_and_missing(tmp_path):
    run_experiment(TOY, RunContext(profile="smoke"), tmp_path)
    other = Experiment("never_run", "x", _toy_compute, _toy_plot)
    text = write_report(tmp_path, {"toy": TOY, "never_run": other}).read_text()
    assert "## toy" in text and "![toy: toy.png](toy/toy.png)" in text
    assert "| infinite ratio reported | 1 | inf | **NO** | a \\| pipe |" in text
    assert "| [never_run](#never_run) | x | not run |" in text


def test_crash_is_recorded_and_reraised(tmp_path):
    def boom(ctx):
        raise RuntimeError("kaput")

    with pytest.raises(RuntimeError):
        run_experiment(Experiment("bad", "x", boom, _toy_plot), RunContext(), tmp_path)
    data = json.loads((tmp_path / "bad" / "results.json").read_text())
    assert "kaput" in data["error"]


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
])
def test_cli_bad_arguments_exit_2(argv, message, capsys):
    """In process (each subprocess costs seconds of imports); the wiring to sys.exit is tested above."""
    import runpy

    main = runpy.run_path(str(ROOT / "paper_repro.py"), run_name="paper_repro_under_test")["main"]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse rejects before main returns
        code = exc.code
    assert code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("only", [",", " , ,"])
def test_only_without_names_exits_2(only, capsys, tmp_path):
    """--only naming no experiment is an error, not a silent empty run."""
    import runpy

    main = runpy.run_path(str(ROOT / "paper_repro.py"), run_name="paper_repro_under_test")["main"]
    assert main(["--only", only, "--out", str(tmp_path / "out")]) == 2
    assert "--only names no experiment" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_smoke_profile_runs_every_experiment(tmp_path):
    """What CI runs: every registered experiment at the smoke profile, without a crash."""
    out = _cli("--profile", "smoke", "--out", str(tmp_path), "--no-progress")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    report = (tmp_path / "REPORT.md").read_text()
    for name in REGISTRY:
        data = json.loads((tmp_path / name / "results.json").read_text())
        assert "error" not in data
        assert f"## {name}" in report


def test_committed_report_lists_every_registered_experiment():
    report = (ROOT / "figures" / "REPORT.md").read_text()
    for name in REGISTRY:
        assert f"## {name}" in report, f"figures/REPORT.md lacks {name}: rerun python paper_repro.py"
        assert (ROOT / "figures" / name / "results.json").exists()


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
    assert "planned crash" in json.loads((tmp_path / "zz_boom" / "results.json").read_text())["error"]
    fine = json.loads((tmp_path / "zz_fine" / "results.json").read_text())  # ran after the crash
    assert "error" not in fine and fine["claims"][0]["holds"] is True
