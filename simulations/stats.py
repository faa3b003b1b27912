"""Summaries of Monte Carlo trials: means with t confidence intervals, and log–log rate fits.

Both feed the CSV tables of the experiments, so they are deterministic functions of their input
(the bootstrap takes an explicit seed or Generator).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from limits.validation import check_int, check_real
from simulations.engine import config_fields
from simulations.seeding import check_generator

__all__ = ["BOUND_SIDES", "EXCLUDED", "HOLDS", "INCONCLUSIVE", "SlopeFit", "bound_verdict", "clopper_pearson",
           "fit_loglog_slope", "holds_from", "interval_verdict", "ratio_interval", "summarize", "t_interval"]


def _check_confidence(confidence):
    return check_real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)


def t_interval(values, confidence: float = 0.95):
    """Mean, sample std, n and the Student-t interval ``mean ± t_{n-1, (1+c)/2} · std / sqrt(n)``.

    Parameters
    ----------
    values : array_like, shape (n,)
        Independent trials of one metric (any shape is flattened); n >= 1.
    confidence : float in (0, 1), default 0.95
        Coverage of the two-sided interval.

    Returns
    -------
    mean, std, n, low, high : float, float, int, float, float
        ``std`` uses ``ddof=1``; with ``n == 1`` std and the interval are NaN.

    Raises
    ------
    ValueError
        If ``values`` is empty or holds a NaN or an infinity, or ``confidence`` is not in (0, 1).

    References
    ----------
    docs/design.md, "Experiments and their outputs" (every verdict from an interval); the Student-t
    interval for the mean of i.i.d. trials.

    Examples
    --------
    For 1, 2, 3, 4, 5: mean 3, std ``sqrt(10/4) = 1.5811``, and with the tabulated
    ``t_{4, 0.975} = 2.776445`` the half-width is ``2.776445 · sqrt(2.5/5) = 1.963243``:

    >>> mean, std, n, lo, hi = t_interval([1, 2, 3, 4, 5])
    >>> print(f"{mean:.4f} {std:.4f} {n} {lo:.4f} {hi:.4f}")
    3.0000 1.5811 5 1.0368 4.9632
    """
    confidence = _check_confidence(confidence)
    v = np.asarray(values, dtype=float).ravel()
    if v.size == 0 or not np.all(np.isfinite(v)):
        raise ValueError(f"values must be a non-empty array of finite numbers, got values={values!r}")
    n = v.size
    mean = float(v.mean())
    if n == 1:
        return mean, float("nan"), 1, float("nan"), float("nan")
    std = float(v.std(ddof=1))
    half = float(sps.t.ppf(0.5 + confidence / 2, df=n - 1)) * std / np.sqrt(n)
    return mean, std, n, mean - half, mean + half


def ratio_interval(numerator, denominator, confidence: float = 0.95):
    """Ratio of two means from independent samples, with a delta-method interval on the log scale.

    ``r = mean(numerator) / mean(denominator)``; ``ln r`` has standard error
    ``sqrt(s_1²/(n_1 m_1²) + s_2²/(n_2 m_2²))`` (first-order delta method), and the interval is
    ``r · exp(± t · se)`` with Student's t at ``min(n_1, n_2) − 1`` degrees of freedom (the
    conservative Welch choice).

    Parameters
    ----------
    numerator, denominator : array_like, shape (n_1,) and (n_2,)
        Independent trials of two positive metrics (n_i >= 2), finite and with positive means.
    confidence : float in (0, 1)

    Returns
    -------
    ratio, low, high : float

    Raises
    ------
    ValueError
        If a sample has fewer than 2 values, a non-finite value or a mean that is not positive.

    References
    ----------
    docs/design.md "Experiments and their outputs" (every verdict from an interval).

    Examples
    --------
    >>> r, lo, hi = ratio_interval([2.0, 2.2, 1.8, 2.0], [1.0, 1.1, 0.9, 1.0])
    >>> round(r, 6), lo < 2.0 < hi
    (2.0, True)
    """
    confidence = _check_confidence(confidence)
    parts = []
    for name, values in (("numerator", numerator), ("denominator", denominator)):
        v = np.asarray(values, dtype=float).ravel()
        if v.size < 2 or not np.all(np.isfinite(v)) or v.mean() <= 0:
            raise ValueError(f"{name} must hold >= 2 finite values with a positive mean, got {name}={values!r}")
        parts.append(v)
    (a, b) = parts
    ratio = float(a.mean() / b.mean())
    se = float(np.sqrt(a.var(ddof=1) / (a.size * a.mean() ** 2) + b.var(ddof=1) / (b.size * b.mean() ** 2)))
    half = float(sps.t.ppf(0.5 + confidence / 2, df=min(a.size, b.size) - 1)) * se
    return ratio, ratio * float(np.exp(-half)), ratio * float(np.exp(half))


def clopper_pearson(successes, trials, confidence: float = 0.95):
    """Exact (Clopper-Pearson) interval for a binomial proportion.

    Parameters
    ----------
    successes : int
        Number of events, 0 <= successes <= trials.
    trials : int
        Number of independent trials, >= 1.
    confidence : float in (0, 1), default 0.95

    Returns
    -------
    fraction, low, high : float
        ``successes / trials`` and the beta-quantile interval (0 and 1 at the ends).

    Raises
    ------
    ValueError
        If the counts are out of range or ``confidence`` is not in (0, 1).

    References
    ----------
    docs/design.md "The decision rule" (every verdict from an interval); Clopper and Pearson (1934).

    Examples
    --------
    No event in 100 trials: the upper end is 1 - 0.025^(1/100) = 0.036217:

    >>> f, lo, hi = clopper_pearson(0, 100)
    >>> f, lo, round(hi, 6)
    (0.0, 0.0, 0.036217)
    """
    confidence = _check_confidence(confidence)
    n = check_int("trials", trials, low=1)
    k = check_int("successes", successes, low=0)
    if k > n:
        raise ValueError(f"successes must be <= trials={n}, got successes={successes}")
    a = (1.0 - confidence) / 2
    lo = 0.0 if k == 0 else float(sps.beta.ppf(a, k, n - k + 1))
    hi = 1.0 if k == n else float(sps.beta.isf(a, k + 1, n - k))  # isf: no cancellation in 1 - a
    return k / n, lo, hi


def _cell(value):
    """A config field as one CSV cell: scalars as they are, anything else as compact JSON."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


_STAT_COLUMNS = ("metric", "n_trials", "mean", "std", "ci_low", "ci_high")


def summarize(results, *, metrics=None, confidence: float = 0.95) -> dict[str, list]:
    """Tidy table of :class:`~simulations.engine.TrialResults`: one row per (config, metric).

    Columns: every config field (the union over configs; ``""`` where a config lacks one), then
    ``metric``, ``n_trials``, ``mean``, ``std``, ``ci_low``, ``ci_high`` (:func:`t_interval`). An
    array-valued metric gives one row per element, named ``name[i]`` / ``name[i,j]``. The result
    is ready for :func:`simulations.experiments.runner.write_csv`.

    Parameters
    ----------
    results : simulations.engine.TrialResults
        Per-trial results (``results.per_config[i][metric]`` of shape ``(n_trials, ...)``).
    metrics : sequence of str or None, default None
        The metrics to summarize, in this order; None: every metric of each config.
    confidence : float in (0, 1), default 0.95
        Coverage of the t intervals.

    Returns
    -------
    dict of str to list
        Column name -> column values, all of the same length (one entry per row). Non-scalar
        config fields are written as compact JSON text.

    Raises
    ------
    ValueError
        If a requested metric is missing, a config field is named like a summary column
        (``metric``, ``n_trials``, ``mean``, ``std``, ``ci_low``, ``ci_high``), a value is not
        finite, or ``confidence`` is not in (0, 1).

    References
    ----------
    docs/design.md, "Experiments and their outputs" (CSV data beside every figure).

    Examples
    --------
    The interval of :func:`t_interval`'s example, with the config's field as a column:

    >>> from simulations.engine import TrialResults
    >>> res = TrialResults(configs=[{"N": 10}], n_trials=5, per_config=[{"risk": np.arange(1.0, 6.0)}])
    >>> table = summarize(res)
    >>> list(table)
    ['N', 'metric', 'n_trials', 'mean', 'std', 'ci_low', 'ci_high']
    >>> table["N"], table["metric"], table["n_trials"], [round(float(v), 4) for v in table["ci_low"]]
    ([10], ['risk'], [5], [1.0368])
    """
    confidence = _check_confidence(confidence)
    fields = [{k: _cell(v) for k, v in config_fields(c).items() if k != "__class__"} for c in results.configs]
    names = list(dict.fromkeys(k for f in fields for k in f))
    clash = sorted(set(names) & set(_STAT_COLUMNS))
    if clash:
        raise ValueError(f"config fields {clash} clash with the summary columns {list(_STAT_COLUMNS)}")
    cols = {k: [] for k in (*names, *_STAT_COLUMNS)}
    for f, per in zip(fields, results.per_config):
        chosen = list(per) if metrics is None else list(metrics)
        for m in chosen:
            if m not in per:
                raise ValueError(f"metric {m!r} not in the results; available: {list(per)}")
            arr = np.asarray(per[m], dtype=float)
            for idx in np.ndindex(arr.shape[1:]):
                label = m if not idx else f"{m}[{','.join(map(str, idx))}]"
                mean, std, n, lo, hi = t_interval(arr[(slice(None), *idx)], confidence)
                for k in names:
                    cols[k].append(f.get(k, ""))
                for k, v in zip(_STAT_COLUMNS, (label, n, mean, std, lo, hi)):
                    cols[k].append(v)
    return cols


@dataclass(frozen=True, slots=True)
class SlopeFit:
    """Least-squares slope of log(mean value) against log N, with a bootstrap interval.

    Returned by :func:`fit_loglog_slope`; the parameters are kept as attributes. The slope
    estimates the rate exponent ``a`` of ``E[value] ≍ N^a`` (e.g. ``−1/2`` for the local-label-DP
    classification cell of 003 Table 1, :math:`(N(\\epsilon^2 \\wedge 1))^{-\\beta(\\gamma+1)/(2\\beta+d)}`,
    at :math:`\\beta = \\gamma = 1`, :math:`d = 2`).

    Parameters
    ----------
    slope : float
        Least-squares slope of ``log mean`` on ``log N``.
    intercept : float
        Its intercept (natural logarithms).
    ci_low, ci_high : float
        Percentiles ``(1 − c)/2`` and ``(1 + c)/2`` of the bootstrap slopes (NaN when no
        replicate was valid).
    confidence : float
        ``c``, in (0, 1).
    n_boot : int
        Bootstrap replicates drawn.
    n_invalid : int, default 0
        Replicates dropped because a resampled mean was <= 0 (log undefined).

    References
    ----------
    003 Table 1 (the exponents the fitted slopes are compared with); docs/design.md, "Experiments
    and their outputs".

    Examples
    --------
    >>> fit = SlopeFit(slope=-0.52, intercept=0.1, ci_low=-0.6, ci_high=-0.45, confidence=0.95, n_boot=2000)
    >>> fit.contains(-0.5), fit.contains(-1.0)
    (True, False)
    """

    slope: float
    intercept: float
    ci_low: float
    ci_high: float
    confidence: float
    n_boot: int
    n_invalid: int = 0

    def contains(self, value: float) -> bool:
        """True when ``value`` lies in the confidence interval ``[ci_low, ci_high]``.

        Parameters
        ----------
        value : float
            E.g. a rate exponent of 003 Table 1.

        Returns
        -------
        bool
            False when an end of the interval is NaN.

        Examples
        --------
        >>> SlopeFit(-0.5, 0.0, -0.5, -0.5, 0.95, 10).contains(-0.5)
        True
        """
        return bool(self.ci_low <= value <= self.ci_high)


def _ols_slope(x, y):
    """Slopes of y (shape (..., k)) on x (shape (k,)), vectorized over leading axes."""
    xc = x - x.mean()
    return (y * xc).sum(axis=-1) / (xc * xc).sum()


def fit_loglog_slope(N, values, *, rng, n_boot: int = 2000, confidence: float = 0.95) -> SlopeFit:
    """Fit ``log mean_i = a + slope · log N_i`` and a bootstrap CI for the slope.

    Parameters
    ----------
    N : array_like, shape (k,)
        Sample sizes (> 0, at least two distinct).
    values : sequence of k 1-D arrays (or an array of shape (k, n_trials))
        Per-trial values (e.g. excess risks, >= 0) at each N; the means must be > 0.
    rng : numpy Generator or int seed
        Drives the bootstrap, so the interval is reproducible.
    n_boot : int >= 1
    confidence : float in (0, 1)

    Returns
    -------
    SlopeFit

    Notes
    -----
    The slope is ordinary least squares of ``log(mean)`` on ``log N``, one point per N (equal
    weights). The interval is a nonparametric percentile bootstrap over trials: each replicate
    resamples, independently for every N, that N's trials with replacement, recomputes the means
    and refits the slope. Trials at different N are independent, so resampling within each N keeps
    the dependence structure. With few trials per N the percentile interval is known to be a
    little narrow; tests check its coverage at a fixed seed.

    Raises
    ------
    ValueError
        If ``N`` has fewer than two distinct positive finite sizes, ``values`` does not have one
        non-empty finite array per N, a mean is not > 0, ``n_boot < 1``, ``confidence`` is not
        in (0, 1), or ``rng`` is not a Generator / seed.

    References
    ----------
    003 Table 1 (the exponents compared with the fitted slopes); docs/design.md, "Experiments and
    their outputs".

    Examples
    --------
    Means 0.1 at N = 100 and 0.01 at N = 10^4 lie on ``N^{-1/2}`` exactly,
    ``log(0.01/0.1) / log(10^4/100) = −1/2``; identical trials make every bootstrap replicate equal:

    >>> fit = fit_loglog_slope([100, 10_000], [[0.1, 0.1, 0.1], [0.01, 0.01, 0.01]], rng=0, n_boot=50)
    >>> round(fit.slope, 9), round(fit.ci_low, 9), round(fit.ci_high, 9), fit.n_invalid
    (-0.5, -0.5, -0.5, 0)
    >>> abs(fit.intercept) < 1e-12          # log 0.1 + (1/2) log 100 = 0
    True
    """
    confidence = _check_confidence(confidence)
    n_boot = check_int("n_boot", n_boot, low=1)
    rng = check_generator(rng)
    Nv = np.asarray(N, dtype=float).ravel()
    if Nv.size < 2 or not np.all(np.isfinite(Nv)) or np.any(Nv <= 0) or np.unique(Nv).size < 2:
        raise ValueError(f"N must hold at least two distinct positive sizes, got N={N!r}")
    vals = [np.asarray(v, dtype=float).ravel() for v in values]
    if len(vals) != Nv.size:
        raise ValueError(f"values must have one array per N ({Nv.size}), got {len(vals)}")
    for n_i, v in zip(Nv, vals):
        if v.size == 0 or not np.all(np.isfinite(v)):
            raise ValueError(f"values at N={n_i:g} must be a non-empty array of finite numbers")
        if v.mean() <= 0:
            raise ValueError(f"the mean value at N={n_i:g} must be > 0 to take its log, got {v.mean()!r}")
    x = np.log(Nv)
    y = np.log([v.mean() for v in vals])
    slope = float(_ols_slope(x, y))
    intercept = float(y.mean() - slope * x.mean())

    boot_means = np.empty((n_boot, Nv.size))
    for i, v in enumerate(vals):  # blocks bound memory at ~1e6 indices
        block = max(1, 1_000_000 // v.size)
        for b0 in range(0, n_boot, block):
            b1 = min(n_boot, b0 + block)
            boot_means[b0:b1, i] = v[rng.integers(0, v.size, size=(b1 - b0, v.size))].mean(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        boot = _ols_slope(x, np.log(boot_means))
    ok = np.isfinite(boot) & np.all(boot_means > 0, axis=1)
    alpha = 1.0 - confidence
    if ok.any():
        lo, hi = np.quantile(boot[ok], [alpha / 2, 1 - alpha / 2])
    else:
        lo = hi = float("nan")
    return SlopeFit(slope=slope, intercept=intercept, ci_low=float(lo), ci_high=float(hi),
                    confidence=confidence, n_boot=n_boot, n_invalid=int((~ok).sum()))


HOLDS, EXCLUDED, INCONCLUSIVE = "holds", "excluded", "inconclusive"


def interval_verdict(value, ci_low, ci_high, margin) -> str:
    """The suite's one decision rule for a claim "the quantity equals ``value``" read off an interval.

    With the equivalence band ``B = [value − margin, value + margin]`` and the interval
    ``I = [ci_low, ci_high]`` (e.g. a bootstrap 95% CI of a fitted exponent):

    - ``"holds"`` when ``I ⊆ B``: every value the data support is within ``margin`` of ``value``
      (an equivalence test, two one-sided tests at the interval's level);
    - ``"excluded"`` when ``I ∩ B = ∅``: every value the data support is farther than ``margin``;
    - ``"inconclusive"`` otherwise (the interval straddles an edge of the band: more trials or a
      longer range of N would be needed to decide).

    The same interval and the same margin decide both ways, so the rule favours neither verdict: a
    claim "003's printed exponent is excluded" holds exactly when this returns ``"excluded"``.

    Parameters
    ----------
    value : float
        The value claimed (e.g. the theory's exponent).
    ci_low, ci_high : float
        The interval, ``ci_low <= ci_high``; NaN ends (no fit possible) give ``"inconclusive"``.
    margin : float
        Half-width of the equivalence band, ``>= 0``: differences smaller than this are not
        resolved by the experiment (say why where it is set).

    Returns
    -------
    str
        :data:`HOLDS`, :data:`EXCLUDED` or :data:`INCONCLUSIVE`.

    Raises
    ------
    ValueError
        If ``value`` is not finite, ``margin`` is negative or not finite, or ``ci_low > ci_high``.

    References
    ----------
    docs/design.md "Experiments and their outputs" (one rule for accepting and excluding); the rule is
    the interval form of the two one-sided tests (TOST) of equivalence testing.

    Examples
    --------
    >>> interval_verdict(-1.0, -1.02, -0.99, 0.03)
    'holds'
    >>> interval_verdict(-0.8, -1.02, -0.99, 0.03)
    'excluded'
    >>> interval_verdict(-1.0, -1.05, -0.99, 0.03)
    'inconclusive'
    """
    value = check_real("value", value)
    margin = check_real("margin", margin, low=0.0)
    lo, hi = float(ci_low), float(ci_high)
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return INCONCLUSIVE
    if lo > hi:
        raise ValueError(f"ci_low must be <= ci_high, got ci_low={ci_low}, ci_high={ci_high}")
    if value - margin <= lo and hi <= value + margin:
        return HOLDS
    if hi < value - margin or lo > value + margin:
        return EXCLUDED
    return INCONCLUSIVE


BOUND_SIDES = ("at_most", "at_least")


def bound_verdict(bound, ci_low, ci_high, margin, *, side) -> str:
    """:func:`interval_verdict` for a one-sided claim "the quantity is at most (at least) ``bound``".

    The same rule with a one-sided band: ``B = (−∞, bound + margin]`` for ``side="at_most"``,
    ``B = [bound − margin, +∞)`` for ``side="at_least"``; ``"holds"`` when the interval
    ``I = [ci_low, ci_high]`` lies inside ``B``, ``"excluded"`` when it lies outside, and
    ``"inconclusive"`` when it straddles the edge. (The interval form of a one-sided test with a
    non-inferiority margin; ``margin = 0`` for a strict ordering such as "the difference is > 0".)

    Parameters
    ----------
    bound : float
        The bound claimed (e.g. a rate exponent for "decays at least as fast as", 0 for a sign).
    ci_low, ci_high : float
        The interval, ``ci_low <= ci_high``; NaN ends give ``"inconclusive"``.
    margin : float
        Tolerance ``>= 0`` in the claim's favour (say why where it is set).
    side : {"at_most", "at_least"}
        Which side of ``bound`` the claim puts the quantity.

    Returns
    -------
    str
        :data:`HOLDS`, :data:`EXCLUDED` or :data:`INCONCLUSIVE`.

    Raises
    ------
    ValueError
        If ``bound`` is not finite, ``margin`` is negative or not finite, ``ci_low > ci_high`` or
        ``side`` is not one of :data:`BOUND_SIDES`.

    References
    ----------
    docs/design.md "Experiments and their outputs" (one rule for accepting and excluding).

    Examples
    --------
    >>> bound_verdict(-0.5, -0.62, -0.55, 0.03, side="at_most")   # decays at least as fast as N^-0.5
    'holds'
    >>> bound_verdict(-0.5, -0.45, -0.40, 0.03, side="at_most")
    'excluded'
    >>> bound_verdict(0.0, -0.01, 0.02, 0.0, side="at_least")     # a paired difference > 0?
    'inconclusive'
    """
    bound = check_real("bound", bound)
    margin = check_real("margin", margin, low=0.0)
    if side not in BOUND_SIDES:
        raise ValueError(f"side must be one of {list(BOUND_SIDES)}, got side={side!r}")
    lo, hi = float(ci_low), float(ci_high)
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return INCONCLUSIVE
    if lo > hi:
        raise ValueError(f"ci_low must be <= ci_high, got ci_low={ci_low}, ci_high={ci_high}")
    if side == "at_most":
        edge = bound + margin
        return HOLDS if hi <= edge else (EXCLUDED if lo > edge else INCONCLUSIVE)
    edge = bound - margin
    return HOLDS if lo >= edge else (EXCLUDED if hi < edge else INCONCLUSIVE)


def holds_from(verdict, *, claim_is=HOLDS) -> bool | None:
    """``Claim.holds`` from a verdict of :func:`interval_verdict` or :func:`bound_verdict`.

    Parameters
    ----------
    verdict : str
        :data:`HOLDS`, :data:`EXCLUDED` or :data:`INCONCLUSIVE`.
    claim_is : {"holds", "excluded"}
        The verdict that makes the claim hold: ``"holds"`` for "the exponent is a", ``"excluded"``
        for "a is excluded".

    Returns
    -------
    bool or None
        True when ``verdict == claim_is``, False for the opposite verdict, None when inconclusive.

    References
    ----------
    docs/design.md, "Experiments and their outputs": each claim's ``holds`` is true, false or
    inconclusive by one rule.

    Examples
    --------
    >>> holds_from("holds"), holds_from("excluded"), holds_from("inconclusive")
    (True, False, None)
    >>> holds_from("excluded", claim_is="excluded"), holds_from("holds", claim_is="excluded")
    (True, False)
    """
    if claim_is not in (HOLDS, EXCLUDED):
        raise ValueError(f"claim_is must be 'holds' or 'excluded', got claim_is={claim_is!r}")
    if verdict not in (HOLDS, EXCLUDED, INCONCLUSIVE):
        raise ValueError(f"verdict must be one of 'holds', 'excluded', 'inconclusive', got verdict={verdict!r}")
    if verdict == INCONCLUSIVE:
        return None
    return verdict == claim_is
