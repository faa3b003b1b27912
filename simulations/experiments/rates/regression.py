"""Rate experiments for regression with bounded labels under local and central label DP
(003 Theorems 5–8).

Law: the 003 construction of Appendix F / H (eq. (121)): every cube of side ``h = 1/g`` carries a
bump with a random sign, labels ``Y = ±1`` with ``E[Y | x] = η_v(x)`` (so Assumption 2 holds with
T = 1). See :mod:`simulations.experiments.rates.machinery` for the design.
"""

from __future__ import annotations

from simulations.experiments.rates.machinery import RateCase, compute_rate_study, plot_rate_study

CASES_DB = [(1, 0.5), (1, 1.0), (2, 0.5), (2, 1.0)]  # (d, β) of the local (k-NN, point-level) cases
CENTRAL_DB = [(d, b) for d in (1, 2, 3) for b in (0.5, 1.0)]  # count-level central cases
CENTRAL_EPS = 1e-4  # N = 10^6..10^10 gives εN = 10^2..10^6 with the non-private term below 2% of the risk

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
**Law.** 003 Appendix H construction (the bumps of eq. (121) on every cube, labels ±1), re-drawn at
the bin width; the estimator is the bin mean + Laplace(2/(n_l ε)) of eq. (23), ε = {CENTRAL_EPS},
simulated exactly at count level (N = 10^6…10^10, εN over four decades); the excess risk is exact.
**Two curves per (d, β).** (1) *Privacy branch*: `h = (εN)^{{-1/(d+β)}}`, the privacy branch of
eq. (154) and the lower-bound scale of 003 Appendix H: there the Laplace noise `8/(n_l ε)²` and the
within-cell variance of η are both `≍ h^{{2β}}` while the sampling term `1/(N h^d)` is below 2% of the
risk (measured, table `risk_terms`), so the slope is the privacy exponent `2β/(d+β)` of Theorems 7–8;
003 Table 1 prints `(εN)^{{-2β/(d+2β)}}`, which the second claim of each case excludes by many standard
errors (for d = 1, β = 1: −1 against −2/3). (2) *Theorem 8's own tuning*
`h = N^{{-1/(2β+d)}} + (εN)^{{-1/(d+β)}}`: its slope drifts between the branches, so it is compared with
the local slope of its own three-term expected risk (bias² exact from the law, sampling
`∑ Var(Y|B_l)/N`, privacy `8T²/(εN h^d)²`) over the same grid, not with a rate exponent.
"""


#: (d, β) of the local (k-NN) cells run with more trials (issue 35): the d = 1, β = 1 slope spread with standard
#: error 0.009 over root seeds 0-4 and the committed seed, fits up to 0.015 inside the band's edge (±0.03), so its
#: verdict moved between reproduced and inconclusive; x4 brings the standard error to about 0.0045. Chosen from the
#: spread of the fits (all d = 1 cells: the sorted-line search costs milliseconds per trial), not their verdicts.
LOCAL_MORE_TRIALS = {(1, 0.5): 4, (1, 1.0): 4}


def _local_cases():
    return [RateCase(algorithm="local_regression", d=d, beta=b, eps=1.0, n_start=300.0 if d == 1 else 1000.0,
                     trials_factor=LOCAL_MORE_TRIALS.get((d, b), 1)) for d, b in CASES_DB]


def _central_cases():
    pinned = [RateCase(algorithm="central_regression", d=d, beta=b, eps=CENTRAL_EPS, term="privacy",
                       branch="privacy", n_start=1e6, decades=4.0) for d, b in CENTRAL_DB]
    tuned = [RateCase(algorithm="central_regression", d=d, beta=b, eps=CENTRAL_EPS, term="privacy",
                      reference="predicted", n_start=1e6, decades=4.0) for d, b in CENTRAL_DB]
    return pinned + tuned


def compute_local(ctx):
    """Run the ``rates_local_regression`` experiment: local label DP regression (Laplace labels + k-NN, ε = 1), the slope in N against ``−2β/(2β+d)``.

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
    003 Table 1 (regression, local); Theorems 5–6, eqs. (19), (21); construction eq. (121).

    Examples
    --------
    The run takes minutes (``paper_repro.py --only rates_local_regression``); an unknown profile is refused before
    any work:

    >>> from simulations.experiments.base import RunContext
    >>> compute_local(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    return compute_rate_study(ctx, "rates_local_regression", _local_cases(), intro=_WHY_LOCAL)


def compute_central(ctx):
    """Run the ``rates_central_regression`` experiment: central label DP regression (bin mean + Laplace), privacy-branch slopes against ``−2β/(d+β)`` (and 003's printed ``−2β/(d+2β)`` excluded), Theorem 8's own tuning against its three-term prediction.

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
    003 Table 1 (regression, central; printed ``2β/(d+2β)`` vs derived ``2β/(d+β)``); Theorems 7–8, eqs. (22)-(24), (154); construction eq. (121).

    Examples
    --------
    The run takes minutes (``paper_repro.py --only rates_central_regression``); an unknown profile is refused before
    any work:

    >>> from simulations.experiments.base import RunContext
    >>> compute_central(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    return compute_rate_study(ctx, "rates_central_regression", _central_cases(), intro=_WHY_CENTRAL)


def plot_local(result):
    """The ``rates_local_regression`` figure: log–log excess risk vs N per case, fit and theory slope.

    Parameters
    ----------
    result : ExperimentResult
        Returned by ``compute`` (reads ``data["fits"]`` and ``data["name"]``).

    Returns
    -------
    dict of str to matplotlib.figure.Figure
        One figure, ``"rates_local_regression"``
        (:func:`~simulations.experiments.rates.machinery.plot_rate_study`).

    References
    ----------
    003 Table 1 (regression, local); Theorems 5–6, eqs. (19), (21); construction eq. (121).

    Examples
    --------
    On a one-case smoke study (the experiment itself takes minutes):

    >>> from simulations.experiments.base import RunContext
    >>> from simulations.experiments.rates.machinery import compute_rate_study
    >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=1000.0, term="privacy",
    ...                 branch="privacy")   # a tiny stand-in for the experiment's cases
    >>> res = compute_rate_study(RunContext(profile="smoke", progress=False), "rates_local_regression", [case], intro="")
    >>> list(plot_local(res))
    ['rates_local_regression']
    """
    return plot_rate_study(result, ncols=2, title="Local label DP regression (Laplace labels + k-NN, ε = 1): "
                                                  "excess risk vs N on the 003 construction")


def plot_central(result):
    """The ``rates_central_regression`` figure: log–log excess risk vs N per case, fit and theory slope.

    Parameters
    ----------
    result : ExperimentResult
        Returned by ``compute`` (reads ``data["fits"]`` and ``data["name"]``).

    Returns
    -------
    dict of str to matplotlib.figure.Figure
        One figure, ``"rates_central_regression"``
        (:func:`~simulations.experiments.rates.machinery.plot_rate_study`).

    References
    ----------
    003 Table 1 (regression, central; printed ``2β/(d+2β)`` vs derived ``2β/(d+β)``); Theorems 7–8, eqs. (22)-(24), (154); construction eq. (121).

    Examples
    --------
    On a one-case smoke study (the experiment itself takes minutes):

    >>> from simulations.experiments.base import RunContext
    >>> from simulations.experiments.rates.machinery import compute_rate_study
    >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=1000.0, term="privacy",
    ...                 branch="privacy")   # a tiny stand-in for the experiment's cases
    >>> res = compute_rate_study(RunContext(profile="smoke", progress=False), "rates_central_regression", [case], intro="")
    >>> list(plot_central(res))
    ['rates_central_regression']
    """
    return plot_rate_study(result, ncols=3, title=f"Central label DP regression (bin mean + Laplace, "
                                                  f"ε = {CENTRAL_EPS}): excess risk vs N on the 003 construction")


# Registered through simulations/experiments/catalogue.py ("rates_local_regression", "rates_central_regression"):
# name, what it reproduces, report order.
