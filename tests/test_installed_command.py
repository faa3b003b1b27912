"""The installed command (issue 40 item 6): a wheel installed into a fresh virtual environment gives
``labeldp-repro``, which runs the same command line as ``paper_repro.py`` from a folder outside the repository,
and its provenance records the package version (and no commit: an installed wheel is not a checkout).

The wheel is built once from a copy of the sources (``pip wheel --no-deps``, with build isolation as the README's
install does, so its build backend comes from the same index), installed with ``--no-deps`` into a new venv that
sees this interpreter's installed dependencies through a ``.pth`` line (nothing else is installed, and the test
stays within seconds). Marked slow.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("limits", "simulations", "proofs_checks", "paper_repro.py", "pyproject.toml", "README.md")

pytestmark = pytest.mark.slow


def _clean_env() -> dict:
    """This environment without PYTHONPATH (a checkout on it would look installed to pip and shadow the wheel)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_XDIST_WORKER")}


def _run(args, **kw):
    kw.setdefault("env", _clean_env())
    return subprocess.run(args, capture_output=True, text=True, timeout=300, **kw)


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """A fresh venv with the suite's wheel installed (not editable); yields its bin folder."""
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / name, src / name)
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(src)])
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (base / "dist").glob("labeldp_suite-*.whl")
    env_dir = base / "venv"
    made = _run([sys.executable, "-m", "venv", str(env_dir)])
    assert made.returncode == 0, made.stderr
    py = env_dir / "bin" / "python"
    purelib = _run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    # the dependencies: this interpreter's site-packages, appended after the venv's own (plain path lines: the
    # .pth files there, such as an editable install of the suite, are not processed)
    deps = [p for p in {*site.getsitepackages(), sysconfig.get_paths()["purelib"]} if Path(p).is_dir()]
    Path(purelib, "labeldp_test_deps.pth").write_text("\n".join(deps) + "\n")
    installed = _run([str(py), "-m", "pip", "install", "--no-deps", "-q", str(wheel)])
    assert installed.returncode == 0, installed.stderr[-3000:]
    return env_dir / "bin"


def _outside(tmp_path) -> dict:
    return {"cwd": tmp_path, "env": {**_clean_env(), "MPLBACKEND": "Agg"}}


def test_labeldp_repro_lists_from_outside_the_repository(venv, tmp_path):
    listed = _run([str(venv / "labeldp-repro"), "--list"], **_outside(tmp_path))
    assert listed.returncode == 0, listed.stderr[-3000:]
    names = [line.split()[0] for line in listed.stdout.splitlines() if line.strip()]
    assert "rates_table" in names and "dp_checks" in names and len(names) >= 30
    # the module itself runs too, from anywhere
    as_module = _run([str(venv / "python"), "-m", "paper_repro", "--list"], **_outside(tmp_path))
    assert as_module.returncode == 0 and as_module.stdout == listed.stdout


def test_installed_code_is_the_wheel_not_the_checkout(venv, tmp_path):
    where = _run([str(venv / "python"), "-c", "import limits, paper_repro; print(limits.__file__); "
                  "print(paper_repro.__file__)"], **_outside(tmp_path))
    assert where.returncode == 0, where.stderr
    for line in where.stdout.split():
        assert "site-packages" in line and not line.startswith(str(ROOT)), line


def test_an_installed_run_records_the_package_version(venv, tmp_path):
    ran = _run([str(venv / "labeldp-repro"), "--only", "rates_table", "--profile", "smoke", "--out", "out",
                "--no-progress"], **_outside(tmp_path))
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    code = json.loads((tmp_path / "out" / "rates_table" / "results.json").read_text())["provenance"]["code"]
    version = _run([str(venv / "python"), "-c", "from importlib.metadata import version; "
                    "print(version('labeldp-suite'))"], **_outside(tmp_path)).stdout.strip()
    assert version and code == {"commit": None, "dirty": None, "version": version}
    assert f"labeldp-suite {version}" in (tmp_path / "out" / "REPORT.md").read_text()
