"""The lazy experiment registry (issue 19: ``paper_repro.py --list`` must not import everything).

Speed is tested by its deterministic proxy, what gets imported (no timed tests): listing the
catalogues, and ``paper_repro.py --list``, in a fresh interpreter, must not load the heavy
dependencies nor any topic module. The catalogues are checked against the records as they were
registered by the topic modules before (names, orders; ``--list`` text is covered by
``reproduces``), and every ``"module:function"`` reference must resolve to a function its module defines.
"""

from __future__ import annotations

import importlib
import json
import pickle
import subprocess
import sys
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

import proofs_checks.experiments  # noqa: F401  (adds the checks' experiments to REGISTRY)
from proofs_checks.experiments import catalogue as checks_catalogue
from simulations.experiments import REGISTRY, Experiment
from simulations.experiments import catalogue as sim_catalogue
from simulations.experiments.base import resolve_reference

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = sim_catalogue.EXPERIMENTS + checks_catalogue.EXPERIMENTS

HEAVY = ("numpy", "scipy", "scipy.stats", "sympy", "matplotlib", "matplotlib.pyplot", "torch", "cvxpy", "numba",
         "limits", "joblib", "dask")
LIGHT = {"simulations", "simulations.experiments", "simulations.experiments.base", "simulations.experiments.catalogue",
         "proofs_checks", "proofs_checks.experiments", "proofs_checks.experiments.catalogue",
         "simulations.experiments.board", "simulations.outputs"}  # --list counts the committed claims by kind

# name -> report order, as the topic modules registered them before the catalogues existed
ORDERS = {
    "rates_table": 0, "rates_local_classification": 20, "rates_central_classification": 21,
    "rates_local_regression": 22, "rates_central_regression": 23, "rates_heavy_tailed": 24,
    "rates_eps_collapse": 25, "rates_local_vs_central": 26, "rates_upper_bound": 27,
    "vector_fig2": 60, "vector_fig3": 61, "vector_fig4": 62, "vector_theorem2": 63,
    "vector_nn_approximation": 64, "vector_crossover": 64,
    "advisor_validation": 65,
    "bayes_consistency": 60, "thresholds_contrast": 61, "private_density_estimation": 62,
    "metric_space_consistency": 63, "lp_mst_digits": 60, "lp_mst_dynamics": 61, "cluster_priors_digits": 61, "lp_rr_sgd": 62, "debiased_erm_topk": 62, "prior_quality_sgd": 62,
    "cnn_benchmarks": 65, "movielens_table3": 66,
    "dp_checks": 20, "rrwithprior_lp": 60, "approx_dp_randomizer": 61, "proof_checks": 90, "third_party_audit": 65,
    "lp_mst_privacy": 63, "full_dp_checks": 64, "label_dp_accounting": 66,
    "rates_lower_bounds": 30, "lemma_tests_lp": 31, "rates_local_full_dp": 24,
    "rates_data_driven": 28, "rates_k_gamma": 29,
    "remark18_classifier": 64, "delta_decaying": 64, "pcde_error_terms": 62,
    "semi_supervised_learning": 64, "semi_supervised_halfplanes": 64,
    "stability_histogram_accuracy": 64, "pcl2_partition_conditions": 65,
    "sgd_lower_bounds": 62,
    "pcl_partition_conditions": 65,
}


def _fresh(script: str) -> dict:
    """Run ``script`` in a fresh interpreter (repository root as working folder); it prints one JSON line."""
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


_LOADED = """
import json, sys
print(json.dumps({"heavy": sorted(m for m in %r if m in sys.modules),
                  "ours": sorted(m for m in sys.modules
                                 if m.split(".")[0] in ("simulations", "proofs_checks", "limits")),
                  "listed": LISTED}))
""" % (HEAVY,)


def test_listing_the_catalogues_imports_nothing_heavy():
    """(a) The deterministic proxy of ``--list``'s speed: names and texts without numpy, sympy, scipy,
    matplotlib, numba, torch, cvxpy, and without any topic module."""
    got = _fresh(
        "import proofs_checks.experiments\n"
        "from simulations.experiments import REGISTRY\n"
        "LISTED = [f'{e.name:32s} {e.reproduces}'\n"
        "          for e in sorted(REGISTRY.values(), key=lambda e: (e.order, e.name))]\n"
        + _LOADED)
    assert got["heavy"] == []
    assert set(got["ours"]) <= LIGHT, sorted(set(got["ours"]) - LIGHT)
    assert len(got["listed"]) == len(ORDERS)


def test_paper_repro_list_imports_nothing_heavy():
    """The same through the command itself: ``paper_repro.py --list`` (its output is the catalogues')."""
    got = _fresh(
        "import contextlib, io, runpy, sys\n"
        "buf = io.StringIO()\n"
        f"sys.argv = ['paper_repro.py', '--list']\n"
        "with contextlib.redirect_stdout(buf):\n"
        f"    try:\n        runpy.run_path({str(ROOT / 'paper_repro.py')!r}, run_name='__main__')\n"
        "    except SystemExit as exc:\n        assert not exc.code, exc.code\n"
        "LISTED = buf.getvalue().splitlines()\n"
        + _LOADED)
    assert got["heavy"] == []
    assert set(got["ours"]) <= LIGHT, sorted(set(got["ours"]) - LIGHT)
    expected = [f"{e.name:32s} {e.reproduces}" for e in sorted(CATALOGUE, key=lambda e: (e.order, e.name))]
    assert [line for line in got["listed"] if not line.startswith(" ")] == expected
    counts = [line.strip() for line in got["listed"] if line.startswith(" ")]  # one per committed output
    have = sum((ROOT / "figures" / e.name / "results.json").is_file() for e in CATALOGUE)
    assert len(counts) == have and all(c.startswith("in figures: ") for c in counts), counts[:3]


@pytest.mark.parametrize("exp", CATALOGUE, ids=lambda e: e.name)
def test_every_reference_resolves_to_a_function_its_module_defines(exp):
    """(b) ``compute`` / ``plot`` are imported on access and are the module's own functions."""
    for ref, fn in ((exp.compute_ref, exp.compute), (exp.plot_ref, exp.plot)):
        assert isinstance(ref, str)
        module_name, _, attr = ref.partition(":")
        module = importlib.import_module(module_name)
        assert callable(fn) and fn is getattr(module, attr)
        assert fn.__module__ == module_name and fn.__qualname__ == attr  # defined there, not imported or nested
    layer = "simulations" if exp in sim_catalogue.EXPERIMENTS else "proofs_checks"
    assert exp.compute_ref.startswith(f"{layer}.experiments.")  # each layer lists its own experiments


def test_names_unique_orders_as_before_and_registry_is_the_catalogues():
    """(c) One record per name, the report orders unchanged, REGISTRY holds exactly the catalogue records."""
    names = [e.name for e in CATALOGUE]
    assert len(names) == len(set(names))
    assert {e.name: e.order for e in CATALOGUE} == ORDERS
    assert {n: e for n, e in REGISTRY.items() if n in ORDERS} == {e.name: e for e in CATALOGUE}
    assert all(REGISTRY[e.name] is e for e in CATALOGUE)


@pytest.mark.parametrize("fig", [2, 3, 4])
def test_vector_figure_texts_follow_their_parameters(fig):
    """The catalogue spells out what vector_approx's (ε, k) per figure give, so they cannot drift apart."""
    from simulations.experiments.vector import approximation as va

    exp = REGISTRY[f"vector_fig{fig}"]
    assert exp.reproduces == va.figure_reproduces(fig)
    assert exp.compute is getattr(va, f"compute_fig{fig}") and exp.plot is getattr(va, f"plot_fig{fig}")


# --------------------------------------------------------------------------------------- Experiment
def _compute(ctx):
    return ctx


def _plot(result):
    return {}


def test_experiment_with_callables_works_as_before():
    exp = Experiment("toy", "x", _compute, _plot)
    assert exp.compute is _compute and exp.plot is _plot and exp.order == 100
    assert exp.compute(3) == 3 and exp.plot(None) == {}
    assert Experiment(name="toy", reproduces="x", compute=_compute, plot=_plot, order=100) == exp
    with pytest.raises(FrozenInstanceError):
        exp.name = "other"
    with pytest.raises(FrozenInstanceError):
        exp.compute = _plot


def test_experiment_reference_is_resolved_once_on_access():
    ref = f"{__name__}:_compute"
    exp = Experiment("toy", "x", ref, f"{__name__}:_plot", order=5)
    assert exp.compute_ref == ref and "compute='" in repr(exp)
    assert exp.compute is _compute and exp.compute is exp.compute and exp.plot is _plot
    assert resolve_reference(ref) is _compute
    assert hash(exp) == hash(Experiment("toy", "x", ref, f"{__name__}:_plot", order=5))
    assert pickle.loads(pickle.dumps(exp)) == exp


@pytest.mark.parametrize("bad, error", [
    (None, TypeError), (3, TypeError), ("", ValueError), ("no_colon", ValueError), (":f", ValueError),
    ("pkg.mod:", ValueError), ("pkg..mod:f", ValueError), ("pkg.mod:f.g", ValueError), ("pkg mod:f", ValueError),
])
def test_experiment_refuses_what_is_neither_callable_nor_reference(bad, error):
    with pytest.raises(error, match="compute must be a callable or a 'package.module:function' string"):
        Experiment("toy", "x", bad, _plot)


def test_bad_reference_fails_on_use_not_on_listing():
    exp = Experiment("toy", "x", "simulations.experiments.no_such_topic:compute", f"{__name__}:_plot")
    assert exp.name == "toy"
    with pytest.raises(ImportError):
        exp.compute
    with pytest.raises(AttributeError):
        Experiment("toy", "x", f"{__name__}:no_such_function", _plot).compute
    with pytest.raises(TypeError, match="must name a callable"):
        Experiment("toy", "x", f"{__name__}:ROOT", _plot).compute


# ------------------------------------------------------------------------------ lazy proofs_checks
def test_proofs_checks_package_is_lazy_and_its_names_resolve():
    """``import proofs_checks`` loads nothing; every name of ``__all__`` resolves on access; the three
    functions named like their submodule stay functions after the submodule is imported; a suite
    mechanism imported straight from ``proofs_checks.dp`` still reaches its registered exact checker."""
    got = _fresh(
        "import json, sys, types\n"
        "import proofs_checks\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('proofs_checks.') or m in ('numpy', 'sympy'))\n"
        "import proofs_checks.findings, proofs_checks.privacy_profile, proofs_checks.rrwithprior_lp\n"
        "from proofs_checks.dp import check_label_dp\n"
        "from simulations.mechanisms import RandomizedResponse\n"
        "res = check_label_dp(RandomizedResponse(num_classes=4, epsilon=1.0), 1.0)\n"
        "import proofs_checks as pc\n"
        "from proofs_checks import findings, privacy_profile, rrwithprior_lp\n"
        "print(json.dumps({'loaded': loaded,\n"
        "  'modules': sorted(n for n in pc.__all__ if isinstance(getattr(pc, n), types.ModuleType)),\n"
        "  'from_import': [f.__module__ for f in (findings, privacy_profile, rrwithprior_lp)],\n"
        "  'dir': set(pc.__all__) <= set(dir(pc)),\n"
        "  'method': res.method, 'holds': bool(res.holds), 'submodule': pc.dp.__name__}))\n")
    assert got["loaded"] == []
    assert got["modules"] == []
    assert got["from_import"] == ["proofs_checks.findings", "proofs_checks.privacy_profile",
                                  "proofs_checks.rrwithprior_lp"]
    assert got["dir"] and got["submodule"] == "proofs_checks.dp"
    assert got["holds"] and got["method"].startswith("exact enumeration of the K x K channel")


def test_proofs_checks_all_is_unchanged():
    import proofs_checks

    assert sorted(proofs_checks.__all__) == sorted([
        "PLANTED_BUGS_CENTRAL", "AuditResult", "DPCheckResult", "ProofCheck", "all_checks", "audit_epsilon",
        "audit_label_randomizer", "check_channel", "check_label_dp", "findings", "is_tight", "max_privacy_loss",
        "privacy_loss_witness", "privacy_profile", "rrwithprior_lp", "rrwithprior_value", "run_check",
        "stability_profile", "UtilityGap", "audit_label_sampler", "utility_gap", "check_prior_channel",
        "max_event_privacy_loss"])
    for name in proofs_checks.__all__:
        value = getattr(proofs_checks, name)
        assert getattr(value, "__name__", name) == name or name.isupper()
