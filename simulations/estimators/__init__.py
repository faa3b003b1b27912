"""Estimators of 003 (upper-bound algorithms and their non-private baselines).

Every estimator runs its whole algorithm in ``fit(X, y)``: raw labels in, privatization drawn from the
``random_state`` parameter (the engine passes its per-trial PRIVACY Generator there), the mechanism
description kept in ``mechanism_``. Constructors are keyword-only and only store arguments; tuning
parameters (h, k, T) are explicit. scikit-learn's conventions (``n_features_in_``, ``NotFittedError``,
the declared input domains) come from :mod:`simulations.estimators._sklearn`; docs/sklearn_pipeline.md
shows an estimator in a ``Pipeline`` and what cross-validation costs in privacy.
:func:`make_estimator` builds the estimator of an algorithm of :data:`limits.ALGORITHMS` (its theorem,
task, privacy model and tuning rules live there) with the default tuning of :func:`limits.tuning`
(constants 1), any of h / k / T overridable. :data:`ESTIMATORS` adds only the class that runs it:

===================================  ======================================  =========================
algorithm (``limits.ALGORITHMS``)    estimator                               003
===================================  ======================================  =========================
``local_classification``             :class:`VectorBinClassifier`            Theorem 2, eqs. (11)-(13)
``central_classification``           :class:`ExponentialBinClassifier`       Theorem 4, eq. (17)
``local_regression``                 :class:`LaplaceKNNRegressor`            Theorem 6, eq. (20)
``central_regression``               :class:`LaplaceBinMeanRegressor`        Theorem 8, eq. (23)
``local_regression_heavy_tailed``    ``LaplaceKNNRegressor(clip=True)``      Theorem 10
``central_regression_heavy_tailed``  ``LaplaceBinMeanRegressor(clip=True)``  Theorem 12, eq. (28)
``nonprivate_classification``        :class:`BinMajorityClassifier`          baseline
``nonprivate_regression``            :class:`BinMeanRegressor`               baseline
``nonprivate_regression_knn``        :class:`KNNRegressor`                   baseline
===================================  ======================================  =========================
"""

from __future__ import annotations

import inspect

from limits import ALGORITHMS, tuning
from limits.validation import check_choice
from simulations.estimators.knn import KNNRegressor, LaplaceKNNRegressor
from simulations.estimators.partition import (
    BinMajorityClassifier,
    BinMeanRegressor,
    ExponentialBinClassifier,
    LaplaceBinMeanRegressor,
    VectorBinClassifier,
    argmax_random_ties,
    bins_for_width,
)

__all__ = [
    "ESTIMATORS",
    "BinMajorityClassifier",
    "BinMeanRegressor",
    "ExponentialBinClassifier",
    "KNNRegressor",
    "LaplaceBinMeanRegressor",
    "LaplaceKNNRegressor",
    "VectorBinClassifier",
    "argmax_random_ties",
    "bins_for_width",
    "make_estimator",
]

#: algorithm of :data:`limits.ALGORITHMS` -> (estimator class, fixed constructor arguments)
ESTIMATORS = {
    "local_classification": (VectorBinClassifier, {}),
    "central_classification": (ExponentialBinClassifier, {}),
    "local_regression": (LaplaceKNNRegressor, {"clip": False}),
    "central_regression": (LaplaceBinMeanRegressor, {"clip": False}),
    "local_regression_heavy_tailed": (LaplaceKNNRegressor, {"clip": True}),
    "central_regression_heavy_tailed": (LaplaceBinMeanRegressor, {"clip": True}),
    "nonprivate_classification": (BinMajorityClassifier, {}),
    "nonprivate_regression": (BinMeanRegressor, {}),
    "nonprivate_regression_knn": (KNNRegressor, {}),
}


def make_estimator(algorithm, *, N, beta, d, epsilon=None, num_classes=2, p=None, T=None, h=None, k=None,
                   variant="derived", log_factors=True, workers=1):
    """The estimator of ``algorithm`` with the default tuning for sample size ``N``.

    Parameters
    ----------
    algorithm : a key of :data:`ESTIMATORS` (= :data:`limits.ALGORITHMS`).
    N : sample size the tuning is computed for.
    beta, d, num_classes, p : as in :func:`limits.tuning` (p for the heavy-tailed algorithms).
    epsilon : privacy parameter (required for the private algorithms, ignored by the baselines).
    T : label bound (required for private bounded regression, ``local_regression`` /
        ``central_regression``: 003 Assumption 2's T) or clipping level override (heavy-tailed
        algorithms; default from the tuning rule).
    h, k : overrides of the bin width / number of neighbours.
    variant, log_factors : passed to :func:`limits.tuning`.
    workers : kd-tree query threads for the kNN estimators.

    Returns
    -------
    estimator
        An unfitted estimator of :data:`ESTIMATORS`; its tuning is readable from its parameters
        (``h``, ``k``, ``T``; ``get_params()``).

    Raises
    ------
    ValueError
        If ``algorithm`` is unknown, a tuning argument is out of range (see :func:`limits.tuning`), or
        ``T`` is missing for private bounded regression.

    References
    ----------
    003 Theorems 2, 4, 6, 8, 10, 12 (the algorithms and their tunings); Table 1.

    Examples
    --------
    The non-private bin width is :math:`h = N^{-1/(2\\beta + d)}`: at N = 10^6, β = 1, d = 1 it is 0.01.

    >>> est = make_estimator("nonprivate_regression", N=10**6, beta=1, d=1)
    >>> type(est).__name__, round(est.h, 12)
    ('BinMeanRegressor', 0.01)
    """
    check_choice("algorithm", algorithm, tuple(ESTIMATORS))
    alg = ALGORITHMS[algorithm]
    cls, fixed = ESTIMATORS[algorithm]
    # h / k overrides go into the rule so that a T derived from them (Theorems 10, 12) follows them
    tuned = tuning(algorithm, N=N, epsilon=epsilon if alg.private else None, beta=beta, d=d,
                   num_classes=num_classes, p=p, variant=variant, log_factors=log_factors, h=h, k=k)
    if alg.needs_label_bound and T is None:
        raise ValueError(f"T (the label bound of 003 Assumption 2) is required for {algorithm!r}, got T=None")
    params = dict(fixed, **tuned)
    params.update({name: v for name, v in (("h", h), ("k", k), ("T", T)) if v is not None})
    if alg.task == "classification":
        params["num_classes"] = num_classes
    if alg.private:
        params["epsilon"] = epsilon
    if alg.neighbourhood == "knn":
        params["workers"] = workers
    unknown = set(params) - _keyword_only(cls)
    if unknown:
        raise ValueError(f"{algorithm!r} does not take {sorted(unknown)}")
    return cls(**params)


def _keyword_only(cls):
    return {n for n, prm in inspect.signature(cls.__init__).parameters.items() if prm.kind is prm.KEYWORD_ONLY}
