"""The runner's background plotting (issue 20): an experiment's figures are drawn and written while the
next one computes. Same files as the serial runner, a failed plot keeps the old outputs, Ctrl-C publishes
whole or not at all."""

import json
import signal
import threading
import time

import mpmath
import pytest

import proofs_checks.experiments  # noqa: F401  (registers every experiment, as paper_repro does)
from simulations.experiments import REGISTRY, Claim, Experiment, ExperimentResult, RunContext
from simulations.experiments.runner import run_all
from simulations.plotting import figure

CHEAP = ["lp_mst_privacy", "rates_table", "dp_checks"]  # ~2 CPU-s each at the smoke profile; 4 figures, 7 tables
# seconds, load, clock: they differ between any two runs
_TIMING_KEYS = ("runtime_s", "compute_s", "compute_cpu_s", "provenance")


def _files(out):
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not p.relative_to(out).parts[0].startswith(".") and p.name != "REPORT.md"}


def test_overlap_writes_the_same_files_as_the_serial_runner(tmp_path):
    """Every CSV, PNG and PDF byte for byte, and results.json but for its timings, both ways."""
    ctx = RunContext(profile="smoke", jobs=1, progress=False)
    files = {}
    for overlap in (False, True):
        out = tmp_path / str(overlap)
        with mpmath.workprec(53):  # mpmath's default, as in `python paper_repro.py`, whatever the test set
            outcomes = run_all(CHEAP, ctx, out, log=lambda s: None, overlap=overlap)
        assert [(o.name, o.status) for o in outcomes] == [(n, "ok") for n in CHEAP]
        files[overlap] = _files(out)
    assert sorted(files[True]) == sorted(files[False])
    assert {p.rsplit(".", 1)[1] for p in files[True]} == {"csv", "png", "pdf", "json"}
    for path, data in files[False].items():
        if path.endswith("results.json"):
            serial, overlapped = json.loads(data), json.loads(files[True][path])
            assert overlapped["provenance"]["cpu_s"] > overlapped["compute_cpu_s"] > 0  # plotting counted apart
            for key in _TIMING_KEYS:
                serial.pop(key), overlapped.pop(key)
            assert overlapped == serial, path
        else:
            assert files[True][path] == data, path


def _compute(ctx):
    return ExperimentResult(tables={"t": {"x": [1.0, 2.0]}}, claims=[Claim("1 = 1", True, kind="paper")])


def _plot(result):
    fig, (ax,) = figure(title="toy")
    ax.plot([1, 2], [3, 4])
    return {"toy": fig}


def _broken_plot(result):
    fig, (ax,) = figure(title="toy")
    raise RuntimeError("the plot is broken")


def _register(monkeypatch, **experiments):
    for name, (compute, plot) in experiments.items():
        monkeypatch.setitem(REGISTRY, name, Experiment(name, "toy (test)", compute, plot))


def test_a_plot_failing_in_the_background_crashes_its_experiment_and_keeps_its_old_outputs(tmp_path, monkeypatch):
    _register(monkeypatch, a_toy=(_compute, _plot), b_toy=(_compute, _plot))
    run_all(["a_toy", "b_toy"], RunContext(profile="smoke"), tmp_path, log=lambda s: None)
    before = {p.name: p.read_bytes() for p in (tmp_path / "a_toy").iterdir()}
    assert sorted(before) == ["results.json", "t.csv", "toy.pdf", "toy.png"]

    _register(monkeypatch, a_toy=(_compute, _broken_plot))
    lines = []
    outcomes = run_all(["a_toy", "b_toy"], RunContext(profile="smoke"), tmp_path, log=lines.append)
    assert [(o.name, o.status) for o in outcomes] == [("a_toy", "crashed"), ("b_toy", "ok")]
    assert outcomes[0].reason == "RuntimeError: the plot is broken"
    text = "\n".join(lines)
    assert "[1/2] a_toy CRASHED (earlier outputs kept)" in text and "the plot is broken" in text
    assert {p.name: p.read_bytes() for p in (tmp_path / "a_toy").iterdir()} == before
    assert not list((tmp_path / ".staging").iterdir())
    assert "| [a_toy](#a_toy) | toy (test) | 1 paper claim reproduced |" in (tmp_path / "REPORT.md").read_text()


def test_ctrl_c_during_the_next_compute_finishes_and_publishes_the_figures_being_drawn(tmp_path, monkeypatch):
    """As the serial runner would have: experiment 1 published whole, experiment 2 interrupted."""
    computing_b = threading.Event()

    def slow_plot(result):  # still drawing when b's compute is interrupted
        assert computing_b.wait(60)
        time.sleep(0.2)
        return _plot(result)

    def interrupted(ctx):
        computing_b.set()
        raise KeyboardInterrupt

    _register(monkeypatch, a_toy=(_compute, slow_plot), b_toy=(interrupted, _plot))
    lines = []
    outcomes = run_all(["a_toy", "b_toy"], RunContext(profile="smoke"), tmp_path, log=lines.append)
    assert [(o.name, o.status) for o in outcomes] == [("a_toy", "ok"), ("b_toy", "interrupted")]
    assert sorted(p.name for p in (tmp_path / "a_toy").iterdir()) == ["results.json", "t.csv", "toy.pdf", "toy.png"]
    assert not (tmp_path / "b_toy").exists() and not list((tmp_path / ".staging").iterdir())
    assert "[1/2] a_toy: finishing its figures (Ctrl-C again to drop them)" in lines


def test_a_second_ctrl_c_drops_the_figures_being_drawn_and_keeps_the_old_outputs(tmp_path, monkeypatch):
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is not \
            signal.default_int_handler:
        pytest.skip("a Ctrl-C is simulated by SIGINT to the main thread, which must raise KeyboardInterrupt")
    _register(monkeypatch, a_toy=(_compute, _plot))
    run_all(["a_toy"], RunContext(profile="smoke"), tmp_path, log=lambda s: None)
    before = {p.name: p.read_bytes() for p in (tmp_path / "a_toy").iterdir()}
    finishing, dropping = threading.Event(), threading.Event()

    def plot_through_a_second_ctrl_c(result):
        assert finishing.wait(60)  # the main thread waits for these figures after the first Ctrl-C
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)  # the second Ctrl-C
        assert dropping.wait(60)
        return _plot(result)

    def interrupted(ctx):
        raise KeyboardInterrupt

    def log(line):
        finishing.set() if "finishing its figures" in line else None
        dropping.set() if "dropping its figures" in line else None

    _register(monkeypatch, a_toy=(_compute, plot_through_a_second_ctrl_c), b_toy=(interrupted, _plot))
    outcomes = run_all(["a_toy", "b_toy"], RunContext(profile="smoke"), tmp_path, log=log)
    assert [(o.name, o.status) for o in outcomes] == [("a_toy", "interrupted"), ("b_toy", "interrupted")]
    assert {p.name: p.read_bytes() for p in (tmp_path / "a_toy").iterdir()} == before
    assert not list((tmp_path / ".staging").iterdir())
