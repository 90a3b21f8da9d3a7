"""Machinery of numerics.lazy_rich: conventions, argument validation, shapes."""
import numpy as np
import pytest

from numerics.lazy_rich import configs, empirical, runs
from numerics.lazy_rich import kernels as kn
from numerics.lazy_rich import solution as so
from numerics.lazy_rich.init import (
    balance,
    lambda_balanced_init,
    layer_singular_values,
    weights_from_product,
)
from numerics.lazy_rich.tasks import random_task, task_svd, whitened_inputs
from numerics.lazy_rich.training import train_linear
from theory.conventions import MEAN_HALF, convention


def test_convention_is_half_mean_loss_with_tau_one_over_lr():
    conv = convention("lazy_rich")
    assert conv.flow == MEAN_HALF and conv.train == MEAN_HALF


def test_training_does_not_modify_the_callers_weights_and_uses_lr_steps_clock():
    task = random_task(3, 2, 5, np.random.default_rng(0))
    W1, W2 = lambda_balanced_init(0.5, 3, 2, 2, np.random.default_rng(1), scale=0.3)
    W1c, W2c = W1.copy(), W2.copy()
    hist = train_linear(W1[None], W2[None], task.X, task.Y, lr=0.01, steps=10, record_every=5)
    assert np.array_equal(W1, W1c) and np.array_equal(W2, W2c)
    assert np.allclose(hist.time, [0.0, 0.05, 0.1])


def test_bad_arguments_raise_named_errors():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="n_samples"):
        whitened_inputs(4, 3, rng)
    with pytest.raises(ValueError, match="n_hid"):
        lambda_balanced_init(1.0, 4, 3, 2, rng)
    with pytest.raises(ValueError, match="s must be non-negative"):
        layer_singular_values([-1.0], 0.0)
    with pytest.raises(ValueError, match="lam"):
        so.f_matrix(np.eye(2), np.nan)
    with pytest.raises(ValueError, match="syx"):
        task_svd(np.array([[np.inf, 0.0]]))
    with pytest.raises(ValueError, match="t must be non-negative"):
        so.qq_exact([-1.0], np.eye(2), np.eye(2), task_svd(np.eye(2)), 0.0)
    with pytest.raises(ValueError, match="identically zero"):
        kn.kernel_distance(np.zeros((2, 2)), np.eye(2))
    W1, W2 = lambda_balanced_init(0.0, 4, 4, 4, rng)
    task = random_task(4, 4, 6, rng)
    svd = task.svd
    B = so.init_variables(W1, W2, so.spectrum(svd, 0.0))[0]
    if np.linalg.cond(B) > 1e12:
        with pytest.raises(np.linalg.LinAlgError):
            so.qq_stable([1.0], W1, W2, svd, 0.0)


@pytest.mark.parametrize("shape", [(5, 2), (2, 5), (3, 3)])
def test_completion_and_weight_maps(shape):
    n_in, n_out = shape
    svd = random_task(n_in, n_out, 7, np.random.default_rng(2)).svd
    full_U = np.concatenate([svd.U, svd.U_perp], axis=1)
    full_V = np.concatenate([svd.V, svd.V_perp], axis=1)
    assert full_U.shape == (n_out, max(n_in, n_out)) and full_V.shape == (n_in, max(n_in, n_out))
    product = np.random.default_rng(3).standard_normal((n_out, n_in))
    W1, W2 = weights_from_product(product, -0.8)
    assert np.allclose(W2 @ W1, product) and np.allclose(balance(W1, W2), -0.8 * np.eye(min(shape)))


def test_layer_singular_values_are_accurate_for_large_lambda():
    s1, s2 = layer_singular_values(np.array([1e-3, 1.0]), 1e8)
    assert np.allclose(s1 * s2, [1e-3, 1.0], rtol=1e-12)


@pytest.mark.parametrize("shape", [(1, 1), (5, 2), (2, 5)])
def test_problem_from_numbers_is_whitened_and_exactly_balanced(shape):
    from numerics.lazy_rich.experiments import problem_from_numbers
    n_in, n_out = shape
    nh = min(shape)
    zeros = problem_from_numbers(n_in, n_out, 1.5, 1.0, [0.0] * (nh * n_in), [0.0] * (n_out * nh), [0.0] * (n_out * n_in), 0.0)
    rng = np.random.default_rng(4)
    drawn = problem_from_numbers(n_in, n_out, -0.7, 0.3, rng.standard_normal(nh * n_in), rng.standard_normal(n_out * nh),
                                 rng.standard_normal(n_out * n_in), 0.9)
    for lam, (task, W1, W2) in ((1.5, zeros), (-0.7, drawn)):
        assert np.allclose(task.sxx, np.eye(n_in), atol=1e-14)
        assert np.allclose(balance(W1, W2), lam * np.eye(nh), atol=1e-13)


@pytest.mark.parametrize("call, match", [
    (lambda: lambda_balanced_init(1.0, 4, 4, 4, np.random.default_rng(0), scale=np.nan), "scale"),
    (lambda: lambda_balanced_init(np.inf, 4, 4, 4, np.random.default_rng(0)), "lam"),
    (lambda: lambda_balanced_init(1.0, 0, 0, 4, np.random.default_rng(0)), "n_in"),
    (lambda: lambda_balanced_init(1.0, 4, 4, 4, 7), "rng"),
    (lambda: random_task(3, 2, 5, np.random.default_rng(0), target_std=-1.0), "target_std"),
    (lambda: whitened_inputs(3, 3, np.random.default_rng(0), centred=True), "n_samples"),
    (lambda: kn.rsm_in(np.ones((2, 3)), np.ones((4, 5))), "W1"),
    (lambda: so.qq_from_weights(np.ones((2, 3)), np.ones((4, 3))), "W1"),
    (lambda: so.blocks(np.eye(4), 0), "n_in"),
    (lambda: so.spectrum(np.eye(2), 1.0), "svd"),
    (lambda: balance(np.full((2, 2), np.nan), np.eye(2)), "W1"),
])
def test_public_functions_name_the_bad_argument(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_configurations_refuse_bad_values():
    with pytest.raises(ValueError, match="Framing.lr"):
        configs.Framing(scale="ci", seeds=(0,), lr=0.0)
    with pytest.raises(ValueError, match="Framing.steps"):
        configs.Framing(scale="ci", seeds=(0,), steps=-5)
    with pytest.raises(ValueError, match="seeds"):
        configs.Noise(scale="ci", seeds=(), draws=10)
    with pytest.raises(TypeError, match="config"):
        empirical.framing(configs.NOISE["ci"])


def test_runs_refuse_bad_schedules():
    task = random_task(3, 3, 6, np.random.default_rng(0))
    W1, W2 = lambda_balanced_init(0.5, 3, 3, 3, np.random.default_rng(1))
    with pytest.raises(ValueError, match="t_eval"):
        runs.flow(task, W1, W2, 0.5, [1.0, 0.5])
    with pytest.raises(ValueError, match="lr"):
        runs.continual([task], W1, W2, horizon=1.0, lr=0.0)
    with pytest.raises(ValueError, match="durations"):
        runs.chained([task, task], W1, W2, 0.5, [1.0])
    with pytest.raises(ValueError, match="kind"):
        runs.noise(configs.NOISE["ci"], "bias", 3, 3)
