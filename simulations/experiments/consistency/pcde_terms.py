"""``pcde_error_terms``: the two terms of 001 eq. (5)-(7) in PCDE's proof, measured against their bounds.

The proof of 001 Theorem 4.3 splits the privacy part ``E ∫ |f_S − f̂_S|`` of PCDE (Algorithm 3, cubes of side
``r = n^{-1/(2d)}``) at a cube 𝒯 of side ``T = T_0 + 2`` around a cube 𝒯_0 with ``P(𝒯_0) > 1 − τ``:

* eq. (5), inside 𝒯: ``E ∫_𝒯 |f_S − f̂_S| ≲ T^d ln(1/δ) / (ε √n)`` (Theorem 2.4, the O-constant neglected);
* eq. (6)-(7), outside: ``E ∫_{𝒯̄} |f_S − f̂_S| <= τ / ε`` (Theorem 2.4's ``O(c/ε)``, constant again 1).

On a cube C the integrand is ``|c − ĉ| / (n r^d)``, so each term is ``Σ_C |c_C − ĉ_C| / n`` over the cubes
inside 𝒯 (resp. meeting its complement). Given the sample, the expectation over Algorithm 1's noise is exact
(:func:`simulations.mechanisms.stability_error.expected_abs_error`); only the sample is random (DATA stream).
Theorem 2.4's constant is taken exactly, ``C* = sup_c ε E|ĉ − c| / min{ln(1/δ), c}``
(:func:`~simulations.mechanisms.stability_error.sup_constant_ratio`, 1.785 at ε = 1, δ = 1e-6).

Laws: the standard normal and standard Cauchy product densities on R^d, d = 1, 2 (as
``private_density_estimation``); ε = 1, δ = 1e-6, τ = 0.05; 𝒯_0 the centred cube of mass exactly 1 − τ.

Claims (paper): eq. (5) with the constant C* holds at every n and trial; eq. (7) with C* holds for the mean
over trials (95% CI). Beyond: the constant eq. (5) hides at the largest n (measured / (T^d ln(1/δ)/(ε√n))),
and whether the in-𝒯 term falls at eq. (5)'s rate n^(-1/2) over the last decade (log-log slope).

References: 001 Algorithm 1, Theorem 2.4, Algorithm 3, proof of Theorem 4.3, eq. (5)-(7), Remark 4.5.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from simulations.engine import engine_options, run_trials, trial_streams
from simulations.estimators.pcde import PCDE
from simulations.experiments.base import Claim, ExperimentResult
from simulations.laws.densities import ProductDensity
from simulations.mechanisms.stability_error import expected_abs_error, sup_constant_ratio
from simulations.plotting import band, color, figure
from simulations.seeding import stable_key
from simulations.stats import bound_verdict, fit_loglog_slope, holds_from, t_interval

__all__ = ["LAWS", "PROFILES", "Profile", "TermPoint", "core_side", "terms_trial"]

EPSILON, DELTA, TAU = 1.0, 1e-6, 0.05
LAWS = (("normal", 1), ("cauchy", 1), ("normal", 2), ("cauchy", 2))
#: eq. (5)'s rate: the in-𝒯 term's last-decade log-log slope is "at the rate n^(-1/2)" when its 95% CI lies in
#: [−0.5 − 0.1, −0.5 + 0.1]: ±0.1 is the slope change a fixed constant factor of 1.26 makes over one decade
RATE, RATE_MARGIN = -0.5, 0.1


@dataclass(frozen=True, slots=True)
class Profile:
    """Sizes of one profile.

    Parameters
    ----------
    log10_n : tuple of float
        Exponents of the sample sizes.
    n_trials : int
        Samples per (law, n).

    Examples
    --------
    >>> PROFILES["smoke"].n_trials
    2
    """

    log10_n: tuple[float, ...]
    n_trials: int


PROFILES = {"smoke": Profile(log10_n=(2.0, 3.0, 4.0), n_trials=2),
            "quick": Profile(log10_n=(3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0), n_trials=6),
            "paper": Profile(log10_n=tuple(np.arange(3.0, 7.01, 0.25).round(2).tolist()), n_trials=12)}


@dataclass(frozen=True, slots=True)
class TermPoint:
    """One configuration: the law, the dimension and n.

    Parameters
    ----------
    kind : {"normal", "cauchy"}
        The marginal of the product density.
    d : int
        Dimension, 1 or 2.
    n : int
        Sample size.

    Examples
    --------
    >>> TermPoint("cauchy", 2, 1000).n
    1000
    """

    kind: str
    d: int
    n: int


def core_side(kind: str, d: int, tau: float = TAU) -> float:
    """Side T_0 of the centred cube 𝒯_0 with ``P(𝒯_0) = 1 − τ`` exactly, for the product law.

    Each axis carries ``(1 − τ)^{1/d}``: ``T_0 = 2 F^{-1}((1 + (1 − τ)^{1/d}) / 2)`` with F the marginal cdf.

    Parameters
    ----------
    kind : {"normal", "cauchy"}
        The marginal.
    d : int
        Dimension.
    tau : float, default :data:`TAU`
        The mass left outside.

    Returns
    -------
    float
        T_0.

    References
    ----------
    001 proof of Theorem 4.3 (the cube 𝒯_0 with P(𝒯_0) > 1 − τ).

    Examples
    --------
    Cauchy, d = 1, τ = 0.05: ``(2/π) arctan(T_0/2) = 0.95``, so ``T_0 = 2 tan(0.475 π) = 25.41``:

    >>> round(core_side("cauchy", 1), 2), round(2 * math.tan(0.475 * math.pi), 2)
    (25.41, 25.41)
    """
    q = (1 + (1 - tau) ** (1 / d)) / 2
    return 2 * float((stats.norm if kind == "normal" else stats.cauchy).ppf(q))


def terms_trial(cfg: TermPoint, t: int, root_seed: int) -> dict:
    """One sample: the exact noise-expected in-𝒯 and outside terms of eq. (5)-(7), and the sample's mass outside 𝒯_0.

    Parameters
    ----------
    cfg : TermPoint
        The configuration.
    t : int
        Trial index.
    root_seed : int
        The run's seed (DATA stream: the sample; no noise is drawn, its expectation is exact).

    Returns
    -------
    dict of str to float
        ``inside`` (``Σ_{C ⊆ 𝒯} E|c − ĉ| / n``), ``outside`` (over the cubes meeting the complement of 𝒯) and
        ``out_core`` (``|S ∩ 𝒯̄_0| / n``, eq. (6)).

    References
    ----------
    001 eq. (5)-(7), Remark 4.5; Theorem 2.4 (exact E|ĉ − c|).

    Examples
    --------
    At n = 400 no cube reaches the release threshold ≈ 30, so (almost) the whole sample is the error, here
    all inside 𝒯 (E|ĉ − c| can exceed c slightly: a released count carries the noise):

    >>> r = terms_trial(TermPoint("normal", 1, 400), 0, 1)
    >>> round(r["inside"], 3), r["outside"], bool(0 <= r["out_core"] <= 1)
    (1.0, 0.0, True)
    """
    data, _, _ = trial_streams(cfg, t, root_seed)
    X = ProductDensity(cfg.d, cfg.kind).sample(cfg.n, data)
    side, cells, counts = PCDE(epsilon=EPSILON, delta=DELTA).cube_counts(X)
    err = expected_abs_error(counts, EPSILON, DELTA) / cfg.n
    T0 = core_side(cfg.kind, cfg.d)
    half = T0 / 2 + 1  # 𝒯: 𝒯_0 extended by 1 on each side (T = T_0 + 2)
    inside = np.all((cells * side >= -half) & ((cells + 1) * side <= half), axis=1)
    return {"inside": float(err[inside].sum()), "outside": float(err[~inside].sum()),
            "out_core": float(np.mean(np.any(np.abs(X) > T0 / 2, axis=1)))}


def compute(ctx) -> ExperimentResult:
    """Entry point of ``pcde_error_terms``: :func:`terms_trial` over laws and n; table and claims.

    Parameters
    ----------
    ctx : RunContext
        Profile, seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        Table ``terms`` (per law, d and n: both terms with 95% t-intervals, eq. (5)'s and eq. (7)'s bounds and
        their ratios); the claims of the module docstring; ``data["rows"]``.

    References
    ----------
    001 eq. (5)-(7); Theorem 2.4.

    Examples
    --------
    Seconds to minutes, so not run here:

    >>> from simulations.experiments.base import RunContext
    >>> result = compute(RunContext(profile="quick"))  # doctest: +SKIP
    """
    prof = PROFILES[ctx.profile]
    ns = [int(round(10 ** e)) for e in prof.log10_n]
    pts = [TermPoint(k, d, n) for k, d in LAWS for n in ns]
    res = run_trials(terms_trial, pts, prof.n_trials, version="pcde_error_terms/v1", **engine_options(ctx))
    c_star = sup_constant_ratio(EPSILON, DELTA)[0]
    rows = []
    for p, r in zip(pts, res.per_config):
        T = core_side(p.kind, p.d) + 2
        eq5 = T ** p.d * math.log(1 / DELTA) / (EPSILON * math.sqrt(p.n))
        i, o = t_interval(r["inside"]), t_interval(r["outside"])
        rows.append(dict(law=p.kind, d=p.d, n=p.n, T=T, inside=i[0], inside_ci_low=i[3], inside_ci_high=i[4],
                         inside_max=float(np.max(r["inside"])), eq5=eq5, inside_over_eq5=i[0] / eq5,
                         outside=o[0], outside_ci_low=o[3], outside_ci_high=o[4], eq7=TAU / EPSILON,
                         out_core=float(np.mean(r["out_core"])), values=np.asarray(r["inside"], dtype=float)))
    cols = {c: [row[c] for row in rows] for c in rows[0] if c != "values"}
    return ExperimentResult(tables={"terms": cols}, claims=_claims(rows, ns, c_star, ctx.seed), data={"rows": rows},
                            notes=(f"ε = {EPSILON}, δ = {DELTA:g}, τ = {TAU}; C* = {c_star:.4f} (Theorem 2.4's exact "
                                   f"constant); {prof.n_trials} samples per point, noise expectation exact.\n"))


def _claims(rows, ns, c_star, seed) -> list[Claim]:
    claims = []
    for kind, d in LAWS:
        sel = [r for r in rows if r["law"] == kind and r["d"] == d]
        worst = max(r["inside_max"] / (c_star * r["eq5"]) for r in sel)
        claims.append(Claim(
            f"001 eq. (5), {kind}, d = {d}: the in-𝒯 term E∫_𝒯|f_S − f̂_S| <= C* T^d ln(1/δ)/(ε√n) at every n and "
            f"sample (C* = {c_star:.3f}, Theorem 2.4's exact constant)", worst <= 1.0, 1.0, worst,
            f"largest in-𝒯 term / (C* T^d ln(1/δ)/(ε√n)) over n and samples {worst:.3g}; T = {sel[0]['T']:.4g}; "
            f"the constant eq. (5) hides (mean / T^d ln(1/δ)/(ε√n)): {sel[0]['inside_over_eq5']:.3g} at n = "
            f"{ns[0]:.0e}, {sel[-1]['inside_over_eq5']:.3g} at n = {ns[-1]:.0e}", kind="paper"))
    for kind, d in LAWS:
        sel = [r for r in rows if r["law"] == kind and r["d"] == d]
        top = max(sel, key=lambda r: r["outside_ci_high"])
        verdict = bound_verdict(c_star * TAU / EPSILON, top["outside_ci_low"], top["outside_ci_high"], 0.0,
                                side="at_most")
        claims.append(Claim(
            f"001 eq. (7), {kind}, d = {d}: the term outside 𝒯 is at most C* τ/ε (τ = {TAU}) at every n",
            holds_from(verdict), c_star * TAU / EPSILON, top["outside"],
            f"{verdict}: largest mean {top['outside']:.3g} (n = {top['n']:.0e}), 95% CI [{top['outside_ci_low']:.3g}, "
            f"{top['outside_ci_high']:.3g}] vs {c_star * TAU / EPSILON:.3g}; sample mass outside 𝒯_0 "
            f"{np.mean([r['out_core'] for r in sel]):.3g} (eq. (6): <= τ in expectation)", kind="paper"))
    last = [r for r in rows if r["n"] >= ns[-1] / 10 - 0.5]
    for kind, d in LAWS:
        sel = [r for r in last if r["law"] == kind and r["d"] == d]
        fit = fit_loglog_slope([r["n"] for r in sel], [r["values"] for r in sel],
                               rng=np.random.default_rng([seed, stable_key(f"pcde_terms/{kind}/{d}")]))
        verdict = bound_verdict(RATE + RATE_MARGIN, fit.ci_low, fit.ci_high, 0.0, side="at_most")
        claims.append(Claim(
            f"beyond 001 (eq. (5) is an upper bound): {kind}, d = {d}: the in-𝒯 term falls at least at eq. (5)'s rate "
            f"n^(-1/2) over the last decade (log-log slope <= {RATE + RATE_MARGIN})", holds_from(verdict),
            RATE, fit.slope, f"{verdict}: slope {fit.slope:.3f}, bootstrap 95% CI [{fit.ci_low:.3f}, {fit.ci_high:.3f}] "
            f"(margin {RATE_MARGIN}: a constant factor 1.26 over the decade)", kind="beyond"))
    return claims


def plot(result: ExperimentResult) -> dict:
    """Both terms against n per law (log-log, 95% bands), with eq. (5)'s and eq. (7)'s bounds.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute`.

    Returns
    -------
    dict
        ``{"pcde_error_terms": matplotlib.figure.Figure}`` (one panel per law and d).

    References
    ----------
    001 eq. (5)-(7).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from simulations.experiments.base import RunContext
    >>> figs = plot(compute(RunContext(profile="smoke")))
    >>> len(figs["pcde_error_terms"].axes)
    4
    >>> plt.close(figs["pcde_error_terms"])
    """
    rows = result.data["rows"]
    fig, axes = figure(2, 2, width=4.4, height=3.3,
                       title=f"001 eq. (5)-(7): PCDE's privacy error inside / outside the cube T (ε = {EPSILON}, δ = {DELTA:g}, "
                             f"τ = {TAU}; 95% CI over samples)")
    for ax, (kind, d) in zip(axes, LAWS):
        sel = [r for r in rows if r["law"] == kind and r["d"] == d]
        n = [r["n"] for r in sel]
        band(ax, n, [r["inside"] for r in sel], [r["inside_ci_low"] for r in sel], [r["inside_ci_high"] for r in sel],
             label="inside T", i=0)
        ax.plot(n, [r["eq5"] for r in sel], "--", color=color(0), label="T^d ln(1/δ)/(ε√n), eq. (5)")
        out = np.maximum([r["outside"] for r in sel], 1e-12)
        ax.plot(n, out, marker="s", ms=3, color=color(1), label="outside T (mean; 1e-12 = 0)")
        ax.axhline(TAU / EPSILON, ls=":", color=color(1), label="τ/ε, eq. (7)")
        ax.set(xscale="log", yscale="log", xlabel="n", ylabel="E ∫ |f_S − f̂_S| over the region",
               title=f"{kind}, d = {d}")
        ax.legend(fontsize=6)
    return {"pcde_error_terms": fig}


# Registered through simulations/experiments/catalogue.py ("pcde_error_terms").
