"""The README's worked examples ("Adding a mechanism", "Adding an experiment") are true as written.

A copy of the packages and tests gets exactly the files and edits the README tells a user to make, and the
tests the README names are run there in a fresh interpreter: the new mechanism is found by the catalogue and
its verifier gives the README's numbers, the new experiment is listed, runs at the smoke profile and passes
the README's own test, and both pass the docstring ratchet and their doctests. If the README's code drifts
from the suite's API (or from its documentation rules), this test fails, not the next user.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("limits", "simulations", "proofs_checks", "tests", "paper_repro.py", "pyproject.toml", "README.md")


def _section_blocks(readme: str, title: str, n: int) -> list[str]:
    """The ```python blocks of the README section ``title`` (up to the next ``## ``), checked to be ``n``."""
    start = readme.index(f"\n## {title}\n")
    end = readme.index("\n## ", start + 1)
    blocks = re.findall(r"```python\n(.*?)```", readme[start:end], re.S)
    assert len(blocks) == n, f"README section {title!r}: expected {n} python blocks, found {len(blocks)}"
    return blocks


def _follow_the_readme(dst: Path) -> None:
    """Make, in the copy ``dst``, the files and edits the two README sections ask for."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    mechanism, verifier = _section_blocks(readme, "Adding a mechanism", 2)
    experiment, record, test = _section_blocks(readme, "Adding an experiment", 3)
    (dst / "simulations/mechanisms/keep_or_uniform.py").write_text(mechanism, encoding="utf-8")
    with open(dst / "simulations/mechanisms/__init__.py", "a", encoding="utf-8") as f:
        f.write('\nfrom .keep_or_uniform import KeepOrUniform\n__all__ += ["KeepOrUniform"]\n')
    (dst / "proofs_checks/mechanisms/keep_or_uniform.py").write_text(verifier, encoding="utf-8")
    (dst / "simulations/experiments/learning/lp1st_label_noise.py").write_text(experiment, encoding="utf-8")
    catalogue = dst / "simulations/experiments/catalogue.py"
    text = catalogue.read_text(encoding="utf-8")
    close = text.index("\n)\n", text.index("EXPERIMENTS: tuple"))  # the end of the EXPERIMENTS tuple
    catalogue.write_text(text[:close] + "\n" + record.rstrip("\n") + text[close:], encoding="utf-8")
    orders = dst / "tests/test_experiment_catalogue.py"
    orders.write_text(orders.read_text(encoding="utf-8").replace("ORDERS = {", 'ORDERS = {"lp1st_label_noise": 62, ', 1),
                      encoding="utf-8")
    (dst / "tests/simulations/test_lp1st_label_noise.py").write_text("import math\n\nimport pytest\n\n\n" + test,
                                                                      encoding="utf-8")


@pytest.mark.slow
def test_the_worked_examples_work_as_written(tmp_path):
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, tmp_path / name)
    _follow_the_readme(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "MPLBACKEND": "Agg"}
    env.pop("PYTEST_XDIST_WORKER", None)

    def run(*args):
        return subprocess.run([sys.executable, *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=600)

    # the numbers the README quotes for the mechanism (exact: ln(1 + 4(e - 1)) for the planted bug)
    probe = run("-c", "import math; from proofs_checks import check_label_dp; "
                      "from simulations.mechanisms import KeepOrUniform; "
                      "from proofs_checks.mechanisms.keep_or_uniform import KeepForgetsK; "
                      "import simulations; assert simulations.__file__.startswith(%r); "
                      "ok = check_label_dp(KeepOrUniform(4, 1.0), 1.0); bug = check_label_dp(KeepForgetsK(4, 1.0), 1.0); "
                      "print(ok.holds, bug.holds, abs(bug.epsilon_actual - math.log1p(4 * math.expm1(1.0))) < 1e-9)"
                      % str(tmp_path))
    assert probe.returncode == 0, probe.stderr[-3000:]
    assert probe.stdout.split() == ["True", "False", "True"]
    listed = run("paper_repro.py", "--list")
    assert listed.returncode == 0 and "lp1st_label_noise" in listed.stdout, listed.stdout[-2000:] + listed.stderr[-2000:]
    tests = run("-m", "pytest", "-v", "-p", "no:cacheprovider", "-p", "no:xdist",
                "tests/proofs_checks/test_catalogue.py", "tests/test_experiment_catalogue.py",
                "tests/test_experiment_structure.py", "tests/test_docstrings.py",
                "tests/simulations/test_lp1st_label_noise.py",
                "tests/test_doctests.py", "-k", "not test_examples_run or keep_or_uniform or lp1st_label_noise")
    assert tests.returncode == 0, tests.stdout[-6000:] + tests.stderr[-2000:]
    passed = {line.split(" PASSED")[0] for line in tests.stdout.splitlines() if " PASSED" in line}
    for must in ("tests/simulations/test_lp1st_label_noise.py::test_lp1st_label_noise_smoke",
                 "tests/test_doctests.py::test_examples_run[simulations.mechanisms.keep_or_uniform]",
                 "tests/test_doctests.py::test_examples_run[proofs_checks.mechanisms.keep_or_uniform]",
                 "tests/test_doctests.py::test_examples_run[simulations.experiments.learning.lp1st_label_noise]",
                 "tests/test_docstrings.py::test_docstrings_do_not_decay"):
        assert must in passed, f"{must} did not pass in the copy:\n" + tests.stdout[-3000:]
    assert any("keep or uniform" in name or "KeepOrUniform" in name for name in passed), \
        "no catalogue test ran on the new record:\n" + tests.stdout[-3000:]
