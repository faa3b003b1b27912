"""Hostile input, part A of issue 36: untrusted data files and users' own mechanisms.

Each test plays one probe of the issue so that it cannot return:

* probe 1: a pickle under ``<data-dir>/cifar-10-batches-py/`` whose payload runs code (a shell
  command, ``open(..., "w")``, ``exec``) is refused, naming the file and the global, and the marker
  file the payload would create does not exist afterwards; genuine batches still load;
* probe 3: decompression bombs and oversized files are refused after reading their header (or at
  most one cap's worth), within a small memory budget measured with ``tracemalloc``;
* probe 4: a ``RandomizedResponse`` subclass that overrides only ``sample()`` with RR at 1.5 ε does
  not get "holds, exact"; the unmodified class still does;
* probe 11: ``lower_bound`` at ε = 1e-200 gives the ε -> 0 limit instead of "math domain error";
  a channel of 10^14 entries and an audit of 10^12 draws are refused up front, naming the argument;
* probe 13 (its last item): a cache chunk holding pickled data is never loaded, and the warning does
  not suggest ``allow_pickle``.

The files are written here with ``struct`` / ``gzip`` / ``pickle`` from the format specifications,
independently of the readers' code.
"""

from __future__ import annotations

import ast
import gzip
import math
import os
import pickle
import re
import runpy
import struct
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest

from limits import lower_bound
from limits.validation import MAX_ENTRIES, check_size
from proofs_checks.audit import audit_epsilon, output_events
from proofs_checks.dp import check_label_dp
from proofs_checks.planted_bugs import RRTopKShortKeep, rr_top_k_short_keep_loss
from proofs_checks.sampler_check import fit_sampler_to_channel, overridden_methods
from simulations.cache import ChunkStore
from simulations.datasets import expected_files, load_dataset, validate_data_dir
from simulations.datasets.formats import (CIFAR_MAX_ROWS, IDX_MAX_BODY_BYTES, PIXEL_CSV_MAX_BYTES, RATINGS_MAX_BYTES,
                                          read_cifar_batch,
                                          read_idx, read_pixel_csv, read_ratings)
from simulations.datasets.restricted_pickle import restricted_load
from simulations.mechanisms import LaplaceLabels, RandomizedResponse, RRTopK

ROOT = Path(__file__).resolve().parents[1]
MB = 2**20


# ---------------------------------------------------------------- probe 1: code in a CIFAR pickle


class RunsShell:
    """Unpickling calls ``os.system(command)``."""

    def __init__(self, command):
        self.command = command

    def __reduce__(self):
        return os.system, (self.command,)


class OpensForWriting:
    """Unpickling calls ``open(path, "w")``: creates the file."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return open, (self.path, "w")


class Executes:
    """Unpickling calls ``exec(source)``."""

    def __init__(self, source):
        self.source = source

    def __reduce__(self):
        return exec, (self.source,)


def payloads(marker: Path):
    """name -> an object whose unpickling would create ``marker``."""
    return {
        "os.system": RunsShell(f"touch {marker}"),
        "open": OpensForWriting(marker),
        "exec": Executes(f"open({str(marker)!r}, 'w').close()"),
        "inside the labels": {b"data": np.zeros((1, 3072), np.uint8), b"labels": [RunsShell(f"touch {marker}")]},
        "object array": {b"data": np.array([[RunsShell(f"touch {marker}")]], dtype=object), b"labels": [0]},
    }


def cifar_batch(images: np.ndarray, labels, key=b"labels") -> dict:
    """The official layout: rows of 3072 bytes, 1024 red then 1024 green then 1024 blue, row-major."""
    data = np.ascontiguousarray(images.transpose(0, 3, 1, 2)).reshape(images.shape[0], 3072)
    return {b"batch_label": b"training batch 1 of 5", key: list(labels), b"data": data,
            b"filenames": [f"img_{i}.png".encode() for i in range(images.shape[0])]}


def write_cifar10(folder: Path, rng) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    written = {}
    for f in expected_files("cifar10", folder.parent):
        images = rng.integers(0, 256, size=(2, 32, 32, 3), dtype=np.uint8)
        labels = rng.integers(0, 10, size=2).tolist()
        f.write_bytes(pickle.dumps(cifar_batch(images, labels), protocol=2))
        written[f.name] = (images, labels)
    return written


def test_a_genuine_protocol_2_batch_loads(tmp_path):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, size=(3, 32, 32, 3), dtype=np.uint8)
    path = tmp_path / "data_batch_1"
    path.write_bytes(pickle.dumps(cifar_batch(images, [4, 0, 9]), protocol=2))
    x, y = read_cifar_batch(path, "labels", 10)
    np.testing.assert_array_equal(x, images)
    assert y.tolist() == [4, 0, 9] and y.dtype == np.int64


def test_numpy_1_spelling_of_the_array_reconstructor_loads(tmp_path):
    # the official archives name numpy.core.multiarray._reconstruct (numpy 1.x); numpy 2 writes numpy._core
    images = np.full((1, 32, 32, 3), 7, dtype=np.uint8)
    raw = pickle.dumps(cifar_batch(images, [3]), protocol=2)
    if b"numpy._core.multiarray" in raw:
        raw = raw.replace(b"numpy._core.multiarray", b"numpy.core.multiarray")
    assert b"numpy.core.multiarray\n_reconstruct" in raw
    x, y = read_cifar_batch_bytes(tmp_path, raw)
    assert x.shape == (1, 32, 32, 3) and int(x.max()) == 7 and y.tolist() == [3]


def python2_batch(data: bytes, rows: int, labels) -> bytes:
    """A CIFAR batch as Python 2's cPickle writes it (protocol 2, the official archives), opcode by opcode.

    Strings are SHORT_BINSTRING / BINSTRING (bytes under ``encoding="bytes"``); the array is
    ``numpy.core.multiarray._reconstruct(ndarray, (0,), 'b')`` then BUILD with
    ``(1, shape, dtype('u1', 0, 1) + its state, False, data)``.
    """
    dtype = b"cnumpy\ndtype\nU\x02u1K\x00K\x01\x87R(K\x03U\x01|NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb"
    array = (b"cnumpy.core.multiarray\n_reconstruct\ncnumpy\nndarray\nK\x00\x85U\x01b\x87R"
             + b"(K\x01M" + struct.pack("<H", rows) + b"M" + struct.pack("<H", 3072) + b"\x86" + dtype
             + b"\x89T" + struct.pack("<I", len(data)) + data + b"tb")
    label_list = b"](" + b"".join(b"K" + bytes([v]) for v in labels) + b"e"
    return b"\x80\x02}(U\x04data" + array + b"U\x06labels" + label_list + b"U\x0bbatch_labelU\x03abcu."


def test_a_python_2_batch_as_the_official_archives_write_it_loads(tmp_path):
    rng = np.random.default_rng(4)
    images = rng.integers(0, 256, size=(2, 32, 32, 3), dtype=np.uint8)
    rows = np.ascontiguousarray(images.transpose(0, 3, 1, 2)).reshape(2, 3072)
    raw = python2_batch(rows.tobytes(), 2, [3, 7])
    assert pickle.loads(raw, encoding="bytes")[b"labels"] == [3, 7]  # a valid pickle, as plain pickle reads it
    x, y = read_cifar_batch_bytes(tmp_path, raw)
    np.testing.assert_array_equal(x, images)
    assert y.tolist() == [3, 7]


def read_cifar_batch_bytes(tmp_path, raw: bytes):
    path = tmp_path / "batch"
    path.write_bytes(raw)
    return read_cifar_batch(path, "labels", 10)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("payload", ["os.system", "open", "exec", "inside the labels", "object array"])
def test_a_pickle_payload_never_runs(tmp_path, payload, protocol):
    marker = tmp_path / "marker"
    path = tmp_path / "data_batch_1"
    path.write_bytes(pickle.dumps(payloads(marker)[payload], protocol=protocol))
    with pytest.raises(ValueError, match=re.escape(str(path)) + ".*refused") as err:
        read_cifar_batch(path, "labels", 10)
    assert isinstance(err.value.__cause__, pickle.UnpicklingError)
    assert not marker.exists()


def test_the_refusal_names_the_global(tmp_path):
    marker = tmp_path / "marker"
    with pytest.raises(pickle.UnpicklingError, match=r"refused global '(posix|nt)\.system'"):
        restricted_load(pickle.dumps(RunsShell(f"touch {marker}")))
    with pytest.raises(pickle.UnpicklingError, match=r"refused global 'builtins\.exec'"):
        restricted_load(pickle.dumps(Executes("1")))
    with pytest.raises(pickle.UnpicklingError, match="refused numpy dtype"):
        restricted_load(pickle.dumps(np.array([None], dtype=object)))
    assert not marker.exists()


def test_a_payload_in_the_data_dir_is_refused_by_validation_and_the_loader(tmp_path):
    marker = tmp_path / "marker"
    write_cifar10(tmp_path / "data" / "cifar-10-batches-py", np.random.default_rng(1))
    bad = tmp_path / "data" / "cifar-10-batches-py" / "data_batch_3"
    bad.write_bytes(pickle.dumps(RunsShell(f"touch {marker}"), protocol=2))
    pattern = re.escape(f"CIFAR-10: {bad}") + ".*refused global"
    with pytest.raises(ValueError, match=pattern):
        validate_data_dir(tmp_path / "data")
    with pytest.raises(ValueError, match=pattern):
        load_dataset("cifar10", tmp_path / "data", fingerprint=None)
    assert not marker.exists()


def test_a_payload_in_the_data_dir_stops_the_cli_with_one_line(tmp_path, capsys):
    """The issue's probe: ``--only rates_table --data-dir`` ran the payload during argument validation."""
    marker = tmp_path / "marker"
    write_cifar10(tmp_path / "data" / "cifar-10-batches-py", np.random.default_rng(2))
    bad = tmp_path / "data" / "cifar-10-batches-py" / "test_batch"
    bad.write_bytes(pickle.dumps({b"data": np.zeros((1, 3072), np.uint8), b"labels": [RunsShell(f"touch {marker}")]},
                                 protocol=2))
    main = runpy.run_path(str(ROOT / "paper_repro.py"), run_name="paper_repro_under_test")["main"]
    rc = main(["--only", "rates_table", "--data-dir", str(tmp_path / "data"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"error: --data-dir: CIFAR-10: {bad}") and "refused global" in err
    assert not marker.exists()


def test_genuine_batches_in_the_data_dir_still_load(tmp_path):
    written = write_cifar10(tmp_path / "cifar-10-batches-py", np.random.default_rng(3))
    assert validate_data_dir(tmp_path) == ["cifar10"]
    ds = load_dataset("cifar10", tmp_path, fingerprint=None)
    np.testing.assert_array_equal(ds.x_test, written["test_batch"][0])
    assert ds.y_train.tolist() == sum((written[f"data_batch_{i}"][1] for i in range(1, 6)), [])


# ---------------------------------------------------------------- probe 3: bombs and oversized files


def idx_header(type_code: int, *dims: int) -> bytes:
    return struct.pack(">BBBB", 0, 0, type_code, len(dims)) + b"".join(struct.pack(">I", d) for d in dims)


def zeros_gz(mebibytes: int) -> bytes:
    """gzip members of 16 MiB of zeros each, concatenated (a valid multi-member gzip file), ~16 KB each."""
    member = gzip.compress(bytes(16 * MB), compresslevel=9)
    return member * (mebibytes // 16)


def peak_bytes(fn):
    """Run ``fn`` (expected to raise ValueError); return (the error, peak traced memory in bytes)."""
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as err:
            fn()
        return err.value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_an_idx_header_declaring_too_much_is_refused_before_its_body(tmp_path):
    path = tmp_path / "train-images-idx3-ubyte.gz"
    path.write_bytes(gzip.compress(idx_header(0x08, 2**32 - 1, 28, 28)) + zeros_gz(1024))  # expands to 1 GiB
    err, peak = peak_bytes(lambda: read_idx(path))
    assert str(path) in str(err) and "refused before reading its body" in str(err)
    assert f"beyond the {IDX_MAX_BODY_BYTES} bytes" in str(err)
    assert peak < 4 * MB, peak


def test_a_gzip_bomb_behind_a_valid_header_is_refused_within_a_small_budget(tmp_path):
    # the bomb: a small .gz that expands to gigabytes; here 7 valid images, then 1 GiB of zeros
    path = tmp_path / "train-images-idx3-ubyte.gz"
    path.write_bytes(gzip.compress(idx_header(0x08, 7, 28, 28) + bytes(7 * 784)) + zeros_gz(1024))
    assert path.stat().st_size < 2 * MB
    err, peak = peak_bytes(lambda: read_idx(path))
    assert str(path) in str(err) and f"holds at least {5488 + MB} data bytes (expected 5488)" in str(err)
    assert peak < 8 * MB, peak


def test_a_bomb_in_the_data_dir_is_named_by_validation_within_the_budget(tmp_path):
    folder = tmp_path / "mnist"
    folder.mkdir()
    for f in expected_files("mnist", tmp_path):
        f.write_bytes(gzip.compress(idx_header(0x08, 1) + bytes(1)))
    bomb = folder / "train-images-idx3-ubyte.gz"
    bomb.write_bytes(gzip.compress(idx_header(0x08, 60000, 28, 28)) + zeros_gz(3072))  # 3 GiB, as in the issue
    err, peak = peak_bytes(lambda: validate_data_dir(tmp_path))
    assert str(err).startswith(f"MNIST: {bomb}"), str(err)
    assert peak < 100 * MB, peak  # the declared 47 MB body, never the 3 GiB


def sparse_file(path: Path, size: int) -> Path:
    with open(path, "wb") as fh:
        fh.truncate(size)  # a hole: no disk used, reads as zeros
    return path


def test_an_oversized_cifar_batch_is_refused_unread(tmp_path):
    path = sparse_file(tmp_path / "data_batch_1", 10**10)
    err, peak = peak_bytes(lambda: read_cifar_batch(path, "labels", 10, max_rows=10000))
    assert str(path) in str(err) and "beyond the largest CIFAR batch" in str(err) and "refused unread" in str(err)
    assert peak < 1 * MB, peak


def test_a_batch_with_more_rows_than_the_official_files_is_refused(tmp_path):
    batch = cifar_batch(np.zeros((3, 32, 32, 3), np.uint8), [0, 1, 2])
    path = tmp_path / "test_batch"
    path.write_bytes(pickle.dumps(batch, protocol=2))
    with pytest.raises(ValueError, match=re.escape(f"{path}: 'data' holds 3 images, more than the 2 of")):
        read_cifar_batch(path, "labels", 10, max_rows=2)
    assert CIFAR_MAX_ROWS == 50000  # CIFAR-100's train file, the largest official batch


def test_an_oversized_ratings_file_is_refused_unread(tmp_path):
    path = sparse_file(tmp_path / "ratings.dat", 10**10)
    err, peak = peak_bytes(lambda: read_ratings(path))
    assert str(path) in str(err) and f"holds more than {RATINGS_MAX_BYTES} bytes" in str(err)
    assert "refused unread" in str(err) and peak < 1 * MB, peak


def test_a_pixel_csv_bomb_is_refused_within_the_budget(tmp_path):
    path = tmp_path / "mnist_5k.csv.gz"
    path.write_bytes(zeros_gz(1024))
    err, peak = peak_bytes(lambda: read_pixel_csv(path, (28, 28), 10))
    assert str(path) in str(err) and f"holds more than {PIXEL_CSV_MAX_BYTES} bytes" in str(err)
    assert "refused after inflating that much" in str(err)
    assert peak < 2 * PIXEL_CSV_MAX_BYTES + 8 * MB, peak  # the cap, and its inflated chunks being joined


def test_every_np_load_refuses_pickles_and_only_the_restricted_unpickler_unpickles():
    """Static: ``np.load`` always with ``allow_pickle=False``; no ``pickle.load(s)`` outside restricted_pickle."""
    offenders = []
    for package in ("limits", "simulations", "proofs_checks"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                    continue
                owner = node.func.value.id if isinstance(node.func.value, ast.Name) else None
                if owner == "np" and node.func.attr == "load":
                    flags = {k.arg: k.value for k in node.keywords}
                    if not (isinstance(flags.get("allow_pickle"), ast.Constant) and flags["allow_pickle"].value is False):
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} np.load without allow_pickle=False")
                if owner == "pickle" and node.func.attr in ("load", "loads", "Unpickler"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} pickle.{node.func.attr}")
    assert offenders == []


# ---------------------------------------------------------------- probe 4: a checker that trusts half a class


class LouderSample(RandomizedResponse):
    """The issue's probe: only ``sample`` is overridden, with RR at 1.5 ε; ``channel_matrix`` is still ε's."""

    def sample(self, labels, rng):
        return RandomizedResponse(self.num_classes, 1.5 * self.epsilon).sample(labels, rng)


class SameSample(RandomizedResponse):
    """Overrides ``sample`` but draws exactly as the parent does."""

    def sample(self, labels, rng):
        return RandomizedResponse.sample(self, labels, rng)


class QuieterChannel(RandomizedResponse):
    """Reports the channel of ε / 2 but samples (inherited) at ε."""

    def channel_matrix(self):
        return RandomizedResponse(self.num_classes, self.epsilon / 2).channel_matrix()


class LaplaceOwnSample(LaplaceLabels):
    """A mechanism without a finite channel whose sampler is replaced."""

    def sample(self, labels, rng):
        return np.asarray(labels, dtype=float)


def test_a_sample_only_override_at_1_5_eps_is_not_certified():
    res = check_label_dp(LouderSample(3, 1.0), 1.0)
    assert not (res.holds and res.exact)
    assert not res.holds and not res.exact
    assert "NOT CERTIFIED" in res.explanation and "does not draw from channel_matrix" in res.explanation
    # the audit of the sampler alone: RR at 1.5 has loss 1.5, so its lower confidence bound is <= 1.5 (at 95 %),
    # and 16666 draws per label place it above the claimed 1.0
    assert 1.0 < res.epsilon_actual <= 1.5
    assert "holds" not in str(res).split(":")[0]


def test_the_unmodified_class_is_still_certified_exactly():
    res = check_label_dp(RandomizedResponse(3, 1.0), 1.0)
    assert res.holds and res.exact and res.epsilon_actual == pytest.approx(1.0, rel=1e-12)  # 004 eq. (1): tight
    assert overridden_methods(RandomizedResponse(3, 1.0), RandomizedResponse) == ()


def test_a_faithful_override_is_reported_as_statistical():
    res = check_label_dp(SameSample(4, 0.7), 0.7)
    assert res.holds and not res.exact and res.epsilon_actual == pytest.approx(0.7, rel=1e-12)
    assert "statistical finding, not a proof" in res.explanation


def test_a_channel_that_does_not_describe_the_sampler_is_not_certified():
    res = check_label_dp(QuieterChannel(3, 1.0), 1.0)
    assert overridden_methods(QuieterChannel(3, 1.0), RandomizedResponse) == ("channel_matrix",)
    assert not res.holds and not res.exact


def test_an_override_without_a_finite_channel_is_refused():
    with pytest.raises(ValueError, match="LaplaceOwnSample overrides sample of the catalogued LaplaceLabels.*refused"):
        check_label_dp(LaplaceOwnSample(1.0, 1.0), 1.0)


def test_planted_bugs_keep_their_exact_wrong_loss():
    # RRTopKShortKeep overrides channel_matrix and sample consistently (inversion of its own rows)
    prior = [0.5, 0.3, 0.2]
    res = check_label_dp(RRTopKShortKeep(3, 0.1, 2), 0.1, prior=prior)
    assert not res.holds and not res.exact
    assert res.epsilon_actual == pytest.approx(math.log(2) - 0.1, rel=1e-12)  # |eps - ln(k/(k-1))|, k = 2
    assert res.epsilon_actual == pytest.approx(rr_top_k_short_keep_loss(0.1, 2), rel=1e-12)


def test_the_fit_catches_an_impossible_output_and_passes_a_faithful_sampler():
    mech = RRTopK(4, 1.0, 2)
    prior = np.array([0.4, 0.3, 0.2, 0.1])
    P = mech.channel_matrix(prior)  # outputs 2 and 3 have probability 0

    def leaky(labels, rng):
        out = mech.sample(labels, rng, prior)
        out[:1] = 3  # one impossible output in n draws
        return out

    bad = fit_sampler_to_channel(leaky, P, n=1000)
    assert not bad.consistent and bad.p_value == 0.0 and bad.worst["output"] == 3 and bad.worst["probability"] == 0
    for seed in range(3):
        assert fit_sampler_to_channel(lambda labels, rng: mech.sample(labels, rng, prior), P, n=2000, rng=seed).consistent


def test_the_fit_false_alarm_rate_is_the_stated_one():
    # Bonferroni over the K M = 4 cells at level a = 0.5: a cell is flagged when its p-value is below 1/8. For K = 2
    # both cells of a row carry the same p-value, so P(flag) <= 1 - (7/8)^2 = 0.234 per fit (0.205 measured over
    # 1000 seeds). Out of 40 faithful fits: at most 20 (the bound a = 0.5 itself), and some (a bug giving every
    # cell p-value 1 would flag none; P(no flag in 40) <= 0.8^40 = 1e-4).
    rr = RandomizedResponse(2, 1.0)
    flagged = sum(not fit_sampler_to_channel(rr.sample, rr.channel_matrix(), n=500, false_alarm=0.5, rng=s).consistent
                  for s in range(40))
    assert 1 <= flagged <= 20


# ---------------------------------------------------------------- probe 11: sizes that cannot fit


@pytest.mark.parametrize("task", ["classification", "regression"])
def test_lower_bound_at_a_tiny_epsilon_is_the_eps_to_0_limit(task):
    kw = dict(d=2, beta=1.0, gamma=1.0) if task == "classification" else dict(d=2, beta=1.0)
    tiny = lower_bound(task, "local", 1000, 1e-200, **kw)  # was "math domain error": eps^2 underflows
    small = lower_bound(task, "local", 1000, 1e-100, **kw)
    # As eps -> 0 the divergence N (e^eps - 1)^2 h^(2beta+d) |phi|^2 -> 0, so each cube's error is
    # 1/2 max(e^0 / 2, 1 - 0) = 1/2 and h sits at its largest allowed value: both are the limit.
    assert tiny.divergence < 1e-300 and tiny.per_cube_error == 0.5
    assert tiny.h == small.h and tiny.bound == small.bound
    assert tiny.bound == pytest.approx(tiny.cubes * tiny.loss_per_cube * 0.5, rel=1e-15)
    for eps in (1e-300, 5e-324):
        assert math.isfinite(lower_bound(task, "local", 1000, eps, **kw).bound)


def test_a_channel_of_10_to_14_entries_is_refused_up_front():
    with pytest.raises(ValueError, match=r"num_classes=10000000 would need 100000000000000 channel entries"):
        RandomizedResponse(10**7, 1.0).channel_matrix()
    with pytest.raises(ValueError, match=r"num_classes=100000 would need 10000000000 channel entries"):
        RRTopK(10**5, 1.0, 2).channel_matrix(np.full(10**5, 1e-5))
    assert RandomizedResponse(10**7, 1.0).privacy_loss() == 1.0  # the closed form needs no channel


def test_an_audit_of_10_to_12_draws_is_refused_before_any_draw():
    def never(n, rng):
        raise AssertionError("a sampler was called")

    with pytest.raises(ValueError, match=r"n=1000000000000 would need 2000000000000 draws"):
        audit_epsilon(never, never, output_events(2), 10**12, np.random.default_rng(0))


def test_check_size():
    assert check_size("n", MAX_ENTRIES) == MAX_ENTRIES
    with pytest.raises(ValueError, match=r"^n=100000001 would need 100000001 entries, more than the limit"):
        check_size("n", MAX_ENTRIES + 1)
    with pytest.raises(ValueError, match="n must be an integer"):
        check_size("n", 1e3)


# ---------------------------------------------------------------- probe 13: a garbage chunk's warning


def test_a_pickled_cache_chunk_is_never_loaded_and_the_warning_does_not_suggest_allow_pickle(tmp_path):
    marker = tmp_path / "marker"
    store = ChunkStore(tmp_path / "cache", "abc123")
    folder = store.folder
    folder.mkdir(parents=True)
    (folder / "chunk_0_4.npz").write_bytes(pickle.dumps(RunsShell(f"touch {marker}")))  # a bare pickle
    with open(folder / "chunk_4_8.npz", "wb") as fh:  # an npz whose array is an object array
        np.savez(fh, metric=np.array([RunsShell(f"touch {marker}")] * 4, dtype=object))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert store.load(8) == []
    texts = [str(w.message) for w in caught]
    assert len(texts) == 2 and all("unreadable cache chunk" in t for t in texts), texts
    assert not any("allow_pickle" in t for t in texts), texts
    assert not marker.exists()
