"""The per-label ledger (simulations.accounting): composition kinds, basic totals, tight profiles.

Expected values are derived independently: fractions for randomized response products, the binomial law
of the loss of n binary RR releases (mpmath root, 40 digits), direct sums over the integers for discrete
Laplace, the Laplace closed form of proofs_checks.privacy_profile, and enumeration of product channels
(proofs_checks.accounting_check, which never calls the ledger).
"""

from __future__ import annotations

import json
import math
import pickle
from fractions import Fraction

import numpy as np
import pytest

from simulations import accounting
from simulations.accounting import NONE, Ledger, Release
from simulations.experiments.base import Claim, Experiment, ExperimentResult, RunContext
from simulations.mechanisms import RandomizedResponse, RRWithPrior, VectorMechanism



def _need_pld():
    """Tests of the PLD path need dp_accounting (the optional extra); the rest run without it."""
    pytest.importorskip("dp_accounting")

#: ε at which δ(ε) = 1e-5 for 100 binary RR releases at ε = 0.1 (mpmath, findroot of the binomial sum)
BINOMIAL_ROOT = 4.306791372516506787


def test_dp_pair_is_binary_rr_and_kairouz_pair():
    P, Q = Release.dp("x", math.log(3), 0.2).pairs()[0]
    assert np.allclose(P, [0.2, 0.8 * 0.75, 0.8 * 0.25, 0.0], rtol=0, atol=1e-15)
    assert np.allclose(Q, P[::-1], rtol=0, atol=1e-15)


def test_channel_epsilon_is_rr_epsilon_and_support_change_is_infinite():
    assert math.isclose(Release.from_mechanism("rr", RandomizedResponse(4, 0.7)).epsilon, 0.7, rel_tol=1e-12)
    assert Release.from_channel("copy", [[1.0, 0.0], [0.0, 1.0]]).epsilon == math.inf


@pytest.mark.parametrize("bad, match", [(dict(epsilon=-1.0), "epsilon must be >= 0"),
                                        (dict(kind="gauss"), "kind must be one of"),
                                        (dict(part=""), "part must be a non-empty string")])
def test_release_guards(bad, match):
    args = dict(name="x", epsilon=1.0) | bad
    with pytest.raises(ValueError, match=match):
        Release(**args)


def test_channel_guard():
    with pytest.raises(ValueError, match="row-stochastic"):
        Release.from_channel("x", [[0.5, 0.6], [0.5, 0.5]])


def test_parallel_is_max_sequential_is_sum_none_is_free():
    led = Ledger().record(Release.dp("h", 0.3), Release.dp("a", 1.0, part="p"), Release.dp("b", 0.5, part="q"),
                          Release.dp("features", 9.0, 0.1, part=NONE))
    assert led.parts == ("p", "q")
    assert led.composition == "parallel and sequential"
    assert led.basic() == (1.3, 0.0)  # the "all" release joins each part; part p is the worst; "none" costs 0
    # LP-3ST composed as if its stages were one part would be 3ε (the bug parallel composition avoids)
    stages = [Release.dp(f"stage {t}", 1.0, part=f"stage {t}") for t in (1, 2, 3)]
    assert Ledger().record(*stages).basic() == (1.0, 0.0)
    assert Ledger().record(*[Release.dp(r.name, 1.0) for r in stages]).basic() == (3.0, 0.0)
    assert Ledger().record(Release.dp("x", 1.0, part=NONE)).composition == "none"


def _fraction_rr_product(k: int) -> Fraction:
    """δ(ln 3) of k binary RR releases at ε = ln 3, in fractions: outputs with j ones have
    P = 3^{k-j}/4^k, Q = 3^j/4^k."""
    return sum(Fraction(math.comb(k, j)) * max(Fraction(0), Fraction(3 ** (k - j) - 3 * 3 ** j, 4 ** k))
               for j in range(k + 1))


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_exact_and_pld_match_fractions_for_binary_rr(k):
    _need_pld()
    led = Ledger().record(*[Release.dp(f"RR {i}", math.log(3)) for i in range(k)])
    expected = float(_fraction_rr_product(k))
    assert math.isclose(led.delta(math.log(3), method="exact"), expected, rel_tol=1e-12, abs_tol=1e-15)
    pld = led.delta(math.log(3), method="pld")
    assert expected - 1e-12 <= pld <= expected + 1e-3  # pessimistic, within the discretization


def test_many_releases_epsilon_matches_binomial_root():
    _need_pld()
    led = Ledger().record(*[Release.dp(f"RR {i}", 0.1) for i in range(100)])
    assert abs(led.epsilon(1e-5, method="exact") - BINOMIAL_ROOT) < 1e-9
    assert BINOMIAL_ROOT <= led.epsilon(1e-5, method="pld") <= BINOMIAL_ROOT + 0.01


@pytest.mark.parametrize("K, k, eps", [(3, 2, 0.8), (4, 3, 0.5)])
def test_channel_composition_matches_product_enumeration(K, k, eps):
    from proofs_checks.accounting_check import product_profile

    mech = RandomizedResponse(K, eps)
    led = Ledger().record(*[Release.from_mechanism("rr", mech)] * k)
    grid = np.linspace(0, k * eps, 9)
    enum = product_profile(mech.channel_matrix(), k, grid)
    assert np.allclose([led.delta(e, method="exact") for e in grid], enum, rtol=0, atol=1e-13)


def test_asymmetric_channel_takes_the_max_after_composing():
    """Pair (0, 1) and pair (1, 2) of this channel have different profiles; the ledger composes per pair."""
    _need_pld()
    from proofs_checks.accounting_check import product_profile

    M = np.array([[0.7, 0.2, 0.1], [0.2, 0.6, 0.2], [0.1, 0.1, 0.8]])
    led = Ledger().record(*[Release.from_channel("m", M)] * 3)
    grid = np.linspace(0, 6, 13)
    enum = product_profile(M, 3, grid)
    assert np.allclose([led.delta(e, method="exact") for e in grid], enum, rtol=0, atol=1e-12)
    assert np.all([led.delta(e, method="pld") >= d - 1e-12 for e, d in zip(grid, enum)])


@pytest.mark.parametrize("a, s", [(0.4, 1), (0.3, 3), (1.1, 2)])
def test_discrete_laplace_pair_matches_integer_sum(a, s):
    """Σ_k (dlap(k) − e^{ε'} dlap(k − s))_+ over a wide integer window."""
    k = np.arange(-400, 401)
    pmf = lambda x: math.tanh(a / 2) * np.exp(-a * np.abs(x))  # noqa: E731
    led = Ledger().record(Release.discrete_laplace("d", a, (s,)))
    for e in (0.0, 0.5 * a * s, a * s):
        direct = float(np.maximum(0.0, pmf(k) - math.exp(e) * pmf(k - s)).sum())
        assert math.isclose(led.delta(e, method="exact"), direct, rel_tol=1e-12, abs_tol=1e-15)


def test_discrete_laplace_shift_one_is_binary_rr():
    a = 0.6
    d1 = Ledger().record(Release.discrete_laplace("d", a, (1,)))
    rr = Ledger().record(Release.dp("rr", a))
    for e in (0.0, 0.2, 0.6):
        assert math.isclose(d1.delta(e, method="exact"), rr.delta(e, method="exact"), rel_tol=1e-12, abs_tol=1e-15)


def test_laplace_pld_matches_closed_form():
    _need_pld()
    from proofs_checks.privacy_profile import laplace_profile

    led = Ledger().record(Release.laplace("l", 2.0, (2.0,)))  # ε = 1
    for e in (0.0, 0.3, 0.9):
        assert abs(led.delta(e) - float(laplace_profile(1.0, e))) < 1e-3
    with pytest.raises(ValueError, match="no finite pair"):
        led.delta(0.5, method="exact")


def test_vector_mechanism_channel_is_exact():
    from proofs_checks.accounting_check import product_profile

    mech = VectorMechanism(3, 1.0)
    led = Ledger().record(Release.from_mechanism("v", mech), Release.from_mechanism("v", mech))
    grid = [0.0, 0.5, 1.5]
    assert np.allclose([led.delta(e, method="exact") for e in grid], product_profile(mech.channel_matrix(), 2, grid),
                       rtol=0, atol=1e-13)


def test_rrwithprior_data_dependent_is_dominated_and_fixed_prior_is_a_channel():
    mech = RRWithPrior(4, 1.0)
    assert Release.from_mechanism("r", mech).kind == "dp"
    fixed = Release.from_mechanism("r", mech, prior=[0.5, 0.5, 0.0, 0.0])
    assert fixed.kind == "channel"
    # a two-label prior makes k* = 2: binary RR at ε, the dominating pair itself
    for e in (0.0, 0.4):
        assert math.isclose(Ledger().record(fixed).delta(e, method="exact"),
                            Ledger().record(Release.dp("d", 1.0)).delta(e, method="exact"), rel_tol=1e-12)


def test_without_dp_accounting_the_exact_fallback_serves(monkeypatch):
    def missing():
        raise ImportError(accounting.INSTALL_HINT)

    monkeypatch.setattr(accounting, "load_dp_accounting", missing)
    led = Ledger(name="x").record(Release.dp("a", math.log(3)), Release.dp("b", math.log(3)))
    assert led.to_json()["method"] == "exact"
    assert math.isclose(led.delta(math.log(3)), 0.375, rel_tol=1e-12)
    with pytest.raises(ImportError, match=r"pip install -e '\.\[accounting\]'"):
        led.delta(0.0, method="pld")
    lap = Ledger(name="l").record(Release.laplace("l", 1.0)).to_json()
    assert lap["tight_epsilon"] is None and lap["epsilon"] == 1.0


def test_to_json_is_json_and_summary_reads():
    led = Ledger(name="LP-2ST").record(Release.dp("s1", 1.0, part="stage 1"), Release.dp("s2", 1.0, part="stage 2"))
    j = json.loads(json.dumps(led.to_json()))
    assert j["composition"] == "parallel" and j["epsilon"] == 1.0 and len(j["releases"]) == 2
    assert led.summary().startswith("LP-2ST: parallel over 2 disjoint parts, ε = 1, δ = 0 (basic)")


# ----------------------------------------------------------------------------------------- catalogue / runner
def _toy_ledgers(profile):
    return (Ledger(name=f"toy {profile}").record(Release.dp("a", 0.5), Release.dp("b", 0.25)),)


def test_experiment_privacy_field_pickles_and_compares():
    e = Experiment("t", "x", compute="math:sqrt", plot="math:floor", privacy="simulations.experiments.ledgers:lp_mst_digits")
    assert pickle.loads(pickle.dumps(e)) == e
    assert e != Experiment("t", "x", compute="math:sqrt", plot="math:floor")
    with pytest.raises(ValueError, match="privacy must be"):
        Experiment("t", "x", compute="math:sqrt", plot="math:floor", privacy="no colon")


def test_runner_writes_privacy_and_report_renders_it(tmp_path):
    _need_pld()
    from simulations.experiments.runner import run_experiment, write_report

    toy = Experiment("toy", "nothing", lambda ctx: ExperimentResult(claims=[Claim("1 = 1", True, kind="paper")]),
                     lambda result: {}, privacy=_toy_ledgers)
    rec = run_experiment(toy, RunContext(profile="smoke", progress=False, figure_formats=("png",)), tmp_path)
    assert rec["privacy"][0]["epsilon"] == 0.75 and rec["privacy"][0]["composition"] == "sequential"
    report = write_report(tmp_path, {"toy": toy}).read_text()
    assert "**Privacy per label** (recorded by this run" in report
    # an output written before ledgers existed: rendered from today's declaration, and said so
    path = tmp_path / "toy" / "results.json"
    old = json.loads(path.read_text())
    del old["privacy"]
    path.write_text(json.dumps(old))
    report = write_report(tmp_path, {"toy": toy}).read_text()
    assert "rendered from today's ledger declaration: this output predates the ledger" in report
    assert "toy smoke: sequential over 2 releases, ε = 0.75" in report


def test_every_declared_ledger_builds_at_every_profile():
    _need_pld()
    import simulations.experiments  # noqa: F401  (registers the catalogue)
    from simulations.experiments.base import REGISTRY

    declared = {n: e for n, e in REGISTRY.items() if e.privacy_ref is not None}
    assert {"lp_mst_digits", "cluster_priors_digits", "metric_space_consistency", "rates_data_driven"} <= set(declared)
    for name, exp in declared.items():
        for profile in ("smoke", "quick", "paper"):
            for led in exp.privacy(profile):
                e, d = led.basic()
                assert 0 < e < math.inf and 0 <= d < 1e-5, (name, led.name)


def test_declared_totals_read_from_the_pipelines():
    from simulations.experiments import ledgers

    lp = {led.name: led for led in ledgers.lp_mst_digits("quick")}
    assert lp["LP-3ST, ε = 1"].parts == ("stage 1", "stage 2", "stage 3", "validation")
    cp = ledgers.cluster_priors_digits("quick")[-1]
    assert cp.groups()["training"][0].kind == "discrete_laplace" and math.isclose(cp.basic()[0], 1.0, rel_tol=1e-12)
    pcl2 = {led.name: led.basic() for led in ledgers.metric_space_consistency("quick")}
    assert pcl2["PCL2b under label DP"] == (1.0, 1e-6) and pcl2["PCL2b under 001's full DP"] == (2.0, 2e-6)
    central = ledgers.rates_data_driven("quick")[1]
    assert central.composition == "parallel and sequential"
    assert math.isclose(central.basic()[0], 5e-8, rel_tol=1e-9)  # max(ε_fit, ε_select) = ε / 2, not ε
