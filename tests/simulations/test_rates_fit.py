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


def test_printed_claim_is_an_erratum_naming_its_finding():
    """003 Table 1's printed central-regression cell is the findings() entry the claim confirms."""
    from proofs_checks.findings import findings

    _, printed_claim = case_claims(_fit(-0.675, -0.66))
    assert printed_claim.kind == "erratum" and printed_claim.reading == "confirmed"
    assert printed_claim.finding in {f["topic"] for f in findings()}


def test_no_printed_claim_where_the_bands_overlap():
    """d = 3, β = 1/2: derived 2β/(d+β) = 2/7 ≈ 0.2857, printed 2β/(d+2β) = 1/4 (003 Table 1 vs Theorems 7-8).
    The gap 1/28 ≈ 0.0357 is below 2 × 0.02, so the printed band [-0.27, -0.23] reaches within 0.0157 of the
    derived exponent: a CI around the truth straddles its edge and the verdict would follow the seed (issue 35,
    `--seed` 0-4). No printed claim is made; the derived claim's detail says why."""
    case = RateCase(algorithm="central_regression", d=3, beta=0.5, eps=1e-4, term="privacy", branch="privacy",
                    n_start=1e6)
    assert case.exponent() == pytest.approx(2 / 7) and case.printed_exponent() == pytest.approx(1 / 4)
    ones = np.ones(3)
    for lo, hi in ((-0.29, -0.28), (-0.30, -0.265)):  # excluded by the printed band / straddling its edge
        f = CaseFit(case=case, N=np.array([1e6, 1e7, 1e8]), g=np.array([10, 46, 215]), mean=ones, ci_low=ones,
                    ci_high=ones, slope=(lo + hi) / 2, intercept=0.0, slope_low=lo, slope_high=hi, theory=-2 / 7,
                    implied=-2 / 7, upper_half=(lo + hi) / 2, trials=100, margin=0.02, printed=-1 / 4)
        (only,) = case_claims(f)
        assert only.kind == "paper" and "is not tested here" in only.detail


def test_printed_finding_refuses_a_case_without_a_printed_cell():
    from simulations.experiments.rates.fit import printed_finding

    with pytest.raises(ValueError, match="task='regression', privacy='local'"):
        printed_finding(RateCase(algorithm="local_regression", d=1, beta=1.0, eps=1.0, n_start=100.0))
