"""The batched trainer: one step equals a hand-written gradient step; ensembles equal loops."""
import numpy as np
import pytest
import torch

from numerics.models import TwoLayerEnsemble
from numerics.train import descend, gd_step, train
from theory.conventions import SUM_HALF, MEAN_HALF

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 5))
Y = RNG.standard_normal((2, 5))


def hand_step(W1, W2, lr, c, relu, mean):
    """One GD step of L = 1/2 (1/P if mean) sum ||Y - W2 act(W~1 x~)||^2, derived by hand."""
    Xa = np.vstack([np.full((1, X.shape[1]), c), X]) if c is not None else X
    Z = W1 @ Xa
    H = np.maximum(Z, 0) if relu else Z
    E = W2 @ H - Y
    scale = 1 / X.shape[1] if mean else 1.0
    gW2 = scale * E @ H.T
    gW1 = scale * ((W2.T @ E) * ((Z > 0) if relu else 1.0)) @ Xa.T
    return W1 - lr * gW1, W2 - lr * gW2


@pytest.mark.parametrize("activation", ["linear", "relu"])
@pytest.mark.parametrize("c", [None, -0.7, 3.0])
@pytest.mark.parametrize("loss", [SUM_HALF, MEAN_HALF])
def test_one_step_equals_the_hand_written_gradient_step(activation, c, loss):
    net = TwoLayerEnsemble.init([3, 4], 3, 6, 2, activation=activation, bias_strength=c,
                                init_std=0.5, device="cpu")
    before = [p.clone().numpy() for p in net.params]
    gd_step(net, torch.as_tensor(X), torch.as_tensor(Y), 0.05, loss)
    for k in range(2):
        W1, W2 = hand_step(before[0][k], before[1][k], 0.05, c, activation == "relu", loss.mean)
        assert np.allclose(net.W1[k].numpy(), W1, rtol=1e-12, atol=1e-14)
        assert np.allclose(net.W2[k].numpy(), W2, rtol=1e-12, atol=1e-14)


def test_an_ensemble_trains_exactly_like_a_loop_over_its_members():
    seeds, lrs = [0, 1, 2], np.array([0.01, 0.02, 0.005])
    batched = TwoLayerEnsemble.init(seeds, 3, 8, 2, bias_strength=1.0, init_std=0.3, device="cpu")
    history = train(batched, X, Y, lr=lrs, steps=50, paper="bias", record_every=10)
    for k, seed in enumerate(seeds):
        alone = TwoLayerEnsemble.init([seed], 3, 8, 2, bias_strength=1.0, init_std=0.3,
                                      device="cpu")
        h = train(alone, X, Y, lr=lrs[k], steps=50, paper="bias", record_every=10)
        assert torch.allclose(alone.W1[0], batched.W1[k], rtol=1e-12, atol=1e-15)
        assert np.allclose(h.loss[:, 0], history.loss[:, k], rtol=1e-12)
        assert np.allclose(h.time, history.time[:, k], rtol=1e-14)


def test_trajectory_time_is_the_papers_t_over_tau():
    net = TwoLayerEnsemble.init([0], 3, 4, 2, activation="linear", device="cpu")
    history = train(net, X, Y, lr=0.01, steps=20, paper="bias", record_every=5)
    # bias paper: tau = 1/(P lr) steps on the 1/2-sum loss, P = 5.
    assert np.allclose(history.time, history.steps * 5 * 0.01)
    assert history.loss.shape == (5, 1) and history.loss[-1, 0] < history.loss[0, 0]


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(lr=-0.1), ValueError, "lr=-0.1 must be positive"),
    (dict(lr=np.array([0.1, 0.2])), ValueError, r"lr must be a scalar or have shape \(1,\)"),
    (dict(steps=2.5), ValueError, "steps=2.5"),
    (dict(X=np.full((3, 5), np.nan)), ValueError, "X contains non-finite"),
    (dict(Y=np.ones((2, 4))), ValueError, "X has 5 samples but Y has 4"),
    (dict(X=np.ones(3)), ValueError, "X must have"),
])
def test_bad_input_names_the_argument(kwargs, error, message):
    net = TwoLayerEnsemble.init([0], 3, 4, 2, device="cpu")
    args = dict(X=X, Y=Y, lr=0.1, steps=3, paper="bias") | kwargs
    with pytest.raises(error, match=message):
        train(net, **args)


@pytest.mark.parametrize("kwargs, message", [
    (dict(n_hid=0), "n_hid=0"), (dict(init_std=-1.0), "init_std=-1.0"),
    (dict(activation="tanh"), "activation='tanh'"),
])
def test_bad_model_arguments_are_named(kwargs, message):
    args = dict(seeds=[0], n_in=3, n_hid=4, n_out=2) | kwargs
    with pytest.raises(ValueError, match=message):
        TwoLayerEnsemble.init(**args)


def test_inputs_of_the_wrong_width_are_rejected():
    net = TwoLayerEnsemble.init([0], 3, 4, 2, bias_strength=1.0, device="cpu")
    with pytest.raises(ValueError, match="X has 2 input rows; the networks take 3"):
        net(torch.ones(2, 5, dtype=torch.float64))


@pytest.mark.parametrize("activation", ["linear", "relu"])
def test_written_out_gradients_equal_autograd(activation):
    net = TwoLayerEnsemble.init([5, 6, 7], 3, 6, 2, activation=activation, bias_strength=0.8,
                                init_std=0.5, device="cpu")
    Xt, Yt = torch.as_tensor(X), torch.as_tensor(Y)
    losses, grads = net.gradients(Xt, Yt, 0.5)
    for p in net.params:
        p.requires_grad_(True)
    auto = torch.autograd.grad((0.5 * ((net(Xt) - Yt) ** 2).sum(dim=(1, 2))).sum(), net.params)
    assert all(torch.allclose(g, a, rtol=1e-12, atol=1e-15) for g, a in zip(grads, auto))


def test_torch_threads_sets_and_restores_the_thread_count():
    from numerics.models import torch_threads
    before = torch.get_num_threads()
    with torch_threads(1):
        assert torch.get_num_threads() == 1
    with torch_threads(None):
        assert torch.get_num_threads() == before
    assert torch.get_num_threads() == before
    with pytest.raises(ValueError, match="n=0"):
        with torch_threads(0):
            pass


def test_descend_records_at_step_zero_every_record_every_steps_and_at_the_end():
    taken = []
    trace = descend(lambda X, Y, lr, loss: taken.append(lr),
                    lambda X, Y, loss: np.full(2, len(taken)), X, Y, lr=0.1, loss=SUM_HALF, steps=7, record_every=3,
                    record=lambda: {"n": np.array([len(taken)] * 2)})
    assert len(taken) == 7 and trace.steps.tolist() == [0, 3, 6, 7]
    assert trace.loss[:, 0].tolist() == [0, 3, 6, 7] and trace.records["n"].shape == (4, 2)


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(steps=-1), ValueError, "steps=-1"), (dict(record_every=0), ValueError, "record_every=0"),
    (dict(loss="sum"), TypeError, "loss must be a theory.conventions.LossNorm"),
    (dict(step=None), TypeError, "step, losses and record"),
])
def test_descend_names_the_bad_argument(kwargs, error, message):
    args = dict(step=lambda *a: None, losses=lambda X, Y, loss: np.zeros(1), X=X, Y=Y, lr=0.1,
                loss=SUM_HALF, steps=3) | kwargs
    with pytest.raises(error, match=message):
        descend(**args)


def test_the_numpy_linear_trainer_and_the_torch_trainer_are_one_loop():
    """The same loop with the numpy step (bias theory) and the torch step (two-layer ensemble)."""
    from numerics.bias.theory_linear_gd import init_weights, train_linear
    W1, W2 = init_weights([0, 1], 3, 4, 2, 0.3)
    run = train_linear(X, Y, W1, W2, lr=0.01, steps=40, U=np.eye(2), V=np.eye(3)[:, :2],
                       record_every=8)
    net = TwoLayerEnsemble(torch.as_tensor(W1), torch.as_tensor(W2), activation="linear")
    history = train(net, X, Y, lr=0.01, steps=40, paper="bias", loss=SUM_HALF, record_every=8)
    assert np.array_equal(run.steps, history.steps)
    assert np.allclose(run.loss, history.loss, rtol=1e-12, atol=0)


def test_the_numpy_linear_trainer_takes_the_loss_normalisation():
    """On the 1/2-mean loss a step at rate lr is a 1/2-sum step at rate lr / P."""
    from numerics.bias.theory_linear_gd import init_weights, train_linear
    W1, W2 = init_weights([3], 3, 4, 2, 0.3)
    args = dict(steps=25, U=np.eye(2), V=np.eye(3)[:, :2], record_every=5)
    mean = train_linear(X, Y, W1, W2, lr=0.05, loss=MEAN_HALF, **args)
    total = train_linear(X, Y, W1, W2, lr=0.05 / X.shape[1], **args)
    assert np.allclose(mean.outputs, total.outputs, rtol=1e-12, atol=1e-15)
    assert np.allclose(mean.loss * X.shape[1], total.loss, rtol=1e-12)


def test_the_gated_trainer_is_the_loop_with_the_gated_step():
    from numerics.haste_slowly.gated import GatedNet, init_weights as gated_init, train as gated
    weights = gated_init([0, 1], [(4, 3), (2, 4)], [0.5, 0.5])
    net, same = (GatedNet([W.clone() for W in weights], [None]) for _ in range(2))
    history = gated(net, X, Y, lr=0.05, steps=12, loss=MEAN_HALF, record_every=4)
    trace = descend(same.step, lambda X, Y, loss: same.grads(X, Y, loss)[0],
                    torch.as_tensor(X), torch.as_tensor(Y), lr=0.05, loss=MEAN_HALF, steps=12,
                    record_every=4)
    assert np.array_equal(history.loss, trace.loss) and np.array_equal(history.steps, trace.steps)
    with pytest.raises(ValueError, match="lr=-0.05 must be positive"):
        gated(net, X, Y, lr=-0.05, steps=1)
