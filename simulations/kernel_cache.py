"""Compile every cached numba kernel of the suite once, ahead of the processes that call them.

Each kernel is ``@numba.njit(cache=True)``: the first process that calls it with a given signature
compiles it (0.3-2 s of CPU each) and writes the machine code next to its module, in
``__pycache__``; later processes load it from there (DESIGN.md, performance notes). In a fresh
clone there is no such file, so the processes that start together (the test suite's xdist workers,
the runner's loky workers) each compile what they call, and each pays the compile time on its own
critical path. :func:`compile_cached_kernels` does it once, before they start: the test suite's
controller calls it (``tests/conftest.py``) and the workers then only load.

:data:`KERNELS` lists each top-level cached kernel with the signatures the library calls it with:
the public wrappers convert their inputs to these dtypes and C-contiguous layouts, so these are the
signatures the suite compiles (read from numba's ``Dispatcher.signatures`` after a full test run).
Kernels only called from other kernels (``_cell``, ``_splitmix``, ``_add_cell``) are compiled into
their callers. ``tests/simulations/test_kernel_cache.py`` checks that every cached kernel of the
package is listed, so a new kernel cannot be forgotten here.
"""

from __future__ import annotations

import importlib

from numba import types

__all__ = ["KERNELS", "compile_cached_kernels"]

_f8, _i8, _u8, _b1 = types.float64, types.int64, types.uint64, types.boolean


def _a(dtype, ndim):
    """C-contiguous array type: what the wrappers' ``np.ascontiguousarray`` produces."""
    return types.Array(dtype, ndim, "C")


_F1, _F2, _I1, _I2 = _a(_f8, 1), _a(_f8, 2), _a(_i8, 1), _a(_i8, 2)

#: (module, kernel name, argument-type tuples): the cached kernels the library calls directly.
KERNELS = (
    ("simulations.kernels", "_bin_index", [(_F2, _i8)]),
    ("simulations.kernels", "_bin_label_counts", [(_F2, _i8, _I1, _i8)]),
    ("simulations.kernels", "_bin_row_sums", [(_F2, _i8, _a(types.uint8, 2))]),
    ("simulations.kernels", "_bin_value_sums", [(_F2, _i8, _F1)]),
    ("simulations.kernels", "_neighbour_mean", [(_F1, _I2)]),
    ("simulations.kernels_knn", "_label_counts", [(_I1, _I2, _i8)]),
    ("simulations.kernels_knn", "_row_sums", [(_a(types.uint8, 2), _I2, _I2), (_F2, _I2, _F2)]),
    ("simulations.kernels_cells", "_keyed_uniform", [(_u8, _I1, _F1)]),
    ("simulations.kernels_cells", "_keyed_laplace", [(_u8, _I1, _f8, _F1)]),
    ("simulations.kernels_cells", "_first_outside_unit", [(_F1,)]),
    ("simulations.kernels_cells", "_cube_votes", [(_F2, _I1, _f8, _i8, _I1, _I1)]),
    ("simulations.estimators.grid_knn", "_bucket", [(_F2, _f8, _f8, _f8, _i8, _i8)]),
    ("simulations.estimators.grid_knn", "_query", [(_F2, _i8, _I1, _F2, _I1, _f8, _f8, _f8, _i8, _i8, _b1)]),
    ("simulations.estimators.line_knn", "_walk", [(_F1, _I1, _F1, _i8, _I2, _F2, _F1, _F1)]),
    ("simulations.estimators.line_knn_path", "_window_means", [(_F1, _F1, _F1, _I1, _F2)]),
    ("simulations.estimators.line_knn_path", "_window_means_search", [(_F1, _F1, _F1, _I1, _F2)]),
    ("simulations.laws.consistency", "_cos_product", [(_F2, _F1)]),
    ("simulations.laws.consistency", "_fine_cell_values", [(_F2, _i8, _F1)]),
    ("simulations.learning.collaborative", "_sparse_adam_rows",
     [(_F2, _F2, _F2, _I1, _F2, _f8, _f8, _f8, _f8, _f8, _I1, _I1, _F2)]),
    ("simulations.learning.private_sgd", "_sgd_kernel", [(_F2, _I1, _F2, _F1, _i8, _f8, _f8, _F2)]),
    ("simulations.learning.soft_knn", "_first_fitted", [(_I2, _I1, _a(_b1, 1), _i8, _I2)]),
)


def compile_cached_kernels(part: int = 0, parts: int = 1) -> int:
    """Compile (or load from numba's cache) every signature of :data:`KERNELS`.

    ``Dispatcher.compile`` first looks in the on-disk cache and writes what it compiles there,
    so after this call any process loads these kernels instead of compiling them.

    Parameters
    ----------
    part, parts : int
        Compile only the kernels at positions ``part, part + parts, ...`` of :data:`KERNELS`
        (``0 <= part < parts``), so that ``parts`` processes can share the work.

    Returns
    -------
    int
        The number of signatures compiled or loaded.

    Raises
    ------
    ValueError
        If ``parts < 1`` or ``part`` is not in ``[0, parts)``.

    Examples
    --------
    >>> compile_cached_kernels(part=2, parts=1)
    Traceback (most recent call last):
    ...
    ValueError: part must be in [0, parts=1), got part=2
    """
    if isinstance(parts, bool) or not isinstance(parts, int) or parts < 1:
        raise ValueError(f"parts must be an integer >= 1, got parts={parts!r}")
    if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part < parts:
        raise ValueError(f"part must be in [0, parts={parts}), got part={part!r}")
    n = 0
    for module, name, signatures in KERNELS[part::parts]:
        kernel = getattr(importlib.import_module(module), name)
        for sig in signatures:
            kernel.compile(sig)
            n += 1
    return n
