"""PyPI's rate-limiting ``limits`` installed beside the suite is caught with a clear ImportError (issue 40 item 7).

A site folder is laid out as pip leaves it in each state of the clash, with a copy of the suite's ``limits``
package (and links to its other packages) and a stand-in for the other distribution's files and metadata
(``limits-3.13.0.dist-info`` with its ``RECORD``); a fresh interpreter with that folder as its path then imports
the suite:

* the other package installed after the suite (its ``__init__.py`` over the suite's);
* the suite installed after it (the suite's ``__init__.py``, the other package's modules and metadata beside);
* the other package uninstalled after it had written over the suite's ``__init__.py`` (no ``__init__.py`` left);
* and, as the control, the suite's package alone, which imports and works.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THEIRS_INIT = '"""Rate limiting utilities (a stand-in for PyPI\'s `limits`)."""\nfrom .strategies import FixedWindow\n'


def _site(tmp_path: Path, *, init: str, other_installed: bool) -> Path:
    site = tmp_path / "site"
    shutil.copytree(ROOT / "limits", site / "limits", ignore=shutil.ignore_patterns("__pycache__"))
    for other in ("simulations", "proofs_checks", "paper_repro.py"):  # as an install leaves them (unchanged here)
        (site / other).symlink_to(ROOT / other)
    if init == "theirs":
        (site / "limits" / "__init__.py").write_text(THEIRS_INIT)
    elif init == "none":
        (site / "limits" / "__init__.py").unlink()
    if other_installed:
        (site / "limits" / "strategies.py").write_text("class FixedWindow:\n    pass\n")
        info = site / "limits-3.13.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: limits\nVersion: 3.13.0\n")
        (info / "RECORD").write_text("limits/__init__.py,,\nlimits/strategies.py,,\n"
                                     "limits-3.13.0.dist-info/METADATA,,\nlimits-3.13.0.dist-info/RECORD,,\n")
        (info / "top_level.txt").write_text("limits\n")
    return site


def _python(site: Path, code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run([sys.executable, "-c", code], cwd=site, env=env, capture_output=True, text=True, timeout=120)


def _import_error(done: subprocess.CompletedProcess) -> str:
    assert done.returncode != 0, done.stdout
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: the package `limits` at "), done.stderr[-2000:]
    assert "pip uninstall limits" in last and "dedicated virtual environment" in last
    return last


def test_the_suite_alone_imports(tmp_path):
    site = _site(tmp_path, init="ours", other_installed=False)
    done = _python(site, "import simulations, proofs_checks, limits; print(limits.__file__); "
                         "print(limits.minimax_rate('regression', 'central', N=1e4, epsilon=1.0, beta=1, d=1))")
    assert done.returncode == 0, done.stderr[-2000:]
    path, rate = done.stdout.split()
    assert path == str(site / "limits" / "__init__.py")  # the copy, not the checkout
    assert float(rate) > 0


@pytest.mark.parametrize("entry", ["import simulations", "import proofs_checks",
                                   "import runpy, sys; sys.argv = ['paper_repro.py', '--list']; "
                                   "runpy.run_path('paper_repro.py', run_name='__main__')"])
def test_the_other_package_over_the_suite(tmp_path, entry):
    site = _site(tmp_path, init="theirs", other_installed=True)
    last = _import_error(_python(site, entry))
    assert "its __init__.py belongs to another package" in last and "limits 3.13.0" in last


def test_the_suite_over_the_other_package(tmp_path):
    site = _site(tmp_path, init="ours", other_installed=True)
    last = _import_error(_python(site, "import limits"))
    assert "another distribution is installed into the same folder (limits-3.13.0.dist-info)" in last
    assert "limits 3.13.0" in last


def test_left_over_after_the_other_package_was_uninstalled(tmp_path):
    site = _site(tmp_path, init="none", other_installed=False)
    last = _import_error(_python(site, "import simulations"))
    assert "it has no __init__.py" in last and "No installed distribution other than the suite claims it" in last
