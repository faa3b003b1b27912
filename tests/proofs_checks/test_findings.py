"""Tests of ``proofs_checks.findings()``: shape, the known discrepancies, the union with
``limits.DISCREPANCIES``, cross-checks of the two independent derivations, and a smoke run of the
``proof_checks`` experiment."""

from __future__ import annotations

import math

import pytest
import sympy as sp

import limits
from proofs_checks import all_checks, findings
from proofs_checks.findings import LIMITS_KEY_TO_CHECK
from proofs_checks.proof_steps.monomials import SYM, exponents, same_monomial
from proofs_checks.proof_steps.tuning_rates import derive_upper

N, eps, h, k, T, beta, d, gamma, p, L = (SYM[s] for s in "N eps h k T beta d gamma p L".split())


@pytest.fixture(scope="module")
def found():
    return findings("smoke")


def test_findings_are_dicts_with_required_fields(found):
    assert len(found) >= 10
    for f in found:
        for key in ("source", "printed", "derived", "evidence", "severity", "origin"):
            assert isinstance(f[key], str) and f[key], (key, f)
        assert f["source"][:3] in ("000", "001", "002", "003", "004")
    pairs = [(f["source"], f["printed"]) for f in found]
    assert len(pairs) == len(set(pairs))  # de-duplicated


def test_known_table1_discrepancy_is_reported(found):
    # seeds README: Table 1 central regression (bounded noise) prints (eps N)^(-2b/(d+2b)); Theorems 7-8 give (d+b)
    hit = [f for f in found if "Table 1 (central, regression bounded)" in f["source"]]
    assert len(hit) == 1
    assert "d+2beta" in hit[0]["printed"] and "(N eps)^(-2*beta/(beta + d))" in hit[0]["derived"]
    assert hit[0]["severity"] == "rate"


@pytest.mark.parametrize("source", ["003 Theorem 12 statement", "003 Theorem 10 and eq. (181)", "003 eq. (187)",
                                    "003 Theorem 8, eq. (23)", "003 Table 1 (local full, classification)",
                                    "003 eq. (46)(c) (and (161))", "003 eq. (60)", "003 eq. (113)", "003 eq. (80)"])
def test_each_hand_derived_discrepancy_is_listed(found, source):
    assert any(f["source"] == source for f in found), source


def test_union_with_limits_discrepancies(found):
    keys = [r["key"] for r in limits.discrepancies()]
    assert keys, "limits.DISCREPANCIES is empty"
    for key in keys:
        if key in LIMITS_KEY_TO_CHECK:  # derived twice: merged, both evidences kept
            merged = [f for f in found if f.get("check_id") == LIMITS_KEY_TO_CHECK[key]]
            assert merged and all(f["origin"] == "both" and key in f["evidence"] for f in merged), key
        else:  # found only by limits: carried over
            assert any(key in f["evidence"] for f in found), key


def test_every_failed_check_contributes_findings(found):
    failed = {c.check_id for c in all_checks("smoke") if not c.passed}
    assert failed == {f["check_id"] for f in found if f["check_id"]}


# ---- cross-checks against limits (independent derivation) ----------------------------------------

def _to_mine(expr):
    """limits' symbols -> this package's (by name); ln K -> L; eps ∧ 1 -> eps (the eps <= 1 regime)."""
    expr = expr.replace(sp.Min, lambda *args: [a for a in args if a != 1][0])
    expr = expr.subs(sp.log(limits.symbols.K), L)
    return expr.subs({s: SYM["eps" if s.name == "epsilon" else s.name] for s in expr.free_symbols if s.name != "K"})


_ALGOS = {"local_classification": "thm2", "central_classification": "thm4", "local_regression": "thm6",
          "central_regression": "thm8", "local_regression_heavy_tailed": "thm10",
          "central_regression_heavy_tailed": "thm12"}


@pytest.mark.parametrize("algorithm", sorted(_ALGOS))
def test_tuning_branches_agree_with_limits(algorithm):
    tunings, _ = derive_upper(_ALGOS[algorithm])
    rules = limits.symbolic_tuning(algorithm)
    for param, rule in rules.items():
        mine = tunings[SYM[param]][0]
        theirs = [_to_mine(b) for b in rule.branches.values()]
        assert len(mine) == len(theirs), (param, mine, theirs)
        for t in theirs:
            assert any(same_monomial(t, m) for m in mine), (algorithm, param, t, mine)


@pytest.mark.parametrize("b,dd,pp", [(1.0, 1, 2.0), (1.0, 2, 3.0), (2.0, 3, 5.0)])
def test_numeric_tuning_agrees_with_limits(b, dd, pp):
    Nv, ev = 1e6, 0.5
    t = limits.tuning("central_regression_heavy_tailed", N=Nv, epsilon=ev, beta=b, d=dd, p=pp)
    tunings, _ = derive_upper("thm12")
    vals = {N: Nv, eps: ev, beta: b, d: dd, p: pp}
    h_mine = sum(float(x.subs(vals)) for x in tunings[h][0])  # h ~ A + B (eq. (195))
    assert math.isclose(t["h"], min(1.0, h_mine), rel_tol=1e-9)
    T_mine = float(tunings[T][0][0].subs(vals | {h: t["h"]}))
    assert math.isclose(t["T"], T_mine, rel_tol=1e-9)


_CELLS = [("classification", "local", "thm2", None), ("classification", "central", "thm4", "privacy"),
          ("regression", "local", "thm6", None), ("regression", "central", "thm8", "privacy"),
          ("regression", "central", "thm8", "nonprivate"), ("regression_heavy_tailed", "local", "thm10", "privacy"),
          ("regression_heavy_tailed", "central", "thm12", "privacy")]


@pytest.mark.parametrize("task,privacy,key,term", _CELLS)
@pytest.mark.parametrize("b,dd,g,pp", [(1.0, 1, 1.0, 2.0), (0.5, 3, 0.0, 4.0), (2.0, 2, 2.0, 3.0)])
def test_rate_exponents_agree_with_limits(task, privacy, key, term, b, dd, g, pp):
    _, rate = derive_upper(key)
    if term == "nonprivate":
        mine = next(t for t in rate if eps not in exponents(t))
    else:
        mine = next(t for t in rate if eps in exponents(t))
    a_mine = -float(exponents(mine)[N].subs({beta: b, d: dd, gamma: g, p: pp}))
    kw = {"gamma": g} if task == "classification" else {"p": pp} if task == "regression_heavy_tailed" else {}
    a_lim = limits.rate_exponent(task, privacy, beta=b, d=dd, term=term, **kw)
    assert math.isclose(a_mine, a_lim, rel_tol=1e-12)


# ---- the experiment -------------------------------------------------------------------------------

def test_proof_checks_experiment_smoke(smoke_run):
    """Read from the test run's one smoke run (tests/conftest.py), at the default root seed as before."""
    run = smoke_run("proof_checks")
    folder = run.folder
    saved = run.record
    assert saved["claims"] and len(saved["claims"]) == len(all_checks("smoke"))
    assert sum(not c["holds"] for c in saved["claims"]) == sum(not c.passed for c in all_checks("smoke"))
    assert "### Proof checks" in saved["notes"] and "### Findings" in saved["notes"]
    assert (folder / "proof_checks.png").exists() and (folder / "findings.csv").exists()
