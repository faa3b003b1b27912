"""simulations.kernel_cache: the list of cached numba kernels that the test suite's controller compiles
before the xdist workers start (tests/conftest.py).

The list must name every cached kernel of the package (else a fresh clone's workers compile the
missing one themselves), each signature must fit its kernel, and the signatures must be the ones the
public wrappers call the kernels with (else the workers compile another specialization). The last
point is checked by recording, with a stand-in for each kernel, the numba types of the arguments
that the wrappers pass on small inputs.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

import simulations
from simulations.kernel_cache import KERNELS, compile_cached_kernels

# Called only from other kernels, which are compiled (and cached) with their callees inside them.
CALLED_FROM_KERNELS = {("simulations.estimators.grid_knn", "_add_cell")}


def _cached_dispatchers():
    """(module, name) -> dispatcher of every ``@njit(cache=True)`` function defined in simulations/."""
    root = Path(simulations.__file__).parent
    found = {}
    for path in sorted(root.rglob("*.py")):
        if "njit" not in path.read_text(encoding="utf-8"):
            continue
        module = ".".join(("simulations",) + path.relative_to(root).with_suffix("").parts)
        for name, obj in vars(importlib.import_module(module)).items():
            if (isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == module
                    and type(obj._cache).__name__ != "NullCache"):
                found[(module, name)] = obj
    return found


def test_every_cached_kernel_is_listed():
    found = _cached_dispatchers()
    assert len(found) >= 20  # the walk did find the package's kernels
    listed = {(m, n) for m, n, _ in KERNELS}
    inlined = {key for key, d in found.items() if d.targetoptions.get("inline") == "always"}
    assert set(found) - inlined - CALLED_FROM_KERNELS == listed
    for module, name in CALLED_FROM_KERNELS:  # really only called from a listed kernel
        assert any(name in found[key].py_func.__code__.co_names for key in listed if key[0] == module)


@pytest.mark.parametrize("module, name, signatures", KERNELS, ids=[n for _, n, _ in KERNELS])
def test_signatures_fit_their_kernel(module, name, signatures):
    kernel = getattr(importlib.import_module(module), name)
    assert signatures and len(set(signatures)) == len(signatures)
    for sig in signatures:
        assert len(sig) == kernel.py_func.__code__.co_argcount


@pytest.fixture
def recorded(monkeypatch):
    """Replace every listed kernel by a stand-in that records the numba types of its arguments (after
    compiling them all: a kernel that calls another one, as ``_keyed_laplace`` calls ``_keyed_uniform``,
    must be compiled against the real one)."""
    compile_cached_kernels()
    calls = []
    for module, name, _ in KERNELS:
        kernel = getattr(importlib.import_module(module), name)

        def stand_in(*args, _kernel=kernel, _key=(module, name)):
            calls.append((_key, tuple(numba.typeof(a) for a in args)))
            return _kernel(*args)

        monkeypatch.setattr(importlib.import_module(module), name, stand_in)
    return calls


def test_wrappers_call_the_listed_signatures(recorded):
    from simulations import kernels, kernels_cells, kernels_knn
    from simulations.estimators.grid_knn import GridIndex
    from simulations.estimators.line_knn import LineIndex
    from simulations.estimators.line_knn_path import line_knn_means

    rng = np.random.default_rng(0)
    X = rng.random((40, 2))
    labels = rng.integers(0, 3, 40)
    idx = rng.integers(0, 40, (5, 4))
    kernels.bin_index(X, 4)
    kernels.bin_label_counts(X, 4, labels, 3)
    kernels.bin_row_sums(X, 4, (rng.random((40, 3)) < 0.5).astype(np.uint8))  # Z of the vector mechanism
    kernels.bin_value_sums(X.tolist(), 4, labels)  # lists and integer values are converted
    kernels.neighbour_mean(labels, idx)
    kernels_knn.neighbour_label_counts(labels.astype(np.int32), idx.astype(np.int32), 3)
    for V in (rng.random((40, 3)) < 0.5, (rng.random((40, 3)) < 0.5).astype(np.uint8), rng.random((40, 3))):
        kernels_knn.neighbour_row_sums(V, idx)
    kernels_cells.keyed_uniform(7, [1, 2])
    kernels_cells.keyed_laplace(7, [1, 2], 0.5)
    kernels_cells.first_outside_unit_cube(X)
    kernels_cells.cube_votes(X, labels % 2, 0.25, 4)
    GridIndex(X, 3).query(X[:5], 3)
    LineIndex(X[:, 0]).query(X[:5, :1], 3)
    LineIndex(X[:, 0]).neighbour_mean(X[:5, 0], 3, X[:, 1])
    line_knn_means(X[:, :1], X[:, 1], X[:2, 0], np.array([1, 3]))
    line_knn_means(X[:, :1], X[:, 1], X[:, 0], np.array([1, 3]))
    listed = {(m, n): set(sigs) for m, n, sigs in KERNELS}
    assert {key for key, _ in recorded} >= {("simulations.kernels", "_bin_index"),
                                            ("simulations.kernels_knn", "_row_sums"),
                                            ("simulations.estimators.grid_knn", "_query"),
                                            ("simulations.estimators.line_knn", "_walk")}
    for key, types in recorded:
        assert types in listed[key], (key, types)


def test_compile_cached_kernels_compiles_a_share():
    first = KERNELS[0]
    assert compile_cached_kernels(0, len(KERNELS)) == len(first[2])
    kernel = getattr(importlib.import_module(first[0]), first[1])
    assert set(first[2]) <= set(kernel.signatures)


@pytest.mark.parametrize("part, parts", [(0, 0), (1, 1), (-1, 2), (0, 1.0), (True, 2)])
def test_bad_share_is_refused(part, parts):
    with pytest.raises(ValueError, match="part"):
        compile_cached_kernels(part, parts)

