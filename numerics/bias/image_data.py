"""Image data for BL Figs 1, 7, 8 and BA-T6/T7: loaders for real MNIST (IDX files) and CIFAR-10
(python pickle batches) from a folder the user names, scikit-learn's bundled 8x8 digits as the
stand-in that runs everywhere, and the two preprocessings of BL-Def-Prep.

Images are returned as (n_pixels, n_images) float64 in [0, 1] (columns are samples, as in the
papers) with integer labels (n_images,).  Nothing here downloads anything.
"""
from __future__ import annotations

import gzip
import os
import pickle
import struct
from pathlib import Path

import numpy as np

from numerics.checks import finite_array

#: environment variable naming the folder that holds MNIST / CIFAR-10 files
DATA_DIR_ENV = "CLAIMS_DATA_DIR"
#: ITU-R BT.601 luma weights for the grayscale CIFAR-10 of BL App C.2 (conversion unstated)
LUMA = np.array([0.299, 0.587, 0.114])


def data_dir() -> Path | None:
    """The folder named by ``$CLAIMS_DATA_DIR``, or None when unset or missing."""
    value = os.environ.get(DATA_DIR_ENV)
    return Path(value) if value and Path(value).is_dir() else None


def _open(path: Path):
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")


def read_idx(path) -> np.ndarray:
    """One IDX file (optionally .gz): magic 0x0000TTDD with type TT = 0x08 (unsigned byte)."""
    path = Path(path)
    with _open(path) as f:
        head = f.read(4)
        if len(head) != 4 or head[:2] != b"\x00\x00" or head[2] != 0x08:
            raise ValueError(f"{path}: not an unsigned-byte IDX file (magic {head!r})")
        ndim = head[3]
        shape = struct.unpack(">" + "I" * ndim, f.read(4 * ndim))
        data = np.frombuffer(f.read(), dtype=np.uint8)
    if data.size != int(np.prod(shape)):
        raise ValueError(f"{path}: header says {shape} but holds {data.size} bytes")
    return data.reshape(shape)


def _find(folder: Path, stem: str) -> Path:
    dotted = stem.replace("-idx", ".idx")        # some mirrors name them train-images.idx3-ubyte
    for name in (stem, stem + ".gz", dotted, dotted + ".gz"):
        if (folder / name).exists():
            return folder / name
    raise FileNotFoundError(f"{folder} holds no {stem}[.gz]")


def load_mnist(folder, split: str = "train"):
    """(X (784, n) in [0, 1], labels (n,)) from the standard IDX files in ``folder`` (or its
    ``mnist`` subfolder)."""
    folder = Path(folder)
    folder = folder / "mnist" if (folder / "mnist").is_dir() else folder
    prefix = {"train": "train", "test": "t10k"}.get(split)
    if prefix is None:
        raise ValueError(f"split={split!r} must be 'train' or 'test'")
    images = read_idx(_find(folder, f"{prefix}-images-idx3-ubyte"))
    labels = read_idx(_find(folder, f"{prefix}-labels-idx1-ubyte"))
    if images.ndim != 3 or labels.ndim != 1 or images.shape[0] != labels.shape[0]:
        raise ValueError(f"MNIST images {images.shape} and labels {labels.shape} do not match")
    return images.reshape(images.shape[0], -1).T / 255.0, labels.astype(int)


def load_cifar10(folder, split: str = "train"):
    """(X (1024, n) grayscale in [0, 1], labels (n,)) from the python pickle batches in
    ``folder`` (or its ``cifar-10-batches-py`` subfolder); grayscale by ITU-R 601 luma."""
    folder = Path(folder)
    folder = folder / "cifar-10-batches-py" if (folder / "cifar-10-batches-py").is_dir() else folder
    names = {"train": [f"data_batch_{i}" for i in range(1, 6)], "test": ["test_batch"]}.get(split)
    if names is None:
        raise ValueError(f"split={split!r} must be 'train' or 'test'")
    names = [n for n in names if (folder / n).exists()]
    if not names:
        raise FileNotFoundError(f"{folder} holds no CIFAR-10 {split} batches")
    data, labels = [], []
    for name in names:
        with open(folder / name, "rb") as f:
            batch = pickle.load(f, encoding="bytes")
        data.append(np.asarray(batch[b"data"], dtype=np.uint8))
        labels.append(np.asarray(batch[b"labels"], dtype=int))
    rgb = np.concatenate(data).reshape(-1, 3, 1024) / 255.0
    return np.einsum("c,ncp->pn", LUMA, rgb), np.concatenate(labels)


def load_digits_split(n_test: int = 500, seed: int = 0):
    """scikit-learn's 8x8 digits as the MNIST stand-in: (Xtr, ytr, Xte, yte), pixels / 16 in
    [0, 1], a seeded random split with ``n_test`` test images (BL App E uses 500)."""
    from sklearn.datasets import load_digits
    d = load_digits()
    order = np.random.default_rng(seed).permutation(len(d.target))
    X, y = d.data[order].T / 16.0, d.target[order]
    return X[:, n_test:], y[n_test:], X[:, :n_test], y[:n_test]


def one_hot(labels, n_classes: int = 10) -> np.ndarray:
    """(n_classes, n) one-hot targets."""
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.min() < 0 or labels.max() >= n_classes:
        raise ValueError(f"labels must be 1-d integers in [0, {n_classes})")
    return np.eye(n_classes)[:, labels]


def preprocess(X_train, X_test, kind: str):
    """BL-Def-Prep.  ``'pixel'``: subtract the per-pixel training mean (L88; the test set uses the
    training mean, an assumption); ``'standard'``: subtract one scalar mean and divide by one scalar
    std over all training pixels (App C.1)."""
    X_train = finite_array(X_train, "X_train", ndim=2)
    X_test = finite_array(X_test, "X_test", ndim=2)
    if kind == "pixel":
        mean = X_train.mean(axis=1, keepdims=True)
        return X_train - mean, X_test - mean
    if kind == "standard":
        mu, sd = X_train.mean(), X_train.std()
        if sd == 0:
            raise ValueError("X_train is constant: scalar standardisation divides by 0")
        return (X_train - mu) / sd, (X_test - mu) / sd
    raise ValueError(f"kind={kind!r} must be 'pixel' or 'standard'")
