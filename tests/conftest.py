"""Shared set-up: each registered experiment runs once per test run at the smoke profile.

Running an experiment at the smoke profile costs from 0.3 s to 17 s; before issue 20 each one ran
two or three times per test run (once in its own test, once more through the CLI for all of them).
Now a test that reads an experiment's outputs asks the ``smoke_run`` fixture for them::

    def test_smoke_run(smoke_run):
        run = smoke_run("vector_theorem2")  # .outcome, .folder (<out>/vector_theorem2/), .record
        ...

The first request runs the experiment in process through
:func:`simulations.experiments.runner.run_all` (the function behind ``paper_repro.py``) at the smoke
profile, the CLI's default root seed and ``jobs=1`` (the xdist workers already use the cores), into
one output folder for the whole test run; every later request, in any process, reads those outputs.
Under pytest-xdist the folder lies in the run's shared temporary root and a file lock per
experiment makes the first worker that asks compute it while another one that asks meanwhile waits
and then reads: whichever worker runs a test, in whatever order, the test sees the same outputs.

(Not ``--dist loadgroup`` with an ``xdist_group`` mark, which would keep all the readers of one
experiment in one worker without a lock: with pytest 9.2 and pytest-xdist 3.8 that mark is
silently ignored, the tests being distributed as with ``--dist load``: pytest-dev/pytest-xdist#1386.)

A reader asserts only what holds at any root seed, or at the default one when that is what the
assertion is about (every claim of ``dp_checks`` holds at the seed the report is made with); a test
that needs its own seed or the in-memory ``ExperimentResult`` runs the experiment itself.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import mpmath
import pytest
from filelock import FileLock


@dataclass(frozen=True)
class SmokeRun:
    """One experiment's smoke-profile run: what ``run_all`` reported and where its files are.

    Attributes
    ----------
    outcome : simulations.experiments.runner.Outcome
        ``status`` is "ok", "crashed" or "skipped" (an extra such as torch is missing).
    out : pathlib.Path
        The output root (``--out``) shared by every experiment of the test run; holds ``REPORT.md``.
    folder : pathlib.Path
        ``out / name``: the figures, the CSV tables and ``results.json``.
    log : str
        Everything ``run_all`` printed (the traceback of a crash).
    """

    outcome: object
    out: Path
    folder: Path
    log: str

    @property
    def record(self) -> dict:
        """The ``results.json`` of this run (fails the test if the experiment did not finish)."""
        if self.outcome.status != "ok":
            pytest.fail(f"{self.outcome.name} at the smoke profile: {self.outcome.status}\n{self.log}")
        return json.loads((self.folder / "results.json").read_text())


class _SmokeRuns:
    """Experiment name -> SmokeRun, computed once per test run (all xdist workers together)."""

    def __init__(self, out: Path):
        self.out = out
        self.runs: dict[str, SmokeRun] = {}

    def get(self, name: str) -> SmokeRun:
        if name not in self.runs:
            from simulations.experiments.runner import Outcome

            done = self.out / ".outcomes" / f"{name}.json"
            done.parent.mkdir(parents=True, exist_ok=True)
            with FileLock(str(done) + ".lock"):
                if not done.exists():
                    outcome, log = self._run(name)
                    tmp = done.with_suffix(f".{os.getpid()}.tmp")
                    tmp.write_text(json.dumps({"outcome": asdict(outcome), "log": log}))
                    os.replace(tmp, done)
                saved = json.loads(done.read_text())
            self.runs[name] = SmokeRun(Outcome(**saved["outcome"]), self.out, self.out / name, saved["log"])
        return self.runs[name]

    def _run(self, name: str):
        import proofs_checks.experiments  # noqa: F401  (registers the checks' experiments, as paper_repro does)
        from simulations.experiments import RunContext
        from simulations.experiments.runner import run_all

        lines: list[str] = []
        with mpmath.workprec(53):  # mpmath's default, as in `python paper_repro.py`, whatever the test set
            (outcome,) = run_all([name], RunContext(profile="smoke", jobs=1, progress=False, figure_formats=("png",)),
                                 self.out,
                                 log=lines.append, argv=["paper_repro.py", "--profile", "smoke", "--only", name])
        if outcome.status == "interrupted":  # Ctrl-C while it ran: stop the test run, as pytest would
            raise KeyboardInterrupt
        return outcome, "\n".join(lines)


@pytest.fixture(scope="session")
def _smoke_runs(tmp_path_factory, pytestconfig) -> _SmokeRuns:
    root = tmp_path_factory.getbasetemp()
    if hasattr(pytestconfig, "workerinput"):  # an xdist worker: <run's basetemp>/popen-gw0, share the run's root
        root = root.parent  # (not PYTEST_XDIST_WORKER: a pytest started by a test inherits that variable)
    out = root / "smoke_profile"
    out.mkdir(exist_ok=True)
    return _SmokeRuns(out)


@pytest.fixture
def smoke_run(_smoke_runs):
    """``smoke_run(name) -> SmokeRun``: experiment ``name`` at the smoke profile, run once per test run."""
    return _smoke_runs.get


@pytest.fixture(autouse=True)
def _mpmath_precision_is_restored():
    """mpmath's working precision is process-global; a test that sets it (``mp.mp.dps = 50``) changed
    it for whichever tests ran after it in the same process, so that a result, and its run time,
    depended on the order and on the xdist worker. Each test leaves it as it found it."""
    prec = mpmath.mp.prec
    yield
    mpmath.mp.prec = prec
