"""Where a result came from: packages, interpreter, CPU, code version, command, time.

Every ``results.json`` written by ``paper_repro.py`` carries a ``"provenance"`` object built here,
and ``REPORT.md`` shows it per experiment. Bit-identity of the committed CSVs is a claim about one
code path in one environment (numpy's SIMD dispatch, the libm numba calls and the BLAS differ
between machines in the last bits), so the environment is recorded beside every number; the exact
versions that produced the committed figures are pinned in ``constraints.txt``.
"""

from __future__ import annotations

import functools
import os
import platform
import shlex
import subprocess
import sys
from importlib import metadata
from pathlib import Path

__all__ = ["PACKAGES", "code_version", "cpu_model", "environment", "numpy_simd", "package_versions", "provenance"]

# The distributions whose versions can move a number: the numerical stack, the LP solvers, torch.
PACKAGES = ("numpy", "scipy", "numba", "llvmlite", "cvxpy", "highspy", "clarabel", "scikit-learn", "sympy",
            "matplotlib", "joblib", "torch")

_ROOT = Path(__file__).resolve().parents[1]
#: the suite's distribution name (pyproject.toml), whose version provenance records
DISTRIBUTION = "labeldp-suite"


def package_versions(packages=PACKAGES) -> dict[str, str | None]:
    """Installed version of each distribution, ``None`` where it is not installed.

    Parameters
    ----------
    packages : iterable of str
        Distribution names as pip knows them (default :data:`PACKAGES`).

    Returns
    -------
    dict
        ``{name: version or None}`` in the order given.

    References
    ----------
    docs/design.md, "Experiments and their outputs": every ``results.json`` carries its provenance
    (profile, seed, command, git commit, package versions, CPU, wall and CPU seconds).

    Examples
    --------
    >>> v = package_versions(["numpy", "surely-not-installed-xyz"])
    >>> isinstance(v["numpy"], str), v["surely-not-installed-xyz"]
    (True, None)
    """
    out = {}
    for name in packages:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


@functools.lru_cache(maxsize=1)
def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux, else :func:`platform.processor`).

    Returns
    -------
    str
        ``"unknown"`` when neither source names it.

    References
    ----------
    docs/design.md, "Experiments and their outputs": every ``results.json`` carries its provenance
    (profile, seed, command, git commit, package versions, CPU, wall and CPU seconds).

    Examples
    --------
    >>> isinstance(cpu_model(), str)
    True
    """
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def numpy_simd() -> list[str]:
    """numpy's SIMD dispatch targets that are enabled on this CPU (AVX512_SKX, AVX2, ...).

    These decide which vectorized ``log``/``exp`` numpy runs, hence the last bits of results
    that go through them (docs/design.md "Performance"). ``NPY_DISABLE_CPU_FEATURES`` removes entries.

    Returns
    -------
    list of str
        Empty when numpy does not expose its dispatch table.

    References
    ----------
    docs/design.md, "Experiments and their outputs": every ``results.json`` carries its provenance
    (profile, seed, command, git commit, package versions, CPU, wall and CPU seconds).

    Examples
    --------
    >>> all(isinstance(f, str) for f in numpy_simd())
    True
    """
    try:  # private but stable since numpy 1.20; absent -> nothing to report
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:
        try:
            from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__
        except ImportError:
            return []
    return [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]


@functools.lru_cache(maxsize=1)
def code_version() -> dict:
    """The suite's package version, and the git commit of its checkout with whether its code differs from it.

    ``version`` is the installed distribution's (``labeldp-suite``), ``None`` when the code runs from a source
    tree that was never installed. ``commit`` is read only where the folder holding the packages is itself the
    top of a git checkout (a clone, or an editable install): an installed wheel has none, even inside some
    other repository. ``dirty`` looks at tracked files outside ``figures/`` (a run rewrites figures; that is
    not a change of code). Evaluated once per process, before any output is written.

    Returns
    -------
    dict
        ``{"commit": str or None, "dirty": bool or None, "version": str or None}``; ``commit`` and ``dirty``
        are ``None`` when the suite is not a git checkout or git is not installed.

    References
    ----------
    docs/design.md, "Experiments and their outputs": every ``results.json`` carries its provenance
    (profile, seed, command, git commit, package versions, CPU, wall and CPU seconds).

    Examples
    --------
    >>> sorted(code_version())
    ['commit', 'dirty', 'version']
    """
    try:
        version = metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        version = None

    def git(*args):
        return subprocess.run(["git", "-C", str(_ROOT), *args], capture_output=True, text=True, timeout=20,
                              check=True).stdout.strip()

    try:
        if Path(git("rev-parse", "--show-toplevel")).resolve() != _ROOT.resolve():
            raise subprocess.SubprocessError("the packages are not at the top of this checkout")
        commit = git("rev-parse", "HEAD")
        dirty = bool(git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)figures"))
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None, "version": version}
    return {"commit": commit, "dirty": dirty, "version": version}


def environment() -> dict:
    """Interpreter, platform, CPU, numpy SIMD targets, package versions and code version.

    Returns
    -------
    dict
        JSON-able; the part of :func:`provenance` that does not depend on the run.

    References
    ----------
    docs/design.md, "Experiments and their outputs": every ``results.json`` carries its provenance
    (profile, seed, command, git commit, package versions, CPU, wall and CPU seconds).

    Examples
    --------
    >>> env = environment()
    >>> sorted(env)
    ['code', 'cpu', 'numpy_simd', 'packages', 'platform', 'python']
    """
    return {"python": sys.version.split()[0], "platform": platform.platform(), "cpu": cpu_model(),
            "numpy_simd": numpy_simd(), "packages": package_versions(), "code": code_version()}


def provenance(*, profile: str, seed: int, argv, wall_s: float, cpu_s: float) -> dict:
    """The ``"provenance"`` object of one experiment's ``results.json``.

    Parameters
    ----------
    profile : str
        ``smoke``, ``quick`` or ``paper``.
    seed : int
        The root seed of every random stream of the run.
    argv : sequence of str
        The command line as typed (``sys.argv``); stored shell-quoted.
    wall_s, cpu_s : float
        Wall-clock seconds of the experiment, and CPU seconds of this process plus those its
        worker processes reported (:func:`simulations.executors.worker_cpu_seconds`).

    Returns
    -------
    dict
        ``{"profile", "seed", "command_line", "wall_s", "cpu_s", "load_avg_1_5_15", "cores",
        **environment()}``; the load averages are read when the experiment finishes.

    Raises
    ------
    ValueError
        If ``wall_s`` or ``cpu_s`` is negative.

    References
    ----------
    docs/design.md, "Experiments and their outputs": every ``results.json`` carries its provenance
    (profile, seed, command, git commit, package versions, CPU, wall and CPU seconds).

    Examples
    --------
    >>> p = provenance(profile="smoke", seed=1, argv=["paper_repro.py", "--only", "x"], wall_s=1.0, cpu_s=0.5)
    >>> p["command_line"], p["seed"], p["packages"]["numpy"] is not None
    ('paper_repro.py --only x', 1, True)
    """
    if not wall_s >= 0 or not cpu_s >= 0:
        raise ValueError(f"wall_s and cpu_s must be >= 0, got wall_s={wall_s}, cpu_s={cpu_s}")
    try:  # timings from a busy machine are not comparable with idle ones: say how busy it was
        load = [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):  # Windows
        load = None
    return {"profile": profile, "seed": int(seed), "command_line": shlex.join(str(a) for a in argv),
            "wall_s": round(float(wall_s), 3), "cpu_s": round(float(cpu_s), 3), "load_avg_1_5_15": load,
            "cores": os.cpu_count(), **environment()}
