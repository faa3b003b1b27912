"""Experiment ``rates_lower_bounds`` (003's lower bounds as numbers beside the matching estimators).

Reads the shared smoke run (``tests/conftest.py``); the table is re-derived from ``limits.lower_bounds``
row by row, and the lean trial is checked draw for draw against the rate experiments' trial.
"""

from __future__ import annotations

import csv
import math
import re

import pytest

from limits import lower_bounds as LB


@pytest.fixture
def record_and_rows(smoke_run):
    run = smoke_run("rates_lower_bounds")
    with open(run.folder / "lower_vs_measured.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return run.record, rows


def test_twelve_claims_two_per_theorem_and_no_bound_above_the_measurement(record_and_rows):
    record, rows = record_and_rows
    claims = record["claims"]
    assert len(claims) == 12
    for th in (1, 3, 5, 7, 9, 11):
        mine = [c for c in claims if re.search(rf"003 Theorem {th}\b", c["claim"])]
        assert len(mine) == 2
        order, slope = mine
        assert order["verdict"] != "fails", order  # a bound above the measured mean would be a bug somewhere
        assert order["measured"] >= 1.0 and slope["expected"] == 0.0
    assert {int(r["theorem"]) for r in rows} == {1, 3, 5, 7, 9, 11}
    assert all(r["verdict_lower_le_measured"] != "excluded" for r in rows)


def test_table_bounds_are_limits_bounds_on_the_family(record_and_rows):
    """Every row's lower bound is ``limits.lower_bound`` at the row's (N, ε, h = 1/g) and mean bump count."""
    _, rows = record_and_rows
    fns = {1: LB.theorem1_bound, 3: LB.theorem3_bound, 5: LB.theorem5_bound, 7: LB.theorem7_bound,
           9: LB.theorem9_bound, 11: LB.theorem11_bound}
    for r in rows:
        th, g = int(r["theorem"]), int(r["g"])
        kw = dict(d=int(r["d"]), beta=float(r["beta"]), h=1.0 / g)
        if th in (1, 3):
            C_M = 2.0  # the experiment's C_M; mean of the randomly rounded C_M h^{γβ−d} (003 eq. (37))
            kw.update(gamma=float(r["gamma"]), C_M=C_M,
                      cubes=min(g ** kw["d"], max(1.0, C_M * g ** (kw["d"] - float(r["gamma"]) * kw["beta"]))))
        if th in (9, 11):
            kw.update(p=float(r["p"]), M_p=float(r["M_p"]))
        lb = fns[th](float(r["N"]), float(r["eps"]), **kw)
        assert float(r["lower_bound"]) == pytest.approx(lb.bound, rel=1e-9)
        assert float(r["ratio"]) == pytest.approx(float(r["measured_mean"]) / lb.bound, rel=1e-9)
        assert math.isclose(float(r["h"]), 1.0 / g, rel_tol=1e-12)


def test_lean_trial_is_the_rate_trial_excess_draw_for_draw():
    from proofs_checks.experiments.lower_bounds import CASES, PROFILES, bound_trial, case_grid
    from simulations.experiments.rates.machinery import rate_trial

    for case in (CASES[0], CASES[3]):  # a classifier (vector mechanism) and a regressor (noisy bin mean)
        assert not case.knn
        _, pt = case_grid(case, PROFILES["smoke"])[0]
        for t in range(2):
            assert bound_trial(pt, t, 7)["excess"] == rate_trial(pt, t, 7)["excess"]
