"""Time estimates for a run of experiments, from CPU seconds rather than wall times.

A committed ``results.json`` records the wall and CPU seconds of the run that wrote it, often on another
machine at another load: its wall time says more about that machine's load than about the experiment (a quick
run announced 43 minutes for a job of 4 to 5). Its CPU seconds move much less. The estimate is

* before any experiment of this run has finished: the recorded CPU seconds of the experiments left, spread over
  the cores this run uses (``min(jobs, cores available)``);
* once some have finished: the recorded CPU seconds left, times the pace of this machine measured now (the wall
  seconds this run has taken per recorded CPU second of the experiments it has finished), blended with the
  first guess (``1 / cores``) as if that guess had been measured on :data:`PRIOR_CPU_S` CPU seconds, so that a
  first small experiment, whose wall time is mostly start-up, does not swing the estimate.

Without a recorded run at the same profile for one of the experiments left, there is no estimate.
An experiment that this environment will skip (its optional extra or data is missing: the catalogue record's
``skip`` check) counts for nothing, so a first run without torch does not announce the CNN grid's time.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

__all__ = ["PRIOR_CPU_S", "eta_seconds", "recorded_cpu_seconds"]

#: weight, in recorded CPU seconds, of the first guess (recorded CPU seconds spread over the cores) against the
#: pace this run measures: a minute of computation, the size of a middle experiment of the quick profile
PRIOR_CPU_S = 60.0


def recorded_cpu_seconds(out, name: str, profile: str) -> float | None:
    """CPU seconds of the last finished run of experiment ``name`` at ``profile`` recorded under ``out``.

    Parameters
    ----------
    out : path-like
        The output root holding ``<name>/results.json``.
    name : str
        The experiment.
    profile : str
        Only a run at this profile counts.

    Returns
    -------
    float or None
        The ``cpu_s`` of the run's provenance (this process and its workers); ``None`` when there is no such
        run, it crashed, or it predates CPU records. A run that read some of its trials from the cache paid no
        CPU for them: its ``full_run_cpu_s`` (the runner's estimate of a run without the cache: the cached trials
        at the computed ones' mean cost, or the replaced record's estimate when every trial was cached; None
        when unknown) is returned instead.

    References
    ----------
    docs/design.md, "Experiments and their outputs" (provenance records wall and CPU seconds).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> out = Path(tempfile.mkdtemp()); (out / "toy").mkdir()
    >>> _ = (out / "toy" / "results.json").write_text('{"profile": "quick", "runtime_s": 400.0, '
    ...                                               '"provenance": {"wall_s": 400.0, "cpu_s": 30.5}}')
    >>> recorded_cpu_seconds(out, "toy", "quick"), recorded_cpu_seconds(out, "toy", "smoke")
    (30.5, None)

    A rerun that computed 10 trials and read 30 from the cache, 8 of its 10.5 CPU seconds computing: the runner
    wrote 10.5 + 8 · 30/10 as its estimate without the cache:

    >>> _ = (out / "toy" / "results.json").write_text('{"profile": "quick", "compute_cpu_s": 8.0, "trials": '
    ...     '{"computed": 10, "cached": 30}, "full_run_cpu_s": 34.5, "provenance": {"cpu_s": 10.5}}')
    >>> recorded_cpu_seconds(out, "toy", "quick")
    34.5
    """
    try:
        r = json.loads((Path(out) / name / "results.json").read_text(encoding="utf-8"))
        if r.get("profile") != profile or "error" in r:
            return None
        # a run that read trials from the cache: the runner's estimate without it (None when unknown)
        cpu = float(r["full_run_cpu_s"] if "full_run_cpu_s" in r else r["provenance"]["cpu_s"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return cpu if math.isfinite(cpu) and cpu >= 0 else None


def eta_seconds(remaining_cpu, cores: int, *, finished_cpu: float = 0.0, finished_wall: float = 0.0) -> float | None:
    """Estimated wall seconds for experiments whose recorded CPU seconds are ``remaining_cpu``.

    Parameters
    ----------
    remaining_cpu : sequence of float or None
        Recorded CPU seconds of each experiment left (``None``: unknown).
    cores : int
        Cores this run uses, ``>= 1``.
    finished_cpu : float, default 0.0
        Recorded CPU seconds of the experiments this run has finished.
    finished_wall : float, default 0.0
        Wall seconds this run has taken so far.

    Returns
    -------
    float or None
        ``sum(remaining_cpu) * pace`` with ``pace = (finished_wall + PRIOR_CPU_S / cores) / (finished_cpu +
        PRIOR_CPU_S)`` (``1 / cores`` before anything has finished); ``None`` if any of ``remaining_cpu`` is
        unknown.

    Raises
    ------
    ValueError
        If ``cores < 1``, or ``finished_cpu`` or ``finished_wall`` is negative.

    References
    ----------
    docs/design.md, "The runner and its staging".

    Examples
    --------
    Two experiments recorded at 300 and 100 CPU seconds, on 2 cores: 200 s. After experiments recorded at
    540 CPU seconds took 210 s here, the pace is (210 + 60/2) / (540 + 60) = 0.4 s per recorded CPU second:

    >>> eta_seconds([300.0, 100.0], 2)
    200.0
    >>> eta_seconds([300.0, 100.0], 2, finished_cpu=540.0, finished_wall=210.0)
    160.0
    >>> eta_seconds([300.0, None], 2) is None
    True
    """
    if not (isinstance(cores, int) and cores >= 1):
        raise ValueError(f"cores must be an integer >= 1, got cores={cores!r}")
    if not (finished_cpu >= 0 and finished_wall >= 0):
        raise ValueError(f"finished_cpu and finished_wall must be >= 0, got finished_cpu={finished_cpu}, "
                         f"finished_wall={finished_wall}")
    remaining = list(remaining_cpu)
    if any(c is None for c in remaining):
        return None
    total = float(sum(remaining))
    pace = (finished_wall + PRIOR_CPU_S / cores) / (finished_cpu + PRIOR_CPU_S)
    return total * pace
