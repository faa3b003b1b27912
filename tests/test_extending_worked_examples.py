"""The worked examples of the Extending pages (``docs/extending/mechanism.md``, ``experiment.md``,
``rate_cell.md``: "Adding a mechanism", "Adding an experiment", "Adding a rate cell") are true as written.

A copy of the packages and tests gets exactly the files and edits the pages tell a user to make, and the
tests the pages name are run there in a fresh interpreter: the new mechanism is found by the catalogue and
its verifier gives the pages' numbers, the new experiment is listed, runs at the smoke profile and passes
the pages' own test, the new rate cell (a Table 1 column) is read by every rate function and passes the
`limits` tests with the exponents the page writes out, the new case of a rate experiment is the one the
page runs, every ``>>>`` block of the rate-cell section runs as a doctest with the pages' output, and all
of it passes the docstring ratchet and the changed modules' doctests. If the pages' code drifts from the
suite's API (or from its documentation rules), this test fails, not the next user.
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


EXTENDING = ROOT / "docs" / "extending"


def _section_blocks(page: str, n: int) -> list[str]:
    """The ```python blocks of the Extending page ``docs/extending/<page>.md``, checked to be ``n``."""
    text = (EXTENDING / f"{page}.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == n, f"docs/extending/{page}.md: expected {n} python blocks, found {len(blocks)}"
    return blocks


def _follow_the_pages(dst: Path) -> None:
    """Make, in the copy ``dst``, the files and edits the mechanism and experiment pages ask for."""
    mechanism, verifier = _section_blocks("mechanism", 2)
    experiment, record, test = _section_blocks("experiment", 3)
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


def _insert(path: Path, before: str, text: str, *, after: str | None = None) -> None:
    """Insert ``text`` in the file ``path`` just before the first ``before`` found after ``after`` (checked)."""
    content = path.read_text(encoding="utf-8")
    i = content.index(before, content.index(after) if after else 0)
    path.write_text(content[:i] + text + content[i:], encoding="utf-8")


def _replace_line(path: Path, start: str, line: str) -> None:
    """Replace the one line of ``path`` that starts with ``start`` by ``line``."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    (i,) = [k for k, x in enumerate(lines) if x.startswith(start)]
    lines[i] = line.rstrip("\n") + "\n"
    path.write_text("".join(lines), encoding="utf-8")


#: doctest lines run after the page's, in the same namespace: the page's CENTRAL_DB edit adds exactly the two
#: cases its doctest runs (6 (d, β) pairs x 2 tunings before, 7 x 2 after)
_RATE_CASES_CHECK = """
>>> from simulations.experiments.rates.regression import _central_cases
>>> [c for c in _central_cases() if (c.d, c.beta) == (2, 0.75)] == new, len(_central_cases())
(True, 14)
"""


def _follow_the_rate_cell_section(dst: Path) -> str:
    """Make, in ``dst``, the edits of "Adding a rate cell"; return its ``>>>`` blocks as one doctest text."""
    blocks = _section_blocks("rate_cell", 9)
    doctests = [b for b in blocks if b.startswith(">>>")]
    privacy, cells, label, expected, terms, central_db = [b for b in blocks if not b.startswith(">>>")]
    assert len(doctests) == 3
    _replace_line(dst / "limits/_args.py", "PRIVACY = ", privacy)
    _insert(dst / "limits/rates.py", "}\n", cells, after="\n_DERIVED = {")  # the end of the _DERIVED dict
    table = dst / "simulations/experiments/rates/table.py"
    table.write_text(table.read_text(encoding="utf-8").replace("PRIVACY_LABELS = {", "PRIVACY_LABELS = {" + label.strip()
                                                              + " ", 1), encoding="utf-8")
    _insert(dst / "tests/limits/test_rates.py", "    }\n    return table[", expected)
    _insert(dst / "tests/limits/test_rates.py", "\n\n", "\n" + terms.rstrip("\n"), after="\nCELL_TERMS = [")
    _replace_line(dst / "simulations/experiments/rates/regression.py", "CENTRAL_DB = ", central_db)
    return "\n".join(doctests) + _RATE_CASES_CHECK


@pytest.mark.slow
def test_the_worked_examples_work_as_written(tmp_path):
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, tmp_path / name)
    _follow_the_pages(tmp_path)
    (tmp_path / "rate_cell_page.txt").write_text(_follow_the_rate_cell_section(tmp_path), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "MPLBACKEND": "Agg"}
    env.pop("PYTEST_XDIST_WORKER", None)

    def run(*args):
        return subprocess.run([sys.executable, *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=600)

    # the numbers the mechanism page quotes for the mechanism (exact: ln(1 + 4(e - 1)) for the planted bug)
    probe = run("-c", "import math; from proofs_checks import check_label_dp; "
                      "from simulations.mechanisms import KeepOrUniform; "
                      "from proofs_checks.mechanisms.keep_or_uniform import KeepForgetsK; "
                      "import simulations; assert simulations.__file__.startswith(%r); "
                      "ok = check_label_dp(KeepOrUniform(4, 1.0), 1.0); bug = check_label_dp(KeepForgetsK(4, 1.0), 1.0); "
                      "print(ok.holds, bug.holds, abs(bug.epsilon_actual - math.log1p(4 * math.expm1(1.0))) < 1e-9)"
                      % str(tmp_path))
    assert probe.returncode == 0, probe.stderr[-3000:]
    assert probe.stdout.split() == ["True", "False", "True"]
    # the rate-cell section's >>> blocks, in order, in one namespace: the page's numbers (closed form for the
    # new cell; the quick run of the new rate case) and the cases its CENTRAL_DB edit adds
    cell_doctests = run("-m", "doctest", "rate_cell_page.txt")
    assert cell_doctests.returncode == 0, cell_doctests.stdout[-6000:] + cell_doctests.stderr[-2000:]
    listed = run("paper_repro.py", "--list")
    assert listed.returncode == 0 and "lp1st_label_noise" in listed.stdout, listed.stdout[-2000:] + listed.stderr[-2000:]
    tests = run("-m", "pytest", "-v", "-p", "no:cacheprovider", "-p", "no:xdist",
                "tests/proofs_checks/test_catalogue.py", "tests/test_experiment_catalogue.py",
                "tests/test_experiment_structure.py", "tests/test_docstrings.py",
                "tests/simulations/test_lp1st_label_noise.py",
                "tests/limits/test_rates.py", "tests/limits/test_properties.py", "tests/limits/test_rates_table.py",
                "tests/limits/test_complexity.py", "tests/test_doctests.py",
                "-k", "(not test_examples_run or keep_or_uniform or lp1st_label_noise or limits.rates or "
                      "experiments.rates.regression or experiments.rates.table) and (not test_complexity or my_model)")
    assert tests.returncode == 0, tests.stdout[-6000:] + tests.stderr[-2000:]
    passed = {line.split(" PASSED")[0] for line in tests.stdout.splitlines() if " PASSED" in line}
    for must in ("tests/simulations/test_lp1st_label_noise.py::test_lp1st_label_noise_smoke",
                 "tests/test_doctests.py::test_examples_run[simulations.mechanisms.keep_or_uniform]",
                 "tests/test_doctests.py::test_examples_run[proofs_checks.mechanisms.keep_or_uniform]",
                 "tests/test_doctests.py::test_examples_run[simulations.experiments.learning.lp1st_label_noise]",
                 "tests/test_docstrings.py::test_docstrings_do_not_decay",
                 "tests/limits/test_rates_table.py::test_rates_table_smoke",
                 "tests/test_doctests.py::test_examples_run[limits.rates]",
                 "tests/test_doctests.py::test_examples_run[simulations.experiments.rates.regression]",
                 "tests/test_doctests.py::test_examples_run[simulations.experiments.rates.table]"):
        assert must in passed, f"{must} did not pass in the copy:\n" + tests.stdout[-3000:]
    assert any("keep or uniform" in name or "KeepOrUniform" in name for name in passed), \
        "no catalogue test ran on the new record:\n" + tests.stdout[-3000:]
    for test in ("test_exponent_matches_paper", "test_dominant_exponent_is_slowest_term", "test_round_trip"):
        ran = [name for name in passed if f"::{test}[" in name and "my_model" in name]
        assert ran, f"{test} did not run on the new column:\n" + tests.stdout[-3000:]
