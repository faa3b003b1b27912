"""The torch path (issue 12): training loop, label treatments, models, checkpoints, cnn_benchmarks on files.

Tiny and fast: a few dozen images, one to three epochs. Expected values come from the papers (the
vector mechanism's a and b, 000 eq. (12); the published tables typed in from 000 / 004) or from an
independent numpy computation, never from the code's own output.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch not installed: pip install -e '.[torch]' to run the torch tests")

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from test_datasets_loaders import cifar_rows, make_idx_set  # noqa: E402

from simulations.datasets import Dataset, load_dataset, load_digits  # noqa: E402
from simulations.experiments.base import RunContext  # noqa: E402
from simulations.experiments.learning import cnn_benchmarks as cb  # noqa: E402
from simulations.torch_path.methods import (ALL_METHODS, method_accuracy, predict_method, train_method,  # noqa: E402
                                            vector_debiased_scores)
from simulations.torch_path.models import ResNet18, SimpleCNN, build_model  # noqa: E402
from simulations.torch_path.training import TrainConfig, fit_classifier, image_tensor  # noqa: E402


def tiny_digits(n_train=48, n_test=24) -> Dataset:
    ds = load_digits()
    return Dataset("digits", ds.x_train[:n_train], ds.y_train[:n_train], ds.x_test[:n_test], ds.y_test[:n_test], 10)


def _weights(model):
    return {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}


def _same(a, b) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


CFG = TrainConfig(epochs=2, batch_size=16, mixup_alpha=1.0, device="cpu")


def _problem():
    ds = tiny_digits()
    t = np.eye(10, dtype=np.float32)[ds.y_train]
    return image_tensor(ds.x_train, 16.0), t


def test_same_seed_same_weights_different_seed_different():
    x, t = _problem()
    m1 = fit_classifier(x, t, loss="softmax", config=CFG, seed=7)
    m2 = fit_classifier(x, t, loss="softmax", config=CFG, seed=7)
    m3 = fit_classifier(x, t, loss="softmax", config=CFG, seed=8)
    assert _same(_weights(m1), _weights(m2))
    assert not _same(_weights(m1), _weights(m3))


def test_training_leaves_the_callers_torch_generator_alone():
    x, t = _problem()
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    fit_classifier(x, t, loss="sigmoid", config=CFG, seed=1)
    assert torch.equal(torch.rand(3), expected)
    assert not torch.are_deterministic_algorithms_enabled()  # restored after the call


@pytest.mark.parametrize("method", ALL_METHODS)
def test_each_method_trains_and_predicts(method):
    ds = tiny_digits()
    cfg = TrainConfig(epochs=1, batch_size=16, mixup_alpha=1.0, device="cpu")
    predict = train_method(method, ds, 1.0, np.random.default_rng(3), cfg)
    pred = predict(ds.x_test)
    assert pred.shape == (ds.y_test.size,) and pred.dtype == np.int64
    assert pred.min() >= 0 and pred.max() < 10
    # same privacy stream -> same accuracy, bit for bit
    a1 = method_accuracy(method, ds, 1.0, np.random.default_rng(3), cfg)
    assert a1 == float(np.mean(pred == ds.y_test))


@pytest.mark.parametrize("loss", ["softmax", "sigmoid"])
def test_one_step_moves_the_weights_and_lowers_the_loss_on_its_batch(loss):
    x, t = _problem()
    cfg = TrainConfig(epochs=1, batch_size=x.shape[0], device="cpu")  # one step: the whole set is one batch
    torch.manual_seed(5)
    init = build_model("simple_cnn", in_channels=1, image_size=8, num_classes=10)
    m = fit_classifier(x, t, loss=loss, config=cfg, seed=5)  # same seed -> same initial weights as init
    assert not _same(_weights(init), _weights(m))
    init.eval()
    tt = torch.from_numpy(t)
    with torch.no_grad():
        def value(model):
            z = model(x)
            if loss == "sigmoid":
                return float(torch.nn.functional.binary_cross_entropy_with_logits(z, tt))
            return float(torch.nn.functional.cross_entropy(z, tt.argmax(1)))
        assert value(m) < value(init)


@pytest.mark.parametrize("eps", [0.3, 1.0, 4.0])
def test_vector_debiased_argmax_matches_numpy_reference(eps):
    rng = np.random.default_rng(0)
    K = 7
    eta = rng.dirichlet(np.ones(K), size=50)
    # 000 eq. (12): a = e^{ε/2}/(1+e^{ε/2}), b = 1/(1+e^{ε/2}); eq. (24): η̃ = b + (a - b) η
    a, b = np.exp(eps / 2) / (1 + np.exp(eps / 2)), 1 / (1 + np.exp(eps / 2))
    g = b + (a - b) * eta
    np.testing.assert_allclose(vector_debiased_scores(g, eps), eta, rtol=0, atol=1e-12)
    # the prediction from logits: sigmoid, debias, arg-max == arg-max of η (eq. (16))
    logits = np.log(g / (1 - g))
    model = torch.nn.Linear(K, K, bias=False).double()
    with torch.no_grad():
        model.weight.copy_(torch.eye(K, dtype=torch.float64))
    pred = predict_method("vector", model, torch.from_numpy(logits), eps)
    # torch's sigmoid undoes numpy's log only up to a few ulp, and the debiasing divides by a - b (>= 0.07
    # here): the recovered η is within ~1e-14 of eta. Exact arg-max equality is then CPU-independent as
    # long as no row has two classes within that; assert this sample's top-two gap is > 1e-9.
    top = np.sort(eta, axis=1)
    assert np.min(top[:, -1] - top[:, -2]) > 1e-9
    np.testing.assert_array_equal(pred, eta.argmax(axis=1))


def test_loaders_to_model_shapes(tmp_path):
    rng = np.random.default_rng(4)
    ds = load_digits()
    x = image_tensor(ds.x_test[:5], 16.0)
    assert x.shape == (5, 1, 8, 8) and float(x.max()) <= 1.0
    assert SimpleCNN(1, 8, 10)(x).shape == (5, 10)
    make_idx_set(tmp_path / "mnist", rng, n_train=4, n_test=2)
    m = load_dataset("mnist", tmp_path, fingerprint=None)  # 4 random images: format checks only
    x = image_tensor(m.x_train, 255.0)
    assert x.shape == (4, 1, 28, 28)
    assert SimpleCNN(1, 28, 10)(x).shape == (4, 10)
    imgs = rng.integers(0, 256, size=(3, 32, 32, 3)).astype(np.uint8)
    x = image_tensor(imgs, 255.0)
    assert x.shape == (3, 3, 32, 32)
    # channel 1 of the tensor is the green plane of the images
    assert float(x[2, 1, 5, 7]) == pytest.approx(imgs[2, 5, 7, 1] / 255.0)
    resnet = ResNet18(3, 100).eval()
    assert resnet(x).shape == (3, 100)
    assert sum(p.numel() for p in resnet.parameters()) == pytest.approx(11.2e6, rel=0.02)  # ResNet-18 size


def test_checkpoint_resume_equals_uninterrupted_run(tmp_path):
    x, t = _problem()
    cfg = TrainConfig(epochs=3, batch_size=16, mixup_alpha=1.0, device="cpu")
    straight = fit_classifier(x, t, loss="softmax", config=cfg, seed=11)
    part = fit_classifier(x, t, loss="softmax", config=cfg, seed=11, checkpoint_dir=tmp_path, stop_after=1)
    assert part.epochs_done == 1 and not _same(_weights(part), _weights(straight))
    files = list(tmp_path.iterdir())
    assert len(files) == 1 and files[0].suffix == ".pt"  # no temporary file left behind
    resumed = fit_classifier(x, t, loss="softmax", config=cfg, seed=11, checkpoint_dir=tmp_path)
    assert resumed.epochs_done == 3
    assert _same(_weights(resumed), _weights(straight))
    again = fit_classifier(x, t, loss="softmax", config=cfg, seed=11, checkpoint_dir=tmp_path)  # finished: loaded
    assert _same(_weights(again), _weights(straight))
    # a different problem (other seed) does not pick up this checkpoint
    other = fit_classifier(x, t, loss="softmax", config=cfg, seed=12, checkpoint_dir=tmp_path, stop_after=1)
    assert other.epochs_done == 1 and len(list(tmp_path.iterdir())) == 2


@pytest.mark.parametrize("kwargs, name", [
    (dict(batch_size=0), "batch_size"), (dict(epochs=0), "epochs"), (dict(model="vgg16"), "model"),
    (dict(lr=-1.0), "lr"), (dict(device="tpu"), "device"), (dict(mixup_alpha=-0.5), "mixup_alpha")])
def test_bad_train_config(kwargs, name):
    with pytest.raises(ValueError, match=name) as err:
        TrainConfig(**kwargs)
    assert repr(next(iter(kwargs.values()))) in str(err.value) or str(next(iter(kwargs.values()))) in str(err.value)


def test_bad_method_epsilon_and_model():
    ds = tiny_digits()
    with pytest.raises(ValueError, match="method.*'LP-9ST'"):
        train_method("LP-9ST", ds, 1.0, np.random.default_rng(0), CFG)
    for eps in (0.0, -1.0):
        with pytest.raises(ValueError, match=f"epsilon.*{eps}"):
            train_method("RR", ds, eps, np.random.default_rng(0), CFG)
    with pytest.raises(ValueError, match="model.*'alexnet'"):
        build_model("alexnet", in_channels=1, image_size=28, num_classes=10)


def test_stage_mixup_trains_each_stage_with_its_alpha(monkeypatch):
    """004 Figure 4(b) varies mixup per stage: LP-2ST with stage_mixup=(α1, α2) trains stage 1 with α1, stage 2 with α2;
    without it both stages use the config's α. Bad values are refused before any training."""
    from simulations.torch_path import methods

    seen = []
    real = methods.fit_classifier

    def spy(x, targets, *, config, **kw):
        seen.append(config.mixup_alpha)
        return real(x, targets, config=config, **kw)

    monkeypatch.setattr(methods, "fit_classifier", spy)
    ds = tiny_digits()
    train_method("LP-2ST", ds, 2.0, np.random.default_rng(0), CFG, stage_mixup=(4.0, 1.0))
    assert seen == [4.0, 1.0]
    seen.clear()
    train_method("LP-2ST", ds, 2.0, np.random.default_rng(0), CFG)
    assert seen == [CFG.mixup_alpha] * 2
    seen.clear()
    for bad, method in (((4.0,), "LP-2ST"), ((-1.0, 0.0), "LP-2ST"), ((1.0, 1.0), "RR")):
        with pytest.raises(ValueError, match="stage_mixup"):
            train_method(method, ds, 2.0, np.random.default_rng(0), CFG, stage_mixup=bad)
    assert seen == []


def test_data_dir_without_expected_files(tmp_path):
    (tmp_path / "something_else.txt").write_text("x")
    with pytest.raises(ValueError, match="data_dir=.*holds none of the image data sets"):
        cb.compute(RunContext(profile="smoke", data_dir=tmp_path, cache_dir=tmp_path / "c", progress=False))


def test_cnn_benchmarks_on_tiny_mnist_files_renders_published_vs_measured(tmp_path, monkeypatch):
    from simulations.datasets import fingerprint

    monkeypatch.delitem(fingerprint.COMMITTED, "mnist")  # 24 random images are not MNIST: no fingerprint check
    make_idx_set(tmp_path / "data" / "mnist", np.random.default_rng(9), n_train=24, n_test=8)
    res = cb.compute(RunContext(profile="smoke", data_dir=tmp_path / "data", cache_dir=tmp_path / "c", progress=False))
    tab = res.tables["mnist_published_vs_measured"]
    rows = list(zip(tab["method"], tab["source"], tab["epsilon"], tab["accuracy_percent"]))
    # typed in from 000 Table 1(a) and 004 Table 4 (not from the code)
    assert ("RR", "published (000 Table 1(a))", 0.2, 58.0) in rows
    assert ("vector", "published (000 Table 1(a))", 2.0, 97.4) in rows
    assert ("LP-2ST", "published (004 Table 4)", 4.0, 99.24) in rows
    measured = [r for r in rows if r[1] == "measured here"]
    assert {r[0] for r in measured} == {"RR", "LP-2ST", "ALIBI", "vector", "non-private"}
    assert all(0.0 <= r[3] <= 100.0 for r in measured)
    assert "published (000 Table 1(a))" in res.notes and "measured here" in res.notes
    figs = cb.plot(res)
    assert set(figs) == {"cnn_benchmarks_digits", "cnn_benchmarks_mnist", "cnn_benchmarks_lp2st_mixup"}
    grid = res.tables["digits_lp2st_mixup"]  # 004 Figure 4(b): the smoke grid α ∈ {0, 4} per stage, ε = 2
    assert list(zip(grid["alpha_stage1"], grid["alpha_stage2"])) == [(0.0, 0.0), (0.0, 4.0), (4.0, 0.0), (4.0, 4.0)]
    assert set(grid["epsilon"]) == {2.0} and all(0.0 <= m <= 1.0 for m in grid["mean"])
    # a second run resumes from the cache: same numbers
    again = cb.compute(RunContext(profile="smoke", data_dir=tmp_path / "data", cache_dir=tmp_path / "c", progress=False))
    assert again.tables["mnist_published_vs_measured"]["accuracy_percent"] == tab["accuracy_percent"]


def test_cifar_files_are_found_and_the_table_renders(tmp_path):
    sub = tmp_path / "cifar-10-batches-py"
    sub.mkdir()
    rng = np.random.default_rng(1)
    for f in [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]:
        x = rng.integers(0, 256, size=(2, 32, 32, 3)).astype(np.uint8)
        with open(sub / f, "wb") as fh:
            pickle.dump({b"data": cifar_rows(x), b"labels": [1, 2]}, fh)
    assert cb.image_datasets_in(tmp_path) == ["cifar10"]
    eps = (1.0, 2.0)
    acc = np.full((1, 4, 2), 0.5)
    lines, tab = cb._file_notes("cifar10", eps, acc, np.array([0.9]), "settings")
    text = "\n".join(lines)
    assert "published (004 Table 1)" in text and "published (000 Table 2)" in text
    assert ("vector", "published (000 Table 2)", 1.0, 75.1) in list(zip(tab["method"], tab["source"], tab["epsilon"],
                                                                       tab["accuracy_percent"]))


def test_torch_classifier_follows_the_parameter_protocol():
    """issue 21: LP-MST clones its learner per stage; TorchClassifier's parameters survive sklearn's clone."""
    from sklearn.base import clone

    from simulations.torch_path.methods import TorchClassifier

    cfg = TrainConfig(model="simple_cnn", epochs=1, batch_size=8)
    est = TorchClassifier(config=cfg, num_classes=3, random_state=5, scale=255.0)
    copy = clone(est)
    assert copy is not est and copy.get_params() == est.get_params()
    assert est.set_params(random_state=6).random_state == 6 and clone(est).random_state == 6


def test_predicted_logits_do_not_depend_on_the_batch_size_beyond_rounding():
    # predict_scores batches the images (PREDICT_BATCH, chosen for speed); every image's logits are its own forward
    # pass, so any batch size gives the same logits up to the convolution kernels' rounding (torch may pick another
    # kernel for another batch shape) and the same arg-max on these untied logits
    from simulations.torch_path.training import PREDICT_BATCH, predict_scores

    gen = torch.Generator().manual_seed(5)
    net = SimpleCNN(1, 28, 10)
    x = torch.rand(PREDICT_BATCH + 37, 1, 28, 28, generator=gen)
    one_pass = predict_scores(net, x, batch_size=x.shape[0])
    for bs in (1, 7, PREDICT_BATCH):
        scores = predict_scores(net, x, batch_size=bs)
        assert scores.shape == one_pass.shape
        np.testing.assert_allclose(scores, one_pass, rtol=1e-5, atol=1e-6)
    top2 = np.sort(one_pass, axis=1)[:, -2:]
    assert np.all(top2[:, 1] - top2[:, 0] > 1e-4)  # no near-tie, so the arg-max cannot move with the rounding
    assert np.array_equal(predict_scores(net, x).argmax(axis=1), one_pass.argmax(axis=1))
