"""No package reaches into another package's private names (issue 21).

A module of ``limits``, ``simulations`` or ``proofs_checks`` may use only the public API of the other two:
``proofs_checks`` verifies ``simulations`` through what ``simulations`` documents, so a private helper can be
renamed or changed without silently breaking a checker. Checked on the source (AST), without importing:

* ``from <other package>... import _name`` and imports of a private module of another package;
* ``obj._name`` where ``_name`` (not a dunder) is a function, method or class that only another package
  defines (``self._name`` and ``cls._name`` are the object's own and always allowed). The type of ``obj`` is not known statically, so the rule is by name: a private name the
  module's own package also defines may be its own (e.g. ``_check`` helpers of either side) and is
  allowed; one only another package defines can only be that package's.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("limits", "simulations", "proofs_checks")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _trees(package: str) -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text(encoding="utf-8"), filename=str(p)) for p in sorted((ROOT / package).rglob("*.py"))}


TREES = {pkg: _trees(pkg) for pkg in PACKAGES}


def _defined_private(package: str) -> set[str]:
    """Private functions, methods and classes defined anywhere in ``package``."""
    return {node.name for tree in TREES[package].values() for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and _private(node.name)}


def violations(package: str) -> list[str]:
    own = _defined_private(package)
    foreign = set().union(*(_defined_private(p) for p in PACKAGES if p != package)) - own
    others = [p for p in PACKAGES if p != package]
    found = []
    for path, tree in TREES[package].items():
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in others:
                if any(_private(part) for part in node.module.split(".")):
                    found.append(f"{where}:{node.lineno} imports the private module {node.module}")
                found += [f"{where}:{node.lineno} imports {node.module}.{a.name}" for a in node.names if _private(a.name)]
            elif isinstance(node, ast.Import):
                found += [f"{where}:{node.lineno} imports the private module {a.name}" for a in node.names
                          if a.name.split(".")[0] in others and any(_private(p) for p in a.name.split("."))]
            elif isinstance(node, ast.Attribute) and node.attr in foreign and not (
                    isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):  # its own attribute
                found.append(f"{where}:{node.lineno} uses {ast.unparse(node)}, private to another package")
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_no_private_names_of_other_packages(package):
    assert violations(package) == []


def test_the_rule_catches_a_private_call(monkeypatch):
    """The detector works: a proofs_checks module calling a private method of a simulations class is flagged."""
    tree = ast.parse("def check(est):\n    return est._lookup([0], est.votes_, 0)\n")
    monkeypatch.setitem(TREES["proofs_checks"], ROOT / "proofs_checks" / "planted.py", tree)
    assert "proofs_checks/planted.py:2 uses est._lookup, private to another package" in violations("proofs_checks")
