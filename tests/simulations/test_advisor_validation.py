"""Experiment ``advisor_validation`` and the advisor against the committed ``lp_mst_digits`` ranking.

The measured-best rule is checked on hand-made paired accuracies; the trial's draws on its seeding; the
smoke run on its structure. The last test compares :func:`limits.advise`'s ranking of RR and the symmetric
vector mechanism (K = 10, aggregation) with the committed quick run of ``lp_mst_digits``
(``figures/lp_mst_digits/accuracy.csv``, read-only), at every ε where the two methods' 95% intervals are
disjoint.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest

import limits
from simulations.experiments.vector.advisor_validation import (TIE, AdvisorPoint, advisor_trial, measured_best)

ROOT = Path(__file__).resolve().parents[2]


def _per(rr, vec, asym):
    return {"acc_rr": np.array(rr), "acc_vector": np.array(vec), "acc_vector_asymmetric": np.array(asym)}


def test_measured_best_by_the_paired_rule():
    # vector beats both in every trial by 0.1 (paired differences constant and positive: CI [0.1, 0.1])
    assert measured_best(_per([.5, .6, .7], [.6, .7, .8], [.5, .6, .7]))[0] == "vector"
    # vector beats RR but not the asymmetric one (paired difference ±0.05 around 0): a tie
    assert measured_best(_per([.5, .6, .7, .5], [.6, .7, .8, .6], [.65, .65, .85, .55]))[0] == TIE
    # identical accuracies everywhere (e.g. all at 1.0) resolve nothing
    assert measured_best(_per([1.0] * 4, [1.0] * 4, [1.0] * 4))[0] == TIE
    # the paired interval, not the marginal ones: 0.01 ahead in every trial, marginal spread 0.2
    best, paired = measured_best(_per([.3, .5, .7], [.31, .51, .71], [.2, .4, .6]))
    assert best == "vector" and paired[("vector", "rr")][0] == pytest.approx(0.01)


def test_trial_is_a_function_of_its_seed_and_config():
    p = AdvisorPoint(5, 0.3, 1.0, 200, 20, 10)
    assert advisor_trial(p, 3, 7) == advisor_trial(p, 3, 7)
    assert advisor_trial(p, 3, 7) != advisor_trial(p, 4, 7)


@pytest.mark.parametrize("kwargs, match", [(dict(k=0), "k"), (dict(k=300), r"k must be in \[1, N=200\]"),
                                           (dict(epsilon=-1.0), "epsilon"), (dict(M=0), "M")])
def test_point_refuses_bad_input(kwargs, match):
    base = dict(num_classes=5, sigma=0.3, epsilon=1.0, N=200, M=20, k=10) | kwargs
    with pytest.raises(ValueError, match=match):
        AdvisorPoint(**base)


def test_advisor_validation_smoke(smoke_run):
    rec = smoke_run("advisor_validation").record
    assert [c["kind"] for c in rec["claims"]] == ["beyond", "beyond"]
    rows = list(csv.DictReader((Path(smoke_run("advisor_validation").folder) / "settings.csv").open()))
    assert len(rows) == 2 * 2 * 2  # panels x K x ε of the smoke profile, one N
    assert {r["measured_best"] for r in rows} <= {"rr", "vector", "vector_asymmetric", TIE}
    # the advisor's column is advise() itself (K = 2: RR has the smallest contrast variance at a two-class tie,
    # (e^ε + 1)^2/(e^ε − 1)^2 against 2e^{ε/2}/(e^{ε/2} − 1)^2 + 1: 4.68 vs 8.84 at ε = 1)
    assert all(r["advisor_two_class_tie"] == "rr" for r in rows if r["K"] == "2")


def test_advisor_agrees_with_the_committed_lp_mst_digits_ranking():
    """RR (LP-1ST) against the vector approximation on the digits (K = 10): where their committed 95%
    intervals are disjoint, the better one is the one the advisor ranks first of the two (aggregation use case,
    η at a two-class tie: contrast variances (e^ε+1)(e^ε+9)/(e^ε−1)^2 and 2e^{ε/2}/(e^{ε/2}−1)^2 + 1)."""
    rows = list(csv.DictReader((ROOT / "figures" / "lp_mst_digits" / "accuracy.csv").open()))
    acc = {(r["method"], r["epsilon"]): (float(r["mean"]), float(r["ci_low"]), float(r["ci_high"])) for r in rows}
    decided = []
    for (method, eps), rr in acc.items():
        if method != "RR (LP-1ST)" or eps == "inf":
            continue
        vec = acc[("vector approx.", eps)]
        if rr[1] > vec[2] or vec[1] > rr[2]:  # disjoint intervals: a decided ranking
            measured = "rr" if rr[0] > vec[0] else "vector"
            e = math.exp(float(eps))
            v_rr, v_vec = (e + 1) * (e + 9) / (e - 1) ** 2, 2 * math.sqrt(e) / (math.sqrt(e) - 1) ** 2 + 1
            adv = limits.advise(10, float(eps), 1078)  # the 80 % of the 1347 training images the methods train on
            assert (adv.row("rr").noise_to_signal < adv.row("vector").noise_to_signal) == (v_rr < v_vec)
            decided.append((float(eps), measured, "rr" if v_rr < v_vec else "vector"))
    assert len(decided) >= 3, decided
    assert all(m == a for _, m, a in decided), decided


def test_panels_are_those_of_figures_2_to_4():
    """The local σ of each panel equals vector_fig2's (000 Section 5.1: (a) 0.05, (b) 2/K)."""
    from simulations.experiments.vector import advisor_validation as av
    from simulations.experiments.vector.approximation import PANELS, panel_sigma
    assert av.PANELS == PANELS
    assert all(av._sigma(p, K) == panel_sigma(p, K) for p in PANELS for K in (2, 5, 10, 20, 50, 100))
