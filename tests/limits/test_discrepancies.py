"""The discrepancy records of 003: well formed, parsable, and consistent with both variants of limits.

Each record's printed and derived forms are parsed and compared with what ``limits`` computes for
``variant="printed"`` and ``variant="derived"``, and the derived forms are re-derived here from the
proof steps they cite.
"""

from __future__ import annotations

import pytest
import sympy as sp

import limits
from limits import symbols as S
from limits.discrepancies import parse

N, e, b, d, p, g, h = S.N, S.epsilon, S.beta, S.d, S.p, S.gamma, S.h
RECORDS = {x.key: x for x in limits.DISCREPANCIES}


def test_records_are_well_formed():
    assert len(RECORDS) == len(limits.DISCREPANCIES)  # unique keys
    dicts = limits.discrepancies()
    assert [r["key"] for r in dicts] == list(RECORDS)
    for r in dicts:
        for field in ("source", "printed", "derived", "printed_text", "derived_text", "evidence", "consequence"):
            assert isinstance(r[field], str) and r[field].strip(), (r["key"], field)
        assert r["source"].startswith("003 ")
        assert r["affects"][0] in ("rate", "tuning", "mechanism", "proof")
        printed, derived = parse(r["printed"]), parse(r["derived"])
        assert sp.simplify(printed - derived) != 0, r["key"]
        assert printed.free_symbols <= set(S.RATE_SYMBOLS.values()) | {sp.Symbol("n_l", positive=True)}


@pytest.mark.parametrize("key", [k for k, x in RECORDS.items() if x.affects[0] == "rate"])
def test_rate_records_match_both_variants(key):
    x = RECORDS[key]
    _, task, privacy = x.affects
    assert sp.simplify(parse(x.printed) - limits.printed_rate(task, privacy)) == 0
    assert sp.simplify(parse(x.derived) - limits.symbolic_rate(task, privacy)) == 0


@pytest.mark.parametrize("key", [k for k, x in RECORDS.items() if x.affects[0] == "tuning"])
def test_tuning_records_match_both_variants(key):
    x = RECORDS[key]
    _, alg, param = x.affects
    assert sp.simplify(parse(x.printed) - limits.symbolic_tuning(alg, variant="printed")[param].expr) == 0
    assert sp.simplify(parse(x.derived) - limits.symbolic_tuning(alg)[param].expr) == 0


def test_central_regression_record_follows_theorem8_balance():
    # eq. (153): h^(2β) = 1/(N² h^(2d) ε²)  =>  h = (εN)^(-1/(β+d)), privacy term h^(2β)
    hs = sp.solve(sp.Eq(h ** (2 * b), 1 / (N**2 * h ** (2 * d) * e**2)), h)
    assert len(hs) == 1
    term = sp.powsimp(sp.expand_power_base(hs[0] ** (2 * b), force=True), force=True)
    derived = parse(RECORDS["table1_central_regression_privacy_term"].derived)
    priv = [t for t in derived.args if t.has(e)][0]
    assert sp.simplify(sp.expand_log(sp.log(term) - sp.log(priv), force=True)) == 0


def test_eq187_record_solves_to_eq188():
    # derived: h = (εN)^(-1/(d+β)) h^(-β/((d+β)(p-1)))  <=>  h^(1 + β/((d+β)(p-1))) = (εN)^(-1/(d+β))
    x = RECORDS["eq187_sign"]
    for form, want in ((x.derived, -(p - 1) / (p * b + d * (p - 1))),
                       (x.printed, -(p - 1) / (p * b + d * (p - 1) - 2 * b))):
        rhs = parse(form)
        c = sp.Symbol("c", positive=True)  # log(εN)
        L = sp.Symbol("L")               # log h
        eq = sp.Eq(L, sp.expand_log(sp.log(rhs), force=True).subs(sp.log(e), c).subs(sp.log(N), 0)
                   .subs(sp.log(h), L))
        sol = sp.solve(eq, L)[0]
        assert sp.simplify(sol / c - want) == 0


def test_p2_remark_record():
    # at p = 2 the central heavy-tailed privacy exponent equals the non-private one (Theorem 12, (29))
    priv = limits.cell("regression_heavy_tailed", "central").term("privacy").exponent
    assert sp.simplify(priv.subs(p, 2) - 2 * b / (2 * b + d)) == 0
    x = RECORDS["section6_p2_remark"]
    assert N not in parse(x.printed).free_symbols and N in parse(x.derived).free_symbols


def test_laplace_scale_record():
    x = RECORDS["eq23_laplace_scale"]
    assert sp.simplify(parse(x.derived) / parse(x.printed) - S.T) == 0
