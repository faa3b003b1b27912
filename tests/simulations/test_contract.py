"""The contract every sampler of the suite keeps: mechanisms and laws, found by walking the packages.

* a bad ``rng`` (None, a string, a float, a negative int) is a ValueError naming it;
* an int seed draws the same stream as ``numpy.random.default_rng(seed)``;
* same seed, same draw (bit for bit).

A new public class with a ``sample`` method in ``simulations.mechanisms`` or ``simulations.laws``
fails :func:`test_every_sampler_is_covered` until it gets an entry in ``SAMPLERS``.
"""

import importlib
import inspect
import pkgutil

import numpy as np
import pytest

from simulations import laws, mechanisms
from simulations.laws import consistency, densities

FIELD = laws.BumpField(d=2, g=2, beta=1.0, signs=np.ones(4))
PRIOR = [0.2, 0.3, 0.5]

SAMPLERS = {
    "RandomizedResponse": lambda rng: mechanisms.RandomizedResponse(num_classes=3, epsilon=1.0).sample(np.array([0, 2]), rng),
    "RRTopK": lambda rng: mechanisms.RRTopK(num_classes=3, epsilon=1.0, k=2).sample(np.array([0]), rng, prior=PRIOR),
    "RRWithPrior": lambda rng: mechanisms.RRWithPrior(num_classes=3, epsilon=1.0).sample(np.array([0]), rng, prior=PRIOR),
    "VectorMechanism": lambda rng: mechanisms.VectorMechanism(num_classes=3, epsilon=1.0).sample(np.array([1]), rng),
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
}


def _public_samplers():
    """Concrete public classes with a ``sample`` method defined in the mechanisms and laws packages."""
    found = set()
    for pkg in (mechanisms, laws):
        for info in pkgutil.iter_modules(pkg.__path__):
            if info.name.startswith("_"):
                continue
            mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
            for name, obj in vars(mod).items():
                if (inspect.isclass(obj) and obj.__module__ == mod.__name__ and not name.startswith("_")
                        and callable(getattr(obj, "sample", None)) and not inspect.isabstract(obj)):
                    found.add(name)
    return found


def test_every_sampler_is_covered():
    missing = _public_samplers() - set(SAMPLERS)
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
