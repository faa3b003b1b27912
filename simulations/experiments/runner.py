"""Run registered experiments and write ``figures/<name>/`` and ``figures/REPORT.md``.

Per experiment: PNG and PDF figures, one CSV per table (data only), and ``results.json`` with the
claims and the run's provenance (docs/design.md "Experiments and their outputs").

Never destroy a result: an experiment computes and writes into a private staging folder
(``<out>/.staging/<name>-<unique>/``, :mod:`simulations.scratch`; those of killed runs are swept at the
start of :func:`run_all`); only when everything is written are its files moved into ``<out>/<name>/``,
all or nothing (:func:`simulations.outputs.publish`: ``results.json`` last, rolled back on the first file
that cannot be replaced), and the files of the old output set that the new one lacks removed, if
``results.json``'s manifest lists them (a user's own files in the folder are never touched). A link
``<out>/<name>`` is refused: nothing is written outside ``--out``. A crash, a Ctrl-C or a skip (an
optional extra is missing) removes the staging folder and leaves ``<out>/<name>/`` byte for byte as
it was. Every file, ``REPORT.md`` included, is written under a unique temporary name and renamed into
place, so two concurrent runs into one ``--out`` each leave complete files.

:func:`run_all` draws and writes an experiment's figures in a background thread while the next
experiment computes (the same files as one after the other; issue 20). Only that thread publishes
them, so a Ctrl-C in the main thread never stops a publication half-way.

Claims have three verdicts (``holds`` True / None / False in ``results.json``: holds, inconclusive,
fails; :func:`simulations.stats.interval_verdict`); the report, the line printed after each
experiment and the end-of-run table count all three (:func:`claim_counts`). Neither a failed nor an
inconclusive claim is an error of the run: a claim that does not reproduce is a result.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import tempfile
import threading
import time
import traceback
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from simulations.atomic import atomic_write_text
from simulations.engine import trial_counts
from simulations.executors import available_cores, worker_cpu_seconds
from simulations.outputs import experiment_folder, manifest, publish
from simulations.provenance import provenance
from simulations.scratch import make_scratch, remove_scratch, sweep_stale

from .base import KINDS, REGISTRY, Experiment, ExperimentResult, ExperimentSkipped, RunContext, reading_of
from .board import kind_counts_text, kind_tally, read_records, verdict_board_markdown
from .fingerprint import config_fingerprint, stale_outputs
from .eta import eta_seconds, recorded_cpu_seconds

__all__ = ["Outcome", "check_output_folder", "claim_counts", "claim_counts_text", "privacy_line", "privacy_records",
           "regenerate_command", "run_all",
           "run_experiment", "summary_table", "write_csv", "write_report"]

STAGING = ".staging"  # under --out; one private folder per running experiment


def regenerate_command(name: str, ctx: RunContext) -> str:
    """The command line that regenerates one experiment's outputs.

    Parameters
    ----------
    name : str
        Registered experiment name.
    ctx : RunContext
        Its profile and seed are part of the command.

    Returns
    -------
    str

    Examples
    --------
    >>> regenerate_command("rates_table", RunContext(profile="smoke", seed=3))
    'python paper_repro.py --only rates_table --profile smoke --seed 3'
    """
    return f"python paper_repro.py --only {name} --profile {ctx.profile} --seed {ctx.seed}"


def _cell(v) -> str:
    if isinstance(v, (float, np.floating)):
        return repr(float(v))  # shortest round-trip text: deterministic and lossless
    if isinstance(v, (np.integer,)):
        return str(int(v))
    return str(v)


def write_csv(path: Path, columns: dict) -> None:
    """Write ``{column: 1-D sequence}`` as CSV, atomically (unique temporary name, then rename).

    Parameters
    ----------
    path : path-like
        Destination; its folder must exist.
    columns : dict
        Column name -> 1-D sequence; floats are written as their shortest round-trip text.

    Raises
    ------
    ValueError
        If the columns differ in length.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.csv"
    >>> write_csv(p, {"a": [0.1, 1 / 3], "b": [1, 2]})
    >>> p.read_text()
    'a,b\\n0.1,1\\n0.3333333333333333,2\\n'
    """
    names = list(columns)
    cols = [np.asarray(columns[c]).ravel() for c in names]
    lengths = {len(c) for c in cols}
    if len(lengths) > 1:
        raise ValueError(f"table columns differ in length: { {n: len(c) for n, c in zip(names, cols)} }")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(names)
    for row in zip(*cols):
        w.writerow([_cell(v) for v in row])
    atomic_write_text(path, buf.getvalue())


def _write_json(path: Path, obj) -> None:
    atomic_write_text(path, json.dumps(obj, indent=2, allow_nan=False) + "\n")


def _cpu_seconds() -> float:
    return time.process_time() + worker_cpu_seconds()


def _publish(staging: Path, folder: Path) -> None:
    """Move every file of ``staging`` into ``folder``, all or nothing; drop only the suite's stale outputs."""
    publish(staging, folder, lock=staging.parent)  # <out>/.staging: one publication at a time per --out


def check_output_folder(out) -> Path:
    """Make sure ``out`` is, or can be made, a writable folder, before any experiment runs.

    Parameters
    ----------
    out : path-like
        The ``--out`` folder; created (with parents) if missing.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        If ``out`` is empty, is a file, cannot be created, or a file cannot be written in it.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "a_file"
    >>> _ = f.write_text("x")
    >>> check_output_folder(f)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: out must be a folder, got out='.../a_file' (a file)
    """
    if isinstance(out, str) and not out.strip():  # Path("") is the current folder
        raise ValueError(f"out must name a folder, got out={out!r}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"out must be a folder, got out={str(out)!r} (a file)")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        raise ValueError(f"out must be a writable folder, got out={str(out)!r}: {exc.strerror or exc}") from None
    return out


@dataclass(slots=True)
class _Computed:
    """An experiment whose ``compute`` has returned: what :func:`_finish` needs to plot, write and publish it."""

    exp: Experiment
    ctx: RunContext
    folder: Path
    staging: Path
    result: ExperimentResult
    compute_s: float  # wall seconds of compute
    compute_cpu_s: float  # CPU seconds of compute: the main thread's process + its workers, the plotter excluded
    argv: list | None
    trials: dict  # {"computed": n, "cached": m}: the trials run_trials computed / read from the cache


def _compute(exp: Experiment, ctx: RunContext, out: Path, argv, *, other_cpu=lambda: 0.0) -> _Computed:
    """Run ``exp.compute`` with its staging folder made; the folder is removed if compute raises.

    ``other_cpu()`` is the CPU time of another thread of this process (the background plotter) so far:
    it is subtracted, so the experiment's CPU seconds do not include the previous experiment's figures.
    """
    folder = experiment_folder(out, exp.name)  # refused if a link or outside --out, before anything is written
    if ctx.cache_dir is None:
        ctx = replace(ctx, cache_dir=experiment_folder(experiment_folder(out, ".cache"), exp.name))
    staging = make_scratch(experiment_folder(out, STAGING), f"{exp.name}-")
    t0, c0, n0 = time.perf_counter(), _cpu_seconds() - other_cpu(), trial_counts()
    try:
        result: ExperimentResult = exp.compute(ctx)
    except BaseException:
        remove_scratch(staging)
        raise
    n1 = trial_counts()
    return _Computed(exp, ctx, folder, staging, result, time.perf_counter() - t0,
                     _cpu_seconds() - other_cpu() - c0, argv,
                     trials={"computed": n1[0] - n0[0], "cached": n1[1] - n0[1]})


def _full_run_cpu(job: _Computed, cpu_s: float) -> float | None:
    """CPU seconds a run of a job that read trials from the cache would take without it (the ETA of a fresh clone).

    ``cpu_s`` plus the cached trials at the computed ones' mean cost when some were computed; the replaced
    record's estimate (read before publishing) when every trial came from the cache; None if unknown.
    """
    computed, cached = job.trials["computed"], job.trials["cached"]
    if computed > 0:
        return round(cpu_s + job.compute_cpu_s * cached / computed, 3)
    return recorded_cpu_seconds(job.folder.parent, job.exp.name, job.ctx.profile)


class _Cancelled(KeyboardInterrupt):
    """A second Ctrl-C while a figure was being written: that experiment is dropped, its old outputs kept."""


def _finish(job: _Computed, cancel=None) -> dict:
    """Plot, write the tables and ``results.json`` into the staging folder, then publish it.

    Runs in the caller's thread or in the background plotter (:class:`_Plotter`); either way it touches
    only its own staging folder until :func:`_publish`, which no Ctrl-C interrupts in the background.
    The staging folder is always removed. ``cancel`` (a ``threading.Event``): if set before publishing,
    nothing is published and :class:`_Cancelled` is raised.
    """
    import matplotlib.pyplot as plt  # imported here so that `paper_repro.py --list` stays light

    from simulations.plotting import save_figure

    exp, ctx, staging, result = job.exp, job.ctx, job.staging, job.result
    record = {"name": exp.name, "reproduces": exp.reproduces, "profile": ctx.profile, "seed": ctx.seed,
              "command": regenerate_command(exp.name, ctx)}
    t0, c0 = time.perf_counter(), time.thread_time()  # this thread only: the next compute may run beside it
    try:
        figures = exp.plot(result) or {}
        names = []
        for fname, fig in figures.items():
            try:
                save_figure(fig, staging / fname, ctx.figure_formats)  # PNG + PDF, one layout pass for both
            finally:
                plt.close(fig)
            names.append(f"{fname}.png")
        for tname, columns in result.tables.items():
            write_csv(staging / f"{tname}.csv", columns)
        wall = job.compute_s + time.perf_counter() - t0  # the experiment's own time, not its wait for the plotter
        record.update(
            runtime_s=round(wall, 3),
            compute_s=round(job.compute_s, 3),
            compute_cpu_s=round(job.compute_cpu_s, 3),  # the rest of provenance's cpu_s is plotting and writing
            trials=job.trials,  # cached trials cost no CPU here (full_run_cpu_s below, eta.py)
            figures=names,
            tables=[f"{t}.csv" for t in result.tables],
            claims=[c.to_json() for c in result.claims],
            **({"privacy": privacy_records(exp, ctx.profile)} if exp.privacy_ref is not None else {}),
            config_fingerprint=config_fingerprint(exp, ctx.profile),  # the staleness check's key (fingerprint.py)
            notes=result.notes,
            provenance={**provenance(profile=ctx.profile, seed=ctx.seed,
                                     argv=sys.argv if job.argv is None else job.argv,
                                     wall_s=wall, cpu_s=job.compute_cpu_s + time.thread_time() - c0),
                        "finished_utc": datetime.now(timezone.utc).isoformat(timespec="seconds")},
        )
        if job.trials["cached"] > 0:
            record["full_run_cpu_s"] = _full_run_cpu(job, record["provenance"]["cpu_s"])
        record["outputs"] = manifest(staging)  # what a later run may replace or remove (issue 36)
        _write_json(staging / "results.json", record)
        if cancel is not None and cancel.is_set():
            raise _Cancelled("interrupted while its figures were written (earlier outputs kept)")
        _publish(staging, job.folder)
    finally:
        remove_scratch(staging)
    return record


def run_experiment(exp: Experiment, ctx: RunContext, out: Path, *, argv=None) -> dict:
    """Compute, plot and write one experiment; returns the results.json content.

    Parameters
    ----------
    exp : Experiment
    ctx : RunContext
        Without a ``cache_dir``, trials are cached under ``<out>/.cache/<name>/``.
    out : path-like
        Output root; the experiment's files go to ``<out>/<name>/``.
    argv : sequence of str, optional
        The command line recorded in the provenance (default ``sys.argv``).

    Returns
    -------
    dict
        The ``results.json`` object: name, reproduces, profile, seed, command, runtime_s,
        compute_s (wall) and compute_cpu_s (CPU seconds of compute, its worker processes included),
        figures, tables, claims, notes and provenance (its ``cpu_s`` also counts plotting and writing).

    Raises
    ------
    ExperimentSkipped
        If the experiment needs an extra that is not installed; nothing is written.
    Exception, KeyboardInterrupt
        Whatever ``compute`` or ``plot`` raised; ``<out>/<name>/`` is left as it was.

    Examples
    --------
    >>> import tempfile
    >>> from simulations.experiments.base import Claim
    >>> toy = Experiment("toy", "nothing", lambda ctx: ExperimentResult(claims=[Claim("1 = 1", True, kind="paper")]),
    ...                  lambda result: {})
    >>> rec = run_experiment(toy, RunContext(profile="smoke"), tempfile.mkdtemp())
    >>> rec["claims"][0]["holds"], rec["provenance"]["profile"]
    (True, 'smoke')
    """
    return _finish(_compute(exp, ctx, Path(out), argv))


def claim_counts(claims) -> tuple[int, int, int]:
    """How many claims hold, are inconclusive and fail.

    Parameters
    ----------
    claims : iterable of dict
        ``results.json`` claims: ``holds`` is True, None (inconclusive) or False.

    Returns
    -------
    (hold, inconclusive, fail) : tuple of int

    Examples
    --------
    >>> claim_counts([{"holds": True}, {"holds": None}, {"holds": False}, {"holds": True}])
    (2, 1, 1)
    """
    hold = inconclusive = fail = 0
    for c in claims:
        if c["holds"] is None:
            inconclusive += 1
        elif c["holds"]:
            hold += 1
        else:
            fail += 1
    return hold, inconclusive, fail


def claim_counts_text(hold: int, inconclusive: int, fail: int) -> str:
    """``"16 hold, 1 inconclusive, 1 fail"`` (the per-experiment line and the report's summary).

    Parameters
    ----------
    hold, inconclusive, fail : int
        Numbers of claims with each verdict (see :func:`claim_counts`); printed as given, not checked.

    Returns
    -------
    str
        ``"<hold> hold, <inconclusive> inconclusive, <fail> fail"``.

    Examples
    --------
    >>> claim_counts_text(16, 1, 1)
    '16 hold, 1 inconclusive, 1 fail'
    """
    return f"{hold} hold, {inconclusive} inconclusive, {fail} fail"


def _verdict_cell(c: dict) -> str:
    """The verdict in the claim's kind's words; a paper claim not reproduced is bold."""
    kind = c.get("kind")
    if kind not in KINDS:
        return {True: "holds", False: "fails", None: "inconclusive"}[c["holds"]] + " (no kind)"
    reading = reading_of(kind, c["holds"])
    return f"**{reading}**" if (kind, reading) == ("paper", "not reproduced") else reading


def _claims_table(claims: list[dict]) -> str:
    if not claims:
        return "_No numeric claims._\n"

    def fmt(x):
        if x is None:
            return "–"
        if isinstance(x, str):
            return x
        return f"{x:.4g}"

    lines = ["| claim | kind | expected | measured | verdict | detail |", "|---|---|---|---|---|---|"]
    for c in claims:
        verdict = _verdict_cell(c)
        detail = str(c.get("detail", "")).replace("|", "\\|").replace("\n", " ")
        claim = c["claim"].replace("|", "\\|")
        kind = c.get("kind", "–") + (f" (`{c['finding']}`)" if c.get("finding") else "")
        lines.append(f"| {claim} | {kind} | {fmt(c['expected'])} | {fmt(c['measured'])} | {verdict} | {detail} |")
    return "\n".join(lines) + "\n"


def _provenance_line(p: dict | None) -> str:
    if not p:
        return "**Provenance:** not recorded (these outputs predate provenance records)"
    code = p.get("code") or {}
    commit = (code.get("commit") or "unknown")[:12] + (" (uncommitted changes)" if code.get("dirty") else "")
    pk = p.get("packages") or {}
    versions = ", ".join(f"{k} {v}" for k, v in pk.items() if v)
    version = f" · labeldp-suite {code['version']}" if code.get("version") else ""
    return (f"**Provenance:** commit {commit}{version} · Python {p.get('python')} · {p.get('cpu')} · "
            f"wall {p.get('wall_s')} s, CPU {p.get('cpu_s')} s on {p.get('cores', '?')} cores at load "
            f"{(p.get('load_avg_1_5_15') or ['?'])[0]} · finished {p.get('finished_utc', '?')} UTC  \n"
            f"`{p.get('command_line', '')}`  \n{versions}")


def _cpu_cell(record: dict) -> str:
    """The CPU seconds of a ``results.json`` record as the report shows them ("–" where not recorded)."""
    cpu = (record.get("provenance") or {}).get("cpu_s")
    return "–" if cpu is None else f"{cpu:g}"


def privacy_records(exp: Experiment, profile: str) -> list[dict]:
    """The per-label totals of an experiment's declared ledgers, as written to ``results.json`` (``"privacy"``).

    Parameters
    ----------
    exp : Experiment
        Its ``privacy`` declaration is called with ``profile``.
    profile : str
        The run's profile.

    Returns
    -------
    list of dict
        One :meth:`simulations.accounting.Ledger.to_json` per ledger (empty if none is declared).

    References
    ----------
    docs/notes/accounting.md.

    Examples
    --------
    >>> toy = Experiment("toy", "nothing", "math:sqrt", "math:floor")
    >>> privacy_records(toy, "quick")
    []
    """
    if exp.privacy is None:
        return []
    return [led.to_json() for led in exp.privacy(profile)]


def privacy_line(exp: Experiment, record: dict) -> str:
    """The report's one line on an experiment's per-label privacy: from ``results.json``, else today's ledgers.

    Parameters
    ----------
    exp : Experiment
        The experiment (its ``privacy`` declaration renders outputs written before ledgers existed).
    record : dict
        Its ``results.json`` content.

    Returns
    -------
    str
        ``""`` when the experiment declares no ledger; otherwise a Markdown line listing each ledger's
        composition, basic (ε, δ) and tight ε at δ = 1e-5.

    References
    ----------
    docs/notes/accounting.md.

    Examples
    --------
    >>> privacy_line(Experiment("toy", "nothing", "math:sqrt", "math:floor"), {})
    ''
    """
    from simulations.accounting import summary_line

    if "privacy" in record:
        ledgers, source = record["privacy"], "recorded by this run"
    elif exp.privacy is not None:
        ledgers, source = privacy_records(exp, record.get("profile", "quick")), \
            "rendered from today's ledger declaration: this output predates the ledger"
    else:
        return ""
    return f"**Privacy per label** ({source}; docs/notes/accounting.md): " + "; ".join(map(summary_line, ledgers)) + "."


def write_report(out: Path, registry: dict[str, Experiment] | None = None) -> Path:
    """Stitch every experiment's results.json into ``out/REPORT.md`` (registry order), atomically.

    Built from the files on disk, so running one experiment with ``--only`` keeps the others'
    sections, and a run that failed leaves its experiment's section as it was; an experiment never
    run is listed as such.

    Parameters
    ----------
    out : path-like
        Output root holding ``<name>/results.json``.
    registry : dict, optional
        Name -> Experiment (default: every registered experiment).

    Returns
    -------
    pathlib.Path
        ``out/REPORT.md``.

    Examples
    --------
    >>> import tempfile
    >>> toy = Experiment("toy", "nothing", lambda ctx: None, lambda result: {})
    >>> "| [toy](#toy) | nothing | not run | – | – | – |" in write_report(tempfile.mkdtemp(), {"toy": toy}).read_text()
    True
    """
    registry = REGISTRY if registry is None else registry
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    exps = sorted(registry.values(), key=lambda e: (e.order, e.name))
    found, unreadable = read_records(out)
    for why in unreadable.values():  # named in one line each, and left out
        print(why, file=sys.stderr)
    records = {e.name: found.get(e.name) for e in exps}
    profiles = [r.get("profile") for r in records.values() if r is not None]
    paper_folder = bool(profiles) and profiles.count("paper") * 2 > len(profiles)  # figures/paper/
    stale = {k: v for k, v in stale_outputs(out, registry).items() if records.get(k) is not None}
    current = {k: v for k, v in records.items() if v is not None and "error" not in v and k not in stale}
    stale_line = ([f"Not counted on the board: {len(stale)} stale outputs (made before claim kinds or from another "
                   "configuration; each section says why and how to regenerate it): "
                   + ", ".join(f"[{k}](#{k})" for k in sorted(stale)), ""] if stale else [])

    lines = ["# labeldp-suite: reproduction report", "",
             "Generated by `paper_repro.py`. Every number below is measured by the command shown "
             "in its section. Each claim says what it tests: a *paper* claim is the paper's own statement "
             "(reproduced, not reproduced or inconclusive), an *erratum* is an error in the paper's text that "
             "the check confirms, a *beyond* question is one the suite adds (a *no* there is not a verdict "
             "on the paper). One interval decides every verdict; inconclusive lies between.", "",
             "## Verdict board", "", *stale_line,
             verdict_board_markdown(current), "",
             "## Experiments", "",
             "| experiment | reproduces | claims by kind | profile | wall (s) | CPU (s) |",
             "|---|---|---|---|---|---|"]
    for e in exps:
        r = records[e.name]
        if r is None:
            why = f"not run: {e.paper_note}" if e.paper_note and paper_folder else "not run"
            lines.append(f"| [{e.name}](#{e.name}) | {e.reproduces} | {why} | – | – | – |")
            continue
        status = "CRASHED" if "error" in r else kind_counts_text(r["claims"])
        status = f"**stale** ({status})" if e.name in stale else status
        lines.append(f"| [{e.name}](#{e.name}) | {e.reproduces} | {status} | {r['profile']} | {r['runtime_s']} | "
                     f"{_cpu_cell(r)} |")
    lines.append("")
    for e in exps:
        r = records[e.name]
        lines += [f"## {e.name}", "", f"**Reproduces:** {e.reproduces}", ""]
        if r is None:
            if e.paper_note and paper_folder:
                lines += [f"_No paper-profile output:_ {e.paper_note}", ""]
            else:
                lines += ["_Not run yet:_ `python paper_repro.py --only " + e.name + "`", ""]
            continue
        lines += [f"**Command:** `{r['command']}`  ",
                  f"**Profile:** {r['profile']} · **runtime:** {r['runtime_s']} s wall, {_cpu_cell(r)} s CPU",
                  "", _provenance_line(r.get("provenance")), ""]
        if e.name in stale:
            lines += [f"**Stale output, not counted on the verdict board:** {stale[e.name]}.", ""]
        if "error" not in r and (line := privacy_line(e, r)):
            lines += [line, ""]
        if "error" in r:
            lines += ["**This experiment crashed:**", "", "```", r["error"].strip(), "```", ""]
            continue
        for fig in r["figures"]:
            lines += [f"![{e.name}: {fig}]({e.name}/{fig})", ""]
        if r.get("notes"):
            lines += [r["notes"].strip(), ""]
        lines += [_claims_table(r["claims"])]
    return atomic_write_text(out / "REPORT.md", "\n".join(lines))


@dataclass(frozen=True, slots=True)
class Outcome:
    """What happened to one experiment in :func:`run_all`.

    Built by :func:`run_all` (one per experiment run) and read by :func:`summary_table`; the parameters
    are kept as attributes. Nothing is validated (it is a record, not an input).

    Parameters
    ----------
    name : str
        The experiment's name (its output folder ``figures/<name>/``).
    status : {"ok", "crashed", "skipped", "interrupted"}
        How the run ended.
    holding, n_claims : int, default 0
        Claims that hold / all claims (0 unless ``status == "ok"``).
    wall_s : float, default 0.0
        Wall-clock seconds the experiment took (reported, never written to its CSV files).
    reason : str, default ""
        Why it was skipped (with the install line), crashed or interrupted; empty when ok.
    inconclusive : int, default 0
        Claims whose verdict is inconclusive (``holds`` None); the others of ``n_claims`` fail.
    tally : tuple, default ()
        ``(kind, (holds, fails, inconclusive))`` pairs, one per claim kind
        (:func:`simulations.experiments.board.kind_tally`); empty unless ``status == "ok"``.

    References
    ----------
    docs/design.md, "Experiments and their outputs" (claims hold, fail or are inconclusive).

    Examples
    --------
    Of 4 claims, 2 hold and 1 is inconclusive, so 4 − 2 − 1 = 1 fails:

    >>> o = Outcome("rates_table", "ok", holding=2, n_claims=4, wall_s=1.5, inconclusive=1)
    >>> o.failing, o.reason
    (1, '')
    """

    name: str
    status: str
    holding: int = 0
    n_claims: int = 0
    wall_s: float = 0.0
    reason: str = ""
    inconclusive: int = 0
    tally: tuple = ()

    @property
    def failing(self) -> int:
        """Claims that fail (neither hold nor are inconclusive).

        Returns
        -------
        int
            ``n_claims − holding − inconclusive``; 0 for an experiment that did not run.

        Examples
        --------
        >>> Outcome("a", "ok", holding=16, n_claims=18, inconclusive=1).failing
        1
        >>> Outcome("b", "skipped", reason="pip install x").failing
        0
        """
        return self.n_claims - self.holding - self.inconclusive


def summary_table(outcomes) -> str:
    """The end-of-run table: experiment, result, its claims counted per kind, wall seconds, and why not run.

    Per kind, three counts: paper claims reproduced / not reproduced / inconclusive, errata confirmed /
    not confirmed / inconclusive, beyond questions answered yes / no / inconclusive (docs/design.md,
    "Claim kinds"): a *no* to a beyond question is not a verdict on the paper.

    Parameters
    ----------
    outcomes : sequence of Outcome

    Returns
    -------
    str
        Plain text, one row per experiment, then one line per skipped experiment with its reason.

    References
    ----------
    docs/design.md, "Claim kinds".

    Examples
    --------
    >>> ok = Outcome("a", "ok", 2, 4, 1.5, inconclusive=1,
    ...              tally=(("paper", (2, 0, 1)), ("erratum", (0, 0, 0)), ("beyond", (0, 1, 0))))
    >>> print(summary_table([ok, Outcome("b", "skipped", reason="pip install x")]))
    experiment  result   paper rep/not/inc  errata conf/not/inc  beyond yes/no/inc  wall (s)
    a           ok                   2/0/1                0/0/0              0/1/0       1.5
    b           skipped                  –                    –                  –         –
    skipped: b: pip install x
    """
    rows = [("experiment", "result", "paper rep/not/inc", "errata conf/not/inc", "beyond yes/no/inc", "wall (s)")]
    for o in outcomes:
        ran = o.status == "ok"
        tally = dict(o.tally)
        cells = ["/".join(map(str, tally.get(kind, (0, 0, 0)))) if ran else "–"
                 for kind in ("paper", "erratum", "beyond")]
        rows.append((o.name, o.status, *cells, f"{o.wall_s:.1f}" if ran else "–"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(f"{x:<{w}}" if i < 2 else f"{x:>{w}}" for i, (x, w) in enumerate(zip(r, widths))).rstrip()
             for r in rows]
    lines += [f"{o.status}: {o.name}: {o.reason}" for o in outcomes if o.status == "skipped"]
    return "\n".join(lines)


def _clock(seconds: float) -> str:
    m, s = divmod(int(round(seconds)), 60)
    return f"{m}m{s:02d}s" if m else f"{s}s"


class _Plotter:
    """One background thread that plots, writes and publishes finished experiments in order.

    While it draws experiment k's figures, the main thread computes experiment k + 1 (its trials run in
    the engine's worker processes, or in numpy / numba code that releases the GIL), so the cores are not
    idle during the serial plotting. matplotlib's Agg backend is used from this thread only (the
    experiments' ``compute`` functions draw nothing). The thread is not a daemon: if the program stops,
    the interpreter waits for the job in hand, which then publishes whole or not at all.
    """

    def __init__(self):
        self.cancel = threading.Event()  # set by a second Ctrl-C: the job in hand publishes nothing
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="figures")
        ident = self._pool.submit(threading.get_ident).result()
        try:  # the thread's CPU clock, so that compute's CPU seconds can leave out the plotting beside it
            self._clock = time.pthread_getcpuclockid(ident)
        except (AttributeError, OSError):  # not on every platform: compute then also counts it
            self._clock = None

    def cpu(self) -> float:
        """CPU seconds of the plotting thread so far (0.0 where the platform cannot tell)."""
        return 0.0 if self._clock is None else time.clock_gettime(self._clock)

    def submit(self, job: _Computed) -> Future:
        return self._pool.submit(_finish, job, self.cancel)

    def close(self) -> None:
        self._pool.shutdown(wait=True)


def _finished_now(job: _Computed) -> Future:
    """:func:`_finish` in this thread, as a done Future (the serial path; a Ctrl-C propagates)."""
    fut = Future()
    try:
        fut.set_result(_finish(job))
    except Exception as exc:
        fut.set_exception(exc)
    return fut


def run_all(names, ctx: RunContext, out: Path, *, log=print, argv=None, overlap: bool = True) -> list[Outcome]:
    """Run the named experiments in order, rewrite the report, print the end-of-run table.

    One line per experiment says ``[k/n]``, the elapsed time and an ETA from the CPU seconds that the earlier
    runs recorded in ``out`` (where known), spread over the cores this run uses, then paced by this run's own
    speed (:mod:`simulations.experiments.eta`). A crash is reported and the other experiments still run;
    Ctrl-C stops the run after reporting what was cached; a missing extra skips the experiment.
    In every one of those cases the experiment's earlier outputs are left as they were. The line
    after each experiment counts its claims that hold, are inconclusive and fail
    (``claims: 16 hold, 1 inconclusive, 1 fail``); neither verdict stops the run.

    With ``overlap`` (the default), an experiment's figures and files are drawn and written by a
    background thread while the next experiment computes (issue 20: plotting was a quarter of the
    quick profile's wall time, with one core idle); its "done" line is printed once they are written,
    so it may follow the next experiment's start line. The files are the same either way. A plot that
    fails marks its experiment crashed and leaves its earlier outputs. On Ctrl-C the figures being
    written are finished and published (as a serial run would have done before that Ctrl-C); a second
    Ctrl-C drops them instead (earlier outputs kept). ``REPORT.md`` is written when all are done.

    Parameters
    ----------
    names : sequence of str
        Registered experiment names.
    ctx : RunContext
    out : path-like
        Output root (``figures/`` by default in ``paper_repro.py``).
    log : callable
        Receives each line of console output.
    argv : sequence of str, optional
        The command line recorded in the provenance (default ``sys.argv``).
    overlap : bool, default True
        Plot and write each experiment in the background while the next one computes; False does
        everything in this thread, one experiment after the other.

    Returns
    -------
    list of Outcome
        One per experiment started or skipped, in order; the run stops at the first interruption.

    References
    ----------
    docs/design.md, "Experiments and their outputs" (staging folders: a result is never destroyed).

    Examples
    --------
    >>> import tempfile
    >>> from simulations.experiments.base import Claim
    >>> toy = Experiment("toy", "nothing", lambda ctx: ExperimentResult(claims=[Claim("1 = 1", True, kind="paper")]),
    ...                  lambda result: {})
    >>> REGISTRY["toy"] = toy
    >>> [o.status for o in run_all(["toy"], RunContext(profile="smoke"), tempfile.mkdtemp(), log=lambda s: None)]
    ['ok']
    >>> [o.status for o in run_all(["toy"], RunContext(profile="smoke"), tempfile.mkdtemp(), log=lambda s: None,
    ...                            overlap=False)]
    ['ok']
    >>> del REGISTRY["toy"]
    """
    out = Path(out)
    names = list(dict.fromkeys(names))  # `--only a,a` runs a once
    n = len(names)
    outcomes: dict[int, Outcome] = {}
    sweep_stale(out / STAGING)  # staging folders of killed runs; a live run's are locked and kept
    # for the ETA: an experiment this environment will skip (a missing extra) costs nothing here
    recorded = {name: 0.0 if REGISTRY[name].skip_reason(ctx) else recorded_cpu_seconds(out, name, ctx.profile)
                for name in names}
    cores = min(ctx.jobs, available_cores()) if ctx.scheduler is None else ctx.jobs
    start = time.perf_counter()
    plotter = _Plotter() if overlap else None
    pending = None  # (k, name, t0, Future of _finish): at most one experiment is being plotted
    current = None  # (k, name, t0, _Computed or None): the experiment the main thread holds

    def collect(block: bool) -> None:
        nonlocal pending
        if pending is None or not (block or pending[3].done()):
            return
        k, name, t0, fut = pending
        while not wait([fut], timeout=0.25).done:  # short waits: a Ctrl-C is seen within 0.25 s
            pass
        try:
            rec = fut.result()  # a Ctrl-C while waiting above leaves `pending` as it is
        except _Cancelled as exc:
            outcomes[k] = Outcome(name, "interrupted", wall_s=time.perf_counter() - t0, reason=str(exc))
            log(f"[{k}/{n}] {name} {exc}")
        except Exception as exc:
            outcomes[k] = Outcome(name, "crashed", wall_s=time.perf_counter() - t0,
                                  reason=f"{type(exc).__name__}: {exc}")
            log(f"[{k}/{n}] {name} CRASHED (earlier outputs kept):\n{''.join(traceback.format_exception(exc))}")
        else:
            hold, inconclusive, fail = claim_counts(rec["claims"])
            outcomes[k] = Outcome(name, "ok", hold, len(rec["claims"]), rec["runtime_s"], inconclusive=inconclusive,
                                  tally=tuple(kind_tally(rec["claims"]).items()))
            log(f"[{k}/{n}] {name} done in {rec['runtime_s']:.1f} s; claims: {kind_counts_text(rec['claims'])}")
        pending = None

    try:
        for k, name in enumerate(names, 1):
            collect(block=False)
            elapsed = time.perf_counter() - start
            done_cpu = sum(recorded[m] or 0.0 for i, m in enumerate(names[:k - 1], 1)
                           if i not in outcomes or outcomes[i].status != "skipped")
            left = eta_seconds([recorded[m] for m in names[k - 1:]], cores, finished_cpu=done_cpu,
                               finished_wall=elapsed if done_cpu > 0 else 0.0)
            eta = f", ETA ~{_clock(left)}" if left is not None else ""
            log(f"[{k}/{n}] {name} ({ctx.profile}) ... elapsed {_clock(elapsed)}{eta}")
            current = (k, name, time.perf_counter(), None)
            try:
                job = _compute(REGISTRY[name], ctx, out, argv, other_cpu=plotter.cpu if plotter else lambda: 0.0)
            except ExperimentSkipped as exc:
                outcomes[k] = Outcome(name, "skipped", reason=str(exc))
                log(f"[{k}/{n}] {name} skipped: {exc} (earlier outputs kept)")
                continue
            except Exception as exc:
                outcomes[k] = Outcome(name, "crashed", wall_s=time.perf_counter() - current[2],
                                      reason=f"{type(exc).__name__}: {exc}")
                log(f"[{k}/{n}] {name} CRASHED (earlier outputs kept):\n{traceback.format_exc()}")
                continue
            current = (k, name, current[2], job)
            collect(block=True)  # the previous experiment's figures: one waits, so memory stays bounded
            pending = (k, name, current[2], plotter.submit(job) if plotter else _finished_now(job))
            current = None
            collect(block=not plotter)
        collect(block=True)
    except KeyboardInterrupt as exc:
        if current is not None:
            k, name, t0, job = current
            if job is not None:  # computed, not handed to the plotter: its figures are not drawn
                remove_scratch(job.staging)
            reason = str(exc) or "interrupted; rerun the same command to resume"
            outcomes[k] = Outcome(name, "interrupted", wall_s=time.perf_counter() - t0, reason=reason)
            log(f"[{k}/{n}] {name} {reason} (earlier outputs kept)")
        if pending is not None:
            k, name = pending[:2]
            try:
                log(f"[{k}/{n}] {name}: finishing its figures (Ctrl-C again to drop them)")
                collect(block=True)
            except KeyboardInterrupt:
                log(f"[{k}/{n}] {name}: dropping its figures")
                plotter.cancel.set()
                collect(block=True)
    finally:
        if plotter is not None:
            plotter.close()
    done = [outcomes[k] for k in sorted(outcomes)]
    write_report(out)
    log(summary_table(done))
    log(f"total {_clock(time.perf_counter() - start)}")
    return done
