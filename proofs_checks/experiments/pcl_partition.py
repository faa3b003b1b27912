"""``pcl_partition_conditions``: 001 Lemma 3.3, the exact ``Pr[N(x) <= k]`` over PCL's cubes.

PCL (001 Algorithm 2) partitions ``[0, 1]^d`` into cubes of side ``r = n^{-1/(2d)}`` starting at 0 (the
last one on each axis cut at 1). Lemma 3.3 (Devroye et al.) states that for every fixed k the chance
that the test point's cube holds at most k of the n sample points tends to 0; the proof of Theorem 3.2
uses it (eq. (1)) to make the Laplace noise's share ``|w|/N(x)`` vanish. As for PCL2's packings
(``pcl2_partition_conditions``), the sample is independent of x, so
``Pr[N(x) <= k] = Σ_C P(C) P(Bin(n, P(C)) <= k)`` is exact given the cube probabilities
(:func:`proofs_checks.partition_conditions.pcl_cube_probabilities`, :func:`~proofs_checks.partition_conditions.prob_few_points`).

Two marginals: uniform on ``[0, 1]^d`` (the features of every law of ``bayes_consistency``) and the
product of Beta(2, 5) marginals (a law of the suite's choosing, not the paper's: smooth, with a density
vanishing like ``(1 − t)^4`` near 1, i.e. regions of small mass), d = 1, 2, 3, over a log grid of n.
Everything is deterministic: the root seed plays no part.

Claims: Lemma 3.3 (paper) per marginal and d; beyond the paper, whether the probability is monotone in n
(it is not on the uniform law: where ``1/r`` is just above an integer the cut cube at the boundary is a
thin sliver holding few points) and how fast it decays on the Beta law (polynomially: the light cubes near
1 keep few points for a long time).

References: 001 Algorithm 2, Lemma 3.3, proof of Theorem 3.2 (eq. (1)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from proofs_checks.partition_conditions import pcl_cube_probabilities, prob_few_points
from simulations.estimators.pcl import pcl_side
from simulations.experiments.base import Claim, ExperimentResult
from simulations.plotting import MARKERS, color, figure

__all__ = ["KS", "MARGINALS", "Profile", "PROFILES", "compute", "plot", "few_points_row"]

KS = (0, 1, 10)
DIMS = (1, 2, 3)
MARGINALS = {"uniform": None, "beta(2,5)": stats.beta(2, 5).cdf}
#: "→ 0" on a finite grid: the largest value over the grid's last decade is below 1/100 of the largest over its
#: first decade and below 0.01 (two orders of magnitude: far beyond the grid's rounding)
DROP = 0.01
FLOOR = 1e-300  # plot floor (the uniform law's probabilities underflow to 0)


@dataclass(frozen=True, slots=True)
class Profile:
    """The grid of sample sizes.

    Parameters
    ----------
    log10_n : tuple of float
        Exponents e of n = round(10^e).

    Examples
    --------
    >>> PROFILES["smoke"].log10_n
    (2.0, 3.0, 4.0, 5.0)
    """

    log10_n: tuple[float, ...]


PROFILES = {"smoke": Profile(log10_n=(2.0, 3.0, 4.0, 5.0)),
            "quick": Profile(log10_n=tuple(np.arange(2.0, 10.01, 0.5).round(2).tolist())),
            "paper": Profile(log10_n=tuple(np.arange(2.0, 11.01, 0.25).round(2).tolist()))}


def few_points_row(marginal: str, d: int, n: int) -> dict:
    """Exact ``Pr[N(x) <= k]`` (k in :data:`KS`) on PCL's cubes for one marginal, d and n.

    Parameters
    ----------
    marginal : str
        A key of :data:`MARGINALS`.
    d : int
        Dimension.
    n : int
        Sample size.

    Returns
    -------
    dict
        ``marginal``, ``d``, ``n``, ``r`` (the side n^(-1/(2d))), ``cubes``, ``min_mass`` (smallest P(C))
        and ``few`` (k -> probability).

    References
    ----------
    001 Algorithm 2, Lemma 3.3.

    Examples
    --------
    n = 100, d = 1: ten cubes of mass 1/10, so ``Pr[N(x) = 0] = 0.9^100``:

    >>> row = few_points_row("uniform", 1, 100)
    >>> row["cubes"], math.isclose(row["few"][0], 0.9 ** 100, rel_tol=1e-9)
    (10, True)
    """
    r = pcl_side(n, d)
    p = pcl_cube_probabilities(r, d, MARGINALS[marginal])
    p = p[p > 0]
    return dict(marginal=marginal, d=d, n=n, r=r, cubes=int(p.size), min_mass=float(p.min()),
                few={k: prob_few_points(p, n, k) for k in KS})


def compute(ctx) -> ExperimentResult:
    """Exact ``Pr[N(x) <= k]`` for both marginals, d = 1, 2, 3 and the profile's n; table and claims.

    Parameters
    ----------
    ctx : RunContext
        Only the profile is read.

    Returns
    -------
    ExperimentResult
        Table ``few_points`` (marginal, d, n, r, cubes, smallest cube mass, k, probability); one paper
        claim per (marginal, d) (Lemma 3.3) and two beyond claims (monotonicity, decay on the Beta law).

    References
    ----------
    001 Algorithm 2, Lemma 3.3.

    Examples
    --------
    >>> from simulations.experiments.base import RunContext
    >>> res = compute(RunContext(profile="smoke"))
    >>> sorted(set(res.tables["few_points"]["k"])), len(res.claims)
    ([0, 1, 10], 8)
    """
    ns = [int(round(10 ** e)) for e in PROFILES[ctx.profile].log10_n]
    rows = [few_points_row(m, d, n) for m in MARGINALS for d in DIMS for n in ns]
    cols = {c: [] for c in ("marginal", "d", "n", "r", "cubes", "min_mass", "k", "prob_few_points")}
    for row in rows:
        for k in KS:
            for c, v in zip(cols, (row["marginal"], row["d"], row["n"], row["r"], row["cubes"], row["min_mass"], k,
                                   row["few"][k])):
                cols[c].append(v)
    return ExperimentResult(tables={"few_points": cols}, claims=_claims(rows, ns), data={"rows": rows},
                            notes=f"n from {ns[0]:.0e} to {ns[-1]:.0e}; r = n^(-1/(2d)); k in {list(KS)}; exact.\n")


def _claims(rows, ns) -> list[Claim]:
    claims, first, last = [], [n for n in ns if n <= ns[0] * 10], [n for n in ns if n >= ns[-1] / 10]
    for m in MARGINALS:
        for d in DIMS:
            sel = [r for r in rows if r["marginal"] == m and r["d"] == d]
            head = {k: max(r["few"][k] for r in sel if r["n"] in first) for k in KS}
            tail = {k: max(r["few"][k] for r in sel if r["n"] in last) for k in KS}
            ok = all(tail[k] <= DROP * head[k] and tail[k] <= DROP for k in KS)
            claims.append(Claim(
                f"001 Lemma 3.3 on PCL's cubes (r = n^(-1/(2d))), {m} marginal, d = {d}: Pr[N(x) <= k] -> 0 for k = "
                f"{', '.join(map(str, KS))} (exact): its largest value over the grid's last decade is below {DROP} and "
                f"below {DROP} x its largest over the first decade", ok, 0.0, tail[max(KS)],
                "; ".join(f"k = {k}: max {head[k]:.3g} over n <= {first[-1]:.0e}, max {tail[k]:.3g} over n >= "
                          f"{last[0]:.0e}" for k in KS), kind="paper"))
    ups = [(a, b) for m in MARGINALS for d in DIMS for a, b in _pairs(rows, m, d) if b["few"][0] > a["few"][0] * (1 + 1e-9)]
    worst = max(ups, key=lambda ab: ab[1]["few"][0] / max(ab[0]["few"][0], FLOOR), default=None)
    claims.append(Claim(
        "beyond 001 (Lemma 3.3 is a limit only): Pr[N(x) = 0] is non-increasing in n on PCL's cubes for every marginal "
        "and d", not ups, 0.0, float(len(ups)),
        "no increase" if worst is None else
        f"{len(ups)} increases between consecutive n; largest: {worst[0]['marginal']}, d = {worst[0]['d']}, "
        f"{worst[0]['few'][0]:.3g} at n = {worst[0]['n']:.3g} -> {worst[1]['few'][0]:.3g} at n = {worst[1]['n']:.3g} "
        f"(smallest cube mass {worst[0]['min_mass']:.3g} -> {worst[1]['min_mass']:.3g}: the cube cut at 1 becomes a "
        f"sliver where 1/r is just above an integer)", kind="beyond"))
    beta = [r for r in rows if r["marginal"] == "beta(2,5)" and r["d"] == 1 and r["n"] in last]
    slope = math.log(beta[-1]["few"][0] / beta[0]["few"][0]) / math.log(beta[-1]["n"] / beta[0]["n"])
    claims.append(Claim(
        "beyond 001 (no rate in Lemma 3.3): on the Beta(2,5) marginal, d = 1, Pr[N(x) = 0] decays only polynomially "
        "(log-log slope over the last decade above −1), while on the uniform one it underflows", slope > -1.0, -1.0,
        slope, f"slope {slope:.3f} from n = {beta[0]['n']:.0e} to {beta[-1]['n']:.0e}; uniform d = 1 at n = "
        f"{beta[-1]['n']:.0e}: {next(r for r in rows if r['marginal'] == 'uniform' and r['d'] == 1 and r['n'] == beta[-1]['n'])['few'][0]:.3g}",
        kind="beyond"))
    return claims


def _pairs(rows, marginal, d):
    sel = [r for r in rows if r["marginal"] == marginal and r["d"] == d]
    return zip(sel, sel[1:])


def plot(result: ExperimentResult) -> dict:
    """Exact ``Pr[N(x) <= k]`` against n, one panel per marginal (log-log; k by line style, d by colour).

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute`.

    Returns
    -------
    dict
        ``{"pcl_partition_conditions": matplotlib.figure.Figure}``.

    References
    ----------
    001 Lemma 3.3.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from simulations.experiments.base import RunContext
    >>> figs = plot(compute(RunContext(profile="smoke")))
    >>> len(figs["pcl_partition_conditions"].axes)
    2
    >>> plt.close(figs["pcl_partition_conditions"])
    """
    rows = result.data["rows"]
    fig, axes = figure(1, 2, width=5.2, height=3.8,
                       title="001 Lemma 3.3 on PCL's cubes (r = n^(-1/(2d))): exact Pr[N(x) <= k]")
    for ax, m in zip(axes, MARGINALS):
        for i, d in enumerate(DIMS):
            sel = [r for r in rows if r["marginal"] == m and r["d"] == d]
            for j, k in enumerate(KS):
                v = np.array([r["few"][k] for r in sel])
                ax.plot([r["n"] for r in sel], np.where(v > FLOOR, v, np.nan), color=color(i), marker=MARKERS[j],
                        ms=3, ls=("-", "--", ":")[j], label=f"d = {d}, k = {k}")
        ax.set(xscale="log", yscale="log", xlabel="n", ylabel="Pr[N(x) <= k]", title=f"{m} marginal")
        ax.legend(fontsize=6)
    return {"pcl_partition_conditions": fig}


# Registered through proofs_checks/experiments/catalogue.py ("pcl_partition_conditions").
