"""Property-based tests: every Table 1 rate is non-increasing in N and in ε (more data or a weaker
privacy constraint never makes the minimax risk larger)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

import limits

cells = st.sampled_from([(t, p) for t in limits.TASKS for p in limits.PRIVACY])
params = st.fixed_dictionaries({
    "beta": st.floats(0.05, 5.0),
    "d": st.integers(1, 12),
    "gamma": st.floats(0.0, 5.0),
    "p": st.floats(2.0, 50.0),
    "num_classes": st.integers(2, 1000),
})
log_n = st.floats(0.0, 30.0)            # N in [1, e^30]
log_eps = st.floats(-8.0, 5.0)          # ε in [3e-4, 150]
flags = st.tuples(st.booleans(), st.sampled_from(limits.VARIANTS))

SETTINGS = settings(max_examples=150, deadline=None)


@SETTINGS
@given(cells, params, log_n, log_n, log_eps, flags)
def test_non_increasing_in_N(cell, kw, l1, l2, le, fl):
    task, privacy = cell
    lo, hi = sorted((l1, l2))
    r = [limits.minimax_rate(task, privacy, N=math.exp(x), epsilon=math.exp(le), log_factors=fl[0], variant=fl[1], **kw)
         for x in (lo, hi)]
    assert r[1] <= r[0] * (1 + 1e-12)
    assert all(math.isfinite(v) and v > 0 for v in r)


@SETTINGS
@given(cells, params, log_n, log_eps, log_eps, flags)
def test_non_increasing_in_eps(cell, kw, ln, e1, e2, fl):
    task, privacy = cell
    lo, hi = sorted((e1, e2))
    r = [limits.minimax_rate(task, privacy, N=math.exp(ln), epsilon=math.exp(x), log_factors=fl[0], variant=fl[1], **kw)
         for x in (lo, hi)]
    assert r[1] <= r[0] * (1 + 1e-12)


@SETTINGS
@given(cells, params, log_eps)
def test_private_rate_never_below_nonprivate(cell, kw, le):
    """No private rate is below the non-private one (equal for local label DP with ε >= 1)."""
    task, privacy = cell
    for n in (1.0, 1e3, 1e9):
        priv = limits.minimax_rate(task, privacy, N=n, epsilon=math.exp(le), **kw)
        nonp = limits.minimax_rate(task, "none", N=n, **kw)
        assert priv >= nonp * (1 - 1e-12)


@SETTINGS
@given(cells, params, log_eps, st.floats(-12.0, -0.5))
def test_sample_complexity_round_trip(cell, kw, le, lt):
    task, privacy = cell
    eps, target = math.exp(le), math.exp(lt)
    try:
        n = limits.sample_complexity(task, privacy, target=target, epsilon=eps, **kw)
    except ValueError as err:  # only allowed when N is beyond floating-point range
        assert "beyond floating-point range" in str(err)
        return
    if 1 <= n <= 1e250:
        back = limits.minimax_rate(task, privacy, N=n, epsilon=eps, **kw)
        assert math.isclose(back, target, rel_tol=1e-9)
