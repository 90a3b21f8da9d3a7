"""numerics.bias.instances' flow-loss rates (BL-Eq(19-20)), harness loss (BL-Setting, BA-S2)
and one harness GD step (BA-S2) against their closed forms, and bad input."""
import numpy as np
import pytest
import torch

from numerics.bias.instances import (autograd_rates, flow_loss_rates, gd_step_weights,
                                     instance_loss, network_instance)
from numerics.validation import InvalidArgument


def _flow(seed=0, n_in=4, n_hid=3, n_out=2):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((n_hid, n_in)), rng.standard_normal((n_out, n_hid)),
            rng.standard_normal((n_out, n_in)), rng.standard_normal((n_in, n_in)))


def test_flow_loss_rates_are_the_linear_flow():
    W1, W2, Syx, Sx = _flow()
    Sx = Sx @ Sx.T
    r1, r2 = flow_loss_rates(W1, W2, Syx, Sx)
    err = Syx - W2 @ W1 @ Sx
    np.testing.assert_allclose(r1, W2.T @ err, rtol=1e-12, atol=1e-12)
    # for a symmetric Sx: tau W2' = (Syx - W2 W1 Sx) W1^T
    np.testing.assert_allclose(r2, err @ W1.T, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("which, bad, message", [
    (2, np.ones((3, 4)), r"\bSyx must have shape \(2, 4\)"),
    (0, np.full((3, 4), np.nan), r"\bW1 contains non-finite"),
    (1, np.ones((2, 5)), r"\bW2 \(2, 5\) must have 3 columns"),
])
def test_flow_loss_rates_bad_input_names_the_argument(which, bad, message):
    args = list(_flow())
    args[which] = bad
    with pytest.raises(InvalidArgument, match=message):
        flow_loss_rates(*args)


@pytest.mark.parametrize("activation", ["relu", "linear"])
def test_instance_loss_is_the_half_sum_loss(activation):
    values, model = network_instance(3, 5, 2, 6, 0.8, 2, activation=activation)
    expected = 0.5 * np.sum((values["Y"] - values["W2"] @ values["H"]) ** 2)
    assert instance_loss(model, values["X"], values["Y"]) == pytest.approx(expected, rel=1e-13)


@pytest.mark.parametrize("activation", ["relu", "linear"])
def test_one_gd_step_moves_by_the_autograd_rates_and_leaves_the_model(activation):
    values, model = network_instance(3, 5, 2, 6, 0.8, 2, activation=activation)
    before = model.W1.clone(), model.W2.clone()
    W1, W2 = gd_step_weights(model, values["X"], values["Y"], 0.05)
    assert torch.equal(model.W1, before[0]) and torch.equal(model.W2, before[1])
    rates = autograd_rates(model, values["X"], values["Y"], 0.05)
    np.testing.assert_allclose(W1[:, 1:], values["W1"] + rates["W1"], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(W1[:, :1], values["b"] + rates["b"], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(W2, values["W2"] + rates["W2"], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("call, message", [
    (lambda m, X, Y: gd_step_weights(m, X, Y, 0.0), r"\blr=0.0 must be positive"),
    (lambda m, X, Y: gd_step_weights(m, X, Y, np.nan), r"\blr=nan must be finite"),
    (lambda m, X, Y: gd_step_weights(m, X, Y[:, :3], 0.1), r"\bX \(3, 6\) and Y \(2, 3\)"),
    (lambda m, X, Y: instance_loss(m, X[0], Y), r"\bX must have 2 dimensions"),
    (lambda m, X, Y: instance_loss(m, X, np.full_like(Y, np.inf)), r"\bY contains non-finite"),
])
def test_loss_and_step_bad_input_names_the_argument(call, message):
    values, model = network_instance(3, 5, 2, 6, 1.0, 0)
    with pytest.raises(InvalidArgument, match=message):
        call(model, values["X"], values["Y"])
