"""The Examples sections of ``limits``, ``simulations`` and ``proofs_checks`` run as doctests.

``python -m pytest --doctest-modules limits simulations proofs_checks`` runs the same examples; this
test puts them in the suite's default run (``testpaths = ["tests"]``) without changing the pytest
options, one test per module. The expected numbers in the examples come from the papers' closed forms
or exact arithmetic (e.g. ``minimax_rate`` of the local classification cell of 003 Table 1 at
N = 10^6, β = γ = 1, d = 2, ε = 1 is (10^6)^(-1/2) = 0.001; randomized response's exact ε is the
log-ratio of its channel, 004 eq. (1)), never from the code's own output.

Modules that need an optional extra (``simulations.torch_path`` needs torch) are skipped when the
extra is missing, with the reason.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

PACKAGES = ("limits", "simulations", "proofs_checks")
#: module prefix -> (the import it needs, the extra that installs it)
OPTIONAL = {"simulations.torch_path": ("torch", "torch"),
            "proofs_checks.experiments.label_dp_accounting": ("dp_accounting", "accounting")}


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        mod = importlib.import_module(package)
        names.append(package)
        names += [m.name for m in pkgutil.walk_packages(mod.__path__, f"{package}.")]
    return sorted(names)


@pytest.mark.parametrize("modname", _modules())
def test_examples_run(modname):
    for prefix, (needs, extra) in OPTIONAL.items():
        if modname.startswith(prefix) and importlib.util.find_spec(needs) is None:
            pytest.skip(f"{modname} needs the optional {needs!r} (pip install '.[{extra}]')")
    mod = importlib.import_module(modname)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(mod, modname):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples failed in {modname}"
