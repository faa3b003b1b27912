"""Rate experiments for regression with bounded labels under local and central label DP
(003 Theorems 5–8).

Law: the 003 construction of Appendix F / H (eq. (121)): every cube of side ``h = 1/g`` carries a
bump with a random sign, labels ``Y = ±1`` with ``E[Y | x] = η_v(x)`` (so Assumption 2 holds with
T = 1). See :mod:`simulations.experiments.rates` for the design.
"""

from __future__ import annotations

from simulations.experiments.base import Experiment, register
from simulations.experiments.rates import RateCase, compute_rate_study, plot_rate_study

CASES_DB = [(1, 0.5), (1, 1.0), (2, 0.5), (2, 1.0)]  # (d, β)
CENTRAL_EPS = 0.01  # small enough that the privacy term (εN)^{-2β/(d+β)} dominates the range

_WHY_LOCAL = """
**Law.** 003 Appendix F construction (eq. (121)): uniform features, a bump `h^β φ((x−c)/h)`
with a random sign on *every* cube of side `h = 1/g`, labels ±1 with mean η_v, ε = 1. The
estimator of 003 Theorem 6 (labels + Laplace(2T/ε), T = 1, then a k-NN mean) uses
`k = N^{2β/(d+2β)} (ε∧1)^{-2d/(d+2β)}` (eq. (141), constants 1), and the cube side is set to
`(k/N)^{1/d}`, which is the lower-bound scale of eq. (128). **Why it shows the exponent:** a
neighbourhood then covers about one bump, so the k-NN bias is a fixed fraction of `h^β` and the
variance `(Var Y + 8T²/ε²)/k ≍ h^{2β}` too: the mean squared error per point is a scale-free
multiple of `h^{2β}` = `(N(ε∧1)²)^{-2β/(d+2β)}`. With constants 1 the Laplace variance term is
the larger one (about 9/k against a bias² below h^{2β}), so the slope mostly checks `1/k`
together with the fact that the bias does not grow relative to it. The excess risk is the mean of
`(η̂ − η)²` over uniform points (4096 per trial in the paper profile; EVAL stream): unbiased, its Monte Carlo error is
inside the trial-to-trial spread and hence the CI.
"""

_WHY_CENTRAL = f"""
**Law.** 003 Appendix H construction (the bumps of eq. (121) on every cube, labels ±1),
re-drawn at the bin width of 003 Theorem 8, `h = N^{{-1/(2β+d)}} + (εN)^{{-1/(d+β)}}` (eq. (154),
constants 1), with ε = {CENTRAL_EPS}; the estimator is the bin mean + Laplace(2/(n_l ε)) of eq. (23);
the excess risk is exact (per-cell integrals of η and η²). **Why it shows the exponent:** the
privacy branch of h is the lower-bound scale of 003 Appendix H (eq. (101)): there the Laplace
noise `8/(n_l ε)²` and the within-cell variance of η are both `≍ h^{{2β}}`, so the excess risk
scales as `(εN)^{{-2β/(d+β)}}` (003 Theorems 7–8; Table 1 prints `(εN)^{{-2β/(d+2β)}}`, which
this experiment can tell apart: for d = 1, β = 1 the two are −1 and −2/3). The non-private branch
of h still contributes at this ε (column "implied by tuning").
"""


def _local_cases():
    return [RateCase(algorithm="local_regression", d=d, beta=b, eps=1.0, n_start=300.0 if d == 1 else 1000.0)
            for d, b in CASES_DB]


def _central_cases():
    return [RateCase(algorithm="central_regression", d=d, beta=b, eps=CENTRAL_EPS, term="privacy",
                     n_start=1e4 if d == 1 else 3e4) for d, b in CASES_DB]


def compute_local(ctx):
    return compute_rate_study(ctx, "rates_local_regression", _local_cases(), intro=_WHY_LOCAL)


def compute_central(ctx):
    return compute_rate_study(ctx, "rates_central_regression", _central_cases(), intro=_WHY_CENTRAL)


register(Experiment(
    name="rates_local_regression",
    reproduces="003 Table 1 (regression, bounded noise, local label DP): (N(ε²∧1))^{-2β/(d+2β)}, Theorems 5–6",
    compute=compute_local,
    plot=lambda r: plot_rate_study(r, ncols=2, title="Local label DP regression (Laplace labels + k-NN, ε = 1): "
                                                     "excess risk vs N on the 003 construction"),
    order=22,
))

register(Experiment(
    name="rates_central_regression",
    reproduces="003 Theorems 7–8 (regression, bounded noise, central label DP): privacy term (εN)^{-2β/(d+β)}",
    compute=compute_central,
    plot=lambda r: plot_rate_study(r, ncols=2, title=f"Central label DP regression (bin mean + Laplace, "
                                                     f"ε = {CENTRAL_EPS}): excess risk vs N on the 003 construction"),
    order=23,
))
