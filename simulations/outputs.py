"""An experiment's output folder ``<out>/<name>/``: kept inside ``--out``, replaced all or nothing,
and only the suite's own files replaced or removed.

* **Inside --out.** :func:`experiment_folder` refuses ``<out>/<name>`` (and the suite's private
  ``<out>/.staging`` and ``<out>/.cache``) when it is a symbolic link, not a folder, or resolves to a
  place outside ``<out>``: before, a link to an outside folder received the outputs and lost files there.
* **A manifest.** ``results.json`` lists the files the run wrote, with their SHA-256
  (``"outputs": {file name: sha256}``, :func:`manifest`). A later run removes an earlier output it does
  not write again only if it is listed there and its content is still the one recorded: a user's
  ``keep.csv`` or ``notes.json`` in the folder is never touched (before, any ``*.csv`` or ``*.json`` went).
  A ``results.json`` written before manifests existed lists its figures and tables, which stand in.
* **All or nothing.** :func:`publish` replaces the folder's files one by one but first keeps a hard
  link (or copy) of each file it replaces or removes; on the first failure (a file that cannot be
  replaced, a full disk) every step is undone, so the folder holds one run's files, never a mix.
  ``results.json`` is replaced last. Publications into one ``--out`` are serialized by a lock on
  ``<out>/.staging`` (where ``fcntl`` exists).

Reading another experiment's ``results.json`` for the report goes through :func:`read_results`, which
names an unreadable file in one line and skips it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: publications into one folder are not serialized
    fcntl = None

__all__ = ["experiment_folder", "manifest", "previous_outputs", "publish", "read_results"]

RESULTS = "results.json"
_LEGACY_FIGURE_FORMATS = ("png", "pdf")  # what a run wrote per figure before manifests existed


def experiment_folder(out, name: str) -> Path:
    """``<out>/<name>``, checked to be a folder (or missing) that lies inside ``<out>``.

    Parameters
    ----------
    out : path-like
        The ``--out`` folder.
    name : str
        One path component: an experiment's name, or ``.staging`` / ``.cache``.

    Returns
    -------
    pathlib.Path
        ``Path(out) / name``; nothing is created.

    Raises
    ------
    ValueError
        If ``name`` is not a single path component, or ``<out>/<name>`` is a symbolic link, exists and is
        not a folder, or resolves outside ``<out>``; the message names the path and what to do.

    References
    ----------
    docs/design.md, "Untrusted input": nothing written or deleted outside ``--out``.

    Examples
    --------
    >>> import os, tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp())
    >>> experiment_folder(out, "rates_table") == out / "rates_table"
    True
    >>> os.symlink(tempfile.mkdtemp(), out / "dp_checks")
    >>> experiment_folder(out, "dp_checks")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: .../dp_checks is a symbolic link (to ...); the suite writes only inside --out: ...
    """
    if not isinstance(name, str) or not name or name in (".", "..") or Path(name).name != name or "/" in name:
        raise ValueError(f"name must be a single folder name, got name={name!r}")
    out = Path(out)
    folder = out / name
    if folder.is_symlink():
        raise ValueError(f"{folder} is a symbolic link (to {os.readlink(folder)}); the suite writes only inside "
                         "--out: remove the link or choose another --out")
    if folder.exists():
        if not folder.is_dir():
            raise ValueError(f"{folder} is not a folder; the suite needs it for its own files: move it away")
        if not folder.resolve().is_relative_to(out.resolve()):  # e.g. a bind mount or a hard-to-see link
            raise ValueError(f"{folder} resolves to {folder.resolve()}, outside --out; the suite writes only "
                             "inside --out")
    return folder


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def manifest(folder) -> dict[str, str]:
    """``{file name: sha256}`` of the regular files directly in ``folder`` except ``results.json``.

    Parameters
    ----------
    folder : path-like
        A staging folder holding one run's outputs.

    Returns
    -------
    dict of str to str
        Sorted by file name; the value is the hex SHA-256 of the file's bytes.

    References
    ----------
    docs/design.md, "Untrusted input" (a manifest of the files the suite wrote).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "t.csv").write_text("abc")
    >>> manifest(d)
    {'t.csv': 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'}
    """
    folder = Path(folder)
    return {p.name: _sha256(p) for p in sorted(folder.iterdir())
            if p.name != RESULTS and p.is_file() and not p.is_symlink()}


def _plain_name(name) -> bool:
    return isinstance(name, str) and name not in ("", ".", "..") and Path(name).name == name and "/" not in name


def previous_outputs(folder) -> dict[str, str | None]:
    """The files an earlier run recorded in ``<folder>/results.json``: ``{file name: sha256 or None}``.

    Parameters
    ----------
    folder : path-like
        An experiment's output folder.

    Returns
    -------
    dict of str to (str or None)
        The ``"outputs"`` manifest; for a ``results.json`` written before manifests existed, its
        ``figures`` (with their PDF twins) and ``tables`` with sha256 None; empty when ``results.json`` is
        missing or unreadable. Names that are not plain file names are dropped.

    References
    ----------
    docs/design.md, "Untrusted input" (delete only what the suite wrote).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "results.json").write_text(json.dumps({"figures": ["f.png"], "tables": ["t.csv", "../x"]}))
    >>> previous_outputs(d)
    {'f.png': None, 'f.pdf': None, 't.csv': None}
    """
    try:
        record = json.loads((Path(folder) / RESULTS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(record, dict):
        return {}
    listed = record.get("outputs")
    if isinstance(listed, dict):
        return {n: (h if isinstance(h, str) else None) for n, h in listed.items() if _plain_name(n)}
    legacy: dict[str, str | None] = {}
    for fig in record.get("figures") or []:
        if isinstance(fig, str):
            stem = fig.rsplit(".", 1)[0]
            legacy.update({f"{stem}.{fmt}": None for fmt in _LEGACY_FIGURE_FORMATS})
    legacy.update({t: None for t in record.get("tables") or [] if isinstance(t, str)})
    return {n: h for n, h in legacy.items() if _plain_name(n)}


@contextlib.contextmanager
def _locked(lock: Path | None):
    """Hold the exclusive ``flock`` of the folder ``lock`` (no file is created for it)."""
    if lock is None or fcntl is None:
        yield
        return
    fd = os.open(lock, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _keep_copy(src: Path, dst: Path) -> None:
    """A hard link of ``src`` at ``dst`` (a copy where the file system has no hard links)."""
    try:
        os.link(src, dst, follow_symlinks=False)
    except OSError:
        if src.is_symlink():
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)


def publish(staging, folder, *, lock=None) -> list[str]:
    """Replace the suite's files in ``folder`` by the files of ``staging``, all or nothing.

    Every regular file of ``staging`` is moved into ``folder`` with :func:`os.replace`
    (``results.json`` last); an earlier output listed in ``folder/results.json``'s manifest that the new
    set lacks is removed, if its content is still the one recorded. Any other file is left as it is.
    Before a file is replaced or removed, a hard link (or copy) of it is kept in ``staging``; if any step
    fails, the steps done are undone in reverse order and the error is raised, so ``folder`` is left with
    the earlier run's files.

    Parameters
    ----------
    staging : path-like
        A folder holding one finished run's files (``results.json`` among them); it is left in place (the
        caller removes it).
    folder : path-like
        The experiment's output folder; created if missing. It is checked with
        :func:`experiment_folder` (no symbolic link, inside its parent).
    lock : path-like, optional
        An existing folder whose ``flock`` serializes publications between processes and threads (the
        runner passes ``<out>/.staging``).

    Returns
    -------
    list of str
        The earlier outputs removed.

    Raises
    ------
    ValueError
        If ``folder`` is refused by :func:`experiment_folder`.
    OSError
        If a file cannot be replaced or removed; ``folder`` then holds what it held before.

    References
    ----------
    docs/design.md, "Untrusted input" and "Experiments and their outputs" (a failed run leaves earlier
    outputs untouched).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp()); out = root / "exp"; out.mkdir()
    >>> _ = (out / "keep.csv").write_text("the user's")
    >>> for text in ("run 1", "run 2"):
    ...     stage = pathlib.Path(tempfile.mkdtemp(dir=root))
    ...     _ = (stage / "t.csv").write_text(text)
    ...     _ = (stage / "results.json").write_text('{"outputs": %s}' % json.dumps(manifest(stage)))
    ...     _ = publish(stage, out)
    >>> sorted(p.name for p in out.iterdir()), (out / "t.csv").read_text()
    (['keep.csv', 'results.json', 't.csv'], 'run 2')
    """
    staging, folder = Path(staging), Path(folder)
    experiment_folder(folder.parent, folder.name)
    new = sorted((p.name for p in staging.iterdir() if p.is_file() and not p.is_symlink()),
                 key=lambda n: (n == RESULTS, n))
    with _locked(None if lock is None else Path(lock)):
        experiment_folder(folder.parent, folder.name)  # again, now that no other run of ours publishes
        folder.mkdir(parents=True, exist_ok=True)
        old = previous_outputs(folder)
        stale = []
        for name, digest in old.items():
            p = folder / name
            if name in new or name == RESULTS or not p.is_file() or p.is_symlink():
                continue
            if digest is None or _sha256(p) == digest:
                stale.append(name)
        kept = Path(tempfile.mkdtemp(prefix=".replaced-", dir=staging))
        undo = []  # callables, in the order of the steps done
        try:
            for name in stale:  # first, so that a file that cannot go stops the run before any change
                _keep_copy(folder / name, kept / name)
                os.unlink(folder / name)
                undo.append(lambda n=name: os.replace(kept / n, folder / n))
            for name in new:
                dst = folder / name
                if os.path.lexists(dst):
                    _keep_copy(dst, kept / name)
                    os.replace(staging / name, dst)
                    undo.append(lambda n=name: os.replace(kept / n, folder / n))
                else:
                    os.replace(staging / name, dst)
                    undo.append(lambda n=name: os.unlink(folder / n))
        except BaseException:
            failed = []
            for step in reversed(undo):
                try:
                    step()
                except OSError as exc:  # the file system changed under us: say what could not be restored
                    failed.append(str(exc))
            if failed:
                print(f"warning: {folder}: could not restore every earlier output: {'; '.join(failed)}",
                      file=sys.stderr)
            raise
        finally:
            shutil.rmtree(kept, ignore_errors=True)
    return stale


def read_results(path, *, warn=None) -> dict | None:
    """An experiment's ``results.json`` as a dict, or None (with one warning line) when it is unreadable.

    Parameters
    ----------
    path : path-like
        The file; a missing one gives None without a warning.
    warn : callable, optional
        Receives the warning line (default: printed to standard error).

    Returns
    -------
    dict or None
        The record, when it is a JSON object with ``profile``, ``runtime_s`` and ``command`` and either an
        ``error`` or a list of ``claims`` (objects) and of ``figures``; otherwise None.

    References
    ----------
    docs/design.md, "Experiments and their outputs" (results.json) and "Untrusted input".

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "results.json"
    >>> _ = p.write_text("{garbage")
    >>> lines = []
    >>> read_results(p, warn=lines.append) is None, len(lines), f"{p} is unreadable (Expecting" in lines[0]
    (True, 1, True)
    """
    path = Path(path)
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(record, dict):
            raise ValueError(f"a JSON {type(record).__name__}, not an object")
        missing = [k for k in ("profile", "runtime_s", "command") if k not in record]
        if "error" not in record:
            missing += [k for k in ("claims", "figures") if not isinstance(record.get(k), list)]
            if not all(isinstance(c, dict) for c in record.get("claims", [])):
                raise ValueError("claims that are not objects")
        if missing:
            raise ValueError(f"no {', '.join(missing)}")
    except (OSError, ValueError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        line = f"warning: {path} is unreadable ({exc}); its experiment is left out of the report"
        (warn or (lambda s: print(s, file=sys.stderr)))(line)
        return None
    return record
