"""Rate experiments for classification under local and central label DP (003 Theorems 1–4).

Law: the 003 construction of Appendix B / D (eqs. (36)-(37)), re-drawn at every N with cubes of
the tuned bin width, ``C_M h^{γβ−d}`` bumps with random signs, K = 2, γ = 1. See
:mod:`simulations.experiments.rates` for the design.
"""

from __future__ import annotations

from simulations.experiments.base import Experiment, register
from simulations.experiments.rates import RateCase, compute_rate_study, plot_rate_study

CASES_DB = [(1, 0.5), (1, 1.0), (2, 0.5), (2, 1.0)]  # (d, β)
C_M = 2.0  # bumps constant of 003 eq. (37); <= g^{γβ} at every grid point so all m bumps fit
CENTRAL_EPS = 0.01  # small enough that the privacy term (εN)^{-β(γ+1)/(β+d)} dominates the range

_WHY_LOCAL = """
**Law.** 003 Appendix B construction (eq. (36)): uniform features on [0,1]^d, `C_M h^{γβ−d}`
bumps (C_M = 2, eq. (37), so the margin condition holds with γ = 1) of height `h^β` on cubes of
side `h = 1/g`, random cubes and signs per trial, K = 2, ε = 1. The vector-mechanism histogram of
003 Theorem 2 uses bins equal to the cubes, its width `h = (N(ε²∧1)/ln K)^{-1/(2β+d)}` (the
theorem's tuning, constants 1). **Why it shows the exponent:** this width is also the
lower-bound scale of eq. (49), so in each cube the privatized bin sum has a signal-to-noise ratio
`≍ (N h^{2β+d} ε²)^{1/2}` that does not change with N; each bump is misclassified with a fixed
probability, and the excess risk, `m h^{β+d} ‖φ‖₁ P(wrong)`, scales as `h^{β(γ+1)}` = the
rate `(Nε²)^{-β(γ+1)/(2β+d)}`. A fixed smooth law would converge faster than this worst case.
"""

_WHY_CENTRAL = f"""
**Law.** 003 Appendix D construction (the same bumps as Appendix B), re-drawn at the bin width
of 003 Theorem 4, `h = (ln K/(εN))^{{1/(β+d)}} + (ln K/N)^{{1/(2β+d)}}`, with ε = {CENTRAL_EPS} so that
the privacy branch dominates; K = 2, γ = 1, C_M = 2. **Why it shows the exponent:** the privacy
branch is the lower-bound scale of eq. (100)-(101), where `ε n_l h^β` (the exponential
mechanism's margin in a cube) is of order 1, so each bump is lost with a fixed probability and
the excess risk scales as `h^{{β(γ+1)}}`, i.e. as the privacy term `(εN)^{{-β(γ+1)/(β+d)}}` (the
theory slope below). The non-private branch of h still contributes at this ε, which the
"implied by tuning" column quantifies; as N → ∞ at fixed ε the non-private term would take over
(see `rates_eps_collapse`).
"""


def _local_cases():
    return [RateCase(algorithm="local_classification", d=d, beta=b, gamma=1.0, eps=1.0, C_M=C_M,
                     n_start=300.0 if d == 1 else 1000.0) for d, b in CASES_DB]


def _central_cases():
    return [RateCase(algorithm="central_classification", d=d, beta=b, gamma=1.0, eps=CENTRAL_EPS, C_M=C_M,
                     term="privacy", n_start=1e4 if d == 1 else 3e4) for d, b in CASES_DB]


def compute_local(ctx):
    return compute_rate_study(ctx, "rates_local_classification", _local_cases(), intro=_WHY_LOCAL)


def compute_central(ctx):
    return compute_rate_study(ctx, "rates_central_classification", _central_cases(), intro=_WHY_CENTRAL)


register(Experiment(
    name="rates_local_classification",
    reproduces="003 Table 1 (classification, local label DP): excess risk ≍ (N(ε²∧1))^{-β(γ+1)/(2β+d)}, Theorems 1–2",
    compute=compute_local,
    plot=lambda r: plot_rate_study(r, ncols=2, title="Local label DP classification (vector mechanism + bins, ε = 1): "
                                            "excess risk vs N on the 003 construction"),
    order=20,
))

register(Experiment(
    name="rates_central_classification",
    reproduces="003 Table 1 (classification, central label DP): privacy term (εN)^{-β(γ+1)/(β+d)}, Theorems 3–4",
    compute=compute_central,
    plot=lambda r: plot_rate_study(r, ncols=2, title=f"Central label DP classification (exponential mechanism per bin, "
                                            f"ε = {CENTRAL_EPS}): excess risk vs N on the 003 construction"),
    order=21,
))
