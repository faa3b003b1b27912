"""Slope fits and verdicts of the rate experiments: the fitted case, its claims and its report tables.

Every verdict comes from the suite's one decision rule, :func:`simulations.stats.interval_verdict`,
applied to the slope's bootstrap 95% CI with the profile's margin
(:attr:`simulations.experiments.rates.machinery.Profile.margin`, justified there):

* "the N-exponent is a" (the derived exponent, or the three-term prediction) holds when the CI lies
  inside ``a ± margin``, fails when the CI is disjoint from that band, and is inconclusive
  otherwise (``Claim.holds`` None);
* "003's printed exponent p is excluded" holds when the CI is disjoint from ``p ± margin``, fails
  when the CI lies inside it, and is inconclusive otherwise.

The same interval and the same margin decide accepting and excluding, so neither verdict is
favoured (before issue 23 the first claim used the CI widened by the margin and the second the
plain CI, which leaned both ways towards the expected verdict). The distance in standard errors of
each exponent from the fit is reported next to the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulations.experiments.base import Claim
from simulations.experiments.rates.cases import RateCase
from simulations.experiments.rates.terms import TERMS
from simulations.seeding import EVAL, stream
from simulations.stats import EXCLUDED, HOLDS, SlopeFit, fit_loglog_slope, holds_from, interval_verdict, t_interval


__all__ = ["PRINTED_FINDINGS", "CaseFit", "case_claims", "diagnose", "fit_case", "printed_finding", "slope_table_markdown",
           "terms_table"]


def _ols(x, y) -> float:
    x, y = np.log(np.asarray(x, float)), np.asarray(y, float)
    return float(np.polyfit(x, y, 1)[0])


@dataclass(frozen=True, slots=True)
class CaseFit:
    """One fitted case of a rate experiment: per-N means with 95% t-intervals, the log-log slope with its
    bootstrap 95% CI, the reference slope and (where it differs) 003's printed one, the diagnostics, and
    the verdicts :attr:`verdict` / :attr:`printed_verdict` of the one rule with margin ``margin``.
    Built by :func:`fit_case`; slopes are negative (``−exponent``). Frozen; nothing is validated here.

    Parameters
    ----------
    case : RateCase
        The curve fitted.
    N, g : numpy.ndarray, shape (n,)
        Sample sizes and cubes per axis of the grid points.
    mean, ci_low, ci_high : numpy.ndarray, shape (n,)
        Per-point mean excess risk and its 95% t-interval.
    slope, intercept : float
        Log-log least-squares fit (NaN when a mean is 0).
    slope_low, slope_high : float
        Bootstrap 95% CI of the slope.
    theory : float
        The reference slope (negative): −exponent, or the predicted three-term slope.
    implied : float
        OLS slope of ``−θ log g`` on ``log N`` (the slope the tuning alone implies).
    upper_half : float
        OLS slope over the larger half of the grid.
    trials : int
        Trials per point.
    margin : float, default 0.0
        Equivalence margin of both verdicts (``Profile.margin``).
    printed : float or None, default None
        −(003's printed exponent) where it differs from the derived one.
    terms : dict of str to numpy.ndarray or None, default None
        Term -> per-point mean (count-level cases).
    predicted_terms : dict of str to numpy.ndarray or None, default None
        Term -> per-point predicted value (reference ``"predicted"``).

    References
    ----------
    003 Table 1 and Theorems 7-8 (central regression privacy term: derived ``2β/(d+β)``, printed
    ``2β/(d+2β)``); docs/design.md, "Experiments and their outputs" (verdicts from intervals).

    Examples
    --------
    A noise-free curve ``excess = 1/N`` (two equal trials per point) at ``N = g²``: the slope is −1
    exactly and its bootstrap CI is the single point −1.

    >>> from simulations.experiments.rates.cases import RateCase, RatePoint
    >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
    >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
    >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo", margin=0.02)
    >>> f.slope_low == f.slope_high, round(f.slope, 6), f.theory, round(f.printed, 6), round(f.decades, 4)
    (True, -1.0, -1.0, -0.666667, 1.2041)
    >>> f.verdict, f.printed_verdict
    ('holds', 'excluded')
    """

    case: RateCase
    N: np.ndarray
    g: np.ndarray
    mean: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    slope: float
    intercept: float
    slope_low: float
    slope_high: float
    theory: float  # expected slope (negative): −exponent, or the predicted three-term slope
    implied: float  # slope of −θ log g on log N
    upper_half: float  # OLS slope over the larger half of the grid
    trials: int
    margin: float = 0.0  # equivalence margin of both verdicts (Profile.margin)
    printed: float | None = None  # −(003's printed exponent) where it differs from the derived one
    terms: dict | None = None  # term -> per-point mean (count-level cases)
    predicted_terms: dict | None = None  # term -> per-point predicted value (reference "predicted")

    @property
    def se(self) -> float:
        """Standard error of the slope from the bootstrap 95% interval (half-width / 1.96).

        Returns
        -------
        float
            ``(slope_high − slope_low) / (2 · 1.959964)``.

        Examples
        --------
        >>> from simulations.experiments.rates.cases import RateCase, RatePoint
        >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
        >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
        >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo", margin=0.02)
        >>> from dataclasses import replace
        >>> round(replace(f, slope_low=-1.0392, slope_high=-0.9608).se, 5)   # 0.0784 / 3.919928
        0.02
        """
        return (self.slope_high - self.slope_low) / (2.0 * 1.959964)

    @property
    def verdict(self) -> str:
        """The reference slope against the CI: ``interval_verdict(theory, CI, margin)``.

        Returns
        -------
        str
            ``"holds"`` (CI inside ``theory ± margin``), ``"excluded"`` (disjoint from it) or
            ``"inconclusive"``.

        Examples
        --------
        >>> from simulations.experiments.rates.cases import RateCase, RatePoint
        >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
        >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
        >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo", margin=0.02)
        >>> from dataclasses import replace
        >>> f.verdict, replace(f, slope_low=-1.05, slope_high=-0.99).verdict   # band [-1.02, -0.98]
        ('holds', 'inconclusive')
        """
        return interval_verdict(self.theory, self.slope_low, self.slope_high, self.margin)

    @property
    def printed_verdict(self) -> str | None:
        """003's printed slope against the same CI and margin (None where it equals the derived one).

        Returns
        -------
        str or None
            ``interval_verdict(printed, CI, margin)``, or None without a printed slope.

        Examples
        --------
        >>> from simulations.experiments.rates.cases import RateCase, RatePoint
        >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
        >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
        >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo", margin=0.02)
        >>> f.printed_verdict   # CI [-1, -1] is disjoint from -2/3 ± 0.02
        'excluded'
        """
        return None if self.printed is None else interval_verdict(self.printed, self.slope_low, self.slope_high,
                                                                   self.margin)

    @property
    def holds(self) -> bool | None:
        """``Claim.holds`` of "the N-exponent is the reference": True / False / None (inconclusive).

        Returns
        -------
        bool or None
            From :attr:`verdict` through :func:`simulations.stats.holds_from`.

        Examples
        --------
        >>> from simulations.experiments.rates.cases import RateCase, RatePoint
        >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
        >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
        >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo", margin=0.02)
        >>> f.holds
        True
        """
        return holds_from(self.verdict)

    @property
    def printed_excluded(self) -> bool | None:
        """``Claim.holds`` of "003's printed exponent is excluded": True when the rule excludes it, False
        when it confirms it, None when inconclusive or when there is no printed exponent to test.

        Returns
        -------
        bool or None
            From :attr:`printed_verdict` with the claim "excluded".

        Examples
        --------
        >>> from simulations.experiments.rates.cases import RateCase, RatePoint
        >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
        >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
        >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo", margin=0.02)
        >>> f.printed_excluded
        True
        """
        return None if self.printed is None else holds_from(self.printed_verdict, claim_is=EXCLUDED)

    def z(self, value: float) -> float:
        """``(slope − value)/se``: by how many standard errors ``value`` is away from the fitted slope.

        Parameters
        ----------
        value : float
            A reference slope (e.g. :attr:`theory` or :attr:`printed`).

        Returns
        -------
        float
            The distance in standard errors; ``inf`` when ``se`` is 0.

        Examples
        --------
        >>> from simulations.experiments.rates.cases import RateCase, RatePoint
        >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
        >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
        >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo", margin=0.02)
        >>> from dataclasses import replace
        >>> round(replace(f, slope_low=-1.0392, slope_high=-0.9608).z(-2 / 3), 2)   # (−1 + 2/3) / 0.02
        -16.67
        >>> f.z(-2 / 3)   # the CI is a point: se = 0
        inf
        """
        return (self.slope - value) / self.se if self.se > 0 else float("inf")

    @property
    def decades(self) -> float:
        """Decades of N spanned by the grid.

        Returns
        -------
        float
            ``log10(N[-1] / N[0])``.

        Examples
        --------
        >>> from simulations.experiments.rates.cases import RateCase, RatePoint
        >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
        >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
        >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo", margin=0.02)
        >>> round(f.decades, 4)   # log10(1600 / 100)
        1.2041
        """
        return float(np.log10(self.N[-1] / self.N[0]))


def fit_case(case: RateCase, points, values, *, seed: int, key: str, margin: float = 0.0, terms=None,
             predicted=None) -> CaseFit:
    """Slope fit with bootstrap CI and the diagnostics of one case.

    Parameters
    ----------
    case : RateCase
        The curve.
    points : sequence of RatePoint, length n >= 2
        The grid (reads ``N`` and ``g``).
    values : sequence of array_like, length n
        Per point, the trials' excess risks (the same number of trials at every point, >= 1).
    seed : int
        Root seed; the bootstrap draws from the stream ``slope/<key>``.
    key : str
        Stream key of the case (unique within the run).
    margin : float, default 0.0
        Equivalence margin of the verdicts.
    terms : sequence of dict or None, default None
        Per point, term -> per-trial array (count-level cases).
    predicted : sequence of dict or None, default None
        Per point, term -> predicted value; required when ``case.reference == "predicted"`` (the
        theory slope is then the OLS slope of their sum).

    Returns
    -------
    CaseFit
        Slope NaN (and no bootstrap) when a point's mean is 0.

    References
    ----------
    003 Table 1 and Theorems 7-8 (central regression privacy term: derived ``2β/(d+β)``, printed
    ``2β/(d+2β)``); docs/design.md, "Experiments and their outputs" (verdicts from intervals).

    Examples
    --------
    A noise-free curve ``excess = 1/N`` (two equal trials per point) at ``N = g²``: the slope is −1
    exactly and its bootstrap CI is the single point −1.

    >>> from simulations.experiments.rates.cases import RateCase, RatePoint
    >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
    >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
    >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo", margin=0.02)
    >>> round(f.slope, 6), round(f.implied, 6), f.trials   # implied: −θ log g with θ = 2β = 2, g = N^(1/2)
    (-1.0, -1.0, 2)
    """
    N = np.array([p.N for p in points], float)
    g = np.array([p.g for p in points], float)
    stats = [np.asarray(v, float) for v in values]
    means = np.array([v.mean() for v in stats])
    if np.all(means > 0):
        fit = fit_loglog_slope(N, values, rng=stream(seed, f"slope/{key}", 0, EVAL))
    else:  # a point where every trial had zero excess risk (tiny smoke runs): no log-log fit
        nan = float("nan")
        fit = SlopeFit(slope=nan, intercept=nan, ci_low=nan, ci_high=nan, confidence=0.95, n_boot=0)
    ci = np.array([t_interval(v)[3:] for v in stats])
    half = len(points) // 2
    with np.errstate(divide="ignore", invalid="ignore"):
        upper = _ols(N[half - 1:] if len(points) > 3 else N, np.log(means[half - 1:] if len(points) > 3 else means))
    pred = None
    if predicted is not None:
        pred = {t: np.array([p[t] for p in predicted]) for t in predicted[0]}
    if case.reference == "predicted":
        total = sum(pred.values())
        theory, printed = _ols(N, np.log(total)), None
    else:
        theory = -case.exponent()
        pe = case.printed_exponent()
        printed = None if pe is None else -pe
    term_means = None if terms is None else {t: np.array([np.mean(p[t]) for p in terms]) for t in terms[0]}
    return CaseFit(case=case, N=N, g=g, mean=means, ci_low=ci[:, 0], ci_high=ci[:, 1], slope=fit.slope,
                   intercept=fit.intercept, slope_low=fit.ci_low, slope_high=fit.ci_high, theory=theory,
                   implied=_ols(N, -case.theta * np.log(g)), upper_half=upper, trials=len(stats[0]), margin=margin,
                   printed=printed, terms=term_means, predicted_terms=pred)


def slope_table_markdown(fits: list[CaseFit]) -> str:
    """The report's slope table: per case the fit, and the verdict of the reference slope and of 003's
    printed one (holds / excluded / inconclusive, one rule and one margin for both).

    Parameters
    ----------
    fits : list of CaseFit
        One row each.

    Returns
    -------
    str
        A Markdown table: a header, a rule, one row per fit.

    References
    ----------
    003 Table 1 and Theorems 7-8 (central regression privacy term: derived ``2β/(d+β)``, printed
    ``2β/(d+2β)``); docs/design.md, "Experiments and their outputs" (verdicts from intervals).

    Examples
    --------
    >>> from simulations.experiments.rates.cases import RateCase, RatePoint
    >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
    >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
    >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo", margin=0.02)
    >>> print(slope_table_markdown([f]).splitlines()[2])
    | central: d=1, β=1, ε=1 | -1.000 | -1.000 [-1.000, -1.000] | ... | holds (±0.02) | -0.667, ...: excluded | -1.000 | -1.000 | 100–1.6e+03 (1.20) |
    """
    lines = ["| case | reference slope | fitted slope [95% CI] | (fit − ref)/se | reference: verdict (± margin) "
             "| printed slope, (fit − printed)/se: verdict | implied by tuning | larger-half slope "
             "| N range (decades) |",
             "|---|---|---|---|---|---|---|---|---|"]

    def show(v):
        return v if v == HOLDS else f"**{v}**"

    for f in fits:
        ref = f"{f.theory:.3f}" + (" (3-term pred.)" if f.case.reference == "predicted" else "")
        pr = "—" if f.printed is None else f"{f.printed:.3f}, {f.z(f.printed):+.1f}: {f.printed_verdict}"
        lines.append(f"| {f.case.label} | {ref} | {f.slope:.3f} [{f.slope_low:.3f}, {f.slope_high:.3f}] | "
                     f"{f.z(f.theory):+.1f} | {show(f.verdict)} (±{f.margin:g}) | {pr} | "
                     f"{f.implied:.3f} | {f.upper_half:.3f} | {int(f.N[0]):.3g}–{int(f.N[-1]):.3g} ({f.decades:.2f}) |")
    return "\n".join(lines)


def terms_table(fits: list[CaseFit]) -> dict:
    """Per case and N: measured mean excess risk, its three measured terms and (where computed) the
    predicted ones, and the non-private share ``sampling / excess``.

    Parameters
    ----------
    fits : list of CaseFit
        Fits without ``terms`` (kNN cases) are left out.

    Returns
    -------
    dict of str to list
        Columns ``case, N, g, excess, bias, sampling, privacy, sampling_share, pred_bias,
        pred_sampling, pred_privacy`` (the ``pred_*`` cells are ``""`` without predicted terms).

    References
    ----------
    003 proofs of Theorems 4, 8, 12 (the three terms; see :mod:`simulations.experiments.rates.terms`).

    Examples
    --------
    Terms that are 0, 10% and 90% of the excess risk at every point:

    >>> from simulations.experiments.rates.cases import RateCase, RatePoint
    >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
    >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
    >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo",
    ...              terms=[{"bias": [0.0] * 2, "sampling": [0.1 / (g * g)] * 2, "privacy": [0.9 / (g * g)] * 2}
    ...                     for g in (10, 20, 40)])
    >>> cols = terms_table([f])
    >>> cols["N"], [round(float(s), 12) for s in cols["sampling_share"]], cols["pred_bias"]
    ([100, 400, 1600], [0.1, 0.1, 0.1], ['', '', ''])
    """
    cols = {k: [] for k in ("case", "N", "g", "excess", "bias", "sampling", "privacy", "sampling_share",
                            "pred_bias", "pred_sampling", "pred_privacy")}
    for f in fits:
        if f.terms is None:
            continue
        for i in range(len(f.N)):
            row = {"case": f.case.label, "N": int(f.N[i]), "g": int(f.g[i]), "excess": f.mean[i],
                   **{t: f.terms[t][i] for t in TERMS}, "sampling_share": f.terms["sampling"][i] / f.mean[i]}
            for t in TERMS:
                row[f"pred_{t}"] = "" if f.predicted_terms is None else f.predicted_terms[t][i]
            for k, v in row.items():
                cols[k].append(v)
    return cols


def diagnose(f: CaseFit) -> str:
    """Why a fitted slope does not confirm the reference (verdict excluded or inconclusive), from the
    diagnostics (a sentence for the notes).

    Parameters
    ----------
    f : CaseFit
        A fit whose :attr:`CaseFit.verdict` is not ``"holds"`` (others get a sentence too, not meant
        for them).

    Returns
    -------
    str
        A Markdown list item: the verdict, the fit, and the likely causes (CI wider than the band,
        a two-term tuning, a pre-asymptotic drift).

    References
    ----------
    003 Table 1 and Theorems 7-8 (central regression privacy term: derived ``2β/(d+β)``, printed
    ``2β/(d+2β)``); docs/design.md, "Experiments and their outputs" (verdicts from intervals).

    Examples
    --------
    A CI of width 0.06 cannot lie inside a band of width 2 × 0.02:

    >>> from simulations.experiments.rates.cases import RateCase, RatePoint
    >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
    >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
    >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo", margin=0.02)
    >>> from dataclasses import replace
    >>> print(diagnose(replace(f, slope_low=-1.05, slope_high=-0.99)))
    - central: d=1, β=1, ε=1: inconclusive, ...: the CI is 0.060 wide (2 trials per point), wider than the band (2 × 0.02): more trials would decide; ...
    """
    why = []
    if f.case.reference == "predicted":
        why.append("the three-term prediction is an expansion (normal approximation of the counts, n_l ≈ N h^d); "
                   "see the per-term table")
    elif f.case.branch is None and abs(f.implied - f.theory) > 0.01:
        why.append(f"the tuned scale of a two-term rate is a sum of a non-private and a privacy branch, and over this "
                   f"grid the non-private branch still contributes (h^θ alone would give slope {f.implied:.3f})")
    else:
        why.append(f"the slope over the larger half of the grid is {f.upper_half:.3f}: a pre-asymptotic drift "
                   "(few points per cell or neighbourhood at the small-N end)")
    width = f.slope_high - f.slope_low
    if f.verdict != EXCLUDED and width > 2 * f.margin:  # no CI this wide can lie inside the band
        why.insert(0, f"the CI is {width:.3f} wide ({f.trials} trials per point), wider than the band "
                      f"(2 × {f.margin:g}): more trials would decide")
    elif f.verdict != EXCLUDED:
        why.insert(0, f"the CI straddles an edge of the band ±{f.margin:g}")
    return (f"- {f.case.label}: {f.verdict}, fitted {f.slope:.3f} [{f.slope_low:.3f}, {f.slope_high:.3f}] vs "
            f"reference {f.theory:.3f} ({f.z(f.theory):+.1f} se): " + "; ".join(why) + ".")


def case_claims(f: CaseFit) -> list[Claim]:
    """The claims of one fitted case: the slope against its reference, and 003's printed exponent
    excluded where it differs from the derived one; both decided by
    :func:`~simulations.stats.interval_verdict` on the same CI with the same margin (``holds`` None:
    inconclusive).

    Parameters
    ----------
    f : CaseFit
        The fitted case.

    Returns
    -------
    list of Claim
        One claim, or two where 003's printed exponent differs from the derived one.

    References
    ----------
    003 Table 1 and Theorems 7-8 (central regression privacy term: derived ``2β/(d+β)``, printed
    ``2β/(d+2β)``); docs/design.md, "Experiments and their outputs" (verdicts from intervals).

    Examples
    --------
    >>> from simulations.experiments.rates.cases import RateCase, RatePoint
    >>> case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0, term="privacy")
    >>> pts = [RatePoint("central_regression", d=1, beta=1.0, eps=1.0, N=g * g, g=g) for g in (10, 20, 40)]
    >>> f = fit_case(case, pts, [[1.0 / (g * g)] * 2 for g in (10, 20, 40)], seed=1, key="demo", margin=0.02)
    >>> [(c.expected, c.verdict) for c in case_claims(f)]
    [(-1.0, 'holds'), (-0.6666666666666666, 'holds')]
    """
    c = f.case
    term = f" ({c.term} term)" if c.term else ""
    base = (f"bootstrap 95% CI [{f.slope_low:.3f}, {f.slope_high:.3f}], se {f.se:.4f}; N {int(f.N[0]):.3g}–"
            f"{int(f.N[-1]):.3g} ({f.decades:.2f} decades, {len(f.N)} points, {f.trials} trials each); "
            f"margin ±{f.margin:g}")
    if c.reference == "predicted":
        claim = (f"{c.label}: excess risk slope equals that of the theorem's own three-term expected risk "
                 f"(bias² + sampling + privacy), {f.theory:.3f} over this grid ({c.source()})")
    else:
        claim = f"{c.label}: excess risk ∝ N^{f.theory:.3f}{term} ({c.source()})"
    undecidable = f.printed is not None and abs(f.printed - f.theory) < 2 * f.margin
    out = [Claim(claim=claim, holds=f.holds, expected=f.theory, measured=f.slope,
                 detail=f"{base}; reference {f.verdict} (holds: CI inside reference ± margin; excluded: CI "
                        f"disjoint from it); (fit − reference)/se = {f.z(f.theory):+.1f}; slope implied by the "
                        f"tuning {f.implied:.3f}; larger-half slope {f.upper_half:.3f}"
                        + (_edge_note(f) if undecidable else ""), kind="paper")]
    if f.printed is not None and not undecidable:
        out.append(Claim(
            claim=f"{c.label}: 003's printed exponent N^{f.printed:.3f} is excluded (derived {f.theory:.3f})",
            holds=f.printed_excluded, expected=f.printed, measured=f.slope,
            detail=f"{base}; printed {f.printed_verdict} (excluded: CI disjoint from printed ± margin; holds: CI "
                   f"inside it), {f.z(f.printed):+.1f} se from the fit; derived {f.verdict}, {f.z(f.theory):+.1f} se",
            kind="erratum", finding=printed_finding(c)))
    return out


#: (task, privacy) -> the :func:`proofs_checks.findings.findings` topic of 003 Table 1's printed cell that
#: differs from the derived rate (:data:`limits.discrepancies.DISCREPANCIES`).
PRINTED_FINDINGS = {("regression", "central"): "table1 central regression bounded",
                    ("classification", "local_full"): "table1 local full classification"}


def printed_finding(case) -> str:
    """The findings() topic an "003's printed exponent is excluded" claim of ``case`` confirms.

    Parameters
    ----------
    case : RateCase or DataDrivenCase
        A case (with ``task`` and ``privacy``) whose printed exponent differs from the derived one.

    Returns
    -------
    str
        The topic, a key of :data:`PRINTED_FINDINGS`'s values.

    Raises
    ------
    ValueError
        If 003 prints no differing exponent for the case's task and privacy.

    References
    ----------
    003 Table 1 against Theorems 7-8 and Remark 1(2); :mod:`limits.discrepancies`.

    Examples
    --------
    >>> from simulations.experiments.rates.machinery import RateCase
    >>> printed_finding(RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1.0, n_start=100.0))
    'table1 central regression bounded'
    """
    try:
        return PRINTED_FINDINGS[(case.task, case.privacy)]
    except KeyError:
        raise ValueError(f"003 prints no differing exponent for task={case.task!r}, privacy={case.privacy!r} "
                         f"(case={case!r})") from None


def _edge_note(f: CaseFit) -> str:
    """Why no printed-exponent claim is made where the printed and derived bands overlap (gap < 2 ×
    margin): the derived exponent then lies only ``gap − margin`` outside the printed band, so if it is the
    truth only a CI narrower than that excludes the printed one, and a verdict would move with the root seed
    while the CI straddles the edge. The erratum itself is confirmed exactly (``rates_table``,
    ``proof_checks``); this sentence goes into the derived claim's detail."""
    gap = abs(f.printed - f.theory)
    if gap >= 2 * f.margin:
        return ""
    return (f"; 003's printed exponent {f.printed:.3f} is not tested here: at this margin its band and the "
            f"derived one overlap (gap {gap:.3f} < 2 × {f.margin:g}), the derived exponent lies only "
            f"{gap - f.margin:.3f} outside the printed band, and a verdict would move between excluded and "
            f"inconclusive with the root seed (the printed cell is refuted exactly by rates_table and proof_checks)")
