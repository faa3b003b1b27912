"""scikit-learn's own estimator checks over every estimator of the suite (issue 37).

``sklearn.utils.estimator_checks.parametrize_with_checks`` runs scikit-learn's API checks (cloning, fit returning
self, ``n_features_in_``, NotFittedError, NaN / inf / sparse / complex refusals, pickling, idempotent fits at a
fixed ``random_state``, ...) on each estimator, built with small valid parameters. A check that cannot pass by
design is listed in :data:`EXPECTED_FAILED` with its reason (scikit-learn then reports it as an expected failure,
xfail); every other check must pass. The reasons are the declared input domains (``__sklearn_tags__``:
``input_tags.unit_cube``, ``input_tags.indices``, ``target_tags.labels``): the checks draw X from a Gaussian and
labels such as {1, 2} or strings, which these estimators refuse by design, and a few properties of the algorithms
(a fixed label set 0..K-1, random classes in empty cells, a private release at n = 10).

:func:`test_every_estimator_is_checked` scans the source of ``simulations`` and ``proofs_checks`` for classes
that have ``fit`` (their own or inherited) so a new estimator cannot be left out. Needs scikit-learn >= 1.6
(``expected_failed_checks``).
"""

from __future__ import annotations

import ast
import functools
import importlib.util
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import ClassifierMixin, DensityMixin, RegressorMixin
from sklearn.utils.estimator_checks import parametrize_with_checks

from proofs_checks.cssl_check import SemiPrivateLearnerDoubledScore
from proofs_checks.remark18_check import PCDEClassifierHalfScale, PCDEClassifierThresholdNoScale
from simulations.estimators import (BinMajorityClassifier, BinMeanRegressor, ExponentialBinClassifier, KNNRegressor,
                                    LaplaceBinMeanRegressor, LaplaceKNNRegressor, VectorBinClassifier)
from simulations.estimators._sklearn import LabelDPEstimatorMixin
from simulations.estimators.cssl import PrivateCSSL, SemiPrivateLearner
from simulations.estimators.pcde import PCDE
from simulations.estimators.pcde_classifier import PCDEClassifier
from simulations.estimators.pcl import PCL
from simulations.estimators.pcl2 import PCL2, PCL2b
from simulations.learning import ClusterPriors, IndexedKNNClassifier, LPMST, SoftKNNClassifier, neighbour_order
from simulations.learning.collaborative import TwoBranchCF
from simulations.learning.validation_tuning import TemperatureTunedLPMST, ValidatedKNNClassifier
from simulations.metric_spaces import LatticePacking
from tests.simulations.test_estimator_params import _same

ROOT = Path(__file__).resolve().parents[2]
HAS_TORCH = importlib.util.find_spec("torch") is not None

# ------------------------------------------------------------------------------ reasons
CUBE = "X must lie in [0, 1]^d (declared: input_tags.unit_cube); the check's X leaves the unit cube"
SPACE = "X must be points of the packing's space (R^2 for LatticePacking(2, r)); the check's X has other d"
R = "X must be points of R, shape (n,) or (n, 1) (001 Section 4.1); the check's X has several features"
R1D = "X of shape (n,) is this learner's documented input (points of R), so a 1-D X is accepted"
IDX = ("X holds indices (declared: input_tags.indices): pool rows, cluster ids or (user id, item id) pairs, "
       "not the check's float features")
IMG = "X must be uint8 images of shape (n, H, W) or (n, H, W, C); the check's X is a 2-D table of floats"
VAL = ("val_X (a constructor argument: the validation features) has 2 features; the check fits on another "
       "number of features, so the stage priors cannot be scored on val_X")
CLASSES = ("y must lie in 0..K-1, K = num_classes fixed at construction (declared: target_tags.labels='classes', "
           "the public label set of label DP); the check uses other labels (strings, or K itself)")
BINARY = "y must lie in {0, 1} (declared: target_tags.labels='binary'); the check uses {1, 2} or strings"
EMPTY = ("an empty sample is a valid input: every cell is empty and releases its default value "
         "(003 eqs. (13), (23)), so fit does not raise")
TIES = ("cells without points get a uniformly random class (ties at random, 003 eq. (13)): a one-class sample is "
        "not predicted everywhere")
ONE = ("a private release at the check's size (n = 10) is mostly noise or releases no cell (001 Algorithm 1's "
       "threshold): the one label seen is not predicted everywhere")
PROBA = ("predict_proba has num_classes columns (the fixed label set 0..K-1), not one per class present in y")
SCORE = "DensityMixin.score is scikit-learn's placeholder (returns None): PCDE defines no score to check"

# ------------------------------------------------------------------------------ estimators
_G = np.random.default_rng(0)
_ORDER = neighbour_order(_G.random((40, 2)), _G.random((40, 2)))


def _estimators() -> list:
    """Every estimator of the suite, with small valid parameters (each check fits a few dozen points) and
    ``random_state=0``, so that every check is deterministic (a check that does not set the random state
    itself would otherwise draw unseeded noise)."""
    soft = SoftKNNClassifier(n_neighbors=3, num_classes=3, random_state=0)
    ests = [
        BinMajorityClassifier(num_classes=3, h=0.25, random_state=0),
        VectorBinClassifier(num_classes=3, epsilon=2.0, h=0.25, random_state=0),
        ExponentialBinClassifier(num_classes=3, epsilon=2.0, h=0.25, random_state=0),
        BinMeanRegressor(h=0.25, random_state=0),
        LaplaceBinMeanRegressor(h=0.25, epsilon=2.0, T=1.0, clip=True, random_state=0),
        KNNRegressor(k=3, random_state=0),
        LaplaceKNNRegressor(k=3, epsilon=2.0, T=1.0, clip=True, random_state=0),
        PCL(epsilon=2.0, random_state=0),
        PCL2(space=LatticePacking(2, 0.3), epsilon=2.0, random_state=0),
        PCL2b(space=LatticePacking(2, 0.3), epsilon=2.0, delta=1e-3, random_state=0),
        PCDE(epsilon=2.0, delta=1e-3, random_state=0),
        PCDEClassifier(epsilon=2.0, delta=1e-3, random_state=0),
        PCDEClassifierHalfScale(epsilon=2.0, delta=1e-3, random_state=0),
        PCDEClassifierThresholdNoScale(epsilon=2.0, delta=1e-3, random_state=0),
        SemiPrivateLearner(epsilon=2.0, random_state=0),
        SemiPrivateLearnerDoubledScore(epsilon=2.0, random_state=0),
        PrivateCSSL(epsilon=2.0, delta=1e-3, n_synthetic=20, random_state=0),
        ClusterPriors(num_classes=3, epsilon_prior=2.0, random_state=0),
        TwoBranchCF(num_users=5, num_items=6, num_classes=3, embedding_dim=4, hidden=4, epochs=1, random_state=0),
        LPMST(learner=soft, num_classes=3, epsilon=2.0, random_state=0),
        TemperatureTunedLPMST(learner=soft, num_classes=3, epsilon=2.0, val_X=_G.random((5, 2)),
                              val_labels=np.zeros(5, dtype=np.int64), random_state=0),
        soft,
        IndexedKNNClassifier(order=_ORDER, n_neighbors=3, num_classes=3, random_state=0),
        ValidatedKNNClassifier(order=_ORDER, k_grid=(1, 3), num_classes=3, val_rows=np.arange(5),
                               val_labels=np.zeros(5, dtype=np.int64), random_state=0),
    ]
    if HAS_TORCH:
        from simulations.torch_path.methods import StageMixupLPMST, TorchClassifier
        from simulations.torch_path.training import TrainConfig

        torch_clf = TorchClassifier(config=TrainConfig(epochs=1, device="cpu"), num_classes=3, random_state=0,
                                    scale=255.0)
        ests += [torch_clf, StageMixupLPMST(stage_mixup=(0.0, 0.0), learner=torch_clf, num_classes=3, epsilon=2.0,
                                               random_state=0)]
    return ests


ESTIMATORS = _estimators()

def _on(reason, checks):
    return dict.fromkeys(checks, reason)


#: checks that fit on scikit-learn's generated X (a Gaussian table of a few float features): an estimator with a
#: restricted input domain refuses that X at fit
FIT_ON_X = ("check_dict_unchanged", "check_dont_overwrite_parameters", "check_estimators_dtypes",
            "check_estimators_fit_returns_self", "check_estimators_overwrite_params", "check_estimators_pickle",
            "check_f_contiguous_array_estimator", "check_fit2d_1feature", "check_fit2d_1sample",
            "check_fit2d_predict1d", "check_fit_check_is_fitted", "check_fit_idempotent",
            "check_methods_sample_order_invariance", "check_methods_subset_invariance", "check_n_features_in",
            "check_n_features_in_after_fitting", "check_pipeline_consistency", "check_positive_only_tag_during_fit",
            "check_readonly_memmap_input")
#: the same for the classifier / regressor checks, and for checks the unit cube's positive_only tag lets pass
CLASSIFIER_ON_X = ("check_classifier_data_not_an_array", "check_classifiers_classes", "check_classifiers_train")
REGRESSOR_ON_X = ("check_regressor_data_not_an_array", "check_regressors_int", "check_regressors_no_decision_function",
                  "check_regressors_train")
MORE_ON_X = ("check_dtype_object", "check_estimators_nan_inf", "check_fit_score_takes_y", "check_supervised_y_2d")
#: the checks a fixed feature count (2 for the lattice packing of R^2, the validation features) still fails
FIXED_D = ("check_dict_unchanged", "check_dont_overwrite_parameters", "check_estimators_dtypes",
           "check_estimators_nan_inf", "check_estimators_pickle", "check_f_contiguous_array_estimator",
           "check_fit2d_1feature",
           "check_fit2d_predict1d", "check_fit_score_takes_y", "check_methods_sample_order_invariance",
           "check_methods_subset_invariance", "check_n_features_in_after_fitting", "check_pipeline_consistency",
           "check_positive_only_tag_during_fit", "check_supervised_y_2d")
_PARTITION_CLASSIFIER = {**_on(CUBE, FIT_ON_X + CLASSIFIER_ON_X), "check_dtype_object": CLASSES,
                         "check_estimators_empty_data_messages": EMPTY, "check_classifiers_one_label": ONE}
_PARTITION_REGRESSOR = {**_on(CUBE, FIT_ON_X + REGRESSOR_ON_X), "check_estimators_empty_data_messages": EMPTY}
_PCL2 = {**_on(SPACE, FIXED_D + ("check_dtype_object", "check_fit2d_1sample")),
         **_on(BINARY, ("check_classifier_data_not_an_array", "check_classifiers_classes")),
         "check_classifiers_one_label": ONE}
_PCDE_CLASSIFIER = {**_on(BINARY, ("check_estimators_dtypes", "check_fit2d_1feature",
                                   "check_classifier_data_not_an_array", "check_classifiers_classes")),
                    "check_classifiers_one_label": ONE}
_POINTS_OF_R = {**_on(R, FIT_ON_X + CLASSIFIER_ON_X + MORE_ON_X), "check_fit2d_1feature": BINARY,
                "check_classifiers_one_label": ONE, "check_fit1d": R1D}
_INDICES = {**_on(IDX, FIT_ON_X + CLASSIFIER_ON_X + MORE_ON_X), "check_classifiers_one_label": ONE}
_IMAGES = {**_on(IMG, FIT_ON_X + CLASSIFIER_ON_X + MORE_ON_X), "check_classifiers_classes": CLASSES,
           "check_classifiers_one_label": ONE}
_FIXED_K = {"check_dtype_object": CLASSES, "check_classifiers_classes": CLASSES, "check_classifiers_train": PROBA}

#: estimator class -> {check name: reason}: the checks that cannot pass by design
EXPECTED_FAILED = {
    "BinMajorityClassifier": {**_PARTITION_CLASSIFIER, "check_classifiers_one_label": TIES},
    "VectorBinClassifier": _PARTITION_CLASSIFIER,
    "ExponentialBinClassifier": _PARTITION_CLASSIFIER,
    "BinMeanRegressor": _PARTITION_REGRESSOR,
    "LaplaceBinMeanRegressor": _PARTITION_REGRESSOR,
    "PCL": _on(CUBE, FIT_ON_X + CLASSIFIER_ON_X),
    "PCL2": _PCL2,
    "PCL2b": _PCL2,
    "PCDE": _on(SCORE, ("check_n_features_in_after_fitting", "check_pipeline_consistency")),
    "PCDEClassifier": _PCDE_CLASSIFIER,
    "PCDEClassifierHalfScale": _PCDE_CLASSIFIER,
    "PCDEClassifierThresholdNoScale": _PCDE_CLASSIFIER,
    "SemiPrivateLearner": _POINTS_OF_R,
    "SemiPrivateLearnerDoubledScore": _POINTS_OF_R,
    "PrivateCSSL": _POINTS_OF_R,
    "ClusterPriors": {**_INDICES, "check_dtype_object": CLASSES, "check_classifiers_classes": CLASSES},
    "TwoBranchCF": {k: v for k, v in _INDICES.items() if k != "check_classifier_data_not_an_array"},
    "IndexedKNNClassifier": _INDICES,
    "ValidatedKNNClassifier": _INDICES,
    "LPMST": {**_FIXED_K, "check_classifiers_one_label": ONE},
    "TemperatureTunedLPMST": {**_on(VAL, FIXED_D), **_FIXED_K, "check_classifiers_one_label": ONE},
    "SoftKNNClassifier": _FIXED_K,
    "TorchClassifier": _IMAGES,
    "StageMixupLPMST": {**{k: v for k, v in _IMAGES.items() if k != "check_fit2d_1sample"},
                        "check_dtype_object": CLASSES},
}


def _expected_failed(estimator) -> dict:
    return EXPECTED_FAILED.get(type(estimator).__name__, {})


def _check_name(check) -> str:
    return check.func.__name__ if isinstance(check, functools.partial) else check.__name__


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failed, xfail_strict=True)
def test_sklearn_estimator_checks(estimator, check):
    """Every check passes, but those of :data:`EXPECTED_FAILED`, which must fail (strict xfail: a listed check
    that passes fails the test, so the list cannot go stale)."""
    if _check_name(check) not in _expected_failed(estimator):
        check(estimator)
        return
    try:
        check(estimator)
    except Exception as exc:
        # an expected failure: its reason is in EXPECTED_FAILED; pytest would format the full traceback through
        # scikit-learn's 5000-line estimator_checks.py for the report (half a second each), so it is cut here
        raise exc.with_traceback(None) from None


def _classes_with_fit(root: Path, packages) -> set[str]:
    """Public classes of the packages' source that define ``fit`` or inherit it from one that does."""
    defs = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
                    has_fit = any(isinstance(f, ast.FunctionDef) and f.name == "fit" for f in node.body)
                    defs[node.name] = (bases, has_fit)
    found = {name for name, (_, has_fit) in defs.items() if has_fit}
    while True:
        more = {name for name, (bases, _) in defs.items() if bases & found} - found
        if not more:
            return {name for name in found if not name.startswith("_")}
        found |= more


def test_every_estimator_is_checked():
    names = _classes_with_fit(ROOT, ("simulations", "proofs_checks"))
    checked = {type(e).__name__ for e in ESTIMATORS}
    torch_only = {"TorchClassifier", "StageMixupLPMST"}
    assert names - checked <= (set() if HAS_TORCH else torch_only), sorted(names - checked)
    assert set(EXPECTED_FAILED) <= checked | torch_only


def test_a_listed_reason_is_a_real_failure():
    """A listed check must fail for its stated reason: one of them, run directly, raises the domain error."""
    from sklearn.utils.estimator_checks import check_fit_idempotent

    with pytest.raises(ValueError, match=r"\[0, 1\]\^d"):
        check_fit_idempotent("PCL", PCL(epsilon=2.0))


# ------------------------------------------------------------------------------ clone and Pipeline
def _domain_data(est):
    """(X_fit, y_fit, X_query) inside ``est``'s declared input domain, 60 points (indices: 30 of the pool of 40)."""
    g = np.random.default_rng(1)
    name = type(est).__name__
    tags = est.__sklearn_tags__()
    labels = tags.target_tags.labels
    if name in ("IndexedKNNClassifier", "ValidatedKNNClassifier"):
        X, Xq = np.arange(5, 35), np.arange(35, 40)
    elif name == "ClusterPriors":
        X = Xq = g.integers(0, 4, 60)
    elif name == "TwoBranchCF":
        X = Xq = np.column_stack([g.integers(0, 5, 60), g.integers(0, 6, 60)])
    elif name in ("TorchClassifier", "StageMixupLPMST"):
        X = Xq = g.integers(0, 256, size=(60, 8, 8), dtype=np.uint8)
    elif getattr(est, "_points_of_r", False):
        X = Xq = g.random((60, 1))
    else:
        X = Xq = g.random((60, 2))
    n = len(X)
    y = {"binary": g.integers(0, 2, n), "classes": g.integers(0, 3, n), "bounded": g.uniform(-1, 1, n),
         "real": g.normal(size=n), "none": None}[labels]
    return X, y, Xq


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_clone_and_pipeline_work_with_every_estimator(estimator):
    """``clone`` gives an unfitted copy with the same parameters; a Pipeline (an identity step, then the
    estimator) fits and predicts as the estimator alone does, draw for draw (same random_state)."""
    from sklearn.base import clone
    from sklearn.exceptions import NotFittedError
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import FunctionTransformer

    copy = clone(estimator)
    assert type(copy) is type(estimator) and copy is not estimator
    assert _same(copy.get_params(deep=False), estimator.get_params(deep=False))  # equal values, copied
    X, y, Xq = _domain_data(copy)
    pipe = Pipeline([("identity", FunctionTransformer()), ("est", clone(estimator))])
    alone = clone(estimator).fit(X, y)
    assert pipe.fit(X, y) is pipe and pipe[-1].n_features_in_ == alone.n_features_in_
    if hasattr(alone, "predict"):
        np.testing.assert_array_equal(pipe.predict(Xq), alone.predict(Xq))
        with pytest.raises(NotFittedError):
            clone(pipe).predict(Xq)
    else:  # the density estimator: its density at the queries
        np.testing.assert_array_equal(pipe[-1].density(Xq), alone.density(Xq))


def test_the_declared_domains():
    """``__sklearn_tags__`` states each estimator's input domain, as its docstring does (003 / 001 / 004)."""
    from sklearn.utils import get_tags

    by_name = {type(e).__name__: get_tags(e) for e in ESTIMATORS}
    for est in ESTIMATORS:  # the mixin adjusts scikit-learn's tags: it must come before its mixins in the MRO
        mro = type(est).__mro__
        first = mro.index(LabelDPEstimatorMixin)
        assert all(first < mro.index(m) for m in (ClassifierMixin, RegressorMixin, DensityMixin) if m in mro), mro
    cube = {"BinMajorityClassifier", "VectorBinClassifier", "ExponentialBinClassifier", "BinMeanRegressor",
            "LaplaceBinMeanRegressor", "PCL"}
    indices = {"ClusterPriors", "TwoBranchCF", "IndexedKNNClassifier", "ValidatedKNNClassifier"}
    for name, tags in by_name.items():
        assert tags.input_tags.unit_cube == (name in cube), name
        assert tags.input_tags.positive_only == (name in cube), name  # [0, 1]^d is non-negative
        assert tags.input_tags.indices == (name in indices), name
    labels = {name: tags.target_tags.labels for name, tags in by_name.items()}
    assert labels["PCDE"] == "none" and not by_name["PCDE"].target_tags.required
    assert {labels[n] for n in ("PCL", "PCL2", "PCL2b", "PCDEClassifier", "SemiPrivateLearner", "PrivateCSSL")} == {
        "binary"}
    assert not by_name["PCL"].classifier_tags.multi_class and by_name["VectorBinClassifier"].classifier_tags.multi_class
    assert {labels[n] for n in ("KNNRegressor", "BinMeanRegressor")} == {"real"}
    assert {labels[n] for n in ("LaplaceKNNRegressor", "LaplaceBinMeanRegressor")} == {"bounded"}
    assert labels["LPMST"] == labels["BinMajorityClassifier"] == "classes"
    # private estimators declare poor_score (noise at the checks' sizes), the non-private ones do not
    assert by_name["VectorBinClassifier"].classifier_tags.poor_score
    assert not by_name["BinMajorityClassifier"].classifier_tags.poor_score
    assert by_name["LaplaceKNNRegressor"].regressor_tags.poor_score
    assert not by_name["KNNRegressor"].regressor_tags.poor_score
    # LP-MST takes whatever its learner takes: pool indices for the indexed k-NN
    indexed = LPMST(learner=IndexedKNNClassifier(order=_ORDER, num_classes=3), num_classes=3, epsilon=1.0)
    assert get_tags(indexed).input_tags.indices and not by_name["LPMST"].input_tags.indices
