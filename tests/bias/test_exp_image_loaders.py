"""The bias papers' image layout: MNIST as (784, n) columns, CIFAR-10 as luma grayscale columns,
the preprocessings and one-hot targets, on small files the tests write (the loaders themselves:
tests/test_image_data.py)."""
import gzip
import pickle
import struct

import numpy as np
import pytest

from numerics import image_data as shared
from numerics.bias import image_data


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


def test_real_data_runs_use_the_named_folder(mnist_dir, monkeypatch):
    from verify.bias.exp_images import real_runs
    monkeypatch.delenv(shared.DATA_DIR_ENV, raising=False)
    assert real_runs("mnist", "pixel") is None
    monkeypatch.setenv(shared.DATA_DIR_ENV, str(mnist_dir))
    assert real_runs("cifar10", "pixel") is None          # folder without CIFAR batches
    runs = real_runs("mnist", "pixel")
    assert set(runs) == {"linear", "relu"}
    assert runs["relu"].n_train == 7 and np.all(np.isfinite(runs["relu"].loss))


def test_sgd_runner_keeps_the_paper_clock_and_learns():
    """The full-scale runner of BL Figs 1/7 (App E: SGD, batch 64) for two epochs on a few real
    MNIST images: one epoch is lr x P of t/tau, and the loss falls."""
    from numerics.bias.image_experiments import mnist_subset_data, run_images_sgd
    Xtr, ytr, Xte, yte = mnist_subset_data("pixel", n_train=128, n_test=100)
    run = run_images_sgd(Xtr, ytr, Xte, yte, activation="relu", seeds=range(2), n_hid=8,
                         lr=2e-3, batch=64, stop_loss=0.0, max_epochs=2, records_per_epoch=2,
                         dtype=__import__("torch").float64)
    assert run.loss.shape == (5, 4) and run.gram_rank.shape == (5, 4)
    assert np.allclose(np.diff(run.t), 0.5 * 2e-3 * 128)          # half an epoch per record
    assert np.all(run.loss[-1] < run.loss[0])
    with pytest.raises(ValueError, match="batch"):
        run_images_sgd(Xtr, ytr, Xte, yte, activation="relu", seeds=[0], n_hid=8, lr=1e-3,
                       batch=0)


def test_full_scale_mnist_runs_use_the_named_folder(mnist_dir, monkeypatch):
    """The --scale=full code path of BL Figs 1/7 end to end on the small IDX files."""
    from numerics.bias.image_experiments import paper_image_runs
    from verify.bias.exp_images import mnist_full_setup
    monkeypatch.delenv(shared.DATA_DIR_ENV, raising=False)
    assert paper_image_runs("mnist", "pixel") is None
    monkeypatch.setenv(shared.DATA_DIR_ENV, str(mnist_dir))
    assert paper_image_runs("cifar10", "pixel") is None       # folder without CIFAR batches
    runs = paper_image_runs("mnist", "standard")
    assert set(runs) == {"linear", "relu"} and runs["relu"].loss.shape[1] == 10
    assert mnist_full_setup().faithful


def test_ci_setups_name_their_deviations_and_full_ones_none():
    from verify.bias.evidence import toy_setup
    from verify.bias.exp_images import mnist_ci_setup
    ci, full = toy_setup("ci", "xor", 8, 30.0), toy_setup("full", "xor", 10, 30.0)
    assert [d.setting for d in ci.deviations] == ["learning rate"] and not ci.faithful
    assert full.faithful
    fig7 = mnist_ci_setup(3, fig1=False)
    assert "seeds" not in fig7.paper and not fig7.faithful and fig7.cost
