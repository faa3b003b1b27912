"""LP-MST: label-private multi-stage training over any probabilistic classifier (004 Algorithm 3).

The data are split into T stages independently of the labels. Stage 1 privatizes its labels with
RRWithPrior under the uniform prior (that is plain K-ary randomized response: k* = K), and every
later stage t privatizes its labels with RRWithPrior under the prior predicted by the model M(t-1)
trained on all privatized labels of stages 1..t-1. Each label is privatized exactly once and the
priors of stage t depend only on the features and the privatized labels of earlier stages, so the
whole procedure, models and privatized labels together, is ε-label DP (004 Observation 4, adaptive
parallel composition). ``proofs_checks.lp_mst_check`` verifies this exactly on a tiny data set.

Options from the paper's implementation notes:

* ``temperature`` t (004 Appendix E): the prior ``p̂^t_k(x) ∝ exp(f_k(x)/t)`` with logits f; for a
  probabilistic classifier the logits are ``log p_k`` up to a constant, so ``p̂^t ∝ p^{1/t}``
  (t < 1 sharpens, t > 1 flattens, zeros stay zero).
* ``filter_labels`` (004 Appendix B): when training M(t), t >= 2, the privatized labels of earlier
  stages that are not among the top-k classes predicted by M(t-1) are left out, with k the average
  k* (rounded) that RRWithPrior used on stage t. A function of privatized labels and features only:
  post-processing, no privacy cost.

A stage whose privatized labels hold one class only cannot be fitted by most classifiers (e.g.
scikit-learn's logistic regression); its model is then the constant class-frequency prior of those
labels (post-processing as well).

References: 004 Algorithm 3, Observation 4, Appendix B (label filtering), Appendix E (temperature).
"""

from __future__ import annotations

import copy
import time

import numpy as np

from limits.validation import check_int, check_positive, check_real
from simulations.mechanisms import RRWithPrior, top_k_order
from simulations.mechanisms.labels import check_labels, check_num_classes_epsilon
from simulations.seeding import check_generator

__all__ = ["LPMST", "ConstantModel", "check_classifier", "check_stage_fractions", "split_stages",
           "tempered", "top_k_mask"]

# LP-2ST's stage split (stage-1 share, stage-2 share), by name; "004" is the default everywhere.
LP2ST_SPLITS = {
    "004": (0.65, 0.35),  # 004 Appendix D: "Stage-1 of LP-2ST (using 65% training data)"
    "60/40": (0.6, 0.4),  # the suite's earlier split (004 App. E: "ratios slightly higher than 50% for stage-1")
}


def check_classifier(name: str, learner) -> None:
    """A learner must have ``fit`` and ``predict_proba`` (a probabilistic classifier)."""
    for method in ("fit", "predict_proba"):
        if not callable(getattr(learner, method, None)):
            raise ValueError(f"{name} must be a probabilistic classifier with fit and predict_proba, "
                             f"got {name}={learner!r} without {method}")


def check_stage_fractions(stage_fractions, num_stages) -> np.ndarray:
    """Fractions of the data per stage: T = num_stages positive numbers summing to 1 (None: equal)."""
    T = check_int("num_stages", num_stages, low=1)
    if stage_fractions is None:
        return np.full(T, 1.0 / T)
    f = np.asarray(stage_fractions, dtype=float)
    if f.ndim != 1 or f.size != T:
        raise ValueError(f"stage_fractions must hold num_stages={T} numbers, got stage_fractions={stage_fractions!r}")
    if not np.all(np.isfinite(f)) or np.any(f <= 0):
        raise ValueError(f"stage_fractions must be positive, got stage_fractions={stage_fractions!r}")
    if abs(f.sum() - 1.0) > 1e-9:
        raise ValueError(f"stage_fractions must sum to 1, got stage_fractions={stage_fractions!r} (sum {f.sum()!r})")
    return f


def split_stages(n: int, stage_fractions, rng: np.random.Generator) -> np.ndarray:
    """A label-independent partition: stage index (0..T-1) of each of n examples, shape (n,).

    A uniformly random permutation (from ``rng`` only) cut at ``round(n * cumsum(fractions))``;
    every stage must receive at least one example.
    """
    n = check_int("n", n, low=1)
    f = np.asarray(stage_fractions, dtype=float)
    rng = check_generator(rng)
    bounds = np.round(np.cumsum(f) * n).astype(np.int64)
    bounds[-1] = n
    sizes = np.diff(np.concatenate([[0], bounds]))
    if np.any(sizes < 1):
        raise ValueError(f"every stage needs at least one example: n={n} with stage_fractions={f.tolist()} "
                         f"gives stage sizes {sizes.tolist()}")
    stages = np.empty(n, dtype=np.int64)
    stages[rng.permutation(n)] = np.repeat(np.arange(f.size), sizes)
    return stages


def tempered(proba: np.ndarray, temperature: float) -> np.ndarray:
    """004 Appendix E: rows ``∝ exp(log p_k / t) = p_k^{1/t}``, shape (m, K) -> (m, K)."""
    if temperature == 1.0:
        return proba
    with np.errstate(divide="ignore"):
        logp = np.log(proba) / temperature
    logp -= logp.max(axis=1, keepdims=True)
    w = np.exp(logp)
    return w / w.sum(axis=1, keepdims=True)


def top_k_mask(proba: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """True where ``labels[i]`` is among the k classes of largest ``proba[i]`` (stable ties), shape (m,)."""
    order = top_k_order(proba)
    return np.any(order[:, :k] == labels[:, None], axis=1)


class ConstantModel:
    """The model that predicts the same class distribution everywhere (uniform: M(0) of 004 Alg. 3)."""

    def __init__(self, proba):
        self.proba = np.asarray(proba, dtype=float)

    def predict_proba(self, X) -> np.ndarray:
        return np.broadcast_to(self.proba, (len(X), self.proba.size)).copy()


def _fresh(learner):
    """An unfitted copy of ``learner``: scikit-learn's ``clone`` for its estimators, else a shallow
    copy (``fit`` must create its learned attributes, not mutate the constructor's arguments; a
    shallow copy shares large read-only arguments such as a precomputed neighbour order)."""
    from sklearn.base import BaseEstimator, clone

    return clone(learner) if isinstance(learner, BaseEstimator) else copy.copy(learner)


class LPMST:
    """Label-private multi-stage training (LP-1ST = RR, LP-2ST, LP-3ST, ...).

    Parameters
    ----------
    learner : classifier with ``fit(X, y)`` and ``predict_proba(X)``
        Copied (unfitted) at each stage (``sklearn.base.clone`` or a shallow copy). Its ``predict_proba`` columns follow ``learner.classes_``
        when present (classes absent from a stage's labels get probability 0), else must be K.
    num_classes : int >= 2
    epsilon : float > 0
        The label-DP budget: every label is privatized once by RRWithPrior at this ε.
    num_stages : int >= 1
        T.
    stage_fractions : sequence of T positive floats summing to 1, optional (default equal)
    temperature : float > 0
        Prior temperature of 004 Appendix E (1: the model's probabilities as they are).
    filter_labels : bool
        004 Appendix B's filtering of earlier stages' labels outside the top-k of the previous model.

    Attributes (after ``fit``)
    --------------------------
    stages_ : (n,) int64, stage index of each example
    privatized_labels_ : (n,) int64
    k_star_ : (n,) int64, the k of RRWithPrior used for each example
    models_ : list of T fitted models (M(1), ..., M(T)); ``model_`` = M(T)
    n_trained_ : (T,) int64, examples each model was trained on (after filtering)
    stage_seconds_ : (T, 3) float, wall time of (prior computation, privatization, training) per stage

    References: 004 Algorithm 3, Observation 4, Appendices B and E.
    """

    def __init__(self, *, learner, num_classes: int, epsilon: float, num_stages: int = 2,
                 stage_fractions=None, temperature: float = 1.0, filter_labels: bool = False):
        self.learner = learner
        self.num_classes = num_classes
        self.epsilon = epsilon
        self.num_stages = num_stages
        self.stage_fractions = stage_fractions
        self.temperature = temperature
        self.filter_labels = filter_labels

    # ------------------------------------------------------------------ validated parameters
    def _validate(self) -> np.ndarray:
        check_num_classes_epsilon(self.num_classes, self.epsilon)
        check_classifier("learner", self.learner)
        check_real("temperature", self.temperature, low=0.0, low_open=True)
        if not isinstance(self.filter_labels, (bool, np.bool_)):
            raise ValueError(f"filter_labels must be a bool, got filter_labels={self.filter_labels!r}")
        return check_stage_fractions(self.stage_fractions, self.num_stages)

    @property
    def mechanism(self) -> RRWithPrior:
        return RRWithPrior(num_classes=self.num_classes, epsilon=self.epsilon)

    # --------------------------------------------------------------- the steps of Algorithm 3
    def stage_priors(self, model, X) -> np.ndarray:
        """Tempered class probabilities of ``model`` on X, (m, ...) -> (m, K); one vectorized call
        of ``predict_proba`` (no loop over examples)."""
        return tempered(self.model_proba(model, X), self.temperature)

    def model_proba(self, model, X) -> np.ndarray:
        """``model.predict_proba(X)`` as (m, K) rows summing to 1, columns mapped through
        ``model.classes_`` when the model has it (absent classes: probability 0)."""
        K = self.num_classes
        raw = np.asarray(model.predict_proba(X), dtype=float)
        classes = getattr(model, "classes_", None)
        if classes is not None and not isinstance(model, ConstantModel):
            classes = np.asarray(classes)
            if raw.shape != (len(X), classes.size):
                raise ValueError(f"predict_proba returned shape {raw.shape}, expected ({len(X)}, {classes.size})")
            proba = np.zeros((len(X), K))
            proba[:, classes.astype(np.int64)] = raw
        else:
            if raw.shape != (len(X), K):
                raise ValueError(f"predict_proba returned shape {raw.shape}, expected ({len(X)}, {K})")
            proba = raw
        proba = np.clip(proba, 0.0, None)
        tot = proba.sum(axis=1, keepdims=True)
        return np.where(tot > 0, proba / np.where(tot > 0, tot, 1.0), 1.0 / K)

    def train_stage(self, X, z, stages, t: int, previous, k_filter: float | None):
        """M(t): the learner fitted on the privatized labels of stages 0..t (0-based t).

        With ``filter_labels`` and t >= 1, labels of stages < t outside the top-round(k_filter)
        classes of ``previous`` (= M(t-1)) are left out. A training set with a single class gives
        a :class:`ConstantModel`. Returns (model, number of training examples).
        """
        use = stages <= t
        if self.filter_labels and t >= 1 and k_filter is not None:
            k = max(1, int(round(k_filter)))
            earlier = np.flatnonzero(stages < t)
            keep = top_k_mask(self.stage_priors(previous, X[earlier]), z[earlier], k)
            use[earlier[~keep]] = False
        idx = np.flatnonzero(use)
        labels = z[idx]
        if np.unique(labels).size < 2:
            freq = np.bincount(labels, minlength=self.num_classes) / labels.size
            return ConstantModel(freq), idx.size
        return _fresh(self.learner).fit(X[idx], labels), idx.size

    def fit(self, X, y, rng: np.random.Generator, *, stages=None):
        """Run LP-MST on (X, y); returns self.

        Parameters
        ----------
        X : array, shape (n, ...)
            Public features (whatever the learner takes).
        y : array of int, shape (n,), in [0, K)
        rng : numpy Generator (the PRIVACY stream): the stage split and every privatization
        stages : optional (n,) int array in [0, T)
            A given label-independent partition (e.g. for the exact privacy check); drawn by
            :func:`split_stages` from ``rng`` when omitted.
        """
        fractions = self._validate()
        rng = check_generator(rng)
        try:
            y = check_labels(y, self.num_classes)
        except ValueError as exc:
            raise ValueError(f"y: {exc}") from None
        X = np.asarray(X)
        if X.shape[0] != y.size:
            raise ValueError(f"X and y must have the same number of rows, got {X.shape[0]} and {y.size}")
        T = fractions.size
        if stages is None:
            stages = split_stages(y.size, fractions, rng)
        else:
            stages = np.asarray(stages)
            if stages.shape != y.shape or not np.issubdtype(stages.dtype, np.integer) or stages.min() < 0 \
                    or stages.max() >= T or np.unique(stages).size != T:
                raise ValueError(f"stages must be an (n,) integer array using every stage 0..{T - 1}, got stages={stages!r}")
            stages = stages.astype(np.int64)
        mech = self.mechanism
        z = np.full(y.size, -1, dtype=np.int64)
        k_star = np.zeros(y.size, dtype=np.int64)
        previous = ConstantModel(np.full(self.num_classes, 1.0 / self.num_classes))  # M(0)
        models, n_trained, seconds = [], [], np.zeros((T, 3))
        for t in range(T):
            idx = np.flatnonzero(stages == t)
            t0 = time.perf_counter()
            priors = self.stage_priors(previous, X[idx])
            t1 = time.perf_counter()
            z[idx] = mech.sample(y[idx], rng, prior=priors)
            k_star[idx] = mech.k_star(priors)
            t2 = time.perf_counter()
            previous, n_used = self.train_stage(X, z, stages, t, previous, k_star[idx].mean())
            seconds[t] = (t1 - t0, t2 - t1, time.perf_counter() - t2)
            models.append(previous)
            n_trained.append(n_used)
        self.stages_, self.privatized_labels_, self.k_star_ = stages, z, k_star
        self.models_, self.model_ = models, models[-1]
        self.n_trained_ = np.array(n_trained, dtype=np.int64)
        self.stage_seconds_ = seconds
        return self

    def _check_fitted(self):
        if not hasattr(self, "model_"):
            raise ValueError("LPMST is not fitted: call fit(X, y, rng) first")

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of the final model M(T) (untempered), (m, ...) -> (m, K)."""
        self._check_fitted()
        return self.model_proba(self.model_, X)

    def predict(self, X) -> np.ndarray:
        """Arg-max class of M(T), (m, ...) -> (m,) int64 (the final model's own ``predict`` if any)."""
        self._check_fitted()
        if hasattr(self.model_, "predict") and not isinstance(self.model_, ConstantModel):
            return np.asarray(self.model_.predict(X)).astype(np.int64)
        return np.argmax(self.predict_proba(X), axis=1).astype(np.int64)
