"""The README is a front door (issue 40 item 1): short, commands first, examples that work, no lab notebook.

* at most 200 lines, with the regeneration command and the test command (the line after the
  ``ci:test-command`` marker, which ``.ci/run`` runs) in its first 40 lines;
* neither the README nor the Getting started page carries dates, machine descriptions, issue numbers or
  measurement logs (those live in ``docs/benchmarks.md``, ``docs/notes/`` and ``CHANGELOG.md``);
* its ``>>>`` examples run as doctests with the output it shows, and its "Running one experiment" command
  runs as written (into a temporary folder) and writes the files the README names.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FRONT_PAGES = (README, ROOT / "docs" / "getting_started.md")
MAX_LINES, COMMANDS_WITHIN = 200, 40


def _lines() -> list[str]:
    return README.read_text(encoding="utf-8").splitlines()


def test_readme_is_short():
    assert len(_lines()) <= MAX_LINES, f"README.md has {len(_lines())} lines (at most {MAX_LINES})"


def test_commands_come_first():
    lines = _lines()
    marker = next(i for i, line in enumerate(lines) if "ci:test-command" in line)
    test_cmd = next(i for i in range(marker + 1, len(lines)) if lines[i].strip() and not lines[i].startswith("```"))
    regen = next(i for i, line in enumerate(lines) if "paper_repro.py" in line and line.startswith("python3 -m venv"))
    assert "pytest" in lines[test_cmd]
    assert regen < COMMANDS_WITHIN and test_cmd < COMMANDS_WITHIN, (regen + 1, test_cmd + 1)
    # no timings above the commands
    above = "\n".join(lines[:test_cmd])
    assert not re.search(r"\d+(\.\d+)? ?(s|min|CPU-s)\b", above), "a timing above the commands"


#: what a lab notebook says and a front door does not
NOTEBOOK = {
    "a date": re.compile(r"\b20\d\d-\d\d-\d\d\b"),
    "an issue number": re.compile(r"\bissues? \d+|#\d{2,}\b", re.I),
    "a machine description": re.compile(r"\b(EPYC|AVX|Xeon|load (average )?[\d≈~]|idle machine|2-core|cores? at)",
                                        re.I),
    "a measured wall or CPU time": re.compile(r"\b\d+(\.\d+)? ?(s|CPU-s|min) (wall|of CPU)|\bCPU-s\b"),
}


@pytest.mark.parametrize("page", FRONT_PAGES, ids=lambda p: p.name)
def test_no_lab_notebook_on_the_front_pages(page):
    text = page.read_text(encoding="utf-8")
    found = {what: rx.findall(text) for what, rx in NOTEBOOK.items() if rx.search(text)}
    assert not found, f"{page.name} carries {found}"


def test_the_examples_run_as_doctests():
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(>>> .*?)```", text, re.S)
    assert len(blocks) == 2  # the rate calculator and the mechanism check
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for k, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README.md example {k + 1}", str(README), 0)
        assert test.examples
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_running_one_experiment_as_written(tmp_path):
    text = README.read_text(encoding="utf-8")
    section = text[text.index("**Running one experiment.**"):text.index("## The command line")]
    (command,) = [line for line in section.splitlines() if "paper_repro.py" in line and line.startswith(".venv")]
    args = shlex.split(command)
    assert args[0] == ".venv/bin/python" and args[1] == "paper_repro.py"
    out = Path(args[args.index("--out") + 1])
    args[args.index("--out") + 1] = str(tmp_path / out.name)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    env.pop("PYTEST_XDIST_WORKER", None)
    done = subprocess.run([sys.executable, *args[1:], "--no-progress"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    # the files the README says it writes
    for name in re.findall(rf"`{re.escape(str(out))}/([^`]+)`", section):
        if name.endswith("/"):
            assert (tmp_path / out.name / name).is_dir(), name
    for name in re.findall(r"`([\w.]+\.(?:csv|json))`", section):
        assert (tmp_path / out.name / "rates_table" / name).is_file(), name
    assert (tmp_path / out.name / "REPORT.md").is_file()
    assert "rates_table" in done.stdout and "claims:" in done.stdout


COUNTS = re.compile(r"committed quick run holds (\d+) paper claims \((\d+) reproduced, (\d+) not reproduced, (\d+) "
                    r"inconclusive\), (\d+) errata of the papers confirmed by a check, and (\d+) questions beyond "
                    r"the papers \((\d+) yes, (\d+) no, (\d+) inconclusive\)")


def test_the_claim_counts_are_those_of_the_committed_run():
    """The README counts the committed claims per kind (issue 35); the numbers are compared with figures/."""
    from simulations.experiments.board import kind_tally, read_records

    m = COUNTS.search(" ".join(README.read_text(encoding="utf-8").split()))
    assert m, "README.md lost its sentence counting the committed claims per kind"
    records, unreadable = read_records(ROOT / "figures")
    assert not unreadable, unreadable
    t = kind_tally(c for r in records.values() for c in r["claims"])
    p, e, b = t["paper"], t["erratum"], t["beyond"]
    assert [int(x) for x in m.groups()] == [sum(p), *p, e[0], sum(b), *b]
    assert e[1] == e[2] == 0 and set(t) == {"paper", "erratum", "beyond"}, t
