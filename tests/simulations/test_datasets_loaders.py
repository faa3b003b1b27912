"""Dataset loaders on small files the tests write themselves in the standard formats.

The writers below follow the format specifications (IDX: LeCun's header of two zero bytes, a type
byte, a dimension count and big-endian uint32 sizes; CIFAR: pickled dicts with channel-major rows;
MovieLens-1M: ``UserID::MovieID::Rating::Timestamp`` lines), written with ``struct`` / ``pickle``
independently of the loaders' code.
"""

from __future__ import annotations

import gzip
import pickle
import re
import struct

import numpy as np
import pytest

from simulations.datasets import (DATASETS, available_datasets, expected_files, load_dataset, load_digits, read_idx,
                                  validate_data_dir)


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
    ds = load_dataset(name, tmp_path, fingerprint=None)  # 7 images are not MNIST: format checks only
    assert ds.name == name and ds.num_classes == 10
    assert ds.x_train.dtype == np.uint8 and ds.x_train.shape == (7, 28, 28)
    assert ds.y_train.dtype == np.int64
    np.testing.assert_array_equal(ds.x_train, xtr)
    np.testing.assert_array_equal(ds.y_train, ytr)
    np.testing.assert_array_equal(ds.x_test, xte)
    np.testing.assert_array_equal(ds.y_test, yte)
    # data_dir may also point at the sub-folder itself
    np.testing.assert_array_equal(load_dataset(name, tmp_path / name, fingerprint=None).y_test, yte)


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


CIFAR_LAYOUT = {  # name -> (sub-folder, files, labels key, classes)
    "cifar10": ("cifar-10-batches-py", [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"], b"labels", 10),
    "cifar100": ("cifar-100-python", ["train", "test"], b"fine_labels", 100),
}


def make_cifar_set(data_dir, name, rng, n=2):
    """The files of ``name`` with ``n`` random images each; returns (images, labels) per file."""
    sub, files, key, K = CIFAR_LAYOUT[name]
    (data_dir / sub).mkdir(parents=True)
    imgs, labs = [], []
    for f in files:
        x = rng.integers(0, 256, size=(n, 32, 32, 3)).astype(np.uint8)
        y = rng.integers(0, K, size=n).tolist()
        d = {b"data": cifar_rows(x), key: y, b"batch_label": b"synthetic"}
        if name == "cifar100":
            d[b"coarse_labels"] = [0] * n
        with open(data_dir / sub / f, "wb") as fh:
            pickle.dump(d, fh)
        imgs.append(x)
        labs.append(y)
    return imgs, labs


@pytest.mark.parametrize("name", ["cifar10", "cifar100"])
def test_cifar_round_trip(tmp_path, name):
    rng = np.random.default_rng(2)
    _, files, _, K = CIFAR_LAYOUT[name]
    imgs, labs = make_cifar_set(tmp_path, name, rng)
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
    with pytest.raises(ValueError, match="ratings must lie in 1..5, got 9 on line 1"):
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


@pytest.mark.parametrize("name", [n for n in DATASETS if n not in ("digits", "mnist5k", "movielens100k")])
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
    with pytest.raises(ValueError, match="data_dir must be an existing folder, got data_dir="):
        available_datasets(tmp_path / "nowhere")
    with pytest.raises(ValueError, match="holds none of the data sets") as err:
        available_datasets(tmp_path)
    assert str(tmp_path / "ml-1m" / "ratings.dat") in str(err.value)
    make_idx_set(tmp_path / "kmnist", np.random.default_rng(2))
    (tmp_path / "ml-1m").mkdir()  # an empty sub-folder is not a data set
    assert available_datasets(tmp_path) == ["kmnist"]


# --- corrupt files: a ValueError naming the data set, the file and the reason (issue 19) -----------------

def write_raw_gz(path, payload: bytes):
    with gzip.open(path, "wb") as fh:
        fh.write(payload)


def idx_header(type_code, *dims):
    return struct.pack(">BBBB", 0, 0, type_code, len(dims)) + b"".join(struct.pack(">I", d) for d in dims)


def truncate(path, keep: float = 0.5):
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * keep)])


def flip_middle_byte(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


TRAIN_IMAGES, TRAIN_LABELS = "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"
TEST_IMAGES, TEST_LABELS = "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"

# corruption of a valid set (7 train, 3 test images) -> (file named in the message, the reason's pattern)
IDX_CORRUPTIONS = {
    "random_bytes": (lambda d: (d / TRAIN_IMAGES).write_bytes(np.random.default_rng(0).bytes(500)),
                     TRAIN_IMAGES, "is not a valid gzip file .*Not a gzipped file"),
    "truncated_gzip": (lambda d: truncate(d / TEST_IMAGES), TEST_IMAGES,
                       "is not a valid gzip file .*end-of-stream marker"),
    "corrupt_deflate_stream": (lambda d: flip_middle_byte(d / TRAIN_IMAGES), TRAIN_IMAGES,
                               "is not a valid gzip file"),
    "empty_file": (lambda d: (d / TRAIN_LABELS).write_bytes(b""), TRAIN_LABELS, "is not an IDX file"),
    "bad_magic": (lambda d: write_raw_gz(d / TRAIN_LABELS, b"\x08\x03\x00\x00" + bytes(7)), TRAIN_LABELS,
                  "is not an IDX file .*bad magic number"),
    "unknown_type_code": (lambda d: write_raw_gz(d / TRAIN_LABELS, idx_header(0x07, 7) + bytes(7)), TRAIN_LABELS,
                          "is not an IDX file"),
    "truncated_header": (lambda d: write_raw_gz(d / TEST_IMAGES, idx_header(0x08, 3, 28, 28)[:10]), TEST_IMAGES,
                         "announces 3 dimensions but the file ends after 10 bytes"),
    "payload_shorter_than_header": (
        lambda d: write_raw_gz(d / TRAIN_IMAGES, idx_header(0x08, 7, 28, 28) + bytes(6 * 784)),
        TRAIN_IMAGES, re.escape("announces shape (7, 28, 28) of uint8 but the file holds 4704")),
    "payload_longer_than_header": (lambda d: write_raw_gz(d / TEST_LABELS, idx_header(0x08, 3) + bytes(4)),
                                   TEST_LABELS, re.escape("announces shape (3,) of uint8 but the file holds 4")),
    "wrong_image_size": (lambda d: write_idx(d / TRAIN_IMAGES, np.zeros((7, 27, 28))), TRAIN_IMAGES,
                         re.escape("expected uint8 images of shape (n, 28, 28)") + r".*got uint8 of shape \(7, 27, 28\)"),
    "images_two_dimensional": (lambda d: write_idx(d / TEST_IMAGES, np.zeros((3, 784))), TEST_IMAGES,
                               re.escape("got uint8 of shape (3, 784)")),
    "images_not_bytes": (lambda d: write_raw_gz(d / TRAIN_IMAGES, idx_header(0x0C, 7, 28, 28) + bytes(4 * 7 * 784)),
                         TRAIN_IMAGES, "expected uint8 images .*got int32"),
    "labels_not_bytes": (lambda d: write_raw_gz(d / TEST_LABELS, idx_header(0x0C, 3) + bytes(12)), TEST_LABELS,
                         "expected uint8 labels .*got int32"),
    "fewer_labels_than_images": (lambda d: write_idx(d / TRAIN_LABELS, np.zeros(6)), TRAIN_LABELS,
                                 "holds 6 labels but .*train-images-idx3-ubyte.gz holds 7 images"),
    "label_out_of_range": (lambda d: write_idx(d / TEST_LABELS, [1, 10, 2]), TEST_LABELS,
                           "labels must lie in 0..9, got 10 at index 1"),
}
IDX_TITLES = {"mnist": "MNIST", "fashion_mnist": "Fashion-MNIST", "kmnist": "KMNIST"}


def assert_names(err, title, path):
    """The message starts with the data set's name and names the file (pytest's match already checked)."""
    assert str(err.value).startswith(f"{title}: {path}"), str(err.value)


@pytest.mark.parametrize("corruption", list(IDX_CORRUPTIONS))
@pytest.mark.parametrize("name", ["mnist", "kmnist"])
def test_corrupt_idx_file_names_data_set_and_file(tmp_path, name, corruption):
    make_idx_set(tmp_path / name, np.random.default_rng(3))
    corrupt, file, reason = IDX_CORRUPTIONS[corruption]
    corrupt(tmp_path / name)
    path = tmp_path / name / file
    pattern = re.escape(f"{IDX_TITLES[name]}: {path}") + ".*" + reason
    with pytest.raises(ValueError, match=pattern) as err:
        load_dataset(name, tmp_path)
    assert_names(err, IDX_TITLES[name], path)
    with pytest.raises(ValueError, match=pattern):  # the up-front check reads the same way
        validate_data_dir(tmp_path)


@pytest.mark.parametrize("corruption, cause", [("random_bytes", gzip.BadGzipFile), ("truncated_gzip", EOFError)])
def test_corrupt_gzip_keeps_the_low_level_error_as_cause(tmp_path, corruption, cause):
    make_idx_set(tmp_path / "fashion_mnist", np.random.default_rng(4))
    IDX_CORRUPTIONS[corruption][0](tmp_path / "fashion_mnist")
    with pytest.raises(ValueError, match="^Fashion-MNIST: ") as err:
        load_dataset("fashion_mnist", tmp_path)
    chain, exc = [], err.value
    while exc is not None:
        chain.append(exc)
        exc = exc.__cause__
    assert isinstance(chain[-1], cause), chain


def dump(path, obj):
    with open(path, "wb") as fh:
        pickle.dump(obj, fh)


def good_batch(key=b"labels", n=2):
    return {b"data": np.zeros((n, 3072), dtype=np.uint8), key: list(range(n)), b"batch_label": b"x"}


# corruption -> (data set, file, writer of that file, the reason's pattern)
CIFAR_CORRUPTIONS = {
    "random_bytes": ("cifar10", "data_batch_3", lambda p: p.write_bytes(np.random.default_rng(5).bytes(300)),
                     "is not a readable python pickle .*UnpicklingError"),
    "truncated_pickle": ("cifar10", "test_batch", lambda p: truncate(p), "is not a readable python pickle"),
    "empty_file": ("cifar100", "train", lambda p: p.write_bytes(b""), "is not a readable python pickle .*EOFError"),
    "not_a_dict": ("cifar10", "data_batch_1", lambda p: dump(p, [1, 2, 3]), "should hold a pickled dict .*got a list"),
    "missing_labels": ("cifar10", "data_batch_5", lambda p: dump(p, {b"data": np.zeros((2, 3072), np.uint8)}),
                       re.escape("lacks the key(s) ['labels']")),
    "missing_fine_labels": ("cifar100", "test", lambda p: dump(p, good_batch(b"coarse_labels")),
                            re.escape("lacks the key(s) ['fine_labels']")),
    "rows_not_3072": ("cifar10", "data_batch_2",
                      lambda p: dump(p, {**good_batch(), b"data": np.zeros((2, 3000), np.uint8)}),
                      re.escape("'data' must be (n, 3072) bytes 0..255, got uint8 of shape (2, 3000)")),
    "data_not_bytes": ("cifar10", "data_batch_2", lambda p: dump(p, {**good_batch(), b"data": np.full((2, 3072), 0.5)}),
                       "'data' must be .* got float64"),
    "more_labels_than_images": ("cifar10", "test_batch", lambda p: dump(p, {**good_batch(), b"labels": [0, 1, 2]}),
                                "holds 3 'labels' for 2 images"),
    "label_out_of_range": ("cifar100", "train",
                           lambda p: dump(p, good_batch(b"fine_labels") | {b"fine_labels": [3, 100]}),
                           "'fine_labels' must lie in 0..99, got 100 at index 1"),
}


@pytest.mark.parametrize("corruption", list(CIFAR_CORRUPTIONS))
def test_corrupt_cifar_file_names_data_set_and_file(tmp_path, corruption):
    name, file, write, reason = CIFAR_CORRUPTIONS[corruption]
    make_cifar_set(tmp_path, name, np.random.default_rng(6))
    path = tmp_path / CIFAR_LAYOUT[name][0] / file
    write(path)
    title = {"cifar10": "CIFAR-10", "cifar100": "CIFAR-100"}[name]
    pattern = re.escape(f"{title}: {path}") + ".*" + reason
    with pytest.raises(ValueError, match=pattern) as err:
        load_dataset(name, tmp_path)
    assert_names(err, title, path)
    with pytest.raises(ValueError, match=pattern):
        validate_data_dir(tmp_path)


RATINGS_CORRUPTIONS = {
    "non_integer_field": ("1::1193::5::978300760\n1::661::x::978302109\n", "line 2 is not in the MovieLens-1M format"),
    "three_fields": ("1::1193::5::978300760\n\n2::661::3\n", "line 3 is not in the MovieLens-1M format .*'2::661::3'"),
    "other_separator": ("1,1193,5,978300760\n", "line 1 is not in the MovieLens-1M format"),
    "random_bytes": (np.random.default_rng(7).bytes(200).replace(b"\n", b"").decode("latin-1"),
                     "line 1 is not in the MovieLens-1M format"),
    "rating_out_of_range": ("1::1193::5::978300760\n1::661::0::978302109\n",
                            "ratings must lie in 1..5, got 0 on line 2"),
    "empty_file": ("", "holds no ratings"),
}


@pytest.mark.parametrize("corruption", list(RATINGS_CORRUPTIONS))
def test_corrupt_ratings_names_data_set_file_and_line(tmp_path, corruption):
    text, reason = RATINGS_CORRUPTIONS[corruption]
    (tmp_path / "ml-1m").mkdir()
    path = tmp_path / "ml-1m" / "ratings.dat"
    path.write_text(text, encoding="latin-1")
    pattern = re.escape(f"MovieLens-1M: {path}") + ".*" + reason
    with pytest.raises(ValueError, match=pattern) as err:
        load_dataset("movielens1m", tmp_path)
    assert_names(err, "MovieLens-1M", path)
    with pytest.raises(ValueError, match=pattern):
        validate_data_dir(tmp_path)


def test_validate_data_dir_reads_every_set_present(tmp_path):
    rng = np.random.default_rng(8)
    for name in ("mnist", "kmnist"):
        make_idx_set(tmp_path / name, rng)
    make_cifar_set(tmp_path, "cifar100", rng)
    (tmp_path / "ml-1m").mkdir()
    (tmp_path / "ml-1m" / "ratings.dat").write_text("1::1193::5::978300760\n2::661::3::978302109\n")
    # (format checks only: 7 random images are not MNIST; the fingerprint check: test_datasets_fingerprint.py)
    assert (validate_data_dir(tmp_path, fingerprint=None) == available_datasets(tmp_path)
            == ["mnist", "kmnist", "cifar100", "movielens1m"])
    # files directly in data_dir: the three IDX sets share their names, all three are listed
    assert validate_data_dir(tmp_path / "kmnist") == ["mnist", "fashion_mnist", "kmnist"]
    # one corrupt file among valid sets: available_datasets only sees names, the validation reads it
    IDX_CORRUPTIONS["truncated_gzip"][0](tmp_path / "kmnist")
    assert "kmnist" in available_datasets(tmp_path)
    with pytest.raises(ValueError, match=re.escape(f"KMNIST: {tmp_path / 'kmnist' / TEST_IMAGES} is not a valid gzip")):
        validate_data_dir(tmp_path, fingerprint=None)


def test_validate_data_dir_rejects_half_unpacked_sub_folder_and_empty_folder(tmp_path):
    make_idx_set(tmp_path / "mnist", np.random.default_rng(9))
    (tmp_path / "mnist" / TEST_LABELS).unlink()
    with pytest.raises(ValueError, match=re.escape(f"MNIST: '{tmp_path / 'mnist'}' holds only some of the files of "
                                                   f"mnist; missing: ['{TEST_LABELS}']")):
        validate_data_dir(tmp_path)
    with pytest.raises(ValueError, match="data_dir must be an existing folder"):
        validate_data_dir(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="holds none of the data sets"):
        validate_data_dir(tmp_path / "empty")
