"""The bias papers' image layout: MNIST as (784, n) columns, CIFAR-10 as luma grayscale columns,
the preprocessings and one-hot targets, on small files the tests write (the loaders themselves:
tests/test_image_data.py)."""
import gzip
import pickle
import struct

import numpy as np
import pytest

from numerics import image_data as shared
from numerics.bias import configs, image_data
from numerics.bias.image_experiments import image_pair


def write_idx(path, array, gz=False):
    head = struct.pack(">BBBB", 0, 0, 0x08, array.ndim) + struct.pack(">" + "I" * array.ndim,
                                                                     *array.shape)
    data = head + array.astype(np.uint8).tobytes()
    (gzip.open if gz else open)(path, "wb").write(data)


@pytest.fixture
def mnist_dir(tmp_path):
    rng = np.random.default_rng(0)
    for prefix, n, gz in (("train", 7, True), ("t10k", 3, False)):
        images = rng.integers(0, 256, size=(n, 28, 28))
        labels = rng.integers(0, 10, size=n)
        suffix = ".gz" if gz else ""
        write_idx(tmp_path / f"{prefix}-images-idx3-ubyte{suffix}", images, gz)
        write_idx(tmp_path / f"{prefix}-labels-idx1-ubyte{suffix}", labels, gz)
        np.save(tmp_path / f"{prefix}.npy", images)
        np.save(tmp_path / f"{prefix}_labels.npy", labels)
    return tmp_path


def test_mnist_loader_reads_idx_files_gzipped_or_not(mnist_dir):
    for split, prefix in (("train", "train"), ("test", "t10k")):
        X, y = image_data.load_mnist(mnist_dir, split)
        images = np.load(mnist_dir / f"{prefix}.npy")
        assert X.shape == (784, images.shape[0])
        np.testing.assert_array_equal(X[:, 1], images[1].ravel() / 255.0)
        np.testing.assert_array_equal(y, np.load(mnist_dir / f"{prefix}_labels.npy"))


def test_missing_files_and_bad_split_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="train-images"):
        image_data.load_mnist(tmp_path)
    with pytest.raises(ValueError, match="split"):
        image_data.load_mnist(tmp_path, "valid")
    with pytest.raises(FileNotFoundError, match="CIFAR-10"):
        image_data.load_cifar10(tmp_path)


def test_cifar_loader_converts_to_luma_grayscale(tmp_path):
    folder = tmp_path / "cifar-10-batches-py"
    folder.mkdir()
    rng = np.random.default_rng(1)
    data = rng.integers(0, 256, size=(5, 3072), dtype=np.uint8)
    labels = [3, 1, 4, 1, 5]
    with open(folder / "data_batch_1", "wb") as f:
        pickle.dump({b"data": data, b"labels": labels}, f)
    X, y = image_data.load_cifar10(tmp_path, "train")
    assert X.shape == (1024, 5)
    r, g, b = data[2, :1024], data[2, 1024:2048], data[2, 2048:]
    np.testing.assert_allclose(X[:, 2], (0.299 * r + 0.587 * g + 0.114 * b) / 255.0, rtol=1e-12)
    np.testing.assert_array_equal(y, labels)


def test_preprocessing_and_one_hot():
    rng = np.random.default_rng(2)
    Xtr, Xte = rng.random((6, 20)), rng.random((6, 4))
    tr, te = image_data.preprocess(Xtr, Xte, "pixel")
    np.testing.assert_allclose(tr.mean(1), 0, atol=1e-15)
    np.testing.assert_allclose(te, Xte - Xtr.mean(1, keepdims=True))
    st, _ = image_data.preprocess(Xtr, Xte, "standard")
    assert abs(st.mean()) < 1e-12 and abs(st.std() - 1) < 1e-12
    with pytest.raises(ValueError, match="kind"):
        image_data.preprocess(Xtr, Xte, "zca")
    with pytest.raises(ValueError, match="constant"):
        image_data.preprocess(np.ones((2, 3)), np.ones((2, 1)), "standard")
    np.testing.assert_array_equal(image_data.one_hot([2, 0], 3), [[0, 1], [0, 0], [1, 0]])
    with pytest.raises(ValueError, match="labels"):
        image_data.one_hot([3], 3)


def _tiny(**changes):
    config = configs.ImageConfig(scale="ci", data="mnist", preprocessing="pixel", n_train=7,
                                 n_test=3, n_hid=8, optimiser="full-batch GD", lr=0.04 / 7,
                                 horizon=2.0, seeds=(0, 1))
    return config.replace(**changes)


def test_real_data_runs_use_the_named_folder(mnist_dir, monkeypatch):
    monkeypatch.delenv(shared.DATA_DIR_ENV, raising=False)
    assert image_pair(_tiny()) is None
    monkeypatch.setenv(shared.DATA_DIR_ENV, str(mnist_dir))
    assert image_pair(_tiny(data="cifar10")) is None          # folder without CIFAR batches
    runs = image_pair(_tiny(preprocessing="standard"))
    assert runs.relu.n_train == 7 and np.all(np.isfinite(runs.relu.loss))
    assert runs.ran["training images"] == 7 and runs.ran["test images"] == 3
    assert runs.relu.loss.shape[1] == 4                      # 2 bias conditions x 2 seeds


def test_sgd_runner_keeps_the_paper_clock_and_learns():
    """The paper-scale procedure of BL Figs 1/7 (App E: SGD, batch 64) for two epochs on a few
    real MNIST images of the bundled subset: one epoch is lr x P of t/tau, and the loss falls."""
    config = configs.ImageConfig(scale="ci", data="mnist subset", preprocessing="pixel",
                                 n_train=128, n_test=100, n_hid=8, optimiser="minibatch SGD",
                                 lr=2e-3, batch=64, stop_loss=1e-9, max_epochs=2, seeds=(0, 1),
                                 dtype="float64", records_per_epoch=2)
    runs = image_pair(config)
    relu = runs.relu
    assert relu.loss.shape == (5, 4) and relu.gram_rank.shape == (5, 4)
    assert np.allclose(np.diff(relu.t), 0.5 * 2e-3 * 128)          # half an epoch per record
    assert np.all(relu.loss[-1] < relu.loss[0])
    assert runs.ran["epochs (ReLU)"] == 2 and runs.ran["SGD steps (ReLU)"] == 4
    with pytest.raises(ValueError, match="SGD"):
        config.replace(batch=0)


def test_image_setups_declare_every_setting_and_name_their_deviations():
    from verify.bias.evidence import image_setup
    runs = image_pair(configs.MNIST["ci"])
    setup = image_setup(runs)
    devs = {d.setting for d in setup.deviations}
    assert {"training images", "hidden width", "optimiser", "learning rate"} <= devs
    assert not setup.faithful and setup.cost
    assert "stopping" in {d.setting for d in image_setup(runs, stopping=False).deviations}
