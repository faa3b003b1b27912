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
from dataclasses import asdict

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from limits.validation import check_int, check_real
from simulations.estimators._sklearn import LabelDPEstimatorMixin
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
    """Refuse a learner without ``fit`` and ``predict_proba`` (LP-MST needs a probabilistic classifier).

    Parameters
    ----------
    name : str
        The argument's name in the error message.
    learner : object
        The candidate classifier.

    Raises
    ------
    ValueError
        If ``learner.fit`` or ``learner.predict_proba`` is missing or not callable.

    References
    ----------
    004 Algorithm 3 (each stage trains a model whose class probabilities are the next prior).

    Examples
    --------
    >>> from simulations.learning import SoftKNNClassifier
    >>> check_classifier("learner", SoftKNNClassifier())
    >>> check_classifier("learner", object())
    Traceback (most recent call last):
    ...
    ValueError: learner must be a probabilistic classifier with fit and predict_proba, got learner=<object object at ...> without fit
    """
    for method in ("fit", "predict_proba"):
        if not callable(getattr(learner, method, None)):
            raise ValueError(f"{name} must be a probabilistic classifier with fit and predict_proba, "
                             f"got {name}={learner!r} without {method}")


def check_stage_fractions(stage_fractions, num_stages) -> np.ndarray:
    """Fractions of the data per stage: T = ``num_stages`` positive numbers summing to 1.

    Parameters
    ----------
    stage_fractions : sequence of float or None
        The fractions; None gives equal ones.
    num_stages : int >= 1
        T.

    Returns
    -------
    ndarray of float, shape (T,)

    Raises
    ------
    ValueError
        If ``num_stages`` < 1, or the fractions are not T positive finite numbers summing to 1 (within 1e-9).

    References
    ----------
    004 Algorithm 3 (the data split into T parts).

    Examples
    --------
    >>> check_stage_fractions(None, 4).tolist()
    [0.25, 0.25, 0.25, 0.25]
    """
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

    Parameters
    ----------
    n : int >= 1
        Number of examples.
    stage_fractions : sequence of float, shape (T,)
        Positive fractions summing to 1 (see :func:`check_stage_fractions`).
    rng : numpy.random.Generator or int seed
        Draws the permutation.

    Returns
    -------
    ndarray of int64, shape (n,)
        Stage index of each example; stage t holds the rounded share of fraction t.

    Raises
    ------
    ValueError
        If ``n`` < 1 or a stage would be empty.

    References
    ----------
    004 Algorithm 3 line 1 (a random partition independent of the labels).

    Examples
    --------
    >>> np.bincount(split_stages(10, [0.3, 0.7], np.random.default_rng(0))).tolist()
    [3, 7]
    """
    n = check_int("n", n, low=1)
    f = np.asarray(stage_fractions, dtype=float)
    rng = check_generator(rng)
    bounds = np.round(np.cumsum(f) * n).astype(np.int64)
    bounds[-1] = n
    sizes = np.diff(np.concatenate([[0], bounds]))
    if np.any(sizes < 1):
        raise ValueError(f"every stage needs at least one example: n_samples = {n} with stage_fractions={f.tolist()} "
                         f"gives stage sizes {sizes.tolist()}")
    stages = np.empty(n, dtype=np.int64)
    stages[rng.permutation(n)] = np.repeat(np.arange(f.size), sizes)
    return stages


def tempered(proba: np.ndarray, temperature: float) -> np.ndarray:
    """Tempered class probabilities (004 Appendix E): rows :math:`\\propto p_k^{1/t}`.

    Parameters
    ----------
    proba : ndarray of float, shape (m, K)
        Rows of class probabilities.
    temperature : float > 0
        t; 1 returns ``proba`` itself.

    Returns
    -------
    ndarray of float, shape (m, K)
        Rows summing to 1.

    References
    ----------
    004 Appendix E (prior temperature).

    Examples
    --------
    At t = 1/2 the row (0.2, 0.8) becomes (0.04, 0.64) / 0.68:

    >>> tempered(np.array([[0.2, 0.8]]), 0.5).round(4).tolist()
    [[0.0588, 0.9412]]
    """
    if temperature == 1.0:
        return proba
    with np.errstate(divide="ignore"):
        logp = np.log(proba) / temperature
    logp -= logp.max(axis=1, keepdims=True)
    w = np.exp(logp)
    return w / w.sum(axis=1, keepdims=True)


def top_k_mask(proba: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """Whether each label is among the k most probable classes of its row (stable ties).

    Parameters
    ----------
    proba : ndarray of float, shape (m, K)
        Class probabilities.
    labels : ndarray of int, shape (m,)
        Labels in [0, K).
    k : int >= 1
        Size of the top set.

    Returns
    -------
    ndarray of bool, shape (m,)

    References
    ----------
    004 Appendix B (filtering labels outside the previous model's top-k).

    Examples
    --------
    >>> top_k_mask(np.array([[0.1, 0.6, 0.3], [0.5, 0.2, 0.3]]), np.array([2, 1]), 2).tolist()
    [True, False]
    """
    order = top_k_order(proba)
    return np.any(order[:, :k] == labels[:, None], axis=1)


class ConstantModel:
    """The model that predicts the same class distribution everywhere (uniform: M(0) of 004 Alg. 3).

    Parameters
    ----------
    proba : array_like of float, shape (K,)
        The class distribution.

    References
    ----------
    004 Algorithm 3 (M(0), the uniform prior of the first stage).

    Examples
    --------
    >>> ConstantModel([0.25, 0.75]).predict_proba(np.zeros((2, 3))).tolist()
    [[0.25, 0.75], [0.25, 0.75]]
    """

    def __init__(self, proba):
        self.proba = np.asarray(proba, dtype=float)

    def predict_proba(self, X) -> np.ndarray:
        """``proba`` repeated for each row of ``X``.

        Parameters
        ----------
        X : array_like, shape (m, ...)
            Any m rows (only their number is used).

        Returns
        -------
        ndarray of float, shape (m, K)

        Examples
        --------
        >>> ConstantModel([1.0, 0.0]).predict_proba([0, 1, 2]).shape
        (3, 2)
        """
        return np.broadcast_to(self.proba, (len(X), self.proba.size)).copy()


def _fresh(learner):
    """An unfitted copy of ``learner``: scikit-learn's ``clone`` for its estimators, else a shallow
    copy (``fit`` must create its learned attributes, not mutate the constructor's arguments; a
    shallow copy shares large read-only arguments such as a precomputed neighbour order)."""
    from sklearn.base import BaseEstimator, clone

    return clone(learner) if isinstance(learner, BaseEstimator) else copy.copy(learner)


class LPMST(LabelDPEstimatorMixin, ClassifierMixin, BaseEstimator):
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
    random_state : None, int or numpy.random.Generator, default None
        The PRIVACY stream, read at ``fit``: the stage split and every privatization. A Generator is drawn
        from as it is (the engine passes its per-trial stream), an int seeds a fresh one at each ``fit``.

    Attributes
    ----------
    stages_ : ndarray of int64, shape (n,)
        Stage index of each example.
    privatized_labels_ : ndarray of int64, shape (n,)
        The RRWithPrior outputs.
    k_star_ : ndarray of int64, shape (n,)
        The k of RRWithPrior used for each example.
    models_ : list
        The T fitted models M(1), ..., M(T).
    model_ : fitted model
        M(T).
    n_trained_ : ndarray of int64, shape (T,)
        Examples each model was trained on (after filtering).
    stage_seconds_ : ndarray of float, shape (T, 3)
        Wall time of (prior computation, privatization, training) per stage.
    classes_ : ndarray, ``0..K-1``
    n_features_in_ : int
        Features per row of X (trailing axes flattened; 1 for a 1-D X of indices).

    References
    ----------
    004 Algorithm 3, Algorithm 2 (RRWithPrior), Observation 4, Appendices B and E.

    Examples
    --------
    With a uniform prior at ε = 2 and K = 3, RRWithPrior keeps all k* = 3 classes
    (:math:`k e^{\\varepsilon} / (K (e^{\\varepsilon} + k - 1))` is largest at k = 3), as in plain RR:

    >>> from simulations.learning import SoftKNNClassifier
    >>> X, y = np.repeat(np.arange(3.0), 20)[:, None], np.repeat(np.arange(3), 20)
    >>> est = LPMST(learner=SoftKNNClassifier(n_neighbors=5, num_classes=3), num_classes=3, epsilon=2.0,
    ...             random_state=np.random.default_rng(0))
    >>> est = est.fit(X, y)
    >>> est.n_trained_.tolist(), sorted(set(est.k_star_[est.stages_ == 0].tolist()))
    ([30, 60], [3])
    """

    def __init__(self, *, learner, num_classes: int, epsilon: float, num_stages: int = 2,
                 stage_fractions=None, temperature: float = 1.0, filter_labels: bool = False, random_state=None):
        self.random_state = random_state
        self.learner = learner
        self.num_classes = num_classes
        self.epsilon = epsilon
        self.num_stages = num_stages
        self.stage_fractions = stage_fractions
        self.temperature = temperature
        self.filter_labels = filter_labels

    _label_domain = "classes"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if isinstance(self.learner, BaseEstimator):  # X is whatever the learner takes: its input domain
            inner = self.learner.__sklearn_tags__().input_tags
            tags.input_tags = type(tags.input_tags)(**{**asdict(tags.input_tags), **{
                k: v for k, v in asdict(inner).items() if k in ("one_d_array", "three_d_array", "positive_only",
                                                                "unit_cube", "indices")}})
        return tags

    # ------------------------------------------------------------------ validated parameters
    def check_parameters(self) -> np.ndarray:
        """Check every constructor argument and return the stage fractions.

        ``fit`` calls it first, so bad parameters are refused before any label is privatized; exact
        checks (:mod:`proofs_checks.lp_mst_check`) call it to read the validated fractions.

        Returns
        -------
        ndarray of float, shape (T,)
            The fractions of the examples in stages 1..T (positive, summing to 1; equal by default).

        Raises
        ------
        ValueError
            If ``num_classes`` < 2, ``epsilon`` <= 0, ``learner`` lacks ``fit`` / ``predict_proba``,
            ``temperature`` <= 0, ``filter_labels`` is not a bool, or the stage fractions are invalid.

        References
        ----------
        004 Algorithm 3 (the inputs: ε, the number of stages T and the split of the data).

        Examples
        --------
        >>> from simulations.learning import SoftKNNClassifier
        >>> LPMST(learner=SoftKNNClassifier(), num_classes=10, epsilon=1.0, num_stages=4).check_parameters().tolist()
        [0.25, 0.25, 0.25, 0.25]
        """
        check_num_classes_epsilon(self.num_classes, self.epsilon)
        check_classifier("learner", self.learner)
        check_real("temperature", self.temperature, low=0.0, low_open=True)
        if not isinstance(self.filter_labels, (bool, np.bool_)):
            raise ValueError(f"filter_labels must be a bool, got filter_labels={self.filter_labels!r}")
        return check_stage_fractions(self.stage_fractions, self.num_stages)

    @property
    def mechanism(self) -> RRWithPrior:
        """The label randomizer of every stage: RRWithPrior (004 Algorithm 2) at (num_classes, epsilon).

        Examples
        --------
        >>> from simulations.learning import SoftKNNClassifier
        >>> LPMST(learner=SoftKNNClassifier(), num_classes=3, epsilon=2.0).mechanism
        RRWithPrior(num_classes=3, epsilon=2.0)
        """
        return RRWithPrior(num_classes=self.num_classes, epsilon=self.epsilon)

    # --------------------------------------------------------------- the steps of Algorithm 3
    def stage_priors(self, model, X) -> np.ndarray:
        """The prior of the next stage: tempered class probabilities of ``model`` on ``X``.

        One vectorized call of ``predict_proba`` (no loop over examples).

        Parameters
        ----------
        model : fitted classifier
            M(t−1).
        X : array_like, shape (m, ...)
            Features of the stage's examples.

        Returns
        -------
        ndarray of float, shape (m, K)

        References
        ----------
        004 Algorithm 3 line 4, Appendix E.

        Examples
        --------
        >>> from simulations.learning import SoftKNNClassifier
        >>> X, y = np.repeat(np.arange(3.0), 20)[:, None], np.repeat(np.arange(3), 20)
        >>> est = LPMST(learner=SoftKNNClassifier(n_neighbors=5, num_classes=3), num_classes=3, epsilon=2.0)
        >>> est.set_params(temperature=0.5).stage_priors(ConstantModel([0.2, 0.8, 0.0]), [[0.0]]).round(4).tolist()
        [[0.0588, 0.9412, 0.0]]
        """
        return tempered(self.model_proba(model, X), self.temperature)

    def model_proba(self, model, X) -> np.ndarray:
        """``model.predict_proba(X)`` as rows over the K classes summing to 1.

        Columns are mapped through ``model.classes_`` when the model has it (absent classes:
        probability 0); negative entries are clipped, all-zero rows become uniform.

        Parameters
        ----------
        model : fitted classifier
            Has ``predict_proba``.
        X : array_like, shape (m, ...)
            Features.

        Returns
        -------
        ndarray of float, shape (m, K)

        Raises
        ------
        ValueError
            If ``predict_proba`` returns a shape other than ``(m, len(classes_))`` or ``(m, K)``.

        Examples
        --------
        >>> from simulations.learning import SoftKNNClassifier
        >>> X, y = np.repeat(np.arange(3.0), 20)[:, None], np.repeat(np.arange(3), 20)
        >>> est = LPMST(learner=SoftKNNClassifier(n_neighbors=5, num_classes=3), num_classes=3, epsilon=2.0)
        >>> est.model_proba(ConstantModel([2.0, 0.0, 2.0]), [[0.0]]).tolist()
        [[0.5, 0.0, 0.5]]
        """
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
        a :class:`ConstantModel`.

        Parameters
        ----------
        X : array_like, shape (n, ...)
            All features.
        z : ndarray of int64, shape (n,)
            Privatized labels (stages > t unused).
        stages : ndarray of int64, shape (n,)
            Stage of each example.
        t : int
            0-based stage.
        previous : fitted classifier
            M(t−1), for the filtering.
        k_filter : float or None
            Mean k* of the stage (the size of the top set kept by the filter).

        Returns
        -------
        model : fitted classifier
            M(t).
        n_used : int
            Number of training examples.

        References
        ----------
        004 Algorithm 3 line 6, Appendix B (filtering).

        Examples
        --------
        >>> from simulations.learning import SoftKNNClassifier
        >>> X, y = np.repeat(np.arange(3.0), 20)[:, None], np.repeat(np.arange(3), 20)
        >>> est = LPMST(learner=SoftKNNClassifier(n_neighbors=5, num_classes=3), num_classes=3, epsilon=2.0)
        >>> model, n_used = est.train_stage(X, y, np.zeros(60, dtype=np.int64), 0, None, None)
        >>> n_used, model.predict([[2.0]]).tolist()
        (60, [2])
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

    def fit(self, X, y, *, stages=None):
        """Run LP-MST on (X, y); returns self.

        Parameters
        ----------
        X : array, shape (n, ...)
            Public features (whatever the learner takes).
        y : array of int, shape (n,), in [0, K)
        stages : optional (n,) int array in [0, T)
            A given label-independent partition (e.g. for the exact privacy check); drawn by
            :func:`split_stages` from ``random_state`` when omitted.

        Returns
        -------
        LPMST
            self, with the attributes listed in the class docstring.

        Raises
        ------
        ValueError
            On invalid parameters (:meth:`check_parameters`, ``random_state``), labels, shapes, non-finite
            features or ``stages``, before any label is privatized.

        References
        ----------
        004 Algorithm 3.

        Examples
        --------
        >>> from simulations.learning import SoftKNNClassifier
        >>> X, y = np.repeat(np.arange(3.0), 20)[:, None], np.repeat(np.arange(3), 20)
        >>> est = LPMST(learner=SoftKNNClassifier(n_neighbors=5, num_classes=3), num_classes=3, epsilon=2.0)
        >>> est.set_params(random_state=0).fit(X, y).privatized_labels_.shape
        (60,)
        """
        X, y = self._check_input(X, y)
        fractions = self.check_parameters()
        rng = self._random_generator()
        try:
            y = check_labels(y, self.num_classes)
        except ValueError as exc:
            raise ValueError(f"y: {exc}") from None
        X = np.asarray(X)
        if X.ndim < 1 or X.shape[0] != y.size:
            raise ValueError(f"X and y must have the same number of rows, got {np.shape(X)[:1]} and {y.size}")
        if np.issubdtype(X.dtype, np.number) and not np.all(np.isfinite(X)):
            raise ValueError("X must be finite (no NaN or inf)")
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
        self.classes_ = np.arange(self.num_classes)
        self.n_features_in_ = int(np.prod(X.shape[1:])) if X.ndim >= 2 else 1
        return self

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of the final model M(T) (untempered).

        Parameters
        ----------
        X : array_like, shape (m, ...)
            Features.

        Returns
        -------
        ndarray of float, shape (m, K)

        Raises
        ------
        ValueError
            If the estimator is not fitted.

        Examples
        --------
        >>> from simulations.learning import SoftKNNClassifier
        >>> X, y = np.repeat(np.arange(3.0), 20)[:, None], np.repeat(np.arange(3), 20)
        >>> est = LPMST(learner=SoftKNNClassifier(n_neighbors=5, num_classes=3), num_classes=3, epsilon=2.0)
        >>> est.set_params(random_state=0).fit(X, y).predict_proba([[1.0]]).shape
        (1, 3)
        """
        self._check_predict_input(X)
        return self.model_proba(self.model_, X)

    def predict(self, X) -> np.ndarray:
        """Arg-max class of M(T) (the final model's own ``predict`` if it has one).

        Parameters
        ----------
        X : array_like, shape (m, ...)
            Features.

        Returns
        -------
        ndarray of int64, shape (m,)

        Raises
        ------
        ValueError
            If the estimator is not fitted.

        Examples
        --------
        >>> from simulations.learning import SoftKNNClassifier
        >>> X, y = np.repeat(np.arange(3.0), 20)[:, None], np.repeat(np.arange(3), 20)
        >>> est = LPMST(learner=SoftKNNClassifier(n_neighbors=5, num_classes=3), num_classes=3, epsilon=2.0)
        >>> est.set_params(random_state=0).fit(X, y).predict([[0.0], [2.0]]).tolist()
        [0, 2]
        """
        self._check_predict_input(X)
        if hasattr(self.model_, "predict") and not isinstance(self.model_, ConstantModel):
            return np.asarray(self.model_.predict(X)).astype(np.int64)
        return np.argmax(self.predict_proba(X), axis=1).astype(np.int64)
