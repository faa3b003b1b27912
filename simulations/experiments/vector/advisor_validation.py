"""Experiment ``advisor_validation``: is :func:`limits.advise`'s pick the mechanism a kNN measures best?

Beyond the papers (every claim is ``kind="beyond"``). Over a grid of settings (panel, K, ε, N) in 000's
synthetic setting (Section 5.1: K Gaussian classes on the unit circle, σ = 0.05 in panel (a) and 2/K in
panel (b), the machinery of ``vector_fig2``/``vector_fig3``: :class:`~simulations.laws.CircleMixture`,
the exact grid kNN query, the same tie-breaking vote), one trial draws N training points, privatizes
their labels with each mechanism the advisor ranks for aggregation (:data:`limits.advisor.AGGREGATED`:
K-ary RR, 004 eq. (1); the symmetric vector mechanism, 000 eq. (12)-(13); the asymmetric, OUE-style
vector mechanism of 002's Limitations), runs ONE k-NN query shared by all (common random numbers) and
scores each by its expected accuracy at M evaluation points, ``(1/M) Σ η_ŷ(x)(x)``. k = ⌊N/50⌋ (000's
k = 200 at N = 10000).

RRWithPrior is not applicable here: the setting gives no prior (LP-2ST, which builds one, is a
two-stage pipeline, measured in ``vector_fig2``); the advisor, given no prior, has no RRWithPrior row.

**Measured best** of a setting: the mechanism whose paired 95% t-interval of its accuracy minus each
other mechanism's lies above 0 (:func:`simulations.stats.bound_verdict`, margin 0: the suite's one rule;
identical accuracies in every trial, e.g. all three at 1.0, resolve nothing);
when no mechanism is resolved above both others the setting is a **tie**, counted apart. **Advisor's
pick**: ``limits.advise(K, ε, N)`` (use case ``"aggregation"``, η at a two-class tie, the default) and,
beside it, ``at="uniform"``. The claims: the share of decided settings in which the pick is the measured
best, with its exact (Clopper-Pearson) 95% interval, is above :data:`AGREEMENT_FLOOR`.

References: 000 Section 5.1, eq. (12)-(13), (21), (24), (29); 002 Limitations; 004 eq. (1), Theorem 3.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from limits.advisor import AGGREGATED, advise
from limits.validation import check_int, check_positive
from simulations.engine import engine_options, run_trials, trial_streams
from simulations.estimators.grid_knn import GridIndex
from simulations.kernels_knn import neighbour_label_counts, neighbour_row_sums, vote
from simulations.laws import CircleMixture
from simulations.mechanisms import AsymmetricVectorMechanism, RandomizedResponse, VectorMechanism
from simulations.plotting import color, figure
from simulations.stats import bound_verdict, clopper_pearson, holds_from, t_interval

from simulations.experiments.base import Claim, ExperimentResult

__all__ = ["AGREEMENT_FLOOR", "AdvisorPoint", "PROFILES", "Profile", "advisor_trial", "measured_best"]

#: the advisor is useful if it picks the measured best in more than half of the decided settings (a pick
#: at random among the three is right in a third)
AGREEMENT_FLOOR = 0.5
K_PER_N = 50  # k = N // 50: 000 Section 5.1's k = 200 at N = 10000
TIE = "tie"
LABELS = {"rr": "RR", "vector": "vector (symmetric)", "vector_asymmetric": "vector (asymmetric)", TIE: "tie"}
AT = ("two_class_tie", "uniform")  # the advisor's default η point first
# 000 Section 5.1's panels, σ of each class: (a) 0.05, (b) 2/K (as vector.approximation.panel_sigma; not imported
# from there, so that this experiment's configuration fingerprint does not follow Figures 2-4's LP-2ST settings)
PANELS = ("a", "b")
SIGMA_A = 0.05


def _sigma(panel: str, K: int) -> float:
    return SIGMA_A if panel == "a" else 2.0 / K


@dataclass(frozen=True, slots=True)
class Profile:
    """Sizes of one profile.

    Parameters
    ----------
    n_trials : int
        Trials per setting.
    M : int
        Evaluation points per trial.
    K_grid, eps_grid, N_grid : tuple
        The settings are every (panel, K, ε, N).

    Examples
    --------
    >>> PROFILES["quick"].n_trials
    20
    """

    n_trials: int
    M: int
    K_grid: tuple
    eps_grid: tuple
    N_grid: tuple


PROFILES = {"smoke": Profile(n_trials=3, M=100, K_grid=(2, 10), eps_grid=(1.0, 4.0), N_grid=(1000,)),
            "quick": Profile(n_trials=20, M=500, K_grid=(2, 5, 10, 20, 50), eps_grid=(0.5, 1.0, 2.0, 4.0),
                             N_grid=(2500, 10000)),
            # 120 settings x 40 trials: about 15 min on 2 shared cores (2x the quick profile's power per setting)
            "paper": Profile(n_trials=40, M=1000, K_grid=(2, 5, 10, 20, 50, 100), eps_grid=(0.5, 1.0, 2.0, 4.0, 8.0),
                             N_grid=(2500, 10000))}


@dataclass(frozen=True, slots=True)
class AdvisorPoint:
    """One setting: the law (K, σ), ε, N, M and kNN's k.

    Parameters
    ----------
    num_classes : int
        K >= 2.
    sigma : float
        σ > 0 of each class.
    epsilon : float
        ε > 0 of every mechanism.
    N : int
        Training points, >= 1.
    M : int
        Evaluation points, >= 1.
    k : int
        Neighbours, ``1 <= k <= N``.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    000 Section 5.1.

    Examples
    --------
    >>> AdvisorPoint(10, 0.2, 1.0, 10000, 500, 200).k
    200
    """

    num_classes: int
    sigma: float
    epsilon: float
    N: int
    M: int
    k: int

    def __post_init__(self):
        CircleMixture(self.num_classes, self.sigma)
        check_positive("epsilon", self.epsilon)
        check_int("M", self.M, low=1)
        if not 1 <= check_int("k", self.k, low=1) <= check_int("N", self.N, low=1):
            raise ValueError(f"k must be in [1, N={self.N}], got k={self.k}")


def advisor_trial(cfg: AdvisorPoint, t: int, root_seed: int) -> dict:
    """Expected kNN accuracy of each mechanism of :data:`limits.advisor.AGGREGATED` in one trial.

    Parameters
    ----------
    cfg : AdvisorPoint
        The setting.
    t : int
        Trial index.
    root_seed : int
        The run's root seed.

    Returns
    -------
    dict of str to float
        ``"acc_<mechanism>"`` in [0, 1].

    References
    ----------
    000 Section 5.1, eq. (16), (29); 004 eq. (1); 002 Limitations.

    Examples
    --------
    >>> acc = advisor_trial(AdvisorPoint(3, 0.1, 1.0, 100, 5, 5), 0, 1)
    >>> sorted(acc), all(0 <= v <= 1 for v in acc.values())
    (['acc_rr', 'acc_vector', 'acc_vector_asymmetric'], True)
    """
    data, privacy, evaluation = trial_streams(cfg, t, root_seed)
    law, K = CircleMixture(cfg.num_classes, cfg.sigma), cfg.num_classes
    X, Y = law.sample(cfg.N, data)
    Xe, _ = law.sample(cfg.M, evaluation)
    jitter = evaluation.random((cfg.M, K))
    _, idx = GridIndex(X, cfg.k).query(Xe, cfg.k)
    rr = RandomizedResponse(K, cfg.epsilon).sample(Y, privacy)
    scores = {"rr": neighbour_label_counts(rr, idx, K)}
    for name, mech in (("vector", VectorMechanism), ("vector_asymmetric", AsymmetricVectorMechanism)):
        scores[name] = neighbour_row_sums(mech(K, cfg.epsilon).sample(Y, privacy), idx)  # argmax = debiased argmax
    eta, rows = law.posterior(Xe), np.arange(cfg.M)
    return {f"acc_{m}": float(eta[rows, vote(scores[m], jitter)].mean()) for m in AGGREGATED}


def measured_best(per: dict) -> tuple[str, dict]:
    """The measured best mechanism of one setting by the paired rule, or ``"tie"``.

    Parameters
    ----------
    per : dict of str to ndarray, shape (n_trials,)
        ``"acc_<mechanism>"`` per trial, trials paired (common random numbers).

    Returns
    -------
    best : str
        The mechanism whose paired 95% t-interval against every other lies at or above 0 with a positive mean
        difference, else ``"tie"``.
    paired : dict of (str, str) to tuple
        ``(m, o) -> (mean, low, high)`` of ``acc_m − acc_o``.

    References
    ----------
    docs/design.md, *The decision rule*.

    Examples
    --------
    >>> per = {"acc_rr": np.array([.5, .6, .7]), "acc_vector": np.array([.4, .5, .6]),
    ...        "acc_vector_asymmetric": np.array([.3, .4, .5])}
    >>> measured_best(per)[0]
    'rr'

    Equal accuracies in every trial resolve nothing:

    >>> measured_best({f"acc_{m}": np.ones(3) for m in AGGREGATED})[0]
    'tie'
    """
    paired = {}
    for m in AGGREGATED:
        for o in AGGREGATED:
            if o != m:
                mean, _, _, lo, hi = t_interval(np.asarray(per[f"acc_{m}"]) - np.asarray(per[f"acc_{o}"]))
                paired[(m, o)] = (mean, lo, hi)
    wins = [m for m in AGGREGATED if all(_above(*paired[(m, o)]) for o in AGGREGATED if o != m)]
    return (wins[0] if wins else TIE), paired


def _above(mean, lo, hi) -> bool:
    # the one rule (margin 0), and a difference at all: identical accuracies in every trial (e.g. all three at
    # 1.0) give the interval [0, 0], which resolves nothing
    return bound_verdict(0.0, lo, hi, 0.0, side="at_least") == "holds" and mean > 0


def _settings(prof: Profile):
    return [(panel, AdvisorPoint(K, _sigma(panel, K), e, N, prof.M, max(1, N // K_PER_N)))
            for panel in PANELS for K in prof.K_grid for e in prof.eps_grid for N in prof.N_grid]


def _agreement_claim(table, at: str) -> Claim:
    decided = [i for i, b in enumerate(table["measured_best"]) if b != TIE]
    hits = sum(table["measured_best"][i] == table[f"advisor_{at}"][i] for i in decided)
    n_tie = len(table["measured_best"]) - len(decided)
    if not decided:
        return Claim(f"advisor (at={at}) picks the measured best", None, AGREEMENT_FLOOR, float("nan"),
                     f"inconclusive: every one of the {n_tie} settings is a tie", kind="beyond")
    share, lo, hi = clopper_pearson(hits, len(decided))
    verdict = bound_verdict(AGREEMENT_FLOOR, lo, hi, 0.0, side="at_least")
    return Claim(f"limits.advise (use case 'aggregation', η at {at.replace('_', ' ')}"
                 f"{' (default)' if at == AT[0] else ''}) picks the kNN's measured best mechanism in more than "
                 f"{AGREEMENT_FLOOR:g} of the decided settings (000's synthetic setting)", holds_from(verdict),
                 AGREEMENT_FLOOR, share, f"{verdict}: {hits} of {len(decided)} decided settings, Clopper-Pearson 95% CI "
                 f"[{lo:.3f}, {hi:.3f}]; {n_tie} ties (no mechanism resolved above both others) counted apart",
                 kind="beyond")


def compute(ctx) -> ExperimentResult:
    """Run every setting, find its measured best, and compare with the advisor's pick.

    Parameters
    ----------
    ctx : RunContext
        Profile, seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        Table ``settings`` (one row per setting: mean accuracies, measured best, the advisor's picks),
        ``accuracy`` (per mechanism with 95% t-intervals) and one claim per η point of the advisor.

    References
    ----------
    000 Section 5.1; :mod:`limits.advisor`.

    Examples
    --------
    >>> from simulations.experiments.base import RunContext
    >>> [c.kind for c in compute(RunContext(profile="smoke")).claims]  # doctest: +SKIP
    ['beyond', 'beyond']
    """
    prof = PROFILES[ctx.profile]
    sets = _settings(prof)
    res = run_trials(advisor_trial, [p for _, p in sets], prof.n_trials, version="advisor_validation/v1",
                     **engine_options(ctx))
    table = {c: [] for c in ("panel", "K", "sigma", "epsilon", "N", "k", "measured_best", *(f"advisor_{a}" for a in AT),
                             *(f"acc_{m}" for m in AGGREGATED), "runner_up_gap", "gap_ci_low", "gap_ci_high")}
    acc = {c: [] for c in ("panel", "K", "epsilon", "N", "mechanism", "mean", "ci_low", "ci_high", "n_trials")}
    for (panel, p), per in zip(sets, res.per_config):
        best, paired = measured_best(per)
        means = {m: float(np.mean(per[f"acc_{m}"])) for m in AGGREGATED}
        top = max(means, key=means.get)
        gap = min((paired[(top, o)] for o in AGGREGATED if o != top), key=lambda g: g[0])
        row = (panel, p.num_classes, p.sigma, p.epsilon, p.N, p.k, best,
               *(advise(p.num_classes, p.epsilon, p.N, at=a).recommended for a in AT), *means.values(), *gap)
        for c, v in zip(table, row):
            table[c].append(v)
        for m in AGGREGATED:
            mean, _, n, lo, hi = t_interval(per[f"acc_{m}"])
            for c, v in zip(acc, (panel, p.num_classes, p.epsilon, p.N, m, mean, lo, hi, n)):
                acc[c].append(v)
    claims = [_agreement_claim(table, a) for a in AT]
    notes = (f"{len(sets)} settings: panels {list(PANELS)}, K {list(prof.K_grid)}, ε {list(prof.eps_grid)}, "
             f"N {list(prof.N_grid)}, k = N/{K_PER_N}, M = {prof.M}, {prof.n_trials} trials each. Measured best: "
             "paired 95% t-intervals against both other mechanisms above 0; otherwise a tie. `runner_up_gap`: "
             "the best mean minus the next mean, with its paired interval. The advisor sees only (K, ε, N).")
    return ExperimentResult(tables={"settings": table, "accuracy": acc}, claims=claims, notes=notes,
                            data={"settings": table, "K_grid": list(prof.K_grid), "eps_grid": list(prof.eps_grid),
                                  "N_grid": list(prof.N_grid), "n_trials": prof.n_trials})


def plot(result: ExperimentResult) -> dict:
    """The advisor's pick over (K, ε) as an image map, with each setting's measured best on top.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute`.

    Returns
    -------
    dict of str to matplotlib.figure.Figure
        ``{"recommendation_map": figure}``: one panel per (σ panel, N).

    References
    ----------
    :func:`limits.advise`; 000 Section 5.1.

    Examples
    --------
    >>> t = {"panel": ["a"], "K": [2], "epsilon": [1.0], "N": [100], "measured_best": ["rr"]}
    >>> res = ExperimentResult(data={"settings": t, "N_grid": [100], "n_trials": 3})
    >>> sorted(plot(res))
    ['recommendation_map']
    """
    t, Ns = result.data["settings"], result.data["N_grid"]
    names = list(AGGREGATED)
    Kf, ef = np.unique(np.geomspace(2, 100, 60).round()).astype(int), np.geomspace(0.25, 10, 60)
    pick = np.array([[names.index(advise(int(K), float(e), 1000).recommended) for K in Kf] for e in ef])
    from matplotlib.colors import ListedColormap
    cmap = ListedColormap([color(i) for i in range(len(names))])
    fig, axes = figure(len(PANELS), len(Ns), width=4.0, height=3.4, title=(
        "limits.advise's pick over (K, ε) (background; η at a two-class tie)\nand the kNN's measured best "
        f"(markers; x = tie: not resolved by paired 95% CIs), {result.data['n_trials']} trials per setting"))
    for r, panel in enumerate(PANELS):
        for c, N in enumerate(Ns):
            ax = axes[r * len(Ns) + c]
            ax.pcolormesh(Kf, ef, pick, cmap=cmap, vmin=-0.5, vmax=len(names) - 0.5, shading="nearest", alpha=0.35)
            for i, (pn, K, e, n, best) in enumerate(zip(t["panel"], t["K"], t["epsilon"], t["N"], t["measured_best"])):
                if pn == panel and n == N:
                    style = dict(marker="x", color="k") if best == TIE else dict(
                        marker="o", color=color(names.index(best)), edgecolors="k")
                    ax.scatter(K, e, s=40, linewidths=0.8, **style)
            ax.set(xscale="log", yscale="log", xlabel="number of classes K", ylabel="ε",
                   title=f"({panel}) {'σ = 0.05' if panel == 'a' else 'σ = 2/K'}, N = {N}")
    handles = [ax.scatter([], [], marker="o", color=color(i), edgecolors="k", label=LABELS[m])
               for i, m in enumerate(names)] + [ax.scatter([], [], marker="x", color="k", label=LABELS[TIE])]
    ax.legend(handles=handles, fontsize=7, loc="lower right")
    return {"recommendation_map": fig}
