"""Rate experiment for regression with heavy-tailed labels under local and central label DP
(003 Theorems 9–12).

Law: the three-point law of 003 eq. (156) on the bump construction of eq. (121), ``T`` from
eq. (159), re-drawn at every N at the tuned scale. See :mod:`simulations.experiments.rates.machinery`.
"""

from __future__ import annotations

from simulations.experiments.rates.machinery import RateCase, compute_rate_study, plot_rate_study

CASES = [(d, b, p) for p in (2.0, 4.0) for d, b in ((1, 0.5), (1, 1.0), (2, 0.5), (2, 1.0))]  # local (k-NN)
CENTRAL_CASES = [(d, b, p) for p in (2.0, 4.0) for d in (1, 2, 3) for b in (0.5, 1.0)]  # count level
M_P = 4.0  # p-th moment of the three-point law: puts its atoms ±T beyond the estimators' clipping level
CENTRAL_EPS = 1e-4
#: (d, β, p) of the central cells run with 3x the count-level trials (issue 23): at the quick profile's 100
#: trials their slope CIs were ±0.013-0.018 (per-trial relative spread 0.85-0.99 at the smallest N, where a bin
#: holds few atoms ±T) around fits within 0.005 of the exponent, so the CI's ends met the band ±0.03 at some
#: root seeds (estimated P(inconclusive) 0.02-0.20 per seed); with 3x the half-widths are <= 0.011 and the band
#: holds the CI by >= 3.5 standard errors. Cost: about 11 CPU s more at the quick profile.
CENTRAL_MORE_TRIALS = {(1, 1.0, 2.0): 3, (2, 1.0, 2.0): 3, (1, 1.0, 4.0): 3}
#: (d, β, p) of the local (k-NN) cells run with more trials (issue 35): over root seeds 0-4 and the committed
#: seed their quick-profile slopes spread with standard errors 0.007-0.015 around fits 0.005-0.02 inside the band's
#: edge (±0.03), so the CI met the edge at some seeds and the verdict moved between reproduced and inconclusive.
#: The factor brings each cell's standard error to <= 0.005, below a fifth of that distance: x8 for the d = 1 cells
#: (exact sorted-line search, milliseconds per trial), x10 for d = 2, β = 1, p = 2 (slope about -0.345 over the
#: seeds, se 0.013 at 48 trials). Chosen from the spread of the fits, not from their verdicts.
LOCAL_MORE_TRIALS = {(1, 0.5, 2.0): 8, (1, 1.0, 2.0): 8, (1, 0.5, 4.0): 8, (1, 1.0, 4.0): 8, (2, 1.0, 2.0): 10}

_WHY = f"""
**Law.** 003 Appendix J/L: given x, `Y ∈ {{−T, 0, T}}` with `P(Y = ±T) = (M_p/T^p ± η_v(x)/T)/2`
(eq. (156)), so `E[Y|x] = η_v(x)` (bumps of eq. (121) on every cube of side h = 1/g, random signs)
and `E|Y|^p = M_p = {M_P:g}` (Assumption 3), with `T = (M_p h^{{-β}}/2)^{{1/(p−1)}}` (eq. (159)) growing
as N grows. Local (ε = 1): labels clipped at the tuned `T = (kε²)^{{1/(2p)}}`, plus Laplace(2T/ε), then
a k-NN mean with `k` from the balance of 003 eq. (180) (`limits.tuning`, derived variant; the
statement of Theorem 10 prints `(Nε²)^{{2pβ/(2pβ+d(p−1))}}`, equal at ε = 1), cube side
`(k/N)^{{1/d}}` = the lower-bound scale of eq. (162). Central (ε = {CENTRAL_EPS}): clipped bin means +
Laplace(2T/(n_l ε)) (eq. (28)), simulated exactly at count level (N = 10^6…10^10), with h pinned to the
privacy branch of eq. (195), `(εN)^{{-(p−1)/(pβ+d(p−1))}}` (Theorem 12's statement prints another
exponent for h, see `limits.discrepancies`; the rate exponents agree), and `T = (εN h^d)^{{1/p}}`;
bins = cubes; d ∈ {{1, 2, 3}}. **Why it shows the exponent:**
at these scales the law's atoms `T ≍ h^{{-β/(p−1)}}` and the estimator's clipping level grow at
the same rate (their ratio is `(M_p/2)^{{1/(p−1)}}`, so clipping is active and its bias, a fixed
fraction of η, is `≍ h^β`), the privacy noise `T²/(kε²)` (local) or `T²/(εn_l)²` (central) is
`≍ h^{{2β}}`, and the excess risk is a scale-free multiple of `h^{{2β}}`, i.e. the privacy terms
`(Nε²)^{{-2β(p−1)/(2pβ+d(p−1))}}` (local) and `(εN)^{{-2β(p−1)/(pβ+d(p−1))}}` (central). For p = 2 the
central privacy term has the non-private exponent 2β/(2β+d) (003 below Theorem 12).
"""


def _cases():
    local = [RateCase(algorithm="local_regression_heavy_tailed", d=d, beta=b, p=p, eps=1.0, M_p=M_P, term="privacy",
                      n_start=300.0 if d == 1 else 1000.0, trials_factor=LOCAL_MORE_TRIALS.get((d, b, p), 1))
             for d, b, p in CASES]
    central = [RateCase(algorithm="central_regression_heavy_tailed", d=d, beta=b, p=p, eps=CENTRAL_EPS, M_p=M_P,
                        term="privacy", branch="privacy", n_start=1e6, decades=4.0,
                        trials_factor=CENTRAL_MORE_TRIALS.get((d, b, p), 1)) for d, b, p in CENTRAL_CASES]
    return local + central


def compute(ctx):
    """Run the ``rates_heavy_tailed`` experiment: heavy-tailed regression (three-point law) under local (k-NN) and central (count-level bins) label DP, privacy-term slopes in N.

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
    003 Table 1 (heavy-tailed regression); Theorems 9–12, eqs. (25)-(27), (29); law and scales eqs. (156), (159), (180), (195).

    Examples
    --------
    The run takes minutes (``paper_repro.py --only rates_heavy_tailed``); an unknown profile is refused before
    any work:

    >>> from simulations.experiments.base import RunContext
    >>> compute(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    return compute_rate_study(ctx, "rates_heavy_tailed", _cases(), intro=_WHY)


def plot(result):
    """The ``rates_heavy_tailed`` figure: log–log excess risk vs N per case, fit and theory slope.

    Parameters
    ----------
    result : ExperimentResult
        Returned by ``compute`` (reads ``data["fits"]`` and ``data["name"]``).

    Returns
    -------
    dict of str to matplotlib.figure.Figure
        One figure, ``"rates_heavy_tailed"``
        (:func:`~simulations.experiments.rates.machinery.plot_rate_study`).

    References
    ----------
    003 Table 1 (heavy-tailed regression); Theorems 9–12, eqs. (25)-(27), (29); law and scales eqs. (156), (159), (180), (195).

    Examples
    --------
    On a one-case smoke study (the experiment itself takes minutes):

    >>> from simulations.experiments.base import RunContext
    >>> from simulations.experiments.rates.machinery import compute_rate_study
    >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=1000.0, term="privacy",
    ...                 branch="privacy")   # a tiny stand-in for the experiment's cases
    >>> res = compute_rate_study(RunContext(profile="smoke", progress=False), "rates_heavy_tailed", [case], intro="")
    >>> list(plot(res))
    ['rates_heavy_tailed']
    """
    title = ("Heavy-tailed labels (three-point law, 003 eq. (156)): rows 1–2 local (clip + Laplace + k-NN, ε = 1), "
             f"rows 3–5 central (clipped bin mean + Laplace, ε = {CENTRAL_EPS}, h = privacy branch)")
    return plot_rate_study(result, ncols=4, title=title)


# Registered through simulations/experiments/catalogue.py ("rates_heavy_tailed"): name, what it reproduces, report
# order.
