"""The shape of the experiment modules (issue 21 item 4): short entry points, one spelling of a profile,
sub-packages by subject, no import circle.

* every ``compute`` / ``plot`` named by a catalogue record is at most :data:`MAX_ENTRY_LINES` source lines,
  its docstring not counted (read from the AST, so the check imports nothing);
* every module-level ``PROFILES`` / ``*_PROFILES`` of an experiment module is a dict ``{"smoke", "quick",
  "paper"} -> frozen dataclass instance``, and the older spellings (``PROFILE``, ``_PROFILES``,
  ``PROFILE_SIZES``) are gone;
* each package imports in a fresh interpreter, ``proofs_checks.experiments`` imports nothing from itself
  but its catalogue, and importing the catalogues imports no topic module.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from proofs_checks.experiments import catalogue as checks_catalogue
from simulations.experiments import catalogue as sim_catalogue

#: The longest an experiment's entry point may be (issue 21: "no compute over 60 lines"): a reader sees
#: the whole function on one screen, and the steps it calls carry the names of what they compute. The
#: docstring is not counted: issue 28 asks for a full numpydoc docstring on every entry point, and the
#: length that hurts reading is the code's.
MAX_ENTRY_LINES = 60
#: Entry points whose split is left to another change ("module:function" -> why); none at present. The test
#: fails if a listed function is already short, so the list cannot go stale.
PENDING: dict[str, str] = {}
OLD_SPELLINGS = ("PROFILE", "_PROFILES", "PROFILE_SIZES")
PROFILE_KEYS = {"smoke", "quick", "paper"}
ROOT = Path(__file__).resolve().parents[1]

RECORDS = sim_catalogue.EXPERIMENTS + checks_catalogue.EXPERIMENTS
REFS = sorted({ref for e in RECORDS for ref in (e.compute_ref, e.plot_ref)})
MODULES = sorted({ref.partition(":")[0] for ref in REFS})


def _source_path(module: str) -> Path:
    """The file of ``module``, found without importing it."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin, f"{module} not found"
    return Path(spec.origin)


def _code_lines(node: ast.FunctionDef) -> int:
    """Source lines of a function definition (decorators included), less its docstring's lines."""
    start = min([node.lineno] + [d.lineno for d in node.decorator_list])
    doc = node.body[0]
    is_doc = isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) and isinstance(doc.value.value, str)
    return node.end_lineno - start + 1 - (doc.end_lineno - doc.lineno + 1 if is_doc else 0)


def _function_lines(ref: str) -> int:
    module, _, name = ref.partition(":")
    tree = ast.parse(_source_path(module).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return _code_lines(node)
    raise AssertionError(f"{ref}: no module-level function {name!r} in {_source_path(module)}")


@pytest.mark.parametrize("ref", REFS)
def test_entry_points_are_short(ref):
    lines = _function_lines(ref)
    if ref in PENDING:
        assert lines > MAX_ENTRY_LINES, f"{ref} is now {lines} lines: remove it from PENDING"
        pytest.skip(f"{ref}: {lines} lines, split pending ({PENDING[ref]})")
    assert lines <= MAX_ENTRY_LINES, (f"{ref} is {lines} lines (at most {MAX_ENTRY_LINES}): split it into "
                                      "helpers named after what they compute")


def test_code_lines_counts_code_and_decorators_not_the_docstring():
    """Hand-counted snippets: a decorator + def + 3-line docstring + 2 body lines is 4 code lines; without the
    docstring the same function is 4 lines too; a string that is not first in the body is code."""
    documented = 'import f\n@f\ndef g(x):\n    """One.\n\n    Two."""\n    y = x\n    return y\n'
    plain = "@f\ndef g(x):\n    y = x\n    return y\n"
    late_string = 'def g(x):\n    y = x\n    "not a docstring"\n    return y\n'
    counts = [_code_lines(ast.parse(src).body[-1]) for src in (documented, plain, late_string)]
    assert counts == [4, 4, 4]


@pytest.mark.parametrize("module", MODULES)
def test_profiles_are_frozen_dataclasses(module):
    mod = importlib.import_module(module)
    old = [name for name in OLD_SPELLINGS if name in vars(mod)]
    assert not old, f"{module} still spells its profiles as {old}: use PROFILES = {{name: Profile(...)}}"
    for name, value in vars(mod).items():
        if not name.endswith("PROFILES"):
            continue
        assert isinstance(value, dict) and set(value) == PROFILE_KEYS, \
            f"{module}.{name} must be a dict with keys {sorted(PROFILE_KEYS)}, got {value!r}"
        for key, prof in value.items():
            assert dataclasses.is_dataclass(prof) and not isinstance(prof, type), f"{module}.{name}[{key!r}]"
            params = type(prof).__dataclass_params__
            assert params.frozen, f"{module}.{name}[{key!r}]: {type(prof).__name__} must be frozen"
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(prof, dataclasses.fields(prof)[0].name, None)


def test_every_experiment_module_lives_in_a_subject_package():
    """No topic module sits flat in ``simulations/experiments/`` (only the infrastructure does)."""
    flat = sorted(p.name for p in (ROOT / "simulations" / "experiments").glob("*.py"))
    assert flat == ["__init__.py", "base.py", "board.py", "catalogue.py", "eta.py", "fingerprint.py", "runner.py",
                    "seed_stability.py"], flat
    for module in MODULES:
        if module.startswith("simulations."):
            assert module.count(".") == 3, f"{module}: expected simulations.experiments.<subject>.<topic>"


def _fresh(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_packages_import_in_a_fresh_interpreter_without_topic_modules():
    """Each package imports on its own (either order) and the catalogues pull in no topic module, no numpy."""
    code = """
import sys
import proofs_checks.experiments, simulations.experiments
import simulations.experiments.rates, simulations.experiments.vector
import simulations.experiments.consistency, simulations.experiments.learning
topic = sorted(m for m in sys.modules if m.startswith(("simulations.experiments.", "proofs_checks.experiments."))
               and m.rpartition(".")[2] not in ("base", "catalogue", "rates", "vector", "consistency", "learning"))
heavy = sorted(m for m in ("numpy", "scipy", "matplotlib", "sympy") if m in sys.modules)
assert not topic and not heavy, (topic, heavy)
from simulations.experiments import REGISTRY
print(len(REGISTRY))
"""
    out = _fresh(code)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == len(RECORDS)
    reverse = _fresh("import simulations.experiments, proofs_checks.experiments")
    assert reverse.returncode == 0, reverse.stderr


def test_proofs_checks_experiments_import_nothing_from_their_own_package_but_the_catalogue():
    """The circle of issue 21 ("dp_checks imports register from its own package") stays closed: the topic
    modules of ``proofs_checks.experiments`` import from ``simulations`` and ``proofs_checks``'s libraries,
    never from ``proofs_checks.experiments`` (whose ``__init__`` registers them)."""
    folder = ROOT / "proofs_checks" / "experiments"
    for path in sorted(folder.glob("*.py")):
        if path.name == "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                own = node.level > 0 or (node.module or "").startswith("proofs_checks.experiments")
                assert not own, f"{path.name}:{node.lineno} imports from its own package"
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("proofs_checks.experiments") for a in node.names), path.name

