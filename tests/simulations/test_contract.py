"""The contract every random object of the suite keeps, found by walking the packages.

Samplers (mechanisms and laws, ``sample``) and estimators (``fit(X, Y, rng)``):

* a bad ``rng`` (None, a string, a float, a negative int) is a ValueError naming it;
* an int seed draws the same stream as ``numpy.random.default_rng(seed)``;
* different seeds give different draws (a sampler that ignored its rng would pass the above);
* estimators: labels outside their label set are a ValueError; predicting before fit is a ValueError.

A new public class with a ``sample`` method in ``simulations.mechanisms`` / ``simulations.laws``, or
with ``fit`` in ``simulations.estimators``, fails the coverage tests until it gets an entry here.
"""

import importlib
import inspect
import pkgutil

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from simulations import estimators, laws, mechanisms
from simulations.estimators import cssl, pcde, pcl, pcl2
from simulations.estimators.pcde_classifier import PCDEClassifier
from simulations.laws import consistency, densities, smooth
from simulations.laws.mixtures import LocationMixture
from simulations.metric_spaces import SpherePacking, fibonacci_sphere

FIELD = laws.BumpField(d=2, g=2, beta=1.0, signs=np.ones(4))
PRIOR = [0.2, 0.3, 0.5]

SAMPLERS = {
    "RandomizedResponse": lambda rng: mechanisms.RandomizedResponse(num_classes=3, epsilon=1.0).sample(np.array([0, 2]), rng),
    "RRTopK": lambda rng: mechanisms.RRTopK(num_classes=3, epsilon=1.0, k=2).sample(np.array([0]), rng, prior=PRIOR),
    "RRWithPrior": lambda rng: mechanisms.RRWithPrior(num_classes=3, epsilon=1.0).sample(np.array([0]), rng, prior=PRIOR),
    "VectorMechanism": lambda rng: mechanisms.VectorMechanism(num_classes=3, epsilon=1.0).sample(np.array([1]), rng),
    "AsymmetricVectorMechanism": lambda rng: mechanisms.AsymmetricVectorMechanism(num_classes=3, epsilon=1.0).sample(
        np.array([1]), rng),
    "ALIBI": lambda rng: mechanisms.ALIBI(num_classes=3, epsilon=1.0).sample(np.array([1]), rng),
    "ExponentialMechanism": lambda rng: mechanisms.ExponentialMechanism(num_classes=3, epsilon=1.0).sample(
        np.array([[1, 2, 3]]), rng),
    "LaplaceLabels": lambda rng: mechanisms.LaplaceLabels(T=1.0, epsilon=1.0).sample(np.array([0.5]), rng),
    "ClippedLaplaceLabels": lambda rng: mechanisms.ClippedLaplaceLabels(T=1.0, epsilon=1.0).sample(np.array([3.0]), rng),
    "GeometricHistogram": lambda rng: mechanisms.GeometricHistogram(epsilon=1.0).sample(np.array([[1, 2]]), rng),
    "BoundaryClassification": lambda rng: laws.BoundaryClassification(d=2, kappa=1.0).sample(3, rng),
    "BumpClassification": lambda rng: laws.BumpClassification(field=FIELD).sample(3, rng),
    "BumpRegression": lambda rng: laws.BumpRegression(field=FIELD).sample(3, rng),
    "ThreePointRegression": lambda rng: laws.ThreePointRegression(field=FIELD, p=2.0, M_p=4.0, T=2.0).sample(3, rng),
    "AdditiveRegression": lambda rng: laws.AdditiveRegression(d=1, beta=0.5, noise=laws.UniformNoise(sigma=1.0)).sample(3, rng),
    "UniformNoise": lambda rng: laws.UniformNoise(sigma=1.0).sample(3, rng),
    "LomaxNoise": lambda rng: laws.LomaxNoise(shape=3.0).sample(3, rng),
    "CircleMixture": lambda rng: laws.CircleMixture(num_classes=4, sigma=0.1).sample(3, rng),
    "SmoothEta": lambda rng: consistency.SmoothEta(d=2).sample(3, rng),
    "StepEta": lambda rng: consistency.StepEta(d=2).sample(3, rng),
    "RoughEta": lambda rng: consistency.RoughEta(d=1, fine=8).sample(3, rng),
    "ConcentratedThreshold": lambda rng: consistency.ConcentratedThreshold(threshold=0.3, spread=0.1).sample(3, rng),
    "ProductDensity": lambda rng: densities.ProductDensity(d=2).sample(3, rng),
    "SineClassification": lambda rng: smooth.SineClassification(d=2).sample(3, rng),
    "SignLabelRegression": lambda rng: smooth.SignLabelRegression(laws.AdditiveRegression(
        d=1, beta=0.5, noise=laws.UniformNoise(sigma=0.0), amplitude=0.25)).sample(3, rng),
    "LocationMixture": lambda rng: LocationMixture(kind="cauchy", means=[[0.0], [1.5]], prior1=0.4).sample(3, rng),
    "MulticlassBumps": lambda rng: importlib.import_module("simulations.laws.multiclass").MulticlassBumps(
        d=1, g=2, beta=0.5, gamma=2.0, num_classes=3, classes=np.array([2, -1])).sample(3, rng),
}


def _public_classes(packages, method):
    """Concrete public classes with ``method`` defined in the modules of ``packages``."""
    found = set()
    for pkg in packages:
        for info in pkgutil.iter_modules(pkg.__path__):
            if info.name.startswith("_"):
                continue
            mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
            for name, obj in vars(mod).items():
                if (inspect.isclass(obj) and obj.__module__ == mod.__name__ and not name.startswith("_")
                        and callable(getattr(obj, method, None)) and not inspect.isabstract(obj)):
                    found.add(name)
    return found


def test_every_sampler_is_covered():
    missing = _public_classes((mechanisms, laws), "sample") - set(SAMPLERS)
    assert not missing, f"add these samplers to SAMPLERS in {__file__}: {sorted(missing)}"


@pytest.mark.parametrize("name", sorted(SAMPLERS))
@pytest.mark.parametrize("bad", [None, "seed", 1.5, -3])
def test_sampler_rejects_bad_rng(name, bad):
    with pytest.raises(ValueError, match="seed|rng"):
        SAMPLERS[name](bad)


def _parts(draw):
    return draw if isinstance(draw, tuple) else (draw,)


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_int_seed_is_the_same_stream_as_its_generator(name):
    for x, y in zip(_parts(SAMPLERS[name](7)), _parts(SAMPLERS[name](np.random.default_rng(7)))):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_different_seeds_differ(name):
    """A sampler that ignored its rng would pass the two tests above; 20 seeds must not all agree."""
    first = _parts(SAMPLERS[name](0))
    assert any(any(not np.array_equal(x, y) for x, y in zip(first, _parts(SAMPLERS[name](s)))) for s in range(1, 21))


# ---------------------------------------------------------------- estimators: random_state, fit(X, Y)

_X1 = np.linspace(0.01, 0.99, 40)[:, None]
_Y3 = np.arange(40) % 3
_YB = (np.arange(40) % 2).astype(np.int64)
_YR = np.sin(np.arange(40.0)) * 0.9
_S2 = fibonacci_sphere(40)

class _WithSample:
    """``fit(X, y)`` for the learners of 001 Section 4.1, whose fit also takes the public / unlabeled
    sample as a keyword (``fit(X, y, X_public=...)``)."""

    def __init__(self, est, **sample):
        self.est, self.sample = est, sample

    def set_params(self, **params):
        self.est.set_params(**params)
        return self

    def fit(self, X, y):
        self.est.fit(X, y, **self.sample)
        return self

    def predict(self, X):
        return self.est.predict(X)


# name -> (unfitted estimator factory, X, good labels, bad labels); regression rejects NaN labels
ESTIMATORS = {
    "BinMajorityClassifier": (lambda: estimators.BinMajorityClassifier(num_classes=3, h=0.25), _X1, _Y3, _Y3 + 1),
    "VectorBinClassifier": (lambda: estimators.VectorBinClassifier(num_classes=3, epsilon=1.0, h=0.25), _X1, _Y3, _Y3 + 1),
    "ExponentialBinClassifier": (lambda: estimators.ExponentialBinClassifier(num_classes=3, epsilon=1.0, h=0.25),
                                 _X1, _Y3, _Y3 - 1),
    "BinMeanRegressor": (lambda: estimators.BinMeanRegressor(h=0.25), _X1, _YR, np.r_[np.nan, _YR[1:]]),
    "LaplaceBinMeanRegressor": (lambda: estimators.LaplaceBinMeanRegressor(h=0.25, epsilon=1.0, T=1.0), _X1, _YR,
                                np.r_[np.nan, _YR[1:]]),
    "KNNRegressor": (lambda: estimators.KNNRegressor(k=5), _X1, _YR, np.r_[np.nan, _YR[1:]]),
    "LaplaceKNNRegressor": (lambda: estimators.LaplaceKNNRegressor(k=5, epsilon=1.0, T=1.0), _X1, _YR,
                            np.r_[np.nan, _YR[1:]]),
    "PCL": (lambda: pcl.PCL(epsilon=1.0), _X1, _YB, _YB + 1),
    "PCL2": (lambda: pcl2.PCL2(space=SpherePacking(0.8), epsilon=1.0), _S2, _YB, _YB + 1),
    "PCL2b": (lambda: pcl2.PCL2b(space=SpherePacking(0.8), epsilon=1.0), _S2, _YB, _YB + 1),
    "PCDEClassifier": (lambda: PCDEClassifier(epsilon=5.0, delta=0.5, side=0.5), _X1, _YB, _YB + 1),  # τ = 1.55
    "SemiPrivateLearner": (lambda: _WithSample(cssl.SemiPrivateLearner(epsilon=1.0), X_public=_X1[::4]), _X1, _YB,
                           _YB + 1),
    "PrivateCSSL": (lambda: _WithSample(cssl.PrivateCSSL(epsilon=1.0, delta=0.1), X_unlabeled=_X1), _X1, _YB, _YB + 1),
}


def _fit(name, rng, labels=None):
    make, X, Y, _ = ESTIMATORS[name]
    return make().set_params(random_state=rng).fit(X, Y if labels is None else labels)


def test_every_estimator_is_covered():
    missing = _public_classes((estimators,), "fit") - set(ESTIMATORS) - {"PCDE"}  # PCDE: fit(X), below
    assert not missing, f"add these estimators to ESTIMATORS in {__file__}: {sorted(missing)}"


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
@pytest.mark.parametrize("bad", ["seed", 1.5, -3, True, np.random.RandomState(0)])
def test_estimator_rejects_bad_random_state(name, bad):
    with pytest.raises(ValueError, match="random_state"):
        _fit(name, bad)


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_estimator_random_state_none_is_unseeded_but_fits(name):
    """None is scikit-learn's unseeded default: the fit runs (and predicts) without a seed."""
    X = ESTIMATORS[name][1]
    assert _fit(name, None).predict(X).shape == (X.shape[0],)


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_estimator_int_seed_is_its_generator_stream(name):
    X = ESTIMATORS[name][1]
    np.testing.assert_array_equal(_fit(name, 7).predict(X), _fit(name, np.random.default_rng(7)).predict(X))


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_estimator_rejects_labels_outside_its_label_set(name):
    with pytest.raises(ValueError):
        _fit(name, 0, labels=ESTIMATORS[name][3])


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_estimator_predict_before_fit_is_a_value_error(name):
    make, X, _, _ = ESTIMATORS[name]
    with pytest.raises(NotFittedError, match="fit"):  # scikit-learn's, a ValueError
        make().predict(X)


def test_pcde_contract():
    X = np.random.default_rng(0).normal(size=(50, 1))
    for bad in ("seed", 1.5, -3):
        with pytest.raises(ValueError, match="random_state"):
            pcde.PCDE(epsilon=1.0, random_state=bad).fit(X)
    a = pcde.PCDE(epsilon=1.0, random_state=7).fit(X).density(X)
    np.testing.assert_array_equal(a, pcde.PCDE(epsilon=1.0, random_state=np.random.default_rng(7)).fit(X).density(X))
    with pytest.raises(NotFittedError, match="fit"):
        pcde.PCDE(epsilon=1.0).density(X)
