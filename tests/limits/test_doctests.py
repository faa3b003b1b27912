"""The Examples sections of ``limits`` run as doctests and show what the code prints.

``python -m pytest --doctest-modules limits`` runs the same examples; this test puts them in the
suite's default run (``testpaths = ["tests"]``) without changing the pytest options. The expected
numbers in the examples are closed forms of 003 checked by hand (e.g. ``minimax_rate`` of the local
classification cell at N = 10^6, β = γ = 1, d = 2, ε = 1 is (10^6)^(-1/2) = 0.001).
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import limits


def _modules():
    names = ["limits"] + [m.name for m in pkgutil.walk_packages(limits.__path__, "limits.")]
    return sorted(names)


@pytest.mark.parametrize("modname", _modules())
def test_examples_run(modname):
    mod = importlib.import_module(modname)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(mod, modname):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples failed in {modname}"
