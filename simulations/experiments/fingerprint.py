"""Which configuration made an output: a fingerprint of an experiment's settings for one profile.

Committed outputs must be made by today's code. Every experiment keeps its settings as module-level
constants of its ``compute`` module (``PROFILES``, ``CASES``, grids, margins, trial counts: upper-case
names, the catalogue's convention). :func:`config_fingerprint` hashes a canonical form of those values,
with every dict keyed by profile names reduced to the profile's own entry, so that changing the paper
profile's trial count changes the paper fingerprint and not the quick one, while an edited docstring or
a refactor that leaves the settings alone changes nothing. The runner writes the fingerprint into
``results.json`` (``config_fingerprint``); :func:`stale_outputs` lists the committed outputs whose
fingerprint, provenance or claim kinds are missing or differ from the current code's.

What it does not see: a change inside a library function (an estimator, a kernel) that keeps every
setting. Those are caught by the tests that compare outputs byte for byte, or within stated ulp.

References
----------
docs/design.md, "Experiments and their outputs" (committed outputs are made by today's code).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import importlib
import json
import math
import re
import sys
import types
from pathlib import Path, PurePath

from .base import KINDS, PROFILES, REGISTRY, Experiment
from .board import read_records

__all__ = ["canonical", "config_fingerprint", "stale_outputs"]

_EXPERIMENT_PACKAGES = ("simulations.experiments.", "proofs_checks.experiments.")
_CONST = re.compile(r"^[A-Z][A-Z0-9_]*$")
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def canonical(value, profile: str):
    """A JSON-able, order-stable form of a configuration value, reduced to one profile.

    Parameters
    ----------
    value : object
        A setting: numbers, strings, containers, dataclasses, enums, numpy arrays, functions or
        classes (named by their qualified names, not their modules: moving one changes no setting),
        modules (by name) and paths (by their last part: a checkout's location is no setting).
    profile : {"smoke", "quick", "paper"}
        A dict whose keys are all profile names is replaced by its entry for ``profile`` (None if it
        has none).

    Returns
    -------
    object
        Nested lists, dicts with string keys, str, int, float (non-finite as strings), bool or None.

    References
    ----------
    docs/design.md, "Experiments and their outputs".

    Examples
    --------
    >>> canonical({"smoke": 2, "quick": 10, "paper": 100}, "quick")
    10
    >>> canonical({"b": frozenset({3, 1}), "a": (0.5, float("inf"))}, "paper")
    {'a': [0.5, 'inf'], 'b': [1, 3]}
    >>> import math, pathlib
    >>> canonical([math, pathlib.Path("/somewhere/data.csv"), pathlib.Path], "quick")
    ['module math', 'path data.csv', 'Path']
    """
    return _canonical(value, profile, 0)


def _canonical(value, profile: str, _depth: int):
    if _depth > 40:
        raise ValueError("configuration nested more than 40 levels deep")
    d = _depth + 1
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}.{value.name}"
    if isinstance(value, dict):
        if value and all(k in PROFILES for k in value):
            return _canonical(value.get(profile), profile, d)
        items = {k if isinstance(k, str) else json.dumps(_canonical(k, profile, d), sort_keys=True):
                 _canonical(v, profile, d) for k, v in value.items()}
        return {k: items[k] for k in sorted(items)}
    if isinstance(value, (set, frozenset)):
        return sorted((_canonical(v, profile, d) for v in value), key=lambda x: json.dumps(x, sort_keys=True))
    if isinstance(value, (list, tuple, range)):
        return [_canonical(v, profile, d) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"__type__": type(value).__qualname__,
                **{f.name: _canonical(getattr(value, f.name), profile, d) for f in dataclasses.fields(value)}}
    if hasattr(value, "tolist") and hasattr(value, "dtype"):  # numpy arrays and scalars
        return _canonical(value.tolist(), profile, d)
    if isinstance(value, types.ModuleType):  # by name: its file's path is the checkout's, not a setting
        return f"module {value.__name__}"
    if isinstance(value, PurePath):  # a location, not a setting: only its last part
        return f"path {value.name}"
    if isinstance(value, type) or callable(value):  # by name: moving it to another module changes nothing
        return getattr(value, "__qualname__", None) or _ADDRESS.sub("", repr(value))
    return _ADDRESS.sub("", repr(value))


def config_fingerprint(experiment: Experiment, profile: str) -> str:
    """The sha256 of the canonical settings of an experiment's modules for one profile.

    Parameters
    ----------
    experiment : Experiment
        A registered experiment. Its settings are the upper-case module-level names of its ``compute``
        module and of the experiment modules that module takes functions, classes or modules from,
        directly or through each other (e.g. ``rates.machinery.PROFILES`` for the rate experiments);
        not the catalogue itself, nor ``TYPE_CHECKING``.
    profile : {"smoke", "quick", "paper"}
        The profile the output was made with.

    Returns
    -------
    str
        64 hexadecimal digits.

    Raises
    ------
    ValueError
        An unknown ``profile``.

    References
    ----------
    docs/design.md, "Experiments and their outputs".

    Examples
    --------
    >>> from simulations.experiments import REGISTRY
    >>> fp = config_fingerprint(REGISTRY["rates_table"], "quick")
    >>> len(fp), fp == config_fingerprint(REGISTRY["rates_table"], "quick")
    (64, True)
    """
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {list(PROFILES)}, got profile={profile!r}")
    module = importlib.import_module(_compute_module(experiment))
    settings = {}
    for mod in _setting_modules(module):
        for name in sorted(vars(mod)):
            if _CONST.match(name) and name != "TYPE_CHECKING" and getattr(mod, name) is not REGISTRY:
                settings[f"{mod.__name__}.{name}"] = canonical(getattr(mod, name), profile)
    blob = json.dumps({"experiment": experiment.name, "profile": profile, "settings": settings}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def _setting_modules(module) -> list:
    """The compute module and every experiment module it draws functions, classes or modules from,
    directly or through another experiment module (the closure: where a class sits does not matter)."""
    found, todo = {module.__name__: module}, [module]
    while todo:
        for value in vars(todo.pop()).values():
            name = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", None)
            if isinstance(name, str) and name.startswith(_EXPERIMENT_PACKAGES) and name not in found:
                mod = sys.modules.get(name)
                if mod is not None:
                    found[name] = mod
                    todo.append(mod)
    return [found[k] for k in sorted(found)]


def _compute_module(experiment: Experiment) -> str:
    ref = experiment.compute_ref  # "package.module:function" or a callable
    return ref.split(":")[0] if isinstance(ref, str) else ref.__module__


def stale_outputs(out, registry: dict[str, Experiment], known_findings=frozenset()) -> dict[str, str]:
    """The experiments under ``out`` whose committed ``results.json`` is not today's code's.

    Parameters
    ----------
    out : path-like
        An output root (``figures/`` or ``figures/paper/``).
    registry : dict of str to Experiment
        The current experiments (name -> record).
    known_findings : set of str, optional
        The topics of ``proofs_checks.findings.findings()``; when given, every erratum claim must name one.

    Returns
    -------
    dict of str to str
        Experiment name -> why its output is stale: unreadable, no provenance, a claim without a
        valid kind, an erratum naming no known finding, an experiment no longer registered, or a
        configuration fingerprint that differs from :func:`config_fingerprint` of the current code.
        Empty when every output is current.

    References
    ----------
    docs/design.md, "Experiments and their outputs".

    Examples
    --------
    >>> import tempfile
    >>> stale_outputs(tempfile.mkdtemp(), {})
    {}
    """
    records, unreadable = read_records(out)
    stale = dict(unreadable)
    for name, rec in records.items():
        if name not in registry:
            stale[name] = "no experiment of that name is registered"
            continue
        problems = []
        if not rec.get("provenance"):
            stale[name] = "no provenance"
            continue
        for c in rec.get("claims", []):
            if c.get("kind") not in KINDS:
                problems.append(f"claim without a kind: {str(c.get('claim'))[:80]!r}")
            elif c["kind"] == "erratum" and known_findings and c.get("finding") not in known_findings:
                problems.append(f"erratum naming no findings() entry: {c.get('finding')!r}")
        profile = rec.get("profile")
        if profile not in PROFILES:
            problems.append(f"unknown profile {profile!r}")
        else:
            want = config_fingerprint(registry[name], profile)
            got = rec.get("config_fingerprint")
            if got != want:
                problems.append(f"made from another configuration (config_fingerprint {str(got)[:12]} != current "
                                f"{want[:12]})")
        if problems:
            stale[name] = ("; ".join(problems[:3]) + (f" (+{len(problems) - 3} more)" if len(problems) > 3 else "")
                           + f"; regenerate with `python paper_repro.py --only {name} --profile {profile}`")
    return stale
