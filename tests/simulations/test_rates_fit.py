"""The rate experiments' verdicts: both exponent claims of a case come from the one decision rule.

Each CaseFit below is built by hand (no simulation): only its bootstrap CI, reference and margin
matter to the verdicts. The case is 003's central regression, d = 1, β = 1/2, privacy term: derived
exponent 2β/(d+β) = 2/3, printed (003 Table 1) 2β/(d+2β) = 1/2 (expected values from the formulas).
"""

from __future__ import annotations

import numpy as np
import pytest

from simulations.experiments.rates.machinery import RateCase
from simulations.experiments.rates.fit import CaseFit, case_claims, slope_table_markdown

CASE = RateCase(algorithm="central_regression", d=1, beta=0.5, eps=1e-4, term="privacy", branch="privacy",
                n_start=1e6)
MARGIN = 0.03


def _fit(lo, hi, margin=MARGIN):
    N = np.array([1e6, 1e7, 1e8])
    ones = np.ones(3)
    return CaseFit(case=CASE, N=N, g=np.array([10, 46, 215]), mean=ones, ci_low=ones, ci_high=ones,
                   slope=(lo + hi) / 2, intercept=0.0, slope_low=lo, slope_high=hi, theory=-2 / 3, implied=-2 / 3,
                   upper_half=(lo + hi) / 2, trials=100, margin=margin, printed=-1 / 2)


def test_case_has_the_derived_and_printed_exponents_assumed_here():
    assert CASE.exponent() == pytest.approx(2 / 3) and CASE.printed_exponent() == pytest.approx(1 / 2)


@pytest.mark.parametrize("lo, hi, derived, printed_excluded", [
    # CI inside -2/3 ± 0.03 and disjoint from -1/2 ± 0.03: derived holds, printed excluded
    (-0.675, -0.66, True, True),
    # CI inside -1/2 ± 0.03: the printed exponent holds (so "printed excluded" fails), derived excluded
    (-0.51, -0.49, False, False),
    # CI straddling the upper edge of the derived band (-0.6367) and the lower edge of the printed band
    # (-0.53): neither confirmed nor excluded, both inconclusive
    (-0.68, -0.49, None, None),
    # straddles the derived band's edge only; disjoint from the printed band
    (-0.66, -0.62, None, True),
    # straddles the printed band's edge only; disjoint from the derived band
    (-0.55, -0.52, False, None),
])
def test_both_claims_use_one_rule_and_one_margin(lo, hi, derived, printed_excluded):
    f = _fit(lo, hi)
    derived_claim, printed_claim = case_claims(f)
    assert derived_claim.holds is derived and f.holds is derived
    assert printed_claim.holds is printed_excluded and f.printed_excluded is printed_excluded
    assert "is excluded" in printed_claim.claim
    expect = {True: "holds", False: "fails", None: "inconclusive"}
    assert (derived_claim.to_json()["verdict"], printed_claim.to_json()["verdict"]) == \
        (expect[derived], expect[printed_excluded])


def test_the_old_asymmetric_rule_is_gone():
    """Before issue 23 the derived claim held when -2/3 lay in the CI widened by the margin, and the printed
    exponent counted as excluded when -1/2 lay outside the plain CI. For the CI [-0.69, -0.52] that said
    'derived holds' and 'printed excluded' at once; with one interval and one margin both are inconclusive
    (the CI straddles the derived band's upper edge -0.637 and the printed band's lower edge -0.53)."""
    f = _fit(-0.69, -0.52)
    assert (-0.69 - MARGIN <= -2 / 3 <= -0.52 + MARGIN) and not (-0.69 <= -1 / 2 <= -0.52)  # the old verdicts
    assert (f.holds, f.printed_excluded) == (None, None)


def test_slope_table_shows_the_three_verdicts():
    text = slope_table_markdown([_fit(-0.675, -0.66), _fit(-0.68, -0.49), _fit(-0.51, -0.49)])
    rows = text.splitlines()[2:]
    assert "| holds (±0.03) |" in rows[0] and ": excluded |" in rows[0]
    assert "| **inconclusive** (±0.03) |" in rows[1] and ": inconclusive |" in rows[1]
    assert "| **excluded** (±0.03) |" in rows[2] and ": holds |" in rows[2]


def test_no_fit_is_inconclusive():
    f = _fit(float("nan"), float("nan"))
    assert [c.holds for c in case_claims(f)] == [None, None]
