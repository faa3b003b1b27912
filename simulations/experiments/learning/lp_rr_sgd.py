"""``lp_rr_sgd``: excess population loss of LP-RR-SGD and LP-Normal-SGD vs n and vs the dimension p
(004 Theorem 9, Proposition 11).

**Law.** K = 3 classes, features ``x = (cos θ · z, sin θ · ξ) ∈ R^p`` (||x|| = 1, θ = π/4) with z
uniform on the unit circle (the signal) and ξ uniform on the unit sphere of the other p - 2
coordinates (label-free nuisance directions); ``P(y = k | x) = softmax(W* x)_k`` with ``W*[k] =
β (cos 2πk/3, sin 2πk/3, 0, ..., 0)``, β = 3, so the model is well specified. Loss: multiclass
logistic ``ℓ(W, (x, y)) = -log softmax(W x)_y`` on the Frobenius ball of radius R = 6 ≥ ||W*|| =
3√3 (D = 2R = 12, L = √2, K = 3, ε = 0.5, δ = 10⁻⁵ for LP-Normal-SGD).

**Excess population loss, exact in y.** W* minimizes the population loss over all W (well specified),
so ``L(Ŵ) - min_W L(W) = E_x KL(softmax(W* x) || softmax(Ŵ x))``: the expectation over y is exact;
the one over x is a mean over a held-out sample of x (5 000 points at the quick profile, 10 000 at
the paper profile; EVAL stream, fresh in every trial, so its error is part of the trial-to-trial
spread that the CIs cover).

**What 004 predicts.** Theorem 9: LP-RR-SGD (steps ``η_t = Dε/(6KL√t)``, last iterate) has excess
loss ``O(DLK log n / (ε √n))``, with no dependence on p; Proposition 11: LP-Normal-SGD has
``O(DL √(K log 1/δ) log n / (ε √n))`` — smaller by √K only when ``log(1/δ) < K``; here
(K = 3, δ = 10⁻⁵) its bound is ``√(ln(10⁵)/3) ≈ 1.96`` times *larger*. Non-private SGD
(``η_t = D/(L√t)``) is the reference. The nuisance coordinates make p matter for the iterates (the
gradient noise spreads over them), which is what the p sweep tests.

References: 004 Algorithm 5, eq. (7), Theorem 9; Algorithm 6, Proposition 11.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from limits.validation import check_int
from simulations.engine import engine_options, run_trials, trial_streams
from simulations.experiments.base import Claim, ExperimentResult
from simulations.learning.private_sgd import gaussian_sigma, lp_sgd_logistic
from simulations.plotting import band, figure
from simulations.seeding import EVAL, stream
from simulations.stats import EXCLUDED, HOLDS, INCONCLUSIVE, bound_verdict, fit_loglog_slope, holds_from, t_interval

__all__ = ["SGDPoint", "sample_law", "sgd_trial", "excess_loss"]

METHODS = ("rr", "normal", "nonprivate")
# Margins of the interval verdicts (simulations.stats.bound_verdict: holds / excluded / inconclusive from the one CI):
#: slope vs n at most the local slope of log n/√n: 0, the bound is already that curve's slope on this very grid
N_SLOPE_MARGIN = 0.0
#: slope vs p at most 0 ("does not grow with p"): 0.05, i.e. at most 256^0.05 = 1.32x over p = 4..1024
P_SLOPE_MARGIN = 0.05
LABELS = {"rr": "LP-RR-SGD (ε-DP)", "normal": "LP-Normal-SGD ((ε, δ)-DP)", "nonprivate": "non-private SGD"}
K, BETA, RADIUS, THETA, EPS, DELTA = 3, 3.0, 6.0, math.pi / 4, 0.5, 1e-5


@dataclass(frozen=True, slots=True)
class Profile:
    """Grids of one profile: excess loss vs n at fixed p, and vs p at fixed n."""

    trials: int
    ns: tuple[int, ...]  # the n grid
    p_for_ns: int  # dimension p along the n grid
    ps: tuple[int, ...]  # the p grid
    n_for_ps: int  # sample size n along the p grid
    n_eval: int  # evaluation points of the population loss


PROFILES = {
    "smoke": Profile(trials=3, ns=(500, 2000), p_for_ns=8, ps=(4, 64), n_for_ps=1000, n_eval=2000),
    "quick": Profile(trials=20, ns=(1000, 2000, 4000, 8000, 16000, 32000), p_for_ns=16, ps=(4, 16, 64, 256, 1024),
                     n_for_ps=4000, n_eval=5000),
    "paper": Profile(trials=40, ns=(1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000), p_for_ns=16,
                     ps=(4, 16, 64, 256, 1024, 4096), n_for_ps=8000, n_eval=10000),
}


@dataclass(frozen=True, slots=True)
class SGDPoint:
    """One point of the sweeps: sample size n, dimension p, evaluation points and the privacy budget.

    Nothing is validated here; :func:`sgd_trial` refuses bad values when it runs.

    Parameters
    ----------
    n : int
        Training examples, >= 1: one pass of SGD, one example per step (004 Algorithms 5-6).
    p : int
        Feature dimension, >= 3 (two signal coordinates, p − 2 label-free nuisance ones).
    n_eval : int
        Points x of the held-out sample over which the excess loss is averaged, >= 1.
    epsilon : float, default 0.5
        Label-DP budget ε of LP-RR-SGD and LP-Normal-SGD, > 0 (004 Theorem 9 and Proposition 11 take
        ε in (0, 1)).
    delta : float, default 1e-05
        δ of LP-Normal-SGD's (ε, δ)-label DP, in (0, 1).

    References
    ----------
    004 Algorithm 5 (LP-RR-SGD), Theorem 9; Algorithm 6 (LP-Normal-SGD), Proposition 11.

    Examples
    --------
    >>> SGDPoint(n=1000, p=16, n_eval=5000)
    SGDPoint(n=1000, p=16, n_eval=5000, epsilon=0.5, delta=1e-05)
    """

    n: int
    p: int
    n_eval: int
    epsilon: float = EPS
    delta: float = DELTA


def w_star(p: int) -> np.ndarray:
    W = np.zeros((K, p))
    ang = 2 * np.pi * np.arange(K) / K
    W[:, 0], W[:, 1] = BETA * np.cos(ang), BETA * np.sin(ang)
    return W


def sample_x(n: int, p: int, rng) -> np.ndarray:
    """x = (cos θ z, sin θ ξ), z uniform on the circle, ξ uniform on the unit sphere of R^{p-2}; (n, p)."""
    a = rng.uniform(0, 2 * np.pi, size=n)
    xi = rng.normal(size=(n, p - 2))
    xi /= np.linalg.norm(xi, axis=1, keepdims=True)
    return np.concatenate([math.cos(THETA) * np.stack([np.cos(a), np.sin(a)], axis=1), math.sin(THETA) * xi], axis=1)


def _softmax(U):
    U = U - U.max(axis=1, keepdims=True)
    E = np.exp(U)
    return E / E.sum(axis=1, keepdims=True)


def sample_law(n: int, p: int, rng):
    r"""(X (n, p), y (n,)) with P(y = k | x) = softmax(W* x)_k.

    :math:`x = (\cos\theta\, z, \sin\theta\, \xi)` with z uniform on the unit circle, ξ uniform on the
    unit sphere of :math:`\mathbb{R}^{p-2}` and θ = π/4, so :math:`\|x\| = 1`; the label follows the
    well-specified multiclass logistic model with :math:`W^*[k] = \beta(\cos 2\pi k/3, \sin 2\pi k/3,
    0, \dots, 0)`, β = 3, K = 3.

    Parameters
    ----------
    n : int
        Number of examples, >= 0.
    p : int
        Dimension, >= 3 (at p = 2 there is no nuisance part and :math:`\|x\| = \cos\theta`).
    rng : numpy.random.Generator
        The DATA stream.

    Returns
    -------
    X : ndarray of float64, shape (n, p)
        Features, unit norm.
    y : ndarray of int64, shape (n,)
        Labels in {0, 1, 2}.

    Raises
    ------
    ValueError
        If ``n`` is not an integer >= 0 or ``p`` not an integer >= 3 (naming it).

    References
    ----------
    004 Theorem 9 (the stochastic convex optimization setting: L-Lipschitz loss, ``||x|| <= 1``).

    Examples
    --------
    >>> import numpy as np
    >>> X, y = sample_law(6, 5, np.random.default_rng(0))
    >>> X.shape, y.shape, bool(np.allclose(np.linalg.norm(X, axis=1), 1.0)), set(y.tolist()) <= {0, 1, 2}
    ((6, 5), (6,), True, True)
    >>> sample_law(6, 2, np.random.default_rng(0))
    Traceback (most recent call last):
    ...
    ValueError: p must be an integer >= 3, got p=2
    """
    n, p = check_int("n", n, low=0), check_int("p", p, low=3)
    X = sample_x(n, p, rng)
    P = _softmax(X @ w_star(p).T)
    y = (rng.random(n)[:, None] > np.cumsum(P, axis=1)).sum(axis=1)
    return X, np.minimum(y, K - 1).astype(np.int64)


def excess_loss(W: np.ndarray, X_eval: np.ndarray) -> float:
    r"""Mean over x of KL(softmax(W* x) || softmax(W x)) = L(W) - L(W*), exact in y.

    The model is well specified (W* minimizes the population loss), so the excess multiclass logistic
    loss of W is :math:`E_x\, \mathrm{KL}(\mathrm{softmax}(W^* x) \,\|\, \mathrm{softmax}(W x))`: the
    expectation over y is exact, the one over x is the mean over the rows of ``X_eval``.

    Parameters
    ----------
    W : ndarray of float, shape (3, p)
        The weights to score (K = 3 rows).
    X_eval : ndarray of float, shape (m, p)
        Evaluation points, m >= 1 (any reals; the law's points have unit norm).

    Returns
    -------
    float
        The mean KL divergence, >= 0 up to rounding; 0 at ``W = W*``.

    Raises
    ------
    ValueError
        From numpy, if the shapes do not match.

    References
    ----------
    004 Theorem 9, Proposition 11 (the excess population loss they bound).

    Examples
    --------
    At x = (0, 0, 1) the true law is uniform (W* x = 0); weights giving class 0 the logit ln 2 predict
    q = (2, 1, 1)/4, and KL(u || q) = (1/3)(ln(4/6) + 2 ln(4/3)) = ln(32/27)/3 = 0.056633:

    >>> import math, numpy as np
    >>> W = np.zeros((3, 3)); W[0, 2] = math.log(2)
    >>> round(excess_loss(W, np.array([[0.0, 0.0, 1.0]])), 6)
    0.056633
    >>> excess_loss(np.zeros((3, 3)), np.array([[0.0, 0.0, 1.0]]))
    0.0
    """
    U, V = X_eval @ w_star(X_eval.shape[1]).T, X_eval @ W.T
    ls = lambda A: A - A.max(axis=1, keepdims=True) - np.log(np.exp(A - A.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True))  # noqa: E731
    lp, lq = ls(U), ls(V)
    return float(np.mean((np.exp(lp) * (lp - lq)).sum(axis=1)))


def sgd_trial(pt: SGDPoint, trial: int, root_seed: int) -> dict:
    """``{"excess": (3,)}`` for LP-RR-SGD, LP-Normal-SGD, non-private SGD on one data stream.

    The n training examples (DATA stream) are shared by the three methods, each makes one projected SGD
    pass on the Frobenius ball of radius 6 from W = 0 with its own noise (PRIVACY stream), and each
    output is scored by :func:`excess_loss` on ``n_eval`` fresh points (EVAL stream).

    Parameters
    ----------
    pt : SGDPoint
        The point.
    trial : int
        Trial index, >= 0.
    root_seed : int
        The run's root seed, >= 0 (:func:`simulations.engine.trial_streams`).

    Returns
    -------
    dict
        ``{"excess": ndarray of float64, shape (3,)}``: excess population loss of LP-RR-SGD,
        LP-Normal-SGD and non-private SGD, in that order, each >= 0 up to rounding.

    Raises
    ------
    ValueError
        If ``pt.epsilon`` or ``pt.delta`` is out of range
        (:func:`simulations.learning.private_sgd.lp_sgd_logistic`), or a seed is negative.

    References
    ----------
    004 Algorithm 5, eq. (7), Theorem 9; Algorithm 6, Proposition 11.

    Examples
    --------
    >>> r = sgd_trial(SGDPoint(n=50, p=4, n_eval=20), 0, 1)
    >>> r["excess"].shape, bool((r["excess"] >= -1e-12).all())
    ((3,), True)
    """
    data, privacy, ev = trial_streams(pt, trial, root_seed)
    X, y = sample_law(pt.n, pt.p, data)
    X_eval = sample_x(pt.n_eval, pt.p, ev)
    out = []
    for m in METHODS:
        kw = {"rr": dict(epsilon=pt.epsilon), "normal": dict(epsilon=pt.epsilon, delta=pt.delta)}.get(m, {})
        W = lp_sgd_logistic(X, y, num_classes=K, method=m, radius=RADIUS, rng=privacy, **kw)
        out.append(excess_loss(W, X_eval))
    return {"excess": np.array(out)}


def theorem9_bound(n) -> np.ndarray:
    """DLK log n / (ε √n) with constant 1 (D = 2R, L = √2)."""
    n = np.asarray(n, float)
    return 2 * RADIUS * math.sqrt(2) * K * np.log(n) / (EPS * np.sqrt(n))


def prop11_bound(n) -> np.ndarray:
    """DL √(K log 1/δ) log n / (ε √n) with constant 1."""
    n = np.asarray(n, float)
    return 2 * RADIUS * math.sqrt(2) * math.sqrt(K * math.log(1 / DELTA)) * np.log(n) / (EPS * np.sqrt(n))


def gaussian_sigma_value() -> float:
    return gaussian_sigma(math.sqrt(2), EPS, DELTA)


def compute(ctx) -> ExperimentResult:
    """Entry point of ``lp_rr_sgd``: the n sweep and the p sweep of :func:`sgd_trial`, slopes and claims.

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper"), seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        Table ``excess_loss`` (per sweep, n, p and method: mean and 95% t-interval over trials, and
        Theorem 9's bound with constant 1); from the quick profile on, the claims: LP-RR-SGD's
        log-log slope against n at most the local slope of log n/√n, its mean below Theorem 9's bound
        and LP-Normal-SGD's below Proposition 11's at every n, neither private method's excess loss
        growing with p (slope <= 0.05), and LP-RR-SGD beating LP-Normal-SGD at every n (K = 3,
        δ = 1e-5); notes with the fitted slopes; plot data.

    Raises
    ------
    ValueError
        For an unknown profile, before any work.

    References
    ----------
    004 Algorithm 5, eq. (7), Theorem 9; Algorithm 6, Proposition 11.

    Examples
    --------
    A run takes minutes (``paper_repro.py --only lp_rr_sgd``); an unknown profile is refused before
    any work:

    >>> from simulations.experiments.base import RunContext
    >>> compute(RunContext(profile="huge"))
    Traceback (most recent call last):
    ...
    ValueError: profile must be one of ['paper', 'quick', 'smoke'], got profile='huge'
    """
    prof = PROFILES[ctx.profile]
    trials, ns, p0, ps, n0, n_eval = prof.trials, prof.ns, prof.p_for_ns, prof.ps, prof.n_for_ps, prof.n_eval
    pts_n = [SGDPoint(n=n, p=p0, n_eval=n_eval) for n in ns]
    pts_p = [SGDPoint(n=n0, p=p, n_eval=n_eval) for p in ps]
    configs = list(dict.fromkeys(pts_n + pts_p))
    res = run_trials(sgd_trial, configs, trials, version="lp_rr_sgd/v1", **engine_options(ctx))
    by = {c: r["excess"] for c, r in zip(res.configs, res.per_config)}
    fits_n = {m: fit_loglog_slope(ns, [by[c][:, j] for c in pts_n], rng=stream(ctx.seed, f"lp_rr_sgd/n/{m}", 0, EVAL))
              for j, m in enumerate(METHODS)}
    fits_p = {m: fit_loglog_slope(ps, [by[c][:, j] for c in pts_p], rng=stream(ctx.seed, f"lp_rr_sgd/p/{m}", 0, EVAL))
              for j, m in enumerate(METHODS)}
    claims = [] if ctx.profile == "smoke" else (_rate_claims(by, pts_n, fits_n, ns, p0)
                                                + _dimension_claims(by, pts_p, fits_p, ps, n0)
                                                + [_rr_vs_normal_claim(by, pts_n)])
    return ExperimentResult(tables={"excess_loss": _excess_table(by, pts_n, pts_p)}, claims=claims,
                            notes=_notes(fits_n, fits_p, p0, n0),
                            data={"ns": ns, "ps": ps, "p0": p0, "n0": n0, "by": by, "pts_n": pts_n, "pts_p": pts_p})


def _excess_table(by, pts_n, pts_p) -> dict:
    """Excess loss per (sweep, n, p, method): mean, 95 % t-CI, Theorem 9's bound."""
    table = {k: [] for k in ("sweep", "n", "p", "method", "trials", "mean", "ci_low", "ci_high", "theorem9_bound")}
    for sweep, pts in (("n", pts_n), ("p", pts_p)):
        for c in pts:
            for j, m in enumerate(METHODS):
                mean, _, nt, lo, hi = t_interval(by[c][:, j])
                for k, v in zip(table, (sweep, c.n, c.p, m, nt, mean, lo, hi, float(theorem9_bound(c.n)))):
                    table[k].append(v)
    return table


def _rate_claims(by, pts_n, fits_n, ns, p0) -> list[Claim]:
    """The n sweep: LP-RR-SGD's slope and Theorem 9's bound, LP-Normal-SGD under Proposition 11's bound."""
    claims = []
    f = fits_n["rr"]
    local = -0.5 + 1.0 / math.log(math.sqrt(ns[0] * ns[-1]))  # slope of log n / √n at the grid's centre
    verdict = bound_verdict(local, f.ci_low, f.ci_high, N_SLOPE_MARGIN, side="at_most")
    claims.append(Claim(
        claim="LP-RR-SGD's excess loss decays at least as fast as Theorem 9's log n / √n on this n range (fitted "
              f"slope vs n <= {local:.2f}, the local slope of log n/√n on this grid; an upper bound does not "
              "force this, it is what the measured curve does)",
        holds=holds_from(verdict), expected=-0.5, measured=f.slope,
        detail=f"{verdict} (holds: CI below {local:.2f}; excluded: CI above it); slope {f.slope:.3f}, bootstrap "
               f"95% CI [{f.ci_low:.3f}, {f.ci_high:.3f}] over n = {ns[0]}..{ns[-1]} "
               f"(p = {p0}); CI {'contains' if f.contains(-0.5) else 'excludes'} -1/2", kind="beyond"))
    worst = max(by[c][:, 0].mean() / theorem9_bound(c.n) for c in pts_n)
    claims.append(Claim(
        claim="LP-RR-SGD's mean excess loss is below Theorem 9's bound DLK log n/(ε√n) with constant 1 at every n",
        holds=bool(worst < 1), expected=1.0, measured=float(worst),
        detail=f"largest ratio mean excess / bound = {worst:.4f} (the bound is loose by that factor)", kind="paper"))
    worst_n = max(by[c][:, 1].mean() / prop11_bound(c.n) for c in pts_n)
    fN = fits_n["normal"]
    claims.append(Claim(
        claim="LP-Normal-SGD's mean excess loss is below Proposition 11's bound DL√(K log 1/δ) log n/(ε√n) "
              "(constant 1) at every n",
        holds=bool(worst_n < 1), expected=1.0, measured=float(worst_n),
        detail=(f"largest ratio mean excess / bound = {worst_n:.4f}; but its fitted slope vs n is {fN.slope:.3f} "
                f"[95% CI {fN.ci_low:.3f}, {fN.ci_high:.3f}], slower than log n/√n on this range (the Gaussian "
                f"noise, σ = {gaussian_sigma_value():.1f} per label direction, keeps the iterate near the ball's "
                "boundary; the bound is far above the curve, so this does not contradict it)"), kind="paper"))
    return claims


def _dimension_claims(by, pts_p, fits_p, ps, n0) -> list[Claim]:
    """The p sweep: neither private method's excess loss grows with p (dimension-free)."""
    claims = []
    for m in ("rr", "normal"):
        g = fits_p[m]
        verdict = bound_verdict(0.0, g.ci_low, g.ci_high, P_SLOPE_MARGIN, side="at_most")
        claims.append(Claim(
            claim=f"{LABELS[m]}: the excess loss does not grow with the dimension p (004 Theorem 9 / Prop. 11: "
                  f"dimension-free), fitted slope vs p <= {P_SLOPE_MARGIN:g}",
            holds=holds_from(verdict), expected=0.0, measured=g.slope,
            detail=f"{verdict} (holds: CI below {P_SLOPE_MARGIN:g}; excluded: CI above it); log-log slope vs "
                   f"p = {ps[0]}..{ps[-1]} at n = {n0}: {g.slope:.3f}, 95% CI [{g.ci_low:.3f}, "
                   f"{g.ci_high:.3f}]; means " + ", ".join(f"p={c.p}: {by[c][:, METHODS.index(m)].mean():.4f}"
                                                          for c in pts_p), kind="paper"))
    return claims


def _rr_vs_normal_claim(by, pts_n) -> Claim:
    """At K = 3, δ = 1e-5 LP-RR-SGD beats LP-Normal-SGD at every n of the sweep (paired)."""
    r = np.array([by[c][:, 1].mean() / by[c][:, 0].mean() for c in pts_n])
    d = [by[c][:, 1] - by[c][:, 0] for c in pts_n]
    cis = [t_interval(v)[3:] for v in d]
    lows = [lo for lo, _ in cis]
    per_n = [bound_verdict(0.0, lo, hi, 0.0, side="at_least") for lo, hi in cis]  # paired difference > 0
    every = HOLDS if all(v == HOLDS for v in per_n) else (EXCLUDED if EXCLUDED in per_n else INCONCLUSIVE)
    return Claim(
        claim="at K = 3, δ = 1e-5, LP-RR-SGD beats LP-Normal-SGD at every n (Prop. 11's √K gain needs "
              "log(1/δ) < K; here its bound is 1.96x larger)",
        holds=holds_from(every), expected=math.sqrt(math.log(1 / DELTA) / K), measured=float(np.mean(r)),
        detail=f"{every} (holds: every paired CI above 0; excluded: one below 0); ratio of means Normal/RR "
               "per n: " + ", ".join(f"{x:.2f}" for x in r)
               + f"; smallest lower end of the paired-difference CIs {min(lows):+.4f}", kind="beyond")


def _notes(fits_n, fits_p, p0, n0) -> str:
    notes = [__doc__.split("\n\n", 1)[1].split("References")[0].strip(), "",
             "**Reading the slopes.** Theorem 9's step η_t = Dε/(6KL√t) is 6K/ε = 36 times smaller than the non-private "
             "D/(L√t) here, so at small n LP-RR-SGD is still far from W* (optimization error, not noise, dominates) and "
             "its curve falls faster than 1/√n while it catches up; its excess stays 3-8x the non-private one on "
             "this range, and the bound lies 100-500x above it. The p sweep holds n fixed and adds label-free directions: "
             "neither private method gets worse with p (dimension-free, as Theorem 9 / Prop. 11 state; the "
             "excess even drops slightly because a random nuisance weight's effect on the logits shrinks like "
             "1/√p).", "",
             "| sweep | method | fitted log-log slope [95% bootstrap CI] |", "|---|---|---|"]
    for m in METHODS:
        notes.append(f"| vs n (p = {p0}) | {LABELS[m]} | {fits_n[m].slope:.3f} [{fits_n[m].ci_low:.3f}, {fits_n[m].ci_high:.3f}] |")
    for m in METHODS:
        notes.append(f"| vs p (n = {n0}) | {LABELS[m]} | {fits_p[m].slope:.3f} [{fits_p[m].ci_low:.3f}, {fits_p[m].ci_high:.3f}] |")
    return "\n".join(notes)


def plot(result) -> dict:
    """Excess population loss against n and against p (log-log, mean and 95% CI per method).

    The n panel adds the shape of Theorem 9's bound, log n/√n, scaled to LP-RR-SGD's first point.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute` (reads ``data["ns"]``, ``"ps"``, ``"p0"``, ``"n0"``, ``"by"``,
        ``"pts_n"`` and ``"pts_p"``).

    Returns
    -------
    dict
        ``{"lp_rr_sgd": matplotlib.figure.Figure}``.

    Raises
    ------
    KeyError
        If ``result.data`` lacks an entry.

    References
    ----------
    004 Theorem 9, Proposition 11.

    Examples
    --------
    Needs a computed result (minutes), so not run here:

    >>> from simulations.experiments.base import RunContext
    >>> list(plot(compute(RunContext(profile="smoke"))))  # doctest: +SKIP
    ['lp_rr_sgd']
    """
    d = result.data
    fig, axes = figure(1, 2, width=4.4, title="Multiclass logistic SCO with label DP (K = 3, ε = 0.5): excess "
                                             "population loss (mean, 95 % CI)")
    for ax, pts, x, xl in ((axes[0], d["pts_n"], d["ns"], f"n (p = {d['p0']})"),
                           (axes[1], d["pts_p"], d["ps"], f"dimension p (n = {d['n0']})")):
        for j, m in enumerate(METHODS):
            st = np.array([t_interval(d["by"][c][:, j]) for c in pts])
            band(ax, x, st[:, 0], np.maximum(st[:, 3], st[:, 0] * 1e-2), st[:, 4], i=j, label=LABELS[m])
        if ax is axes[0]:
            ax.plot(x, theorem9_bound(x) * (d["by"][pts[0]][:, 0].mean() / theorem9_bound(x[0])), "k--", lw=1,
                    label="log n / √n (Thm 9 shape)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xl)
        ax.set_ylabel("E_x KL = excess population loss")
        ax.legend(fontsize=7, loc="lower left")
    axes[0].set_title("vs n")
    axes[1].set_title("vs p: dimension-free")
    return {"lp_rr_sgd": fig}


# Registered through simulations/experiments/catalogue.py ("lp_rr_sgd"): name, what it reproduces, report order.
