"""``debiased_erm_topk``: ERM with the debiased loss (004 eq. (17)) on RRTop-k labels against Theorem 17's
bound (18), as n and the prior's miss rate Pr[y ∉ Y_k] vary.

**Law and class.** :class:`~simulations.laws.top_k_miss.MissRateLaw` with m = 8 cells, K = 4 labels,
k = 2: cells alternate Y_2^x = {0, 1} and {2, 3}, y | x puts (1 - q)(3/4, 1/4) on Y_2^x and q/2 on
each label outside, so Pr[y ∉ Y_k^x] = q exactly. F = every function from the cells to [0, 1], loss
``ℓ(t, (x, y)) = (t - y/3)²`` (range [0, 1], L = 2), ε = 1, β = 0.05. The uniform deviation
``U = sup_f |L̃(f; S̃) - L(f; P)|`` (the left side of (18)) and the ERM's excess risk are computed
exactly from each sample (:func:`simulations.learning.debiased_erm.debiased_erm_scores`); R_n(F) is
exact (:func:`limits.generalization.rademacher_all_functions`), so (18)'s right side is exact too.

**What 004 states.** Theorem 17: with probability >= 1 - β, U <= 2L(1 + kp)/(1 - kp) R_n +
√(log(2/β)/(2n)) + Pr[y ∉ Y_k]; below it, "the empirical risk minimizer incurs excess loss similar to
the bound in Equation (18) (within a factor of 2)". Both are checked as frequencies of exceedance
(Clopper-Pearson intervals against β).

**The one-function class (finding).** 004's proof applies Lemma 21, stated for [0, 1]-valued classes,
to ℓ̃ ∘ F, but ℓ̃ ranges over an interval of width (1 + (k - 2)p)/(1 - kp) > 1. With F = {f ≡ 0}
(R_n = 0), K = k = 2, y uniform and no miss, (18) reduces to a Hoeffding bound for [0, 1] variables that
the debiased loss does not satisfy: it fails with probability 0.217 (ε = 1) and 0.507 (ε = 0.5) at
n = 1000, exactly (binomial tails), against β = 0.05. Scaling the confidence term by the range width
restores it (exact probability 0.0072).

References: 004 eq. (17)-(18), Theorem 17, Lemmas 18-22, Definition G.2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from limits.generalization import debiased_loss_constants, rademacher_all_functions, theorem17_bound
from simulations.engine import engine_options, run_trials, trial_streams
from simulations.experiments.base import Claim, ExperimentResult
from simulations.laws.top_k_miss import MissRateLaw
from simulations.learning.debiased_erm import debiased_erm_scores, one_function_violation_probability, population_gaps
from simulations.mechanisms import RRTopK
from simulations.plotting import band, figure
from simulations.seeding import EVAL, stream
from simulations.stats import (EXCLUDED, HOLDS, INCONCLUSIVE, bound_verdict, clopper_pearson, fit_loglog_slope,
                               holds_from, interval_verdict, t_interval)

__all__ = ["ERMPoint", "PROFILES", "compute", "erm_trial", "plot", "law_of"]

K, TOPK, EPS, BETA, LIPSCHITZ = 4, 2, 1.0, 0.05, 2.0
TOPS = ((0, 1), (2, 3)) * 4  # m = 8 cells
INSIDE = (0.75, 0.25)
ONE_FUNCTION_N = 1000  # n of the one-function check
#: slope of U vs n at q = 0 equals (18)'s -1/2 within ±0.05 (a 7 % change of U per factor 4 of n)
U_SLOPE_MARGIN = 0.05
#: slope of U vs q (largest n) equals (18)'s 1 (linear miss term) within ±0.1
Q_SLOPE_MARGIN_U = 0.1
#: slope of the ERM excess vs q (largest n) equals 2 (squared bias) within ±0.2
Q_SLOPE_MARGIN_EXCESS = 0.2


@dataclass(frozen=True, slots=True)
class Profile:
    """Grids of one profile: n × q for the main law, and the one-function check.

    Parameters
    ----------
    trials : int
        Trials per (n, q).
    ns : tuple of int
        Sample sizes.
    qs : tuple of float
        Miss rates Pr[y ∉ Y_k].
    one_function_trials : int
        Trials per ε of the one-function check (n = 1000).
    one_function_eps : tuple of float
        Its ε grid.

    Examples
    --------
    >>> PROFILES["quick"].trials
    200
    """

    trials: int
    ns: tuple[int, ...]
    qs: tuple[float, ...]
    one_function_trials: int
    one_function_eps: tuple[float, ...]


PROFILES = {
    "smoke": Profile(trials=10, ns=(250, 1000), qs=(0.0, 0.2), one_function_trials=50, one_function_eps=(1.0,)),
    "quick": Profile(trials=200, ns=(250, 1000, 4000, 16000, 64000), qs=(0.0, 0.05, 0.1, 0.2, 0.4),
                     one_function_trials=1000, one_function_eps=(0.5, 1.0)),
    "paper": Profile(trials=500, ns=(250, 1000, 4000, 16000, 64000, 256000), qs=(0.0, 0.05, 0.1, 0.2, 0.4),
                     one_function_trials=4000, one_function_eps=(0.5, 1.0)),
}


@dataclass(frozen=True, slots=True)
class ERMPoint:
    """One engine config: sample size, miss rate, ε, and which law.

    Parameters
    ----------
    n : int
        Sample size, >= 1.
    miss_rate : float
        q = Pr[y ∉ Y_k] (main law), in [0, 1]; 0 for the one-function law.
    epsilon : float, default 1
        ε of RRTop-k.
    one_function : bool, default False
        True: the K = k = 2 law with y uniform of the one-function check.

    References
    ----------
    004 Theorem 17.

    Examples
    --------
    >>> ERMPoint(1000, 0.2)
    ERMPoint(n=1000, miss_rate=0.2, epsilon=1.0, one_function=False)
    """

    n: int
    miss_rate: float
    epsilon: float = EPS
    one_function: bool = False


def law_of(pt: ERMPoint) -> MissRateLaw:
    """The law of a point: the main 8-cell law at q, or the two-label uniform law of the one-function check.

    Parameters
    ----------
    pt : ERMPoint

    Returns
    -------
    MissRateLaw

    References
    ----------
    004 Corollary 10 (the miss rate), Theorem 17.

    Examples
    --------
    >>> round(law_of(ERMPoint(100, 0.1)).exact_miss_rate(), 12), law_of(ERMPoint(100, 0.0, one_function=True)).k
    (0.1, 2)
    """
    if pt.one_function:
        return MissRateLaw(num_classes=2, tops=((0, 1),), inside=(0.5, 0.5))
    return MissRateLaw(num_classes=K, tops=TOPS, inside=INSIDE, miss_rate=pt.miss_rate)


def erm_trial(pt: ERMPoint, trial: int, root_seed: int) -> dict:
    """Draw n pairs (DATA), privatize with RRTop-k on each cell's prior (PRIVACY), score exactly.

    Parameters
    ----------
    pt : ERMPoint
        The point.
    trial : int
        Trial index, >= 0.
    root_seed : int
        Root seed, >= 0.

    Returns
    -------
    dict
        ``{"u": uniform deviation, "excess": ERM excess risk, "u0": |L̃ - L| of f ≡ 0}`` (floats).

    References
    ----------
    004 Algorithm 1 (RRTop-k), eq. (17), Theorem 17.

    Examples
    --------
    >>> r = erm_trial(ERMPoint(200, 0.1), 0, 1)
    >>> sorted(r), r["u"] >= r["u0"] >= 0
    (['excess', 'u', 'u0'], True)
    """
    data, privacy, _ = trial_streams(pt, trial, root_seed)
    law = law_of(pt)
    x, y = law.sample(pt.n, data)
    z = RRTopK(law.num_classes, pt.epsilon, law.k).sample(y, privacy, law.prior()[x])
    r = debiased_erm_scores(x, z, law, pt.epsilon)
    return {"u": r["uniform_deviation"], "excess": r["erm_excess"], "u0": r["deviation_at_zero"]}


def _rhs(n: int, q: float) -> float:
    """004 eq. (18) for the main law (exact R_n of the 8-cell class)."""
    return theorem17_bound(n, k=TOPK, epsilon=EPS, lipschitz=LIPSCHITZ, rademacher=rademacher_all_functions(n, [1 / 8] * 8),
                           miss_rate=q, beta=BETA)


def _exceed_claim(what, scores, bounds, kind_text) -> Claim:
    """Pr[score > bound] <= β at every point: per point the Clopper-Pearson interval against β."""
    trials = scores[0].size
    counts = [int((s > b).sum()) for s, b in zip(scores, bounds)]
    ratios = [t_interval(s / b) for s, b in zip(scores, bounds)]
    top = max(ratios, key=lambda r: r[0])
    cis = [clopper_pearson(c, trials) for c in counts]
    per = [bound_verdict(BETA, lo, hi, 0.0, side="at_most") for _, lo, hi in cis]
    every = HOLDS if all(v == HOLDS for v in per) else (EXCLUDED if EXCLUDED in per else INCONCLUSIVE)
    worst = max(range(len(cis)), key=lambda i: cis[i][0])
    return Claim(f"004 Theorem 17: {kind_text} with probability >= 1 - β = {1 - BETA:g} at every (n, q)",
                 holds_from(every), expected=BETA, measured=cis[worst][0],
                 detail=f"{every} (holds: every Clopper-Pearson 95% upper end <= β; excluded: a lower end above it); "
                        f"{what}: {sum(counts)} exceedances in {trials * len(counts)} trials; largest frequency "
                        f"{cis[worst][0]:.4f} [{cis[worst][1]:.4f}, {cis[worst][2]:.4f}]; largest mean ratio "
                        f"score / bound {top[0]:.3f} [95% CI {top[3]:.3f}, {top[4]:.3f}]", kind="paper")


def _slope_claim(fit, target, margin, text, grid) -> Claim:
    verdict = interval_verdict(target, fit.ci_low, fit.ci_high, margin)
    return Claim(text, holds_from(verdict), expected=target, measured=fit.slope,
                 detail=f"{verdict} (holds: CI inside {target:g} ± {margin:g}; excluded: disjoint); log-log slope "
                        f"{fit.slope:.3f}, bootstrap 95% CI [{fit.ci_low:.3f}, {fit.ci_high:.3f}] over {grid}",
                 kind="beyond")


def _one_function_claims(prof, by) -> list[Claim]:
    """The finding: (18) fails for F = {f ≡ 0}; the range-scaled confidence term holds."""
    out = []
    for eps in prof.one_function_eps:
        u0 = by[ERMPoint(ONE_FUNCTION_N, 0.0, eps, True)]["u0"]
        for corrected in (False, True):
            bound = theorem17_bound(ONE_FUNCTION_N, k=2, epsilon=eps, lipschitz=1.0, rademacher=0.0, miss_rate=0.0,
                                    beta=BETA, corrected=corrected)
            f, lo, hi = clopper_pearson(int((u0 > bound).sum()), u0.size)
            exact = one_function_violation_probability(ONE_FUNCTION_N, eps, BETA, corrected=corrected)
            side = "at_most" if corrected else "at_least"
            v = bound_verdict(BETA, lo, hi, 0.0, side=side)
            text = (f"the range-scaled confidence term (1 + (k-2)p)/(1 - kp)·√(log(2/β)/(2n)) holds for F = {{f ≡ 0}} "
                    f"at ε = {eps:g}: Pr[violation] <= β" if corrected else
                    f"004 eq. (18) fails for the one-function class F = {{f ≡ 0}} (R_n = 0, no miss) at ε = {eps:g}, "
                    f"n = {ONE_FUNCTION_N}: Pr[|L̃ - L| > RHS] > β = {BETA:g}")
            out.append(Claim(text, holds_from(v), expected=exact, measured=f,
                             detail=f"{v} (holds: Clopper-Pearson 95% interval {'below' if corrected else 'above'} β); "
                                    f"frequency {f:.4f} [{lo:.4f}, {hi:.4f}] over {u0.size} trials; exact probability "
                                    f"{exact:.4f} (binomial tails); range width of ℓ̃ "
                                    f"{debiased_loss_constants(2, eps)[2]:.3f}",
                             kind="beyond" if corrected else "erratum",
                             finding="" if corrected else "004 thm17 debiased loss range"))
    return out


def compute(ctx) -> ExperimentResult:
    """Entry point of ``debiased_erm_topk``: the n × q grid, the one-function check, tables and claims.

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper"), seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        Table ``theorem17`` (per n and q: (18)'s right side, mean U and excess with 95% t-intervals, ratios
        U/RHS and excess/(2 RHS), exceedance counts, the exact n → ∞ limits) and, from the quick profile on,
        the claims (module docstring); plot data.

    Raises
    ------
    ValueError
        For an unknown profile, before any work.

    References
    ----------
    004 Theorem 17, eq. (17)-(18).

    Examples
    --------
    About a minute at the quick profile (``paper_repro.py --only debiased_erm_topk``); smoke:

    >>> from simulations.experiments.base import RunContext
    >>> len(compute(RunContext(profile="smoke")).tables["theorem17"]["n"])  # doctest: +SKIP
    4
    """
    prof = PROFILES[ctx.profile]
    grid = [ERMPoint(n, q) for q in prof.qs for n in prof.ns]
    extra = [ERMPoint(ONE_FUNCTION_N, 0.0, e, True) for e in prof.one_function_eps]
    res = run_trials(erm_trial, grid, prof.trials, version="debiased_erm_topk/v1", **engine_options(ctx))
    res1 = run_trials(erm_trial, extra, prof.one_function_trials, version="debiased_erm_topk/v1", **engine_options(ctx))
    by = dict(zip(res.configs, res.per_config)) | dict(zip(res1.configs, res1.per_config))
    table = _table(prof, by)
    claims = []
    if ctx.profile != "smoke":
        n_max, q_pos = prof.ns[-1], [q for q in prof.qs if q > 0]
        fit = lambda key, xs, pts, tag: fit_loglog_slope(xs, [by[p][key] for p in pts],  # noqa: E731
                                                         rng=stream(ctx.seed, f"debiased_erm_topk/{tag}", 0, EVAL))
        at0 = [ERMPoint(n, 0.0) for n in prof.ns]
        atq = [ERMPoint(n_max, q) for q in q_pos]
        claims = [
            _exceed_claim("U > RHS", [by[p]["u"] for p in grid], [_rhs(p.n, p.miss_rate) for p in grid],
                          "sup_f |L̃(f; S̃) - L(f; P)| <= RHS of (18)"),
            _exceed_claim("excess > 2 RHS", [by[p]["excess"] for p in grid], [2 * _rhs(p.n, p.miss_rate) for p in grid],
                          "the debiased ERM's excess risk <= 2 × RHS of (18)"),
            _slope_claim(fit("u", prof.ns, at0, "u_n"), -0.5, U_SLOPE_MARGIN,
                         "at q = 0 the uniform deviation decays like (18)'s n^(-1/2) (slope vs n = -1/2)", f"n = {prof.ns}"),
            _slope_claim(fit("u", q_pos, atq, "u_q"), 1.0, Q_SLOPE_MARGIN_U,
                         f"at n = {n_max} the uniform deviation grows linearly in the miss rate, like (18)'s last term "
                         "(slope vs q = 1)", f"q = {tuple(q_pos)}"),
            _slope_claim(fit("excess", q_pos, atq, "e_q"), 2.0, Q_SLOPE_MARGIN_EXCESS,
                         f"at n = {n_max} the ERM's excess risk grows like q², not like (18)'s linear q (slope vs q = 2)",
                         f"q = {tuple(q_pos)}"),
            _excess_rate_claim(fit("excess", prof.ns, at0, "e_n"), prof.ns),
        ] + _one_function_claims(prof, by)
    return ExperimentResult(tables={"theorem17": table}, claims=claims, notes=_notes(table),
                            data={"table": table, "ns": prof.ns, "qs": prof.qs})


def _excess_rate_claim(f, ns) -> Claim:
    v = bound_verdict(-0.5, f.ci_low, f.ci_high, 0.0, side="at_most")
    return Claim("at q = 0 the ERM's excess risk decays faster than (18)'s n^(-1/2) (slope vs n <= -1/2)",
                 holds_from(v), expected=-0.5, measured=f.slope,
                 detail=f"{v} (holds: CI below -1/2); slope {f.slope:.3f}, bootstrap 95% CI [{f.ci_low:.3f}, "
                        f"{f.ci_high:.3f}] over n = {ns} (the squared error of a mean: 1/n)", kind="beyond")


def _table(prof, by) -> dict:
    cols = ("n", "miss_rate", "rhs18", "u_mean", "u_low", "u_high", "u_over_rhs", "u_over_rhs_low", "u_over_rhs_high",
            "u_exceed", "excess_mean", "excess_low", "excess_high", "excess_over_2rhs", "u_limit", "excess_limit")
    t = {c: [] for c in cols}
    for q in prof.qs:
        lim = population_gaps(law_of(ERMPoint(1, q)))
        for n in prof.ns:
            r, b = by[ERMPoint(n, q)], _rhs(n, q)
            u, e = t_interval(r["u"]), t_interval(r["excess"])
            row = (n, q, b, u[0], u[3], u[4], u[0] / b, u[3] / b, u[4] / b, int((r["u"] > b).sum()), e[0], e[3], e[4],
                   e[0] / (2 * b), lim[0], lim[1])
            for c, v in zip(cols, row):
                t[c].append(v)
    return t


def _notes(t) -> str:
    lines = [__doc__.split("\n\n", 1)[1].split("References")[0].strip(), "",
             "| n | q | RHS (18) | mean U [95% CI] | U / RHS | U limit | mean excess | excess / (2 RHS) | excess limit |",
             "|---|---|---|---|---|---|---|---|---|"]
    for i in range(len(t["n"])):
        lines.append(f"| {t['n'][i]} | {t['miss_rate'][i]:g} | {t['rhs18'][i]:.4f} | {t['u_mean'][i]:.4f} "
                     f"[{t['u_low'][i]:.4f}, {t['u_high'][i]:.4f}] | {t['u_over_rhs'][i]:.3f} | {t['u_limit'][i]:.4f} | "
                     f"{t['excess_mean'][i]:.2e} | {t['excess_over_2rhs'][i]:.4f} | {t['excess_limit'][i]:.2e} |")
    lines += ["", "U limit and excess limit are the exact n → ∞ values (the debiased risk estimates the risk under "
              "P' = ξ(P): U → sup_f |L(f; P) - L(f; P')| = 2q/3 here, the excess → Σ_x P(x)(μ'_x - μ_x)² = 4q²/9)."]
    return "\n".join(lines)


def plot(result) -> dict:
    """U and the ERM excess against n (q = 0 and the largest q) and against q (largest n), with (18).

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["table"]``, ``"ns"``, ``"qs"``).

    Returns
    -------
    dict
        ``{"debiased_erm_topk": matplotlib.figure.Figure}``.

    References
    ----------
    004 Theorem 17, eq. (18).

    Examples
    --------
    >>> from simulations.experiments.base import RunContext
    >>> list(plot(compute(RunContext(profile="smoke"))))  # doctest: +SKIP
    ['debiased_erm_topk']
    """
    t = {k: np.asarray(v) for k, v in result.data["table"].items()}
    ns, qs = result.data["ns"], result.data["qs"]
    fig, axes = figure(1, 2, width=4.6, title=f"004 Theorem 17: debiased ERM on RRTop-k labels (K = {K}, k = {TOPK}, "
                                              f"ε = {EPS:g}); mean and 95 % CI")
    for j, q in enumerate((qs[0], qs[-1])):
        s = t["miss_rate"] == q
        band(axes[0], ns, t["u_mean"][s], t["u_low"][s], t["u_high"][s], i=2 * j, label=f"U, q = {q:g}")
        band(axes[0], ns, t["excess_mean"][s], np.maximum(t["excess_low"][s], 1e-9), t["excess_high"][s], i=2 * j + 1,
             label=f"ERM excess, q = {q:g}")
        axes[0].plot(ns, t["rhs18"][s], "k--" if j == 0 else "k:", lw=1, label=f"RHS (18), q = {q:g}")
    s = (t["n"] == ns[-1]) & (t["miss_rate"] > 0)
    qp = t["miss_rate"][s]
    band(axes[1], qp, t["u_mean"][s], t["u_low"][s], t["u_high"][s], i=0, label="U")
    band(axes[1], qp, t["excess_mean"][s], t["excess_low"][s], t["excess_high"][s], i=1, label="ERM excess")
    axes[1].plot(qp, t["rhs18"][s], "k--", lw=1, label="RHS (18)")
    axes[1].plot(qp, t["u_limit"][s], "k-.", lw=1, label="U limit 2q/3")
    axes[1].plot(qp, t["excess_limit"][s], "k:", lw=1, label="excess limit 4q²/9")
    for ax, xl in ((axes[0], "n"), (axes[1], f"miss rate Pr[y ∉ Y_k] (n = {ns[-1]})")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xl)
        ax.set_ylabel("uniform deviation U / excess risk")
        ax.legend(fontsize=6, loc="lower left")
    return {"debiased_erm_topk": fig}
