"""Is the package ``limits`` this suite's? PyPI's rate-limiting ``limits`` shares the import name.

Installed into the same environment, that distribution writes its own ``limits/__init__.py`` over the suite's
(then ``limits.minimax_rate`` is missing and ``pip check`` reports nothing), or the suite's over its own; after
``pip uninstall limits`` the folder is left without an ``__init__.py`` and imports as an empty namespace package.
:func:`check_installation` tells these states apart and raises an :class:`ImportError` that names the other
distribution and the fix. It is called by ``limits/__init__.py`` and, loaded from its file without importing
``limits`` (whose ``__init__.py`` may be another package's), by ``simulations/__init__.py`` before anything
imports ``limits``.

Standard library only, and cheap: two file reads and one directory listing; the installed distributions'
metadata is read only to name the other distribution once a clash is certain.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["MARKER", "check_installation"]

#: the line of the suite's ``limits/__init__.py`` that tells it from another package's
MARKER = '__distribution__ = "labeldp-suite"'
_OURS = "labeldp-suite"


def _owners(package_dir: Path) -> list[str]:
    """``"name version"`` of every installed distribution other than the suite with a file in ``package_dir``."""
    from importlib import metadata  # only once a clash is certain: importing it costs tens of milliseconds

    found = []
    target = package_dir.resolve()
    for dist in metadata.distributions():
        name = dist.metadata["Name"] or "?"
        if name.lower().replace("_", "-") == _OURS or not dist.files:
            continue
        for f in dist.files:
            if f.parts and f.parts[0] == package_dir.name and Path(dist.locate_file(f)).resolve().parent == target:
                found.append(f"{name} {dist.version}")
                break
    return sorted(set(found))


def check_installation(package_dir) -> None:
    """Raise :class:`ImportError` unless ``package_dir`` holds this suite's ``limits`` and no other package's files.

    Parameters
    ----------
    package_dir : path-like
        The folder the import system found for ``limits``.

    Raises
    ------
    ImportError
        If the folder has no ``__init__.py`` (another distribution took it away when it was uninstalled), its
        ``__init__.py`` is another package's, or another distribution's metadata sits beside it (a
        ``limits-*.dist-info`` folder: PyPI's rate-limiting ``limits`` was installed over or under the suite).
        The message names the other distribution where its metadata is installed, and the fix.

    References
    ----------
    docs/design.md, "Ecosystem notes": the suite installs into a dedicated virtual environment because
    ``limits`` is also the import name of a rate-limiting package on PyPI.

    Examples
    --------
    >>> import limits, tempfile
    >>> from pathlib import Path
    >>> check_installation(Path(limits.__file__).parent)  # the suite's own: nothing to say
    >>> d = Path(tempfile.mkdtemp()) / "limits"; d.mkdir(); _ = (d / "__init__.py").write_text("from .x import y\\n")
    >>> check_installation(d)
    Traceback (most recent call last):
    ...
    ImportError: the package `limits` at ... is not labeldp-suite's: its __init__.py belongs to another package. ...
    """
    package_dir = Path(package_dir)
    init = package_dir / "__init__.py"
    if not init.is_file():
        problem = ("it has no __init__.py (it is left over from an uninstalled distribution that had written over "
                   "the suite's __init__.py)")
    elif MARKER not in init.read_text(encoding="utf-8", errors="replace"):
        problem = "its __init__.py belongs to another package"
    else:
        problem = None
    beside = sorted(p.name for pattern in ("limits-*.dist-info", "limits-*.egg-info", "limits.egg-info")
                    for p in package_dir.parent.glob(pattern))
    if problem is None and not beside:
        return
    if problem is None:
        problem = f"another distribution is installed into the same folder ({', '.join(beside)})"
    owners = _owners(package_dir)
    named = (f" Other distribution(s) with files in it: {', '.join(owners)}." if owners else
             " No installed distribution other than the suite claims it now.")
    raise ImportError(
        f"the package `limits` at {package_dir} is not labeldp-suite's: {problem}.{named} The import name `limits` "
        "is shared with PyPI's rate-limiting package `limits`. Fix: `pip uninstall limits`, then reinstall the "
        "suite (`pip install --force-reinstall --no-deps -e .` in its folder), or install the suite into a "
        "dedicated virtual environment, as its README does (`python3 -m venv .venv && .venv/bin/pip install -e .`).")
