"""Issue 19: the API fuzz script as a property test.

For any input, a public calculator of ``limits`` and every function that takes a label prior either
returns a value of its documented kind (finite positive floats, h in (0, 1], integer k in [1, floor N],
accuracies in [0, 1], ...) or raises ``ValueError``: never ZeroDivisionError, OverflowError,
FloatingPointError, TypeError, IndexError on numeric input. Inputs mix the extremes the fuzzer found
(ε = 1e-300, 1e-100, 1e300, N = 1.5, 10**400, float32 priors) with hypothesis-drawn reals, integers,
fractions, numpy scalars, arrays and non-numbers.

The prior-taking functions must also agree with each other: for a 1-D prior of K >= 2 entries, the
closed form ``rrwithprior_value``, ``utility_gap``, the mechanisms' ``channel_matrix`` and
``check_label_dp`` (registered checker and plain callable) accept exactly the same priors (one rule,
``simulations.mechanisms.labels.check_priors``), and a normalized prior of any floating dtype is
accepted by all of them.

Deterministic (``derandomize=True``, no example database) and fast (a few seconds in all).
"""

from __future__ import annotations

import math
import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import limits
from proofs_checks import check_label_dp, utility_gap
from proofs_checks.rrwithprior_lp import rrwithprior_k, rrwithprior_lp, rrwithprior_value, rrwithprior_weights
from simulations.mechanisms import RandomizedResponse, RRTopK, RRWithPrior


def fuzz_settings(n):
    return settings(max_examples=n, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# ---------------------------------------------------------------- numeric inputs

EDGE = [0, 1, 2, 1.5, 0.5, 1.0, -1.0, 1e-300, 1e-100, 1e100, 1e300, 5e-324, 1.7976931348623157e308, 10**400,
        -(10**400), math.nan, math.inf, -math.inf, np.float64(1e-300), np.int64(7), np.float32(0.5), Fraction(1, 3),
        Fraction(10**400, 3), True, False, None, "1", Decimal("1.5"), 1 + 2j, [], [1.0, 2.0]]

reals = st.one_of(
    st.sampled_from(EDGE),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-745.0, max_value=709.0).map(math.exp),          # log-uniform over the positive floats
    st.floats(min_value=-745.0, max_value=709.0).map(lambda x: np.float64(math.exp(x))),
    st.integers(min_value=-3, max_value=10**20),
    st.integers(min_value=10**300, max_value=10**420),
    st.fractions(max_denominator=10**6),
)
positive_reals = st.one_of(st.floats(min_value=-745.0, max_value=709.0).map(math.exp),
                           st.sampled_from([1e-300, 1e-100, 0.5, 1.0, 1.5, 2.0, 1e100, 1e300, 5e-324]))
arrays_of_reals = st.lists(st.one_of(positive_reals, st.sampled_from([0.0, -1.0, math.nan, math.inf])),
                           min_size=0, max_size=3)
integers = st.one_of(st.integers(min_value=-2, max_value=60), st.sampled_from([10**18, 10**400, 2.0, 1.5, True, None]))
small_positive = st.one_of(st.floats(min_value=-20.0, max_value=20.0).map(math.exp), reals)  # beta, gamma, p

cells = st.sampled_from([(t, p) for t in limits.TASKS for p in limits.PRIVACY])


def call(fn, *args, **kwargs):
    """The result, or None for a ValueError; any other exception fails the test."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. numpy's overflow-in-cast of an EDGE value
            return fn(*args, **kwargs)
    except ValueError:
        return None


def is_positive_finite(x) -> bool:
    arr = np.asarray(x, dtype=float)
    return bool(np.all(np.isfinite(arr)) and np.all(arr > 0))


common = st.fixed_dictionaries({"beta": small_positive, "d": integers, "gamma": st.one_of(small_positive, st.none()),
                                "p": st.one_of(small_positive, st.none()), "num_classes": integers,
                                "log_factors": st.booleans(), "variant": st.sampled_from(limits.VARIANTS)})


@fuzz_settings(300)
@given(cells, common, st.one_of(reals, arrays_of_reals), st.one_of(reals, arrays_of_reals))
def test_rates_return_finite_positive_or_value_error(cell, kw, N, eps):
    task, privacy = cell
    r = call(limits.minimax_rate, task, privacy, N=N, epsilon=eps, **kw)
    if r is not None:
        assert is_positive_finite(r) and (isinstance(r, float) or r.shape == np.broadcast(N, eps).shape)
    rt = call(limits.rate_terms, task, privacy, N=N, epsilon=eps, **kw)
    assert (rt is None) == (r is None)
    if rt is not None:
        np.testing.assert_array_equal(rt.total, r)
        assert all(np.all(np.asarray(v) >= 0) for v in rt.terms.values())
    kw = {k: v for k, v in kw.items() if k not in ("num_classes", "log_factors")}
    a = call(limits.rate_exponent, task, privacy, **kw)
    assert a is None or (isinstance(a, float) and 0 < a < math.inf)


@fuzz_settings(200)
@given(cells, common, st.one_of(reals, arrays_of_reals), st.one_of(reals, arrays_of_reals))
def test_sample_complexity_and_privacy_cost(cell, kw, target, eps):
    task, privacy = cell
    for fn in (limits.sample_complexity, limits.privacy_cost):
        n = call(fn, task, privacy, target=target, epsilon=eps, **kw)
        assert n is None or is_positive_finite(n), (fn.__name__, n)


@fuzz_settings(200)
@given(cells, common, reals)
def test_crossover(cell, kw, eps):
    task, privacy = cell
    n = call(limits.crossover, task, privacy, epsilon=eps, **kw)
    assert n is None or (isinstance(n, float) and 0 < n < math.inf)


@fuzz_settings(300)
@given(st.sampled_from(sorted(limits.ALGORITHMS)), common, reals, reals,
       st.one_of(st.none(), reals), st.one_of(st.none(), integers))
def test_tuning(algorithm, kw, N, eps, h, k):
    kw.pop("log_factors")
    out = call(limits.tuning, algorithm, N=N, epsilon=eps, h=h, k=k, **kw)
    if out is None:
        return
    assert set(out) == set(limits.ALGORITHMS[algorithm].params)
    if "h" in out:
        assert isinstance(out["h"], float) and 0 < out["h"] <= 1
    if "k" in out:
        assert isinstance(out["k"], int) and 1 <= out["k"] <= math.floor(float(N))
    if "T" in out:
        assert isinstance(out["T"], float) and 0 < out["T"] < math.inf


# ---------------------------------------------------------------- priors

DTYPES = [np.float16, np.float32, np.float64, np.longdouble, np.int64, np.bool_, np.complex128, "object", "list", "str"]


@st.composite
def priors(draw, normalized=None):
    """(prior, normalized): a prior of some dtype, either a probability vector cast to that dtype or raw values."""
    K = draw(st.integers(1, 6))
    if normalized is None:
        normalized = draw(st.booleans())
    if normalized:
        w = np.array(draw(st.lists(st.floats(0.0, 1e6), min_size=K, max_size=K)))
        p = w / w.sum() if w.sum() > 0 else np.full(K, 1.0 / K)
    else:
        p = np.array(draw(st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                                             st.sampled_from([0.0, 0.5, 1.0, -0.1])), min_size=0, max_size=K)))
    dtype = draw(st.sampled_from(DTYPES if not normalized else DTYPES[:4] + ["object", "list"]))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dtype == "object":
            prior = np.array([Fraction(x).limit_denominator(10**9) if math.isfinite(x) else x for x in p], dtype=object)
        elif dtype == "list":
            prior = [float(x) for x in p]
        elif dtype == "str":
            prior = np.array([str(x) for x in p])
        else:
            prior = p.astype(dtype)
    shape = draw(st.sampled_from(["1d", "1d", "1d", "2d", "scalar"])) if not normalized else "1d"
    if shape == "2d":
        prior = np.asarray(prior)[None, :]
    elif shape == "scalar":
        prior = np.asarray(prior).ravel()[:1].reshape(()) if np.size(prior) else 0.5
    return prior, normalized


def prior_calls(prior, K):
    """Every prior-taking function, as name -> result (None for ValueError)."""
    def fn(q):
        return RRWithPrior(K, 1.0).channel_matrix(q)

    out = {
        "rrwithprior_value": call(rrwithprior_value, prior, 1.0),
        "rrwithprior_weights": call(rrwithprior_weights, prior, 1.0),
        "rrwithprior_k": call(rrwithprior_k, prior, 1.0),
        "utility_gap": call(utility_gap, RandomizedResponse(K, 1.0), prior, 1.0) if K >= 2 else None,
        "RRWithPrior.channel_matrix": call(RRWithPrior(K, 1.0).channel_matrix, prior) if K >= 2 else None,
        "RRTopK.channel_matrix": call(RRTopK(K, 1.0, 1).channel_matrix, prior) if K >= 2 else None,
        "check_label_dp(RRWithPrior)": call(check_label_dp, RRWithPrior(K, 1.0), 1.0, prior=prior) if K >= 2 else None,
        "check_label_dp(callable)": call(check_label_dp, fn, 1.0, kind="prior_channel", prior=prior) if K >= 2 else None,
    }
    return out


def check_kinds(res):
    if res["rrwithprior_value"] is not None:
        assert 0.0 <= res["rrwithprior_value"] <= 1.0 + 1e-12
        assert isinstance(res["rrwithprior_k"], int)
    for name in ("RRWithPrior.channel_matrix", "RRTopK.channel_matrix"):
        if res[name] is not None:
            assert np.allclose(res[name].sum(axis=1), 1.0)
    g = res["utility_gap"]
    if g is not None:
        assert 0.0 <= g.accuracy <= 1.0 + 1e-12 and g.private


@fuzz_settings(200)
@given(priors())
def test_prior_functions_accept_the_same_priors(drawn):
    prior, normalized = drawn
    try:
        K = int(np.shape(prior)[-1])
    except (IndexError, ValueError):
        K = 2
    K = max(K, 1)
    res = prior_calls(prior, K)
    check_kinds(res)
    if np.ndim(prior) == 1 and K >= 2:
        accepted = {name: r is not None for name, r in res.items()}
        assert len(set(accepted.values())) == 1, accepted  # one rule
        if normalized:
            assert all(accepted.values()), (prior, accepted)


@fuzz_settings(25)
@given(priors())
def test_rrwithprior_lp_accepts_what_the_closed_form_accepts(drawn):
    prior, _ = drawn
    lp = call(rrwithprior_lp, prior, 1.0, "lp2")
    closed = call(rrwithprior_value, prior, 1.0)
    assert (lp is None) == (closed is None)
    if lp is not None:
        assert lp.value == pytest.approx(closed, rel=1e-6, abs=1e-9)


@fuzz_settings(150)
@given(priors(normalized=False), reals)
def test_prior_closed_form_epsilon(drawn, eps):
    prior, _ = drawn
    v = call(rrwithprior_value, prior, eps)
    assert v is None or 0.0 <= v <= 1.0 + 1e-12
