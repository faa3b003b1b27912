"""Hyperparameter tuning on a validation split whose labels are privatized once, by randomized response.

The tuning procedure shared by every method of ``lp_mst_digits`` (issue 22: "every method ... gets its
hyperparameters chosen by the same procedure on a validation split carved from the training data"):

* A label-independent validation split V is carved out of the training data. Its labels are
  privatized **once**, by K-ary randomized response at the method's ε (004 eq. (1)), and never used
  for training. Every other training label is privatized once by the method's own mechanism.
  Everything below is a function of privatized labels and features only (post-processing), so each
  method stays ε-label DP with tuning included: no label is looked at twice and no true label is
  looked at at all. (004 Appendix E reports tuned benchmarks and skips the privacy cost of tuning;
  this procedure has none to skip.)
* **k of the k-NN** (every method; every stage of LP-MST): the k in a fixed grid whose predictions
  agree most often with the RR labels of V (smallest such k). For RR with keep probability a and
  other probability b, ``P(z = ŷ) = b + (a − b)·P(y = ŷ)``, an increasing affine function of the
  true accuracy, so the ranking is unbiased; :func:`debiased_accuracy` inverts it.
* **LP-MST's prior** (each stage t >= 2): the temperature t in a grid, and the k of the stage-(t−1)
  k-NN *as a prior* (when the learner offers a k grid), maximizing the estimated probability that
  RRWithPrior keeps the true label, on V. (The k of a model as a classifier is chosen by agreement
  as above; as a prior, what counts is how often RRWithPrior's candidate set holds the label and how
  small it is, 004 Appendix E "Accuracy of Stage-1".) For a prior p with RRWithPrior's top-k*
  set S, that probability is ``1{y ∈ S}·e^ε/(e^ε + k* − 1)`` (004 Algorithm 2, Theorem 3's
  objective); ``1{y ∈ S}`` is estimated without bias from the RR label z as
  ``(1{z ∈ S} − b·|S|)/(a − b)`` (:func:`prior_fidelity`). This is the quantity RRWithPrior itself
  maximizes under a calibrated prior, so the temperature acts as the calibration 004 Appendix E
  describes ("t → 0 sparsifies the prior"); it is a proxy of the final accuracy, not the accuracy.
* The **stage split** cannot be tuned this way: comparing splits needs the final accuracy under each,
  which needs the stage-2 labels privatized once per candidate (ε per candidate by composition). It
  stays at the paper's value.

References: 004 eq. (1), Algorithm 2, Theorem 3, Algorithm 3, Appendix E; 000 Section 5.2 ("all
methods with their own optimal parameters").
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from limits.validation import check_int
from simulations.estimators._common import check_fitted
from simulations.estimators._sklearn import LabelDPEstimatorMixin
from simulations.mechanisms import RRWithPrior, rr_probabilities, top_k_order

from .lp_mst import LPMST, ConstantModel, tempered
from .soft_knn import IndexedKNNClassifier

__all__ = ["K_GRID", "TEMPERATURE_GRID", "TemperatureTunedLPMST", "ValidatedKNNClassifier", "debiased_accuracy",
           "prior_fidelity"]

K_GRID = (5, 10, 20, 40, 80, 160)  # k of the k-NN, a doubling grid around the old fixed k = 20
TEMPERATURE_GRID = (0.25, 0.5, 1.0)  # 004 Appendix E: t < 1 sparsifies; "t > 1 generally not helpful"


def debiased_accuracy(agreement, *, epsilon: float, num_classes: int):
    """Unbiased true-accuracy estimate from the agreement rate with RR labels: ``(r − b)/(a − b)``.

    Parameters
    ----------
    agreement : float or ndarray
        Fraction of points whose prediction equals the RR-privatized label.
    epsilon : float > 0
    num_classes : int >= 2

    Returns
    -------
    float or ndarray, same shape

    References
    ----------
    004 eq. (1) (RR keeps the label with probability a = e^ε/(e^ε + K − 1), else b = 1/(e^ε + K − 1)).

    Examples
    --------
    >>> import math
    >>> a = math.e / (math.e + 9)
    >>> round(float(debiased_accuracy(a, epsilon=1.0, num_classes=10)), 12)  # agreeing like a perfect model
    1.0
    """
    a, b = rr_probabilities(epsilon, num_classes)
    return (np.asarray(agreement, dtype=float) - float(b)) / float(a - b)


def prior_fidelity(priors, z, *, epsilon: float) -> float:
    """Estimated ``P(RRWithPrior keeps the true label)`` over points with RR labels ``z``.

    Parameters
    ----------
    priors : ndarray (m, K)
        The prior RRWithPrior would use at each point.
    z : ndarray (m,) of int
        RR-privatized labels of the same points (at the same ε).
    epsilon : float > 0

    Returns
    -------
    float
        ``mean_i c(k_i)·(1{z_i ∈ S_i} − b·k_i)/(a − b)`` with S_i the top-k_i classes of prior i,
        k_i = k* of RRWithPrior and c(k) = e^ε/(e^ε + k − 1): unbiased for the mean of
        ``c(k_i)·1{y_i ∈ S_i}``.

    References
    ----------
    004 Algorithm 2, Theorem 3; eq. (1).

    Examples
    --------
    >>> import numpy as np
    >>> p = np.array([[1.0, 0.0], [1.0, 0.0]])
    >>> prior_fidelity(p, np.array([0, 0]), epsilon=2.0) > prior_fidelity(p, np.array([1, 1]), epsilon=2.0)
    True
    """
    priors = np.asarray(priors, dtype=float)
    z = np.asarray(z, dtype=np.int64)
    m, K = priors.shape
    if z.shape != (m,):
        raise ValueError(f"z must have shape ({m},), got shape {z.shape}")
    mech = RRWithPrior(num_classes=K, epsilon=epsilon)
    k = np.asarray(mech.k_star(priors)).reshape(m)
    order = top_k_order(priors)
    inside = (order == z[:, None]) & (np.arange(K)[None, :] < k[:, None])
    a, b = rr_probabilities(epsilon, K)
    keep = np.exp(epsilon) / (np.exp(epsilon) + k - 1.0)
    return float(np.mean(keep * (inside.any(axis=1) - float(b) * k) / float(a - b)))


class ValidatedKNNClassifier(LabelDPEstimatorMixin, ClassifierMixin, BaseEstimator):
    """:class:`~simulations.learning.IndexedKNNClassifier` whose k is chosen on RR-privatized validation labels.

    ``fit(X, y)`` fits the pool points ``X`` (indices) (labels or label vectors), predicts the validation rows
    ``val_rows`` at every k of ``k_grid`` and keeps the k whose arg-max predictions agree most often with
    ``val_labels`` (RR labels at the method's ε; ties: the smaller k).

    Parameters
    ----------
    order : ndarray (m, n) of int64
        :func:`~simulations.learning.neighbour_order` of the pool against every query row.
    k_grid : sequence of int >= 1
    num_classes : int >= 2
    val_rows : ndarray (v,) of int
        Query rows of ``order`` holding the validation points (never fitted).
    val_labels : ndarray (v,) of int
        Their RR-privatized labels.
    random_state : None, int or numpy.random.Generator, default None
        Unused (nothing is drawn); the parameter every estimator of the suite has.

    Attributes
    ----------
    k_ : int, the chosen k (set by ``fit``, as every attribute below)
    agreement_ : ndarray (len(k_grid),), agreement with ``val_labels`` per k
    classes_ : ndarray (K,)
    n_features_in_ : int, 1 (one pool index per row)

    References: 004 eq. (1); module docstring (the shared procedure).

    Examples
    --------
    >>> import numpy as np
    >>> from simulations.learning import neighbour_order
    >>> X = np.arange(8.0).reshape(-1, 1)
    >>> y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    >>> v = ValidatedKNNClassifier(order=neighbour_order(X, X), k_grid=(1, 7), num_classes=2,
    ...                            val_rows=np.array([0, 7]), val_labels=np.array([0, 1]))
    >>> v.fit(np.arange(1, 7), y[1:7]).k_
    1
    """

    _index_features = True
    _label_domain = "classes"

    def __init__(self, *, order, k_grid=K_GRID, num_classes: int = 10, val_rows, val_labels, random_state=None):
        self.random_state = random_state
        self.order = order
        self.k_grid = k_grid
        self.num_classes = num_classes
        self.val_rows = val_rows
        self.val_labels = val_labels

    def __sklearn_clone__(self):
        # clone's default deep-copies array arguments; ``order`` is large and read-only, so share it
        return type(self)(**self.get_params(deep=False))

    def fit(self, X, y):
        """Fit on pool points ``X`` with labels ``y`` and choose k.

        Parameters
        ----------
        X : ndarray (n,) of int
            Pool indices of the training points (never the validation rows).
        y : ndarray (n,) of int or (n, K) of float
            Privatized labels or label vectors.

        Returns
        -------
        ValidatedKNNClassifier
            self, with ``k_`` and ``agreement_`` set.

        Raises
        ------
        ValueError
            If ``k_grid`` is not a non-empty sequence of positive integers, or ``num_classes``, ``X``
            or ``y`` is invalid.

        References
        ----------
        004 eq. (1) (the validation labels are RR-privatized); module docstring.

        Examples
        --------
        >>> import numpy as np
        >>> from simulations.learning import neighbour_order
        >>> X = np.arange(6.0).reshape(-1, 1)
        >>> v = ValidatedKNNClassifier(order=neighbour_order(X, X), k_grid=(1, 3), num_classes=2,
        ...                            val_rows=np.array([0]), val_labels=np.array([0]))
        >>> v.fit(np.arange(1, 6), np.array([0, 0, 1, 1, 1])).agreement_.tolist()
        [1.0, 1.0]
        """
        X, y = self._check_input(X, y)
        ks = np.asarray(self.k_grid, dtype=np.int64)
        if ks.ndim != 1 or ks.size == 0 or ks.min() < 1:
            raise ValueError(f"k_grid must be positive integers, got k_grid={self.k_grid!r}")
        check_int("num_classes", self.num_classes, low=2)
        self._check_random_state()  # nothing is drawn
        knn = IndexedKNNClassifier(order=self.order, n_neighbors=int(ks.max()), num_classes=self.num_classes)
        knn.fit(X, y)
        means = knn.mean_vectors_by_k(self.val_rows, ks)  # (g, v, K)
        pred = np.argmax(means, axis=2)
        self.agreement_ = (pred == np.asarray(self.val_labels)[None, :]).mean(axis=1)
        self.k_ = int(ks[int(np.argmax(self.agreement_))])
        knn.n_neighbors = self.k_
        self.knn_ = knn
        self.classes_, self.n_features_in_ = knn.classes_, knn.n_features_in_
        return self

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities at query rows ``X`` with the chosen k.

        Parameters
        ----------
        X : ndarray (m,) of int
            Query rows of ``order``.

        Returns
        -------
        ndarray (m, K)

        Examples
        --------
        >>> import numpy as np
        >>> from simulations.learning import neighbour_order
        >>> X = np.arange(4.0).reshape(-1, 1)
        >>> v = ValidatedKNNClassifier(order=neighbour_order(X, X), k_grid=(1,), num_classes=2,
        ...                            val_rows=np.array([3]), val_labels=np.array([1]))
        >>> v.fit(np.arange(3), np.array([0, 1, 1])).predict_proba(np.array([0])).tolist()
        [[1.0, 0.0]]
        """
        self._check_predict_input(X)
        check_fitted(self, "knn_")
        return self.knn_.predict_proba(X)

    def predict(self, X) -> np.ndarray:
        """Arg-max class at query rows ``X`` with the chosen k.

        Parameters
        ----------
        X : ndarray (m,) of int
            Query rows of ``order``.

        Returns
        -------
        ndarray (m,) of int64

        Examples
        --------
        >>> import numpy as np
        >>> from simulations.learning import neighbour_order
        >>> X = np.arange(4.0).reshape(-1, 1)
        >>> v = ValidatedKNNClassifier(order=neighbour_order(X, X), k_grid=(1,), num_classes=2,
        ...                            val_rows=np.array([3]), val_labels=np.array([1]))
        >>> v.fit(np.arange(3), np.array([0, 1, 1])).predict(np.array([0, 3])).tolist()
        [0, 1]
        """
        self._check_predict_input(X)
        check_fitted(self, "knn_")
        return self.knn_.predict(X)

    def proba_by_k(self, q) -> np.ndarray:
        """Class probabilities at query rows ``q`` for every k of ``k_grid`` (clipped at 0, normalized).

        Parameters
        ----------
        q : ndarray (m,) of int
            Query rows of ``order``.

        Returns
        -------
        ndarray (g, m, K)
            One slice per k of ``k_grid``.

        Examples
        --------
        >>> import numpy as np
        >>> from simulations.learning import neighbour_order
        >>> X = np.arange(4.0).reshape(-1, 1)
        >>> v = ValidatedKNNClassifier(order=neighbour_order(X, X), k_grid=(1, 2), num_classes=2,
        ...                            val_rows=np.array([3]), val_labels=np.array([1]))
        >>> v.fit(np.arange(3), np.array([0, 1, 1])).proba_by_k(np.array([0]))[:, 0].tolist()
        [[1.0, 0.0], [0.5, 0.5]]
        """
        check_fitted(self, "knn_")
        means = np.maximum(self.knn_.mean_vectors_by_k(q, self.k_grid), 0.0)
        tot = means.sum(axis=2, keepdims=True)
        return np.where(tot > 0, means / np.where(tot > 0, tot, 1.0), 1.0 / self.num_classes)


class TemperatureTunedLPMST(LPMST):
    """:class:`~simulations.learning.LPMST` whose prior temperature is chosen per stage on validation data.

    At each stage t >= 2 the prior of M(t−1) is tempered with the t in ``temperatures`` that maximizes
    :func:`prior_fidelity` on the validation rows ``val_X`` with RR labels ``val_labels``; when M(t−1)
    is a :class:`ValidatedKNNClassifier`, its k as a prior is chosen jointly with t over its ``k_grid``
    (ties: the first pair, smaller k then smaller t). Stage 1 uses the uniform prior (plain RR), where
    neither has an effect. The choice is a function of the
    features and of labels privatized earlier, so 004 Observation 4's argument (each label privatized
    once, priors from earlier stages only) still gives ε-label DP.

    Parameters
    ----------
    learner : classifier with ``fit(X, y)`` and ``predict_proba(X)``
        As in :class:`~simulations.learning.LPMST`.
    num_classes : int >= 2
        K.
    epsilon : float > 0
        The label-DP budget (each label privatized once by RRWithPrior at this ε).
    num_stages : int >= 1, default 2
        T.
    stage_fractions : sequence of T positive floats summing to 1, optional
        Default: equal.
    filter_labels : bool, default False
        004 Appendix B's filtering of earlier stages' labels.
    temperatures : sequence of float > 0, default TEMPERATURE_GRID
        The candidate prior temperatures.
    val_X : array (v, ...)
        Validation features (whatever the learner's ``predict_proba`` takes).
    val_labels : ndarray (v,) of int
        RR-privatized validation labels at this ε.
    random_state : None, int or numpy.random.Generator, default None
        The PRIVACY stream, as in :class:`~simulations.learning.LPMST`.

    Attributes
    ----------
    temperatures_ : list of float, the temperature used at stages 2..T (empty for T = 1); set by ``fit``, as below
    prior_ks_ : list of int, the k of M(t−1) used for the prior at stages 2..T (-1: the model's own)
    plus those of :class:`~simulations.learning.LPMST`.

    References: 004 Algorithm 3, Observation 4, Appendix E; module docstring.

    Examples
    --------
    >>> import numpy as np
    >>> from simulations.learning import SoftKNNClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.repeat(np.arange(4.0), 25)[:, None] + rng.normal(scale=0.1, size=(100, 1))
    >>> y = np.repeat(np.arange(4), 25)
    >>> est = TemperatureTunedLPMST(learner=SoftKNNClassifier(n_neighbors=5, num_classes=4), num_classes=4,
    ...                             epsilon=2.0, num_stages=2, val_X=X[:20], val_labels=y[:20], random_state=rng).fit(X, y)
    >>> len(est.temperatures_), est.temperatures_[0] in TEMPERATURE_GRID
    (1, True)
    """

    # every argument spelled out (no **kwargs): scikit-learn's get_params reads them from this signature
    def __init__(self, *, learner, num_classes: int, epsilon: float, num_stages: int = 2, stage_fractions=None,
                 filter_labels: bool = False, temperatures=TEMPERATURE_GRID, val_X, val_labels, random_state=None):
        super().__init__(learner=learner, num_classes=num_classes, epsilon=epsilon, num_stages=num_stages,
                         stage_fractions=stage_fractions, filter_labels=filter_labels, random_state=random_state)
        self.temperatures = temperatures
        self.val_X = val_X
        self.val_labels = val_labels

    def fit(self, X, y, *, stages=None):
        """Run LP-MST (see :meth:`LPMST.fit <simulations.learning.LPMST.fit>`), choosing each stage's prior.

        Parameters
        ----------
        X : array (n, ...)
            Features (whatever the learner takes).
        y : ndarray (n,) of int
            True labels; each is privatized once.
        stages : ndarray (n,) of int, optional
            A given label-independent partition.

        Returns
        -------
        TemperatureTunedLPMST
            self, with ``temperatures_`` and ``prior_ks_`` set.

        Examples
        --------
        >>> import numpy as np
        >>> from simulations.learning import SoftKNNClassifier
        >>> X = np.arange(40.0)[:, None]
        >>> y = (X[:, 0] >= 20).astype(int)
        >>> est = TemperatureTunedLPMST(learner=SoftKNNClassifier(n_neighbors=3, num_classes=2), num_classes=2,
        ...                             epsilon=1.0, num_stages=3, val_X=X[::4], val_labels=y[::4])
        >>> len(est.set_params(random_state=1).fit(X, y).prior_ks_)
        2
        """
        X, y = self._check_input(X, y)
        self._chosen = {}
        super().fit(X, y, stages=stages)
        picks = [self._chosen[id(m)] for m in self.models_[:-1] if id(m) in self._chosen]
        self.temperatures_ = [t for t, _ in picks]
        self.prior_ks_ = [k for _, k in picks]
        del self._chosen
        return self

    def _proba_grid(self, model, X) -> tuple[np.ndarray, list]:
        """Probabilities (g, m, K) of ``model`` on X for each prior k it offers, and those ks ([-1]: its own)."""
        if hasattr(model, "proba_by_k"):
            return model.proba_by_k(X), [int(k) for k in model.k_grid]
        return self.model_proba(model, X)[None], [-1]

    def stage_priors(self, model, X) -> np.ndarray:
        """The prior of ``model`` at X, at the (temperature, prior k) chosen once per model on validation data.

        Parameters
        ----------
        model : fitted classifier (M(t−1))
        X : array (m, ...)

        Returns
        -------
        ndarray (m, K)

        Examples
        --------
        >>> import numpy as np
        >>> from simulations.learning import ConstantModel
        >>> est = TemperatureTunedLPMST(learner=ConstantModel([0.5, 0.5]), num_classes=2, epsilon=1.0,
        ...                             val_X=np.zeros((1, 1)), val_labels=np.zeros(1, dtype=int))
        >>> est.stage_priors(ConstantModel([0.5, 0.5]), np.zeros((2, 1))).tolist()
        [[0.5, 0.5], [0.5, 0.5]]
        """
        if isinstance(model, ConstantModel):
            return self.model_proba(model, X)
        key = id(model)
        if key not in self._chosen:
            grid, ks = self._proba_grid(model, self.val_X)
            best, pick = -np.inf, None
            for g, k in enumerate(ks):
                for t in self.temperatures:
                    score = prior_fidelity(tempered(grid[g], t), self.val_labels, epsilon=self.epsilon)
                    if score > best:
                        best, pick = score, (float(t), k)
            self._chosen[key] = pick
        t, k = self._chosen[key]
        if k == -1:
            return tempered(self.model_proba(model, X), t)
        grid, ks = self._proba_grid(model, X)
        return tempered(grid[ks.index(k)], t)
