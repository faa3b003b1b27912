"""Rate experiments for classification under local and central label DP (003 Theorems 1–4).

Law: the 003 construction of Appendix B / D (eqs. (36)-(37)), re-drawn at every N with cubes of
the tuned bin width, ``C_M h^{γβ−d}`` bumps with random signs, K = 2, γ = 1. See
:mod:`simulations.experiments.rates.machinery` for the design.
"""

from __future__ import annotations

from simulations.experiments.rates.machinery import RateCase, compute_rate_study, plot_rate_study

CASES_DB = [(d, b) for d in (1, 2, 3) for b in (0.5, 1.0)]  # (d, β)
C_M = 2.0  # bumps constant of 003 eq. (37); <= g^{γβ} at every grid point so all m bumps fit
CENTRAL_EPS = 1e-4  # N = 10^6..10^10 gives εN = 10^2..10^6 with the non-private term below 2% of the risk ...
CENTRAL_EPS_D1B1 = 1e-5  # ... except d = 1, β = 1: there the bin majority's own error reached 10% at ε = 1e-4


def _central_eps(d, beta):
    """ε of a central case: 1e-4, or 1e-5 for (d, β) = (1, 1), where the majority's error on the same
    counts decays slowest relative to the privacy term (``N h^{2β+d} ∝ ε^{-1} (εN)^{-β/(β+d)}``)."""
    return CENTRAL_EPS_D1B1 if (d, beta) == (1, 1.0) else CENTRAL_EPS

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
**Law.** 003 Appendix D construction (the same bumps as Appendix B), re-drawn at the bin width,
K = 2, γ = 1, C_M = 2, ε = {CENTRAL_EPS} ({CENTRAL_EPS_D1B1} for d = 1, β = 1: at 1e-4 the bin majority's own error
reached 10% of the risk there), simulated exactly at count level (cost independent of N),
so N runs over 10^6…10^10 and εN over four decades. **Two curves per (d, β).** (1) *Privacy
branch*: the bin width pinned to `h = (ln K/(εN))^{{1/(β+d)}}`, the privacy branch of Theorem 4's
tuning and the lower-bound scale of eq. (100)-(101), where `ε n_l h^β` (the exponential mechanism's
margin in a cube) is of order 1, so each bump is lost with a fixed probability and the excess risk
scales as `h^{{β(γ+1)}}`, the privacy term `(εN)^{{-β(γ+1)/(β+d)}}`; the non-private part (the bin
majority's error on the same counts) is measured and reported (table `risk_terms`). (2) *Theorem 4's
own tuning* `h = (ln K/(εN))^{{1/(β+d)}} + (ln K/N)^{{1/(2β+d)}}`: its slope is not a single exponent,
so it is compared with the local slope of the theorem's own expected risk over the same grid (bias² = 0
on aligned bins; sampling and privacy from the normal approximation of the counts,
`simulations.experiments.rates.terms.expected_terms`).
"""


def _local_cases():
    return [RateCase(algorithm="local_classification", d=d, beta=b, gamma=1.0, eps=1.0, C_M=C_M,
                     n_start=300.0 if d == 1 else 1000.0) for d, b in CASES_DB]


def _central_cases():
    pinned = [RateCase(algorithm="central_classification", d=d, beta=b, gamma=1.0, eps=_central_eps(d, b), C_M=C_M,
                       term="privacy", branch="privacy", n_start=1e6, decades=4.0) for d, b in CASES_DB]
    tuned = [RateCase(algorithm="central_classification", d=d, beta=b, gamma=1.0, eps=_central_eps(d, b), C_M=C_M,
                      term="privacy", reference="predicted", n_start=1e6, decades=4.0) for d, b in CASES_DB]
    return pinned + tuned


def compute_local(ctx):
    """Run the ``rates_local_classification`` experiment: local label DP classification (vector mechanism + bins, ε = 1), the slope of the excess risk in N against ``−β(γ+1)/(2β+d)``.

    Parameters
    ----------
    ctx : RunContext
        Profile, root seed, executor and cache of the run.

    Returns
    -------
    ExperimentResult
        Tables ``excess_vs_N``, ``slopes`` (and ``risk_terms`` for count-level cases), one claim per case
        on the slope (and one on 003's printed exponent where it differs), the notes
        (:func:`~simulations.experiments.rates.machinery.compute_rate_study`).

    Raises
    ------
    ValueError
        If ``ctx.profile`` is not ``"smoke"``, ``"quick"`` or ``"paper"``.

    References
    ----------
    003 Table 1 (classification, local); Theorems 1–2, eqs. (10), (14); construction eqs. (36)-(37).

    Examples
    --------
    The run takes minutes (``paper_repro.py --only rates_local_classification``); an unknown profile is refused before
    any work:

    >>> from simulations.experiments.base import RunContext
    >>> compute_local(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    return compute_rate_study(ctx, "rates_local_classification", _local_cases(), intro=_WHY_LOCAL)


def compute_central(ctx):
    """Run the ``rates_central_classification`` experiment: central label DP classification (exponential mechanism per bin), privacy-branch slopes against ``−β(γ+1)/(β+d)`` and Theorem 4's own tuning against its three-term prediction.

    Parameters
    ----------
    ctx : RunContext
        Profile, root seed, executor and cache of the run.

    Returns
    -------
    ExperimentResult
        Tables ``excess_vs_N``, ``slopes`` (and ``risk_terms`` for count-level cases), one claim per case
        on the slope (and one on 003's printed exponent where it differs), the notes
        (:func:`~simulations.experiments.rates.machinery.compute_rate_study`).

    Raises
    ------
    ValueError
        If ``ctx.profile`` is not ``"smoke"``, ``"quick"`` or ``"paper"``.

    References
    ----------
    003 Table 1 (classification, central); Theorems 3–4, eqs. (16), (18); construction eqs. (36)-(37), (100)-(101).

    Examples
    --------
    The run takes minutes (``paper_repro.py --only rates_central_classification``); an unknown profile is refused before
    any work:

    >>> from simulations.experiments.base import RunContext
    >>> compute_central(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    return compute_rate_study(ctx, "rates_central_classification", _central_cases(), intro=_WHY_CENTRAL)


def plot_local(result):
    """The ``rates_local_classification`` figure: log–log excess risk vs N per case, fit and theory slope.

    Parameters
    ----------
    result : ExperimentResult
        Returned by ``compute`` (reads ``data["fits"]`` and ``data["name"]``).

    Returns
    -------
    dict of str to matplotlib.figure.Figure
        One figure, ``"rates_local_classification"``
        (:func:`~simulations.experiments.rates.machinery.plot_rate_study`).

    References
    ----------
    003 Table 1 (classification, local); Theorems 1–2, eqs. (10), (14); construction eqs. (36)-(37).

    Examples
    --------
    On a one-case smoke study (the experiment itself takes minutes):

    >>> from simulations.experiments.base import RunContext
    >>> from simulations.experiments.rates.machinery import compute_rate_study
    >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=1000.0, term="privacy",
    ...                 branch="privacy")   # a tiny stand-in for the experiment's cases
    >>> res = compute_rate_study(RunContext(profile="smoke", progress=False), "rates_local_classification", [case], intro="")
    >>> list(plot_local(res))
    ['rates_local_classification']
    """
    return plot_rate_study(result, ncols=2, title="Local label DP classification (vector mechanism + bins, ε = 1): "
                                                  "excess risk vs N on the 003 construction")


def plot_central(result):
    """The ``rates_central_classification`` figure: log–log excess risk vs N per case, fit and theory slope.

    Parameters
    ----------
    result : ExperimentResult
        Returned by ``compute`` (reads ``data["fits"]`` and ``data["name"]``).

    Returns
    -------
    dict of str to matplotlib.figure.Figure
        One figure, ``"rates_central_classification"``
        (:func:`~simulations.experiments.rates.machinery.plot_rate_study`).

    References
    ----------
    003 Table 1 (classification, central); Theorems 3–4, eqs. (16), (18); construction eqs. (36)-(37), (100)-(101).

    Examples
    --------
    On a one-case smoke study (the experiment itself takes minutes):

    >>> from simulations.experiments.base import RunContext
    >>> from simulations.experiments.rates.machinery import compute_rate_study
    >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=1000.0, term="privacy",
    ...                 branch="privacy")   # a tiny stand-in for the experiment's cases
    >>> res = compute_rate_study(RunContext(profile="smoke", progress=False), "rates_central_classification", [case], intro="")
    >>> list(plot_central(res))
    ['rates_central_classification']
    """
    title = (f"Central label DP classification (exponential mechanism per bin, ε = {CENTRAL_EPS}, {CENTRAL_EPS_D1B1} "
             "at d=1 β=1): excess risk vs N on the 003 construction")
    return plot_rate_study(result, ncols=3, title=title)


# Registered through simulations/experiments/catalogue.py ("rates_local_classification",
# "rates_central_classification"): name, what it reproduces, report order.
