"""Image data for BL Figs 1, 7, 8 and BA-T6/T7 in the papers' layout: real MNIST and grayscale
CIFAR-10 (read by the shared ``numerics.image_data``) as (n_pixels, n_images) float64 in [0, 1]
with integer labels, and the two preprocessings of BL-Def-Prep.
"""
from __future__ import annotations

import numpy as np

from numerics import image_data
from numerics.validation import InvalidArgument, finite_array

def load_mnist(folder, split: str = "train"):
    """(X (784, n) in [0, 1], labels (n,)): ``numerics.image_data.load_mnist`` as columns."""
    images, labels = image_data.load_mnist(folder, split)
    return image_data.as_columns(images), labels


def load_cifar10(folder, split: str = "train"):
    """(X (1024, n) grayscale in [0, 1], labels (n,)) by ITU-R 601 luma (BL App C.2)."""
    images, labels = image_data.load_cifar10(folder, split)
    return image_data.as_columns(image_data.grayscale(images)), labels


def one_hot(labels, n_classes: int = 10) -> np.ndarray:
    """(n_classes, n) one-hot targets."""
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.size == 0 or not np.issubdtype(labels.dtype, np.integer) \
            or labels.min() < 0 or labels.max() >= n_classes:
        raise InvalidArgument(f"labels must be 1-d integers in [0, {n_classes}), non-empty; got "
                         f"{labels.dtype} of shape {labels.shape}")
    return np.eye(n_classes)[:, labels]


def preprocess(X_train, X_test, kind: str):
    """BL-Def-Prep.  ``'pixel'``: subtract the per-pixel training mean (L88; the test set uses the
    training mean, an assumption); ``'standard'``: subtract one scalar mean and divide by one scalar
    std over all training pixels (App C.1)."""
    X_train = finite_array(X_train, "X_train", ndim=2)
    X_test = finite_array(X_test, "X_test", ndim=2)
    if X_test.shape[0] != X_train.shape[0]:
        raise InvalidArgument(f"X_test has {X_test.shape[0]} pixels per image, X_train {X_train.shape[0]}")
    if kind == "pixel":
        mean = X_train.mean(axis=1, keepdims=True)
        return X_train - mean, X_test - mean
    if kind == "standard":
        mu, sd = X_train.mean(), X_train.std()
        if sd == 0:
            raise InvalidArgument("X_train is constant: scalar standardisation divides by 0")
        return (X_train - mu) / sd, (X_test - mu) / sd
    raise InvalidArgument(f"kind={kind!r} must be 'pixel' or 'standard'")
