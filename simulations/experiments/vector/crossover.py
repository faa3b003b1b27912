"""Experiment ``vector_crossover``: from which K do the vector mechanisms beat randomized response?

Beyond the papers. 000 Section 5.1 shows the K-bit vector mechanism (eq. (12)-(13), ε/2 per bit) ahead of
RR at large K; 002's Limitations paragraph names its symmetric flipping as a weakness at large ε and
suggests asymmetric flipping, which the suite builds as
:class:`~simulations.mechanisms.AsymmetricVectorMechanism` (label's bit 1 w.p. 1/2, the others w.p.
1/(e^ε + 1); its own construction). Here the three local ε-label-DP methods — RR (004 eq. (1)),
Vector and Vector (asymmetric) — are compared on 000's synthetic setting: K Gaussian classes on the unit
circle with σ = 2/K (000 Figure 2(b): the Bayes accuracy stays about 0.88 for every K, so K changes only
the label noise), N = 10000 training points, kNN with k = :data:`KNN_K` (000 Figures 3-4), accuracy as the
expected accuracy ``(1/M) Σ_x η_ŷ(x)`` at M fresh points, for ε in :data:`EPSILONS` and K on a log grid.

One trial draws the data once and privatizes it with each mechanism from one privacy stream (RR, Vector,
asymmetric, in that order); the methods share the neighbour lists and the vote's tie-breaking jitter
(common random numbers), so the per-trial difference "mechanism − RR" is paired. At each K the one
decision rule reads its 95% t-interval (:func:`simulations.stats.bound_verdict`, margin 0: "wins" when
the interval lies above 0). The **crossover** of a mechanism at ε is the smallest grid K from which it
wins at every larger grid K; "no crossover in grid" when it does not win at the largest K.

Closed-form companion (table ``noise_to_signal``, no randomness): the variance of one debiased bit,
``(Z(j) − b)/(a − b)`` (000 eq. (24) inverted), is ``b(1 − b)/(a − b)^2`` off the label for both
mechanisms ((a, b) = each one's ``flip_probabilities``): ``e^{ε/2}/(e^{ε/2} − 1)^2`` for Vector and
``4e^ε/(e^ε − 1)^2`` for the asymmetric one, smaller by the factor ``cosh^2(ε/4)`` (1.03 at ε = 0.5,
2.38 at ε = 4), while on the label's bit the asymmetric one's ``(1/4)/(1/2 − q)^2`` is larger. What decides
a vote is the comparison of two classes' bit sums where their probabilities are close; at a two-class
boundary (η_y = η_j = 1/2, the other classes absent) one neighbour adds ``(a − b)(η_y − η_j)`` to the mean of
``Z(y) − Z(j)`` and ``a(1 − a) + b(1 − b) + (a − b)^2`` to its variance (the bits are independent given the
label; the label makes them covary by ``−(a − b)^2 η_y η_j``), an efficiency ``(a − b)^2/(a(1 − a) + b(1 − b)
+ (a − b)^2)``: ``(t − 1)^2/(t^2 + 1)`` for Vector (t = e^{ε/2}) and ``(t^2 − 1)^2/(2(t^2 + 1)^2)`` for the
asymmetric one, whose ratio ``2(e^ε + 1)/(e^{ε/2} + 1)^2 >= 1`` (1.02 at ε = 0.5, 1.58 at ε = 4): at the
boundaries where kNN errs, the symmetric mechanism's vote is the more efficient one at every ε. (The
efficiency, ``(a − b)^2/(a + b − 2ab)``, is unchanged by ``(a, b) -> (1 − b, 1 − a)``, which keeps the loss
``ln[a(1 − b)/(b(1 − a))]``; along the curve of loss ε it peaks at that map's fixed point a = 1 − b: 000's
ε/2 per bit. The asymmetric choice p = 1/2 minimizes the variance of the debiased zero bits instead, the
criterion of frequency estimation.)

References: 000 Section 5.1 (setting), eq. (12)-(13), (16), (24); 002 Limitations paragraph; 004 eq. (1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from limits.validation import check_int, check_positive
from simulations.engine import engine_options, run_trials, trial_streams
from simulations.estimators.grid_knn import GridIndex
from simulations.estimators.private_knn import ASYMMETRIC
from simulations.experiments.base import Claim, ExperimentResult
from simulations.kernels_knn import neighbour_label_counts, neighbour_row_sums, vote
from simulations.laws import CircleMixture
from simulations.mechanisms import AsymmetricVectorMechanism, RandomizedResponse, VectorMechanism
from simulations.plotting import band, figure
from simulations.stats import bound_verdict, holds_from, t_interval

__all__ = ["CrossoverPoint", "EPSILONS", "KNN_K", "K_GRID", "METHODS", "PROFILES", "compute", "crossover_k",
           "crossover_trial", "noise_to_signal", "plot"]

EPSILONS = (0.5, 1.0, 2.0, 4.0)
K_GRID = (2, 3, 5, 8, 13, 20, 32, 50, 100)  # about 1.6x apart, 2 to 100
KNN_K = 100  # 000 Figures 3-4's k
METHODS = ("RR", "Vector", ASYMMETRIC)
VECTORS = ("Vector", ASYMMETRIC)
#: "wins" = the paired 95% CI of (mechanism − RR) lies above 0: a strict ordering, so no tolerance
WIN_MARGIN = 0.0


@dataclass(frozen=True, slots=True)
class Profile:
    """Sizes of one profile: trials per point, training and evaluation points, the grids.

    Examples
    --------
    >>> PROFILES["quick"].trials, PROFILES["paper"].trials
    (30, 200)
    """

    trials: int
    N: int
    M: int
    k: int = KNN_K
    K_grid: tuple = K_GRID
    epsilons: tuple = EPSILONS


PROFILES = {"smoke": Profile(trials=3, N=1000, M=100, k=50, K_grid=(2, 10), epsilons=(1.0, 4.0)),
            "quick": Profile(trials=30, N=10000, M=500),
            "paper": Profile(trials=200, N=10000, M=1000)}


@dataclass(frozen=True, slots=True)
class CrossoverPoint:
    """One (K, ε) point: the law (K classes on the circle, σ = 2/K), ε, kNN's k and the sizes.

    Parameters
    ----------
    num_classes : int
        K >= 2.
    epsilon : float
        ε > 0 of every mechanism.
    k : int
        kNN's k, ``1 <= k <= N``.
    N, M : int
        Training and evaluation points, >= 1.

    Raises
    ------
    ValueError
        If a value is out of range.

    References
    ----------
    000 Section 5.1 (Figure 2(b): σ = 2/K).

    Examples
    --------
    >>> CrossoverPoint(num_classes=10, epsilon=1.0, k=100, N=10000, M=500).sigma
    0.2
    """

    num_classes: int
    epsilon: float
    k: int
    N: int
    M: int

    def __post_init__(self):
        check_int("num_classes", self.num_classes, low=2)
        check_positive("epsilon", self.epsilon)
        check_int("M", self.M, low=1)
        if check_int("k", self.k, low=1) > check_int("N", self.N, low=1):
            raise ValueError(f"k must be <= N={self.N}, got k={self.k}")

    @property
    def sigma(self) -> float:
        """σ = 2/K (000 Figure 2(b)).

        Returns
        -------
        float

        Examples
        --------
        >>> CrossoverPoint(4, 1.0, 5, 10, 1).sigma
        0.5
        """
        return 2.0 / self.num_classes


def crossover_trial(cfg: CrossoverPoint, t: int, root_seed: int) -> dict:
    """Expected accuracy of RR, Vector and Vector (asymmetric) in one trial (keys ``acc_<method>``).

    Parameters
    ----------
    cfg : CrossoverPoint
    t : int
        Trial index, >= 0.
    root_seed : int
        The run's root seed, >= 0.

    Returns
    -------
    dict of str to float
        ``acc_RR``, ``acc_Vector``, ``acc_Vector (asymmetric)``, each in [0, 1].

    References
    ----------
    000 Section 5.1, eq. (12)-(13), (16); 004 eq. (1); 002 Limitations paragraph.

    Examples
    --------
    >>> acc = crossover_trial(CrossoverPoint(3, 1.0, 5, 100, 20), 0, 1)
    >>> list(acc), all(0.0 <= v <= 1.0 for v in acc.values())
    (['acc_RR', 'acc_Vector', 'acc_Vector (asymmetric)'], True)
    """
    data, privacy, evaluation = trial_streams(cfg, t, root_seed)
    K, eps = cfg.num_classes, cfg.epsilon
    law = CircleMixture(K, cfg.sigma)
    X, Y = law.sample(cfg.N, data)
    Xe, _ = law.sample(cfg.M, evaluation)
    jitter = evaluation.random((cfg.M, K))
    _, idx = GridIndex(X, cfg.k).query(Xe, cfg.k)
    rr = RandomizedResponse(K, eps).sample(Y, privacy)
    sym = VectorMechanism(K, eps).sample(Y, privacy)
    asym = AsymmetricVectorMechanism(K, eps).sample(Y, privacy)
    preds = {"RR": vote(neighbour_label_counts(rr, idx, K), jitter), "Vector": vote(neighbour_row_sums(sym, idx), jitter),
             ASYMMETRIC: vote(neighbour_row_sums(asym, idx), jitter)}
    eta = law.posterior(Xe)
    rows = np.arange(cfg.M)
    return {f"acc_{m}": float(eta[rows, preds[m]].mean()) for m in METHODS}


def crossover_k(K_grid, verdicts):
    """Smallest K of the grid from which every verdict is "holds" (None: no crossover in the grid).

    Parameters
    ----------
    K_grid : sequence of int
        Increasing.
    verdicts : sequence of str
        The verdict at each K (:func:`simulations.stats.bound_verdict`).

    Returns
    -------
    int or None

    Examples
    --------
    >>> crossover_k([2, 5, 10, 20], ["excluded", "holds", "inconclusive", "holds"])
    20
    >>> crossover_k([2, 5], ["holds", "inconclusive"]) is None
    True
    """
    found = None
    for K, v in zip(reversed(list(K_grid)), reversed(list(verdicts))):
        if v != "holds":
            break
        found = K
    return found


def noise_to_signal(epsilon: float) -> dict:
    """Variance of one debiased bit off and on the label, both mechanisms (000 eq. (24) inverted).

    Parameters
    ----------
    epsilon : float > 0

    Returns
    -------
    dict
        ``{"<method> off": b(1-b)/(a-b)^2, "<method> on": a(1-a)/(a-b)^2, "<method> boundary":
        (a-b)^2/(a(1-a) + b(1-b) + (a-b)^2)}`` for Vector and the asymmetric one (module docstring).

    References
    ----------
    000 eq. (24); 002 Limitations paragraph.

    Examples
    --------
    At ε = 2 ln 3: Vector has a = 3/4, b = 1/4, both variances (3/16)/(1/4) = 3/4; the asymmetric one
    has p = 1/2, q = 1/10: (9/100)/(16/100) = 9/16 off the label and (1/4)/(16/100) = 25/16 on it:

    >>> {k: round(v, 12) for k, v in noise_to_signal(2 * np.log(3)).items() if not k.endswith("boundary")}
    {'Vector off': 0.75, 'Vector on': 0.75, 'Vector (asymmetric) off': 0.5625, 'Vector (asymmetric) on': 1.5625}

    At a boundary: (1/4)/(3/8 + 1/4) = 2/5 for Vector, (4/25)/(1/4 + 9/100 + 4/25) = 8/25 for the asymmetric one:

    >>> [round(v, 12) for k, v in noise_to_signal(2 * np.log(3)).items() if k.endswith("boundary")]
    [0.4, 0.32]
    """
    out = {}
    for name, mech in (("Vector", VectorMechanism(2, epsilon)), (ASYMMETRIC, AsymmetricVectorMechanism(2, epsilon))):
        a, b = mech.flip_probabilities()
        out[f"{name} off"], out[f"{name} on"] = b * (1 - b) / (a - b) ** 2, a * (1 - a) / (a - b) ** 2
        out[f"{name} boundary"] = (a - b) ** 2 / (a * (1 - a) + b * (1 - b) + (a - b) ** 2)
    return out


def _claims(summary, prof) -> list:
    claims, Kmax = [], max(prof.K_grid)
    for eps in prof.epsilons:
        for m in VECTORS:
            d = summary[(eps, Kmax, f"{m}-RR")]
            star = summary[(eps, "crossover", m)]
            where = "no crossover in grid" if star is None else (
                f"crossover K* = {star} (paired CI there {_ci(summary[(eps, star, f'{m}-RR')])})")
            claims.append(Claim(f"ε = {eps:g}: {m} beats RR at K = {Kmax} (paired 95% CI of accuracy − RR's above 0; "
                                "000 Sec. 5.1 setting, σ = 2/K; beyond the papers)",
                                holds_from(bound_verdict(0.0, d[1], d[2], WIN_MARGIN, side="at_least")), 0.0, d[0],
                                f"{where}; at K = {Kmax}: {_ci(d)}; n = {prof.trials} paired trials", kind="beyond"))
        d = summary[(eps, Kmax, f"{ASYMMETRIC}-Vector")]
        claims.append(Claim(f"ε = {eps:g}: {ASYMMETRIC} (002 Limitations' suggestion, suite construction) beats 000's "
                            f"Vector at K = {Kmax} (paired 95% CI above 0)",
                            holds_from(bound_verdict(0.0, d[1], d[2], WIN_MARGIN, side="at_least")), 0.0, d[0],
                            f"{_ci(d)}; n = {prof.trials} paired trials", kind="beyond"))
    return claims


def _ci(d) -> str:
    return f"{d[0]:+.4f} [{d[1]:+.4f}, {d[2]:+.4f}]"


def compute(ctx) -> ExperimentResult:
    """Run every (ε, K), summarize paired differences, find each mechanism's crossover against RR.

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper"), seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        Tables ``accuracy``, ``differences`` (paired, with the verdict), ``crossover`` and
        ``noise_to_signal``; "beyond" claims; ``data`` for :func:`plot`.

    References
    ----------
    000 Section 5.1; 002 Limitations paragraph; 004 eq. (1).

    Examples
    --------
    >>> from simulations.experiments.base import RunContext
    >>> [c.kind for c in compute(RunContext(profile="smoke")).claims][:2]  # doctest: +SKIP
    ['beyond', 'beyond']
    """
    prof = PROFILES[ctx.profile]
    pts = [CrossoverPoint(K, e, prof.k, prof.N, prof.M) for e in prof.epsilons for K in prof.K_grid]
    res = run_trials(crossover_trial, pts, prof.trials, version="vector_crossover.trial/v1", **engine_options(ctx))
    acc = {c: [] for c in ("eps", "K", "sigma", "method", "mean_accuracy", "ci_low", "ci_high", "bayes", "n_trials")}
    dif = {c: [] for c in ("eps", "K", "comparison", "difference", "ci_low", "ci_high", "verdict")}
    summary = {}
    for p, per in zip(pts, res.per_config):
        bayes = CircleMixture(p.num_classes, p.sigma).bayes_accuracy()
        for m in METHODS:
            mean, _, n, lo, hi = t_interval(per[f"acc_{m}"])
            for c, v in zip(acc, (p.epsilon, p.num_classes, p.sigma, m, mean, lo, hi, bayes, n)):
                acc[c].append(v)
        for m, ref in (("Vector", "RR"), (ASYMMETRIC, "RR"), (ASYMMETRIC, "Vector")):
            mean, _, _, lo, hi = t_interval(per[f"acc_{m}"] - per[f"acc_{ref}"])
            summary[(p.epsilon, p.num_classes, f"{m}-{ref}")] = (mean, lo, hi)
            verdict = bound_verdict(0.0, lo, hi, WIN_MARGIN, side="at_least")
            for c, v in zip(dif, (p.epsilon, p.num_classes, f"{m} − {ref}", mean, lo, hi, verdict)):
                dif[c].append(v)
    cross = {c: [] for c in ("eps", "method", "crossover_K")}
    for e in prof.epsilons:
        for m in VECTORS:
            v = [bound_verdict(0.0, *summary[(e, K, f"{m}-RR")][1:], WIN_MARGIN, side="at_least") for K in prof.K_grid]
            summary[(e, "crossover", m)] = star = crossover_k(prof.K_grid, v)
            for c, x in zip(cross, (e, m, "none in grid" if star is None else star)):
                cross[c].append(x)
    nts = {c: [] for c in ("eps", *noise_to_signal(1.0), "ratio_off", "ratio_boundary")}
    for e in prof.epsilons:
        row = noise_to_signal(e)
        for c, x in zip(nts, (e, *row.values(), row["Vector off"] / row[f"{ASYMMETRIC} off"],
                              row["Vector boundary"] / row[f"{ASYMMETRIC} boundary"])):
            nts[c].append(x)
    notes = (f"K Gaussian classes on the unit circle, σ = 2/K (000 Fig. 2(b)), N = {prof.N}, M = {prof.M}, kNN k = "
             f"{prof.k}, {prof.trials} trials per point; paired 95% t-intervals (common data, neighbours, jitter). "
             "Crossover: smallest K of the grid from which the mechanism beats RR at every larger grid K.\n\n"
             + "\n".join(f"- ε = {e:g}, {m}: crossover K = {k}" for e, m, k in zip(*cross.values())))
    return ExperimentResult(tables={"accuracy": acc, "differences": dif, "crossover": cross, "noise_to_signal": nts},
                            claims=_claims(summary, prof), notes=notes,
                            data={"summary": summary, "K_grid": list(prof.K_grid), "epsilons": list(prof.epsilons),
                                  "n_trials": prof.trials})


def plot(result: ExperimentResult) -> dict:
    """Accuracy of each vector mechanism minus RR's against K, one panel per ε, 95% bands, crossover marked.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute`.

    Returns
    -------
    dict
        ``{"difference": matplotlib.figure.Figure}``.

    References
    ----------
    000 Section 5.1; 002 Limitations paragraph.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> s = {(e, K, f"{m}-RR"): (0.0, -0.1, 0.1) for e in (1.0,) for K in (2, 10) for m in VECTORS}
    >>> s.update({(1.0, "crossover", m): None for m in VECTORS})
    >>> fig = plot(ExperimentResult(data={"summary": s, "K_grid": [2, 10], "epsilons": [1.0], "n_trials": 3}))
    >>> [ax.get_title() for ax in fig["difference"].axes]
    ['ε = 1']
    >>> plt.close(fig["difference"])
    """
    s, grid, eps = result.data["summary"], result.data["K_grid"], result.data["epsilons"]
    fig, axes = figure(1, len(eps), width=3.4, height=3.2, title="Accuracy minus RR's vs K (σ = 2/K, kNN; "
                       f"{result.data['n_trials']} trials, paired 95% CI; dotted: crossover K)")
    for ax, e in zip(np.atleast_1d(axes), eps):
        for i, m in enumerate(VECTORS):
            v = np.array([s[(e, K, f"{m}-RR")] for K in grid])
            band(ax, grid, v[:, 0], v[:, 1], v[:, 2], label=f"{m} − RR", i=i + 1)
            star = s[(e, "crossover", m)]
            if star is not None:
                ax.axvline(star, ls=":", lw=1.2, color=ax.lines[-1].get_color())
        ax.axhline(0.0, color="k", lw=0.8)
        ax.set_xscale("log")
        ax.set(xlabel="number of classes K", ylabel="accuracy difference", title=f"ε = {e:g}")
        ax.legend(loc="best", fontsize=7)
    return {"difference": fig}
