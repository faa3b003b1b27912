"""The tests that compare two implementations pass whatever SIMD code numpy and OpenBLAS pick (issue 19).

A comparison between two implementations (numba vs numpy, scipy's kd-tree vs brute force, torch vs numpy)
is a contract only if it holds on every CPU: numpy dispatches vectorized loops (log1p, exp, arccos, tanh,
float32 functions ...) by the CPU's instruction set, and OpenBLAS picks its kernels, hence its summation
order, the same way. This module re-runs those tests in a subprocess with every dispatched numpy target
that this CPU enables switched off (``NPY_DISABLE_CPU_FEATURES``; numpy refuses to disable its baseline,
so that is the most it allows). Together with the normal run this executes them on two instruction sets.
OpenBLAS's kernel choice is left alone (``OPENBLAS_CORETYPE`` is set on some machines to avoid known
OpenBLAS faults and must not be changed by tests): comparisons that go through BLAS assert a stated
summation-error bound instead. The subprocess first reports numpy's
``__cpu_features__`` so the test checks that the switch took effect.

Not re-run here (to stay within ~20 s): tests/simulations/test_torch_path.py (importing torch alone takes
seconds; its cross-implementation arg-max asserts its own no-near-tie margin).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# every test that compares two implementations of one computation (tests/_ulp.py explains the bounds)
NODES = [
    "tests/simulations/test_pcl_cubes.py::test_keyed_uniform_is_splitmix64_bit_for_bit",
    "tests/simulations/test_pcl_cubes.py::test_keyed_laplace_numba_is_the_one_implementation",
    "tests/simulations/test_pcl_cubes.py::test_keyed_laplace_numba_equals_numpy_within_ulp",
    "tests/simulations/test_pcl_cubes.py::test_keyed_laplace_against_correctly_rounded_values",
    "tests/simulations/test_pcl_cubes.py::test_lazy_equals_eager_bit_for_bit",
    "tests/simulations/test_pcl_cubes.py::test_cube_votes_match_numpy",
    "tests/simulations/test_estimators.py::test_kernels_equal_numpy_references",
    "tests/simulations/test_estimators.py::test_neighbour_mean_equals_reference",
    "tests/simulations/test_input_guards.py::test_kernels_edges_unchanged",
    "tests/simulations/test_vector_knn.py::test_kernels_bit_for_bit",
    "tests/simulations/test_vector_knn.py::test_fast_trial_equals_plain_reference",
    "tests/simulations/test_grid_knn.py::test_same_neighbours_as_kdtree",
    "tests/simulations/test_grid_knn.py::test_brute_force_and_k_equal_N",
    "tests/simulations/test_line_knn.py::test_same_neighbours_in_the_same_order_as_the_kd_tree",
    "tests/simulations/test_line_knn.py::test_knn_regressors_on_the_line_predict_exactly_what_the_tree_gives",
    "tests/simulations/test_local_mechanisms.py::test_k_star_is_algorithm2",
    "tests/simulations/test_metric_pcl2.py::test_sphere_assignment_is_nearest_centre",
    "tests/simulations/test_private_sgd.py::test_kernel_matches_numpy_oracle",
    "tests/simulations/test_lp_mst.py::test_soft_knn_matches_brute_force_and_indexed_version",
    "tests/proofs_checks/test_dp_local.py::test_exact_rr",
    "tests/proofs_checks/test_dp_local.py::test_exact_rr_top_k_and_with_prior",
]

_PROBE = ("import json\n"
          "try:\n    from numpy._core import _multiarray_umath as m\n"
          "except ImportError:\n    from numpy.core import _multiarray_umath as m\n"
          "print(json.dumps({k: bool(v) for k, v in m.__cpu_features__.items()}))\n")


def _umath():
    try:
        from numpy._core import _multiarray_umath as m  # numpy >= 2
    except ImportError:  # numpy 1.x
        from numpy.core import _multiarray_umath as m
    return m


def enabled_dispatch_targets() -> list[str]:
    """numpy's dispatch targets beyond its baseline that this CPU enables (the ones that can be disabled)."""
    m = _umath()
    features = m.__cpu_features__
    return [t for t in getattr(m, "__cpu_dispatch__", []) if features.get(t, False)]


def _env(disable: list[str]) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("NPY_ENABLE_CPU_FEATURES", None)  # numpy rejects both variables together
    env["NPY_DISABLE_CPU_FEATURES"] = " ".join(disable)
    return env


def test_node_ids_exist():
    # a renamed test would otherwise drop out of the subprocess run silently (pytest errors on an unknown
    # node id, but only inside the subprocess, which is skipped on CPUs without dispatch targets)
    for node in NODES:
        path, _, name = node.partition("::")
        assert f"def {name}(" in (ROOT / path).read_text(encoding="utf-8"), node


def test_cross_implementation_tests_pass_with_numpy_simd_dispatch_disabled():
    disable = enabled_dispatch_targets()
    if not disable:
        pytest.skip("no numpy dispatch target beyond the baseline is enabled in this process (none on this CPU, "
                    "or NPY_DISABLE_CPU_FEATURES already set): this run is the baseline run")
    env = _env(disable)
    probe = subprocess.run([sys.executable, "-W", "error::ImportWarning", "-c", _PROBE], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
    assert probe.returncode == 0, probe.stderr
    after = json.loads(probe.stdout.strip().splitlines()[-1])
    assert not any(after.get(t, False) for t in disable), f"NPY_DISABLE_CPU_FEATURES={disable} had no effect: {after}"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *NODES], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, (f"with NPY_DISABLE_CPU_FEATURES={env['NPY_DISABLE_CPU_FEATURES']!r}:\n"
                                 f"{run.stdout[-6000:]}\n{run.stderr[-3000:]}")


def test_enabled_dispatch_targets_reads_numpy():
    # the list is what numpy reports: a subset of its dispatch targets, each enabled on this CPU
    m = _umath()
    got = enabled_dispatch_targets()
    assert set(got) <= set(getattr(m, "__cpu_dispatch__", []))
    assert all(m.__cpu_features__[t] for t in got)
    assert not set(got) & set(getattr(m, "__cpu_baseline__", []))
