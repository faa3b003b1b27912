"""Dataset loaders on small files the tests write themselves in the standard formats.

The writers below follow the format specifications (IDX: LeCun's header of two zero bytes, a type
byte, a dimension count and big-endian uint32 sizes; CIFAR: pickled dicts with channel-major rows;
MovieLens-1M: ``UserID::MovieID::Rating::Timestamp`` lines), written with ``struct`` / ``pickle``
independently of the loaders' code.
"""

from __future__ import annotations

import gzip
import pickle
import struct

import numpy as np
import pytest

from simulations.datasets import DATASETS, expected_files, load_dataset, load_digits, read_idx


def write_idx(path, array: np.ndarray):
    a = np.ascontiguousarray(array, dtype=np.uint8)
    header = struct.pack(">BBBB", 0, 0, 0x08, a.ndim) + b"".join(struct.pack(">I", d) for d in a.shape)
    with gzip.open(path, "wb") as fh:
        fh.write(header + a.tobytes())


def make_idx_set(folder, rng, n_train=7, n_test=3):
    folder.mkdir(parents=True)
    xtr = rng.integers(0, 256, size=(n_train, 28, 28))
    ytr = rng.integers(0, 10, size=n_train)
    xte = rng.integers(0, 256, size=(n_test, 28, 28))
    yte = rng.integers(0, 10, size=n_test)
    write_idx(folder / "train-images-idx3-ubyte.gz", xtr)
    write_idx(folder / "train-labels-idx1-ubyte.gz", ytr)
    write_idx(folder / "t10k-images-idx3-ubyte.gz", xte)
    write_idx(folder / "t10k-labels-idx1-ubyte.gz", yte)
    return xtr, ytr, xte, yte


@pytest.mark.parametrize("name", ["mnist", "fashion_mnist", "kmnist"])
def test_idx_sets_round_trip(tmp_path, name):
    rng = np.random.default_rng(1)
    xtr, ytr, xte, yte = make_idx_set(tmp_path / name, rng)
    ds = load_dataset(name, tmp_path)
    assert ds.name == name and ds.num_classes == 10
    assert ds.x_train.dtype == np.uint8 and ds.x_train.shape == (7, 28, 28)
    assert ds.y_train.dtype == np.int64
    np.testing.assert_array_equal(ds.x_train, xtr)
    np.testing.assert_array_equal(ds.y_train, ytr)
    np.testing.assert_array_equal(ds.x_test, xte)
    np.testing.assert_array_equal(ds.y_test, yte)
    # data_dir may also point at the sub-folder itself
    np.testing.assert_array_equal(load_dataset(name, tmp_path / name).y_test, yte)


def test_read_idx_pixel_order(tmp_path):
    # one 2x3 image written byte by byte in row-major order
    path = tmp_path / "one.gz"
    with gzip.open(path, "wb") as fh:
        fh.write(bytes([0, 0, 8, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6]))
    np.testing.assert_array_equal(read_idx(path), [[[1, 2, 3], [4, 5, 6]]])


def test_read_idx_rejects_bad_files(tmp_path):
    bad = tmp_path / "bad.gz"
    with gzip.open(bad, "wb") as fh:
        fh.write(b"\x01\x02\x08\x01")
    with pytest.raises(ValueError, match="not an IDX file"):
        read_idx(bad)
    short = tmp_path / "short.gz"
    with gzip.open(short, "wb") as fh:
        fh.write(struct.pack(">BBBBI", 0, 0, 8, 1, 5) + b"\x00\x01")
    with pytest.raises(ValueError, match="announces shape"):
        read_idx(short)


def cifar_rows(images):
    """(n, 32, 32, 3) -> (n, 3072) rows: 1024 red, then 1024 green, then 1024 blue, each row-major."""
    return np.concatenate([images[..., c].reshape(images.shape[0], -1) for c in range(3)], axis=1)


@pytest.mark.parametrize("name", ["cifar10", "cifar100"])
def test_cifar_round_trip(tmp_path, name):
    rng = np.random.default_rng(2)
    K = 10 if name == "cifar10" else 100
    key = b"labels" if name == "cifar10" else b"fine_labels"
    sub = "cifar-10-batches-py" if name == "cifar10" else "cifar-100-python"
    files = [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"] if name == "cifar10" else ["train", "test"]
    (tmp_path / sub).mkdir()
    imgs, labs = [], []
    for f in files:
        x = rng.integers(0, 256, size=(2, 32, 32, 3)).astype(np.uint8)
        y = rng.integers(0, K, size=2).tolist()
        d = {b"data": cifar_rows(x), key: y, b"batch_label": b"synthetic"}
        if name == "cifar100":
            d[b"coarse_labels"] = [0] * 2
        with open(tmp_path / sub / f, "wb") as fh:
            pickle.dump(d, fh)
        imgs.append(x)
        labs.append(y)
    ds = load_dataset(name, tmp_path)
    assert ds.num_classes == K and ds.x_train.shape == (2 * (len(files) - 1), 32, 32, 3)
    assert ds.x_train.dtype == np.uint8
    np.testing.assert_array_equal(ds.x_train, np.concatenate(imgs[:-1]))
    np.testing.assert_array_equal(ds.y_train, np.concatenate(labs[:-1]))
    np.testing.assert_array_equal(ds.x_test, imgs[-1])
    np.testing.assert_array_equal(ds.y_test, labs[-1])
    # pixel (row 0, col 1) red comes from byte 1 of the row, its green from byte 1025
    assert ds.x_test[0, 0, 1, 0] == cifar_rows(imgs[-1])[0, 1]
    assert ds.x_test[0, 0, 1, 1] == cifar_rows(imgs[-1])[0, 1025]


def test_movielens_split_and_labels(tmp_path):
    (tmp_path / "ml-1m").mkdir()
    lines = [f"{u}::{m}::{r}::97830{u}" for u, m, r in [(1, 1193, 5), (1, 661, 3), (2, 914, 1), (3, 3408, 4),
                                                         (4, 2355, 2), (5, 1197, 5), (6, 1287, 3), (7, 2804, 4),
                                                         (8, 594, 1), (9, 919, 2)]]
    (tmp_path / "ml-1m" / "ratings.dat").write_text("\n".join(lines) + "\n", encoding="latin-1")
    ds = load_dataset("movielens1m", tmp_path)
    assert ds.num_classes == 5 and ds.x_train.shape == (8, 2) and ds.x_test.shape == (2, 2)
    got = sorted(zip(np.concatenate([ds.x_train[:, 0], ds.x_test[:, 0]]).tolist(),
                     np.concatenate([ds.x_train[:, 1], ds.x_test[:, 1]]).tolist(),
                     np.concatenate([ds.y_train, ds.y_test]).tolist()))
    assert got == sorted([(1, 1193, 4), (1, 661, 2), (2, 914, 0), (3, 3408, 3), (4, 2355, 1), (5, 1197, 4),
                          (6, 1287, 2), (7, 2804, 3), (8, 594, 0), (9, 919, 1)])
    again = load_dataset("movielens1m", tmp_path)
    np.testing.assert_array_equal(again.x_test, ds.x_test)  # fixed seed: the same split
    (tmp_path / "ml-1m" / "ratings.dat").write_text("1::2::9::0\n")
    with pytest.raises(ValueError, match="ratings must lie in 1..5"):
        load_dataset("movielens1m", tmp_path)


def test_digits_fixed_split():
    ds = load_digits()
    assert ds.x_train.shape == (1347, 8, 8) and ds.x_test.shape == (450, 8, 8)
    assert ds.x_train.dtype == np.uint8 and ds.y_train.dtype == np.int64 and ds.num_classes == 10
    assert ds.x_train.max() <= 16
    # a partition of the 1797 bundled images, the same on each call
    assert np.bincount(np.concatenate([ds.y_train, ds.y_test])).sum() == 1797
    np.testing.assert_array_equal(load_dataset("digits").y_test, ds.y_test)
    xtr, xte = ds.flat()
    assert xtr.shape == (1347, 64) and 0.0 <= xtr.min() and xtr.max() <= 1.0


@pytest.mark.parametrize("name", [n for n in DATASETS if n != "digits"])
def test_missing_files_say_what_goes_where(tmp_path, name):
    with pytest.raises(ValueError, match="data_dir=") as err:
        load_dataset(name, tmp_path / "nowhere")
    assert "does not exist" in str(err.value)
    for path in expected_files(name, tmp_path / "nowhere"):
        assert str(path) in str(err.value)
    with pytest.raises(ValueError, match="data_dir=None"):
        load_dataset(name, None)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="lacks them"):
        load_dataset(name, tmp_path / "empty")


def test_bad_name():
    with pytest.raises(ValueError, match="name must be one of .* got name='svhn'"):
        load_dataset("svhn", ".")


def test_available_datasets_lists_complete_sets_only(tmp_path):
    from simulations.datasets import available_datasets

    with pytest.raises(ValueError, match="data_dir must be an existing folder, got data_dir="):
        available_datasets(tmp_path / "nowhere")
    with pytest.raises(ValueError, match="holds none of the data sets") as err:
        available_datasets(tmp_path)
    assert str(tmp_path / "ml-1m" / "ratings.dat") in str(err.value)
    make_idx_set(tmp_path / "kmnist", np.random.default_rng(2))
    (tmp_path / "ml-1m").mkdir()  # an empty sub-folder is not a data set
    assert available_datasets(tmp_path) == ["kmnist"]
