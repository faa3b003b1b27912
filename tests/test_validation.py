"""The shared argument guards: every bad value raises ValueError naming the argument and value."""

import math

import numpy as np
import pytest

import limits.validation as _v
from limits.validation import (check_choice, check_int, check_positive, check_probability,
                                check_probability_vector, check_real)


@pytest.mark.parametrize("bad", [0, -1.0, math.inf, math.nan, "1", None, True])
def test_check_positive_rejects(bad):
    with pytest.raises(ValueError, match=r"epsilon.*epsilon="):
        check_positive("epsilon", bad)


@pytest.mark.parametrize("good", [1e-300, 0.5, 3, np.float32(2.0), np.int64(4)])
def test_check_positive_accepts(good):
    assert check_positive("epsilon", good) == float(good)


@pytest.mark.parametrize("bad", [-0.1, 1.0, math.nan])
def test_check_probability(bad):
    with pytest.raises(ValueError, match="delta"):
        check_probability("delta", bad)
    assert check_probability("delta", 0.0) == 0.0
    assert check_probability("p", 1.0, allow_one=True) == 1.0


@pytest.mark.parametrize("bad", [1.0, 2.5, "3", True, 1])
def test_check_int(bad):
    with pytest.raises(ValueError, match="num_classes"):
        check_int("num_classes", bad, low=2)
    assert check_int("num_classes", np.int32(5), low=2) == 5


def test_check_choice_lists_choices():
    with pytest.raises(ValueError, match=r"\['central', 'local'\].*privacy='global'"):
        check_choice("privacy", "global", {"local", "central"})


@pytest.mark.parametrize("bad", [[0.5, 0.6], [-0.1, 1.1], [np.nan, 1.0], 0.3])
def test_check_probability_vector_rejects(bad):
    with pytest.raises(ValueError, match="prior"):
        check_probability_vector("prior", bad)


def test_check_probability_vector_rows_and_size():
    rows = check_probability_vector("prior", [[0.2, 0.8], [1.0, 0.0]], size=2)
    assert rows.shape == (2, 2)
    with pytest.raises(ValueError, match="3 entries"):
        check_probability_vector("prior", [0.5, 0.5], size=3)
    assert check_real("x", 0.25, low=0, high=1) == 0.25


def test_check_finite_array():
    np.testing.assert_array_equal(_v.check_finite_array("eps", [0.0, 1.5]), [0.0, 1.5])
    for bad in ([0.0, float("nan")], [float("inf")], -float("inf")):
        with pytest.raises(ValueError, match="eps must be finite, got eps="):
            _v.check_finite_array("eps", bad)


def _all_modules():
    import importlib
    import pkgutil

    for top in ("limits", "simulations", "proofs_checks"):
        pkg = importlib.import_module(top)
        yield pkg
        for info in pkgutil.walk_packages(pkg.__path__, prefix=f"{top}."):
            if ".torch_path" in info.name:  # optional extra: imports torch
                continue
            yield importlib.import_module(info.name)


def test_every_all_name_exists():
    """Every name a module exports in ``__all__`` is defined (a stale ``__all__`` breaks ``import *``)."""
    missing = [f"{m.__name__}.{n}" for m in _all_modules() for n in getattr(m, "__all__", ()) if not hasattr(m, n)]
    assert not missing, missing
