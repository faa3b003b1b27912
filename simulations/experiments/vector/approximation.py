"""Experiments ``vector_fig2``, ``vector_fig3``, ``vector_fig4``: 000 Section 5.1, Figures 2-4.

K Gaussian classes on the unit circle (:class:`simulations.laws.CircleMixture`), N = 10000
training points, kNN as the base learner of every method, local ε-label DP; accuracy against K
for RR, LP-2ST, ALIBI and the vector approximation, with the Bayes accuracy as the dashed line.
Panel (a): σ = 0.05; panel (b): σ = 2/K.

* Figure 2: ε = 1, k = 200. Figure 4: ε = 1, k = 100.
* Figure 3: ε = 2. Its caption says k = 100 while its text changes only ε from Figure 2 (k = 200);
  the default here is the caption's k = 100 (``FIG3_K``); :func:`accuracy_experiment` takes any k.

The paper gives no K grid; :data:`K_GRID` = (2, 5, 10, 20, 50, 100) is used. One trial draws one
training set, privatizes it once per method (:func:`simulations.estimators.private_knn.privatize`),
draws M evaluation points, runs ONE exact grid k-NN query
(:class:`simulations.estimators.grid_knn.GridIndex`) shared by all methods (LP-2ST's stage-2 prior has
its own query over the stage-1 points), and scores each method by its *expected* accuracy at the
evaluation points, ``(1/M) ∑_x η_{ŷ(x)}(x)`` (exact given the prediction: no test-label noise);
``score="sampled"`` scores sampled test labels instead.

M = 1000 (paper profile). Given the training set, the M-point average of ``η_ŷ(x)`` has variance at
most ``1/(4M)`` (standard deviation <= 0.016 at M = 1000), while the trial-to-trial standard
deviation measured in the quick profile reaches 0.059 (LP-2ST, panel (a), K = 50: training-set and
privatization randomness dominate); so at M = 1000 the evaluation points contribute under 8% of the
variance of a trial, and the 95% half-width of a 1000-trial mean is at most ~0.004 (0.0016 for the
vector approximation), well below the gaps between methods at large K (0.01 to 0.5).

LP-2ST recipe (000 Section 5.1 names LP-2ST of 004 without its settings, so 004's are used):
the prior is 004 Algorithm 3's, the stage-1 kNN model's predicted class probabilities (the k-NN
frequencies of the stage-1 RR labels) as they are, tempered (004 Appendix E); stage-1 split
:data:`SPLIT_FRACTION` = 0.65, the one split 004 reports using (Appendix D: "Stage-1 of LP-2ST (using
65% training data)"; Appendix E: "ratios slightly higher than 50% for stage-1"); temperature
:data:`TEMPERATURE` = 0.5 (004 gives no value, only "we find it useful to sparsify the prior, and
temperatures greater than 1 are generally not helpful", Appendix E: t = 0.5 is a choice of the suite
inside that range); prior k = the final kNN's k (the stage-1 model is the same algorithm A, 004
Algorithm 3). The suite's earlier recipe, which debiased the frequencies for RR's channel before the
temperature (``prior="debiased"``), runs beside it as the extra method "LP-2ST (debiased prior)" on the
same stage-1 labels and neighbour counts (its stage-2 labels are drawn last, so the four methods'
numbers do not depend on it); the ``lp2st_recipes`` table gives the paired difference of the two.

Added curve (not in 000): "Vector (asymmetric)", the asymmetric vector mechanism that 002's Limitations
paragraph suggests (:class:`simulations.mechanisms.AsymmetricVectorMechanism`, the suite's construction:
the label's bit 1 w.p. 1/2, the others w.p. 1/(e^ε + 1)), voted like Vector. Its bits are drawn last from
the privacy stream, so the four methods of 000 get the same numbers as without it; no claim reads it (the
claims are 000's); the table ``asymmetric`` gives its paired differences with Vector and RR, and the
``vector_crossover`` experiment compares the two vector mechanisms with RR over K and ε.

Claims: "Vector is the best method" is judged on the paired 95% interval of the per-trial difference
(Vector − each other method): every method sees the same data and neighbour lists in a trial (common
random numbers), so the paired interval is the test of the difference; whether the plotted per-method
intervals are disjoint is reported in the detail. Verdicts of ``vector_fig2`` were the same at seeds
20261122 and 0-4 (quick profile, 004 recipe for LP-2ST: 7 hold, "Vector flat over K" fails).

References: 000 Section 5.1, Figures 2-4, Appendix A; 004 Algorithm 3, Appendix E.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from limits.validation import check_choice, check_int, check_positive
from simulations.engine import engine_options, run_trials, trial_streams
from simulations.estimators.grid_knn import GridIndex
from simulations.estimators.private_knn import (ASYMMETRIC, LP2ST_PRIORS, METHODS, alt_method_name,
                                                check_lp2st_options, lp2st_recipe, predict, privatize)
from simulations.laws import CircleMixture
from simulations.stats import bound_verdict, t_interval

from simulations.plotting import band, color, figure
from simulations.experiments.base import Claim, ExperimentResult

__all__ = ["FIG3_K", "FIGURES", "K_GRID", "PROFILES", "VectorPoint", "accuracy_experiment", "compute_figure",
           "figure_reproduces", "panel_sigma", "plot_figure", "trial", "trial_predictions"]

K_GRID = (2, 5, 10, 20, 50, 100)
FIG3_K = 100
SPLIT_FRACTION = 0.65  # 004 Appendix D: "Stage-1 of LP-2ST (using 65% training data)"
TEMPERATURE = 0.5  # 004 gives no value; Appendix E: sparsify (t < 1), "t > 1 generally not helpful"
PRIOR = "model"  # 004 Algorithm 3 step 3(b)i: the probabilities predicted by the stage-1 model
ALT_PRIOR = "debiased"  # the suite's earlier recipe, run beside the default
PANELS = ("a", "b")  # (a) σ = 0.05, (b) σ = 2/K
SIGMA_A = 0.05

# Thresholds of the claims, fixed before looking at results.
CLOSE_AT_SMALL_K = 0.02  # "nearly the same accuracy" at K = 2: spread of the four means
FLAT_TOL = 0.03  # "remains stable": range of Vector's means over K >= 10 in panel (b)
FALL_MIN = 0.05  # "the others fall": each other method loses at least this from K = 10 to K = 100


@dataclass(frozen=True, slots=True)
class Profile:
    n_trials: int
    N: int
    M: int
    K_grid: tuple = K_GRID


PROFILES = {"smoke": Profile(n_trials=3, N=1000, M=100, K_grid=(2, 10)),
            "quick": Profile(n_trials=30, N=10000, M=500),
            "paper": Profile(n_trials=1000, N=10000, M=1000)}


@dataclass(frozen=True, slots=True)
class VectorPoint:
    """One point of Figures 2-4: the law (K, σ), the privacy ε, kNN's k, sizes and LP-2ST's options.

    Parameters
    ----------
    num_classes : int
        K >= 2 Gaussian classes with means on the unit circle (:class:`~simulations.laws.CircleMixture`).
    sigma : float
        Standard deviation σ > 0 of each class (panel (a): 0.05, panel (b): 2/K, :func:`panel_sigma`).
    epsilon : float
        Local label-DP budget ε > 0 of every method.
    k : int
        Neighbours of every method's final kNN vote, ``1 <= k <= N``.
    N : int
        Training points per trial, >= 1 (000: 10000).
    M : int
        Evaluation points per trial, >= 1.
    split_fraction : float, default 0.65
        Share of the N points in LP-2ST's stage 1, in (0, 1), both stages non-empty (004 Appendix D).
    prior_k : int, default 200
        Neighbours of LP-2ST's stage-1 kNN (its prior), ``1 <= prior_k <= round(split_fraction N)``;
        the experiment sets it to ``k``.
    temperature : float, default 0.5
        Temperature of LP-2ST's prior, > 0 (004 Appendix E).
    score : {"expected", "sampled"}, default "expected"
        Accuracy as the mean of ``η_ŷ(x)`` at the evaluation points (exact given the predictions) or
        against sampled test labels.
    prior : {"model", "debiased"}, default "model"
        LP-2ST's prior recipe (:data:`~simulations.estimators.private_knn.LP2ST_PRIORS`): the stage-1
        kNN frequencies as they are (004 Algorithm 3), or debiased for RR's channel first.
    alt_prior : {"model", "debiased"} or None, default None
        A second LP-2ST recipe scored beside it on the same stage-1 labels (:attr:`methods`).

    Raises
    ------
    ValueError
        If K, σ, ε, M, the temperature, k, N, ``split_fraction`` or ``prior_k`` is out of range
        (:func:`~simulations.estimators.private_knn.check_lp2st_options`), or ``score``, ``prior`` or
        ``alt_prior`` is not one of its choices.

    References
    ----------
    000 Section 5.1, Figures 2-4; 004 Algorithm 3, Appendices D-E (LP-2ST).

    Examples
    --------
    >>> p = VectorPoint(num_classes=10, sigma=panel_sigma("b", 10), epsilon=1.0, k=200, N=10000, M=1000)
    >>> p.sigma, p.split_fraction, p.prior_k, p.score
    (0.2, 0.65, 200, 'expected')

    The default ``prior_k = 200`` needs at least 200 stage-1 points, i.e. ``0.65 N >= 200``:

    >>> VectorPoint(num_classes=3, sigma=0.1, epsilon=1.0, k=5, N=100, M=5)
    Traceback (most recent call last):
    ...
    ValueError: prior_k must be <= the 65 stage-1 points, got prior_k=200
    """

    num_classes: int
    sigma: float
    epsilon: float
    k: int
    N: int
    M: int
    split_fraction: float = SPLIT_FRACTION
    prior_k: int = 200
    temperature: float = TEMPERATURE
    score: str = "expected"
    prior: str = PRIOR
    alt_prior: str | None = None

    def __post_init__(self):
        CircleMixture(self.num_classes, self.sigma)  # validates K and σ
        check_positive("epsilon", self.epsilon)
        check_int("M", self.M, low=1)
        check_positive("temperature", self.temperature)
        check_lp2st_options(self.N, self.k, self.split_fraction, self.prior_k)
        check_choice("score", self.score, ("expected", "sampled"))
        check_choice("prior", self.prior, LP2ST_PRIORS)
        if self.alt_prior is not None:
            check_choice("alt_prior", self.alt_prior, LP2ST_PRIORS)

    @property
    def methods(self) -> tuple:
        """The methods a trial scores: the four of 000, the LP-2ST variant when ``alt_prior`` is set, and the
        asymmetric vector mechanism (002 Limitations; an added curve).

        Returns
        -------
        tuple of str
            ``("RR", "LP-2ST", "ALIBI", "Vector")``, then ``"LP-2ST (<alt_prior> prior)"`` if set, then
            ``"Vector (asymmetric)"``.

        References
        ----------
        000 Section 5.1 (the four methods of Figures 2-4); 002 Limitations paragraph (the added one).

        Examples
        --------
        >>> VectorPoint(num_classes=3, sigma=0.1, epsilon=1.0, k=5, N=100, M=5, prior_k=5, alt_prior="debiased").methods
        ('RR', 'LP-2ST', 'ALIBI', 'Vector', 'LP-2ST (debiased prior)', 'Vector (asymmetric)')
        """
        return METHODS + ((alt_method_name(self.alt_prior),) if self.alt_prior else ()) + (ASYMMETRIC,)

    def recipe(self, prior: str | None = None) -> str:
        """:func:`~simulations.estimators.private_knn.lp2st_recipe` of this point's LP-2ST.

        Parameters
        ----------
        prior : {"model", "debiased"}, optional
            The recipe (default: this point's ``prior``).

        Returns
        -------
        str
            LP-2ST's recipe in words (prior, stage-1 k, temperature, split).

        Raises
        ------
        ValueError
            If ``prior`` is not a recipe name.

        References
        ----------
        004 Algorithm 3, Appendices D-E.

        Examples
        --------
        >>> p = VectorPoint(num_classes=3, sigma=0.1, epsilon=1.0, k=5, N=100, M=5, prior_k=5)
        >>> p.recipe().startswith("LP-2ST (004 Alg. 3 prior")
        True
        """
        return lp2st_recipe(prior or self.prior, split_fraction=self.split_fraction, prior_k=self.prior_k,
                            temperature=self.temperature)


def panel_sigma(panel: str, num_classes: int) -> float:
    """σ of a panel: (a) 0.05, (b) 2/K (000 Section 5.1).

    Parameters
    ----------
    panel : {"a", "b"}
        The panel of Figures 2-4.
    num_classes : int
        K (used by panel (b) only), > 0.

    Returns
    -------
    float
        The standard deviation σ of each class.

    Raises
    ------
    ValueError
        If ``panel`` is not "a" or "b".

    References
    ----------
    000 Section 5.1 (Figure 2(a): σ = 0.05; Figure 2(b): σ = 2/K).

    Examples
    --------
    >>> panel_sigma("a", 10), panel_sigma("b", 10), panel_sigma("b", 50)
    (0.05, 0.2, 0.04)
    >>> panel_sigma("c", 10)
    Traceback (most recent call last):
    ...
    ValueError: panel must be one of ['a', 'b'], got panel='c'
    """
    return SIGMA_A if check_choice("panel", panel, PANELS) == "a" else 2.0 / num_classes


def trial_predictions(cfg: VectorPoint, t: int, root_seed: int):
    """The data and predictions of trial ``t``: (law, X, Y, Xe, Ye, idx, private, jitter, predictions).

    Draws the training set (DATA stream), privatizes it once per method (PRIVACY stream,
    :func:`~simulations.estimators.private_knn.privatize`), draws the evaluation points and the vote's
    tie-breaking jitter (EVAL stream), runs one exact k-NN query shared by all methods and predicts.

    Parameters
    ----------
    cfg : VectorPoint
        The point.
    t : int
        Trial index, >= 0.
    root_seed : int
        The run's root seed, >= 0 (:func:`simulations.engine.trial_streams`).

    Returns
    -------
    law : CircleMixture
        The law (K, σ).
    X : ndarray of float64, shape (N, 2)
        Training features.
    Y : ndarray of int64, shape (N,)
        True training labels.
    Xe : ndarray of float64, shape (M, 2)
        Evaluation points.
    Ye : ndarray of int64, shape (M,)
        Their sampled labels (used by ``score="sampled"`` only).
    idx : ndarray of int64, shape (M, k)
        Indices of each evaluation point's k nearest training points, nearest first.
    private : PrivateLabels
        The privatized labels of every method.
    jitter : ndarray of float64, shape (M, K)
        Uniform tie-breaking noise of the votes.
    predictions : dict of str to ndarray of int64, shape (M,)
        Predicted class per method of ``cfg.methods``.

    Raises
    ------
    ValueError
        If ``cfg.epsilon`` or ``cfg.temperature`` is not > 0, or a seed is negative.

    References
    ----------
    000 Section 5.1 (kNN base learner), eq. (12)-(13), (16), (29); 004 eq. (1), Algorithms 2-3.

    Examples
    --------
    >>> p = VectorPoint(num_classes=3, sigma=0.1, epsilon=1.0, k=5, N=100, M=4, prior_k=5)
    >>> law, X, Y, Xe, Ye, idx, private, jitter, preds = trial_predictions(p, 0, 1)
    >>> X.shape, Xe.shape, idx.shape, jitter.shape, sorted(preds)
    ((100, 2), (4, 2), (4, 5), (4, 3), ['ALIBI', 'LP-2ST', 'RR', 'Vector', 'Vector (asymmetric)'])
    """
    data, privacy, evaluation = trial_streams(cfg, t, root_seed)
    law = CircleMixture(cfg.num_classes, cfg.sigma)
    X, Y = law.sample(cfg.N, data)
    Xe, Ye = law.sample(cfg.M, evaluation)
    jitter = evaluation.random((cfg.M, cfg.num_classes))
    _, idx = GridIndex(X, cfg.k).query(Xe, cfg.k)  # nearest first, the order of the reference's sums
    private = privatize(X, Y, privacy, num_classes=cfg.num_classes, epsilon=cfg.epsilon,
                        split_fraction=cfg.split_fraction, prior_k=cfg.prior_k, temperature=cfg.temperature,
                        prior=cfg.prior, alt_prior=cfg.alt_prior, asymmetric=True)
    preds = predict(idx, private, jitter, num_classes=cfg.num_classes)
    return law, X, Y, Xe, Ye, idx, private, jitter, preds


def trial(cfg: VectorPoint, t: int, root_seed: int) -> dict:
    """Accuracy of each method in one trial (keys ``acc_RR``, ``acc_LP-2ST``, ``acc_ALIBI``, ``acc_Vector``,
    ``acc_LP-2ST (debiased prior)`` when ``cfg.alt_prior`` is set, and ``acc_Vector (asymmetric)``).

    With ``cfg.score == "expected"`` a method's accuracy is the expected accuracy at the evaluation
    points given its predictions, ``(1/M) Σ_x η_ŷ(x)(x)`` (no test-label noise); with ``"sampled"``
    the fraction of sampled test labels predicted.

    Parameters
    ----------
    cfg : VectorPoint
        The point.
    t : int
        Trial index, >= 0.
    root_seed : int
        The run's root seed, >= 0.

    Returns
    -------
    dict of str to float
        ``"acc_<method>"`` for every method of ``cfg.methods``, each in [0, 1].

    Raises
    ------
    ValueError
        As :func:`trial_predictions`.

    References
    ----------
    000 Section 5.1, Figures 2-4 (accuracy against K).

    Examples
    --------
    >>> p = VectorPoint(num_classes=3, sigma=0.1, epsilon=1.0, k=5, N=100, M=5, prior_k=5, alt_prior="debiased")
    >>> acc = trial(p, 0, 1)
    >>> list(acc), all(0.0 <= v <= 1.0 for v in acc.values())
    (['acc_RR', 'acc_LP-2ST', 'acc_ALIBI', 'acc_Vector', 'acc_LP-2ST (debiased prior)', 'acc_Vector (asymmetric)'], True)
    """
    law, _, _, Xe, Ye, _, _, _, preds = trial_predictions(cfg, t, root_seed)
    rows = np.arange(cfg.M)
    if cfg.score == "expected":
        eta = law.posterior(Xe)
        return {f"acc_{m}": float(eta[rows, preds[m]].mean()) for m in cfg.methods}
    return {f"acc_{m}": float((preds[m] == Ye).mean()) for m in cfg.methods}


# ------------------------------------------------------------------------------------ compute
def points(profile: Profile, *, epsilon: float, k: int) -> list[tuple[str, VectorPoint]]:
    return [(panel, VectorPoint(num_classes=K, sigma=panel_sigma(panel, K), epsilon=epsilon, k=k, N=profile.N,
                                M=profile.M, prior_k=k, alt_prior=ALT_PRIOR))
            for panel in PANELS for K in profile.K_grid]


def accuracy_experiment(ctx, *, epsilon: float, k: int, profile: Profile | None = None) -> ExperimentResult:
    """Run both panels at (ε, k) and summarize: the ``accuracy`` table, claims, plot data.

    Every K of the profile's grid in both panels, :func:`trial` at each point (the LP-2ST variant with
    the debiased prior scored beside it), 95% t-intervals over trials, paired intervals of Vector minus
    each other method, and the claims of 000 Section 5.1 (:func:`accuracy_claims`).

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper"), seed, jobs, cache.
    epsilon : float
        Local label-DP budget ε > 0.
    k : int
        kNN's k (also LP-2ST's stage-1 k), ``1 <= k <= N`` of the profile.
    profile : Profile or None, default None
        Sizes to use instead of ``PROFILES[ctx.profile]``.

    Returns
    -------
    ExperimentResult
        Tables ``accuracy`` (mean, 95% t-interval and std per panel, K and method, and the Bayes
        accuracy), ``lp2st_recipes`` (paired difference of LP-2ST's two prior recipes) and ``asymmetric``
        (paired differences of the added asymmetric vector mechanism with Vector and RR); the claims;
        ``data`` for :func:`plot_figure`.

    Raises
    ------
    ValueError
        For a profile not in ``{"smoke", "quick", "paper"}`` (raised by ``RunContext``, before any work).
    ValueError
        If a point is out of range (:class:`VectorPoint`), before any trial runs.

    References
    ----------
    000 Section 5.1, Figures 2-4, Appendix A; 004 Algorithm 3, Appendix E.

    Examples
    --------
    A run takes minutes (``paper_repro.py --only vector_fig2``); a k above the smoke profile's
    N = 1000 is refused before any trial:

    >>> from simulations.experiments.base import RunContext
    >>> accuracy_experiment(RunContext(profile="smoke"), epsilon=1.0, k=2000)
    Traceback (most recent call last):
    ...
    ValueError: k must be <= N=1000, got k=2000
    """
    profile = profile or PROFILES[ctx.profile]
    pts = points(profile, epsilon=epsilon, k=k)
    res = run_trials(trial, [p for _, p in pts], profile.n_trials, version="vector_approx.trial/v3",
                     **engine_options(ctx))
    p0 = pts[0][1]
    alt = alt_method_name(ALT_PRIOR)
    recipes = {"LP-2ST": p0.recipe(), alt: p0.recipe(ALT_PRIOR)}
    cols = {c: [] for c in ("panel", "K", "sigma", "eps", "k", "N", "M", "method", "mean_accuracy", "ci_low",
                            "ci_high", "std", "n_trials", "recipe")}
    diff = {c: [] for c in ("panel", "K", "eps", "k", "difference", "ci_low", "ci_high", "n_trials", "minuend",
                            "subtrahend")}
    asym = {c: [] for c in ("panel", "K", "eps", "k", "comparison", "difference", "ci_low", "ci_high", "n_trials")}
    summary = {}
    for (panel, p), per in zip(pts, res.per_config):
        entries = [(m, t_interval(per[f"acc_{m}"])) for m in p.methods]
        bayes = CircleMixture(p.num_classes, p.sigma).bayes_accuracy()
        entries.append(("Bayes", (bayes, 0.0, 0, bayes, bayes)))
        for m, (mean, std, n, lo, hi) in entries:
            for c, v in zip(cols, (panel, p.num_classes, p.sigma, epsilon, k, p.N, p.M, m, mean, lo, hi, std, n,
                                   recipes.get(m, ""))):
                cols[c].append(v)
            summary[(panel, p.num_classes, m)] = (mean, lo, hi)
        for m in METHODS[:-1]:  # paired (common random numbers): Vector − m, trial by trial
            mean, _, _, lo, hi = t_interval(per["acc_Vector"] - per[f"acc_{m}"])
            summary[(panel, p.num_classes, f"Vector-{m}")] = (mean, lo, hi)
        # the two LP-2ST recipes share stage 1 and the neighbour lists: paired difference, trial by trial
        mean, _, n, lo, hi = t_interval(per["acc_LP-2ST"] - per[f"acc_{alt}"])
        summary[(panel, p.num_classes, "recipe-gap")] = (mean, lo, hi)
        for c, v in zip(diff, (panel, p.num_classes, epsilon, k, mean, lo, hi, n, recipes["LP-2ST"], recipes[alt])):
            diff[c].append(v)
        for m in ("Vector", "RR"):  # the added curve against 000's vector mechanism and RR, trial by trial
            mean, _, n, lo, hi = t_interval(per[f"acc_{ASYMMETRIC}"] - per[f"acc_{m}"])
            for c, v in zip(asym, (panel, p.num_classes, epsilon, k, f"{ASYMMETRIC} − {m}", mean, lo, hi, n)):
                asym[c].append(v)
    claims = accuracy_claims(summary, profile.K_grid, profile.n_trials, recipe=recipes["LP-2ST"])
    gap_rows = "\n".join(f"| ({diff['panel'][i]}) | {diff['K'][i]} | {diff['difference'][i]:+.4f} "
                         f"[{diff['ci_low'][i]:+.4f}, {diff['ci_high'][i]:+.4f}] |" for i in range(len(diff["K"])))
    notes = (f"ε = {epsilon:g}, k = {k}, N = {profile.N}, M = {profile.M} evaluation points, "
             f"{profile.n_trials} trials per point, K grid {list(profile.K_grid)}; panel (a) σ = {SIGMA_A}, "
             f"(b) σ = 2/K. LP-2ST is {recipes['LP-2ST']}; beside it, {alt} is {recipes[alt]}. "
             "Accuracy = expected accuracy Σ_x η_ŷ(x)/M at fresh evaluation points; 95% t-intervals over trials.\n\n"
             "LP-2ST's two prior recipes (004 Algorithm 3 as written minus the debiased variant; paired 95% t-CI "
             "over trials, common stage-1 labels and neighbour lists; table `lp2st_recipes`):\n\n"
             "| panel | K | LP-2ST − LP-2ST (debiased prior) |\n|---|---|---|\n" + gap_rows + "\n\n"
             f"Added curve, not in 000 (no claim reads it): {ASYMMETRIC}, the asymmetric vector mechanism of 002's "
             "Limitations paragraph (the suite's construction: the label's bit 1 w.p. 1/2, the others w.p. "
             "1/(e^ε + 1)); paired 95% t-CI over trials (table `asymmetric`):\n\n"
             f"| panel | K | {ASYMMETRIC} − Vector | {ASYMMETRIC} − RR |\n|---|---|---|---|\n" + _asym_rows(asym) + "\n")
    return ExperimentResult(tables={"accuracy": cols, "lp2st_recipes": diff, "asymmetric": asym}, claims=claims,
                            notes=notes,
                            data={"summary": summary, "K_grid": list(profile.K_grid), "epsilon": epsilon, "k": k,
                                  "n_trials": profile.n_trials, "methods": list(p0.methods), "recipes": recipes})


def _fmt(x):
    return f"{x[0]:.4f} [{x[1]:.4f}, {x[2]:.4f}]"


def _asym_rows(asym) -> str:
    """Markdown rows of the ``asymmetric`` table: one per (panel, K), its two comparisons side by side."""
    cells = [f"{d:+.4f} [{lo:+.4f}, {hi:+.4f}]" for d, lo, hi in zip(asym["difference"], asym["ci_low"], asym["ci_high"])]
    return "\n".join(f"| ({asym['panel'][i]}) | {asym['K'][i]} | {cells[i]} | {cells[i + 1]} |"
                     for i in range(0, len(cells), 2))


def accuracy_claims(summary, K_grid, n_trials, *, recipe: str = "") -> list[Claim]:
    """The claims of one figure from ``summary[(panel, K, method)] = (mean, lo, hi)`` (paired differences
    under ``"Vector-<method>"``); ``recipe`` names LP-2ST's recipe in each claim that involves it."""
    claims = []
    lp = f" [{recipe}]" if recipe else ""
    others = [m for m in METHODS if m != "Vector"]
    Kmin = min(K_grid)
    for panel in PANELS:
        means = {m: summary[(panel, Kmin, m)] for m in METHODS}
        spread = max(v[0] for v in means.values()) - min(v[0] for v in means.values())
        claims.append(Claim(f"panel ({panel}): at K = {Kmin} all methods are close (spread of the four means "
                            f"<= {CLOSE_AT_SMALL_K}) (000 Sec. 5.1){lp}", spread <= CLOSE_AT_SMALL_K, CLOSE_AT_SMALL_K,
                            spread, "; ".join(f"{m} {_fmt(v)}" for m, v in means.items()), kind="paper"))
    large = [K for K in K_grid if K >= 50] or [max(K_grid)]
    for panel in PANELS:
        for K in large:
            v = summary[(panel, K, "Vector")]
            runner = max(others, key=lambda m: summary[(panel, K, m)][0])
            r = summary[(panel, K, runner)]
            paired = {m: summary[(panel, K, f"Vector-{m}")] for m in others}
            # the suite's one rule per paired CI (bound_verdict, margin 0): holds when every CI lies above 0,
            # fails when one lies below 0 (another method is resolved better), else inconclusive (None)
            per = [bound_verdict(0.0, d[1], d[2], 0.0, side="at_least") for d in paired.values()]
            best = True if all(x == "holds" for x in per) else (False if "excluded" in per else None)
            disjoint = all(v[1] > summary[(panel, K, m)][2] for m in others)
            d = paired[runner]
            claims.append(Claim(f"panel ({panel}), K = {K}: Vector is the best method, the paired 95% CI of its accuracy "
                                f"minus every other method's above 0 (000 Sec. 5.1, Fig. 2: 'clear advantage'){lp}", best,
                                0.0, d[0], f"margin over the runner-up {runner}: {d[0]:+.4f}, paired 95% CI "
                                f"[{d[1]:+.4f}, {d[2]:+.4f}] (Vector {_fmt(v)}, {runner} {_fmt(r)}; the plotted "
                                f"per-method CIs are {'disjoint' if disjoint else 'NOT disjoint'}); n = {n_trials} "
                                f"trials with common random numbers", kind="paper"))
    grid_b = [K for K in K_grid if K >= 10]
    if len(grid_b) >= 2:
        vec = [summary[("b", K, "Vector")][0] for K in grid_b]
        rng_v = max(vec) - min(vec)
        bay = [summary[("b", K, "Bayes")][0] for K in grid_b]
        upto50 = [x for K, x in zip(grid_b, vec) if K <= 50]
        claims.append(Claim(f"panel (b) σ = 2/K: Vector's accuracy is nearly flat over K in {grid_b} (range of the "
                            f"means <= {FLAT_TOL}) (000 Sec. 5.1)", rng_v <= FLAT_TOL, FLAT_TOL, rng_v,
                            "Vector means " + ", ".join(f"K={K}: {x:.4f}" for K, x in zip(grid_b, vec))
                            + f"; Bayes range over the same K {max(bay) - min(bay):.4f}; Vector's range over K <= 50 "
                            + f"{max(upto50) - min(upto50):.4f}", kind="paper"))
        K0, K1 = grid_b[0], grid_b[-1]
        drops = {m: summary[("b", K0, m)][0] - summary[("b", K1, m)][0] for m in others}
        fall = all(d >= FALL_MIN for d in drops.values())
        claims.append(Claim(f"panel (b): RR, LP-2ST and ALIBI each lose >= {FALL_MIN} accuracy from K = {K0} to "
                            f"K = {K1} while Vector stays (000 Sec. 5.1){lp}", fall, FALL_MIN, min(drops.values()),
                            "; ".join(f"{m} {summary[('b', K0, m)][0]:.4f} -> {summary[('b', K1, m)][0]:.4f}"
                                      for m in METHODS), kind="paper"))
    return claims


# -------------------------------------------------------------------------------------- plot
def plot_accuracy(result: ExperimentResult, title: str) -> dict:
    s, K_grid = result.data["summary"], result.data["K_grid"]
    methods = result.data.get("methods", METHODS)
    labels = {"LP-2ST": "LP-2ST (004 Alg. 3 prior)", alt_method_name(ALT_PRIOR): "LP-2ST (debiased prior, suite variant)",
              ASYMMETRIC: "Vector (asymmetric: 002 Limitations, suite construction)"}
    fig, axes = figure(1, 2, width=4.6, height=3.6, title=title)
    for ax, panel in zip(axes, PANELS):
        for i, m in enumerate(methods):
            vals = np.array([s[(panel, K, m)] for K in K_grid])
            band(ax, K_grid, vals[:, 0], vals[:, 1], vals[:, 2], label=labels.get(m, m), i=i)
        ax.plot(K_grid, [s[(panel, K, "Bayes")][0] for K in K_grid], ls="--", color=color(7), lw=1.2,
                label="Bayes optimal")
        ax.set_xscale("log")
        ax.set_xlabel("number of classes K")
        ax.set_ylabel("accuracy")
        ax.set_title("(a) σ = 0.05" if panel == "a" else "(b) σ = 2/K")
        ax.legend(loc="lower left", fontsize=7)
    return {"accuracy": fig}


# ----------------------------------------------------------------------- the three figures
# Registered through simulations/experiments/catalogue.py ("vector_fig2", "vector_fig3", "vector_fig4"), whose
# ``reproduces`` texts are figure_reproduces(2 | 3 | 4) (a test keeps them equal).
FIGURES = {2: (1.0, 200), 3: (2.0, FIG3_K), 4: (1.0, 100)}  # 000 Figure -> (ε, kNN's k)


def figure_reproduces(fig: int) -> str:
    """What experiment ``vector_fig<fig>`` reproduces (the catalogue's text).

    Parameters
    ----------
    fig : {2, 3, 4}
        The figure of 000.

    Returns
    -------
    str
        One line naming the figure, its ε and k.

    Raises
    ------
    ValueError
        If ``fig`` is not 2, 3 or 4.

    References
    ----------
    000 Section 5.1 / Appendix A, Figures 2-4.

    Examples
    --------
    Figure 3 is ε = 2 with its caption's k = 100:

    >>> print(figure_reproduces(3))
    000 Section 5.1 / Appendix A, Figure 3 (ε = 2, k = 100): RR, LP-2ST, ALIBI and vector approximation vs K
    """
    epsilon, k = FIGURES[check_choice("fig", fig, FIGURES)]
    return (f"000 Section 5.1 / Appendix A, Figure {fig} (ε = {epsilon:g}, k = {k}): RR, LP-2ST, ALIBI and vector "
            "approximation vs K")


def compute_figure(ctx, fig: int) -> ExperimentResult:
    """000 Figure ``fig`` (2, 3 or 4): :func:`accuracy_experiment` at its (ε, k).

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper"), seed, jobs, cache.
    fig : {2, 3, 4}
        The figure; its (ε, k) is ``FIGURES[fig]``.

    Returns
    -------
    ExperimentResult
        As :func:`accuracy_experiment`.

    Raises
    ------
    ValueError
        If ``fig`` is not 2, 3 or 4 (before any work), or for an unknown profile (raised by ``RunContext``).

    References
    ----------
    000 Section 5.1 / Appendix A, Figures 2-4.

    Examples
    --------
    The (ε, k) of each figure, from 000 (Figure 2: ε = 1, k = 200; Figure 3's caption: ε = 2,
    k = 100; Figure 4: ε = 1, k = 100); a run takes minutes:

    >>> FIGURES[2], FIGURES[3], FIGURES[4]
    ((1.0, 200), (2.0, 100), (1.0, 100))
    >>> from simulations.experiments.base import RunContext
    >>> result = compute_figure(RunContext(profile="smoke"), 2)  # doctest: +SKIP
    """
    epsilon, k = FIGURES[check_choice("fig", fig, FIGURES)]
    return accuracy_experiment(ctx, epsilon=epsilon, k=k)


def plot_figure(result: ExperimentResult, fig: int) -> dict:
    """Accuracy against K, both panels: each method's mean with its 95% CI band, the Bayes accuracy dashed.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute_figure` (reads ``data["summary"]``, ``"K_grid"``, ``"n_trials"`` and
        ``"methods"``).
    fig : {2, 3, 4}
        The figure of 000 (its ε and k go into the title).

    Returns
    -------
    dict
        ``{"accuracy": matplotlib.figure.Figure}``.

    Raises
    ------
    ValueError
        If ``fig`` is not 2, 3 or 4.
    KeyError
        If ``result.data`` lacks an entry.

    References
    ----------
    000 Section 5.1 / Appendix A, Figures 2-4.

    Examples
    --------
    On a hand-made summary (every method at 0.5 with CI [0.4, 0.6]):

    >>> import matplotlib.pyplot as plt
    >>> s = {(p, K, m): (0.5, 0.4, 0.6) for p in "ab" for K in (2, 10)
    ...      for m in ("RR", "LP-2ST", "ALIBI", "Vector", "Bayes")}
    >>> res = ExperimentResult(data={"summary": s, "K_grid": [2, 10], "n_trials": 3,
    ...                              "methods": ["RR", "LP-2ST", "ALIBI", "Vector"]})
    >>> figs = plot_figure(res, 2)
    >>> list(figs), [ax.get_title() for ax in figs["accuracy"].axes]
    (['accuracy'], ['(a) σ = 0.05', '(b) σ = 2/K'])
    >>> plt.close(figs["accuracy"])
    """
    epsilon, k = FIGURES[check_choice("fig", fig, FIGURES)]
    return plot_accuracy(result, f"000 Fig. {fig}: kNN accuracy vs K under ε = {epsilon:g} label DP, k = {k} "
                                 f"({result.data['n_trials']} trials, 95% CI)\nLP-2ST: stage-1 split "
                                 f"{SPLIT_FRACTION:g}, stage-1 kNN k = {k}, prior temperature {TEMPERATURE:g}")


def compute_fig2(ctx) -> ExperimentResult:
    """Entry point of ``vector_fig2``: 000 Figure 2 (ε = 1, k = 200), :func:`compute_figure` ``(ctx, 2)``.

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper"), seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        As :func:`accuracy_experiment`.

    Raises
    ------
    ValueError
        For a profile not in ``{"smoke", "quick", "paper"}`` (raised by ``RunContext``, before any work).

    References
    ----------
    000 Section 5.1 / Appendix A, Figure 2.

    Examples
    --------
    >>> FIGURES[2]
    (1.0, 200)
    >>> from simulations.experiments.base import RunContext
    >>> result = compute_fig2(RunContext(profile="smoke"))  # doctest: +SKIP
    """
    return compute_figure(ctx, 2)


def plot_fig2(result: ExperimentResult) -> dict:
    """Plot of ``vector_fig2``: :func:`plot_figure` ``(result, 2)``.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute_fig2`.

    Returns
    -------
    dict
        ``{"accuracy": matplotlib.figure.Figure}``.

    References
    ----------
    000 Section 5.1 / Appendix A, Figure 2.

    Examples
    --------
    On a hand-made summary (every method at 0.5): the title names the figure's ε and k:

    >>> import matplotlib.pyplot as plt
    >>> s = {(p, K, m): (0.5, 0.4, 0.6) for p in "ab" for K in (2, 10) for m in METHODS + ("Bayes",)}
    >>> fig = plot_fig2(ExperimentResult(data={"summary": s, "K_grid": [2, 10], "n_trials": 3}))["accuracy"]
    >>> fig.get_suptitle().startswith("000 Fig. 2: kNN accuracy vs K under ε = 1 label DP, k = 200")
    True
    >>> plt.close(fig)
    """
    return plot_figure(result, 2)


def compute_fig3(ctx) -> ExperimentResult:
    """Entry point of ``vector_fig3``: 000 Figure 3 (ε = 2, k = 100), :func:`compute_figure` ``(ctx, 3)``.

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper"), seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        As :func:`accuracy_experiment`.

    Raises
    ------
    ValueError
        For a profile not in ``{"smoke", "quick", "paper"}`` (raised by ``RunContext``, before any work).

    References
    ----------
    000 Section 5.1 / Appendix A, Figure 3.

    Examples
    --------
    >>> FIGURES[3]
    (2.0, 100)
    >>> from simulations.experiments.base import RunContext
    >>> result = compute_fig3(RunContext(profile="smoke"))  # doctest: +SKIP
    """
    return compute_figure(ctx, 3)


def plot_fig3(result: ExperimentResult) -> dict:
    """Plot of ``vector_fig3``: :func:`plot_figure` ``(result, 3)``.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute_fig3`.

    Returns
    -------
    dict
        ``{"accuracy": matplotlib.figure.Figure}``.

    References
    ----------
    000 Section 5.1 / Appendix A, Figure 3.

    Examples
    --------
    On a hand-made summary (every method at 0.5): the title names the figure's ε and k:

    >>> import matplotlib.pyplot as plt
    >>> s = {(p, K, m): (0.5, 0.4, 0.6) for p in "ab" for K in (2, 10) for m in METHODS + ("Bayes",)}
    >>> fig = plot_fig3(ExperimentResult(data={"summary": s, "K_grid": [2, 10], "n_trials": 3}))["accuracy"]
    >>> fig.get_suptitle().startswith("000 Fig. 3: kNN accuracy vs K under ε = 2 label DP, k = 100")
    True
    >>> plt.close(fig)
    """
    return plot_figure(result, 3)


def compute_fig4(ctx) -> ExperimentResult:
    """Entry point of ``vector_fig4``: 000 Figure 4 (ε = 1, k = 100), :func:`compute_figure` ``(ctx, 4)``.

    Parameters
    ----------
    ctx : RunContext
        Profile ("smoke", "quick" or "paper"), seed, jobs, cache.

    Returns
    -------
    ExperimentResult
        As :func:`accuracy_experiment`.

    Raises
    ------
    ValueError
        For a profile not in ``{"smoke", "quick", "paper"}`` (raised by ``RunContext``, before any work).

    References
    ----------
    000 Section 5.1 / Appendix A, Figure 4.

    Examples
    --------
    >>> FIGURES[4]
    (1.0, 100)
    >>> from simulations.experiments.base import RunContext
    >>> result = compute_fig4(RunContext(profile="smoke"))  # doctest: +SKIP
    """
    return compute_figure(ctx, 4)


def plot_fig4(result: ExperimentResult) -> dict:
    """Plot of ``vector_fig4``: :func:`plot_figure` ``(result, 4)``.

    Parameters
    ----------
    result : ExperimentResult
        Returned by :func:`compute_fig4`.

    Returns
    -------
    dict
        ``{"accuracy": matplotlib.figure.Figure}``.

    References
    ----------
    000 Section 5.1 / Appendix A, Figure 4.

    Examples
    --------
    On a hand-made summary (every method at 0.5): the title names the figure's ε and k:

    >>> import matplotlib.pyplot as plt
    >>> s = {(p, K, m): (0.5, 0.4, 0.6) for p in "ab" for K in (2, 10) for m in METHODS + ("Bayes",)}
    >>> fig = plot_fig4(ExperimentResult(data={"summary": s, "K_grid": [2, 10], "n_trials": 3}))["accuracy"]
    >>> fig.get_suptitle().startswith("000 Fig. 4: kNN accuracy vs K under ε = 1 label DP, k = 100")
    True
    >>> plt.close(fig)
    """
    return plot_figure(result, 4)
