"""``thresholds_contrast``: universal but not uniform (001 Section 1, Theorem 1.5 vs private PAC).

One-dimensional thresholds are not privately PAC learnable (001 Section 1, Bun et al. 2015,
Alon et al. 2019): no private learner has a sample size that works for every distribution. 001's
answer is universal consistency: PCL's excess error tends to 0 for every fixed distribution, at a
speed that depends on it. This experiment shows both halves on the family

    P_{t, w}:  x ~ U[t − w, t + w],  y = 1[x > t]   (a noiseless threshold, Bayes error 0),

indexed by the threshold location t (8 irrational positions in [0.3, 0.7]) and the spread w
(10^-1 ... 10^-6). For a fixed member, once PCL's cube side r = n^{-1/2} is below w the cube
holding t is only one of ~2w/r cubes and the excess error vanishes; while 2w < r, the support sits
in one or two cubes, and when t falls inside a cube (almost always) that cube holds half of the
labels of each kind, its vote is a coin flip, and the classifier errs on half of the mass: excess
1/2. So at every fixed n the worst case over the family stays 1/2. The non-private histogram rule
(same cubes) behaves the same; the non-private ERM (midpoint of the gap between the two classes)
has worst-case excess ≈ 1/(n+1) over the whole family: uniform. Excess errors are exact
(:class:`~simulations.laws.consistency.ConcentratedThreshold`).

References: 001 Section 1 (Definitions 1.2-1.4, Theorem 1.5), Algorithm 2, Theorem 3.2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simulations.engine import engine_options, run_trials, trial_streams
from simulations.estimators.pcl import PCL
from simulations.experiments.base import Claim, ExperimentResult
from simulations.laws.consistency import ConcentratedThreshold
from simulations.plotting import color, figure
from simulations.stats import t_interval

SPREADS = (1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6)
GOLDEN = (math.sqrt(5) - 1) / 2
LOCATIONS = tuple(0.3 + 0.4 * ((i + 1) * GOLDEN % 1.0) for i in range(8))
RULES = ("pcl_eps1", "histogram", "erm")
#: a spread w counts as resolved at n when w >= 10 r, r = n^(-1/2) the cube side: then only the cube holding t mixes
#: labels and the excess is r/(8w) (its minority part has mean length r/4, mass (r/4)/(2w)), falling like √10 per
#: decade of n
RESOLVED_FACTOR = 10
MIN_DECADE_DROP = 2.0  # claimed drop over the last decade: √10 ≈ 3.16 expected, 2 leaves room for the trial noise
#: members with 2w < r and t inside a cube have excess exactly 1/2 at every n; 0.4 leaves room for the finite
#: family and trials
WORST_FLOOR = 0.4
#: the realizable ERM's expected gap mass is 1/(n+1) for every member (order statistics of uniforms); the claim
#: allows 3x that for the trial noise of the worst member
ERM_FACTOR = 3.0
RULE_LABEL = {"pcl_eps1": "PCL, ε = 1", "histogram": "histogram rule (non-private)", "erm": "ERM (non-private)"}


@dataclass(frozen=True, slots=True)
class Profile:
    """Sizes of one profile: n = 10^e for e in ``log10_n``, trials per point, and the family members run.

    Parameters
    ----------
    log10_n : tuple of int
        Exponents e of the sample sizes n = 10^e.
    n_trials : int >= 1
        Independent trials per (threshold, spread, n).
    spreads : tuple of float, default SPREADS
        Half-widths w of the laws U[t − w, t + w] run.
    locations : tuple of float, default LOCATIONS
        Thresholds t run.

    Examples
    --------
    >>> [10 ** e for e in PROFILES["smoke"].log10_n], PROFILES["smoke"].spreads
    ([100, 1000], (0.1, 0.001, 1e-05))
    """

    log10_n: tuple[int, ...]
    n_trials: int
    spreads: tuple[float, ...] = SPREADS
    locations: tuple[float, ...] = LOCATIONS


PROFILES = {
    "smoke": Profile(log10_n=(2, 3), n_trials=2, spreads=SPREADS[::2], locations=LOCATIONS[:3]),
    "quick": Profile(log10_n=(2, 3, 4, 5, 6), n_trials=4),
    "paper": Profile(log10_n=(2, 3, 4, 5, 6, 7), n_trials=8),
}


@dataclass(frozen=True, slots=True)
class ThresholdPoint:
    """One experiment point: a member ``P_{t, w}`` of the threshold family and a sample size.

    Parameters
    ----------
    threshold : float
        The threshold t (one of :data:`LOCATIONS`, in [0.3, 0.7]).
    spread : float > 0
        The half-width w of ``x ~ U[t − w, t + w]`` (one of :data:`SPREADS`); ``[t − w, t + w]`` must lie in
        [0, 1] (checked by :class:`~simulations.laws.consistency.ConcentratedThreshold` when a trial runs).
    n : int >= 1
        Sample size of each trial.

    References
    ----------
    001 Section 1 (thresholds are not privately PAC learnable), Theorem 1.5.

    Examples
    --------
    >>> p = ThresholdPoint(0.5, 1e-3, 100)
    >>> p.threshold, p.spread, p.n
    (0.5, 0.001, 100)
    """
    threshold: float
    spread: float
    n: int


def erm_threshold(x, y, lo: float, hi: float) -> float:
    """Midpoint of the largest 0-labelled and the smallest 1-labelled point: a threshold ERM (realizable case).

    Parameters
    ----------
    x : numpy.ndarray of float, shape (n,)
        The sample's points.
    y : numpy.ndarray of int, shape (n,)
        Labels in {0, 1}, realizable by a threshold (every 0 left of every 1).
    lo : float
        Used for the largest 0-labelled point when no point is labelled 0 (the support's left end).
    hi : float
        Used for the smallest 1-labelled point when no point is labelled 1 (the support's right end).

    Returns
    -------
    float
        The learned threshold ``(a + b) / 2`` (a numpy float).

    References
    ----------
    001 Section 1 (a non-private learner uniform over the family: expected excess ``1/(n+1)``).

    Examples
    --------
    The gap (0.3, 0.6) has midpoint 0.45; without 0-labels the gap is (lo, 0.6) = (0, 0.6):

    >>> x, y = np.array([0.1, 0.3, 0.6, 0.9]), np.array([0, 0, 1, 1])
    >>> round(float(erm_threshold(x, y, 0.0, 1.0)), 12), float(erm_threshold(np.array([0.6]), np.array([1]), 0.0, 1.0))
    (0.45, 0.3)
    """
    a = x[y == 0].max() if np.any(y == 0) else lo
    b = x[y == 1].min() if np.any(y == 1) else hi
    return 0.5 * (a + b)


def threshold_trial(cfg: ThresholdPoint, t: int, root_seed: int) -> dict:
    """One trial at one point: a sample, then PCL (ε = 1), the non-private histogram rule and ERM, exact excess errors.

    Parameters
    ----------
    cfg : ThresholdPoint
        Family member and sample size.
    t : int >= 0
        Trial index.
    root_seed : int >= 0
        The run's root seed (DATA stream: the sample; PRIVACY stream: PCL's noise key).

    Returns
    -------
    dict of str to float
        ``pcl_eps1``, ``histogram`` (cube side ``n^{-1/2}``, excess exact over the cubes) and ``erm``
        (``min(|t̂ − t|, w) / (2w)``), each in [0, 1].

    Raises
    ------
    ValueError
        If the support ``[t − w, t + w]`` leaves [0, 1], or for a negative ``t`` / ``root_seed``.

    References
    ----------
    001 Section 1, Algorithm 2, Theorem 3.2.

    Examples
    --------
    w = 1e-5 and n = 100 (cube side 0.1): the whole support [t − w, t + w] around t = 0.5472 lies in the
    cube [0.5, 0.6), so both cube rules are constant on it and err on exactly half of the mass:

    >>> out = threshold_trial(ThresholdPoint(LOCATIONS[0], 1e-5, 100), 0, 1)
    >>> round(out["pcl_eps1"], 6), round(out["histogram"], 6), bool(0 <= out["erm"] <= 0.5)
    (0.5, 0.5, True)
    """
    data, privacy, _ = trial_streams(cfg, t, root_seed)
    law = ConcentratedThreshold(cfg.threshold, cfg.spread)
    X, y = law.sample(cfg.n, data)
    out = {}
    for name, eps in (("pcl_eps1", 1.0), ("histogram", None)):
        est = PCL(epsilon=eps, random_state=privacy).fit(X, y)
        out[name] = law.excess_risk_cubes(est.all_bits(), est.side_)
    that = erm_threshold(X[:, 0], y, cfg.threshold - cfg.spread, cfg.threshold + cfg.spread)
    out["erm"] = min(abs(that - cfg.threshold), cfg.spread) / (2 * cfg.spread)
    return out


def compute(ctx) -> ExperimentResult:
    """Run every (t, w, n) member and state the contrast: universal (each w), not uniform (worst case), ERM uniform.

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper": :data:`PROFILES`), seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        Table ``excess`` (per threshold, spread, n and rule: trials, mean excess with its 95% t-interval);
        claims: PCL's excess falls by >= :data:`MIN_DECADE_DROP` over the last decade for every resolved
        spread (``w >= 10 n_max^{-1/2}``); the worst PCL and histogram excess over the family stays >=
        :data:`WORST_FLOOR` at every n; ERM's worst excess is <= ``3/(n+1)``; ``data`` (``ns``, ``spreads``,
        ``per_spread``, ``worst``) for :func:`plot`.

    Raises
    ------
    ValueError
        For a profile not in ``{"smoke", "quick", "paper"}`` (raised by :class:`RunContext`, before any work).

    References
    ----------
    001 Section 1 (Definitions 1.2-1.4, Theorem 1.5), Algorithm 2, Theorem 3.2.

    Examples
    --------
    The run takes minutes (``paper_repro.py --only thresholds_contrast``); the smoke profile runs 3 locations:

    >>> len(PROFILES["smoke"].locations), PROFILES["smoke"].n_trials
    (3, 2)
    >>> from simulations.experiments.base import RunContext
    >>> compute(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    prof = PROFILES[ctx.profile]
    exps, n_trials, spreads, locs = prof.log10_n, prof.n_trials, prof.spreads, prof.locations
    ns = [10 ** e for e in exps]
    points = [ThresholdPoint(t, w, n) for w in spreads for t in locs for n in ns]
    res = run_trials(threshold_trial, points, n_trials, version="thresholds_contrast/v1", **engine_options(ctx))
    means = {rule: np.array([res.per_config[i][rule].mean() for i in range(len(points))]).reshape(
        len(spreads), len(locs), len(ns)) for rule in RULES}
    worst = {rule: means[rule].reshape(-1, len(ns)).max(axis=0) for rule in RULES}
    per_spread = {rule: means[rule].mean(axis=1) for rule in RULES}  # (spreads, ns)
    claims = _claims(per_spread, worst, spreads, ns, len(locs), n_trials)
    return ExperimentResult(tables={"excess": _excess_table(points, res, n_trials)}, claims=claims,
                            notes=_notes(per_spread, worst, spreads, ns, len(locs), n_trials),
                            data={"ns": ns, "spreads": spreads, "per_spread": per_spread, "worst": worst})


def _excess_table(points, res, n_trials) -> dict:
    """Mean excess error per (threshold, spread, n, rule) with its 95 % t-CI (none with one trial)."""
    table = {k: [] for k in ("threshold", "spread", "n", "rule", "trials", "mean_excess", "ci_low", "ci_high")}
    for i, p in enumerate(points):
        for rule in RULES:
            m, _, k, lo, hi = t_interval(res.per_config[i][rule]) if n_trials > 1 else (
                float(res.per_config[i][rule][0]), 0, 1, math.nan, math.nan)
            for key, v in zip(table, (p.threshold, p.spread, p.n, rule, k, m, lo, hi)):
                table[key].append(v)
    return table


def _claims(per_spread, worst, spreads, ns, n_locs, n_trials) -> list[Claim]:
    """Universal but not uniform (PCL and the histogram rule), uniform for ERM: 001 Section 1's contrast."""
    claims = []
    # 1. members resolved at n_max (w >= 10 r): the excess falls like r/(8w) -- only the cube holding t mixes
    #    labels, its minority part has mean length r/4 for t uniform in the cube, mass (r/4)/(2w) -- so by
    #    sqrt(10) per decade of n; claimed: by at least 2x over the last decade, averaged over the locations
    resolved = [i for i, w in enumerate(spreads) if w >= RESOLVED_FACTOR * ns[-1] ** -0.5]
    if resolved and len(ns) >= 2:
        ratios = [per_spread["pcl_eps1"][i, -2] / per_spread["pcl_eps1"][i, -1] for i in resolved]
        claims.append(Claim(
            claim=f"Universal: for every spread w >= {RESOLVED_FACTOR:g}·n_max^(-1/2) (w in "
                  f"{[spreads[i] for i in resolved]}) PCL's excess error falls by >= {MIN_DECADE_DROP:g}x from "
                  f"n = {ns[-2]:.0e} to {ns[-1]:.0e}",
            holds=min(ratios) >= MIN_DECADE_DROP, expected=math.sqrt(10), measured=min(ratios),
            detail="ratios " + ", ".join(f"w={spreads[i]:g}: {r:.2f} ({per_spread['pcl_eps1'][i, -1]:.3g} at n_max, "
                                         f"r/(8w) = {ns[-1] ** -0.5 / (8 * spreads[i]):.3g})"
                                         for i, r in zip(resolved, ratios))
                   + f"; means over {n_locs} locations x {n_trials} trials; expected ratio sqrt(10) from r/(8w)", kind="paper"))
    # 2. the worst case over the family stays near 1/2 at every n
    low = float(worst["pcl_eps1"].min())
    claims.append(Claim(
        claim=f"Not uniform: at every n of the grid the worst PCL excess error over the family is >= {WORST_FLOOR:g}",
        holds=low >= WORST_FLOOR, expected=0.5, measured=low,
        detail="worst (over t, w) mean excess per n: " + ", ".join(f"n={n:.0e}: {v:.3f}" for n, v in
                                                                    zip(ns, worst["pcl_eps1"]))
               + "; the members with 2w < r = n^(-1/2) and t inside a cube have excess exactly 1/2", kind="paper"))
    hist_low = float(worst["histogram"].min())
    claims.append(Claim(
        claim="The non-uniformity is the cube rule's, not privacy's: the non-private histogram rule's worst case is "
              f"also >= {WORST_FLOOR:g} at every n", holds=hist_low >= WORST_FLOOR, expected=0.5, measured=hist_low,
        detail="worst per n: " + ", ".join(f"{v:.3f}" for v in worst["histogram"]), kind="beyond"))
    erm_ratio = float(np.max(worst["erm"] * (np.array(ns) + 1)))
    claims.append(Claim(
        claim=f"Uniform non-private learner: ERM's worst excess over the family is <= {ERM_FACTOR:g}/(n+1) at every n",
        holds=erm_ratio <= ERM_FACTOR, expected=1.0, measured=erm_ratio,
        detail="max over n of (n+1)·(worst mean excess); the expected gap mass of the realizable ERM is 1/(n+1) "
               "for every member (order statistics of uniforms), whatever t and w", kind="paper"))
    return claims


def _notes(per_spread, worst, spreads, ns, n_locs, n_trials) -> str:
    return ("| spread w | " + " | ".join(f"n = {n:.0e}" for n in ns) + " |\n| --- |" + " --- |" * len(ns) + "\n"
             + "\n".join(f"| {w:g} | " + " | ".join(f"{v:.3g}" for v in per_spread["pcl_eps1"][i]) + " |"
                         for i, w in enumerate(spreads))
             + "\n| **worst over the family** | " + " | ".join(f"**{v:.3g}**" for v in worst["pcl_eps1"]) + " |\n\n"
             f"PCL (ε = 1) mean excess error over the {n_locs} locations and {n_trials} trials each. "
             "Each row falls to 0 once n > w^(-2); the bottom row does not fall. This is an illustration, not a "
             "proof, of the impossibility of private PAC learning (which holds for every private learner); "
             "the worst case shown is PCL's.")


def plot(result: ExperimentResult) -> dict:
    """Two panels: PCL's mean excess per spread against the worst case, and the worst case of the three rules.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data``).

    Returns
    -------
    dict
        ``{"thresholds": matplotlib.figure.Figure}``.

    References
    ----------
    001 Section 1, Theorem 1.5.

    Examples
    --------
    Needs a computed result (minutes), so not run here:

    >>> from simulations.experiments.base import RunContext
    >>> list(plot(compute(RunContext(profile="smoke"))))  # doctest: +SKIP
    ['thresholds']
    """
    D = result.data
    ns = np.array(D["ns"], dtype=float)
    fig, axes = figure(1, 2, width=4.6, height=3.4,
                       title="1-D thresholds x ~ U[t−w, t+w], y = 1[x > t]: exact excess error vs n")
    ax = axes[0]
    for i, w in enumerate(D["spreads"]):
        ax.plot(ns, np.maximum(D["per_spread"]["pcl_eps1"][i], 1e-7), marker="o", ms=3, color=color(i), label=f"w = {w:g}")
    ax.plot(ns, D["worst"]["pcl_eps1"], "k--", lw=2, label="worst over the family")
    ax.set(xscale="log", yscale="log", xlabel="n", ylabel="excess error (mean over t)",
           title="PCL (ε = 1): each member vs the worst case")
    ax.legend(fontsize=7)
    ax = axes[1]
    for i, rule in enumerate(RULES):
        ax.plot(ns, np.maximum(D["worst"][rule], 1e-9), marker="s" if i != 1 else "x", ms=4 if i != 1 else 7,
                ls="-" if i != 1 else "--", color=color(i), label=RULE_LABEL[rule])  # PCL and histogram coincide
    ax.plot(ns, 1 / (ns + 1), ":", color="grey", label="1/(n+1)")
    ax.set(xscale="log", yscale="log", xlabel="n", ylabel="worst excess over the family",
           title="worst case: universal but not uniform")
    ax.legend(fontsize=7)
    return {"thresholds": fig}


# Registered through simulations/experiments/catalogue.py ("thresholds_contrast"):
# name, what it reproduces, report order.
