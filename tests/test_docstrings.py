"""Docstring ratchet: numpydoc validation of every public name may only get better.

Every public name is validated with :func:`numpydoc.validate.validate` for the checks in
:data:`CHECKS`, and the failing ``(name, check)`` pairs are compared with the committed baseline
``tests/docstring_baseline.json``:

* a failure that is not in the baseline fails the test (documentation decayed: a docstring was
  removed, a parameter was added or renamed without its entry, a new public name came undocumented);
* a baseline entry that no longer fails fails the test too (it was fixed: delete it from the baseline),
  so the baseline only shrinks.

Public names: every module of ``limits``, ``simulations`` and ``proofs_checks`` whose dotted name has no
part starting with ``_`` (the module itself), the functions and classes of its ``__all__`` (without
``__all__``: the public functions and classes it defines), the public methods and properties each
such class defines itself, and every experiment's ``compute`` and ``plot`` named by the catalogues. An object re-exported by several modules is validated once, under the
module that defines it. Data constants (tuples, dicts) are skipped: they cannot carry a docstring.

The checks enforced are listed in ``pyproject.toml`` (``[tool.numpydoc_validation] checks``, the section
numpydoc's own lint hook reads); see numpydoc's list of validation codes.

Rewrite the baseline from scratch (e.g. after adding a check) with::

    DOCSTRING_BASELINE=rewrite python -m pytest -p no:xdist tests/test_docstrings.py

and prune fixed entries only with ``DOCSTRING_BASELINE=prune``.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import os
import pkgutil
import tomllib
import warnings
from collections import Counter
from pathlib import Path

import pytest

numpydoc_validate = pytest.importorskip(
    "numpydoc.validate", reason="numpydoc not installed: pip install numpydoc (the docs extra) to run the "
                                "docstring ratchet")

#: What each numpydoc validation code means (for the messages); which are enforced is read from
#: ``[tool.numpydoc_validation] checks`` in pyproject.toml.
CODE_MEANING = {
    "GL08": "the object does not have a docstring",
    "SS01": "no summary found",
    "PR01": "parameters not documented",
    "PR02": "unknown parameters documented (e.g. under another name)",
    "RT01": "no Returns section found",
    "EX01": "no Examples section found",
}
ROOT = Path(__file__).resolve().parents[1]
ENFORCED = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["numpydoc_validation"]["checks"]
#: numpydoc validation codes enforced by the ratchet, plus PARSE (a docstring numpydoc cannot parse).
CHECKS = {code: CODE_MEANING.get(code, "see numpydoc's list of validation codes") for code in ENFORCED} | {
    "PARSE": "numpydoc cannot parse the docstring (malformed section); not a numpydoc code"}
PACKAGES = ("limits", "simulations", "proofs_checks")
#: module prefix -> the import it needs (an optional extra); without it those modules are not validated and
#: their baseline entries are not compared (tests/test_doctests.py skips their examples the same way)
OPTIONAL = {"simulations.torch_path": "torch"}


def _unavailable(modname: str) -> bool:
    return any((modname == prefix or modname.startswith(prefix + ".")) and importlib.util.find_spec(needs) is None
               for prefix, needs in OPTIONAL.items())
BASELINE = Path(__file__).with_name("docstring_baseline.json")


def _public_modules() -> list[str]:
    names = []
    for package in PACKAGES:
        pkg = importlib.import_module(package)
        names.append(package)
        for m in pkgutil.walk_packages(pkg.__path__, package + "."):
            if not any(part.startswith("_") for part in m.name.split(".")) and not _unavailable(m.name):
                names.append(m.name)
    return sorted(names)


def public_names() -> list[str]:
    """Import paths of every public module, function, class and method, each object once."""
    modules = _public_modules()
    public = set(modules)
    out, seen = list(modules), set()
    for modname in modules:
        mod = importlib.import_module(modname)
        names = getattr(mod, "__all__", None)
        if names is None:
            names = [n for n, v in vars(mod).items() if not n.startswith("_") and getattr(v, "__module__", None) ==
                     modname and (inspect.isclass(v) or inspect.isroutine(v))]
        for name in names:
            obj = getattr(mod, name, None)
            if not (inspect.isclass(obj) or inspect.isroutine(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            home = getattr(obj, "__module__", None)
            qual = getattr(obj, "__qualname__", name)
            path = f"{home}.{qual}" if home in public and "<" not in qual else f"{modname}.{name}"
            out.append(path)
            if inspect.isclass(obj):
                for attr, val in vars(obj).items():
                    if attr.startswith("_"):
                        continue
                    if isinstance(val, (staticmethod, classmethod)):
                        val = val.__func__
                    if inspect.isfunction(val) or isinstance(val, property):
                        out.append(f"{path}.{attr}")
    return out + _entry_points(set(out))


def _entry_points(known: set[str]) -> list[str]:
    """Every experiment's ``compute`` and ``plot`` (issue 28: "every experiment's entry point"), named by the
    two catalogues, also where they are not in their module's ``__all__``."""
    from proofs_checks.experiments import catalogue as checks
    from simulations.experiments import catalogue as sims

    refs = {ref for e in checks.EXPERIMENTS + sims.EXPERIMENTS for ref in (e.compute_ref, e.plot_ref)}
    paths = {ref.replace(":", ".") for ref in refs if not _unavailable(ref.partition(":")[0])}
    return sorted(paths - known)


def current_failures() -> tuple[int, set[tuple[str, str]]]:
    names = public_names()
    modules = set(_public_modules())
    failing = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpydoc warns on unknown sections; the checks below report
        for name in names:
            if name in modules:  # numpydoc's module validation fails on modules without a def line
                if not (importlib.import_module(name).__doc__ or "").strip():
                    failing.add((name, "GL08"))
                continue
            try:
                errors = numpydoc_validate.validate(name)["errors"]
            except Exception as exc:  # e.g. StopIteration on a malformed section
                errors = [("PARSE", f"numpydoc could not validate it: {exc!r}")]
            failing.update((name, code) for code, _ in errors if code in CHECKS)
    return len(names), failing


def _read_baseline() -> set[tuple[str, str]]:
    data = json.loads(BASELINE.read_text(encoding="utf-8"))
    return {(name, code) for name, codes in data["failures"].items() for code in codes}


def _write_baseline(pairs: set[tuple[str, str]], n_names: int) -> None:
    failures: dict[str, list[str]] = {}
    for name, code in sorted(pairs):
        failures.setdefault(name, []).append(code)
    counts = Counter(code for _, code in pairs)
    data = {"checks": dict(sorted(CHECKS.items())), "public_names": n_names,
            "failures_per_check": {c: counts.get(c, 0) for c in sorted(CHECKS)}, "failures": failures}
    BASELINE.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def test_docstrings_do_not_decay():
    n_names, failing = current_failures()
    mode = os.environ.get("DOCSTRING_BASELINE", "")
    if mode == "rewrite" or not BASELINE.exists():
        _write_baseline(failing, n_names)
    stored = _read_baseline()
    skipped = {(name, code) for name, code in stored if _unavailable(name)}  # kept as they are
    baseline = stored - skipped
    if mode == "prune":
        baseline &= failing
        _write_baseline(baseline | skipped, n_names)
    new = sorted(failing - baseline)
    fixed = sorted(baseline - failing)
    msg = []
    if new:
        msg.append(f"{len(new)} new docstring failure(s) (write the missing numpydoc sections; codes: {CHECKS}):\n"
                   + "\n".join(f"  {name}: {code} {CHECKS[code]}" for name, code in new))
    if fixed:
        msg.append(f"{len(fixed)} baseline entr(y/ies) fixed: delete them from {BASELINE.name} "
                   "(or run with DOCSTRING_BASELINE=prune):\n" + "\n".join(f"  {n}: {c}" for n, c in fixed))
    assert not msg, "\n".join(msg)


def test_checks_catch_a_removed_docstring(monkeypatch):
    """The ratchet's detector works: a function whose docstring is removed fails GL08."""
    import limits.rates

    monkeypatch.setattr(limits.rates.rate_exponent, "__doc__", None)
    errors = {code for code, _ in numpydoc_validate.validate("limits.rates.rate_exponent")["errors"]}
    assert "GL08" in errors
