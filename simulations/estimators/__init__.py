"""Estimators of 003 (upper-bound algorithms and their non-private baselines).

Every estimator runs its whole algorithm in ``fit(X, Y, rng)``: raw labels in, privatization drawn
from ``rng`` (the PRIVACY stream), the mechanism description kept in ``mechanism_``. Constructors are
keyword-only and only store arguments; tuning parameters (h, k, T) are explicit.
:func:`make_estimator` builds one with the default tuning of :func:`limits.tuning.tuning`
(constants 1), any of h / k / T overridable.

=====================================  =============================  ===========================
algorithm (``limits.tuning`` name)     estimator                      003
=====================================  =============================  ===========================
``local_classification``               :class:`VectorBinClassifier`   Theorem 2, eqs. (11)-(13)
``central_classification``             :class:`ExponentialBinClassifier`  Theorem 4, eq. (17)
``local_regression``                   :class:`LaplaceKNNRegressor`   Theorem 6, eq. (20)
``central_regression``                 :class:`LaplaceBinMeanRegressor`  Theorem 8, eq. (23)
``local_regression_heavy_tailed``      ``LaplaceKNNRegressor(clip=True)``  Theorem 10
``central_regression_heavy_tailed``    ``LaplaceBinMeanRegressor(clip=True)``  Theorem 12, eq. (28)
``nonprivate_classification``          :class:`BinMajorityClassifier`  baseline
``nonprivate_regression``              :class:`BinMeanRegressor`      baseline
``nonprivate_regression_knn``          :class:`KNNRegressor`          baseline
=====================================  =============================  ===========================
"""

from __future__ import annotations

from limits.validation import check_choice, check_positive
from limits import symbolic_tuning, tuning
from limits import symbols as _S
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

#: algorithm -> (estimator class, fixed constructor arguments)
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


def _nonprivate_tuning(algorithm, N, beta, d, K):
    """Non-private rules: the ε-free branch of the matching private rule (constants 1)."""
    if algorithm == "nonprivate_classification":  # Theorem 2's rule at ε >= 1 is the non-private one
        return {"h": tuning("local_classification", N=N, eps=1.0, beta=beta, d=d, K=K)["h"]}
    if algorithm == "nonprivate_regression_knn":  # Theorem 6's rule at ε >= 1
        return {"k": tuning("local_regression", N=N, eps=1.0, beta=beta, d=d)["k"]}
    expr = symbolic_tuning("central_regression")["h"].branches["nonprivate"]  # h ~ N^(-1/(2β+d))
    return {"h": min(1.0, float(expr.subs({_S.N: N, _S.beta: beta, _S.d: d})))}


def make_estimator(algorithm, *, N, beta, d, eps=None, K=2, p=None, T=None, h=None, k=None,
                   variant="derived", log_factors=True, workers=1):
    """The estimator of ``algorithm`` with the default tuning for sample size ``N``.

    Parameters
    ----------
    algorithm : a key of :data:`ESTIMATORS`.
    N : sample size the tuning is computed for.
    beta, d, K, p : as in :func:`limits.tuning.tuning` (p for the heavy-tailed algorithms).
    eps : privacy parameter (required for the private algorithms, ignored otherwise).
    T : label bound (required for ``local_regression`` / ``central_regression``: Assumption 2's T) or
        clipping level override (heavy-tailed algorithms; default from the tuning rule).
    h, k : overrides of the bin width / number of neighbours.
    variant, log_factors : passed to :func:`limits.tuning.tuning`.
    workers : kd-tree query threads for the kNN estimators.

    Returns
    -------
    an unfitted estimator; its tuning is readable from its attributes (``h``, ``k``, ``T``).
    """
    check_choice("algorithm", algorithm, tuple(ESTIMATORS))
    cls, fixed = ESTIMATORS[algorithm]
    private = not algorithm.startswith("nonprivate")
    if private:
        if eps is None:
            raise ValueError(f"eps is required for the private algorithm {algorithm!r}, got eps=None")
        check_positive("eps", eps)
        # h / k overrides go into the rule so that a T derived from them (Theorems 10, 12) follows them
        tuned = tuning(algorithm, N=N, eps=eps, beta=beta, d=d, K=K, p=p, variant=variant, log_factors=log_factors,
                       h=h, k=k)
    else:
        tuned = _nonprivate_tuning(algorithm, N, beta, d, K)
    if algorithm in ("local_regression", "central_regression") and T is None:
        raise ValueError(f"T (the label bound of 003 Assumption 2) is required for {algorithm!r}, got T=None")
    params = dict(fixed)
    for name, override in (("h", h), ("k", k), ("T", T)):
        value = override if override is not None else tuned.get(name)
        if value is not None and (name in tuned or override is not None):
            params[name] = value
    if "classification" in algorithm:
        params["num_classes"] = K
    if private:
        params["epsilon"] = eps
    if cls in (KNNRegressor, LaplaceKNNRegressor):
        params["workers"] = workers
    unknown = set(params) - _accepted(cls)
    if unknown:
        raise ValueError(f"{algorithm!r} does not take {sorted(unknown)}")
    return cls(**params)


def _accepted(cls):
    import inspect

    return {n for n, prm in inspect.signature(cls.__init__).parameters.items() if prm.kind is prm.KEYWORD_ONLY}
