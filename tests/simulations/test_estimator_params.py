"""scikit-learn's parameter protocol on every estimator (issue 21): get_params / set_params / clone.

Each case builds an estimator with non-default arguments, a small fit, one invalid value of one argument
and the message that must name it. For every class: ``clone`` gives an unfitted copy with equal
parameters, ``set_params`` round-trips, an invalid value is refused by ``fit`` with a ValueError naming the
argument before any work, and a fitted clone equals the fitted original attribute for attribute (so the
parameters carry everything a fit depends on).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import BaseEstimator, clone

from simulations.estimators import (BinMajorityClassifier, BinMeanRegressor, ExponentialBinClassifier, KNNRegressor,
                                    LaplaceBinMeanRegressor, LaplaceKNNRegressor, VectorBinClassifier)
from simulations.estimators.cssl import PrivateCSSL, SemiPrivateLearner
from simulations.estimators.pcde import PCDE
from simulations.estimators.pcde_classifier import PCDEClassifier
from simulations.estimators.pcl import PCL
from simulations.estimators.pcl2 import PCL2, PCL2b
from simulations.learning import ClusterPriors, IndexedKNNClassifier, LPMST, SoftKNNClassifier, neighbour_order
from simulations.learning.collaborative import TwoBranchCF
from simulations.learning.validation_tuning import TemperatureTunedLPMST, ValidatedKNNClassifier
from simulations.metric_spaces import LatticePacking

G = np.random.default_rng(20261127)
X2 = G.random((60, 2))
y3 = (X2[:, 0] * 3).astype(np.int64)  # labels 0..2 from the first feature
yb = (X2[:, 0] > 0.5).astype(np.int64)
yr = X2[:, 0] - X2[:, 1]  # real labels in [-1, 1]
x1 = G.random(40)
U = G.random(500)
ORDER = neighbour_order(X2, X2)
IDS = np.column_stack([G.integers(0, 5, 60), G.integers(0, 6, 60)])


# (estimator, fit(est) -> est, invalid argument, its invalid value)
CASES = {
    "BinMajorityClassifier": (BinMajorityClassifier(num_classes=3, h=0.25, random_state=7), lambda e: e.fit(X2, y3),
                              "num_classes", 1),
    "VectorBinClassifier": (VectorBinClassifier(num_classes=3, epsilon=2.0, h=0.25, random_state=7), lambda e: e.fit(X2, y3),
                            "epsilon", -1.0),
    "ExponentialBinClassifier": (ExponentialBinClassifier(num_classes=3, epsilon=2.0, h=0.25, random_state=7),
                                 lambda e: e.fit(X2, y3), "h", 0.0),
    "BinMeanRegressor": (BinMeanRegressor(h=0.25, random_state=7), lambda e: e.fit(X2, yr), "h", 2.0),
    "LaplaceBinMeanRegressor": (LaplaceBinMeanRegressor(h=0.25, epsilon=2.0, T=0.5, clip=True, random_state=7),
                                lambda e: e.fit(X2, yr), "T", -1.0),
    "KNNRegressor": (KNNRegressor(k=4, random_state=7), lambda e: e.fit(X2, yr), "k", 0),
    "LaplaceKNNRegressor": (LaplaceKNNRegressor(k=4, epsilon=2.0, T=0.5, clip=True, random_state=7), lambda e: e.fit(X2, yr),
                            "clip", "yes"),
    "PCL": (PCL(epsilon=2.0, side=0.25, lazy=False, random_state=7), lambda e: e.fit(X2, yb), "side", 0.0),
    "PCL2": (PCL2(space=LatticePacking(2, 0.3), epsilon=2.0, random_state=7), lambda e: e.fit(X2, yb), "epsilon", 0.0),
    "PCL2b": (PCL2b(space=LatticePacking(2, 0.3), epsilon=2.0, delta=1e-3, random_state=7), lambda e: e.fit(X2, yb),
              "delta", 2.0),
    "PCDE": (PCDE(epsilon=2.0, delta=1e-3, side=0.25, normalize=True, random_state=7), lambda e: e.fit(X2), "delta", 0.0),
    "PCDEClassifier": (PCDEClassifier(epsilon=2.0, delta=1e-3, side=0.25, random_state=7), lambda e: e.fit(X2, yb),
                       "side", -1.0),
    "SemiPrivateLearner": (SemiPrivateLearner(epsilon=2.0, hypothesis_class="intervals", random_state=7),
                           lambda e: e.fit(x1, (x1 > 0.3).astype(int), X_public=x1[:10]),
                           "hypothesis_class", "boxes"),
    "PrivateCSSL": (PrivateCSSL(epsilon=2.0, delta=1e-3, n_synthetic=20, random_state=7),
                    lambda e: e.fit(x1, (x1 > 0.3).astype(int), X_unlabeled=U),
                    "n_synthetic", -1),
    "ClusterPriors": (ClusterPriors(num_classes=3, epsilon_prior=2.0, random_state=7), lambda e: e.fit(IDS[:, 0], y3),
                      "epsilon_prior", 0.0),
    "TwoBranchCF": (TwoBranchCF(num_users=5, num_items=6, num_classes=3, embedding_dim=4, hidden=4, epochs=1,
                                random_state=3), lambda e: e.fit(IDS, y3), "hidden", 0),
    "LPMST": (LPMST(learner=SoftKNNClassifier(n_neighbors=3, num_classes=3), num_classes=3, epsilon=2.0,
                    temperature=0.5, random_state=7), lambda e: e.fit(X2, y3), "temperature", 0.0),
    "TemperatureTunedLPMST": (TemperatureTunedLPMST(learner=SoftKNNClassifier(n_neighbors=3, num_classes=3),
                                                    num_classes=3, epsilon=2.0, num_stages=3, val_X=X2[:10],
                                                    val_labels=y3[:10], random_state=7),
                              lambda e: e.fit(X2, y3), "num_stages", 0),
    "SoftKNNClassifier": (SoftKNNClassifier(n_neighbors=3, num_classes=3, random_state=7), lambda e: e.fit(X2, y3),
                          "n_neighbors", 0),
    "IndexedKNNClassifier": (IndexedKNNClassifier(order=ORDER, n_neighbors=3, num_classes=3, random_state=7),
                             lambda e: e.fit(np.arange(50), y3[:50]), "num_classes", 1),
    "ValidatedKNNClassifier": (ValidatedKNNClassifier(order=ORDER, k_grid=(1, 3), num_classes=3,
                                                      val_rows=np.arange(50, 60), val_labels=y3[50:], random_state=7),
                               lambda e: e.fit(np.arange(50), y3[:50]), "k_grid", ()),
}


def _same(a, b) -> bool:
    """Equal values: arrays elementwise, estimators by parameters, other objects by type and attributes."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.shape(a) == np.shape(b) and np.array_equal(a, b)
    if isinstance(a, BaseEstimator):
        return type(a) is type(b) and _same(a.get_params(deep=False), b.get_params(deep=False))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(u, v) for u, v in zip(a, b))
    if hasattr(a, "__dict__") and not callable(a):
        return type(a) is type(b) and _same(vars(a), vars(b))
    return a == b or (a != a and b != b)  # NaN equals NaN here


def _learned(est) -> dict:
    """The attributes ``fit`` set (names ending in ``_``, scikit-learn's convention)."""
    return {k: v for k, v in vars(est).items() if k.endswith("_") and not k.startswith("_")}


def test_every_estimator_class_is_covered():
    import inspect

    import simulations.estimators.cssl
    import simulations.estimators.partition
    import simulations.estimators.pcde
    import simulations.estimators.pcde_classifier
    import simulations.estimators.pcl
    import simulations.estimators.pcl2
    import simulations.learning.collaborative
    import simulations.learning.validation_tuning
    from simulations.estimators import knn
    from simulations.learning import cluster_priors, lp_mst, soft_knn

    mods = [knn, simulations.estimators.partition, simulations.estimators.cssl, simulations.estimators.pcde,
            simulations.estimators.pcde_classifier, simulations.estimators.pcl, simulations.estimators.pcl2,
            cluster_priors, lp_mst, soft_knn, simulations.learning.collaborative,
            simulations.learning.validation_tuning]
    fits = {name for m in mods for name, c in vars(m).items() if inspect.isclass(c) and c.__module__ == m.__name__
            and not name.startswith("_") and hasattr(c, "fit")}
    assert fits == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_clone_gives_an_unfitted_copy_with_equal_params(name):
    est, fit, _, _ = CASES[name]
    est = clone(est)
    params = est.get_params(deep=False)
    fitted = fit(est)
    copy = clone(fitted)
    assert copy is not fitted and type(copy) is type(fitted)
    assert _same(copy.get_params(deep=False), params)
    assert _learned(copy) == {}  # unfitted


@pytest.mark.parametrize("name", sorted(CASES))
def test_set_params_round_trips_and_rejects_unknown_names(name):
    est, _, bad_name, bad = CASES[name]
    est = clone(est)
    params = est.get_params(deep=False)
    assert est.set_params(**{bad_name: bad}) is est and _same(est.get_params(deep=False)[bad_name], bad)
    est.set_params(**{bad_name: params[bad_name]})
    assert _same(est.get_params(deep=False), params)
    with pytest.raises(ValueError, match="no_such_parameter"):
        est.set_params(no_such_parameter=1)


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_invalid_param_is_refused_naming_it(name):
    est, fit, bad_name, bad = CASES[name]
    est = clone(est).set_params(**{bad_name: bad})
    with pytest.raises(ValueError, match=bad_name):
        fit(est)
    assert _learned(est) == {}  # refused before any work


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_fitted_clone_equals_the_fitted_original(name):
    est, fit, _, _ = CASES[name]
    a, b = fit(clone(est)), fit(clone(clone(est)))
    la, lb = _learned(a), _learned(b)
    assert la.keys() == lb.keys() and la
    for key in la:
        if key in ("stage_seconds_", "models_", "model_", "density_", "learner_", "knn_", "index_"):
            continue  # timings; fitted sub-models and kd-trees (their predictions are compared below)
        assert _same(la[key], lb[key]), key
    if hasattr(a, "predict"):
        q = {"IndexedKNNClassifier": np.arange(50, 60), "ValidatedKNNClassifier": np.arange(50, 60),
             "ClusterPriors": IDS[:, 0], "TwoBranchCF": IDS}.get(name, x1[:, None] if "CSSL" in name or "Semi" in name
                                                                 else X2)
        np.testing.assert_array_equal(a.predict(q), b.predict(q))


def test_lpmst_clones_its_learner_and_shares_a_neighbour_order():
    """clone(LPMST) clones the learner (deep parameters); the pool-indexed learners share their large,
    read-only neighbour order instead of copying it at every stage."""
    knn = IndexedKNNClassifier(order=ORDER, n_neighbors=3, num_classes=3)
    est = LPMST(learner=knn, num_classes=3, epsilon=1.0)
    assert est.get_params()["learner__n_neighbors"] == 3
    copy = clone(est.set_params(learner__n_neighbors=5))
    assert copy.learner is not knn and copy.learner.n_neighbors == 5 and copy.learner.order is ORDER


def test_grid_search_tunes_an_estimator():
    """scikit-learn's GridSearchCV drives an estimator of the suite through get_params / set_params / clone:
    on a noiseless linear target the 1-NN regressor has the smallest cross-validated error of the grid."""
    from sklearn.model_selection import GridSearchCV

    y = X2[:, 0] + X2[:, 1]
    search = GridSearchCV(KNNRegressor(k=1), {"k": [1, 10, 40]}, cv=3, scoring="neg_mean_squared_error").fit(X2, y)
    assert search.best_params_ == {"k": 1}
