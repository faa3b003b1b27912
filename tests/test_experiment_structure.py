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
    assert flat == ["__init__.py", "base.py", "board.py", "catalogue.py", "eta.py", "fingerprint.py", "ledgers.py",
                    "runner.py", "seed_stability.py"], flat  # ledgers.py: the privacy declarations the catalogue names
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



# ------------------------------------------------------------------------------ the import graph (issue 37)
#: The packages whose import graph must have no cycle (paper_repro.py is a script: nothing imports it).
PACKAGES = ("limits", "simulations", "proofs_checks")


def _module_files(root: Path, packages) -> dict[str, Path]:
    """Dotted module name -> source file, for every ``.py`` of the packages under ``root``."""
    files = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return files


def _imports(tree: ast.Module):
    """Every import statement of a module: at module level, under ``if TYPE_CHECKING:`` / ``try:`` blocks, in
    class bodies and inside functions (lazy imports run too, later). Doctests are strings and are not read."""
    return [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]


def import_graph(root: Path, packages=PACKAGES) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports, statically (nothing is imported).

    ``from a.b import c`` is an edge to ``a.b.c`` when that is a module, else to ``a.b``; relative imports are
    resolved. Importing ``a.b.c`` runs the ``__init__`` of ``a`` and ``a.b`` first, so those are edges too,
    except the importer's own packages (being imported already, as Python's package import works).
    """
    files = _module_files(root, packages)
    graph = {m: set() for m in files}
    for mod, path in files.items():
        is_pkg = path.name == "__init__.py"
        here = mod.split(".") if is_pkg else mod.split(".")[:-1]
        own = {".".join(mod.split(".")[:i]) for i in range(1, mod.count(".") + 1)} | {mod}
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = ".".join(here[:len(here) - node.level + 1] + [node.module or ""]).strip(".") \
                    if node.level else node.module
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            for target in targets:
                parts = target.split(".")
                graph[mod] |= {t for t in (".".join(parts[:i]) for i in range(1, len(parts) + 1))
                               if t in files and t not in own}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles of ``graph``: its strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                if len(comp) > 1:
                    cycles.append(sorted(comp))
    return cycles


def test_the_import_graph_of_every_package_has_no_cycle():
    graph = import_graph(ROOT)
    assert len(graph) == sum(len(list((ROOT / pkg).rglob("*.py"))) for pkg in PACKAGES)  # every module is a node
    assert not import_cycles(graph), import_cycles(graph)


def test_the_import_graph_sees_the_edges_that_made_the_old_cycles():
    """The two cycles issue 37 cut, as edges the scan must see: a lazy (function-level) import, a
    ``TYPE_CHECKING`` import, relative imports and the ``__init__`` of an imported package."""
    graph = import_graph(ROOT)
    assert {"proofs_checks.audit", "proofs_checks.catalogue", "proofs_checks.channels"} <= graph["proofs_checks.dp"]
    assert "proofs_checks.channels" in graph["proofs_checks.mechanisms._common"]  # relative: from ..channels
    assert "proofs_checks.dp" not in graph["proofs_checks.mechanisms._common"]
    assert "simulations.experiments.rates.cases" in graph["simulations.experiments.rates.fit"]
    assert "simulations.experiments.rates.machinery" not in graph["simulations.experiments.rates.fit"]
    assert "simulations.estimators" in graph["simulations.learning.lp_mst"]  # the package's __init__ runs first


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_planted_cycle_is_found(tmp_path):
    """A package whose modules import each other (one lazily, one under TYPE_CHECKING, one through a package
    ``__init__``) has a cycle; the same package with the lazy import removed has none."""
    planted = {
        "pkg/__init__.py": "",
        "pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n",
        "pkg/b.py": "def f():\n    from .sub import c\n    return c\n",
        "pkg/sub/__init__.py": "from . import c\n",
        "pkg/sub/c.py": "import pkg.a\n",
        "pkg/d.py": "import pkg.sub.c\n",
    }
    _write(tmp_path, planted)
    cycles = import_cycles(import_graph(tmp_path, ("pkg",)))
    assert cycles == [["pkg.a", "pkg.b", "pkg.sub", "pkg.sub.c"]]
    _write(tmp_path, {"pkg/b.py": "def f():\n    return None\n"})
    assert import_cycles(import_graph(tmp_path, ("pkg",))) == []
