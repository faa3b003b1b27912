"""constraints.txt: the exact versions behind the committed figures, consistent with pyproject's ranges."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

packaging = pytest.importorskip("packaging")  # shipped with matplotlib, a runtime dependency
from packaging.requirements import Requirement  # noqa: E402
from packaging.utils import canonicalize_name  # noqa: E402

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[1]


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"([A-Za-z0-9._-]+)==([A-Za-z0-9.+!_-]+)", line)
        assert m, f"constraints.txt line is not 'name==version': {line!r}"
        pins[canonicalize_name(m.group(1))] = m.group(2)
    return pins


def _requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in ("test", "torch", "dask"):
        reqs += project["optional-dependencies"].get(extra, [])
    return [Requirement(r) for r in reqs]


def test_every_direct_dependency_is_pinned_within_its_range():
    pins = _pins()
    for req in _requirements():
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} (pyproject.toml) has no exact version in constraints.txt"
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {req.name}=={pins[name]}, outside pyproject.toml's {req.specifier}")


def test_the_readme_installs_from_the_constraints_file():
    assert "pip install -q -c constraints.txt -e" in (ROOT / "README.md").read_text()
