"""The CNN's learning rate / epochs chosen on privatized validation data (issue 22 item 2).

Tiny and fast (tens of digits images, one or two epochs). What is checked: the choice never reads a test
label; the validation split is disjoint from the training and test images; same seed, same choice; the
chosen cell is the grid cell of largest validation agreement and the returned network is that cell's; the
network read after e epochs of one run is the network of a run of e epochs; the chosen values are recorded.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch not installed: pip install -e '.[torch]' to run the torch tests")

from simulations.datasets import Dataset, load_digits  # noqa: E402
from simulations.experiments.learning import cnn_benchmarks as cb  # noqa: E402
from simulations.torch_path import methods  # noqa: E402
from simulations.torch_path.methods import predict_method, train_method_tuned  # noqa: E402
from simulations.torch_path.training import TrainConfig, fit_classifier, image_tensor, predict_scores  # noqa: E402
from simulations.torch_path.tuning import TuningGrid, Validation, checkpoint_epochs, fit_tuned  # noqa: E402

GRID = TuningGrid(lrs=(1e-3, 1e-2), epochs=(1, 2))
CFG = TrainConfig(batch_size=16, device="cpu")


def _point(epsilon=2.0, methods_=cb.METHODS):
    return cb.CNNPoint(dataset="digits", epsilon=epsilon, methods=methods_, model="simple_cnn", epochs=2,
                       batch_size=16, lr=3e-3, mixup_alpha=0.0, flip=False, max_train=80, lrs=GRID.lrs)


def _with_test_labels(monkeypatch, y_test_of):
    """Make cnn_benchmarks load the digits with test labels ``y_test_of(y_test)``."""
    ds = load_digits()
    poisoned = Dataset(ds.name, ds.x_train, ds.y_train, ds.x_test, y_test_of(ds.y_test), ds.num_classes)
    monkeypatch.setattr(cb, "_load", lambda name, data_dir: poisoned)


def _argmax_rule(model, x):
    return predict_scores(model, x).argmax(axis=1)


def _weights(model):
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def test_checkpoint_epochs_rule():
    # ⌈E/4⌉, ⌈E/2⌉, E by hand
    assert checkpoint_epochs(20) == (5, 10, 20) and checkpoint_epochs(5) == (2, 3, 5)
    assert checkpoint_epochs(7) == (2, 4, 7) and checkpoint_epochs(2) == (1, 2) and checkpoint_epochs(1) == (1,)
    with pytest.raises(ValueError, match="max_epochs"):
        checkpoint_epochs(0)


@pytest.mark.parametrize("kwargs, name", [(dict(lrs=(), epochs=(1,)), "lrs"), (dict(lrs=(0.0,), epochs=(1,)), "lrs"),
                                          (dict(lrs=(1e-2, 1e-3), epochs=(1,)), "lrs"),
                                          (dict(lrs=(1e-3,), epochs=(2, 2)), "epochs"),
                                          (dict(lrs=(1e-3,), epochs=(0, 1)), "epochs"),
                                          (dict(lrs=(1e-3,), epochs=(1.5,)), "epochs")])
def test_bad_grid(kwargs, name):
    with pytest.raises(ValueError, match=name):
        TuningGrid(**kwargs)


def test_bad_validation():
    x = np.zeros((3, 8, 8), np.uint8)
    with pytest.raises(ValueError, match="labels"):
        Validation(x, np.array([0, 1]), GRID)
    with pytest.raises(ValueError, match="labels"):
        Validation(x, np.array([0.0, 1.0, 2.0]), GRID)
    with pytest.raises(ValueError, match="grid"):
        Validation(x, np.array([0, 1, 2]), (1e-3,))
    ds = load_digits()
    toy = Dataset("digits", ds.x_train[:16], ds.y_train[:16], ds.x_test[:4], ds.y_test[:4], 10)
    with pytest.raises(ValueError, match="validation"):
        train_method_tuned("RR", toy, 1.0, np.random.default_rng(0), CFG, validation=None)


def test_a_checkpoint_is_the_network_of_a_run_that_long_and_the_choice_is_the_best_cell():
    ds = load_digits()
    x, y = image_tensor(ds.x_train[:64], 16.0), ds.y_train[:64]
    targets = np.eye(10, dtype=np.float32)[y]
    val = Validation(ds.x_train[64:96], ds.y_train[64:96], GRID)
    fit = fit_tuned(x, targets, loss="softmax", config=CFG, seed=7, validation=val, scale=16.0, predict=_argmax_rule)
    # the chosen cell is the first (smaller lr, fewer epochs) cell of largest agreement
    flat = [fit.agreement[GRID.lrs.index(lr), GRID.epochs.index(e)] for lr, e in GRID.cells()]
    assert (fit.lr, fit.epochs) == GRID.cells()[int(np.argmax(flat))]
    # a separate run of exactly the chosen length gives the returned network, weight for weight
    alone = fit_classifier(x, targets, loss="softmax", config=dataclasses.replace(CFG, lr=fit.lr, epochs=fit.epochs),
                           seed=7)
    assert all(torch.equal(a, b) for a, b in zip(_weights(alone).values(), _weights(fit.model).values()))
    # and every cell's agreement is that of a separate run of that (lr, epochs), computed here independently
    xv = image_tensor(val.x, 16.0)
    for (lr, e) in GRID.cells():
        m = fit_classifier(x, targets, loss="softmax", config=dataclasses.replace(CFG, lr=lr, epochs=e), seed=7)
        expect = np.mean(_argmax_rule(m, xv) == val.labels)
        assert fit.agreement[GRID.lrs.index(lr), GRID.epochs.index(e)] == pytest.approx(expect, abs=0)


def test_the_choice_follows_the_validation_labels_only():
    """Flipping which labels the validation split holds moves the choice; the probe images never do."""
    ds = load_digits()
    x, y = image_tensor(ds.x_train[:64], 16.0), ds.y_train[:64]
    targets = np.eye(10, dtype=np.float32)[y]
    base = Validation(ds.x_train[64:96], ds.y_train[64:96], GRID)
    with_probe = dataclasses.replace(base, probe=ds.x_test[:20])
    a = fit_tuned(x, targets, loss="softmax", config=CFG, seed=3, validation=base, scale=16.0, predict=_argmax_rule)
    b = fit_tuned(x, targets, loss="softmax", config=CFG, seed=3, validation=with_probe, scale=16.0,
                  predict=_argmax_rule)
    assert (a.lr, a.epochs) == (b.lr, b.epochs) and np.array_equal(a.agreement, b.agreement)
    assert a.probe_predictions is None and b.probe_predictions.shape == GRID.shape + (20,)
    # labels that agree with exactly one cell's predictions make that cell the choice
    xv = image_tensor(base.x, 16.0)
    target_cell = GRID.cells()[-1]
    m = fit_classifier(x, targets, loss="softmax", config=dataclasses.replace(CFG, lr=target_cell[0],
                                                                              epochs=target_cell[1]), seed=3)
    rigged = dataclasses.replace(base, labels=_argmax_rule(m, xv).astype(np.int64))
    c = fit_tuned(x, targets, loss="softmax", config=CFG, seed=3, validation=rigged, scale=16.0, predict=_argmax_rule)
    assert c.agreement.max() == 1.0 and c.agreement[-1, -1] == 1.0
    assert (c.lr, c.epochs) == GRID.cells()[int(np.argmax(c.agreement.ravel()))]


def test_poisoned_test_labels_change_no_choice(monkeypatch):
    pt = _point()
    clean = cb.cnn_trial(pt, 0, 11)
    _with_test_labels(monkeypatch, lambda y: np.random.default_rng(0).permutation(y[::-1]))
    poisoned = cb.cnn_trial(pt, 0, 11)
    for k in ("lr", "epochs", "stage1"):
        assert np.array_equal(clean[k], poisoned[k], equal_nan=True), k
    _with_test_labels(monkeypatch, lambda y: (y + 1) % 10)  # every test label wrong: still the same choices
    shifted = cb.cnn_trial(pt, 0, 11)
    for k in ("lr", "epochs", "stage1"):
        assert np.array_equal(clean[k], shifted[k], equal_nan=True), k


def test_same_seed_same_choice_and_the_choices_are_recorded():
    pt = _point()
    a, b = cb.cnn_trial(pt, 1, 5), cb.cnn_trial(pt, 1, 5)
    for k in a:
        assert np.array_equal(a[k], b[k], equal_nan=True), k
    M = len(pt.methods)
    assert a["accuracy"].shape == a["lr"].shape == a["epochs"].shape == (M,)
    assert a["stage1"].shape == (M, 2) and a["grid_accuracy"].shape == (M,) + GRID.shape
    assert set(a["lr"]) <= set(GRID.lrs) and set(a["epochs"]) <= set(GRID.epochs)
    lp = pt.methods.index("LP-2ST")
    assert a["stage1"][lp, 0] in GRID.lrs and a["stage1"][lp, 1] in GRID.epochs
    assert np.isnan(np.delete(a["stage1"], lp, axis=0)).all()
    # the reported accuracy is the test accuracy of the chosen cell (the returned network is that cell's)
    for j in range(M):
        g, c = GRID.lrs.index(a["lr"][j]), GRID.epochs.index(int(a["epochs"][j]))
        assert a["accuracy"][j] == a["grid_accuracy"][j, g, c]


def test_validation_split_is_disjoint_from_training_and_test(monkeypatch):
    """Each image gets a unique id in its corner pixels; the spy sees which images each part holds."""
    ds = load_digits()
    n, m = 80, 40

    def tag(x, offset):
        x = x.copy()
        ids = np.arange(offset, offset + len(x))
        x[:, 0, 0], x[:, 0, 1] = ids % 17, ids // 17  # digits pixels are 0..16
        return x

    tagged = Dataset("digits", tag(ds.x_train[:n], 0), ds.y_train[:n], tag(ds.x_test[:m], n), ds.y_test[:m], 10)
    monkeypatch.setattr(cb, "_load", lambda name, data_dir: tagged)
    seen, original = [], methods.train_method_tuned

    def spy(method, dataset, epsilon, rng, config, validation, **kw):
        seen.append((method, dataset, validation))
        return original(method, dataset, epsilon, rng, config, validation, **kw)

    monkeypatch.setattr(methods, "train_method_tuned", spy)
    pt = dataclasses.replace(_point(methods_=("RR", "vector")), max_train=None)
    cb.cnn_trial(pt, 0, 3)

    def ids(x):
        return set((x[:, 0, 0].astype(int) + 17 * x[:, 0, 1].astype(int)).tolist())

    assert [s[0] for s in seen] == ["RR", "vector"]
    for _, dataset, validation in seen:
        train, val, test = ids(dataset.x_train), ids(validation.x), ids(dataset.x_test)
        assert not train & val and not (train | val) & test
        assert train | val == set(range(n)) and len(val) == round(cb.VALIDATION_FRACTION * n)
        assert ids(validation.probe) == test == set(range(n, n + m))
        # the validation labels are RR-privatized, not the true ones: at ε = 2, K = 10 RR keeps a label with
        # probability e²/(e² + 9) ≈ 0.45 (004 eq. (1)), so 16 labels all kept has probability < 1e-5
        true = tagged.y_train[sorted(val)]
        assert not np.array_equal(validation.labels, true)
    assert seen[0][2] is seen[1][2]  # one validation release per (ε, seed), shared by the methods


def test_nonprivate_reference_reads_the_true_validation_labels(monkeypatch):
    seen, original = [], methods.train_method_tuned

    def spy(method, dataset, epsilon, rng, config, validation, **kw):
        seen.append(validation)
        return original(method, dataset, epsilon, rng, config, validation, **kw)

    monkeypatch.setattr(methods, "train_method_tuned", spy)
    pt = _point(epsilon=None, methods_=("non-private",))
    out = cb.cnn_trial(pt, 0, 3)
    ds = load_digits()
    # the validation images are digits training images; their labels are the true ones
    lookup = {x.tobytes(): y for x, y in zip(ds.x_train, ds.y_train)}
    assert [lookup[x.tobytes()] for x in seen[0].x] == seen[0].labels.tolist()
    assert out["lr"][0] in GRID.lrs


def test_vector_method_is_tuned_with_its_own_prediction_rule():
    ds = load_digits()
    train = Dataset("digits", ds.x_train[:64], ds.y_train[:64], ds.x_test[:20], ds.y_test[:20], 10)
    val = Validation(ds.x_train[64:96], ds.y_train[64:96], GRID, probe=ds.x_test[:20])
    predict, fits = train_method_tuned("vector", train, 1.0, np.random.default_rng(0), CFG, val)
    assert len(fits) == 1
    fit = fits[0]
    g, c = GRID.lrs.index(fit.lr), GRID.epochs.index(fit.epochs)
    expect = predict_method("vector", fit.model, image_tensor(ds.x_test[:20], 16.0), 1.0)
    assert np.array_equal(predict(ds.x_test[:20]), expect) and np.array_equal(fit.probe_predictions[g, c], expect)


def test_smoke_run_records_the_grid_and_the_choices(smoke_run):
    run = smoke_run("cnn_benchmarks")
    rec = run.record
    assert {"chosen_hyperparameters.csv", "lr_epochs_sensitivity.csv"} <= set(rec["tables"])
    rows = [r.split(",") for r in (run.folder / "chosen_hyperparameters.csv").read_text().splitlines()[1:]]
    digits = [r for r in rows if r[0] == "digits"]
    assert {r[1] for r in digits} == {"RR", "LP-2ST", "ALIBI", "vector", "non-private"}
    assert all(float(r[4]) in cb.DIGITS_LRS for r in digits)
    sens = (run.folder / "lr_epochs_sensitivity.csv").read_text().splitlines()
    assert sens[0] == ",".join(cb._SENS_COLS)
    assert "chosen on RR-privatized validation labels" in rec["notes"]
