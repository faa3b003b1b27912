"""Exact ε-label-DP check of LP-MST on a tiny data set (004 Observation 4).

The output checked is the vector of *all* privatized labels z = (z_1, ..., z_n); the models are a
deterministic function of z and the public features (the learner is deterministic), so they add no
privacy loss and the check covers 004's stronger statement (all models and labels together).

For a fixed label-independent stage partition, z is produced stage by stage; the prior of example
i in stage t is a function of the features and of z on stages < t only, so

    P(z | y) = Π_i C_i(z_{<t(i)})[y_i, z_i],

with ``C_i`` the exact RRWithPrior channel (K x K) under example i's prior. The check enumerates
every z ∈ [K]^n, recomputes the priors by calling the estimator's own stage methods
(:meth:`~simulations.learning.LPMST.stage_priors`, :meth:`~simulations.learning.LPMST.train_stage`),
builds log P(z | y) for every labelling y ∈ [K]^n, and takes, over every pair of labellings that
differ in exactly one label (label-DP neighbours) and every z, the largest ``|log P(z|y) - log P(z|y')|``
(0/0 ignored, p/0 infinite). A random partition is a label-independent mixture of fixed ones, so a
bound for every fixed partition is a bound for the procedure.

``leak="true_labels"`` plants the bug Observation 4 rules out: later stages' priors come from a model
trained on the *true* labels of earlier stages; the check must then report a loss above ε.

References: 004 Algorithm 3, Observation 4 (proof: adaptive parallel composition).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from limits.validation import check_choice
from proofs_checks.channels import is_tight, within
from simulations.learning.lp_mst import ConstantModel

__all__ = ["LPMSTCheck", "check_lp_mst", "lp_mst_log_probabilities", "tiny_learner"]

MAX_OUTCOMES = 4096  # K^n beyond this is not "tiny"


def tiny_learner(name: str, num_classes: int):
    """A deterministic learner for the tiny LP-MST checks: ``"logistic"`` or ``"knn<k>"``.

    Parameters
    ----------
    name : {"logistic", "knn1", ..., "knn9"}
        scikit-learn's lbfgs logistic regression (C = 10) or the k-NN class-frequency classifier with
        stable tie-breaking.
    num_classes : int >= 2
        K (the k-NN's output width).

    Returns
    -------
    estimator
        Unfitted.

    References
    ----------
    004 Algorithm 3 (any learner; deterministic ones add nothing to the output distribution).

    Examples
    --------
    >>> type(tiny_learner("knn2", 3)).__name__, type(tiny_learner("logistic", 2)).__name__
    ('SoftKNNClassifier', 'LogisticRegression')
    """
    from sklearn.linear_model import LogisticRegression

    from simulations.learning import SoftKNNClassifier

    if name == "logistic":
        return LogisticRegression(C=10.0)
    return SoftKNNClassifier(n_neighbors=int(name[-1]), num_classes=num_classes)


def lp_mst_log_probabilities(est, X, stages, *, leak: str = "none") -> np.ndarray:
    r""":math:`\log P(z \mid y)` of LP-MST's privatized labels for every labelling y and output z.

    Parameters
    ----------
    est : simulations.learning.LPMST
        The estimator (unfitted is fine; its parameters and stage methods are used).
    X : array_like, shape (n, ...)
        Features, passed to the learner as in ``fit``.
    stages : array_like of int, shape (n,)
        A fixed partition using every stage 0..T-1.
    leak : {"none", "true_labels"}, default "none"
        ``"none"``: LP-MST as specified; ``"true_labels"``: the planted bug of the module docstring.

    Returns
    -------
    ndarray, shape (K,)*n + (K**n,)
        ``logp[y_1, ..., y_n, c]`` with output z = the c-th vector of
        ``itertools.product(range(K), repeat=n)``.

    Raises
    ------
    ValueError
        An unknown ``leak``, :math:`K^n` above 4096, or stages not using every stage 0..T-1.

    References
    ----------
    004 Algorithm 3, Observation 4.

    Examples
    --------
    Two examples, K = 3, 1-NN: stage 1 is randomized response under M(0)'s uniform prior, stage 2's
    prior is one-hot(:math:`z_0`) so :math:`z_1 = z_0`. Hence
    :math:`P(z \mid y = (0, 0)) = \mathrm{RR}(z_0 \mid 0) 1[z_1 = z_0]`: :math:`e^{0.7}/(e^{0.7}+2)`
    at z = (0, 0), :math:`1/(e^{0.7}+2)` at (1, 1) and (2, 2).

    >>> import math
    >>> from simulations.learning import LPMST, SoftKNNClassifier
    >>> est = LPMST(learner=SoftKNNClassifier(n_neighbors=1, num_classes=3), num_classes=3, epsilon=0.7, num_stages=2)
    >>> p = np.exp(lp_mst_log_probabilities(est, np.array([[0.0], [1.0]]), np.array([0, 1]))[0, 0])
    >>> E = math.exp(0.7)
    >>> bool(np.allclose(p, [E / (E + 2), 0, 0, 0, 1 / (E + 2), 0, 0, 0, 1 / (E + 2)], rtol=1e-12, atol=0))
    True
    """
    check_choice("leak", leak, ("none", "true_labels"))
    fractions = est.check_parameters()
    K, T = est.num_classes, fractions.size
    stages = np.asarray(stages, dtype=np.int64)
    n = stages.size
    if K ** n > MAX_OUTCOMES:
        raise ValueError(f"K^n = {K ** n} outputs is too many for exact enumeration (max {MAX_OUTCOMES})")
    if np.unique(stages).size != T or stages.min() != 0 or stages.max() != T - 1:
        raise ValueError(f"stages must use every stage 0..{T - 1}, got stages={stages.tolist()}")
    X = np.asarray(X)
    mech = est.mechanism
    uniform = ConstantModel(np.full(K, 1.0 / K))
    outputs = list(itertools.product(range(K), repeat=n))
    cache: dict = {}

    def stage_state(t: int, key: tuple):
        """(channels (n_t, K, K), mean k*, M(t-1)) of stage t given ``key`` = the labels on the
        examples of stages < t in index order (privatized labels; true labels under the leak)."""
        if (t, key) not in cache:
            if t == 0:
                prev = uniform
            else:
                earlier = np.flatnonzero(stages < t)
                key_prev = tuple(np.asarray(key, dtype=np.int64)[stages[earlier] < t - 1].tolist())
                _, k_prev, prev_prev = stage_state(t - 1, key_prev)
                z = np.full(n, -1, dtype=np.int64)
                z[earlier] = key
                prev, _ = est.train_stage(X, z, stages, t - 1, prev_prev, k_prev)
            priors = est.stage_priors(prev, X[np.flatnonzero(stages == t)])
            C = np.stack([mech.channel_matrix(p) for p in priors])
            cache[(t, key)] = (C, float(mech.k_star(priors).mean()), prev)
        return cache[(t, key)]

    logp = np.empty((K,) * n + (len(outputs),))
    for c, z in enumerate(outputs):
        z = np.asarray(z)
        total = np.zeros((K,) * n)
        for t in range(T):
            if leak == "true_labels" and t >= 1:
                continue  # filled below, per labelling
            C = stage_state(t, tuple(z[stages < t].tolist()))[0]
            for j, i in enumerate(np.flatnonzero(stages == t)):
                col = C[j][:, z[i]]
                with np.errstate(divide="ignore"):
                    shape = [1] * n
                    shape[i] = K
                    total = total + np.log(col).reshape(shape)
        if leak == "true_labels" and T > 1:
            for y in itertools.product(range(K), repeat=n):
                yv = np.asarray(y)
                extra = 0.0
                for t in range(1, T):
                    C = stage_state(t, tuple(yv[stages < t].tolist()))[0]  # bug: priors from true labels
                    for j, i in enumerate(np.flatnonzero(stages == t)):
                        with np.errstate(divide="ignore"):
                            extra += float(np.log(C[j][y[i], z[i]]))
                total[y] += extra
        logp[..., c] = total
    return logp


@dataclass(frozen=True, slots=True)
class LPMSTCheck:
    r"""Result of :func:`check_lp_mst`: the exact worst loss over neighbouring labellings.

    Parameters
    ----------
    epsilon : float
        LP-MST's ε (the claimed loss, 004 Observation 4).
    loss : float
        The exact worst :math:`|\log P(z|y) - \log P(z|y')|` (``inf`` when the support changes).
    holds : bool
        loss <= ε (up to :data:`proofs_checks.dp.TOL`).
    tight : bool
        loss == ε (up to the tolerance).
    witness : tuple or None
        (y, y', z): the labellings (differing in one label) and the output attaining the loss.
    n_labellings : int
        :math:`K^n`.
    n_outputs : int
        :math:`K^n`.

    References
    ----------
    004 Algorithm 3, Observation 4.

    Examples
    --------
    >>> from simulations.learning import LPMST, SoftKNNClassifier
    >>> est = LPMST(learner=SoftKNNClassifier(n_neighbors=1, num_classes=3), num_classes=3, epsilon=0.7, num_stages=2)
    >>> res = check_lp_mst(est, np.array([[0.0], [1.0]]), np.array([0, 1]))
    >>> res.holds, res.tight, res.n_labellings, res.witness
    (True, True, 9, ((0, 0), (1, 0), (0, 0)))
    """

    epsilon: float
    loss: float
    holds: bool
    tight: bool
    witness: tuple | None
    n_labellings: int
    n_outputs: int


def check_lp_mst(est, X, stages, *, leak: str = "none") -> LPMSTCheck:
    r"""Exact label-DP loss of LP-MST's privatized labels over all neighbouring labellings.

    Neighbours differ in exactly one label; the loss is the largest
    :math:`|\log P(z|y) - \log P(z|y')|` over them and every output z
    (:func:`lp_mst_log_probabilities`; 0/0 ignored, p/0 infinite).

    Parameters
    ----------
    est : simulations.learning.LPMST
        The estimator.
    X : array_like, shape (n, ...)
        Features.
    stages : array_like of int, shape (n,)
        A fixed partition using every stage.
    leak : {"none", "true_labels"}, default "none"
        ``"true_labels"`` plants the bug Observation 4 rules out.

    Returns
    -------
    LPMSTCheck
        The loss, verdict, tightness and witness.

    Raises
    ------
    ValueError
        As :func:`lp_mst_log_probabilities`.

    References
    ----------
    004 Algorithm 3, Observation 4 (adaptive parallel composition).

    Examples
    --------
    Two examples (derivation in :func:`lp_mst_log_probabilities`): loss ε exactly; with the planted
    leak stage 2's prior is one-hot of the *true* label :math:`y_0`, so :math:`z_1 = y_0` and the
    support moves with :math:`y_0`: infinite loss.

    >>> from simulations.learning import LPMST, SoftKNNClassifier
    >>> est = LPMST(learner=SoftKNNClassifier(n_neighbors=1, num_classes=3), num_classes=3, epsilon=0.7, num_stages=2)
    >>> X, stages = np.array([[0.0], [1.0]]), np.array([0, 1])
    >>> round(check_lp_mst(est, X, stages).loss, 12), check_lp_mst(est, X, stages, leak="true_labels").loss
    (0.7, inf)
    """
    logp = lp_mst_log_probabilities(est, X, stages, leak=leak)
    n = logp.ndim - 1
    K = logp.shape[0]
    worst, witness = -np.inf, None
    for i in range(n):
        hi = logp.max(axis=i, keepdims=True)
        lo = logp.min(axis=i, keepdims=True)
        live = np.isfinite(hi)
        with np.errstate(invalid="ignore"):
            gap = np.where(live, hi - lo, -np.inf)  # +inf where one labelling has 0 and another > 0
        flat = int(np.argmax(gap))
        if gap.flat[flat] > worst:
            worst = float(gap.flat[flat])
            pos = list(np.unravel_index(flat, gap.shape))
            c = pos[-1]
            fiber = [slice(None) if a == i else pos[a] for a in range(n)] + [c]
            col = logp[tuple(fiber)]
            y = [int(v) for v in pos[:-1]]
            y1, y2 = list(y), list(y)
            y1[i], y2[i] = int(np.argmax(col)), int(np.argmin(col))
            z = list(itertools.product(range(K), repeat=n))[c]
            witness = (tuple(y1), tuple(y2), tuple(int(v) for v in z))
    worst = max(worst, 0.0)
    return LPMSTCheck(epsilon=float(est.epsilon), loss=worst, holds=within(worst, est.epsilon),
                      tight=is_tight(worst, est.epsilon), witness=witness, n_labellings=K ** n,
                      n_outputs=logp.shape[-1])
