"""Everything random in labeldp-suite: data laws with exact η, label-DP mechanisms, estimators,
and the Monte Carlo engine (seeded streams, executors, resumable results).

Subpackages: ``mechanisms`` (privacy mechanisms with exact channels), ``estimators``,
``experiments`` (the figures of ``paper_repro.py``); modules ``seeding`` and ``plotting``.
"""


def _check_limits() -> None:
    """Stop with a clear ImportError if ``limits`` is not the suite's (PyPI's rate-limiting ``limits`` shares the
    name): its checker ``limits/_clash.py`` is loaded from its file, since the ``limits/__init__.py`` that an
    ``import limits`` would run may be the other package's."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("limits")
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    if not places:
        raise ImportError("labeldp-suite needs its package `limits`, which is not installed (or is a module, not "
                          f"a package: {getattr(spec, 'origin', None)}); reinstall the suite: pip install -e .")
    checker = Path(places[0]) / "_clash.py"
    if not checker.is_file():
        raise ImportError(f"the package `limits` at {places[0]} is not labeldp-suite's (it has no _clash.py): "
                          "PyPI's rate-limiting `limits` shares the import name. Fix: `pip uninstall limits`, then "
                          "reinstall the suite, or use a dedicated virtual environment, as its README does.")
    loaded = importlib.util.spec_from_file_location("_labeldp_limits_clash", checker)
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    module.check_installation(places[0])


_check_limits()
