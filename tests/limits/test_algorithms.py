"""The algorithm table of limits: one record per algorithm, read by the tuning and the estimators.

Expected values are written here from 003 (theorem -> Table 1 cell; the non-private rules), not
read back from the table.
"""

from __future__ import annotations

import dataclasses
import math

import pytest
import sympy as sp

import limits
from limits import symbols as S
from limits.algorithms import Algorithm

# 003: Theorems 2/4 (classification), 6/8 (bounded regression), 10/12 (heavy tails); even = central
PRIVATE = {
    "local_classification": ("003 Theorem 2", "classification", "local", "bins"),
    "central_classification": ("003 Theorem 4", "classification", "central", "bins"),
    "local_regression": ("003 Theorem 6", "regression", "local", "knn"),
    "central_regression": ("003 Theorem 8", "regression", "central", "bins"),
    "local_regression_heavy_tailed": ("003 Theorem 10", "regression_heavy_tailed", "local", "knn"),
    "central_regression_heavy_tailed": ("003 Theorem 12", "regression_heavy_tailed", "central", "bins"),
}
# non-private rules (constants 1): h ~ (ln K / N)^(1/(2β+d)) (eq. (84) at ε >= 1), h ~ N^(-1/(2β+d))
# (eq. (154), first term), k ~ N^(2β/(2β+d)) (eq. (141) at ε >= 1)
BASELINES = {
    "nonprivate_classification": ("classification", "bins", "h", (sp.log(S.K) / S.N) ** (1 / (2 * S.beta + S.d))),
    "nonprivate_regression": ("regression", "bins", "h", S.N ** (-1 / (2 * S.beta + S.d))),
    "nonprivate_regression_knn": ("regression", "knn", "k", S.N ** (2 * S.beta / (2 * S.beta + S.d))),
}


def _same(a, b):
    """a == b for positive expressions (compared in logs: ln K > 0 for K >= 2, which sympy cannot see)."""
    return sp.simplify(sp.expand_log(sp.log(a) - sp.log(b), force=True)) == 0


def test_the_table_holds_the_six_theorems_and_three_baselines():
    assert set(limits.ALGORITHMS) == set(PRIVATE) | set(BASELINES)


@pytest.mark.parametrize("name", sorted(PRIVATE))
def test_private_records_match_003(name):
    alg = limits.ALGORITHMS[name]
    assert (alg.theorem, alg.task, alg.privacy, alg.neighbourhood) == PRIVATE[name]
    assert alg.private and alg.name == name
    assert limits.cell(alg.task, alg.privacy)  # the Table 1 cell the algorithm attains exists
    assert alg.params[0] == ("h" if alg.neighbourhood == "bins" else "k")


@pytest.mark.parametrize("name", sorted(BASELINES))
def test_baseline_rules_are_the_epsilon_free_rules(name):
    task, neighbourhood, param, want = BASELINES[name]
    alg = limits.ALGORITHMS[name]
    assert (alg.task, alg.privacy, alg.neighbourhood, alg.private) == (task, "none", neighbourhood, False)
    rule = limits.symbolic_tuning(name)[param]
    assert S.epsilon not in rule.expr.free_symbols
    assert _same(rule.expr, want)


@pytest.mark.parametrize("private,baseline", [("central_classification", "nonprivate_classification"),
                                              ("central_regression", "nonprivate_regression")])
def test_baseline_equals_the_nonprivate_branch_of_the_central_rule(private, baseline):
    branch = limits.symbolic_tuning(private)["h"].branches["nonprivate"]
    assert _same(limits.symbolic_tuning(baseline)["h"].expr, branch)


@pytest.mark.parametrize("N", [10.0, 1e3, 1e7])
def test_baseline_tuning_ignores_epsilon_and_matches_the_formula(N):
    b, d, K = 1.0, 2, 5
    t = limits.tuning("nonprivate_classification", N=N, beta=b, d=d, num_classes=K)
    assert t == limits.tuning("nonprivate_classification", N=N, epsilon=0.01, beta=b, d=d, num_classes=K)
    assert t["h"] == pytest.approx(min(1.0, (math.log(K) / N) ** (1 / (2 * b + d))), rel=1e-12)
    k = limits.tuning("nonprivate_regression_knn", N=N, beta=b, d=d)["k"]
    assert k == min(round(N ** (2 * b / (2 * b + d))), int(N))


@pytest.mark.parametrize("name", sorted(PRIVATE))
def test_private_algorithms_require_epsilon(name):
    with pytest.raises(ValueError, match=r"\bepsilon\b"):
        limits.tuning(name, N=100.0, beta=1.0, d=1, p=3.0)


def test_records_are_frozen_and_validated():
    alg = limits.ALGORITHMS["central_regression"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        alg.task = "classification"
    with pytest.raises(TypeError):
        alg.rules["printed"] = ()
    with pytest.raises(TypeError):
        limits.ALGORITHMS["new"] = alg
    for bad in (dict(task="ranking"), dict(privacy="shuffle"), dict(neighbourhood="trees")):
        with pytest.raises(ValueError, match="inconsistent"):
            dataclasses.replace(alg, **bad)
    with pytest.raises(ValueError, match="derived"):
        Algorithm("x", "003 Theorem 8", "regression", "central", "bins", {"printed": ()})


def test_only_private_bounded_regression_needs_the_label_bound():
    # 003 Theorems 6 and 8 scale the Laplace noise by Assumption 2's T; Theorems 10, 12 clip at a tuned T
    want = {"local_regression", "central_regression"}
    assert {n for n, a in limits.ALGORITHMS.items() if a.needs_label_bound} == want
