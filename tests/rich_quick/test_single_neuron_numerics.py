"""Machinery of the single-neuron numerics (rich_quick Sec 3, App A, Fig. 1): argument checks name
the argument, and the closed forms agree with their own definitions."""
import numpy as np
import pytest

from numerics.rich_quick import single_neuron as sn
from numerics.rich_quick import single_neuron_teacher_student as ts


@pytest.mark.parametrize("call, match", [
    (lambda: sn.delta_of(1.0, [1.0], eta_a=-1.0), "eta_a"),
    (lambda: sn.weight_rhs(np.ones((3, 2)), np.ones(4)), "rows"),
    (lambda: sn.mu_phi(1.0, np.ones(2), np.zeros(2)), "beta_star"),
    (lambda: sn.preconditioner_from_beta(np.zeros(3), 1.0), "beta"),
    (lambda: sn.exact_solution([0.0, np.nan], 1.0, [1.0], [1.0]), "t"),
    (lambda: sn.exact_solution([0.0, 1.0], 0.0, [0.0, 1.0], [1.0, 0.0]), "saddle"),
    (lambda: sn.balanced_init([0.0, 0.0], -1.0), "beta0"),
    (lambda: sn.integrate(np.eye(2), np.ones(2), 1.0, [1.0, 2.0, 3.0], 1.0), "w0"),
    (lambda: sn.gradient_descent(np.eye(2), np.ones(2), 1.0, [1.0, 1.0], -0.1, 3), "lr"),
    (lambda: sn.integrate_coordinates(lambda y: y, [1.0], [0.0, np.nan]), "t_eval"),
    (lambda: ts.geometry_alpha(0.0, 1.0), "tau"),
    (lambda: ts.make_task(0, d=2, h=5, k=3, n=4, n_test=4), "even"),
])
def test_bad_arguments_raise_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_balanced_init_hits_product_and_delta():
    beta0 = np.array([0.3, -1.2, 0.5])
    for d in (-2.0, 0.0, 1.5):
        a0, w0 = sn.balanced_init(beta0, d, 0.3, 2.5)
        assert np.allclose(a0 * w0, beta0) and np.isclose(sn.delta_of(a0, w0, 0.3, 2.5), d)


def test_fig1_geometry_gives_the_requested_delta_per_neuron():
    """Up to the float32 normalisation of the base directions, which the released code draws
    in float32 (so |delta_i - delta| ~ 1e-7 tau^2)."""
    task = ts.make_task(0, d=3, h=6, k=2, n=5, n_test=5)
    for tau, delta in [(0.1, 1.0), (2.0, -0.5), (0.5, 0.0)]:
        al = ts.geometry_alpha(tau, delta)
        W, a = task.base_w * tau / al, task.base_a * tau * al
        assert np.allclose(a ** 2 - np.sum(W ** 2, axis=1), delta, rtol=0, atol=1e-6 * tau ** 2)
    assert np.allclose(ts.relu_net(task.X, task.base_w, task.base_a), 0)      # symmetrised


def test_batched_ntk_matches_its_definition():
    import torch
    rng = np.random.default_rng(1)
    X, W, a = rng.standard_normal((4, 3)), rng.standard_normal((1, 5, 3)), rng.standard_normal((1, 5))
    K = ts.ntk(torch.as_tensor(X), torch.as_tensor(W), torch.as_tensor(a))[0].numpy()
    pre = X @ W[0].T
    J = np.concatenate([np.maximum(pre, 0), ((pre > 0) * a[0])[:, :, None].repeat(3, 2).reshape(4, -1)
                        * np.tile(X, 5)], axis=1)
    assert np.allclose(K, J @ J.T)


def test_riccati_closed_form_solves_its_ode_numerically():
    from scipy.integrate import solve_ivp
    t = np.linspace(0, 3, 31)
    for P, Q, S_, x0 in [(1.3, -0.7, 0.4, 0.2), (0.3, 2.0, 1.5, -0.1)]:
        sol = solve_ivp(lambda _, x: P + Q * x - S_ * x ** 2, (0, 3), [x0], t_eval=t, rtol=1e-12, atol=1e-14)
        assert np.max(np.abs(sn.riccati(t, x0, P, Q, S_) - sol.y[0])) < 1e-9


def test_gradient_descent_and_the_coordinate_integrator_follow_the_flow():
    X, y = np.eye(2), np.array([0.5, 1.0])
    flow = sn.integrate(X, y, 0.6, [0.3, 0.4], 1.0, t_eval=[0.0, 1.0])
    a, w = sn.gradient_descent(X, y, 0.6, [0.3, 0.4], 1e-3, 1000)     # t = lr * steps = 1
    assert np.allclose(a * w, flow.states["a"][-1] * flow.states["w"][:, -1], atol=2e-3)
    t = np.linspace(0, 2, 5)
    assert np.allclose(sn.integrate_coordinates(lambda z: -z, [1.0], t)[0], np.exp(-t), atol=1e-10)
