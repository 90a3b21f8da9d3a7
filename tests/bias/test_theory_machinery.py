"""Machinery of the bias theory checks: formula evaluation, strategies, numpy GD."""
import numpy as np
import pytest
from hypothesis import given, settings

from numerics.bias.theory_linear_gd import half_rise_step, init_weights, logistic_rate, \
    train_linear
from theory.bias import matrices as m
from numerics.bias.tasks import equal_overlap
from verify.bias import symbolic as sym
from verify.strategies import equal_overlap_labels, unbalanced_classes


def test_evaluate_refuses_non_conforming_products():
    dims = sym.dims_of(n_in=3, n_hid=4, n_out=2)
    with pytest.raises(sym.NonConformable):
        sym.evaluate(m.W2 * m.S, dims, {})
    values = dict(W2=np.ones((2, 4)), W1=np.ones((4, 3)))
    assert sym.evaluate(m.W2 * m.W1, dims, values).shape == (2, 3)
    with pytest.raises(ValueError, match="W1"):
        sym.evaluate(m.W2 * m.W1, dims, {"W2": np.ones((2, 4))})


def test_evaluate_does_not_broadcast_sums():
    dims = sym.dims_of(n_in=3, n_hid=4)
    with pytest.raises(sym.NonConformable):
        sym.evaluate(m.W1 * m.x + m.b, dims, dict(W1=np.ones((4, 3)), x=np.ones((3, 1)),
                                                 b=np.ones((4, 3))))


@settings(max_examples=30, deadline=None)
@given(Y=equal_overlap_labels())
def test_equal_overlap_labels_meet_the_condition(Y):
    assert equal_overlap(Y)


@settings(max_examples=30, deadline=None)
@given(Y=unbalanced_classes())
def test_unbalanced_classes_miss_it(Y):
    assert not equal_overlap(Y)


def test_numpy_gd_matches_the_flow_clock_and_validates_input():
    X, Y = np.eye(2), np.array([[1.0, 1.0]])
    U, V = np.ones((1, 1)), np.full((2, 1), 1 / np.sqrt(2))
    W1, W2 = init_weights([0, 1], 2, 3, 1, 1e-2)
    run = train_linear(X, Y, W1, W2, lr=0.01, steps=2000, U=U, V=V, record_every=5)
    assert run.loss[-1].max() < 1e-6 and run.loss.shape == (401, 2)
    rate = logistic_rate(run.steps, run.modes[:, 0, 0], 1 / np.sqrt(2) / 0.5)
    # s = 1/sqrt 2, d = 1/2, tau = 1/(P lr) = 50 steps: rate 2 s / tau, up to O(lr P s) ~ 1 %
    assert abs(rate / (2 / np.sqrt(2) / 50) - 1) < 0.02
    assert half_rise_step(run.steps, run.modes[:, 0, 0], np.sqrt(2)) > 0
    with pytest.raises(ValueError, match="lr"):
        train_linear(X, Y, W1, W2, lr=-1.0, steps=2, U=U, V=V)
    with pytest.raises(ValueError, match="W1"):
        train_linear(X, Y, W1[:, :, :1], W2, lr=0.1, steps=2, U=U, V=V)
    with pytest.raises(ValueError, match="X"):
        train_linear(np.full((2, 2), np.nan), Y, W1, W2, lr=0.1, steps=2, U=U, V=V)
